//! GTP sessions with the real binary: whole games, passes as Quarry and scripted clients send
//! them, ids, errors that change nothing, and quitting mid-search.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, game_reaching_a_pass};
use iago::board::{Color, Game, Move, Position, Rules};

const LONG: Duration = Duration::from_secs(60);

/// One GTP exchange: sends `command`, returns `(success, id, text)` of the reply.
fn ask(engine: &mut Engine, command: &str) -> (bool, String, String) {
    engine.send(command);
    let lines = engine.until(LONG, |l| l.is_empty());
    let first = &lines[0];
    let success = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => panic!("not a GTP reply: {lines:?}"),
    };
    let head = &first[1..];
    let id: String = head.chars().take_while(|c| c.is_ascii_digit()).collect();
    let mut text = head[id.len()..].trim().to_string();
    for more in &lines[1..lines.len() - 1] {
        text.push('\n');
        text.push_str(more);
    }
    (success, id, text)
}

fn ok(engine: &mut Engine, command: &str) -> String {
    let (success, _, text) = ask(engine, command);
    assert!(success, "{command}: ? {text}");
    text
}

fn start() -> Engine {
    Engine::start(&[
        "gtp",
        "--threads",
        "2",
        "--hash",
        "16",
        "--depth",
        "3",
        "--no-book",
    ])
}

#[test]
fn a_whole_game_against_itself() {
    let mut engine = start();
    assert_eq!(ok(&mut engine, "protocol_version"), "2");
    assert_eq!(ok(&mut engine, "name"), "Iago");
    ok(&mut engine, "boardsize 8");
    ok(&mut engine, "clear_board");
    let mut game = Game::new(Rules::OTHELLO);
    let mut color = Color::Black;
    let mut passes = 0;
    while passes < 2 {
        let name = if color == Color::Black { "b" } else { "w" };
        let reply = ok(&mut engine, &format!("genmove {name}"));
        let mv = Move::parse(&reply).unwrap_or_else(|_| panic!("genmove answered '{reply}'"));
        if mv == Move::Pass {
            passes += 1;
            if !game.is_over() {
                assert!(game.position().board.must_pass());
                game.play(Move::Pass).unwrap();
            }
        } else {
            passes = 0;
            assert_eq!(reply, reply.to_uppercase(), "vertices in upper case");
            game.play(mv).unwrap();
        }
        color = color.opposite();
    }
    assert!(game.is_over());
    let score = game.position().final_score_for_black();
    let expected = match score {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(ok(&mut engine, "final_score"), expected);
    assert_eq!(ok(&mut engine, "gogui-rules_final_result"), expected);
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "");
    ok(&mut engine, "quit");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some());
}

fn play_game(engine: &mut Engine, game: &Game) {
    let mut position = Position::start();
    for &mv in game.moves() {
        let color = if position.to_move == Color::Black {
            "b"
        } else {
            "w"
        };
        ok(engine, &format!("play {color} {mv}"));
        position = position.try_play(mv).unwrap();
    }
}

#[test]
fn passes_explicit_implicit_and_generated() {
    let game = game_reaching_a_pass();
    let to_move = game.position().to_move;
    let (mover, other) = if to_move == Color::Black {
        ("b", "w")
    } else {
        ("w", "b")
    };

    // The side that must pass gets `pass` from genmove.
    let mut engine = start();
    play_game(&mut engine, &game);
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "pass");
    assert_eq!(ok(&mut engine, &format!("genmove {mover}")), "pass");
    let reply = ok(&mut engine, &format!("genmove {other}"));
    assert!(
        game.position()
            .pass()
            .board
            .is_legal(Move::parse(&reply).unwrap()),
        "{reply}"
    );

    // A client that sends the pass explicitly.
    let mut engine = start();
    play_game(&mut engine, &game);
    ok(&mut engine, &format!("play {mover} pass"));
    assert_eq!(
        ok(&mut engine, "gogui-rules_side_to_move"),
        if other == "b" { "black" } else { "white" }
    );

    // Quarry never sends passes: the other colour simply plays (an implicit pass)...
    let mut engine = start();
    play_game(&mut engine, &game);
    let answer = game.position().pass().board.legal_moves().first().unwrap();
    ok(&mut engine, &format!("play {other} {answer}"));
    // ...and one undo takes back both the move and the implied pass.
    ok(&mut engine, "undo");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "pass");
    // ...or asks the other colour to move.
    let reply = ok(&mut engine, &format!("genmove {other}"));
    assert_ne!(reply, "pass");
}

