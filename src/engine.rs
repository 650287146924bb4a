//! The engine facade: the one owner of the game, the options, the hash table, the thread pool,
//! the evaluator and the opening book. Protocols and the match runner talk to it; it knows
//! nothing about any protocol.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use crate::board::movegen::flips;
use crate::board::rules::UnsupportedRules;
use crate::board::{Board, Game, IllegalMoveError, Move, Rules, Square, State};
use crate::book::{Book, BookChoice};
use crate::eval::{Evaluator, default_evaluator};
use crate::search::driver::{Think, think};
use crate::search::tt::TranspositionTable;
use crate::search::{Bound, Limits, SearchResult, Source};

/// The engine's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash_mb: usize,
    /// Draw value in discs from Black's point of view (NBoard's `set contempt`). Stored and
    /// reported; the search does not use it yet.
    pub contempt: i32,
    /// ProbCut level of the midgame search (index into [`crate::search::SELECTIVITY`]).
    pub selectivity: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 64,
            contempt: 0,
            selectivity: 2,
        }
    }
}

/// Plies of a game that `learn` adds to the book.
pub const LEARN_PLIES: usize = 40;

/// Stops the running search from another thread.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the running search to stop; it returns its best result so far within milliseconds.
    /// The request holds until the engine's next public search call begins.
    pub fn stop(&self) {
        self.0.store(true, Relaxed);
    }

    /// Whether a stop was requested and not yet cleared.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Relaxed)
    }
}

/// Why the engine could not be built.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
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
    evaluator: Arc<dyn Evaluator>,
    book: Option<Arc<RwLock<Book>>>,
    stop: Arc<AtomicBool>,
}

fn build_pool(threads: usize) -> Result<rayon::ThreadPool, EngineError> {
    let threads = threads.max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("iago-search-{i}"))
        .build()
        .map_err(|source| EngineError::Threads { threads, source })
}

impl Engine {
    /// An engine at the start of a standard game, with the embedded evaluation and no book.
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        Ok(Engine {
            options,
            game: Game::new(Rules::OTHELLO),
            tt: TranspositionTable::new(options.hash_mb),
            pool: build_pool(options.threads)?,
            evaluator: default_evaluator(),
            book: None,
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The current settings.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Changes the number of search threads.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        if threads.max(1) != self.options.threads {
            self.pool = build_pool(threads)?;
            self.options.threads = threads.max(1);
        }
        Ok(())
    }

    /// Replaces the hash table by an empty one of `hash_mb` MiB.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
        self.options.hash_mb = hash_mb;
    }

    /// Sets the draw value (discs, Black's view).
    pub fn set_contempt(&mut self, contempt: i32) {
        self.options.contempt = contempt;
    }

    /// Sets the ProbCut level of the midgame search.
    pub fn set_selectivity(&mut self, selectivity: usize) {
        self.options.selectivity = selectivity.min(crate::search::midgame::NO_SELECTIVITY);
    }

    /// Uses another evaluation.
    pub fn set_evaluator(&mut self, evaluator: Arc<dyn Evaluator>) {
        self.evaluator = evaluator;
        self.tt.clear();
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &dyn Evaluator {
        &*self.evaluator
    }

    /// Plugs in (or removes) an opening book.
    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = book.map(|b| Arc::new(RwLock::new(b)));
    }

