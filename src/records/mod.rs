//! Game records, read (and GGF written) by one module for every user: the command line, the
//! protocols, the training tools and bindings.
//!
//! - [`ggf`]: GGF games, the format of NBoard, the game servers and `iago match`.
//! - [`games`]: files of games, GGF and transcripts mixed, each read on its own.
//! - [`wthor`]: the French federation's WTHOR archives (`.wtb`).
//! - [`logbook`]: Logistello's game collection.
//! - [`archives`]: WTHOR directories and logbooks as the training tools read them.
//! - [`problems`]: problem files: OBF lines, board strings and transcripts, one position a line.
//! - [`paste`]: what a person pastes into a box (a transcript, a board string, one GGF game)
//!   read into a game, alike for `iago show`, the console's `board`, the web board and Python.
//!
//! Board strings, transcripts and OBF lines themselves are read by [`crate::board::notation`].

pub mod archives;
pub mod games;
pub mod ggf;
pub mod logbook;
pub mod paste;
pub mod problems;
pub mod wthor;

pub use archives::{ArchiveError, Archives, read_archives};
pub use games::{GameCursor, GameError, GameStream, PlayedGame, read_games};
pub use ggf::GgfGame;
pub use paste::{PasteError, PasteKind, Pasted, read_paste};
pub use problems::{Problem, ProblemError, read_problems};
