//! Fuzzing the protocol sessions: sequences of valid commands, mutated (hostile numbers, control
//! characters, non-ASCII, cuts, case), run through the real NBoard and GTP session code with a
//! real engine. Properties: no panic; every `ping` answered by its `pong`, in order; one GTP
//! reply per command; every reply well formed; a rejected GTP command leaves the game as it
//! was. `IAGO_FUZZ_CASES` sets the number of sequences per protocol (default 500).

use std::io::Write;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

use proptest::prelude::*;

use crate::engine::{Engine, EngineOptions};
use crate::protocol::gtp::command::preprocess;
use crate::protocol::{Output, Protocol, Settings, gtp, nboard, serve_lines};

/// Protocol output collected in memory.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a whole session over `lines` (then the end of the input) and returns its output.
fn session(protocol: Protocol, lines: &[String]) -> String {
    let engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 1,
        ..EngineOptions::analysis()
    })
    .unwrap();
    let (tx, rx) = channel();
    for line in lines {
        tx.send(Some(line.clone())).unwrap();
    }
    tx.send(None).unwrap();
    let sink = Sink::default();
    let settings = Settings {
        depth: 2,
        ..Settings::default()
    };
    serve_lines(
        engine,
        Some(protocol),
        settings,
        rx,
        Output::new(Box::new(sink.clone())),
    );
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes).expect("protocol output is UTF-8")
}

const START: &str = "(;GM[Othello]PC[NBoard]DT[2026-11-22 10:00:00 GMT]PB[]PW[]RE[?]TI[0:05]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/1.00/0.5];)";

const NBOARD: &[&str] = &[
    "nboard 2",
    "set depth 3",
    "set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
    START,
    "set game (;GM[Othello]TY[6a]BO[6 --------------O*----*O-------------- *]B[C2];)",
    "set contempt 1.5",
    "move E6",
    "move F4/0.00/0.25",
    "move PA",
    "move d6 -1.00 0.0",
    "ping 7",
    "go",
    "hint 2",
    "hint 64",
    "learn",
    "analyze",
    "clear",
    "set depth 60",
];

const GTP: &[&str] = &[
    "protocol_version",
    "1 name",
    "list_commands",
    "known_command genmove",
    "boardsize 8",
    "boardsize 6",
    "clear_board",
    "komi 6.5",
    "play b f5",
    "play w d6",
    "play black c3",
    "play w pass",
    "genmove w",
    "2 genmove b",
    "reg_genmove b",
    "undo",
    "time_settings 10 0 0",
    "time_settings 0 1 0",
    "time_left b 2.5 0",
    "time_left w 5 3",
    "showboard",
    "final_score",
    "list_games",
    "set_game Anti",
    "set_game 6x6 reversi",
    "gogui-rules_legal_moves",
    "gogui-rules_board",
    "gogui-rules_side_to_move",
    "gogui-interrupt",
    "quit",
];

const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1e300",
    "-1e300",
    "NaN",
    "inf",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999",
    "1.5",
    "-0",
    "0x10",
];

const ODD_CHARS: &[char] = &[
    '\0', '\u{1}', '\t', '\r', '\u{1b}', '\u{7f}', 'é', '\u{FFFD}', '#', '/', '[', ']', ';', ')',
    ' ', '9', 'Z', '\u{202E}',
];

/// One mutation of a command line.
#[derive(Clone, Debug)]
enum Mutation {
    None,
    /// The `k`-th word becomes a hostile number.
    Number(usize, usize),
    /// A character inserted at a position (per mille of the length).
    Insert(usize, usize),
    /// A character removed.
    Remove(usize),
    /// Cut at a position.
    Cut(usize),
    /// Upper case.
    Upper,
    /// The line twice, as one line.
    Twice,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => Just(Mutation::None),
        2 => (0..4usize, 0..HOSTILE_NUMBERS.len()).prop_map(|(w, n)| Mutation::Number(w, n)),
        2 => (0..1000usize, 0..ODD_CHARS.len()).prop_map(|(at, c)| Mutation::Insert(at, c)),
        1 => (0..1000usize).prop_map(Mutation::Remove),
        1 => (0..1000usize).prop_map(Mutation::Cut),
        1 => Just(Mutation::Upper),
        1 => Just(Mutation::Twice),
    ]
}

fn apply(line: &str, m: &Mutation) -> String {
    let chars: Vec<char> = line.chars().collect();
    let at = |per_mille: usize| per_mille * chars.len() / 1000;
    match m {
        Mutation::None => line.to_string(),
        Mutation::Number(word, n) => {
            let mut words: Vec<&str> = line.split(' ').collect();
            let k = (*word).min(words.len() - 1);
            words[k] = HOSTILE_NUMBERS[*n];
            words.join(" ")
        }
        Mutation::Insert(p, c) => {
            let mut out = chars.clone();
            out.insert(at(*p), ODD_CHARS[*c]);
            out.into_iter().collect()
        }
        Mutation::Remove(p) => {
            let mut out = chars.clone();
            if !out.is_empty() {
                out.remove(at(*p).min(out.len() - 1));
            }
            out.into_iter().collect()
        }
        Mutation::Cut(p) => chars[..at(*p)].iter().collect(),
        Mutation::Upper => line.to_uppercase(),
        Mutation::Twice => format!("{line} {line}"),
    }
}

