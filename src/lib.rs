//! # Iago — an Othello engine
//!
//! Rules and notation ([`board`]: bitboards relative to the side to move, moves, positions,
//! transcripts, OBF lines, the rule variants), [`perft`], the engine ([`engine::Engine`]: made
//! from one [`EngineOptions`] value, a game, the search with its trained evaluation and
//! opening book, the exact solver) and game records ([`records`]: GGF, WTHOR, Logistello's
//! games, problem files). Scores are disc differences for the side to move.
//!
//! ```
//! use iago::board::{Game, Move, Rules};
//! use iago::engine::{Engine, EngineOptions, SearchRequest};
//! use iago::search::{Bound, Limits, SolveMode};
//!
//! // A game from the start, with the moves of a transcript.
//! let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 16, ..EngineOptions::analysis() })?;
//! engine.set_game(Game::from_transcript(Rules::OTHELLO, Rules::OTHELLO.start_position(), "f5d6c3")?);
//! engine.play(Move::parse("d3")?)?;
//! assert_eq!(engine.game().position().board.legal_moves().count(), 6);
//!
//! // A search of the game's position, four plies deep, without the book.
//! let result = engine.search(&SearchRequest::analyze(Limits::depth(4)), &mut |_| {});
//! assert!(engine.game().position().board.legal_moves().contains(result.best_move.square().unwrap()));
//!
//! // An exact solve of an endgame: FFO #1, Black to move wins by 18 discs.
//! let ffo1 = iago::board::parse_position(
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
//! )?;
//! let state = Rules::OTHELLO.state(ffo1)?;
//! let solved = engine.solve(Rules::OTHELLO, &state, SolveMode::Exact)?;
//! assert_eq!(solved.solution.score, 18);
//! assert_eq!(solved.solution.pv[0], Move::parse("g8")?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules:
//! - [`board`]: bitboards, squares, moves, positions, rules, symmetries, notation, move
//!   generation.
//! - [`perft`]: leaf counting under both pass conventions, sequential and parallel.
//! - [`engine`]: the engine (game, search, solve, evaluation, book) that programs drive.
//! - [`search`]: what a search gives (results, bounds, limits, selectivities, solutions).
//! - [`eval`]: the trained pattern evaluation, the hand-written one, and the incremental state
//!   a search carries.
//! - [`book`]: opening books (load, save, probe).
//! - [`review`]: the per-move losses of played games (`iago review`).
//! - [`records`]: game records (GGF, WTHOR, Logistello's games, files of games and of
//!   problems), read, and GGF written.
//!
//! Protocol sessions, the interactive console, the match runner, batch work, training and the command line belong to the
//! `iago` binary and are not part of the API; [`run_command_line`] runs that binary.

#![deny(missing_docs)]

pub(crate) mod batch;
pub mod board;
pub mod book;
mod cli;
pub(crate) mod console;
pub mod engine;
pub mod eval;
pub(crate) mod matchrun;
pub mod perft;
pub(crate) mod protocol;
pub mod records;
pub mod review;
pub(crate) mod rng;
pub mod search;
pub(crate) mod train;
#[cfg(feature = "web")]
pub(crate) mod web;

pub use board::{Board, Color, Game, Move, Position, Rules, Square, State};
pub use engine::{Engine, EngineOptions, SearchRequest, StopHandle};
pub use search::{Bound, Limits, SearchResult, SolveMode};

/// The `iago` binary after its logging is set up: parses the process's arguments, runs the
/// subcommand and gives the exit status (2 with a one-line message on standard error for an
/// error; a closed output pipe, as in `iago … | head`, is no error).
pub fn run_command_line() -> std::process::ExitCode {
    use std::process::ExitCode;
    let cli = cli::parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("iago: error: {err}");
            ExitCode::from(2)
        }
    }
}
