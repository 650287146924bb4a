//! A hand-written evaluation: mobility, potential mobility, corners and the squares next to
//! them, stable discs, and the disc count near the end. Weights were set by hand from common
//! Othello knowledge and are a stop-gap until the trained evaluation exists.

use crate::board::Board;
use crate::board::movegen::{moves, potential_moves};
use crate::board::stability::stable_discs;

use super::Evaluator;

/// The hand-written evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (b2, g2, b7, g7), each paired with its corner below.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];
/// C-squares (next to a corner on an edge) with their corner.
const C_SQUARES: [(u64, u64); 4] = [
    (1 << 1 | 1 << 8, 1 << 0),
    (1 << 6 | 1 << 15, 1 << 7),
    (1 << 48 | 1 << 57, 1 << 56),
    (1 << 55 | 1 << 62, 1 << 63),
];

/// Sixteenths of a disc per unit of each feature, before the game-stage blend.
struct Weights {
    mobility: i32,
    potential: i32,
    corner: i32,
    x_square: i32,
    c_square: i32,
    stable: i32,
    discs: i32,
}

const OPENING: Weights = Weights {
    mobility: 14,
    potential: 6,
    corner: 80,
    x_square: -40,
    c_square: -12,
    stable: 12,
    discs: -2,
};

const ENDGAME: Weights = Weights {
    mobility: 10,
    potential: 2,
    corner: 48,
    x_square: -16,
    c_square: -6,
    stable: 20,
    discs: 8,
};

/// The features of `p` minus those of `o`.
fn features(p: u64, o: u64) -> [i32; 7] {
    let p_moves = moves(p, o);
    let o_moves = moves(o, p);
    let count = |x: u64| x.count_ones() as i32;
    let mobility =
        count(p_moves) + count(p_moves & CORNERS) - count(o_moves) - count(o_moves & CORNERS);
    let potential = count(potential_moves(p, o)) - count(potential_moves(o, p));
    let corner = count(p & CORNERS) - count(o & CORNERS);
    let empty = !(p | o);
    let (mut x_square, mut c_square) = (0, 0);
    for (x, corner_sq) in X_SQUARES {
        if empty & corner_sq != 0 {
            x_square += count(p & x) - count(o & x);
        }
    }
    for (c, corner_sq) in C_SQUARES {
        if empty & corner_sq != 0 {
            c_square += count(p & c) - count(o & c);
        }
    }
    let stable = count(stable_discs(p, o)) - count(stable_discs(o, p));
    let discs = count(p) - count(o);
    [
        mobility, potential, corner, x_square, c_square, stable, discs,
    ]
}

impl Evaluator for HandEval {
    fn evaluate(&self, board: &Board) -> i32 {
        let f = features(board.player, board.opponent);
        let empties = board.empty_count() as i32;
        // Linear blend from the opening weights (60 empties) to the endgame ones (0 empties).
        let blend = |a: i32, b: i32| (a * empties + b * (60 - empties)) / 60;
        let w = [
            blend(OPENING.mobility, ENDGAME.mobility),
            blend(OPENING.potential, ENDGAME.potential),
            blend(OPENING.corner, ENDGAME.corner),
            blend(OPENING.x_square, ENDGAME.x_square),
            blend(OPENING.c_square, ENDGAME.c_square),
            blend(OPENING.stable, ENDGAME.stable),
            blend(OPENING.discs, ENDGAME.discs),
        ];
        let sixteenths: i32 = f.iter().zip(w).map(|(x, w)| x * w).sum();
        // Round to the nearest disc, away from zero on halves.
        let discs = (sixteenths + if sixteenths >= 0 { 8 } else { -8 }) / 16;
        discs.clamp(-64, 64)
    }

    fn name(&self) -> &str {
        "hand-written"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Symmetry;

    #[test]
    fn start_is_balanced_and_colour_symmetric() {
        let b = Board::start();
        assert_eq!(HandEval.evaluate(&b), 0);
        assert_eq!(HandEval.evaluate(&b.pass()), 0);
    }

    #[test]
    fn corners_are_good() {
        // The side to move owns a1 and the other side b2: positive.
        let b = Board::new(1 | 1 << 27, 1 << 9 | 1 << 36).unwrap();
        assert!(HandEval.evaluate(&b) > 0);
        assert!(HandEval.evaluate(&b.pass()) < 0);
    }

    #[test]
    fn symmetric_boards_evaluate_alike() {
        let b = Board::new(0x0000_1818_3C00_0000, 0x0000_2400_0018_0800).unwrap();
        for s in Symmetry::ALL {
            assert_eq!(HandEval.evaluate(&b.transform(s)), HandEval.evaluate(&b));
        }
    }
}
