//! The `iago` binary: logging to stderr, then the command line.

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp_millis()
        .init();
    iago::run_command_line()
}
