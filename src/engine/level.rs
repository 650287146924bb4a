//! Playing levels a person can beat: from 1 (a beginner wins) to [`Level::TOP`] (full strength,
//! the engine's ordinary play). Below the top, a move is chosen among the legal moves by their
//! values: every move is searched to a small depth (multi-PV, so that each value is its move's
//! own), and a move is drawn with probability proportional to `exp((value - best) /
//! temperature)`, a corner counting one temperature more (people take corners). The depth and
//! the temperature depend on the phase of the game, so that the mistakes fall where players'
//! fall; a corner or a wipe-out worth many discs more than the rest is missed only as often as
//! the level's temperature makes it. The draws come from a generator seeded by
//! [`super::EngineOptions::seed`]: the same seed and the same moves give the same game. The
//! table is calibrated in docs/lab/2026-12-06-levels.md.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use super::{ALL_MOVES, Engine, SearchRequest};
use crate::board::rules::Goal;
use crate::board::{Move, Rules};
use crate::search::{Limits, SearchResult, Source};

/// A playing strength: 1 (the weakest) to [`Level::TOP`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// How a level below the top plays in one phase of the game: the depth of its values and the
/// temperature of its choice, in discs (0: always the best).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Style {
    /// Plies of the search that values each move.
    pub depth: u32,
    /// Discs: a move this much worse than the best is chosen e (2.718…) times less often.
    pub temperature: f64,
}

/// The phases of [`crate::review::PHASES`] (by the empties of an 8×8 board: 60-45, 44-35,
/// 34-25, 24-15, 14-0), a style each, for the levels 1 to `TOP - 1`.
const STYLES: [[(u32, f64); 5]; Level::TOP.0 as usize - 1] = [
    [(1, 6.0), (1, 6.0), (1, 6.0), (1, 6.0), (1, 8.0)],
    [(1, 4.0), (1, 4.0), (1, 4.5), (1, 5.0), (1, 7.0)],
    [(2, 3.4), (2, 3.4), (2, 3.6), (2, 4.0), (2, 6.0)],
    [(2, 2.2), (2, 2.4), (2, 2.4), (2, 2.8), (3, 5.0)],
    [(3, 1.4), (3, 1.9), (2, 1.8), (2, 2.3), (3, 4.2)],
    [(3, 1.1), (3, 1.8), (3, 1.6), (3, 2.0), (3, 3.8)],
    // The tournament players of the WTHOR archive: their losses by phase within 15 %.
    [(4, 0.9), (4, 1.6), (3, 1.4), (3, 1.8), (4, 3.4)],
    [(5, 0.7), (5, 1.1), (4, 1.0), (4, 1.3), (6, 2.4)],
    [(6, 0.5), (6, 0.6), (6, 0.6), (8, 0.8), (12, 1.0)],
];

/// What each level is called.
const NAMES: [&str; Level::TOP.0 as usize] = [
    "beginner",
    "novice",
    "casual",
    "improver",
    "club",
    "strong club",
    "tournament",
    "expert",
    "master",
    "full strength",
];

impl Level {
    /// Full strength: the engine's ordinary play (the book, the search, the clock).
    pub const TOP: Level = Level(10);

    /// The weakest level.
    pub const WEAKEST: Level = Level(1);

    /// Level `number`, 1 to [`Level::TOP`]'s.
    pub fn new(number: u8) -> Option<Level> {
        (1..=Level::TOP.0)
            .contains(&number)
            .then_some(Level(number))
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether this is full strength.
    pub fn is_top(self) -> bool {
        self == Level::TOP
    }

    /// What the level is called (`beginner`, `club`, `tournament`, …).
    pub fn name(self) -> &'static str {
        NAMES[usize::from(self.0 - 1)]
    }

    /// How the level plays a position of `rules` with `empties` empty squares; `None` at the
    /// top. Smaller boards are put on the 8×8 scale of phases by their share of empties.
    pub(crate) fn style(self, rules: &Rules, empties: u32) -> Option<Style> {
        if self.is_top() {
            return None;
        }
        let playable = rules.squares().saturating_sub(4).max(1);
        let scaled = empties * 60 / playable;
        let phase = crate::review::phase(scaled);
        let (depth, temperature) = STYLES[usize::from(self.0 - 1)][phase];
        Some(Style { depth, temperature })
    }
}

impl Default for Level {
    /// Full strength.
    fn default() -> Self {
        Level::TOP
    }
}

impl fmt::Display for Level {
    /// `3 (casual)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

/// Why a level could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a level is a number from 1 (beginner) to {top} (full strength), not '{0}'", top = Level::TOP.0)]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    /// A number from 1 to [`Level::TOP`]'s, or a level's name (`club`, `full strength`).
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let text = text.trim();
        let by_number = text.parse::<u8>().ok().and_then(Level::new);
        let by_name = || {
            NAMES
                .iter()
                .position(|n| {
                    n.eq_ignore_ascii_case(text) || n.replace(' ', "-").eq_ignore_ascii_case(text)
                })
                .map(|i| Level(i as u8 + 1))
        };
        by_number
            .or_else(by_name)
            .ok_or_else(|| ParseLevelError(crate::board::notation::excerpt(text)))
    }
}

