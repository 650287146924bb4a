//! What the NBoard and GTP sessions share: the flushed writer of the protocol's output, the
//! reader of its input (a thread of its own, so that `ping`, `quit` and the end of the input
//! stop a search at once), the slot of the engine a job runs on, and the session's settings.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::board::notation::excerpt;
use crate::engine::{Engine, MAX_MOVE_OVERHEAD_MS, StopHandle};

/// A line-oriented, flushed, thread-safe writer for protocol output (stdout in production).
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Protocol output to stdout.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Protocol output to any writer (tests use a buffer).
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(writer)),
        }
    }

    /// Writes `text` and a newline, then flushes. A closed output is logged, not fatal.
    pub fn line(&self, text: impl std::fmt::Display) {
        let mut out = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = writeln!(out, "{text}").and_then(|_| out.flush()) {
            log::warn!("output closed: {e}");
        }
    }

    /// Writes `text` as it is (GTP replies carry their own blank line), then flushes.
    pub fn raw(&self, text: &str) {
        let mut out = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            log::warn!("output closed: {e}");
        }
    }
}

/// The longest input line kept whole; the rest of a longer line is dropped (with a log line).
/// A whole game in GGF takes about 1 KiB.
pub const MAX_LINE: usize = 1 << 20;

/// Reads one line of at most [`MAX_LINE`] bytes (without its end of line) and decodes it
/// lossily: bytes that are not UTF-8 (a user name in cp1252) become U+FFFD and are logged.
/// `None` at the end of the input or on a read error.
pub fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let mut dropped = 0usize;
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) if bytes.is_empty() && dropped == 0 => return None,
            Ok([]) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    keep(&mut bytes, &mut dropped, &buf[..at]);
                    (true, at + 1)
                }
                None => {
                    keep(&mut bytes, &mut dropped, buf);
                    (false, buf.len())
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("input error: {e}");
                return None;
            }
        };
        input.consume(used);
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if dropped > 0 {
        log::warn!(
            "input line of {} bytes cut to {MAX_LINE}",
            MAX_LINE + dropped
        );
    }
    Some(match String::from_utf8(bytes) {
        Ok(line) => line,
        Err(e) => {
            let line = String::from_utf8_lossy(e.as_bytes()).into_owned();
            log::warn!("input line is not UTF-8, read as '{}'", excerpt(&line));
            line
        }
    })
}

/// Appends `more` to `line` up to [`MAX_LINE`] bytes, counting what does not fit.
fn keep(line: &mut Vec<u8>, dropped: &mut usize, more: &[u8]) {
    let room = MAX_LINE.saturating_sub(line.len()).min(more.len());
    line.extend_from_slice(&more[..room]);
    *dropped += more.len() - room;
}

/// Reads lines on a named thread and sends them; `None` marks the end of the input.
pub fn spawn_reader(mut input: impl BufRead + Send + 'static) -> Receiver<Option<String>> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("iago-stdin".into())
        .spawn(move || {
            while let Some(line) = read_line(&mut input) {
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        })
        .expect("spawn the input thread");
    rx
}

/// The engine, either idle here or lent to a worker thread that runs one job (a search, or a
/// few for `hint`, `learn` and `analyze`).
pub struct EngineSlot {
    engine: Option<Engine>,
    job: Option<(JoinHandle<Engine>, StopHandle)>,
}

impl EngineSlot {
    /// An idle engine.
    pub fn new(engine: Engine) -> EngineSlot {
        EngineSlot {
            engine: Some(engine),
            job: None,
        }
    }

    /// The engine, after the running job (if any) has finished on its own.
    pub fn get(&mut self) -> &mut Engine {
        if let Some((handle, _)) = self.job.take() {
            self.engine = Some(handle.join().expect("search thread"));
        }
        self.engine
            .as_mut()
            .expect("the engine is home when no job runs")
    }

    /// Stops the running job, waits for it, and returns the engine. The job's stop belongs to
    /// it alone: it cannot be lost however early it comes, and never reaches a later job.
    pub fn stop(&mut self) -> &mut Engine {
        if let Some((_, stop)) = &self.job {
            stop.stop();
        }
        self.get()
    }

    /// Runs `job` on a worker thread with the engine, in a stop generation of its own. A job
    /// still running is stopped first: the new request supersedes it.
    pub fn spawn(&mut self, job: impl FnOnce(&mut Engine) + Send + 'static) {
        self.stop();
        let mut engine = self.engine.take().expect("the engine is home");
        let stop = engine.stop_handle();
        let handle = std::thread::Builder::new()
            .name("iago-search".into())
            .spawn(move || {
                job(&mut engine);
                engine
            })
            .expect("spawn the search thread");
        self.job = Some((handle, stop));
    }
}

/// The depth of a session whose client sets none (`--depth`), and of the console.
pub const DEFAULT_DEPTH: u32 = 12;

/// Session settings from the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Depth when the client gives none (GTP always; NBoard until `set depth`).
    pub depth: u32,
    /// Seconds per move when the client gives no clock (GTP), if any.
    pub move_time: Option<f64>,
    /// How GTP vertices name the rows.
    pub rows: Rows,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: DEFAULT_DEPTH,
            move_time: None,
            rows: Rows::Auto,
        }
    }
}

