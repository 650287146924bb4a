//! The engine facade: the one owner of the game, the options, the hash table, the thread pool,
//! the evaluator and the opening book. Protocols and the match runner talk to it; it knows
//! nothing about any protocol.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

use crate::board::rules::UnsupportedRules;
use crate::board::{Board, Color, Game, IllegalMoveError, Move, Rules, State};
use crate::book::{Book, BookMove};
use crate::eval::Evaluation;
use crate::search::Selectivity;
use crate::search::control::{Control, Progress};
use crate::search::driver::{Drive, MAX_DEPTH};
use crate::search::endgame::{SolveMode, Stopped};
use crate::search::midgame::{Othello, exact_seconds};
use crate::search::multipv::{RankSearch, multi_pv};
use crate::search::time::TimePlan;
use crate::search::tt::TranspositionTable;
use crate::search::variant::Variant;
use crate::search::{Bound, Limits, SearchResult, Source};

pub use crate::search::multipv::Hints;
pub use crate::search::solve::SolveReport;

mod level;
mod options;

use level::LevelMove;
pub use level::{Level, ParseLevelError};
pub use options::{
    BookSource, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD, DEFAULT_MOVE_OVERHEAD_MS, EngineOptions,
    EvalSource, LoadError, Loaded, MAX_MOVE_OVERHEAD_MS, default_threads, parse_move_overhead,
};

/// Plies of a game that `learn` adds to the book.
pub const LEARN_PLIES: usize = 40;

/// Stops the searches of one stop generation from another thread (see
/// [`Engine::stop_handle`]).
///
/// Each generation has a flag of its own that only its handles set and that nothing clears:
/// a stop can neither be lost to a search that starts after it (the search runs in the
/// generation, and sees the flag however late it begins) nor leak into a later generation.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Stops the generation's searches: the running one returns its best result so far within
    /// milliseconds, and every later search of the generation returns at once.
    pub fn stop(&self) {
        self.0.store(true, Relaxed);
    }

    /// Whether the generation was stopped.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Relaxed)
    }
}

/// The most search threads an engine runs.
pub const MAX_THREADS: usize = 1024;

/// The largest hash table an engine takes, in MiB (the machine's memory is checked when the
/// table is made).
pub const MAX_HASH_MB: usize = crate::search::tt::MAX_MB;

/// Why the engine could not be built.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Zero threads, or more than [`MAX_THREADS`].
    #[error("{0} search threads is out of range (1 to {MAX_THREADS})")]
    ThreadCount(usize),
    /// The hash table cannot be had.
    #[error(transparent)]
    Table(#[from] crate::search::tt::TableError),
    /// The evaluation or the book cannot be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The thread pool could not start.
    #[error("cannot start {threads} search threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The cause.
        source: rayon::ThreadPoolBuildError,
    },
}

/// The engine.
pub struct Engine {
    options: EngineOptions,
    game: Game,
    tt: TranspositionTable,
    pool: rayon::ThreadPool,
    evaluator: Evaluation,
    book: BookSlot,
    stop: Arc<AtomicBool>,
    /// The draws of a level below the top.
    draws: crate::rng::SplitMix64,
}

/// The search threads (1 to [`MAX_THREADS`]).
pub(crate) fn build_pool(threads: usize) -> Result<rayon::ThreadPool, EngineError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(EngineError::ThreadCount(threads));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("iago-search-{i}"))
        .build()
        .map_err(|source| EngineError::Threads { threads, source })
}