/// The index among `scores` drawn with weights `exp((score - best) / temperature)` from `unit`
/// (a number in `[0, 1)`); the first best at temperature 0.
pub(crate) fn draw(scores: &[f64], temperature: f64, unit: f64) -> usize {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if temperature <= 0.0 {
        return scores.iter().position(|&s| s == best).unwrap_or(0);
    }
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| ((s - best) / temperature).exp())
        .collect();
    let mut target = unit * weights.iter().sum::<f64>();
    for (i, w) in weights.iter().enumerate() {
        if target < *w {
            return i;
        }
        target -= w;
    }
    weights.len() - 1
}

/// What a level below the top does with the game's position.
pub(super) enum LevelMove {
    /// A move drawn among two or more.
    Drawn(SearchResult),
    /// A pass or a single move: searched for its value at this depth.
    Forced(u32),
    /// The game is over.
    Over,
}

impl Engine {
    /// The move of a level below the top for the request's position: every legal move valued
    /// to the level's depth for the phase, one drawn by the level's temperature.
    pub(super) fn level_move(&mut self, request: &SearchRequest) -> LevelMove {
        let start = Instant::now();
        let (rules, state) = self.target(request.target);
        let Some(style) = self
            .options
            .level
            .style(&rules, rules.empty_count(&state.board()))
        else {
            // Full strength: the ordinary search (not called so).
            return LevelMove::Over;
        };
        let moves = rules.moves(&state);
        if rules.is_over(&state) {
            return LevelMove::Over;
        }
        if moves.count_ones() < 2 {
            return LevelMove::Forced(style.depth);
        }
        let values = SearchRequest {
            limits: Limits::depth(style.depth),
            moves: ALL_MOVES,
            book: false,
            value_forced: false,
            ..*request
        };
        let hints = self.hint(moves.count_ones() as usize, &values, &mut |_| {});
        // People take corners: where most discs win, a corner is drawn as if it were worth one
        // temperature more (in Anti-Reversi a corner is a burden, and has no bonus).
        let corners = match rules.goal {
            Goal::MostDiscs => rules.corners(),
            Goal::FewestDiscs => 0,
        };
        let scores: Vec<f64> = hints
            .moves
            .iter()
            .map(|r| {
                let corner =
                    matches!(r.best_move, Move::Play(sq) if corners >> sq.index() & 1 != 0);
                f64::from(r.score) + if corner { style.temperature } else { 0.0 }
            })
            .collect();
        if scores.is_empty() {
            // Stopped before any value: the ordinary search answers, at once.
            return LevelMove::Forced(style.depth);
        }
        let chosen = draw(&scores, style.temperature, self.draws.unit());
        let mut result = hints.moves[chosen].clone();
        debug_assert!(result.best_move != Move::Pass);
        result.nodes = hints.nodes;
        result.time = start.elapsed();
        result.source = Source::Search;
        LevelMove::Drawn(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_by_number_and_name() {
        assert_eq!("3".parse::<Level>(), Ok(Level(3)));
        assert_eq!("club".parse::<Level>(), Ok(Level(5)));
        assert_eq!("Full-Strength".parse::<Level>(), Ok(Level::TOP));
        for bad in ["0", "11", "-1", "expertise", ""] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert_eq!(Level::TOP.to_string(), "10 (full strength)");
        assert!(Level::TOP.style(&Rules::OTHELLO, 30).is_none());
    }

    #[test]
    fn a_draw_follows_the_weights() {
        // At temperature 0 the first best; otherwise every move can come, the best the most.
        assert_eq!(draw(&[1.0, 5.0, 5.0, 2.0], 0.0, 0.99), 1);
        let mut counts = [0usize; 3];
        let mut draws = crate::rng::SplitMix64::new(7);
        for _ in 0..30_000 {
            counts[draw(&[0.0, -2.0, -20.0], 2.0, draws.unit())] += 1;
        }
        // Weights 1, e^-1, e^-10: shares 73.1 %, 26.9 %, 0.003 %.
        assert!((21_000..22_900).contains(&counts[0]), "{counts:?}");
        assert!((7_500..8_600).contains(&counts[1]), "{counts:?}");
        assert!(counts[2] < 10, "{counts:?}");
    }

    #[test]
    fn the_phases_of_small_boards_scale() {
        let six: Rules = "6x6".parse().unwrap();
        let deep_end = Level(9).style(&Rules::OTHELLO, 10).unwrap();
        assert_eq!(Level(9).style(&six, 5).unwrap(), deep_end);
        assert_eq!(
            Level(9).style(&six, 32).unwrap(),
            Level(9).style(&Rules::OTHELLO, 60).unwrap()
        );
    }
}
