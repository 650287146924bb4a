//! Game records from Python: GGF games and transcripts (`read_games`), WTHOR archives with
//! their player and tournament names (`read_wthor`), problem files (`read_obf`), and the one
//! game of a pasted text (`read_text`). The game
//! readers are iterators that parse and replay one record per step (a text file read a line
//! at a time, a WTHOR file at once); a bad record is kept in `errors` (or raised with
//! `strict=True`) and the others still come.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use iago::records::wthor::{self, Header, WthorGame};
use iago::records::{GameStream, Problem, read_paste, read_problems};
use iago::{Game, Rules};

use crate::board::{PyBoard, PyMove, PyPosition, parse_rules};
use crate::errors::record_error;

/// A record that could not be read: its number in the file (from 0), its line (text files)
/// and why.
#[pyclass(module = "iago", name = "BadRecord", frozen, get_all)]
#[derive(Clone)]
pub struct BadRecord {
    /// The record's number in the file, from 0 (good and bad ones counted).
    index: usize,
    /// The line where it starts (from 1); `None` in a WTHOR file.
    line: Option<usize>,
    /// What is wrong.
    message: String,
}

#[pymethods]
impl BadRecord {
    fn __repr__(&self) -> String {
        format!("<BadRecord {}: {}>", self.index, self.message)
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }
}

/// One game of a file: the replayed game (`board`, with its moves on the stack), its players
/// and what the format records besides.
#[pyclass(module = "iago", name = "GameRecord", frozen)]
pub struct GameRecord {
    /// The record's number in the file, from 0 (0 for `read_text`).
    #[pyo3(get)]
    index: usize,
    /// The line where it starts (from 1); `None` in a WTHOR file and from `read_text`.
    #[pyo3(get)]
    line: Option<usize>,
    /// Black's name ('' when the file does not say).
    #[pyo3(get)]
    black: String,
    /// White's name.
    #[pyo3(get)]
    white: String,
    /// The GGF tags (`PB`, `PW`, `PC`, `DT`, `RE`, `TI`, ...) as a dict; empty otherwise.
    #[pyo3(get)]
    tags: Py<PyDict>,
    /// WTHOR: the tournament's name ('' without the tournament file).
    #[pyo3(get)]
    tournament: String,
    /// WTHOR: the tournament's number.
    #[pyo3(get)]
    tournament_id: Option<u16>,
    /// WTHOR: Black's number in the player file.
    #[pyo3(get)]
    black_id: Option<u16>,
    /// WTHOR: White's number in the player file.
    #[pyo3(get)]
    white_id: Option<u16>,
    /// WTHOR: the year.
    #[pyo3(get)]
    year: Option<u16>,
    /// WTHOR: Black's discs at the end, as recorded.
    #[pyo3(get)]
    black_discs: Option<u8>,
    /// WTHOR: Black's discs under perfect play from `theoretical_depth` empties.
    #[pyo3(get)]
    black_theoretical: Option<u8>,
    /// WTHOR: the empties of the perfect-play score.
    #[pyo3(get)]
    theoretical_depth: Option<u8>,
    game: Game,
}

