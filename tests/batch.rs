//! Batch work across processes, with the real binary: `solve`/`analyze --shard I/N --out FILE`
//! and `iago merge` (docs/batch.md).

use std::path::{Path, PathBuf};

mod common;

use common::{iago, stderr, stdout};

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file `name` in `dir` of the first `count` FFO-forum positions (14 empties for the first
/// seven: about a millisecond each on one thread), the fifth replaced by the first: one thread
/// that solved the first found the fifth in its own endgame table, and counted fewer nodes,
/// than one that did not (shard 0 of 3 takes the first, shard 1 the fifth).
fn positions(dir: &Path, name: &str, count: usize) -> String {
    let all: Vec<&str> = include_str!("data/fforum-1-19.obf").lines().collect();
    let text: String = (0..count)
        .map(|k| format!("{}\n", all[if k == 4 { 0 } else { k }]))
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn path_text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The span of the `time_ms` field of a JSON line, its comma included.
fn time_span(line: &str) -> std::ops::Range<usize> {
    let start = line.find("\"time_ms\":").expect("a time_ms field");
    start..start + line[start..].find(',').expect("a field after time_ms") + 1
}

/// A JSON line without its `time_ms` field, as text (the field order kept).
fn without_time(line: &str) -> String {
    let mut line = line.to_string();
    line.replace_range(time_span(&line), "");
    line
}

fn lines_without_time(text: &str) -> Vec<String> {
    text.lines().map(without_time).collect()
}

/// The `item` of every record of a file, in order.
fn items_of(text: &str) -> Vec<u64> {
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["item"].as_u64().unwrap()
        })
        .collect()
}

/// Runs `args` with `--shard I/3 --out` for each shard, one run of all with `--out`, merges the
/// shards, and checks the merge equals the one run apart from times.
fn three_shards_equal_one_run(dir: &Path, args: &[&str]) {
    let mut shards = Vec::new();
    for i in 0..3 {
        let out = dir.join(format!("shard-{i}.jsonl"));
        let shard = format!("{i}/3");
        let mut all = args.to_vec();
        all.extend(["--shard", &shard, "--out", path_text(&out), "--json"]);
        let run = iago(&all);
        assert!(run.status.success(), "{all:?}: {}", stderr(&run));
        // stdout has the rows of this shard's positions only, without the record's fields.
        let printed: Vec<u64> = stdout(&run)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                assert!(
                    v.get("item").is_none() && v.get("position").is_none(),
                    "{l}"
                );
                v["index"].as_u64().unwrap()
            })
            .collect();
        let written = std::fs::read_to_string(&out).unwrap();
        let expected: Vec<u64> = (0..7).filter(|k| k % 3 == i).collect();
        assert_eq!(items_of(&written), expected);
        assert_eq!(printed, expected.iter().map(|k| k + 1).collect::<Vec<_>>());
        shards.push(out);
    }
    let one = dir.join("one.jsonl");
    let mut all = args.to_vec();
    all.extend(["--out", path_text(&one)]);
    let run = iago(&all);
    assert!(run.status.success(), "{}", stderr(&run));
    let merged = dir.join("merged.jsonl");
    // Any order of files.
    let run = iago(&[
        "merge",
        "--out",
        path_text(&merged),
        path_text(&shards[2]),
        path_text(&shards[0]),
        path_text(&shards[1]),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stdout(&run).is_empty());
    assert_eq!(
        stderr(&run).trim(),
        "iago merge: 7 of 7 items from 3 files, 0 duplicates"
    );
    let merged = std::fs::read_to_string(&merged).unwrap();
    let one = std::fs::read_to_string(&one).unwrap();
    assert_eq!(items_of(&merged), (0..7).collect::<Vec<_>>());
    assert_eq!(lines_without_time(&merged), lines_without_time(&one));
    // The merge to stdout is the same.
    let run = iago(&[
        "merge",
        path_text(&shards[1]),
        path_text(&shards[0]),
        path_text(&shards[2]),
    ]);
    assert_eq!(stdout(&run), merged);
}

