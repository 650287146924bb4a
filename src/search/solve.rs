//! Exact solves of any rule set (the work behind [`crate::engine::Engine::solve`], on the
//! engine's table, threads and stop flag): the 8×8 solver (`search::endgame`), from selective
//! pre-searches when the position is large enough, or the variant search.

use std::time::Duration;

use crate::board::{Board, Move, Rules, State};
use crate::eval::{Evaluation, SearchEval};
use crate::search::Selectivity;
use crate::search::control::Control;
use crate::search::endgame::{EndgameSearch, Solution, SolveMode, Stopped};
use crate::search::params::PRESEARCH_MIN_EMPTIES;
use crate::search::tt::TranspositionTable;
use crate::search::variant::{EXACT, VariantSearch, exact_line};

/// A solve with its cost.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Score, line and nodes.
    pub solution: Solution,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves `state` under `rules` on the current rayon pool with the table, evaluation (which
/// orders the moves of nodes with many empties) and stop conditions given (with a progress
/// kept up to date, if they have one): for standard Othello the fast solver, from selective
/// pre-searches when the position is large enough, then its best line; the variant search
/// otherwise. What [`crate::engine::Engine::solve`] runs.
pub(crate) fn solve_on(
    tt: &TranspositionTable,
    evaluator: &Evaluation,
    control: Control<'_>,
    rules: &Rules,
    state: &State,
    mode: SolveMode,
) -> Result<Solution, Stopped> {
    if rules.is_standard() {
        let board = state.board();
        return crate::eval::with_search_eval!(evaluator, eval => solve_board(tt, eval, control, &board, mode));
    }
    if let Some(progress) = control.progress() {
        progress.enter(rules.empty_count(&state.board()), Selectivity::NONE);
    }
    let mut search = VariantSearch::with_control(*rules, tt, control).parallel();
    let wld = mode == SolveMode::WinLossDraw;
    let (alpha, beta) = if wld { (-1, 1) } else { (-127, 127) };
    let raw = search.search(state, EXACT, alpha, beta);
    if search.is_stopped() {
        return Err(Stopped);
    }
    let mut nodes = search.nodes();
    let (score, pv) = if wld {
        let score = 2 * raw.signum();
        (score, wld_move(rules, state, &mut search, raw.signum()))
    } else {
        (raw, exact_line(*rules, tt, control.stop_flag(), state, raw))
    };
    nodes = nodes.max(search.nodes());
    Ok(Solution { score, pv, nodes })
}

/// [`solve_on`] for a standard board, with the evaluation's static dispatch chosen.
fn solve_board<E: SearchEval + ?Sized>(
    tt: &TranspositionTable,
    eval: &E,
    control: Control<'_>,
    board: &Board,
    mode: SolveMode,
) -> Result<Solution, Stopped> {
    let mut search = EndgameSearch::with_control(tt, control)
        .parallel()
        .with_evaluator(eval);
    if board.empty_count() < PRESEARCH_MIN_EMPTIES || board.legal_moves().is_empty() {
        if let Some(progress) = control.progress() {
            progress.enter(board.empty_count(), Selectivity::NONE);
        }
        return search.solve(board, mode);
    }
    let (alpha, beta) = mode.window();
    let (raw, nodes) =
        crate::search::driver::presearched_solve(tt, eval, control, board, alpha, beta);
    let score = mode.score_of(raw.ok_or(Stopped)?);
    let pv = search.principal_variation(board, score, mode)?;
    Ok(Solution {
        score,
        pv,
        nodes: nodes + search.nodes(),
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
