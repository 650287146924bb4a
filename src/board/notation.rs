//! Text forms: 64-character boards with the side to move, OBF problem lines and transcripts.
//!
//! Every parser reports the 1-based column of the offending character and why it is wrong, and
//! never panics.

use thiserror::Error;

use super::position::{Color, Position};
use super::square::Move;

/// Why a board string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// Nothing to read.
    #[error("empty position: expected 64 squares (X, O, -) and the side to move (X or O)")]
    Empty,
    /// A character that is not a square.
    #[error(
        "column {column}: '{found}' is not a square; use X for Black, O for White, - for empty \
         (also x b * / o w 0 / . _)"
    )]
    BadSquare {
        /// 1-based column of the character.
        column: usize,
        /// The character.
        found: char,
    },
    /// The text ends before 64 squares.
    #[error(
        "the board has {found} squares, expected 64 (8x8; 36 for 6x6, 16 for 4x4) followed by \
         the side to move"
    )]
    TooShort {
        /// How many squares were read.
        found: usize,
    },
    /// No side to move after the squares.
    #[error("missing the side to move after the 64 squares: add X (Black) or O (White)")]
    MissingSide,
    /// A side-to-move character that is neither colour.
    #[error("column {column}: '{found}' is not a side to move; use X or * for Black, O for White")]
    BadSide {
        /// 1-based column.
        column: usize,
        /// The character.
        found: char,
    },
    /// More text after the side to move.
    #[error(
        "column {column}: unexpected '{}' after the side to move",
        excerpt(found)
    )]
    Trailing {
        /// 1-based column.
        column: usize,
        /// The rest of the text.
        found: String,
    },
}

fn square_color(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | 'b' | 'B' | '*' => Some(Some(Color::Black)),
        'O' | 'o' | 'w' | 'W' | '0' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

fn side_color(c: char) -> Option<Color> {
    match c {
        'X' | 'x' | 'b' | 'B' | '*' => Some(Color::Black),
        'O' | 'o' | 'w' | 'W' | '0' => Some(Color::White),
        _ => None,
    }
}

/// Whether `c` may stand in a board string (a square or a side to move: `X x b B * O o w W 0
/// - . _`).
pub(crate) fn is_board_char(c: char) -> bool {
    square_color(c).is_some()
}

/// Reads the 64 squares and the side to move at the start of `text`. Returns the position and
/// the byte offset just after the side character.
pub(crate) fn parse_position_prefix(text: &str) -> Result<(Position, usize), ParsePositionError> {
    parse_prefix(text, 8)
}

/// The number of board characters (squares or sides, whitespace skipped) before the first other
/// character of `text`.
fn board_chars(text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .take_while(|&c| square_color(c).is_some())
        .count()
}

/// Reads a board of 16 (4×4), 36 (6×6) or 64 squares and the side to move at the start of
/// `text`: the size is told by the count of board characters (17, 37 or else 8×8). A small
/// board's square `r`×`size`+`c` lands on the 8×8 square of row `r` and column `c`. Returns the
/// position, the size and the byte offset just after the side character.
pub(crate) fn parse_sized_position_prefix(
    text: &str,
) -> Result<(Position, u8, usize), ParsePositionError> {
    let size = match board_chars(text) {
        17 => 4,
        37 => 6,
        _ => 8,
    };
    let (position, end) = parse_prefix(text, size)?;
    Ok((position, size, end))
}

/// A whole board string of any size (16, 36 or 64 squares, then the side to move), optionally
/// followed by `;`. Returns the position and the board size.
pub fn parse_sized_position(text: &str) -> Result<(Position, u8), ParsePositionError> {
    let (position, size, end) = parse_sized_position_prefix(text)?;
    check_rest(text, end)?;
    Ok((position, size))
}

fn parse_prefix(text: &str, size: u8) -> Result<(Position, usize), ParsePositionError> {
    let squares = size as usize * size as usize;
    let index = |i: usize| (i / size as usize) * 8 + i % size as usize;
    let mut black = 0u64;
    let mut white = 0u64;
    let mut count = 0usize;
    let mut chars = text.char_indices().enumerate().peekable();
    if text.trim().is_empty() {
        return Err(ParsePositionError::Empty);
    }
    while count < squares {
        let Some((column, (_, c))) = chars.next() else {
            return Err(ParsePositionError::TooShort { found: count });
        };
        if c.is_whitespace() {
            continue;
        }
        match square_color(c) {
            Some(Some(Color::Black)) => black |= 1 << index(count),
            Some(Some(Color::White)) => white |= 1 << index(count),
            Some(None) => {}
            None => {
                return Err(ParsePositionError::BadSquare {
                    column: column + 1,
                    found: c,
                });
            }
        }
        count += 1;
    }
    for (column, (offset, c)) in chars {
        if c.is_whitespace() {
            continue;
        }
        let to_move = side_color(c).ok_or(ParsePositionError::BadSide {
            column: column + 1,
            found: c,
        })?;
        let position =
            Position::from_colors(black, white, to_move).expect("a square gets one colour only");
        return Ok((position, offset + c.len_utf8()));
    }
    Err(ParsePositionError::MissingSide)
}

/// Parses a whole board string: 64 squares a1..h8 (whitespace between them is skipped), then the
/// side to move, optionally followed by `;`. Example:
/// `---------------------------OX------XO--------------------------- X`.
pub fn parse_position(text: &str) -> Result<Position, ParsePositionError> {
    let (position, end) = parse_position_prefix(text)?;
    check_rest(text, end)?;
    Ok(position)
}

/// Nothing but an optional `;` after the side to move.
fn check_rest(text: &str, end: usize) -> Result<(), ParsePositionError> {
    let rest = text[end..].trim_start();
    let rest = rest.strip_prefix(';').unwrap_or(rest).trim();
    if rest.is_empty() {
        Ok(())
    } else {
        let column = text.len() - text[end..].trim_start().len();
        Err(ParsePositionError::Trailing {
            column: text[..column].chars().count() + 1,
            found: rest.to_string(),
        })
    }
}

/// Whether `text` starts with a board: at least 17 board characters (a 4×4 board and its side),
/// or 64 squares among its first 64 non-blank characters. Tells a board string from a
/// transcript (a transcript always has row digits 1-8).
pub(crate) fn looks_like_board(text: &str) -> bool {
    if board_chars(text) >= 17 {
        return true;
    }
    let mut squares = text.chars().filter(|c| !c.is_whitespace());
    squares
        .by_ref()
        .take(64)
        .filter(|&c| square_color(c).is_some())
        .count()
        == 64
}

/// One OBF problem line: a position and its annotations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfEntry {
    /// The position to solve.
    pub position: Position,
    /// The board size (8, or 4 / 6 for a line with 16 / 36 squares).
    pub size: u8,
    /// Annotated moves with their exact scores, in file order (best first in Edax's files).
    pub moves: Vec<(Move, i32)>,
    /// A bare score annotation (`+NN;`) without a move.
    pub score: Option<i32>,
}

