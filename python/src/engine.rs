//! `Engine`: searches, plays, solves, evaluates and reviews positions. Every search runs
//! with the GIL released on a thread of its own, while the calling thread answers Ctrl-C (the
//! search stops and `KeyboardInterrupt` is raised within milliseconds); `Engine.stop()` from
//! another thread ends the search under way. What searches take and give is in
//! [`crate::results`]; the streamed `analysis()` in [`crate::analysis`].

use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTimeoutError};
use pyo3::prelude::*;

use iago::engine::{BookSource, EngineError, EngineOptions, EvalSource, Level};
use iago::records::PlayedGame;
use iago::review::ReviewOptions;
use iago::search::{Limits, Selectivity, SolveMode};
use iago::{Engine, Game, Rules, SearchRequest};

use crate::analysis::{PyAnalysisStream, Search};
use crate::board::{extract_game, extract_state};
use crate::errors::{in_range, value_error};
use crate::interrupt::{Cancel, Deadline, interruptible};
use crate::results::{PyAnalysis, PyLimit, PyMoveReview, PyPlayResult, PySolution, analysis};

/// The engine: its threads, hash table, evaluation and book. A context manager; `close()`
/// frees it. Searches release the GIL, so that other Python threads (another engine, say) run
/// meanwhile; one engine runs one search at a time (a second call waits for the first).
#[pyclass(module = "iago", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Arc<Mutex<Option<Engine>>>,
    /// The cancels of the calls and streams under way (`stop()` ends them all); a call or
    /// stream that ended has dropped its cancel.
    calls: Mutex<Vec<Weak<Cancel>>>,
}

fn engine_error(e: EngineError) -> PyErr {
    match e {
        EngineError::Load(_) => PyOSError::new_err(e.to_string()),
        _ => value_error(e),
    }
}

fn closed() -> PyErr {
    PyRuntimeError::new_err("the engine is closed")
}

impl PyEngine {
    /// Runs `f` on the engine (under `rules`) on a thread of its own, the GIL released, in a
    /// stop generation that `stop()`, Ctrl-C and `deadline` (counted from now) end.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        rules: Rules,
        deadline: Option<Duration>,
        f: impl FnOnce(&mut Engine) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        let cancel = Cancel::new();
        self.register(&cancel);
        let engine = &self.engine;
        let timer = deadline.map(|after| Deadline::start(Arc::clone(&cancel), after));
        let result = interruptible(py, &cancel, || {
            let mut guard = engine.lock().unwrap_or_else(|e| e.into_inner());
            let engine = guard.as_mut().ok_or_else(closed)?;
            if engine.rules() != rules {
                engine.set_rules(rules).map_err(value_error)?;
            }
            cancel.arm(engine);
            f(engine)
        });
        if let Some(timer) = timer {
            timer.finish();
        }
        result?
    }

    /// Lets `stop()` reach `cancel` while it lives; forgets the ones that ended.
    fn register(&self, cancel: &Arc<Cancel>) {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        calls.retain(|c| c.strong_count() > 0);
        calls.push(Arc::downgrade(cancel));
    }
}

