//! Multi-PV: the `n` best root moves with their exact minimax values at each depth, found by
//! searches that each exclude the moves ranked above them.

use std::time::Instant;

use super::time::TimePlan;
use super::{Bound, Limits, SearchResult};

/// What a multi-PV search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hints {
    /// The moves of the last completed depth, best first.
    pub moves: Vec<SearchResult>,
    /// Positions visited by all the searches.
    pub nodes: u64,
}

/// One search of a multi-PV depth: among `moves`, to `limits.depth` (its first iteration too),
/// the aspiration window centred on `guess`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RankSearch {
    /// The root moves left to the rank (a square mask).
    pub moves: u64,
    /// The depth (a single iteration) and what is left of the whole search's time.
    pub limits: Limits,
    /// This rank's score a depth before, if known.
    pub guess: Option<i32>,
}

/// The `n` best of the root moves `candidates` (`n` at least 1 and at most their number),
/// depth by depth up to `max_depth`, within `plan`: the k-th search of a depth runs over the
/// root moves its k - 1 better ones left, so every score is the exact minimax value of its move
/// at that depth. `search` runs one such search (one iteration); `observer` gets the `n`
/// results of each completed depth together. Returns the last completed depth's results (when
/// stopped before the first depth completed, the moves found so far, the last a fallback), and
/// ends when every move is solved, `stopped()` says so, or the plan's target time has passed.
pub(crate) fn multi_pv(
    n: usize,
    candidates: u64,
    max_depth: u32,
    plan: &TimePlan,
    search: &mut dyn FnMut(RankSearch) -> SearchResult,
    stopped: &dyn Fn() -> bool,
    observer: &mut (dyn FnMut(&[SearchResult]) + Send),
) -> Hints {
    let mut best: Vec<SearchResult> = Vec::new();
    let mut nodes = 0;
    for depth in 1..=max_depth {
        // One iteration per move, under what is left of the whole search's time.
        let limits = Limits {
            depth: Some(depth),
            move_time: plan.remaining(Instant::now()),
            clock: None,
        };
        let mut row: Vec<SearchResult> = Vec::with_capacity(n);
        let mut moves = candidates;
        while row.len() < n {
            let result = search(RankSearch {
                moves,
                limits,
                guess: best.get(row.len()).map(|r| r.score),
            });
            nodes += result.nodes;
            let complete = result.bound != Bound::Estimate || result.depth == depth;
            if !complete {
                // Stopped inside the iteration: the row is incomplete.
                if best.is_empty() {
                    // Not even depth 1: the moves found so far, the last a fallback.
                    row.push(result);
                    observer(&row);
                    best = row;
                }
                return Hints { moves: best, nodes };
            }
            if let Some(sq) = result.best_move.square() {
                moves &= !(1u64 << sq.index());
            }
            row.push(result);
        }
        observer(&row);
        let solved = row.iter().all(|r| r.bound == Bound::Exact);
        best = row;
        if solved || stopped() || plan.past_target(Instant::now()) {
            break;
        }
    }
    Hints { moves: best, nodes }
}
