//! `Engine`, `Limit` and what a search gives (`Analysis`, `PlayResult`, `Solution`,
//! `MoveReview`). Every search runs with the GIL released; `Engine.stop()` from another thread
//! ends the search under way within milliseconds.

use std::sync::Mutex;

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;

use iago::engine::{BookSource, EngineError, EngineOptions, EvalSource};
use iago::records::PlayedGame;
use iago::review::{MoveReview, ReviewOptions};
use iago::search::{Bound as ScoreBound, Limits, SearchResult, Selectivity, SolveMode, Source};
use iago::{Color, Engine, Game, Rules, SearchRequest, StopHandle};

use crate::board::{PyColor, PyMove, extract_game, extract_state};
use crate::errors::value_error;

/// How long a search may go: to a depth (`Limit(depth=12)`), for a time in seconds
/// (`Limit(time=0.5)`), or both (whichever comes first).
#[pyclass(module = "iago", name = "Limit", frozen, get_all, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyLimit {
    /// The depth in plies (1 to 60).
    depth: Option<u32>,
    /// Seconds.
    time: Option<f64>,
}

#[pymethods]
impl PyLimit {
    #[new]
    #[pyo3(signature = (*, depth = None, time = None))]
    fn new(depth: Option<i64>, time: Option<f64>) -> PyResult<PyLimit> {
        let depth = depth
            .map(|d| {
                u32::try_from(d)
                    .ok()
                    .filter(|d| (1..=60).contains(d))
                    .ok_or_else(|| value_error(format!("depth {d} is not in 1..60")))
            })
            .transpose()?;
        if let Some(t) = time
            && !(t.is_finite() && t > 0.0 && t <= 1e6)
        {
            return Err(value_error(format!(
                "time {t} is not a number of seconds above 0"
            )));
        }
        if depth.is_none() && time.is_none() {
            return Err(value_error("a limit needs a depth, a time or both"));
        }
        Ok(PyLimit { depth, time })
    }

    fn __repr__(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(t) = self.time {
            parts.push(format!("time={t}"));
        }
        format!("Limit({})", parts.join(", "))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<crate::board::Reduced<'py, (Option<u32>, Option<f64>)>> {
        Ok((
            crate::board::restorer(py)?,
            ("limit", (self.depth, self.time)),
        ))
    }
}

impl PyLimit {
    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            move_time: self.time.map(std::time::Duration::from_secs_f64),
            clock: None,
        }
    }
}

/// A search's result: the score in discs for the side to move (`turn`), the best move and
/// line, the depth and selectivity reached, whether the score is exact, nodes and seconds.
#[pyclass(module = "iago", name = "Analysis", frozen, get_all)]
#[derive(Clone)]
pub struct PyAnalysis {
    /// The value for the side to move: a disc difference (exact when `exact`).
    score: i32,
    /// The best move found (`PASS` when the side to move must pass or the game is over).
    best_move: PyMove,
    /// The best line, the best move first.
    pv: Vec<PyMove>,
    /// The depth reached (empties for an exact endgame search).
    depth: u32,
    /// ProbCut's confidence in percent (100: no selective cut).
    selectivity: u8,
    /// Whether `score` is the exact final disc difference under perfect play.
    exact: bool,
    /// `exact`, `wld` (a proven win, draw or loss of estimated size) or `estimate`.
    bound: &'static str,
    /// Positions visited.
    nodes: u64,
    /// Seconds.
    time: f64,
    /// The side to move, whose view `score` takes.
    turn: PyColor,
    /// `search`, `book` or `forced` (the only legal move, valued by a short search).
    source: &'static str,
}

#[pymethods]
impl PyAnalysis {
    /// The score from Black's point of view.
    #[getter]
    fn score_for_black(&self) -> i32 {
        for_black(self.turn, self.score)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Analysis {} {:+} ({}) depth {}@{}% nodes {} time {:.3}s pv {}>",
            self.best_move.0,
            self.score,
            self.bound,
            self.depth,
            self.selectivity,
            self.nodes,
            self.time,
            line(&self.pv)
        )
    }
}

