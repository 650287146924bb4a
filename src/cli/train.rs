//! `iago train`: trains the pattern evaluation on game archives and writes the weight file; its
//! solving split into shards (`--label-only --shard I/N`) and their files merged
//! (`--merge-solved`).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::args::{CliError, ThreadsArg, selectivity_arg};
use super::output::check_output_dir;
use crate::batch::Shard;
use crate::eval::PatternEval;
use crate::records::read_archives;
use crate::search::Selectivity;
use crate::train::chunk::Record;
use crate::train::evaluation::{
    self, ExactReport, LabelledGame, SolvedCache, StageReport, TrainOptions,
};

/// The options of `iago train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// A directory of WTHOR `WTH_*.wtb` files (or one file).
    #[arg(long, value_name = "PATH", required_unless_present = "merge_solved")]
    pub wthor: Option<String>,
    /// Logistello's `logbook.gam` or `logbook.gam.gz`.
    #[arg(long, value_name = "FILE")]
    pub logistello: Option<String>,
    /// Self-play data of `iago datagen`: a chunk file or a directory of chunks (repeatable).
    #[arg(long, value_name = "PATH")]
    pub data: Vec<std::path::PathBuf>,
    /// Where to write the weights (not with --label-only, which fits nothing).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present_any = ["label_only", "merge_solved"],
        conflicts_with = "label_only"
    )]
    pub out: Option<String>,
    /// WTHOR years kept for validation.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "2023,2024",
        value_name = "YEARS"
    )]
    pub validation_years: Vec<u16>,
    /// Positions per stage labelled by search (the stages beyond 24 empties).
    #[arg(long, default_value_t = 300_000, value_name = "N")]
    pub max_per_stage: usize,
    /// Positions per stage labelled by their game's value (the stages up to 24 empties).
    #[arg(long, default_value_t = 1_500_000, value_name = "N")]
    pub max_labelled: usize,
    /// Positions per stage labelled by the exact solver.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub max_solved: usize,
    /// Solve positions with at most this many empties.
    #[arg(long, default_value_t = 16, value_name = "E")]
    pub solve_max_empties: u32,
    /// Where a game's known values disagree between 24 empties and the solver's range, solve
    /// its position at these depths (empties) too, so that more of its positions get the
    /// game's value; an empty list solves none.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "18",
        value_name = "EMPTIES"
    )]
    pub check_empties: Vec<u32>,
    /// Share of the training positions in the solver's range (and one empty beyond) that
    /// also bring the child of a random move, solved (positions off the games' paths).
    #[arg(long, default_value_t = 0.2, value_name = "R")]
    pub off_path: f64,
    /// Share of the training positions beyond the solver's range (and one empty) that also
    /// bring the child of a random move, labelled by a search.
    #[arg(long, default_value_t = 0.3, value_name = "R")]
    pub off_path_search: f64,
    /// Training positions per stage between the solver's range and 24 empties that have no
    /// trusted game value and get the score of a search instead.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub max_searched: usize,
    /// Plies of the search that scores those positions.
    #[arg(long, default_value_t = 6, value_name = "D")]
    pub searched_depth: u32,
    /// Plies of the bootstrapping search that labels the positions beyond 24 empties.
    #[arg(long, default_value_t = 4, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub bootstrap_depth: u32,
    /// The Multi-ProbCut selectivity of that search, in percent (100: full width).
    #[arg(long, default_value = "100", value_name = "PERCENT", value_parser = selectivity_arg)]
    pub bootstrap_selectivity: Selectivity,
    /// Refit a weight file's stages beyond --refit-beyond empties and keep its other stages
    /// (beyond 24 empties nothing is solved and no --solved file is needed).
    #[arg(long, value_name = "FILE", conflicts_with = "label_only")]
    pub refit: Option<String>,
    /// With --refit: the stages whose positions all have more empties than this are refitted.
    #[arg(long, default_value_t = 24, value_name = "E", requires = "refit", value_parser = clap::value_parser!(u32).range(0..60))]
    pub refit_beyond: u32,
    /// Passes over each stage's samples.
    #[arg(long, default_value_t = 12, value_name = "N")]
    pub epochs: usize,
    /// Adagrad's learning rate.
    #[arg(long, default_value_t = 0.16, value_name = "R")]
    pub learning_rate: f32,
    /// L2 decay of each mobility context's difference from the shared table, per pass over
    /// a stage's samples: rarely seen configurations keep the shared weight.
    #[arg(long, default_value_t = 1000.0, value_name = "L")]
    pub context_decay: f32,
    /// At most this many games from each archive (a quick sample).
    #[arg(long, value_name = "N")]
    pub max_games: Option<usize>,
    /// Worker threads.
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Seed of the samples.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Exact scores of solved positions: read when the file exists, and written back with
    /// the positions this run solves (a rerun then skips the solving).
    #[arg(long, value_name = "FILE")]
    pub solved: Option<String>,
    /// Only solve the positions the training needs, into the --solved file, and stop before
    /// fitting (no --out). With --shard, only that shard's share.
    #[arg(long, requires = "solved")]
    pub label_only: bool,
    /// With --label-only: solve shard I of N (0 <= I < N), every N-th position of the list
    /// that every shard computes alike from the archives and the options (pass them the same
    /// ones). Then merge the shards' files with --merge-solved (see docs/manual.md).
    #[arg(long, value_name = "I/N", requires = "label_only")]
    pub shard: Option<Shard>,
    /// Merge these solved-positions files (of --label-only shards) into the --solved file,
    /// with the positions it holds if it exists: every position once, one with two scores
    /// refused. Trains nothing.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        requires = "solved",
        conflicts_with_all = ["wthor", "logistello", "out", "label_only", "max_games"]
    )]
    pub merge_solved: Vec<String>,
}

