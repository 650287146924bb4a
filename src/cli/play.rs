//! `iago play`, and plain `iago` at a terminal: the interactive console.

use std::io::IsTerminal;
use std::time::Duration;

use super::args::{CliError, EngineArgs, RulesArgs};
use crate::console::{Input, Level, Mode, Settings, Style};

/// The options of `iago play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The engine (`--depth` and `--time` set the level at the start).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Draw the board in plain ASCII, without colours (as for a pipe).
    #[arg(long)]
    pub ascii: bool,
    /// Who Iago plays at the start: black, white, both or neither.
    #[arg(long, default_value = "white", value_name = "WHO", value_parser = mode_arg)]
    pub mode: Mode,
}

impl PlayArgs {
    /// The console of plain `iago` at a terminal: the engine's options and the rules given.
    pub fn at_terminal(engine: EngineArgs, rules: RulesArgs) -> PlayArgs {
        PlayArgs {
            engine,
            rules,
            ascii: false,
            mode: Mode::White,
        }
    }
}

fn mode_arg(text: &str) -> Result<Mode, String> {
    Mode::parse(&text.to_ascii_lowercase())
        .ok_or_else(|| "expected black, white, both or neither".to_string())
}

/// Runs the console on standard input and output: line editing, colours and progress where
/// both are terminals; plain lines otherwise.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let mut engine = args.engine.engine()?;
    if rules != engine.rules() {
        engine.set_rules(rules)?;
    }
    let terminal_in = std::io::stdin().is_terminal();
    let terminal_out = std::io::stdout().is_terminal();
    let input = if terminal_in && terminal_out {
        Input::terminal()
    } else {
        Input::stdin()
    };
    crate::console::catch_interrupts(!input.is_terminal());
    let level = match args.engine.time {
        _ if !args.engine.level.is_top() => Level::Named(args.engine.level),
        Some(secs) => Level::Time(Duration::from_secs_f64(secs)),
        None => Level::Depth(args.engine.depth.clamp(1, 60)),
    };
    let settings = Settings {
        level,
        mode: args.mode,
        style: Style::detect(args.ascii, terminal_out),
        progress: terminal_out,
    };
    crate::console::run(engine, settings, input, Box::new(std::io::stdout()));
    Ok(())
}
