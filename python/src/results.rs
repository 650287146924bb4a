//! What a search takes and gives: `Limit`, `Analysis`, `PlayResult`, `Solution` and
//! `MoveReview`. Every result compares equal field by field and pickles (a process pool can send
//! it back); each has a keyword constructor, which unpickling uses.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use iago::Color;
use iago::review::MoveReview;
use iago::search::{Bound as ScoreBound, Limits, SearchResult, Source};

use crate::board::{PyColor, PyMove, restorer};
use crate::errors::value_error;

/// How long a search may go: to a depth (`Limit(depth=12)`), for a time in seconds
/// (`Limit(time=0.5)`), both (whichever comes first), or neither: until stopped (only
/// `Engine.analysis` takes that).
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
        Ok((restorer(py)?, ("limit", (self.depth, self.time))))
    }
}

impl PyLimit {
    /// The library's limits.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            move_time: self.time.map(std::time::Duration::from_secs_f64),
            clock: None,
        }
    }

    /// Whether neither a depth nor a time is set: until stopped.
    pub fn is_infinite(&self) -> bool {
        self.depth.is_none() && self.time.is_none()
    }

    /// The time, if any.
    pub fn time(&self) -> Option<f64> {
        self.time
    }

    /// The depth, if any.
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// `limit`, which must not be infinite (every search but `analysis`).
    pub fn finite(limit: &PyLimit, method: &str) -> PyResult<Limits> {
        if limit.is_infinite() {
            return Err(value_error(format!(
                "{method} needs a depth or a time: Limit() without either runs until stopped, \
                 which only analysis() takes"
            )));
        }
        Ok(limit.limits())
    }
}

/// A search's result: the score in discs for the side to move (`turn`), the best move and
/// line, the depth and selectivity reached, whether the score is exact, nodes and seconds;
/// `multipv`: its rank among the lines of a multi-PV search (1 the best).
#[pyclass(
    module = "iago",
    name = "Analysis",
    frozen,
    get_all,
    eq,
    from_py_object
)]
#[derive(Clone, PartialEq)]
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
    /// The line's rank in a multi-PV search (1 for the best, and for a single line).
    multipv: usize,
}

/// The name a value has in Python among `names`, or a `ValueError` naming `what`.
fn one_of(what: &str, value: &str, names: &[&'static str]) -> PyResult<&'static str> {
    names
        .iter()
        .copied()
        .find(|n| *n == value)
        .ok_or_else(|| value_error(format!("{what} '{value}' is not one of {names:?}")))
}

#[pymethods]
impl PyAnalysis {
    #[new]
    #[pyo3(signature = (*, score, best_move, pv, depth, selectivity, bound, nodes, time, turn, source, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        score: i32,
        best_move: PyMove,
        pv: Vec<PyMove>,
        depth: u32,
        selectivity: u8,
        bound: &str,
        nodes: u64,
        time: f64,
        turn: PyColor,
        source: &str,
        multipv: usize,
    ) -> PyResult<PyAnalysis> {
        let bound = one_of("bound", bound, &["exact", "wld", "estimate"])?;
        Ok(PyAnalysis {
            score,
            best_move,
            pv,
            depth,
            selectivity,
            exact: bound == "exact",
            bound,
            nodes,
            time,
            turn,
            source: one_of("source", source, &["search", "book", "forced"])?,
            multipv,
        })
    }

    /// The score from Black's point of view.
    #[getter]
    fn score_for_black(&self) -> i32 {
        for_black(self.turn, self.score)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Analysis {} {:+} ({}) depth {}@{}% nodes {} time {:.3}s pv {}{}>",
            self.best_move.0,
            self.score,
            self.bound,
            self.depth,
            self.selectivity,
            self.nodes,
            self.time,
            line(&self.pv),
            if self.multipv > 1 {
                format!(" multipv {}", self.multipv)
            } else {
                String::new()
            }
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("score", self.score)?;
        d.set_item("best_move", self.best_move)?;
        d.set_item("pv", self.pv.clone())?;
        d.set_item("depth", self.depth)?;
        d.set_item("selectivity", self.selectivity)?;
        d.set_item("bound", self.bound)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("time", self.time)?;
        d.set_item("turn", self.turn)?;
        d.set_item("source", self.source)?;
        d.set_item("multipv", self.multipv)?;
        reduced(py, "Analysis", d)
    }
}

/// What a result's `__reduce__` gives: `iago._restore` and (the class's name, its keyword
/// arguments).
pub(crate) type Reduced<'py> = (Bound<'py, PyAny>, (&'static str, Bound<'py, PyDict>));

/// The reduction of an object of class `name` made by the keyword arguments `kwargs`.
pub(crate) fn reduced<'py>(
    py: Python<'py>,
    name: &'static str,
    kwargs: Bound<'py, PyDict>,
) -> PyResult<Reduced<'py>> {
    Ok((restorer(py)?, (name, kwargs)))
}

