//! The console as a person uses it: the real binary on a pseudo-terminal, keys typed, the
//! screen read back. And that a pipe still gets the protocols, or the plain console.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use iago::SolveMode;
use iago::board::{Color, Game, Move, Rules, State};
use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};

const PROMPT: &str = "iago> ";

/// A state directory of the test's own (`XDG_STATE_HOME`), so that no test writes the
/// history of the person who runs the tests.
fn state_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("iago-console-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `iago ARGS` on a pseudo-terminal, as from an xterm; escape codes stripped unless `raw`.
fn terminal(args: &[&str], env: &[(&str, &str)], raw: bool) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iago"));
    command
        .args(args)
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env("XDG_STATE_HOME", state_dir("shared"))
        .env("RUST_LOG", "off");
    for (key, value) in env {
        command.env(key, value);
    }
    let options = Options::new()
        .timeout_ms(Some(60_000))
        .strip_ansi_escape_codes(!raw);
    spawn_with_options(command, options).expect("start iago on a pty")
}

/// The console of `iago play` with one thread, a small table and `extra` options, in ASCII.
fn console(extra: &[&str]) -> PtySession {
    let mut args = vec!["play", "--threads", "1", "--hash", "16", "--ascii"];
    args.extend_from_slice(extra);
    terminal(&args, &[], false)
}

/// What the console wrote up to the next prompt (lines of the screen: a line redrawn after
/// a carriage return keeps its last text).
fn until_prompt(p: &mut PtySession) -> Vec<String> {
    let text = p.exp_string(PROMPT).expect("a prompt");
    text.split('\n')
        .map(|line| {
            let line = line.trim_end_matches('\r');
            line.rsplit('\r').next().unwrap_or("").to_string()
        })
        .collect()
}

fn send(p: &mut PtySession, line: &str) {
    p.send_line(line).expect("type a line");
}

/// The last board drawn in `screen` as a 64-square string (X, O, -) and the side to move.
fn last_board(screen: &[String]) -> Option<String> {
    let header = screen
        .iter()
        .rposition(|l| l.starts_with("    a  b  c  d  e  f  g  h"))?;
    // The header below the board is the last; the eight rows are above it.
    let rows = &screen[header.checked_sub(8)?..header];
    let mut squares = String::new();
    for (i, row) in rows.iter().enumerate() {
        let prefix = format!("{:>2} ", i + 1);
        let cells = row.strip_prefix(&prefix)?;
        for col in 0..8 {
            let cell = cells.get(col * 3..col * 3 + 3)?;
            squares.push(match cell.chars().nth(1)? {
                'X' => 'X',
                'O' => 'O',
                '-' | '.' => '-',
                _ => return None,
            });
        }
    }
    Some(squares)
}

fn squares(game: &Game) -> String {
    let board = Rules::OTHELLO.board_string(&game.position());
    board.split_whitespace().next().unwrap().to_string()
}

/// Applies the console's report of Iago's moves and forced passes in `screen` to `game`.
fn follow(game: &mut Game, screen: &[String]) {
    for line in screen {
        if let Some(rest) = line
            .strip_prefix("Iago plays ")
            .filter(|r| r.contains(" for "))
        {
            let word = rest.split_whitespace().next().unwrap();
            let mv = Move::parse(word).unwrap_or_else(|_| panic!("a move in '{line}'"));
            game.play(mv).unwrap();
        } else if line.ends_with("has no legal move and passes.") {
            game.play(Move::Pass).unwrap();
        }
    }
}

