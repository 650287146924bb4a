//! The move ordering of the solver's deep nodes: hash moves first, then fastest-first (the
//! opponent's mobility), parity and square values, and from
//! [`SHALLOW_ORDERING_MIN_EMPTIES`] empties a look-ahead (the evaluation of each child, or a
//! crude one-ply value without one); children found in a table settle moves first (enhanced
//! transposition cut-offs).

use super::EndgameSearch;
use super::last_moves::odd_quadrants;
use crate::board::Board;
use crate::board::movegen::{flips, moves, potential_moves};
use crate::eval::SearchEval;
use crate::search::params::{
    EVAL_LOOKAHEAD_MIN_EMPTIES, EVAL_WEIGHT, POTENTIAL_WEIGHT, SHALLOW_ORDERING_MIN_EMPTIES,
    SHARED_TT_MIN_EMPTIES,
};
use crate::search::{INF, SCORE_MAX};

const CORNERS: u64 = crate::board::Bitboard::CORNERS.0;

/// One move of a move list: the square, its flips and its ordering value.
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    pub(super) sq: u8,
    pub(super) flips: u64,
    pub(super) value: i32,
}

/// The moves of a node with their ordering values (at most 33 moves exist in Othello).
pub(super) struct MoveList {
    pub(super) moves: [Candidate; 34],
    pub(super) len: usize,
    /// The table's best move and the one it replaced, if any ([`NO_MOVE`] otherwise): they go
    /// first.
    pub(super) hash_moves: [u8; 2],
    /// How many of the moves are hash moves (valued already, they go first).
    pub(super) hashed: usize,
    /// Whether the other moves still wait for their ordering values: they are computed only
    /// once the hash moves have failed to cut.
    pub(super) pending: bool,
}

