//! The Python package `iago` (its compiled part, `iago._iago`): the board and its moves, the
//! engine, game records, datasets and a batch of games for a vector environment, over the
//! `iago` library. Nothing here panics across the boundary: every error is a Python
//! exception (`ValueError` subclasses for bad input) with the library's one-line message.

use pyo3::prelude::*;

mod analysis;
mod batch;
mod board;
mod datasets;
mod engine;
mod errors;
mod interrupt;
mod position;
mod records;
mod results;
mod svg;

/// The compiled module; `iago/__init__.py` re-exports what users see.
#[pymodule]
fn _iago(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    board::register(m)?;
    engine::register(m)?;
    results::register(m)?;
    analysis::register(m)?;
    records::register(m)?;
    datasets::register(m)?;
    batch::register(m)?;
    m.add("PASS", Py::new(py, board::PyMove::from(iago::Move::Pass))?)?;
    Ok(())
}
