//! Drives the real `iago` binary over pipes.

#![allow(dead_code)]

#[cfg(feature = "web")]
pub mod web;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use iago::board::{Game, Move, Position, Rules};

/// Runs `iago ARGS` to its end.
pub fn iago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(args)
        .output()
        .expect("run iago")
}

/// Runs `iago ARGS` with `input` on a pipe to its end (which must succeed) and gives its
/// standard output.
pub fn piped(args: &[&str], input: &str) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iago"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let out = fed(&mut command, input).wait_with_output().unwrap();
    assert!(out.status.success(), "iago {args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `iago ARGS` with `input` on a pipe and `RUST_LOG=iago::eval=info`, its standard error
/// and standard output written to one file, in the order they were written (as NBoard reads
/// them), and gives the lines.
fn merged_log_and_replies(args: &[&str], input: &str, name: &str) -> Vec<String> {
    let path = std::env::temp_dir().join(format!("iago-{name}-{}.txt", std::process::id()));
    let file = std::fs::File::create(&path).expect("a file for the output");
    let mut command = Command::new(env!("CARGO_BIN_EXE_iago"));
    command
        .args(args)
        .env("RUST_LOG", "iago::eval=info")
        .stdout(Stdio::from(file.try_clone().unwrap()))
        .stderr(Stdio::from(file));
    assert!(
        fed(&mut command, input).wait().unwrap().success(),
        "iago {args:?}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    text.lines().map(str::to_owned).collect()
}

/// `command` started with `input` written to its standard input, which is then closed.
fn fed(command: &mut Command, input: &str) -> Child {
    let mut child = command.stdin(Stdio::piped()).spawn().expect("start iago");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child
}

/// Runs `iago PROTOCOL` (one thread, a 1 MiB table, so that it starts at once) with `input`
/// and checks that the log says the embedded weights are read before the reply that
/// `is_reply` finds (named `reply` in a failure).
pub fn weights_read_before(
    protocol: &str,
    input: &str,
    reply: &str,
    is_reply: impl Fn(&str) -> bool,
) {
    let lines = merged_log_and_replies(
        &[protocol, "--threads", "1", "--hash", "1", "--no-book"],
        input,
        &format!("{protocol}-weights"),
    );
    let loaded = line_index(&lines, "saying the weights loaded", |l| {
        l.contains("evaluation weights loaded")
    });
    let replied = line_index(&lines, reply, is_reply);
    assert!(loaded < replied, "{lines:#?}");
}

/// The index of the first of `lines` for which `found` holds, with all of them in the message.
fn line_index(lines: &[String], what: &str, found: impl Fn(&str) -> bool) -> usize {
    lines
        .iter()
        .position(|l| found(l))
        .unwrap_or_else(|| panic!("no line {what} in {lines:#?}"))
}

/// A run's standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A run's standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A running `iago` with its stdin, its stdout as a line channel, and its stderr as another.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub errors: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_iago"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start iago");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, errors) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if etx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            errors,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Writes raw bytes (which need not be UTF-8) to the engine's input.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to iago");
        stdin.flush().unwrap();
    }

    /// One GTP exchange: sends `command`, returns `(success, id, text)` of the reply.
    pub fn ask(&mut self, command: &str) -> (bool, String, String) {
        self.send(command);
        self.reply(Duration::from_secs(60))
    }

    /// The next GTP reply within `timeout`: `(success, id, text)`.
    pub fn reply(&mut self, timeout: Duration) -> (bool, String, String) {
        let lines = self.until(timeout, |l| l.is_empty());
        let first = &lines[0];
        let success = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("not a GTP reply: {lines:?}"),
        };
        let head = &first[1..];
        let id: String = head.chars().take_while(|c| c.is_ascii_digit()).collect();
        let mut text = head[id.len()..].trim().to_string();
        for more in &lines[1..lines.len() - 1] {
            text.push('\n');
            text.push_str(more);
        }
        (success, id, text)
    }

    /// A GTP command that must succeed; its reply's text.
    pub fn ok(&mut self, command: &str) -> String {
        let (success, _, text) = self.ask(command);
        assert!(success, "{command}: ? {text}");
        text
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, within `timeout`.
    pub fn line(&self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines until one satisfies `done` (included), failing after `timeout`.
    pub fn until(&self, timeout: Duration, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.line(left) {
                Some(line) => {
                    let finished = done(&line);
                    out.push(line);
                    if finished {
                        return out;
                    }
                }
                None => panic!("timed out after {timeout:?}; got {out:?}"),
            }
        }
    }

    /// Waits for the process to exit; its exit time.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<Instant> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return Some(Instant::now());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Every stderr line so far; once the engine has exited, every line it wrote (the reader
    /// thread may still be draining the pipe when the process is gone, so wait for its end).
    pub fn stderr_lines(&mut self) -> Vec<String> {
        let exited = matches!(self.child.try_wait(), Ok(Some(_)));
        if !exited {
            return self.errors.try_iter().collect();
        }
        let mut lines = Vec::new();
        while let Ok(line) = self.errors.recv_timeout(Duration::from_secs(5)) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The tiny xorshift generator the tests draw random games from: deterministic for a seed.
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from `seed` (not 0).
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal game of `plies` moves at most (passes included; fewer when it ends), each
/// move drawn by [`Xorshift`] from `seed`.
pub fn random_game(rules: Rules, plies: usize, seed: u64) -> Game {
    let mut rng = Xorshift::new(seed.max(1));
    let mut game = Game::new(rules);
    while game.moves().len() < plies && !game.is_over() {
        let draw = rng.next();
        let legal = game.legal_moves();
        let mv = if legal == 0 {
            Move::Pass
        } else {
            let pick = (draw % u64::from(legal.count_ones())) as usize;
            let sq = iago::board::Bitboard(legal).iter().nth(pick).unwrap();
            Move::Play(sq)
        };
        game.play(mv).unwrap();
    }
    game
}

/// `count` random standard games of 4 to 53 plies (a forced pass is played, not counted), each
/// move drawn by [`Xorshift`] from `seed`.
pub fn random_games(count: usize, seed: u64) -> Vec<Game> {
    let mut rng = Xorshift::new(seed);
    let mut games = Vec::new();
    for _ in 0..count {
        let mut game = Game::new(Rules::OTHELLO);
        let plies = 4 + (rng.next() % 50) as usize;
        for _ in 0..plies {
            let board = game.position().board;
            if board.is_game_over() {
                break;
            }
            if board.must_pass() {
                game.play(Move::Pass).unwrap();
                continue;
            }
            let legal: Vec<_> = board.legal_moves().iter().collect();
            game.play(Move::Play(legal[rng.below(legal.len())]))
                .unwrap();
        }
        games.push(game);
    }
    games
}

/// An in-process engine with `threads` search threads and a 16 MiB table.
pub fn search_engine(threads: usize) -> iago::engine::Engine {
    iago::engine::Engine::new(iago::engine::EngineOptions {
        threads,
        hash_mb: 16,
        ..iago::engine::EngineOptions::analysis()
    })
    .unwrap()
}

/// Searches each game's position with `engine` to `depth` and checks the answer: a legal best
/// move (unless the game is over), first in the PV, and a score within the disc range.
pub fn assert_searches_play_legal_moves(
    engine: &mut iago::engine::Engine,
    games: Vec<Game>,
    depth: u32,
) {
    use iago::engine::SearchRequest;
    use iago::search::Limits;
    for game in games {
        let board = game.position().board;
        engine.set_game(game);
        let result = engine.search(&SearchRequest::play(Limits::depth(depth)), &mut |_| {});
        if board.is_game_over() {
            continue;
        }
        assert!(
            board.is_legal(result.best_move),
            "{} on {board}",
            result.best_move
        );
        assert_eq!(result.pv.first(), Some(&result.best_move));
        assert!(result.score.abs() <= 64, "{} on {board}", result.score);
    }
}

/// A game that reaches a position where the side to move must pass: the moves up to it.
pub fn game_reaching_a_pass() -> Game {
    // A random game with two passes (found with a fixed seed); cut at the first forced pass.
    const GAME: &str = "f5f4f3g4h5h4h3e6d7d6c6c7c8d8c4f2g3f6e2b7a6b5g7a7b8c5e7b6b4c3d2f8e8g2f1a5d3a3b3g6h7h8f7d1e3g1g8a4h1h2e1a2g5a8c1b2a1b1c2h6";
    let full = Game::from_transcript(Rules::OTHELLO, Position::start(), GAME).unwrap();
    let mut game = Game::new(Rules::OTHELLO);
    for &mv in full.moves() {
        if mv == Move::Pass {
            break;
        }
        game.play(mv).unwrap();
    }
    assert!(game.position().board.must_pass());
    game
}
