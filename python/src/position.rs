//! `Outcome` and `Position`: how a game ended, and an immutable, hashable position under a
//! rule set.

use pyo3::prelude::*;

use iago::board::{Color, Move, Rules, State, Symmetry};

use crate::board::{
    LegalMoves, PyColor, Reduced, extract_move, parse_rules, parse_state, restorer, rules_name,
    rules_suffix, symmetry_from_index, transform_state,
};
use crate::errors::{illegal_move, invalid_move};

/// How a game ended: the winner (`None` for a draw), Black's disc difference with the empty
/// squares going to the winner, and the discs of each side on the board.
#[pyclass(module = "iago", name = "Outcome", frozen, eq, hash, get_all)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyOutcome {
    /// The winner, `None` for a draw.
    winner: Option<PyColor>,
    /// Black's disc difference, empties to the winner (as each rule set counts it).
    score_for_black: i32,
    /// Black's discs on the board.
    black_discs: u32,
    /// White's discs on the board.
    white_discs: u32,
}

/// Warns that `old` is now called `new` (a `DeprecationWarning` pointing at the caller).
pub(crate) fn renamed(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        &std::ffi::CString::new(format!("{old} is deprecated: use {new}"))
            .expect("no NUL in a name"),
        1,
    )
}

#[pymethods]
impl PyOutcome {
    /// An outcome (as unpickling makes it).
    #[new]
    #[pyo3(signature = (*, winner, score_for_black, black_discs, white_discs))]
    fn new(
        winner: Option<PyColor>,
        score_for_black: i32,
        black_discs: u32,
        white_discs: u32,
    ) -> PyOutcome {
        PyOutcome {
            winner,
            score_for_black,
            black_discs,
            white_discs,
        }
    }

    /// Black's discs on the board (deprecated name of `black_discs`).
    #[getter]
    fn black(&self, py: Python<'_>) -> PyResult<u32> {
        renamed(py, "Outcome.black", "Outcome.black_discs")?;
        Ok(self.black_discs)
    }

    /// White's discs on the board (deprecated name of `white_discs`).
    #[getter]
    fn white(&self, py: Python<'_>) -> PyResult<u32> {
        renamed(py, "Outcome.white", "Outcome.white_discs")?;
        Ok(self.white_discs)
    }

    /// `Black wins by 8`, `White wins by 2` or `draw`.
    fn __str__(&self) -> String {
        iago::board::Outcome {
            score_for_black: self.score_for_black,
        }
        .to_string()
    }

    /// The discs as a result: `40-24` (Black's first).
    fn result(&self) -> String {
        format!("{}-{}", self.black_discs, self.white_discs)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Outcome {} ({}-{}), score for Black {:+}>",
            self.__str__(),
            self.black_discs,
            self.white_discs,
            self.score_for_black
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::results::Reduced<'py>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("winner", self.winner)?;
        d.set_item("score_for_black", self.score_for_black)?;
        d.set_item("black_discs", self.black_discs)?;
        d.set_item("white_discs", self.white_discs)?;
        crate::results::reduced(py, "Outcome", d)
    }
}

pub(crate) fn outcome(rules: &Rules, state: &State) -> Option<PyOutcome> {
    if !rules.is_over(state) {
        return None;
    }
    let score_for_black = rules.final_score_for_black(&state.position);
    let outcome = iago::board::Outcome { score_for_black };
    Some(PyOutcome {
        winner: outcome.winner().map(PyColor::from),
        score_for_black,
        black_discs: state.position.black().count(),
        white_discs: state.position.white().count(),
    })
}

pub(crate) fn disc_at(
    state: &State,
    rules: &Rules,
    obj: &Bound<'_, PyAny>,
) -> PyResult<Option<PyColor>> {
    match extract_move(obj)? {
        Move::Play(sq) if rules.contains(sq) => Ok(state.position.disc(sq).map(PyColor::from)),
        Move::Play(sq) => Err(invalid_move(format!(
            "{sq} is off the {0}x{0} board",
            rules.size
        ))),
        Move::Pass => Err(invalid_move("a pass is not a square")),
    }
}

pub(crate) fn discs(state: &State, color: PyColor) -> u32 {
    match Color::from(color) {
        Color::Black => state.position.black().count(),
        Color::White => state.position.white().count(),
    }
}

/// An immutable position under a rule set: the discs, the side to move and (with a limited
/// supply) the discs each side has left. Hashable: a dictionary key, a set member.
#[pyclass(module = "iago", name = "Position", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub(crate) rules: Rules,
    pub(crate) state: State,
}

