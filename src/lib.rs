//! # Iago — an Othello engine
//!
//! Bitboard board representation relative to the side to move, legal-move generation and flips
//! by branch-free shifts, notation (squares, transcripts, 64-character boards, OBF), and perft.
//!
//! ```
//! use iago::board::{Board, Move, Position};
//! use iago::perft::{perft, PassRule};
//!
//! let start = Position::start();
//! assert_eq!(start.board.legal_moves().count(), 4);
//! let after = start.try_play(Move::parse("f5").unwrap()).unwrap();
//! assert_eq!(after.board.player_count(), 1); // White has one disc left
//! assert_eq!(perft(&Board::start(), 9, PassRule::Ply), 3_005_288);
//! ```
//!
//! Modules:
//! - [`batch`]: batch work split into shards (`--shard I/N`) that merge into one run's result.
//! - [`board`]: bitboards, squares, moves, positions, rules, symmetries, notation.
//! - [`perft`]: leaf counting under both pass conventions, sequential and parallel.
//! - [`engine`]: the engine facade (game, search, evaluation, book) that protocols drive.
//! - [`search`]: the midgame search, the exact solver, the hash table, time limits.
//! - [`eval`]: the trained pattern evaluation and the hand-written one.
//! - [`book`]: the opening book.
//! - `train` (internal, behind `iago train`, `iago datagen` and `iago probcut-fit`): game
//!   archives, self-play training data, and the training of the evaluation and of ProbCut.
//! - [`protocol`]: NBoard, GTP and GGF.
//! - [`matchrun`]: engine-vs-engine matches (`iago match`): openings, Elo, SPRT, GGF.
//!
//! The command line of the `iago` binary is not part of the API: [`run_command_line`] runs it.

#![deny(missing_docs)]

pub mod batch;
pub mod board;
pub mod book;
mod cli;
pub mod engine;
pub mod eval;
pub mod matchrun;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod solve;
pub(crate) mod train;

pub use board::{Board, Color, Game, Move, Position, Rules, Square, State};
pub use engine::{Engine, EngineOptions, SearchRequest, StopHandle};
pub use search::{Bound, Limits, SearchResult};

/// The `iago` binary after its logging is set up: parses the process's arguments, runs the
/// subcommand and gives the exit status (2 with a one-line message on standard error for an
/// error; a closed output pipe, as in `iago … | head`, is no error).
pub fn run_command_line() -> std::process::ExitCode {
    use clap::Parser;
    use std::process::ExitCode;
    let cli = cli::Cli::parse();
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
