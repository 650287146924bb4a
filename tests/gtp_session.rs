//! GTP sessions with the real binary: whole games, passes as Quarry and scripted clients send
//! them, ids, errors that change nothing, and quitting mid-search.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, game_reaching_a_pass, weights_read_before};
use iago::board::rules::Goal;
use iago::board::{Bitboard, Color, Game, Move, Position, Rules};

const LONG: Duration = Duration::from_secs(60);

fn ask(engine: &mut Engine, command: &str) -> (bool, String, String) {
    engine.ask(command)
}

fn ok(engine: &mut Engine, command: &str) -> String {
    engine.ok(command)
}

/// A client in Othello notation (a1 top-left). These tests read the state back through the
/// `gogui-rules_` queries, which would switch the naming to GoGui's: `--rows top` keeps it.
fn start() -> Engine {
    Engine::start(&[
        "gtp",
        "--rows",
        "top",
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
    let (success, id, text) = ask(&mut engine, "9 boardsize 5");
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
    assert_eq!(
        ok(&mut engine, "list_games").lines().next(),
        Some("Othello")
    );
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

/// GoGui's parameter dialog: `gogui-analyze_commands` offers it, `iago-param` lists and sets
/// the move overhead, which the clock keeps; a bad value changes nothing.
#[test]
fn the_move_overhead_is_a_parameter_the_clock_keeps() {
    let mut engine = Engine::start(&[
        "gtp",
        "--threads",
        "2",
        "--depth",
        "40",
        "--no-book",
        "--move-overhead",
        "35",
    ]);
    assert_eq!(
        ok(&mut engine, "gogui-analyze_commands"),
        "param/Iago Parameters/iago-param"
    );
    assert_eq!(
        ok(&mut engine, "iago-param"),
        "[string] move_overhead 35\n[string] level 10"
    );
    for bad in [
        "iago-param move_overhead -1",
        "iago-param move_overhead 1e3",
        "iago-param speed 3",
        "iago-param level 0",
        "iago-param level 11",
    ] {
        let (success, _, text) = ask(&mut engine, bad);
        assert!(!success && !text.contains('\n'), "{bad}: {text}");
    }
    ok(&mut engine, "iago-param move_overhead 1500");
    assert_eq!(
        ok(&mut engine, "iago-param"),
        "[string] move_overhead 1500\n[string] level 10"
    );
    // Two seconds for one move: the overhead keeps half of it (at most), not the margin alone.
    ok(&mut engine, "time_settings 0 2 1");
    let start = Instant::now();
    ok(&mut engine, "genmove b");
    assert!(
        start.elapsed() < Duration::from_millis(1600),
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

/// A book file that is corrupt: one warning, and the engine plays without a book; one that is
/// missing is made from the built-in book.
#[test]
fn a_corrupt_book_warns_and_a_missing_one_is_made() {
    let dir = std::env::temp_dir().join(format!("iago-gtp-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.book");
    std::fs::write(&corrupt, b"IAGOBOOK\x01\x00\x00\x00garbage").unwrap();
    let missing = dir.join("missing.book");
    for path in [missing.clone(), corrupt] {
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
        if path == missing {
            // A new book file is made from the built-in book, for `learn` to save into.
            assert!(warnings.is_empty(), "{warnings:?}");
            let made = iago::book::Book::load(&path).expect("the book file made");
            assert_eq!(made.len(), iago::book::Book::shipped().unwrap().len());
            continue;
        }
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

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// The legal moves of `game` as `gogui-rules_legal_moves` writes them.
fn legal_text(game: &Game) -> String {
    if game.is_over() {
        String::new()
    } else if game.must_pass() {
        "pass".into()
    } else {
        Bitboard(game.legal_moves())
            .iter()
            .map(|s| s.to_string().to_uppercase())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `B+n`, `W+n` or `0`.
fn result_text(score: i32) -> String {
    match score {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

/// Plays `game` to its end with `genmove` for both colours, checking every move and the
/// engine's legal moves against `game`'s own rules; returns the game.
fn genmove_to_the_end(engine: &mut Engine, mut game: Game) -> Game {
    let mut color = game.position().to_move;
    let mut passes = 0;
    while passes < 2 {
        assert_eq!(ok(engine, "gogui-rules_legal_moves"), legal_text(&game));
        let reply = ok(engine, &format!("genmove {}", color_name(color)));
        let mv = Move::parse(&reply).unwrap_or_else(|_| panic!("genmove answered '{reply}'"));
        if mv == Move::Pass {
            passes += 1;
            if !game.is_over() {
                assert!(game.must_pass(), "pass only when forced");
                game.play(Move::Pass).unwrap();
            }
        } else {
            passes = 0;
            game.play(mv)
                .unwrap_or_else(|e| panic!("illegal genmove {mv}: {e}"));
        }
        color = color.opposite();
    }
    assert!(game.is_over());
    assert_eq!(ok(engine, "gogui-rules_legal_moves"), "");
    game
}

#[test]
fn boardsize_6_plays_on_the_small_board() {
    let mut engine = start();
    let six = Rules {
        size: 6,
        ..Rules::OTHELLO
    };
    ok(&mut engine, "boardsize 6");
    ok(&mut engine, "clear_board");
    assert_eq!(ok(&mut engine, "gogui-rules_board_size"), "6");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Othello");
    let mut game = Game::new(six);
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "C2 B3 E4 D5");
    assert_eq!(
        ok(&mut engine, "gogui-rules_board"),
        ". . . . . .\n. . . . . .\n. . O X . .\n. . X O . .\n. . . . . .\n. . . . . ."
    );
    let board = ok(&mut engine, "showboard");
    assert!(
        board.contains("a b c d e f") && !board.contains(" g"),
        "{board}"
    );
    assert!(board.contains("3 - . O X - - 3"), "{board}");
    assert!(board.contains("Black to move"), "{board}");
    // Off the 6x6 board, and a square that flips nothing.
    for bad in ["play b g7", "play b h8", "play b a1"] {
        assert!(!ask(&mut engine, bad).0, "{bad}");
    }
    ok(&mut engine, "play b c2");
    game.play(Move::parse("c2").unwrap()).unwrap();
    assert_eq!(
        ok(&mut engine, "gogui-rules_legal_moves"),
        legal_text(&game)
    );
    let reply = ok(&mut engine, "genmove w");
    let mv = Move::parse(&reply).unwrap();
    game.play(mv)
        .unwrap_or_else(|e| panic!("genmove w answered {reply}: {e}"));
    assert_eq!(ok(&mut engine, "gogui-rules_side_to_move"), "black");
    // undo takes back the generated move.
    ok(&mut engine, "undo");
    game.undo();
    assert_eq!(
        ok(&mut engine, "gogui-rules_legal_moves"),
        legal_text(&game)
    );
    ok(&mut engine, "play w d2");
    game.play(Move::parse("d2").unwrap()).unwrap();
    let game = genmove_to_the_end(&mut engine, game);
    let expected = result_text(game.final_score_for_black());
    assert_eq!(ok(&mut engine, "final_score"), expected);
    assert_eq!(ok(&mut engine, "gogui-rules_final_result"), expected);
    // clear_board keeps the size; boardsize 8 goes back.
    ok(&mut engine, "clear_board");
    assert_eq!(ok(&mut engine, "gogui-rules_board_size"), "6");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "C2 B3 E4 D5");
    ok(&mut engine, "boardsize 8");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "D3 C4 F5 E6");
    let errors = engine.stderr_lines();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_whole_4x4_game_by_genmove_with_final_score() {
    for (name, goal) in [("Othello", Goal::MostDiscs), ("Anti", Goal::FewestDiscs)] {
        let mut engine = start();
        ok(&mut engine, &format!("set_game {name}"));
        ok(&mut engine, "boardsize 4");
        ok(&mut engine, "clear_board");
        assert_eq!(ok(&mut engine, "gogui-rules_game_id"), name);
        assert_eq!(ok(&mut engine, "gogui-rules_board_size"), "4");
        let rules = Rules {
            size: 4,
            goal,
            ..Rules::OTHELLO
        };
        let game = genmove_to_the_end(&mut engine, Game::new(rules));
        assert!(game.moves().len() >= 4, "{}", game.transcript(true));
        let score = game.final_score_for_black();
        assert_eq!(score, rules.final_score_for_black(&game.position()));
        assert_eq!(ok(&mut engine, "final_score"), result_text(score));
        assert_eq!(
            ok(&mut engine, "gogui-rules_final_result"),
            result_text(score)
        );
        let rows = ok(&mut engine, "gogui-rules_board");
        assert_eq!(rows.lines().count(), 4, "{rows}");
        assert!(rows.lines().all(|l| l.split(' ').count() == 4), "{rows}");
        // genmove after the end: pass.
        assert_eq!(ok(&mut engine, "genmove b"), "pass");
        let errors = engine.stderr_lines();
        assert!(errors.is_empty(), "{errors:?}");
    }
}

#[test]
fn set_game_selects_variants_and_list_games_names_them() {
    let mut engine = start();
    let games: Vec<String> = ok(&mut engine, "list_games")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(games, Rules::GAME_NAMES);
    assert_eq!(games[0], "Othello", "Quarry takes the first game");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Othello");

    // Anti on the current (8x8) board.
    ok(&mut engine, "set_game anti");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Anti");
    assert_eq!(ok(&mut engine, "gogui-rules_board_size"), "8");
    let anti = Rules {
        goal: Goal::FewestDiscs,
        ..Rules::OTHELLO
    };
    let mut game = Game::new(anti);
    ok(&mut engine, "play b f5");
    game.play(Move::parse("f5").unwrap()).unwrap();
    for color in [Color::White, Color::Black] {
        let reply = ok(&mut engine, &format!("genmove {}", color_name(color)));
        game.play(Move::parse(&reply).unwrap())
            .unwrap_or_else(|e| panic!("{reply}: {e}"));
    }
    assert_eq!(
        ok(&mut engine, "gogui-rules_legal_moves"),
        legal_text(&game)
    );

    // A size in the name changes the size; the same rules again change nothing.
    ok(&mut engine, "set_game 6x6 anti");
    assert_eq!(ok(&mut engine, "gogui-rules_board_size"), "6");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Anti");
    ok(&mut engine, "play b c2");
    let board = ok(&mut engine, "gogui-rules_board");
    ok(&mut engine, "set_game ANTI");
    assert_eq!(ok(&mut engine, "gogui-rules_board"), board);

    // Unknown or unsupported games: one line, nothing changes.
    for bad in [
        "set_game Chess",
        "set_game 5x5 othello",
        "set_game 4x4 reversi-32",
    ] {
        let (success, _, text) = ask(&mut engine, bad);
        assert!(!success, "{bad}");
        assert!(text.starts_with("unsupported game"), "{bad}: {text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
    let (success, _, text) = ask(&mut engine, "boardsize 5");
    assert_eq!((success, text.as_str()), (false, "unacceptable size"));
    assert_eq!(ok(&mut engine, "gogui-rules_board"), board);
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Anti");
    assert_eq!(ok(&mut engine, "gogui-rules_side_to_move"), "white");

    // Reversi: the first moves fill the centre, without capture.
    ok(&mut engine, "set_game Reversi");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Reversi");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "C3 D3 C4 D4");
    let reply = ok(&mut engine, "genmove b");
    assert!(
        ["C3", "D3", "C4", "D4"].contains(&reply.as_str()),
        "{reply}"
    );

    // A limited supply shows in showboard.
    ok(&mut engine, "set_game Reversi-32");
    assert_eq!(ok(&mut engine, "gogui-rules_game_id"), "Reversi-32");
    let board = ok(&mut engine, "showboard");
    assert!(board.ends_with("discs left: Black 32, White 32"), "{board}");

    // Back to Othello at 8x8.
    ok(&mut engine, "set_game 8x8 Othello");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "D3 C4 F5 E6");
    let errors = engine.stderr_lines();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn reg_genmove_after_an_implied_pass_on_a_small_board() {
    let rules = Rules {
        size: 4,
        ..Rules::OTHELLO
    };
    let game = game_reaching_a_pass_on(Game::new(rules)).expect("a 4x4 game with a pass");
    let mut engine = start();
    ok(&mut engine, "boardsize 4");
    for (color, &mv) in game.states().zip(game.moves()) {
        ok(
            &mut engine,
            &format!("play {} {mv}", color_name(color.to_move())),
        );
    }
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "pass");
    let other = game.position().to_move.opposite();
    let board = ok(&mut engine, "gogui-rules_board");
    let reply = ok(&mut engine, &format!("reg_genmove {}", color_name(other)));
    let after_pass = {
        let mut g = game.clone();
        g.play(Move::Pass).unwrap();
        g
    };
    assert!(
        after_pass.legal_moves() >> Move::parse(&reply).unwrap().square().unwrap().index() & 1 != 0,
        "{reply}"
    );
    assert_eq!(ok(&mut engine, "gogui-rules_board"), board, "not played");
    // genmove plays the pass and the move; one undo takes both back.
    let reply = ok(&mut engine, &format!("genmove {}", color_name(other)));
    assert_ne!(reply, "pass");
    ok(&mut engine, "undo");
    assert_eq!(ok(&mut engine, "gogui-rules_legal_moves"), "pass");
}

/// The first game (depth first, moves in square order) from `game` that reaches a position
/// where the side to move must pass.
fn game_reaching_a_pass_on(game: Game) -> Option<Game> {
    if game.must_pass() {
        return Some(game);
    }
    Bitboard(game.legal_moves()).iter().find_map(|sq| {
        let mut next = game.clone();
        next.play(Move::Play(sq)).unwrap();
        game_reaching_a_pass_on(next)
    })
}

/// A client that starts a game at once does not pay for the weights still loading at the
/// program's start in its first clocked move: `clear_board` answers only once they are read.
#[test]
fn clear_board_answers_once_the_weights_are_read() {
    weights_read_before("gtp", "clear_board\nquit\n", "answering clear_board", |l| {
        l.starts_with('=')
    });
}
