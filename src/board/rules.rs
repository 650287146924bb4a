//! Rules as a value: the start, the disc supply and the goal of the game.
//!
//! Standard Othello is what the engine plays today. The other rule sets in this project's sources
//! (the historical Reversi start, 32 discs per player, Anti-Reversi, smaller boards) are
//! described here so that they can be switched on without touching the code that plays moves;
//! [`Rules::check_supported`] says which are implemented.

use std::fmt;

use thiserror::Error;

use super::position::{Board, Position};

/// How the game starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Opening {
    /// Four discs on the centre squares, crossed (Othello): White d4 and e5, Black e4 and d5.
    Cross,
    /// An empty board; the first four moves fill the centre squares without capturing
    /// (the historical Reversi start).
    Placement,
}

/// What a player tries to achieve.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Goal {
    /// The most discs wins (Othello, Reversi).
    MostDiscs,
    /// The fewest discs wins (Anti-Reversi).
    FewestDiscs,
}

/// A complete rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Board side length: 8 (4 and 6 are planned).
    pub size: u8,
    /// How the game starts.
    pub opening: Opening,
    /// Discs each player may place in total (`None`: unlimited, as in Othello; Reversi had 32).
    pub discs_per_player: Option<u8>,
    /// What a player tries to achieve.
    pub goal: Goal,
}

/// A rule set that this version cannot play yet.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("rules '{0}' are not supported yet: only standard 8x8 Othello is")]
pub struct UnsupportedRules(pub String);

impl Rules {
    /// Standard tournament Othello on 8×8.
    pub const OTHELLO: Rules = Rules {
        size: 8,
        opening: Opening::Cross,
        discs_per_player: None,
        goal: Goal::MostDiscs,
    };

    /// Ok when this version implements the rule set.
    pub fn check_supported(&self) -> Result<(), UnsupportedRules> {
        if *self == Rules::OTHELLO {
            Ok(())
        } else {
            Err(UnsupportedRules(self.to_string()))
        }
    }

    /// The start position, Black to move.
    pub fn start(&self) -> Position {
        Position::start()
    }

    /// The final score of a finished game for the side to move, in discs, with the empty squares
    /// going to the winner.
    pub fn final_score(&self, board: &Board) -> i32 {
        board.final_score()
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::OTHELLO
    }
}

impl fmt::Display for Rules {
    /// A short name such as `othello`, `6x6 anti`, `reversi 32-discs`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.size != 8 {
            parts.push(format!("{0}x{0}", self.size));
        }
        parts.push(
            match (self.opening, self.goal) {
                (Opening::Cross, Goal::MostDiscs) => "othello",
                (Opening::Placement, Goal::MostDiscs) => "reversi",
                (Opening::Cross, Goal::FewestDiscs) => "anti",
                (Opening::Placement, Goal::FewestDiscs) => "anti-reversi",
            }
            .to_string(),
        );
        if let Some(n) = self.discs_per_player {
            parts.push(format!("{n}-discs"));
        }
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_is_supported_and_others_say_so() {
        assert!(Rules::OTHELLO.check_supported().is_ok());
        let reversi = Rules {
            opening: Opening::Placement,
            discs_per_player: Some(32),
            ..Rules::OTHELLO
        };
        assert_eq!(
            reversi.check_supported().unwrap_err().to_string(),
            "rules 'reversi 32-discs' are not supported yet: only standard 8x8 Othello is"
        );
        assert_eq!(Rules::OTHELLO.to_string(), "othello");
    }
}
