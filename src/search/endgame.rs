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

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::board::last_flip::count_last_flips;
use crate::board::movegen::{flips, moves, potential_moves};
use crate::board::stability::stable_discs;
use crate::eval::SearchEval;
use crate::search::control::{self, Control};
use crate::search::tt::{NO_MOVE, ScoreKind, TranspositionTable, TtData};

use crate::search::INF;
pub use crate::search::SCORE_MAX;

/// Empties at or below which the solver uses the shallow parity search (no hash table).
pub const SHALLOW_MAX: u32 = 6;

/// Empties from which a look-ahead joins the move ordering: the evaluation of each child, or
/// without an evaluation a one-ply search over a crude one.
const SHALLOW_ORDERING_MIN_EMPTIES: u32 = 14;

/// Empties from which deep nodes use the shared hash table; below, a small table of each
/// thread's own holds their bounds (no move). Parents look their children up in either table
/// before searching them (enhanced transposition cut-off). Every split from 11 to 15 empties
/// took less time than the shared table for every deep node, this one the least; Egaroucid's
/// split is 14 (chosen by measurement: docs/lab/2026-11-22-endgame-solver.md, "Figures moved
/// from the code's comments (2026-11-26)").
const SHARED_TT_MIN_EMPTIES: u32 = 13;

/// Plies from which the moves of a depth-limited (selective) entry, left by the pre-searches,
/// go first in the exact search: a shallower search's moves order worse than the solver's own
/// ordering (fastest-first and the evaluation). Together with the second hash move, this took
/// fewer nodes than every selective move first and one hash move on every FFO position tried;
/// other thresholds took more nodes in all (chosen by measurement:
/// docs/lab/2026-11-22-endgame-solver.md, "Earlier versions of the FFO #40-#59 table and the
/// sessions behind them", build 3ad855d against d10117c).
const SELECTIVE_MOVE_MIN_DEPTH: u32 = 6;

/// Entries per number of empties in a thread's own table.
const LOCAL_TT_SIZE: usize = 1 << 10;

/// One entry of a thread's own table: a position and bounds on its exact score.
#[derive(Clone, Copy, Default)]
struct LocalEntry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
}

thread_local! {
    /// Each thread's own table, for the deep nodes below [`SHARED_TT_MIN_EMPTIES`]: bounds on
    /// exact scores, true whatever search stored them, so the table lives as long as the thread.
    static LOCAL_TT: Box<[std::cell::Cell<LocalEntry>]> = (0..LOCAL_TT_SIZE
        * (SHARED_TT_MIN_EMPTIES - SHALLOW_MAX - 1) as usize)
        .map(|_| std::cell::Cell::new(LocalEntry::default()))
        .collect();
}

/// Empties this thread's own table. Its entries stay true from one search to the next, but
/// they change the node counts of a later search: a run that must be reproducible item by item
/// (`iago solve --shard`, whichever shard takes the item) starts every item from empty tables
/// ([`crate::engine::Engine::clear_hash`]).
pub(crate) fn clear_thread_table() {
    LOCAL_TT.with(|t| t.iter().for_each(|e| e.set(LocalEntry::default())));
}

/// The slot of `(p, o)` with `n` empties (SHALLOW_MAX < n < SHARED_TT_MIN_EMPTIES) in a
/// thread's own table.
#[inline]
fn local_slot(p: u64, o: u64, n: u32) -> usize {
    let h = (p.wrapping_mul(0x9DDA_1C54_CFE6_B6E9) ^ o.wrapping_mul(0xA2E6_C030_0831_E05A)) >> 54;
    (n - SHALLOW_MAX - 1) as usize * LOCAL_TT_SIZE + h as usize
}

/// Bounds `(lower, upper)` on the score of `(p, o)` with `n` empties from this thread's table.
#[inline]
fn local_probe(p: u64, o: u64, n: u32) -> Option<(i32, i32)> {
    LOCAL_TT.with(|t| {
        let e = t[local_slot(p, o, n)].get();
        (e.player == p && e.opponent == o).then_some((e.lower as i32, e.upper as i32))
    })
}