impl Engine {
    /// An engine made from `options` at the start of a standard game: its evaluation and book
    /// read now (an error when one cannot be), the weights ready for the first search.
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        let loaded = options.load()?;
        Engine::with_loaded(options, loaded)
    }

    /// An engine made from `options` with an evaluation and a book already read (by
    /// [`EngineOptions::load`]): the engines of a match share one reading.
    pub fn with_loaded(options: EngineOptions, loaded: Loaded) -> Result<Engine, EngineError> {
        let mut engine = Engine::bare(options, loaded.evaluation)?;
        engine.book = BookSlot::ready(loaded.book);
        Ok(engine)
    }

    /// An engine made from `options` that answers at once, for a program a GUI starts: the
    /// embedded weights and the book are read on threads of their own while it starts (the
    /// weights first, so that their peaks of memory do not add up), and the first search waits
    /// for them. A weight file that cannot be read is an error; a book that cannot be read is
    /// a warning, and the engine plays without one.
    pub fn start(options: EngineOptions) -> Result<Engine, EngineError> {
        let evaluation = options.eval.load()?;
        let mut engine = Engine::bare(options.clone(), evaluation.clone())?;
        if options.book != BookSource::None {
            engine.set_book_loading(move || {
                evaluation.wait_until_read();
                options.load_book().unwrap_or_else(|e| {
                    // The book is named below: the cause alone.
                    let why = std::error::Error::source(&e)
                        .map_or_else(|| e.to_string(), ToString::to_string);
                    log::warn!(
                        "cannot use the opening book {}: {why}; playing without a book",
                        options.book.name()
                    );
                    None
                })
            });
        }
        Ok(engine)
    }

    /// An engine with no book: the threads, table and selectivity of `options`, the
    /// evaluation `evaluator`.
    fn bare(options: EngineOptions, evaluator: Evaluation) -> Result<Engine, EngineError> {
        Ok(Engine {
            pool: build_pool(options.threads)?,
            tt: TranspositionTable::try_new(options.hash_mb)?,
            game: Game::new(Rules::OTHELLO),
            evaluator,
            book: BookSlot::ready(None),
            stop: Arc::new(AtomicBool::new(false)),
            draws: crate::rng::SplitMix64::seeded_or_clock(options.seed),
            options,
        })
    }

    /// The current settings.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the number of search threads (1 to [`MAX_THREADS`]); an error changes nothing.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        if threads != self.options.threads {
            self.pool = build_pool(threads)?;
            self.options.threads = threads;
        }
        Ok(())
    }

    /// Replaces the hash table by an empty one of `hash_mb` MiB; an error changes nothing.
    pub fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), EngineError> {
        self.tt = TranspositionTable::try_new(hash_mb)?;
        self.options.hash_mb = hash_mb;
        Ok(())
    }

    /// Sets the selectivity of the midgame search.
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        self.options.selectivity = selectivity;
    }

    /// Sets the playing level of the game's moves ([`Level::TOP`]: full strength).
    pub fn set_level(&mut self, level: Level) {
        self.options.level = level;
    }

    /// Seeds the draws of a level below the top again (`None`: from the clock).
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.options.seed = seed;
        self.draws = crate::rng::SplitMix64::seeded_or_clock(seed);
    }

    /// Sets what a game clock is charged for each move beyond the engine's own time (see
    /// [`EngineOptions::move_overhead`]).
    pub fn set_move_overhead(&mut self, overhead: std::time::Duration) {
        self.options.move_overhead = overhead;
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluation {
        &self.evaluator
    }

    /// Plugs in the opening book that `load` reads, on a thread of its own: the engine answers
    /// at once, and the first use of the book waits for it.
    fn set_book_loading(&mut self, load: impl FnOnce() -> Option<Book> + Send + 'static) {
        self.book = match std::thread::Builder::new()
            .name("iago-book".into())
            .spawn(load)
        {
            Ok(handle) => BookSlot {
                ready: OnceLock::new(),
                loading: Mutex::new(Some(handle)),
            },
            Err(e) => {
                log::warn!("cannot start the book loader ({e}); playing without a book");
                BookSlot::ready(None)
            }
        };
    }

    /// Forgets everything learned in the hash table, and in each search thread's own table of
    /// the endgame's deep nodes: a search after it counts the nodes it would count first thing
    /// in a new process.
    pub fn clear_hash(&self) {
        let tt = &self.tt;
        self.pool.install(|| tt.clear());
        self.pool
            .broadcast(|_| crate::search::endgame::clear_thread_table());
    }

    /// Begins a new stop generation and returns its handle: the searches from now until the
    /// next call run in this generation, and [`StopHandle::stop`] ends them, also when it comes
    /// before they begin. Handles of earlier generations no longer affect the engine.
    ///
    /// A caller that runs a job (one `go`, one `hint`, one `learn`) on another thread takes a
    /// handle before it hands the engine over, so that a stop sent at once is not lost.
    pub fn stop_handle(&mut self) -> StopHandle {
        self.stop = Arc::new(AtomicBool::new(false));
        StopHandle(Arc::clone(&self.stop))
    }

    /// Whether the current stop generation was stopped.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Starts a new game under the current rules.
    pub fn new_game(&mut self) {
        self.game = Game::new(self.game.rules());
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// Switches to `rules` and starts a new game; an unsupported rule set changes nothing.
    /// Variants other than standard Othello are searched by the variant search with its simple
    /// evaluation, without the book.
    pub fn set_rules(&mut self, rules: Rules) -> Result<(), UnsupportedRules> {
        rules.check_supported()?;
        if rules != self.game.rules() {
            // The same discs mean another position under other rules.
            self.tt.clear();
        }
        self.game = Game::new(rules);
        Ok(())
    }

    /// Replaces the game (a set-up start and its moves).
    pub fn set_game(&mut self, game: Game) {
        if game.rules() != self.game.rules() {
            self.tt.clear();
        }
        self.game = game;
    }

    /// Plays a move in the game (a pass when the side to move has none).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        self.game.play(mv)
    }

    /// Plays a move; when the side to move has none and `mv` is the other side's move, records
    /// the pass first. Returns whether a pass was inserted.
    pub fn play_inferring_pass(&mut self, mv: Move) -> Result<bool, IllegalMoveError> {
        self.game.play_inferring_pass(mv)
    }

    /// Evaluates every position of the game from the last back to the start (retrograde
    /// analysis): `report(moves made, colour to move, score for the side to move)` for each,
    /// finished games exactly, positions of the opening book by the book's value (its best
    /// move's, as `go` would play from it), the others by a search. Ends early, reporting
    /// nothing more, when the generation is stopped.
    pub fn analyze_game(&mut self, limits: &Limits, report: &mut dyn FnMut(usize, Color, i32)) {
        let rules = self.game.rules();
        let states: Vec<State> = self.game.states().collect();
        for (moves_made, state) in states.iter().enumerate().rev() {
            if let Some(value) = self.book_value(rules, state) {
                report(moves_made, state.to_move(), value);
                continue;
            }
            let request = SearchRequest::analyze(*limits);
            let score = self.search_in(rules, state, &request, &mut |_| {}).score;
            if self.is_stopped() {
                return;
            }
            report(moves_made, state.to_move(), score);
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    /// The static evaluation of the current position for the side to move.
    pub fn evaluate(&self) -> i32 {
        let rules = self.game.rules();
        if rules.is_standard() {
            self.evaluator.evaluate(&self.game.position().board)
        } else {
            crate::search::variant::evaluate(&rules, &self.game.state())
        }
    }

    /// Runs one search (see [`SearchRequest`]): a finished game gives `Move::Pass` with the
    /// final score; a pass is valued by a search of the position it leads to; when the
    /// request chooses the game's move (not an analysis), a book move returns at once and a
    /// forced move is valued by a short search (a tenth of the time the move would have had, at
    /// the same depth). `observer` gets each completed iteration.
    pub fn search(
        &mut self,
        request: &SearchRequest,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        // The game's move at a level below the top: drawn among the moves by their values; a
        // pass or a forced move valued at the level's depth, whatever the request's limits.
        let mut request = *request;
        if request.value_forced && !self.options.level.is_top() {
            match self.level_move(&request) {
                LevelMove::Drawn(result) => {
                    observer(&result);
                    return result;
                }
                LevelMove::Forced(depth) => {
                    request.limits = Limits::depth(depth);
                    request.book = false;
                }
                LevelMove::Over => {}
            }
        }
        let (rules, state) = self.target(request.target);
        self.search_in(rules, &state, &request, observer)
    }

    /// The rules and the position a request targets.
    fn target(&self, target: Target) -> (Rules, State) {
        match target {
            Target::Game => (self.game.rules(), self.game.state()),
            Target::State(state) => (self.game.rules(), state),
            Target::Board(board) => (Rules::OTHELLO, standard_state(&board)),
        }
    }

    /// Solves `state` under `rules` exactly (or win/loss/draw), whatever the game: from empty
    /// hash tables (the shared one and each thread's own), so that one thread's node counts do
    /// not depend on what the engine solved before. Stopped with the
    /// current stop generation.
    pub fn solve(
        &mut self,
        rules: Rules,
        state: &State,
        mode: SolveMode,
    ) -> Result<SolveReport, Stopped> {
        self.solve_with(rules, state, mode, None)
    }

    /// [`Engine::solve`], keeping `progress` up to date for another thread to show: the nodes
    /// visited and the iteration under way (the pre-searches' depth and selectivity, then the
    /// exact search).
    pub fn solve_watched(
        &mut self,
        rules: Rules,
        state: &State,
        mode: SolveMode,
        progress: &Progress,
    ) -> Result<SolveReport, Stopped> {
        self.solve_with(rules, state, mode, Some(progress))
    }

    fn solve_with(
        &mut self,
        rules: Rules,
        state: &State,
        mode: SolveMode,
        progress: Option<&Progress>,
    ) -> Result<SolveReport, Stopped> {
        self.clear_hash();
        let (tt, evaluator) = (&self.tt, &self.evaluator);
        let control = Control::new(&self.stop, None);
        let control = match progress {
            Some(progress) => control.watched(progress),
            None => control,
        };
        let start = Instant::now();
        let solution = self.pool.install(|| {
            crate::search::solve::solve_on(tt, evaluator, control, &rules, state, mode)
        })?;
        Ok(SolveReport {
            solution,
            elapsed: start.elapsed(),
        })
    }

    /// The book's moves for the current position, best first (empty without a book or when
    /// the position is not in it).
    pub fn book_moves(&self) -> Vec<BookMove> {
        if !self.game.rules().is_standard() {
            return Vec::new();
        }
        self.book.get().map_or_else(Vec::new, |b| {
            b.read()
                .expect("book lock")
                .moves(&self.game.position().board)
        })
    }

    /// The book's value of `state` for the side to move: the value of its best book move
    /// (`None` without a book, off the book, or for a variant).
    fn book_value(&self, rules: Rules, state: &State) -> Option<i32> {
        if !rules.is_standard() {
            return None;
        }
        let book = self.book.get()?.read().expect("book lock");
        book.moves(&state.board()).iter().map(|c| c.value).max()
    }

    /// Whether an opening book is loaded.
    pub fn has_book(&self) -> bool {
        self.book.get().is_some()
    }

    /// Adds the current game to the book (its first 40 plies; new positions searched at
    /// `depth`) and saves the book when it came from a file. Returns the positions added. A
    /// stop leaves the book as it was.
    pub fn learn(&mut self, depth: u32) -> Result<usize, LearnError> {
        let Some(book) = self.book.get().cloned() else {
            return Err(LearnError::NoBook);
        };
        if !self.game.rules().is_standard() {
            return Err(LearnError::Rules(self.game.rules()));
        }
        let game = self.game.clone();
        let mut learned = book.read().expect("book lock").clone();
        let added = crate::book::build::learn(
            &mut learned,
            game.start().board,
            game.moves(),
            LEARN_PLIES,
            self,
            depth,
        )
        .ok_or(LearnError::Stopped)?;
        let path = learned.path();
        *book.write().expect("book lock") = learned;
        if let Some(path) = path {
            let book = book.read().expect("book lock");
            book.save(&path)
                .map_err(|source| LearnError::Save { path, source })?;
        }
        Ok(added)
    }

    /// The `n` best moves of the request's position among its root moves, best first
    /// (multi-PV; never the book): depth by depth, the k-th search of a depth is over the
    /// root moves its k - 1 better ones left, so every score is the exact minimax value of its
    /// move at that depth. `observer` gets the `n` results of each completed depth together
    /// (a GUI that keeps the hints of one depth shows them all). Returns the last completed
    /// depth's results; when stopped before one completed, the moves found so far (at least
    /// one). A must-pass position gives its pass, searched.
    pub fn hint(
        &mut self,
        n: usize,
        request: &SearchRequest,
        observer: &mut (dyn FnMut(&[SearchResult]) + Send),
    ) -> Hints {
        let (rules, state) = self.target(request.target);
        let analysis = SearchRequest {
            book: false,
            value_forced: false,
            moves: ALL_MOVES,
            ..*request
        };
        let legal = rules.moves(&state);
        let single = |result: SearchResult| Hints {
            nodes: result.nodes,
            moves: vec![result],
        };
        if legal == 0 {
            let result = self.search_in(rules, &state, &analysis, &mut |_| {});
            observer(std::slice::from_ref(&result));
            return single(result);
        }
        let candidates = legal & request.moves;
        let n = n.min(candidates.count_ones() as usize);
        if n == 0 {
            return Hints {
                moves: Vec::new(),
                nodes: 0,
            };
        }
        if n == 1 {
            // One move: the ordinary iterative deepening, each iteration a row of one.
            let mut reported = false;
            let request = SearchRequest {
                moves: candidates,
                ..analysis
            };
            let result = self.search_in(rules, &state, &request, &mut |r| {
                reported = true;
                observer(std::slice::from_ref(r));
            });
            if !reported {
                // Stopped before a first iteration completed: the fallback move.
                observer(std::slice::from_ref(&result));
            }
            return single(result);
        }
        let plan = self.plan(rules, &request.limits, Instant::now(), &state);
        let max_depth = request
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let stop = Arc::clone(&self.stop);
        let mut rank = |rank: RankSearch| {
            let request = SearchRequest {
                limits: rank.limits,
                moves: rank.moves,
                first_depth: rank.limits.depth.unwrap_or(1),
                guess: rank.guess,
                ..analysis
            };
            self.search_in(rules, &state, &request, &mut |_| {})
        };
        let stopped = || stop.load(Relaxed);
        multi_pv(
            n, candidates, max_depth, &plan, &mut rank, &stopped, observer,
        )
    }

    /// Searches `state` under `rules` within the request's limits: a finished game is scored,
    /// a pass (and, when the request says so, a forced move) is valued by a search of the
    /// position it leads to, a book move is played at once when the request lets the book
    /// answer, and anything else is searched by the driver of the rules (the 8x8 search or the
    /// variant search).
    fn search_in(
        &mut self,
        rules: Rules,
        state: &State,
        request: &SearchRequest,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        let start = Instant::now();
        let board = state.board();
        if rules.is_over(state) {
            let score = rules.final_score(&board);
            return SearchResult::immediate(
                Move::Pass,
                score,
                Bound::Exact,
                Source::Forced,
                start.elapsed(),
            );
        }
        let moves = rules.moves(state);
        if moves == 0 {
            // The pass costs no thought; its value is the other side's search, negated.
            let reply = SearchRequest {
                limits: self.forced_limits(rules, &request.limits, start, state),
                book: false,
                value_forced: false,
                moves: ALL_MOVES,
                ..*request
            };
            let reply = self.search_in(rules, &state.pass(), &reply, &mut |_| {});
            let mut pv = vec![Move::Pass];
            pv.extend_from_slice(&reply.pv);
            return SearchResult {
                best_move: Move::Pass,
                score: -reply.score,
                pv,
                source: Source::Forced,
                time: start.elapsed(),
                ..reply
            };
        }
        let legal = match moves & request.moves {
            0 => moves,
            some => some,
        };
        let request = SearchRequest {
            moves: legal,
            ..*request
        };
        if request.book
            && rules.is_standard()
            && let Some(book) = self.book.get()
            && let Some(hit) = book.read().expect("book lock").choose(&board)
            && board.is_legal(hit.mv)
        {
            let bound = if hit.depth == crate::book::EXACT_DEPTH {
                Bound::Exact
            } else {
                Bound::Estimate
            };
            return SearchResult::immediate(
                hit.mv,
                hit.value,
                bound,
                Source::Book,
                start.elapsed(),
            );
        }
        if request.value_forced && legal.count_ones() == 1 {
            // A forced move: searched only for its value.
            let request = SearchRequest {
                limits: self.forced_limits(rules, &request.limits, start, state),
                ..request
            };
            let mut result = self.drive(rules, state, &request, start, observer);
            result.source = Source::Forced;
            result.time = start.elapsed();
            return result;
        }
        self.drive(rules, state, &request, start, observer)
    }

    /// The limits that value a forced move or a pass of `state`: the same depth, and a tenth
    /// of the time the move would have had.
    fn forced_limits(
        &self,
        rules: Rules,
        limits: &Limits,
        start: Instant,
        state: &State,
    ) -> Limits {
        let plan = self.plan(rules, limits, start, state);
        Limits {
            depth: limits.depth,
            move_time: plan.remaining(plan.start).map(|t| t / 10),
            clock: None,
        }
    }

    /// The deadlines of a search of `state` under `rules` from `start`: the clock shared over
    /// the moves before the exact solve fits, by the solver's time model on this engine's
    /// threads (8x8 only; the variants share it over all their moves).
    fn plan(&self, rules: Rules, limits: &Limits, start: Instant, state: &State) -> TimePlan {
        let (standard, threads) = (rules.is_standard(), self.options.threads);
        let model = |empties| standard.then(|| exact_seconds(empties, threads));
        let overhead = self.options.move_overhead;
        limits.plan(start, rules.empty_count(&state.board()), overhead, &model)
    }

    /// Iterative deepening over the request's moves (at least one, all legal), from its first
    /// depth, within its limits: the 8x8 driver for standard Othello, the variant driver
    /// otherwise. The time limits count from `start`, when the request came (a wait for the
    /// weights and the book, still loading at the first search, comes out of the move's time).
    fn drive(
        &mut self,
        rules: Rules,
        state: &State,
        request: &SearchRequest,
        start: Instant,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        self.tt.new_search();
        let limits = &request.limits;
        let plan = self.plan(rules, limits, start, state);
        let (tt, evaluator, stop) = (&self.tt, &self.evaluator, &*self.stop);
        let selectivity = self.options.selectivity;
        self.pool.install(|| {
            let drive = Drive {
                max_depth: limits.depth,
                first_depth: request.first_depth,
                guess: request.guess,
                plan,
                allowed: request.moves,
                selectivity,
                observer,
            };
            if rules.is_standard() {
                crate::eval::with_search_eval!(evaluator, eval => {
                    let game = Othello::new(eval);
                    crate::search::driver::drive(tt, game, stop, &game.node(&state.board()), drive)
                })
            } else {
                let drive = Drive {
                    selectivity: Selectivity::NONE,
                    ..drive
                };
                crate::search::driver::drive(tt, Variant::new(rules), stop, state, drive)
            }
        })
    }
}

/// The opening book: ready (or none), or still being read by a thread of its own.
struct BookSlot {
    ready: OnceLock<Option<Arc<RwLock<Book>>>>,
    loading: Mutex<Option<std::thread::JoinHandle<Option<Book>>>>,
}

impl BookSlot {
    /// A slot holding `book`.
    fn ready(book: Option<Book>) -> BookSlot {
        BookSlot {
            ready: OnceLock::from(book.map(|b| Arc::new(RwLock::new(b)))),
            loading: Mutex::new(None),
        }
    }

    /// The book, once read (the first call waits for the loader).
    fn get(&self) -> Option<&Arc<RwLock<Book>>> {
        self.ready
            .get_or_init(|| {
                let loader = self.loading.lock().expect("book loader lock").take();
                let book = loader.and_then(|h| h.join().unwrap_or(None));
                book.map(|b| Arc::new(RwLock::new(b)))
            })
            .as_ref()
    }
}

/// The engine as the book builders' search: the best of some moves, no book, stopped with its
/// generation.
impl crate::book::build::BookSearch for Engine {
    fn best_of(&mut self, board: &Board, allowed: u64, depth: u32) -> Option<(Move, i32, bool)> {
        let request = SearchRequest::analyze(Limits::depth(depth))
            .board(*board)
            .moves(allowed);
        let result = self.search(&request, &mut |_| {});
        (!self.is_stopped()).then_some((
            result.best_move,
            result.score,
            result.bound == Bound::Exact,
        ))
    }
}

/// What [`Engine::search`] and [`Engine::hint`] search: a position (the game's by default),
/// the limits, the root moves to consider and whether the book may answer.
///
/// ```
/// use iago::board::Board;
/// use iago::engine::{Engine, EngineOptions, SearchRequest};
/// use iago::search::Limits;
///
/// let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 1, ..EngineOptions::analysis() })?;
/// // The game's move, as a GUI asks for it: the book and the forced-move shortcut allowed.
/// let played = engine.search(&SearchRequest::play(Limits::depth(4)), &mut |_| {});
/// // Any 8x8 board, every move searched, or only some root moves (here f5 alone).
/// let f5 = iago::board::Square::parse("f5").unwrap();
/// let request = SearchRequest::analyze(Limits::depth(4))
///     .board(Board::start())
///     .moves(1 << f5.index());
/// let analysed = engine.search(&request, &mut |_| {});
/// assert_eq!(analysed.best_move, iago::board::Move::Play(f5));
/// assert_eq!(played.depth, 4);
/// # Ok::<(), iago::engine::EngineError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    target: Target,
    limits: Limits,
    /// Root moves to consider (a square mask; all legal moves when none of them is legal).
    moves: u64,
    /// Whether the opening book may answer (choosing the game's move; not in analysis).
    book: bool,
    /// Whether a forced move is only valued, by a short search of the position it leads to
    /// (choosing the game's move), or searched like any position (analysis).
    value_forced: bool,
    /// The first iteration's depth.
    first_depth: u32,
    /// The expected score, centre of the first aspiration window.
    guess: Option<i32>,
}

/// The position a [`SearchRequest`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// The game's current position.
    Game,
    /// A position under the game's rules.
    State(State),
    /// A standard 8x8 Othello board.
    Board(Board),
}