/// A line of moves as text: `d3 c5 f6`.
fn line(pv: &[PyMove]) -> String {
    let moves: Vec<String> = pv.iter().map(|m| m.0.to_string()).collect();
    moves.join(" ")
}

/// A score for the side to move `turn`, from Black's point of view.
fn for_black(turn: PyColor, score: i32) -> i32 {
    match turn {
        PyColor::Black => score,
        PyColor::White => -score,
    }
}

fn analysis(result: &SearchResult, turn: Color) -> PyAnalysis {
    PyAnalysis {
        score: result.score,
        best_move: PyMove(result.best_move),
        pv: result.pv.iter().map(|&m| PyMove(m)).collect(),
        depth: result.depth,
        selectivity: result.selectivity.percent(),
        exact: result.bound == ScoreBound::Exact,
        bound: match result.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::WinLossDraw => "wld",
            ScoreBound::Estimate => "estimate",
        },
        nodes: result.nodes,
        time: result.time.as_secs_f64(),
        turn: turn.into(),
        source: match result.source {
            Source::Search => "search",
            Source::Book => "book",
            Source::Forced => "forced",
        },
    }
}

/// The move an engine chose (`move`) and the search behind it (`info`).
#[pyclass(module = "iago", name = "PlayResult", frozen, get_all)]
#[derive(Clone)]
pub struct PyPlayResult {
    /// The move to play.
    #[pyo3(name = "move")]
    r#move: PyMove,
    /// The search (or book probe) that chose it.
    info: PyAnalysis,
}

#[pymethods]
impl PyPlayResult {
    fn __repr__(&self) -> String {
        format!("<PlayResult {} {}>", self.r#move.0, self.info.__repr__())
    }
}

/// An exact (or win/loss/draw) solution: the score for the side to move, the best line, nodes
/// and seconds.
#[pyclass(module = "iago", name = "Solution", frozen, get_all)]
#[derive(Clone)]
pub struct PySolution {
    /// `exact`: the final disc difference under perfect play; `wld`: +2 win, 0 draw, -2 loss
    /// (a proven bound).
    score: i32,
    /// The best move (`PASS` when the side to move must pass; `None` when the game is over).
    best_move: Option<PyMove>,
    /// A best line.
    pv: Vec<PyMove>,
    /// Positions visited.
    nodes: u64,
    /// Seconds.
    time: f64,
    /// `exact` or `wld`.
    mode: &'static str,
    /// The side to move, whose view `score` takes.
    turn: PyColor,
}

#[pymethods]
impl PySolution {
    /// The score from Black's point of view.
    #[getter]
    fn score_for_black(&self) -> i32 {
        for_black(self.turn, self.score)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Solution {:+} ({}) nodes {} time {:.3}s pv {}>",
            self.score,
            self.mode,
            self.nodes,
            self.time,
            line(&self.pv)
        )
    }
}

/// One reviewed move: the value of the move played and of the best move, in discs for the
/// player who moved, and the loss between them.
#[pyclass(module = "iago", name = "MoveReview", frozen, get_all)]
#[derive(Clone)]
pub struct PyMoveReview {
    /// The move's place in the game, from 1 (passes count).
    ply: usize,
    /// Empty squares before the move.
    empties: u32,
    /// The mover.
    color: PyColor,
    /// The move played.
    #[pyo3(name = "move")]
    r#move: PyMove,
    /// The best move found.
    best_move: PyMove,
    /// The value of the move played.
    value: i32,
    /// The value of the best move.
    best_value: i32,
    /// `best_value - value`.
    loss: i32,
    /// Whether both values are exact.
    exact: bool,
}