#[pymethods]
impl GameRecord {
    /// The game: its start and its moves on the move stack (a new `Board` at each access).
    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard {
            game: self.game.clone(),
        }
    }

    /// The moves as a transcript (`f5d6c3...`).
    fn transcript(&self) -> String {
        self.game.transcript(false)
    }

    fn __repr__(&self) -> String {
        format!(
            "<GameRecord {}: {} vs {}, {} moves>",
            self.index,
            self.black,
            self.white,
            self.game.moves().len()
        )
    }

    /// A record (as unpickling makes it): the fields, and the game as a `Board`.
    #[new]
    #[pyo3(signature = (*, index, line, black, white, tags, tournament, tournament_id, black_id, white_id, year, black_discs, black_theoretical, theoretical_depth, board))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        index: usize,
        line: Option<usize>,
        black: String,
        white: String,
        tags: Bound<'_, PyDict>,
        tournament: String,
        tournament_id: Option<u16>,
        black_id: Option<u16>,
        white_id: Option<u16>,
        year: Option<u16>,
        black_discs: Option<u8>,
        black_theoretical: Option<u8>,
        theoretical_depth: Option<u8>,
        board: PyRef<'_, PyBoard>,
    ) -> GameRecord {
        GameRecord {
            index,
            line,
            black,
            white,
            tags: tags.unbind(),
            tournament,
            tournament_id,
            black_id,
            white_id,
            year,
            black_discs,
            black_theoretical,
            theoretical_depth,
            game: board.game.clone(),
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::results::Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("index", self.index)?;
        d.set_item("line", self.line)?;
        d.set_item("black", &self.black)?;
        d.set_item("white", &self.white)?;
        d.set_item("tags", self.tags.bind(py).copy()?)?;
        d.set_item("tournament", &self.tournament)?;
        d.set_item("tournament_id", self.tournament_id)?;
        d.set_item("black_id", self.black_id)?;
        d.set_item("white_id", self.white_id)?;
        d.set_item("year", self.year)?;
        d.set_item("black_discs", self.black_discs)?;
        d.set_item("black_theoretical", self.black_theoretical)?;
        d.set_item("theoretical_depth", self.theoretical_depth)?;
        d.set_item("board", self.board())?;
        crate::results::reduced(py, "GameRecord", d)
    }

    /// Equal when every field and the game (start, rules and moves) are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<GameRecord>() else {
            return Ok(false);
        };
        let o = other.get();
        let py = other.py();
        Ok(self.index == o.index
            && self.line == o.line
            && self.black == o.black
            && self.white == o.white
            && self.tournament == o.tournament
            && self.tournament_id == o.tournament_id
            && self.black_id == o.black_id
            && self.white_id == o.white_id
            && self.year == o.year
            && self.black_discs == o.black_discs
            && self.black_theoretical == o.black_theoretical
            && self.theoretical_depth == o.theoretical_depth
            && self.game.rules() == o.game.rules()
            && self.game.start_state() == o.game.start_state()
            && self.game.moves() == o.game.moves()
            && self.tags.bind(py).eq(o.tags.bind(py))?)
    }
}

/// A position of a problem file with its annotations: the scores of moves (OBF) and the
/// best score when the line gives one.
#[pyclass(module = "iago", name = "Problem", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyProblem {
    /// The line (from 1).
    line: usize,
    /// The position.
    position: PyPosition,
    /// Annotated moves and their scores, as written (best first in Edax's files).
    moves: Vec<(PyMove, i32)>,
    /// The best annotated score, `None` without annotations.
    best_score: Option<i32>,
}

#[pymethods]
impl PyProblem {
    /// A problem (as unpickling makes it).
    #[new]
    #[pyo3(signature = (*, line, position, moves, best_score))]
    fn new(
        line: usize,
        position: PyPosition,
        moves: Vec<(PyMove, i32)>,
        best_score: Option<i32>,
    ) -> PyProblem {
        PyProblem {
            line,
            position,
            moves,
            best_score,
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::results::Reduced<'py>> {
        let d = PyDict::new(py);
        d.set_item("line", self.line)?;
        d.set_item("position", self.position)?;
        d.set_item("moves", self.moves.clone())?;
        d.set_item("best_score", self.best_score)?;
        crate::results::reduced(py, "Problem", d)
    }

    /// The annotated moves that reach the best score.
    fn best_moves(&self) -> Vec<PyMove> {
        match self.best_score {
            Some(best) => self
                .moves
                .iter()
                .filter(|(_, s)| *s == best)
                .map(|(m, _)| *m)
                .collect(),
            None => Vec::new(),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<Problem line {} {} best {}>",
            self.line,
            self.position
                .rules
                .board_string(&self.position.state.position),
            self.best_score
                .map_or_else(|| "unknown".to_string(), |s| format!("{s:+}"))
        )
    }
}

/// Lines of text, read as they are needed.
type Lines = Box<dyn std::io::BufRead + Send + Sync>;

enum Source {
    Text(GameStream<Lines>),
    Wthor {
        bytes: Vec<u8>,
        header: Header,
        players: Vec<String>,
        tournaments: Vec<String>,
    },
}

/// The games of a file, one per step; `errors` lists the bad ones met so far.
#[pyclass(module = "iago", name = "GameReader")]
pub struct GameReader {
    source: Source,
    next: usize,
    strict: bool,
    errors: Vec<BadRecord>,
}

/// The `OSError` of `e` about `path`, with its errno, so that Python makes it the subclass it
/// stands for (`FileNotFoundError`, `IsADirectoryError`, `PermissionError`…) with the path as
/// `filename`.
pub(crate) fn os_error(path: &Path, e: &std::io::Error) -> PyErr {
    let text = e.to_string();
    let strerror = match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    };
    match e.raw_os_error() {
        Some(errno) => {
            pyo3::exceptions::PyOSError::new_err((errno, strerror, path.display().to_string()))
        }
        None => pyo3::exceptions::PyOSError::new_err(format!("{}: {strerror}", path.display())),
    }
}

