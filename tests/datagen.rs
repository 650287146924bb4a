//! `iago datagen` and `iago train --data`, the real binary: chunks written, a run resumed,
//! settings that do not match refused, bad arguments refused with exit code 2.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

use common::{iago, stderr, stdout};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Tiny settings: 4 games in 2 chunks, shallow searches, the solver from 10 empties.
fn datagen(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "4",
        "--games-per-chunk",
        "2",
        "--depth",
        "2",
        "--label-depth",
        "3",
        "--exact-empties",
        "10",
        "--threads",
        "2",
    ];
    args.extend_from_slice(extra);
    iago(&args)
}

/// One error line on stderr, `iago: error: …`, exit status 2, nothing on stdout.
fn assert_one_line_error(out: &Output, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("iago: error: ") && err.contains(message),
        "{message}: {err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(stdout(out).is_empty());
}

#[test]
fn datagen_writes_chunks_resumes_and_refuses_other_settings() {
    let dir = temp_dir("datagen-cli");
    let out = datagen(&dir, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "shard 0/1: 2 chunks (0 already done, 0 made again, 2 written), 4 games, "
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);
    let names: Vec<String> = {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names, ["chunk-000000.iagodata", "chunk-000001.iagodata"]);
    let bytes = std::fs::read(dir.join(&names[1])).unwrap();
    assert_eq!(&bytes[..8], b"IAGODATA");
    assert_eq!(u64::from_le_bytes(bytes[32..40].try_into().unwrap()), 2);
    // A rerun finds both chunks done.
    let again = datagen(&dir, &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("2 chunks (2 already done, 0 made again, 0 written), 0 games"),
        "{}",
        stdout(&again)
    );
    // A damaged chunk is reported on one line and made again, the same as before.
    let mut damaged = bytes.clone();
    damaged[200] ^= 1;
    std::fs::write(dir.join(&names[1]), damaged).unwrap();
    let again = datagen(&dir, &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    let log = stderr(&again);
    assert!(
        log.contains("chunk-000001.iagodata: data chunk damaged") && log.lines().count() == 1,
        "{log}"
    );
    assert!(stdout(&again).contains("(1 already done, 1 made again, 1 written)"));
    assert_eq!(std::fs::read(dir.join(&names[1])).unwrap(), bytes);
    // Other settings in the same directory: refused before any game.
    assert_one_line_error(
        &datagen(&dir, &["--seed", "2"]),
        "chunk-000000.iagodata was made with other settings",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn datagen_refuses_bad_arguments() {
    let dir = temp_dir("datagen-bad");
    let file = dir.join("file");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&file, "x").unwrap();
    assert_one_line_error(
        &datagen(&dir, &["--rules", "6x6"]),
        "datagen plays standard 8x8 Othello only",
    );
    assert_one_line_error(&datagen(&file, &[]), "not a directory");
    assert_one_line_error(
        &datagen(&dir, &["--openings", "/nonexistent/xot.txt"]),
        "cannot read openings /nonexistent/xot.txt",
    );
    std::fs::write(dir.join("bad.txt"), "f5 d6 a1\n").unwrap();
    assert_one_line_error(
        &datagen(&dir, &["--openings", dir.join("bad.txt").to_str().unwrap()]),
        "line 1: move 3 (a1) by Black is illegal",
    );
    // Values the argument parser refuses (exit 2, with a usage hint).
    for (args, message) in [
        (&["--softmax", "0"][..], "expected a positive temperature"),
        (&["--softmax-depth", "3"], "--softmax <T>"),
        (&["--softmax", "1", "--softmax-depth", "1"], "2..=10"),
        (&["--time", "1"], "cannot be used with"),
        (&["--shard", "3/3"], "must be below 3"),
        (&["--games-per-chunk", "0"], "--games-per-chunk"),
        (&["--random-moves", "61"], "0..=60"),
    ] {
        let out = datagen(&dir, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = iago(&["datagen", "--out", dir.to_str().unwrap(), "--games", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--games"), "{}", stderr(&out));
    // Nothing was generated.
    assert!(!dir.join("chunk-000000.iagodata").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// `iago train --data` takes self-play chunks beside the archives: their search labels show
/// as `self-play` samples; a directory without chunks is refused.
#[test]
fn train_reads_self_play_data() {
    let dir = temp_dir("datagen-train");
    let chunks = dir.join("chunks");
    let out = datagen(&chunks, &["--random-moves", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor");
    let weights = dir.join("w.eval");
    let train = |data_path: &Path| {
        iago(&[
            "train",
            "--wthor",
            data,
            "--out",
            weights.to_str().unwrap(),
            "--max-games",
            "40",
            "--max-per-stage",
            "200",
            "--max-labelled",
            "200",
            "--max-solved",
            "50",
            "--solve-max-empties",
            "10",
            "--check-empties",
            "0",
            "--epochs",
            "1",
            "--threads",
            "2",
            "--data",
            data_path.to_str().unwrap(),
        ])
    };
    let out = train(&chunks);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stderr(&out);
    assert!(
        log.contains("self-play records from 1 data path(s)") && log.contains("self-play data: "),
        "{log}"
    );
    let text = stdout(&out);
    let with_data = text
        .lines()
        .filter(|l| l.contains("bootstrap+self-play"))
        .count();
    assert!(with_data >= 5, "{text}");
    assert!(weights.exists());
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = train(&empty);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("no data chunks (*.iagodata) in it") && err.trim_end().lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Two shards of a run write the chunk files of one run, byte for byte, and `iago merge`
/// joins the shards' directories into the merged chunks of the one run's directory.
#[test]
fn shards_write_one_runs_chunks_and_merge_into_its_merge() {
    let dir = temp_dir("datagen-shards");
    let one = dir.join("one");
    let shards = [dir.join("shard-0"), dir.join("shard-1")];
    assert!(datagen(&one, &[]).status.success());
    for (i, shard) in shards.iter().enumerate() {
        let run = datagen(shard, &["--shard", &format!("{i}/2")]);
        assert!(run.status.success(), "{}", stderr(&run));
    }
    let files = |d: &Path| {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let mut sharded = files(&shards[0]);
    sharded.extend(files(&shards[1]));
    sharded.sort();
    assert_eq!(sharded, files(&one));
    let merge = |inputs: &[&Path], out: &Path| {
        let mut args = vec!["merge", "--out", out.to_str().unwrap()];
        args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
        iago(&args)
    };
    let merged_one = dir.join("merged-one");
    let merged_shards = dir.join("merged-shards");
    let run = merge(&[&one], &merged_one);
    assert!(run.status.success(), "{}", stderr(&run));
    let summary = stderr(&run);
    assert!(
        summary.starts_with("iago merge: ") && summary.contains("records from 2 chunk files"),
        "{summary}"
    );
    let run = merge(&[&shards[1], &shards[0]], &merged_shards);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(!files(&merged_one).is_empty());
    assert_eq!(files(&merged_one), files(&merged_shards));
    // Merging again into a directory that holds chunks: refused; and a chunk needs --out.
    let again = merge(&[&one], &merged_one);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert_eq!(stderr(&again).trim_end().lines().count(), 1);
    assert_one_line_error(&iago(&["merge", one.to_str().unwrap()]), "--out DIR");
    std::fs::remove_dir_all(dir).unwrap();
}
