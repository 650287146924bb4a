//! The real `iago` binary, driven from the command line.

use std::process::{Command, Output};

mod common;

use common::{iago, stderr, stdout};

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
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("expected a number of threads from 1 to 1024"));
}

/// Thread counts and table sizes out of range are one-line errors (exit 2) before any work:
/// 100,000 threads never finished starting, a table bigger than the address space wrapped
/// round to one bucket, one bigger than the memory aborted the process.
#[test]
fn absurd_threads_and_hash_sizes_are_refused() {
    let cases: [(&[&str], &str); 5] = [
        (&["nboard", "--threads", "100000"], "from 1 to 1024"),
        (
            &["gtp", "--hash", "17592186044416"],
            "a size in MiB from 1 to",
        ),
        (&["solve", "--hash", "0"], "a size in MiB from 1 to"),
        // 4 TiB: within the range, beyond this machine's memory.
        (
            &["gtp", "--hash", "4194304"],
            "more than this machine's memory",
        ),
        (
            &["analyze", "--depth", "1", "--threads", "0"],
            "from 1 to 1024",
        ),
    ];
    for (args, message) in cases {
        let out = iago(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
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
fn show_a_ggf_game() {
    let ggf = "(;GM[Othello]PC[x]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
    let out = iago(&["show", ggf]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l
                == "Board: ---------------------------OX------OXX-----O-------------------- X"),
        "{text}"
    );
    assert!(text.contains("Players: a (Black), b (White)"), "{text}");
    assert!(text.contains("Moves: 2 (f5d6)"), "{text}");
    // The game's TY says its rules; flags that name others are refused.
    let out = iago(&["show", "--rules", "anti", ggf]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("TY"), "{}", stderr(&out));
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["perft", "show", "solve", "analyze", "bench", "probcut-fit"] {
        let out = iago(&[sub, "--help"]);
        assert!(out.status.success());
        assert!(stdout(&out).contains("Usage: iago"), "{sub}");
    }
}

fn iago_stdin(args: &[&str], input: &str) -> Output {
    iago_stdin_env(args, &[], input)
}

/// As [`iago_stdin`], with `env` (name, value) set for the process.
fn iago_stdin_env(args: &[&str], env: &[(&str, &str)], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iago");
    // A run refused at its arguments may exit before it reads its input: the write then meets
    // a closed pipe, and the exit status and stderr tell the outcome.
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// FFO #1 and #2 (14 empties), OBF with annotations.
const TWO_PROBLEMS: &str = "\
% two FFO positions
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6;
";

#[test]
fn solve_json_lines_from_stdin() {
    let out = iago_stdin(&["solve", "-", "--json", "--threads", "2"], TWO_PROBLEMS);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["index"], 1);
    assert_eq!(rows[0]["line"], 2);
    assert_eq!(rows[0]["empties"], 14);
    assert_eq!(rows[0]["best_move"], "g8");
    assert_eq!(rows[0]["score"], 18);
    assert_eq!(rows[0]["expected_score"], 18);
    assert_eq!(rows[0]["ok"], true);
    assert_eq!(rows[0]["pv"][0], "g8");
    assert!(rows[0]["nodes"].as_u64().unwrap() > 0);
    assert!(rows[0]["time_ms"].is_number());
    assert_eq!(rows[1]["best_move"], "a4");
    assert_eq!(rows[1]["score"], 10);
}

#[test]
fn solve_table_and_totals() {
    let out = iago_stdin(&["solve", "-"], TWO_PROBLEMS);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines().nth(1).unwrap().contains(" g8   +18    +18 ok"),
        "{text}"
    );
    assert!(
        text.contains("total: 2 solved, 2 of 2 annotated scores agree"),
        "{text}"
    );
}

#[test]
fn solve_fails_on_a_wrong_annotation_and_names_bad_lines() {
    let input = TWO_PROBLEMS.replace("G8:+18", "G8:+20") + "this is not a board\n";
    let out = iago_stdin(&["solve", "-"], &input);
    assert!(!out.status.success());
    let text = stdout(&out);
    assert!(text.contains("+20 FAIL"), "{text}");
    assert!(
        text.contains("+10 ok"),
        "the other lines are still solved: {text}"
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "iago: error: line 4: neither a board (64 squares and the side to move) nor a transcript: column 1: 'th' is not a square"
        ),
        "{err}"
    );
    let out = iago_stdin(
        &["solve", "-"],
        &format!("{}OO Z; A1:+2;\n", "-".repeat(62)),
    );
    assert!(
        stderr(&out).contains("line 1: column 66: 'Z' is not a side to move"),
        "{}",
        stderr(&out)
    );
    assert!(
        err.contains("1 position(s) disagree with their annotations, 1 line(s) could not be read"),
        "{err}"
    );
}

