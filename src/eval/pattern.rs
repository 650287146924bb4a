//! The pattern evaluation: a sum of table weights over 70 pattern instances (edges with their
//! X-squares and with C2 and F2, corner 3×3 and 2×5 blocks, corner triangles, L shapes, kites
//! and diagonals, edge blocks, rows, columns and diagonals), count tables (mobility, potential
//! mobility and stable discs of each side, discs of the side to move, parity of the empties and
//! of the quadrants, and who can play in the odd quadrants), 12 move-pattern instances (which
//! squares of each edge and of the 2×4 blocks at the corners each side can play), and the
//! mobility and potential-mobility differences and a constant, with one weight set per game
//! stage (4 empties each) and mobility context (whether the side to move has more legal moves
//! than its opponent), in stages 3-5 also per number of empties.
//! Symmetric instances of a pattern share one table.
//!
//! An instance is its base pattern seen through one of the 8 symmetries, so that corresponding
//! squares of all instances map to the same ternary digit. With BMI2 each instance's squares are
//! read from the board by `pext` and a small table puts their bits in digit order; without it,
//! the board is transformed by the inverse symmetry and the base squares are read from it.

use crate::board::Board;
use crate::board::bitboard::QUADRANTS;
use crate::board::movegen::{moves, potential_moves};
use crate::board::stability::stable_discs_both;
use crate::board::symmetry::Symmetry;

mod read;

use read::for_each_move_index;
pub use read::{for_each_index, instance_layout};

/// Game stages, by their lowest empties: four empties each. (Finer stages were measured: one
/// per number of empties from 13 to 24 lowered the static and the depth-8 errors at 24 empties
/// on the validation games, but played worse at depth 6; see
/// docs/lab/2026-11-22-trained-evaluation.md.)
const STAGE_LOWS: [u32; 15] = [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57];

/// Game stages: empties 1-4 are stage 0, …, 57-60 stage 14.
pub const STAGES: usize = STAGE_LOWS.len();

/// The stage of every number of empties (0 counts as 1).
const STAGE_OF: [u8; 61] = {
    let mut out = [0u8; 61];
    let mut e = 1;
    let mut st = 0;
    while e <= 60 {
        if st + 1 < STAGES && STAGE_LOWS[st + 1] == e as u32 {
            st += 1;
        }
        out[e] = st as u8;
        e += 1;
    }
    out
};

/// The stage of a position with `empties` empty squares (1..=60; 0 counts as 1, more as 60).
#[inline]
pub const fn stage(empties: u32) -> usize {
    STAGE_OF[if empties > 60 { 60 } else { empties as usize }] as usize
}

/// Weight tables per stage, by mobility context: whether the side to move has more legal moves
/// than its opponent. The pattern weights then depend on who holds the initiative, which one
/// sum of table weights cannot express. Training fits a shared table and each context's
/// differences from it (see `iago train --context-decay`). Against one table per stage they
/// lowered the full training's validation errors in stages 0-5 (before the tables per number
/// of empties of [`TABLES_OF`]; chosen by measurement:
/// docs/lab/2026-11-22-trained-evaluation.md).
pub const CONTEXTS: usize = 2;

/// Stages whose tables split by the number of empties as well: one pair of mobility contexts
/// per number of empties of the stage (where exact labels are plentiful and the search's
/// leaves and the 24-empties positions lie).
const FINE_STAGES: [usize; 3] = [3, 4, 5];

/// Weight tables of each stage: [`CONTEXTS`], times the stage's empties for a fine stage.
pub const TABLES_OF: [usize; STAGES] = {
    let mut out = [CONTEXTS; STAGES];
    let mut k = 0;
    while k < FINE_STAGES.len() {
        let (low, high) = stage_empties(FINE_STAGES[k]);
        out[FINE_STAGES[k]] = CONTEXTS * (high - low + 1) as usize;
        k += 1;
    }
    out
};

/// The first weight table of each stage: a stage's tables lie next to each other.
pub const FIRST_TABLE: [usize; STAGES] = {
    let mut out = [0; STAGES];
    let mut st = 1;
    while st < STAGES {
        out[st] = out[st - 1] + TABLES_OF[st - 1];
        st += 1;
    }
    out
};

