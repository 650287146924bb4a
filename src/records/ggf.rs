//! GGF games (`(;GM[Othello]…BO[8 … *]B[F5]W[D6/0.50/1.2];)`), read leniently as GUIs and
//! servers write them, and written the way NBoard does.
//!
//! The rules of a game are carried by its `TY` tag and its start position ([`GgfGame::rules`]):
//! - `TY` gives the board size (4, 6 or 8) and flags: `a` (anti: fewest discs wins) is played;
//!   `b`/`w` (fixed colours) and `r<n>` (random start discs, which `BO` spells out) change
//!   nothing here; `s` (synchro), `k` (komi) and any other flag or size are refused;
//! - `BO[n <n² squares> <mover>]` is the start, for n = 4, 6 or 8 (the same n as `TY`);
//! - GGF has no tag for the historical Reversi start, so it is inferred: a start position whose
//!   discs all stand on the centre squares while one of them is still empty (the empty board
//!   included) is a Reversi (placement) start, where the next moves fill the centre. A set-up
//!   position with discs elsewhere is Othello even with an empty centre square. Disc supplies
//!   (Reversi's 32 discs) cannot be written in GGF and are not read.

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

use crate::board::rules::{Goal, Setup};
use crate::board::{Color, Game, IllegalMoveError, Move, ParseMoveError, Position, Rules, Square};

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
    pub fn parse(text: &str) -> Result<MoveItem, ParseMoveItemError> {
        let normalised = text.split_whitespace().collect::<Vec<_>>().join("/");
        let mut parts = normalised.split('/');
        let mv = parts.next().unwrap_or("");
        let mv = Move::parse(mv)?;
        let number = |field: Option<&str>, what| match field.map(str::trim) {
            None | Some("") => Ok(None),
            Some(f) => f
                .replace(',', ".")
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| ParseMoveItemError::Number {
                    what,
                    field: f.to_string(),
                    item: text.to_string(),
                }),
        };
        let eval = number(parts.next(), "evaluation")?;
        let time = number(parts.next(), "time")?;
        if let Some(extra) = parts.next() {
            return Err(ParseMoveItemError::Extra {
                extra: extra.to_string(),
                item: text.to_string(),
            });
        }
        Ok(MoveItem { mv, eval, time })
    }
}

/// Why a move item (`F5/1.00/0.5`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseMoveItemError {
    /// The move is not a square or a pass.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// The evaluation or the time is not a finite number.
    #[error("bad {what} '{field}' in move '{item}'")]
    Number {
        /// `evaluation` or `time`.
        what: &'static str,
        /// The field.
        field: String,
        /// The whole item.
        item: String,
    },
    /// A field after the time.
    #[error("unexpected '{extra}' in move '{item}'")]
    Extra {
        /// The first field too many.
        extra: String,
        /// The whole item.
        item: String,
    },
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

/// A game clock's setting, `TI[15:00]`, `TI[5:00/10/2:00]`: the time at the start, the time
/// added after each move and, on GGS, a grace before a loss on time. `iago match --tc 60+0.5`
/// sets one too. (The clock a search sees, with its time left, is [`crate::search::Clock`].)
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
    /// The GGF form: `5:00`, `1:00/0:00.5/0:00` (base / increment / grace).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", clock_text(self.base))?;
        if !self.increment.is_zero() || !self.grace.is_zero() {
            write!(
                f,
                "/{}/{}",
                clock_text(self.increment),
                clock_text(self.grace)
            )?;
        }
        Ok(())
    }
}