#[test]
fn analyze_transcripts_and_static_evaluation() {
    let out = iago_stdin(
        &["analyze", "-", "--depth", "0", "--json"],
        "f5d6c3\n% comment\nf5f6\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[1]["line"], 3);
    assert_eq!(rows[0]["depth"], 0);
    assert_eq!(rows[0]["best_move"], "--");
    let out = iago_stdin(
        &["analyze", "-", "--depth", "4", "--threads", "2"],
        "f5d6c3\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out).lines().nth(1).unwrap().to_string();
    assert!(line.contains("4@95%"), "{line}");
    // Without ProbCut the search reports 100% and visits at least as many nodes.
    let nodes_at = |selectivity: &str| {
        let out = iago_stdin(
            &[
                "analyze",
                "-",
                "--depth",
                "9",
                "--threads",
                "1",
                "--json",
                "--selectivity",
                selectivity,
            ],
            "f5d6c3d3c4f4\n",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let row: serde_json::Value =
            serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
        assert_eq!(
            row["selectivity"].as_u64().unwrap().to_string(),
            selectivity
        );
        row["nodes"].as_u64().unwrap()
    };
    assert!(nodes_at("100") > nodes_at("73"));
    let out = iago_stdin(
        &["analyze", "-", "--depth", "4", "--selectivity", "90"],
        "f5\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--selectivity must be one of 58, 73, 87, 95, 98, 99, 100, not 90"),
        "{}",
        stderr(&out)
    );
    let out = iago(&["analyze", "-"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--depth"), "{}", stderr(&out));
}

#[test]
fn protocol_sessions_search_at_the_selectivity_given() {
    let level_of_a_search = |selectivity: &[&str]| {
        let mut args = vec!["nboard", "--threads", "1", "--hash", "16", "--no-book"];
        args.extend_from_slice(selectivity);
        let mut engine = common::Engine::start(&args);
        engine.send("nboard 2");
        engine.send("set depth 6");
        engine.send("set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0:00//]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)");
        engine.send("go");
        let lines = engine.until(std::time::Duration::from_secs(60), |l| l.starts_with("==="));
        let last = lines.iter().rfind(|l| l.starts_with("status ")).unwrap();
        last.split_whitespace().nth(2).unwrap().to_string()
    };
    // Play defaults to the lowest level; analysis (above) to 95%.
    assert_eq!(level_of_a_search(&[]), "6@58%");
    assert_eq!(level_of_a_search(&["--selectivity", "95"]), "6@95%");
    assert_eq!(level_of_a_search(&["--selectivity", "87"]), "6@87%");
    for protocol in ["nboard", "gtp"] {
        let out = iago_stdin(&[protocol, "--selectivity", "90"], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out)
                .contains("--selectivity must be one of 58, 73, 87, 95, 98, 99, 100, not 90"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn bench_prints_a_node_signature() {
    let out = iago(&["bench", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().any(|l| l.starts_with("nodes: ")), "{text}");
    // The trained weights compiled into the binary are the default evaluation.
    assert!(text.contains("pattern evaluation"), "{text}");
    assert!(
        !stderr(&out).contains("embedded evaluation unusable"),
        "{}",
        stderr(&out)
    );
    let again = stdout(&iago(&["bench", "--depth", "3"]));
    let nodes = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("nodes: "))
            .unwrap()
            .to_string()
    };
    assert_eq!(nodes(&text), nodes(&again), "deterministic");
}

#[test]
fn bench_runs_on_several_threads() {
    let out = iago(&["bench", "--depth", "3", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2 threads"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("nodes: ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("time: ")), "{text}");
}

/// FFO #59 (34 empties): Black wipes White out. The midgame pre-searches see +64 by depth 6,
/// and the selective whole-game pre-search that used to follow is skipped (it cost 26.8 M
/// nodes on one thread); the debug log names every pre-search that runs.
#[test]
fn a_wipe_out_in_sight_skips_the_whole_game_pre_search() {
    let out = iago_stdin_env(
        &["solve", "-", "--threads", "2", "--json"],
        &[("RUST_LOG", "iago::search::driver=debug")],
        "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X; H4:+64;\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(row["score"], 64);
    let log = stderr(&out);
    let presearches: Vec<&str> = log.lines().filter(|l| l.contains("pre-search")).collect();
    assert!(presearches.iter().any(|l| l.contains(": +64,")), "{log}");
    assert!(
        presearches.iter().all(|l| !l.contains("pre-search 34@")),
        "{log}"
    );
}

#[test]
fn solve_win_loss_draw() {
    let out = iago_stdin(&["solve", "-", "--wld", "--json"], TWO_PROBLEMS);
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(row["score"], 2);
    assert_eq!(row["ok"], true);
    assert_eq!(row["mode"], "wld");
}

#[test]
fn solve_reports_a_missing_file() {
    let out = iago(&["solve", "/nonexistent/problems.obf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("iago: error: cannot read /nonexistent/problems.obf"));
}

/// A weight file, solved-positions file or book in a directory that does not exist is refused
/// before the run reads a game (it would otherwise fail at the end of an hour of training or of
/// a book build).
#[test]
fn long_runs_refuse_an_output_they_cannot_write_before_any_work() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor");
    for all in [
        vec!["train", "--wthor", data, "--out", "/nonexistent/dir/w.eval"],
        vec![
            "train",
            "--wthor",
            data,
            "--out",
            "w.eval",
            "--solved",
            "/nonexistent/dir/s.bin",
        ],
        vec![
            "book",
            "build",
            "--wthor",
            data,
            "--out",
            "/nonexistent/dir/b.book",
        ],
        vec![
            "book",
            "deepen",
            "builtin",
            "--out",
            "/nonexistent/dir/b.book",
        ],
    ] {
        let out = iago(&all);
        assert_eq!(out.status.code(), Some(2));
        let log = stderr(&out);
        assert!(
            log.starts_with("iago: error: cannot write /nonexistent/dir/")
                && log.trim_end().ends_with("no such directory")
                && log.lines().count() == 1,
            "{log}"
        );
        assert!(stdout(&out).is_empty());
    }
}

/// The rows of `iago train`'s report that give a stage (they start with its number).
fn report_stage_rows(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .collect()
}

/// The training pipeline end to end on a tiny sample (300 + 120 WTHOR games, 200 Logistello
/// games): a weight file that loads, a report line per stage, and `--eval` using the file.
#[test]
fn train_on_a_tiny_sample_and_play_with_the_weights() {
    let dir = std::env::temp_dir().join(format!("iago-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("tiny.eval");
    let solved = dir.join("tiny.solved");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let train = |solved: &std::path::Path| {
        iago(&[
            "train",
            "--wthor",
            &format!("{data}/wthor"),
            "--logistello",
            &format!("{data}/logbook-sample.gam.gz"),
            "--out",
            weights.to_str().unwrap(),
            "--max-per-stage",
            "400",
            "--max-labelled",
            "400",
            "--max-solved",
            "100",
            "--solve-max-empties",
            "12",
            "--epochs",
            "2",
            "--threads",
            "2",
            "--solved",
            solved.to_str().unwrap(),
        ])
    };
    let out = train(&solved);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("solved positions written to"),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        stderr(&out).contains("420 WTHOR games from 2 files, 200 Logistello games"),
        "{}",
        stderr(&out)
    );
    let stage_rows = report_stage_rows(&text);
    assert_eq!(stage_rows.len(), 15, "{text}");
    // Up to --solve-max-empties the solver (stages 1-4, 5-8, 9-12), then game values up to 24
    // empties (and a search for the positions without one), beyond them the bootstrapping
    // search.
    let labels: Vec<&str> = stage_rows
        .iter()
        .map(|r| {
            r.split_whitespace()
                .find(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '+'))
                .unwrap()
        })
        .collect();
    assert!(labels[..3].iter().all(|&l| l == "solved"), "{text}");
    assert!(
        labels[3..6].iter().all(|&l| l == "game+bootstrap"),
        "{text}"
    );
    assert!(labels[6..].iter().all(|&l| l == "bootstrap"), "{text}");
    let first_weights = std::fs::read(&weights).unwrap();
    assert!(text.contains("exact scores at 24 empties"), "{text}");
    // A refit of those weights beyond 24 empties: the stages from 25 empties only, labelled by
    // a selective bootstrapping search, and nothing solved.
    let refitted = dir.join("refit.eval");
    let out = iago(&[
        "train",
        "--wthor",
        &format!("{data}/wthor"),
        "--refit",
        weights.to_str().unwrap(),
        "--out",
        refitted.to_str().unwrap(),
        "--max-per-stage",
        "400",
        "--bootstrap-depth",
        "2",
        "--bootstrap-selectivity",
        "73",
        "--epochs",
        "1",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("solving"), "{}", stderr(&out));
    let refit_text = stdout(&out);
    let refit_rows = report_stage_rows(&refit_text);
    assert_eq!(refit_rows.len(), 9, "{refit_text}");
    assert!(
        refit_rows
            .iter()
            .all(|r| r.split_whitespace().nth(2) == Some("bootstrap")),
        "{refit_text}"
    );
    let out = iago(&[
        "train",
        "--wthor",
        data,
        "--out",
        "x.eval",
        "--refit-beyond",
        "30",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // A rerun takes its exact scores from the file, solves nothing, and fits every stage
    // exactly as before: the searches that label the others do not depend on which thread
    // searched what before.
    let rerun = train(&solved);
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    let log = stderr(&rerun);
    assert!(
        log.contains("solved positions from") && !log.contains("written to"),
        "{log}"
    );
    let rerun_text = stdout(&rerun);
    let rerun_rows: Vec<&str> = rerun_text.lines().skip(1).take(15).collect();
    assert_eq!(rerun_rows, stage_rows);
    assert!(std::fs::read(&weights).unwrap() == first_weights);
    // A file that is not a solved-positions file stops the run before any work.
    let out = train(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft.tsv"
    )));
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("perft.tsv") && stderr(&out).contains("not an Iago solved-positions"),
        "{}",
        stderr(&out)
    );
    let out = iago_stdin(
        &[
            "analyze",
            "-",
            "--depth",
            "3",
            "--json",
            "--eval",
            weights.to_str().unwrap(),
        ],
        "f5d6c3\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(row["depth"], 3);
    // A file that is not a weight file is refused with one line naming it.
    let out = iago(&[
        "bench",
        "--depth",
        "1",
        "--eval",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.tsv"),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("perft.tsv") && stderr(&out).contains("not an Iago evaluation file"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `iago train --label-only` split into three shards, in two passes (the positions of the
/// check depth depend on every shard's scores), their files merged with `--merge-solved`: the
/// merged file is byte-identical to the file of one process, and training from it solves
/// nothing.
#[test]
fn train_labelling_split_into_shards_merges_into_the_solved_file_of_one_run() {
    let dir = std::env::temp_dir().join(format!("iago-train-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor");
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "--wthor",
            data,
            "--max-games",
            "60",
            "--validation-years",
            "2023",
            "--solve-max-empties",
            "10",
            "--check-empties",
            "14",
            "--max-solved",
            "100",
            "--max-labelled",
            "100",
            "--max-searched",
            "100",
            "--max-per-stage",
            "100",
            "--epochs",
            "1",
            "--threads",
            "2",
        ];
        args.extend(extra);
        iago(&args)
    };
    let one = path("one.solved");
    let out = train(&["--label-only", "--solved", &one]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("shard 0/1: ")
            && text.contains(" solved now, 0 were in ")
            && text.contains("\nfinished: merge"),
        "{text}"
    );
    let shards: Vec<String> = (0..3).map(|i| path(&format!("s-{i}.solved"))).collect();
    let all = path("all.solved");
    for pass in [
        "not finished: the positions to solve at 14 empties",
        "finished: merge",
    ] {
        for (i, solved) in shards.iter().enumerate() {
            let shard = format!("{i}/3");
            let out = train(&["--label-only", "--shard", &shard, "--solved", solved]);
            assert!(out.status.success(), "{}", stderr(&out));
            assert!(stdout(&out).contains(pass), "{}", stdout(&out));
        }
        let mut merge = vec!["train", "--merge-solved"];
        merge.extend(shards.iter().map(String::as_str));
        merge.extend(["--solved", &all]);
        let out = iago(&merge);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).starts_with(&format!("wrote {all}: ")));
        for solved in &shards {
            std::fs::copy(&all, solved).unwrap();
        }
    }
    assert!(std::fs::read(&all).unwrap() == std::fs::read(&one).unwrap());
    let out = train(&["--solved", &all, "--out", &path("w.eval")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stderr(&out);
    assert!(
        log.contains("solved positions from") && !log.contains("written to"),
        "{log}"
    );
    // --label-only fits nothing: an --out is refused before any work.
    let out = train(&["--label-only", "--solved", &all, "--out", &path("x.eval")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'--label-only' cannot be used with '--out"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `iago book deepen`: a round split into three shards (`--shard I/3 --out FILE`) and merged
/// (`--merge`) writes the book of one unsharded round (`--rounds 1`) byte for byte, as every
/// position's search starts from an empty table; a shard run again resumes with nothing left,
/// and a merge short of a shard is refused.
#[test]
fn book_deepen_round_split_into_shards_merges_into_the_book_of_one_round() {
    let dir = std::env::temp_dir().join(format!("iago-deepen-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let tiny = path("tiny.book");
    let out = iago(&[
        "book",
        "build",
        "--wthor",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor/WTH_2022.wtb"),
        "--max-games",
        "100",
        "--plies",
        "8",
        "--depth",
        "3",
        "--threads",
        "2",
        "--out",
        &tiny,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let deepen = |extra: &[&str]| {
        let mut args = vec![
            "book",
            "deepen",
            &tiny,
            "--deviation",
            "4",
            "--plies",
            "12",
            "--max-new",
            "150",
        ];
        args.extend(extra);
        iago(&args)
    };
    let one = path("one.book");
    let out = deepen(&[
        "--depth",
        "8",
        "--rounds",
        "1",
        "--threads",
        "2",
        "--out",
        &one,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results: Vec<String> = (0..3).map(|i| path(&format!("r-{i}.jsonl"))).collect();
    for (i, file) in results.iter().enumerate() {
        let shard = format!("{i}/3");
        let threads = if i == 0 { "2" } else { "1" };
        let args = [
            "--depth",
            "8",
            "--threads",
            threads,
            "--shard",
            &shard,
            "--out",
            file,
        ];
        let out = deepen(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).is_empty());
        if i == 1 {
            let again = deepen(&args);
            assert!(
                stderr(&again).contains("shard 1/3: 0 positions searched"),
                "{}",
                stderr(&again)
            );
        }
    }
    let merged = path("merged.book");
    let merge = |files: &[String]| {
        let mut args = vec!["--merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--out", &merged]);
        deepen(&args)
    };
    let out = merge(&results[..2]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("positions have no result") && stderr(&out).lines().count() == 1,
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&merged).exists());
    let out = merge(&results);
    assert!(out.status.success(), "{}", stderr(&out));
    let book = std::fs::read(&merged).unwrap();
    assert!(book == std::fs::read(&one).unwrap());
    assert!(book != std::fs::read(&tiny).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `analyze --json` rows without their times, to compare two runs.
fn rows_without_times(out: &Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{}", stderr(out));
    stdout(out)
        .lines()
        .map(|l| {
            let mut row: serde_json::Value = serde_json::from_str(l).expect("a JSON row");
            row.as_object_mut().unwrap().remove("time_ms");
            row
        })
        .collect()
}

/// Engine options before the subcommand count for it, as after it; an option the subcommand
/// does not take is refused, not dropped (it used to run with the defaults and exit 0).
#[test]
fn options_before_the_subcommand_count_or_are_refused() {
    let file = "tests/data/fforum-1-19.obf";
    let first = iago(&[
        "--threads",
        "1",
        "--selectivity",
        "73",
        "analyze",
        "--depth",
        "6",
        "--json",
        file,
    ]);
    let last = iago(&[
        "analyze",
        "--depth",
        "6",
        "--json",
        file,
        "--threads",
        "1",
        "--selectivity",
        "73",
    ]);
    let rows = rows_without_times(&first);
    assert_eq!(rows.len(), 19);
    assert!(rows.iter().all(|r| r["selectivity"] == 73), "{rows:?}");
    assert_eq!(rows, rows_without_times(&last));

    let out = iago(&["--book", "/no/such/file", "perft", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("'iago perft' does not take '--book', given before it")
            && err.contains("'--book' is an option of plain iago, play, nboard, gtp"),
        "{err}"
    );
    let out = iago(&["--threads", "2", "solve", "--threads", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be used multiple times"),
        "{}",
        stderr(&out)
    );
}

/// `iago --no-book nboard` plays without its book: the start position's hints are searched.
#[test]
fn no_book_before_nboard_is_honoured() {
    let session =
        |args: &[&str]| common::piped(args, "nboard 2\nset depth 2\nhint 2\nping 1\nquit\n");
    let with_book = session(&["--threads", "1", "nboard"]);
    assert!(
        with_book.lines().any(|l| l.starts_with("book ")),
        "{with_book}"
    );
    for args in [
        ["--no-book", "--threads", "1", "nboard"],
        ["nboard", "--no-book", "--threads", "1"],
    ] {
        let text = session(&args);
        assert!(
            text.lines().any(|l| l.starts_with("search "))
                && !text.lines().any(|l| l.starts_with("book ")),
            "{args:?}: {text}"
        );
    }
}
