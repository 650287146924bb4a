//! The search driver: iterative deepening with aspiration windows, the switch to the exact
//! solver (win/loss/draw first, then exact) when the empties can be solved in the time left, and
//! the principal variation read back from the hash table.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Board, Move, Square};
use crate::eval::SearchEval;
use crate::search::SCORE_MAX;
use crate::search::control::{self, Control};
use crate::search::endgame::Stopped;
use crate::search::midgame::Othello;
use crate::search::params::{
    HELPERS_MIN_DEPTH, HELPERS_MIN_THREADS, ONE_HELPER_BELOW_THREADS, PRESEARCH_END_SELECTIVITIES,
    PRESEARCH_GAP, PRESEARCH_MIDGAME_SELECTIVITY, PRESEARCH_MIN_EMPTIES, SELECTIVE_END_GAP,
    THREADS_PER_HELPER, WLD_SHARE_OF_EXACT,
};
use crate::search::probcut::Selectivity;
use crate::search::pvs::{Pvs, RootMove, SearchGame, principal_variation};
use crate::search::time::TimePlan;
use crate::search::tt::TranspositionTable;
use crate::search::{Bound, SearchResult, Source};

/// The deepest midgame iteration.
pub const MAX_DEPTH: u32 = 60;

/// What one call of [`drive`] searches (the position is given beside it).
pub(crate) struct Drive<'a> {
    /// Deepest midgame iteration.
    pub max_depth: Option<u32>,
    /// The first midgame iteration (1 normally; a multi-PV search runs one depth at a time).
    pub first_depth: u32,
    /// The expected score, if known (a multi-PV search's score a depth before): the centre of
    /// the first aspiration window.
    pub guess: Option<i32>,
    /// Deadlines.
    pub plan: TimePlan,
    /// Root moves to consider (a bitboard; other legal moves are ignored).
    pub allowed: u64,
    /// selectivity of the midgame iterations.
    pub selectivity: Selectivity,
    /// Called after every completed iteration.
    pub observer: &'a mut (dyn FnMut(&SearchResult) + Send),
}

/// What an iteration searches: the midgame to a depth, the end of the game with ProbCut at a
/// selectivity, or the end of the game exactly (for the sign of the score first, or for the
/// score).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Midgame(u32),
    SelectiveEnd(Selectivity),
    WinLossDraw,
    Exact,
}

/// When the iterations of a search of `empties` empty squares go from the midgame to the
/// exact solve, and when they end.
///
/// Without a depth limit short of the end, the midgame iterations at `selectivity` give way,
/// once the next would come within [`SELECTIVE_END_GAP`] plies of the end, to searches to the
/// end of the game with ProbCut: at `selectivity`, then at each higher selectivity in turn, as
/// Edax's iterations do, and then the exact solve. Whatever the clock, the exact solve (or a
/// win/loss/draw solve) comes as soon as the model puts it in half the time left.
struct Schedule {
    empties: u32,
    /// Deepest midgame iteration.
    max_depth: u32,
    /// The most empties solved exactly: depth × 3/2, as Edax's levels do, so that a shallow game on a
    /// long clock stays shallow.
    solve_limit: u32,
    threads: usize,
    /// ProbCut's selectivity in the midgame iterations.
    selectivity: Selectivity,
    /// Whether the midgame iterations give way to selective searches to the end.
    selective_end: bool,
}

impl Schedule {
    fn new<G: SearchGame>(
        empties: u32,
        max_depth: Option<u32>,
        threads: usize,
        selectivity: Selectivity,
    ) -> Schedule {
        let max_depth = max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        Schedule {
            empties,
            max_depth,
            solve_limit: max_depth + max_depth / 2,
            threads,
            selectivity,
            selective_end: G::PRESEARCH && selectivity.is_selective() && empties <= max_depth,
        }
    }

    /// The first iteration: the exact solve at once when a depth limit alone (no clock) covers
    /// the empties, else the midgame from `first_depth`.
    fn first(&self, first_depth: u32, plan: &TimePlan) -> Phase {
        let exact_from = if plan.hard.is_none() {
            self.solve_limit
        } else {
            0
        };
        if self.empties <= exact_from {
            Phase::Exact
        } else {
            Phase::Midgame(first_depth.clamp(1, self.max_depth))
        }
    }

