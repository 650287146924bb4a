//! NBoard responses (engine → GUI): written by `Display` the way NBoard's parser reads them
//! (evals in discs with two decimals, never an exponent; names as one token), and parsed with
//! nom for clients such as the match runner and the tests.

use std::fmt;
use std::str::FromStr;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{space0, space1, u32 as parse_u32, u64 as parse_u64};
use nom::combinator::{all_consuming, cut, map, opt, rest, value};
use nom::sequence::preceded;

use super::command::{ParseError, PingId};
use crate::board::Move;
use crate::board::notation::parse_transcript_moves;
use crate::records::ggf::MoveItem;

/// A value in a `search`/`book` line: discs for the side to move, or NBoard's draw-seeking /
/// draw-avoiding pair. Iago never writes `NaN`, but reads it from other engines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// One value.
    Value(f64),
    /// `a,b`: the value if draws count as wins, and as losses.
    Pair(f64, f64),
    /// No value (`NaN`).
    NaN,
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Value(v) => write!(f, "{v:.2}"),
            Eval::Pair(a, b) => write!(f, "{a:.2},{b:.2}"),
            Eval::NaN => write!(f, "NaN"),
        }
    }
}

/// A search depth as NBoard shows it: plies (`12`), or a solve: `100%` exact, `100%W`
/// win/loss/draw; other `%` suffixes are probable solves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Depth {
    /// The number.
    pub depth: u32,
    /// `""`, `"%"`, `"%W"`, or what another engine wrote.
    pub suffix: String,
}

impl Depth {
    /// A midgame depth in plies.
    pub fn plies(depth: u32) -> Depth {
        Depth {
            depth,
            suffix: String::new(),
        }
    }

    /// An exact solve.
    pub fn exact() -> Depth {
        Depth {
            depth: 100,
            suffix: "%".into(),
        }
    }

    /// A proven win/loss/draw.
    pub fn win_loss_draw() -> Depth {
        Depth {
            depth: 100,
            suffix: "%W".into(),
        }
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.depth, self.suffix)
    }
}

/// A `search` or `book` line.
#[derive(Clone, Debug, PartialEq)]
pub struct HintLine {
    /// The principal variation, starting with the move the line is about.
    pub pv: Vec<Move>,
    /// Its value.
    pub eval: Eval,
    /// Games in the book (0 for `search`).
    pub games: u64,
    /// Depth.
    pub depth: Depth,
    /// Free text after the depth.
    pub text: String,
}

/// A message from the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `set myname <name>`.
    SetMyName(String),
    /// `pong <n>`, or a bare `pong` for a `ping` without a valid number.
    Pong(Option<PingId>),
    /// `status <text>` (empty clears it).
    Status(String),
    /// `=== <mli>`: the chosen move.
    BestMove(MoveItem),
    /// `search <pv> <eval> 0 <depth> [text]`.
    Search(HintLine),
    /// `book <pv> <eval> <games> <depth> [text]`.
    Book(HintLine),
    /// `nodestats <nodes> <seconds>`.
    NodeStats {
        /// Nodes searched.
        nodes: u64,
        /// Seconds spent.
        seconds: f64,
    },
    /// `analysis <moves made> <eval>`.
    Analysis {
        /// Moves of the game played before the position (passes count).
        moves_made: u32,
        /// Its value for the side to move.
        eval: f64,
    },
    /// `learned`.
    Learned,
}

fn pv_text(pv: &[Move]) -> String {
    if pv.is_empty() {
        "PA".into()
    } else {
        pv.iter().map(|m| m.to_uppercase()).collect()
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::SetMyName(name) => {
                let token: String = name.split_whitespace().collect::<Vec<_>>().join("_");
                write!(f, "set myname {token}")
            }
            Response::Pong(Some(n)) => write!(f, "pong {n}"),
            Response::Pong(None) => write!(f, "pong"),
            Response::Status(text) if text.is_empty() => write!(f, "status"),
            Response::Status(text) => write!(f, "status {text}"),
            Response::BestMove(item) => write!(f, "=== {item}"),
            Response::Search(h) | Response::Book(h) => {
                let word = if matches!(self, Response::Book(_)) {
                    "book"
                } else {
                    "search"
                };
                write!(
                    f,
                    "{word} {} {} {} {}",
                    pv_text(&h.pv),
                    h.eval,
                    h.games,
                    h.depth
                )?;
                if !h.text.is_empty() {
                    write!(f, " {}", h.text)?;
                }
                Ok(())
            }
            Response::NodeStats { nodes, seconds } => write!(f, "nodestats {nodes} {seconds:.3}"),
            Response::Analysis { moves_made, eval } => write!(f, "analysis {moves_made} {eval:.2}"),
            Response::Learned => write!(f, "learned"),
        }
    }
}