/// Stores bounds on the score of `(p, o)` with `n` empties: `score` searched in `(alpha, beta)`.
#[inline]
fn local_store(p: u64, o: u64, n: u32, score: i32, alpha: i32, beta: i32) {
    let lower = if score > alpha { score } else { -SCORE_MAX };
    let upper = if score < beta { score } else { SCORE_MAX };
    LOCAL_TT.with(|t| {
        t[local_slot(p, o, n)].set(LocalEntry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
        })
    });
}

/// The four 4×4 quadrants.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

const CORNERS: u64 = crate::board::Bitboard::CORNERS.0;

/// Squares adjacent to each square (to skip moves that cannot flip anything).
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r2, c2) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && r2 >= 0 && r2 < 8 && c2 >= 0 && c2 < 8 {
                    out[sq] |= 1 << (r2 * 8 + c2);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// The union of the quadrants holding an odd number of empties.
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        odd |= q & (((empties & q).count_ones() & 1) as u64).wrapping_neg();
    }
    odd
}

/// The empty squares none of whose neighbours is empty: playing into a lone hole first (as
/// Egaroucid does) takes fewer nodes (chosen by measurement:
/// docs/lab/2026-11-22-endgame-solver.md, "Figures moved from the code's comments
/// (2026-11-26)").
#[inline]
fn lone_empties(empties: u64) -> u64 {
    let side = ((empties & 0x7F7F_7F7F_7F7F_7F7F) << 1) | ((empties & 0xFEFE_FEFE_FEFE_FEFE) >> 1);
    let row = empties | side;
    empties & !(side | row << 8 | row >> 8)
}

/// `squares` (a subset of `empties`) in the order the shallow searches try them: lone empties,
/// then those in quadrants with an odd number of empties, then the rest.
#[inline]
fn parity_classes(squares: u64, empties: u64) -> [u64; 3] {
    let odd = odd_quadrants(empties);
    let lone = lone_empties(empties);
    [
        squares & lone,
        squares & odd & !lone,
        squares & !odd & !lone,
    ]
}

/// The final score for `p` when the game ends now: disc difference, empties to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    Board {
        player: p,
        opponent: o,
    }
    .final_score()
}

/// An upper bound on the final score of `p` (to move) against `o`: every stable disc of `o`
/// stays `o`'s.
#[inline]
fn stability_upper(p: u64, o: u64) -> i32 {
    SCORE_MAX - 2 * stable_discs(o, p).count_ones() as i32
}

pub use crate::search::Stopped;

/// Minimum `alpha` (per number of empties) for trying a stability cut-off: below it the bound
/// `64 - 2 × stable opponent discs` rarely reaches `alpha`, and computing it does not pay.
static STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [INF; 65];
    let mut n = SHALLOW_MAX as usize + 1;
    while n <= 64 {
        t[n] = 2 * n as i32 - 12;
        n += 1;
    }
    t
};

/// Minimum `alpha` for a stability cut-off in the shallow searches, by empties (5 and 6 only,
/// as Egaroucid does). The cut-off took fewer nodes and less time than none; lower thresholds
/// saved hardly any more nodes, and the cut-off at 4 empties too saved nodes but no time
/// (chosen by measurement: docs/lab/2026-11-22-endgame-solver.md, "Figures moved from the
/// code's comments (2026-11-26)").
static SHALLOW_STABILITY_THRESHOLD: [i32; SHALLOW_MAX as usize + 1] = [99, 99, 99, 99, 99, 6, 8];

/// One move of a move list: the square, its flips and its ordering value.
#[derive(Clone, Copy, Default)]
struct Candidate {
    sq: u8,
    flips: u64,
    value: i32,
}

/// The moves of a node with their ordering values (at most 33 moves exist in Othello).
struct MoveList {
    moves: [Candidate; 34],
    len: usize,
    /// The table's best move and the one it replaced, if any ([`NO_MOVE`] otherwise): they go
    /// first.
    hash_moves: [u8; 2],
    /// How many of the moves are hash moves (valued already, they go first).
    hashed: usize,
    /// Whether the other moves still wait for their ordering values: they are computed only
    /// once the hash moves have failed to cut.
    pending: bool,
}