#[pymethods]
impl PyMoveReview {
    fn __repr__(&self) -> String {
        format!(
            "<MoveReview ply {} {} {} {:+} best {} {:+} loss {}{}>",
            self.ply,
            Color::from(self.color).name(),
            self.r#move.0,
            self.value,
            self.best_move.0,
            self.best_value,
            self.loss,
            if self.exact { " (exact)" } else { "" }
        )
    }
}

fn move_review(review: &MoveReview) -> PyResult<PyMoveReview> {
    let parse = |text: &str| {
        iago::Move::parse(text)
            .map(PyMove)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    };
    Ok(PyMoveReview {
        ply: review.ply,
        empties: review.empties,
        color: if review.black() {
            PyColor::Black
        } else {
            PyColor::White
        },
        r#move: parse(&review.played)?,
        best_move: parse(&review.best_move)?,
        value: review.value,
        best_value: review.best_value,
        loss: review.loss,
        exact: review.exact,
    })
}

/// The engine: its threads, hash table, evaluation and book. A context manager; `close()`
/// frees it. Searches release the GIL, so that other Python threads (another engine, say) run
/// meanwhile; one engine runs one search at a time.
#[pyclass(module = "iago", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Option<Engine>>,
    /// The stop generation of the search under way.
    stop: Mutex<Option<StopHandle>>,
}

fn engine_error(e: EngineError) -> PyErr {
    match e {
        EngineError::Load(_) => PyOSError::new_err(e.to_string()),
        _ => value_error(e),
    }
}

