//! Stable discs: discs that no sequence of moves can flip. They bound the final score, which lets
//! the solver cut a node without searching it.
//!
//! A disc is counted stable when, along each of the four axes, it cannot be bracketed: the line on
//! that axis is full, or the disc touches the board's edge on that axis, or its neighbour on that
//! axis is a stable disc of the same colour. Seeds come from the edges (an exact table over the
//! 3^8 edge configurations) and from squares whose four lines are all full.

/// `EDGE_STABLE[p | o << 8]`: the discs of `p` on an 8-square edge that no sequence of moves on
/// that edge can flip (`p` and `o` disjoint bytes).
static EDGE_STABLE: [u8; 65536] = build_edge_table();

/// Places `own` at `x` on an edge line (bits), flipping bracketed `other` runs.
const fn place_on_edge(own: u32, other: u32, x: u32) -> (u32, u32) {
    let mut flipped = 0;
    // Towards higher bits.
    let mut i = x + 1;
    let mut run = 0;
    while i < 8 && other >> i & 1 != 0 {
        run |= 1 << i;
        i += 1;
    }
    if i < 8 && own >> i & 1 != 0 {
        flipped |= run;
    }
    // Towards lower bits.
    let mut j = x as i32 - 1;
    run = 0;
    while j >= 0 && other >> j & 1 != 0 {
        run |= 1 << j;
        j -= 1;
    }
    if j >= 0 && own >> j & 1 != 0 {
        flipped |= run;
    }
    (own | flipped | 1 << x, other & !flipped)
}

const fn build_edge_table() -> [u8; 65536] {
    let mut table = [0u8; 65536];
    // Fill from full edges to empty ones: every successor has one more disc.
    let mut filled = 8;
    loop {
        let mut p = 0u32;
        while p < 256 {
            let mut o = 0u32;
            while o < 256 {
                if p & o == 0 && (p | o).count_ones() == filled {
                    let mut stable = p;
                    let mut x = 0;
                    while x < 8 {
                        if (p | o) >> x & 1 == 0 {
                            let (p2, o2) = place_on_edge(p, o, x);
                            stable &= table[(p2 | o2 << 8) as usize] as u32;
                            let (o3, p3) = place_on_edge(o, p, x);
                            stable &= table[(p3 | o3 << 8) as usize] as u32;
                        }
                        x += 1;
                    }
                    table[(p | o << 8) as usize] = stable as u8;
                }
                o += 1;
            }
            p += 1;
        }
        if filled == 0 {
            break;
        }
        filled -= 1;
    }
    table
}

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;