impl TrainArgs {
    /// The training options of the command line (the library's defaults for the rest).
    pub fn options(&self) -> TrainOptions {
        TrainOptions {
            validation_years: self.validation_years.clone(),
            max_per_stage: self.max_per_stage,
            max_labelled: self.max_labelled,
            max_solved: self.max_solved,
            solve_max_empties: self.solve_max_empties,
            check_empties: self.check_empties.clone(),
            off_path: self.off_path,
            off_path_search: self.off_path_search,
            max_searched: self.max_searched,
            searched_depth: self.searched_depth,
            bootstrap_depth: self.bootstrap_depth,
            bootstrap_selectivity: self.bootstrap_selectivity,
            epochs: self.epochs,
            learning_rate: self.learning_rate,
            context_decay: self.context_decay,
            seed: self.seed,
            ..TrainOptions::default()
        }
    }
}

/// Reads a solved-positions file.
fn read_cache(path: &str) -> Result<SolvedCache, CliError> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(SolvedCache::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?)
}

/// `--merge-solved`: the union of the files (and of the --solved file if it exists), written
/// to the --solved file.
fn merge_solved(inputs: &[String], out: &str) -> Result<(), CliError> {
    check_output_dir(out)?;
    let mut cache = if Path::new(out).exists() {
        read_cache(out)?
    } else {
        SolvedCache::default()
    };
    let kept = cache.len();
    for path in inputs {
        let other = read_cache(path)?;
        let new = cache.merge(&other).map_err(|e| format!("{path}: {e}"))?;
        eprintln!(
            "[train] {path}: {} solved positions, {new} new",
            other.len()
        );
    }
    std::fs::write(out, cache.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    writeln!(
        std::io::stdout().lock(),
        "wrote {out}: {} solved positions ({kept} it held, {} from {} files)",
        cache.len(),
        cache.len() - kept,
        inputs.len()
    )?;
    Ok(())
}

/// Reads the archives, trains, writes the weights and prints a table of the stages; with
/// `--label-only`, solves (a shard's share of) the positions and prints what is left to do;
/// with `--merge-solved`, merges solved-positions files.
pub fn run(args: &TrainArgs) -> Result<(), CliError> {
    let solved_path = args.solved.as_deref();
    if !args.merge_solved.is_empty() {
        let out = solved_path.ok_or("--merge-solved needs --solved FILE to write")?;
        return merge_solved(&args.merge_solved, out);
    }
    let options = args.options();
    let start = Instant::now();
    // A training run takes up to an hour: a file it could not write should fail now, not then.
    for path in args.out.iter().map(String::as_str).chain(solved_path) {
        check_output_dir(path)?;
    }
    let mut cache = match solved_path {
        Some(path) if Path::new(path).exists() => {
            let cache = read_cache(path)?;
            eprintln!("[train] {} solved positions from {path}", cache.len());
            cache
        }
        _ => SolvedCache::default(),
    };
    let mut saver = CacheSaver {
        path: solved_path,
        error: None,
    };
    // The weights to refit, read before the archives: a bad file fails at once.
    let start_weights = match &args.refit {
        Some(path) => Some(
            PatternEval::load(Path::new(path)).map_err(|e| format!("cannot read {path}: {e}"))?,
        ),
        None => None,
    };
    let training = read_training(args, &options)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.threads.max(1))
        .build()?;
    if args.label_only {
        let shard = args.shard.unwrap_or_default();
        label_only(shard, &pool, &training, &options, &mut cache, &mut saver)?;
        return saver.result();
    }
    let out_path = args
        .out
        .as_deref()
        .ok_or("--out FILE is needed to write the weights")?;
    let (eval, stages, exact) = pool.install(|| {
        let progress = &mut |line: &str| eprintln!("[train] {line}");
        let save = &mut |cache: &SolvedCache| saver.save(cache);
        let (games, data) = (&training.games, &training.data);
        match &start_weights {
            Some(start) => evaluation::refit(
                games,
                data,
                &options,
                (start, args.refit_beyond),
                &mut cache,
                progress,
                save,
            ),
            None => evaluation::train(games, data, &options, &mut cache, progress, save),
        }
    });
    std::fs::write(out_path, eval.to_bytes())
        .map_err(|e| format!("cannot write {out_path}: {e}"))?;
    print_training(&stages, &exact, out_path, start)?;
    saver.result()
}

