//! What the subcommands write beside their results: progress bars on a terminal, the table of
//! `solve` and `analyze`, lines of moves, rates, and the check of an output's directory.

use super::args::CliError;
use crate::board::{Color, Move};

/// A PV as Edax writes it: upper case for Black's moves, lower case for White's.
pub(crate) fn pv_text(pv: &[Move], first: Color) -> String {
    let mut color = first;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        out.push(match color {
            Color::Black => mv.to_uppercase(),
            Color::White => mv.to_string().to_lowercase(),
        });
        color = color.opposite();
    }
    out.join(" ")
}

/// Millions of nodes per second, `-` without a time.
pub(crate) fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1} M", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

/// Refuses an output `path` whose directory does not exist, before a long run that would
/// otherwise fail only when it writes its result (`train`, `book build`, `book deepen`).
pub(crate) fn check_output_dir(path: &str) -> Result<(), CliError> {
    let dir = std::path::Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(format!("cannot write {path}: no such directory").into());
    }
    Ok(())
}

/// The progress bar of a run over `count` positions: on a terminal and for more than one
/// position only; a message the caller sets shows after the time.
pub fn positions_bar(count: usize) -> Option<indicatif::ProgressBar> {
    count_bar(count, "positions")
}

/// A progress bar on stderr over `count` things called `what`, when there is more than one and
/// stderr is a terminal.
pub fn count_bar(count: usize, what: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (count > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(count as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} {{msg}}"
            ))
            .expect("valid template"),
        );
        bar
    })
}

/// The header of the table `solve` and `analyze` print, its fifth column named `fifth`.
pub fn table_header(out: &mut impl std::io::Write, fifth: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4} {:>7} {:>4} {:>5} {:>9} {:>14} {:>10} {:>10}  pv",
        "#", "empties", "move", "score", fifth, "nodes", "time", "nodes/s"
    )
}