#[test]
fn a_person_plays_a_whole_game_against_iago() {
    let mut p = console(&["--depth", "2", "--no-book"]);
    let mut game = Game::new(Rules::OTHELLO);
    let mut screen = until_prompt(&mut p);
    assert!(screen[0].starts_with("Iago "), "{screen:?}");
    assert!(
        screen.iter().any(|l| l.contains("Iago plays White")),
        "{screen:?}"
    );
    let mut turns = 0;
    loop {
        follow(&mut game, &screen);
        assert_eq!(last_board(&screen), Some(squares(&game)), "{screen:#?}");
        if game.is_over() {
            let over = screen
                .iter()
                .find(|l| l.starts_with("Game over: "))
                .expect("the result");
            let outcome = game.outcome().unwrap().to_string();
            assert!(
                over.starts_with(&format!("Game over: {outcome} (")),
                "{over} for {outcome}"
            );
            break;
        }
        assert_eq!(game.position().to_move, Color::Black, "{screen:#?}");
        // The person plays the last legal move in square order (a1, b1, ...).
        let legal = game.legal_moves();
        let sq = iago::board::Square::from_index(63 - legal.leading_zeros() as u8).unwrap();
        send(&mut p, &sq.to_string());
        game.play(Move::Play(sq)).unwrap();
        screen = until_prompt(&mut p);
        turns += 1;
        assert!(turns < 61, "the game does not end");
    }
    assert!(game.moves().len() > 20);
    send(&mut p, "quit");
    p.exp_eof().expect("quit ends the console");
}

#[test]
fn undo_and_redo_take_back_a_turn_against_iago() {
    let mut p = console(&["--depth", "1", "--no-book"]);
    until_prompt(&mut p);
    let start = squares(&Game::new(Rules::OTHELLO));
    send(&mut p, "f5");
    let after = until_prompt(&mut p);
    let mut game = Game::new(Rules::OTHELLO);
    game.play(Move::parse("f5").unwrap()).unwrap();
    follow(&mut game, &after);
    assert_eq!(game.moves().len(), 2, "{after:#?}");
    let replied = squares(&game);
    send(&mut p, "undo");
    let screen = until_prompt(&mut p);
    assert_eq!(last_board(&screen).as_deref(), Some(start.as_str()));
    assert!(screen.iter().any(|l| l.contains("move 1, Black to move")));
    send(&mut p, "redo");
    let screen = until_prompt(&mut p);
    assert_eq!(last_board(&screen).as_deref(), Some(replied.as_str()));
    assert!(screen.iter().any(|l| l.contains("move 3, Black to move")));
    send(&mut p, "redo");
    let screen = until_prompt(&mut p);
    assert!(
        screen.iter().any(|l| l == "error: nothing to redo"),
        "{screen:?}"
    );
    send(&mut p, "undo 2");
    let screen = until_prompt(&mut p);
    assert_eq!(last_board(&screen).as_deref(), Some(start.as_str()));
    send(&mut p, "undo");
    let screen = until_prompt(&mut p);
    assert!(
        screen.iter().any(|l| l == "error: nothing to undo"),
        "{screen:?}"
    );
}

#[test]
fn hint_3_gives_three_moves_with_scores_and_marks_book_moves() {
    let mut p = console(&["--depth", "4"]);
    until_prompt(&mut p);
    send(&mut p, "hint 3");
    let screen = until_prompt(&mut p);
    let rows: Vec<&String> = screen
        .iter()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(". "))
        .collect();
    assert_eq!(rows.len(), 3, "{screen:#?}");
    let mut moves = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[0], format!("{}.", i + 1), "{row}");
        assert!(["d3", "c4", "f5", "e6"].contains(&words[1]), "{row}");
        words[2].parse::<i32>().expect("a score");
        assert!(words[3].starts_with("4@"), "{row}");
        // The start is in the book: every first move has a book value.
        words[4].parse::<i32>().expect("a book value");
        moves.push(words[1]);
    }
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 3);
    assert!(
        screen.iter().any(|l| l.starts_with("book: ")),
        "{screen:#?}"
    );
}

