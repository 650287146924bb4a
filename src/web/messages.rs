//! The messages of the page's WebSocket, as JSON objects with a `type` (docs/web.md): what a
//! client asks ([`ClientMessage`]) and what the server answers and pushes ([`ServerMessage`]).
//! Parsing is serde's; an unknown type or field, or a value out of range, is an error message
//! to the client, never the end of its connection.

use serde::{Deserialize, Serialize};

/// The largest text message the session reads; a longer one gets an error message back.
pub(crate) const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A message from the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClientMessage {
    /// A new game, under other rules when named (`othello`, `reversi`, `anti`, `6x6`,
    /// `othello 32-discs`, as `--rules` reads them).
    New {
        /// The rules; the current ones when absent.
        #[serde(default)]
        rules: Option<String>,
    },
    /// Plays a move (`f5`) in the position shown.
    Play {
        /// The square.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Iago plays the side to move now.
    Go,
    /// Stops the client's search (and Iago's games against itself).
    Stop,
    /// Shows a node of the game.
    Goto {
        /// Its number.
        node: usize,
    },
    /// One move back.
    Back,
    /// One move forward on the line shown.
    Forward,
    /// The start.
    Start,
    /// The end of the line shown.
    End,
    /// Takes back a turn: one move, or in a game against Iago back to the person's turn.
    Undo,
    /// Plays again what `undo` took back.
    Redo,
    /// Makes the line shown the main line.
    Promote,
    /// Shows (or hides) the value of every legal move, refined depth by depth.
    Values {
        /// On or off.
        on: bool,
    },
    /// Solves the position shown.
    Solve {
        /// `exact` (the default) or `wld`.
        #[serde(default)]
        mode: Option<String>,
    },
    /// Reviews the line shown: the discs every move lost.
    Review {
        /// The depth of the searches (default: [`super::session::REVIEW_DEPTH`]).
        #[serde(default)]
        depth: Option<u32>,
    },
    /// Reads a pasted transcript, board string or GGF game.
    Paste {
        /// The text.
        text: String,
    },
    /// Reads the game a URL fragment holds (`#f5d6c3`, `#anti:f5d6`).
    Fragment {
        /// The fragment, without `#`.
        text: String,
    },
    /// Changes the settings; absent fields stay as they are.
    Settings {
        /// Which colours Iago plays: `white`, `black`, `both` or `none`.
        #[serde(default)]
        iago: Option<String>,
        /// How long Iago thinks a move.
        #[serde(default)]
        level: Option<LevelMessage>,
        /// A clock for both sides (`null` for none).
        #[serde(default, deserialize_with = "present")]
        clock: Option<Option<ClockMessage>>,
    },
    /// Asks for the line shown as a GGF game.
    Ggf,
}

/// Iago's strength in a message: a depth, a time a move, or a playing level.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum LevelMessage {
    /// Plies.
    Depth(u32),
    /// Seconds.
    Time(f64),
    /// A playing level, 1 (beginner) to 10 (full strength).
    Level(u8),
}

/// A clock in a message: minutes for each side and an increment.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockMessage {
    /// Minutes each side has for the game.
    pub minutes: f64,
    /// Seconds added after each move.
    #[serde(default)]
    pub increment: f64,
}

/// A field given, even as `null`, is `Some`: `clock: null` turns the clock off.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// Reads a message, or says in one line why it cannot be read (without echoing it).
pub(crate) fn parse(text: &str) -> Result<ClientMessage, String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!(
            "message too long: {} bytes, at most {MAX_MESSAGE_BYTES}",
            text.len()
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let why = crate::board::notation::excerpt(&e.to_string());
        format!("bad message: {why}")
    })
}

/// A message to the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ServerMessage {
    /// The first message: what the server offers.
    Hello(Hello),
    /// Everything the page draws, after every change.
    State(Box<super::view::StateView>),
    /// Values of the moves of a node, at a depth.
    Values(super::view::ValuesView),
    /// Iago's search under way.
    Thinking {
        /// The node searched.
        node: usize,
        /// `depth@selectivity%`.
        depth: String,
        /// The best move so far.
        #[serde(rename = "move")]
        mv: String,
        /// Its score for the side to move.
        score: i32,
        /// The best line.
        pv: String,
        /// Positions searched.
        nodes: u64,
        /// Milliseconds so far.
        time_ms: u64,
    },
    /// A solve under way, as the console's progress line.
    Solving {
        /// The node solved.
        node: usize,
        /// The line.
        text: String,
    },
    /// A solve's result.
    Solved(super::view::SolvedView),
    /// A review under way.
    Reviewing {
        /// Moves reviewed.
        done: usize,
        /// Moves to review.
        total: usize,
    },
    /// What the client's search is doing: `play`, `values`, `solve`, `review`, or none; and
    /// how many searches of other clients wait before it for an engine.
    Busy {
        /// The job, or `null` when idle.
        job: Option<&'static str>,
        /// Searches ahead of it in the queue (0 once it runs).
        queued: usize,
    },
    /// The line shown as a GGF game.
    Ggf {
        /// The text.
        text: String,
    },
    /// A request that was refused, or failed; nothing changed.
    Error {
        /// One line.
        message: String,
    },
}