/// `m:ss` (or `h:mm:ss`), with a fraction of a second when there is one: `5:00`, `0:00.5`.
pub fn clock_text(d: Duration) -> String {
    let whole = d.as_secs();
    let fraction = format!("{:.3}", f64::from(d.subsec_nanos()) / 1e9);
    let fraction = fraction.trim_end_matches('0').trim_end_matches('.');
    let seconds = format!("{:02}{}", whole % 60, fraction.trim_start_matches('0'));
    if whole >= 3600 {
        format!("{}:{:02}:{seconds}", whole / 3600, whole / 60 % 60)
    } else {
        format!("{}:{seconds}", whole / 60)
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
    if !days.is_finite() || days < 0.0 {
        return None;
    }
    Some(crate::search::time::duration_from_seconds(
        seconds + days * 86_400.0,
    ))
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
    /// A game type the engine does not play (the text says which and why).
    #[error("unsupported game {0}")]
    Unsupported(String),
}

/// What this version plays, for the [`GgfError::Unsupported`] messages.
const PLAYABLE: &str = "Iago plays TY[4], TY[6] and TY[8], optionally with the anti flag (a)";

/// A parsed GGF game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Every tag but `BO`, `B` and `W`, in order (`TY`, `TI`, `PB`, unknown ones…). `TY`
    /// carries the board size and the goal (see [`GgfGame::rules`]); without it the game is 8×8.
    pub tags: Vec<(String, String)>,
    /// The start position (`BO`, or the start of the `TY` size). A small board lies in the
    /// top-left corner (6×6: a1..f6).
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
        let mut board: Option<(Position, u8)> = None;
        let mut game_type: Option<(u8, Goal)> = None;
        for (name, value) in pairs {
            match name.as_str() {
                "BO" => board = Some(parse_board(&value)?),
                "B" | "W" => {
                    let color = if name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let item = MoveItem::parse(&value)
                        .map_err(|_| GgfError::MoveItem(abbreviate(&format!("{name}[{value}]"))))?;
                    result.moves.push((color, item));
                }
                "TY" => {
                    game_type = Some(parse_type(&value)?);
                    result.tags.push((name, value));
                }
                _ => result.tags.push((name, value)),
            }
        }
        match (game_type, board) {
            (Some((size, _)), Some((_, bo_size))) if size != bo_size => {
                return Err(GgfError::Board(
                    format!("{bo_size} …"),
                    format!("the board is {bo_size}x{bo_size} but TY says {size}x{size}"),
                ));
            }
            (_, Some((start, bo_size))) => {
                result.start = start;
                if game_type.is_none() && bo_size != 8 {
                    // The size is kept in the tags, where `rules` and `Display` find it.
                    result.tags.push(("TY".into(), bo_size.to_string()));
                }
            }
            (Some((size, _)), None) => {
                result.start = Rules {
                    size,
                    ..Rules::OTHELLO
                }
                .start_position();
            }
            (None, None) => {}
        }
        Ok(result)
    }

    /// A GGF of `game` with the tags `GM[Othello]` and `TY`, its start and its moves (passes
    /// written as `PA`).
    pub fn from_game(game: &Game) -> GgfGame {
        let mut ggf = GgfGame {
            tags: vec![("GM".into(), "Othello".into())],
            start: game.start(),
            moves: Vec::new(),
        };
        ggf.set_rules(game.rules());
        ggf.moves = game
            .states()
            .zip(game.moves())
            .map(|(state, &mv)| (state.to_move(), MoveItem::new(mv)))
            .collect();
        ggf
    }

    /// The rules: size and goal from `TY` (8×8 Othello without it), the Reversi start when the
    /// start position's discs are all on a centre not yet full (see the module docs),
    /// unlimited discs.
    pub fn rules(&self) -> Result<Rules, GgfError> {
        let (size, goal) = self
            .tag("TY")
            .map_or(Ok((8, Goal::MostDiscs)), parse_type)?;
        let mut rules = Rules {
            size,
            goal,
            ..Rules::OTHELLO
        };
        // A Reversi game has all its discs on the centre until the centre is full; a set-up
        // Othello position with an empty centre square and discs elsewhere stays Othello.
        let discs = self.start.board.player | self.start.board.opponent;
        if discs & !rules.centre() == 0 && rules.centre() & !discs != 0 {
            rules.setup = Setup::Placement;
        }
        rules
            .check_supported()
            .map_err(|e| GgfError::Unsupported(e.to_string()))?;
        Ok(rules)
    }

    /// Writes `rules` into the `TY` tag (replacing it, or added after the other tags). The
    /// setup is not written: GGF tells it by the start position; neither is a disc supply.
    pub fn set_rules(&mut self, rules: Rules) {
        let value = rules.ggf_type();
        match self.tags.iter_mut().find(|(n, _)| n == "TY") {
            Some((_, v)) => *v = value,
            None => self.tags.push(("TY".into(), value)),
        }
    }

    /// The value of a tag (`PB`, `TI`, …).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the moves from the start under [`GgfGame::rules`]. A move tagged for the colour
    /// not to move stands for an omitted pass, which is inserted.
    pub fn game(&self) -> Result<Game, GgfError> {
        let rules = self.rules()?;
        let mut game = Game::try_from_position(rules, self.start)
            .map_err(|e| GgfError::Board(String::new(), e.to_string()))?;
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
        crate::search::time::duration_from_seconds(secs)
    }
}

/// Text from the game for an error message: cut and escaped.
fn abbreviate(text: &str) -> String {
    crate::board::notation::excerpt(text.trim())
}