impl MoveList {
    /// Moves the best remaining candidate to position `i` and returns it.
    #[inline]
    fn select(&mut self, i: usize) -> Candidate {
        let mut best = i;
        for j in i + 1..self.len {
            if self.moves[j].value > self.moves[best].value {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.moves[i]
    }
}

/// A single-threaded exact solver over a shared transposition table.
pub struct EndgameSearch<'a, E: SearchEval + ?Sized = NoEval> {
    pub(crate) tt: &'a TranspositionTable,
    control: Control<'a>,
    poll: u32,
    parallel: bool,
    /// Positions visited so far (every call of a search function counts one).
    pub nodes: u64,
    aborted: bool,
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

/// Empties from which the evaluation's one-ply, then two-ply value of a child (instead of its
/// static value) orders the moves, when the search has an evaluation. Starting them at fewer
/// empties saves nodes, but each evaluation costs time: with the weights of [`EVAL_WEIGHT`],
/// these two took the least time on the positions they were chosen on. On positions not used
/// to choose, the weights and these depths together still saved nodes but took more time
/// (chosen by measurement: docs/lab/2026-11-25-ffo-40-59-vs-egaroucid.md, the settings
/// measured under its table, build 398b2d1).
const EVAL_LOOKAHEAD_MIN_EMPTIES: [u32; 2] = [18, 22];

/// Weight of the evaluation (discs for the opponent) in the ordering value, by look-ahead
/// depth: static, one ply, two plies (see [`EVAL_LOOKAHEAD_MIN_EMPTIES`]).
///
/// - Static: the crude one-ply value no longer joins it when there is an evaluation: the
///   evaluation alone took about as many nodes as both, with fewer move generations per node.
/// - Searched values are closer to the truth than static ones and earn more weight against
///   the opponent's mobility: this weight took the fewest nodes of those tried.
///
/// (Chosen by measurement: docs/lab/2026-11-22-endgame-solver.md, "Figures moved from the
/// code's comments (2026-11-26)".)
const EVAL_WEIGHT: [i32; EVAL_LOOKAHEAD_MIN_EMPTIES.len() + 1] = [20, 48, 48];

/// Weight of the opponent's potential mobility (empty squares next to the mover's discs) in
/// the ordering value, from [`SHALLOW_ORDERING_MIN_EMPTIES`].
const POTENTIAL_WEIGHT: i32 = 24;

/// The `depth`-ply alpha-beta value of `board` (whose evaluation state is `state`) under
/// `eval`, for the side to move.
fn eval_negamax<E: SearchEval + ?Sized>(
    eval: &E,
    board: &Board,
    state: &E::State,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if depth == 0 {
        return eval.evaluate_with(board, state, None);
    }
    let legal = moves(board.player, board.opponent);
    if legal == 0 {
        if moves(board.opponent, board.player) == 0 {
            return board.final_score();
        }
        return -eval_negamax(eval, &board.pass(), &eval.pass(state), depth, -beta, -alpha);
    }
    let mut best = -INF;
    let mut m = legal;
    while m != 0 {
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(board.player, board.opponent, x);
        let child = Board {
            player: board.opponent ^ f,
            opponent: board.player | f | 1 << x,
        };
        let cs = eval.play(state, x, f);
        let v = -eval_negamax(eval, &child, &cs, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Empties from which a null-window node searches its remaining moves in parallel once its
/// first move failed to cut (Young Brothers Wait). From 16 rather than 12 the tasks are fewer
/// and larger: FFO #55 took the same nodes in less time, and easier positions the same time
/// within the noise. Egaroucid 7.8 splits its endgame from 17 empties (chosen by measurement:
/// docs/lab/2026-11-22-endgame-solver.md, "Figures moved from the code's comments
/// (2026-11-26)").
const SPLIT_MIN_EMPTIES: u32 = 16;

impl<'a> EndgameSearch<'a> {
    /// A single-threaded solver using `tt` that gives up when `stop` is set.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        Self::with_control(tt, Control::new(stop, None))
    }

    /// A single-threaded solver under `control` (stop flag, deadline).
    pub(crate) fn with_control(tt: &'a TranspositionTable, control: Control<'a>) -> Self {
        EndgameSearch {
            tt,
            control,
            poll: 1,
            parallel: false,
            nodes: 0,
            aborted: false,
            eval: None,
        }
    }

    /// A solver that splits its work over the threads of the current rayon pool (call it inside
    /// `ThreadPool::install`). Scores are the same as with one thread; node counts differ.
    pub fn new_parallel(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        EndgameSearch::new(tt, stop).parallel()
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
            control: self.control,
            poll: self.poll,
            parallel: self.parallel,
            nodes: self.nodes,
            aborted: self.aborted,
            eval,
        }
    }

    /// This search, splitting over the current rayon pool when it has more than one thread.
    pub(crate) fn parallel(mut self) -> Self {
        self.parallel = rayon::current_num_threads() > 1;
        self
    }

    /// Whether the search was stopped.
    pub(crate) fn aborted(&self) -> bool {
        self.aborted
    }

    /// The exact score of `board` if it lies in `(alpha, beta)`; otherwise a bound on the same
    /// side of the window (fail-soft). `alpha < beta`, both within `-64..=64`.
    pub fn search(&mut self, board: &Board, alpha: i32, beta: i32) -> Result<i32, Stopped> {
        let n = board.empty_count();
        let score = self.dispatch(board.player, board.opponent, alpha, beta, n);
        if self.aborted {
            Err(Stopped)
        } else {
            Ok(score)
        }
    }

    /// The search of `(p, o)` with `n` empties in `(alpha, beta)`; check `aborted` afterwards.
    #[inline]
    pub(crate) fn dispatch(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > SHALLOW_MAX {
            self.deep(p, o, alpha, beta, n)
        } else {
            self.shallow_entry(p, o, alpha, beta, n)
        }
    }

    fn shallow_entry(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let empties = !(p | o);
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => {
                self.nodes += 1;
                solve_1(p, alpha, empties.trailing_zeros() as usize)
            }
            2 => {
                let x1 = empties.trailing_zeros() as usize;
                let x2 = 63 - empties.leading_zeros() as usize;
                self.solve_2(p, o, alpha, beta, x1, x2)
            }
            3 => self.solve_3(p, o, alpha, beta, parity_sorted::<3>(empties)),
            4 => self.solve_4(p, o, alpha, beta, parity_sorted::<4>(empties)),
            _ => self.shallow(p, o, alpha, beta, empties, n),
        }
    }

    /// Two empties `x1`, `x2`.
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: usize, x2: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        if NEIGHBOURS[x1] & o != 0 {
            let f = flips(p, o, x1);
            if f != 0 {
                self.nodes += 1;
                best = -solve_1(o ^ f, -beta, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = flips(p, o, x2);
            if f != 0 {
                self.nodes += 1;
                let score = -solve_1(o ^ f, -beta, x1);
                if score > best {
                    best = score;
                }
            }
        }
        if best != -INF {
            return best;
        }
        // Pass: the opponent moves, or the game is over.
        let mut worst = INF;
        if NEIGHBOURS[x1] & p != 0 {
            let f = flips(o, p, x1);
            if f != 0 {
                self.nodes += 1;
                worst = solve_1(p ^ f, alpha, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOURS[x2] & p != 0 {
            let f = flips(o, p, x2);
            if f != 0 {
                self.nodes += 1;
                let score = solve_1(p ^ f, alpha, x1);
                if score < worst {
                    worst = score;
                }
            }
        }
        if worst != INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Three empties in parity order.
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [usize; 3]) -> i32 {
        self.nodes += 1;
        if let Some(score) = self.moves_3(p, o, alpha, beta, sq) {
            return score;
        }
        match self.moves_3(o, p, -beta, -alpha, sq) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    #[inline]
    fn moves_3(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 3],
    ) -> Option<i32> {
        let mut best = -INF;
        for i in 0..3 {
            let x = sq[i];
            if NEIGHBOURS[x] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f == 0 {
                continue;
            }
            let (a, b) = match i {
                0 => (sq[1], sq[2]),
                1 => (sq[0], sq[2]),
                _ => (sq[0], sq[1]),
            };
            let score = -self.solve_2(o ^ f, p | f | 1 << x, -beta, -alpha, a, b);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best != -INF).then_some(best)
    }

    /// Four empties in parity order.
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [usize; 4]) -> i32 {
        self.nodes += 1;
        if let Some(score) = self.moves_4(p, o, alpha, beta, sq) {
            return score;
        }
        match self.moves_4(o, p, -beta, -alpha, sq) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    #[inline]
    fn moves_4(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 4],
    ) -> Option<i32> {
        let mut best = -INF;
        for i in 0..4 {
            let x = sq[i];
            if NEIGHBOURS[x] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f == 0 {
                continue;
            }
            let rest = match i {
                0 => [sq[1], sq[2], sq[3]],
                1 => [sq[0], sq[2], sq[3]],
                2 => [sq[0], sq[1], sq[3]],
                _ => [sq[0], sq[1], sq[2]],
            };
            let score = -self.solve_3(o ^ f, p | f | 1 << x, -beta, -alpha, rest);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best != -INF).then_some(best)
    }

    /// 5..=SHALLOW_MAX empties: alpha-beta with parity ordering, no hash table.
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64, n: u32) -> i32 {
        self.nodes += 1;
        if alpha >= SHALLOW_STABILITY_THRESHOLD[n as usize] {
            let upper = stability_upper(p, o);
            if upper <= alpha {
                return upper;
            }
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, empties, n);
        }
        let mut best = -INF;
        for class in parity_classes(legal, empties) {
            let mut m = class;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(p, o, x);
                let (cp, co) = (o ^ f, p | f | 1 << x);
                let score = if n == 5 {
                    -self.solve_4(cp, co, -beta, -alpha, parity_sorted::<4>(empties ^ 1 << x))
                } else {
                    -self.shallow(cp, co, -beta, -alpha, empties ^ 1 << x, n - 1)
                };
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if score >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// Above SHALLOW_MAX empties: PVS with a hash table (the thread's own below
    /// [`SHARED_TT_MIN_EMPTIES`]), move ordering, enhanced transposition cut-offs and stability
    /// cut-offs.
    fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        if self.control.should_stop(&mut self.poll) {
            self.aborted = true;
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
                if self.aborted {
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
            let mut score;
            if i == 0 {
                score = -self.dispatch(cp, co, -beta, -alpha, n - 1);
            } else {
                score = -self.dispatch(cp, co, -alpha - 1, -alpha, n - 1);
                if score > alpha && score < beta {
                    score = -self.dispatch(cp, co, -beta, -alpha, n - 1);
                }
            }
            if self.aborted {
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
        if shared {
            self.tt.store(
                &board,
                hash,
                TtData::from_result(best, alpha_start, beta, best_move, n, ScoreKind::Exact),
            );
        } else {
            local_store(p, o, n, best, alpha_start, beta);
        }
        best
    }

    /// Searches `moves` of a null-window node `(alpha, alpha + 1)` in parallel. The first child
    /// that fails high cancels its siblings. Returns the best score (fail-soft) and its move;
    /// sets `aborted` only when a flag above this node was set.
    fn split(&mut self, p: u64, o: u64, alpha: i32, moves: &mut [Candidate], n: u32) -> (i32, u8) {
        moves.sort_unstable_by_key(|c| -c.value);
        let (tt, eval) = (self.tt, self.eval);
        let (best, sq, nodes) = control::split(&self.control, moves, alpha, -INF, |mv, control| {
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
            (score, mv.sq, sub.nodes, sub.aborted)
        });
        self.nodes += nodes;
        if self.control.is_set() {
            self.aborted = true;
        }
        (best, sq)
    }

    /// Builds the move list of a deep node. Ordering: the hash moves first (the best, then the
    /// one it replaced: `list.hash_moves`), then the others by [`Self::value_moves`]. When there are hash moves,
    /// the others are valued only once the hash moves have failed to cut (`list.pending`): the
    /// same tree in a little less time (measured: docs/lab/2026-11-22-endgame-solver.md, "The
    /// figures of the README's design section 'The endgame solver'").
    ///
    /// Children found in their hash table settle moves before any search (enhanced
    /// transposition cut-off; the shared table's buckets of all children are prefetched while
    /// the flips are computed, then probed): a child bound that already reaches `beta` cuts the
    /// node (`Err(score)`); a move whose bound cannot exceed `alpha` is dropped. Returns the
    /// best of the dropped moves' bounds (`-INF` if none) in the `(alpha, beta)` `window`.
    fn order(
        &mut self,
        list: &mut MoveList,
        p: u64,
        o: u64,
        legal: u64,
        n: u32,
        (alpha, beta): (i32, i32),
    ) -> Result<i32, i32> {
        let mut best = -INF;
        // First the flips of every move, and the children's buckets of the shared table on
        // their way into the cache while the rest is computed.
        let shared_children = n > SHARED_TT_MIN_EMPTIES;
        let mut hashes = [0u64; 34];
        let mut count = 0;
        let mut m = legal;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, x);
            if f == o {
                // Wipe-out: the opponent has no disc left.
                return Err(SCORE_MAX);
            }
            if shared_children {
                let child = Board {
                    player: o ^ f,
                    opponent: p | f | 1 << x,
                };
                hashes[count] = child.hash();
                self.tt.prefetch(hashes[count]);
            }
            list.moves[count] = Candidate {
                sq: x as u8,
                flips: f,
                value: 0,
            };
            count += 1;
        }
        for (k, &hash) in hashes[..count].iter().enumerate() {
            let Candidate { sq, flips: f, .. } = list.moves[k];
            let x = sq as usize;
            let (cp, co) = (o ^ f, p | f | 1 << x);
            let bounds = if shared_children {
                let child = Board {
                    player: cp,
                    opponent: co,
                };
                self.shared_bounds(&child, n - 1, hash)
            } else {
                self.table_bounds(cp, co, n - 1)
            };
            if let Some((lower, upper)) = bounds {
                if -upper >= beta {
                    return Err(-upper);
                }
                if -lower <= alpha {
                    best = best.max(-lower);
                    continue;
                }
            }
            let value = if x as u8 == list.hash_moves[0] {
                1 << 20
            } else if x as u8 == list.hash_moves[1] {
                1 << 19
            } else {
                list.pending = true;
                0
            };
            list.hashed += (value != 0) as usize;
            list.moves[list.len] = Candidate {
                sq: x as u8,
                flips: f,
                value,
            };
            list.len += 1;
        }
        if list.hashed == 0 {
            self.value_moves(list, p, o, n);
        }
        Ok(best)
    }

    /// Gives the moves of `list` that are not hash moves their ordering values: fastest-first
    /// (fewest replies for the opponent, corners counting double), odd-quadrant parity and a
    /// static square value; from [`SHALLOW_ORDERING_MIN_EMPTIES`], the opponent's potential
    /// mobility and the evaluation of the child too.
    fn value_moves(&self, list: &mut MoveList, p: u64, o: u64, n: u32) {
        list.pending = false;
        let odd = if n <= 14 { odd_quadrants(!(p | o)) } else { 0 };
        let eval_depth = EVAL_LOOKAHEAD_MIN_EMPTIES
            .iter()
            .take_while(|&&min| n >= min)
            .count() as u32;
        // The evaluation's state of this node, for the children's look-ahead.
        let state = match self.eval {
            Some(eval) if n >= SHALLOW_ORDERING_MIN_EMPTIES => Some(eval.state(&Board {
                player: p,
                opponent: o,
            })),
            _ => None,
        };
        for mv in &mut list.moves[..list.len] {
            // Only the hash moves carry a value yet; the others wait at 0.
            if mv.value != 0 {
                continue;
            }
            let x = mv.sq as usize;
            let (cp, co) = (o ^ mv.flips, p | mv.flips | 1 << x);
            let replies = moves(cp, co);
            let mobility = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
            let mut value = -64 * mobility + 16 * ((odd >> x & 1) as i32) + 4 * SQUARE_VALUE[x];
            if n >= SHALLOW_ORDERING_MIN_EMPTIES {
                let potential = potential_moves(cp, co).count_ones();
                value -= POTENTIAL_WEIGHT * potential as i32;
                match (self.eval, &state) {
                    (Some(eval), Some(state)) => {
                        let child = Board {
                            player: cp,
                            opponent: co,
                        };
                        let cs = eval.play(state, x, mv.flips);
                        let v = if eval_depth == 0 {
                            let known = crate::eval::Replies {
                                moves: replies,
                                potential: Some(potential as u8),
                            };
                            eval.evaluate_with(&child, &cs, Some(known))
                        } else {
                            eval_negamax(eval, &child, &cs, eval_depth, -INF, INF)
                        };
                        value -= EVAL_WEIGHT[eval_depth as usize] * v;
                    }
                    _ => value -= 4 * shallow_value(cp, co, replies),
                }
            }
            mv.value = value;
        }
    }
}

/// A crude static evaluation for ordering: weighted mobility difference and corners.
#[inline]
fn crude_eval(p: u64, o: u64, p_moves: u64) -> i32 {
    let om = moves(o, p);
    let mp = p_moves.count_ones() as i32 + 2 * (p_moves & CORNERS).count_ones() as i32;
    let mo = om.count_ones() as i32 + 2 * (om & CORNERS).count_ones() as i32;
    4 * (mp - mo) + 16 * ((p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32)
}

/// Depth-1 value of `(p, o)` for the side to move under [`crude_eval`].
fn shallow_value(p: u64, o: u64, legal: u64) -> i32 {
    if legal == 0 {
        return -crude_eval(o, p, moves(o, p));
    }
    let mut best = -100_000;
    let mut m = legal;
    while m != 0 {
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(p, o, x);
        let (cp, co) = (o ^ f, p | f | 1 << x);
        let v = -crude_eval(cp, co, moves(cp, co));
        best = best.max(v);
    }
    best
}

/// A static value per square for move ordering: corners good, X- and C-squares bad.
#[rustfmt::skip]
static SQUARE_VALUE: [i32; 64] = [
    10, -2, 4, 2, 2, 4, -2, 10,
    -2, -6, 0, 0, 0, 0, -6, -2,
    4, 0, 1, 0, 0, 1, 0, 4,
    2, 0, 0, 0, 0, 0, 0, 2,
    2, 0, 0, 0, 0, 0, 0, 2,
    4, 0, 1, 0, 0, 1, 0, 4,
    -2, -6, 0, 0, 0, 0, -6, -2,
    10, -2, 4, 2, 2, 4, -2, 10,
];

/// One empty square `x`; `p` holds every other square it owns, the opponent the rest.
#[inline]
fn solve_1(p: u64, alpha: i32, x: usize) -> i32 {
    let discs = p.count_ones() as i32;
    let f = count_last_flips(p, x) as i32;
    if f != 0 {
        return 2 * (discs + f + 1) - 64;
    }
    // The player must pass: the score is at most 2 * discs - 62.
    if 2 * discs - 62 <= alpha {
        return 2 * discs - 62;
    }
    let f = count_last_flips(!p & !(1 << x), x) as i32;
    if f != 0 {
        2 * (discs - f) - 64
    } else if 2 * discs > 63 {
        2 * discs - 62
    } else {
        2 * discs - 64
    }
}

/// The `N` empties as squares in [`parity_classes`] order.
#[inline]
fn parity_sorted<const N: usize>(empties: u64) -> [usize; N] {
    let mut out = [0usize; N];
    let mut i = 0;
    for class in parity_classes(empties, empties) {
        let mut m = class;
        while m != 0 {
            out[i] = m.trailing_zeros() as usize;
            m &= m - 1;
            i += 1;
        }
    }
    debug_assert_eq!(i, N);
    out
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
            nodes: self.nodes,
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

    #[test]
    fn lone_empties_have_no_empty_neighbour() {
        // a1 alone in its corner; b3 with c3 beside it; h8 alone; e5 with d4 diagonal to it.
        let (a1, b3, c3, h8, d4, e5) = (1u64, 1 << 17, 1 << 18, 1 << 63, 1 << 27, 1 << 36);
        assert_eq!(lone_empties(a1 | b3 | c3 | h8 | d4 | e5), a1 | h8);
        // Row ends do not wrap: h1 and a2 are not neighbours.
        assert_eq!(lone_empties(1 << 7 | 1 << 8), 1 << 7 | 1 << 8);
        assert_eq!(lone_empties(0), 0);
    }

    #[test]
    fn own_table_keeps_bounds_of_its_positions_only() {
        let (p, o) = (0x0000_0010_0800_0000u64, 0x0000_0008_1000_0000u64);
        let n = SHALLOW_MAX + 1;
        local_store(p, o, n, 6, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((6, SCORE_MAX)));
        local_store(p, o, n, 2, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((2, 2)));
        local_store(p, o, n, -12, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((-SCORE_MAX, -12)));
        assert_eq!(local_probe(o, p, n), None);
        assert_eq!(local_probe(p, o, n + 1), None);
    }

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