/// Nothing when `path` is a file that exists; `FileNotFoundError`, `IsADirectoryError` (or the
/// `OSError` the system gives) naming it otherwise.
pub(crate) fn check_file(path: &Path) -> PyResult<()> {
    let metadata = std::fs::metadata(path).map_err(|e| os_error(path, &e))?;
    if metadata.is_dir() {
        #[cfg(unix)]
        let e = std::io::Error::from_raw_os_error(libc::EISDIR);
        #[cfg(not(unix))]
        let e = std::io::Error::other("is a directory");
        return Err(os_error(path, &e));
    }
    Ok(())
}

fn read_file(path: &Path) -> PyResult<Vec<u8>> {
    check_file(path)?;
    std::fs::read(path).map_err(|e| os_error(path, &e))
}

fn text_of(bytes: Vec<u8>, path: &Path) -> PyResult<String> {
    String::from_utf8(bytes).or_else(|e| {
        // Latin-1 files (old GGF archives): every byte is its own code point.
        let bytes = e.into_bytes();
        if bytes.contains(&0) {
            Err(record_error(format!(
                "{}: a binary file, not GGF or transcripts",
                path.display()
            )))
        } else {
            Ok(bytes.iter().map(|&b| char::from(b)).collect())
        }
    })
}

impl GameReader {
    fn next_record(&mut self, py: Python<'_>) -> PyResult<Option<Result<GameRecord, BadRecord>>> {
        let index = self.next;
        let record = match &mut self.source {
            Source::Text(stream) => {
                let Some(read) = stream.next() else {
                    return Ok(None);
                };
                match read {
                    Ok(played) => {
                        let tags = PyDict::new(py);
                        for (k, v) in &played.tags {
                            tags.set_item(k, v)?;
                        }
                        Ok(GameRecord {
                            index,
                            line: Some(played.line),
                            black: played.players[0].clone(),
                            white: played.players[1].clone(),
                            tags: tags.unbind(),
                            tournament: String::new(),
                            tournament_id: None,
                            black_id: None,
                            white_id: None,
                            year: None,
                            black_discs: None,
                            black_theoretical: None,
                            theoretical_depth: None,
                            game: played.game,
                        })
                    }
                    Err(e) => Err(BadRecord {
                        index,
                        line: Some(e.line()),
                        message: e.to_string(),
                    }),
                }
            }
            Source::Wthor {
                bytes,
                header,
                players,
                tournaments,
            } => {
                if index >= header.games {
                    return Ok(None);
                }
                let bad = |message: String| BadRecord {
                    index,
                    line: None,
                    message,
                };
                match wthor::parse_game(bytes, header, index) {
                    Err(e) => Err(bad(e.to_string())),
                    Ok(g) => match g.replay() {
                        None => Err(bad(format!(
                            "game {index}: an illegal move in {}",
                            transcript_of(&g)
                        ))),
                        Some(game) => Ok(wthor_record(index, &g, game, players, tournaments, py)),
                    },
                }
            }
        };
        self.next += 1;
        Ok(Some(record))
    }
}

