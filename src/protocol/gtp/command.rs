//! GTP commands (client → engine), Othello dialect: parsed with nom, written by `Display`.

use std::fmt;
use std::str::FromStr;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{space0, space1, u32 as parse_u32, u64 as parse_u64};
use nom::combinator::{all_consuming, cut, map, map_res, opt, rest, value};
use nom::sequence::{preceded, terminated};
use thiserror::Error;

use crate::board::notation::excerpt;
use crate::board::{Color, Move};

/// A command with its optional id.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The id to echo in the reply.
    pub id: Option<u64>,
    /// What to do.
    pub kind: Kind,
}

/// The commands.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command <name>`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `boardsize <n>`.
    BoardSize(u32),
    /// `clear_board`.
    ClearBoard,
    /// `komi <x>` (ignored).
    Komi(f64),
    /// `play <color> <vertex|pass>`.
    Play(Color, Move),
    /// `genmove <color>`: choose and play a move.
    Genmove(Color),
    /// `reg_genmove <color>`: choose a move without playing it.
    RegGenmove(Color),
    /// `undo`.
    Undo,
    /// `time_settings <main> <byo-yomi time> <byo-yomi stones>` (seconds).
    TimeSettings {
        /// Main time.
        main: f64,
        /// Byo-yomi period.
        byo_yomi: f64,
        /// Stones per byo-yomi period (0: no byo-yomi).
        stones: u32,
    },
    /// `time_left <color> <time> <stones>`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left.
        time: f64,
        /// Stones left in the byo-yomi period (0 in main time).
        stones: u32,
    },
    /// `showboard`.
    ShowBoard,
    /// `final_score`.
    FinalScore,
    /// `list_games`.
    ListGames,
    /// `set_game <name>`.
    SetGame(String),
    /// `gogui-rules_game_id`.
    RulesGameId,
    /// `gogui-rules_board_size`.
    RulesBoardSize,
    /// `gogui-rules_legal_moves`.
    RulesLegalMoves,
    /// `gogui-rules_side_to_move`.
    RulesSideToMove,
    /// `gogui-rules_final_result`.
    RulesFinalResult,
    /// `gogui-rules_board`.
    RulesBoard,
    /// `gogui-interrupt`: GoGui announces that it interrupts a command with a `# interrupt`
    /// line.
    Interrupt,
    /// `gogui-analyze_commands`: the commands GoGui offers in its menus (the parameter dialog).
    AnalyzeCommands,
    /// `iago-param [<name> <value>]`: the engine's parameters as GoGui's parameter dialog
    /// reads them (`[string] move_overhead 50`), or one of them set.
    Param(Option<(String, String)>),
    /// `quit`.
    Quit,
}

/// Every command name, in the order `list_commands` prints them.
pub const COMMANDS: [&str; 29] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "final_score",
    "list_games",
    "set_game",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-rules_board",
    "gogui-interrupt",
    "gogui-analyze_commands",
    "iago-param",
    "quit",
    "help",
];

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Blank line or only a comment.
    #[error("empty line")]
    Empty,
    /// Not a command this engine knows.
    #[error("unknown command")]
    Unknown {
        /// The id, to echo in the error reply.
        id: Option<u64>,
    },
    /// A known command with bad arguments.
    #[error("syntax error: {message}")]
    Syntax {
        /// The id, to echo.
        id: Option<u64>,
        /// What is wrong.
        message: String,
    },
}

impl Command {
    /// Whether the command is GoGui's own (`gogui-…`): the client is GoGui or gogui-twogtp.
    pub fn is_gogui(&self) -> bool {
        matches!(
            self.kind,
            Kind::RulesGameId
                | Kind::RulesBoardSize
                | Kind::RulesLegalMoves
                | Kind::RulesSideToMove
                | Kind::RulesFinalResult
                | Kind::RulesBoard
                | Kind::Interrupt
                | Kind::AnalyzeCommands
        )
    }
}

