//! Flip counts on the last empty square, where every other square holds a disc: the kernel of the
//! last ply of an exact solve.
//!
//! Each of the 4 lines through the square is gathered into a byte (a shift, or a multiply that
//! stacks a column or diagonal into the top byte), and a 8×256 table gives the flips on that line.

/// `FLIPS_ON_LINE[pos][line]`: discs flipped on an 8-square line when a disc is placed at `pos`,
/// the player's discs being the set bits of `line` and every other square (but `pos`) the
/// opponent's. Squares beyond the board's edge read as 0 and never bracket.
static FLIPS_ON_LINE: [[u8; 256]; 8] = build_line_table();

const fn build_line_table() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Rightwards (higher bits).
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            // Leftwards (lower bits).
            let mut j = pos as i32 - 1;
            while j >= 0 && line >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += pos - j as usize - 1;
            }
            table[pos][line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    table
}

/// Per square: the a1–h8 diagonal and the h1–a8 diagonal through it.
static DIAGONALS: [[u64; 2]; 64] = build_diagonals();

const fn build_diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (r2, c2) = (other / 8, other % 8);
            if c2 - r2 == c - r {
                out[sq][0] |= 1 << other;
            }
            if c2 + r2 == c + r {
                out[sq][1] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    out
}

/// The number of discs flipped when the owner of `p` plays on `sq`, every other square being
/// occupied by the opponent (so `o = !p` outside `sq`). `sq` must not be in `p`.
#[inline]
pub fn count_last_flips(p: u64, sq: usize) -> u32 {
    let (r, c) = (sq >> 3, sq & 7);
    let row = (p >> (sq & 56)) as usize & 0xFF;
    let col =
        (((p >> c) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let [d9, d7] = DIAGONALS[sq];
    let diag = ((p & d9).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    let anti = ((p & d7).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    (FLIPS_ON_LINE[c][row]
        + FLIPS_ON_LINE[r][col]
        + FLIPS_ON_LINE[c][diag]
        + FLIPS_ON_LINE[c][anti]) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::flips;

    #[test]
    fn agrees_with_flips_on_full_boards() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let sq = (state >> 58) as usize;
            let p = state & !(1 << sq);
            let o = !p & !(1 << sq);
            assert_eq!(
                count_last_flips(p, sq),
                flips(p, o, sq).count_ones(),
                "p={p:#x} sq={sq}"
            );
        }
    }
}