fn transcript_of(g: &WthorGame) -> String {
    g.moves.iter().map(|s| s.to_string()).collect()
}

fn wthor_record(
    index: usize,
    g: &WthorGame,
    game: Game,
    players: &[String],
    tournaments: &[String],
    py: Python<'_>,
) -> GameRecord {
    let name = |names: &[String], id: u16| names.get(usize::from(id)).cloned().unwrap_or_default();
    GameRecord {
        index,
        line: None,
        black: name(players, g.black_player),
        white: name(players, g.white_player),
        tags: PyDict::new(py).unbind(),
        tournament: name(tournaments, g.tournament),
        tournament_id: Some(g.tournament),
        black_id: Some(g.black_player),
        white_id: Some(g.white_player),
        year: Some(g.year),
        black_discs: Some(g.black_discs),
        black_theoretical: Some(g.black_theoretical),
        theoretical_depth: Some(g.theoretical_depth),
        game,
    }
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<GameRecord> {
        loop {
            match self.next_record(py)? {
                None => return Err(PyStopIteration::new_err(())),
                Some(Ok(record)) => return Ok(record),
                Some(Err(bad)) => {
                    if self.strict {
                        return Err(record_error(bad.message));
                    }
                    self.errors.push(bad);
                }
            }
        }
    }

    /// The bad records met so far.
    #[getter]
    fn errors(&self) -> Vec<BadRecord> {
        self.errors.clone()
    }
}

/// The games of a text file: GGF games (any number a line or over several lines) and
/// transcripts from the start of `rules`, one a line (passes optional; blank lines and lines
/// starting with `#`, `%` or `;` skipped). The file is read a line at a time, as the games are
/// taken.
#[pyfunction]
#[pyo3(signature = (path, *, rules = "othello", strict = false))]
fn read_games(path: PathBuf, rules: &str, strict: bool) -> PyResult<GameReader> {
    let rules = parse_rules(rules)?;
    check_file(&path)?;
    let file = std::fs::File::open(&path).map_err(|e| os_error(&path, &e))?;
    let mut reader = std::io::BufReader::new(file);
    // A binary file (a WTHOR archive, say) is one error, not one a line.
    let head = std::io::BufRead::fill_buf(&mut reader).map_err(|e| os_error(&path, &e))?;
    if head.contains(&0) {
        return Err(record_error(format!(
            "{}: a binary file, not GGF or transcripts (read_wthor reads WTHOR archives)",
            path.display()
        )));
    }
    let lines: Lines = Box::new(reader);
    Ok(text_reader(
        lines,
        &path.display().to_string(),
        rules,
        strict,
    ))
}

/// The games of a string, as `read_games` reads a file.
#[pyfunction]
#[pyo3(signature = (text, *, rules = "othello", strict = false))]
fn parse_games(text: String, rules: &str, strict: bool) -> PyResult<GameReader> {
    let rules = parse_rules(rules)?;
    let lines: Lines = Box::new(std::io::Cursor::new(text.into_bytes()));
    Ok(text_reader(lines, "<string>", rules, strict))
}

/// The game of a text as a paste box reads it: a transcript from the start of `rules`, a
/// board string (or an OBF line) under `rules` at the board's size, or one GGF game under the
/// rules of its `TY` tag. A text that cannot be read raises `RecordError` with a one-line
/// message that names what was read and where (`transcript, column 7: ...`).
#[pyfunction]
#[pyo3(signature = (text, *, rules = "othello"))]
fn read_text(text: &str, rules: &str, py: Python<'_>) -> PyResult<GameRecord> {
    let rules = parse_rules(rules)?;
    let pasted = read_paste(text, rules).map_err(record_error)?;
    let tags = PyDict::new(py);
    for (k, v) in &pasted.tags {
        tags.set_item(k, v)?;
    }
    let [black, white] = pasted.players;
    Ok(GameRecord {
        index: 0,
        line: None,
        black,
        white,
        tags: tags.unbind(),
        tournament: String::new(),
        tournament_id: None,
        black_id: None,
        white_id: None,
        year: None,
        black_discs: None,
        black_theoretical: None,
        theoretical_depth: None,
        game: pasted.game,
    })
}

