//! The paste reader: the text a person pastes into a box (a transcript, a board string or an
//! OBF line, or one GGF game) read into a game, alike for every front end: `iago show`, the
//! console's `board`, the web board and Python's `read_text`.
//!
//! What the text is, is told by its look: a text with `(;` is a GGF game; one that looks like a
//! board (see [`crate::board::notation`]), or that has no row digit and some square
//! characters, is a board string; anything else is a transcript. An error is one line that
//! starts by naming what was read and where (`transcript, column 7: …`, `board, line 2,
//! column 3: …`, `GGF game: …`) and quotes at most an excerpt of the input. No input panics.

use std::fmt;

use thiserror::Error;

use super::games::{Segment, ggf_players, next_segment};
use super::ggf::{GgfError, GgfGame};
use crate::board::notation::{
    ParsePositionError, TranscriptError, excerpt, is_board_char, looks_like_board,
    parse_sized_position_prefix, parse_transcript_moves,
};
use crate::board::rules::{PositionError, UnsupportedRules};
use crate::board::{Game, Rules};

/// What a paste was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PasteKind {
    /// Moves from the start of the rules given (`f5d6c3`, `1. f5 d6 2. c3`).
    Transcript,
    /// A board string of 16, 36 or 64 squares and the side to move, or an OBF line.
    Board,
    /// One GGF game, under the rules of its `TY` tag.
    Ggf,
}

impl PasteKind {
    /// How the errors name it: `transcript`, `board`, `GGF game`.
    pub fn name(self) -> &'static str {
        match self {
            PasteKind::Transcript => "transcript",
            PasteKind::Board => "board",
            PasteKind::Ggf => "GGF game",
        }
    }
}

impl fmt::Display for PasteKind {
    /// [`PasteKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game read from a paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pasted {
    /// The game: from the start of the rules and its moves (a transcript), from the board with
    /// no move yet (a board string), or the GGF game's start and moves.
    pub game: Game,
    /// The names of Black and White: a GGF game's `PB` and `PW`, else "Black" and "White".
    pub players: [String; 2],
    /// The GGF game's tags (`GM`, `PC`, `PB`, `PW`, `TY`, …) in their order; none otherwise.
    pub tags: Vec<(String, String)>,
    /// What the text was read as.
    pub kind: PasteKind,
}

/// Why a paste could not be read: one line, naming what was read (and where, when the error
/// has a place) first.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PasteError {
    /// Nothing but blanks.
    #[error(
        "nothing to read: expected a transcript (f5d6c3), a board string (64 squares X O - and \
         the side to move X or O; 16 or 36 for 4x4 or 6x6; or an OBF line) or one GGF game \
         ((;GM[Othello]...;))"
    )]
    Empty,
    /// A transcript that cannot be read or replayed.
    #[error("{}", transcript_message(.error, .line))]
    Transcript {
        /// What is wrong. A syntax error's column counts in its line when the paste has
        /// several.
        error: TranscriptError,
        /// The line of a syntax error (from 1), when the paste has several lines.
        line: Option<usize>,
    },
    /// A transcript without a move (`1.`).
    #[error("transcript: no move in '{}'; write moves like f5d6c3", excerpt(.0))]
    NoMoves(String),
    /// A board string that cannot be read.
    #[error("{}", board_message(.error, .line))]
    Board {
        /// What is wrong. Its column counts in its line when the paste has several.
        error: ParsePositionError,
        /// The line of the error (from 1), when the paste has several lines.
        line: Option<usize>,
    },
    /// A board that cannot occur under the rules (more discs than a supply).
    #[error("board: {}", one_line(&.0.to_string()))]
    Position(PositionError),
    /// The rules (at the board's size) that this version cannot play.
    #[error("{kind}: {}", one_line(&.error.to_string()))]
    Rules {
        /// What was read.
        kind: PasteKind,
        /// Why the rules cannot be played.
        error: UnsupportedRules,
    },
    /// A GGF game that cannot be read or replayed.
    #[error("GGF game: {}", ggf_message(.0))]
    Ggf(GgfError),
    /// More than one GGF game.
    #[error("GGF games: the text holds {0} games; paste one game at a time")]
    SeveralGames(usize),
    /// Text beside the GGF game.
    #[error("GGF game, line {line}: unexpected '{text}' outside the game; paste the game alone")]
    OutsideGame {
        /// Its line (from 1).
        line: usize,
        /// An excerpt of it.
        text: String,
    },
}

