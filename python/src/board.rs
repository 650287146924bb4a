//! `Color`, `Move`, `Position`, `LegalMoves`, `Outcome` and `Board`: the rules from Python, in
//! python-chess's manner (a mutable board with a move stack, immutable hashable positions
//! and moves).

use numpy::PyArrayMethods;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyType};

use iago::board::notation::{ParsePositionError, TranscriptError};
use iago::board::rules::PositionError;
use iago::board::{Color, Game, IllegalMoveError, Move, Position, Rules, Square, State, Symmetry};

use crate::errors::{illegal_move, invalid_move, invalid_position};
pub(crate) use crate::position::{PyOutcome, PyPosition, disc_at, discs, outcome};

/// A side: `Color.BLACK` (moves first) or `Color.WHITE`.
#[pyclass(
    module = "iago",
    name = "Color",
    eq,
    eq_int,
    hash,
    frozen,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PyColor {
    /// Black, `X` in board strings.
    #[pyo3(name = "BLACK")]
    Black = 0,
    /// White, `O` in board strings.
    #[pyo3(name = "WHITE")]
    White = 1,
}

impl From<Color> for PyColor {
    fn from(color: Color) -> PyColor {
        match color {
            Color::Black => PyColor::Black,
            Color::White => PyColor::White,
        }
    }
}

impl From<PyColor> for Color {
    fn from(color: PyColor) -> Color {
        match color {
            PyColor::Black => Color::Black,
            PyColor::White => Color::White,
        }
    }
}

#[pymethods]
impl PyColor {
    /// The other side.
    fn opposite(&self) -> PyColor {
        Color::from(*self).opposite().into()
    }

    /// `X` for Black, `O` for White (as in board strings).
    #[getter]
    fn symbol(&self) -> String {
        Color::from(*self).symbol().to_string()
    }

    fn __str__(&self) -> &'static str {
        Color::from(*self).name()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, u8>> {
        Ok((restorer(py)?, ("color", *self as u8)))
    }
}

/// A move: a disc on a square (index `row * 8 + col`, a1 = 0, h1 = 7, h8 = 63) or a pass.
#[pyclass(module = "iago", name = "Move", frozen, eq, hash, ord, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PyMove(pub Move);

impl From<Move> for PyMove {
    fn from(mv: Move) -> PyMove {
        PyMove(mv)
    }
}

#[pymethods]
impl PyMove {
    /// The move on square `square` (0 to 63, a1 = 0, b1 = 1, ..., h8 = 63).
    #[new]
    fn new(square: i64) -> PyResult<PyMove> {
        square_from_index(square).map(|sq| PyMove(Move::Play(sq)))
    }

    /// Reads `d3` (either case) or a pass (`PA`, `pass`, `--`, `PS`).
    #[staticmethod]
    fn from_str(text: &str) -> PyResult<PyMove> {
        Move::parse(text).map(PyMove).map_err(invalid_move)
    }

    /// The square's index (0 to 63), `None` for a pass.
    #[getter]
    fn square(&self) -> Option<u8> {
        self.0.square().map(Square::index)
    }

    /// The row (0 for row 1), `None` for a pass.
    #[getter]
    fn row(&self) -> Option<u8> {
        self.0.square().map(Square::row)
    }

    /// The column (0 for column a), `None` for a pass.
    #[getter]
    fn col(&self) -> Option<u8> {
        self.0.square().map(Square::col)
    }

    /// Whether this is the pass.
    #[getter]
    fn is_pass(&self) -> bool {
        self.0.is_pass()
    }

    /// The move under symmetry `symmetry` (0 to 7, see `Board.transform`) of a board of side
    /// `size`.
    #[pyo3(signature = (symmetry, size = 8))]
    fn transform(&self, symmetry: i64, size: i64) -> PyResult<PyMove> {
        let sym = symmetry_from_index(symmetry)?;
        let size = crate::errors::in_range("size", size, 4, 8)? as u8;
        check_size(size)?;
        Ok(PyMove(transform_move(self.0, sym, size)))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_str('{}')", self.0)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, String>> {
        Ok((restorer(py)?, ("move", self.0.to_string())))
    }
}

/// `iago._restore`, which pickled objects are rebuilt by: `(kind, arguments)`.
pub(crate) fn restorer(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("iago")?.getattr("_restore")
}