impl PyEngine {
    /// Runs `f` on the engine without the GIL, in a new stop generation that `stop()` ends.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        rules: Rules,
        f: impl FnOnce(&mut Engine) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut guard = self
                .engine
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the engine failed in an earlier call"))?;
            let engine = guard
                .as_mut()
                .ok_or_else(|| PyRuntimeError::new_err("the engine is closed"))?;
            if engine.rules() != rules {
                engine.set_rules(rules).map_err(value_error)?;
            }
            let handle = engine.stop_handle();
            *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle);
            let result = f(engine);
            *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = None;
            result
        })
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
    #[pyo3(signature = (*, threads = None, hash_mb = 64, book = None, eval = None, selectivity = None))]
    fn new(
        py: Python<'_>,
        threads: Option<usize>,
        hash_mb: usize,
        book: Option<&Bound<'_, PyAny>>,
        eval: Option<String>,
        selectivity: Option<u8>,
    ) -> PyResult<PyEngine> {
        let defaults = EngineOptions::analysis();
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
                    BookSource::File(path)
                }
            }
        };
        let selectivity = match selectivity {
            None => defaults.selectivity,
            Some(p) => Selectivity::from_percent(p).ok_or_else(|| {
                value_error(format!(
                    "selectivity {p}% is not one of ProbCut's levels (58, 73, 87, 95, 98, 99, 100)"
                ))
            })?,
        };
        let options = EngineOptions {
            threads: threads.unwrap_or(defaults.threads),
            hash_mb,
            selectivity,
            eval: eval
                .as_deref()
                .map_or(EvalSource::Embedded, EvalSource::named),
            book,
            ..defaults
        };
        let engine = py.detach(|| Engine::new(options)).map_err(engine_error)?;
        Ok(PyEngine {
            engine: Mutex::new(Some(engine)),
            stop: Mutex::new(None),
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
        multipv: Option<usize>,
    ) -> PyResult<Py<PyAny>> {
        let (rules, state) = extract_state(board)?;
        let request = SearchRequest::analyze(limit.limits()).state(state);
        let turn = state.to_move();
        match multipv {
            None => {
                let result = self.run(py, rules, |e| Ok(e.search(&request, &mut |_| {})))?;
                Ok(Py::new(py, analysis(&result, turn))?.into_any())
            }
            Some(0) => Err(value_error("multipv is at least 1")),
            Some(n) => {
                let hints = self.run(py, rules, |e| Ok(e.hint(n, &request, &mut |_| {})))?;
                let list: Vec<PyAnalysis> = hints.moves.iter().map(|r| analysis(r, turn)).collect();
                Ok(list.into_pyobject(py)?.into_any().unbind())
            }
        }
    }

    /// The move to play in `board` within `limit`: from the opening book when it knows the
    /// position, a forced move at once, else a search.
    fn play(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        limit: &PyLimit,
    ) -> PyResult<PyPlayResult> {
        let (rules, state) = extract_state(board)?;
        let request = SearchRequest::play(limit.limits()).state(state);
        let result = self.run(py, rules, |e| Ok(e.search(&request, &mut |_| {})))?;
        Ok(PyPlayResult {
            r#move: PyMove(result.best_move),
            info: analysis(&result, state.to_move()),
        })
    }

    /// Solves `board` exactly (`mode='exact'`: the final disc difference under perfect play)
    /// or only win/draw/loss (`mode='wld'`). `None` when `stop()` ended it.
    #[pyo3(signature = (board, *, mode = "exact"))]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        mode: &str,
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
        let report = self.run(py, rules, |e| Ok(e.solve(rules, &state, solve_mode).ok()))?;
        Ok(report.map(|r| PySolution {
            score: r.solution.score,
            best_move: r.solution.pv.first().map(|&m| PyMove(m)),
            pv: r.solution.pv.iter().map(|&m| PyMove(m)).collect(),
            nodes: r.solution.nodes,
            time: r.elapsed.as_secs_f64(),
            mode: name,
            turn: state.to_move().into(),
        }))
    }

    /// The static evaluation of `board` for the side to move, in discs.
    fn evaluate(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let (rules, state) = extract_state(board)?;
        self.run(py, rules, |e| {
            e.set_game(Game::from_state(rules, state));
            Ok(e.evaluate())
        })
    }

    /// Reviews every move of the game of `board` (its start and move stack), as `iago review`
    /// does: positions with more than `exact_from` empties searched `depth` plies deep, the
    /// others solved. Forced passes are not reviewed.
    #[pyo3(signature = (board, *, depth = iago::review::DEFAULT_DEPTH, exact_from = iago::review::DEFAULT_EXACT_FROM))]
    fn review(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: u32,
        exact_from: u32,
    ) -> PyResult<Vec<PyMoveReview>> {
        if !(1..=60).contains(&depth) {
            return Err(value_error(format!("depth {depth} is not in 1..60")));
        }
        let game = extract_game(board)?;
        let rules = game.rules();
        let played = PlayedGame {
            game,
            players: ["Black".into(), "White".into()],
            line: 1,
            tags: Vec::new(),
        };
        let options = ReviewOptions {
            depth,
            exact_from,
            player: None,
            openings: Vec::new(),
        };
        let reviews = self.run(py, rules, |e| {
            iago::review::review_game(e, &played, 1, &options, &mut |_| {}).map_err(value_error)
        })?;
        reviews.iter().map(move_review).collect()
    }

    /// Ends the search under way (from another thread): it returns its best result so far.
    fn stop(&self) {
        if let Some(handle) = self.stop.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            handle.stop();
        }
    }

    /// Empties the hash table.
    fn clear_hash(&self, py: Python<'_>) -> PyResult<()> {
        self.run(py, Rules::OTHELLO, |e| {
            e.clear_hash();
            Ok(())
        })
    }

    /// Frees the engine (its threads and table); later calls raise `RuntimeError`.
    fn close(&self, py: Python<'_>) {
        self.stop();
        py.detach(|| {
            let mut guard = self.engine.lock().unwrap_or_else(|e| e.into_inner());
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
    ) -> bool {
        self.close(py);
        false
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLimit>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_class::<PyPlayResult>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyMoveReview>()?;
    m.add_class::<PyEngine>()?;
    Ok(())
}
