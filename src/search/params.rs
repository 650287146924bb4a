//! The tuned parameters of the search, in one place. Each says in a line why it has its value and
//! names the file in docs/lab/ with the measurements behind it (or says that none was made).
//! The ProbCut model itself (its selectivities and its fitted table, remade by `iago probcut-fit`) is in
//! `search/probcut.rs`; the time budgets are in `search/time.rs`.

use crate::search::INF;
use crate::search::probcut::Selectivity;

// Selectivities.

/// Selectivity of play (the default of an engine: protocol sessions, the console, the match runner's
/// engines): the lowest reaches deepest
/// and played the strongest at equal time (2026-11-26-time-and-selectivity.md,
/// 2026-11-27-play-level.md).
pub const PLAY_SELECTIVITY: Selectivity = Selectivity::new(58);

/// Selectivity of analysis (`EngineOptions::analysis`: `iago analyze` and `review`, benchmarks, books
/// and self-play data): little pruning
/// where accuracy counts more than speed (2026-11-26-time-and-selectivity.md).
pub const ANALYSIS_SELECTIVITY: Selectivity = Selectivity::new(95);

/// Selectivity of the midgame pre-searches of an exact solve: the cheapest selectivity measured then gave the
/// fewest exact nodes (2026-11-22-endgame-solver.md).
pub const PRESEARCH_MIDGAME_SELECTIVITY: Selectivity = Selectivity::new(73);

/// Levels of the whole-game pre-searches of an exact solve: one pass at 87%; a second pass cost
/// more than the exact nodes it saved (2026-11-22-endgame-solver.md).
pub const PRESEARCH_END_SELECTIVITIES: [Selectivity; 1] = [Selectivity::new(87)];

// The driver.

/// Pre-searches run midgame iterations up to this many plies short of the end: other gaps did
/// about as well (2026-11-22-endgame-solver.md).
pub const PRESEARCH_GAP: u32 = 8;

/// Below this many empties an exact solve starts without pre-searches, as Edax and Egaroucid do
/// (2026-11-22-endgame-solver.md).
pub const PRESEARCH_MIN_EMPTIES: u32 = 18;

/// Threads from which a midgame iteration runs a helper search per [`THREADS_PER_HELPER`]
/// threads: on 4 they slowed it down (2026-11-27-sixteen-cores.md).
pub const HELPERS_MIN_THREADS: usize = 8;

/// Below this many threads (2 and 3), a midgame iteration runs one helper search a ply deeper
/// beside its splits: on 2 threads, games at a fixed depth moved sooner, and games at equal
/// time scored a little better (2026-12-02-gui-clock-and-threads.md); a helper that ends
/// first going deeper again scored a little better still (2026-12-02-two-threads.md).
pub const ONE_HELPER_BELOW_THREADS: usize = 4;

/// The shallowest iteration with helper searches (2026-11-27-sixteen-cores.md).
pub const HELPERS_MIN_DEPTH: u32 = 6;

/// One helper search per this many threads: the best time to depth on 8 and 16 threads
/// (2026-11-27-sixteen-cores.md).
pub const THREADS_PER_HELPER: usize = 4;

// The midgame search (8×8).

/// In play and timed analysis, once the next midgame iteration would come within this many
/// plies of the end of the game, the iterations search to the end with ProbCut instead, one
/// selectivity after another (2026-12-03-selective-endgame.md).
pub const SELECTIVE_END_GAP: u32 = 6;

/// A selective search reaching the end of the game hands over to the exact solver at this many
/// empties: 12 and 16 took about as many nodes, this one the fewest slow midgame calls
/// (2026-11-22-midgame-search.md).
pub const SELECTIVE_END_MIN_EMPTIES: u32 = 14;

/// Remaining depth from which a node splits its later moves over the threads, chosen by time to
/// depth (2026-11-26-parallel-search.md).
pub const MIDGAME_SPLIT_MIN_DEPTH: u32 = 6;

/// Depths from which the moves of a node are ordered by their children's static values, then
/// 1-ply, then 2-ply searches; below the first, by mobility alone. Ordering by the evaluation at
/// shallower depths cost more time than it saved, at 12 and 45 ms a move
/// (2026-11-28-ntest-side-by-side.md).
pub const ORDERING_SEARCH_FROM: [u32; 3] = [8, 16, 24];

/// The weight of those searches' scores (in discs) against mobility in the ordering value (no
/// measurement recorded, 2026-11-22-midgame-search.md).
pub const ORDERING_SEARCH_WEIGHT: i32 = 32;

/// The exact-solve time model by which the driver decides that a solve fits the clock and the
/// clock keeps time for it: seconds at 20 empties on one thread, the mean of game positions
/// (2026-11-28-where-games-are-lost.md; FFO positions take 5-8 times longer).
pub const EXACT_SECONDS_AT_20: f64 = 0.1;

