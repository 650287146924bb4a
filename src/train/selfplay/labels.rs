//! The records of a played game: each recorded position with its exact, search and outcome
//! labels.

use crate::board::Color;
use crate::engine::Engine;
use crate::search::{Bound, Limits};
use crate::train::chunk::{Record, SearchLabel};

use super::options::DatagenOptions;
use super::play::{Step, play_game, search};

/// A score for a record: within ±64 by construction.
pub(super) fn score8(score: i32) -> i8 {
    score.clamp(-64, 64) as i8
}

/// The records of a played game (see [the module's documentation](super) for the labels): the
/// positions of `path` from `record_from` on where the side to move has a move.
fn label_game(
    engine: &mut Engine,
    options: &DatagenOptions,
    game: u64,
    path: &mut [Step],
    record_from: usize,
) -> Vec<Record> {
    let in_range = |s: &Step| {
        s.position.board.empty_count() <= options.exact_empties || s.position.board.is_game_over()
    };
    let recorded = |s: &Step| !s.position.board.legal_moves().is_empty();
    if !path[record_from..].iter().any(recorded) {
        return Vec::new();
    }
    let exact_of = |engine: &mut Engine, step: &mut Step| -> i32 {
        let board = step.position.board;
        *step.exact.get_or_insert_with(|| {
            if board.is_game_over() {
                board.final_score()
            } else {
                let result = search(
                    engine,
                    &board,
                    Limits::depth(crate::search::driver::MAX_DEPTH),
                );
                debug_assert_eq!(result.bound, Bound::Exact);
                result.score
            }
        })
    };
    // The anchor of the outcomes: the first position in the solver's range (the last
    // position, the game's end, at the latest).
    let anchor = path.iter().position(in_range).unwrap_or(path.len() - 1);
    let anchor_black = {
        let score = exact_of(engine, &mut path[anchor]);
        match path[anchor].position.to_move {
            Color::Black => score,
            Color::White => -score,
        }
    };
    let mut records = Vec::new();
    for (i, step) in path.iter_mut().enumerate().skip(record_from) {
        if !recorded(step) {
            continue;
        }
        let board = step.position.board;
        let mut record = Record {
            board,
            game: game as u32,
            count: 1,
            ply: step.ply,
            outcome: None,
            search: None,
            exact: None,
        };
        if in_range(step) {
            record.exact = Some(score8(exact_of(engine, step)));
        } else if options.label_depth > 0 {
            let result = search(engine, &board, Limits::depth(options.label_depth));
            record.search = Some(SearchLabel {
                score: score8(result.score),
                depth: options.label_depth as u8,
            });
            if result.bound == Bound::Exact {
                record.exact = Some(score8(result.score));
            }
        }
        record.outcome = Some(if i >= anchor {
            record.exact.expect("solved: in the solver's range")
        } else {
            score8(match step.position.to_move {
                Color::Black => anchor_black,
                Color::White => -anchor_black,
            })
        });
        records.push(record);
    }
    records
}

/// The records of game `game` (see [the module's documentation](super)).
pub(super) fn game_records(
    engine: &mut Engine,
    options: &DatagenOptions,
    game: u64,
) -> Vec<Record> {
    let (mut path, record_from) = play_game(engine, options, game);
    label_game(engine, options, game, &mut path, record_from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Game, Position, Rules};
    use crate::eval::HandEval;
    use crate::search::Scorer;
    use crate::search::tt::TranspositionTable;
    use crate::train::selfplay::play::game_engine;
    use crate::train::selfplay::tests::small;

    fn solve(board: &Board) -> i32 {
        let tt = TranspositionTable::new(1);
        Scorer::new(&tt, &HandEval).solve(board)
    }

    /// A complete game with two passes.
    const GAME: &str = "f5f4f3g4h5h4h3e6d7d6c6c7c8d8c4f2g3f6e2b7a6b5g7a7b8c5e7b6b4c3d2f8e8g2f1a5d3a3b3g6h7h8f7d1e3g1g8a4h1h2e1a2g5a8c1b2a1b1c2h6";

    fn steps(transcript: &str) -> Vec<Step> {
        let game = Game::from_transcript(Rules::OTHELLO, Position::start(), transcript).unwrap();
        game.states()
            .enumerate()
            .map(|(ply, s)| Step {
                position: s.position,
                ply: ply as u8,
                exact: None,
            })
            .collect()
    }

    /// Exact labels are the solver's scores; outcomes before the solver's range carry the
    /// score of the game's first position in it, with the sign of the side to move, and in
    /// the range each position's own score; search labels elsewhere, at the label depth.
    #[test]
    fn labels_are_exact_where_solved_and_outcomes_carry_the_anchor_with_the_right_sign() {
        let options = DatagenOptions {
            record_all: true,
            ..small()
        };
        let mut engine = game_engine(&options).unwrap();
        let mut path = steps(GAME);
        let records = label_game(&mut engine, &options, 5, &mut path, 0);
        let path = steps(GAME);
        let with_moves = path
            .iter()
            .filter(|s| !s.position.board.legal_moves().is_empty())
            .count();
        assert_eq!(
            records.len(),
            with_moves,
            "must-pass positions are not recorded"
        );
        let anchor = path
            .iter()
            .position(|s| s.position.board.empty_count() <= 10)
            .unwrap();
        let anchor_black = {
            let score = solve(&path[anchor].position.board);
            match path[anchor].position.to_move {
                Color::Black => score,
                Color::White => -score,
            }
        };
        let (mut before, mut exact) = (0, 0);
        for r in &records {
            let step = path[r.ply as usize];
            assert_eq!(step.position.board, r.board);
            assert_eq!((r.game, r.count), (5, 1));
            if r.board.empty_count() <= 10 {
                exact += 1;
                let score = solve(&r.board) as i8;
                assert_eq!(r.exact, Some(score), "ply {}", r.ply);
                assert_eq!(r.outcome, Some(score));
                assert_eq!(r.search, None);
            } else {
                before += 1;
                let own = match step.position.to_move {
                    Color::Black => anchor_black,
                    Color::White => -anchor_black,
                };
                assert_eq!(r.outcome, Some(own as i8), "ply {}", r.ply);
                assert_eq!(r.search.map(|s| s.depth), Some(3));
                assert_eq!(r.exact, None);
            }
        }
        assert!(before > 40 && exact >= 8, "{before} {exact}");
        // Both colours before the anchor: the sign alternates.
        assert!(
            records
                .iter()
                .any(|r| r.outcome == Some(anchor_black as i8))
        );
        assert!(
            records
                .iter()
                .any(|r| r.outcome == Some(-anchor_black as i8))
        );
        assert_ne!(anchor_black, 0);
    }

    /// Without a position in the solver's range before the end, the outcome is the game's
    /// final score (Black -28 in this game), with the sign of each side to move.
    #[test]
    fn a_game_that_ends_before_the_solver_range_takes_its_final_score() {
        let options = DatagenOptions {
            record_all: true,
            exact_empties: 0,
            label_depth: 0,
            ..small()
        };
        let mut engine = game_engine(&options).unwrap();
        let mut path = steps(GAME);
        let records = label_game(&mut engine, &options, 0, &mut path, 20);
        assert_eq!(records.first().map(|r| r.ply), Some(20));
        for r in &records {
            let black = match path[r.ply as usize].position.to_move {
                Color::Black => -28,
                Color::White => 28,
            };
            assert_eq!(r.outcome, Some(black), "ply {}", r.ply);
            assert_eq!((r.search, r.exact), (None, None));
        }
    }
}
