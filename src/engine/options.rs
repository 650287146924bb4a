//! What an engine is made of: the one options value every front end fills in (the command
//! line, an engine spec of `iago match`, a binding's keyword arguments), its defaults, written
//! once here, and the reading of its evaluation and opening book.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::Level;
use crate::book::{Book, BookError};
use crate::eval::{Evaluation, WeightsError};
use crate::search::Selectivity;
use crate::search::params::{ANALYSIS_SELECTIVITY, PLAY_SELECTIVITY};

/// How an engine is made and how it searches: threads, hash table, selectivity, evaluation,
/// opening book. [`EngineOptions::default`] plays as plain `iago` does; [`EngineOptions::analysis`]
/// analyses as `iago analyze` does.
///
/// ```
/// use iago::engine::{BookSource, Engine, EngineOptions};
///
/// let options = EngineOptions { threads: 1, hash_mb: 16, book: BookSource::None, ..EngineOptions::default() };
/// let engine = Engine::new(options)?;
/// assert!(!engine.has_book());
/// # Ok::<(), iago::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads, 1 to [`super::MAX_THREADS`] (default: every core of the machine).
    pub threads: usize,
    /// Hash table size in MiB (default [`DEFAULT_HASH_MB`]).
    pub hash_mb: usize,
    /// The selectivity of the midgame search (default: that of play).
    pub selectivity: Selectivity,
    /// The evaluation (default: the trained weights compiled into the binary).
    pub eval: EvalSource,
    /// The opening book (default: the one compiled into the binary).
    pub book: BookSource,
    /// Book moves within this many discs of the best are picked at random (default 0: the
    /// best, ties broken at random).
    pub book_randomness: i32,
    /// The seed of the book's random picks (default `None`: the book's own fixed seed, so that
    /// the same games repeat).
    pub book_seed: Option<u64>,
    /// What a game clock is charged for each move beyond the engine's own time: the pipe and
    /// the GUI's delays (default [`DEFAULT_MOVE_OVERHEAD`]). A clock keeps this much for every
    /// move left in its plan; a time per move is the engine's own and keeps none.
    pub move_overhead: Duration,
    /// The playing level of the game's moves (default [`Level::TOP`], full strength); below
    /// the top, the moves are drawn among the legal ones by their values (see [`Level`]).
    pub level: Level,
    /// The seed of a level's draws (default `None`: the clock's, so that games vary).
    pub seed: Option<u64>,
}

/// The hash table size of an engine unless told otherwise, in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The move overhead of an engine unless told otherwise: what a clock keeps for each move left
/// beyond the engine's own time. Well above what NBoard and GoGui were measured to charge
/// (2026-12-02-gui-clock-and-threads.md).
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS);

/// [`DEFAULT_MOVE_OVERHEAD`] in milliseconds, as the command line and the protocols write it.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// The largest move overhead an engine takes from outside, in milliseconds (a minute).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 60_000;

/// A move overhead written as whole milliseconds, 0 to [`MAX_MOVE_OVERHEAD_MS`] (the command
/// line, the protocols' parameters and the match specs all read it so).
pub fn parse_move_overhead(text: &str) -> Option<Duration> {
    text.parse::<u64>()
        .ok()
        .filter(|&ms| ms <= MAX_MOVE_OVERHEAD_MS)
        .map(Duration::from_millis)
}

/// The number of cores of the machine, the default number of search threads.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for EngineOptions {
    /// The engine of plain `iago`, the protocols and the console: every core, a 64 MiB table,
    /// the selectivity of play, the embedded evaluation and the built-in book.
    fn default() -> Self {
        EngineOptions {
            threads: default_threads(),
            hash_mb: DEFAULT_HASH_MB,
            selectivity: PLAY_SELECTIVITY,
            eval: EvalSource::Embedded,
            book: BookSource::BuiltIn,
            book_randomness: 0,
            book_seed: None,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            level: Level::TOP,
            seed: None,
        }
    }
}

impl EngineOptions {
    /// The engine of analysis (`iago analyze`, `review`, `bench`, the book builders and
    /// self-play): the defaults, with the selectivity of analysis and no book.
    pub fn analysis() -> Self {
        EngineOptions {
            selectivity: ANALYSIS_SELECTIVITY,
            book: BookSource::None,
            ..EngineOptions::default()
        }
    }

    /// Reads the evaluation (and waits until it can be used) and the book.
    pub fn load(&self) -> Result<Loaded, LoadError> {
        let evaluation = self.eval.load()?;
        evaluation.wait_until_read();
        let book = self.load_book()?;
        Ok(Loaded { evaluation, book })
    }

    /// Reads the book, with its randomness and seed set; `None` for [`BookSource::None`].
    pub(crate) fn load_book(&self) -> Result<Option<Book>, LoadError> {
        let start = Instant::now();
        let Some(mut book) = self.book.load()? else {
            return Ok(None);
        };
        book.set_randomness(self.book_randomness);
        if let Some(seed) = self.book_seed {
            book.set_seed(seed);
        }
        log::info!(
            "opening book: {} positions, loaded in {:.1} ms",
            book.len(),
            start.elapsed().as_secs_f64() * 1000.0
        );
        Ok(Some(book))
    }
}