/// A line of moves as text: `d3 c5 f6`.
pub(crate) fn line(pv: &[PyMove]) -> String {
    let moves: Vec<String> = pv.iter().map(|m| m.0.to_string()).collect();
    moves.join(" ")
}

/// A score for the side to move `turn`, from Black's point of view.
pub(crate) fn for_black(turn: PyColor, score: i32) -> i32 {
    match turn {
        PyColor::Black => score,
        PyColor::White => -score,
    }
}

/// A search's result for Python, `multipv` its rank.
pub(crate) fn analysis(result: &SearchResult, turn: Color, multipv: usize) -> PyAnalysis {
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
        multipv,
    }
}

/// The move an engine chose (`move`) and the search behind it (`info`).
#[pyclass(module = "iago", name = "PlayResult", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyPlayResult {
    /// The move to play.
    #[pyo3(name = "move")]
    r#move: PyMove,
    /// The search (or book probe) that chose it.
    info: PyAnalysis,
}

#[pymethods]
impl PyPlayResult {
    #[new]
    #[pyo3(signature = (*, r#move, info))]
    fn new(r#move: PyMove, info: PyAnalysis) -> PyPlayResult {
        PyPlayResult { r#move, info }
    }

    fn __repr__(&self) -> String {
        format!("<PlayResult {} {}>", self.r#move.0, self.info.__repr__())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("move", self.r#move)?;
        d.set_item("info", self.info.clone())?;
        reduced(py, "PlayResult", d)
    }
}

impl PyPlayResult {
    /// The result of a search that chose `result.best_move` for `turn`.
    pub fn of(result: &SearchResult, turn: Color) -> PyPlayResult {
        PyPlayResult {
            r#move: PyMove(result.best_move),
            info: analysis(result, turn, 1),
        }
    }
}

/// An exact (or win/loss/draw) solution: the score for the side to move, the best line, nodes
/// and seconds.
#[pyclass(module = "iago", name = "Solution", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
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
    #[new]
    #[pyo3(signature = (*, score, best_move, pv, nodes, time, mode, turn))]
    fn new(
        score: i32,
        best_move: Option<PyMove>,
        pv: Vec<PyMove>,
        nodes: u64,
        time: f64,
        mode: &str,
        turn: PyColor,
    ) -> PyResult<PySolution> {
        Ok(PySolution {
            score,
            best_move,
            pv,
            nodes,
            time,
            mode: one_of("mode", mode, &["exact", "wld"])?,
            turn,
        })
    }

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

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("score", self.score)?;
        d.set_item("best_move", self.best_move)?;
        d.set_item("pv", self.pv.clone())?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("time", self.time)?;
        d.set_item("mode", self.mode)?;
        d.set_item("turn", self.turn)?;
        reduced(py, "Solution", d)
    }
}

impl PySolution {
    /// A solution of a position whose side to move is `turn`.
    pub fn of(
        solution: &iago::search::Solution,
        time: f64,
        mode: &'static str,
        turn: Color,
    ) -> PySolution {
        PySolution {
            score: solution.score,
            best_move: solution.pv.first().map(|&m| PyMove(m)),
            pv: solution.pv.iter().map(|&m| PyMove(m)).collect(),
            nodes: solution.nodes,
            time,
            mode,
            turn: turn.into(),
        }
    }

    /// The result of a finished game: its final score, no move.
    pub fn finished(score: i32, mode: &'static str, turn: Color) -> PySolution {
        PySolution {
            score,
            best_move: None,
            pv: Vec::new(),
            nodes: 0,
            time: 0.0,
            mode,
            turn: turn.into(),
        }
    }
}

/// One reviewed move: the value of the move played and of the best move, in discs for the
/// player who moved, and the loss between them.
#[pyclass(module = "iago", name = "MoveReview", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
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
    #[new]
    #[pyo3(signature = (*, ply, empties, color, r#move, best_move, value, best_value, exact))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ply: usize,
        empties: u32,
        color: PyColor,
        r#move: PyMove,
        best_move: PyMove,
        value: i32,
        best_value: i32,
        exact: bool,
    ) -> PyMoveReview {
        PyMoveReview {
            ply,
            empties,
            color,
            r#move,
            best_move,
            value,
            best_value,
            loss: best_value - value,
            exact,
        }
    }

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

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("ply", self.ply)?;
        d.set_item("empties", self.empties)?;
        d.set_item("color", self.color)?;
        d.set_item("move", self.r#move)?;
        d.set_item("best_move", self.best_move)?;
        d.set_item("value", self.value)?;
        d.set_item("best_value", self.best_value)?;
        d.set_item("exact", self.exact)?;
        reduced(py, "MoveReview", d)
    }
}

impl PyMoveReview {
    /// A reviewed move of the library for Python.
    pub fn of(review: &MoveReview) -> PyResult<PyMoveReview> {
        let parse = |text: &str| {
            iago::Move::parse(text)
                .map(PyMove)
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
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
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLimit>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_class::<PyPlayResult>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyMoveReview>()?;
    Ok(())
}