/// Every root move.
const ALL_MOVES: u64 = u64::MAX;

impl SearchRequest {
    /// Choosing the game's move: the book answers when it knows the position, a forced move is
    /// only valued.
    pub fn play(limits: Limits) -> SearchRequest {
        SearchRequest {
            target: Target::Game,
            limits,
            moves: ALL_MOVES,
            book: true,
            value_forced: true,
            first_depth: 1,
            guess: None,
        }
    }

    /// Analysing the game's position: every move searched, no book.
    pub fn analyze(limits: Limits) -> SearchRequest {
        SearchRequest {
            book: false,
            value_forced: false,
            ..SearchRequest::play(limits)
        }
    }

    /// About `state` under the game's rules instead (e.g. the position after an implied
    /// pass); the game is not touched.
    pub fn state(self, state: State) -> SearchRequest {
        SearchRequest {
            target: Target::State(state),
            ..self
        }
    }

    /// About a standard 8x8 Othello board instead, whatever the game's rules.
    pub fn board(self, board: Board) -> SearchRequest {
        SearchRequest {
            target: Target::Board(board),
            ..self
        }
    }

    /// Only the root moves in `moves` (a square mask, e.g. `1 << square.index()`); when none of
    /// them is legal, every legal move.
    pub fn moves(self, moves: u64) -> SearchRequest {
        SearchRequest { moves, ..self }
    }