/// An evaluation and a book once read (see [`EngineOptions::load`]): engines made from it
/// ([`super::Engine::with_loaded`]) share the evaluation's weights and each get a copy of the
/// book, as the players of a match do.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub(crate) evaluation: Evaluation,
    pub(crate) book: Option<Book>,
}

/// Where the evaluation comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalSource {
    /// The trained weights compiled into the binary (read on a thread of their own at the first
    /// use).
    #[default]
    Embedded,
    /// The small hand-written evaluation.
    Hand,
    /// A weight file made by `iago train`.
    File(PathBuf),
}

impl EvalSource {
    /// The source named on a command line: `hand`, `pattern` (or `embedded`) for the embedded
    /// weights, anything else the path of a weight file.
    pub fn named(name: &str) -> EvalSource {
        match name {
            "hand" => EvalSource::Hand,
            "pattern" | "embedded" => EvalSource::Embedded,
            path => EvalSource::File(PathBuf::from(path)),
        }
    }

    /// The evaluation, its file read (the embedded weights are read in the background).
    pub fn load(&self) -> Result<Evaluation, LoadError> {
        match self {
            EvalSource::Embedded => Ok(crate::eval::default_evaluator()),
            EvalSource::Hand => Ok(Evaluation::Hand),
            EvalSource::File(path) => crate::eval::PatternEval::load(path)
                .map(|weights| Evaluation::Pattern(std::sync::Arc::new(weights)))
                .map_err(|error| LoadError::Eval {
                    name: path.display().to_string(),
                    error,
                }),
        }
    }
}

impl std::fmt::Display for EvalSource {
    /// `pattern`, `hand` or the file's path: what [`EvalSource::named`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalSource::Embedded => f.write_str("pattern"),
            EvalSource::Hand => f.write_str("hand"),
            EvalSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Where the opening book comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSource {
    /// No book.
    None,
    /// The book compiled into the binary (built from `book/`).
    #[default]
    BuiltIn,
    /// A book file, which must exist; `learn` saves into it.
    File(PathBuf),
    /// The book file `learn` saves into (`--book FILE` of the protocols and the console): read
    /// when it exists, else made from the built-in book. A file that cannot be made or written
    /// is a warning (the book is used, learned games are not saved).
    Learning(PathBuf),
}

impl BookSource {
    /// The book, read; `None` for [`BookSource::None`].
    pub fn load(&self) -> Result<Option<Book>, LoadError> {
        let file = |path: &Path, error| LoadError::Book {
            path: path.to_path_buf(),
            error,
        };
        Ok(Some(match self {
            BookSource::None => return Ok(None),
            BookSource::BuiltIn => Book::shipped().map_err(LoadError::BuiltInBook)?,
            BookSource::File(path) => {
                let book = Book::load(path).map_err(|e| file(path, e))?;
                book.set_path(Some(path.clone()));
                book
            }
            BookSource::Learning(path) if !path.exists() => made_from_built_in(path)?,
            BookSource::Learning(path) => {
                let book = Book::load(path).map_err(|e| file(path, e))?;
                learn_into(&book, path);
                book
            }
        }))
    }

    /// How the book is named in messages: `the built-in book`, or the file.
    pub fn name(&self) -> String {
        match self {
            BookSource::None => "no book".to_string(),
            BookSource::BuiltIn => "the built-in book".to_string(),
            BookSource::File(path) | BookSource::Learning(path) => path.display().to_string(),
        }
    }
}

/// The book of a [`BookSource::Learning`] file that does not exist yet: the built-in book,
/// saved to `path` (a warning when it cannot be).
fn made_from_built_in(path: &Path) -> Result<Book, LoadError> {
    let book = Book::shipped().map_err(LoadError::BuiltInBook)?;
    match book.save(path) {
        Ok(_) => {
            log::info!(
                "opening book {}: made from the built-in book",
                path.display()
            );
            book.set_path(Some(path.into()));
        }
        Err(e) => log::warn!(
            "cannot create the opening book {}: {e}; using the built-in book, learned games will not be saved",
            path.display()
        ),
    }
    Ok(book)
}

/// Makes `path` the file `learn` saves `book` into, when it can be written (a warning when not).
fn learn_into(book: &Book, path: &Path) {
    match std::fs::OpenOptions::new().append(true).open(path) {
        Ok(_) => book.set_path(Some(path.into())),
        Err(e) => log::warn!(
            "the opening book {} cannot be written ({e}): learned games will not be saved",
            path.display()
        ),
    }
}

/// Why an evaluation or a book could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The evaluation's weight file.
    #[error("evaluation {name}: {error}")]
    Eval {
        /// The file as given.
        name: String,
        /// Why.
        #[source]
        error: WeightsError,
    },
    /// The book compiled into the binary.
    #[error("the built-in book: {0}")]
    BuiltInBook(#[source] BookError),
    /// A book file.
    #[error("book {}: {error}", path.display())]
    Book {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: BookError,
    },
}
