//! The console's commands: one line of the person's input read into a [`Command`].

use std::fmt;
use std::time::Duration;

use crate::board::Color;
use crate::board::notation::{excerpt, parse_transcript_moves};
use crate::search::Limits;

/// The colours Iago plays by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Neither: Iago moves only on `go`.
    Neither,
    /// Black.
    Black,
    /// White.
    White,
    /// Both: Iago plays the game by itself.
    Both,
}

impl Mode {
    /// Whether Iago plays `color`.
    pub fn plays(self, color: Color) -> bool {
        match self {
            Mode::Neither => false,
            Mode::Both => true,
            Mode::Black => color == Color::Black,
            Mode::White => color == Color::White,
        }
    }

    /// Whether a person plays one colour and Iago the other.
    pub fn is_match(self) -> bool {
        matches!(self, Mode::Black | Mode::White)
    }

    /// The mode in a word: `White`, `Black`, `both`, `neither`.
    pub fn short(self) -> &'static str {
        match self {
            Mode::Neither => "neither",
            Mode::Black => "Black",
            Mode::White => "White",
            Mode::Both => "both",
        }
    }

    /// `black`, `white`, `both`, `neither` (and their short forms), in lower case.
    pub fn parse(word: &str) -> Option<Mode> {
        Some(match word {
            "black" | "b" | "x" => Mode::Black,
            "white" | "w" | "o" => Mode::White,
            "both" | "all" | "auto" => Mode::Both,
            "neither" | "none" | "off" | "human" => Mode::Neither,
            _ => return None,
        })
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Neither => "Iago plays neither side (go makes it move)",
            Mode::Black => "Iago plays Black",
            Mode::White => "Iago plays White",
            Mode::Both => "Iago plays both sides",
        })
    }
}

/// How long Iago thinks about a move, a hint or a review.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Level {
    /// Plies of the midgame search (the endgame is solved from depth × 3/2 empties).
    Depth(u32),
    /// A time a move.
    Time(Duration),
    /// A playing level (1 beginner to 10 full strength, at the console's first depth).
    Named(crate::engine::Level),
}

impl Level {
    /// The search limits of the level (those of hints and of full strength; a named level
    /// below it draws its moves by its own depths).
    pub fn limits(self) -> Limits {
        match self {
            Level::Depth(depth) => Limits::depth(depth),
            Level::Time(time) => Limits::move_time(time),
            Level::Named(_) => Limits::depth(crate::protocol::DEFAULT_DEPTH),
        }
    }

    /// The engine's playing level: a named one, else full strength.
    pub fn playing(self) -> crate::engine::Level {
        match self {
            Level::Named(level) => level,
            Level::Depth(_) | Level::Time(_) => crate::engine::Level::TOP,
        }
    }

    /// `level` arguments: a playing level (`3`, `club`), `depth 14`, `time 2.5`, `2.5s`.
    fn parse(words: &[&str]) -> Result<Level, String> {
        const USAGE: &str = "level takes a playing level (level 3, level club: 1 beginner to 10 \
                             full strength), a depth (level depth 14) or a time a move (level \
                             time 2.5, level 2.5s)";
        let (kind, value) = match words {
            [value] => match value.strip_suffix('s') {
                Some(seconds) if seconds.parse::<f64>().is_ok() => ("time", seconds),
                _ => ("level", *value),
            },
            [kind, value] => (*kind, value.strip_suffix('s').unwrap_or(value)),
            _ => return Err(USAGE.to_string()),
        };
        match kind {
            "level" => match value.parse::<crate::engine::Level>() {
                Ok(level) => Ok(Level::Named(level)),
                Err(_) if value.parse::<u32>().is_ok() => Err(format!(
                    "a playing level is 1 to 10, not '{}' (a depth is level depth {})",
                    excerpt(value),
                    excerpt(value)
                )),
                Err(e) => Err(e.to_string()),
            },
            "depth" | "d" => match value.parse::<u32>() {
                Ok(depth) if (1..=60).contains(&depth) => Ok(Level::Depth(depth)),
                _ => Err(format!("a depth is 1 to 60, not '{}'", excerpt(value))),
            },
            "time" | "t" => match value.parse::<f64>() {
                Ok(secs) if secs > 0.0 && secs <= 86_400.0 => {
                    Ok(Level::Time(Duration::from_secs_f64(secs)))
                }
                _ => Err(format!(
                    "a time is seconds above 0 (at most a day), not '{}'",
                    excerpt(value)
                )),
            },
            _ => Err(USAGE.to_string()),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Depth(depth) => write!(f, "depth {depth}"),
            Level::Time(time) => write!(f, "{} s a move", time.as_secs_f64()),
            Level::Named(level) => write!(f, "{level}"),
        }
    }
}

