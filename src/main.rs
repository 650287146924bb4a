//! The `iago` binary: logging to stderr, then the command line.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp_millis()
        .init();
    let cli = iago::cli::Cli::parse();
    match iago::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("iago: error: {err}");
            ExitCode::from(2)
        }
    }
}