/// What the server offers: its version, the limits it keeps and the settings a page starts
/// with.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Hello {
    /// Iago's version.
    pub version: &'static str,
    /// The rule sets, by name and label.
    pub rules: Vec<RulesChoice>,
    /// The longest search a client may run, in seconds.
    pub max_search_s: f64,
    /// The depth of a review unless told otherwise.
    pub review_depth: u32,
    /// The largest message read.
    pub max_message_bytes: usize,
    /// The largest file read by `/api/games`.
    pub max_upload_bytes: usize,
}

/// A rule set the page offers.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RulesChoice {
    /// The name the messages use.
    pub name: String,
    /// What a person reads.
    pub label: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_message_reads() {
        let cases = [
            (r#"{"type":"new"}"#, ClientMessage::New { rules: None }),
            (
                r#"{"type":"new","rules":"6x6 anti"}"#,
                ClientMessage::New {
                    rules: Some("6x6 anti".into()),
                },
            ),
            (
                r#"{"type":"play","move":"f5"}"#,
                ClientMessage::Play { mv: "f5".into() },
            ),
            (r#"{"type":"go"}"#, ClientMessage::Go),
            (r#"{"type":"stop"}"#, ClientMessage::Stop),
            (
                r#"{"type":"goto","node":3}"#,
                ClientMessage::Goto { node: 3 },
            ),
            (r#"{"type":"back"}"#, ClientMessage::Back),
            (r#"{"type":"forward"}"#, ClientMessage::Forward),
            (r#"{"type":"start"}"#, ClientMessage::Start),
            (r#"{"type":"end"}"#, ClientMessage::End),
            (r#"{"type":"undo"}"#, ClientMessage::Undo),
            (r#"{"type":"redo"}"#, ClientMessage::Redo),
            (r#"{"type":"promote"}"#, ClientMessage::Promote),
            (
                r#"{"type":"values","on":true}"#,
                ClientMessage::Values { on: true },
            ),
            (
                r#"{"type":"solve","mode":"wld"}"#,
                ClientMessage::Solve {
                    mode: Some("wld".into()),
                },
            ),
            (
                r#"{"type":"review","depth":8}"#,
                ClientMessage::Review { depth: Some(8) },
            ),
            (
                r#"{"type":"paste","text":"f5d6"}"#,
                ClientMessage::Paste {
                    text: "f5d6".into(),
                },
            ),
            (
                r#"{"type":"fragment","text":"f5d6"}"#,
                ClientMessage::Fragment {
                    text: "f5d6".into(),
                },
            ),
            (
                r#"{"type":"settings","iago":"both","level":{"time":0.5},"clock":null}"#,
                ClientMessage::Settings {
                    iago: Some("both".into()),
                    level: Some(LevelMessage::Time(0.5)),
                    clock: Some(None),
                },
            ),
            (
                r#"{"type":"settings","level":{"depth":6},"clock":{"minutes":5,"increment":2}}"#,
                ClientMessage::Settings {
                    iago: None,
                    level: Some(LevelMessage::Depth(6)),
                    clock: Some(Some(ClockMessage {
                        minutes: 5.0,
                        increment: 2.0,
                    })),
                },
            ),
            (
                r#"{"type":"settings"}"#,
                ClientMessage::Settings {
                    iago: None,
                    level: None,
                    clock: None,
                },
            ),
            (r#"{"type":"ggf"}"#, ClientMessage::Ggf),
        ];
        for (text, message) in cases {
            assert_eq!(parse(text), Ok(message), "{text}");
        }
    }

    #[test]
    fn bad_messages_are_one_line_errors_that_do_not_echo_them() {
        let long = format!(r#"{{"type":"{}"}}"#, "x".repeat(5000));
        for text in [
            "",
            "garbage",
            "{}",
            r#"{"type":"fly"}"#,
            r#"{"type":"play"}"#,
            r#"{"type":"play","move":5}"#,
            r#"{"type":"goto","node":-1}"#,
            r#"{"type":"play","move":"f5","extra":1}"#,
            "[1,2,3]",
            long.as_str(),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.starts_with("bad message: "), "{error}");
            assert!(!error.contains('\n') && error.len() < 200, "{error}");
        }
        let huge = "x".repeat(MAX_MESSAGE_BYTES + 1);
        assert!(parse(&huge).unwrap_err().starts_with("message too long"));
    }
}
