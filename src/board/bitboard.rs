//! `Bitboard`: a set of squares as a `u64`, bit `row * 8 + col` (a1 = bit 0, top-left; h8 = bit 63).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares. Bit `i` is the square with index `i` (see [`Square`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The squares in increasing index order (a1, b1, …, h8).
    #[inline]
    pub const fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = SquareIter;

    #[inline]
    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Lists the squares, e.g. `Bitboard[d3, c4]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard")?;
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The four 4×4 quadrants of the 8×8 board.
pub(crate) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The union of the `quadrants` (the four of [`QUADRANTS`], or a smaller board's) holding an
/// odd number of `empties`: parity ordering plays there first, since whoever moves last in a
/// region gains the most.
#[inline]
pub(crate) fn odd_quadrants(quadrants: &[u64; 4], empties: u64) -> u64 {
    let mut odd = 0;
    for &q in quadrants {
        odd |= q & (((empties & q).count_ones() & 1) as u64).wrapping_neg();
    }
    odd
}

impl fmt::Display for Bitboard {
    /// An 8×8 grid, `X` for a member square and `-` otherwise, a1 top-left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let bit = self.0 >> (row * 8 + col) & 1;
                f.write_str(if bit != 0 { "X" } else { "-" })?;
            }
            if row < 7 {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order() {
        let b = Bitboard(0b1010_0001);
        let squares: Vec<String> = b.iter().map(|s| s.to_string()).collect();
        assert_eq!(squares, ["a1", "f1", "h1"]);
        assert_eq!(b.iter().len(), 3);
    }

    #[test]
    fn set_operations() {
        let d3 = Square::parse("d3").unwrap();
        let b = Bitboard::EMPTY.with(d3);
        assert!(b.contains(d3));
        assert_eq!(b.count(), 1);
        assert_eq!(b.first(), Some(d3));
        assert!(b.without(d3).is_empty());
        assert_eq!((b | Bitboard::CORNERS).count(), 5);
        assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
    }

    #[test]
    fn odd_quadrants_are_those_with_an_odd_count() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let odd = odd_quadrants(&QUADRANTS, x);
            for q in QUADRANTS {
                let expected = if (x & q).count_ones() % 2 == 1 { q } else { 0 };
                assert_eq!(odd & q, expected, "{x:#x}");
            }
        }
        assert_eq!(odd_quadrants(&QUADRANTS, 0), 0);
        assert_eq!(odd_quadrants(&QUADRANTS, 1), QUADRANTS[0]);
    }
}