impl ParseError {
    /// The id of the failed command.
    pub fn id(&self) -> Option<u64> {
        match self {
            ParseError::Empty => None,
            ParseError::Unknown { id } | ParseError::Syntax { id, .. } => *id,
        }
    }
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace())(i)
}

fn color(i: &str) -> IResult<&str, Color> {
    alt((
        value(Color::Black, terminated(tag_no_case("black"), word_end)),
        value(Color::White, terminated(tag_no_case("white"), word_end)),
        value(Color::Black, terminated(tag_no_case("b"), word_end)),
        value(Color::White, terminated(tag_no_case("w"), word_end)),
    ))
    .parse(i)
}

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

/// A vertex `a1`..`h8` (either case) or `pass` (also `PA`, as Othello programs write it).
fn vertex(i: &str) -> IResult<&str, Move> {
    map_res(word, Move::parse).parse(i)
}

fn number(i: &str) -> IResult<&str, f64> {
    map_res(word, |w: &str| {
        w.parse::<f64>().map_err(|_| ()).and_then(|x| {
            if x.is_finite() && x >= 0.0 {
                Ok(x)
            } else {
                Err(())
            }
        })
    })
    .parse(i)
}

fn signed_number(i: &str) -> IResult<&str, f64> {
    map_res(word, |w: &str| {
        w.parse::<f64>()
            .map_err(|_| ())
            .and_then(|x| if x.is_finite() { Ok(x) } else { Err(()) })
    })
    .parse(i)
}

/// `name` then the end of the word.
fn name<'a>(
    n: &'static str,
) -> impl Parser<&'a str, Output = (), Error = nom::error::Error<&'a str>> {
    map((tag_no_case(n), word_end), |_| ())
}

/// An argument: spaces, then `p`.
fn arg<'a, P>(p: P) -> impl Parser<&'a str, Output = P::Output, Error = nom::error::Error<&'a str>>
where
    P: Parser<&'a str, Error = nom::error::Error<&'a str>>,
{
    preceded(space1, p)
}

fn kind(i: &str) -> IResult<&str, Kind> {
    alt((
        alt((
            value(Kind::ProtocolVersion, name("protocol_version")),
            value(Kind::Name, name("name")),
            value(Kind::Version, name("version")),
            preceded(
                name("known_command"),
                cut(arg(map(word, |w: &str| Kind::KnownCommand(w.to_string())))),
            ),
            value(Kind::ListCommands, name("list_commands")),
            value(Kind::ListCommands, name("help")),
            preceded(name("boardsize"), cut(arg(map(parse_u32, Kind::BoardSize)))),
            value(Kind::ClearBoard, name("clear_board")),
            preceded(name("komi"), cut(arg(map(signed_number, Kind::Komi)))),
            preceded(
                name("play"),
                cut(map((arg(color), arg(vertex)), |(c, m)| Kind::Play(c, m))),
            ),
            preceded(name("genmove"), cut(arg(map(color, Kind::Genmove)))),
            preceded(name("reg_genmove"), cut(arg(map(color, Kind::RegGenmove)))),
            value(Kind::Undo, name("undo")),
        )),
        alt((
            preceded(
                name("time_settings"),
                cut(map(
                    (arg(number), arg(number), arg(parse_u32)),
                    |(main, byo_yomi, stones)| Kind::TimeSettings {
                        main,
                        byo_yomi,
                        stones,
                    },
                )),
            ),
            preceded(
                name("time_left"),
                cut(map(
                    (arg(color), arg(number), arg(parse_u32)),
                    |(color, time, stones)| Kind::TimeLeft {
                        color,
                        time,
                        stones,
                    },
                )),
            ),
            value(Kind::ShowBoard, name("showboard")),
            value(Kind::FinalScore, name("final_score")),
            value(Kind::ListGames, name("list_games")),
            preceded(
                name("set_game"),
                cut(arg(map(rest, |g: &str| {
                    Kind::SetGame(g.trim().to_string())
                }))),
            ),
            value(Kind::RulesGameId, name("gogui-rules_game_id")),
            value(Kind::RulesBoardSize, name("gogui-rules_board_size")),
            value(Kind::RulesLegalMoves, name("gogui-rules_legal_moves")),
            value(Kind::RulesSideToMove, name("gogui-rules_side_to_move")),
            value(Kind::RulesFinalResult, name("gogui-rules_final_result")),
            value(Kind::RulesBoard, name("gogui-rules_board")),
            value(Kind::Interrupt, name("gogui-interrupt")),
            value(Kind::AnalyzeCommands, name("gogui-analyze_commands")),
            preceded(
                name("iago-param"),
                cut(map(opt((arg(word), arg(word))), |p| {
                    Kind::Param(p.map(|(n, v): (&str, &str)| (n.to_string(), v.to_string())))
                })),
            ),
            value(Kind::Quit, name("quit")),
        )),
    ))
    .parse(i)
}