/// `text` with control characters (newlines among them) escaped: one line.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// `what, column C: detail` (or `what, line L, column C: detail`) from a message that starts
/// `column C: `.
fn located(what: &str, line: Option<usize>, column: usize, message: &str) -> String {
    let prefix = format!("column {column}: ");
    let detail = message.strip_prefix(&prefix).unwrap_or(message);
    let place = match line {
        Some(line) => format!("line {line}, column {column}"),
        None => format!("column {column}"),
    };
    one_line(&format!("{what}, {place}: {detail}"))
}

fn transcript_message(error: &TranscriptError, line: &Option<usize>) -> String {
    let line = *line;
    match error {
        TranscriptError::Syntax { column, .. } => {
            located("transcript", line, *column, &error.to_string())
        }
        TranscriptError::Illegal { .. } => one_line(&format!("transcript: {error}")),
    }
}

fn board_message(error: &ParsePositionError, line: &Option<usize>) -> String {
    let line = *line;
    match error {
        ParsePositionError::BadSquare { column, .. }
        | ParsePositionError::BadSide { column, .. }
        | ParsePositionError::Trailing { column, .. } => {
            located("board", line, *column, &error.to_string())
        }
        // "the board has 5 squares, expected 64 …": it names the board already.
        ParsePositionError::TooShort { .. } => one_line(&error.to_string()),
        ParsePositionError::Empty | ParsePositionError::MissingSide => {
            one_line(&format!("board: {error}"))
        }
    }
}

fn ggf_message(error: &GgfError) -> String {
    match error {
        GgfError::Syntax(start) => one_line(&format!(
            "expected (; then tags like PB[name] and moves like B[f5], then ;) in '{start}'"
        )),
        _ => one_line(&error.to_string()),
    }
}

/// The line (from 1, `None` in a text of one line) and the column in that line of the
/// 1-based `column` of `text`.
fn place(text: &str, column: usize) -> (Option<usize>, usize) {
    if !text.contains('\n') {
        return (None, column);
    }
    let mut line = 1;
    let mut line_start = 1;
    for (i, c) in text.chars().take(column.saturating_sub(1)).enumerate() {
        if c == '\n' {
            line += 1;
            line_start = i + 2;
        }
    }
    (Some(line), column + 1 - line_start.min(column))
}

/// A transcript error of `text`, its syntax error placed by line and column.
fn transcript_error(text: &str, error: TranscriptError) -> PasteError {
    match error {
        TranscriptError::Syntax { column, message } => {
            let (line, column) = place(text, column);
            PasteError::Transcript {
                error: TranscriptError::Syntax { column, message },
                line,
            }
        }
        error => PasteError::Transcript { error, line: None },
    }
}

/// A board error of `text`, placed by line and column.
fn board_error(text: &str, error: ParsePositionError) -> PasteError {
    let located = |column: usize| place(text, column);
    let (line, error) = match error {
        ParsePositionError::BadSquare { column, found } => {
            let (line, column) = located(column);
            (line, ParsePositionError::BadSquare { column, found })
        }
        ParsePositionError::BadSide { column, found } => {
            let (line, column) = located(column);
            (line, ParsePositionError::BadSide { column, found })
        }
        ParsePositionError::Trailing { column, found } => {
            let (line, column) = located(column);
            (line, ParsePositionError::Trailing { column, found })
        }
        error => (None, error),
    };
    PasteError::Board { error, line }
}

/// Reads what a person pastes (see the module docs): a transcript from the start of `rules`
/// (`f5d6c3`, `F5 D6 C3`, `1. f5 d6 2. c3`, passes written as `PA`, `pass` or `--`, or left
/// out and inferred); a board string of 16, 36 or 64 squares and the side to move, optionally
/// followed by `;` and OBF annotations, played under `rules` at the board's size; or one GGF
/// game, played under the rules of its `TY` tag (not `rules`), its players from `PB` and `PW`.
///
/// ```
/// use iago::board::Rules;
/// use iago::records::{PasteKind, read_paste};
///
/// let pasted = read_paste("1. f5 d6 2. c3", Rules::OTHELLO).unwrap();
/// assert_eq!((pasted.kind, pasted.game.transcript(false).as_str()), (PasteKind::Transcript, "f5d6c3"));
/// let err = read_paste("f5 d6 z9", Rules::OTHELLO).unwrap_err();
/// assert!(err.to_string().starts_with("transcript, column 7: "), "{err}");
/// ```
pub fn read_paste(text: &str, rules: Rules) -> Result<Pasted, PasteError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        Err(PasteError::Empty)
    } else if trimmed.contains("(;") {
        read_ggf(text)
    } else if is_board(trimmed) {
        read_board(text, rules)
    } else {
        read_transcript(text, rules)
    }
}