impl MoveList {
    /// Moves the best remaining candidate to position `i` and returns it.
    #[inline]
    pub(super) fn select(&mut self, i: usize) -> Candidate {
        let mut best = i;
        for j in i + 1..self.len {
            if self.moves[j].value > self.moves[best].value {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.moves[i]
    }
}

/// The `depth`-ply alpha-beta value of `board` (whose evaluation state is `state`) under
/// `eval`, for the side to move.
fn eval_negamax<E: SearchEval + ?Sized>(
    eval: &E,
    board: &Board,
    state: &E::State,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if depth == 0 {
        return eval.evaluate_with(board, state, None);
    }
    let legal = moves(board.player, board.opponent);
    if legal == 0 {
        if moves(board.opponent, board.player) == 0 {
            return board.final_score();
        }
        return -eval_negamax(eval, &board.pass(), &eval.pass(state), depth, -beta, -alpha);
    }
    let mut best = -INF;
    let mut m = legal;
    while m != 0 {
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(board.player, board.opponent, x);
        let child = Board {
            player: board.opponent ^ f,
            opponent: board.player | f | 1 << x,
        };
        let cs = eval.play(state, x, f);
        let v = -eval_negamax(eval, &child, &cs, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

impl<E: SearchEval + ?Sized> EndgameSearch<'_, E> {
    /// Builds the move list of a deep node. Ordering: the hash moves first (the best, then the
    /// one it replaced: `list.hash_moves`), then the others by [`Self::value_moves`]. When there
    /// are hash moves, the others are valued only once the hash moves have failed to cut
    /// (`list.pending`): the same tree in a little less time
    /// (docs/lab/2026-11-22-endgame-solver.md).
    ///
    /// Children found in their hash table settle moves before any search (enhanced
    /// transposition cut-off; the shared table's buckets of all children are prefetched while
    /// the flips are computed, then probed): a child bound that already reaches `beta` cuts the
    /// node (`Err(score)`); a move whose bound cannot exceed `alpha` is dropped. Returns the
    /// best of the dropped moves' bounds (`-INF` if none) in the `(alpha, beta)` `window`.
    pub(super) fn order(
        &mut self,
        list: &mut MoveList,
        p: u64,
        o: u64,
        legal: u64,
        n: u32,
        (alpha, beta): (i32, i32),
    ) -> Result<i32, i32> {
        let mut best = -INF;
        // First the flips of every move, and the children's buckets of the shared table on
        // their way into the cache while the rest is computed.
        let shared_children = n > SHARED_TT_MIN_EMPTIES;
        let mut hashes = [0u64; 34];
        let mut count = 0;
        let mut m = legal;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, x);
            if f == o {
                // Wipe-out: the opponent has no disc left.
                return Err(SCORE_MAX);
            }
            if shared_children {
                let child = Board {
                    player: o ^ f,
                    opponent: p | f | 1 << x,
                };
                hashes[count] = child.hash();
                self.tt.prefetch(hashes[count]);
            }
            list.moves[count] = Candidate {
                sq: x as u8,
                flips: f,
                value: 0,
            };
            count += 1;
        }
        for (k, &hash) in hashes[..count].iter().enumerate() {
            let Candidate { sq, flips: f, .. } = list.moves[k];
            let x = sq as usize;
            let (cp, co) = (o ^ f, p | f | 1 << x);
            let bounds = if shared_children {
                let child = Board {
                    player: cp,
                    opponent: co,
                };
                self.shared_bounds(&child, n - 1, hash)
            } else {
                self.table_bounds(cp, co, n - 1)
            };
            if let Some((lower, upper)) = bounds {
                if -upper >= beta {
                    return Err(-upper);
                }
                if -lower <= alpha {
                    best = best.max(-lower);
                    continue;
                }
            }
            let value = if x as u8 == list.hash_moves[0] {
                1 << 20
            } else if x as u8 == list.hash_moves[1] {
                1 << 19
            } else {
                list.pending = true;
                0
            };
            list.hashed += (value != 0) as usize;
            list.moves[list.len] = Candidate {
                sq: x as u8,
                flips: f,
                value,
            };
            list.len += 1;
        }
        if list.hashed == 0 {
            self.value_moves(list, p, o, n);
        }
        Ok(best)
    }

    /// Gives the moves of `list` that are not hash moves their ordering values: fastest-first
    /// (fewest replies for the opponent, corners counting double), odd-quadrant parity and a
    /// static square value; from [`SHALLOW_ORDERING_MIN_EMPTIES`], the opponent's potential
    /// mobility and the evaluation of the child too.
    pub(super) fn value_moves(&self, list: &mut MoveList, p: u64, o: u64, n: u32) {
        list.pending = false;
        let odd = if n <= 14 { odd_quadrants(!(p | o)) } else { 0 };
        let eval_depth = EVAL_LOOKAHEAD_MIN_EMPTIES
            .iter()
            .take_while(|&&min| n >= min)
            .count() as u32;
        // The evaluation's state of this node, for the children's look-ahead.
        let state = match self.eval {
            Some(eval) if n >= SHALLOW_ORDERING_MIN_EMPTIES => Some(eval.state(&Board {
                player: p,
                opponent: o,
            })),
            _ => None,
        };
        for mv in &mut list.moves[..list.len] {
            // Only the hash moves carry a value yet; the others wait at 0.
            if mv.value != 0 {
                continue;
            }
            let x = mv.sq as usize;
            let (cp, co) = (o ^ mv.flips, p | mv.flips | 1 << x);
            let replies = moves(cp, co);
            let mobility = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
            let mut value = -64 * mobility + 16 * ((odd >> x & 1) as i32) + 4 * SQUARE_VALUE[x];
            if n >= SHALLOW_ORDERING_MIN_EMPTIES {
                let potential = potential_moves(cp, co).count_ones();
                value -= POTENTIAL_WEIGHT * potential as i32;
                match (self.eval, &state) {
                    (Some(eval), Some(state)) => {
                        let child = Board {
                            player: cp,
                            opponent: co,
                        };
                        let cs = eval.play(state, x, mv.flips);
                        let v = if eval_depth == 0 {
                            let known = crate::eval::Replies {
                                moves: replies,
                                potential: Some(potential as u8),
                            };
                            eval.evaluate_with(&child, &cs, Some(known))
                        } else {
                            eval_negamax(eval, &child, &cs, eval_depth, -INF, INF)
                        };
                        value -= EVAL_WEIGHT[eval_depth as usize] * v;
                    }
                    _ => value -= 4 * shallow_value(cp, co, replies),
                }
            }
            mv.value = value;
        }
    }
}

/// A crude static evaluation for ordering: weighted mobility difference and corners.
#[inline]
fn crude_eval(p: u64, o: u64, p_moves: u64) -> i32 {
    let om = moves(o, p);
    let mp = p_moves.count_ones() as i32 + 2 * (p_moves & CORNERS).count_ones() as i32;
    let mo = om.count_ones() as i32 + 2 * (om & CORNERS).count_ones() as i32;
    4 * (mp - mo) + 16 * ((p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32)
}

/// Depth-1 value of `(p, o)` for the side to move under [`crude_eval`].
fn shallow_value(p: u64, o: u64, legal: u64) -> i32 {
    if legal == 0 {
        return -crude_eval(o, p, moves(o, p));
    }
    let mut best = -100_000;
    let mut m = legal;
    while m != 0 {
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(p, o, x);
        let (cp, co) = (o ^ f, p | f | 1 << x);
        let v = -crude_eval(cp, co, moves(cp, co));
        best = best.max(v);
    }
    best
}

/// A static value per square for move ordering: corners good, X- and C-squares bad.
#[rustfmt::skip]
static SQUARE_VALUE: [i32; 64] = [
    10, -2, 4, 2, 2, 4, -2, 10,
    -2, -6, 0, 0, 0, 0, -6, -2,
    4, 0, 1, 0, 0, 1, 0, 4,
    2, 0, 0, 0, 0, 0, 0, 2,
    2, 0, 0, 0, 0, 0, 0, 2,
    4, 0, 1, 0, 0, 1, 0, 4,
    -2, -6, 0, 0, 0, 0, -6, -2,
    10, -2, 4, 2, 2, 4, -2, 10,
];