#[test]
fn ids_are_echoed_and_errors_change_nothing() {
    let mut engine = start();
    assert_eq!(
        ask(&mut engine, "7 name"),
        (true, "7".into(), "Iago".into())
    );
    assert_eq!(
        ask(&mut engine, "8 fly away"),
        (false, "8".into(), "unknown command".into())
    );
    // Ids do not stick to later commands (an Edax bug).
    assert_eq!(
        ask(&mut engine, "name"),
        (true, String::new(), "Iago".into())
    );
    let (success, id, text) = ask(&mut engine, "9 boardsize 6");
    assert!(!success && id == "9" && text.contains("unacceptable size"));
    ok(&mut engine, "play b f5");
    let board = ok(&mut engine, "gogui-rules_board");
    for bad in [
        "10 play w a1",
        "11 play b d6",
        "12 play w pass",
        "13 play x d6",
        "14 undo now",
        "15 genmove b",
    ] {
        let (success, id, _) = ask(&mut engine, bad);
        assert!(!success, "{bad}");
        assert_eq!(id, bad.split_whitespace().next().unwrap());
    }
    assert_eq!(
        ok(&mut engine, "gogui-rules_board"),
        board,
        "state unchanged"
    );
    assert_eq!(ok(&mut engine, "gogui-rules_side_to_move"), "white");
    ok(&mut engine, "undo");
    let (success, _, text) = ask(&mut engine, "undo");
    assert!(!success, "{text}");
    assert_eq!(ok(&mut engine, "known_command gogui-rules_board"), "true");
    assert_eq!(ok(&mut engine, "known_command fly"), "false");
    assert!(
        ok(&mut engine, "list_commands")
            .lines()
            .any(|l| l == "reg_genmove")
    );
    assert_eq!(ok(&mut engine, "list_games"), "Othello");
    ok(&mut engine, "set_game Othello");
    assert!(!ask(&mut engine, "set_game Chess").0);
    // reg_genmove does not play.
    let before = ok(&mut engine, "gogui-rules_board");
    ok(&mut engine, "reg_genmove b");
    assert_eq!(ok(&mut engine, "gogui-rules_board"), before);
    let errors = engine.stderr_lines();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn quit_mid_search_answers_both_and_exits() {
    let mut engine = Engine::start(&["gtp", "--threads", "2", "--depth", "40", "--no-book"]);
    engine.send("1 genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    engine.send("2 quit");
    let lines = engine.until(Duration::from_secs(5), |l| l.starts_with("=2"));
    assert!(lines[0].starts_with("=1 "), "{lines:?}");
    let exited = engine.wait_exit(Duration::from_secs(5)).expect("exits");
    assert!(
        exited - sent < Duration::from_secs(1),
        "{:?}",
        exited - sent
    );
}

#[test]
fn time_left_limits_genmove() {
    let mut engine = Engine::start(&["gtp", "--threads", "2", "--depth", "40", "--no-book"]);
    ok(&mut engine, "time_settings 60 0 0");
    ok(&mut engine, "time_left b 2 0");
    let start = Instant::now();
    let reply = ok(&mut engine, "genmove b");
    assert!(
        Position::start()
            .board
            .is_legal(Move::parse(&reply).unwrap())
    );
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn plain_iago_detects_the_protocol() {
    let mut engine = Engine::start(&["--threads", "1"]);
    assert_eq!(ok(&mut engine, "1 protocol_version"), "2");
    let mut engine = Engine::start(&["--threads", "1"]);
    engine.send("nboard 2");
    engine.send("set depth 2");
    assert_eq!(engine.line(LONG).as_deref(), Some("set myname Iago"));
}

/// A book file that is missing or corrupt: one warning, and the engine plays without a book.
#[test]
fn a_missing_or_corrupt_book_only_warns() {
    let dir = std::env::temp_dir().join(format!("iago-gtp-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.book");
    std::fs::write(&corrupt, b"IAGOBOOK\x01\x00\x00\x00garbage").unwrap();
    for path in [dir.join("missing.book"), corrupt] {
        let mut engine = Engine::start(&[
            "gtp",
            "--threads",
            "1",
            "--depth",
            "2",
            "--book",
            path.to_str().unwrap(),
        ]);
        let reply = ok(&mut engine, "genmove b");
        assert!(
            Position::start()
                .board
                .is_legal(Move::parse(&reply).unwrap()),
            "{reply}"
        );
        ok(&mut engine, "quit");
        engine.wait_exit(Duration::from_secs(5)).expect("exits");
        let warnings = engine.stderr_lines();
        assert!(
            warnings
                .iter()
                .any(|l| l.contains("cannot use the opening book")
                    && l.contains("playing without a book")),
            "{warnings:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