    /// The depth, selectivity and bound of an iteration in `phase` (a midgame depth that
    /// reaches the end of the game is the exact solve).
    fn iteration(&self, phase: Phase) -> (u32, Selectivity, Bound) {
        match phase {
            Phase::Midgame(d) if d < self.empties => (d, self.selectivity, Bound::Estimate),
            Phase::SelectiveEnd(s) => (self.empties, s, Bound::Estimate),
            Phase::Midgame(_) | Phase::Exact => (self.empties, Selectivity::NONE, Bound::Exact),
            Phase::WinLossDraw => (self.empties, Selectivity::NONE, Bound::WinLossDraw),
        }
    }

    /// The iteration after one in `phase` (not exact) has completed, or `None` to stop; a
    /// midgame iteration is predicted to take `predicted`.
    fn next<G: SearchGame>(
        &self,
        phase: Phase,
        plan: &TimePlan,
        predicted: Duration,
    ) -> Option<Phase> {
        let now = Instant::now();
        let left = plan.remaining(now).map(|d| d.as_secs_f64());
        let exact_seconds = G::exact_seconds(self.empties, self.threads);
        // A solve without pre-searches (few empties) waits for a midgame iteration as deep as
        // they would have gone: its move is played if the solve is stopped.
        let fallback = match phase {
            Phase::Midgame(d) => {
                self.empties >= PRESEARCH_MIN_EMPTIES || d + PRESEARCH_GAP >= self.empties
            }
            _ => true,
        };
        let solvable = self.empties <= self.solve_limit && fallback;
        Some(match (phase, left, exact_seconds) {
            (Phase::Exact, _, _) => return None,
            // After a proven win/loss/draw, the rest of the time goes to the exact score.
            (Phase::WinLossDraw, _, _) => Phase::Exact,
            // With a deadline: the exact solve once the model puts it in half the time left, a
            // win/loss/draw solve first when only that fits.
            (_, Some(left), Some(exact)) if solvable && exact < left / 2.0 => Phase::Exact,
            (_, Some(left), Some(exact)) if solvable && exact * WLD_SHARE_OF_EXACT < left / 2.0 => {
                Phase::WinLossDraw
            }
            // The ladder of selective searches to the end, then the exact solve where time
            // allows (it is stopped by the deadline if the model was wrong).
            (Phase::SelectiveEnd(_), _, _) | (Phase::Midgame(_), _, _)
                if !plan.may_start(now, predicted) =>
            {
                return None;
            }
            (Phase::SelectiveEnd(s), _, _) => {
                s.next_selective().map_or(Phase::Exact, Phase::SelectiveEnd)
            }
            (Phase::Midgame(d), _, _)
                if self.selective_end && d + 1 + SELECTIVE_END_GAP >= self.empties =>
            {
                Phase::SelectiveEnd(self.selectivity)
            }
            (Phase::Midgame(d), _, _) if d >= self.max_depth => return None,
            (Phase::Midgame(d), _, _) => Phase::Midgame(d + 1),
        })
    }
}

/// How an iteration ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ended {
    Completed,
    /// Stopped, after a later root move had proved better than the first: the root list's
    /// first move and its score are this depth's best so far.
    StoppedImproved,
    Stopped,
}

/// The search of one position by one call of [`drive`]: what its iterations share.
struct Iterations<'a, G: SearchGame> {
    tt: &'a TranspositionTable,
    game: G,
    /// The caller's stop flag and this search's deadline.
    control: Control<'a>,
    node: &'a G::Node,
    schedule: Schedule,
}