impl ObfEntry {
    /// The best annotated score, if any. Pass placeholders (`--:-127`) are ignored.
    pub fn best_score(&self) -> Option<i32> {
        self.moves
            .iter()
            .filter(|(_, s)| (-64..=64).contains(s))
            .map(|&(_, s)| s)
            .max()
            .or(self.score)
    }

    /// The annotated moves that reach the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        match self.best_score() {
            Some(best) => self
                .moves
                .iter()
                .filter(|&&(_, s)| s == best)
                .map(|&(m, _)| m)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// Why an OBF line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseObfError {
    /// The board part is wrong.
    #[error(transparent)]
    Position(#[from] ParsePositionError),
    /// An annotation after the board is wrong.
    #[error("column {column}: bad annotation '{}': {reason}", excerpt(text))]
    Annotation {
        /// 1-based column where the annotation starts.
        column: usize,
        /// The annotation.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

fn parse_score(text: &str) -> Option<i32> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || digits.starts_with('+') {
        return None;
    }
    digits.parse().ok()
}

/// Parses one OBF line, e.g. `<64 squares> X; A2:+38; C7:+36;`. Returns `Ok(None)` for blank
/// lines and `%` comments. A line may also be a bare board string with no annotation.
pub fn parse_obf_line(line: &str) -> Result<Option<ObfEntry>, ParseObfError> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('%') {
        return Ok(None);
    }
    let (position, size, end) = parse_sized_position_prefix(line)?;
    let mut entry = ObfEntry {
        position,
        size,
        moves: Vec::new(),
        score: None,
    };
    let rest = &line[end..];
    let rest = match rest.trim_start().strip_prefix(';') {
        Some(after) => after,
        None if rest.trim().is_empty() || rest.trim_start().starts_with('%') => {
            return Ok(Some(entry));
        }
        None => {
            return Err(ParseObfError::Annotation {
                column: line[..line.len() - rest.trim_start().len()].chars().count() + 1,
                text: rest.trim().to_string(),
                reason: "expected ';' after the side to move".into(),
            });
        }
    };
    let mut offset = line.len() - rest.len();
    for item in rest.split(';') {
        let start = offset + (item.len() - item.trim_start().len());
        offset += item.len() + 1;
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        if item.starts_with('%') {
            break;
        }
        let column = line[..start].chars().count() + 1;
        let bad = |reason: String| ParseObfError::Annotation {
            column,
            text: item.to_string(),
            reason,
        };
        match item.split_once(':') {
            Some((mv, score)) => {
                let mv = Move::parse(mv.trim()).map_err(|e| bad(e.reason.to_string()))?;
                let score = parse_score(score.trim())
                    .ok_or_else(|| bad("the score must be an integer such as +38 or -4".into()))?;
                entry.moves.push((mv, score));
            }
            None => {
                let score = parse_score(item).ok_or_else(|| {
                    bad("expected MOVE:SCORE (like A2:+38) or a score (like +38)".into())
                })?;
                entry.score = Some(score);
            }
        }
    }
    Ok(Some(entry))
}

/// Why a transcript could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TranscriptError {
    /// Not a move at all.
    #[error("column {column}: {message}")]
    Syntax {
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A move that cannot be played where it stands.
    #[error("move {index} ({mv}) by {color} is illegal: {reason}")]
    Illegal {
        /// 1-based index of the move as written (inferred passes are not counted).
        index: usize,
        /// The move.
        mv: Move,
        /// Who was to play it.
        color: Color,
        /// Why it is illegal.
        reason: super::position::IllegalMoveError,
    },
}

/// Splits a transcript into moves with their 1-based columns. Accepts `f5d6c3`, `F5 d6 c3`,
/// `F5-D6-C3`, numbered forms `1. f5 d6 2. c3`, and passes `PA`, `pass`, `PS` or `--`.
pub fn parse_transcript_moves(text: &str) -> Result<Vec<(Move, usize)>, TranscriptError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    let syntax = |column: usize, message: String| TranscriptError::Syntax { column, message };
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() || c == ',' || c == ';' {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && chars[i] == '.' {
                while i < chars.len() && chars[i] == '.' {
                    i += 1;
                }
            } else {
                let number: String = chars[start..i].iter().collect();
                return Err(syntax(
                    column,
                    format!(
                        "'{}' is not a move (a move number ends with '.')",
                        excerpt(&number)
                    ),
                ));
            }
        } else if c == '-' {
            if chars.get(i + 1) == Some(&'-') {
                moves.push((Move::Pass, column));
                i += 2;
            } else {
                i += 1;
            }
        } else if c.eq_ignore_ascii_case(&'p') {
            let word: String = chars[i..]
                .iter()
                .take(4)
                .collect::<String>()
                .to_ascii_lowercase();
            let len = if word == "pass" {
                4
            } else if word.starts_with("pa") || word.starts_with("ps") {
                2
            } else {
                return Err(syntax(
                    column,
                    format!("'{c}' is not a move; a pass is PA or pass"),
                ));
            };
            moves.push((Move::Pass, column));
            i += len;
        } else if c.is_ascii_alphabetic() {
            let pair: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let mv = Move::parse(&pair).map_err(|e| syntax(column, e.to_string()))?;
            moves.push((mv, column));
            i += 2;
        } else {
            return Err(syntax(column, format!("unexpected '{c}' in a transcript")));
        }
    }
    Ok(moves)
}