#[test]
fn three_shards_of_a_solve_merge_into_one_run() {
    let dir = scratch("solve");
    let file = positions(&dir, "p.obf", 7);
    three_shards_equal_one_run(&dir, &["solve", &file, "--threads", "1", "--hash", "8"]);
    let record = std::fs::read_to_string(dir.join("one.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(record.lines().next().unwrap()).unwrap();
    assert_eq!(first["index"], 1);
    assert_eq!(first["best_move"], "g8");
    assert_eq!(first["score"], 18);
    assert_eq!(first["item"], 0);
    assert_eq!(first["items"], 7);
    assert_eq!(first["work"], "solve exact othello");
    assert_eq!(
        first["position"],
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn three_shards_of_an_analysis_merge_into_one_run() {
    let dir = scratch("analyze");
    let file = positions(&dir, "p.obf", 7);
    three_shards_equal_one_run(
        &dir,
        &[
            "analyze",
            &file,
            "--depth",
            "6",
            "--threads",
            "1",
            "--hash",
            "8",
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_shard_resumes_without_redoing_its_results() {
    let dir = scratch("resume");
    let file = positions(&dir, "p.obf", 7);
    let full = dir.join("full.jsonl");
    let solve = |out: &Path| {
        iago(&[
            "solve",
            &file,
            "--threads",
            "1",
            "--hash",
            "8",
            "--out",
            path_text(out),
        ])
    };
    assert!(solve(&full).status.success());
    let full_text = std::fs::read_to_string(&full).unwrap();
    // What a kill while writing the fourth record leaves: three records (their times marked,
    // so that one solved again would show) and half a line.
    let lines: Vec<&str> = full_text.lines().collect();
    let mut kept = String::new();
    for line in &lines[..3] {
        let mut marked = line.to_string();
        marked.replace_range(time_span(line), "\"time_ms\":-1.0,");
        kept.push_str(&marked);
        kept.push('\n');
    }
    let killed = dir.join("killed.jsonl");
    std::fs::write(&killed, format!("{kept}{}", &lines[3][..40])).unwrap();
    let run = solve(&killed);
    assert!(run.status.success(), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.contains("3 of the 7 positions of shard 0/1 are done already, skipped; 4 to run"),
        "{err}"
    );
    assert!(err.contains("dropped an unfinished last line"), "{err}");
    // Only the four positions left were solved and printed.
    let printed = stdout(&run);
    let table: Vec<&str> = printed.lines().filter(|l| l.contains(" ok ")).collect();
    assert_eq!(table.len(), 4, "{printed}");
    assert!(table[0].trim_start().starts_with("4 "), "{}", table[0]);
    let resumed = std::fs::read_to_string(&killed).unwrap();
    assert!(resumed.starts_with(&kept), "{resumed}");
    assert_eq!(resumed.matches("\"time_ms\":-1.0").count(), 3);
    assert_eq!(lines_without_time(&resumed), lines_without_time(&full_text));
    // Done: a third run solves nothing and leaves the file alone.
    let run = solve(&killed);
    assert!(run.status.success());
    assert!(
        stderr(&run).contains("7 of the 7 positions"),
        "{}",
        stderr(&run)
    );
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), resumed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_results_file_of_other_work_is_refused() {
    let dir = scratch("other");
    let file = positions(&dir, "p.obf", 3);
    let out = dir.join("out.jsonl");
    let out_text = path_text(&out);
    let run = iago(&["solve", &file, "--threads", "1", "--out", out_text]);
    assert!(run.status.success());
    let before = std::fs::read_to_string(&out).unwrap();
    // Other positions, the same count.
    let other = dir.join("other.obf");
    let text: String = include_str!("data/fforum-1-19.obf")
        .lines()
        .skip(3)
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&other, text).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["solve", path_text(&other), "--out", out_text],
            "work item 0 is --XXXXX--OOOXX-O",
        ),
        (
            &["solve", &file, "--wld", "--out", out_text],
            "'solve wld othello'",
        ),
        (
            &["analyze", &file, "--depth", "4", "--out", out_text],
            "not of this run ('analyze depth 4 selectivity 95 eval embedded othello' over 3 items)",
        ),
        (
            &["solve", &positions(&dir, "four.obf", 4), "--out", out_text],
            "over 4 items",
        ),
    ];
    for (args, message) in cases {
        let run = iago(args);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(stdout(&run).is_empty(), "{args:?}: {}", stdout(&run));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_shards_are_refused_before_any_work() {
    let cases = [
        ("3/3", "the index counts from 0 and must be below 3"),
        ("0/0", "N must be at least 1"),
        ("1", "a shard is written I/N"),
        ("-1/2", "a shard is written I/N"),
        ("a/b", "a shard is written I/N"),
        ("", "a shard is written I/N"),
    ];
    for (shard, message) in cases {
        for command in [&["solve"][..], &["analyze", "--depth", "2"]] {
            let mut args: Vec<String> = command.iter().map(|a| a.to_string()).collect();
            args.push(format!("--shard={shard}"));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = iago(&args);
            let err = stderr(&run);
            assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
            assert!(stdout(&run).is_empty(), "{args:?}");
            // One line says what is wrong (clap adds its pointer to --help).
            let first = err.lines().next().unwrap_or("");
            assert!(first.contains(message), "{args:?}: {err}");
            assert!(first.contains("--shard"), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

/// A shard whose position disagrees with its annotation fails (exit 2), its results are kept,
/// and a rerun that skips the failed position fails too.
#[test]
fn a_shard_with_a_wrong_annotation_fails_also_when_resumed() {
    let dir = scratch("fail");
    let good = include_str!("data/fforum-1-19.obf");
    let mut lines: Vec<String> = good.lines().take(4).map(str::to_string).collect();
    lines[1] = lines[1].replacen("A4:+10", "A4:+12", 1);
    let file = dir.join("wrong.obf");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let file = path_text(&file);
    let shard = |i: usize| {
        let out = dir.join(format!("s{i}.jsonl"));
        let shard = format!("{i}/2");
        iago(&[
            "solve",
            file,
            "--threads",
            "1",
            "--shard",
            &shard,
            "--out",
            path_text(&out),
        ])
    };
    assert!(shard(0).status.success());
    for _ in 0..2 {
        let run = shard(1);
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(
            stderr(&run).contains("1 position(s) disagree with their annotations"),
            "{}",
            stderr(&run)
        );
    }
    let merged = iago(&[
        "merge",
        path_text(&dir.join("s0.jsonl")),
        path_text(&dir.join("s1.jsonl")),
    ]);
    assert!(merged.status.success());
    assert_eq!(stdout(&merged).matches("\"ok\":false").count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_missing_items_unless_partial() {
    let dir = scratch("missing");
    let file = positions(&dir, "p.obf", 5);
    let shard = |i: usize| {
        let out = dir.join(format!("s{i}.jsonl"));
        let shard = format!("{i}/3");
        let run = iago(&[
            "solve",
            &file,
            "--threads",
            "1",
            "--shard",
            &shard,
            "--out",
            path_text(&out),
        ]);
        assert!(run.status.success());
        out
    };
    let (s0, s2) = (shard(0), shard(2));
    let run = iago(&["merge", path_text(&s0), path_text(&s2)]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stdout(&run).is_empty());
    let err = stderr(&run);
    assert!(
        err.contains("2 of 5 work items have no result (the first: item 1, counted from 0)"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // --partial: what there is, in order; a shard named twice counts once.
    let run = iago(&[
        "merge",
        "--partial",
        path_text(&s2),
        path_text(&s0),
        path_text(&s0),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(items_of(&stdout(&run)), [0, 2, 3]);
    assert_eq!(
        stderr(&run).trim(),
        "iago merge: 3 of 5 items from 3 files, 2 duplicates, 2 missing (--partial)"
    );
    // A file of another input, and one that is no result file.
    let other = dir.join("other.jsonl");
    let other_file = positions(&dir, "six.obf", 6);
    assert!(
        iago(&[
            "solve",
            &other_file,
            "--threads",
            "1",
            "--out",
            path_text(&other)
        ])
        .status
        .success()
    );
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, "{\"index\":1}\nnot json\n").unwrap();
    let chunk = dir.join("chunk.bin");
    std::fs::write(&chunk, b"IAGODATA\x01\x00\x00\x00").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &[path_text(&s0), path_text(&other)],
            "disagree on the number of items",
        ),
        (&[path_text(&broken)], "line 1: not a result record"),
        (&[path_text(&chunk)], "self-play chunk"),
        (
            &[path_text(&s0), path_text(&chunk)],
            "merge each kind on its own",
        ),
    ];
    for (files, message) in cases {
        let mut args = vec!["merge"];
        args.extend(files);
        let run = iago(&args);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
