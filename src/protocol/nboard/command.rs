//! NBoard commands (GUI → engine): parsed with nom, written by `Display`.

use std::fmt;
use std::str::FromStr;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{space0, space1, u32 as parse_u32};
use nom::combinator::{all_consuming, cut, map, rest, value};
use nom::sequence::preceded;
use thiserror::Error;

use crate::board::notation::excerpt;
use crate::protocol::session::Param;
use crate::records::ggf::MoveItem;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`: enter NBoard mode.
    Nboard(u32),
    /// `set depth <n>`: the midgame search depth.
    SetDepth(u32),
    /// `set game <ggf>`: the whole game (kept as text; see [`crate::records::ggf`]).
    SetGame(String),
    /// `set contempt <n>`: the draw value, Black's view (may be fractional).
    SetContempt(f64),
    /// `set <parameter> <value>`: an engine parameter (`set move_overhead 50`).
    SetParam(Param),
    /// `move <mli>`: one move, with optional eval and time.
    Move(MoveItem),
    /// `ping <n>`: stop thinking and answer `pong <n>`; a `ping` without a valid number is
    /// still a stop, answered by `pong 0`.
    Ping(Option<PingId>),
    /// `go`: choose a move.
    Go,
    /// `hint <n>`: evaluate the best n moves.
    Hint(u32),
    /// `learn`: add the game to the book.
    Learn,
    /// `analyze`: evaluate every position of the game.
    Analyze,
    /// `clear`: forget the hash table.
    Clear,
    /// `quit`.
    Quit,
}

/// The number of a `ping`, which `pong` echoes as written: an integer of up to
/// [`PingId::MAX_DIGITS`] digits (NBoard counts with an `int`; other clients count further).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PingId(String);

impl PingId {
    /// The longest number echoed.
    pub const MAX_DIGITS: usize = 100;

    /// `text` when it is an integer (optional sign, then 1 to [`PingId::MAX_DIGITS`] digits).
    pub fn parse(text: &str) -> Option<PingId> {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        let valid = (1..=Self::MAX_DIGITS).contains(&digits.len())
            && digits.bytes().all(|b| b.is_ascii_digit());
        valid.then(|| PingId(text.to_string()))
    }
}

impl From<u64> for PingId {
    fn from(n: u64) -> PingId {
        PingId(n.to_string())
    }
}

impl fmt::Display for PingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Blank line.
    #[error("empty line")]
    Empty,
    /// The first word is not a command.
    #[error("unknown command '{}'", excerpt(.0))]
    Unknown(String),
    /// A known command with a bad argument.
    #[error("bad argument for '{command}': {}", excerpt(line))]
    BadArgument {
        /// The command word.
        command: &'static str,
        /// The whole line.
        line: String,
    },
}

fn keyword<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    tag(word)
}

fn number_f64(i: &str) -> IResult<&str, f64> {
    let (i, text) = take_while1(|c: char| !c.is_whitespace())(i)?;
    match text.replace(',', ".").parse::<f64>() {
        Ok(x) if x.is_finite() => Ok((i, x)),
        _ => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Float,
        ))),
    }
}

fn move_item(i: &str) -> IResult<&str, MoveItem> {
    match MoveItem::parse(i.trim()) {
        Ok(item) => Ok(("", item)),
        Err(_) => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// A command word followed by the end of the line or a space (so `gone` is not `go`).
fn word_end(i: &str) -> IResult<&str, ()> {
    if i.is_empty() || i.starts_with(char::is_whitespace) {
        Ok((i, ()))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )))
    }
}

/// `<parameter> <value>` of a known parameter (a bad value fails the command).
fn param(i: &str) -> IResult<&str, Command> {
    let (rest, name) = take_while1(|c: char| !c.is_whitespace())(i)?;
    if !Param::NAMES.contains(&name) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )));
    }
    let (rest, value) = preceded(space1, take_while1(|c: char| !c.is_whitespace())).parse(rest)?;
    match Param::parse(name, value) {
        Ok(param) => Ok((rest, Command::SetParam(param))),
        Err(_) => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn command(i: &str) -> IResult<&str, Command> {
    let end = |i| {
        (space0, nom::combinator::eof)
            .parse(i)
            .map(|(i, _)| (i, ()))
    };
    alt((
        preceded(
            (keyword("nboard"), space1),
            cut(map(parse_u32, Command::Nboard)),
        ),
        preceded(
            (keyword("set"), space1),
            alt((
                preceded(
                    (keyword("depth"), space1),
                    cut(map(parse_u32, Command::SetDepth)),
                ),
                preceded(
                    (keyword("game"), space1),
                    map(rest, |g: &str| Command::SetGame(g.trim().to_string())),
                ),
                preceded(
                    (keyword("contempt"), space1),
                    cut(map(number_f64, Command::SetContempt)),
                ),
                param,
            )),
        ),
        preceded((keyword("move"), space1), cut(move_item)).map(Command::Move),
        preceded(
            (keyword("ping"), word_end),
            map(rest, |n: &str| Command::Ping(PingId::parse(n.trim()))),
        ),
        preceded(
            (keyword("hint"), space1),
            cut(map(parse_u32, Command::Hint)),
        ),
        value(Command::Go, (keyword("go"), word_end, cut(end))),
        value(Command::Learn, (keyword("learn"), word_end, cut(end))),
        value(Command::Analyze, (keyword("analyze"), word_end, cut(end))),
        value(Command::Clear, (keyword("clear"), word_end, cut(end))),
        value(Command::Quit, (keyword("quit"), word_end, cut(end))),
    ))
    .parse(i)
}

const KNOWN: [&str; 10] = [
    "nboard", "set", "move", "ping", "go", "hint", "learn", "analyze", "clear", "quit",
];

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let word = line.split_whitespace().next().unwrap_or("");
        match all_consuming((command, space0)).parse(line) {
            Ok((_, (cmd, _))) => Ok(cmd),
            Err(_) => match KNOWN.iter().find(|k| **k == word) {
                // `set <unknown variable>` is not an error the GUI could cause: ignore it too.
                Some(&"set")
                    if !["depth", "game", "contempt"]
                        .iter()
                        .chain(&Param::NAMES)
                        .any(|v| *v == line.split_whitespace().nth(1).unwrap_or("")) =>
                {
                    Err(ParseError::Unknown(line.to_string()))
                }
                Some(known) => Err(ParseError::BadArgument {
                    command: known,
                    line: line.to_string(),
                }),
                None => Err(ParseError::Unknown(word.to_string())),
            },
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Nboard(v) => write!(f, "nboard {v}"),
            Command::SetDepth(d) => write!(f, "set depth {d}"),
            Command::SetGame(g) => write!(f, "set game {g}"),
            Command::SetContempt(c) => write!(f, "set contempt {c}"),
            Command::SetParam(p) => write!(f, "set {p}"),
            Command::Move(item) => write!(f, "move {item}"),
            Command::Ping(Some(n)) => write!(f, "ping {n}"),
            Command::Ping(None) => write!(f, "ping"),
            Command::Go => write!(f, "go"),
            Command::Hint(n) => write!(f, "hint {n}"),
            Command::Learn => write!(f, "learn"),
            Command::Analyze => write!(f, "analyze"),
            Command::Clear => write!(f, "clear"),
            Command::Quit => write!(f, "quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn all_commands() -> Vec<Command> {
        vec![
            Command::Nboard(2),
            Command::SetDepth(12),
            Command::SetGame("(;GM[Othello]TY[8]B[F5];)".into()),
            Command::SetContempt(1.5),
            Command::SetContempt(-3.0),
            Command::SetParam(Param::MoveOverhead(std::time::Duration::from_millis(50))),
            Command::Move(MoveItem::parse("F5").unwrap()),
            Command::Move(MoveItem::parse("B3/0.00").unwrap()),
            Command::Move(MoveItem::parse("H5//0.14").unwrap()),
            Command::Move(MoveItem::parse("PA").unwrap()),
            Command::Ping(Some(17.into())),
            Command::Ping(None),
            Command::Go,
            Command::Hint(4),
            Command::Learn,
            Command::Analyze,
            Command::Clear,
            Command::Quit,
        ]
    }

    #[test]
    fn parameters_are_set_by_name() {
        assert_eq!(
            "set move_overhead 0".parse(),
            Ok(Command::SetParam(Param::MoveOverhead(
                std::time::Duration::ZERO
            )))
        );
        for bad in [
            "set move_overhead",
            "set move_overhead -5",
            "set move_overhead 60001",
            "set move_overhead 1.5",
            "set move_overhead 5 6",
        ] {
            assert!(
                matches!(
                    bad.parse::<Command>(),
                    Err(ParseError::BadArgument { command: "set", .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_command_round_trips() {
        for cmd in all_commands() {
            let text = cmd.to_string();
            assert_eq!(text.parse::<Command>(), Ok(cmd), "{text}");
        }
    }

    #[test]
    fn reference_examples() {
        let game = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[]PW[]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)";
        assert_eq!(
            format!("set game {game}").parse(),
            Ok(Command::SetGame(game.into()))
        );
        assert_eq!("nboard 2".parse(), Ok(Command::Nboard(2)));
        assert_eq!("set depth 6".parse(), Ok(Command::SetDepth(6)));
        assert_eq!("ping 1".parse(), Ok(Command::Ping(Some(1.into()))));
        assert_eq!("hint 64".parse(), Ok(Command::Hint(64)));
        assert_eq!("  go  ".parse(), Ok(Command::Go));
        let mv = |text: &str| match text.parse::<Command>() {
            Ok(Command::Move(item)) => item,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(mv("move F5").mv, Move::parse("f5").unwrap());
        assert_eq!(mv("move B3/0.00").eval, Some(0.0));
        assert_eq!(mv("move PA").mv, Move::Pass);
        assert_eq!(mv("move H5//0.14").time, Some(0.14));
        assert_eq!(mv("move d6 -1.00 0.0").eval, Some(-1.0));
        assert_eq!(mv("move pa -50.00 0.0").mv, Move::Pass);
        assert_eq!(mv("move F5/1,00/2.0E-4").time, Some(0.0002));
        assert_eq!("set contempt 100".parse(), Ok(Command::SetContempt(100.0)));
    }

    #[test]
    fn unknown_and_malformed_lines_are_told_apart() {
        assert_eq!("".parse::<Command>(), Err(ParseError::Empty));
        assert_eq!(
            "new".parse::<Command>(),
            Err(ParseError::Unknown("new".into()))
        );
        assert_eq!(
            "gone".parse::<Command>(),
            Err(ParseError::Unknown("gone".into()))
        );
        // A ping is a stop whatever its number: answered, if need be without one.
        assert_eq!("ping x".parse::<Command>(), Ok(Command::Ping(None)));
        assert_eq!("ping".parse::<Command>(), Ok(Command::Ping(None)));
        let big = "123456789012345678901234567890";
        assert_eq!(
            format!("ping {big}").parse::<Command>(),
            Ok(Command::Ping(PingId::parse(big)))
        );
        assert!(PingId::parse(big).is_some());
        assert_eq!(PingId::parse(&"9".repeat(101)), None);
        assert_eq!(
            "pingx".parse::<Command>(),
            Err(ParseError::Unknown("pingx".into()))
        );
        assert!(matches!(
            "move Z9".parse::<Command>(),
            Err(ParseError::BadArgument {
                command: "move",
                ..
            })
        ));
        assert!(matches!(
            "set depth".parse::<Command>(),
            Err(ParseError::BadArgument { command: "set", .. })
        ));
        assert!(matches!(
            "go now".parse::<Command>(),
            Err(ParseError::BadArgument { command: "go", .. })
        ));
        assert!(matches!(
            "set myname x".parse::<Command>(),
            Err(ParseError::Unknown(_))
        ));
        assert!(matches!(
            "hint -1".parse::<Command>(),
            Err(ParseError::BadArgument { .. })
        ));
    }
}