#[test]
fn solve_at_14_empties_gives_the_exact_score() {
    // A random game to 14 empties, solved in-process for the expected score.
    let game = common::random_game(Rules::OTHELLO, 46, 2026);
    let state: State = game.state();
    assert_eq!(Rules::OTHELLO.empty_count(&state.position.board), 14);
    assert!(!game.must_pass() && !game.is_over());
    let mut engine = common::search_engine(1);
    let expected = engine
        .solve(Rules::OTHELLO, &state, SolveMode::Exact)
        .unwrap()
        .solution
        .score;
    let board = Rules::OTHELLO.board_string(&game.position());
    let mut p = console(&["--depth", "4", "--mode", "neither"]);
    until_prompt(&mut p);
    send(&mut p, &format!("board {board}"));
    let screen = until_prompt(&mut p);
    assert_eq!(last_board(&screen), Some(squares(&game)), "{screen:#?}");
    send(&mut p, "solve");
    let screen = until_prompt(&mut p);
    let color = state.position.to_move.name();
    let line = screen
        .iter()
        .find(|l| l.starts_with("exact score"))
        .unwrap_or_else(|| panic!("{screen:#?}"));
    assert!(
        line.starts_with(&format!("exact score {expected:+} for {color} (")),
        "{line}, expected {expected:+}"
    );
    assert!(line.contains("14 empties"), "{line}");
}

/// A deep solve shows its progress on a line of its own, redrawn while it runs (the iteration,
/// the nodes, the time), and Ctrl-C stops it.
#[test]
fn a_deep_solve_shows_its_progress() {
    let game = common::random_game(Rules::OTHELLO, 32, 7);
    assert!(!game.is_over() && !game.must_pass());
    let board = Rules::OTHELLO.board_string(&game.position());
    let mut p = console(&["--mode", "neither"]);
    until_prompt(&mut p);
    send(&mut p, &format!("board {board}"));
    until_prompt(&mut p);
    send(&mut p, "solve");
    let empties = Rules::OTHELLO.empty_count(&game.position().board);
    p.exp_string(&format!("solving {empties} empties (at most 60 s"))
        .unwrap();
    // Two redraws: the nodes grow.
    let nodes = |p: &mut PtySession| -> f64 {
        let (_, text) = p
            .exp_regex(r"solving \d+ empties: (exact|\d+@\d+%), [0-9.]+ M nodes, [0-9.]+ s")
            .expect("a progress line");
        let m = text.split(": ").nth(1).unwrap().split(", ").nth(1).unwrap();
        m.trim_end_matches(" M nodes").parse().unwrap()
    };
    let first = nodes(&mut p);
    let second = nodes(&mut p);
    assert!(second > first, "{first} then {second}");
    p.send_control('c').unwrap();
    p.exp_string("Stopped: the position is not solved.")
        .unwrap();
    until_prompt(&mut p);
    send(&mut p, "quit");
    p.exp_eof().unwrap();
}

