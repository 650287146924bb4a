//! The 8 symmetries of the square board (the dihedral group D4) on bitboards and squares.

use super::square::Square;

/// One of the 8 symmetries of the board. `(row, col)` maps as given for each variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Symmetry {
    /// `(r, c) → (r, c)`.
    Identity,
    /// Left-right mirror: `(r, c) → (r, 7-c)`.
    MirrorColumns,
    /// Top-bottom mirror: `(r, c) → (7-r, c)`.
    MirrorRows,
    /// Half turn: `(r, c) → (7-r, 7-c)`.
    Rotate180,
    /// Reflection in the a1–h8 diagonal: `(r, c) → (c, r)`.
    Transpose,
    /// Reflection in the h1–a8 diagonal: `(r, c) → (7-c, 7-r)`.
    AntiTranspose,
    /// Quarter turn clockwise: `(r, c) → (c, 7-r)`.
    Rotate90,
    /// Quarter turn anticlockwise: `(r, c) → (7-c, r)`.
    Rotate270,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub const fn apply_bits(self, x: u64) -> u64 {
        match self {
            Symmetry::Identity => x,
            Symmetry::MirrorColumns => mirror_columns(x),
            Symmetry::MirrorRows => x.swap_bytes(),
            Symmetry::Rotate180 => mirror_columns(x.swap_bytes()),
            Symmetry::Transpose => transpose(x),
            Symmetry::AntiTranspose => anti_transpose(x),
            Symmetry::Rotate90 => mirror_columns(transpose(x)),
            Symmetry::Rotate270 => transpose(x).swap_bytes(),
        }
    }

    /// Applies the symmetry to a square.
    pub const fn apply_square(self, sq: Square) -> Square {
        let (r, c) = (sq.row(), sq.col());
        let (r2, c2) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::MirrorColumns => (r, 7 - c),
            Symmetry::MirrorRows => (7 - r, c),
            Symmetry::Rotate180 => (7 - r, 7 - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (7 - c, 7 - r),
            Symmetry::Rotate90 => (c, 7 - r),
            Symmetry::Rotate270 => (7 - c, r),
        };
        Square::from_index_unchecked(r2 * 8 + c2)
    }
}

/// `(r, c) → (r, 7-c)`: reverses the bits of every byte.
#[inline]
pub(crate) const fn mirror_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// `(r, c) → (c, r)` by three delta swaps.
#[inline]
pub(crate) const fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// `(r, c) → (7-c, 7-r)`: the transpose of the half turn.
#[inline]
const fn anti_transpose(x: u64) -> u64 {
    transpose(mirror_columns(x.swap_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply_bits_slow(sym: Symmetry, x: u64) -> u64 {
        Square::all()
            .filter(|sq| x >> sq.index() & 1 != 0)
            .fold(0, |acc, sq| acc | 1 << sym.apply_square(sq).index())
    }

    #[test]
    fn bit_transforms_match_square_transforms() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..200 {
            for sym in Symmetry::ALL {
                assert_eq!(sym.apply_bits(x), apply_bits_slow(sym, x), "{sym:?} {x:#x}");
            }
            x = x.rotate_left(7).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D;
        }
    }

    #[test]
    fn inverse_undoes() {
        for sym in Symmetry::ALL {
            for sq in Square::all() {
                assert_eq!(sym.inverse().apply_square(sym.apply_square(sq)), sq);
            }
        }
    }

    #[test]
    fn symmetries_are_distinct() {
        let a1_b1 = 0b11u64;
        let images: std::collections::HashSet<u64> =
            Symmetry::ALL.iter().map(|s| s.apply_bits(a1_b1)).collect();
        assert_eq!(images.len(), 8);
    }
}
