//! Reading the pattern instances' weight indices from a board: with BMI2 by one `pext` per
//! side and a table lookup per instance, without it through the board transforms and the fixed
//! gathers of the base patterns.

use super::{
    Gather, MOVE_OFFSETS, MOVE_PATTERNS, Mobility, OFFSETS, PATTERNS, instance_squares, instances,
    move_instances, pow3,
};
use crate::board::Board;
use crate::board::symmetry::Symmetry;

/// The bits of `x` under `mask`, packed in ascending order (BMI2's `pext`).
#[inline(always)]
fn extract(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the `bmi2` target feature is enabled at compile time, so the instruction
        // exists on every CPU this build runs on.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut m, mut k) = (0u64, mask, 0);
        while m != 0 {
            out |= (x >> m.trailing_zeros() & 1) << k;
            m &= m - 1;
            k += 1;
        }
        out
    }
}

impl Gather {
    /// The bits of the base squares of `x`, bit k = digit k.
    #[inline(always)]
    fn bits(self, x: u64) -> usize {
        (match self {
            Gather::Corner3x3 => (x & 0x7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0),
            Gather::Corner2x5 => (x & 0x1F) | ((x >> 3) & 0x3E0),
            Gather::EdgeX => (x & 0xFF) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
            Gather::Row(r) => (x >> (8 * r)) & 0xFF,
            // The diagonal from column `c` of row 1 down-right: stacked into the top byte by a
            // multiply, bit k = column c + k.
            Gather::Diagonal(c) => {
                (x & DIAGONALS[c as usize]).wrapping_mul(0x0101_0101_0101_0101) >> (56 + c)
            }
            Gather::Mask(mask) => extract(x, mask),
        }) as usize
    }
}

/// The down-right diagonals starting on row 1 at each column.
const DIAGONALS: [u64; 8] = {
    let mut out = [0u64; 8];
    let mut c = 0;
    while c < 8 {
        let mut r = 0;
        while r + c < 8 {
            out[c] |= 1 << (9 * r + c);
            r += 1;
        }
        c += 1;
    }
    out
};

/// Binary to ternary with the same digit positions (for up to 10 bits).
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut k = 9i32;
        while k >= 0 {
            v = v * 3 + ((b >> k) & 1) as u32;
            k -= 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// Instances grouped by symmetry, for one board transform per symmetry.
struct Plan {
    by_symmetry: [Vec<usize>; 8],
}

fn plan() -> &'static Plan {
    static PLAN: std::sync::OnceLock<Plan> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        let mut by_symmetry: [Vec<usize>; 8] = Default::default();
        for (pattern, sym) in instances() {
            let s = Symmetry::ALL
                .iter()
                .position(|&x| x == sym)
                .expect("a symmetry");
            by_symmetry[s].push(pattern);
        }
        Plan { by_symmetry }
    })
}

/// One pattern instance read straight from the untransformed board (or a move pattern's from
/// the legal moves): the mask of its squares, where its pattern's table starts, and which of
/// the [`Readers`] tables turns the bits under the mask (in ascending square order, as `pext`
/// packs them) into digits in the instance's digit order (ternary for a disc pattern, binary
/// for a move pattern).
#[derive(Clone, Copy, Debug)]
struct Reader {
    mask: u64,
    offset: u32,
    table: u32,
}

/// The instances in evaluation order (by symmetry, as [`Plan`]) and the distinct bits-to-index
/// tables they use (instances whose symmetry keeps their squares in digit order share one).
struct Readers {
    readers: Vec<Reader>,
    tables: Vec<[u16; 1024]>,
}

/// With BMI2, reading each instance by one `pext` per side and a table lookup replaces the 16
/// board transforms and the per-pattern dispatch of [`Plan`]: the same indices, fewer
/// instructions, and the weight loads no longer wait behind mispredicted jumps.
fn readers() -> &'static Readers {
    static READERS: std::sync::OnceLock<Readers> = std::sync::OnceLock::new();
    READERS.get_or_init(|| {
        let instances = plan()
            .by_symmetry
            .iter()
            .enumerate()
            .flat_map(|(s, patterns)| {
                patterns
                    .iter()
                    .map(move |&i| (PATTERNS[i].squares, Symmetry::ALL[s], OFFSETS[i]))
            });
        build_readers(instances, pow3)
    })
}

