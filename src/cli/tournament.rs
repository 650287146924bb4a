//! `iago tournament`: a round robin of matches; the progress, the GGF file and the standings.

use std::collections::BTreeSet;

use super::args::CliError;
use super::games::{ConfigError, GameOptions, GgfOutput, count_arg, print_summary, progress_bar};
use crate::matchrun::Progress;
use crate::matchrun::game::{GameRecord, Outcome, color_index};
use crate::matchrun::spec::EngineSpec;
use crate::matchrun::tournament::{TournamentConfig, play_tournament, summary, summary_text};

/// The options of `iago tournament`.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    /// An engine, given at least twice (same specs as `iago match`): "iago,depth=4",
    /// "name=NTest,cmd=./ntest x,dir=PATH,depth=4", "cmd=PROGRAM ARGS,proto=gtp".
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Rounds of two games for every pair of engines.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = count_arg)]
    pub rounds: usize,
    /// Openings, limits, timeouts, concurrency and output, as for `iago match`.
    #[command(flatten)]
    pub games: GameOptions,
}

/// Builds the tournament of a command line.
pub fn config_from_args(args: &TournamentArgs) -> Result<TournamentConfig, ConfigError> {
    if args.engines.len() < 2 {
        return Err(ConfigError::TournamentEngines(args.engines.len()));
    }
    let mut engines = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for e in engines.iter().filter(|e| e.named) {
        if !taken.insert(e.name.clone()) {
            return Err(ConfigError::SameName(e.name.clone()));
        }
    }
    for e in engines.iter_mut().filter(|e| !e.named) {
        if taken.contains(&e.name) {
            let base = e.name.clone();
            let mut n = 2;
            while taken.contains(&format!("{base}-{n}")) {
                n += 1;
            }
            e.name = format!("{base}-{n}");
        }
        taken.insert(e.name.clone());
    }
    // The shared settings are set up (and checked) exactly as `iago match` does; each pairing
    // is a match with the base's settings, the tournament writes the GGF and the summary itself.
    let base = args
        .games
        .match_config([engines[0].clone(), engines[1].clone()], args.rounds)?;
    Ok(TournamentConfig { engines, base })
}

/// Runs `iago tournament`: a progress bar on stderr (hidden when stderr is not a terminal), the
/// GGF file, and the standings (text or JSON) on stdout.
pub fn run(args: &TournamentArgs) -> Result<(), CliError> {
    let config = config_from_args(args)?;
    let ggf = GgfOutput::open(args.games.ggf.as_ref())?;
    let total = config
        .pairings()
        .len()
        .saturating_mul(config.base.rounds)
        .saturating_mul(2);
    let bar = progress_bar(total);
    let on_game = |_: [usize; 2], record: &GameRecord, progress: &Progress| {
        if let Outcome::Forfeited {
            loser,
            reason,
            message,
        } = &record.outcome
        {
            let name = &record.names[color_index(*loser)];
            bar.suspend(|| {
                log::warn!(
                    "{} vs {} game {}: {name} ({loser}) {}: {message}",
                    record.names[0],
                    record.names[1],
                    record.index + 1,
                    reason.describe()
                )
            });
        }
        ggf.write(record);
        bar.set_message(format!(
            "{} vs {} {}/{}",
            record.names[0], record.names[1], progress.done, progress.total
        ));
        bar.inc(1);
    };
    let report = play_tournament(&config, &on_game)?;
    bar.finish_and_clear();
    print_summary(
        args.games.json,
        &summary(&report),
        || summary_text(&report, &config),
        ggf,
    )
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        args: TournamentArgs,
    }

    fn config(argv: &[&str]) -> Result<TournamentConfig, String> {
        let args = Line::try_parse_from(std::iter::once("tournament").chain(argv.iter().copied()))
            .map_err(|e| e.to_string())?
            .args;
        config_from_args(&args).map_err(|e| e.to_string())
    }

    #[test]
    fn configuration() {
        assert!(
            config(&["--engine", "iago"])
                .unwrap_err()
                .contains("at least two")
        );
        assert!(
            config(&["--engine", "iago", "--engine", "iago", "--engine", "bogus"])
                .unwrap_err()
                .contains("bad engine spec")
        );
        assert!(
            config(&[
                "--engine",
                "name=X,iago",
                "--engine",
                "iago",
                "--engine",
                "name=X,iago"
            ])
            .unwrap_err()
            .contains("two engines are named X")
        );
        let c = config(&[
            "--engine",
            "iago",
            "--engine",
            "name=Iago-2,iago",
            "--engine",
            "iago",
        ])
        .unwrap();
        let names: Vec<&str> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Iago", "Iago-2", "Iago-3"]);
        assert_eq!(c.pairings(), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(c.games_per_engine(), 4);
        let two = ["--engine", "iago", "--engine", "iago"];
        assert!(config(&[&two[..], &["--rounds", "0"]].concat()).is_err());
        assert!(config(&[&two[..], &["--concurrency", "0"]].concat()).is_err());
        let c = config(&[&two[..], &["--rounds", "3", "--concurrency", "2"]].concat()).unwrap();
        assert_eq!((c.base.rounds, c.base.concurrency), (3, 2));
    }
}
