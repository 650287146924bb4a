//! Engine specifications (`name=Iago4,iago,depth=4`, `name=NTest,cmd=./ntest x,dir=/opt/ntest,
//! depth=4`) and time controls (`depth=N`, `time=SECS`, `tc=BASE+INC`).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use crate::engine::{BookSource, EngineOptions, EvalSource};
use crate::protocol::Protocol;
use crate::records::ggf::TimeControl;

/// What an engine of a match may spend on each move of a game (`depth=`, `time=`, `tc=`): a
/// depth, a time per move, a game clock, or a mix (each search stops at the first limit
/// reached). The referee turns it into the [`crate::search::Limits`] of each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameLimits {
    /// Midgame search depth in plies.
    pub depth: Option<u32>,
    /// Time for every move.
    pub move_time: Option<Duration>,
    /// A game clock.
    pub clock: Option<TimeControl>,
}

impl GameLimits {
    /// Whether nothing is set (an external engine then plays as its command line says).
    pub fn is_empty(&self) -> bool {
        self.depth.is_none() && self.move_time.is_none() && self.clock.is_none()
    }
}

impl fmt::Display for GameLimits {
    /// `depth 4`, `0.5 s/move`, `clock 60+0.5`, joined by `, `; `own settings` when empty (an
    /// external engine then plays as its command line says).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.move_time {
            parts.push(format!("{} s/move", seconds_text(t)));
        }
        if let Some(c) = self.clock {
            parts.push(format!("clock {}", time_control_text(&c)));
        }
        if parts.is_empty() {
            f.write_str("own settings")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// Reads `tc=BASE[+INC]`: seconds (`60`, `0.5`) or minutes and seconds (`5:00`), e.g.
/// `60+0.5`, `5:00+2`, `300`.
pub fn parse_time_control(text: &str) -> Result<TimeControl, ParseClockError> {
    let bad = |problem| ParseClockError {
        text: text.to_string(),
        problem,
    };
    let (base, increment) = match text.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (text, None),
    };
    let base = parse_duration(base).ok_or_else(|| bad(ClockProblem::Base))?;
    if base.is_zero() {
        return Err(bad(ClockProblem::ZeroBase));
    }
    let increment = match increment {
        Some(i) => parse_duration(i).ok_or_else(|| bad(ClockProblem::Increment))?,
        None => Duration::ZERO,
    };
    Ok(TimeControl {
        base,
        increment,
        grace: Duration::ZERO,
    })
}

/// A time control as `tc=` writes it: `60+0.5` (seconds).
pub fn time_control_text(tc: &TimeControl) -> String {
    let mut text = seconds_text(tc.base);
    if !tc.increment.is_zero() {
        text.push('+');
        text.push_str(&seconds_text(tc.increment));
    }
    text
}

/// Why a clock (`BASE[+INC]`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad clock '{text}': {problem} (expected BASE[+INC], e.g. 60+0.5 or 5:00+2)")]
pub struct ParseClockError {
    /// The text that was rejected.
    pub text: String,
    /// What is wrong with it.
    pub problem: ClockProblem,
}

/// What is wrong with a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ClockProblem {
    /// The part before `+` is not a time.
    #[error("the base is not a time")]
    Base,
    /// The base is zero.
    #[error("the base must be positive")]
    ZeroBase,
    /// The part after `+` is not a time.
    #[error("the increment is not a time")]
    Increment,
}

