//! The exact endgame solver: the final score (disc difference for the side to move, empties to
//! the winner) under perfect play, or a win/loss/draw verdict.
//!
//! Layers, from the leaves up:
//! - 1 empty: flip counts from `count_last_flips`, no move is made;
//! - 2–4 empties: unrolled searches over square lists in parity order (lone empties, then odd
//!   quadrants, then the rest);
//! - up to [`SHALLOW_MAX`] empties: alpha-beta over the empties bitboard in the same order,
//!   with stability cut-offs at 5 and 6 empties;
//! - above: PVS with a transposition table (each thread's own small one below
//!   `SHARED_TT_MIN_EMPTIES`, the shared one from there), fastest-first move ordering (the
//!   opponent's mobility), stability cut-offs; from 14 empties a look-ahead joins the ordering:
//!   when the search has an evaluation ([`EndgameSearch::with_evaluator`]), the evaluation of
//!   each child (its one-ply value from 18 empties, two-ply from 22), otherwise a crude one-ply
//!   mobility value.
//!
//! All final scores are even (64 squares, empties to the winner), so null windows sit on odd
//! values.

mod last_moves;
mod local_table;
mod ordering;

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::board::movegen::moves;
use crate::eval::SearchEval;
use crate::search::control::{self, Control, Counter};
pub(crate) use crate::search::params::SHALLOW_MAX;
use crate::search::params::{
    SELECTIVE_MOVE_MIN_DEPTH, SHARED_TT_MIN_EMPTIES, SPLIT_MIN_EMPTIES, STABILITY_THRESHOLD,
};
use crate::search::tt::{NO_MOVE, ScoreKind, TranspositionTable, TtData};
use last_moves::{final_score, stability_upper};
use local_table::{local_probe, local_store};
use ordering::{Candidate, MoveList};

pub(crate) use local_table::clear_thread_table;

use crate::search::INF;
pub use crate::search::SCORE_MAX;

pub use crate::search::Stopped;

/// A single-threaded exact solver over a shared transposition table.
pub struct EndgameSearch<'a, E: SearchEval + ?Sized = NoEval> {
    pub(crate) tt: &'a TranspositionTable,
    /// Positions visited so far (every call of a search function counts one), and the stop
    /// conditions.
    counter: Counter<'a>,
    parallel: bool,
    /// The evaluation that orders moves at nodes with many empties, if any.
    eval: Option<&'a E>,
}

/// The evaluation of a solver that has none (its ordering uses the crude look-ahead).
#[derive(Clone, Copy, Debug)]
pub struct NoEval;

impl SearchEval for NoEval {
    type State = ();

    fn state(&self, _: &Board) {}

    fn play(&self, _: &(), _: usize, _: u64) {}

    fn pass(&self, _: &()) {}

    fn evaluate_with(&self, _: &Board, _: &(), _: Option<crate::eval::Replies>) -> i32 {
        0
    }
}

impl<'a> EndgameSearch<'a> {
    /// A single-threaded solver using `tt` that gives up when `stop` is set.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        Self::with_control(tt, Control::new(stop, None))
    }

    /// A single-threaded solver under `control` (stop flag, deadline).
    pub(crate) fn with_control(tt: &'a TranspositionTable, control: Control<'a>) -> Self {
        EndgameSearch {
            tt,
            counter: Counter::new(control),
            parallel: false,
            eval: None,
        }
    }
}