fn text_reader(lines: Lines, name: &str, rules: Rules, strict: bool) -> GameReader {
    GameReader {
        source: Source::Text(GameStream::new(lines, name, rules)),
        next: 0,
        strict,
        errors: Vec::new(),
    }
}

/// The file of `dir` with extension `ext` (any case), the first by name.
fn sibling(dir: &Path, ext: &str) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

fn names(path: Option<PathBuf>) -> PyResult<Vec<String>> {
    match path {
        None => Ok(Vec::new()),
        Some(p) => {
            let bytes = read_file(&p)?;
            wthor::parse_names(&bytes).map_err(|e| record_error(format!("{}: {e}", p.display())))
        }
    }
}

/// The games of a WTHOR archive (`.wtb`), with the names of the players and tournaments
/// from `players` (`WTHOR.JOU`) and `tournaments` (`WTHOR.TRN`): by default the `.JOU` and
/// `.TRN` files beside the archive, when there are. A file whose header is wrong raises
/// `RecordError`; a game with a bad move is a bad record.
#[pyfunction]
#[pyo3(signature = (path, *, players = None, tournaments = None, strict = false))]
fn read_wthor(
    path: PathBuf,
    players: Option<PathBuf>,
    tournaments: Option<PathBuf>,
    strict: bool,
) -> PyResult<GameReader> {
    let bytes = read_file(&path)?;
    let header = wthor::parse_header(&bytes)
        .map_err(|e| record_error(format!("{}: {e}", path.display())))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let players = names(players.or_else(|| sibling(dir, "jou")))?;
    let tournaments = names(tournaments.or_else(|| sibling(dir, "trn")))?;
    Ok(GameReader {
        source: Source::Wthor {
            bytes,
            header,
            players,
            tournaments,
        },
        next: 0,
        strict,
        errors: Vec::new(),
    })
}

/// The positions of a problem file: OBF lines (`<board> X; A2:+38;`), bare board strings, or
/// transcripts from the start of `rules`, one a line. Returns the problems and the bad lines.
#[pyfunction]
#[pyo3(signature = (path, *, rules = "othello", strict = false))]
fn read_obf(
    path: PathBuf,
    rules: &str,
    strict: bool,
) -> PyResult<(Vec<PyProblem>, Vec<BadRecord>)> {
    let rules = parse_rules(rules)?;
    let text = text_of(read_file(&path)?, &path)?;
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    for (index, item) in read_problems(&text, rules).into_iter().enumerate() {
        match item {
            Ok(Problem { line, entry }) => {
                let rules = Rules {
                    size: entry.size,
                    ..rules
                };
                let state = rules
                    .state(entry.position)
                    .map_err(|e| record_error(format!("{}:{line}: {e}", path.display())));
                let state = match state {
                    Ok(s) => s,
                    Err(e) if strict => return Err(e),
                    Err(e) => {
                        errors.push(BadRecord {
                            index,
                            line: Some(line),
                            message: e.to_string(),
                        });
                        continue;
                    }
                };
                problems.push(PyProblem {
                    line,
                    position: PyPosition { rules, state },
                    moves: entry.moves.iter().map(|&(m, s)| (PyMove(m), s)).collect(),
                    best_score: entry.best_score(),
                });
            }
            Err(e) => {
                let message = format!("{}: {e}", path.display());
                if strict {
                    return Err(record_error(message));
                }
                errors.push(BadRecord {
                    index,
                    line: Some(e.line),
                    message,
                });
            }
        }
    }
    Ok((problems, errors))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BadRecord>()?;
    m.add_class::<GameRecord>()?;
    m.add_class::<PyProblem>()?;
    m.add_class::<GameReader>()?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(parse_games, m)?)?;
    m.add_function(wrap_pyfunction!(read_text, m)?)?;
    m.add_function(wrap_pyfunction!(read_wthor, m)?)?;
    m.add_function(wrap_pyfunction!(read_obf, m)?)?;
    Ok(())
}
