//! The protocols: NBoard v2 and GTP over stdin/stdout, and the GGF game format. A protocol
//! module only translates between text and the [`Engine`]; searches run on a worker thread so
//! that the reader can answer `ping`, `quit` and end of input while the engine thinks.

pub mod ggf;
pub mod gtp;
pub mod nboard;

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::engine::{Engine, StopHandle};

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

/// Reads lines on a named thread and sends them; `None` marks the end of the input.
pub fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<Option<String>> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("iago-stdin".into())
        .spawn(move || {
            for line in input.lines() {
                match line {
                    Ok(line) => {
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        log::warn!("input error: {e}");
                        break;
                    }
                }
            }
            let _ = tx.send(None);
        })
        .expect("spawn the input thread");
    rx
}

/// The engine, either idle here or lent to a worker thread that runs one search.
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

    /// Stops the running job, waits for it, and returns the engine.
    pub fn stop(&mut self) -> &mut Engine {
        if let Some((_, stop)) = &self.job {
            stop.stop();
        }
        self.get()
    }

    /// Whether a job is running.
    pub fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|(h, _)| !h.is_finished())
    }

    /// Runs `job` on a worker thread with the engine (after the previous job has finished).
    pub fn spawn(&mut self, job: impl FnOnce(&mut Engine) + Send + 'static) {
        let mut engine = self.get_owned();
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

    fn get_owned(&mut self) -> Engine {
        self.get();
        self.engine.take().expect("the engine is home")
    }
}

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// NBoard v2.
    Nboard,
    /// GTP v2.
    Gtp,
}

/// Runs a protocol session over stdin/stdout until `quit` or the end of input. With `None`,
/// the first line decides: `nboard …` starts NBoard, anything else GTP (and is its first command).
pub fn serve(engine: Engine, protocol: Option<Protocol>, settings: Settings) {
    let rx = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    serve_lines(engine, protocol, settings, rx, Output::stdout());
}

/// Session settings from the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Depth when the client gives none (GTP always; NBoard until `set depth`).
    pub depth: u32,
    /// Seconds per move when the client gives no clock (GTP), if any.
    pub move_time: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: 12,
            move_time: None,
        }
    }
}

/// [`serve`] over any line source and output (what the tests drive).
pub fn serve_lines(
    engine: Engine,
    protocol: Option<Protocol>,
    settings: Settings,
    rx: Receiver<Option<String>>,
    out: Output,
) {
    let mut pending = None;
    let protocol = match protocol {
        Some(p) => p,
        None => loop {
            match rx.recv() {
                Ok(Some(line)) if line.trim().is_empty() => continue,
                Ok(Some(line)) => {
                    let nboard = line.split_whitespace().next() == Some("nboard");
                    pending = Some(line);
                    break if nboard {
                        Protocol::Nboard
                    } else {
                        Protocol::Gtp
                    };
                }
                _ => return,
            }
        },
    };
    log::info!("speaking {protocol:?}");
    match protocol {
        Protocol::Nboard => nboard::Session::new(engine, out, settings).run(pending, rx),
        Protocol::Gtp => gtp::Session::new(engine, out, settings).run(pending, rx),
    }
}
