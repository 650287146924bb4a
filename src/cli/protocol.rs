//! `iago nboard`, `iago gtp` and plain `iago`: a protocol session on stdin/stdout.

use super::args::{CliError, EngineArgs};

/// Serves `protocol` (NBoard or GTP; `None`: told by the first line) with an engine set up by
/// the options.
pub fn run(args: EngineArgs, protocol: Option<crate::protocol::Protocol>) -> Result<(), CliError> {
    let mut engine = crate::engine::Engine::new(crate::engine::EngineOptions {
        threads: args.search.threads,
        hash_mb: args.search.hash,
        selectivity: args.selectivity,
        ..crate::engine::EngineOptions::default()
    })?;
    let evaluation = args.eval.evaluator()?;
    let embedded = matches!(evaluation, crate::eval::Evaluation::Embedded);
    engine.set_evaluator(evaluation);
    // The weights (see `default_evaluator`) and then the book load while the session starts,
    // one after the other, so that their peaks of memory do not add up.
    let book_args = args.clone();
    engine.set_book_loading(move || {
        if embedded {
            crate::eval::embedded();
        }
        book_args.opening_book()
    });
    crate::protocol::serve(
        engine,
        protocol,
        crate::protocol::Settings {
            depth: args.depth.clamp(1, 60),
            move_time: args.time,
            rows: args.rows,
        },
    );
    Ok(())
}
