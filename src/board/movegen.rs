//! The hot kernels: legal moves and flips on raw `u64` bitboards (`p` = side to move, `o` = the
//! other side). Everything here is branch-free shifts and masks, portable to any 64-bit target;
//! where AVX2 is enabled at compile time, `flips` works on four rays at once.
//!
//! Alternatives for `flips` were measured (`cargo bench --bench movegen`): the per-direction
//! rays with AVX2 (kept where available) or a bit scan (kept elsewhere), a Kogge-Stone/dumb7
//! flood from the square, and a loop over the directions; the measurements are in
//! docs/lab/2026-11-22-board-and-perft.md. An AVX2 `moves` (the four
//! axes in four lanes) was no faster in the solver than the scalar one, so `moves` stays scalar
//! (measured: docs/lab/2026-11-22-board-and-perft.md).

/// Masks out column a and column h: a disc there cannot sit between two others horizontally or
/// diagonally.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares reachable in one `dir` step, propagated along runs of `mask` (opponent discs), from
/// the discs `p`, in both the `<< dir` and `>> dir` directions. The run may be up to 6 long.
#[inline(always)]
fn moves_in_direction(p: u64, mask: u64, dir: u32) -> u64 {
    let mut left = mask & (p << dir);
    let mut right = mask & (p >> dir);
    left |= mask & (left << dir);
    right |= mask & (right >> dir);
    let mask_left = mask & (mask << dir);
    let mask_right = mask & (mask >> dir);
    left |= mask_left & (left << (2 * dir));
    right |= mask_right & (right >> (2 * dir));
    left |= mask_left & (left << (2 * dir));
    right |= mask_right & (right >> (2 * dir));
    (left << dir) | (right >> dir)
}

/// The legal moves of `p` against `o`: empty squares from which at least one run of `o` discs
/// ends on a `p` disc.
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let inner = o & INNER_COLUMNS;
    (moves_in_direction(p, inner, 1)
        | moves_in_direction(p, o, 8)
        | moves_in_direction(p, inner, 7)
        | moves_in_direction(p, inner, 9))
        & empty
}

/// The eight rays leaving each square, excluding the square itself: E, SW, S, SE (towards higher
/// indices) then W, NE, N, NW (towards lower indices).
pub(crate) static RAYS: [[u64; 8]; 64] = build_rays();

const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let mut r = (sq / 8) as i8 + dr;
            let mut c = (sq % 8) as i8 + dc;
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs of `o` flipped when `p` plays on square `sq` (index 0..=63). `sq` must be empty;
/// the result is 0 when the move is illegal.
#[inline]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        flips_avx2(p, o, sq)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

/// [`flips`] with AVX2: the four rays towards higher indices in one vector, the four towards
/// lower indices in another.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
fn flips_avx2(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS[sq];
    // SAFETY: the `avx2` target feature is enabled at compile time, so these instructions exist
    // on every CPU this build runs on; the two unaligned loads read 4 `u64`s each from the
    // 8-element array `rays`.
    unsafe {
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        // Towards higher indices: the first square of each ray that is not `o` is its lowest bit.
        let up = _mm256_loadu_si256(rays.as_ptr() as *const __m256i);
        let x = _mm256_andnot_si256(oo, up);
        let first = _mm256_and_si256(x, _mm256_sub_epi64(zero, x));
        let between = _mm256_and_si256(up, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
        let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let high = _mm256_andnot_si256(miss, between);
        // Towards lower indices (W, NE, N, NW: steps 1, 7, 8, 9): smear the non-`o` squares of
        // each ray away from `sq`; the squares before the smear are the run, and its end is the
        // one non-`o` square not reached from a nearer one.
        let down = _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i);
        let s1 = _mm256_set_epi64x(9, 8, 7, 1);
        let s2 = _mm256_set_epi64x(18, 16, 14, 2);
        let s4 = _mm256_set_epi64x(36, 32, 28, 4);
        let x = _mm256_andnot_si256(oo, down);
        let mut smear = _mm256_or_si256(x, _mm256_srlv_epi64(x, s1));
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, s2));
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, s4));
        let end = _mm256_andnot_si256(_mm256_srlv_epi64(smear, s1), x);
        let between = _mm256_andnot_si256(smear, down);
        let miss = _mm256_cmpeq_epi64(_mm256_and_si256(end, pp), zero);
        let low = _mm256_andnot_si256(miss, between);
        let all = _mm256_or_si256(high, low);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64
    }
}

