//! What `iago match` and `iago tournament` share: the options of their games (openings, limits,
//! timeouts, concurrency, output) and their outputs (the GGF file, the progress bar, the
//! summary).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

use super::args::{CliError, RulesArgError, RulesArgs, ValueError};
use crate::matchrun::MatchConfig;
use crate::matchrun::game::GameRecord;
use crate::matchrun::openings::{self, Opening, OpeningsError};
use crate::matchrun::spec::{
    EngineKind, EngineSpec, GameLimits, ParseSpecError, parse_duration, parse_time_control,
};
use crate::matchrun::stats::SprtError;
use crate::protocol::Protocol;
use crate::records::ggf::TimeControl;

/// Why the command line of `iago match` or `iago tournament` sets up no match.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// `iago match` without exactly two engines.
    #[error("a match needs exactly two --engine options, not {0}")]
    MatchEngines(usize),
    /// `iago tournament` with fewer than two engines.
    #[error("a tournament needs at least two --engine options, not {0}")]
    TournamentEngines(usize),
    /// Two engines of a tournament given the same `name=`.
    #[error("two engines are named {0}: names must be distinct")]
    SameName(String),
    /// An engine spec that cannot be read.
    #[error(transparent)]
    Spec(#[from] ParseSpecError),
    /// `--rules`, `--discs`, `--size`.
    #[error(transparent)]
    Rules(#[from] RulesArgError),
    /// A disc supply with an NBoard engine.
    #[error("{0}: NBoard engines cannot be told a disc supply (GGF has no field for it)")]
    NboardDiscs(String),
    /// `--openings`.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// `--sprt` without four numbers.
    #[error("--sprt takes four numbers: elo0 elo1 alpha beta")]
    SprtArity,
    /// `--sprt` with parameters out of range.
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

/// The options `iago match` and `iago tournament` share.
#[derive(clap::Args, Debug, Clone)]
pub struct GameOptions {
    /// Openings, one transcript a line (e.g. an XOT list); each is played twice, colours
    /// swapped. Without it, every game starts from the standard position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Take openings in a random order (each once before any repeats) instead of file order.
    #[arg(long)]
    pub random: bool,
    /// Seed of the random order (default: from the clock; the summary prints it).
    #[arg(long, value_name = "S", requires = "random")]
    pub seed: Option<u64>,
    /// Search depth for engines whose spec sets no limit.
    #[arg(long, value_name = "D", value_parser = depth_arg)]
    pub depth: Option<u32>,
    /// Seconds per move for engines whose spec sets no limit.
    #[arg(long, value_name = "SECS", value_parser = positive_seconds_arg)]
    pub move_time: Option<Duration>,
    /// A game clock for engines whose spec sets no limit: BASE[+INC] in seconds or m:ss, e.g.
    /// 60+0.5.
    #[arg(long, value_name = "BASE[+INC]", value_parser = parse_time_control)]
    pub tc: Option<TimeControl>,
    /// Seconds a move may run over its allotted time before it loses on time.
    #[arg(long, default_value = "0.2", value_name = "SECS", value_parser = seconds_arg)]
    pub time_margin: Duration,
    /// Seconds to wait for a move when neither a clock nor a time per move bounds it.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = positive_seconds_arg)]
    pub move_timeout: Duration,
    /// Seconds a whole game may take (the side to move when it runs out loses on time).
    #[arg(long, value_name = "SECS", value_parser = seconds_arg)]
    pub game_timeout: Option<Duration>,
    /// Games played at once (in a tournament: within a pairing).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = count_arg)]
    pub concurrency: usize,
    /// Append every game to this file, one GGF game a line.
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// The rule set of the games (external engines are told it: GTP `boardsize` and
    /// `set_game`, NBoard the GGF `TY` and `BO`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `--rounds`, `--concurrency`: a whole number, at least 1.
pub(crate) fn count_arg(text: &str) -> Result<usize, ValueError> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ValueError::Count),
    }
}

/// `--depth`: 1 to 60.
fn depth_arg(text: &str) -> Result<u32, ValueError> {
    match text.parse::<u32>() {
        Ok(d) if (1..=60).contains(&d) => Ok(d),
        _ => Err(ValueError::Depth),
    }
}