/// Weight tables in all.
pub const TABLES: usize = FIRST_TABLE[STAGES - 1] + TABLES_OF[STAGES - 1];

/// The legal moves of both sides: the mobility features and the context read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mobility {
    /// The side to move's legal moves.
    pub player: u64,
    /// The opponent's legal moves.
    pub opponent: u64,
}

impl Mobility {
    /// The legal moves of both sides of `board`.
    #[inline]
    pub fn of(board: &Board) -> Mobility {
        Mobility {
            player: moves(board.player, board.opponent),
            opponent: moves(board.opponent, board.player),
        }
    }

    /// The mobility context (see [`CONTEXTS`]): 1 when the side to move has more legal moves.
    #[inline]
    pub fn context(self) -> usize {
        (self.player.count_ones() > self.opponent.count_ones()) as usize
    }
}

/// The weight table of `board` (with `mobility`, its legal moves) within its stage's tables: its
/// mobility context, and in a fine stage its number of empties.
#[inline]
pub fn context(board: &Board, mobility: Mobility) -> usize {
    stage_and_context(board, mobility).1
}

/// The stage of `board` and its table within the stage's tables, from one count of the empties.
#[inline]
fn stage_and_context(board: &Board, mobility: Mobility) -> (usize, usize) {
    let empties = board.empty_count();
    let st = stage(empties);
    let context = if TABLES_OF[st] == CONTEXTS {
        mobility.context()
    } else {
        CONTEXTS * (empties - stage_empties(st).0) as usize + mobility.context()
    };
    (st, context)
}

/// The weight table of `board` (with `mobility`, its legal moves).
#[inline]
pub fn table(board: &Board, mobility: Mobility) -> usize {
    let (st, context) = stage_and_context(board, mobility);
    FIRST_TABLE[st] + context
}

/// The empties of stage `st`, lowest and highest.
pub const fn stage_empties(st: usize) -> (u32, u32) {
    let high = if st + 1 < STAGES {
        STAGE_LOWS[st + 1] - 1
    } else {
        60
    };
    (STAGE_LOWS[st], high)
}

/// One base pattern: its squares in digit order, read by a fixed gather of bits.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Squares of the base instance, digit 0 first.
    pub squares: &'static [u8],
    gather: Gather,
    /// The symmetry that maps the pattern's squares onto themselves, if any: configurations it
    /// exchanges get one weight, so that the evaluation is the same for all 8 symmetric boards.
    pub mirror: Option<Symmetry>,
}

#[derive(Clone, Copy, Debug)]
enum Gather {
    Corner3x3,
    Corner2x5,
    EdgeX,
    Row(u32),
    Diagonal(u32),
    /// The squares of a mask in ascending order (the base squares must be listed ascending).
    Mask(u64),
}

