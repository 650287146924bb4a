//! `iago match`: two engines play pairs of games; the live progress, the GGF file and the
//! summary (score, Elo, SPRT).

use super::args::CliError;
use super::games::{ConfigError, GameOptions, GgfOutput, count_arg, print_summary, progress_bar};
use crate::matchrun::game::{GameRecord, Outcome, color_index};
use crate::matchrun::spec::EngineSpec;
use crate::matchrun::stats::{self, Sprt};
use crate::matchrun::{MatchConfig, Progress, play_match, summary, summary_text};

/// The options of `iago match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine, given twice: "iago,depth=4", "name=NTest,cmd=./ntest x,dir=PATH,depth=4",
    /// "cmd=PROGRAM ARGS,proto=gtp". Keys: name, iago, cmd, dir, proto (nboard|gtp), depth,
    /// time (s/move), tc (BASE+INC), overhead (ms charged on its clock a move), threads, hash,
    /// eval, selectivity, move-overhead, book[=FILE|off], nobook. Scores are from the first
    /// engine's view.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Rounds of two games (one opening each).
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = count_arg)]
    pub rounds: usize,
    /// Stop when a sequential probability ratio test decides between elo0 and elo1 with error
    /// rates alpha and beta, e.g. --sprt 0 10 0.05 0.05.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// Openings, limits, timeouts, concurrency and output.
    #[command(flatten)]
    pub games: GameOptions,
}

/// Builds the match of a command line.
pub fn config_from_args(args: &MatchArgs) -> Result<MatchConfig, ConfigError> {
    let [first, second] = args.engines.as_slice() else {
        return Err(ConfigError::MatchEngines(args.engines.len()));
    };
    let mut engines = [EngineSpec::parse(first)?, EngineSpec::parse(second)?];
    if engines[0].name == engines[1].name && !engines[1].named {
        engines[1].name.push_str("-2");
    }
    let mut config = args.games.match_config(engines, args.rounds)?;
    if let Some(values) = &args.sprt {
        let &[elo0, elo1, alpha, beta] = values.as_slice() else {
            return Err(ConfigError::SprtArity);
        };
        config.sprt = Some(Sprt::new(elo0, elo1, alpha, beta)?);
    }
    Ok(config)
}

/// Runs `iago match`: the live progress bar on stderr (hidden when stderr is not a terminal),
/// the GGF file, and the summary (text or JSON) on stdout.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let config = config_from_args(args)?;
    let ggf = GgfOutput::open(args.games.ggf.as_ref())?;
    let bar = progress_bar(config.rounds * 2);
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    bar.set_message(format!("{} vs {}", names[0], names[1]));
    let on_game = |record: &GameRecord, progress: &Progress| {
        if let Outcome::Forfeited {
            loser,
            reason,
            message,
        } = &record.outcome
        {
            let name = &record.names[color_index(*loser)];
            bar.suspend(|| {
                log::warn!(
                    "game {}: {name} ({loser}) {}: {message}",
                    record.index + 1,
                    reason.describe()
                )
            });
        }
        ggf.write(record);
        let t = progress.tally;
        let mut message = format!(
            "{} {:+} ={} -{} ",
            names[0], t.wins as i64, t.draws, t.losses
        );
        if let Some(s) = t.score() {
            message.push_str(&format!("{:.1}%", 100.0 * s));
        }
        if let Some(e) = t.elo() {
            message.push_str(&format!(" Elo {}", stats::signed(e.elo)));
        }
        if let Some(llr) = progress.llr {
            message.push_str(&format!(" LLR {llr:.2}"));
        }
        bar.set_message(message);
        bar.set_position(progress.done as u64);
    };
    let report = play_match(&config, &on_game)?;
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
        args: MatchArgs,
    }

    fn parse(argv: &[&str]) -> Result<MatchArgs, String> {
        Line::try_parse_from(std::iter::once("match").chain(argv.iter().copied()))
            .map(|l| l.args)
            .map_err(|e| e.to_string())
    }

    fn config(argv: &[&str]) -> Result<MatchConfig, String> {
        config_from_args(&parse(argv)?).map_err(|e| e.to_string())
    }

    #[test]
    fn configuration_errors() {
        assert!(
            config(&["--engine", "iago"])
                .unwrap_err()
                .contains("two --engine")
        );
        assert!(
            config(&["--engine", "iago", "--engine", "bogus"])
                .unwrap_err()
                .contains("bad engine spec")
        );
        // Two unnamed Iagos get different names; two with the same name= are refused later.
        let c = config(&["--engine", "iago", "--engine", "iago"]).unwrap();
        assert_eq!(
            (c.engines[0].name.as_str(), c.engines[1].name.as_str()),
            ("Iago", "Iago-2")
        );
        let c = config(&["--engine", "name=X,iago", "--engine", "name=X,iago,depth=2"]).unwrap();
        assert_eq!(c.engines[1].name, "X");
        let two = ["--engine", "iago", "--engine", "iago"];
        let with = |more: &[&str]| config(&[&two[..], more].concat());
        assert!(with(&["--tc", "1:00+x"]).unwrap_err().contains("bad clock"));
        let e = with(&["--sprt", "5", "0", "0.05", "0.05"]).unwrap_err();
        assert!(e.contains("--sprt"), "{e}");
        let e = with(&["--openings", "/no/such/file"]).unwrap_err();
        assert!(e.contains("cannot read openings"), "{e}");
        for (option, value) in [
            ("--rounds", "0"),
            ("--concurrency", "0"),
            ("--depth", "0"),
            ("--depth", "61"),
            ("--move-time", "0"),
            ("--move-time", "x"),
            ("--move-timeout", "0"),
            ("--time-margin", "x"),
            ("--game-timeout", "x"),
        ] {
            let e = with(&[option, value]).unwrap_err();
            assert!(e.contains(option), "{option} {value}: {e}");
        }
        let c = with(&[
            "--depth",
            "3",
            "--move-time",
            "0:01.5",
            "--time-margin",
            "0",
        ])
        .unwrap();
        assert_eq!(c.limit.depth, Some(3));
        assert_eq!(
            c.limit.move_time,
            Some(std::time::Duration::from_millis(1500))
        );
        assert!(c.time_margin.is_zero());
        assert_eq!(c.move_timeout, std::time::Duration::from_secs(60));
    }
}