/// Removes what GTP says to ignore: control characters (tabs become spaces) and `#` comments.
pub fn preprocess(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let line = preprocess(line);
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let (after_id, id) = opt(terminated(
            parse_u64::<&str, nom::error::Error<&str>>,
            space1,
        ))
        .parse(line.as_str())
        .unwrap_or((line.as_str(), None));
        let word = after_id.split_whitespace().next().unwrap_or("");
        if id.is_none() && !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::Syntax {
                id: None,
                message: format!("id '{}' is beyond 64 bits", excerpt(word)),
            });
        }
        match all_consuming(terminated(kind, space0)).parse(after_id) {
            Ok((_, kind)) => Ok(Command { id, kind }),
            Err(_) if COMMANDS.iter().any(|c| c.eq_ignore_ascii_case(word)) => {
                Err(ParseError::Syntax {
                    id,
                    message: format!("bad arguments: {}", excerpt(after_id)),
                })
            }
            Err(_) => Err(ParseError::Unknown { id }),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

fn vertex_name(m: Move) -> String {
    match m {
        Move::Pass => "pass".into(),
        Move::Play(_) => m.to_uppercase(),
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        match &self.kind {
            Kind::ProtocolVersion => write!(f, "protocol_version"),
            Kind::Name => write!(f, "name"),
            Kind::Version => write!(f, "version"),
            Kind::KnownCommand(c) => write!(f, "known_command {c}"),
            Kind::ListCommands => write!(f, "list_commands"),
            Kind::BoardSize(n) => write!(f, "boardsize {n}"),
            Kind::ClearBoard => write!(f, "clear_board"),
            Kind::Komi(k) => write!(f, "komi {k}"),
            Kind::Play(c, m) => write!(f, "play {} {}", color_name(*c), vertex_name(*m)),
            Kind::Genmove(c) => write!(f, "genmove {}", color_name(*c)),
            Kind::RegGenmove(c) => write!(f, "reg_genmove {}", color_name(*c)),
            Kind::Undo => write!(f, "undo"),
            Kind::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => write!(f, "time_settings {main} {byo_yomi} {stones}"),
            Kind::TimeLeft {
                color,
                time,
                stones,
            } => write!(f, "time_left {} {time} {stones}", color_name(*color)),
            Kind::ShowBoard => write!(f, "showboard"),
            Kind::FinalScore => write!(f, "final_score"),
            Kind::ListGames => write!(f, "list_games"),
            Kind::SetGame(g) => write!(f, "set_game {g}"),
            Kind::RulesGameId => write!(f, "gogui-rules_game_id"),
            Kind::RulesBoardSize => write!(f, "gogui-rules_board_size"),
            Kind::RulesLegalMoves => write!(f, "gogui-rules_legal_moves"),
            Kind::RulesSideToMove => write!(f, "gogui-rules_side_to_move"),
            Kind::RulesFinalResult => write!(f, "gogui-rules_final_result"),
            Kind::RulesBoard => write!(f, "gogui-rules_board"),
            Kind::Interrupt => write!(f, "gogui-interrupt"),
            Kind::AnalyzeCommands => write!(f, "gogui-analyze_commands"),
            Kind::Param(None) => write!(f, "iago-param"),
            Kind::Param(Some((n, v))) => write!(f, "iago-param {n} {v}"),
            Kind::Quit => write!(f, "quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_kinds() -> Vec<Kind> {
        vec![
            Kind::ProtocolVersion,
            Kind::Name,
            Kind::Version,
            Kind::KnownCommand("genmove".into()),
            Kind::ListCommands,
            Kind::BoardSize(8),
            Kind::ClearBoard,
            Kind::Komi(6.5),
            Kind::Play(Color::Black, Move::parse("f5").unwrap()),
            Kind::Play(Color::White, Move::Pass),
            Kind::Genmove(Color::White),
            Kind::RegGenmove(Color::Black),
            Kind::Undo,
            Kind::TimeSettings {
                main: 300.0,
                byo_yomi: 10.0,
                stones: 5,
            },
            Kind::TimeLeft {
                color: Color::Black,
                time: 12.5,
                stones: 0,
            },
            Kind::ShowBoard,
            Kind::FinalScore,
            Kind::ListGames,
            Kind::SetGame("Othello".into()),
            Kind::SetGame("6x6 anti".into()),
            Kind::BoardSize(6),
            Kind::RulesGameId,
            Kind::RulesBoardSize,
            Kind::RulesLegalMoves,
            Kind::RulesSideToMove,
            Kind::RulesFinalResult,
            Kind::RulesBoard,
            Kind::Interrupt,
            Kind::Quit,
        ]
    }

    #[test]
    fn every_command_round_trips_with_and_without_id() {
        for kind in all_kinds() {
            for id in [None, Some(7)] {
                let cmd = Command {
                    id,
                    kind: kind.clone(),
                };
                let text = cmd.to_string();
                assert_eq!(text.parse::<Command>(), Ok(cmd), "{text}");
            }
        }
    }

    #[test]
    fn client_spellings() {
        let play = |t: &str| t.parse::<Command>().map(|c| c.kind);
        let f5 = Move::parse("f5").unwrap();
        for text in [
            "play b f5",
            "play B F5",
            "play black f5",
            "play BLACK f5",
            "play b\tf5  # comment",
        ] {
            assert_eq!(play(text), Ok(Kind::Play(Color::Black, f5)), "{text}");
        }
        assert_eq!(
            play("play w PASS"),
            Ok(Kind::Play(Color::White, Move::Pass))
        );
        assert_eq!(play("1 boardsize 8"), Ok(Kind::BoardSize(8)));
        assert_eq!("12 genmove w".parse::<Command>().unwrap().id, Some(12));
        assert_eq!(
            play("time_settings 300 0 0"),
            Ok(Kind::TimeSettings {
                main: 300.0,
                byo_yomi: 0.0,
                stones: 0
            })
        );
        assert_eq!(
            play("set_game Othello"),
            Ok(Kind::SetGame("Othello".into()))
        );
    }

    #[test]
    fn errors_keep_the_id() {
        let play = |t: &str| t.parse::<Command>().map(|c| c.kind);
        assert_eq!(
            "# only a comment".parse::<Command>(),
            Err(ParseError::Empty)
        );
        assert_eq!(
            "5 fly".parse::<Command>(),
            Err(ParseError::Unknown { id: Some(5) })
        );
        let err = "3 play x f5".parse::<Command>().unwrap_err();
        assert!(
            matches!(err, ParseError::Syntax { id: Some(3), .. }),
            "{err:?}"
        );
        assert!(matches!(
            "play b z9".parse::<Command>(),
            Err(ParseError::Syntax { .. })
        ));
        assert_eq!(play("play b PA"), Ok(Kind::Play(Color::Black, Move::Pass)));
        assert!(matches!(
            "genmove".parse::<Command>(),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            "boardsize x".parse::<Command>(),
            Err(ParseError::Syntax { .. })
        ));
        assert!(matches!(
            "namex".parse::<Command>(),
            Err(ParseError::Unknown { .. })
        ));
    }
}