#[pymethods]
impl PyPosition {
    /// The position of a board string (`size`² squares a1 first, `X` Black, `O` White, `-`
    /// empty, then the side to move), or the start of `rules`.
    #[new]
    #[pyo3(signature = (position = None, *, rules = "othello"))]
    fn new(position: Option<&str>, rules: &str) -> PyResult<PyPosition> {
        let rules = parse_rules(rules)?;
        match position {
            None => Ok(PyPosition {
                rules,
                state: rules.start(),
            }),
            Some(text) => {
                let (rules, state) = parse_state(text, rules)?;
                Ok(PyPosition { rules, state })
            }
        }
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> PyColor {
        self.state.to_move().into()
    }

    /// The rule set's name (`othello`, `6x6 anti`, ...).
    #[getter]
    fn rules(&self) -> String {
        rules_name(self.rules)
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.rules.size
    }

    /// Black's discs as a 64-bit mask (bit `row * 8 + col`).
    #[getter]
    fn black_mask(&self) -> u64 {
        self.state.position.black().0
    }

    /// White's discs as a 64-bit mask.
    #[getter]
    fn white_mask(&self) -> u64 {
        self.state.position.white().0
    }

    /// Black's discs as a mask (deprecated name of `black_mask`).
    #[getter]
    fn black(&self, py: Python<'_>) -> PyResult<u64> {
        renamed(py, "Position.black", "Position.black_mask")?;
        Ok(self.black_mask())
    }

    /// White's discs as a mask (deprecated name of `white_mask`).
    #[getter]
    fn white(&self, py: Python<'_>) -> PyResult<u64> {
        renamed(py, "Position.white", "Position.white_mask")?;
        Ok(self.white_mask())
    }

    /// The side to move's discs as a 64-bit mask.
    #[getter]
    fn player(&self) -> u64 {
        self.state.position.board.player
    }

    /// The other side's discs as a 64-bit mask.
    #[getter]
    fn opponent(&self) -> u64 {
        self.state.position.board.opponent
    }

    /// The empty squares of the board.
    #[getter]
    fn empties(&self) -> u32 {
        self.rules.empty_count(&self.state.position.board)
    }

    /// The legal moves.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves::of(&self.rules, &self.state)
    }

    /// The discs of `color` on the board.
    fn discs(&self, color: PyColor) -> u32 {
        discs(&self.state, color)
    }

    /// The colour on a square (a `Move`, `'d3'` or an index), `None` when empty.
    fn disc_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyColor>> {
        disc_at(&self.state, &self.rules, square)
    }

    /// The position after `move` (a `Move`, `'d3'`, `'PA'` or an index).
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let mv = extract_move(r#move)?;
        let state = self.rules.play(&self.state, mv).map_err(illegal_move)?;
        Ok(PyPosition {
            rules: self.rules,
            state,
        })
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.rules.is_over(&self.state)
    }

    /// Whether the side to move must pass (it has no move, the other side has one).
    fn must_pass(&self) -> bool {
        self.rules.must_pass(&self.state)
    }

    /// How the game ended; `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        outcome(&self.rules, &self.state)
    }

    /// The board string: `size`² squares a1 first, a space, the side to move.
    fn board_string(&self) -> String {
        self.rules.board_string(&self.state.position)
    }

    /// The position in the package's encoding: an int8 array of shape `(2, size, size)`, plane
    /// 0 the discs of the side to move, plane 1 the other side's (`iago.encodings`).
    // Python's name; a method of a frozen class takes `&self`.
    #[allow(clippy::wrong_self_convention)]
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<i8>>> {
        planes(py, &self.rules, &self.state)
    }

    /// The position under symmetry `symmetry` (0 identity, 1 mirror columns, 2 mirror rows,
    /// 3 half turn, 4 transpose (a1-h8 diagonal), 5 anti-transpose, 6 quarter turn clockwise,
    /// 7 anticlockwise).
    fn transform(&self, symmetry: i64) -> PyResult<PyPosition> {
        let sym = symmetry_from_index(symmetry)?;
        Ok(PyPosition {
            rules: self.rules,
            state: transform_state(&self.state, sym, self.rules.size),
        })
    }

    /// The 8 images of the position under the symmetries, in `transform`'s order.
    fn symmetries(&self) -> Vec<PyPosition> {
        Symmetry::ALL
            .iter()
            .map(|&sym| PyPosition {
                rules: self.rules,
                state: transform_state(&self.state, sym, self.rules.size),
            })
            .collect()
    }

    /// The least of the 8 images (by Black's then White's discs as masks): the same for every
    /// symmetric position.
    fn canonical(&self) -> PyPosition {
        let images = self.symmetries();
        images
            .into_iter()
            .min_by_key(|p| (p.state.position.black().0, p.state.position.white().0))
            .expect("8 images")
    }

    fn __str__(&self) -> String {
        self.rules.grid(&self.state, true)
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}'{})",
            self.board_string(),
            rules_suffix(self.rules)
        )
    }

    fn _repr_svg_(&self) -> String {
        crate::svg::board_svg(&self.rules, &self.state, None)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (String, String)>> {
        Ok((
            restorer(py)?,
            ("position", (self.board_string(), rules_name(self.rules))),
        ))
    }
}

/// `state`'s planes (see `Position.to_planes`).
pub(crate) fn planes<'py>(
    py: Python<'py>,
    rules: &Rules,
    state: &State,
) -> PyResult<Bound<'py, numpy::PyArray3<i8>>> {
    use numpy::PyArrayMethods;
    let n = usize::from(rules.size);
    let board = state.board();
    let mut cells = vec![0i8; 2 * n * n];
    for (i, sq) in rules.board_squares().enumerate() {
        let bit = 1u64 << sq.index();
        if board.player & bit != 0 {
            cells[i] = 1;
        } else if board.opponent & bit != 0 {
            cells[n * n + i] = 1;
        }
    }
    numpy::PyArray1::from_vec(py, cells).reshape([2, n, n])
}