/// Seconds without needless decimals: `60`, `0.5`, `0.125`.
pub fn seconds_text(d: Duration) -> String {
    let text = format!("{:.3}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds (`1.5`) or `[h:]m:s` (`5:00`); non-negative and finite.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut seconds = 0.0;
    for field in text.split(':') {
        let value: f64 = field.trim().parse().ok()?;
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    (seconds < 1e9).then(|| crate::search::time::duration_from_seconds(seconds))
}

/// The options of Iago in the match process unless its spec says otherwise: one thread, a
/// 16 MiB table, the selectivity of play, the embedded evaluation, no book (a match compares
/// searches, game after game the same way). Its move overhead is the spec's `overhead=`.
pub fn in_process_defaults() -> EngineOptions {
    EngineOptions {
        threads: 1,
        hash_mb: 16,
        book: BookSource::None,
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    }
}

/// An engine run as a child process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalOptions {
    /// The command line as given.
    pub command: String,
    /// The program (resolved against `dir` when it is a relative path with a `/`).
    pub program: PathBuf,
    /// Its arguments (the command split on whitespace, as NBoard does).
    pub args: Vec<String>,
    /// The working directory.
    pub dir: Option<PathBuf>,
    /// The protocol it speaks.
    pub protocol: Protocol,
}

/// In-process Iago, an external program, or a random mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Iago in the match process.
    Iago(EngineOptions),
    /// A child process speaking NBoard or GTP.
    External(ExternalOptions),
    /// A uniformly random legal move (`random`, seeded by `seed=`): the floor of the levels.
    Random {
        /// The seed of its draws (the clock's when not given).
        seed: Option<u64>,
    },
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in reports and in the GGF (`PB`/`PW`).
    pub name: String,
    /// Whether `name` was given (otherwise it was made up from the kind and limit).
    pub named: bool,
    /// What runs.
    pub kind: EngineKind,
    /// The engine's own limit; when empty, the match's limit applies.
    pub limit: GameLimits,
    /// What its clock is charged for each move beyond the time the move took (`overhead=MS`):
    /// the engine plays as if behind a slow GUI.
    pub overhead: Duration,
}

const KEYS: &str = "name, iago, random, cmd, dir, proto, depth, time, tc, overhead, threads, hash, \
     eval, selectivity, move-overhead, book, nobook, level, seed";

impl EngineSpec {
    /// Parses a spec: items separated by commas (`\,` for a comma inside a value), each `key=value`
    /// or a bare word. See the module documentation of [`crate::matchrun`] for the keys.
    pub fn parse(text: &str) -> Result<EngineSpec, ParseSpecError> {
        let err = |problem: SpecProblem| ParseSpecError {
            spec: text.to_string(),
            problem,
        };
        let mut items = SpecItems::default();
        for item in split_items(text) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            items.read(&Item::parse(item)).map_err(err)?;
        }
        // In the match process Iago knows what its clock is charged beyond its own time.
        if !items.kind.iago_only.contains(&"move-overhead") {
            items.kind.options.move_overhead = items.overhead;
        }
        let SpecItems {
            name,
            limit,
            overhead,
            kind,
        } = items;
        let kind = kind.resolve().map_err(err)?;
        let named = name.is_some();
        let name = name.unwrap_or_else(|| default_name(&kind, &limit));
        Ok(EngineSpec {
            name,
            named,
            kind,
            limit,
            overhead,
        })
    }

    /// The limit that applies: the engine's own, or the match's when it has none.
    pub fn effective_limit(&self, default: &GameLimits) -> GameLimits {
        if self.limit.is_empty() {
            *default
        } else {
            self.limit
        }
    }
}

/// One `key[=value]` item of a spec.
struct Item<'a> {
    /// The item as given (trimmed).
    text: &'a str,
    /// The key, lower case.
    key: String,
    /// The value after `=`, trimmed, if any.
    value: Option<&'a str>,
}

impl<'a> Item<'a> {
    /// Splits a trimmed, non-empty item into its key and value.
    fn parse(item: &'a str) -> Item<'a> {
        let (key, value) = match item.split_once('=') {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), Some(v.trim())),
            None => (item.to_ascii_lowercase(), None),
        };
        Item {
            text: item,
            key,
            value,
        }
    }

    /// The value, which must not be empty (`what`: what it should be).
    fn need(&self, what: &'static str) -> Result<&'a str, SpecProblem> {
        self.value
            .filter(|v| !v.is_empty())
            .ok_or_else(|| SpecProblem::NeedsValue {
                key: self.key.clone(),
                what,
            })
    }

    /// The value as whole milliseconds, 0 to [`crate::engine::MAX_MOVE_OVERHEAD_MS`].
    fn milliseconds(&self) -> Result<Duration, SpecProblem> {
        let v = self.need("milliseconds")?;
        crate::engine::parse_move_overhead(v).ok_or_else(|| SpecProblem::NotANumber {
            key: self.key.clone(),
            value: v.to_string(),
            what: "milliseconds from 0 to 60000",
        })
    }

    /// The value as a positive whole number.
    fn number(&self, what: &'static str) -> Result<usize, SpecProblem> {
        let v = self.need(what)?;
        v.parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| SpecProblem::NotANumber {
                key: self.key.clone(),
                value: v.to_string(),
                what,
            })
    }
}

/// What a spec's items said, before the engine kind is settled.
#[derive(Default)]
struct SpecItems {
    name: Option<String>,
    limit: GameLimits,
    overhead: Duration,
    kind: KindItems,
}

