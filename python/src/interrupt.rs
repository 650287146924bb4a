//! Ctrl-C during a search. A long call runs its work on a thread of its own while the calling
//! thread, the GIL released, waits for it and every [`POLL`] takes the GIL back to run the
//! interpreter's signal handlers (as long-running extension calls do): on `KeyboardInterrupt`
//! (or any exception a handler raises) the work's searches are stopped through its [`Cancel`],
//! the work ends within milliseconds, and the exception propagates.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use iago::{Engine, StopHandle};

/// How often a waiting call looks at the interpreter's signals.
const POLL: Duration = Duration::from_millis(20);

/// The stop of one call's searches: before they start (they never start) and after (their
/// engines' stop generations are stopped).
#[derive(Default)]
pub(crate) struct Cancel {
    cancelled: AtomicBool,
    stops: Mutex<Vec<StopHandle>>,
}

impl Cancel {
    /// A new cancel, shared.
    pub fn new() -> Arc<Cancel> {
        Arc::new(Cancel::default())
    }

    /// Stops the call: its running searches return at once, later ones do not start.
    pub fn cancel(&self) {
        let stops = self.stops.lock().unwrap_or_else(|e| e.into_inner());
        self.cancelled.store(true, Relaxed);
        for stop in stops.iter() {
            stop.stop();
        }
    }

    /// Whether the call was stopped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Relaxed)
    }

    /// Begins a stop generation of `engine` that this cancel reaches: the searches from now
    /// on stop when it is cancelled, at once when it was cancelled already.
    pub fn arm(&self, engine: &mut Engine) {
        let mut stops = self.stops.lock().unwrap_or_else(|e| e.into_inner());
        let stop = engine.stop_handle();
        if self.cancelled.load(Relaxed) {
            stop.stop();
        }
        stops.push(stop);
    }
}

/// Whether this is the interpreter's main thread, the one that runs the signal handlers.
fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    Ok(current.is(&threading.call_method0("main_thread")?))
}

/// Runs `work` on a thread of its own, the GIL released, and waits for it while answering the
/// interpreter's signals: an exception from a signal handler (`KeyboardInterrupt` for Ctrl-C)
/// cancels `cancel`, waits for `work` to end (its searches stop at once) and is raised. On
/// another thread than the main one (which alone runs the handlers) `work` runs in place,
/// the GIL released.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if !on_main_thread(py)? {
        return Ok(py.detach(work));
    }
    std::thread::scope(|scope| {
        let (done, finished) = sync_channel::<()>(1);
        let finished = Mutex::new(finished);
        let worker = std::thread::Builder::new()
            .name("iago-python-call".into())
            .spawn_scoped(scope, move || {
                let value = work();
                // The waiter may be gone (it raised): nothing to tell then.
                let _ = done.send(());
                value
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        loop {
            let wait = || {
                finished
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(POLL)
            };
            match py.detach(wait) {
                Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        cancel.cancel();
                        // The searches stop within milliseconds; their value is dropped.
                        let _ = py.detach(|| worker.join());
                        return Err(signal);
                    }
                }
            }
        }
        py.detach(|| worker.join())
            .map_err(|_| PyRuntimeError::new_err("the engine failed (a panic in its thread)"))
    })
}

/// Cancels a call after a time, unless it ended first.
pub(crate) struct Deadline {
    cancel: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Deadline {
    /// Cancels `call` after `after`.
    pub fn start(call: Arc<Cancel>, after: Duration) -> Deadline {
        let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("iago-python-deadline".into())
            .spawn(move || {
                if cancelled.recv_timeout(after) == Err(RecvTimeoutError::Timeout) {
                    call.cancel();
                }
            })
            .ok();
        Deadline { cancel, thread }
    }

    /// Ends the wait (the call ended first).
    pub fn finish(self) {
        drop(self.cancel);
        if let Some(thread) = self.thread {
            let _ = thread.join();
        }
    }
}
