//! Solving positions from files: the solver facade (hash table, threads, stop flag) and the
//! problem-file reader behind `iago solve`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::notation::{ParseObfError, TranscriptError, looks_like_board};
use crate::board::{Board, Game, Move, ObfEntry, Rules, State, parse_obf_line};
use crate::search::driver::PRESEARCH_MIN_EMPTIES;
use crate::search::endgame::{EndgameSearch, Solution, SolveMode, Stopped};
use crate::search::tt::TranspositionTable;
use crate::search::variant::{EXACT, VariantSearch, exact_line};

/// FFO #40–#49, compiled in: what `iago solve` solves without a file.
pub const BUILTIN_SUITE: &str = include_str!("ffo40-49.obf");
/// The FFO number of the first position of [`BUILTIN_SUITE`].
pub const BUILTIN_FIRST_INDEX: usize = 40;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolverOptions {
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash_mb: usize,
    /// Exact score or win/loss/draw.
    pub mode: SolveMode,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            threads: 1,
            hash_mb: 64,
            mode: SolveMode::Exact,
        }
    }
}

/// A solve with its cost.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Score, line and nodes.
    pub solution: Solution,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Owns the hash table and the stop flag; solves one position after another.
pub struct Solver {
    options: SolverOptions,
    /// Orders the moves of nodes with many empties.
    evaluator: crate::eval::Evaluation,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    pool: rayon::ThreadPool,
}

impl Solver {
    /// A solver with a fresh hash table of `options.hash_mb` MiB and `options.threads` threads.
    pub fn new(options: SolverOptions) -> Result<Solver, crate::engine::EngineError> {
        let pool = crate::engine::build_pool(options.threads)?;
        Ok(Solver {
            options,
            evaluator: crate::eval::default_evaluator(),
            tt: TranspositionTable::try_new(options.hash_mb)?,
            stop: Arc::new(AtomicBool::new(false)),
            pool,
        })
    }

    /// Setting this flag stops the current solve (it returns `Err(Stopped)`); the next solve
    /// clears it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The options in use.
    pub fn options(&self) -> SolverOptions {
        self.options
    }

    /// Solves `board` from an empty hash table.
    pub fn solve(&self, board: &Board) -> Result<SolveReport, Stopped> {
        self.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        self.pool.install(|| self.tt.clear());
        let start = Instant::now();
        let solution = self.pool.install(|| self.solve_in_pool(board))?;
        Ok(SolveReport {
            solution,
            elapsed: start.elapsed(),
        })
    }
}

impl Solver {
    /// Solves `board` on the current thread pool, from selective pre-searches when the position
    /// is large enough, then extracts the line.
    fn solve_in_pool(&self, board: &Board) -> Result<Solution, Stopped> {
        crate::with_search_eval!(&self.evaluator, eval => self.solve_with(eval, board))
    }

    /// [`Solver::solve_in_pool`] with the evaluation's static dispatch chosen.
    fn solve_with<E: crate::eval::SearchEval + ?Sized>(
        &self,
        eval: &E,
        board: &Board,
    ) -> Result<Solution, Stopped> {
        let mode = self.options.mode;
        let mut search = EndgameSearch::new_parallel(&self.tt, &self.stop).with_evaluator(eval);
        if board.empty_count() < PRESEARCH_MIN_EMPTIES || board.legal_moves().is_empty() {
            return search.solve(board, mode);
        }
        let (alpha, beta) = mode.window();
        let (raw, nodes) = crate::search::driver::presearched_solve(
            &self.tt, eval, &self.stop, board, alpha, beta,
        );
        let score = mode.score_of(raw.ok_or(Stopped)?);
        let pv = search.principal_variation(board, score, mode)?;
        Ok(Solution {
            score,
            pv,
            nodes: nodes + search.nodes,
        })
    }

    /// Solves `state` under `rules` from an empty hash table: the fast solver for standard
    /// Othello, the variant search otherwise.
    pub fn solve_state(&self, rules: &Rules, state: &State) -> Result<SolveReport, Stopped> {
        if rules.is_standard() {
            return self.solve(&state.board());
        }
        self.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        self.pool.install(|| self.tt.clear());
        let start = Instant::now();
        let solution = self.pool.install(|| {
            let mut search = VariantSearch::new(*rules, &self.tt, &self.stop).parallel();
            let wld = self.options.mode == SolveMode::WinLossDraw;
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
                (raw, exact_line(*rules, &self.tt, &self.stop, state, raw))
            };
            nodes = nodes.max(search.nodes);
            Ok(Solution { score, pv, nodes })
        })?;
        Ok(SolveReport {
            solution,
            elapsed: start.elapsed(),
        })
    }
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
