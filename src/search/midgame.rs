//! The depth-limited search: negamax PVS over the hash table with Multi-ProbCut, move ordering by
//! shallow searches and mobility, and Young Brothers Wait splits over rayon. When the remaining
//! depth covers every empty square it hands over to the exact solver.
//!
//! Scores are disc differences for the side to move, like the solver's, so both share the hash
//! table: an exact endgame entry answers any depth.

use crate::board::Board;
use crate::board::movegen::{flips, moves, potential_moves};
use crate::eval::SearchEval;
use crate::search::control::{self, Control};
use crate::search::endgame::{EndgameSearch, SCORE_MAX};
use crate::search::probcut;
use crate::search::tt::{NO_MOVE, SEL_EXACT, TranspositionTable, TtData};

const SCORE_INF: i32 = 127;
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The ProbCut confidence levels: `(t, percent)`, the cut being taken when the shallow result is
/// `t` standard deviations beyond the bound. The last level does no ProbCut.
pub const SELECTIVITY: [(f32, u8); 6] = [
    (1.1, 73),
    (1.5, 87),
    (2.0, 95),
    (2.6, 98),
    (3.3, 99),
    (f32::INFINITY, 100),
];

/// The index of the level without ProbCut in [`SELECTIVITY`].
pub const NO_SELECTIVITY: usize = SELECTIVITY.len() - 1;

/// Depth from which a null-window node splits its later moves over the threads (8 beat 5 on
/// ten XOT openings at depth 15: 1.43× against 1.36× on 2 threads).
const SPLIT_MIN_DEPTH: u32 = 8;

/// A selective search that reaches the end of the game (depth = empties, ProbCut on) hands
/// over to the exact solver at this many empties. 14 against 12 and 16 on FFO #40-#49: within
/// 5% in nodes, the fewest calls of the slow midgame search.
const SELECTIVE_END_MIN_EMPTIES: u32 = 14;

/// One root move with the score of its last completed search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    /// The square (0..=63).
    pub sq: u8,
    /// The discs it flips.
    pub flips: u64,
    /// Score of the last search of this move (`-SCORE_INF` before any).
    pub score: i32,
}

impl RootMove {
    /// The root moves of `board` restricted to `allowed` (a bitboard of squares).
    pub fn list(board: &Board, allowed: u64) -> Vec<RootMove> {
        let mut m = board.legal_moves().0 & allowed;
        let mut out = Vec::new();
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push(RootMove {
                sq: sq as u8,
                flips: flips(board.player, board.opponent, sq),
                score: -SCORE_INF,
            });
        }
        out
    }
}

/// A move of a node's list: its square, flips, ordering value, and the opponent's replies once
/// the ordering generated them.
#[derive(Clone, Copy, Debug, Default)]
struct Child {
    sq: u8,
    flips: u64,
    value: i32,
    replies: Option<u64>,
}

/// One thread's depth-limited search over the evaluation `E` (static dispatch: the search is
/// compiled for each evaluation), which carries its incremental state from node to node.
pub(crate) struct MidgameSearch<'a, E: SearchEval + ?Sized> {
    tt: &'a TranspositionTable,
    eval: &'a E,
    control: Control<'a>,
    poll: u32,
    parallel: bool,
    selectivity: usize,
    /// Positions visited (evaluated leaves and exact-solver nodes included).
    pub nodes: u64,
    aborted: bool,
}

impl<'a, E: SearchEval + ?Sized> MidgameSearch<'a, E> {
    /// A search at ProbCut level `selectivity` (see [`SELECTIVITY`]), splitting over the current
    /// rayon pool when `parallel`.
    pub fn new(
        tt: &'a TranspositionTable,
        eval: &'a E,
        control: Control<'a>,
        parallel: bool,
        selectivity: usize,
    ) -> Self {
        MidgameSearch {
            tt,
            eval,
            control,
            poll: 1,
            parallel: parallel && rayon::current_num_threads() > 1,
            selectivity: selectivity.min(NO_SELECTIVITY),
            nodes: 0,
            aborted: false,
        }
    }

