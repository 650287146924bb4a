//! GGF games (`(;GM[Othello]…BO[8 … *]B[F5]W[D6/0.50/1.2];)`), read leniently as GUIs and
//! servers write them, and written the way NBoard does.

use std::fmt;
use std::time::Duration;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, multispace0};
use nom::combinator::{opt, rest};
use nom::multi::many0;
use nom::sequence::{delimited, preceded};
use thiserror::Error;

use crate::board::{Color, Game, IllegalMoveError, Move, Position, Rules};

/// A move with the evaluation and time a GUI or server attached to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveItem {
    /// The move.
    pub mv: Move,
    /// Evaluation in discs from the mover's view.
    pub eval: Option<f64>,
    /// Seconds spent on the move.
    pub time: Option<f64>,
}

impl MoveItem {
    /// A bare move.
    pub fn new(mv: Move) -> MoveItem {
        MoveItem {
            mv,
            eval: None,
            time: None,
        }
    }

    /// Parses `F5`, `F5/1.00`, `F5/1.00/0.5`, `F5//0.14`, `PA`, and the space-separated
    /// `d6 -1.00 0.0`. The eval may use a decimal comma (`1,00`), the time an exponent
    /// (`2.0E-4`); blank fields are allowed.
    pub fn parse(text: &str) -> Result<MoveItem, String> {
        let normalised = text.split_whitespace().collect::<Vec<_>>().join("/");
        let mut parts = normalised.split('/');
        let mv = parts.next().unwrap_or("");
        let mv = Move::parse(mv).map_err(|e| e.to_string())?;
        let number = |field: Option<&str>, what: &str| -> Result<Option<f64>, String> {
            match field.map(str::trim) {
                None | Some("") => Ok(None),
                Some(f) => f
                    .replace(',', ".")
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .map(Some)
                    .ok_or_else(|| format!("bad {what} '{f}' in move '{text}'")),
            }
        };
        let eval = number(parts.next(), "evaluation")?;
        let time = number(parts.next(), "time")?;
        if let Some(extra) = parts.next() {
            return Err(format!("unexpected '{extra}' in move '{text}'"));
        }
        Ok(MoveItem { mv, eval, time })
    }
}

impl fmt::Display for MoveItem {
    /// `F5`, `F5/1.00`, `F5/1.00/0.52`, `F5//0.52`: upper case, two decimals, no exponent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv.to_uppercase())?;
        match (self.eval, self.time) {
            (None, None) => Ok(()),
            (Some(e), None) => write!(f, "/{e:.2}"),
            (e, Some(t)) => {
                write!(f, "/")?;
                if let Some(e) = e {
                    write!(f, "{e:.2}")?;
                }
                write!(f, "/{t:.2}")
            }
        }
    }
}

/// A clock setting: `TI[15:00]`, `TI[5:00/10/2:00]` (base / increment / grace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time at the start.
    pub base: Duration,
    /// Time added per move.
    pub increment: Duration,
    /// Extra time before a loss on time (GGS).
    pub grace: Duration,
}

impl TimeControl {
    /// Parses `[[d.]h:]m:s` parts separated by `/`; empty parts are zero.
    pub fn parse(text: &str) -> Option<TimeControl> {
        let mut parts = text.trim().split('/');
        let base = parse_clock_value(parts.next()?)?;
        let increment = parts
            .next()
            .map_or(Some(Duration::ZERO), parse_clock_value)?;
        let grace = parts
            .next()
            .map_or(Some(Duration::ZERO), parse_clock_value)?;
        Some(TimeControl {
            base,
            increment,
            grace,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clock = |d: Duration| {
            let s = d.as_secs();
            if s >= 3600 {
                format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            } else {
                format!("{}:{:02}", s / 60, s % 60)
            }
        };
        write!(f, "{}", clock(self.base))?;
        if !self.increment.is_zero() || !self.grace.is_zero() {
            write!(f, "/{}/{}", clock(self.increment), clock(self.grace))?;
        }
        Ok(())
    }
}

/// `[[d.]h:]m:s`, or plain seconds; fractions allowed in the last field; empty = 0.
fn parse_clock_value(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Duration::ZERO);
    }
    let (days, clock) = match text.split_once('.') {
        Some((d, rest)) if rest.contains(':') => (d.parse::<f64>().ok()?, rest),
        _ => (0.0, text),
    };
    let mut seconds = 0.0;
    for field in clock.split(':') {
        let value: f64 = if field.is_empty() {
            0.0
        } else {
            field.parse().ok()?
        };
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    Some(Duration::from_secs_f64(seconds + days * 86_400.0))
}

/// Why a GGF text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GgfError {
    /// Not `(; … ;)`.
    #[error("not a GGF game: {0}")]
    Syntax(String),
    /// A `BO[…]` that is not a board.
    #[error("bad BO[{0}]: {1}")]
    Board(String, String),
    /// A move item that cannot be read.
    #[error("bad move item {0}")]
    MoveItem(String),
    /// A move that is illegal where it stands.
    #[error("move {index} ({mv}) is illegal: {reason}")]
    Illegal {
        /// 1-based index in the move list.
        index: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: IllegalMoveError,
    },
    /// A game type the engine does not play.
    #[error("unsupported game type TY[{0}]: only 8x8 Othello (TY[8])")]
    Unsupported(String),
}

