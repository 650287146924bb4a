//! The argument groups the subcommands share (declared once, `#[command(flatten)]`ed where
//! used) and their value parsers; [`super::input`] reads the inputs they name, [`super::output`]
//! writes what goes beside the results, [`super::batch`] runs a shard of a batch.

use thiserror::Error;

use crate::board::Rules;
use crate::board::rules::{ParseRulesError, UnsupportedRules};
use crate::engine::{
    BookSource, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, Engine, EngineError, EngineOptions,
    EvalSource, Level, LoadError, MAX_MOVE_OVERHEAD_MS, default_threads,
};
use crate::search::Selectivity;
use crate::search::params::PLAY_SELECTIVITY;

/// An error for the user: one line, printed by `main` with a non-zero exit.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;

/// Why an option's value was refused; clap prints it after the option and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ValueError {
    /// `--threads`.
    #[error(
        "expected a number of threads from 1 to {}",
        crate::engine::MAX_THREADS
    )]
    Threads,
    /// `--hash`.
    #[error("expected a size in MiB from 1 to {}", crate::search::tt::MAX_MB)]
    Hash,
    /// `--time` of a search.
    #[error("expected a positive number of seconds")]
    Seconds,
    /// A count (`--rounds`, `--concurrency`).
    #[error("expected a whole number, at least 1")]
    Count,
    /// `--depth` of a match.
    #[error("expected a depth from 1 to 60")]
    Depth,
    /// A time of a match (`--time-margin`, `--game-timeout`).
    #[error("expected seconds (or m:ss)")]
    Time,
    /// A time of a match that must be positive (`--move-time`, `--move-timeout`).
    #[error("expected a positive time in seconds (or m:ss)")]
    PositiveTime,
    /// `--move-overhead`.
    #[error("expected milliseconds from 0 to {MAX_MOVE_OVERHEAD_MS}")]
    Overhead,
}

/// `--move-overhead`: whole milliseconds, 0 to [`MAX_MOVE_OVERHEAD_MS`].
pub(crate) fn overhead_arg(text: &str) -> Result<u64, ValueError> {
    crate::engine::parse_move_overhead(text)
        .map(|overhead| overhead.as_millis() as u64)
        .ok_or(ValueError::Overhead)
}

/// Why `--rules`, `--discs` and `--size` name no playable rule set.
#[derive(Debug, Error)]
pub enum RulesArgError {
    /// `--rules` names no rules.
    #[error(transparent)]
    Name(#[from] ParseRulesError),
    /// `--size` differs from the size `--rules` names.
    #[error("--size {size} contradicts --rules '{rules}'")]
    SizeContradicts {
        /// `--size`.
        size: u8,
        /// The rules `--rules` names.
        rules: Rules,
    },
    /// Rules this version does not play.
    #[error(transparent)]
    Unsupported(#[from] UnsupportedRules),
    /// A position read of another size than `--size`.
    #[error("a {size}x{size} position, but the rules are for {rules_size}x{rules_size} (--size)")]
    PositionSize {
        /// The position's size.
        size: u8,
        /// The size of the rules.
        rules_size: u8,
    },
}

/// Threads and hash table of a search (`solve`, `analyze` and the protocol sessions).
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct SearchArgs {
    /// Search threads (default: every core of the machine).
    #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_name = "MB", value_parser = hash_arg)]
    pub hash: usize,
}

impl SearchArgs {
    /// `options` with these threads and this table.
    pub fn apply(&self, options: EngineOptions) -> EngineOptions {
        EngineOptions {
            threads: self.threads,
            hash_mb: self.hash,
            ..options
        }
    }
}

/// `--threads` of the subcommands that run workers (`train`, `probcut-fit`, `book build`,
/// `book deepen`): every core by default.
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct ThreadsArg {
    /// Worker threads.
    #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
    pub threads: usize,
}

/// `--eval FILE|hand`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct EvalArg {
    /// The evaluation: a weight file made by `iago train`, `hand` for the hand-written one
    /// (default: the trained weights compiled into the binary).
    #[arg(long, value_name = "FILE|hand")]
    pub eval: Option<String>,
}

impl EvalArg {
    /// The evaluation `--eval` names (the embedded one without it).
    pub fn source(&self) -> EvalSource {
        self.eval
            .as_deref()
            .map_or(EvalSource::Embedded, EvalSource::named)
    }