    /// [`MidgameSearch::pvs`] of `board`, whose evaluation state is computed here.
    pub fn search_board(&mut self, board: &Board, alpha: i32, beta: i32, depth: u32) -> i32 {
        let state = self.eval.state(board);
        self.pvs(board.player, board.opponent, &state, alpha, beta, depth)
    }

    /// Whether the search was stopped (its scores are then meaningless).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The static evaluation from the position's state, counted as a node; `player_moves`:
    /// the side to move's legal moves when known.
    #[inline]
    fn evaluate(&mut self, p: u64, o: u64, state: &E::State, player_moves: Option<u64>) -> i32 {
        self.nodes += 1;
        let board = Board {
            player: p,
            opponent: o,
        };
        self.eval.evaluate_with(&board, state, player_moves)
    }

    /// Searches `root` (the moves of `board`, best guess first) at `depth` in `(alpha, beta)`.
    /// Updates each move's score (exact for the best move when inside the window, bounds for the
    /// others) and returns the best score and the index of the best move. The list is left
    /// sorted best first.
    #[allow(
        clippy::needless_range_loop,
        reason = "the loop writes back into `root[i]`"
    )]
    pub fn root(
        &mut self,
        board: &Board,
        root: &mut [RootMove],
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> (i32, usize) {
        let (p, o) = (board.player, board.opponent);
        let state = self.eval.state(board);
        let mut best = -SCORE_INF;
        let mut best_index = 0;
        for i in 0..root.len() {
            let mv = root[i];
            let (cp, co) = (o ^ mv.flips, p | mv.flips | 1 << mv.sq);
            let cs = self.eval.play(&state, mv.sq as usize, mv.flips);
            let mut score;
            if i == 0 {
                score = -self.pvs(cp, co, &cs, -beta, -alpha, depth - 1);
            } else {
                score = -self.pvs(cp, co, &cs, -alpha - 1, -alpha, depth - 1);
                if !self.aborted && score > alpha && score < beta {
                    score = -self.pvs(cp, co, &cs, -beta, -alpha, depth - 1);
                }
            }
            if self.aborted {
                break;
            }
            root[i].score = score;
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if !self.aborted {
            // Best first; moves not searched after a cut-off keep their old order at the end.
            let best_move = root[best_index];
            root.copy_within(0..best_index, 1);
            root[0] = best_move;
            best_index = 0;
        }
        (best, best_index)
    }

    /// Negamax PVS, fail-soft, at `depth` plies (passes are free); `state`: the evaluation's
    /// state of `(p, o)`. A depth that covers every empty square is exact without selectivity;
    /// with it, the search goes on to the end with ProbCut and calls the exact solver at
    /// [`SELECTIVE_END_MIN_EMPTIES`].
    pub fn pvs(
        &mut self,
        p: u64,
        o: u64,
        state: &E::State,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
    ) -> i32 {
        let empties = (p | o).count_zeros();
        let mut depth = depth;
        if depth >= empties {
            if self.selectivity >= NO_SELECTIVITY || empties <= SELECTIVE_END_MIN_EMPTIES {
                return self.exact(p, o, alpha, beta, empties);
            }
            // A selective endgame search: every empty square, with ProbCut.
            depth = empties;
        }
        if depth == 0 {
            return self.evaluate(p, o, state, None);
        }
        self.nodes += 1;
        if self.control.should_stop(&mut self.poll) {
            self.aborted = true;
            return 0;
        }
        let board = Board {
            player: p,
            opponent: o,
        };
        let hash = board.hash();
        let mut hash_move = NO_MOVE;
        let selectivity = 1 + self.selectivity as u8;
        if let Some(entry) = self.tt.probe(&board, hash) {
            let usable = if entry.selectivity == SEL_EXACT {
                entry.depth as u32 == empties
            } else {
                entry.depth as u32 >= depth && entry.selectivity >= selectivity
            };
            if usable && let Some(score) = entry.narrow(&mut alpha, &mut beta) {
                return score;
            }
            hash_move = entry.best_move;
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return board.final_score();
            }
            return -self.pvs(o, p, &self.eval.pass(state), -beta, -alpha, depth);
        }
        if let Some(score) = self.probcut(p, o, state, alpha, beta, depth, empties) {
            return score;
        }
        let mut list = [Child::default(); 34];
        let mut len = 0;
        let mut m = legal;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, x);
            if f == o {
                return SCORE_MAX;
            }
            list[len] = Child {
                sq: x as u8,
                flips: f,
                value: 0,
                replies: None,
            };
            len += 1;
        }
        self.order(p, o, state, &mut list[..len], hash_move, depth);
        if self.aborted {
            return 0;
        }
        let alpha_start = alpha;
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        for i in 0..len {
            if i == 1 && self.parallel && depth >= SPLIT_MIN_DEPTH && beta == alpha + 1 && len > 2 {
                let (score, sq) = self.split(p, o, state, alpha, &list[1..len], depth);
                if self.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = sq;
                }
                break;
            }
            let Child {
                sq: x,
                flips: f,
                replies,
                ..
            } = list[i];
            let (cp, co) = (o ^ f, p | f | 1 << x);
            let cs = self.eval.play(state, x as usize, f);
            let mut score;
            if depth == 1 && (cp | co) != u64::MAX {
                // A leaf: its static value with the replies the ordering generated. A
                // null-window search inside the window would be searched again for the same
                // value: counted, not repeated.
                score = -self.evaluate(cp, co, &cs, replies);
                if i > 0 && score > alpha && score < beta {
                    self.nodes += 1;
                }
            } else if i == 0 {
                score = -self.pvs(cp, co, &cs, -beta, -alpha, depth - 1);
            } else {
                score = -self.pvs(cp, co, &cs, -alpha - 1, -alpha, depth - 1);
                if !self.aborted && score > alpha && score < beta {
                    score = -self.pvs(cp, co, &cs, -beta, -alpha, depth - 1);
                }
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = x;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.tt.store(
            &board,
            hash,
            TtData::from_result(best, alpha_start, beta, best_move, depth, selectivity),
        );
        best
    }

    /// The exact score, from the endgame solver (shares the hash table and the stop conditions).
    fn exact(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        let mut solver =
            EndgameSearch::with_control(self.tt, self.control).with_evaluator(self.eval);
        if self.parallel {
            solver = solver.parallel();
        }
        let score = solver.dispatch(p, o, alpha, beta, empties);
        self.nodes += solver.nodes;
        if solver.aborted() {
            self.aborted = true;
            return 0;
        }
        score
    }

    /// Multi-ProbCut: a shallow null-window search predicts whether the deep one would fail high
    /// (or low) with the confidence of the current level; if so, returns the bound.
    #[allow(
        clippy::too_many_arguments,
        reason = "the node's board, state, window, depth and empties, all in the hot path"
    )]
    fn probcut(
        &mut self,
        p: u64,
        o: u64,
        state: &E::State,
        alpha: i32,
        beta: i32,
        depth: u32,
        empties: u32,
    ) -> Option<i32> {
        if self.selectivity >= NO_SELECTIVITY || depth < probcut::MIN_DEPTH {
            return None;
        }
        let shallow = probcut::shallow_depth(depth);
        let (a, b, sigma) = probcut::parameters(depth, empties);
        let t = SELECTIVITY[self.selectivity].0;
        let high = ((beta as f32 + t * sigma - a) / b).ceil() as i32;
        if beta < SCORE_MAX && high < SCORE_MAX {
            let score = self.pvs(p, o, state, high - 1, high, shallow);
            if self.aborted {
                return Some(0);
            }
            if score >= high {
                return Some(beta);
            }
        }
        let low = ((alpha as f32 - t * sigma - a) / b).floor() as i32;
        if alpha > -SCORE_MAX && low > -SCORE_MAX {
            let score = self.pvs(p, o, state, low, low + 1, shallow);
            if self.aborted {
                return Some(0);
            }
            if score <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Orders `list` best first: the hash move, then by a shallow search of each child (from
    /// depth 3), the opponent's mobility (corners counting double) and potential mobility.
    fn order(
        &mut self,
        p: u64,
        o: u64,
        state: &E::State,
        list: &mut [Child],
        hash_move: u8,
        depth: u32,
    ) {
        let sort_depth = match depth {
            0..=2 => None,
            3..=5 => Some(0),
            6..=9 => Some(1),
            _ => Some(2),
        };
        for entry in list.iter_mut() {
            let (x, f) = (entry.sq, entry.flips);
            if x == hash_move {
                entry.value = 1 << 24;
                continue;
            }
            let (cp, co) = (o ^ f, p | f | 1 << x);
            if depth >= 2 {
                // The child probes the table first thing: start loading its bucket.
                self.tt.prefetch(
                    Board {
                        player: cp,
                        opponent: co,
                    }
                    .hash(),
                );
            }
            let replies = moves(cp, co);
            entry.replies = Some(replies);
            let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            let potential = potential_moves(cp, co).count_ones() as i32;
            let mut value = -16 * mobility - 4 * potential;
            if let Some(d) = sort_depth {
                let cs = self.eval.play(state, x as usize, f);
                let score = if d == 0 && (cp | co) != u64::MAX {
                    // The child's static value, with the replies just generated.
                    -self.evaluate(cp, co, &cs, Some(replies))
                } else {
                    -self.pvs(cp, co, &cs, -SCORE_MAX, SCORE_MAX, d)
                };
                if self.aborted {
                    return;
                }
                value += 32 * score;
            }
            entry.value = value;
        }
        list.sort_unstable_by_key(|e| -e.value);
    }

    /// Searches `moves` of a null-window node `(alpha, alpha + 1)` in parallel; the first child
    /// that fails high cancels its siblings. Returns the best score and its move.
    fn split(
        &mut self,
        p: u64,
        o: u64,
        state: &E::State,
        alpha: i32,
        moves: &[Child],
        depth: u32,
    ) -> (i32, u8) {
        let (tt, eval, selectivity) = (self.tt, self.eval, self.selectivity);
        let (best, sq, nodes) = control::split(
            &self.control,
            moves,
            alpha,
            -SCORE_INF,
            |&Child {
                 sq: x, flips: f, ..
             },
             control| {
                let mut sub = MidgameSearch::new(tt, eval, control, true, selectivity);
                let cs = eval.play(state, x as usize, f);
                let score = -sub.pvs(o ^ f, p | f | 1 << x, &cs, -alpha - 1, -alpha, depth - 1);
                (score, x, sub.nodes, sub.aborted)
            },
        );
        self.nodes += nodes;
        if self.control.is_set() {
            self.aborted = true;
        }
        (best, sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};
    use crate::eval::{Evaluator, HandEval};
    use std::sync::atomic::AtomicBool;

    /// Plain negamax to `depth` with the same conventions (passes free, exact when the depth
    /// covers the empties).
    fn minimax(board: &Board, depth: u32) -> i32 {
        let legal = board.legal_moves();
        if legal.is_empty() {
            if board.pass().legal_moves().is_empty() {
                return board.final_score();
            }
            return -minimax(&board.pass(), depth);
        }
        if depth >= board.empty_count() {
            return legal
                .iter()
                .map(|sq| -minimax(&board.play(Move::Play(sq)), depth - 1))
                .max()
                .unwrap();
        }
        if depth == 0 {
            return HandEval.evaluate(board);
        }
        legal
            .iter()
            .map(|sq| -minimax(&board.play(Move::Play(sq)), depth - 1))
            .max()
            .unwrap()
    }

    fn random_board(seed: u64, plies: usize) -> Board {
        let mut state = seed | 1;
        let mut board = Board::start();
        for _ in 0..plies {
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            if legal.is_empty() {
                if board.is_game_over() {
                    break;
                }
                board = board.pass();
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            board = board.play(Move::Play(legal[(state % legal.len() as u64) as usize]));
        }
        board
    }

    #[test]
    fn full_width_search_equals_minimax() {
        let stop = AtomicBool::new(false);
        for seed in 1..40u64 {
            let board = random_board(seed, 10 + (seed as usize * 7) % 45);
            for depth in 1..=3 {
                let tt = TranspositionTable::new(1);
                let mut search = MidgameSearch::new(
                    &tt,
                    &HandEval,
                    Control::new(&stop, None),
                    false,
                    NO_SELECTIVITY,
                );
                let score = search.pvs(
                    board.player,
                    board.opponent,
                    &(),
                    -SCORE_MAX,
                    SCORE_MAX,
                    depth,
                );
                assert_eq!(score, minimax(&board, depth), "seed {seed} depth {depth}");
            }
        }
    }
}