/// A parsed GGF game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Every tag but `BO`, `B` and `W`, in order (`TY`, `TI`, `PB`, unknown ones…).
    pub tags: Vec<(String, String)>,
    /// The start position (`BO`, or the standard start).
    pub start: Position,
    /// The moves with their colours as tagged.
    pub moves: Vec<(Color, MoveItem)>,
}

fn tag_name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric())(i)
}

/// A bracketed value; `\` escapes the next character.
fn tag_value(i: &str) -> IResult<&str, String> {
    let (i, _) = char('[')(i)?;
    let mut value = String::new();
    let mut chars = i.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    value.push(next);
                }
            }
            ']' => return Ok((&i[at + 1..], value)),
            _ => value.push(c),
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

fn tag_pair(i: &str) -> IResult<&str, (String, String)> {
    let (i, name) = preceded(multispace0, tag_name).parse(i)?;
    let (i, value) = preceded(multispace0, tag_value).parse(i)?;
    Ok((i, (name.to_ascii_uppercase(), value)))
}

/// `(;` tags `;)`, after an optional synchro prefix (`1`, `2`).
fn game(i: &str) -> IResult<&str, Vec<(String, String)>> {
    let (i, _) = (
        multispace0,
        take_while(|c: char| c.is_ascii_digit()),
        multispace0,
    )
        .parse(i)?;
    let (i, tags) = delimited(
        tag("(;"),
        many0(tag_pair),
        (multispace0, alt((tag(";)"), tag(")")))),
    )
    .parse(i)?;
    let (i, _) = opt(rest).parse(i)?;
    Ok((i, tags))
}

impl GgfGame {
    /// Parses a GGF game leniently: unknown tags are kept and ignored, `BO` may use any of the
    /// usual square characters with or without spaces, move items may carry evals and times.
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        let (_, pairs) = game(text).map_err(|_| GgfError::Syntax(abbreviate(text)))?;
        let mut result = GgfGame {
            tags: Vec::new(),
            start: Position::start(),
            moves: Vec::new(),
        };
        for (name, value) in pairs {
            match name.as_str() {
                "BO" => result.start = parse_board(&value)?,
                "B" | "W" => {
                    let color = if name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let item = MoveItem::parse(&value)
                        .map_err(|_| GgfError::MoveItem(format!("{name}[{value}]")))?;
                    result.moves.push((color, item));
                }
                "TY" => {
                    let digits: String = value.chars().filter(|c| c.is_ascii_digit()).collect();
                    let flags_ok = value
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == 'b' || c == 'w');
                    if digits != "8" || !flags_ok {
                        return Err(GgfError::Unsupported(value));
                    }
                    result.tags.push((name, value));
                }
                _ => result.tags.push((name, value)),
            }
        }
        Ok(result)
    }

    /// The value of a tag (`PB`, `TI`, …).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the moves from the start. A move tagged for the colour not to move stands for an
    /// omitted pass, which is inserted.
    pub fn game(&self) -> Result<Game, GgfError> {
        let mut game = Game::from_position(Rules::OTHELLO, self.start);
        for (index, &(color, item)) in self.moves.iter().enumerate() {
            let illegal = |reason| GgfError::Illegal {
                index: index + 1,
                mv: item.mv,
                reason,
            };
            if color != game.position().to_move && !item.mv.is_pass() {
                game.play(Move::Pass).map_err(illegal)?;
            }
            game.play(item.mv).map_err(illegal)?;
        }
        Ok(game)
    }

    /// The clock of `color`: `TB`/`TW`, else `TI`. `None` when absent or zero (no clock).
    pub fn time_control(&self, color: Color) -> Option<TimeControl> {
        let own = if color == Color::Black { "TB" } else { "TW" };
        let tc = self
            .tag(own)
            .or(self.tag("TI"))
            .and_then(TimeControl::parse)?;
        (!tc.base.is_zero()).then_some(tc)
    }

    /// Seconds `color` has spent, from the times of its move items.
    pub fn time_used(&self, color: Color) -> Duration {
        let secs: f64 = self
            .moves
            .iter()
            .filter(|(c, _)| *c == color)
            .filter_map(|(_, item)| item.time)
            .filter(|t| *t > 0.0)
            .sum();
        Duration::from_secs_f64(secs)
    }
}

