//! Static evaluation: a score for the side to move, in discs, that the midgame search uses at
//! its leaves and for move ordering.
//!
//! [`Evaluator`] is the seam between the search and the evaluation. The engine plays with the
//! trained [`PatternEval`] compiled into the binary ([`default_evaluator`]); `--eval FILE` loads
//! another weight file, and `--eval hand` selects the small hand-written [`HandEval`].

mod hand;
pub mod pattern;
mod weights;

pub use hand::HandEval;
pub use weights::{PatternEval, SCALE, WeightsError};

use std::sync::{Arc, OnceLock};

use crate::board::Board;

/// A static evaluation function.
pub trait Evaluator: Send + Sync {
    /// The expected final disc difference for the side to move of `board` (which is not over),
    /// within `-64..=64`.
    fn evaluate(&self, board: &Board) -> i32;

    /// A short name for logs and `analyze` output.
    fn name(&self) -> &str;
}

/// The evaluation the engine starts with: the embedded trained weights, parsed once per process.
/// Should they be unusable (a build without trained weights), the hand-written evaluation stands
/// in, with a warning in the log.
pub fn default_evaluator() -> Arc<dyn Evaluator> {
    static DEFAULT: OnceLock<Arc<dyn Evaluator>> = OnceLock::new();
    let start = std::time::Instant::now();
    DEFAULT
        .get_or_init(|| match PatternEval::embedded() {
            Ok(eval) => {
                log::info!(
                    "evaluation weights loaded in {:.1} ms",
                    start.elapsed().as_secs_f64() * 1000.0
                );
                Arc::new(eval)
            }
            Err(e) => {
                log::warn!("embedded evaluation unusable ({e}); using the hand-written one");
                Arc::new(HandEval)
            }
        })
        .clone()
}

/// The evaluation named on a command line: `hand` (the hand-written one), `pattern` (the
/// embedded weights) or the path of a weight file made by `iago train`.
pub fn load_evaluator(name: &str) -> Result<Arc<dyn Evaluator>, WeightsError> {
    Ok(match name {
        "hand" => Arc::new(HandEval),
        "pattern" | "embedded" => Arc::new(PatternEval::embedded()?),
        path => Arc::new(PatternEval::load(std::path::Path::new(path))?),
    })
}
