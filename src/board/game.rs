//! `Game`: a start position and the moves played from it, with passes made explicit.

use std::fmt;

use super::notation::{
    ParsePositionError, TranscriptError, parse_sized_position, parse_transcript_moves,
    write_transcript,
};
use super::position::{Color, IllegalMoveError, Position};
use super::rules::{PositionError, Rules, State};
use super::square::Move;

/// A game: the rules, the start and every move since (passes included), so that it can be
/// replayed, undone and written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    start: State,
    moves: Vec<Move>,
    current: State,
}

/// How a game ends: Black's final disc difference, the empty squares going to the winner (as
/// each rule set counts them: under Anti rules the side with fewer discs wins). Written
/// `Black wins by 8`, `White wins by 2` or `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Black's disc difference (positive: Black won).
    pub score_for_black: i32,
}

impl Outcome {
    /// The outcome of a score for `color` (its disc difference): a solved position's.
    pub fn for_color(color: Color, score: i32) -> Outcome {
        let score_for_black = match color {
            Color::Black => score,
            Color::White => -score,
        };
        Outcome { score_for_black }
    }

    /// The winner; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self.score_for_black {
            0 => None,
            s if s > 0 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The winner's margin in discs (0 for a draw).
    pub fn margin(self) -> u32 {
        self.score_for_black.unsigned_abs()
    }
}

impl fmt::Display for Outcome {
    /// `Black wins by 8`, `White wins by 2`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            None => f.write_str("draw"),
            Some(color) => write!(f, "{} wins by {}", color.name(), self.margin()),
        }
    }
}

impl Game {
    /// The game that starts at a board string (16, 36 or 64 squares and the side to move,
    /// `"<squares> X"`), under the rules `rules_at` gives for the board's size (e.g. the
    /// current rules at that size, or the rules a command line names).
    pub fn from_board<E>(
        text: &str,
        rules_at: impl FnOnce(u8) -> Result<Rules, E>,
    ) -> Result<Game, E>
    where
        E: From<ParsePositionError> + From<PositionError>,
    {
        let (position, size) = parse_sized_position(text)?;
        let rules = rules_at(size)?;
        Ok(Game::try_from_position(rules, position)?)
    }

    /// A new game under `rules` from their start.
    pub fn new(rules: Rules) -> Game {
        Game::from_state(rules, rules.start())
    }

