//! The board: bitboards, squares and moves, positions, rules, symmetries and notation.

pub mod bitboard;
pub mod game;
pub(crate) mod last_flip;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;
pub mod square;
pub(crate) mod stability;
pub mod symmetry;

pub use bitboard::Bitboard;
pub use game::{Game, Outcome};
pub use notation::{ObfEntry, parse_obf_line, parse_position, parse_sized_position};
pub use position::{Board, Color, IllegalMoveError, Position};
pub use rules::{Rules, State};
pub use square::{Move, ParseMoveError, Square};
pub use symmetry::Symmetry;