/// The items that decide what runs: in-process Iago with its options, a program, or the
/// random mover.
struct KindItems {
    iago: bool,
    random: bool,
    command: Option<String>,
    dir: Option<PathBuf>,
    protocol: Option<Protocol>,
    options: EngineOptions,
    /// The in-process options given, in order.
    iago_only: Vec<&'static str>,
}

impl Default for KindItems {
    fn default() -> Self {
        KindItems {
            iago: false,
            random: false,
            command: None,
            dir: None,
            protocol: None,
            options: in_process_defaults(),
            iago_only: Vec::new(),
        }
    }
}

impl SpecItems {
    /// Takes in one item: its name, limit, kind or in-process option.
    fn read(&mut self, item: &Item) -> Result<(), SpecProblem> {
        let known = self.read_name(item)?
            || read_limit(&mut self.limit, item)?
            || self.read_overhead(item)?
            || self.kind.read_program(item)?
            || self.kind.read_option(item)?;
        if known {
            Ok(())
        } else {
            Err(SpecProblem::UnknownItem(item.text.to_string()))
        }
    }

    /// `name=`; whether the item was it.
    fn read_name(&mut self, item: &Item) -> Result<bool, SpecProblem> {
        if item.key != "name" {
            return Ok(false);
        }
        let v = item.need("a name")?;
        if v.chars().any(char::is_whitespace) {
            return Err(SpecProblem::NameNotOneWord(v.to_string()));
        }
        self.name = Some(v.to_string());
        Ok(true)
    }
}

impl SpecItems {
    /// `overhead=`; whether the item was it.
    fn read_overhead(&mut self, item: &Item) -> Result<bool, SpecProblem> {
        if item.key != "overhead" {
            return Ok(false);
        }
        self.overhead = item.milliseconds()?;
        Ok(true)
    }
}

