//! The match runner against real processes, through `iago match`: the `iago` binary as an NBoard
//! and a GTP engine, engines that crash, play illegal moves or never answer, clocks, and the
//! command line's errors. Every game's GGF record is read back and replayed.

use std::path::{Path, PathBuf};
use std::process::Command;

use iago::board::{Color, Game, Position, Rules};
use iago::records::ggf::GgfGame;
use serde_json::Value;

const IAGO: &str = env!("CARGO_BIN_EXE_iago");

/// Two short openings (a round plays one twice).
const OPENINGS: &str = "# two XOT-like lines\nf5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n";

/// A scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-match-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What `iago match` reported: its JSON summary and the games of its GGF file.
struct Report {
    json: Value,
    games: Vec<GgfGame>,
}

/// Runs `iago match --engine FIRST --engine SECOND` over [`OPENINGS`] with `args` added, in
/// `dir` (also its working directory); the match must succeed.
fn run_match(dir: &Path, first: &str, second: &str, args: &[&str]) -> Report {
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, OPENINGS).unwrap();
    let ggf = dir.join("games.ggf");
    let _ = std::fs::remove_file(&ggf);
    let output = Command::new(IAGO)
        .current_dir(dir)
        .args(["match", "--engine", first, "--engine", second, "--json"])
        .args(args)
        .arg("--openings")
        .arg(&openings)
        .arg("--ggf")
        .arg(&ggf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert!(!text.contains("\n\n"));
    let games = text
        .lines()
        .map(|line| GgfGame::parse(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    Report { json, games }
}

/// The GGF record of the game the JSON `result` describes (games are told apart by their
/// players and opening).
fn record<'a>(report: &'a Report, result: &Value) -> &'a GgfGame {
    let opening = result["opening"].as_str().unwrap();
    report
        .games
        .iter()
        .find(|g| {
            g.tag("PB") == result["black"].as_str()
                && g.tag("PW") == result["white"].as_str()
                && g.game().unwrap().transcript(false).starts_with(opening)
        })
        .unwrap_or_else(|| panic!("no GGF record for {result}"))
}

/// The moves of an opening transcript.
fn opening_moves(result: &Value) -> usize {
    let opening = result["opening"].as_str().unwrap();
    Game::from_transcript(Rules::OTHELLO, Position::start(), opening)
        .unwrap()
        .moves()
        .len()
}

/// Every game scheduled was played to its end without forfeit; its GGF record names the
/// players, the board and the result, replays legally to the recorded score, and the engines'
/// moves carry their times.
fn check_complete_and_legal(report: &Report) {
    let json = &report.json;
    assert_eq!(json["games"], json["scheduled"]);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len() as u64, json["games"].as_u64().unwrap());
    assert_eq!(report.games.len(), results.len());
    for side in json["forfeits"].as_array().unwrap() {
        for (reason, count) in side.as_object().unwrap() {
            assert_eq!(count, 0, "{reason}: {json}");
        }
    }
    for result in results {
        assert_eq!(result["termination"], "normal", "{result}");
        let ggf = record(report, result);
        assert_eq!(ggf.tag("TY"), Some("8"));
        assert_eq!(ggf.tag("RE"), result["result"].as_str());
        let game = ggf.game().unwrap();
        assert!(game.is_over(), "{result}");
        assert_eq!(
            i64::from(game.position().final_score_for_black()),
            result["score_for_black"].as_i64().unwrap()
        );
        for (_, item) in &ggf.moves[opening_moves(result)..] {
            assert!(item.mv.is_pass() || item.time.is_some(), "{result}");
        }
    }
}