/// `TY[…]`: the size and the goal, e.g. `8`, `6a`, `s8r20` (the flags may stand before or
/// after the size). See the module docs for the flags.
fn parse_type(value: &str) -> Result<(u8, Goal), GgfError> {
    let unsupported = |why: String| {
        Err(GgfError::Unsupported(format!(
            "TY[{}]: {why}; {PLAYABLE}",
            abbreviate(value)
        )))
    };
    let mut size: Option<String> = None;
    let mut goal = Goal::MostDiscs;
    let mut chars = value
        .trim()
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' if size.is_none() => {
                let mut digits = String::from(c);
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    digits.push(d);
                }
                size = Some(digits);
            }
            'a' => goal = Goal::FewestDiscs,
            // Fixed colours: nothing to play differently.
            'b' | 'w' => {}
            // Random start discs: the start is in BO.
            'r' => while chars.next_if(char::is_ascii_digit).is_some() {},
            's' => return unsupported("synchro games (s) are not supported".into()),
            'k' => return unsupported("komi games (k) are not supported".into()),
            c => return unsupported(format!("'{c}' is not a flag Iago knows")),
        }
    }
    let size = match size.as_deref() {
        Some("4") => 4,
        Some("6") => 6,
        Some("8") => 8,
        None => return unsupported("no board size".into()),
        Some("88") => return unsupported("octagon boards are not supported".into()),
        Some(d) => return unsupported(format!("{d}x{d} boards are not supported")),
    };
    Ok((size, goal))
}

