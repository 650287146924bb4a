//! Static evaluation: a score for the side to move, in discs, that the midgame search uses at
//! its leaves and for move ordering.
//!
//! [`Evaluator`] is the seam between the search and the evaluation: the hand-written
//! [`HandEval`] fills it until the trained pattern evaluation replaces it.

mod hand;
pub mod pattern;

pub use hand::HandEval;

use crate::board::Board;

/// A static evaluation function.
pub trait Evaluator: Send + Sync {
    /// The expected final disc difference for the side to move of `board` (which is not over),
    /// within `-64..=64`.
    fn evaluate(&self, board: &Board) -> i32;

    /// A short name for logs and `analyze` output.
    fn name(&self) -> &str;
}
