//! `iago web`: the local analysis board. An HTTP server serves the page (plain HTML, CSS and
//! JS embedded in the binary, [`assets`]) and speaks JSON over a WebSocket with each tab
//! ([`messages`], documented in docs/web.md). Each tab is a [`session`]: its own game tree and
//! its one search, which a pool of engines runs ([`pool`]). The server listens on loopback
//! unless told otherwise, refuses requests whose `Host` or `Origin` is not its own
//! ([`guard`]), and bounds message sizes, uploads, clients and search times.

mod assets;
mod clock;
mod guard;
mod messages;
mod pool;
mod server;
mod session;
mod tree;
mod view;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use crate::console::Level;
use crate::engine::EngineOptions;
use messages::{Hello, LevelMessage, RulesChoice};

pub(crate) use server::serve;

/// The largest file `/api/games` reads.
pub(crate) const MAX_UPLOAD_BYTES: usize = 16 << 20;

/// How `iago web` runs.
#[derive(Clone, Debug)]
pub(crate) struct WebOptions {
    /// Where to listen.
    pub listen: SocketAddr,
    /// Whether to open a browser on the page.
    pub open: bool,
    /// Host names besides `localhost` and IP addresses that requests may name.
    pub allow_hosts: Vec<String>,
    /// Searches that run at once (one engine each); the others wait their turn.
    pub engines: usize,
    /// The longest search of a client.
    pub max_search: Duration,
    /// Clients connected at once.
    pub max_clients: usize,
    /// Iago's level on a new page.
    pub level: Level,
    /// The engines' options.
    pub engine: EngineOptions,
}

/// What every session shares: the engines and the server's limits.
pub(crate) struct Shared {
    pool: Arc<pool::Pool>,
    level: Level,
    max_search: Duration,
    max_clients: usize,
    clients: AtomicUsize,
    allow_hosts: Vec<String>,
}

impl Shared {
    /// The first message of a session.
    fn hello(&self) -> Hello {
        let rules = [
            ("othello", "Othello"),
            ("reversi", "Reversi start (empty centre)"),
            ("othello 32", "Othello, 32 discs each"),
            ("reversi 32", "Reversi, 32 discs each"),
            ("anti", "Anti-Othello (fewest discs wins)"),
            ("anti-reversi", "Anti-Reversi"),
            ("6x6", "6×6 Othello"),
            ("6x6 anti", "6×6 Anti-Othello"),
            ("4x4", "4×4 Othello"),
        ];
        Hello {
            version: env!("CARGO_PKG_VERSION"),
            rules: rules
                .iter()
                .map(|&(name, label)| RulesChoice {
                    // As the states name them.
                    name: name
                        .parse::<crate::board::Rules>()
                        .expect("the offered rules read")
                        .to_string(),
                    label,
                })
                .collect(),
            max_search_s: self.max_search.as_secs_f64(),
            review_depth: session::REVIEW_DEPTH,
            max_message_bytes: messages::MAX_MESSAGE_BYTES,
            max_upload_bytes: MAX_UPLOAD_BYTES,
        }
    }

    /// A level a page asks for, within the server's limits.
    fn check_level(&self, level: LevelMessage) -> Result<Level, String> {
        match level {
            LevelMessage::Depth(depth) if (1..=60).contains(&depth) => Ok(Level::Depth(depth)),
            LevelMessage::Depth(_) => Err("a depth is 1 to 60".into()),
            LevelMessage::Time(secs) if secs >= 0.01 && secs <= self.max_search.as_secs_f64() => {
                Ok(Level::Time(Duration::from_secs_f64(secs)))
            }
            LevelMessage::Time(_) => Err(format!(
                "a time a move is 0.01 to {} seconds",
                self.max_search.as_secs_f64()
            )),
            LevelMessage::Level(n) => crate::engine::Level::new(n)
                .map(Level::Named)
                .ok_or_else(|| "a playing level is 1 (beginner) to 10 (full strength)".into()),
        }
    }
}