/// The readers of the move-pattern instances: bit k of an index is worth 2^k.
fn move_readers() -> &'static Readers {
    static READERS: std::sync::OnceLock<Readers> = std::sync::OnceLock::new();
    READERS.get_or_init(|| {
        let instances = move_instances()
            .into_iter()
            .map(|(i, sym)| (MOVE_PATTERNS[i].squares, sym, MOVE_OFFSETS[i]));
        build_readers(instances, |k| 1 << k)
    })
}

/// Readers for `(squares, symmetry, table offset)` instances, digit k of an instance's index
/// being worth `place(k)`.
fn build_readers<'a>(
    instances: impl Iterator<Item = (&'a [u8], Symmetry, usize)>,
    place: impl Fn(usize) -> usize,
) -> Readers {
    let mut readers = Vec::new();
    let mut tables: Vec<[u16; 1024]> = Vec::new();
    for (squares, sym, offset) in instances {
        let images: Vec<usize> = instance_squares(squares, sym).collect();
        let mask = images.iter().fold(0u64, |m, &x| m | 1 << x);
        // The digit of the j-th lowest square of the mask.
        let mut ascending = images.clone();
        ascending.sort_unstable();
        let digit_of: Vec<usize> = ascending
            .iter()
            .map(|x| images.iter().position(|y| y == x).expect("own square"))
            .collect();
        let mut table = [0u16; 1024];
        for (bits, entry) in table.iter_mut().enumerate().take(1 << images.len()) {
            *entry = digit_of
                .iter()
                .enumerate()
                .filter(|&(j, _)| bits >> j & 1 == 1)
                .map(|(_, &k)| place(k) as u16)
                .sum();
        }
        let table = match tables.iter().position(|t| *t == table) {
            Some(k) => k,
            None => {
                tables.push(table);
                tables.len() - 1
            }
        } as u32;
        readers.push(Reader {
            mask,
            offset: offset as u32,
            table,
        });
    }
    Readers { readers, tables }
}

/// Squares of every move pattern: the opponent's bits of an index start at bit `MOVE_SQUARES`.
const MOVE_SQUARES: usize = 8;

const _: () = {
    let mut i = 0;
    while i < MOVE_PATTERNS.len() {
        assert!(MOVE_PATTERNS[i].squares.len() == MOVE_SQUARES);
        i += 1;
    }
};

/// Calls `f(weight index within the stage)` for every move-pattern instance of the legal moves
/// `mobility`.
#[inline]
pub(super) fn for_each_move_index(mobility: Mobility, mut f: impl FnMut(usize)) {
    let Readers { readers, tables } = move_readers();
    for r in readers {
        let table = &tables[r.table as usize];
        let p = table[extract(mobility.player, r.mask) as usize & 1023] as usize;
        let o = table[extract(mobility.opponent, r.mask) as usize & 1023] as usize;
        f(r.offset as usize + p + (o << MOVE_SQUARES));
    }
}

/// Calls `f(weight index within the stage)` for every pattern instance of `board`.
#[inline]
pub fn for_each_index(board: &Board, f: impl FnMut(usize)) {
    if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
        for_each_index_direct(board, f);
    } else {
        for_each_index_transformed(board, f);
    }
}

/// [`for_each_index`] by the [`Readers`]: fast where `pext` is an instruction.
#[inline]
fn for_each_index_direct(board: &Board, mut f: impl FnMut(usize)) {
    let Readers { readers, tables } = readers();
    for r in readers {
        let table = &tables[r.table as usize];
        let p = table[extract(board.player, r.mask) as usize & 1023] as usize;
        let o = table[extract(board.opponent, r.mask) as usize & 1023] as usize;
        f(r.offset as usize + p + 2 * o);
    }
}

