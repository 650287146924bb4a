//! `iago nboard`, `iago gtp` and plain `iago`: a protocol session on stdin/stdout.

use super::args::{CliError, EngineArgs};

/// Serves `protocol` (NBoard or GTP; `None`: told by the first line) with an engine set up by
/// the options.
pub fn run(args: EngineArgs, protocol: Option<crate::protocol::Protocol>) -> Result<(), CliError> {
    let engine = args.engine()?;
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