/// Column a as a byte (bit k = row k).
#[inline]
fn col_a_byte(x: u64) -> usize {
    ((x & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// A byte spread back onto column a (bit k → row k).
#[inline]
fn byte_to_col_a(b: u8) -> u64 {
    // Bits 0-6 spread by one multiply (no two partial products meet); bit 7 goes separately.
    (((b & 0x7F) as u64).wrapping_mul(0x0002_0408_1020_4081) & COL_A) | (b as u64 >> 7) << 56
}

/// The discs of `p` that are stable along the four edges.
fn edge_stable(p: u64, o: u64) -> u64 {
    let top = EDGE_STABLE[(p & 0xFF | (o & 0xFF) << 8) as usize] as u64;
    let bottom = EDGE_STABLE[(p >> 56 | (o >> 56) << 8) as usize] as u64;
    let left = EDGE_STABLE[col_a_byte(p) | col_a_byte(o) << 8];
    let right = EDGE_STABLE[col_a_byte(p >> 7) | col_a_byte(o >> 7) << 8];
    top | bottom << 56 | byte_to_col_a(left) | byte_to_col_a(right) << 7
}

/// Squares whose line is full along each axis: `[horizontal, vertical, a1-h8 diagonal, h1-a8
/// diagonal]`.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut h = filled & (filled >> 1) & (filled >> 2) & (filled >> 3);
    h &= h >> 4;
    h = (h & COL_A).wrapping_mul(0xFF);
    let mut v = filled & (filled >> 8);
    v &= v >> 16;
    v &= v >> 32;
    v = (v & ROW_1).wrapping_mul(COL_A);
    [h, v, full_diagonals(filled, 9), full_diagonals(filled, 7)]
}

/// The filled squares whose diagonal in direction `step` (9: a1-h8, 7: h1-a8) is full: each
/// square ANDs its neighbours at 1, 2 and 4 steps on both sides, a neighbour beyond the board
/// counting as filled.
#[inline]
fn full_diagonals(filled: u64, step: u32) -> u64 {
    // Per distance (1, 2, 4 steps): the squares whose neighbour that far up (higher index) or
    // down (lower index) the diagonal is off the board.
    let (up, down) = if step == 9 {
        (
            [
                0xFF80_8080_8080_8080u64,
                0xFFFF_C0C0_C0C0_C0C0,
                0xFFFF_FFFF_F0F0_F0F0,
            ],
            [
                0x0101_0101_0101_01FFu64,
                0x0303_0303_0303_FFFF,
                0x0F0F_0F0F_FFFF_FFFF,
            ],
        )
    } else {
        (
            [
                0xFF01_0101_0101_0101u64,
                0xFFFF_0303_0303_0303,
                0xFFFF_FFFF_0F0F_0F0F,
            ],
            [
                0x8080_8080_8080_80FFu64,
                0xC0C0_C0C0_C0C0_FFFF,
                0xF0F0_F0F0_FFFF_FFFF,
            ],
        )
    };
    let mut full = filled;
    for k in 0..3 {
        let shift = step << k;
        full &= ((full >> shift) | up[k]) & ((full << shift) | down[k]);
    }
    full
}

/// The 15 diagonals in each direction (a1-h8 parallels, then h1-a8 parallels): the reference
/// for [`full_diagonals`].
#[cfg(test)]
static DIAG9_LINES: [u64; 15] = build_diagonal_lines(true);
#[cfg(test)]
static DIAG7_LINES: [u64; 15] = build_diagonal_lines(false);

#[cfg(test)]
const fn build_diagonal_lines(main: bool) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        let k = if main { c + 7 - r } else { c + r };
        out[k] |= 1 << sq;
        sq += 1;
    }
    out
}

/// Whether `filled` has a full row. Without one no square has its four lines full, and the
/// only seeds of stability are the edge-stable discs: most midgame positions have neither, and
/// this test costs a fraction of the full computation.
#[inline]
fn has_full_row(filled: u64) -> bool {
    // A byte of `!filled` that is zero is a full row.
    let empty = !filled;
    empty.wrapping_sub(COL_A) & !empty & (COL_A << 7) != 0
}

/// The stable discs of `p` (see the module documentation). A lower bound on the discs `p` keeps
/// to the end of the game.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let edges = edge_stable(p, o);
    if edges == 0 && !has_full_row(p | o) {
        return 0;
    }
    stable_with_lines(p, edges, full_lines(p | o))
}

/// The stable discs of both sides, `(of p, of o)`: the filled lines are found once.
pub fn stable_discs_both(p: u64, o: u64) -> (u64, u64) {
    let filled = p | o;
    let (edges_p, edges_o) = (edge_stable(p, o), edge_stable(o, p));
    if (edges_p | edges_o) == 0 && !has_full_row(filled) {
        return (0, 0);
    }
    let lines = full_lines(filled);
    (
        stable_with_lines(p, edges_p, lines),
        stable_with_lines(o, edges_o, lines),
    )
}