/// What `__reduce__` gives: the restorer and its `(kind, arguments)`.
pub(crate) type Reduced<'py, A> = (Bound<'py, PyAny>, (&'static str, A));

/// The 65 moves (the squares, then the pass) as Python objects made once: handing out one is
/// a reference count, not an allocation (iterating the legal moves is most of a random game).
static MOVES: pyo3::sync::PyOnceLock<Vec<Py<PyMove>>> = pyo3::sync::PyOnceLock::new();

/// The Python object of `mv`, shared.
pub(crate) fn move_object(py: Python<'_>, mv: Move) -> PyResult<Py<PyMove>> {
    let moves = MOVES.get_or_try_init(py, || {
        (0..64u8)
            .map(|i| Move::Play(Square::from_index_unchecked(i)))
            .chain([Move::Pass])
            .map(|m| Py::new(py, PyMove(m)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    let index = mv.square().map_or(64, |sq| usize::from(sq.index()));
    Ok(moves[index].clone_ref(py))
}

/// A square from an index 0-63.
pub(crate) fn square_from_index(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| invalid_move(format!("square index {index} is not in 0..63")))
}

/// A move given as a `Move`, a string (`d3`, `PA`) or a square index.
pub(crate) fn extract_move(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = obj.cast::<PyMove>() {
        return Ok(mv.get().0);
    }
    if let Ok(text) = obj.extract::<&str>() {
        return Move::parse(text).map_err(invalid_move);
    }
    if let Ok(index) = obj.extract::<i64>() {
        return square_from_index(index).map(Move::Play);
    }
    Err(PyTypeError::new_err(format!(
        "a move is a Move, a string such as 'd3' or 'PA', or a square index, not {}",
        obj.get_type().name()?
    )))
}

/// A symmetry from its index in `Symmetry::ALL`.
pub(crate) fn symmetry_from_index(index: i64) -> PyResult<Symmetry> {
    usize::try_from(index)
        .ok()
        .and_then(|i| Symmetry::ALL.get(i).copied())
        .ok_or_else(|| crate::errors::value_error(format!("symmetry {index} is not in 0..7")))
}

pub(crate) fn check_size(size: u8) -> PyResult<()> {
    if matches!(size, 4 | 6 | 8) {
        Ok(())
    } else {
        Err(crate::errors::value_error(format!(
            "board size {size} is not 4, 6 or 8"
        )))
    }
}

/// `(row, col)` under `sym` on a board of side `size`.
pub(crate) fn transform_coords(sym: Symmetry, row: u8, col: u8, size: u8) -> (u8, u8) {
    let m = size - 1;
    match sym {
        Symmetry::Identity => (row, col),
        Symmetry::MirrorColumns => (row, m - col),
        Symmetry::MirrorRows => (m - row, col),
        Symmetry::Rotate180 => (m - row, m - col),
        Symmetry::Transpose => (col, row),
        Symmetry::AntiTranspose => (m - col, m - row),
        Symmetry::Rotate90 => (col, m - row),
        Symmetry::Rotate270 => (m - col, row),
    }
}

pub(crate) fn transform_move(mv: Move, sym: Symmetry, size: u8) -> Move {
    match mv {
        Move::Pass => Move::Pass,
        Move::Play(sq) => {
            let (r, c) = transform_coords(sym, sq.row(), sq.col(), size);
            Move::Play(Square::from_coords(r, c).expect("inside the board"))
        }
    }
}

/// A set of squares under `sym` on a board of side `size` (in the top-left corner).
pub(crate) fn transform_bits(bits: u64, sym: Symmetry, size: u8) -> u64 {
    if size == 8 {
        return sym.apply_bits(bits);
    }
    let mut out = 0u64;
    let mut rest = bits;
    while rest != 0 {
        let sq = Square::from_index_unchecked(rest.trailing_zeros() as u8);
        rest &= rest - 1;
        let (r, c) = transform_coords(sym, sq.row(), sq.col(), size);
        out |= 1 << (r * 8 + c);
    }
    out
}

pub(crate) fn transform_state(state: &State, sym: Symmetry, size: u8) -> State {
    let board = state.position.board;
    State {
        position: Position {
            board: iago::Board {
                player: transform_bits(board.player, sym, size),
                opponent: transform_bits(board.opponent, sym, size),
            },
            to_move: state.position.to_move,
        },
        left: state.left,
    }
}

/// Reads a rule set (`othello`, `reversi`, `6x6 anti`, `reversi-32`, ...) this version plays.
pub(crate) fn parse_rules(text: &str) -> PyResult<Rules> {
    let rules: Rules = text.parse().map_err(invalid_position)?;
    rules.check_supported().map_err(invalid_position)?;
    Ok(rules)
}

/// The rules of a board string of side `size` under the rules named `rules`: their own size,
/// or the string's when they name none (8x8, the default).
pub(crate) fn rules_at(rules: Rules, size: u8) -> Result<Rules, String> {
    if size == rules.size {
        Ok(rules)
    } else if rules.size == 8 {
        Ok(Rules { size, ..rules })
    } else {
        Err(format!(
            "a {size}x{size} board under {rules}, which is played on {0}x{0}",
            rules.size
        ))
    }
}

/// The state a board string gives under `rules` (see [`rules_at`]).
pub(crate) fn parse_state(text: &str, rules: Rules) -> PyResult<(Rules, State)> {
    let (position, size) = iago::board::parse_sized_position(text)
        .map_err(|e: ParsePositionError| invalid_position(e))?;
    let rules = rules_at(rules, size).map_err(invalid_position)?;
    rules.check_supported().map_err(invalid_position)?;
    let state = rules
        .state(position)
        .map_err(|e: PositionError| invalid_position(e))?;
    Ok((rules, state))
}

/// A transcript's error as the package's exception.
pub(crate) fn transcript_error(e: TranscriptError) -> PyErr {
    match e {
        TranscriptError::Syntax { .. } => invalid_move(e),
        TranscriptError::Illegal { .. } => illegal_move(e),
    }
}

/// The rules' name for Python: `othello`, `6x6 anti`, ...
pub(crate) fn rules_name(rules: Rules) -> String {
    rules.to_string()
}

/// `rules='...'` for a repr, empty for standard Othello.
pub(crate) fn rules_suffix(rules: Rules) -> String {
    if rules == Rules::OTHELLO {
        String::new()
    } else {
        format!(", rules='{rules}'")
    }
}

/// The legal moves of a position: supports `in` (a `Move`, a string or a square index), `len`
/// and iteration (square order; the pass alone when the side to move must pass, none when the
/// game is over).
#[pyclass(module = "iago", name = "LegalMoves", frozen)]
pub struct LegalMoves {
    /// The squares.
    mask: u64,
    /// Whether the pass is the move (the side to move has none, the other side has).
    pass: bool,
}

impl LegalMoves {
    pub(crate) fn of(rules: &Rules, state: &State) -> LegalMoves {
        let mask = rules.moves(state);
        LegalMoves {
            mask,
            pass: mask == 0 && rules.moves(&state.pass()) != 0,
        }
    }

    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        let squares = iago::board::Bitboard(self.mask).iter().map(Move::Play);
        squares.chain(self.pass.then_some(Move::Pass))
    }

    fn contains(&self, mv: Move) -> bool {
        match mv {
            Move::Pass => self.pass,
            Move::Play(sq) => self.mask >> sq.index() & 1 != 0,
        }
    }
}

#[pymethods]
impl LegalMoves {
    fn __contains__(&self, obj: &Bound<'_, PyAny>) -> bool {
        extract_move(obj).is_ok_and(|mv| self.contains(mv))
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize + usize::from(self.pass)
    }

    fn __bool__(&self) -> bool {
        self.mask != 0 || self.pass
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let moves = self
            .moves()
            .map(|m| move_object(py, m))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, moves)?.try_iter().map(Bound::into_any)
    }

    /// The squares as a 64-bit mask (bit `i` for square `i`; no bit for the pass).
    #[getter]
    fn mask(&self) -> u64 {
        self.mask
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.moves().map(|m| m.to_string()).collect();
        format!("<LegalMoves ({}): {}>", moves.len(), moves.join(", "))
    }
}

/// A game board with a move stack, as python-chess's `Board`: the start position (a set-up
/// board string, or the start of the rules) and the moves played since.
#[pyclass(module = "iago", name = "Board")]
#[derive(Clone)]
pub struct PyBoard {
    pub(crate) game: Game,
}

impl PyBoard {
    pub(crate) fn rules(&self) -> Rules {
        self.game.rules()
    }

    pub(crate) fn state(&self) -> State {
        self.game.state()
    }
}

/// The game a `Board`, a `Position` or a board string stands for.
pub(crate) fn extract_game(obj: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(board) = obj.cast::<PyBoard>() {
        return Ok(board.borrow().game.clone());
    }
    if let Ok(position) = obj.cast::<PyPosition>() {
        let p = position.get();
        return Ok(Game::from_state(p.rules, p.state));
    }
    if let Ok(text) = obj.extract::<&str>() {
        let (rules, state) = parse_state(text, Rules::OTHELLO)?;
        return Ok(Game::from_state(rules, state));
    }
    Err(PyTypeError::new_err(format!(
        "expected a Board, a Position or a board string, not {}",
        obj.get_type().name()?
    )))
}

/// The rules and state of a `Board`, a `Position` or a board string.
pub(crate) fn extract_state(obj: &Bound<'_, PyAny>) -> PyResult<(Rules, State)> {
    if let Ok(board) = obj.cast::<PyBoard>() {
        let board = board.borrow();
        return Ok((board.rules(), board.state()));
    }
    if let Ok(position) = obj.cast::<PyPosition>() {
        let p = position.get();
        return Ok((p.rules, p.state));
    }
    let game = extract_game(obj)?;
    Ok((game.rules(), game.state()))
}

fn play_checked(game: &mut Game, mv: Move) -> PyResult<()> {
    game.play(mv).map_err(|e: IllegalMoveError| illegal_move(e))
}

#[pymethods]
impl PyBoard {
    /// A board at a position (a board string or a `Position`), or at the start of `rules`
    /// (`othello`, `reversi`, `anti`, `6x6`, `4x4 anti`, `reversi-32`, ...); no move played.
    #[new]
    #[pyo3(signature = (position = None, *, rules = "othello"))]
    fn new(position: Option<&Bound<'_, PyAny>>, rules: &str) -> PyResult<PyBoard> {
        let named = parse_rules(rules)?;
        let game = match position {
            None => Game::new(named),
            Some(obj) => {
                if let Ok(p) = obj.cast::<PyPosition>() {
                    let p = p.get();
                    Game::from_state(p.rules, p.state)
                } else {
                    let text: &str = obj.extract().map_err(|_| {
                        PyTypeError::new_err("a position is a board string or a Position")
                    })?;
                    let (rules, state) = parse_state(text, named)?;
                    Game::from_state(rules, state)
                }
            }
        };
        Ok(PyBoard { game })
    }

    /// The game of a transcript (`f5d6c3...`, passes written or left out) from the start of
    /// `rules`, or from `start` (a board string or a `Position`).
    #[classmethod]
    #[pyo3(signature = (transcript, *, rules = "othello", start = None))]
    fn from_transcript(
        _cls: &Bound<'_, PyType>,
        transcript: &str,
        rules: &str,
        start: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        let mut board = PyBoard::new(start, rules)?;
        board
            .game
            .play_transcript(transcript)
            .map_err(transcript_error)?;
        Ok(board)
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> PyColor {
        self.game.state().to_move().into()
    }

    /// The rule set's name (`othello`, `6x6 anti`, ...).
    #[getter(rules)]
    fn get_rules(&self) -> String {
        rules_name(self.rules())
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.rules().size
    }

    /// The legal moves.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves::of(&self.rules(), &self.game.state())
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        extract_move(r#move).is_ok_and(|mv| self.legal_moves().contains(mv))
    }

    /// The moves played, first first (passes included).
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        self.game
            .moves()
            .iter()
            .map(|&m| move_object(py, m))
            .collect()
    }

    /// Plays `move` (a `Move`, `'d3'`, `'PA'` or a square index). Raises `IllegalMoveError`
    /// (the board unchanged) when the rules forbid it, `InvalidMoveError` when it cannot be
    /// read.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = extract_move(r#move)?;
        play_checked(&mut self.game, mv)
    }

    /// Plays the move written `text` and returns it.
    fn push_str(&mut self, py: Python<'_>, text: &str) -> PyResult<Py<PyMove>> {
        let mv = Move::parse(text).map_err(invalid_move)?;
        play_checked(&mut self.game, mv)?;
        move_object(py, mv)
    }

    /// Takes back the last move and returns it; `IndexError` when none was played.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let mv = self
            .game
            .undo()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        move_object(py, mv)
    }

    /// The last move; `IndexError` when none was played.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let mv = self
            .game
            .moves()
            .last()
            .copied()
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))?;
        move_object(py, mv)
    }

    /// The moves played (passes count).
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.game.is_over()
    }

    /// Whether the side to move must pass.
    fn must_pass(&self) -> bool {
        self.game.must_pass()
    }

    /// How the game ended; `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        outcome(&self.rules(), &self.game.state())
    }

    /// The current position (immutable, hashable).
    fn position(&self) -> PyPosition {
        PyPosition {
            rules: self.rules(),
            state: self.game.state(),
        }
    }

    /// The board at the start, before the moves of the stack.
    fn root(&self) -> PyBoard {
        PyBoard {
            game: Game::from_state(self.rules(), self.game.start_state()),
        }
    }

    /// A copy; with `stack=False`, of the current position alone.
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> PyBoard {
        if stack {
            self.clone()
        } else {
            PyBoard {
                game: Game::from_state(self.rules(), self.game.state()),
            }
        }
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// The board string of the current position.
    fn board_string(&self) -> String {
        self.rules().board_string(&self.game.position())
    }

    /// The moves as a transcript (`f5d6c3...`); with `passes=True` the passes written `PA`.
    #[pyo3(signature = (*, passes = false))]
    fn transcript(&self, passes: bool) -> String {
        self.game.transcript(passes)
    }

    /// The game as one GGF line (`(;GM[Othello]...;)`), with the players' names when given:
    /// what `read_games` and `parse_games` read back.
    #[pyo3(signature = (*, black = None, white = None))]
    fn to_ggf(&self, black: Option<&str>, white: Option<&str>) -> String {
        let mut ggf = iago::records::GgfGame::from_game(&self.game);
        for (tag, name) in [("PB", black), ("PW", white)] {
            if let Some(name) = name {
                ggf.tags.retain(|(t, _)| t != tag);
                ggf.tags.push((tag.to_string(), name.to_string()));
            }
        }
        ggf.to_string()
    }

    /// The empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.rules().empty_count(&self.game.position().board)
    }

    /// The discs of `color`.
    fn discs(&self, color: PyColor) -> u32 {
        discs(&self.game.state(), color)
    }

    /// The colour on a square (a `Move`, `'d3'` or an index), `None` when empty.
    fn disc_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyColor>> {
        disc_at(&self.game.state(), &self.rules(), square)
    }

    /// The whole game (start and moves) under symmetry `symmetry` (see `Position.transform`).
    fn transform(&self, symmetry: i64) -> PyResult<PyBoard> {
        let sym = symmetry_from_index(symmetry)?;
        let rules = self.rules();
        let mut game = Game::from_state(
            rules,
            transform_state(&self.game.start_state(), sym, rules.size),
        );
        for &mv in self.game.moves() {
            game.play(transform_move(mv, sym, rules.size))
                .expect("a symmetric image of a legal move is legal");
        }
        Ok(PyBoard { game })
    }

    /// The 8 images of the game under the symmetries, in `transform`'s order.
    fn symmetries(&self) -> PyResult<Vec<PyBoard>> {
        (0..8).map(|i| self.transform(i)).collect()
    }

    /// The position in the package's encoding: an int8 array of shape `(2, size, size)`, plane
    /// 0 the discs of the side to move, plane 1 the other side's (`iago.encodings`).
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<i8>>> {
        crate::position::planes(py, &self.rules(), &self.game.state())
    }

    /// The board as a `size` x `size` grid of int8 in absolute colours: 1 Black, -1 White, 0
    /// empty (row 0 is row 1); `iago.encodings.planes_from_signed` turns it into the planes.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<i8>>> {
        let rules = self.rules();
        let position = self.game.position();
        let n = usize::from(rules.size);
        let cells: Vec<i8> = rules
            .board_squares()
            .map(|sq| match position.disc(sq) {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            })
            .collect();
        numpy::PyArray1::from_vec(py, cells).reshape([n, n])
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBoard>().is_ok_and(|o| {
            let o = o.borrow();
            o.rules() == self.rules() && o.game.state() == self.game.state()
        })
    }

    fn __str__(&self) -> String {
        self.rules().grid(&self.game.state(), true)
    }

    fn __repr__(&self) -> String {
        format!(
            "Board('{}'{})",
            self.board_string(),
            rules_suffix(self.rules())
        )
    }

    fn _repr_svg_(&self) -> String {
        crate::svg::board_svg(
            &self.rules(),
            &self.game.state(),
            self.game.moves().last().copied(),
        )
    }

    /// Pickled as its rules, its start and its moves (passes written).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (String, String, String)>> {
        let rules = self.rules();
        let start = rules.board_string(&self.game.start());
        Ok((
            restorer(py)?,
            (
                "board",
                (rules_name(rules), start, self.game.transcript(true)),
            ),
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyColor>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<LegalMoves>()?;
    m.add_class::<PyOutcome>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<PyBoard>()?;
    m.add("BLACK", PyColor::Black)?;
    m.add("WHITE", PyColor::White)?;
    Ok(())
}
