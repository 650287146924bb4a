//! The protocols: NBoard v2 and GTP over stdin/stdout (GGF, the games NBoard sends, is read by
//! [`crate::records::ggf`]). A protocol
//! module only translates between text and the [`Engine`]; searches run on a worker thread so
//! that the reader can answer `ping`, `quit` and end of input while the engine thinks.

pub mod gtp;
pub mod nboard;
pub mod session;

#[cfg(test)]
mod fuzz;

use std::sync::mpsc::Receiver;

pub use session::{DEFAULT_DEPTH, Output, Settings, read_line, spawn_reader};

use crate::engine::Engine;

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// NBoard v2.
    Nboard,
    /// GTP v2.
    Gtp,
}

/// Runs a protocol session over stdin/stdout until `quit` or the end of input. With `None`,
/// the first line decides: `nboard …` starts NBoard, anything else GTP (and is its first command).
pub fn serve(engine: Engine, protocol: Option<Protocol>, settings: Settings) {
    let rx = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    serve_lines(engine, protocol, settings, rx, Output::stdout());
}

/// [`serve`] over any line source and output (what the tests drive).
pub fn serve_lines(
    engine: Engine,
    protocol: Option<Protocol>,
    settings: Settings,
    rx: Receiver<Option<String>>,
    out: Output,
) {
    let mut pending = None;
    let protocol = match protocol {
        Some(p) => p,
        None => loop {
            match rx.recv() {
                Ok(Some(line)) if line.trim().is_empty() => continue,
                Ok(Some(line)) => {
                    let nboard = line.split_whitespace().next() == Some("nboard");
                    pending = Some(line);
                    break if nboard {
                        Protocol::Nboard
                    } else {
                        Protocol::Gtp
                    };
                }
                _ => return,
            }
        },
    };
    log::info!("speaking {protocol:?}");
    match protocol {
        Protocol::Nboard => nboard::Session::new(engine, out, settings).run(pending, rx),
        Protocol::Gtp => gtp::Session::new(engine, out, settings).run(pending, rx),
    }
}