/// [`flips`] without SIMD: each ray by a bit scan.
#[inline]
pub fn flips_scalar(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let not_o = !o;
    let mut flipped = 0;
    // Towards higher indices: the first square that is not `o` is the lowest set bit.
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let stop = not_o & ray;
        let first = stop & stop.wrapping_neg();
        let between = ray & first.wrapping_sub(1);
        flipped |= if first & p != 0 { between } else { 0 };
        d += 1;
    }
    // Towards lower indices: the first square that is not `o` is the highest set bit. `| 1`
    // keeps `leading_zeros` below 64; a bit 0 outside the ray never matches `ray & p`.
    while d < 8 {
        let ray = rays[d];
        let stop = (not_o & ray) | 1;
        let first = (1u64 << 63) >> stop.leading_zeros();
        let between = ray & !((first << 1).wrapping_sub(1));
        flipped |= if first & p & ray != 0 { between } else { 0 };
        d += 1;
    }
    flipped
}

/// Squares that are empty and next to at least one `o` disc (the potential mobility of `p`).
#[inline]
pub fn potential_moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let inner = o & INNER_COLUMNS;
    let around = (inner << 1)
        | (inner >> 1)
        | (o << 8)
        | (o >> 8)
        | (inner << 7)
        | (inner >> 7)
        | (inner << 9)
        | (inner >> 9);
    around & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks each direction square by square: the obviously correct definition of a flip.
    pub(crate) fn flips_slow(p: u64, o: u64, sq: usize) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut all = 0;
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = ((sq / 8) as i8 + dr, (sq % 8) as i8 + dc);
            let mut line = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if o & bit != 0 {
                    line |= bit;
                } else {
                    if p & bit != 0 {
                        all |= line;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    #[test]
    fn start_position_moves() {
        // Black: e4 (28), d5 (35); White: d4 (27), e5 (36).
        let black = 1 << 28 | 1 << 35;
        let white = 1 << 27 | 1 << 36;
        // d3 (19), c4 (26), f5 (37), e6 (44).
        assert_eq!(moves(black, white), 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
        assert_eq!(flips(black, white, 37), 1 << 36);
        assert_eq!(flips(black, white, 0), 0);
    }

    #[test]
    fn rays_of_a_corner() {
        assert_eq!(RAYS[0][0], 0xFE);
        assert_eq!(RAYS[0][2], 0x0101_0101_0101_0100);
        assert_eq!(RAYS[0][3], 0x8040_2010_0804_0200);
        assert_eq!(
            RAYS[0][4] | RAYS[0][5] | RAYS[0][6] | RAYS[0][7] | RAYS[0][1],
            0
        );
    }

    #[test]
    fn flips_agree_with_slow_walk_on_pseudo_random_boards() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let b = next();
            let p = a & b;
            let o = a & !b & next();
            let m = moves(p, o);
            for sq in 0..64 {
                let slow = flips_slow(p, o, sq);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(p, o, sq), slow, "p={p:#x} o={o:#x} sq={sq}");
                    assert_eq!(flips_scalar(p, o, sq), slow, "p={p:#x} o={o:#x} sq={sq}");
                }
                assert_eq!(m >> sq & 1 != 0, slow != 0, "p={p:#x} o={o:#x} sq={sq}");
            }
        }
    }
}