    /// Forgets everything learned in the hash table.
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// A handle that stops the running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
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
    /// analysis): `report(moves made, score for the side to move)` for each, finished games
    /// exactly. Stops early when the stop handle is used.
    pub fn analyze_game(&mut self, limits: &Limits, report: &mut dyn FnMut(usize, i32)) {
        self.stop.store(false, Relaxed);
        let rules = self.game.rules();
        let states: Vec<State> = self.game.states().collect();
        for (moves_made, state) in states.iter().enumerate().rev() {
            let score = if rules.is_over(state) {
                rules.final_score(&state.board())
            } else {
                self.search_state(state, limits, u64::MAX, false, &mut |_| {})
                    .score
            };
            if self.stop.load(Relaxed) {
                return;
            }
            report(moves_made, score);
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

    /// Chooses a move for the current position. Book and forced moves return at once; a
    /// finished game returns `Move::Pass` with the final score.
    pub fn go(
        &mut self,
        limits: &Limits,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        self.stop.store(false, Relaxed);
        let state = self.game.state();
        self.search_state(&state, limits, u64::MAX, true, observer)
    }

    /// Searches a position under the game's rules without touching the game (e.g. the position
    /// after an implied pass).
    pub fn analyze_state(
        &mut self,
        state: &State,
        limits: &Limits,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        self.stop.store(false, Relaxed);
        self.search_state(state, limits, u64::MAX, false, observer)
    }

    /// Searches any position without touching the game (what `iago analyze` does).
    pub fn analyze(
        &mut self,
        board: &Board,
        limits: &Limits,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        self.stop.store(false, Relaxed);
        self.search(board, limits, u64::MAX, false, observer)
    }

    /// Searches `board` over the moves in `allowed` only (a square mask), without the book.
    pub fn analyze_moves(&mut self, board: &Board, limits: &Limits, allowed: u64) -> SearchResult {
        self.stop.store(false, Relaxed);
        self.search(board, limits, allowed, false, &mut |_| {})
    }

    /// The book's moves for the current position, best first (empty without a book or when
    /// the position is not in it).
    pub fn book_choices(&self) -> Vec<BookChoice> {
        if !self.game.rules().is_standard() {
            return Vec::new();
        }
        self.book.as_ref().map_or_else(Vec::new, |b| {
            b.read()
                .expect("book lock")
                .choices(&self.game.position().board)
        })
    }

    /// Whether an opening book is loaded.
    pub fn has_book(&self) -> bool {
        self.book.is_some()
    }

    /// Adds the current game to the book (its first 40 plies; new positions searched at
    /// `depth`) and saves the book when it came from a file. Returns the positions added.
    pub fn learn(&mut self, depth: u32) -> Result<usize, String> {
        let Some(book) = self.book.clone() else {
            return Err("no book loaded".into());
        };
        if !self.game.rules().is_standard() {
            return Err(format!(
                "the book is for standard Othello, not {}",
                self.game.rules()
            ));
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
        );
        let path = learned.path();
        *book.write().expect("book lock") = learned;
        if let Some(path) = path {
            let book = book.read().expect("book lock");
            book.save(&path)
                .map_err(|e| format!("cannot save the book to {}: {e}", path.display()))?;
        }
        Ok(added)
    }

    /// The `n` best moves of the current position, best first, each with its own search: the
    /// k-th search is over the root moves not yet chosen. `observer` gets `(rank, iteration)`
    /// for every completed iteration (or the fallback result when none completed).
    pub fn hint(
        &mut self,
        n: usize,
        limits: &Limits,
        observer: &mut (dyn FnMut(usize, &SearchResult) + Send),
    ) -> Vec<SearchResult> {
        self.hint_excluding(n, limits, 0, observer)
    }

    /// [`Engine::hint`] over the moves not in `excluded` (a square mask), e.g. the moves the book
    /// has already answered.
    pub fn hint_excluding(
        &mut self,
        n: usize,
        limits: &Limits,
        excluded: u64,
        observer: &mut (dyn FnMut(usize, &SearchResult) + Send),
    ) -> Vec<SearchResult> {
        self.stop.store(false, Relaxed);
        let state = self.game.state();
        let legal = self.game.legal_moves();
        let mut allowed = legal & !excluded;
        let mut results = Vec::new();
        if legal == 0 {
            let result = self.search_state(&state, limits, u64::MAX, false, &mut |_| {});
            observer(0, &result);
            return vec![result];
        }
        while results.len() < n && allowed != 0 {
            let rank = results.len();
            let mut reported = false;
            let result = self.search_state(&state, limits, allowed, false, &mut |r| {
                reported = true;
                observer(rank, r)
            });
            if let Some(sq) = result.best_move.square() {
                allowed &= !(1u64 << sq.index());
            }
            let stopped = self.stop.load(Relaxed);
            if !reported {
                // Stopped before a first iteration completed: report the fallback move.
                observer(rank, &result);
            }
            results.push(result);
            if stopped {
                break;
            }
        }
        results
    }

    /// [`Engine::search`] under the game's rules: the variant search when they are not standard.
    fn search_state(
        &mut self,
        state: &State,
        limits: &Limits,
        allowed: u64,
        use_book: bool,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        let rules = self.game.rules();
        if rules.is_standard() {
            return self.search(&state.board(), limits, allowed, use_book, observer);
        }
        let start = Instant::now();
        let legal = rules.moves(state) & allowed;
        let quick = |mv, score, bound| {
            SearchResult::immediate(mv, score, bound, Source::Forced, start.elapsed())
        };
        if rules.is_over(state) {
            return quick(Move::Pass, rules.final_score(&state.board()), Bound::Exact);
        }
        if legal == 0 {
            let score = -crate::search::variant::evaluate(&rules, &state.pass());
            return quick(Move::Pass, score, Bound::Estimate);
        }
        if use_book && legal.count_ones() == 1 {
            let sq = Square::from_index_unchecked(legal.trailing_zeros() as u8);
            let child = rules.play_unchecked(state, sq.index() as usize);
            let score = -crate::search::variant::evaluate(&rules, &child);
            return quick(Move::Play(sq), score, Bound::Estimate);
        }
        self.tt.new_search();
        let plan = limits.plan(start, rules.empty_count(&state.board()));
        let (tt, stop) = (&self.tt, &*self.stop);
        self.pool.install(|| {
            crate::search::variant::think(
                tt,
                stop,
                crate::search::variant::VariantThink {
                    rules,
                    state: *state,
                    max_depth: limits.depth,
                    plan,
                    allowed: legal,
                    observer,
                },
            )
        })
    }

    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        allowed: u64,
        use_book: bool,
        observer: &mut (dyn FnMut(&SearchResult) + Send),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = board.legal_moves().0 & allowed;
        let quick = |mv, score, bound, source| {
            SearchResult::immediate(mv, score, bound, source, start.elapsed())
        };
        if board.is_game_over() {
            return quick(
                Move::Pass,
                board.final_score(),
                Bound::Exact,
                Source::Forced,
            );
        }
        if legal == 0 {
            let score = -self.evaluator.evaluate(&board.pass());
            return quick(Move::Pass, score, Bound::Estimate, Source::Forced);
        }
        if use_book
            && let Some(book) = &self.book
            && let Some(hit) = book.read().expect("book lock").choose(board)
            && board.is_legal(hit.mv)
        {
            let bound = if hit.level == crate::book::EXACT_LEVEL {
                Bound::Exact
            } else {
                Bound::Estimate
            };
            return quick(hit.mv, hit.value, bound, Source::Book);
        }
        if use_book && legal.count_ones() == 1 {
            let sq = legal.trailing_zeros() as usize;
            let child = board.play_unchecked(sq, flips(board.player, board.opponent, sq));
            let score = -self.evaluator.evaluate(&child);
            return quick(
                Move::Play(Square::from_index_unchecked(sq as u8)),
                score,
                Bound::Estimate,
                Source::Forced,
            );
        }
        self.tt.new_search();
        let plan = limits.plan(start, board.empty_count());
        let (tt, evaluator, stop) = (&self.tt, &*self.evaluator, &*self.stop);
        let selectivity = self.options.selectivity;
        self.pool.install(|| {
            think(
                tt,
                evaluator,
                stop,
                Think {
                    board: *board,
                    max_depth: limits.depth,
                    plan,
                    allowed: legal,
                    selectivity,
                    observer,
                },
            )
        })
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("options", &self.options)
            .field("position", &self.game.position().to_string())
            .field("evaluator", &self.evaluator.name())
            .field("book", &self.book.is_some())
            .finish()
    }
}

/// A per-move time limit, for callers that think in seconds.
pub fn seconds(secs: f64) -> Limits {
    Limits::move_time(Duration::from_secs_f64(secs.max(0.0)))
}