impl<'a, E: SearchEval + ?Sized> EndgameSearch<'a, E> {
    /// This search, ordering the moves of nodes with many empties by `eval` as well.
    pub fn with_evaluator<F: SearchEval + ?Sized>(self, eval: &'a F) -> EndgameSearch<'a, F> {
        self.with_eval(Some(eval))
    }

    /// This search with `eval` (or none) ordering the moves.
    fn with_eval<F: SearchEval + ?Sized>(self, eval: Option<&'a F>) -> EndgameSearch<'a, F> {
        EndgameSearch {
            tt: self.tt,
            counter: self.counter,
            parallel: self.parallel,
            eval,
        }
    }

    /// This search, splitting over the current rayon pool when it has more than one thread.
    pub(crate) fn parallel(mut self) -> Self {
        self.parallel = rayon::current_num_threads() > 1;
        self
    }

    /// Whether the search was stopped.
    pub(crate) fn is_stopped(&self) -> bool {
        self.counter.is_stopped()
    }

    /// Positions visited so far (every call of a search function counts one).
    pub fn nodes(&self) -> u64 {
        self.counter.nodes()
    }

    /// The exact score of `board` if it lies in `(alpha, beta)`; otherwise a bound on the same
    /// side of the window (fail-soft). `alpha < beta`, both within `-64..=64`.
    pub fn search(&mut self, board: &Board, alpha: i32, beta: i32) -> Result<i32, Stopped> {
        let n = board.empty_count();
        let score = self.dispatch(board.player, board.opponent, alpha, beta, n);
        if self.counter.is_stopped() {
            Err(Stopped)
        } else {
            Ok(score)
        }
    }

    /// The search of `(p, o)` with `n` empties in `(alpha, beta)`; check `stopped` afterwards.
    #[inline]
    pub(crate) fn dispatch(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > SHALLOW_MAX {
            self.deep(p, o, alpha, beta, n)
        } else {
            self.shallow_entry(p, o, alpha, beta, n)
        }
    }

    /// Above SHALLOW_MAX empties: PVS with a hash table (the thread's own below
    /// [`SHARED_TT_MIN_EMPTIES`]), move ordering, enhanced transposition cut-offs and stability
    /// cut-offs.
    fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        self.counter.count();
        if self.counter.poll_stop() {
            return 0;
        }
        let board = Board {
            player: p,
            opponent: o,
        };
        let shared = n >= SHARED_TT_MIN_EMPTIES;
        let hash = if shared { board.hash() } else { 0 };
        if shared {
            self.tt.prefetch(hash);
        }
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let upper = stability_upper(p, o);
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let mut hash_moves = [NO_MOVE; 2];
        if shared && let Some(entry) = self.tt.probe(&board, hash) {
            if entry.is_exact(n)
                && let Some(score) = entry.narrow(&mut alpha, &mut beta)
            {
                return score;
            }
            if entry.kind == ScoreKind::Exact || entry.depth as u32 >= SELECTIVE_MOVE_MIN_DEPTH {
                hash_moves = [entry.best_move, entry.second_move];
            }
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha, n);
        }
        let alpha_start = alpha;
        let mut best_move = NO_MOVE;
        let mut list = MoveList {
            moves: [Candidate::default(); 34],
            len: 0,
            hash_moves,
            hashed: 0,
            pending: false,
        };
        let mut best = match self.order(&mut list, p, o, legal, n, (alpha, beta)) {
            Ok(best) => best,
            Err(cut) => return cut,
        };
        for i in 0..list.len {
            let split = i == 1
                && self.parallel
                && n >= SPLIT_MIN_EMPTIES
                && beta == alpha + 1
                && list.len > 2;
            if list.pending && (i >= list.hashed || split) {
                self.value_moves(&mut list, p, o, n);
            }
            if split {
                let (score, sq) = self.split(p, o, alpha, &mut list.moves[1..list.len], n);
                if self.counter.is_stopped() {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = sq;
                }
                break;
            }
            let mv = list.select(i);
            let x = mv.sq as usize;
            let (cp, co) = (o ^ mv.flips, p | mv.flips | 1 << x);
            let score = self.child_score(cp, co, i == 0, (alpha, beta), n - 1);
            if self.counter.is_stopped() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv.sq;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.store(&board, hash, n, (best, best_move), (alpha_start, beta));
        best
    }

    /// The score of a move's child `(cp, co)` with `n` empties for the side to move at its
    /// parent, whose window is `(alpha, beta)`: the first move with the whole window, a later
    /// one with a null window, searched again with the whole window when it lands inside it.
    #[inline]
    fn child_score(
        &mut self,
        cp: u64,
        co: u64,
        first: bool,
        (alpha, beta): (i32, i32),
        n: u32,
    ) -> i32 {
        if first {
            return -self.dispatch(cp, co, -beta, -alpha, n);
        }
        let score = -self.dispatch(cp, co, -alpha - 1, -alpha, n);
        if score > alpha && score < beta {
            return -self.dispatch(cp, co, -beta, -alpha, n);
        }
        score
    }

    /// Records the result `(best, best_move)` of the deep node `board` with `n` empties
    /// searched in `(alpha, beta)`: in the shared table (`hash`) from
    /// [`SHARED_TT_MIN_EMPTIES`] empties, else in the thread's own.
    #[inline]
    fn store(
        &self,
        board: &Board,
        hash: u64,
        n: u32,
        (best, best_move): (i32, u8),
        (alpha, beta): (i32, i32),
    ) {
        if n >= SHARED_TT_MIN_EMPTIES {
            let data = TtData::from_result(best, alpha, beta, best_move, n, ScoreKind::Exact);
            self.tt.store(board, hash, data);
        } else {
            local_store(board.player, board.opponent, n, best, alpha, beta);
        }
    }

    /// Searches `moves` of a null-window node `(alpha, alpha + 1)` in parallel. The first child
    /// that fails high cancels its siblings. Returns the best score (fail-soft) and its move;
    /// sets `stopped` only when a flag above this node was set.
    fn split(&mut self, p: u64, o: u64, alpha: i32, moves: &mut [Candidate], n: u32) -> (i32, u8) {
        moves.sort_unstable_by_key(|c| -c.value);
        let (tt, eval) = (self.tt, self.eval);
        let control = self.counter.control();
        let (best, sq, nodes) = control::split(&control, moves, alpha, -INF, |mv, control| {
            let mut sub = EndgameSearch::with_control(tt, control)
                .parallel()
                .with_eval(eval);
            let x = mv.sq as usize;
            let score = -sub.dispatch(
                o ^ mv.flips,
                p | mv.flips | 1 << x,
                -alpha - 1,
                -alpha,
                n - 1,
            );
            (score, mv.sq, sub.nodes(), sub.is_stopped())
        });
        self.counter.add(nodes);
        if control.is_set() {
            self.counter.stop();
        }
        (best, sq)
    }
}

/// How much to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// The exact final disc difference.
    Exact,
    /// Only whether the side to move wins, draws or loses.
    WinLossDraw,
}