/// A command of the console.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    /// Moves to play (a transcript: `f5`, `f5d6c3`, `f5 d6 c3`).
    Moves(String),
    /// A pass (only when the side to move has no move).
    Pass,
    /// Take back moves (in a game against Iago, back to the person's turn).
    Undo(usize),
    /// Play again what `undo` took back.
    Redo(usize),
    /// A new game under the current rules.
    New,
    /// Iago plays the side to move.
    Go,
    /// Show (`None`) or set the colours Iago plays.
    Mode(Option<Mode>),
    /// The N best moves with their scores.
    Hint(usize),
    /// Solve the position exactly, within a time (a default without one).
    Solve(Option<Duration>),
    /// Show (`None`) or set the level.
    Level(Option<Level>),
    /// Draw the board (`None`), or set up a game: a board string (or an OBF line), a
    /// transcript or a GGF game, as a paste box reads them.
    Board(Option<String>),
    /// Load a game or a position from a file (GGF, OBF, transcript).
    Load(String),
    /// Save the game as GGF.
    Save(String),
    /// Review the moves of the game.
    Review,
    /// The commands.
    Help,
    /// Leave.
    Quit,
}

/// The commands as `help` lists them.
pub(crate) const HELP: &str = "\
Commands (short forms in brackets):
  f5, f5d6c3, f5 d6   play moves (passes are added where a side has no move)
  pass (ps)           pass, when the side to move has no move
  undo (u) [N]        take back a move (against Iago: back to your turn); redo (r) [N]
  new (n)             a new game
  go (g)              Iago plays the side to move
  mode (m) [WHO]      who Iago plays: black, white, both or neither
  hint (hi) [N]       the N best moves (default 3) with their scores; book moves marked
  solve (s) [SECS]    the exact score and a best line (stops after SECS, default 60)
  level (l) [L]       Iago's strength: a playing level (level 3, level club; 1 beginner to
                      10 full strength), a depth (level depth 14) or seconds (level 2.5s)
  board (b) [TEXT]    draw the board, or set up a position: 64 squares (X O -) and X or O,
                      a transcript (f5d6c3) or a GGF game
  load FILE           a game (GGF, transcript) or a position (OBF) from a file
  save FILE           the game as GGF
  review (rv)         the discs each move of the game lost
  help (h, ?)         this list
  quit (q)            leave (also Ctrl-D, or Ctrl-C twice at the prompt)
A search shows its progress; Ctrl-C stops it and the game stays as it was.";