fn abbreviate(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() > 40 {
        format!("{}…", t.chars().take(40).collect::<String>())
    } else {
        t.to_string()
    }
}

/// `BO[8 <64 squares> <mover>]`: `*` `x` `X` `b` Black, `O` `o` `0` `w` White, `-` `.` `_` or a space
/// empty, whitespace between squares allowed.
fn parse_board(value: &str) -> Result<Position, GgfError> {
    let bad = |why: &str| GgfError::Board(abbreviate(value), why.to_string());
    let value = value.trim();
    let (size, rest) = value
        .split_once(char::is_whitespace)
        .ok_or_else(|| bad("no board after the size"))?;
    if size != "8" {
        return Err(GgfError::Unsupported(format!("BO size {size}")));
    }
    let rest = rest.trim_start();
    let (squares, mover) = rest
        .trim_end()
        .rsplit_once(char::is_whitespace)
        .ok_or_else(|| bad("no side to move"))?;
    let compact: String = squares.chars().filter(|c| !c.is_whitespace()).collect();
    // Squares written with separators, or spaces standing for empty squares.
    let squares = if compact.chars().count() == 64 {
        compact
    } else {
        squares.to_string()
    };
    if squares.chars().count() != 64 {
        return Err(bad("expected 64 squares"));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in squares.chars().enumerate() {
        match c {
            '*' | 'x' | 'X' | 'b' | 'B' => black |= 1 << i,
            'O' | 'o' | '0' | 'w' | 'W' => white |= 1 << i,
            '-' | '.' | '_' | ' ' => {}
            _ => return Err(bad(&format!("'{c}' is not a square"))),
        }
    }
    let to_move = match mover {
        "*" | "x" | "X" | "b" | "B" => Color::Black,
        "O" | "o" | "0" | "w" | "W" => Color::White,
        _ => return Err(bad("the side to move must be * or O")),
    };
    Position::from_colors(black, white, to_move).map_err(|_| bad("overlapping discs"))
}

/// Escapes `]` and `\` in a tag value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

impl fmt::Display for GgfGame {
    /// One line: `(;GM[Othello]…TY[8]BO[8 … *]B[F5]…;)`, tags in their order, then the board and
    /// the moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(;")?;
        for (name, value) in &self.tags {
            write!(f, "{name}[{}]", escape(value))?;
        }
        let board: String = self
            .start
            .to_board_string()
            .chars()
            .take(64)
            .map(|c| if c == 'X' { '*' } else { c })
            .collect();
        let mover = if self.start.to_move == Color::Black {
            '*'
        } else {
            'O'
        };
        write!(f, "BO[8 {board} {mover}]")?;
        for (color, item) in &self.moves {
            let name = if *color == Color::Black { 'B' } else { 'W' };
            write!(f, "{name}[{item}]")?;
        }
        write!(f, ";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[]PW[]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_an_nboard_game() {
        let g = GgfGame::parse(NBOARD).unwrap();
        assert_eq!(g.start, Position::start());
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.tag("PC"), Some("NBoard"));
        let game = g.game().unwrap();
        assert_eq!(game.transcript(false), "f5f6d3c5e6f7e7f4");
        let tc = g.time_control(Color::Black).unwrap();
        assert_eq!(tc.base, Duration::from_secs(900));
        assert_eq!(GgfGame::parse(&g.to_string()).unwrap(), g);
    }

    #[test]
    fn lenient_forms() {
        // Synchro prefix, spaces in BO, x/o squares, evals and times, explicit pass, unknown tag.
        let text = "1 (;GM[Othello]ZZ[whatever]TB[5:00]TW[1:00:00]BO[8 -------- -------- -------- ---ox--- ---xo--- -------- -------- -------- x]B[f5/0.00/1.5]W[d6//2.0E-1]B[c3 1,50 0.5];)";
        let g = GgfGame::parse(text).unwrap();
        assert_eq!(g.start, Position::start());
        assert_eq!(g.moves[0].1.time, Some(1.5));
        assert_eq!(g.moves[1].1.time, Some(0.2));
        assert_eq!(g.moves[2].1.eval, Some(1.5));
        assert_eq!(g.time_used(Color::Black), Duration::from_secs(2));
        assert_eq!(
            g.time_control(Color::White).unwrap().base,
            Duration::from_secs(3600)
        );
        assert_eq!(g.game().unwrap().moves().len(), 3);
    }

    #[test]
    fn a_move_tagged_for_the_other_colour_implies_a_pass() {
        // Black plays twice: the implied White pass is illegal (White can move).
        let g = GgfGame::parse("(;BO[8 ---------------------------O*------*O--------------------------- *]B[F5]B[D6];)").unwrap();
        let err = g.game().unwrap_err();
        assert!(matches!(err, GgfError::Illegal { index: 2, .. }), "{err}");
    }

    #[test]
    fn rejects_what_it_cannot_play() {
        assert!(matches!(
            GgfGame::parse("(;TY[10];)"),
            Err(GgfError::Unsupported(_))
        ));
        assert!(matches!(
            GgfGame::parse("(;TY[8a];)"),
            Err(GgfError::Unsupported(_))
        ));
        assert!(matches!(
            GgfGame::parse("garbage"),
            Err(GgfError::Syntax(_))
        ));
        assert!(matches!(
            GgfGame::parse("(;BO[8 ---- *];)"),
            Err(GgfError::Board(..))
        ));
        assert!(matches!(
            GgfGame::parse("(;B[Z9];)"),
            Err(GgfError::MoveItem(_))
        ));
    }

    #[test]
    fn move_items() {
        for (text, mv, eval, time) in [
            ("F5", "f5", None, None),
            ("F5/1.00", "f5", Some(1.0), None),
            ("F5/1.00/0.5", "f5", Some(1.0), Some(0.5)),
            ("H5//0.14", "h5", None, Some(0.14)),
            ("d6 -1.00 0.0", "d6", Some(-1.0), Some(0.0)),
            ("pa -50.00 0.0", "PA", Some(-50.0), Some(0.0)),
            ("B3/1,25", "b3", Some(1.25), None),
            ("E6//2.0E-4", "e6", None, Some(0.0002)),
        ] {
            let item = MoveItem::parse(text).unwrap();
            assert_eq!(item.mv, Move::parse(mv).unwrap(), "{text}");
            assert_eq!(item.eval, eval, "{text}");
            assert_eq!(item.time, time, "{text}");
        }
        assert!(MoveItem::parse("F5/x").is_err());
        assert!(MoveItem::parse("F5/1/2/3").is_err());
        assert_eq!(MoveItem::parse("f5//0.5").unwrap().to_string(), "F5//0.50");
        assert_eq!(MoveItem::parse("pa").unwrap().to_string(), "PA");
    }

    #[test]
    fn clock_values() {
        assert_eq!(parse_clock_value("15:00"), Some(Duration::from_secs(900)));
        assert_eq!(
            parse_clock_value("1:00:00"),
            Some(Duration::from_secs(3600))
        );
        assert_eq!(
            parse_clock_value("1.00:00:01"),
            Some(Duration::from_secs(86_401))
        );
        assert_eq!(parse_clock_value("90"), Some(Duration::from_secs(90)));
        assert_eq!(parse_clock_value("15:0"), Some(Duration::from_secs(900)));
        assert_eq!(parse_clock_value("abc"), None);
        let tc = TimeControl::parse("5:00/10/2:00").unwrap();
        assert_eq!(tc.increment, Duration::from_secs(10));
        assert_eq!(tc.grace, Duration::from_secs(120));
        assert_eq!(TimeControl::parse("0//0").unwrap().base, Duration::ZERO);
    }
}
