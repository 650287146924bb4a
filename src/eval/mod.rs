//! Static evaluation: a score for the side to move, in discs, that the midgame search uses at
//! its leaves and for move ordering.
//!
//! [`Evaluator`] is the seam between the search and the evaluation. The engine plays with the
//! trained [`PatternEval`] compiled into the binary ([`default_evaluator`]); an engine reads
//! another weight file, or the small hand-written [`HandEval`], by its `EvalSource`.

pub(crate) mod features;
mod hand;
pub(crate) mod pattern;
mod weights;

pub(crate) use features::PatternState;
pub use hand::HandEval;
pub(crate) use weights::SCALE;
pub use weights::{PatternEval, WeightsError};

use std::sync::{Arc, OnceLock};

use crate::board::Board;

/// What the search computed of a position's side to move while ordering its parent's moves; an
/// evaluation reuses it rather than computing it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replies {
    /// The side to move's legal moves.
    pub moves: u64,
    /// Its potential mobility (empty squares next to an opponent's disc,
    /// [`crate::board::movegen::potential_moves`] counted), when computed.
    pub potential: Option<u8>,
}

impl Replies {
    /// Legal moves alone.
    pub fn moves(moves: u64) -> Replies {
        Replies {
            moves,
            potential: None,
        }
    }
}

/// A static evaluation function.
pub trait Evaluator: Send + Sync {
    /// The expected final disc difference for the side to move of `board` (which is not over),
    /// within `-64..=64`.
    fn evaluate(&self, board: &Board) -> i32;

    /// A short name for logs and `analyze` output.
    fn name(&self) -> &str;
}

/// An evaluation the search carries along with each position: static dispatch (the search is
/// generic over it) and an incremental state updated from each move's flips.
///
/// The value of [`SearchEval::evaluate_with`] must equal the evaluation read from the board
/// alone: the state only saves work.
pub trait SearchEval: Sync {
    /// What the search carries with each position (`()` for an evaluation without state).
    type State: Copy + Send + Sync;

    /// The state of `board`, from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after the side to move plays `x`, flipping `flips`.
    fn play(&self, state: &Self::State, x: usize, flips: u64) -> Self::State;

    /// The state after a pass.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The evaluation of `board` (discs for the side to move, `-64..=64`) whose state is
    /// `state`; `known`: what the caller already computed of the side to move.
    fn evaluate_with(&self, board: &Board, state: &Self::State, known: Option<Replies>) -> i32;
}

/// Any evaluation as a [`SearchEval`] without a state: each leaf is read from the board (the
/// slow path, for evaluations that are only known as `dyn Evaluator`).
impl SearchEval for dyn Evaluator {
    type State = ();

    fn state(&self, _: &Board) {}

    fn play(&self, _: &(), _: usize, _: u64) {}

    fn pass(&self, _: &()) {}

    fn evaluate_with(&self, board: &Board, _: &(), _: Option<Replies>) -> i32 {
        self.evaluate(board)
    }
}

impl SearchEval for HandEval {
    type State = ();

    fn state(&self, _: &Board) {}

    fn play(&self, _: &(), _: usize, _: u64) {}

    fn pass(&self, _: &()) {}

    #[inline]
    fn evaluate_with(&self, board: &Board, _: &(), _: Option<Replies>) -> i32 {
        self.evaluate(board)
    }
}

impl SearchEval for PatternEval {
    type State = PatternState;

    #[inline]
    fn state(&self, board: &Board) -> PatternState {
        PatternState::new(board)
    }

    #[inline]
    fn play(&self, state: &PatternState, x: usize, flips: u64) -> PatternState {
        state.play(x, flips, self.kernel())
    }

    #[inline]
    fn pass(&self, state: &PatternState) -> PatternState {
        state.pass()
    }

    #[inline]
    fn evaluate_with(&self, board: &Board, state: &PatternState, known: Option<Replies>) -> i32 {
        PatternEval::evaluate_with(self, board, state, known)
    }
}

/// The evaluations a search can run on, as one value the engine keeps: the search is
/// compiled for each (see `with_search_eval!`), so no leaf pays for a dynamic call.
#[derive(Clone)]
pub enum Evaluation {
    /// The trained weights compiled into the binary, read once per process on first use
    /// ([`default_evaluator`] starts reading them in the background). Should they
    /// be unusable, the hand-written evaluation stands in.
    Embedded,
    /// A trained pattern evaluation (e.g. from a weight file).
    Pattern(Arc<PatternEval>),
    /// The hand-written evaluation.
    Hand,
}

/// The weights compiled into the binary, read on the first call (later calls wait for it);
/// `None`, with a warning in the log, when they are unusable.
pub(crate) fn embedded() -> Option<&'static PatternEval> {
    static EMBEDDED: OnceLock<Option<PatternEval>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            let start = std::time::Instant::now();
            match PatternEval::embedded() {
                Ok(eval) => {
                    log::info!(
                        "evaluation weights loaded in {:.1} ms",
                        start.elapsed().as_secs_f64() * 1000.0
                    );
                    Some(eval)
                }
                Err(e) => {
                    log::warn!("embedded evaluation unusable ({e}); using the hand-written one");
                    None
                }
            }
        })
        .as_ref()
}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Evaluation {
    /// The static evaluation of `board` (see [`Evaluator::evaluate`]).
    pub fn evaluate(&self, board: &Board) -> i32 {
        crate::eval::with_search_eval!(self, e => Evaluator::evaluate(e, board))
    }

    /// Waits until the weights can be used: the embedded ones are read on a thread of their
    /// own (see [`default_evaluator`]), and a search's time must not pay for them.
    pub fn wait_until_read(&self) {
        if matches!(self, Evaluation::Embedded) {
            embedded();
        }
    }

    /// A short name for logs and reports.
    pub fn name(&self) -> &str {
        match self {
            Evaluation::Embedded | Evaluation::Pattern(_) => "pattern",
            Evaluation::Hand => HandEval.name(),
        }
    }
}

impl Evaluator for Evaluation {
    fn evaluate(&self, board: &Board) -> i32 {
        Evaluation::evaluate(self, board)
    }

    fn name(&self) -> &str {
        Evaluation::name(self)
    }
}

/// Runs `$body` with `$e` bound to the concrete evaluation of `$evaluation` (an
/// [`Evaluation`]): the one place where the search's static dispatch is chosen.
macro_rules! with_search_eval {
    ($evaluation:expr, $e:ident => $body:expr) => {{
        let pattern: Option<&$crate::eval::PatternEval> = match $evaluation {
            $crate::eval::Evaluation::Embedded => $crate::eval::embedded(),
            $crate::eval::Evaluation::Pattern(pattern) => Some(pattern),
            $crate::eval::Evaluation::Hand => None,
        };
        match pattern {
            Some($e) => $body,
            None => {
                let $e = &$crate::eval::HandEval;
                $body
            }
        }
    }};
}
pub(crate) use with_search_eval;

/// The evaluation the engine starts with: the embedded trained weights ([`Evaluation::Embedded`]).
/// The first call starts reading them on a thread of their own, so that a program answers its
/// first commands while they load; the first search waits for them.
pub fn default_evaluator() -> Evaluation {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let started = std::thread::Builder::new()
            .name("iago-weights".into())
            .spawn(|| {
                embedded();
            });
        if let Err(e) = started {
            // The first search reads them instead.
            log::debug!("weights not read in the background: {e}");
        }
    });
    Evaluation::Embedded
}