/// The model's growth per empty square (2026-11-28-where-games-are-lost.md).
pub const EXACT_GROWTH_PER_EMPTY: f64 = 2.05;

/// What a win/loss/draw solve costs against an exact one in the model: game positions took
/// 0.7 to 1 times the exact time at 16-20 empties by the medians (2026-11-28-where-games-are-lost.md).
pub const WLD_SHARE_OF_EXACT: f64 = 0.7;

/// The model's speed-up of two threads over one (2026-11-22-midgame-search.md).
pub const EXACT_TWO_THREAD_SPEEDUP: f64 = 1.6;

// The exact solver (8×8).

/// Empties at or below which the solver runs its table-free last-moves search: the kernels for
/// 1 to 4 empties and parity-ordered alpha-beta above (2026-11-22-endgame-solver.md).
pub const SHALLOW_MAX: u32 = 6;

/// Empties from which deep nodes use the shared table (below, each thread's own): every split
/// from 11 to 15 took less time than sharing every node, 13 the least
/// (2026-11-22-endgame-solver.md).
pub const SHARED_TT_MIN_EMPTIES: u32 = 13;

/// Empties from which a null-window node searches its later moves in parallel: from 16 rather
/// than 12 the tasks are fewer and larger and as fast (2026-11-22-endgame-solver.md).
pub const SPLIT_MIN_EMPTIES: u32 = 16;

/// Depth from which a selective entry's moves (left by the pre-searches) go first in the exact
/// search: other thresholds took more nodes on every FFO position tried
/// (2026-11-22-endgame-solver.md).
pub const SELECTIVE_MOVE_MIN_DEPTH: u32 = 6;

/// Empties from which a look-ahead (the evaluation of each child, or a crude 1-ply value) and
/// the opponent's potential mobility join the ordering (2026-11-22-endgame-solver.md).
pub const SHALLOW_ORDERING_MIN_EMPTIES: u32 = 14;

/// Empties from which a child's 1-ply, then 2-ply evaluation orders the moves: the least time
/// on the positions they were chosen on (2026-11-25-ffo-40-59-vs-egaroucid.md).
pub const EVAL_LOOKAHEAD_MIN_EMPTIES: [u32; 2] = [18, 22];

/// The evaluation's weight in the ordering value at each look-ahead depth (static, 1 ply,
/// 2 plies): the fewest nodes of those tried (2026-11-22-endgame-solver.md).
pub const EVAL_WEIGHT: [i32; EVAL_LOOKAHEAD_MIN_EMPTIES.len() + 1] = [20, 48, 48];

/// The weight of the opponent's potential mobility in the ordering value: fewer nodes on three
/// of four sets of positions (2026-11-22-endgame-solver.md).
pub const POTENTIAL_WEIGHT: i32 = 24;

/// Minimum `alpha` for a stability cut-off at a deep node, by empties (`2n - 12`): below it the
/// bound rarely reaches `alpha` and does not pay (2026-11-22-endgame-solver.md).
pub static STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [INF; 65];
    let mut n = SHALLOW_MAX as usize + 1;
    while n <= 64 {
        t[n] = 2 * n as i32 - 12;
        n += 1;
    }
    t
};

/// Minimum `alpha` for a stability cut-off in the last-moves search, by empties (5 and 6 only,
/// as Egaroucid does): fewer nodes and less time than none (2026-11-22-endgame-solver.md).
pub static SHALLOW_STABILITY_THRESHOLD: [i32; SHALLOW_MAX as usize + 1] =
    [99, 99, 99, 99, 99, 6, 8];

// The rule variants' search.

/// Exact variant nodes with at most this many empties run the plain alpha-beta kernels (no
/// table, no sorting; no measurement recorded, 2026-11-22-rule-variants.md).
pub const VARIANT_SHALLOW_MAX: u32 = 6;

/// Exact variant nodes from this many empties order moves by a crude 1-ply look-ahead (no
/// measurement recorded, 2026-11-22-rule-variants.md).
pub const VARIANT_LOOKAHEAD_MIN: u32 = 14;

/// Exact variant nodes from this many empties look their children up first (enhanced
/// transposition cut-offs; no measurement recorded, 2026-11-22-rule-variants.md).
pub const VARIANT_ETC_MIN: u32 = 10;

/// Remaining depth (or empties when exact) from which a variant node splits over the threads
/// (no measurement recorded, 2026-11-22-rule-variants.md).
pub const VARIANT_SPLIT_MIN_DEPTH: u32 = 11;

// Stops.

/// Calls of the stop check between two readings of the clock: a few microseconds of search,
/// far below any deadline's margin (no measurement recorded).
pub const POLL_INTERVAL: u32 = 256;