/// The base patterns. The last four (corner L A1-E1/A2-B2/A3-A5, kite A1-B1/A2-C2/B3-D3/C4-D4,
/// edge + C2, F2 and corner diagonal A1-C1/A2-B2/A3/C3-F6) came last: refitting stage 5 alone
/// on the same labels from zero, each of the four lowered the static error at 24 empties, and
/// a fifth (row 2 with both corners) gained too little for its lookups (chosen by measurement:
/// docs/lab/2026-11-22-trained-evaluation.md).
pub const PATTERNS: [Pattern; 17] = [
    // corner 3x3
    Pattern {
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        gather: Gather::Corner3x3,
        mirror: Some(Symmetry::Transpose),
    },
    // corner 2x5
    Pattern {
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        gather: Gather::Corner2x5,
        mirror: None,
    },
    // edge + 2X
    Pattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        gather: Gather::EdgeX,
        mirror: Some(Symmetry::MirrorColumns),
    },
    // row 2
    Pattern {
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        gather: Gather::Row(1),
        mirror: Some(Symmetry::MirrorColumns),
    },
    // row 3
    Pattern {
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        gather: Gather::Row(2),
        mirror: Some(Symmetry::MirrorColumns),
    },
    // row 4
    Pattern {
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        gather: Gather::Row(3),
        mirror: Some(Symmetry::MirrorColumns),
    },
    // diagonal 8
    Pattern {
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        gather: Gather::Diagonal(0),
        mirror: Some(Symmetry::Rotate180),
    },
    // diagonal 7
    Pattern {
        squares: &[1, 10, 19, 28, 37, 46, 55],
        gather: Gather::Diagonal(1),
        mirror: Some(Symmetry::AntiTranspose),
    },
    // diagonal 6
    Pattern {
        squares: &[2, 11, 20, 29, 38, 47],
        gather: Gather::Diagonal(2),
        mirror: Some(Symmetry::AntiTranspose),
    },
    // diagonal 5
    Pattern {
        squares: &[3, 12, 21, 30, 39],
        gather: Gather::Diagonal(3),
        mirror: Some(Symmetry::AntiTranspose),
    },
    // diagonal 4
    Pattern {
        squares: &[4, 13, 22, 31],
        gather: Gather::Diagonal(4),
        mirror: Some(Symmetry::AntiTranspose),
    },
    // corner triangle
    Pattern {
        squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
        gather: Gather::Mask(0x0000_0000_0103_070F),
        mirror: Some(Symmetry::Transpose),
    },
    // edge block
    Pattern {
        squares: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
        gather: Gather::Mask(0x0000_0000_0000_3CBD),
        mirror: Some(Symmetry::MirrorColumns),
    },
    // corner L
    Pattern {
        squares: &[0, 1, 2, 3, 4, 8, 9, 16, 24, 32],
        gather: Gather::Mask(0x0000_0001_0101_031F),
        mirror: Some(Symmetry::Transpose),
    },
    // kite
    Pattern {
        squares: &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27],
        gather: Gather::Mask(0x0000_0000_0C0E_0703),
        mirror: Some(Symmetry::Transpose),
    },
    // edge + C2, F2
    Pattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 10, 13],
        gather: Gather::Mask(0x0000_0000_0000_24FF),
        mirror: Some(Symmetry::MirrorColumns),
    },
    // corner diagonal
    Pattern {
        squares: &[0, 1, 2, 8, 9, 16, 18, 27, 36, 45],
        gather: Gather::Mask(0x0000_2010_0805_0307),
        mirror: Some(Symmetry::Transpose),
    },
];

/// One base move pattern: squares whose legal moves are read as one weight index, 1 bit per
/// square and side (the side to move's bits, then the opponent's). Which side can play where
/// near the corners decides much of the game, and the disc patterns and mobility counts see it
/// only through their sum.
#[derive(Clone, Copy, Debug)]
pub struct MovePattern {
    /// Squares of the base instance, bit 0 first.
    pub squares: &'static [u8],
    /// The symmetry that maps the squares onto themselves, if any (as [`Pattern::mirror`]).
    pub mirror: Option<Symmetry>,
}

/// The base move patterns: the edge (4 instances) and the 2×4 block at each corner along each
/// edge (8 instances). Each lowered the static error at 24 empties (stages 0-5 refitted); the
/// second row or the long diagonals as well gained nothing more, the other variants measured
/// little more (chosen by measurement: docs/lab/2026-11-22-trained-evaluation.md).
pub const MOVE_PATTERNS: [MovePattern; 2] = [
    // edge moves
    MovePattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7],
        mirror: Some(Symmetry::MirrorColumns),
    },
    // corner 2x4 moves
    MovePattern {
        squares: &[0, 1, 2, 3, 8, 9, 10, 11],
        mirror: None,
    },
];

