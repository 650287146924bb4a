//! Files of played games: GGF games (any number a line or over several lines, as NBoard,
//! servers and `iago match` write them) and transcripts from the start, one a line; each game
//! read on its own, so that a bad one is an error in its place and the others stand.

use thiserror::Error;

use super::ggf::{GgfError, GgfGame};
use crate::board::notation::TranscriptError;
use crate::board::{Color, Game, Rules};

/// A game to review: its moves and its players' names.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game from its start.
    pub game: Game,
    /// The names of Black and White (`PB`, `PW` of a GGF game; "Black" and "White" for a
    /// transcript).
    pub players: [String; 2],
    /// The line of the input where the game starts (from 1).
    pub line: usize,
}

impl PlayedGame {
    /// The name of the player of `color`.
    pub fn player(&self, color: Color) -> &str {
        &self.players[color_index(color)]
    }

    /// The game as one line that tells it from any other input (the start and the moves), the
    /// key of its result in a batch's result file.
    pub fn key(&self) -> String {
        let rules = self.game.rules();
        format!(
            "{} {} {}",
            rules,
            rules.board_string(&self.game.start()),
            self.game.transcript(true)
        )
    }
}

fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Why a game of the input cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum GameError {
    /// A GGF game that does not parse or replay.
    #[error("{input}:{line}: {error}")]
    Ggf {
        /// The input's name.
        input: String,
        /// Its line (from 1).
        line: usize,
        /// What is wrong.
        error: GgfError,
    },
    /// A transcript line that does not replay.
    #[error("{input}:{line}: {error}")]
    Transcript {
        /// The input's name.
        input: String,
        /// Its line (from 1).
        line: usize,
        /// What is wrong.
        error: TranscriptError,
    },
}

/// The games of `text` (named `source` in errors): GGF games (`(;GM[Othello]…;)`, any number a
/// line or over several lines), and transcripts from the start of `rules` (one a line, passes
/// optional). Blank lines and lines starting with `#`, `%` or `;` are skipped. Each game is
/// read on its own: a bad one is an error in its place, the others stand.
pub fn read_games(text: &str, source: &str, rules: Rules) -> Vec<Result<PlayedGame, GameError>> {
    let mut cursor = GameCursor::default();
    std::iter::from_fn(|| cursor.next_game(text, source, rules)).collect()
}

/// A place in a text of games (as [`read_games`] reads them), for reading them one at a time:
/// the caller keeps the text and the cursor, and each call of [`GameCursor::next_game`] reads
/// one game past the cursor.
#[derive(Clone, Copy, Debug)]
pub struct GameCursor {
    /// The byte where the next reading starts.
    pub offset: usize,
    /// The line of that byte (from 1).
    pub line: usize,
}

impl Default for GameCursor {
    fn default() -> GameCursor {
        GameCursor { offset: 0, line: 1 }
    }
}

impl GameCursor {
    /// The next game of `text` after the cursor (or its error), the cursor moved past it;
    /// `None` at the end of the text.
    pub fn next_game(
        &mut self,
        text: &str,
        source: &str,
        rules: Rules,
    ) -> Option<Result<PlayedGame, GameError>> {
        loop {
            let (segment, next) = next_segment(text.as_bytes(), self.offset)?;
            let line = self.line;
            self.line += text.as_bytes()[self.offset..next]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.offset = next;
            match segment {
                Segment::Ggf { start, end } => {
                    return Some(ggf_game(&text[start..end], source, line));
                }
                Segment::Line { start, end } => {
                    let content = text[start..end].trim();
                    if content.is_empty()
                        || content.starts_with(['#', '%', ';'])
                        || content.chars().all(|c| c == ')' || c.is_whitespace())
                    {
                        continue;
                    }
                    return Some(
                        Game::from_transcript(rules, rules.start_position(), content)
                            .map(|game| PlayedGame {
                                game,
                                players: ["Black".into(), "White".into()],
                                line,
                            })
                            .map_err(|error| GameError::Transcript {
                                input: source.to_string(),
                                line,
                                error,
                            }),
                    );
                }
            }
        }
    }
}

/// The GGF game `text` (starting on `line` of `source`), replayed.
fn ggf_game(text: &str, source: &str, line: usize) -> Result<PlayedGame, GameError> {
    GgfGame::parse(text)
        .and_then(|ggf| {
            let game = ggf.game()?;
            let name = |tag, default: &str| {
                ggf.tag(tag)
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .unwrap_or(default)
                    .to_string()
            };
            Ok(PlayedGame {
                game,
                players: [name("PB", "Black"), name("PW", "White")],
                line,
            })
        })
        .map_err(|error| GameError::Ggf {
            input: source.to_string(),
            line,
            error,
        })
}

/// A piece of the input: a GGF game, or a line outside any.
enum Segment {
    Ggf { start: usize, end: usize },
    Line { start: usize, end: usize },
}

/// The first segment of `bytes` from `from` on: a GGF game (from `(;` to the `;)` or `)` that
/// closes it, bracketed values and their escapes skipped) or a line outside any, and where the
/// next segment starts; `None` at the end.
fn next_segment(bytes: &[u8], from: usize) -> Option<(Segment, usize)> {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'(' && bytes.get(i + 1) == Some(&b';') {
            // What stands before the game on its line (a synchro prefix, say) is skipped.
            let end = game_end(bytes, i);
            return Some((Segment::Ggf { start: i, end }, end));
        }
        if bytes[i] == b'\n' {
            return Some((
                Segment::Line {
                    start: from,
                    end: i,
                },
                i + 1,
            ));
        }
        i += 1;
    }
    (from < bytes.len()).then_some((
        Segment::Line {
            start: from,
            end: bytes.len(),
        },
        bytes.len(),
    ))
}

/// The end (exclusive) of the GGF game starting at `start` (`(;`): after its closing `)`, or
/// the end of the text.
fn game_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 2;
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b')' => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_from_ggf_and_transcripts_alike() {
        let text = "# two games and a transcript\n\
            (;GM[Othello]PB[Ann]PW[Bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)(;GM[Othello]PB[Cy]PW[Di]B[F5];)\n\
            f5d6c3\n\
            \n\
            1 (;GM[Othello]PB[Ed]\n  PW[Flo]B[E6];)\n\
            f5f5\n";
        let games = read_games(text, "x.ggf", Rules::OTHELLO);
        assert_eq!(games.len(), 5);
        let ok: Vec<&PlayedGame> = games.iter().filter_map(|g| g.as_ref().ok()).collect();
        assert_eq!(ok.len(), 4);
        assert_eq!(ok[0].players, ["Ann".to_string(), "Bob".to_string()]);
        assert_eq!(ok[0].game.transcript(false), "f5d6");
        assert_eq!((ok[1].line, ok[1].game.moves().len()), (2, 1));
        assert_eq!(ok[2].players, ["Black".to_string(), "White".to_string()]);
        assert_eq!(ok[2].game.transcript(false), "f5d6c3");
        assert_eq!((ok[3].line, ok[3].player(Color::White)), (5, "Flo"));
        let err = games[4].as_ref().unwrap_err().to_string();
        assert!(err.starts_with("x.ggf:7: "), "{err}");
    }
}
