//! The match runner against real processes: the `iago` binary as an NBoard and a GTP engine,
//! engines that crash, play illegal moves or never answer, and the `iago match` command line.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use iago::board::Color;
use iago::matchrun::game::{Forfeit, GameRecord, Outcome};
use iago::matchrun::openings::parse_openings;
use iago::matchrun::spec::{EngineSpec, Limit};
use iago::matchrun::{Forfeits, MatchConfig, MatchReport, play_match};
use iago::protocol::ggf::GgfGame;

const IAGO: &str = env!("CARGO_BIN_EXE_iago");

/// Two short openings (a round plays one twice).
const OPENINGS: &str = "# two XOT-like lines\nf5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n";

fn spec(text: &str) -> EngineSpec {
    EngineSpec::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn config(first: &str, second: &str, rounds: usize) -> MatchConfig {
    let mut config = MatchConfig::new([spec(first), spec(second)], Limit::default(), rounds);
    config.openings = parse_openings(OPENINGS, "test").unwrap();
    config
}

/// A scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-match-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every game: written as GGF, read back, replayed legally to the end with the recorded score.
fn check_complete_and_legal(report: &MatchReport) {
    assert_eq!(report.games.len(), report.scheduled);
    for g in &report.games {
        assert!(
            matches!(g.outcome, Outcome::Finished { .. }),
            "game {}: {:?}",
            g.index + 1,
            g.outcome
        );
        check_ggf(g);
    }
    assert_eq!(report.forfeits, [Forfeits::default(); 2]);
}

fn check_ggf(g: &GameRecord) {
    let text = g.to_ggf().to_string();
    assert!(!text.contains('\n'));
    let ggf = GgfGame::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(ggf.tag("PB"), Some(g.names[0].as_str()));
    assert_eq!(ggf.tag("PW"), Some(g.names[1].as_str()));
    assert_eq!(ggf.tag("TY"), Some("8"));
    assert_eq!(ggf.tag("RE"), Some(g.result_text().as_str()));
    let game = ggf.game().unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(game.transcript(false).starts_with(&g.opening.transcript));
    if let Outcome::Finished { score_for_black } = g.outcome {
        assert!(game.is_over(), "{text}");
        assert_eq!(game.position().final_score_for_black(), score_for_black);
    }
    // The engines' moves carry their times.
    let opening_moves = g.opening.game.moves().len();
    for (_, item) in &ggf.moves[opening_moves..] {
        assert!(item.mv.is_pass() || item.time.is_some(), "{text}");
    }
}

#[test]
fn against_iago_over_nboard() {
    let report = play_match(
        &config(
            "iago,depth=2",
            &format!("name=IagoNBoard,cmd={IAGO} nboard --threads 1 --no-book --hash 4,depth=1"),
            2,
        ),
        &|_, _| {},
    )
    .unwrap();
    check_complete_and_legal(&report);
    // NBoard replies carry evaluations.
    let g = &report.games[0];
    let opening_moves = g.opening.game.moves().len();
    assert!(
        g.moves[opening_moves..]
            .iter()
            .any(|(_, m)| m.eval.is_some())
    );
}

#[test]
fn against_iago_over_gtp() {
    let mut config = config(
        "iago,depth=1",
        &format!("name=IagoGTP,cmd={IAGO} gtp --threads 1 --no-book --hash 4 --depth 2,proto=gtp"),
        2,
    );
    config.concurrency = 2;
    let report = play_match(&config, &|_, _| {}).unwrap();
    check_complete_and_legal(&report);
}

#[test]
fn clocks_over_gtp_and_in_process() {
    let mut config = config(
        "iago,tc=1+0.05",
        &format!("name=IagoGTP,cmd={IAGO} gtp --threads 1 --no-book --hash 4,proto=gtp,tc=1+0.05"),
        1,
    );
    // A loaded machine may be slow to switch processes; the engines keep far inside this.
    config.time_margin = Duration::from_secs(1);
    let report = play_match(&config, &|_, _| {}).unwrap();
    check_complete_and_legal(&report);
    for g in &report.games {
        let ggf = GgfGame::parse(&g.to_ggf().to_string()).unwrap();
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
}

#[test]
fn a_crashing_engine_loses_every_game_and_the_match_goes_on() {
    for proto in ["nboard", "gtp"] {
        let report = play_match(
            &config(
                "iago,depth=1",
                &format!("name=Crash,cmd=false,proto={proto},depth=1"),
                2,
            ),
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(report.games.len(), 4, "{proto}");
        assert_eq!(report.tally.wins, 4, "{proto}");
        assert_eq!(report.forfeits[1].crash, 4, "{proto}");
        assert_eq!(report.forfeits[0], Default::default());
        for g in &report.games {
            let Outcome::Forfeited {
                loser,
                reason,
                message,
            } = &g.outcome
            else {
                panic!("{:?}", g.outcome)
            };
            assert_eq!(*reason, Forfeit::Crash);
            assert_eq!(g.names[if *loser == Color::Black { 0 } else { 1 }], "Crash");
            assert!(message.starts_with("at the start"), "{message}");
            check_ggf(g);
        }
    }
}

/// A fake NBoard engine: answers `ping` and replies `reply` to `go` (nothing when empty).
fn fake_nboard(dir: &std::path::Path, name: &str, reply: &str) -> PathBuf {
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
        ("illegal.sh", "=== A1/0.00/0.01", Forfeit::Illegal, "A1"),
        (
            "garbage.sh",
            "=== Z9",
            Forfeit::Protocol,
            "unreadable reply",
        ),
        ("silent.sh", "", Forfeit::Time, "move timeout"),
    ];
    for (name, reply, reason, needle) in cases {
        let script = fake_nboard(&dir, name, reply);
        let mut config = config(
            "iago,depth=1",
            &format!("name=Fake,cmd=sh {},depth=1", script.display()),
            1,
        );
        config.move_timeout = Duration::from_millis(500);
        let report = play_match(&config, &|_, _| {}).unwrap();
        assert_eq!(report.games.len(), 2, "{name}");
        assert_eq!(report.tally.wins, 2, "{name}");
        for g in &report.games {
            let Outcome::Forfeited {
                reason: r, message, ..
            } = &g.outcome
            else {
                panic!("{name}: {:?}", g.outcome)
            };
            assert_eq!(*r, reason, "{name}: {message}");
            assert!(message.contains(needle), "{name}: {message}");
            check_ggf(g);
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn command_line_json_and_ggf() {
    let dir = scratch("cli");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, OPENINGS).unwrap();
    let ggf = dir.join("games.ggf");
    let output = Command::new(IAGO)
        .args(["match", "--engine", "iago,depth=1", "--engine"])
        .arg(format!(
            "name=NB,cmd={IAGO} nboard --threads 1 --no-book --hash 4"
        ))
        .args([
            "--depth",
            "2",
            "--rounds",
            "2",
            "--concurrency",
            "2",
            "--json",
        ])
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
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 4);
    assert_eq!(json["engines"][1], "NB");
    assert_eq!(json["limits"][1], "depth 2");
    assert_eq!(json["forfeits"][1]["crash"], 0);
    assert_eq!(json["results"].as_array().unwrap().len(), 4);
    assert!(json["results"][0]["termination"] == "normal");
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(text.lines().count(), 4);
    for line in text.lines() {
        let game = GgfGame::parse(line).unwrap().game().unwrap();
        assert!(game.is_over());
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