impl SolveMode {
    /// The root window of a solve in this mode: every score, or just its sign.
    pub fn window(self) -> (i32, i32) {
        match self {
            SolveMode::Exact => (-SCORE_MAX, SCORE_MAX),
            SolveMode::WinLossDraw => (-1, 1),
        }
    }

    /// The reported score of a search result in this mode's window: the value itself, or
    /// `+2/0/-2` for a win/loss/draw verdict.
    pub fn score_of(self, raw: i32) -> i32 {
        match self {
            SolveMode::Exact => raw,
            SolveMode::WinLossDraw => 2 * raw.signum(),
        }
    }
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score for the side to move: the exact disc difference ([`SolveMode::Exact`]), or
    /// `+2`, `0`, `-2` standing for win, draw, loss ([`SolveMode::WinLossDraw`]: a proven bound
    /// on the side of the window it names).
    pub score: i32,
    /// A best line, starting with the best move (a pass is `Move::Pass`); empty when the game is
    /// over.
    pub pv: Vec<crate::board::Move>,
    /// Positions visited, the principal-variation extraction included.
    pub nodes: u64,
}

impl<E: SearchEval + ?Sized> EndgameSearch<'_, E> {
    /// Solves `board` and extracts a best line.
    pub fn solve(&mut self, board: &Board, mode: SolveMode) -> Result<Solution, Stopped> {
        let (alpha, beta) = mode.window();
        let raw = self.search(board, alpha, beta)?;
        let score = mode.score_of(raw);
        let pv = self.principal_variation(board, score, mode)?;
        Ok(Solution {
            score,
            pv,
            nodes: self.nodes(),
        })
    }

    /// Bounds on the exact score of `(p, o)` with `n` empties from its hash table: the shared
    /// one from [`SHARED_TT_MIN_EMPTIES`], this thread's own above [`SHALLOW_MAX`]; none below.
    #[inline]
    pub(crate) fn table_bounds(&self, p: u64, o: u64, n: u32) -> Option<(i32, i32)> {
        if n >= SHARED_TT_MIN_EMPTIES {
            let board = Board {
                player: p,
                opponent: o,
            };
            self.shared_bounds(&board, n, board.hash())
        } else if n > SHALLOW_MAX {
            local_probe(p, o, n)
        } else {
            None
        }
    }

    /// Bounds on the exact score of `board` with `n` empties (hash `hash`) from the shared table.
    #[inline]
    fn shared_bounds(&self, board: &Board, n: u32, hash: u64) -> Option<(i32, i32)> {
        self.tt
            .probe(board, hash)
            .filter(|e| e.is_exact(n))
            .map(|e| (e.lower as i32, e.upper as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};

    /// Plain negamax over the checked API: the definition of the score.
    fn minimax(board: &Board) -> i32 {
        let legal = board.legal_moves();
        if legal.is_empty() {
            if board.pass().legal_moves().is_empty() {
                return board.final_score();
            }
            return -minimax(&board.pass());
        }
        legal
            .iter()
            .map(|sq| -minimax(&board.play(Move::Play(sq))))
            .max()
            .unwrap()
    }

    fn random_endgame(seed: u64, empties: u32) -> Board {
        let mut state = seed | 1;
        let mut board = Board::start();
        while board.empty_count() > empties {
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            if legal.is_empty() {
                if board.is_game_over() {
                    return random_endgame(seed.wrapping_mul(31).wrapping_add(7), empties);
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
    fn small_endgames_match_minimax_in_every_window() {
        let tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        for seed in 1..200u64 {
            let empties = 1 + (seed % 9) as u32;
            let board = random_endgame(seed, empties);
            let exact = minimax(&board);
            let mut search = EndgameSearch::new(&tt, &stop);
            assert_eq!(search.search(&board, -64, 64), Ok(exact), "seed {seed}");
            for alpha in (-65..65).step_by(2) {
                let s = search.search(&board, alpha, alpha + 2).unwrap();
                if exact <= alpha {
                    assert!(
                        s <= alpha && s >= exact,
                        "seed {seed} alpha {alpha} exact {exact} got {s}"
                    );
                } else if exact >= alpha + 2 {
                    assert!(
                        s >= alpha + 2 && s <= exact,
                        "seed {seed} alpha {alpha} exact {exact} got {s}"
                    );
                } else {
                    assert_eq!(s, exact);
                }
            }
        }
    }

    #[test]
    fn principal_variation_reaches_the_score() {
        let tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        for seed in 1..40u64 {
            let board = random_endgame(seed, 10);
            let solution = EndgameSearch::new(&tt, &stop)
                .solve(&board, SolveMode::Exact)
                .unwrap();
            let mut b = board;
            for &mv in &solution.pv {
                b = b.play(mv);
            }
            assert!(b.is_game_over());
            let sign = if solution.pv.len().is_multiple_of(2) {
                1
            } else {
                -1
            };
            assert_eq!(sign * b.final_score(), solution.score, "seed {seed}");
        }
    }

    #[test]
    fn stop_flag_aborts() {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(true);
        let board = random_endgame(5, 16);
        assert_eq!(
            EndgameSearch::new(&tt, &stop).search(&board, -64, 64),
            Err(Stopped)
        );
    }
}