/// Text from outside as it may appear in a log line or an error message: at most 60
/// characters, control characters and NUL escaped (`\u{0}`), and the length when it was cut.
pub(crate) fn excerpt(text: &str) -> String {
    const KEEP: usize = 60;
    let shown: String = text
        .chars()
        .take(KEEP)
        .flat_map(char::escape_debug)
        .collect();
    let total = text.chars().count();
    if total > KEEP {
        format!("{shown}... ({total} characters)")
    } else {
        shown
    }
}

/// Text from a file or a pipe of positions, moves or openings, decoded lossily: a byte that is
/// not UTF-8 (a name in cp1252 in a `%` comment) becomes U+FFFD, with a warning naming
/// `source`, instead of rejecting the whole file.
pub(crate) fn decode_text(bytes: Vec<u8>, source: &str) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            log::warn!("{source}: bytes that are not UTF-8, read as U+FFFD");
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    }
}

/// Reads a text file with [`decode_text`].
pub(crate) fn read_text_file(path: &std::path::Path) -> std::io::Result<String> {
    Ok(decode_text(
        std::fs::read(path)?,
        &path.display().to_string(),
    ))
}

/// Writes moves as a compact transcript, e.g. `f5d6c3`, passes as `PA` when `with_passes`.
pub fn write_transcript(moves: &[Move], with_passes: bool) -> String {
    moves
        .iter()
        .filter(|m| with_passes || !m.is_pass())
        .map(|m| m.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn board_strings_round_trip() {
        let p = parse_position(START).unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), START);
        let white = START.replace(" X", " O");
        assert_eq!(parse_position(&white).unwrap().to_move, Color::White);
    }

    #[test]
    fn board_alternative_alphabets() {
        let alt = "...........................wb......bw........................... *";
        assert_eq!(parse_position(alt).unwrap(), Position::start());
        let spaced = "-------- -------- -------- ---OX--- ---XO--- -------- -------- -------- b;";
        assert_eq!(parse_position(spaced).unwrap(), Position::start());
        assert_eq!(
            parse_position(&format!("{}X", &START[..64])).unwrap(),
            Position::start()
        );
    }

    #[test]
    fn board_errors_are_precise() {
        assert_eq!(parse_position(""), Err(ParsePositionError::Empty));
        assert_eq!(
            parse_position("garbage X"),
            Err(ParsePositionError::BadSquare {
                column: 1,
                found: 'g'
            })
        );
        assert_eq!(
            parse_position("--- X"),
            Err(ParsePositionError::TooShort { found: 4 })
        );
        assert_eq!(
            parse_position(&START[..64]),
            Err(ParsePositionError::MissingSide)
        );
        assert_eq!(
            parse_position(&START.replace(" X", " Z")),
            Err(ParsePositionError::BadSide {
                column: 66,
                found: 'Z'
            })
        );
        assert_eq!(
            parse_position(&format!("{START} extra")),
            Err(ParsePositionError::Trailing {
                column: 68,
                found: "extra".into()
            })
        );
        let err = parse_position("garbage X").unwrap_err().to_string();
        assert!(err.starts_with("column 1: 'g' is not a square"), "{err}");
    }

    #[test]
    fn too_short_counts_squares() {
        assert_eq!(
            parse_position("----"),
            Err(ParsePositionError::TooShort { found: 4 })
        );
    }

    #[test]
    fn board_detection() {
        assert!(looks_like_board(START));
        assert!(!looks_like_board("f5d6c3d3c4f4f6f3e6e7"));
        assert!(!looks_like_board("b"));
    }

    #[test]
    fn obf_lines() {
        let line =
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
        let e = parse_obf_line(line).unwrap().unwrap();
        assert_eq!(e.position.to_move, Color::Black);
        assert_eq!(e.position.board.empty_count(), 20);
        assert_eq!(e.moves.len(), 2);
        assert_eq!(e.best_score(), Some(38));
        assert_eq!(e.best_moves(), vec![Move::parse("a2").unwrap()]);
        assert_eq!(parse_obf_line("% a comment").unwrap(), None);
        assert_eq!(parse_obf_line("   ").unwrap(), None);
        let bare = parse_obf_line(&format!("{START}; +0;")).unwrap().unwrap();
        assert_eq!(bare.best_score(), Some(0));
        let plain = parse_obf_line(START).unwrap().unwrap();
        assert!(plain.moves.is_empty() && plain.score.is_none());
        let pass = parse_obf_line(&format!("{START}; E1:+0; --:-127;"))
            .unwrap()
            .unwrap();
        assert_eq!(pass.best_score(), Some(0));
    }

    #[test]
    fn obf_errors_name_the_annotation() {
        let err = parse_obf_line(&format!("{START}; A9:+3;")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("column 69: bad annotation 'A9:+3'"),
            "{err}"
        );
        let err = parse_obf_line(&format!("{START}; A2:x;")).unwrap_err();
        assert!(err.to_string().contains("integer"), "{err}");
        let err = parse_obf_line(&format!("{START} junk")).unwrap_err();
        assert!(err.to_string().contains("expected ';'"), "{err}");
    }

    #[test]
    fn transcript_forms() {
        let expect: Vec<Move> = ["f5", "d6", "c3"]
            .iter()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        for text in [
            "f5d6c3",
            "F5 d6 C3",
            "F5-D6-C3",
            "1. f5 d6 2. c3",
            "1.f5 d6 2.c3",
            " f5, d6, c3 ",
        ] {
            let got: Vec<Move> = parse_transcript_moves(text)
                .unwrap()
                .into_iter()
                .map(|(m, _)| m)
                .collect();
            assert_eq!(got, expect, "{text}");
        }
        let passes: Vec<Move> = parse_transcript_moves("f5 PA d6 pass c3 -- e3 ps f4")
            .unwrap()
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(passes.iter().filter(|m| m.is_pass()).count(), 4);
        assert_eq!(write_transcript(&passes, false), "f5d6c3e3f4");
        assert_eq!(write_transcript(&passes, true), "f5PAd6PAc3PAe3PAf4");
    }

    #[test]
    fn transcript_syntax_errors() {
        let err = parse_transcript_moves("f5d6z3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "column 5: 'z3' is not a square or a pass: the column must be a letter a-h"
        );
        let err = parse_transcript_moves("f5 12 d6").unwrap_err();
        assert!(
            err.to_string().starts_with("column 4: '12' is not a move"),
            "{err}"
        );
        assert!(parse_transcript_moves("f5 px").is_err());
        assert!(parse_transcript_moves("f5 #").is_err());
        assert!(parse_transcript_moves("f").is_err());
        assert!(parse_transcript_moves("f9").is_err());
    }
}