fn token(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace())(i)
}

fn decimal(text: &str) -> Option<f64> {
    if text.contains(['e', 'E']) {
        return None;
    }
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

fn eval(i: &str) -> IResult<&str, Eval> {
    let (rest_i, text) = token(i)?;
    let parsed = if text.eq_ignore_ascii_case("nan") {
        Some(Eval::NaN)
    } else if let Some((a, b)) = text.split_once(',') {
        decimal(a).zip(decimal(b)).map(|(a, b)| Eval::Pair(a, b))
    } else {
        decimal(text).map(Eval::Value)
    };
    match parsed {
        Some(e) => Ok((rest_i, e)),
        None => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Float,
        ))),
    }
}

fn pv(i: &str) -> IResult<&str, Vec<Move>> {
    let (rest_i, text) = token(i)?;
    match parse_transcript_moves(text) {
        Ok(moves) if !moves.is_empty() => Ok((rest_i, moves.into_iter().map(|(m, _)| m).collect())),
        _ => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn depth(i: &str) -> IResult<&str, Depth> {
    let (i, depth) = parse_u32(i)?;
    let (i, suffix) = opt(token).parse(i)?;
    Ok((
        i,
        Depth {
            depth,
            suffix: suffix.unwrap_or("").to_string(),
        },
    ))
}

fn hint_line(i: &str) -> IResult<&str, HintLine> {
    let (i, pv) = pv(i)?;
    let (i, eval) = preceded(space1, eval).parse(i)?;
    let (i, games) = preceded(space1, parse_u64).parse(i)?;
    let (i, depth) = preceded(space1, depth).parse(i)?;
    let (i, text) = preceded(space0, rest).parse(i)?;
    Ok((
        i,
        HintLine {
            pv,
            eval,
            games,
            depth,
            text: text.trim().to_string(),
        },
    ))
}

fn best_move(i: &str) -> IResult<&str, MoveItem> {
    match MoveItem::parse(i.trim()) {
        Ok(item) => Ok(("", item)),
        Err(_) => Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn response(i: &str) -> IResult<&str, Response> {
    alt((
        preceded(
            (tag("set"), space1, tag("myname"), space1),
            cut(map(token, |n| Response::SetMyName(n.to_string()))),
        ),
        preceded(
            tag("pong"),
            cut(alt((
                map(preceded(space1, token), |n: &str| PingId::parse(n))
                    .map_res(|id| id.map(|id| Response::Pong(Some(id))).ok_or(())),
                value(Response::Pong(None), space0),
            ))),
        ),
        preceded(
            tag("status"),
            map(rest, |t: &str| Response::Status(t.trim().to_string())),
        ),
        preceded(
            (tag("==="), space0),
            cut(map(best_move, Response::BestMove)),
        ),
        preceded(
            (tag("search"), space1),
            cut(map(hint_line, Response::Search)),
        ),
        preceded((tag("book"), space1), cut(map(hint_line, Response::Book))),
        preceded(
            (tag("nodestats"), space1),
            cut(map((parse_u64, space1, token), |(nodes, _, s)| (nodes, s))),
        )
        .map_res(|(nodes, s)| {
            decimal(s)
                .map(|seconds| Response::NodeStats { nodes, seconds })
                .ok_or(())
        }),
        preceded((tag("analysis"), space1), cut((parse_u32, space1, token))).map_res(
            |(moves_made, _, e)| {
                decimal(e)
                    .map(|eval| Response::Analysis { moves_made, eval })
                    .ok_or(())
            },
        ),
        value(Response::Learned, tag("learned")),
    ))
    .parse(i)
}

impl FromStr for Response {
    type Err = ParseError;

    /// Reads a line the way NBoard does: runs of whitespace in `===` lines become `/`, and
    /// evals with an exponent are refused.
    fn from_str(line: &str) -> Result<Response, ParseError> {
        let line = line.trim();
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let word = line.split_whitespace().next().unwrap_or("");
        all_consuming((response, space0))
            .parse(line)
            .map(|(_, (r, _))| r)
            .map_err(|_| {
                match [
                    "set",
                    "pong",
                    "status",
                    "===",
                    "search",
                    "book",
                    "nodestats",
                    "analysis",
                    "learned",
                ]
                .iter()
                .find(|k| **k == word)
                {
                    Some(known) => ParseError::BadArgument {
                        command: known,
                        line: line.to_string(),
                    },
                    None => ParseError::Unknown(word.to_string()),
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        parse_transcript_moves(text)
            .unwrap()
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    fn all_responses() -> Vec<Response> {
        vec![
            Response::SetMyName("Iago".into()),
            Response::Pong(Some(5.into())),
            Response::Pong(None),
            Response::Status(String::new()),
            Response::Status("Iago is thinking".into()),
            Response::BestMove(MoveItem::parse("F5/1.00/0.52").unwrap()),
            Response::BestMove(MoveItem::parse("PA").unwrap()),
            Response::BestMove(MoveItem::parse("H4//1.89").unwrap()),
            Response::Search(HintLine {
                pv: moves("f5d6c3"),
                eval: Eval::Value(-2.0),
                games: 0,
                depth: Depth::plies(12),
                text: String::new(),
            }),
            Response::Search(HintLine {
                pv: vec![Move::Pass],
                eval: Eval::Value(3.5),
                games: 0,
                depth: Depth::exact(),
                text: "exact".into(),
            }),
            Response::Book(HintLine {
                pv: moves("d3"),
                eval: Eval::Pair(1.0, -1.0),
                games: 42,
                depth: Depth::win_loss_draw(),
                text: String::new(),
            }),
            Response::NodeStats {
                nodes: 123_456,
                seconds: 1.25,
            },
            Response::Analysis {
                moves_made: 61,
                eval: -4.0,
            },
            Response::Learned,
        ]
    }

    #[test]
    fn every_response_round_trips() {
        for r in all_responses() {
            let text = r.to_string();
            assert_eq!(text.parse::<Response>(), Ok(r), "{text}");
        }
    }

    #[test]
    fn literal_forms() {
        assert_eq!(
            Response::SetMyName("Iago 0.1".into()).to_string(),
            "set myname Iago_0.1"
        );
        let best = Response::BestMove(MoveItem {
            mv: Move::parse("f5").unwrap(),
            eval: Some(1.0),
            time: Some(0.5),
        });
        assert_eq!(best.to_string(), "=== F5/1.00/0.50");
        // Edax's space-separated reply and NTest's blank eval parse.
        assert!(matches!(
            "=== b5 0.00 0.0".parse::<Response>(),
            Ok(Response::BestMove(_))
        ));
        assert!(matches!(
            "=== H4//1.89".parse::<Response>(),
            Ok(Response::BestMove(_))
        ));
        // NBoard's internal engines in a must-pass position, and NTest's probable solve.
        assert!(matches!(
            "search PA NaN 0 12".parse::<Response>(),
            Ok(Response::Search(_))
        ));
        match "search F5-D6-C3 0.50 0 50%W some text".parse::<Response>() {
            Ok(Response::Search(h)) => {
                assert_eq!(h.pv.len(), 3);
                assert_eq!(h.depth.suffix, "%W");
                assert_eq!(h.text, "some text");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            "nodestats 1000 1E-3".parse::<Response>(),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            "analysis 3 1.5E2".parse::<Response>(),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            "hello".parse::<Response>(),
            Err(ParseError::Unknown(_))
        ));
    }
}