    /// The evaluation `--eval` names, read.
    pub fn load(&self) -> Result<crate::eval::Evaluation, CliError> {
        self.source()
            .load()
            .map_err(|e| engine_error(EngineError::Load(e)))
    }
}

/// An engine error in the words of the command line: a weight file is named by `--eval`.
pub(crate) fn engine_error(error: EngineError) -> CliError {
    match error {
        EngineError::Load(LoadError::Eval { name, error }) => {
            format!("--eval {name}: {error}").into()
        }
        error => error.into(),
    }
}

/// Options of the protocol subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Threads and hash table.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Search depth when the client sets none (NBoard until `set depth`; GTP without a clock).
    #[arg(long, default_value_t = crate::protocol::DEFAULT_DEPTH, value_name = "D")]
    pub depth: u32,
    /// Seconds per move when a GTP client gives no clock (instead of --depth).
    #[arg(long, value_name = "SECS", value_parser = seconds_arg)]
    pub time: Option<f64>,
    /// ProbCut confidence of the midgame search in percent: 58 (the default: the strongest at
    /// equal time), 73, 87, 95, 98, 99, or 100 for no selective cuts.
    #[arg(long, default_value_t = PLAY_SELECTIVITY, value_name = "PERCENT", value_parser = selectivity_arg)]
    pub selectivity: Selectivity,
    /// How GTP vertices name the rows: `top` (a1 top-left, Othello notation, Edax's GTP),
    /// `bottom` (A1 bottom-left, GoGui and gogui-twogtp), or `auto`: top until the client sends
    /// a `gogui-` command, as GoGui and gogui-twogtp do at once.
    #[arg(long, value_enum, default_value_t = crate::protocol::gtp::Rows::Auto)]
    pub rows: crate::protocol::gtp::Rows,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
    /// An opening book file (default: the book shipped in `book/`, compiled in). `learn` saves
    /// into this file.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<String>,
    /// Play without an opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Pick at random among book moves within this many discs of the best (varied games).
    #[arg(long, default_value_t = 0, value_name = "DISCS")]
    pub book_randomness: i32,
    /// Milliseconds a game clock is charged for each move beyond the engine's own time (the
    /// pipe and the GUI's delays): the clock keeps this much for every move left. The default
    /// covers NBoard and GoGui; raise it behind a slower client or a network.
    #[arg(long, default_value_t = DEFAULT_MOVE_OVERHEAD_MS, value_name = "MS", value_parser = overhead_arg)]
    pub move_overhead: u64,
    /// The playing level: 1 (beginner) to 10 (full strength, the default), or a level's name
    /// (`club`, `tournament`). Below 10 Iago draws its moves among the legal ones by their
    /// values, with mistakes like a person's of that strength (docs/manual.md#levels).
    #[arg(long, default_value = "10", value_name = "N", value_parser = level_arg)]
    pub level: Level,
    /// Seeds the random choices (a level's draws, the book's random picks): the same seed and
    /// moves give the same game. Default: the clock's (games vary).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl EngineArgs {
    /// The engine options the flags give: `--book FILE` is the book `learn` saves into, and
    /// the book's random picks are seeded by the clock (games vary).
    pub fn options(&self) -> EngineOptions {
        let book = match &self.book {
            _ if self.no_book => BookSource::None,
            Some(path) => BookSource::Learning(path.into()),
            None => BookSource::BuiltIn,
        };
        let seed = self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        self.search.apply(EngineOptions {
            selectivity: self.selectivity,
            eval: self.eval.source(),
            book,
            book_randomness: self.book_randomness,
            book_seed: Some(seed),
            move_overhead: std::time::Duration::from_millis(self.move_overhead),
            level: self.level,
            seed: self.seed,
            ..EngineOptions::default()
        })
    }