/// A time in seconds or m:ss.
fn seconds_arg(text: &str) -> Result<Duration, ValueError> {
    parse_duration(text).ok_or(ValueError::Time)
}

/// A time in seconds or m:ss, more than zero.
fn positive_seconds_arg(text: &str) -> Result<Duration, ValueError> {
    match seconds_arg(text)? {
        t if t.is_zero() => Err(ValueError::PositiveTime),
        t => Ok(t),
    }
}

impl GameOptions {
    /// The match these options set up between `engines` (the first two of a tournament), with
    /// `rounds` rounds.
    pub fn match_config(
        &self,
        engines: [EngineSpec; 2],
        rounds: usize,
    ) -> Result<MatchConfig, ConfigError> {
        let limit = GameLimits {
            depth: self.depth,
            move_time: self.move_time,
            clock: self.tc,
        };
        let rules = self.rules.rules()?;
        if rules.discs_per_player.is_some()
            && let Some(e) = engines.iter().find(
                |e| matches!(&e.kind, EngineKind::External(x) if x.protocol == Protocol::Nboard),
            )
        {
            return Err(ConfigError::NboardDiscs(e.name.clone()));
        }
        let mut config = MatchConfig::new(engines, limit, rounds);
        config.rules = rules;
        if !rules.is_standard() {
            // The XOT lists are for 8x8 Othello: a variant plays the positions a few plies in.
            config.openings = openings::variant_openings(rules, openings::VARIANT_PLIES);
            config.openings_source = format!(
                "the {} positions {} plies from the start of {rules}",
                config.openings.len(),
                openings::VARIANT_PLIES
            );
            if config.openings.is_empty() {
                config.openings = vec![Opening::start_of(rules)];
                config.openings_source = format!("the start of {rules}");
            }
        }
        if let Some(path) = &self.openings {
            config.openings = openings::load_openings(path, rules)?;
            config.openings_source =
                format!("{} ({} openings)", path.display(), config.openings.len());
        }
        if self.random {
            config.random_seed = Some(self.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            }));
        }
        config.time_margin = self.time_margin;
        config.move_timeout = self.move_timeout;
        config.game_timeout = self.game_timeout;
        config.concurrency = self.concurrency;
        Ok(config)
    }
}

/// The GGF file of `--ggf`, games appended as they end; the first failure to write is kept
/// for the end.
pub(crate) struct GgfOutput {
    file: Option<Mutex<std::fs::File>>,
    error: Mutex<Option<String>>,
}

impl GgfOutput {
    /// Opens `--ggf` for appending (nothing without it).
    pub(crate) fn open(path: Option<&PathBuf>) -> Result<GgfOutput, CliError> {
        let file = match path {
            Some(path) => Some(Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
            )),
            None => None,
        };
        Ok(GgfOutput {
            file,
            error: Mutex::new(None),
        })
    }

    /// Appends a game as one GGF line.
    pub(crate) fn write(&self, record: &GameRecord) {
        if let Some(file) = &self.file {
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = writeln!(file, "{}", record.to_ggf()).and_then(|_| file.flush()) {
                let mut error = self.error.lock().unwrap_or_else(|p| p.into_inner());
                error.get_or_insert_with(|| format!("cannot write the GGF file: {e}"));
            }
        }
    }

    /// The first failure to write, if there was one.
    pub(crate) fn into_error(self) -> Option<String> {
        self.error.into_inner().unwrap_or_else(|p| p.into_inner())
    }
}

/// The live progress bar of `len` games on stderr (hidden when stderr is not a terminal).
pub(crate) fn progress_bar(len: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} {msg}")
    {
        bar.set_style(style);
    }
    bar
}

/// Prints a summary (JSON or text) on stdout, then reports a failure to write the GGF file, if
/// there was one.
pub(crate) fn print_summary(
    json: bool,
    summary: &impl Serialize,
    text: impl FnOnce() -> String,
    ggf: GgfOutput,
) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(summary)?)?;
    } else {
        write!(out, "{}", text())?;
    }
    out.flush()?;
    if let Some(e) = ggf.into_error() {
        return Err(e.into());
    }
    Ok(())
}
