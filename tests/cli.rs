//! The real `iago` binary, driven from the command line.

use std::process::{Command, Output};

fn iago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(args)
        .output()
        .expect("run iago")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The leaf count printed on the line of `depth`.
fn leaves_at(out: &str, depth: u32) -> u64 {
    out.lines()
        .find_map(|l| {
            let mut f = l.split_whitespace();
            (f.next()? == depth.to_string()).then(|| f.next()?.parse().ok())?
        })
        .unwrap_or_else(|| panic!("no line for depth {depth} in:\n{out}"))
}

#[test]
fn perft_11_both_conventions() {
    let out = iago(&["perft", "11"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(leaves_at(&text, 9), 3_005_288);
    assert_eq!(leaves_at(&text, 11), 212_258_800);
    let out = iago(&["perft", "11", "--pass-free", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(leaves_at(&text, 9), 3_005_320);
    assert_eq!(leaves_at(&text, 11), 212_260_880);
}

#[test]
fn perft_from_a_given_position() {
    // After f5 (White to move): every depth-d count equals the start's depth-(d+1) count / 4.
    let board = "---------------------------OX------XXX-------------------------- O";
    let out = iago(&["perft", "5", "--position", board]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(leaves_at(&stdout(&out), 5), 8200 / 4);
}

#[test]
fn perft_rejects_a_bad_position() {
    let out = iago(&["perft", "3", "--position", "garbage X"]);
    assert!(!out.status.success());
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("bad --position: column 1: 'g' is not a square"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn perft_rejects_zero_threads() {
    let out = iago(&["perft", "3", "--threads", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--threads must be at least 1"));
}

#[test]
fn show_a_transcript() {
    let out = iago(&["show", "1.", "f5", "d6", "2.", "c3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3 - - X . - . - - 3"), "{text}");
    assert!(
        text.contains("White to move; legal moves (4): d3 f3 f4 g5"),
        "{text}"
    );
    assert!(
        text.contains("Board: ------------------X--------XX------OXX-----O-------------------- O"),
        "{text}"
    );
}

#[test]
fn show_a_board_starting_with_empties() {
    let out = iago(&[
        "show",
        "---------------------------OX------XO--------------------------- X",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Black to move; legal moves (4): d3 c4 f5 e6"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn show_a_board_and_a_finished_game() {
    let full = format!("{}{} X", "X".repeat(40), "O".repeat(24));
    let out = iago(&["show", &full]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Game over: Black wins by 16"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn show_reports_an_illegal_move_by_index() {
    let out = iago(&["show", "f5d6a1"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "iago: error: move 3 (a1) by Black is illegal: a1 flips no disc"
    );
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["perft", "show"] {
        let out = iago(&[sub, "--help"]);
        assert!(out.status.success());
        assert!(stdout(&out).contains("Usage: iago"), "{sub}");
    }
}
