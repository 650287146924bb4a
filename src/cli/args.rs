//! What the subcommands share: the argument groups (declared once, `#[command(flatten)]`ed where
//! used), their value parsers, and the helpers that read the inputs and write the outputs.

use std::path::PathBuf;

use serde_json::{Map, Value};
use thiserror::Error;

use crate::batch::{ResultLog, Shard};
use crate::board::notation::looks_like_board;
use crate::board::rules::{ParseRulesError, PositionError, UnsupportedRules};
use crate::board::{Color, Game, Move, Rules, State};
use crate::engine::{
    BookSource, DEFAULT_HASH_MB, Engine, EngineError, EngineOptions, EvalSource, LoadError,
    default_threads,
};
use crate::records::problems::{Problem, ProblemError};
use crate::search::Selectivity;
use crate::search::params::PLAY_SELECTIVITY;

/// FFO #40–#49, compiled in: what `iago solve` and `iago analyze` read without a file.
pub const BUILTIN_SUITE: &str = include_str!("ffo40-49.obf");
/// The FFO number of the first position of [`BUILTIN_SUITE`].
pub const BUILTIN_FIRST_INDEX: usize = 40;

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

/// Why a problem of a file (`solve`, `analyze`) cannot be searched.
#[derive(Debug, Error)]
pub enum ProblemStateError {
    /// The line could not be read.
    #[error(transparent)]
    Read(#[from] ProblemError),
    /// Its size disagrees with the flags.
    #[error("line {line}: {error}")]
    Rules {
        /// The 1-based line.
        line: usize,
        /// Why.
        #[source]
        error: RulesArgError,
    },
    /// The position cannot occur under the rules.
    #[error("line {line}: {error}")]
    Position {
        /// The 1-based line.
        line: usize,
        /// Why.
        #[source]
        error: PositionError,
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

impl Default for SearchArgs {
    fn default() -> Self {
        let options = EngineOptions::default();
        SearchArgs {
            threads: options.threads,
            hash: options.hash_mb,
        }
    }
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

/// `--shard I/N` and `--out FILE` of `solve` and `analyze`: a share of the positions, their
/// results kept (and resumed) in a file of JSON lines that `iago merge` joins (docs/batch.md).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchArgs {
    /// Run only shard I of N (counted from 0): the positions whose ordinal k in the input
    /// (from 0) has k % N == I.
    #[arg(long, value_name = "I/N", default_value_t = Shard::ALL)]
    pub shard: Shard,
    /// Also write each position's result to FILE as a JSON line (the --json row and the
    /// fields item, items, work, position); positions FILE already holds are skipped, so a
    /// rerun of the same command resumes.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl BatchArgs {
    /// Opens `--out` for the results of `work` (the settings that make a result) over the
    /// items whose board strings are `positions` (`None` for a line that cannot be read), and
    /// picks the items this process runs: the shard's, less those `--out` holds already (one
    /// line on stderr says how many). A file of another input or other settings is refused.
    pub(crate) fn start(
        &self,
        work: &str,
        positions: &[Option<String>],
    ) -> Result<ShardRun, CliError> {
        let mut log = match &self.out {
            Some(path) => {
                check_output_dir(&path.to_string_lossy())?;
                Some(ResultLog::open(path, work, positions.len())?)
            }
            None => None,
        };
        let mut runs = vec![false; positions.len()];
        let mut done = Vec::new();
        for (item, position) in positions.iter().enumerate() {
            if !self.shard.owns(item) {
                continue;
            }
            if let (Some(log), Some(position)) = (&log, position)
                && let Some(record) = log.finished(item, position)?
            {
                done.push(record.json.clone());
                continue;
            }
            runs[item] = true;
        }
        if let Some(log) = log.as_mut().filter(|_| !done.is_empty()) {
            let left = runs.iter().filter(|&&r| r).count();
            eprintln!(
                "iago: {}: {} of the {} positions of shard {} are done already, skipped; {left} to run",
                log.path().display(),
                done.len(),
                done.len() + left,
                self.shard
            );
        }
        Ok(ShardRun { log, runs, done })
    }
}

/// The items one process of a batch runs, and where their results go.
pub(crate) struct ShardRun {
    log: Option<ResultLog>,
    runs: Vec<bool>,
    /// The records of the shard's items that `--out` held already (not run again).
    pub done: Vec<Map<String, Value>>,
}

impl ShardRun {
    /// Whether this process runs item `item` (from 0).
    pub fn runs(&self, item: usize) -> bool {
        self.runs[item]
    }

    /// How many items this process runs.
    pub fn count(&self) -> usize {
        self.runs.iter().filter(|&&r| r).count()
    }

    /// Writes the result `row` of item `item` (from 0, at `position`) to `--out`, if given.
    pub fn record(
        &mut self,
        item: usize,
        position: &str,
        row: &impl serde::Serialize,
    ) -> Result<(), CliError> {
        if let Some(log) = &mut self.log {
            log.append(item, position, row)?;
        }
        Ok(())
    }
}

/// The board string of every problem (`None` where a line cannot be read): what identifies a
/// work item of `solve` and `analyze` in a result file.
pub(crate) fn problem_positions(
    problems: &[Result<Problem, ProblemError>],
    args: &RulesArgs,
) -> Vec<Option<String>> {
    problems
        .iter()
        .map(|problem| {
            let (_, rules, state) = problem_state(problem, args).ok()?;
            Some(rules.board_string(&state.position))
        })
        .collect()
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
    #[arg(long, default_value_t = 12, value_name = "D")]
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
}

impl Default for EngineArgs {
    fn default() -> Self {
        EngineArgs {
            search: SearchArgs::default(),
            depth: 12,
            time: None,
            selectivity: PLAY_SELECTIVITY,
            rows: crate::protocol::gtp::Rows::Auto,
            eval: EvalArg::default(),
            book: None,
            no_book: false,
            book_randomness: 0,
        }
    }
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
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        self.search.apply(EngineOptions {
            selectivity: self.selectivity,
            eval: self.eval.source(),
            book,
            book_randomness: self.book_randomness,
            book_seed: Some(seed),
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

/// A board string of 16, 36 or 64 squares and the side to move, under the flags' rules.
pub(crate) fn read_board(args: &RulesArgs, input: &str) -> Result<(Rules, Game), CliError> {
    let game = Game::from_board(input, |size| Ok::<_, CliError>(args.rules_for(size)?))?;
    Ok((game.rules(), game))
}

/// A position read from the command line: a board string of 16, 36 or 64 squares and the side
/// to move, or a transcript played from the start of the rules.
pub(crate) fn read_position(args: &RulesArgs, input: &str) -> Result<(Rules, Game), CliError> {
    if looks_like_board(input) {
        read_board(args, input)
    } else {
        let rules = args.rules()?;
        let mut game = Game::new(rules);
        game.play_transcript(input)?;
        Ok((rules, game))
    }
}

/// The text of FILE, of stdin for `-`, or of the built-in suite without a file; and the index
/// of its first position (40 for the built-in FFO #40-#49).
pub(crate) fn read_input(file: Option<&str>) -> Result<(String, usize), CliError> {
    use std::io::Read;
    Ok(match file {
        None => (BUILTIN_SUITE.to_string(), BUILTIN_FIRST_INDEX),
        Some("-") => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            (
                crate::board::notation::decode_text(bytes, "standard input"),
                1,
            )
        }
        Some(path) => (
            crate::board::notation::read_text_file(std::path::Path::new(path))
                .map_err(|e| format!("cannot read {path}: {e}"))?,
            1,
        ),
    })
}

/// The problems to read (`solve`, `analyze`): FILE, stdin, the built-in suite, or, for a variant
/// without a file, the variant's start position.
pub(crate) fn problem_text(
    file: Option<&str>,
    args: &RulesArgs,
    rules: &Rules,
) -> Result<(String, usize), CliError> {
    if file.is_none() && !args.is_default() {
        return Ok((rules.board_string(&rules.start_position()), 1));
    }
    read_input(file)
}

/// A problem with its rules (`--size` must agree with the board read) and its state.
pub(crate) fn problem_state<'a>(
    problem: &'a Result<Problem, ProblemError>,
    args: &RulesArgs,
) -> Result<(&'a Problem, Rules, State), ProblemStateError> {
    let problem = problem.as_ref().map_err(|e| e.clone())?;
    let line = problem.line;
    let rules = args
        .rules_for(problem.entry.size)
        .map_err(|error| ProblemStateError::Rules { line, error })?;
    let state = rules
        .state(problem.entry.position)
        .map_err(|error| ProblemStateError::Position { line, error })?;
    Ok((problem, rules, state))
}

/// A PV as Edax writes it: upper case for Black's moves, lower case for White's.
pub(crate) fn pv_text(pv: &[Move], first: Color) -> String {
    let mut color = first;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        out.push(match color {
            Color::Black => mv.to_uppercase(),
            Color::White => mv.to_string().to_lowercase(),
        });
        color = color.opposite();
    }
    out.join(" ")
}

/// Millions of nodes per second, `-` without a time.
pub(crate) fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1} M", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

/// Refuses an output `path` whose directory does not exist, before a long run that would
/// otherwise fail only when it writes its result (`train`, `book build`, `book deepen`).
pub(crate) fn check_output_dir(path: &str) -> Result<(), CliError> {
    let dir = std::path::Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(format!("cannot write {path}: no such directory").into());
    }
    Ok(())
}

/// The progress bar of a run over `count` positions: on a terminal and for more than one
/// position only; a message the caller sets shows after the time.
pub fn positions_bar(count: usize) -> Option<indicatif::ProgressBar> {
    count_bar(count, "positions")
}

/// A progress bar on stderr over `count` things called `what`, when there is more than one and
/// stderr is a terminal.
pub fn count_bar(count: usize, what: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (count > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(count as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} {{msg}}"
            ))
            .expect("valid template"),
        );
        bar
    })
}

/// The header of the table `solve` and `analyze` print, its fifth column named `fifth`.
pub fn table_header(out: &mut impl std::io::Write, fifth: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4} {:>7} {:>4} {:>5} {:>9} {:>14} {:>10} {:>10}  pv",
        "#", "empties", "move", "score", fifth, "nodes", "time", "nodes/s"
    )
}