    /// An engine set up by the options that answers at once (see [`Engine::start`]).
    pub fn engine(&self) -> Result<Engine, CliError> {
        Engine::start(self.options()).map_err(engine_error)
    }
}

/// The rule set of a subcommand: `--rules`, `--discs`, `--size`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesArgs {
    /// The game: othello (the default), reversi (empty centre filled by the first four moves
    /// without capture), anti (fewest discs wins) or anti-reversi; also written like
    /// "6x6 anti" or "reversi-32".
    #[arg(long, value_name = "NAME")]
    pub rules: Option<String>,
    /// Discs each player may place in all, the start's included (Reversi's 32); a side with
    /// none left passes. Default: unlimited.
    #[arg(long, value_name = "N")]
    pub discs: Option<u8>,
    /// Board size: 4, 6 or 8 (default 8, or the size of the positions read).
    #[arg(long, value_name = "N")]
    pub size: Option<u8>,
}

impl RulesArgs {
    /// The rules named by the flags, at `--size` or else `default_size`.
    pub fn rules_at(&self, default_size: u8) -> Result<Rules, RulesArgError> {
        let mut rules = match &self.rules {
            Some(name) => name.parse::<Rules>()?,
            None => Rules::OTHELLO,
        };
        if self.rules.as_deref().is_none_or(|n| !n.contains('x')) {
            rules.size = default_size;
        }
        if let Some(size) = self.size {
            if self.rules.as_deref().is_some_and(|n| n.contains('x')) && size != rules.size {
                return Err(RulesArgError::SizeContradicts { size, rules });
            }
            rules.size = size;
        }
        if let Some(discs) = self.discs {
            rules.discs_per_player = Some(discs);
        }
        rules.check_supported()?;
        Ok(rules)
    }

    /// The rules named by the flags (8×8 unless a size is given).
    pub fn rules(&self) -> Result<Rules, RulesArgError> {
        self.rules_at(8)
    }

    /// The rules for a position of `size` squares a side read from the input: `--size`, when
    /// given, must agree.
    pub fn rules_for(&self, size: u8) -> Result<Rules, RulesArgError> {
        let rules = self.rules_at(size)?;
        if rules.size != size {
            return Err(RulesArgError::PositionSize {
                size,
                rules_size: rules.size,
            });
        }
        Ok(rules)
    }

    /// Whether no flag was given (standard Othello).
    pub fn is_default(&self) -> bool {
        *self == RulesArgs::default()
    }
}

/// `--threads`: 1 to [`crate::engine::MAX_THREADS`].
pub(crate) fn threads_arg(text: &str) -> Result<usize, ValueError> {
    let max = crate::engine::MAX_THREADS;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ValueError::Threads),
    }
}

/// `--hash`: 1 to [`crate::search::tt::MAX_MB`] MiB (the machine's memory is checked when the
/// table is made).
pub(crate) fn hash_arg(text: &str) -> Result<usize, ValueError> {
    let max = crate::search::tt::MAX_MB;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ValueError::Hash),
    }
}

/// `--level`: 1 to 10, or a level's name.
pub(crate) fn level_arg(text: &str) -> Result<Level, String> {
    text.parse::<Level>().map_err(|e| e.to_string())
}

/// `--selectivity`: a ProbCut confidence in percent, one of the [`Selectivity`] values.
pub(crate) fn selectivity_arg(text: &str) -> Result<Selectivity, String> {
    text.parse::<Selectivity>()
        .map_err(|e| format!("--selectivity must be {e}"))
}

/// `--time` of a search: a positive, finite number of seconds.
pub(crate) fn seconds_arg(text: &str) -> Result<f64, ValueError> {
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err(ValueError::Seconds),
    }
}