#[test]
fn against_iago_over_nboard() {
    let dir = scratch("nboard");
    let engine =
        format!("name=IagoNBoard,cmd={IAGO} nboard --threads 1 --no-book --hash 4,depth=1");
    let report = run_match(&dir, "iago,depth=2", &engine, &["--rounds", "2"]);
    assert_eq!(report.json["games"], 4);
    check_complete_and_legal(&report);
    // NBoard replies carry evaluations.
    let result = &report.json["results"][0];
    let ggf = record(&report, result);
    assert!(
        ggf.moves[opening_moves(result)..]
            .iter()
            .any(|(_, m)| m.eval.is_some())
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn against_iago_over_gtp() {
    let dir = scratch("gtp");
    let engine =
        format!("name=IagoGTP,cmd={IAGO} gtp --threads 1 --no-book --hash 4 --depth 2,proto=gtp");
    let args = ["--rounds", "2", "--concurrency", "2"];
    let report = run_match(&dir, "iago,depth=1", &engine, &args);
    assert_eq!(report.json["games"], 4);
    check_complete_and_legal(&report);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn clocks_over_gtp_and_in_process() {
    let dir = scratch("clocks");
    let engine =
        format!("name=IagoGTP,cmd={IAGO} gtp --threads 1 --no-book --hash 4,proto=gtp,tc=1+0.05");
    // A loaded machine may be slow to switch processes; the engines keep far inside this.
    let args = ["--rounds", "1", "--time-margin", "1"];
    let report = run_match(&dir, "iago,tc=1+0.05", &engine, &args);
    check_complete_and_legal(&report);
    for ggf in &report.games {
        assert_eq!(ggf.tag("TI"), Some("0:01/0:00.05/0:00"));
        for color in [Color::Black, Color::White] {
            let moves = ggf
                .moves
                .iter()
                .filter(|(c, m)| *c == color && m.time.is_some())
                .count() as f64;
            let used = ggf.time_used(color).as_secs_f64();
            assert!(used <= 1.0 + 0.05 * moves + 1.0, "{color} used {used} s");
        }
    }
    // The summary's time: each engine's own moves, as the GGF records them (in centiseconds),
    // and its share of the clock.
    let json = &report.json;
    for (i, name) in json["engines"].as_array().unwrap().iter().enumerate() {
        let time = &json["time"][i];
        let (mut seconds, mut moves, mut clock) = (0.0, 0.0, 0.0);
        for result in json["results"].as_array().unwrap() {
            let ggf = record(&report, result);
            let color = if result["black"] == *name {
                Color::Black
            } else {
                Color::White
            };
            seconds += ggf.time_used(color).as_secs_f64();
            let own = ggf
                .moves
                .iter()
                .filter(|(c, m)| *c == color && m.time.is_some());
            let n = own.count() as f64;
            moves += n;
            clock += 1.0 + 0.05 * n;
        }
        let per_game = time["seconds_per_game"].as_f64().unwrap();
        let games = json["games"].as_f64().unwrap();
        assert!(
            (per_game * games - seconds).abs() <= 0.005 * moves + 1e-9,
            "{time}"
        );
        let ms = time["ms_per_move"].as_f64().unwrap();
        assert!(
            (ms * moves / 1000.0 - per_game * games).abs() < 1e-6,
            "{time}"
        );
        let share = time["clock_share"].as_f64().unwrap();
        assert!((share * clock - per_game * games).abs() < 1e-6, "{time}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The games of a match that `Fake` (the second engine) forfeits, each for `reason` with a
/// message containing `needle`; the first engine wins them all.
fn check_forfeits(report: &Report, reason: &str, needle: &str, games: u64) {
    let json = &report.json;
    assert_eq!(json["games"], games, "{json}");
    assert_eq!(json["wins"], games, "{json}");
    assert_eq!(json["forfeits"][1][reason], games, "{json}");
    for (key, count) in json["forfeits"][0].as_object().unwrap() {
        assert_eq!(count, 0, "{key}: {json}");
    }
    for result in json["results"].as_array().unwrap() {
        assert_eq!(result["termination"], reason, "{result}");
        let message = result["message"].as_str().unwrap();
        assert!(message.contains(needle), "{reason}: {message}");
        let loser_is_black = result["black"] != json["engines"][0];
        let score = result["score_for_black"].as_i64().unwrap();
        assert_eq!(score < 0, loser_is_black, "{result}");
        // The record of a forfeited game still reads back, with its result.
        let ggf = record(report, result);
        assert_eq!(ggf.tag("RE"), result["result"].as_str());
        ggf.game().unwrap();
    }
}

#[test]
fn a_crashing_engine_loses_every_game_and_the_match_goes_on() {
    let dir = scratch("crash");
    for proto in ["nboard", "gtp"] {
        let engine = format!("name=Crash,cmd=false,proto={proto},depth=1");
        let report = run_match(&dir, "iago,depth=1", &engine, &["--rounds", "2"]);
        check_forfeits(&report, "crash", "at the start", 4);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_relative_program_runs_in_a_relative_directory() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("relative");
    std::fs::create_dir_all(dir.join("engines")).unwrap();
    let script = dir.join("engines/crash.sh");
    std::fs::write(&script, "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // `./crash.sh` in `engines`, both relative to the match's working directory: it starts
    // (and crashes), rather than the match failing to find it.
    let engine = "name=Crash,cmd=./crash.sh,dir=engines,depth=1";
    let report = run_match(&dir, "iago,depth=1", engine, &["--rounds", "1"]);
    check_forfeits(&report, "crash", "at the start", 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// A fake NBoard engine: answers `ping` and replies `reply` to `go` (nothing when empty).
fn fake_nboard(dir: &Path, name: &str, reply: &str) -> PathBuf {
    let path = dir.join(name);
    let go = if reply.is_empty() {
        ":".to_string()
    } else {
        format!("echo '{reply}'")
    };
    let script = format!(
        "while read -r cmd arg rest; do\n  case \"$cmd\" in\n    ping) echo \"pong $arg\" ;;\n    go) {go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
fn illegal_moves_bad_replies_and_silence_lose() {
    let dir = scratch("fakes");
    let cases = [
        ("illegal.sh", "=== A1/0.00/0.01", "illegal", "A1"),
        ("garbage.sh", "=== Z9", "protocol", "unreadable reply"),
        ("silent.sh", "", "time", "move timeout"),
    ];
    for (name, reply, reason, needle) in cases {
        let script = fake_nboard(&dir, name, reply);
        let engine = format!("name=Fake,cmd=sh {},depth=1", script.display());
        let args = ["--rounds", "1", "--move-timeout", "0.5"];
        let report = run_match(&dir, "iago,depth=1", &engine, &args);
        check_forfeits(&report, reason, needle, 2);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn command_line_json_and_ggf() {
    let dir = scratch("cli");
    let engine = format!("name=NB,cmd={IAGO} nboard --threads 1 --no-book --hash 4");
    let args = ["--depth", "2", "--rounds", "2", "--concurrency", "2"];
    let report = run_match(&dir, "iago,depth=1", &engine, &args);
    let json = &report.json;
    assert_eq!(json["games"], 4);
    assert_eq!(json["engines"][1], "NB");
    assert_eq!(json["limits"][1], "depth 2");
    assert_eq!(json["forfeits"][1]["crash"], 0);
    assert_eq!(json["results"].as_array().unwrap().len(), 4);
    assert!(json["results"][0]["termination"] == "normal");
    assert_eq!(report.games.len(), 4);
    for ggf in &report.games {
        assert!(ggf.game().unwrap().is_over());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn command_line_errors_are_one_line() {
    for args in [
        vec!["--engine", "iago,depth=1", "--engine", "bogus"],
        vec!["--engine", "iago,depth=1"],
        vec![
            "--engine",
            "iago,depth=1",
            "--engine",
            "iago,depth=2",
            "--openings",
            "/no/such/file",
        ],
        vec![
            "--engine",
            "iago,depth=1",
            "--engine",
            "cmd=/no/such/engine,depth=1",
        ],
    ] {
        let output = Command::new(IAGO)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        assert!(errors[0].starts_with("iago: error: "), "{stderr}");
    }
}