fn script(commands: &'static [&'static str]) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec((0..commands.len(), mutation()), 1..40)
        .prop_map(move |picks| picks.iter().map(|(i, m)| apply(commands[*i], m)).collect())
}

fn cases() -> u32 {
    std::env::var("IAGO_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every ping gets its pong, in order, and every line NBoard reads from Iago parses.
    #[test]
    fn nboard_sessions_survive_mutated_commands(mut lines in script(NBOARD)) {
        lines.insert(0, "nboard 2".into());
        lines.push("ping 424242".into());
        let expected: Vec<nboard::Response> = lines
            .iter()
            .filter_map(|l| match l.parse::<nboard::Command>() {
                // A ping without a valid number gets `pong 0`.
                Ok(nboard::Command::Ping(n)) => {
                    Some(nboard::Response::Pong(Some(n.unwrap_or_else(|| 0.into()))))
                }
                _ => None,
            })
            .collect();
        // Nothing after a `quit` is read.
        let read = lines
            .iter()
            .position(|l| l.parse::<nboard::Command>() == Ok(nboard::Command::Quit))
            .map_or(lines.len(), |q| q + 1);
        let expected_pongs = lines[..read]
            .iter()
            .filter(|l| matches!(l.parse::<nboard::Command>(), Ok(nboard::Command::Ping(_))))
            .count();
        let out = session(Protocol::Nboard, &lines);
        let mut pongs = Vec::new();
        for line in out.lines() {
            let response = line.parse::<nboard::Response>();
            prop_assert!(response.is_ok(), "unparsable reply {:?} to {:?}", line, lines);
            if let Ok(r @ nboard::Response::Pong(_)) = response {
                pongs.push(r);
            }
        }
        prop_assert_eq!(&pongs[..], &expected[..expected_pongs], "{:?}", lines);
    }

    /// One reply per command, each `=`/`?` framed, and a rejected command changes nothing.
    #[test]
    fn gtp_sessions_survive_mutated_commands(commands in script(GTP)) {
        // After each command: the state as `showboard` prints it; after a genmove, GoGui's
        // interrupt, so that no mutated clock makes the session think for long.
        let mut lines = vec!["showboard".to_string()];
        for command in &commands {
            lines.push(command.clone());
            if preprocess(command).to_lowercase().contains("genmove") {
                lines.push("# interrupt".into());
            }
            lines.push("showboard".into());
        }
        let out = session(Protocol::Gtp, &lines);
        let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
        prop_assert!(out.is_empty() || out.ends_with("\n\n"), "{:?}", out);
        let mut board = replies.first().copied();
        let mut at = 1;
        for command in &commands {
            let answered = !preprocess(command).is_empty();
            let reply = if answered {
                let r = replies.get(at).copied();
                prop_assert!(r.is_some(), "no reply to {:?} in {:?}", command, commands);
                at += 1;
                r
            } else {
                None
            };
            if let Some(r) = reply {
                prop_assert!(r.starts_with('=') || r.starts_with('?'), "{:?}", r);
                prop_assert!(!r.contains(['\0', '\u{1b}', '\r']), "{:?}", r);
                if preprocess(command).parse::<gtp::Command>()
                    .is_ok_and(|c| c.kind == gtp::Kind::Quit)
                {
                    prop_assert_eq!(at, replies.len(), "replies after quit: {:?}", commands);
                    return Ok(());
                }
            }
            let shown = replies.get(at).copied();
            prop_assert!(shown.is_some_and(|s| s.starts_with('=')), "showboard: {:?}", shown);
            at += 1;
            if reply.is_some_and(|r| r.starts_with('?')) {
                prop_assert_eq!(board, shown, "{:?} changed the game: {:?}", command, commands);
            }
            board = shown;
        }
        prop_assert_eq!(at, replies.len(), "{:?}", commands);
    }

    /// The input reader takes any bytes: one line per newline, at most `MAX_LINE` bytes each,
    /// and never a panic.
    #[test]
    fn the_reader_takes_any_bytes(
        chunks in proptest::collection::vec(
            prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..40),
                Just(b"\n".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(vec![0xE9]),
            ],
            0..30,
        )
    ) {
        let bytes: Vec<u8> = chunks.concat();
        let mut input = std::io::BufReader::with_capacity(7, &bytes[..]);
        let mut lines = Vec::new();
        while let Some(line) = crate::protocol::read_line(&mut input) {
            lines.push(line);
        }
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        let expected = newlines + usize::from(!bytes.is_empty() && bytes.last() != Some(&b'\n'));
        prop_assert_eq!(lines.len(), expected);
        prop_assert!(lines.iter().all(|l| !l.contains('\n')));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Protocol parsers take any bytes (as lossy UTF-8) without panicking.
    #[test]
    fn protocol_parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..120), word in "(nboard|set|move|ping|go|hint|===|search|book|nodestats|analysis|play|genmove|time_left|boardsize|[0-9]+) ") {
        use crate::records::ggf::GgfGame;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for line in [text.clone(), format!("{word}{text}"), format!("set game (;{text}"), format!("(;BO[8 {text}];)")] {
            let _ = line.parse::<nboard::Command>();
            let _ = line.parse::<nboard::Response>();
            let _ = line.parse::<gtp::Command>();
            let _ = line.parse::<gtp::Response>();
            if let Ok(g) = GgfGame::parse(&line) {
                let _ = g.game();
            }
        }
    }
}