/// Whether `text` (trimmed, no GGF) is meant as a board: it looks like one, or, up to its first
/// `;`, it has no row digit but some square characters (`XXXX O`, a board with a typo), or at
/// least 16 characters of which nine in ten are squares. A transcript has a row digit 1-8 a
/// move.
fn is_board(text: &str) -> bool {
    if looks_like_board(text) {
        return true;
    }
    let head = text.split(';').next().unwrap_or(text);
    let (mut squares, mut all, mut digits) = (0usize, 0usize, false);
    for c in head.chars().filter(|c| !c.is_whitespace()) {
        all += 1;
        squares += usize::from(is_board_char(c));
        digits |= matches!(c, '1'..='9');
    }
    (squares > 0 && !digits) || (all >= 16 && squares * 10 >= all * 9)
}

fn default_players() -> [String; 2] {
    ["Black".to_string(), "White".to_string()]
}

fn read_transcript(text: &str, rules: Rules) -> Result<Pasted, PasteError> {
    rules.check_supported().map_err(|error| PasteError::Rules {
        kind: PasteKind::Transcript,
        error,
    })?;
    let moves = parse_transcript_moves(text).map_err(|e| transcript_error(text, e))?;
    if moves.is_empty() {
        return Err(PasteError::NoMoves(text.trim().to_string()));
    }
    let game = Game::from_transcript(rules, rules.start_position(), text)
        .map_err(|e| transcript_error(text, e))?;
    Ok(Pasted {
        game,
        players: default_players(),
        tags: Vec::new(),
        kind: PasteKind::Transcript,
    })
}

fn read_board(text: &str, rules: Rules) -> Result<Pasted, PasteError> {
    let (position, size, end) =
        parse_sized_position_prefix(text).map_err(|e| board_error(text, e))?;
    // After the side to move: nothing, or `;` and OBF annotations (or a `%` comment) to the end
    // of its line.
    let rest = &text[end..];
    let (same_line, next_lines) = rest.split_once('\n').unwrap_or((rest, ""));
    let same = same_line.trim_start();
    let extra = if !same.is_empty() && !same.starts_with([';', '%']) {
        Some(end + same_line.len() - same.len())
    } else {
        let after = next_lines.trim_start();
        (!after.is_empty()).then(|| text.len() - after.len())
    };
    if let Some(at) = extra {
        let trailing = ParsePositionError::Trailing {
            column: text[..at].chars().count() + 1,
            found: text[at..].trim_end().to_string(),
        };
        return Err(board_error(text, trailing));
    }
    let rules = Rules { size, ..rules };
    rules.check_supported().map_err(|error| PasteError::Rules {
        kind: PasteKind::Board,
        error,
    })?;
    let game = Game::try_from_position(rules, position).map_err(PasteError::Position)?;
    Ok(Pasted {
        game,
        players: default_players(),
        tags: Vec::new(),
        kind: PasteKind::Board,
    })
}