/// How GTP vertices name the rows (see the documentation of [`super::gtp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Rows {
    /// From the top until the client sends a `gogui-` command, then from the bottom.
    Auto,
    /// From the top: a1 is the top-left square (Othello notation, Edax's GTP).
    Top,
    /// From the bottom: A1 is the bottom-left square (GoGui, gogui-twogtp, the GTP
    /// specification).
    Bottom,
}

/// An engine parameter a client sets by name: NBoard's `set move_overhead 50`, GTP's
/// `iago-param move_overhead 50` (GoGui's parameter dialog).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `move_overhead MS`: what a game clock is charged for each move beyond the engine's own
    /// time (see [`crate::engine::EngineOptions::move_overhead`]).
    MoveOverhead(std::time::Duration),
    /// `level N`: the playing level of the engine's moves, 1 to 10 (see
    /// [`crate::engine::Level`]).
    Level(crate::engine::Level),
}

/// Why `name value` sets no parameter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this name.
    #[error("unknown parameter '{}' (known: {})", excerpt(.0), Param::NAMES.join(", "))]
    Unknown(String),
    /// The value does not fit the parameter.
    #[error("{name} {}: expected {expected}", excerpt(value))]
    Value {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it should be.
        expected: String,
    },
}

impl Param {
    /// The names of the parameters, in the order GoGui's dialog shows them.
    pub const NAMES: [&'static str; 2] = ["move_overhead", "level"];

    /// The parameter `name` set to `value`.
    pub fn parse(name: &str, value: &str) -> Result<Param, ParamError> {
        match name.to_ascii_lowercase().as_str() {
            "move_overhead" => crate::engine::parse_move_overhead(value)
                .map(Param::MoveOverhead)
                .ok_or_else(|| ParamError::Value {
                    name: "move_overhead",
                    value: value.to_string(),
                    expected: format!("milliseconds from 0 to {MAX_MOVE_OVERHEAD_MS}"),
                }),
            "level" => value
                .parse()
                .map(Param::Level)
                .map_err(|_| ParamError::Value {
                    name: "level",
                    value: value.to_string(),
                    expected: format!(
                        "a level from 1 (beginner) to {} (full strength)",
                        crate::engine::Level::TOP.number()
                    ),
                }),
            _ => Err(ParamError::Unknown(name.to_string())),
        }
    }

    /// Sets the parameter of `engine`.
    pub fn apply(self, engine: &mut Engine) {
        match self {
            Param::MoveOverhead(overhead) => engine.set_move_overhead(overhead),
            Param::Level(level) => engine.set_level(level),
        }
    }

    /// Every parameter's name and value in `engine`.
    pub fn values(engine: &Engine) -> Vec<(&'static str, String)> {
        let overhead = engine.options().move_overhead.as_millis();
        let level = engine.options().level.number();
        vec![
            ("move_overhead", overhead.to_string()),
            ("level", level.to_string()),
        ]
    }
}

impl std::fmt::Display for Param {
    /// `name value`, as the protocols write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Param::MoveOverhead(overhead) => write!(f, "move_overhead {}", overhead.as_millis()),
            Param::Level(level) => write!(f, "level {}", level.number()),
        }
    }
}
