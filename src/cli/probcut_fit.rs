//! `iago probcut-fit`: fits the Multi-ProbCut parameters on positions sampled from WTHOR
//! archives and prints the two tables of `src/search/probcut.rs`.

use std::io::Write;
use std::time::Instant;

use super::args::{CliError, EvalArg, ThreadsArg};

/// The options of `iago probcut-fit`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("threads", |a| a.help("Worker threads (one position per thread)")))]
pub struct ProbcutFitArgs {
    /// WTHOR `.wtb` files.
    #[arg(required = true, value_name = "WTB")]
    pub files: Vec<String>,
    /// Positions to sample.
    #[arg(long, default_value_t = 600, value_name = "N")]
    pub positions: usize,
    /// Deepest full-width search per position.
    #[arg(long, default_value_t = 11, value_name = "D")]
    pub max_depth: u32,
    /// Worker threads (one position per thread).
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Seed of the position sampler.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
}

/// Samples the positions, searches them at every depth, fits and prints the two tables.
pub fn run(args: &ProbcutFitArgs) -> Result<(), CliError> {
    use crate::records::wthor;
    use crate::train::probcut_fit;
    let ProbcutFitArgs {
        positions,
        max_depth,
        seed,
        ..
    } = *args;
    let eval = args.eval.load()?;
    let mut games = Vec::new();
    for file in &args.files {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        games.extend(wthor::parse(&bytes).map_err(|e| format!("{file}: {e}"))?);
    }
    let sample = probcut_fit::sample_positions(&games, positions, seed);
    log::info!("{} games, {} positions sampled", games.len(), sample.len());
    let bar = indicatif::ProgressBar::new(sample.len() as u64);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.threads.max(1))
        .build()?;
    let start = Instant::now();
    let samples = pool.install(|| probcut_fit::collect(&sample, &eval, max_depth, &|| bar.inc(1)));
    bar.finish_and_clear();
    let table = probcut_fit::fit(&samples, 30);
    let static_table = probcut_fit::fit_static(&samples, 30);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "// {} positions from {} games (seed {seed}), full-width depths 1-{max_depth}, {} evaluation, {:.0} s",
        samples.len(),
        games.len(),
        eval.name(),
        start.elapsed().as_secs_f64()
    )?;
    writeln!(out, "// FITTED")?;
    write!(out, "{}", probcut_fit::render(&table))?;
    writeln!(out, "// STATIC_FITTED")?;
    write!(out, "{}", probcut_fit::render_static(&static_table))?;
    Ok(())
}