/// The stable discs of `p` given its edge-stable discs and the squares of the filled lines of
/// each direction.
#[inline]
fn stable_with_lines(p: u64, edges: u64, [h, v, d9, d7]: [u64; 4]) -> u64 {
    let mut stable = (edges | (h & v & d9 & d7)) & p;
    if stable == 0 {
        return 0;
    }
    let h = h | COL_A | COL_H;
    let v = v | ROW_1 | ROW_8;
    let d9 = d9 | BORDER;
    let d7 = d7 | BORDER;
    let candidates = p & !stable;
    loop {
        let s = stable;
        let west_east = ((s << 1) & !COL_A) | ((s >> 1) & !COL_H) | h;
        let north_south = (s << 8) | (s >> 8) | v;
        let diag9 = ((s << 9) & !COL_A) | ((s >> 9) & !COL_H) | d9;
        let diag7 = ((s << 7) & !COL_H) | ((s >> 7) & !COL_A) | d7;
        stable |= candidates & west_east & north_south & diag9 & diag7;
        if stable == s {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{flips, moves};

    /// The shortcut never hides a stable disc: random positions against the full computation.
    #[test]
    fn the_shortcut_agrees_with_the_full_computation() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut shortcuts = 0;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for i in 0..20_000 {
            // A quarter of the squares to nearly all of them filled.
            let mut filled = next() | next();
            for _ in 0..i % 4 {
                filled &= next() | next();
            }
            let colours = next();
            let (p, o) = (filled & colours, filled & !colours);
            let lines = full_lines(p | o);
            let (edges_p, edges_o) = (edge_stable(p, o), edge_stable(o, p));
            let full = (
                stable_with_lines(p, edges_p, lines),
                stable_with_lines(o, edges_o, lines),
            );
            assert_eq!(stable_discs_both(p, o), full);
            assert_eq!(stable_discs(p, o), full.0);
            shortcuts += usize::from(edges_p | edges_o == 0 && !has_full_row(p | o));
            // The full diagonals against the 15 lines of each direction.
            let filled = p | o;
            for (step, lines) in [(9, &DIAG9_LINES), (7, &DIAG7_LINES)] {
                let by_lines = lines
                    .iter()
                    .filter(|&&m| filled & m == m)
                    .fold(0, |acc, &m| acc | m);
                assert_eq!(full_diagonals(filled, step), by_lines, "{filled:#x} {step}");
            }
        }
        assert!(shortcuts > 100, "the shortcut was tested: {shortcuts}");
    }

    #[test]
    fn column_bytes_round_trip() {
        for b in 0..=255u8 {
            assert_eq!(col_a_byte(byte_to_col_a(b)) as u8, b);
        }
    }

    #[test]
    fn corners_are_stable_and_lonely_discs_are_not() {
        // p owns a1 and d4; o owns b2.
        let p = 1 | 1 << 27;
        let o = 1 << 9;
        assert_eq!(stable_discs(p, o), 1);
        // A full first row owned by p is stable.
        assert_eq!(stable_discs(0xFF, 1 << 9) & 0xFF, 0xFF);
        assert_eq!(stable_discs(0, 0xFF), 0);
    }

    #[test]
    fn both_sides_at_once_equal_each_side_alone() {
        let (p, o) = (
            0x0000_1038_7C3C_1F0Fu64,
            0x00FF_0004_0240_E0F0u64 & !0x0000_1038_7C3C_1F0F,
        );
        assert_eq!(
            stable_discs_both(p, o),
            (stable_discs(p, o), stable_discs(o, p))
        );
        assert_ne!(stable_discs(p, o), 0);
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = 0x0123_4567_89AB_CDEF;
        assert_eq!(stable_discs(p, !p), p);
    }

    /// No sequence of random legal moves ever flips a disc called stable.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut state = 0xDEAD_BEEF_1234_5678u64;
        let mut rand = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..300 {
            let (mut p, mut o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
            // Colour-absolute tracking: `black_to_move` tells which side `p` is.
            let mut black_to_move = true;
            let mut history: Vec<(u64, u64)> = Vec::new();
            loop {
                let (black, white) = if black_to_move { (p, o) } else { (o, p) };
                history.push((black, white));
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    black_to_move = !black_to_move;
                    continue;
                }
                let n = m.count_ones();
                let mut pick = rand() % n as u64;
                let mut mm = m;
                while pick > 0 {
                    mm &= mm - 1;
                    pick -= 1;
                }
                let sq = mm.trailing_zeros() as usize;
                let f = flips(p, o, sq);
                (p, o) = (o ^ f, p | f | 1 << sq);
                black_to_move = !black_to_move;
            }
            for (i, &(black, white)) in history.iter().enumerate() {
                let sb = stable_discs(black, white);
                let sw = stable_discs(white, black);
                for &(b2, w2) in &history[i..] {
                    assert_eq!(b2 & sb, sb, "a stable black disc flipped");
                    assert_eq!(w2 & sw, sw, "a stable white disc flipped");
                }
            }
        }
    }
}