/// `depth=`, `time=` and `tc=` into `limit`; whether the item was one of them.
fn read_limit(limit: &mut GameLimits, item: &Item) -> Result<bool, SpecProblem> {
    match item.key.as_str() {
        "depth" => {
            let d = item.number("a depth from 1 to 60")?;
            if d > 60 {
                return Err(SpecProblem::DepthOver60(d));
            }
            limit.depth = Some(d as u32);
        }
        "time" => {
            let v = item.need("seconds per move")?;
            let t = parse_duration(v)
                .filter(|t| !t.is_zero())
                .ok_or_else(|| SpecProblem::Time(v.to_string()))?;
            limit.move_time = Some(t);
        }
        "tc" => {
            let clock = parse_time_control(item.need("BASE+INC")?);
            limit.clock = Some(clock.map_err(SpecProblem::Clock)?);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

impl KindItems {
    /// `iago`, `cmd=`, `dir=` and `proto=`; whether the item was one of them.
    fn read_program(&mut self, item: &Item) -> Result<bool, SpecProblem> {
        match item.key.as_str() {
            "iago" if item.value.is_none() => self.iago = true,
            "random" if item.value.is_none() => self.random = true,
            "cmd" | "command" => self.command = Some(item.need("a command line")?.to_string()),
            "dir" => self.dir = Some(PathBuf::from(item.need("a directory")?)),
            "proto" | "protocol" => {
                self.protocol = Some(
                    match item.need("nboard or gtp")?.to_ascii_lowercase().as_str() {
                        "nboard" => Protocol::Nboard,
                        "gtp" => Protocol::Gtp,
                        other => {
                            return Err(SpecProblem::UnknownProtocol(other.to_string()));
                        }
                    },
                )
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The in-process engine's options (`threads=`, `hash=`, `eval=`, `selectivity=`, `book`,
    /// `nobook`); whether the item was one of them.
    fn read_option(&mut self, item: &Item) -> Result<bool, SpecProblem> {
        let options = &mut self.options;
        let key = match item.key.as_str() {
            "threads" => {
                options.threads = item.number("a thread count")?;
                "threads"
            }
            "hash" => {
                options.hash_mb = item.number("MiB")?;
                "hash"
            }
            "move-overhead" | "move_overhead" => {
                options.move_overhead = item.milliseconds()?;
                "move-overhead"
            }
            "eval" => {
                options.eval = EvalSource::named(item.need("a weight file, hand or pattern")?);
                "eval"
            }
            "selectivity" => {
                let v = item.need("a ProbCut confidence in percent")?;
                options.selectivity = v.parse().map_err(|e| {
                    SpecProblem::Selectivity(format!("selectivity={v}: must be {e}"))
                })?;
                "selectivity"
            }
            "book" => {
                options.book = match item.value {
                    None | Some("on" | "yes" | "true") => BookSource::BuiltIn,
                    Some("off" | "no" | "false") => BookSource::None,
                    Some("") => return Err(SpecProblem::EmptyBook),
                    Some(path) => BookSource::File(PathBuf::from(path)),
                };
                "book"
            }
            "nobook" | "no-book" if item.value.is_none() => {
                options.book = BookSource::None;
                "nobook"
            }
            "level" => {
                let v = item.need("a level, 1 to 10")?;
                options.level = v.parse().map_err(|e: crate::engine::ParseLevelError| {
                    SpecProblem::Level(e.to_string())
                })?;
                "level"
            }
            "seed" => {
                let v = item.need("a seed")?;
                let seed = v.parse::<u64>().map_err(|_| SpecProblem::NotANumber {
                    key: "seed".into(),
                    value: v.to_string(),
                    what: "a whole number from 0 to 2^64 - 1",
                })?;
                options.seed = Some(seed);
                options.book_seed = Some(seed);
                "seed"
            }
            _ => return Ok(false),
        };
        self.iago_only.push(key);
        Ok(true)
    }

    /// The engine kind the items describe, checking that they fit together.
    fn resolve(self) -> Result<EngineKind, SpecProblem> {
        if self.random {
            if self.iago || self.command.is_some() {
                return Err(SpecProblem::RandomAndOther);
            }
            if let Some(key) = self.iago_only.iter().find(|k| **k != "seed") {
                return Err(SpecProblem::InProcessOnly(key));
            }
            return Ok(EngineKind::Random {
                seed: self.options.seed,
            });
        }
        match (self.iago, self.command) {
            (true, Some(_)) => Err(SpecProblem::IagoAndCommand),
            (false, None) => Err(SpecProblem::NoKind),
            (true, None) => {
                if self.dir.is_some() || self.protocol.is_some() {
                    return Err(SpecProblem::ExternalOnly);
                }
                Ok(EngineKind::Iago(self.options))
            }
            (false, Some(command)) => {
                if let Some(key) = self.iago_only.first() {
                    return Err(SpecProblem::InProcessOnly(key));
                }
                let mut words = command.split_whitespace().map(str::to_string);
                let program = words.next().ok_or(SpecProblem::EmptyCommand)?;
                let program = PathBuf::from(program);
                let program = match &self.dir {
                    Some(d) if program.is_relative() && program.components().count() > 1 => {
                        d.join(program)
                    }
                    _ => program,
                };
                Ok(EngineKind::External(ExternalOptions {
                    command: command.clone(),
                    program,
                    args: words.collect(),
                    dir: self.dir,
                    protocol: self.protocol.unwrap_or(Protocol::Nboard),
                }))
            }
        }
    }
}

/// Why an engine spec could not be read: the spec and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad engine spec '{spec}': {problem}")]
pub struct ParseSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub problem: SpecProblem,
}

/// What is wrong with an engine spec.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecProblem {
    /// `key=` without a value (or a bare key that needs one).
    #[error("'{key}' needs a value ({what})")]
    NeedsValue {
        /// The key, lower case.
        key: String,
        /// What the value should be.
        what: &'static str,
    },
    /// A count (depth, threads, hash) that is not a positive whole number.
    #[error("{key}={value}: expected {what}")]
    NotANumber {
        /// The key, lower case.
        key: String,
        /// The value given.
        value: String,
        /// What the value should be.
        what: &'static str,
    },
    /// `depth=` over 60.
    #[error("depth={0}: at most 60")]
    DepthOver60(usize),
    /// `level=` that names no level.
    #[error("level={0}")]
    Level(String),
    /// `random` with `iago` or `cmd=`.
    #[error("'random' is an engine of its own: not with 'iago' or 'cmd='")]
    RandomAndOther,
    /// `time=` that is not a positive time.
    #[error("time={0}: expected positive seconds")]
    Time(String),
    /// `tc=` that is not a clock.
    #[error(transparent)]
    Clock(ParseClockError),
    /// A `name=` with spaces.
    #[error("name '{0}' must be one word")]
    NameNotOneWord(String),
    /// `proto=` other than `nboard` or `gtp`.
    #[error("unknown protocol '{0}' (nboard or gtp)")]
    UnknownProtocol(String),
    /// `selectivity=` that is not a selectivity.
    #[error("{0}")]
    Selectivity(String),
    /// `book=` with nothing after it.
    #[error("'book=' needs on, off or a file")]
    EmptyBook,
    /// An item that is not a key.
    #[error("unknown item '{0}' (keys: {KEYS})")]
    UnknownItem(String),
    /// Both `iago` and `cmd=`.
    #[error("'iago' (in-process) and 'cmd=' exclude each other")]
    IagoAndCommand,
    /// Neither `iago` nor `cmd=`.
    #[error("say 'iago' for the built-in engine or 'cmd=…' for a program")]
    NoKind,
    /// `dir=` or `proto=` for the in-process engine.
    #[error("'dir' and 'proto' are for external engines (cmd=…)")]
    ExternalOnly,
    /// An option of the in-process engine given to an external one.
    #[error(
        "'{0}' is an option of the in-process engine (iago); give it on the command line instead"
    )]
    InProcessOnly(&'static str),
    /// A `cmd=` of blanks only.
    #[error("empty command")]
    EmptyCommand,
}

/// `Iago-d4`, `Iago-t0.5`, `ntest`: the kind and, for Iago, its own limit.
fn default_name(kind: &EngineKind, limit: &GameLimits) -> String {
    match kind {
        EngineKind::Iago(_) => {
            let mut name = "Iago".to_string();
            if let Some(d) = limit.depth {
                name.push_str(&format!("-d{d}"));
            }
            if let Some(t) = limit.move_time {
                name.push_str(&format!("-t{}", seconds_text(t)));
            }
            if let Some(c) = limit.clock {
                name.push_str(&format!("-tc{}", time_control_text(&c)));
            }
            name
        }
        EngineKind::Random { .. } => "Random".to_string(),
        EngineKind::External(e) => e
            .program
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "engine".into()),
    }
}

/// Splits on commas not preceded by a backslash; `\,` becomes `,` and `\\` becomes `\`.
fn split_items(text: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next @ (',' | '\\')) => items.last_mut().expect("one item").push(next),
                Some(next) => {
                    let last = items.last_mut().expect("one item");
                    last.push('\\');
                    last.push(next);
                }
                None => items.last_mut().expect("one item").push('\\'),
            },
            ',' => items.push(String::new()),
            _ => items.last_mut().expect("one item").push(c),
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_specs() {
        let s = EngineSpec::parse("name=Iago4,iago,depth=4").unwrap();
        assert_eq!(s.name, "Iago4");
        assert_eq!(s.limit.depth, Some(4));
        assert_eq!(s.kind, EngineKind::Iago(in_process_defaults()));
        let s = EngineSpec::parse("iago, time=0.5, threads=2, hash=32, eval=hand, book").unwrap();
        assert_eq!(s.name, "Iago-t0.5");
        assert!(!s.named);
        assert_eq!(s.limit.move_time, Some(Duration::from_millis(500)));
        let EngineKind::Iago(o) = s.kind else {
            panic!("in-process")
        };
        assert_eq!(
            (o.threads, o.hash_mb, o.eval, o.book),
            (2, 32, EvalSource::Hand, BookSource::BuiltIn)
        );
        assert_eq!(o.selectivity, crate::search::params::PLAY_SELECTIVITY);
        let s = EngineSpec::parse("iago,depth=6,selectivity=95").unwrap();
        let EngineKind::Iago(o) = s.kind else {
            panic!("in-process")
        };
        assert_eq!(o.selectivity.percent(), 95);
        let s = EngineSpec::parse("iago,tc=5:00+2,book=my.book").unwrap();
        assert_eq!(
            s.limit.clock,
            Some(TimeControl {
                base: Duration::from_secs(300),
                increment: Duration::from_secs(2),
                grace: Duration::ZERO,
            })
        );
        assert_eq!(s.name, "Iago-tc300+2");
        assert_eq!(s.overhead, Duration::ZERO);
        let s = EngineSpec::parse("iago,tc=10,overhead=50,move-overhead=60").unwrap();
        let EngineKind::Iago(o) = s.kind else {
            panic!("in-process")
        };
        assert_eq!(s.overhead, Duration::from_millis(50));
        assert_eq!(o.move_overhead, Duration::from_millis(60));
        assert_eq!(s.name, "Iago-tc10", "the overhead is not a limit");
        // Unless told otherwise, Iago in the match process plans with the overhead charged.
        for (spec, planned) in [("iago,tc=10", 0), ("iago,tc=10,overhead=30", 30)] {
            let EngineKind::Iago(o) = EngineSpec::parse(spec).unwrap().kind else {
                panic!("in-process")
            };
            assert_eq!(o.move_overhead, Duration::from_millis(planned), "{spec}");
        }
        let s = EngineSpec::parse("cmd=x,overhead=0").unwrap();
        assert_eq!(s.overhead, Duration::ZERO);
    }

    #[test]
    fn external_specs() {
        let s = EngineSpec::parse("name=NTest,cmd=./ntest x,dir=/opt/ntest,proto=nboard,depth=4")
            .unwrap();
        let EngineKind::External(e) = &s.kind else {
            panic!("external")
        };
        assert_eq!(e.program, PathBuf::from("/opt/ntest/./ntest"));
        assert_eq!(e.args, ["x"]);
        assert_eq!(e.protocol, Protocol::Nboard);
        let s = EngineSpec::parse(r"cmd=edax -gtp -l 4 -option a\,b,proto=GTP").unwrap();
        let EngineKind::External(e) = &s.kind else {
            panic!("external")
        };
        assert_eq!(e.program, PathBuf::from("edax"));
        assert_eq!(e.args, ["-gtp", "-l", "4", "-option", "a,b"]);
        assert_eq!(e.protocol, Protocol::Gtp);
        assert_eq!(s.name, "edax");
    }

    #[test]
    fn bad_specs_are_one_line_errors() {
        for (spec, needle) in [
            ("", "say 'iago'"),
            ("iago,cmd=x", "exclude each other"),
            ("iago,depth=0", "depth=0"),
            ("iago,depth=99", "at most 60"),
            ("iago,depth", "needs a value"),
            ("iago,time=-1", "time=-1"),
            ("iago,tc=abc", "bad clock"),
            ("iago,tc=0", "positive"),
            ("iago,colour=red", "unknown item"),
            ("cmd=x,threads=2", "in-process"),
            ("cmd=x,selectivity=87", "in-process"),
            ("cmd=x,move-overhead=5", "in-process"),
            ("iago,overhead=-5", "overhead=-5: expected milliseconds"),
            (
                "iago,move-overhead=60001",
                "expected milliseconds from 0 to 60000",
            ),
            ("iago,overhead", "needs a value"),
            (
                "iago,selectivity=90",
                "selectivity=90: must be one of 58, 73, 87, 95, 98, 99, 100",
            ),
            ("iago,selectivity", "needs a value"),
            ("cmd=x,proto=uci", "unknown protocol"),
            ("iago,dir=/tmp", "external engines"),
            ("cmd=  ", "needs a value"),
            ("name=two words,iago", "one word"),
        ] {
            let e = EngineSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(needle), "{spec}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn spec_errors_read_as_before() {
        let e = EngineSpec::parse("iago,tc=5+x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad engine spec 'iago,tc=5+x': bad clock '5+x': the increment is not a time \
             (expected BASE[+INC], e.g. 60+0.5 or 5:00+2)"
        );
        assert!(matches!(e.problem, SpecProblem::Clock(_)));
        let e = EngineSpec::parse("cmd=x,hash=8").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad engine spec 'cmd=x,hash=8': 'hash' is an option of the in-process engine \
             (iago); give it on the command line instead"
        );
        let e = EngineSpec::parse("iago,threads=two").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad engine spec 'iago,threads=two': threads=two: expected a thread count"
        );
    }

    #[test]
    fn clocks_and_durations() {
        assert_eq!(parse_duration("1:30"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("inf"), None);
        let c = parse_time_control("60+0.5").unwrap();
        assert_eq!(time_control_text(&c), "60+0.5");
        assert_eq!(c.to_string(), "1:00/0:00.5/0:00");
        assert_eq!(parse_time_control("300").unwrap().to_string(), "5:00");
        let tc = TimeControl::parse(&c.to_string()).unwrap();
        assert_eq!(
            (tc.base, tc.increment),
            (Duration::from_secs(60), Duration::from_millis(500))
        );
        let limit = GameLimits {
            depth: Some(4),
            move_time: Some(Duration::from_millis(100)),
            clock: None,
        };
        assert_eq!(limit.to_string(), "depth 4, 0.1 s/move");
    }
}
