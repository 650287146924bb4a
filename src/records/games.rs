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
    /// The GGF game's tags (`PB`, `PW`, `PC`, `DT`, `RE`, ..., in their order); none for a
    /// transcript.
    pub tags: Vec<(String, String)>,
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
    /// The input could not be read on from this line (a [`GameStream`]'s reader failed).
    #[error("{input}:{line}: cannot read on: {message}")]
    Read {
        /// The input's name.
        input: String,
        /// The line that could not be read (from 1).
        line: usize,
        /// The reader's error.
        message: String,
    },
}

impl GameError {
    /// The line of the input where the bad game starts (from 1).
    pub fn line(&self) -> usize {
        match self {
            GameError::Ggf { line, .. }
            | GameError::Transcript { line, .. }
            | GameError::Read { line, .. } => *line,
        }
    }
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
                                tags: Vec::new(),
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

/// The games of a reader (as [`read_games`] reads a text), read a line at a time: memory holds
/// the lines of one game at a time, however long the input. Lines that are not UTF-8 are read
/// as Latin-1 (old GGF archives). A reader's error is the last item.
pub struct GameStream<R> {
    reader: R,
    source: String,
    rules: Rules,
    /// Whole lines read and not yet split into games.
    pending: String,
    /// The line number of `pending`'s first line.
    first_line: usize,
    /// Where the end of `pending` stands: inside a GGF game or not.
    scan: Scan,
    ready: std::collections::VecDeque<Result<PlayedGame, GameError>>,
    done: bool,
}

impl<R: std::io::BufRead> GameStream<R> {
    /// The games of `reader` (named `source` in errors), transcripts from the start of `rules`.
    pub fn new(reader: R, source: &str, rules: Rules) -> GameStream<R> {
        GameStream {
            reader,
            source: source.to_string(),
            rules,
            pending: String::new(),
            first_line: 1,
            scan: Scan::default(),
            ready: std::collections::VecDeque::new(),
            done: false,
        }
    }

    /// Reads the games of the pending lines into `ready`.
    fn flush(&mut self) {
        let mut cursor = GameCursor {
            offset: 0,
            line: self.first_line,
        };
        while let Some(game) = cursor.next_game(&self.pending, &self.source, self.rules) {
            self.ready.push_back(game);
        }
        self.first_line += self.pending.matches('\n').count();
        self.pending.clear();
    }
}

impl<R: std::io::BufRead> Iterator for GameStream<R> {
    type Item = Result<PlayedGame, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = Vec::new();
        loop {
            if let Some(game) = self.ready.pop_front() {
                return Some(game);
            }
            if self.done {
                return None;
            }
            bytes.clear();
            match self.reader.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    self.done = true;
                    self.flush();
                }
                Ok(_) => {
                    let line = match String::from_utf8(std::mem::take(&mut bytes)) {
                        Ok(line) => line,
                        // Latin-1: every byte is the code point of the same value.
                        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
                    };
                    self.scan.feed(line.as_bytes());
                    self.pending.push_str(&line);
                    if self.scan.outside_a_game() {
                        self.flush();
                    }
                }
                Err(e) => {
                    self.done = true;
                    let line = self.first_line + self.pending.matches('\n').count();
                    self.flush();
                    self.ready.push_back(Err(GameError::Read {
                        input: self.source.clone(),
                        line,
                        message: e.to_string(),
                    }));
                }
            }
        }
    }
}

/// Where a scan of GGF text stands: inside a game (from `(;` to its closing `)`), inside a
/// bracketed value, after an escape, or just after a `(` outside a game.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    in_game: bool,
    in_value: bool,
    escaped: bool,
    after_paren: bool,
}

impl Scan {
    /// Moves the scan past `bytes`.
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if !self.in_game {
                self.in_game = self.after_paren && b == b';';
                self.after_paren = !self.in_game && b == b'(';
            } else if self.in_value {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b']' {
                    self.in_value = false;
                }
            } else if b == b'[' {
                self.in_value = true;
            } else if b == b')' {
                self.in_game = false;
            }
        }
    }

    /// Whether the scan stands between games (where the text read so far can be split).
    fn outside_a_game(&self) -> bool {
        !self.in_game && !self.after_paren
    }
}

/// The GGF game `text` (starting on `line` of `source`), replayed.
fn ggf_game(text: &str, source: &str, line: usize) -> Result<PlayedGame, GameError> {
    GgfGame::parse(text)
        .and_then(|ggf| {
            let game = ggf.game()?;
            let players = ggf_players(&ggf);
            Ok(PlayedGame {
                game,
                players,
                line,
                tags: ggf.tags,
            })
        })
        .map_err(|error| GameError::Ggf {
            input: source.to_string(),
            line,
            error,
        })
}

/// The names of a GGF game's players (`PB`, `PW`), "Black" and "White" where a tag is missing
/// or blank.
pub(super) fn ggf_players(ggf: &GgfGame) -> [String; 2] {
    let name = |tag, default: &str| {
        ggf.tag(tag)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .unwrap_or(default)
            .to_string()
    };
    [name("PB", "Black"), name("PW", "White")]
}

/// A piece of the input: a GGF game, or a line outside any.
pub(super) enum Segment {
    Ggf { start: usize, end: usize },
    Line { start: usize, end: usize },
}

/// The first segment of `bytes` from `from` on: a GGF game (from `(;` to the `;)` or `)` that
/// closes it, bracketed values and their escapes skipped) or a line outside any, and where the
/// next segment starts; `None` at the end.
pub(super) fn next_segment(bytes: &[u8], from: usize) -> Option<(Segment, usize)> {
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
        assert_eq!(ok[0].tags[1], ("PB".to_string(), "Ann".to_string()));
        assert!(ok[2].tags.is_empty());
    }

    #[test]
    fn a_stream_reads_the_games_of_a_text_alike() {
        let text = "# games over lines, a bad one, a transcript\n\
            (;GM[Othello]PB[A\\]nn]\n  PW[Bob]B[F5]\n W[D6];)(;GM[Othello]B[F5];)\n\
            f5d6c3\n\
            (;GM[Othello]B[A1];)\n\
            1 (;GM[Othello]PC[x(;y]\n  PW[Flo]B[E6];)\n";
        let whole = read_games(text, "x.ggf", Rules::OTHELLO);
        // One byte at a time: lines arrive whole, games over several reads.
        let reader = std::io::BufReader::with_capacity(1, text.as_bytes());
        let streamed: Vec<_> = GameStream::new(reader, "x.ggf", Rules::OTHELLO).collect();
        assert_eq!(whole.len(), 5);
        assert_eq!(streamed.len(), whole.len());
        for (a, b) in whole.iter().zip(&streamed) {
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_eq!((a.line, &a.players, &a.tags), (b.line, &b.players, &b.tags));
                    assert_eq!(a.game, b.game);
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{a:?} against {b:?}"),
            }
        }
        assert_eq!(whole[4].as_ref().unwrap().players[1], "Flo");
        assert_eq!(whole[3].as_ref().unwrap_err().line(), 6);
    }
}