/// Types Ctrl-C and times the prompt's return, polling the screen every millisecond.
fn interrupt_and_time(p: &mut PtySession) -> (Duration, String) {
    p.send_control('c').unwrap();
    let sent = Instant::now();
    let mut seen = String::new();
    while !seen.ends_with(PROMPT) {
        match p.try_read() {
            Some(c) => seen.push(c),
            None => {
                assert!(
                    sent.elapsed() < Duration::from_secs(10),
                    "no prompt: {seen}"
                );
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    (sent.elapsed(), seen)
}

#[test]
fn ctrl_c_stops_a_deep_search_and_returns_to_the_prompt() {
    let mut p = console(&["--no-book", "--mode", "neither"]);
    until_prompt(&mut p);
    // Ten minutes a move from the start: midgame iterations, then a solve of 60 empties. (A
    // depth limit may end in a fraction of a second: at 58% depth 30 takes milliseconds.)
    send(&mut p, "level time 600");
    until_prompt(&mut p);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        send(&mut p, "go");
        // The search is under way once its first iterations are shown.
        p.exp_string("thinking: depth 6").expect("progress");
        let (latency, seen) = interrupt_and_time(&mut p);
        assert!(seen.contains("Stopped: the game is as it was"), "{seen}");
        best = best.min(latency);
        send(&mut p, "board");
        let screen = until_prompt(&mut p);
        assert_eq!(
            last_board(&screen),
            Some(squares(&Game::new(Rules::OTHELLO))),
            "{screen:#?}"
        );
    }
    eprintln!("Ctrl-C to the prompt: {} ms at best of 3", best.as_millis());
    assert!(best < Duration::from_millis(100), "{best:?}");
    // At the prompt: once is a notice, twice ends the console.
    p.send_control('c').unwrap();
    p.exp_string("Ctrl-C again").unwrap();
    p.send_control('c').unwrap();
    p.exp_eof().expect("a second Ctrl-C ends the console");
}

/// `board` takes what a paste box takes: a transcript as well as a board string.
#[test]
fn board_takes_a_transcript() {
    let mut p = console(&["--depth", "1", "--mode", "neither"]);
    until_prompt(&mut p);
    send(&mut p, "board f5d6c3");
    let screen = until_prompt(&mut p);
    let game =
        Game::from_transcript(Rules::OTHELLO, Rules::OTHELLO.start_position(), "f5d6c3").unwrap();
    assert_eq!(last_board(&screen), Some(squares(&game)), "{screen:#?}");
    assert!(
        !screen.iter().any(|l| l.starts_with("error")),
        "{screen:#?}"
    );
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D ends the console");
}

#[test]
fn illegal_moves_and_garbage_are_one_line_each_and_change_nothing() {
    let mut p = console(&["--depth", "1", "--no-book"]);
    until_prompt(&mut p);
    // Longer than the 60 characters an error quotes, shorter than the 80 of a line.
    let long = "q".repeat(70);
    for (line, expected) in [
        (
            "d4",
            "error: move 1 (d4) by Black is illegal: d4 is occupied",
        ),
        (
            "a1",
            "error: move 1 (a1) by Black is illegal: a1 flips no disc",
        ),
        ("xyzzy", "error: unknown command 'xyzzy'"),
        (long.as_str(), "error: unknown command 'qqqq"),
        ("pass", "error: Black has a legal move"),
        (
            "load /no/such/file.ggf",
            "error: cannot read /no/such/file.ggf",
        ),
        ("board XXXX O", "error: the board has 5 squares"),
        ("level 99", "error: a playing level is 1 to 10"),
        ("level depth 99", "error: a depth is 1 to 60"),
    ] {
        send(&mut p, line);
        let screen = until_prompt(&mut p);
        let errors: Vec<&String> = screen.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{line}: {screen:#?}");
        assert!(errors[0].starts_with(expected), "{line}: {}", errors[0]);
        assert!(errors[0].len() < 200, "{}", errors[0]);
    }
    send(&mut p, "board");
    let screen = until_prompt(&mut p);
    assert_eq!(
        last_board(&screen),
        Some(squares(&Game::new(Rules::OTHELLO)))
    );
    assert!(screen.iter().any(|l| l.contains("move 1, Black to move")));
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D ends the console");
}

/// The lines typed are kept in the state directory and come back, with the arrow keys, in the
/// next session.
#[test]
fn the_history_outlives_the_session() {
    let dir = state_dir("history");
    let _ = std::fs::remove_file(dir.join("iago").join("history"));
    let env = [("XDG_STATE_HOME", dir.to_str().unwrap())];
    let args = [
        "play",
        "--threads",
        "1",
        "--hash",
        "16",
        "--ascii",
        "--mode",
        "neither",
    ];
    let mut p = terminal(&args, &env, false);
    until_prompt(&mut p);
    send(&mut p, "level depth 7");
    p.exp_string("level depth 7").unwrap();
    until_prompt(&mut p);
    send(&mut p, "quit");
    p.exp_eof().unwrap();
    let text = std::fs::read_to_string(dir.join("iago").join("history")).unwrap();
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        ["level depth 7", "quit"],
        "{text}"
    );

    let mut p = terminal(&args, &env, false);
    until_prompt(&mut p);
    // Up twice: `quit`, then `level depth 7`.
    p.send("\x1b[A\x1b[A").unwrap();
    send(&mut p, "");
    p.exp_string("level depth 7").unwrap();
    until_prompt(&mut p);
    send(&mut p, "quit");
    p.exp_eof().unwrap();
}

/// Plain `iago` at a terminal takes the rules like `iago play`.
#[test]
fn plain_iago_at_a_terminal_takes_the_rules() {
    let mut p = terminal(&["--threads", "1", "--rules", "6x6 anti"], &[], false);
    let screen = until_prompt(&mut p);
    assert!(
        screen.iter().any(|l| l.contains("rules: 6x6 anti")),
        "{screen:#?}"
    );
    send(&mut p, "quit");
    p.exp_eof().unwrap();
}

#[test]
fn plain_iago_at_a_terminal_opens_the_console_in_colour() {
    let mut p = terminal(&["--threads", "1", "--hash", "16"], &[], true);
    let text = utf8(&p.exp_string(PROMPT).unwrap());
    assert!(text.contains("Type a move"), "{text}");
    assert!(text.contains("\x1b[42m"), "a green board: {text:?}");
    assert!(text.contains('●'), "{text:?}");
    send(&mut p, "quit");
    p.exp_eof().unwrap();

    let mut p = terminal(
        &["--threads", "1", "--hash", "16"],
        &[("NO_COLOR", "1")],
        true,
    );
    let text = utf8(&p.exp_string(PROMPT).unwrap());
    assert!(
        !text.contains("\x1b[42m") && !text.contains("\x1b[3"),
        "{text:?}"
    );
    assert!(text.contains('●') && text.contains('○'), "{text:?}");
    send(&mut p, "quit");
    p.exp_eof().unwrap();
}

/// The terminal's bytes, which the pty reader gives one a character, as UTF-8.
fn utf8(text: &str) -> String {
    let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
    String::from_utf8(bytes).expect("UTF-8 from the console")
}

#[test]
fn a_pipe_still_gets_the_protocols_and_play_gets_plain_lines() {
    let gtp = common::piped(&["--threads", "1", "--hash", "16"], "name\nquit\n");
    assert_eq!(gtp, "= Iago\n\n=\n\n");
    let nboard = common::piped(&["--threads", "1", "--hash", "16"], "nboard 2\nping 7\n");
    assert!(nboard.lines().any(|l| l == "pong 7"), "{nboard}");
    assert!(!nboard.contains("Type a move"));

    let text = common::piped(
        &["play", "--threads", "1", "--hash", "16", "--depth", "2"],
        "f5\nquit\n",
    );
    assert!(text.starts_with("Iago "), "{text}");
    assert!(text.contains("Iago plays "), "{text}");
    assert!(!text.contains('\x1b') && !text.contains(PROMPT), "{text:?}");
    // Iago's reply is on the last board, marked, and named beside it.
    assert!(text.contains("[O]") && text.contains("(White)"), "{text}");
}

/// `level 3` plays at a playing level (shown by name); `level depth 8` goes back to full
/// strength at a depth; `--level` sets it from the start.
#[test]
fn the_level_command_takes_a_playing_level() {
    let mut p = console(&["--level", "2", "--seed", "5"]);
    let start = until_prompt(&mut p).join("\n");
    assert!(start.contains("level 2 (novice)"), "{start}");
    send(&mut p, "level club");
    p.exp_string("level 5 (club)").unwrap();
    until_prompt(&mut p);
    send(&mut p, "f5");
    let screen = until_prompt(&mut p).join("\n");
    assert!(screen.contains("Iago plays"), "{screen}");
    send(&mut p, "level depth 8");
    p.exp_string("level depth 8").unwrap();
    until_prompt(&mut p);
    send(&mut p, "quit");
    p.exp_eof().unwrap();
}
