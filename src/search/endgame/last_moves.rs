//! The solver's last empties: 1 empty by counting flips, 2-4 by unrolled searches over
//! square lists in parity order (lone empties, then odd quadrants, then the rest), up to
//! [`SHALLOW_MAX`] by alpha-beta over the empties bitboard in the same order, with stability
//! cut-offs at 5 and 6 empties. No hash table.

use super::EndgameSearch;
use crate::board::Board;
use crate::board::bitboard::{self, QUADRANTS};
use crate::board::last_flip::count_last_flips;
use crate::board::movegen::{flips, moves};
use crate::board::stability::stable_discs;
use crate::eval::SearchEval;
use crate::search::params::SHALLOW_STABILITY_THRESHOLD;
use crate::search::{INF, SCORE_MAX};

/// Squares adjacent to each square (to skip moves that cannot flip anything).
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r2, c2) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && r2 >= 0 && r2 < 8 && c2 >= 0 && c2 < 8 {
                    out[sq] |= 1 << (r2 * 8 + c2);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// The union of the quadrants holding an odd number of empties.
#[inline]
pub(super) fn odd_quadrants(empties: u64) -> u64 {
    bitboard::odd_quadrants(&QUADRANTS, empties)
}

/// The empty squares none of whose neighbours is empty: playing into a lone hole first (as
/// Egaroucid does) takes fewer nodes (chosen by measurement:
/// docs/lab/2026-11-22-endgame-solver.md).
#[inline]
fn lone_empties(empties: u64) -> u64 {
    let side = ((empties & 0x7F7F_7F7F_7F7F_7F7F) << 1) | ((empties & 0xFEFE_FEFE_FEFE_FEFE) >> 1);
    let row = empties | side;
    empties & !(side | row << 8 | row >> 8)
}

/// `squares` (a subset of `empties`) in the order the shallow searches try them: lone empties,
/// then those in quadrants with an odd number of empties, then the rest.
#[inline]
fn parity_classes(squares: u64, empties: u64) -> [u64; 3] {
    let odd = odd_quadrants(empties);
    let lone = lone_empties(empties);
    [
        squares & lone,
        squares & odd & !lone,
        squares & !odd & !lone,
    ]
}

/// The final score for `p` when the game ends now: disc difference, empties to the winner.
#[inline]
pub(super) fn final_score(p: u64, o: u64) -> i32 {
    Board {
        player: p,
        opponent: o,
    }
    .final_score()
}

/// An upper bound on the final score of `p` (to move) against `o`: every stable disc of `o`
/// stays `o`'s.
#[inline]
pub(super) fn stability_upper(p: u64, o: u64) -> i32 {
    SCORE_MAX - 2 * stable_discs(o, p).count_ones() as i32
}

/// One empty square `x`; `p` holds every other square it owns, the opponent the rest.
#[inline]
fn solve_1(p: u64, alpha: i32, x: usize) -> i32 {
    let discs = p.count_ones() as i32;
    let f = count_last_flips(p, x) as i32;
    if f != 0 {
        return 2 * (discs + f + 1) - 64;
    }
    // The player must pass: the score is at most 2 * discs - 62.
    if 2 * discs - 62 <= alpha {
        return 2 * discs - 62;
    }
    let f = count_last_flips(!p & !(1 << x), x) as i32;
    if f != 0 {
        2 * (discs - f) - 64
    } else if 2 * discs > 63 {
        2 * discs - 62
    } else {
        2 * discs - 64
    }
}

/// The `N` empties as squares in [`parity_classes`] order.
#[inline]
fn parity_sorted<const N: usize>(empties: u64) -> [usize; N] {
    let mut out = [0usize; N];
    let mut i = 0;
    for class in parity_classes(empties, empties) {
        let mut m = class;
        while m != 0 {
            out[i] = m.trailing_zeros() as usize;
            m &= m - 1;
            i += 1;
        }
    }
    debug_assert_eq!(i, N);
    out
}

impl<E: SearchEval + ?Sized> EndgameSearch<'_, E> {
    pub(super) fn shallow_entry(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let empties = !(p | o);
        match n {
            0 => {
                self.counter.count();
                final_score(p, o)
            }
            1 => {
                self.counter.count();
                solve_1(p, alpha, empties.trailing_zeros() as usize)
            }
            2 => {
                let x1 = empties.trailing_zeros() as usize;
                let x2 = 63 - empties.leading_zeros() as usize;
                self.solve_2(p, o, alpha, beta, x1, x2)
            }
            3 => self.solve_3(p, o, alpha, beta, parity_sorted::<3>(empties)),
            4 => self.solve_4(p, o, alpha, beta, parity_sorted::<4>(empties)),
            _ => self.shallow(p, o, alpha, beta, empties, n),
        }
    }

    /// Two empties `x1`, `x2`.
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: usize, x2: usize) -> i32 {
        self.counter.count();
        let mut best = -INF;
        if NEIGHBOURS[x1] & o != 0 {
            let f = flips(p, o, x1);
            if f != 0 {
                self.counter.count();
                best = -solve_1(o ^ f, -beta, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = flips(p, o, x2);
            if f != 0 {
                self.counter.count();
                let score = -solve_1(o ^ f, -beta, x1);
                if score > best {
                    best = score;
                }
            }
        }
        if best != -INF {
            return best;
        }
        // Pass: the opponent moves, or the game is over.
        let mut worst = INF;
        if NEIGHBOURS[x1] & p != 0 {
            let f = flips(o, p, x1);
            if f != 0 {
                self.counter.count();
                worst = solve_1(p ^ f, alpha, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOURS[x2] & p != 0 {
            let f = flips(o, p, x2);
            if f != 0 {
                self.counter.count();
                let score = solve_1(p ^ f, alpha, x1);
                if score < worst {
                    worst = score;
                }
            }
        }
        if worst != INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Three empties in parity order.
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [usize; 3]) -> i32 {
        self.counter.count();
        if let Some(score) = self.moves_3(p, o, alpha, beta, sq) {
            return score;
        }
        match self.moves_3(o, p, -beta, -alpha, sq) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    #[inline]
    fn moves_3(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 3],
    ) -> Option<i32> {
        let mut best = -INF;
        for i in 0..3 {
            let x = sq[i];
            if NEIGHBOURS[x] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f == 0 {
                continue;
            }
            let (a, b) = match i {
                0 => (sq[1], sq[2]),
                1 => (sq[0], sq[2]),
                _ => (sq[0], sq[1]),
            };
            let score = -self.solve_2(o ^ f, p | f | 1 << x, -beta, -alpha, a, b);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best != -INF).then_some(best)
    }

    /// Four empties in parity order.
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [usize; 4]) -> i32 {
        self.counter.count();
        if let Some(score) = self.moves_4(p, o, alpha, beta, sq) {
            return score;
        }
        match self.moves_4(o, p, -beta, -alpha, sq) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    #[inline]
    fn moves_4(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 4],
    ) -> Option<i32> {
        let mut best = -INF;
        for i in 0..4 {
            let x = sq[i];
            if NEIGHBOURS[x] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f == 0 {
                continue;
            }
            let rest = match i {
                0 => [sq[1], sq[2], sq[3]],
                1 => [sq[0], sq[2], sq[3]],
                2 => [sq[0], sq[1], sq[3]],
                _ => [sq[0], sq[1], sq[2]],
            };
            let score = -self.solve_3(o ^ f, p | f | 1 << x, -beta, -alpha, rest);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best != -INF).then_some(best)
    }

    /// 5..=SHALLOW_MAX empties: alpha-beta with parity ordering, no hash table.
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64, n: u32) -> i32 {
        self.counter.count();
        if alpha >= SHALLOW_STABILITY_THRESHOLD[n as usize] {
            let upper = stability_upper(p, o);
            if upper <= alpha {
                return upper;
            }
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, empties, n);
        }
        let mut best = -INF;
        for class in parity_classes(legal, empties) {
            let mut m = class;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(p, o, x);
                let (cp, co) = (o ^ f, p | f | 1 << x);
                let score = if n == 5 {
                    -self.solve_4(cp, co, -beta, -alpha, parity_sorted::<4>(empties ^ 1 << x))
                } else {
                    -self.shallow(cp, co, -beta, -alpha, empties ^ 1 << x, n - 1)
                };
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if score >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_empties_have_no_empty_neighbour() {
        // a1 alone in its corner; b3 with c3 beside it; h8 alone; e5 with d4 diagonal to it.
        let (a1, b3, c3, h8, d4, e5) = (1u64, 1 << 17, 1 << 18, 1 << 63, 1 << 27, 1 << 36);
        assert_eq!(lone_empties(a1 | b3 | c3 | h8 | d4 | e5), a1 | h8);
        // Row ends do not wrap: h1 and a2 are not neighbours.
        assert_eq!(lone_empties(1 << 7 | 1 << 8), 1 << 7 | 1 << 8);
        assert_eq!(lone_empties(0), 0);
    }
}