    /// A game that starts from `start` (a set-up position). Panics when `start` cannot occur
    /// under `rules` (a disc off a small board, more discs than a supply): see
    /// [`Game::try_from_position`]. Every position is valid under standard Othello.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        match rules.state(start) {
            Ok(state) => Game::from_state(rules, state),
            Err(e) => panic!("{start} under {rules}: {e}"),
        }
    }

    /// A game from a set-up position under `rules` (see [`Rules::state`] for the supplies).
    pub fn try_from_position(rules: Rules, start: Position) -> Result<Game, PositionError> {
        Ok(Game::from_state(rules, rules.state(start)?))
    }

    /// A game from a start state.
    pub fn from_state(rules: Rules, start: State) -> Game {
        Game {
            rules,
            start,
            moves: Vec::new(),
            current: start,
        }
    }

    /// Replays a transcript from `start`. Passes may be written (`PA`, `pass`, `--`) or left out:
    /// when a side has no move, the pass is inserted. An illegal move is reported with its
    /// 1-based index in the transcript.
    pub fn from_transcript(
        rules: Rules,
        start: Position,
        text: &str,
    ) -> Result<Game, TranscriptError> {
        let mut game = Game::from_position(rules, start);
        game.play_transcript(text)?;
        Ok(game)
    }

    /// Plays the moves of a transcript (passes inferred as in [`Game::from_transcript`]).
    pub fn play_transcript(&mut self, text: &str) -> Result<(), TranscriptError> {
        for (index, (mv, _column)) in parse_transcript_moves(text)?.into_iter().enumerate() {
            let color = self.current.to_move();
            self.play_inferring_pass(mv)
                .map_err(|reason| TranscriptError::Illegal {
                    index: index + 1,
                    mv,
                    color,
                    reason,
                })?;
        }
        Ok(())
    }

    /// Plays `mv` exactly as given.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        self.current = self.rules.play(&self.current, mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// Plays `mv`; if the side to move has no move and `mv` is legal for the other side, records
    /// the pass first. Returns whether a pass was inserted.
    pub fn play_inferring_pass(&mut self, mv: Move) -> Result<bool, IllegalMoveError> {
        match self.rules.play(&self.current, mv) {
            Ok(next) => {
                self.current = next;
                self.moves.push(mv);
                Ok(false)
            }
            Err(err) => {
                if !mv.is_pass()
                    && self.rules.must_pass(&self.current)
                    && let Ok(next) = self.rules.play(&self.current.pass(), mv)
                {
                    self.moves.extend([Move::Pass, mv]);
                    self.current = next;
                    return Ok(true);
                }
                Err(err)
            }
        }
    }

    /// Takes back the last move (a pass counts as a move). Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        self.current = self.states().last().expect("the start at least");
        Some(last)
    }

    /// Every state of the game, the start first and the current one last.
    pub fn states(&self) -> impl Iterator<Item = State> + '_ {
        let mut state = self.start;
        std::iter::once(self.start).chain(self.moves.iter().map(move |&mv| {
            state = self
                .rules
                .play(&state, mv)
                .expect("replaying moves that were legal");
            state
        }))
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start.position
    }

    /// The start state (position and supplies).
    pub fn start_state(&self) -> State {
        self.start
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.current.position
    }

    /// The current state (position and supplies).
    pub fn state(&self) -> State {
        self.current
    }

    /// The legal moves of the side to move, as a square mask.
    pub fn legal_moves(&self) -> u64 {
        self.rules.moves(&self.current)
    }

    /// Whether the side to move must pass.
    pub fn must_pass(&self) -> bool {
        self.rules.must_pass(&self.current)
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.rules.is_over(&self.current)
    }

    /// The final score for Black (meaningful once the game is over).
    pub fn final_score_for_black(&self) -> i32 {
        self.rules.final_score_for_black(&self.current.position)
    }

    /// How the game ended; `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome {
            score_for_black: self.final_score_for_black(),
        })
    }

    /// The moves as a compact transcript (`f5d6c3…`), passes written as `PA` if `with_passes`.
    pub fn transcript(&self, with_passes: bool) -> String {
        write_transcript(&self.moves, with_passes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_name_the_winner_and_the_margin() {
        let black = Outcome::for_color(Color::Black, 8);
        assert_eq!((black.winner(), black.margin()), (Some(Color::Black), 8));
        assert_eq!(black.to_string(), "Black wins by 8");
        assert_eq!(
            Outcome::for_color(Color::Black, -2).to_string(),
            "White wins by 2"
        );
        assert_eq!(
            Outcome::for_color(Color::White, 2).to_string(),
            "White wins by 2"
        );
        assert_eq!(Outcome::for_color(Color::White, 0).to_string(), "draw");
        assert_eq!(Game::new(Rules::OTHELLO).outcome(), None);
        // Anti rules: the side with fewer discs wins.
        let anti: Rules = "4x4 anti".parse().unwrap();
        let game = Game::from_board("XXXXXXXXXXXXOOOO O", |size| {
            Ok::<_, Box<dyn std::error::Error>>(Rules { size, ..anti })
        })
        .unwrap();
        assert_eq!(game.outcome().unwrap().to_string(), "White wins by 8");
    }

    #[test]
    fn a_board_string_starts_a_game_at_its_size() {
        type E = Box<dyn std::error::Error>;
        let text = format!("{} O", "-".repeat(14) + "OX----XO" + &"-".repeat(14));
        let game = Game::from_board(&text, |size| {
            Ok::<_, E>(Rules {
                size,
                ..Rules::OTHELLO
            })
        })
        .unwrap();
        assert_eq!(
            (game.rules().size, game.position().to_move),
            (6, Color::White)
        );
        let refused = Game::from_board(&text, |size| {
            Err::<Rules, E>(format!("no {size}x{size}").into())
        });
        assert_eq!(refused.unwrap_err().to_string(), "no 6x6");
        let bad = Game::from_board("garbage X", |size| {
            Ok::<_, E>(Rules {
                size,
                ..Rules::OTHELLO
            })
        });
        assert!(bad.unwrap_err().to_string().contains("not a square"));
    }

    /// A complete game (random play) in which two passes occur; they are not written.
    const GAME_WITH_PASSES: &str = "f5f4f3g4h5h4h3e6d7d6c6c7c8d8c4f2g3f6e2b7a6b5g7a7b8c5e7b6b4c3d2f8e8g2f1a5d3a3b3g6h7h8f7d1e3g1g8a4h1h2e1a2g5a8c1b2a1b1c2h6";

    #[test]
    fn replays_a_transcript() {
        let game = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6c3").unwrap();
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.position().to_move, Color::White);
        assert_eq!(game.transcript(false), "f5d6c3");
    }

    #[test]
    fn infers_passes_and_undoes() {
        let game = Game::from_transcript(Rules::OTHELLO, Position::start(), GAME_WITH_PASSES);
        let mut game = game.unwrap();
        assert!(game.is_over());
        let passes = game.moves().iter().filter(|m| m.is_pass()).count();
        assert_eq!(passes, 2);
        assert_eq!(game.moves().len() - passes, GAME_WITH_PASSES.len() / 2);
        assert_eq!(game.position().board.empty_count(), 0);
        assert_eq!(game.position().final_score_for_black(), -28);
        assert_eq!(game.transcript(false), GAME_WITH_PASSES);
        let before = game.position();
        let last = game.undo().unwrap();
        game.play(last).unwrap();
        assert_eq!(game.position(), before);
    }

    #[test]
    fn illegal_move_reports_index_and_square() {
        let err = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5 d6 a1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 3 (a1) by Black is illegal: a1 flips no disc"
        );
        let err = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5 f5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2 (f5) by White is illegal: f5 is occupied"
        );
        let err = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5 pa").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("move 2 (PA) by White is illegal: cannot pass"),
            "{err}"
        );
    }
}
