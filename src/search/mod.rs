//! Search: the exact endgame solver, the depth-limited midgame search, their shared
//! transposition table, time planning and the iterative-deepening driver. The public part is
//! what a search gives and takes: [`SearchResult`], [`Bound`], [`Source`], [`Limits`],
//! [`Selectivity`] and, for exact solves, [`SolveMode`] and [`Solution`].

use std::time::Duration;

use crate::board::Move;

pub(crate) mod control;
pub(crate) mod driver;
pub(crate) mod endgame;
pub(crate) mod midgame;
pub(crate) mod multipv;
pub(crate) mod params;
pub(crate) mod probcut;
pub(crate) mod pvs;
mod scorer;
pub(crate) mod solve;
pub(crate) mod time;
pub(crate) mod tt;
pub(crate) mod variant;

pub use probcut::{ParseSelectivityError, Selectivity};
pub(crate) use scorer::Scorer;

pub use control::Progress;
pub use endgame::{Solution, SolveMode};
pub use tt::TableError;

/// The highest possible score: every disc of a 64-square board, in discs for the side to move.
pub const SCORE_MAX: i32 = 64;

/// Whether a search was stopped before it finished; its results are then meaningless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped")]
pub struct Stopped;

/// Above any score: the "nothing searched yet" value of a best score.
pub(crate) const INF: i32 = 127;
pub use time::{Clock, Limits};

/// How much a score is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// An estimate from a depth-limited search.
    Estimate,
    /// Proven win (`> 0`), draw (`0`) or loss (`< 0`); the magnitude is an estimate.
    WinLossDraw,
    /// The exact final disc difference under perfect play.
    Exact,
}

/// Where a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A search.
    Search,
    /// The opening book.
    Book,
    /// The only legal move (or a forced pass): no search.
    Forced,
}

/// The outcome of a search, or of one of its iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Move::Pass` when the side to move must pass).
    pub best_move: Move,
    /// Disc difference for the side to move (see `bound`).
    pub score: i32,
    /// Plies of the midgame iteration, or the empties for a solve.
    pub depth: u32,
    /// The selectivity of the search ([`Selectivity::NONE`] for a solve).
    pub selectivity: Selectivity,
    /// What the score proves.
    pub bound: Bound,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Search, book or forced.
    pub source: Source,
}

impl SearchResult {
    /// A result found without searching: `mv` alone as the line, no nodes.
    pub fn immediate(
        mv: Move,
        score: i32,
        bound: Bound,
        source: Source,
        time: Duration,
    ) -> SearchResult {
        SearchResult {
            best_move: mv,
            score,
            depth: 0,
            selectivity: Selectivity::NONE,
            bound,
            nodes: 0,
            time,
            pv: vec![mv],
            source,
        }
    }

    /// `depth@selectivity%` as Edax prints it (`12@95%`), `24@100%` for an exact solve and
    /// `24@100%W` for a win/loss/draw solve.
    pub fn depth_text(&self) -> String {
        match self.bound {
            Bound::Estimate => format!("{}@{}%", self.depth, self.selectivity.percent()),
            Bound::Exact => format!("{}@100%", self.depth),
            Bound::WinLossDraw => format!("{}@100%W", self.depth),
        }
    }
}