    /// Starts the iterative deepening at `depth` instead of 1 (a caller that deepens one depth
    /// a call, over the same hash table, as a streamed analysis does).
    pub fn first_depth(self, depth: u32) -> SearchRequest {
        SearchRequest {
            first_depth: depth.max(1),
            ..self
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// A standard 8x8 board as a state (the colour to move does not matter to the search).
fn standard_state(board: &Board) -> State {
    State {
        position: crate::board::Position {
            board: *board,
            to_move: Color::Black,
        },
        left: [crate::board::rules::UNLIMITED; 2],
    }
}

/// Why [`Engine::learn`] added nothing.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// No book is loaded.
    #[error("no book loaded")]
    NoBook,
    /// The game is not standard Othello.
    #[error("the book is for standard Othello, not {0}")]
    Rules(Rules),
    /// The search was stopped; the book is unchanged.
    #[error("stopped; the book is unchanged")]
    Stopped,
    /// The book could not be saved.
    #[error("cannot save the book to {}: {source}", path.display())]
    Save {
        /// The book's file.
        path: std::path::PathBuf,
        /// The cause.
        source: crate::book::BookError,
    },
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("options", &self.options)
            .field("position", &self.game.position().to_string())
            .field("evaluator", &self.evaluator.name())
            .field("book", &self.has_book())
            .finish()
    }
}

/// A per-move time limit, for callers that think in seconds.
pub(crate) fn seconds(secs: f64) -> Limits {
    Limits::move_time(crate::search::time::duration_from_seconds(secs))
}