impl<G: SearchGame> Iterations<'_, G> {
    /// Searches `root` at `depth` plies and ProbCut `selectivity` for a score of kind `bound`, the
    /// aspiration window around `guess`: the score, the nodes, and how it ended.
    fn search(
        &self,
        root: &mut [RootMove<G::Move>],
        (depth, selectivity, bound): (u32, Selectivity, Bound),
        guess: Option<i32>,
    ) -> (i32, u64, Ended) {
        let (tt, game, node, control) = (self.tt, self.game, self.node, self.control);
        let mut search = Pvs::new(tt, game, control, true, selectivity);
        let mut helper_nodes = 0;
        let score = if bound == Bound::WinLossDraw {
            search.root(node, root, -1, 1, depth).0
        } else if bound == Bound::Estimate {
            let helpers = helper_count(self.schedule.threads, depth, self.schedule.empties);
            // The helpers' copy of the root moves (the main search reorders its own).
            let start = if helpers > 0 {
                root.to_vec()
            } else {
                Vec::new()
            };
            let score;
            (score, helper_nodes) = with_helpers(
                helpers,
                &control,
                |control, i| {
                    // Half the helpers (the first, when alone) a ply deeper: their entries
                    // answer the next iteration. A helper that ends before the main search
                    // goes a ply deeper again, to a depth whose iteration would run helpers.
                    let mut moves = start.clone();
                    let (mut d, mut guess, mut nodes) = (depth + 1 - (i % 2) as u32, guess, 0);
                    loop {
                        let mut helper = Pvs::new(tt, game, *control, false, selectivity);
                        let score = aspiration(&mut helper, node, &mut moves, d, guess, false);
                        nodes += helper.nodes();
                        if helper.is_stopped() || !runs_helpers(d + 1, self.schedule.empties) {
                            break nodes;
                        }
                        (d, guess) = (d + 1, Some(score));
                    }
                },
                || aspiration(&mut search, node, root, depth, guess, false),
            );
            score
        } else {
            aspiration(&mut search, node, root, depth, guess, true)
        };
        let ended = match (search.is_stopped(), search.improved()) {
            (false, _) => Ended::Completed,
            (true, true) => Ended::StoppedImproved,
            (true, false) => Ended::Stopped,
        };
        (score, helper_nodes + search.nodes(), ended)
    }

    /// The best line of an iteration whose best root move is `first` and whose score is
    /// `score`: confirmed by the game's searches after an exact solve where it can, else the
    /// hash table's moves.
    fn best_line(
        &self,
        first: RootMove<G::Move>,
        score: i32,
        depth: u32,
        bound: Bound,
        stop: &AtomicBool,
    ) -> Vec<Move> {
        let (tt, game) = (self.tt, self.game);
        let confirmed = if bound == Bound::Exact {
            let child = game.play(self.node, first.sq, &first.mv);
            G::confirmed_line(tt, game, stop, &child, -score).map(|line| {
                let mut pv = vec![Move::Play(Square::from_index_unchecked(first.sq))];
                pv.extend(line);
                pv
            })
        } else {
            None
        };
        confirmed.unwrap_or_else(|| principal_variation(&game, tt, self.node, first.sq, depth))
    }
}

