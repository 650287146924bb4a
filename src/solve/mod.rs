//! Solving positions exactly (the work behind [`crate::engine::Engine::solve`], on the engine's
//! table, threads and stop flag) and the problem-file reader behind `iago solve`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::notation::{ParseObfError, TranscriptError, looks_like_board};
use crate::board::{Board, Game, Move, ObfEntry, Rules, State, parse_obf_line};
use crate::eval::{Evaluation, SearchEval};
use crate::search::endgame::{EndgameSearch, Solution, SolveMode, Stopped};
use crate::search::params::PRESEARCH_MIN_EMPTIES;
use crate::search::tt::TranspositionTable;
use crate::search::variant::{EXACT, VariantSearch, exact_line};

/// FFO #40–#49, compiled in: what `iago solve` solves without a file.
pub const BUILTIN_SUITE: &str = include_str!("ffo40-49.obf");
/// The FFO number of the first position of [`BUILTIN_SUITE`].
pub const BUILTIN_FIRST_INDEX: usize = 40;

/// A solve with its cost.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Score, line and nodes.
    pub solution: Solution,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves `state` under `rules` on the current rayon pool with the table, evaluation (which
/// orders the moves of nodes with many empties) and stop flag given: for standard Othello the
/// fast solver, from selective pre-searches when the position is large enough, then its best
/// line; the variant search otherwise. What [`crate::engine::Engine::solve`] runs.
pub(crate) fn solve_on(
    tt: &TranspositionTable,
    evaluator: &Evaluation,
    stop: &AtomicBool,
    rules: &Rules,
    state: &State,
    mode: SolveMode,
) -> Result<Solution, Stopped> {
    if rules.is_standard() {
        let board = state.board();
        return crate::eval::with_search_eval!(evaluator, eval => solve_board(tt, eval, stop, &board, mode));
    }
    let mut search = VariantSearch::new(*rules, tt, stop).parallel();
    let wld = mode == SolveMode::WinLossDraw;
    let (alpha, beta) = if wld { (-1, 1) } else { (-127, 127) };
    let raw = search.search(state, EXACT, alpha, beta);
    if search.aborted() {
        return Err(Stopped);
    }
    let mut nodes = search.nodes;
    let (score, pv) = if wld {
        let score = 2 * raw.signum();
        (score, wld_move(rules, state, &mut search, raw.signum()))
    } else {
        (raw, exact_line(*rules, tt, stop, state, raw))
    };
    nodes = nodes.max(search.nodes);
    Ok(Solution { score, pv, nodes })
}

/// [`solve_on`] for a standard board, with the evaluation's static dispatch chosen.
fn solve_board<E: SearchEval + ?Sized>(
    tt: &TranspositionTable,
    eval: &E,
    stop: &AtomicBool,
    board: &Board,
    mode: SolveMode,
) -> Result<Solution, Stopped> {
    let mut search = EndgameSearch::new_parallel(tt, stop).with_evaluator(eval);
    if board.empty_count() < PRESEARCH_MIN_EMPTIES || board.legal_moves().is_empty() {
        return search.solve(board, mode);
    }
    let (alpha, beta) = mode.window();
    let (raw, nodes) = crate::search::driver::presearched_solve(tt, eval, stop, board, alpha, beta);
    let score = mode.score_of(raw.ok_or(Stopped)?);
    let pv = search.principal_variation(board, score, mode)?;
    Ok(Solution {
        score,
        pv,
        nodes: nodes + search.nodes,
    })
}

/// A move that keeps the win/loss/draw verdict `sign` (the first move of a WLD line).
fn wld_move(rules: &Rules, state: &State, search: &mut VariantSearch<'_>, sign: i32) -> Vec<Move> {
    if rules.is_over(state) {
        return Vec::new();
    }
    let moves = rules.moves(state);
    if moves == 0 {
        return vec![Move::Pass];
    }
    crate::board::Bitboard(moves)
        .iter()
        .find(|sq| {
            let child = rules.play_unchecked(state, sq.index() as usize);
            (-search.search(&child, EXACT, -1, 1)).signum() == sign
        })
        .map(|sq| vec![Move::Play(sq)])
        .unwrap_or_default()
}

/// One position of a problem file.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position and its annotations.
    pub entry: ObfEntry,
}

/// A line of a problem file that could not be read.
#[derive(Clone, Debug, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ProblemError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub error: ProblemLineError,
}

/// What is wrong with a problem line: a bad board/OBF line, or a bad transcript.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ProblemLineError {
    /// The line looks like a board (64 squares) but is not a valid OBF line.
    #[error(transparent)]
    Obf(#[from] ParseObfError),
    /// The line is read as a transcript from the start and is not one.
    #[error("neither a board (64 squares and the side to move) nor a transcript: {0}")]
    Transcript(#[from] TranscriptError),
}

/// Reads every position of a problem file, skipping blank lines and `%` comments. A line is an
/// OBF line or a bare board string (16, 36 or 64 squares) when it starts with board
/// characters; otherwise it is a transcript played from the start of `rules` (e.g. an XOT
/// opening list). A bad line becomes an error and the others are still read.
pub fn read_problems(text: &str, rules: Rules) -> Vec<Result<Problem, ProblemError>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let parsed: Result<Option<ObfEntry>, ProblemLineError> = if looks_like_board(line) {
                parse_obf_line(line).map_err(Into::into)
            } else if line.trim().is_empty() || line.trim_start().starts_with('%') {
                Ok(None)
            } else {
                let mut game = Game::new(rules);
                game.play_transcript(line)
                    .map(|()| {
                        Some(ObfEntry {
                            position: game.position(),
                            size: rules.size,
                            moves: Vec::new(),
                            score: None,
                        })
                    })
                    .map_err(Into::into)
            };
            match parsed {
                Ok(Some(entry)) => Some(Ok(Problem { line: i + 1, entry })),
                Ok(None) => None,
                Err(error) => Some(Err(ProblemError { line: i + 1, error })),
            }
        })
        .collect()
}

/// Whether a solution agrees with the file's annotations: the score equals the best annotated
/// score (its sign in WLD mode), and the best move, if annotated, carries that score. `None`
/// when the problem has no annotation.
pub fn check(entry: &ObfEntry, solution: &Solution, mode: SolveMode) -> Option<bool> {
    let expected = entry.best_score()?;
    let score_ok = match mode {
        SolveMode::Exact => solution.score == expected,
        SolveMode::WinLossDraw => solution.score.signum() == expected.signum(),
    };
    let best = solution.pv.first().copied().unwrap_or(Move::Pass);
    let move_ok = match (mode, entry.moves.iter().find(|(m, _)| *m == best)) {
        (SolveMode::Exact, Some(&(_, s))) => s == expected,
        (SolveMode::WinLossDraw, Some(&(_, s))) => s.signum() == expected.signum(),
        (_, None) => true,
    };
    Some(score_ok && move_ok)
}