/// The number of distinct configurations of a pattern of `n` squares.
const fn pow3(n: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Where each pattern's table starts in a stage's weights, and the scalar features after them.
pub const fn table_offsets() -> [usize; PATTERNS.len() + 1] {
    let mut out = [0; PATTERNS.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        out[i + 1] = out[i] + pow3(PATTERNS[i].squares.len());
        i += 1;
    }
    out
}

const OFFSETS: [usize; PATTERNS.len() + 1] = table_offsets();

/// Count tables after the pattern tables, one weight per value: the mobility of each side
/// (0-32, more counts as 32), the potential mobility of each side (0-40), the parity of the
/// empties, the stable discs of each side (0-64), the odd quadrants (0-4), the discs of the side
/// to move (0-64), and the odd quadrants where neither side, only the side to move, only the
/// opponent or both can play (0-4 each). They let the evaluation bend where a linear term
/// cannot (no moves at all is far worse than one move).
pub const COUNTS: usize = 33 + 33 + 41 + 41 + 2 + 65 + 65 + 5 + 65 + 20;

/// Where the count tables start in a stage's weights: every pattern index lies below.
pub const COUNT_OFFSET: usize = OFFSETS[PATTERNS.len()];

/// Where each move pattern's table starts, after the count tables (`4^squares` weights each),
/// and the scalar features after them.
const MOVE_OFFSETS: [usize; MOVE_PATTERNS.len() + 1] = {
    let mut out = [COUNT_OFFSET + COUNTS; MOVE_PATTERNS.len() + 1];
    let mut i = 0;
    while i < MOVE_PATTERNS.len() {
        out[i + 1] = out[i] + (1 << (2 * MOVE_PATTERNS[i].squares.len()));
        i += 1;
    }
    out
};

/// Scalar features after the move-pattern tables: a constant, the mobility difference and the
/// potential mobility difference.
pub const SCALARS: usize = 3;

/// Weights per stage.
pub const STAGE_SIZE: usize = MOVE_OFFSETS[MOVE_PATTERNS.len()] + SCALARS;

/// Table weights read per position: the 70 pattern instances, 13 counts and 12 move-pattern
/// instances.
pub const FEATURES: usize = 70 + 13 + 12;

/// The instances: `(pattern index, symmetry)` pairs whose square sets are distinct.
pub fn instances() -> Vec<(usize, Symmetry)> {
    distinct_instances(PATTERNS.iter().map(|p| p.squares))
}

/// The move-pattern instances, as [`instances`].
pub fn move_instances() -> Vec<(usize, Symmetry)> {
    distinct_instances(MOVE_PATTERNS.iter().map(|p| p.squares))
}

/// `(index, symmetry)` pairs of the square lists whose images are distinct square sets.
fn distinct_instances<'a>(patterns: impl Iterator<Item = &'a [u8]>) -> Vec<(usize, Symmetry)> {
    let mut out = Vec::new();
    for (i, squares) in patterns.enumerate() {
        let mut seen: Vec<u64> = Vec::new();
        for sym in Symmetry::ALL {
            let set = instance_squares(squares, sym).fold(0u64, |acc, x| acc | 1 << x);
            if !seen.contains(&set) {
                seen.push(set);
                out.push((i, sym));
            }
        }
    }
    out
}

/// The board squares of a pattern's `squares` seen through `sym`, in digit order.
fn instance_squares(squares: &[u8], sym: Symmetry) -> impl Iterator<Item = usize> + '_ {
    squares.iter().map(move |&sq| {
        sym.apply_square(crate::board::Square::from_index_unchecked(sq))
            .index() as usize
    })
}

/// Where each of `squares` goes under `mirror`: the position in `squares` of its image.
fn mirror_permutation(squares: &[u8], mirror: Symmetry) -> Vec<usize> {
    squares
        .iter()
        .map(|&sq| {
            let image = mirror
                .apply_square(crate::board::Square::from_index_unchecked(sq))
                .index();
            squares
                .iter()
                .position(|&s| s == image)
                .expect("the mirror keeps the squares")
        })
        .collect()
}

