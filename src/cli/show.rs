//! `iago show`: a position as a grid, with its counts, legal moves and result.

use std::io::Write;

use super::args::{CliError, RulesArgs};
use super::input::read_position;
use crate::board::notation::excerpt;
use crate::board::{Bitboard, Color};
use crate::records::PasteKind;

/// The options of `iago show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The position (a board string or an OBF line), the transcript, or a GGF game (played
    /// under its own rules); several words are joined with spaces.
    #[arg(required = true, num_args = 1.., value_name = "POSITION|TRANSCRIPT|GGF", allow_hyphen_values = true)]
    pub input: Vec<String>,
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Prints the position (a board string, a transcript from the start, or a GGF game).
pub fn run(args: &ShowArgs) -> Result<(), CliError> {
    let input = args.input.join(" ");
    let pasted = read_position(&args.rules, &input)?;
    let game = &pasted.game;
    let rules = game.rules();
    let state = game.state();
    let position = state.position;
    let board = position.board;
    let mut out = std::io::stdout().lock();
    if !rules.is_standard() {
        writeln!(out, "Rules: {rules}")?;
    }
    if pasted.kind == PasteKind::Ggf {
        let [black, white] = &pasted.players;
        writeln!(
            out,
            "Players: {} (Black), {} (White)",
            excerpt(black),
            excerpt(white)
        )?;
    }
    writeln!(out, "{}", rules.grid(&state, true))?;
    let empty = rules.empty_count(&board);
    writeln!(
        out,
        "Black (X) {} discs, White (O) {} discs, {empty} empty",
        position.black().count(),
        position.white().count(),
    )?;
    if rules.discs_per_player.is_some() {
        writeln!(
            out,
            "Discs left: Black {}, White {}",
            state.left_of(Color::Black),
            state.left_of(Color::White)
        )?;
    }
    if pasted.kind != PasteKind::Board {
        writeln!(
            out,
            "Moves: {} ({})",
            game.moves().len(),
            game.transcript(true)
        )?;
    }
    if let Some(outcome) = game.outcome() {
        writeln!(
            out,
            "Game over: {outcome} (Black {:+}, empties to the winner)",
            outcome.score_for_black
        )?;
    } else if game.must_pass() {
        writeln!(out, "{} to move must pass", position.to_move)?;
    } else {
        let moves: Vec<String> = Bitboard(game.legal_moves())
            .iter()
            .map(|s| s.to_string())
            .collect();
        writeln!(
            out,
            "{} to move; legal moves ({}): {}",
            position.to_move,
            moves.len(),
            moves.join(" ")
        )?;
    }
    writeln!(out, "Board: {}", rules.board_string(&position))?;
    Ok(())
}
