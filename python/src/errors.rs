//! The package's exceptions: `ValueError` subclasses carrying the library's one-line messages.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    iago,
    InvalidMoveError,
    PyValueError,
    "A move that cannot be read: not a square a1..h8 (or one off a smaller board) nor a pass."
);
create_exception!(
    iago,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that the rules forbid in this position."
);
create_exception!(
    iago,
    InvalidPositionError,
    PyValueError,
    "A position, transcript or rule set that cannot be read or cannot occur under its rules."
);
create_exception!(
    iago,
    RecordError,
    PyValueError,
    "A game record (GGF, WTHOR, transcript, OBF) that cannot be read or replayed."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    Ok(())
}

/// An invalid-move error with `message`.
pub(crate) fn invalid_move(message: impl std::fmt::Display) -> PyErr {
    InvalidMoveError::new_err(message.to_string())
}

/// An illegal-move error with `message`.
pub(crate) fn illegal_move(message: impl std::fmt::Display) -> PyErr {
    IllegalMoveError::new_err(message.to_string())
}

/// An invalid-position error with `message`.
pub(crate) fn invalid_position(message: impl std::fmt::Display) -> PyErr {
    InvalidPositionError::new_err(message.to_string())
}

/// A record error with `message`.
pub(crate) fn record_error(message: impl std::fmt::Display) -> PyErr {
    RecordError::new_err(message.to_string())
}

/// A `ValueError` with `message` (a bad argument that is not a move or a position).
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// `value` when it lies in `low..=high`; else a `ValueError` that names the parameter `name`.
pub(crate) fn in_range(name: &str, value: i64, low: i64, high: i64) -> PyResult<i64> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(value_error(format!(
            "{name} must be {low} to {high}, not {value}"
        )))
    }
}

/// A seed (or a game number) given as any Python int: 0 to 2^64 - 1, else a `ValueError` that
/// names `name`.
pub(crate) fn seed(name: &str, value: i128) -> PyResult<u64> {
    u64::try_from(value)
        .map_err(|_| value_error(format!("{name} must be 0 to 2**64 - 1, not {value}")))
}

/// An optional number of threads: 1 to the library's most, else a `ValueError`.
pub(crate) fn threads(value: Option<i64>) -> PyResult<Option<usize>> {
    value
        .map(|n| in_range("threads", n, 1, iago::engine::MAX_THREADS as i64).map(|n| n as usize))
        .transpose()
}
