//! `iago tournament` through the real binary: a tiny three-engine round robin, its standings as
//! JSON and text, the GGF file, and command-line errors.

use std::path::PathBuf;
use std::process::Command;

use iago::records::ggf::GgfGame;

const IAGO: &str = env!("CARGO_BIN_EXE_iago");

/// Two short openings; one round of each pairing uses the first.
const OPENINGS: &str = "# two XOT-like lines\nf5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-tournament-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tournament(extra: &[&str], openings: &PathBuf) -> std::process::Output {
    Command::new(IAGO)
        .arg("tournament")
        .args(["--engine", "iago,depth=1"])
        .args(["--engine", "iago,depth=2"])
        .args(["--engine", "iago,depth=3"])
        .arg("--openings")
        .arg(openings)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn three_engines_one_round() {
    let dir = scratch("three");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, OPENINGS).unwrap();
    let ggf = dir.join("games.ggf");
    let _ = std::fs::remove_file(&ggf);
    let ggf_text = ggf.to_str().unwrap().to_string();
    let out = tournament(
        &[
            "--rounds",
            "1",
            "--concurrency",
            "2",
            "--ggf",
            &ggf_text,
            "--json",
        ],
        &openings,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["rounds"], 1);
    assert_eq!(json["games_per_engine"], 4);
    assert_eq!(json["brightwell_c"], 16);
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    let mut names: Vec<&str> = standings
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Iago-d1", "Iago-d2", "Iago-d3"]);
    let points: Vec<f64> = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .collect();
    assert_eq!(points.iter().sum::<f64>(), 6.0);
    let discs: u64 = standings.iter().map(|s| s["discs"].as_u64().unwrap()).sum();
    assert_eq!(discs, 6 * 64);
    for (rank, s) in standings.iter().enumerate() {
        assert_eq!(s["rank"], rank + 1);
        assert_eq!(s["games"], 4);
        let (w, d, l) = (
            s["wins"].as_f64().unwrap(),
            s["draws"].as_f64().unwrap(),
            s["losses"].as_f64().unwrap(),
        );
        assert_eq!(w + d + l, 4.0);
        assert_eq!(s["points"].as_f64().unwrap(), w + d / 2.0);
    }
    // Ranked by points, then the Brightwell quotient.
    for pair in standings.windows(2) {
        let key = |s: &serde_json::Value| {
            (
                s["points"].as_f64().unwrap(),
                s["brightwell"].as_f64().unwrap(),
            )
        };
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a.0 > b.0 || (a.0 == b.0 && a.1 >= b.1), "{stdout}");
    }
    // The Brightwell quotient from the pairings: disc total + c × the opponents' points.
    let by_name = |n: &str| {
        standings
            .iter()
            .find(|s| s["name"] == n)
            .map(|s| s["points"].as_f64().unwrap())
            .unwrap()
    };
    for s in standings {
        let me = s["name"].as_str().unwrap();
        let opponents: f64 = names
            .iter()
            .filter(|n| **n != me)
            .map(|n| 2.0 * by_name(n))
            .sum();
        let expected = s["discs"].as_f64().unwrap() + 16.0 * opponents;
        assert_eq!(s["brightwell"].as_f64().unwrap(), expected, "{stdout}");
    }
    assert_eq!(json["pairings"].as_array().unwrap().len(), 3);
    // Six games as GGF, each a legal game played to the end from the first opening.
    let text = std::fs::read_to_string(&ggf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    for line in lines {
        let game = GgfGame::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let played = game.game().unwrap();
        assert!(played.is_over(), "{line}");
        assert!(played.transcript(false).starts_with("f5d6c4d3c2b3b4b5"));
    }

    // The text table.
    let out = tournament(&["--rounds", "1"], &openings);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Brightwell"), "{stdout}");
    assert!(stdout.contains("Rank"), "{stdout}");
    for name in ["Iago-d1", "Iago-d2", "Iago-d3"] {
        assert!(stdout.contains(name), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_errors() {
    let one = Command::new(IAGO)
        .args(["tournament", "--engine", "iago,depth=1", "--rounds", "1"])
        .output()
        .unwrap();
    assert!(!one.status.success());
    assert!(
        String::from_utf8_lossy(&one.stderr).contains("at least two"),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let same = Command::new(IAGO)
        .args(["tournament", "--engine", "name=A,iago,depth=1"])
        .args(["--engine", "name=A,iago,depth=2", "--rounds", "1"])
        .output()
        .unwrap();
    assert!(!same.status.success());
    assert!(String::from_utf8_lossy(&same.stderr).contains("named A"));
    let missing = Command::new(IAGO)
        .args([
            "tournament",
            "--engine",
            "iago,depth=1",
            "--engine",
            "iago,depth=2",
        ])
        .args(["--openings", "/no/such/file"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read openings"));
}
