//! `iago perft`: leaf counts of the game tree to each depth, and the speed.

use std::io::Write;
use std::time::Instant;

use super::args::{CliError, RulesArgs, threads_arg};
use super::input::read_board;
use crate::board::Game;
use crate::perft::{PassRule, perft_parallel, perft_rules};

/// The options of `iago perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// The deepest depth to count (each depth from 1 is printed).
    pub depth: u32,
    /// A forced pass does not use a ply (the default: it does, as in Edax).
    #[arg(long)]
    pub pass_free: bool,
    /// Start from this position instead: 64 squares a1..h8 (X, O, -) and the side to move,
    /// e.g. "---------------------------OX------XO--------------------------- X" (16 or 36
    /// squares for 4x4 / 6x6).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = threads_arg)]
    pub threads: usize,
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Counts and prints the leaves at each depth from 1 to `--depth`.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let PerftArgs {
        depth,
        pass_free,
        threads,
        ..
    } = *args;
    let (rules, game) = match &args.position {
        Some(text) => read_board(&args.rules, text).map_err(|e| format!("bad --position: {e}"))?,
        None => {
            let rules = args.rules.rules()?;
            (rules, Game::new(rules))
        }
    };
    let state = game.state();
    let rule = if pass_free {
        PassRule::Free
    } else {
        PassRule::Ply
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "perft {rules} from {}, {}, {threads} thread{}",
        rules.board_string(&state.position),
        if pass_free {
            "passes are free"
        } else {
            "a pass uses a ply"
        },
        if threads == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "{:>5} {:>16} {:>11} {:>16}",
        "depth", "leaves", "time", "leaves/s"
    )?;
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = pool.install(|| {
            if rules.is_standard() {
                perft_parallel(&state.board(), d, rule)
            } else {
                perft_rules(&rules, &state, d, rule)
            }
        });
        let secs = start.elapsed().as_secs_f64();
        let speed = if secs > 0.001 {
            format!("{:.1} M", leaves as f64 / secs / 1e6)
        } else {
            "-".to_string()
        };
        writeln!(out, "{d:>5} {leaves:>16} {secs:>9.3} s {speed:>16}")?;
        out.flush()?;
    }
    Ok(())
}