/// Reads a line: `Ok(None)` for a blank line or a comment (`#`).
pub(crate) fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let name = words[0].to_ascii_lowercase();
    let args = &words[1..];
    let rest = line[words[0].len()..].trim();
    let count = |default: usize| -> Result<usize, String> {
        match args {
            [] => Ok(default),
            [n] => match n.parse::<usize>() {
                Ok(n) if (1..=60).contains(&n) => Ok(n),
                _ => Err(format!(
                    "{name} takes a number from 1 to 60, not '{}'",
                    excerpt(n)
                )),
            },
            _ => Err(format!("{name} takes at most one number")),
        }
    };
    let none = |command: Command| -> Result<Option<Command>, String> {
        if args.is_empty() {
            Ok(Some(command))
        } else {
            Err(format!("{name} takes no arguments"))
        }
    };
    let file = |make: fn(String) -> Command| -> Result<Option<Command>, String> {
        if rest.is_empty() {
            Err(format!("{name} needs a file name"))
        } else {
            Ok(Some(make(rest.to_string())))
        }
    };
    match name.as_str() {
        "help" | "h" | "?" => none(Command::Help),
        "quit" | "q" | "exit" => none(Command::Quit),
        "new" | "n" => none(Command::New),
        "go" | "g" => none(Command::Go),
        "pass" | "ps" | "pa" => none(Command::Pass),
        "review" | "rv" => none(Command::Review),
        "undo" | "u" => count(1).map(|n| Some(Command::Undo(n))),
        "redo" | "r" => count(1).map(|n| Some(Command::Redo(n))),
        "hint" | "hi" => count(3).map(|n| Some(Command::Hint(n))),
        "mode" | "m" => match args {
            [] => Ok(Some(Command::Mode(None))),
            [who] => Mode::parse(&who.to_ascii_lowercase())
                .map(|m| Some(Command::Mode(Some(m))))
                .ok_or_else(|| {
                    format!(
                        "mode is black, white, both or neither, not '{}'",
                        excerpt(who)
                    )
                }),
            _ => Err("mode takes one word: black, white, both or neither".to_string()),
        },
        "level" | "l" => match args {
            [] => Ok(Some(Command::Level(None))),
            _ => {
                let lower: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
                let words: Vec<&str> = lower.iter().map(String::as_str).collect();
                Level::parse(&words).map(|l| Some(Command::Level(Some(l))))
            }
        },
        "solve" | "s" => match args {
            [] => Ok(Some(Command::Solve(None))),
            [secs] => match secs.strip_suffix('s').unwrap_or(secs).parse::<f64>() {
                Ok(t) if t > 0.0 && t <= 86_400.0 => {
                    Ok(Some(Command::Solve(Some(Duration::from_secs_f64(t)))))
                }
                _ => Err(format!(
                    "solve takes seconds above 0 (at most a day), not '{}'",
                    excerpt(secs)
                )),
            },
            _ => Err("solve takes at most one time".to_string()),
        },
        "board" | "b" | "setboard" => Ok(Some(Command::Board(
            (!rest.is_empty()).then(|| rest.to_string()),
        ))),
        "load" => file(Command::Load),
        "save" => file(Command::Save),
        _ => match parse_transcript_moves(line) {
            Ok(moves) if !moves.is_empty() => Ok(Some(Command::Moves(line.to_string()))),
            _ => Err(format!(
                "unknown command '{}' (help lists the commands; a move is written like f5)",
                excerpt(words[0])
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_short_forms() {
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(parse("# a note").unwrap(), None);
        assert_eq!(parse("f5").unwrap(), Some(Command::Moves("f5".into())));
        assert_eq!(
            parse("f5d6 C3").unwrap(),
            Some(Command::Moves("f5d6 C3".into()))
        );
        assert_eq!(parse("u").unwrap(), Some(Command::Undo(1)));
        assert_eq!(parse("undo 3").unwrap(), Some(Command::Undo(3)));
        assert_eq!(parse("hint").unwrap(), Some(Command::Hint(3)));
        assert_eq!(parse("HINT 5").unwrap(), Some(Command::Hint(5)));
        assert_eq!(
            parse("m w").unwrap(),
            Some(Command::Mode(Some(Mode::White)))
        );
        assert_eq!(parse("mode").unwrap(), Some(Command::Mode(None)));
        assert_eq!(
            parse("level depth 14").unwrap(),
            Some(Command::Level(Some(Level::Depth(14))))
        );
        assert_eq!(
            parse("level 3").unwrap(),
            Some(Command::Level(Some(Level::Named(
                crate::engine::Level::new(3).unwrap()
            ))))
        );
        assert_eq!(
            parse("level club").unwrap(),
            Some(Command::Level(Some(Level::Named(
                crate::engine::Level::new(5).unwrap()
            ))))
        );
        assert!(parse("level 14").unwrap_err().contains("level depth 14"));
        assert_eq!(
            parse("level time 2.5").unwrap(),
            Some(Command::Level(Some(Level::Time(Duration::from_millis(
                2500
            )))))
        );
        assert_eq!(
            parse("l 0.5s").unwrap(),
            Some(Command::Level(Some(Level::Time(Duration::from_millis(
                500
            )))))
        );
        assert_eq!(
            parse("solve 10").unwrap(),
            Some(Command::Solve(Some(Duration::from_secs(10))))
        );
        assert_eq!(parse("b").unwrap(), Some(Command::Board(None)));
        assert_eq!(
            parse("load my game.ggf").unwrap(),
            Some(Command::Load("my game.ggf".into()))
        );
        assert_eq!(parse("q").unwrap(), Some(Command::Quit));
    }

    #[test]
    fn bad_commands_are_one_line_errors() {
        for (line, expected) in [
            ("xyzzy", "unknown command 'xyzzy'"),
            ("f9", "unknown command 'f9'"),
            ("undo many", "undo takes a number from 1 to 60"),
            ("hint 0", "hint takes a number"),
            ("mode sideways", "mode is black, white, both or neither"),
            ("level -3", "a level is a number from 1 (beginner) to 10"),
            ("level depth -3", "a depth is 1 to 60"),
            ("level time 0", "a time is seconds above 0"),
            ("level fast 3", "level takes a playing level"),
            ("solve soon", "solve takes seconds"),
            ("load", "load needs a file name"),
            ("go now", "go takes no arguments"),
        ] {
            let err = parse(line).unwrap_err();
            assert!(err.starts_with(expected), "{line}: {err}");
            assert!(!err.contains('\n'));
        }
        let long = "z".repeat(10_000);
        assert!(parse(&long).unwrap_err().len() < 200);
    }
}
