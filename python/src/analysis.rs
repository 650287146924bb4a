//! `Engine.analysis()`: a search that streams its results, as python-chess's
//! `engine.analysis()` does. A context manager and an iterator: each completed depth yields its
//! `Analysis` (with `multipv=N`, the N lines of the depth in rank order); `stop()` ends the
//! search, `wait()` waits for its end and gives the last best line, `info` and `multipv` hold
//! the latest. The search runs on a thread of its own; waiting for the next depth releases the
//! GIL and answers Ctrl-C (which stops the search and raises `KeyboardInterrupt`).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use iago::search::{Bound as ScoreBound, Limits};
use iago::{Color, Engine, Rules, SearchRequest, SearchResult, State};

use crate::interrupt::{Cancel, Deadline};
use crate::results::{PyAnalysis, analysis};

/// How often a wait looks at the interpreter's signals.
const POLL: Duration = Duration::from_millis(20);

/// A search under way, streaming its depths.
#[pyclass(module = "iago", name = "AnalysisStream", frozen)]
pub struct PyAnalysisStream {
    depths: Mutex<Receiver<Vec<PyAnalysis>>>,
    cancel: Arc<Cancel>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// Lines of the latest depth not yielded yet.
    pending: Mutex<VecDeque<PyAnalysis>>,
    /// The latest depth's lines, best first.
    latest: Mutex<Vec<PyAnalysis>>,
}

/// What the search needs: the engine, the position and how far to go.
pub(crate) struct Search {
    pub engine: Arc<Mutex<Option<Engine>>>,
    pub rules: Rules,
    pub state: State,
    /// A depth, a time, both, or neither (until stopped).
    pub limits: Limits,
    pub multipv: usize,
}

impl PyAnalysisStream {
    /// Starts `search` on a thread of its own, stopped by `cancel`.
    pub(crate) fn start(search: Search, cancel: Arc<Cancel>) -> PyResult<PyAnalysisStream> {
        let (send, depths) = channel();
        let stopper = Arc::clone(&cancel);
        let worker = std::thread::Builder::new()
            .name("iago-python-analysis".into())
            .spawn(move || run(search, &stopper, &send))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(PyAnalysisStream {
            depths: Mutex::new(depths),
            cancel,
            worker: Mutex::new(Some(worker)),
            pending: Mutex::new(VecDeque::new()),
            latest: Mutex::new(Vec::new()),
        })
    }

    /// The next depth's lines, waiting (the GIL released, Ctrl-C answered); `None` once the
    /// search has ended and every depth was taken.
    fn next_depth(&self, py: Python<'_>) -> PyResult<Option<Vec<PyAnalysis>>> {
        let depths = &self.depths;
        loop {
            let wait = || {
                depths
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(POLL)
            };
            match py.detach(wait) {
                Ok(rows) => return Ok(Some(rows)),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        self.cancel.cancel();
                        return Err(signal);
                    }
                }
            }
        }
    }

    fn take(&self, rows: Vec<PyAnalysis>) {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = rows.clone();
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(rows);
    }
}

/// The search on its thread: each completed depth's lines go to `send`. One line deepens one
/// depth a call over the same table (a search with no limit would otherwise go straight to
/// the exact solve and say nothing for hours); several lines are the engine's multi-PV, which
/// streams its depths itself. A time limit cancels the search at its end.
fn run(search: Search, cancel: &Arc<Cancel>, send: &Sender<Vec<PyAnalysis>>) {
    let mut guard = search.engine.lock().unwrap_or_else(|e| e.into_inner());
    let Some(engine) = guard.as_mut() else {
        return;
    };
    if engine.rules() != search.rules && engine.set_rules(search.rules).is_err() {
        return;
    }
    cancel.arm(engine);
    let deadline = search
        .limits
        .move_time
        .map(|after| Deadline::start(Arc::clone(cancel), after));
    let turn: Color = search.state.to_move();
    let lines = |rows: &[SearchResult]| -> Vec<PyAnalysis> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| analysis(r, turn, i + 1))
            .collect()
    };
    // The stream may be gone (dropped): the search goes on to its stop, unread.
    if search.multipv <= 1 {
        let deepest = search.limits.depth.unwrap_or(60);
        let mut sent = false;
        // Nodes and time count from the start of the analysis, as one search's would.
        let (start, mut nodes) = (std::time::Instant::now(), 0);
        for depth in 1..=deepest {
            let request = SearchRequest::analyze(Limits::depth(depth))
                .state(search.state)
                .first_depth(depth);
            let mut result = engine.search(&request, &mut |_| {});
            nodes += result.nodes;
            result.nodes = nodes;
            result.time = start.elapsed();
            if cancel.is_cancelled() {
                // Stopped inside this depth: its result is not a depth's. The first depth's
                // fallback is better than nothing.
                if !sent {
                    let _ = send.send(lines(std::slice::from_ref(&result)));
                }
                break;
            }
            let _ = send.send(lines(std::slice::from_ref(&result)));
            sent = true;
            if result.bound != ScoreBound::Estimate || result.depth >= deepest {
                break;
            }
        }
    } else {
        let request = SearchRequest::analyze(Limits {
            move_time: None,
            ..search.limits
        })
        .state(search.state);
        let mut sent = false;
        let hints = engine.hint(search.multipv, &request, &mut |rows| {
            sent = true;
            let _ = send.send(lines(rows));
        });
        if !sent {
            let _ = send.send(lines(&hints.moves));
        }
    }
    if let Some(deadline) = deadline {
        deadline.finish();
    }
}

#[pymethods]
impl PyAnalysisStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyAnalysis>> {
        loop {
            if let Some(row) = self
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .pop_front()
            {
                return Ok(Some(row));
            }
            match self.next_depth(py)? {
                Some(rows) => self.take(rows),
                None => return Ok(None),
            }
        }
    }

    /// Stops the search (it returns within milliseconds); the depths already found stay.
    fn stop(&self) {
        self.cancel.cancel();
    }

    /// Waits for the search to end (stopped, at its limit, or exact) and gives the last best
    /// line (`None` when there was none).
    fn wait(&self, py: Python<'_>) -> PyResult<Option<PyAnalysis>> {
        while let Some(rows) = self.next_depth(py)? {
            self.take(rows);
        }
        let worker = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(worker) = worker {
            py.detach(|| worker.join()).map_err(|_| {
                PyRuntimeError::new_err("the engine failed (a panic in its thread)")
            })?;
        }
        Ok(self.info())
    }

    /// The latest depth's best line (`None` before the first depth).
    #[getter]
    fn info(&self) -> Option<PyAnalysis> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .first()
            .cloned()
    }

    /// The latest depth's lines, best first.
    #[getter]
    fn multipv(&self) -> Vec<PyAnalysis> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Stops the search and waits for its end.
    fn __exit__(
        &self,
        py: Python<'_>,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.stop();
        self.wait(py).map(|_| ())
    }
}

impl Drop for PyAnalysisStream {
    fn drop(&mut self) {
        // A stream dropped unfinished stops its search (the thread ends by itself).
        self.cancel.cancel();
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAnalysisStream>()
}