/// Writes the solved positions to the --solved file whenever the training asks, keeping the
/// first failure for the end of the run.
struct CacheSaver<'a> {
    /// The --solved file, if any.
    path: Option<&'a str>,
    /// Why a write failed.
    error: Option<String>,
}

impl CacheSaver<'_> {
    /// Writes `cache` to the --solved file, if there is one.
    fn save(&mut self, cache: &SolvedCache) {
        let Some(path) = self.path else { return };
        match std::fs::write(path, cache.to_bytes()) {
            Ok(()) => eprintln!("[train] {} solved positions written to {path}", cache.len()),
            Err(e) => self.error = Some(format!("cannot write {path}: {e}")),
        }
    }

    /// The run's end: an error if a write failed.
    fn result(self) -> Result<(), CliError> {
        match self.error {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The games and self-play records a run trains or labels on.
struct Training {
    /// WTHOR games, then Logistello's.
    games: Vec<LabelledGame>,
    /// Self-play records of `--data`.
    data: Vec<Record>,
}

/// Reads the archives and the self-play data, saying what was read.
fn read_training(args: &TrainArgs, options: &TrainOptions) -> Result<Training, CliError> {
    let archives = read_archives(
        args.wthor.as_deref().map(Path::new),
        args.logistello.as_deref().map(Path::new),
        args.max_games,
    )?;
    let data = crate::train::chunk::read_records(&args.data)?;
    if !args.data.is_empty() {
        eprintln!(
            "[train] {} self-play records from {} data path(s)",
            data.len(),
            args.data.len()
        );
    }
    let mut games = evaluation::wthor_games(&archives.wthor, &options.validation_years);
    let wthor_count = games.len();
    games.extend(evaluation::logbook_games(&archives.logistello));
    eprintln!(
        "[train] {} WTHOR games from {} files, {} Logistello games; validation years {:?}",
        wthor_count,
        archives.wthor_files,
        games.len() - wthor_count,
        options.validation_years
    );
    Ok(Training { games, data })
}

/// `--label-only`: solves the shard's positions into the cache and prints what is left to do.
fn label_only(
    shard: Shard,
    pool: &rayon::ThreadPool,
    training: &Training,
    options: &TrainOptions,
    cache: &mut SolvedCache,
    saver: &mut CacheSaver,
) -> Result<(), CliError> {
    let report = pool.install(|| {
        evaluation::label_shard(
            &training.games,
            &training.data,
            options,
            shard,
            cache,
            &mut |line| eprintln!("[train] {line}"),
            &mut |cache| saver.save(cache),
        )
    });
    if report.solved == 0 {
        // The file exists even when the shard had nothing to solve: the merge reads it.
        saver.save(cache);
    }
    let path = saver.path.unwrap_or("the --solved file");
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "shard {shard}: {} of the {} positions listed are this shard's: {} solved now, {} were in {path}",
        report.owned,
        report.listed,
        report.solved,
        report.owned - report.solved
    )?;
    match report.pending {
        Some(depth) => writeln!(
            out,
            "not finished: the positions to solve at {depth} empties depend on every shard's scores; merge the shards' files (--merge-solved), give each shard the merged file as its --solved file and run the shards again"
        )?,
        None => writeln!(
            out,
            "finished: merge the shards' files (--merge-solved), then train with the merged file as --solved"
        )?,
    }
    Ok(())
}

/// Prints the table of the stages, the exact-score errors and the file written.
fn print_training(
    stages: &[StageReport],
    exact: &ExactReport,
    out_path: &str,
    start: Instant,
) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "stage  empties  labels            train  train MAE  validation  valid MAE"
    )?;
    for s in stages {
        writeln!(
            out,
            "{:>5}  {:>2}-{:>2}    {:<16} {:>7}  {:>9.2}  {:>10}  {:>9.2}",
            s.stage,
            s.empties.0,
            s.empties.1,
            s.kinds
                .iter()
                .map(|(k, _)| k.name())
                .collect::<Vec<_>>()
                .join("+"),
            s.train,
            s.train_mae,
            s.validation,
            s.validation_mae
        )?;
    }
    writeln!(
        out,
        "exact scores at 24 empties, validation years: {} positions; MAE static {:.2} (hand-written {:.2}); depth 8 on {}: {:.2}",
        exact.positions, exact.static_mae, exact.hand_mae, exact.depth8_positions, exact.depth8_mae
    )?;
    writeln!(
        out,
        "wrote {out_path} in {:.0} s",
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
