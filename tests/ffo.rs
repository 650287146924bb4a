//! The exact solver on the FFO endgame suites: best score and a best move, symmetry invariance,
//! and equal results on one and two threads.

use iago::board::{Board, ObfEntry, Rules, Symmetry, parse_obf_line};
use iago::engine::{Engine, EngineOptions, SolveReport};
use iago::search::{Solution, SolveMode, Stopped};

fn suite(text: &str) -> Vec<ObfEntry> {
    text.lines()
        .filter_map(|l| parse_obf_line(l).unwrap())
        .collect()
}

/// An engine with `threads` threads and a `hash_mb` MiB table.
fn solver(threads: usize, hash_mb: usize) -> Engine {
    Engine::new(EngineOptions {
        threads,
        hash_mb,
        ..EngineOptions::analysis()
    })
    .unwrap()
}

/// Solves a standard board.
fn solve(engine: &mut Engine, board: &Board, mode: SolveMode) -> Result<SolveReport, Stopped> {
    let state = Rules::OTHELLO
        .state(iago::board::Position {
            board: *board,
            to_move: iago::board::Color::Black,
        })
        .unwrap();
    engine.solve(Rules::OTHELLO, &state, mode)
}

/// Solves FFO #`number` and checks the best score and that the move is one of the best.
fn solve_checked(solver: &mut Engine, entry: &ObfEntry, number: usize) -> Solution {
    let solution = solve(solver, &entry.position.board, SolveMode::Exact)
        .unwrap()
        .solution;
    let best = solution.pv[0];
    assert_eq!(Some(solution.score), entry.best_score(), "FFO #{number}");
    assert!(
        entry.best_moves().contains(&best),
        "FFO #{number}: {best} is not a best move"
    );
    solution
}

fn solve_all(entries: &[ObfEntry], threads: usize, first_number: usize) {
    let mut solver = solver(threads, 32);
    for (i, entry) in entries.iter().enumerate() {
        solve_checked(&mut solver, entry, first_number + i);
    }
}

#[test]
fn ffo_1_to_19_exact_single_thread() {
    solve_all(&suite(include_str!("data/fforum-1-19.obf")), 1, 1);
}

#[test]
fn ffo_20_to_39_up_to_22_empties_two_threads() {
    let entries: Vec<ObfEntry> = suite(include_str!("data/fforum-20-39.obf"))
        .into_iter()
        .take_while(|e| e.position.board.empty_count() <= 22)
        .collect();
    assert_eq!(entries.len(), 18, "#20-#37 have at most 22 empties");
    solve_all(&entries, 2, 20);
}

#[test]
fn all_eight_symmetric_forms_score_the_same() {
    let mut solver = solver(1, 16);
    let mut entries = suite(include_str!("data/fforum-1-19.obf"));
    entries.truncate(6);
    for entry in &entries {
        let expected = entry.best_score().unwrap();
        for sym in Symmetry::ALL {
            let board: Board = entry.position.board.transform(sym);
            let solution = solve(&mut solver, &board, SolveMode::Exact)
                .unwrap()
                .solution;
            assert_eq!(solution.score, expected, "{sym:?}");
        }
    }
}

#[test]
fn two_threads_give_the_same_results_as_one() {
    let entries = suite(include_str!("data/hard-20-first40.obf"));
    let (mut one, mut two) = (solver(1, 16), solver(2, 16));
    for entry in entries.iter().take(12) {
        let board = entry.position.board;
        let a = solve(&mut one, &board, SolveMode::Exact).unwrap().solution;
        let b = solve(&mut two, &board, SolveMode::Exact).unwrap().solution;
        assert_eq!(a.score, b.score);
        assert_eq!(Some(a.score), entry.best_score());
    }
}

#[test]
fn win_loss_draw_agrees_with_the_exact_sign() {
    let mut solver = solver(2, 16);
    for entry in suite(include_str!("data/fforum-1-19.obf")) {
        let board = entry.position.board;
        let wld = solve(&mut solver, &board, SolveMode::WinLossDraw)
            .unwrap()
            .solution
            .score;
        assert_eq!(wld, 2 * entry.best_score().unwrap().signum());
    }
}

#[test]
fn a_solve_stops_soon_after_the_flag_is_set() {
    use std::time::{Duration, Instant};
    // FFO #41 (22 empties) takes seconds: stop it after 100 ms.
    let entry = parse_obf_line(
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X; H4:+0;",
    )
    .unwrap()
    .unwrap();
    let mut solver = solver(2, 16);
    let stop = solver.stop_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.stop();
        Instant::now()
    });
    let result = solve(&mut solver, &entry.position.board, SolveMode::Exact);
    let stopped_at = stopper.join().unwrap();
    assert!(result.is_err(), "the solve should have been stopped");
    assert!(
        stopped_at.elapsed() < Duration::from_millis(200),
        "took {:?} to stop",
        stopped_at.elapsed()
    );
    // A stopped generation stays stopped: a later solve in it returns at once.
    assert!(solve(&mut solver, &entry.position.board, SolveMode::Exact).is_err());
    // A new generation solves afresh.
    let _ = solver.stop_handle();
    let report = solve(&mut solver, &entry.position.board, SolveMode::Exact).unwrap();
    assert_eq!(report.solution.score, 0);
}
