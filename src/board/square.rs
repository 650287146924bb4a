//! Squares (`a1`..`h8`) and moves (a square or a pass).
//!
//! Othello notation: the column letter `a`..`h` then the row digit `1`..`8`; a1 is the top-left
//! corner and rows count downwards. Index = `row * 8 + col`, so a1 = 0, h1 = 7, a8 = 56, h8 = 63.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the 64 squares, index `row * 8 + col` (a1 = 0, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square or move could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{text}' is not a square or a pass: {reason}")]
pub struct ParseMoveError {
    /// The text that was rejected.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Square {
    /// The square with index `index` (0..=63), or `None` when out of range.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index`; `index` must be below 64 (checked in debug builds).
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square at `row` and `col` (both 0..=7, row 0 is the top row "1").
    #[inline]
    pub const fn from_coords(row: u8, col: u8) -> Option<Square> {
        if row < 8 && col < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The index, `row * 8 + col`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 (top, "1") to 7 (bottom, "8").
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The column, 0 ("a") to 7 ("h").
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `a1`..`h8` in either case.
    pub fn parse(text: &str) -> Result<Square, ParseMoveError> {
        match Move::parse(text)? {
            Move::Play(sq) => Ok(sq),
            Move::Pass => Err(ParseMoveError {
                text: text.to_string(),
                reason: "a pass is not a square",
            }),
        }
    }
}

impl fmt::Display for Square {
    /// Lower case, e.g. `f5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'a' + self.col()) as char;
        let row = (b'1' + self.row()) as char;
        write!(f, "{col}{row}")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Square::parse(s)
    }
}

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a disc on this square.
    Play(Square),
    /// Pass: the side to move has no legal move.
    Pass,
}

impl Move {
    /// Parses a square (`a1`..`h8`, either case) or a pass (`PA`, `pass`, `--`, and Edax's `PS`,
    /// in any case).
    pub fn parse(text: &str) -> Result<Move, ParseMoveError> {
        let error = |reason| ParseMoveError {
            text: text.to_string(),
            reason,
        };
        let bytes = text.as_bytes();
        if ["pa", "pass", "ps", "--"]
            .iter()
            .any(|p| text.eq_ignore_ascii_case(p))
        {
            return Ok(Move::Pass);
        }
        if bytes.len() != 2 {
            return Err(error(
                "expected a column a-h and a row 1-8, like f5, or PA for a pass",
            ));
        }
        let col = bytes[0].to_ascii_lowercase();
        let row = bytes[1];
        if !(b'a'..=b'h').contains(&col) {
            return Err(error("the column must be a letter a-h"));
        }
        if !(b'1'..=b'8').contains(&row) {
            return Err(error("the row must be a digit 1-8"));
        }
        Ok(Move::Play(Square((row - b'1') * 8 + (col - b'a'))))
    }

    /// The square, unless this is a pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }

    /// Upper-case form as NBoard writes it: `F5`, `PA`.
    pub fn to_uppercase(self) -> String {
        self.to_string().to_ascii_uppercase()
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// `f5` for a square, `PA` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
            assert_eq!(Square::parse(&sq.to_string().to_uppercase()), Ok(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("a8").unwrap().index(), 56);
        assert_eq!(Square::parse("H8").unwrap().index(), 63);
    }

    #[test]
    fn passes() {
        for text in ["PA", "pa", "pass", "PASS", "Pass", "--", "PS", "ps"] {
            assert_eq!(Move::parse(text), Ok(Move::Pass), "{text}");
        }
        assert_eq!(Move::Pass.to_string(), "PA");
        assert_eq!(Move::parse("f5").unwrap().to_uppercase(), "F5");
    }

    #[test]
    fn rejects_bad_squares_with_a_reason() {
        for text in ["", "i1", "a9", "a0", "f55", "5f", "é1", "pas"] {
            let err = Move::parse(text).unwrap_err();
            assert_eq!(err.text, text);
        }
        assert!(Square::parse("PA").is_err());
        assert_eq!(
            Move::parse("a9").unwrap_err().to_string(),
            "'a9' is not a square or a pass: the row must be a digit 1-8"
        );
    }
}