/// [`for_each_index`] through the board transforms and the fixed gathers of the base patterns:
/// fast without `pext`.
#[inline]
fn for_each_index_transformed(board: &Board, mut f: impl FnMut(usize)) {
    let plan = plan();
    for (s, patterns) in plan.by_symmetry.iter().enumerate() {
        if patterns.is_empty() {
            continue;
        }
        let inverse = Symmetry::ALL[s].inverse();
        let p = inverse.apply_bits(board.player);
        let o = inverse.apply_bits(board.opponent);
        for &i in patterns {
            let gather = PATTERNS[i].gather;
            let index = TERNARY[gather.bits(p)] as usize + 2 * TERNARY[gather.bits(o)] as usize;
            f(OFFSETS[i] + index);
        }
    }
}

/// The pattern instances in the order of [`for_each_index`]: each one's squares in digit order
/// (digit k is worth 3^k) and where its pattern's table starts in a stage's weights.
pub fn instance_layout() -> Vec<(Vec<usize>, usize)> {
    plan()
        .by_symmetry
        .iter()
        .enumerate()
        .flat_map(|(s, patterns)| {
            patterns.iter().map(move |&i| {
                let squares = instance_squares(PATTERNS[i].squares, Symmetry::ALL[s]).collect();
                (squares, OFFSETS[i])
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};
    use crate::eval::pattern::Pattern;

    /// The digit of each square read one by one: what the gathers must equal.
    fn slow_index(pattern: &Pattern, sym: Symmetry, board: &Board) -> usize {
        pattern.squares.iter().rev().fold(0, |acc, &sq| {
            let image = sym.apply_square(Square::from_index_unchecked(sq)).index();
            let digit = if board.player >> image & 1 != 0 {
                1
            } else if board.opponent >> image & 1 != 0 {
                2
            } else {
                0
            };
            acc * 3 + digit
        })
    }

    #[test]
    fn move_patterns_match_square_by_square_reading() {
        let mut board = Board::start();
        let mut state = 11u64;
        let mut seen_both = false;
        for _ in 0..50 {
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            board = board.play(Move::Play(legal[(state >> 33) as usize % legal.len()]));
            let mobility = Mobility::of(&board);
            let mut fast = Vec::new();
            for_each_move_index(mobility, |i| fast.push(i));
            let slow: Vec<usize> = move_instances()
                .into_iter()
                .map(|(i, sym)| {
                    let bit = |moves: u64, k: usize| {
                        let image = sym
                            .apply_square(Square::from_index_unchecked(MOVE_PATTERNS[i].squares[k]))
                            .index();
                        (moves >> image & 1) as usize
                    };
                    MOVE_OFFSETS[i]
                        + (0..MOVE_SQUARES)
                            .map(|k| {
                                bit(mobility.player, k) << k
                                    | bit(mobility.opponent, k) << (MOVE_SQUARES + k)
                            })
                            .sum::<usize>()
                })
                .collect();
            assert_eq!(fast, slow);
            seen_both |= slow.iter().zip(move_instances()).any(|(&index, (i, _))| {
                let bits = index - MOVE_OFFSETS[i];
                bits & 0xFF != 0 && bits >> 8 != 0
            });
        }
        // The positions exercised moves of both sides within one instance.
        assert!(seen_both);
    }

    #[test]
    fn gathers_match_square_by_square_reading() {
        let mut board = Board::start();
        let mut state = 7u64;
        for _ in 0..50 {
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            board = board.play(Move::Play(legal[(state >> 33) as usize % legal.len()]));
            let mut fast = Vec::new();
            for_each_index_transformed(&board, |i| fast.push(i));
            let mut direct = Vec::new();
            for_each_index_direct(&board, |i| direct.push(i));
            assert_eq!(direct, fast);
            let mut slow = Vec::new();
            for s in 0..8 {
                for (pattern, sym) in instances() {
                    if sym == Symmetry::ALL[s] {
                        slow.push(OFFSETS[pattern] + slow_index(&PATTERNS[pattern], sym, &board));
                    }
                }
            }
            assert_eq!(fast, slow);
        }
    }
}
