//! `iago datagen`: self-play games written as labelled training data, chunk by chunk, resumable
//! and split into shards.

use std::io::Write;
use std::path::PathBuf;

use super::args::{CliError, EvalArg, RulesArgs, ThreadsArg, hash_arg, seconds_arg};
use crate::batch::Shard;
use crate::train::selfplay::{self, DatagenOptions, Play, RunSpec, Softmax};

/// The options of `iago datagen`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("threads", |a| a.help("Games played at once (one thread each)")))]
pub struct DatagenArgs {
    /// The directory of the chunks (made if missing). Chunks already there and sound are kept:
    /// a stopped run resumes.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games in all (of every shard).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Games per chunk: chunk k holds games k*G .. (k+1)*G.
    #[arg(long, default_value_t = 100, value_name = "G",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games_per_chunk: u32,
    /// Openings to start from, one transcript a line (as `iago match --openings`); game g
    /// starts from line g mod (lines). Default: the standard start.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Uniformly random moves after the opening.
    #[arg(long, default_value_t = 0, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=60))]
    pub random_opening_plies: u32,
    /// Random moves after those: uniform, or by --softmax. Positions are recorded from the
    /// end of the random moves on.
    #[arg(long, default_value_t = 8, value_name = "R",
          value_parser = clap::value_parser!(u32).range(0..=60))]
    pub random_moves: u32,
    /// Choose the random moves by a softmax over their values (a shallow search) at this
    /// temperature, in discs, instead of uniformly.
    #[arg(long, value_name = "T", value_parser = temperature_arg)]
    pub softmax: Option<f64>,
    /// Plies of the search that values the moves for --softmax.
    #[arg(long, default_value_t = 3, value_name = "K", requires = "softmax",
          value_parser = clap::value_parser!(u32).range(2..=10))]
    pub softmax_depth: u32,
    /// Best play: the search depth of every move after the random part.
    #[arg(long, default_value_t = 8, value_name = "D", conflicts_with = "time",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Best play: seconds per move instead of a depth (the games then depend on the
    /// machine: shards and reruns are no longer identical).
    #[arg(long, value_name = "SECS", value_parser = seconds_arg)]
    pub time: Option<f64>,
    /// Plies of the search that labels the positions beyond --exact-empties (default: the
    /// play depth + 2); 0 gives none.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=60))]
    pub label_depth: Option<u32>,
    /// Positions with at most this many empty squares get the solver's exact score.
    #[arg(long, default_value_t = 18, value_name = "E",
          value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Record every position of a game, the opening's and the random moves' too.
    #[arg(long)]
    pub record_all: bool,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Make only the chunks of shard I of N (chunk k belongs to shard k mod N; I counts from
    /// 0): N processes with the same settings make the files of one run.
    #[arg(long, default_value_t = Shard::ALL, value_name = "I/N")]
    pub shard: Shard,
    /// Games played at once (one thread each).
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Hash table of each game's engine, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = hash_arg)]
    pub hash: usize,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
    /// The rules: only standard 8x8 Othello is generated.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `--softmax`: a positive, finite temperature.
fn temperature_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err("expected a positive temperature in discs".into()),
    }
}

impl DatagenArgs {
    /// The generation settings (reads the openings and the evaluation).
    pub fn options(&self) -> Result<DatagenOptions, CliError> {
        let rules = self.rules.rules()?;
        if !rules.is_standard() {
            return Err(format!("datagen plays standard 8x8 Othello only, not {rules}").into());
        }
        let openings = match &self.openings {
            Some(path) => crate::matchrun::openings::load_openings(path, rules)?,
            None => Vec::new(),
        };
        let play = match self.time {
            Some(seconds) => Play::Time(seconds),
            None => Play::Depth(self.depth),
        };
        Ok(DatagenOptions {
            seed: self.seed,
            games_per_chunk: self.games_per_chunk,
            openings,
            random_opening_plies: self.random_opening_plies,
            random_moves: self.random_moves,
            softmax: self.softmax.map(|temperature| Softmax {
                temperature,
                depth: self.softmax_depth,
            }),
            play,
            label_depth: self.label_depth.unwrap_or((self.depth + 2).min(60)),
            exact_empties: self.exact_empties,
            record_all: self.record_all,
            hash_mb: self.hash,
            eval: self.eval.load()?,
        })
    }
}

/// The progress bar of a run: on a terminal only, games and positions per second.
fn games_bar(games: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (games > 0 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(games);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}",
            )
            .expect("valid template"),
        );
        bar
    })
}

/// Generates the chunks of this shard that are missing and prints a summary.
pub fn run(args: &DatagenArgs) -> Result<(), CliError> {
    if args.out.exists() && !args.out.is_dir() {
        return Err(format!("--out {}: not a directory", args.out.display()).into());
    }
    let options = args.options()?;
    let spec = RunSpec {
        games: args.games as u64,
        out: args.out.clone(),
        shard: args.shard,
        threads: args.threads.threads,
    };
    let start = std::time::Instant::now();
    let mut bar = None;
    let report = selfplay::generate(&options, &spec, &mut |p| {
        let bar = bar.get_or_insert_with(|| games_bar(p.games_total));
        if let Some(bar) = bar {
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            bar.set_position(p.games);
            bar.set_message(format!(
                "{} positions, {:.2} games/s, {:.0} positions/s, {} chunks written",
                p.positions,
                p.games as f64 / secs,
                p.positions as f64 / secs,
                p.chunks_written
            ));
        }
    })?;
    if let Some(Some(bar)) = bar {
        bar.finish_and_clear();
    }
    let secs = report.seconds.max(1e-9);
    writeln!(
        std::io::stdout().lock(),
        "shard {}: {} chunks ({} already done, {} made again, {} written), {} games, {} positions in {:.1} s: {:.2} games/s, {:.0} positions/s; fingerprint {:016x}",
        args.shard,
        report.chunks,
        report.skipped,
        report.regenerated,
        report.written,
        report.games,
        report.positions,
        report.seconds,
        report.games as f64 / secs,
        report.positions as f64 / secs,
        report.fingerprint
    )?;
    Ok(())
}
