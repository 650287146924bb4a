//! A match's configuration, and why one cannot start.

use std::time::Duration;

use thiserror::Error;

use super::external::StartError;
use super::openings::Opening;
use super::spec::{EngineSpec, GameLimits};
use super::stats::Sprt;

/// A match, ready to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's view.
    pub engines: [EngineSpec; 2],
    /// The rules of every game.
    pub rules: crate::board::Rules,
    /// The openings (at least one; [`Opening::start`] for none).
    pub openings: Vec<Opening>,
    /// Where the openings came from (for the summary).
    pub openings_source: String,
    /// Rounds of two games.
    pub rounds: usize,
    /// `Some(seed)`: openings in a seeded random order.
    pub random_seed: Option<u64>,
    /// The limit of engines whose spec sets none.
    pub limit: GameLimits,
    /// Tolerance over an allotted time.
    pub time_margin: Duration,
    /// Longest wait for a move without a clock or time per move.
    pub move_timeout: Duration,
    /// Longest game.
    pub game_timeout: Option<Duration>,
    /// Games at once.
    pub concurrency: usize,
    /// Early stop by SPRT.
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// A match of `rounds` rounds from the standard start with these engines and default limit;
    /// 0.2 s time margin, 60 s move timeout, one game at a time.
    pub fn new(engines: [EngineSpec; 2], limit: GameLimits, rounds: usize) -> MatchConfig {
        MatchConfig {
            engines,
            rules: crate::board::Rules::OTHELLO,
            openings: vec![Opening::start()],
            openings_source: "the standard start".into(),
            rounds,
            random_seed: None,
            limit,
            time_margin: Duration::from_millis(200),
            move_timeout: Duration::from_secs(60),
            game_timeout: None,
            concurrency: 1,
            sprt: None,
        }
    }
}

/// Why a match could not start: its settings, or an engine that cannot be set up. (Once the
/// games run, what goes wrong in them is a forfeit, not an error.)
#[derive(Debug, Error)]
pub enum MatchError {
    /// Two engines with one name (the reports and the GGF could not tell them apart).
    #[error("both engines are named {0}: give one a name= in its spec")]
    SameName(String),
    /// An empty list of openings.
    #[error("no openings")]
    NoOpenings,
    /// A concurrency of zero.
    #[error("--concurrency must be at least 1")]
    NoConcurrency,
    /// An engine without a depth, a time or a clock.
    #[error(
        "engine {0} has no limit: give --depth, --move-time or --tc, or depth=, time= or tc= in its spec"
    )]
    NoLimit(String),
    /// An NBoard engine given only a time per move.
    #[error(
        "engine {0} speaks NBoard, which has no time per move: give it depth= or a clock (tc=)"
    )]
    NboardMoveTime(String),
    /// The evaluation or the book of an in-process engine cannot be read.
    #[error("engine {name}: {}", spec_words(error))]
    Load {
        /// The engine.
        name: String,
        /// Why.
        #[source]
        error: crate::engine::LoadError,
    },
    /// An external engine cannot be started.
    #[error("engine {name}: {error}")]
    Start {
        /// The engine.
        name: String,
        /// Why.
        #[source]
        error: StartError,
    },
}

/// A loading error in the words of an engine spec: a weight file is named by `eval=`.
fn spec_words(error: &crate::engine::LoadError) -> String {
    match error {
        crate::engine::LoadError::Eval { name, error } => format!("eval={name}: {error}"),
        error => error.to_string(),
    }
}
