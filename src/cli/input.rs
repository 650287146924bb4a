//! Where a subcommand's input comes from: a position or transcript on the command line, a
//! problem file, standard input, or the built-in FFO suite.

use thiserror::Error;

use super::args::{CliError, RulesArgError, RulesArgs};
use crate::board::rules::PositionError;
use crate::board::{Game, Rules, State};
use crate::records::problems::{Problem, ProblemError};
use crate::records::{PasteError, PasteKind, Pasted, read_paste};

/// FFO #40–#49, compiled in: what `iago solve` and `iago analyze` read without a file.
pub const BUILTIN_SUITE: &str = include_str!("ffo40-49.obf");

/// The FFO number of the first position of [`BUILTIN_SUITE`].
pub const BUILTIN_FIRST_INDEX: usize = 40;

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

/// A board string of 16, 36 or 64 squares and the side to move, under the flags' rules.
pub(crate) fn read_board(args: &RulesArgs, input: &str) -> Result<(Rules, Game), CliError> {
    let game = Game::from_board(input, |size| Ok::<_, CliError>(args.rules_for(size)?))?;
    Ok((game.rules(), game))
}

/// A position read from the command line as a paste box reads it ([`read_paste`]): a board
/// string of 16, 36 or 64 squares and the side to move (`--size` must agree), a transcript
/// played from the start of the flags' rules (the start itself for a blank one), or a GGF game
/// under the rules of its `TY` (flags that name others are an error). A bad board string or
/// transcript is reported as the notation words it (`move 3 (a1) by Black is illegal: …`).
pub(crate) fn read_position(args: &RulesArgs, input: &str) -> Result<Pasted, CliError> {
    let rules = args.rules()?;
    if input.trim().is_empty() {
        return Ok(Pasted {
            game: Game::new(rules),
            players: ["Black".into(), "White".into()],
            tags: Vec::new(),
            kind: PasteKind::Transcript,
        });
    }
    let pasted = read_paste(input, rules).map_err(|e| -> CliError {
        match e {
            PasteError::Transcript { error, .. } => error.into(),
            PasteError::Board { error, .. } => error.into(),
            e => e.into(),
        }
    })?;
    let played = pasted.game.rules();
    match pasted.kind {
        PasteKind::Board => {
            args.rules_for(played.size)?;
        }
        PasteKind::Ggf if !args.is_default() && played != rules => {
            return Err(format!(
                "the GGF game is played under {played} (a GGF game takes its rules from its TY \
                 tag), not {rules}: leave out --rules, --discs and --size"
            )
            .into());
        }
        _ => {}
    }
    Ok(pasted)
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
