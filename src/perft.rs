//! perft: the number of leaves of the game tree to a given depth, the standard check of move
//! generation. Two conventions exist for passes (the tests pin both, `tests/perft.rs`):
//! [`PassRule::Ply`] (a forced pass uses one ply, Edax's and Aart Bik's count) and
//! [`PassRule::Free`] (a pass does not use depth). In both a finished game is one leaf.

use rayon::prelude::*;

use crate::board::movegen::{flips, moves};
use crate::board::rules::{Rules, State};
use crate::board::{Bitboard, Board};

/// How a forced pass counts against the depth.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PassRule {
    /// A forced pass consumes one ply.
    Ply,
    /// A forced pass consumes no depth.
    Free,
}

/// Below this remaining depth the parallel search goes sequential.
const PARALLEL_CUTOFF: u32 = 7;

/// The number of leaves `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32, rule: PassRule) -> u64 {
    if depth == 0 {
        return 1;
    }
    match rule {
        PassRule::Ply => perft_ply(board.player, board.opponent, depth),
        PassRule::Free => perft_free(board.player, board.opponent, depth),
    }
}

/// As [`perft`], spread over the current rayon thread pool (use
/// `rayon::ThreadPoolBuilder::install` to choose the number of threads).
pub fn perft_parallel(board: &Board, depth: u32, rule: PassRule) -> u64 {
    if depth < PARALLEL_CUTOFF {
        return perft(board, depth, rule);
    }
    let legal = moves(board.player, board.opponent);
    if legal == 0 {
        let passed = board.pass();
        if moves(passed.player, passed.opponent) == 0 {
            return 1;
        }
        let depth = if rule == PassRule::Ply {
            depth - 1
        } else {
            depth
        };
        return perft_parallel(&passed, depth, rule);
    }
    let children: Vec<Board> = crate::board::Bitboard(legal)
        .iter()
        .map(|sq| {
            let sq = sq.index() as usize;
            board.play_unchecked(sq, flips(board.player, board.opponent, sq))
        })
        .collect();
    children
        .par_iter()
        .map(|child| perft_parallel(child, depth - 1, rule))
        .sum()
}

/// [`perft`] under any rules (board size, Reversi start, disc supply; the goal does not change
/// the tree), spread over the current rayon pool near the root.
pub fn perft_rules(rules: &Rules, state: &State, depth: u32, rule: PassRule) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = rules.moves(state);
    if legal == 0 {
        let passed = state.pass();
        if rules.moves(&passed) == 0 {
            return 1;
        }
        let depth = if rule == PassRule::Ply {
            depth - 1
        } else {
            depth
        };
        return perft_rules(rules, &passed, depth, rule);
    }
    if depth == 1 {
        return legal.count_ones() as u64;
    }
    let children = Bitboard(legal)
        .iter()
        .map(|sq| rules.play_unchecked(state, sq.index() as usize));
    if depth >= PARALLEL_CUTOFF {
        children
            .collect::<Vec<_>>()
            .par_iter()
            .map(|child| perft_rules(rules, child, depth - 1, rule))
            .sum()
    } else {
        children
            .map(|child| perft_rules(rules, &child, depth - 1, rule))
            .sum()
    }
}

/// Leaves one ply below `(p, o)` when a pass uses a ply: the moves, or one leaf for a pass or
/// a finished game.
#[inline(always)]
fn leaves_ply_1(p: u64, o: u64) -> u64 {
    (moves(p, o).count_ones() as u64).max(1)
}

fn perft_ply(p: u64, o: u64, depth: u32) -> u64 {
    let mut legal = moves(p, o);
    if depth == 1 {
        return (legal.count_ones() as u64).max(1);
    }
    if legal == 0 {
        if moves(o, p) == 0 {
            return 1;
        }
        return perft_ply(o, p, depth - 1);
    }
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = flips(p, o, sq);
        let (cp, co) = (o ^ f, p | f | 1 << sq);
        total += if depth == 2 {
            leaves_ply_1(cp, co)
        } else {
            perft_ply(cp, co, depth - 1)
        };
    }
    total
}

/// Leaves one ply below `(p, o)` when a pass is free.
#[inline(always)]
fn leaves_free_1(p: u64, o: u64) -> u64 {
    let legal = moves(p, o);
    if legal != 0 {
        return legal.count_ones() as u64;
    }
    (moves(o, p).count_ones() as u64).max(1)
}

fn perft_free(p: u64, o: u64, depth: u32) -> u64 {
    let mut legal = moves(p, o);
    if legal == 0 {
        let other = moves(o, p);
        if other == 0 {
            return 1;
        }
        return perft_free(o, p, depth);
    }
    if depth == 1 {
        return legal.count_ones() as u64;
    }
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = flips(p, o, sq);
        let (cp, co) = (o ^ f, p | f | 1 << sq);
        total += if depth == 2 {
            leaves_free_1(cp, co)
        } else {
            perft_free(cp, co, depth - 1)
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    /// Straight from the definition, through the checked `Board` API.
    fn perft_slow(board: &Board, depth: u32, rule: PassRule) -> u64 {
        if depth == 0 {
            return 1;
        }
        if board.is_game_over() {
            return 1;
        }
        if board.must_pass() {
            let next = board.play(Move::Pass);
            return perft_slow(
                &next,
                if rule == PassRule::Ply {
                    depth - 1
                } else {
                    depth
                },
                rule,
            );
        }
        board
            .legal_moves()
            .iter()
            .map(|sq| perft_slow(&board.play(Move::Play(sq)), depth - 1, rule))
            .sum()
    }

    #[test]
    fn fast_equals_slow_on_start_and_passing_positions() {
        // Start position, and a position where White must pass after black plays (from FFO #1).
        let boards = [
            Board::start(),
            crate::board::parse_position(
                "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            )
            .unwrap()
            .board,
        ];
        for board in boards {
            for rule in [PassRule::Ply, PassRule::Free] {
                for depth in 0..=6 {
                    assert_eq!(
                        perft(&board, depth, rule),
                        perft_slow(&board, depth, rule),
                        "{rule:?} {depth}"
                    );
                }
            }
        }
    }

    #[test]
    fn rules_perft_equals_the_fast_one_on_standard_rules() {
        let rules = Rules::OTHELLO;
        for rule in [PassRule::Ply, PassRule::Free] {
            for depth in 0..=7 {
                assert_eq!(
                    perft_rules(&rules, &rules.start(), depth, rule),
                    perft(&Board::start(), depth, rule)
                );
            }
        }
    }

    #[test]
    fn parallel_equals_sequential() {
        let board = Board::start();
        for rule in [PassRule::Ply, PassRule::Free] {
            assert_eq!(perft_parallel(&board, 8, rule), perft(&board, 8, rule));
        }
    }
}
