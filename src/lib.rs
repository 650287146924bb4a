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
//! - [`board`]: bitboards, squares, moves, positions, rules, symmetries, notation.
//! - [`perft`]: leaf counting under both pass conventions, sequential and parallel.
//! - [`cli`]: the command-line interface of the `iago` binary.

#![deny(missing_docs)]

pub mod board;
pub mod book;
pub mod cli;
mod cli_analyze;
mod cli_book;
mod cli_solve;
pub mod engine;
pub mod eval;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod solve;
pub mod train;
