//! Exact solving for the labels: single positions and lists of them through the
//! [`SolvedCache`].

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use super::solved_cache::SolvedCache;
use crate::board::Board;
use crate::eval::default_evaluator;
use crate::search::Scorer;
use crate::search::tt::TranspositionTable;

/// The exact score of `board` for the side to move, from `known` or by the solver (then `true`).
///
/// The solver orders the moves of its larger nodes by the engine's evaluation as well (the
/// compiled-in weights, parsed once per process by [`default_evaluator`]): exact
/// scores do not depend on the ordering, and it saves time (measured:
/// docs/lab/2026-11-22-trained-evaluation.md).
pub(super) fn solve(
    tt: &mut TranspositionTable,
    board: &Board,
    known: &HashMap<Board, i8>,
) -> (i32, bool) {
    if let Some(&score) = known.get(&board.canonical().0) {
        return (score as i32, false);
    }
    // Exact scores do not depend on what the table holds: no need to clear it.
    tt.new_search();
    let ordering = default_evaluator();
    let score = crate::eval::with_search_eval!(&ordering, eval => {
        Scorer::new(tt, eval).solve(board)
    });
    (score, true)
}

/// The exact scores of `boards` (side to move), in parallel; new ones go into `cache`. Solving
/// thousands of positions takes minutes: in a list of 1,000 or more, after each tenth `progress`
/// gets a line headed `what` and `solved` the cache (a run cut short keeps what it solved); a
/// shorter list hands the cache over once at its end, if it solved anything.
pub(super) fn solve_all(
    boards: &[Board],
    cache: &mut SolvedCache,
    what: &str,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> Vec<i32> {
    let start = Instant::now();
    let step = boards.len().div_ceil(10).max(1);
    let mut scores = Vec::with_capacity(boards.len());
    let mut unsaved = false;
    for chunk in boards.chunks(step) {
        let known = &cache.map;
        let results: Vec<(i32, bool)> = chunk
            .par_iter()
            .map_init(|| TranspositionTable::new(8), |tt, b| solve(tt, b, known))
            .collect();
        for (board, &(score, new)) in chunk.iter().zip(&results) {
            if new {
                cache.map.insert(board.canonical().0, score as i8);
            }
        }
        unsaved |= results.iter().any(|&(_, new)| new);
        scores.extend(results.into_iter().map(|(score, _)| score));
        let long = boards.len() >= 1000;
        if unsaved && (long || scores.len() == boards.len()) {
            solved(cache);
            unsaved = false;
        }
        if long {
            progress(&format!(
                "{what}: {} of {} positions, {:.0} s",
                scores.len(),
                boards.len(),
                start.elapsed().as_secs_f64()
            ));
        }
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::eval::HandEval;

    /// A long list of solves reports each tenth and hands the cache over as it grows, so that
    /// a run cut short keeps what it solved; a second pass over the same list solves nothing.
    #[test]
    fn solve_all_reports_each_tenth_and_saves_as_it_goes() {
        let mut boards = Vec::new();
        let mut seed = 7u64;
        while boards.len() < 1000 {
            let mut board = Board::start();
            while board.empty_count() > 9 && !board.is_game_over() {
                let moves: Vec<_> = board.legal_moves().into_iter().collect();
                if moves.is_empty() {
                    board = board.pass();
                    continue;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                board = board.play(Move::Play(moves[(seed >> 33) as usize % moves.len()]));
            }
            if !board.is_game_over() && !board.legal_moves().is_empty() {
                boards.push(board);
            }
        }
        let distinct: std::collections::HashSet<Board> =
            boards.iter().map(|b| b.canonical().0).collect();
        let mut cache = SolvedCache::default();
        let (mut lines, mut saves) = (Vec::new(), Vec::new());
        let scores = solve_all(
            &boards,
            &mut cache,
            "at 9 empties",
            &mut |line| lines.push(line.to_string()),
            &mut |c| saves.push(c.len()),
        );
        assert_eq!(lines.len(), 10, "{lines:?}");
        assert!(lines[0].starts_with("at 9 empties: 100 of 1000 positions"));
        assert!(lines[9].starts_with("at 9 empties: 1000 of 1000 positions"));
        assert_eq!(saves.len(), 10);
        assert!(saves.windows(2).all(|w| w[0] < w[1]), "{saves:?}");
        assert_eq!(*saves.last().unwrap(), distinct.len());
        // Spot checks against the plain solver.
        let tt = TranspositionTable::new(1);
        for (board, &score) in boards.iter().zip(&scores).step_by(97) {
            let exact = Scorer::new(&tt, &HandEval).solve(board);
            assert_eq!(score, exact);
        }
        let mut again = Vec::new();
        let rescored = solve_all(&boards, &mut cache, "again", &mut |_| {}, &mut |c| {
            again.push(c.len())
        });
        assert_eq!(rescored, scores);
        assert!(again.is_empty(), "nothing new to save");
    }
}