/// For each weight index of a stage, the index that shares its weight: the smaller of the
/// configuration and its image under the pattern's `mirror` (scalars map to themselves).
pub fn canonical_indices() -> &'static [u32] {
    static TABLE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Vec<u32> = (0..STAGE_SIZE as u32).collect();
        for (p, pattern) in PATTERNS.iter().enumerate() {
            let Some(mirror) = pattern.mirror else {
                continue;
            };
            let n = pattern.squares.len();
            // Digit k moves to the digit whose square is the mirror image of square k.
            let perm = mirror_permutation(pattern.squares, mirror);
            for index in 0..pow3(n) {
                let mut digits = vec![0usize; n];
                let mut rest = index;
                for d in digits.iter_mut() {
                    *d = rest % 3;
                    rest /= 3;
                }
                let mut image = vec![0usize; n];
                for k in 0..n {
                    image[perm[k]] = digits[k];
                }
                let mirrored = image.iter().rev().fold(0, |acc, &d| acc * 3 + d);
                table[OFFSETS[p] + index] = (OFFSETS[p] + index.min(mirrored)) as u32;
            }
        }
        for (p, pattern) in MOVE_PATTERNS.iter().enumerate() {
            let Some(mirror) = pattern.mirror else {
                continue;
            };
            let n = pattern.squares.len();
            let perm = mirror_permutation(pattern.squares, mirror);
            for index in 0..1usize << (2 * n) {
                // Bit k and bit n + k (the two sides) move alike.
                let mirrored = (0..2 * n)
                    .filter(|&k| index >> k & 1 == 1)
                    .fold(0, |acc, k| acc | 1 << (perm[k % n] + k / n * n));
                table[MOVE_OFFSETS[p] + index] = (MOVE_OFFSETS[p] + index.min(mirrored)) as u32;
            }
        }
        table
    })
}

/// The features of a position: its weight table, one index per instance into that table, and the
/// scalar features (the slow reference the tests hold the carried indices against).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The weight table ([`table`]).
    pub table: usize,
    /// Weight indices (within the table) of the pattern instances and counts.
    pub indices: Vec<u32>,
    /// Constant, mobility difference, potential-mobility difference.
    pub scalars: [i32; SCALARS],
}

/// Calls `f(weight index within the table)` for every table weight of `board` (the
/// [`FEATURES`] pattern instances and counts) and returns its scalar features; `mobility`:
/// [`Mobility::of`] the board.
#[inline]
pub fn for_each_feature(
    board: &Board,
    mobility: Mobility,
    mut f: impl FnMut(usize),
) -> [i32; SCALARS] {
    for_each_index(board, &mut f);
    for_each_other_feature(board, mobility, None, f)
}

/// [`for_each_feature`] without the disc-pattern instances: the counts and the move patterns
/// (what an incremental evaluation still computes at each position); `player_potential`: the
/// side to move's potential mobility when the caller counted it.
#[inline]
pub fn for_each_other_feature(
    board: &Board,
    mobility: Mobility,
    player_potential: Option<u32>,
    mut f: impl FnMut(usize),
) -> [i32; SCALARS] {
    let (p, o) = (board.player, board.opponent);
    let (moves_p, moves_o) = (mobility.player, mobility.opponent);
    let (mp, mo) = (moves_p.count_ones(), moves_o.count_ones());
    let (pp, po) = (
        player_potential.unwrap_or_else(|| potential_moves(p, o).count_ones()),
        potential_moves(o, p).count_ones(),
    );
    f(COUNT_OFFSET + mp.min(32) as usize);
    f(COUNT_OFFSET + 33 + mo.min(32) as usize);
    f(COUNT_OFFSET + 66 + pp.min(40) as usize);
    f(COUNT_OFFSET + 107 + po.min(40) as usize);
    f(COUNT_OFFSET + 148 + (board.empty_count() & 1) as usize);
    let (sp, so) = stable_discs_both(p, o);
    let (sp, so) = (sp.count_ones(), so.count_ones());
    f(COUNT_OFFSET + 150 + sp as usize);
    f(COUNT_OFFSET + 215 + so as usize);
    let e = board.empties().0;
    // The quadrants with an odd number of empties, and for each whether the side to move and
    // the opponent can play there (who gets the last move of a region decides many endgames).
    let mut odd = 0;
    let mut access = [0usize; 4];
    for q in QUADRANTS {
        if (e & q).count_ones() & 1 == 1 {
            odd += 1;
            access[(moves_p & q != 0) as usize + 2 * (moves_o & q != 0) as usize] += 1;
        }
    }
    f(COUNT_OFFSET + 280 + odd);
    f(COUNT_OFFSET + 285 + p.count_ones() as usize);
    for (k, &n) in access.iter().enumerate() {
        f(COUNT_OFFSET + 350 + 5 * k + n);
    }
    for_each_move_index(mobility, &mut f);
    [1, mp as i32 - mo as i32, pp as i32 - po as i32]
}