/// Searches `node` of `game` (which has at least one allowed move) by iterative deepening.
/// Returns the result of the deepest completed iteration; a stopped first iteration still yields
/// a legal move.
pub(crate) fn drive<G: SearchGame>(
    tt: &TranspositionTable,
    game: G,
    stop: &AtomicBool,
    node: &G::Node,
    drive: Drive<'_>,
) -> SearchResult {
    let Drive {
        max_depth,
        first_depth,
        guess,
        plan,
        allowed,
        selectivity: midgame_selectivity,
        observer,
    } = drive;
    let schedule = Schedule::new::<G>(
        game.empties(node),
        max_depth,
        rayon::current_num_threads(),
        midgame_selectivity,
    );
    // The caller's stop flag ends the search; the deadline ends only this one (a later search
    // in the same job starts clean).
    let outer = Control::new(stop, None);
    let deadline = AtomicBool::new(false);
    let control = outer.nested(&deadline, plan.hard);
    let mut root = RootMove::list(&game, node, allowed);
    assert!(!root.is_empty(), "drive needs a legal move");
    let mut nodes = 0u64;
    let mut best: Option<SearchResult> = None;
    // The aspiration window's centre: the last score, of an iteration or a pre-search.
    let mut guess: Option<i32> = guess;
    let mut presearched = !G::PRESEARCH;
    let mut midgame_done = 0;
    let mut phase = schedule.first(first_depth, &plan);
    let mut times = IterationTimes::default();
    let iterations = Iterations {
        tt,
        game,
        control,
        node,
        schedule,
    };
    loop {
        let (depth, selectivity, bound) = iterations.schedule.iteration(phase);
        if bound != Bound::Estimate && !presearched {
            // Before the first solve: the selective searches that order it.
            presearched = true;
            let first = (midgame_done + 2).max(4);
            let pre = presearch(tt, game, control, node, &mut root, first, guess);
            nodes += pre.nodes;
            if let Some((depth, selectivity, score)) = pre.deepest {
                // Deeper than the midgame iterations: the move if the solve does not end.
                let result = SearchResult {
                    best_move: Move::Play(Square::from_index_unchecked(root[0].sq)),
                    score,
                    depth,
                    selectivity,
                    bound: Bound::Estimate,
                    nodes,
                    time: plan.start.elapsed(),
                    pv: principal_variation(&game, tt, node, root[0].sq, depth),
                    source: Source::Search,
                };
                observer(&result);
                best = Some(result);
            }
            match pre.guess {
                Ok(g) => guess = g,
                Err(Stopped) => break,
            }
        }
        let began = Instant::now();
        let (score, searched, ended) =
            iterations.search(&mut root, (depth, selectivity, bound), guess);
        if bound == Bound::Estimate {
            times.push(began.elapsed());
        }
        nodes += searched;
        let score = match ended {
            Ended::Completed => score,
            // A midgame move proved better than the last iteration's best is played.
            Ended::StoppedImproved if bound == Bound::Estimate => root[0].score,
            Ended::StoppedImproved | Ended::Stopped => break,
        };
        let estimate = best.as_ref().map_or(0, |b| b.score);
        let score = match bound {
            // A proven sign; the value inside it is the last estimate's, pushed to the right side.
            Bound::WinLossDraw => match score.signum() {
                1 => estimate.max(2),
                -1 => estimate.min(-2),
                _ => 0,
            },
            _ => score,
        };
        let result = SearchResult {
            best_move: Move::Play(Square::from_index_unchecked(root[0].sq)),
            score,
            depth,
            selectivity,
            bound,
            nodes,
            time: plan.start.elapsed(),
            pv: iterations.best_line(root[0], score, depth, bound, stop),
            source: Source::Search,
        };
        observer(&result);
        guess = Some(result.score);
        if bound == Bound::Estimate {
            midgame_done = depth;
            // A selective search to the end at least as sure as the pre-searches' last leaves
            // them nothing to add before the solve.
            presearched |= matches!(phase, Phase::SelectiveEnd(s)
                if PRESEARCH_END_SELECTIVITIES.iter().all(|&p| s >= p));
        }
        best = Some(result);
        if bound == Bound::Exact || ended != Ended::Completed {
            break;
        }
        match iterations
            .schedule
            .next::<G>(phase, &plan, times.predicted())
        {
            Some(next) => phase = next,
            None => break,
        }
    }
    let mut result = best.unwrap_or_else(|| fallback(&game, node, &root));
    result.nodes = nodes;
    result.time = plan.start.elapsed();
    result
}

/// The times of the last two midgame iterations, which predict the next one's.
#[derive(Default)]
struct IterationTimes {
    last: Duration,
    before: Duration,
}

impl IterationTimes {
    /// The least and the most growth from one iteration to the next assumed in a prediction,
    /// and the growth assumed when the last iterations were too short to measure.
    const GROWTH: (f64, f64, f64) = (1.5, 6.0, 3.0);

    fn push(&mut self, time: Duration) {
        self.before = self.last;
        self.last = time;
    }

    /// The next iteration's time: the last one's, times the last growth (within bounds).
    fn predicted(&self) -> Duration {
        let (least, most, unknown) = Self::GROWTH;
        let growth = if self.before >= Duration::from_micros(200) {
            (self.last.as_secs_f64() / self.before.as_secs_f64()).clamp(least, most)
        } else {
            unknown
        };
        self.last.mul_f64(growth)
    }
}

/// Helper searches beside a midgame iteration on `threads` threads at `depth` with `empties`
/// empty squares: one on 2 or 3 threads ([`ONE_HELPER_BELOW_THREADS`]), none from there to
/// [`HELPERS_MIN_THREADS`], then one per [`THREADS_PER_HELPER`] threads; none in iterations
/// below [`HELPERS_MIN_DEPTH`] or near the end.
fn helper_count(threads: usize, depth: u32, empties: u32) -> usize {
    if threads < 2 || !runs_helpers(depth, empties) {
        return 0;
    }
    match threads {
        t if t < ONE_HELPER_BELOW_THREADS => 1,
        t if t < HELPERS_MIN_THREADS => 0,
        t => t / THREADS_PER_HELPER,
    }
}

