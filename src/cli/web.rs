//! `iago web`: the analysis board in the browser, served by this binary.

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use super::args::{CliError, EngineArgs};
use crate::console::Level;
use crate::protocol::gtp::Rows;

/// The options of `iago web`.
#[derive(clap::Args, Debug)]
pub struct WebArgs {
    /// The engine (`--depth` and `--time` set Iago's level on a new page).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Where to listen: an address and a port (port 0 picks a free one). An address other
    /// than loopback lets other machines in, with a warning.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub listen: String,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
    /// A host name the page may be reached by, besides localhost and IP addresses (e.g. the
    /// machine's name on the network with --listen 0.0.0.0:8080); repeatable.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Searches that run at once, one engine each (each with --threads and --hash); the
    /// others wait their turn. A client runs one search at a time.
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub engines: u16,
    /// The longest search a client may run, in seconds (a move, values, a solve, a review).
    #[arg(long, default_value_t = 300.0, value_name = "SECS", value_parser = super::args::seconds_arg)]
    pub max_search: f64,
    /// Clients (tabs) connected at once.
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_clients: u16,
}

/// Serves the page until the process is ended.
pub fn run(args: &WebArgs) -> Result<(), CliError> {
    if args.engine.rows != Rows::Auto {
        return Err("--rows names GTP's rows; the web board does not take it".into());
    }
    let listen = resolve(&args.listen)?;
    let level = match args.engine.time {
        _ if !args.engine.level.is_top() => Level::Named(args.engine.level),
        Some(secs) if secs <= args.max_search => Level::Time(Duration::from_secs_f64(secs)),
        Some(_) => return Err("--time is longer than --max-search".into()),
        None => Level::Depth(args.engine.depth.clamp(1, 60)),
    };
    let options = crate::web::WebOptions {
        listen,
        open: args.open,
        allow_hosts: args.allow_hosts.clone(),
        engines: usize::from(args.engines),
        max_search: Duration::from_secs_f64(args.max_search),
        max_clients: usize::from(args.max_clients),
        level,
        engine: args.engine.options(),
    };
    crate::web::serve(options, &mut std::io::stdout())
}

/// `--listen`: `ADDR:PORT`, the address an IP or a name (`localhost:8080`).
fn resolve(text: &str) -> Result<SocketAddr, CliError> {
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let bad = || -> CliError {
        format!(
            "--listen '{}': expected ADDR:PORT, e.g. 127.0.0.1:8080 or [::1]:0",
            crate::board::notation::excerpt(text)
        )
        .into()
    };
    if !text.contains(':') {
        return Err(bad());
    }
    let mut addrs = text.to_socket_addrs().map_err(|_| bad())?;
    addrs.next().ok_or_else(bad)
}
