//! More search threads than cores: every split then has more workers than the machine can run
//! at once, and who runs first must change neither an exact score nor the legality of a move.
//! A test binary of its own, so that its busy threads never overlap the timed stop tests of the
//! other binaries.

mod common;

use common::{assert_searches_play_legal_moves, random_games, search_engine as engine};
use iago::board::{Color, Position, Rules, parse_obf_line};
use iago::search::SolveMode;

#[test]
fn eight_threads_solve_exactly_as_one() {
    let (mut one, mut eight) = (engine(1), engine(8));
    let entries = include_str!("data/hard-20-first40.obf")
        .lines()
        .filter_map(|l| parse_obf_line(l).unwrap())
        .step_by(3)
        .take(6);
    for entry in entries {
        let state = Rules::OTHELLO
            .state(Position {
                board: entry.position.board,
                to_move: Color::Black,
            })
            .unwrap();
        let a = one.solve(Rules::OTHELLO, &state, SolveMode::Exact).unwrap();
        let b = eight
            .solve(Rules::OTHELLO, &state, SolveMode::Exact)
            .unwrap();
        assert_eq!(Some(a.solution.score), entry.best_score());
        assert_eq!(
            a.solution.score, b.solution.score,
            "{}",
            entry.position.board
        );
    }
}

#[test]
fn eight_threads_split_the_midgame_and_play_legal_moves() {
    // Depth 10: null-window and PV nodes split from depth 8.
    assert_searches_play_legal_moves(&mut engine(8), random_games(12, 0x0838_0838), 10);
}