/// Whether a midgame iteration at `depth` with `empties` empty squares runs helper searches
/// (given the threads): from [`HELPERS_MIN_DEPTH`], and not within two plies of the end.
fn runs_helpers(depth: u32, empties: u32) -> bool {
    depth >= HELPERS_MIN_DEPTH && depth + 2 < empties
}

/// Runs `main` (the iteration's own search, which splits over the pool) with `helpers` helper
/// searches beside it on the same pool: `helper(control, i)` searches the same root into the
/// shared hash table under `control`, which is set once `main` returns, and returns its nodes.
/// Their entries cut and order the main search where the splits leave threads idle (a search
/// with ProbCut gives them little to share). Returns `main`'s value and the helpers' nodes.
fn with_helpers<T: Send>(
    helpers: usize,
    control: &Control<'_>,
    helper: impl Fn(&Control<'_>, usize) -> u64 + Sync,
    main: impl FnOnce() -> T + Send,
) -> (T, u64) {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    if helpers == 0 || rayon::current_thread_index().is_none() {
        return (main(), 0);
    }
    let done = AtomicBool::new(false);
    let helper_control = control.nested(&done, None);
    let helper_nodes = AtomicU64::new(0);
    let value = rayon::scope(|s| {
        for i in 0..helpers {
            let (helper, helper_control, helper_nodes) = (&helper, &helper_control, &helper_nodes);
            s.spawn(move |_| {
                if helper_control.is_set() || !control::helper_may_start() {
                    return;
                }
                helper_nodes.fetch_add(helper(helper_control, i), Relaxed);
            });
        }
        let value = {
            let _main = control::MainSearch::enter();
            main()
        };
        done.store(true, Relaxed);
        value
    });
    (value, helper_nodes.into_inner())
}

/// One iteration with an aspiration window around the previous score, widened on failure.
fn aspiration<G: SearchGame>(
    search: &mut Pvs<'_, G>,
    node: &G::Node,
    root: &mut [RootMove<G::Move>],
    depth: u32,
    guess: Option<i32>,
    exact: bool,
) -> i32 {
    let mut delta = if exact { 2 } else { 4 };
    let (mut alpha, mut beta) = match guess {
        Some(g) if depth > 4 => ((g - delta).max(-SCORE_MAX), (g + delta).min(SCORE_MAX)),
        _ => (-SCORE_MAX, SCORE_MAX),
    };
    if exact {
        // Exact scores are even: keep the window bounds odd.
        alpha |= 1;
        beta |= 1;
        alpha = alpha.clamp(-SCORE_MAX - 1, SCORE_MAX - 1);
        beta = beta.clamp(-SCORE_MAX + 1, SCORE_MAX + 1);
    }
    loop {
        let (score, _) = search.root(node, root, alpha, beta, depth);
        if search.is_stopped() || (score > alpha && score < beta) {
            return score;
        }
        delta *= 2;
        if score <= alpha {
            if alpha <= -SCORE_MAX {
                return score;
            }
            alpha = (score - delta).max(-SCORE_MAX - 1);
        } else {
            if beta >= SCORE_MAX {
                return score;
            }
            beta = (score + delta).min(SCORE_MAX + 1);
        }
    }
}

/// When not even the first iteration completed: the move the static evaluation prefers.
fn fallback<G: SearchGame>(game: &G, node: &G::Node, root: &[RootMove<G::Move>]) -> SearchResult {
    let (sq, score) = root
        .iter()
        .map(|m| (m.sq, -game.evaluate(&game.play(node, m.sq, &m.mv), None)))
        .max_by_key(|&(_, s)| s)
        .expect("a root move");
    SearchResult {
        best_move: Move::Play(Square::from_index_unchecked(sq)),
        score,
        depth: 0,
        selectivity: Selectivity::NONE,
        bound: Bound::Estimate,
        nodes: 0,
        time: std::time::Duration::ZERO,
        pv: vec![Move::Play(Square::from_index_unchecked(sq))],
        source: Source::Search,
    }
}

/// What the pre-searches of an exact solve leave: the last score (the guess passed in when
/// none ran), or `Stopped`; the nodes they visited; and the deepest that completed.
pub(crate) struct Presearched {
    /// The centre of the exact search's aspiration window.
    pub guess: Result<Option<i32>, Stopped>,
    /// Positions visited.
    pub nodes: u64,
    /// The depth, selectivity and score of the deepest pre-search that completed, whose best move is
    /// first in the root list: the move to play if the solve is stopped.
    pub deepest: Option<(u32, Selectivity, i32)>,
}

/// The selective searches before an exact solve of `node` (none below
/// [`PRESEARCH_MIN_EMPTIES`]): midgame iterations at [`PRESEARCH_MIDGAME_SELECTIVITY`] every second
/// depth from `first_depth` up to `empties - PRESEARCH_GAP`, then whole-game searches at the
/// selectivities of [`PRESEARCH_END_SELECTIVITIES`]. They fill the hash table with best moves and give the
/// exact search its aspiration window, which saves many of its nodes.
fn presearch<G: SearchGame>(
    tt: &TranspositionTable,
    game: G,
    control: Control<'_>,
    node: &G::Node,
    root: &mut [RootMove<G::Move>],
    first_depth: u32,
    mut guess: Option<i32>,
) -> Presearched {
    let empties = game.empties(node);
    let mut nodes = 0;
    let mut deepest = None;
    if empties < PRESEARCH_MIN_EMPTIES {
        return Presearched {
            guess: Ok(guess),
            nodes: 0,
            deepest,
        };
    }
    let midgame = (first_depth..=empties.saturating_sub(PRESEARCH_GAP))
        .step_by(2)
        .map(|d| (d, PRESEARCH_MIDGAME_SELECTIVITY));
    let end = PRESEARCH_END_SELECTIVITIES.iter().map(|&l| (empties, l));
    for (depth, selectivity) in midgame.chain(end) {
        if guess.is_some_and(|g| g.abs() >= SCORE_MAX) {
            // A wipe-out is in sight: the exact search around it settles the score at once (FFO
            // #59, 2 threads: 26,979,155 nodes, 2.03 s with the whole-game pre-search).
            break;
        }
        let start = Instant::now();
        if let Some(progress) = control.progress() {
            progress.enter(depth, selectivity);
        }
        let mut search = Pvs::new(tt, game, control, true, selectivity);
        let score = aspiration(&mut search, node, root, depth, guess, false);
        nodes += search.nodes();
        log::debug!(
            "pre-search {depth}@{}%: {score:+}, {} nodes, {:.3} s",
            selectivity.percent(),
            search.nodes(),
            start.elapsed().as_secs_f64()
        );
        if search.is_stopped() {
            return Presearched {
                guess: Err(Stopped),
                nodes,
                deepest,
            };
        }
        guess = Some(score);
        deepest = Some((depth, selectivity, score));
    }
    Presearched {
        guess: Ok(guess),
        nodes,
        deepest,
    }
}

/// Solves `board` (which has a legal move) exactly in `(alpha, beta)` after the selective
/// pre-searches: the score (fail-soft outside the window) and the nodes, or `None` when
/// stopped.
pub(crate) fn presearched_solve<E: SearchEval + ?Sized>(
    tt: &TranspositionTable,
    eval: &E,
    control: Control<'_>,
    board: &Board,
    alpha: i32,
    beta: i32,
) -> (Option<i32>, u64) {
    let empties = board.empty_count();
    let game = Othello::new(eval);
    let node = game.node(board);
    let mut root = RootMove::list(&game, &node, u64::MAX);
    assert!(!root.is_empty(), "presearched_solve needs a legal move");
    let pre = presearch(tt, game, control, &node, &mut root, 4, None);
    let mut nodes = pre.nodes;
    let Ok(guess) = pre.guess else {
        return (None, nodes);
    };
    if let Some(progress) = control.progress() {
        progress.enter(empties, Selectivity::NONE);
    }
    let mut search = Pvs::new(tt, game, control, true, Selectivity::NONE);
    let score = if alpha <= -SCORE_MAX && beta >= SCORE_MAX {
        aspiration(&mut search, &node, &mut root, empties, guess, true)
    } else {
        search.root(&node, &mut root, alpha, beta, empties).0
    };
    nodes += search.nodes();
    (Some(score).filter(|_| !search.is_stopped()), nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::Duration;

    /// Runs `with_helpers` with three helpers on a pool of `threads`; the main search yields to
    /// the pool (as a split's wait does) before it returns. Returns the pool threads of the
    /// main search and of the helpers that ran, and whether a helper outlived its 5-second
    /// bound (it waits for the main search's end).
    fn run(threads: usize) -> (Option<usize>, Vec<Option<usize>>, bool) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let stop = AtomicBool::new(false);
        let control = Control::new(&stop, None);
        let helpers = Mutex::new(Vec::new());
        let stuck = AtomicBool::new(false);
        let (main, nodes) = pool.install(|| {
            with_helpers(
                3,
                &control,
                |control, _| {
                    helpers.lock().unwrap().push(rayon::current_thread_index());
                    let start = Instant::now();
                    while !control.is_set() {
                        if start.elapsed() > Duration::from_secs(5) {
                            stuck.store(true, Relaxed);
                            break;
                        }
                        std::thread::sleep(Duration::from_micros(100));
                    }
                    1
                },
                || {
                    for _ in 0..3 {
                        // Runs a job of this thread's own queue, if any: a helper here would
                        // stall the main search.
                        rayon::yield_now();
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    rayon::current_thread_index()
                },
            )
        });
        let helpers = helpers.into_inner().unwrap();
        assert_eq!(
            nodes,
            helpers.len() as u64,
            "each helper's nodes counted once"
        );
        assert!(!stop.into_inner(), "the helpers' stop is their own");
        (main, helpers, stuck.into_inner())
    }

    /// The phases of a search of `empties` empty squares without a deadline, from the midgame
    /// iteration at `from` (after the first), at `selectivity` and to `max_depth`.
    fn phases(empties: u32, max_depth: Option<u32>, selectivity: u8, from: u32) -> Vec<String> {
        type Game = Othello<'static, crate::eval::HandEval>;
        let schedule = Schedule::new::<Game>(empties, max_depth, 1, Selectivity::new(selectivity));
        let plan = TimePlan {
            start: Instant::now(),
            target: None,
            hard: None,
            banked: false,
        };
        let mut phase = Phase::Midgame(from);
        let mut out = Vec::new();
        while let Some(next) = schedule.next::<Game>(phase, &plan, Duration::ZERO) {
            let (depth, selectivity, bound) = schedule.iteration(next);
            out.push(match bound {
                Bound::Estimate => format!("{depth}@{selectivity}"),
                Bound::Exact => format!("{depth} exact"),
                Bound::WinLossDraw => format!("{depth} wld"),
            });
            if bound == Bound::Exact {
                break;
            }
            phase = next;
        }
        out
    }

    #[test]
    fn the_midgame_gives_way_to_selective_searches_to_the_end() {
        // 20 empties at the play selectivity: depths 12 and 13, then every selectivity to the
        // end of the game, then the exact solve.
        assert_eq!(
            phases(20, None, 58, 11),
            [
                "12@58", "13@58", "20@58", "20@73", "20@87", "20@95", "20@98", "20@99", "20 exact"
            ]
        );
        // At the analysis selectivity the ladder starts there.
        assert_eq!(
            phases(20, None, 95, 13),
            ["20@95", "20@98", "20@99", "20 exact"]
        );
        // Without ProbCut, or with a depth limit short of the end, the midgame iterations
        // go on as before.
        assert_eq!(phases(20, None, 100, 17), ["18@100", "19@100", "20 exact"]);
        assert_eq!(phases(20, Some(16), 58, 13), ["14@58", "15@58", "16@58"]);
    }

    #[test]
    fn helpers_by_threads() {
        let count = |threads| helper_count(threads, 12, 40);
        assert_eq!([1, 2, 3, 4, 7, 8, 16].map(count), [0, 1, 1, 0, 0, 2, 4]);
        assert_eq!(helper_count(2, HELPERS_MIN_DEPTH - 1, 40), 0);
        assert_eq!(helper_count(16, 38, 40), 0, "near the end");
    }

    /// Helpers never run on a thread inside the main search (which could not end before them);
    /// on other threads they run until it returns.
    #[test]
    fn helpers_leave_the_main_search_free() {
        let (_, helpers, stuck) = run(1);
        assert!(helpers.is_empty(), "one thread: no helper runs");
        assert!(!stuck);
        let (main, helpers, stuck) = run(4);
        assert!(!stuck);
        assert!(
            !helpers.contains(&main),
            "a helper ran on the main search's thread"
        );
        assert!(!helpers.is_empty(), "idle threads take the helpers");
    }
}