/// All features of `board`.
#[cfg(test)]
pub fn features(board: &Board) -> Features {
    let mut indices = Vec::with_capacity(FEATURES);
    let mobility = Mobility::of(board);
    let scalars = for_each_feature(board, mobility, |i| indices.push(i as u32));
    Features {
        table: table(board, mobility),
        indices,
        scalars,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    #[test]
    fn there_are_70_instances() {
        assert_eq!(instances().len(), 70);
        assert_eq!(COUNTS, 33 + 33 + 41 + 41 + 2 + 65 + 65 + 5 + 65 + 20);
        assert_eq!(move_instances().len(), 12);
        assert_eq!(
            STAGE_SIZE,
            19683 + 8 * 59049 + 4 * 6561 + 2187 + 729 + 243 + 81 + COUNTS + 2 * 65536 + SCALARS
        );
    }

    #[test]
    fn symmetric_boards_have_the_same_canonical_features() {
        let canon = canonical_indices();
        let board = Board::start()
            .play(Move::parse("f5").unwrap())
            .play(Move::parse("d6").unwrap())
            .play(Move::parse("c3").unwrap())
            .play(Move::parse("d3").unwrap());
        let canonical = |b: &Board| {
            let features = features(b);
            let mut f: Vec<u32> = features
                .indices
                .iter()
                .map(|&i| canon[i as usize])
                .collect();
            f.sort_unstable();
            (features.table, f)
        };
        let reference = canonical(&board);
        for sym in Symmetry::ALL {
            assert_eq!(canonical(&board.transform(sym)), reference, "{sym:?}");
        }
    }

    #[test]
    fn stages() {
        assert_eq!(stage(0), 0);
        assert_eq!(stage(1), 0);
        assert_eq!(stage(4), 0);
        assert_eq!(stage(12), 2);
        assert_eq!(stage(13), 3);
        assert_eq!(stage(16), 3);
        assert_eq!(stage(17), 4);
        assert_eq!(stage(24), 5);
        assert_eq!(stage(25), 6);
        assert_eq!(stage(60), STAGES - 1);
        // At the start both sides have 4 moves: the first context of the last stage.
        let start = Board::start();
        assert_eq!(Mobility::of(&start).player.count_ones(), 4);
        assert_eq!(Mobility::of(&start).opponent.count_ones(), 4);
        assert_eq!(table(&start, Mobility::of(&start)), FIRST_TABLE[STAGES - 1]);
        // A fine stage has a pair of tables per number of empties: stage 3 (13-16 empties).
        assert_eq!(TABLES_OF[3], 8);
        assert_eq!(TABLES_OF[2], 2);
        assert_eq!(TABLES, 12 * 2 + 3 * 8);
        let b = Board {
            player: !0u64 << 16,
            opponent: 0xF0,
        };
        assert_eq!(b.empty_count(), 12);
        assert_eq!(table(&b, Mobility::of(&b)), FIRST_TABLE[2]);
        let b = Board {
            player: !0u64 << 20,
            opponent: 0xF0,
        };
        assert_eq!(b.empty_count(), 16);
        let mobility = Mobility::of(&b);
        assert_eq!(table(&b, mobility), FIRST_TABLE[3] + 6 + mobility.context());
        // More moves than the opponent (by bit count) is the second context.
        assert_eq!(
            Mobility {
                player: 3,
                opponent: 1
            }
            .context(),
            1
        );
        assert_eq!(
            Mobility {
                player: 1,
                opponent: 3
            }
            .context(),
            0
        );
        // Every stage's empties map back to it, and the stages tile 1-60.
        let mut next = 1;
        for st in 0..STAGES {
            let (low, high) = stage_empties(st);
            assert_eq!(low, next, "stage {st}");
            assert!((low..=high).all(|e| stage(e) == st), "stage {st}");
            next = high + 1;
        }
        assert_eq!(next, 61);
    }
}