/// `BO[n <n² squares> <mover>]` for n = 4, 6, 8: `*` `x` `X` `b` Black, `O` `o` `0` `w` White,
/// `-` `.` `_` or a space empty, whitespace between squares allowed. The squares fill the
/// top-left n×n corner of the 8×8 board, row by row. Returns the position and n.
fn parse_board(value: &str) -> Result<(Position, u8), GgfError> {
    let bad = |why: &str| GgfError::Board(abbreviate(value), why.to_string());
    let value = value.trim();
    let (size, rest) = value
        .split_once(char::is_whitespace)
        .ok_or_else(|| bad("no board after the size"))?;
    let size: u8 = match size {
        "4" => 4,
        "6" => 6,
        "8" => 8,
        _ => {
            return Err(GgfError::Unsupported(format!(
                "BO[{} …]: {PLAYABLE}",
                abbreviate(size)
            )));
        }
    };
    let count = usize::from(size) * usize::from(size);
    let rest = rest.trim_start();
    let (squares, mover) = rest
        .trim_end()
        .rsplit_once(char::is_whitespace)
        .ok_or_else(|| bad("no side to move"))?;
    let compact: String = squares.chars().filter(|c| !c.is_whitespace()).collect();
    // Squares written with separators, or spaces standing for empty squares.
    let squares = if compact.chars().count() == count {
        compact
    } else {
        squares.to_string()
    };
    if squares.chars().count() != count {
        return Err(bad(&format!("expected {count} squares")));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in squares.chars().enumerate() {
        let (row, col) = ((i / usize::from(size)) as u8, (i % usize::from(size)) as u8);
        let bit = Square::from_coords(row, col).map_or(0, |sq| 1u64 << sq.index());
        match c {
            '*' | 'x' | 'X' | 'b' | 'B' => black |= bit,
            'O' | 'o' | '0' | 'w' | 'W' => white |= bit,
            '-' | '.' | '_' | ' ' => {}
            _ => return Err(bad(&format!("'{c}' is not a square"))),
        }
    }
    let to_move = match mover {
        "*" | "x" | "X" | "b" | "B" => Color::Black,
        "O" | "o" | "0" | "w" | "W" => Color::White,
        _ => return Err(bad("the side to move must be * or O")),
    };
    let position =
        Position::from_colors(black, white, to_move).map_err(|_| bad("overlapping discs"))?;
    Ok((position, size))
}

/// Escapes `]` and `\` in a tag value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

impl fmt::Display for GgfGame {
    /// One line: `(;GM[Othello]…TY[8]BO[8 … *]B[F5]…;)`, tags in their order, then the board (in
    /// the size of `TY`) and the moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(;")?;
        for (name, value) in &self.tags {
            write!(f, "{name}[{}]", escape(value))?;
        }
        let size = self
            .tag("TY")
            .and_then(|ty| parse_type(ty).ok())
            .map_or(8, |(size, _)| size);
        let rules = Rules {
            size,
            ..Rules::OTHELLO
        };
        let board: String = rules
            .board_squares()
            .map(|sq| match self.start.disc(sq) {
                Some(Color::Black) => '*',
                Some(Color::White) => 'O',
                None => '-',
            })
            .collect();
        let mover = if self.start.to_move == Color::Black {
            '*'
        } else {
            'O'
        };
        write!(f, "BO[{size} {board} {mover}]")?;
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
        for ty in [
            "s8",
            "8s",
            "5",
            "88",
            "8k",
            "8q",
            "",
            "a",
            "8 8",
            "99999999999",
        ] {
            let err = GgfGame::parse(&format!("(;TY[{ty}];)")).unwrap_err();
            assert!(matches!(err, GgfError::Unsupported(_)), "TY[{ty}]: {err}");
            assert!(err.to_string().contains(&format!("TY[{ty}]")), "{err}");
        }
        assert_eq!(
            GgfGame::parse("(;TY[s8r20];)").unwrap_err().to_string(),
            "unsupported game TY[s8r20]: synchro games (s) are not supported; Iago plays TY[4], \
             TY[6] and TY[8], optionally with the anti flag (a)"
        );
        assert_eq!(
            GgfGame::parse("(;TY[10];)").unwrap_err().to_string(),
            "unsupported game TY[10]: 10x10 boards are not supported; Iago plays TY[4], TY[6] \
             and TY[8], optionally with the anti flag (a)"
        );
        assert!(matches!(
            GgfGame::parse("(;BO[10 ---- *];)"),
            Err(GgfError::Unsupported(_))
        ));
        // The sizes of TY and BO must agree.
        assert!(matches!(
            GgfGame::parse("(;TY[8]BO[4 -----OX--XO----- *];)"),
            Err(GgfError::Board(..))
        ));
        assert!(matches!(
            GgfGame::parse("(;BO[6 ---- *];)"),
            Err(GgfError::Board(..))
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

    /// Plays the first legal move (or a pass) `n` times.
    fn first_moves(rules: Rules, n: usize) -> Game {
        let mut game = Game::new(rules);
        for _ in 0..n {
            if game.is_over() {
                break;
            }
            let moves = game.legal_moves();
            let mv = match moves {
                0 => Move::Pass,
                m => Move::Play(Square::from_index_unchecked(m.trailing_zeros() as u8)),
            };
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn variants_round_trip_through_ty_and_bo() {
        for size in Rules::SIZES {
            for goal in [Goal::MostDiscs, Goal::FewestDiscs] {
                for setup in [Setup::Cross, Setup::Placement] {
                    let rules = Rules {
                        size,
                        setup,
                        discs_per_player: None,
                        goal,
                    };
                    // Through the placement phase and into captures.
                    let game = first_moves(rules, 7);
                    let ggf = GgfGame::from_game(&game);
                    let text = ggf.to_string();
                    assert!(
                        text.contains(&format!("TY[{}]", rules.ggf_type())),
                        "{text}"
                    );
                    let squares = usize::from(size) * usize::from(size);
                    let bo = format!("BO[{size} ");
                    let at = text.find(&bo).expect("a BO tag") + bo.len();
                    assert_eq!(&text[at + squares..at + squares + 3], " *]", "{text}");
                    let parsed = GgfGame::parse(&text).unwrap();
                    assert_eq!(parsed, ggf, "{text}");
                    assert_eq!(parsed.rules(), Ok(rules), "{text}");
                    assert_eq!(parsed.game().unwrap(), game, "{text}");
                }
            }
        }
    }

    #[test]
    fn small_and_anti_boards_as_nboard_writes_them() {
        let text =
            "(;GM[Othello]PC[NBoard]TY[6]BO[6 --------------O*----*O-------------- *]B[C2]W[D2];)";
        let g = GgfGame::parse(text).unwrap();
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        assert_eq!(g.rules(), Ok(six));
        assert_eq!(g.start, six.start_position());
        let game = g.game().unwrap();
        assert_eq!(game.rules(), six);
        assert_eq!(game.transcript(false), "c2d2");
        assert_eq!(g.to_string(), text);
        // A move off the 6x6 board is illegal.
        let err = GgfGame::parse(&text.replace("W[D2]", "W[G7]"))
            .unwrap()
            .game()
            .unwrap_err();
        assert!(
            matches!(
                err,
                GgfError::Illegal {
                    index: 2,
                    reason: IllegalMoveError::OffBoard(_),
                    ..
                }
            ),
            "{err}"
        );

        // 4x4 anti, squares with spaces and x/o.
        let g = GgfGame::parse("(;TY[4a]BO[4 ---- -ox- -xo- ---- x]B[b1];)").unwrap();
        let anti = Rules {
            size: 4,
            goal: Goal::FewestDiscs,
            ..Rules::OTHELLO
        };
        assert_eq!(g.rules(), Ok(anti));
        assert_eq!(g.game().unwrap().position().black().count(), 4);
        assert!(
            g.to_string()
                .contains("TY[4a]BO[4 -----O*--*O----- *]B[B1]")
        );
        // Flags in GGS order and fixed colours change nothing.
        for ty in ["a4", "4ab", "4r4a"] {
            let text = format!("(;TY[{ty}]BO[4 -----O*--*O----- *];)");
            assert_eq!(GgfGame::parse(&text).unwrap().rules(), Ok(anti), "{ty}");
        }

        // Without TY the size of BO is kept as a TY tag.
        let g = GgfGame::parse("(;BO[4 -----O*--*O----- O];)").unwrap();
        assert_eq!(g.tag("TY"), Some("4"));
        assert_eq!(g.start.to_move, Color::White);
        assert_eq!(g.rules().unwrap().size, 4);
        // TY without BO: that size's start.
        let g = GgfGame::parse("(;TY[6a];)").unwrap();
        assert_eq!(g.start, six.start_position());
        assert_eq!(g.rules().unwrap().goal, Goal::FewestDiscs);
    }

    #[test]
    fn an_empty_centre_is_the_reversi_start() {
        let text = "(;TY[6]BO[6 ------------------------------------ *]B[C3]W[D4]B[D3];)";
        let g = GgfGame::parse(text).unwrap();
        let rules = g.rules().unwrap();
        assert_eq!(rules.setup, Setup::Placement);
        assert_eq!(rules.size, 6);
        let game = g.game().unwrap();
        assert_eq!(game.position().black().count(), 2);
        assert_eq!(game.position().white().count(), 1);
        // Outside the centre during the placement phase: illegal.
        let err = GgfGame::parse(&text.replace("B[D3]", "B[A1]"))
            .unwrap()
            .game()
            .unwrap_err();
        assert!(
            matches!(
                err,
                GgfError::Illegal {
                    reason: IllegalMoveError::NotCentre(_),
                    ..
                }
            ),
            "{err}"
        );
        // The standard start stays standard Othello, and so does a set-up position with an
        // empty centre square but discs elsewhere.
        let g = GgfGame::parse(NBOARD).unwrap();
        assert_eq!(g.rules(), Ok(Rules::OTHELLO));
        let setup = format!("(;TY[8]BO[8 *O{} *];)", "-".repeat(62));
        assert_eq!(GgfGame::parse(&setup).unwrap().rules(), Ok(Rules::OTHELLO));
    }

    #[test]
    fn bad_sized_games_never_panic() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let alphabet = b"*O-xo. 0468a]s[r/\\BW;()9";
        for case in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            let junk: String = (0..len)
                .map(|i| alphabet[((seed >> (i % 50)) as usize + i) % alphabet.len()] as char)
                .collect();
            let size = [4, 6, 8, 5][case % 4];
            let squares: String = (0..size * size)
                .map(|i| ['-', '*', 'O'][((seed >> (i % 60)) % 3) as usize])
                .collect();
            for text in [
                format!("(;TY[{junk}]BO[{size} {squares} *];)"),
                format!("(;TY[{size}a]BO[{size} {squares} {junk}];)"),
                format!("(;TY[{size}]BO[{size} {junk}]B[{junk}];)"),
                format!("(;TY[{size}]BO[{size} {squares} O]B[A1]W[{junk}];)"),
            ] {
                if let Ok(g) = GgfGame::parse(&text) {
                    let _ = g.rules();
                    let _ = g.game();
                    let again = GgfGame::parse(&g.to_string());
                    assert!(again.is_ok(), "{text} -> {g}");
                }
            }
        }
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
        assert_eq!(
            MoveItem::parse("F5/x").unwrap_err().to_string(),
            "bad evaluation 'x' in move 'F5/x'"
        );
        assert_eq!(
            MoveItem::parse("F5 1 2 3").unwrap_err().to_string(),
            "unexpected '3' in move 'F5 1 2 3'"
        );
        assert!(matches!(
            MoveItem::parse("z9/1"),
            Err(ParseMoveItemError::Move(_))
        ));
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
        assert_eq!(tc.to_string(), "5:00/0:10/2:00");
        assert_eq!(clock_text(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(clock_text(Duration::from_millis(500)), "0:00.5");
    }
}