fn read_ggf(text: &str) -> Result<Pasted, PasteError> {
    let bytes = text.as_bytes();
    let (mut offset, mut line) = (0, 1);
    let mut games = Vec::new();
    let mut outside: Option<(usize, &str)> = None;
    while let Some((segment, next)) = next_segment(bytes, offset) {
        match segment {
            Segment::Ggf { start, end } => {
                // Before the game on its line: nothing, or a synchro prefix (`1`, `2`).
                let before = text[offset..start].trim();
                if !before.chars().all(|c| c.is_ascii_digit()) {
                    outside.get_or_insert((line, before));
                }
                games.push(&text[start..end]);
            }
            Segment::Line { start, end } => {
                let content = text[start..end].trim();
                if !content.chars().all(|c| c == ')' || c.is_whitespace()) {
                    outside.get_or_insert((line, content));
                }
            }
        }
        line += bytes[offset..next].iter().filter(|&&b| b == b'\n').count();
        offset = next;
    }
    if games.len() > 1 {
        return Err(PasteError::SeveralGames(games.len()));
    }
    if let Some((line, content)) = outside {
        return Err(PasteError::OutsideGame {
            line,
            text: excerpt(content),
        });
    }
    let ggf = GgfGame::parse(games.first().copied().unwrap_or(text)).map_err(PasteError::Ggf)?;
    let game = ggf.game().map_err(PasteError::Ggf)?;
    Ok(Pasted {
        game,
        players: ggf_players(&ggf),
        tags: ggf.tags,
        kind: PasteKind::Ggf,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::board::rules::Goal;
    use crate::board::{Color, Move, Position};

    /// The board after f5 d6 c3, White to move.
    const AFTER_F5D6C3: &str = "------------------X--------XX------OXX-----O-------------------- O";

    /// A complete game (random play) in which White passes twice (as in `board::game`'s tests).
    const GAME_WITH_PASSES: &str = "f5f4f3g4h5h4h3e6d7d6c6c7c8d8c4f2g3f6e2b7a6b5g7a7b8c5e7b6b4c3d2f8e8g2f1a5d3a3b3g6h7h8f7d1e3g1g8a4h1h2e1a2g5a8c1b2a1b1c2h6";

    /// FFO #40, an OBF line.
    const FFO_40: &str =
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

    const GGF: &str = "(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";

    fn read(text: &str) -> Pasted {
        read_paste(text, Rules::OTHELLO).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn error(text: &str) -> String {
        match read_paste(text, Rules::OTHELLO) {
            Ok(p) => panic!("{text}: read as {:?} {}", p.kind, p.game.transcript(true)),
            Err(e) => e.to_string(),
        }
    }

    fn board_string(pasted: &Pasted) -> String {
        pasted.game.rules().board_string(&pasted.game.position())
    }

    #[test]
    fn transcripts_in_every_form() {
        for text in [
            "f5d6c3",
            "F5 D6 C3",
            "1. f5 d6 2. c3",
            "1.F5 d6\n2. C3\n",
            "  f5-d6-c3  ",
        ] {
            let pasted = read(text);
            assert_eq!(pasted.kind, PasteKind::Transcript, "{text}");
            assert_eq!(pasted.game.transcript(true), "f5d6c3", "{text}");
            assert_eq!(board_string(&pasted), AFTER_F5D6C3, "{text}");
            assert_eq!(pasted.game.start(), Position::start());
            assert_eq!(pasted.players, ["Black".to_string(), "White".to_string()]);
            assert!(pasted.tags.is_empty());
        }
    }

    #[test]
    fn passes_written_or_omitted() {
        let omitted = read(GAME_WITH_PASSES);
        assert!(omitted.game.is_over());
        let passes = omitted.game.moves().iter().filter(|m| m.is_pass()).count();
        assert_eq!(passes, 2);
        assert_eq!(omitted.game.final_score_for_black(), -28);
        let written = omitted.game.transcript(true);
        assert_eq!(written.matches("PA").count(), 2);
        for text in [
            written.clone(),
            written.replace("PA", " pass "),
            written.replace("PA", "--"),
            written.to_uppercase(),
        ] {
            let pasted = read(&text);
            assert_eq!(pasted.kind, PasteKind::Transcript);
            assert_eq!(pasted.game, omitted.game, "{text}");
        }
    }

    #[test]
    fn transcripts_follow_the_rules_given() {
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        let pasted = read_paste("c2", six).unwrap();
        assert_eq!(pasted.game.rules(), six);
        assert_eq!(pasted.game.moves(), &[Move::parse("c2").unwrap()]);
    }

    #[test]
    fn board_strings_of_every_size_and_obf_lines() {
        let start = Rules::OTHELLO.board_string(&Position::start());
        let pasted = read(&start);
        assert_eq!(pasted.kind, PasteKind::Board);
        assert_eq!(pasted.game.rules(), Rules::OTHELLO);
        assert_eq!(pasted.game.start(), Position::start());
        assert!(pasted.game.moves().is_empty());

        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        let after_c2 = six.board_string(
            &Game::from_transcript(six, six.start_position(), "c2")
                .unwrap()
                .position(),
        );
        assert_eq!(after_c2.split(' ').next().unwrap().len(), 36);
        let pasted = read(&after_c2);
        assert_eq!((pasted.kind, pasted.game.rules()), (PasteKind::Board, six));
        assert_eq!(board_string(&pasted), after_c2);
        assert_eq!(pasted.game.position().to_move, Color::White);

        // Under anti rules, at the board's size.
        let anti = Rules {
            goal: Goal::FewestDiscs,
            ..Rules::OTHELLO
        };
        let pasted = read_paste(&after_c2, anti).unwrap();
        assert_eq!(
            pasted.game.rules(),
            Rules {
                size: 6,
                goal: Goal::FewestDiscs,
                ..Rules::OTHELLO
            }
        );

        let pasted = read(FFO_40);
        assert_eq!(pasted.kind, PasteKind::Board);
        assert_eq!(board_string(&pasted), FFO_40.split(';').next().unwrap());
        assert_eq!(
            pasted
                .game
                .rules()
                .empty_count(&pasted.game.position().board),
            20
        );

        // A grid of eight lines, then the side.
        let grid: Vec<&str> = (0..8).map(|r| &start[r * 8..r * 8 + 8]).collect();
        let pasted = read(&format!("{}\nX\n", grid.join("\n")));
        assert_eq!(pasted.game.start(), Position::start());
    }

    #[test]
    fn a_ggf_game_brings_its_players_tags_and_rules() {
        // The rules given do not matter: the game's TY does.
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        let pasted = read_paste(&format!("\n  {GGF}\n"), six).unwrap();
        assert_eq!(pasted.kind, PasteKind::Ggf);
        assert_eq!(pasted.game.rules(), Rules::OTHELLO);
        assert_eq!(pasted.players, ["Ann".to_string(), "Bob".to_string()]);
        assert_eq!(pasted.tags[1], ("PC".to_string(), "x".to_string()));
        assert_eq!(pasted.game.transcript(true), "f5d6");
        assert_eq!(
            board_string(&pasted),
            "---------------------------OX------OXX-----O-------------------- X"
        );

        let anti = read("1 (;GM[Othello]TY[8a]B[f5]W[f6]\n  B[e6];)");
        assert_eq!(
            anti.game.rules(),
            Rules {
                goal: Goal::FewestDiscs,
                ..Rules::OTHELLO
            }
        );
        assert_eq!(anti.game.transcript(true), "f5f6e6");
        assert_eq!(anti.players, ["Black".to_string(), "White".to_string()]);
    }

    #[test]
    fn blank_text_says_what_can_be_pasted() {
        for text in ["", "  \n\t "] {
            let err = error(text);
            assert!(
                err.starts_with("nothing to read: expected a transcript"),
                "{err}"
            );
            assert!(err.contains("board string") && err.contains("GGF"), "{err}");
        }
    }

    #[test]
    fn transcript_errors_name_their_place() {
        assert!(
            error("f5 d6 z9").starts_with("transcript, column 7: 'z9' is not a square"),
            "{}",
            error("f5 d6 z9")
        );
        assert_eq!(
            error("f5d6c3a1"),
            "transcript: move 4 (a1) by White is illegal: a1 flips no disc"
        );
        let err = error("1. f5 d6\n2. c3 z9");
        assert!(err.starts_with("transcript, line 2, column 7: "), "{err}");
        let err = error("1.");
        assert!(err.starts_with("transcript: no move in '1.'"), "{err}");
        let err = error(&"1".repeat(10_000));
        assert!(err.starts_with("transcript, column 1: '111"), "{err}");
        assert!(err.len() < 200, "{err}");
    }

    #[test]
    fn board_errors_name_their_place() {
        let start = Rules::OTHELLO.board_string(&Position::start());
        let typo = format!("{}Z{}", &start[..11], &start[12..]);
        let err = error(&typo);
        assert!(
            err.starts_with("board, column 12: 'Z' is not a square"),
            "{err}"
        );
        let err = error("XXXX O");
        assert!(err.starts_with("the board has 5 squares"), "{err}");
        let err = error(&start[..64]);
        assert!(err.starts_with("board: missing the side to move"), "{err}");
        let err = error(&format!("{start} {}", "junk".repeat(100)));
        assert!(
            err.starts_with("board, column 68: unexpected 'junkjunk"),
            "{err}"
        );
        assert!(err.len() < 200, "{err}");
        let err = error(&format!("{start}\n{start}"));
        assert!(
            err.starts_with("board, line 2, column 1: unexpected '-----"),
            "{err}"
        );
        let err = error(&format!("{}\nZ", &start[..64]));
        assert!(
            err.starts_with("board, line 2, column 1: 'Z' is not a side"),
            "{err}"
        );
        // 4x4 with a supply of 32 discs: not a rule set.
        let reversi = Rules {
            discs_per_player: Some(32),
            ..Rules::OTHELLO
        };
        let err = read_paste("-----OX--XO----- X", reversi)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("board: rules '4x4 "), "{err}");
        let full = format!("{} X", "X".repeat(40) + &"O".repeat(24));
        let err = read_paste(&full, reversi).unwrap_err().to_string();
        assert!(err.starts_with("board: Black has 40 discs"), "{err}");
    }

    #[test]
    fn ggf_errors_name_the_game() {
        let err = error(&format!("{GGF}{GGF}\n{GGF}"));
        assert_eq!(
            err,
            "GGF games: the text holds 3 games; paste one game at a time"
        );
        let err = error(&format!("{GGF}\nf5d6"));
        assert!(
            err.starts_with("GGF game, line 2: unexpected 'f5d6' outside the game"),
            "{err}"
        );
        let err = error(&format!("notes: {GGF}"));
        assert!(
            err.starts_with("GGF game, line 1: unexpected 'notes:'"),
            "{err}"
        );
        let err = error("(;GM[Othello]B[f5]W[f5];)");
        assert_eq!(err, "GGF game: move 2 (f5) is illegal: f5 is occupied");
        let err = error("(;GM[Othello]TY[8k]B[f5];)");
        assert!(
            err.starts_with("GGF game: unsupported game TY[8k]"),
            "{err}"
        );
        let err = error("(;GM[Othello]PB");
        assert!(err.starts_with("GGF game: expected (; then tags"), "{err}");
        let err = error(&format!("(;GM[Othello]BO[{} X];)", "8".repeat(500)));
        assert!(err.starts_with("GGF game: "), "{err}");
        assert!(err.len() < 300 && !err.contains('\n'), "{err}");
        let err = error("(;GM[Othello]BO[8 ---\n-----];)");
        assert!(
            err.starts_with("GGF game: bad BO[") && !err.contains('\n'),
            "{err}"
        );
    }

    /// One line, bounded, never a panic.
    fn check(text: &str) {
        for rules in [
            Rules::OTHELLO,
            Rules {
                size: 4,
                discs_per_player: Some(10),
                ..Rules::OTHELLO
            },
        ] {
            if let Err(e) = read_paste(text, rules) {
                let message = e.to_string();
                assert!(
                    !message.chars().any(|c| c.is_control()),
                    "{text:?}: {message:?}"
                );
                assert!(message.chars().count() < 400, "{text:?}: {message:?}");
            }
        }
    }

    #[test]
    fn garbage_is_one_line_errors() {
        let long = "x".repeat(5000);
        let nul = "\u{0}".repeat(100);
        for text in [
            "(;",
            "(;;)",
            "((;;;)(;",
            "(;GM[",
            "(;GM[Othello]B[",
            "(;GM[Othello]\\",
            "(;TY[99]B[f5];)",
            "(;TY[4]BO[4 ---- ---- ---- ---- O]B[a1];)",
            "]\n(;",
            ";;;;",
            "PA",
            "--",
            "\u{2028}f5\u{0}",
            "f5 d6 \u{1b}",
            "é5",
            long.as_str(),
            nul.as_str(),
            "X\u{0}OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X",
        ] {
            check(text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn any_text_is_read_or_refused_on_one_line(text in "\\PC{0,120}") {
            check(&text);
        }

        #[test]
        fn any_text_of_notation_characters_is_read_or_refused_on_one_line(
            text in "[XO\\-.;%()\\[\\]a-hA-H0-9 \\n\\t:+GMPBWTYO*]{0,200}"
        ) {
            check(&text);
        }
    }
}