#[pymethods]
impl PyEngine {
    /// An engine on `threads` search threads (default: every core) with a hash table of
    /// `hash_mb` MiB. `book`: `True` the built-in opening book (used by `play`), `False` none,
    /// or a book file's path. `eval`: `None` the trained evaluation, `'hand'` the hand-written
    /// one, or a weight file's path. `selectivity`: ProbCut's confidence in percent (default
    /// that of `iago analyze`).
    #[new]
    #[pyo3(signature = (*, threads = None, hash_mb = 64, book = None, eval = None, selectivity = None, level = None, seed = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        threads: Option<i64>,
        hash_mb: i64,
        book: Option<&Bound<'_, PyAny>>,
        eval: Option<String>,
        selectivity: Option<i64>,
        level: Option<&Bound<'_, PyAny>>,
        seed: Option<i128>,
    ) -> PyResult<PyEngine> {
        let defaults = EngineOptions::analysis();
        let threads = match threads {
            None => defaults.threads,
            Some(n) => in_range("threads", n, 1, iago::engine::MAX_THREADS as i64)? as usize,
        };
        let hash_mb = in_range("hash_mb", hash_mb, 1, iago::engine::MAX_HASH_MB as i64)? as usize;
        let book = match book {
            None => BookSource::BuiltIn,
            Some(obj) => {
                if let Ok(flag) = obj.extract::<bool>() {
                    if flag {
                        BookSource::BuiltIn
                    } else {
                        BookSource::None
                    }
                } else {
                    let path: std::path::PathBuf = obj.extract().map_err(|_| {
                        value_error("book is True, False or the path of a book file")
                    })?;
                    crate::records::check_file(&path)?;
                    BookSource::File(path)
                }
            }
        };
        let selectivity = match selectivity {
            None => defaults.selectivity,
            Some(p) => u8::try_from(p)
                .ok()
                .and_then(Selectivity::from_percent)
                .ok_or_else(|| {
                    value_error(format!(
                        "selectivity {p} is not one of ProbCut's levels (58, 73, 87, 95, 98, 99, \
                         100)"
                    ))
                })?,
        };
        if let Some(path) = eval.as_deref().filter(|e| *e != "hand" && *e != "pattern") {
            crate::records::check_file(std::path::Path::new(path))?;
        }
        let seed = seed.map(|s| crate::errors::seed("seed", s)).transpose()?;
        let options = EngineOptions {
            threads,
            hash_mb,
            selectivity,
            eval: eval
                .as_deref()
                .map_or(EvalSource::Embedded, EvalSource::named),
            book,
            level: level.map(playing_level).transpose()?.unwrap_or(Level::TOP),
            seed,
            book_seed: seed,
            ..defaults
        };
        let engine = py.detach(|| Engine::new(options)).map_err(engine_error)?;
        Ok(PyEngine {
            engine: Arc::new(Mutex::new(Some(engine))),
            calls: Mutex::new(Vec::new()),
        })
    }

    /// Searches `board` (a `Board`, a `Position` or a board string) to `limit`, never from the
    /// book. With `multipv=N`, the `N` best moves, best first, each searched to the same depth
    /// (a list).
    #[pyo3(signature = (board, limit, *, multipv = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        limit: &PyLimit,
        multipv: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let (rules, state) = extract_state(board)?;
        let limits = PyLimit::finite(limit, "analyse")?;
        let request = SearchRequest::analyze(limits).state(state);
        let turn = state.to_move();
        match multipv {
            None => {
                let result = self.run(py, rules, None, |e| Ok(e.search(&request, &mut |_| {})))?;
                Ok(Py::new(py, analysis(&result, turn, 1))?.into_any())
            }
            Some(n) => {
                let n = in_range("multipv", n, 1, 64)? as usize;
                let hints = self.run(py, rules, None, |e| Ok(e.hint(n, &request, &mut |_| {})))?;
                let list: Vec<PyAnalysis> = hints
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(i, r)| analysis(r, turn, i + 1))
                    .collect();
                Ok(list.into_pyobject(py)?.into_any().unbind())
            }
        }
    }

    /// Searches `board` depth by depth, streaming each completed depth (python-chess's
    /// `engine.analysis()`): a context manager and an iterator of `Analysis` (with
    /// `multipv=N`, the N lines of each depth in rank order). `limit` `None` (or `Limit()`)
    /// runs until stopped.
    #[pyo3(signature = (board, limit = None, *, multipv = 1))]
    fn analysis(
        &self,
        board: &Bound<'_, PyAny>,
        limit: Option<&PyLimit>,
        multipv: i64,
    ) -> PyResult<PyAnalysisStream> {
        let (rules, state) = extract_state(board)?;
        let multipv = in_range("multipv", multipv, 1, 64)? as usize;
        let limits = limit.map_or_else(Limits::default, PyLimit::limits);
        let cancel = Cancel::new();
        let search = Search {
            engine: Arc::clone(&self.engine),
            rules,
            state,
            limits,
            multipv,
        };
        if self
            .engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
        {
            return Err(closed());
        }
        self.register(&cancel);
        PyAnalysisStream::start(search, cancel)
    }

    /// The move to play in `board` within `limit`: from the opening book when it knows the
    /// position, a forced move at once, else a search; at a `level` below 10 (the engine's own
    /// by default), a move drawn among the legal ones by their values, as a player of that
    /// strength. `None` when the game is over.
    #[pyo3(signature = (board, limit, *, level = None))]
    fn play(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        limit: &PyLimit,
        level: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyPlayResult>> {
        let (rules, state) = extract_state(board)?;
        let limits = PyLimit::finite(limit, "play")?;
        let level = level.map(playing_level).transpose()?;
        if rules.is_over(&state) {
            return Ok(None);
        }
        let request = SearchRequest::play(limits).state(state);
        let result = self.run(py, rules, None, |e| {
            let own = e.options().level;
            e.set_level(level.unwrap_or(own));
            let result = e.search(&request, &mut |_| {});
            e.set_level(own);
            Ok(result)
        })?;
        Ok(Some(PyPlayResult::of(&result, state.to_move())))
    }

    /// The playing level of `play` (1 beginner to 10 full strength).
    #[getter]
    fn level(&self) -> PyResult<u8> {
        let engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        Ok(engine.as_ref().ok_or_else(closed)?.options().level.number())
    }

    /// Solves `board` exactly (`mode='exact'`: the final disc difference under perfect play)
    /// or only win/draw/loss (`mode='wld'`). A finished game gives its final result. `None`
    /// when `stop()` ended it; with `limit=Limit(time=T)`, `TimeoutError` when it is not solved
    /// within T seconds.
    #[pyo3(signature = (board, *, mode = "exact", limit = None))]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        mode: &str,
        limit: Option<&PyLimit>,
    ) -> PyResult<Option<PySolution>> {
        let (rules, state) = extract_state(board)?;
        let (solve_mode, name) = match mode {
            "exact" => (SolveMode::Exact, "exact"),
            "wld" => (SolveMode::WinLossDraw, "wld"),
            other => {
                return Err(value_error(format!(
                    "solve mode '{other}' is not 'exact' or 'wld'"
                )));
            }
        };
        let time = match limit {
            None => None,
            Some(l) if l.depth().is_some() => {
                return Err(value_error(
                    "solve takes a time (Limit(time=...)), not a depth: it always goes to the end",
                ));
            }
            Some(l) => l.time(),
        };
        let turn = state.to_move();
        if rules.is_over(&state) {
            let score = rules.final_score(&state.board());
            let score = match solve_mode {
                SolveMode::Exact => score,
                SolveMode::WinLossDraw => 2 * score.signum(),
            };
            return Ok(Some(PySolution::finished(score, name, turn)));
        }
        let deadline = time.map(Duration::from_secs_f64);
        let start = Instant::now();
        let report = self.run(py, rules, deadline, |e| {
            Ok(e.solve(rules, &state, solve_mode).ok())
        })?;
        match report {
            Some(r) => Ok(Some(PySolution::of(
                &r.solution,
                r.elapsed.as_secs_f64(),
                name,
                turn,
            ))),
            None if deadline.is_some_and(|d| start.elapsed() >= d) => {
                Err(PyTimeoutError::new_err(format!(
                    "not solved within {} s ({} empties)",
                    time.unwrap_or_default(),
                    rules.empty_count(&state.board())
                )))
            }
            None => Ok(None),
        }
    }

    /// The static evaluation of `board` for the side to move, in discs; a finished game's
    /// exact final score.
    fn evaluate(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let (rules, state) = extract_state(board)?;
        if rules.is_over(&state) {
            return Ok(rules.final_score(&state.board()));
        }
        self.run(py, rules, None, |e| {
            e.set_game(Game::from_state(rules, state));
            Ok(e.evaluate())
        })
    }

    /// Reviews every move of the game of `board` (its start and move stack), as `iago review`
    /// does: positions with more than `exact_from` empties searched `depth` plies deep, the
    /// others solved. Forced passes are not reviewed.
    #[pyo3(signature = (board, *, depth = iago::review::DEFAULT_DEPTH as i64, exact_from = iago::review::DEFAULT_EXACT_FROM as i64))]
    fn review(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: i64,
        exact_from: i64,
    ) -> PyResult<Vec<PyMoveReview>> {
        let depth = in_range("depth", depth, 1, 60)? as u32;
        let exact_from = in_range("exact_from", exact_from, 0, 64)? as u32;
        let game = extract_game(board)?;
        let rules = game.rules();
        let played = PlayedGame {
            game,
            players: ["Black".into(), "White".into()],
            line: 1,
            tags: Vec::new(),
        };
        let options = ReviewOptions::whole_game(depth, exact_from);
        let reviews = self.run(py, rules, None, |e| {
            iago::review::review_game(e, &played, 1, &options, &mut |_| {}).map_err(value_error)
        })?;
        reviews.iter().map(PyMoveReview::of).collect()
    }

    /// Ends the search under way (from another thread): it returns its best result so far.
    fn stop(&self) {
        for call in self.calls.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if let Some(call) = call.upgrade() {
                call.cancel();
            }
        }
    }

    /// Empties the hash table.
    fn clear_hash(&self, py: Python<'_>) -> PyResult<()> {
        self.run(py, Rules::OTHELLO, None, |e| {
            e.clear_hash();
            Ok(())
        })
    }

    /// Frees the engine (its threads and table); later calls raise `RuntimeError`.
    fn close(&self, py: Python<'_>) {
        self.stop();
        let engine = Arc::clone(&self.engine);
        py.detach(move || {
            let mut guard = engine.lock().unwrap_or_else(|e| e.into_inner());
            *guard = None;
        });
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) {
        self.close(py);
    }
}

/// A playing level given as a number (1 to 10) or a name (`'club'`).
fn playing_level(value: &Bound<'_, PyAny>) -> PyResult<Level> {
    let text = match value.extract::<i64>() {
        Ok(n) => n.to_string(),
        Err(_) => value
            .extract::<String>()
            .map_err(|_| value_error("level is a number from 1 to 10 or a level's name"))?,
    };
    text.parse::<Level>()
        .map_err(|e| value_error(format!("level: {e}")))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    Ok(())
}
