//! External engines: child processes driven over NBoard or GTP, watched for crashes, protocol
//! errors and timeouts. A process that failed is killed and started again for the next game.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::player::{Failure, MoveRequest, Player, Reply};
use super::spec::{ExternalOptions, GameLimits};
use crate::board::{Game, Move, Rules};
use crate::protocol::{gtp, nboard};

/// How long an engine may take to start and answer its first command.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of stderr kept for crash reports.
const STDERR_LINES: usize = 5;

/// Why an engine process could not be started.
#[derive(Debug, Error)]
pub enum StartError {
    /// The program cannot be run (missing, not executable, or a missing working directory).
    #[error("cannot start '{command}'{}: {error}", in_dir(.dir.as_deref()))]
    Spawn {
        /// The command line as given.
        command: String,
        /// The working directory, if one was given.
        dir: Option<PathBuf>,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// A thread reading the program's output could not be started.
    #[error("cannot start a reader thread: {0}")]
    ReaderThread(#[source] std::io::Error),
}

/// ` in DIR`, or nothing without a directory.
fn in_dir(dir: Option<&Path>) -> String {
    dir.map_or(String::new(), |d| format!(" in {}", d.display()))
}

/// A running engine process: its stdin, its stdout as a channel of lines (closed at the end of
/// output), and the last lines of its stderr.
pub(crate) struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Process {
    /// Starts `options` (the program in its working directory, stdin/stdout/stderr piped).
    pub fn spawn(options: &ExternalOptions, name: &str) -> Result<Process, StartError> {
        // A path is made absolute here: a relative one would be looked up from the working
        // directory `dir`, which it already includes.
        let program = match options.program.components().count() {
            1 => options.program.clone(),
            _ => std::path::absolute(&options.program).unwrap_or(options.program.clone()),
        };
        let mut command = Command::new(program);
        command
            .args(&options.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &options.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|error| StartError::Spawn {
            command: options.command.clone(),
            dir: options.dir.clone(),
            error,
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        let label = name.to_string();
        std::thread::Builder::new()
            .name(format!("match-{name}-out"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\r', '\n']).to_string();
                            log::debug!("{label} > {line}");
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(StartError::ReaderThread)?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let label = name.to_string();
        std::thread::Builder::new()
            .name(format!("match-{name}-err"))
            .spawn(move || {
                for line in BufReader::new(stderr_pipe).lines() {
                    let Ok(line) = line else { break };
                    log::debug!("{label} stderr: {line}");
                    let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            })
            .map_err(StartError::ReaderThread)?;
        Ok(Process {
            name: name.to_string(),
            child,
            stdin,
            lines,
            stderr,
        })
    }

    /// Writes one command (any protocol's, by its `Display`) as a line.
    pub fn command(&mut self, command: impl std::fmt::Display) -> Result<(), Failure> {
        self.send(&command.to_string())
    }

    /// Writes one line and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::debug!("{} < {line}", self.name);
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| Failure::Crash(self.exit_message(&format!("cannot write to it ({e})"))))
    }

    /// The next line of output, waiting until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                Err(Failure::Crash(self.exit_message("its output closed")))
            }
        }
    }

    /// `what`, the exit status if the process has ended (waiting a moment for it), and the last
    /// line of its stderr.
    fn exit_message(&mut self, what: &str) -> String {
        let until = Instant::now() + Duration::from_millis(300);
        let mut status = None;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        let mut message = what.to_string();
        if let Some(status) = status {
            message.push_str(&format!("; the process ended ({status})"));
        }
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(last) = tail.back() {
            message.push_str(&format!("; stderr: {last}"));
        }
        message
    }

    /// Sends `quit`, waits up to half a second for the process to leave, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Checks that the program can be started at all (then stops it): a missing program or
/// working directory is an error before the match, not a forfeit in every game.
pub fn check_startable(options: &ExternalOptions, name: &str) -> Result<(), StartError> {
    Process::spawn(options, name).map(drop)
}

/// Passes `result` on; after a failure the process is dropped (killed): whatever state it is
/// in, it does not play on, and the next game starts it again.
fn drop_on_failure<T>(
    process: &mut Option<Process>,
    result: Result<T, Failure>,
) -> Result<T, Failure> {
    if result.is_err() {
        *process = None;
    }
    result
}

/// An engine speaking NBoard v2. A game starts with `clear`; every move is asked as
/// `set game <GGF>`, `set depth N` (when it changed), `ping N`, `go`; the reply is the first
/// `=== move[/eval[/time]]` after `pong N`. Other lines are ignored (stderr may be merged into
/// stdout).
pub(crate) struct NboardPlayer {
    options: ExternalOptions,
    name: String,
    process: Option<Process>,
    ping: u64,
    depth_sent: Option<u32>,
}

impl NboardPlayer {
    pub fn new(options: ExternalOptions, name: &str) -> NboardPlayer {
        NboardPlayer {
            options,
            name: name.to_string(),
            process: None,
            ping: 0,
            depth_sent: None,
        }
    }

    /// Starts the process if needed: `nboard 2` and a ping answered in time.
    fn ensure_started(&mut self) -> Result<&mut Process, Failure> {
        if self.process.is_none() {
            let mut process = Process::spawn(&self.options, &self.name)
                .map_err(|e| Failure::Crash(e.to_string()))?;
            process.command(nboard::Command::Nboard(2))?;
            self.ping += 1;
            let ping = nboard::PingId::from(self.ping);
            process.command(nboard::Command::Ping(Some(ping.clone())))?;
            let deadline = Instant::now() + STARTUP_TIMEOUT;
            let expected = Ok(nboard::Response::Pong(Some(ping)));
            loop {
                match process.recv(deadline) {
                    Ok(line) if line.parse::<nboard::Response>() == expected => break,
                    Ok(_) => {}
                    Err(Failure::Timeout) => {
                        return Err(Failure::Crash(format!(
                            "no 'pong' within {} s of starting",
                            STARTUP_TIMEOUT.as_secs()
                        )));
                    }
                    Err(e) => return Err(e),
                }
            }
            self.depth_sent = None;
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    fn ask(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        // NBoard engines always get a depth; with a clock only, the clock decides.
        let depth = request.limit.depth.unwrap_or(60);
        self.ensure_started()?;
        let send_depth = self.depth_sent != Some(depth);
        self.ping += 1;
        let ping = self.ping;
        let process = self.process.as_mut().expect("started above");
        process.command(nboard::Command::SetGame(request.ggf.to_string()))?;
        if send_depth {
            process.command(nboard::Command::SetDepth(depth))?;
        }
        let ping = nboard::PingId::from(ping);
        process.command(nboard::Command::Ping(Some(ping.clone())))?;
        process.command(nboard::Command::Go)?;
        self.depth_sent = Some(depth);
        let deadline = request.deadline.unwrap_or(Instant::now() + STARTUP_TIMEOUT);
        let mut synced = false;
        loop {
            let line = process.recv(deadline)?;
            // Other lines (status, search, stderr merged in) are ignored.
            match line.parse::<nboard::Response>() {
                Ok(nboard::Response::Pong(Some(n))) if n == ping => synced = true,
                Ok(nboard::Response::BestMove(item)) if synced => {
                    return Ok(Reply {
                        mv: item.mv,
                        eval: item.eval,
                    });
                }
                Err(e @ nboard::ParseError::BadArgument { command: "===", .. }) if synced => {
                    return Err(Failure::Protocol(format!("unreadable reply: {e}")));
                }
                _ => {}
            }
        }
    }
}

impl Player for NboardPlayer {
    fn start_game(&mut self, _game: &Game, _limit: &GameLimits) -> Result<(), Failure> {
        // `clear` (forget the hash table) is what NBoard's self-play engine layer sends before a
        // game; engines that do not know it ignore it.
        let started = self
            .ensure_started()
            .and_then(|p| p.command(nboard::Command::Clear));
        drop_on_failure(&mut self.process, started)
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        let reply = self.ask(request);
        drop_on_failure(&mut self.process, reply)
    }

    fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}

/// An engine speaking GTP. A game is `boardsize 8`, `clear_board`, the clock settings, then for
/// each move the moves it has not seen (`play b f5`; passes are left out, the colour tells) and
/// `genmove w`.
pub(crate) struct GtpPlayer {
    options: ExternalOptions,
    name: String,
    process: Option<Process>,
    /// Moves of the current game the engine knows.
    synced: usize,
}

/// A GTP answer: `Ok(text)` for `=`, `Err(text)` for `?`.
type GtpAnswer = Result<String, Refused>;

/// The text of a GTP failure answer (`? text`): the engine refused the command.
#[derive(Debug, Error)]
#[error("{0}")]
struct Refused(String);

/// A GTP command without an id.
fn gtp_command(kind: gtp::Kind) -> gtp::Command {
    gtp::Command { id: None, kind }
}

impl GtpPlayer {
    pub fn new(options: ExternalOptions, name: &str) -> GtpPlayer {
        GtpPlayer {
            options,
            name: name.to_string(),
            process: None,
            synced: 0,
        }
    }

    /// Sends `command` and reads its answer (lines before `=`/`?` are ignored; the answer ends
    /// at an empty line).
    fn command(&mut self, command: &gtp::Command, deadline: Instant) -> Result<GtpAnswer, Failure> {
        let process = self.process.as_mut().expect("a started engine");
        process.command(command)?;
        let mut reply = loop {
            let line = process.recv(deadline)?;
            let line = line.trim();
            if line.starts_with(['=', '?']) {
                break line.to_string();
            }
        };
        loop {
            let line = process.recv(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            reply.push('\n');
            reply.push_str(line.trim());
        }
        let reply: gtp::Response = reply
            .parse()
            .map_err(|e| Failure::Protocol(format!("'{command}': {e}")))?;
        Ok(if reply.success {
            Ok(reply.text)
        } else {
            Err(Refused(reply.text))
        })
    }

    /// A command that must succeed.
    fn require(&mut self, kind: gtp::Kind, deadline: Instant) -> Result<String, Failure> {
        let command = gtp_command(kind);
        self.command(&command, deadline)?
            .map_err(|e| Failure::Protocol(format!("'{command}' refused: ? {e}")))
    }

    /// A command the engine may refuse (the clock commands).
    fn optional(&mut self, kind: gtp::Kind, deadline: Instant) -> Result<(), Failure> {
        let command = gtp_command(kind);
        if let Err(e) = self.command(&command, deadline)? {
            log::debug!("{}: '{command}' refused: ? {e}", self.name);
        }
        Ok(())
    }

    fn setup(&mut self, game: &Game, limit: &GameLimits) -> Result<(), Failure> {
        let rules = game.rules();
        if game.start() != rules.start_position() {
            return Err(Failure::Protocol(
                "GTP cannot set up a start other than the standard one".into(),
            ));
        }
        if self.process.is_none() {
            let process = Process::spawn(&self.options, &self.name)
                .map_err(|e| Failure::Crash(e.to_string()))?;
            self.process = Some(process);
        }
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        self.require(gtp::Kind::BoardSize(u32::from(rules.size)), deadline)?;
        if !rules.is_standard() {
            // The rules' name without the size, as one word (`anti-reversi-32-discs`).
            let name = Rules { size: 8, ..rules }.to_string().replace(' ', "-");
            self.require(gtp::Kind::SetGame(name), deadline)?;
        }
        self.require(gtp::Kind::ClearBoard, deadline)?;
        self.synced = 0;
        // Clocks are optional in GTP: an engine that refuses them plays without.
        let clock = |main: f64, byo_yomi: f64, stones| gtp::Kind::TimeSettings {
            main,
            byo_yomi,
            stones,
        };
        if let Some(c) = limit.clock {
            self.optional(clock(c.base.as_secs_f64(), 0.0, 0), deadline)?;
        } else if let Some(t) = limit.move_time {
            self.optional(clock(0.0, t.as_secs_f64(), 1), deadline)?;
        }
        Ok(())
    }

    fn ask(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        let deadline = request.deadline.unwrap_or(Instant::now() + STARTUP_TIMEOUT);
        let game = request.game;
        for (i, (state, &mv)) in game.states().zip(game.moves()).enumerate() {
            if i < self.synced || mv.is_pass() {
                continue;
            }
            self.require(gtp::Kind::Play(state.to_move(), mv), deadline)?;
        }
        self.synced = game.moves().len();
        let color = game.position().to_move;
        let left = |time: std::time::Duration, stones| gtp::Kind::TimeLeft {
            color,
            time: time.as_secs_f64(),
            stones,
        };
        if let Some(remaining) = request.remaining {
            self.optional(left(remaining, 0), deadline)?;
        } else if let Some(t) = request.limit.move_time {
            self.optional(left(t, 1), deadline)?;
        }
        let command = gtp_command(gtp::Kind::Genmove(color));
        let answer = self.require(command.kind.clone(), deadline)?;
        let word = answer.split_whitespace().last().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(Failure::Resign);
        }
        let mv = Move::parse(word).map_err(|e| {
            Failure::Protocol(format!(
                "unreadable answer to '{command}': '= {answer}': {e}"
            ))
        })?;
        // The engine played its move on its own board.
        self.synced += 1;
        Ok(Reply { mv, eval: None })
    }
}

impl Player for GtpPlayer {
    fn start_game(&mut self, game: &Game, limit: &GameLimits) -> Result<(), Failure> {
        let started = self.setup(game, limit);
        drop_on_failure(&mut self.process, started)
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        let reply = self.ask(request);
        drop_on_failure(&mut self.process, reply)
    }

    fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}
