//! What GUIs and hostile input did to Iago, one session test per defect, each against the real
//! binary: stops that were lost, input that ended the session, values GUIs showed wrongly, GoGui's
//! coordinates, GTP clocks and passes, and the smaller edges.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{Engine, random_game};
use iago::board::{Color, Game, Move, Position, Rules};

/// The start position after f5 f6 e6 f4, as NBoard sends it.
const GAME: &str = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";

fn nboard(extra: &[&str]) -> Engine {
    let mut args = vec!["nboard", "--threads", "1", "--hash", "16"];
    args.extend_from_slice(extra);
    let mut engine = Engine::start(&args);
    engine.send("nboard 2");
    engine
}

/// Lines up to `pong <n>` (included), which must come within `timeout`.
fn until_pong(engine: &Engine, n: u64, timeout: Duration) -> Vec<String> {
    let pong = format!("pong {n}");
    engine.until(timeout, |l| l == pong)
}

// 1. A stop queued right behind a request used to be erased when the search began.

#[test]
fn a_stop_right_behind_a_request_is_not_lost() {
    for request in ["go", "hint 3", "analyze"] {
        let mut engine = nboard(&["--no-book"]);
        // All at once, as a GUI's queue arrives during start-up.
        engine.send(&format!("set depth 40\nset game {GAME}\n{request}\nping 1"));
        until_pong(&engine, 1, Duration::from_secs(5));
    }
    for ending in ["quit", ""] {
        let mut engine = Engine::start(&["gtp", "--no-book", "--depth", "40", "--threads", "1"]);
        engine.send("1 genmove b");
        let sent = Instant::now();
        if ending.is_empty() {
            engine.close();
        } else {
            engine.send("2 quit");
        }
        let exited = engine.wait_exit(Duration::from_secs(5));
        assert!(exited.is_some(), "{ending:?}: still searching");
        assert!(exited.unwrap() - sent < Duration::from_secs(5));
        let lines: Vec<String> = engine.lines.try_iter().collect();
        assert!(lines[0].starts_with("=1 "), "{lines:?}");
    }
}

// 2. A second request during a search waited for the first one to end.

#[test]
fn a_second_request_supersedes_the_running_one() {
    for (first, second) in [
        ("go", "go"),
        ("hint 3", "go"),
        ("go", "hint 3"),
        ("go", "learn"),
        ("go", "analyze"),
    ] {
        let mut engine = nboard(&["--no-book"]);
        engine.send(&format!("set depth 40\nset game {GAME}\nping 1\n{first}"));
        until_pong(&engine, 1, Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(200));
        engine.send(&format!("{second}\nping 2"));
        until_pong(&engine, 2, Duration::from_secs(6));
    }
}

// 3. `learn` cleared the stop before each of its searches.

#[test]
fn learn_stops_and_leaves_the_book_unchanged() {
    use iago::book::Book;
    let dir = std::env::temp_dir().join(format!("iago-learn-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.book");
    let mut book = Book::new();
    let line = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5").unwrap();
    book.add_line(line.start().board, line.moves(), 10, true);
    book.save(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut engine = nboard(&["--book", path.to_str().unwrap()]);
    // A game the book does not know: learning searches each new position at depth 40.
    let game = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[E3]W[C5]B[G5]W[G3];)";
    engine.send(&format!("set depth 40\nset game {game}\nping 1\nlearn"));
    until_pong(&engine, 1, Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    engine.send("ping 2");
    let lines = until_pong(&engine, 2, Duration::from_secs(5));
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert!(!lines.contains(&"learned".to_string()), "{lines:?}");
    engine.send("quit");
    engine.wait_exit(Duration::from_secs(5)).expect("exits");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the book file changed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// 4. A line that is not UTF-8 ended the session; a byte in a comment rejected a whole file.

#[test]
fn lines_that_are_not_utf8_are_read_lossily() {
    let mut gtp = Engine::start(&["gtp", "--no-book", "--threads", "1"]);
    gtp.send_bytes(b"1 name\n\xff\n2 name\n");
    assert_eq!(
        gtp.reply(Duration::from_secs(5)),
        (true, "1".into(), "Iago".into())
    );
    assert!(!gtp.reply(Duration::from_secs(5)).0);
    assert_eq!(
        gtp.reply(Duration::from_secs(5)),
        (true, "2".into(), "Iago".into())
    );

    // NBoard on Windows writes the user name in cp1252: PB[José].
    let mut engine = nboard(&["--no-book"]);
    let mut line = b"set game (;GM[Othello]PC[NBoard]PB[Jos\xe9]PW[]TY[8]".to_vec();
    line.extend_from_slice(
        b"BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n",
    );
    engine.send_bytes(&line);
    engine.send("set depth 2\nping 1\ngo");
    let lines = engine.until(Duration::from_secs(10), |l| l.starts_with("==="));
    let mv = Move::parse(&lines.last().unwrap()[4..6]).unwrap();
    let after_f5 = Position::start()
        .try_play(Move::parse("f5").unwrap())
        .unwrap();
    assert!(after_f5.board.is_legal(mv), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some());
    let errors = engine.stderr_lines();
    assert!(errors.iter().any(|l| l.contains("not UTF-8")), "{errors:?}");

    // A problem file with a cp1252 comment.
    let path = std::env::temp_dir().join(format!("iago-latin1-{}.obf", std::process::id()));
    let mut file = b"% probl\xe8mes de Jos\xe9\n".to_vec();
    file.extend_from_slice(
        b"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;\n",
    );
    std::fs::write(&path, file).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_iago"))
        .args([
            "analyze",
            "--depth",
            "2",
            "--threads",
            "1",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("1 ")),
        "{stdout}"
    );
    // An openings file with one: src/matchrun/openings.rs tests it.
}

// 5. Absurd clock values panicked (`cannot convert float seconds to Duration`).

#[test]
fn absurd_clock_values_are_clamped() {
    for setting in [
        "time_settings 1e300 0 0",
        "time_left b 1e300 0",
        "time_settings 0 1e300 1",
    ] {
        let mut engine = Engine::start(&["gtp", "--no-book", "--threads", "1"]);
        engine.ok(setting);
        engine.send("genmove b");
        std::thread::sleep(Duration::from_millis(200));
        engine.send("quit");
        assert!(
            engine.wait_exit(Duration::from_secs(5)).is_some(),
            "{setting}: still thinking after quit"
        );
    }
    let huge_clock = GAME.replace("TY[8]", "TI[1e300]TY[8]");
    for (state, request) in [
        (format!("set game {GAME}"), "move C4//1e300"),
        (format!("set game {huge_clock}"), "go"),
        (format!("set game {GAME}"), "move C4/1e300/-1e300"),
    ] {
        let mut engine = nboard(&["--no-book"]);
        engine.send(&format!("{state}\n{request}\nping 1\ngo"));
        std::thread::sleep(Duration::from_millis(200));
        engine.send("ping 2");
        until_pong(&engine, 2, Duration::from_secs(5));
        engine.send("quit");
        assert!(engine.wait_exit(Duration::from_secs(5)).is_some());
    }
}

// 6. A book whose header count is corrupt aborted the process.

#[test]
fn a_corrupt_book_count_means_no_book_not_an_abort() {
    let mut book = iago::book::Book::new();
    let line = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6").unwrap();
    book.add_line(line.start().board, line.moves(), 10, true);
    let (mut bytes, _) = book.to_bytes();
    // The position count (outside the checksum) set to 4 billion.
    bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let path = std::env::temp_dir().join(format!("iago-bad-count-{}.book", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let mut engine = nboard(&["--book", path.to_str().unwrap()]);
    engine.send("set depth 2\nping 1\ngo");
    let lines = engine.until(Duration::from_secs(10), |l| l.starts_with("==="));
    assert!(lines.last().unwrap().starts_with("=== "), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some());
    std::fs::remove_file(&path).unwrap();
    let errors = engine.stderr_lines();
    assert!(
        errors.iter().any(|l| l.contains("playing without a book")),
        "{errors:?}"
    );
}

// 7. NBoard showed one of the hints it asked for.

/// NBoard's hint list (`Hints.Add`): one hint per square; when a search hint of another depth
/// than the last arrives, the search hints of depths other than that last one are dropped (those
/// of the last depth stay, drawn as old). Book hints always stay.
#[derive(Default)]
struct NboardHints {
    hints: HashMap<String, (bool, String)>,
    last_depth: Option<String>,
}

impl NboardHints {
    fn add(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let book = words[0] == "book";
        let depth = words[4].to_string();
        if !book && self.last_depth.as_ref() != Some(&depth) {
            let last = self.last_depth.clone();
            self.hints
                .retain(|_, (b, d)| *b || Some(&*d) == last.as_ref());
            self.last_depth = Some(depth.clone());
        }
        self.hints
            .insert(words[1][..2].to_uppercase(), (book, depth));
    }

    /// The hints drawn as current: book hints and search hints of the last depth.
    fn shown(&self) -> usize {
        self.hints
            .values()
            .filter(|(b, d)| *b || Some(d) == self.last_depth.as_ref())
            .count()
    }
}

#[test]
fn nboard_shows_every_hint_it_asks_for() {
    let game = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[C5]W[B3]B[C2]W[E6]B[C6]W[B4]B[B5]W[D2]B[E3]W[A6]B[C1]W[D7];)";
    for (n, book) in [(3, false), (4, true), (1, false)] {
        let mut engine = if book {
            nboard(&[])
        } else {
            nboard(&["--no-book"])
        };
        engine.send(&format!("set depth 8\nset game {game}\nping 1\nhint {n}"));
        let lines = engine.until(Duration::from_secs(60), |l| l.starts_with("nodestats"));
        let mut display = NboardHints::default();
        for line in lines
            .iter()
            .filter(|l| l.starts_with("search ") || l.starts_with("book "))
        {
            display.add(line);
        }
        assert_eq!(display.shown(), n, "hint {n}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("search ") && l.split_whitespace().nth(4) == Some("8")),
            "the last depth is the one asked for: {lines:?}"
        );
    }
}

// 8. A forced move or a pass carried a static value, not a search value.

#[test]
fn forced_moves_and_passes_carry_searched_values() {
    let empty = "-".repeat(61);
    // White's only move D1 wipes Black out: 64.
    let white = format!("(;GM[Othello]TY[8]BO[8 OO*{empty} O];)");
    let mut engine = nboard(&["--no-book"]);
    engine.send(&format!("set depth 6\nset game {white}\nping 1\ngo"));
    let lines = engine.until(Duration::from_secs(10), |l| l.starts_with("==="));
    assert!(
        lines.last().unwrap().starts_with("=== D1/64.00/"),
        "{lines:?}"
    );
    engine.send("ping 2\nhint 1");
    until_pong(&engine, 2, Duration::from_secs(5));
    let lines = engine.until(Duration::from_secs(10), |l| l.starts_with("nodestats"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("search"))
        .unwrap();
    assert!(last.starts_with("search D1 64.00 "), "{lines:?}");
    // Black to move there must pass, and loses everything.
    let black = format!("(;GM[Othello]TY[8]BO[8 OO*{empty} *];)");
    engine.send(&format!("set game {black}\nping 3\ngo"));
    let lines = engine.until(Duration::from_secs(10), |l| l.starts_with("==="));
    let reply = lines.last().unwrap();
    assert!(reply.starts_with("=== PA/-64.00/"), "{lines:?}");
}

// 9. `analysis` values were the mover's; NBoard draws them as Black's.

#[test]
fn analysis_values_are_blacks() {
    // A random game from 12 empties to its end: every position solved exactly.
    let full = random_game(Rules::OTHELLO, 200, 0x5EED);
    let mut start = Game::new(Rules::OTHELLO);
    let mut moves = full.moves().iter();
    while start.position().board.empty_count() > 12 {
        start.play(*moves.next().unwrap()).unwrap();
    }
    let rest: Vec<Move> = moves.copied().collect();
    let mut game = Game::from_position(Rules::OTHELLO, start.position());
    let mut text = format!(
        "(;GM[Othello]TY[8]BO[8 {} {}]",
        Rules::OTHELLO.board_string(&start.position())[..64].replace('X', "*"),
        if start.position().to_move == Color::Black {
            '*'
        } else {
            'O'
        }
    );
    let mut exact = Vec::new();
    let mut solver = iago::engine::Engine::new(iago::engine::EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..iago::engine::EngineOptions::analysis()
    })
    .unwrap();
    let black_view = |game: &Game, solver: &mut iago::engine::Engine| {
        let position = game.position();
        if game.is_over() {
            return game.final_score_for_black();
        }
        let request = iago::engine::SearchRequest::analyze(iago::search::Limits::depth(60))
            .board(position.board);
        let s = solver.search(&request, &mut |_| {});
        if position.to_move == Color::Black {
            s.score
        } else {
            -s.score
        }
    };
    exact.push(black_view(&game, &mut solver));
    for mv in &rest {
        let tag = if game.position().to_move == Color::Black {
            'B'
        } else {
            'W'
        };
        text.push_str(&format!("{tag}[{}]", mv.to_uppercase()));
        game.play(*mv).unwrap();
        exact.push(black_view(&game, &mut solver));
    }
    text.push_str(";)");
    assert!(game.is_over());
    let mut engine = nboard(&["--no-book"]);
    engine.send(&format!("set depth 10\nset game {text}\nping 1\nanalyze"));
    let lines = engine.until(Duration::from_secs(60), |l| l.starts_with("analysis 0 "));
    let analysis: Vec<(usize, f64)> = lines
        .iter()
        .filter(|l| l.starts_with("analysis "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[1].parse().unwrap(), w[2].parse().unwrap())
        })
        .collect();
    assert_eq!(analysis.len(), exact.len(), "{lines:?}");
    for (moves_made, eval) in analysis {
        assert_eq!(
            eval,
            f64::from(exact[moves_made]),
            "position {moves_made}: {lines:?}"
        );
    }
}

// 10. GoGui names rows from the bottom; Othello clients (Edax's GTP) from the top.

fn gtp(extra: &[&str]) -> Engine {
    let mut args = vec!["gtp", "--no-book", "--threads", "1", "--depth", "2"];
    args.extend_from_slice(extra);
    Engine::start(&args)
}

/// The move a vertex named from the bottom of an 8x8 board stands for.
fn from_bottom(vertex: &str) -> Move {
    let mv = Move::parse(vertex).unwrap();
    match mv.square() {
        Some(sq) => Move::Play(iago::board::Square::from_coords(7 - sq.row(), sq.col()).unwrap()),
        None => mv,
    }
}

/// `gogui-rules_legal_moves`, sorted.
fn legal_vertices(engine: &mut Engine) -> Vec<String> {
    let mut legal: Vec<String> = engine
        .ok("gogui-rules_legal_moves")
        .split_whitespace()
        .map(String::from)
        .collect();
    legal.sort();
    legal
}

#[test]
fn othello_clients_name_rows_from_the_top() {
    let mut engine = gtp(&[]);
    let mut game = Game::new(Rules::OTHELLO);
    engine.ok("boardsize 8");
    engine.ok("clear_board");
    for (color, mv) in [("b", "f5"), ("w", "d6"), ("b", "c3")] {
        engine.ok(&format!("play {color} {mv}"));
        game.play(Move::parse(mv).unwrap()).unwrap();
    }
    let reply = engine.ok("genmove w");
    let mv = Move::parse(&reply).unwrap();
    assert!(game.position().board.is_legal(mv), "{reply}");
    // a1 top-left: d3 is not legal for Black at the start, f5 is.
    engine.ok("clear_board");
    assert!(!engine.ask("play b d6").0);
    engine.ok("play b f5");
}

#[test]
fn gogui_names_rows_from_the_bottom() {
    // GoGui and gogui-twogtp: `list_commands`, then `gogui-interrupt` when it is listed.
    let mut engine = gtp(&[]);
    assert!(
        engine
            .ok("list_commands")
            .lines()
            .any(|l| l == "gogui-interrupt")
    );
    engine.ok("gogui-interrupt");
    engine.ok("boardsize 8");
    engine.ok("clear_board");
    // Othello's d3 c4 f5 e6 are GoGui's D6 C5 F4 E3.
    assert_eq!(legal_vertices(&mut engine), ["C5", "D6", "E3", "F4"]);
    let mut game = Game::new(Rules::OTHELLO);
    engine.ok("play b F4");
    game.play(Move::parse("f5").unwrap()).unwrap();
    // The board reads the same: first line on top, as GoGui draws it.
    let board = engine.ok("gogui-rules_board");
    let rows: Vec<String> = board.lines().map(|l| l.replace(' ', "")).collect();
    let expected: Vec<String> = Rules::OTHELLO
        .board_string(&game.position())
        .chars()
        .take(64)
        .map(|c| if c == '-' { '.' } else { c })
        .collect::<Vec<char>>()
        .chunks(8)
        .map(|r| r.iter().collect())
        .collect();
    assert_eq!(rows, expected);
    // Its moves, read from the bottom, are legal; a whole game goes through.
    while !game.is_over() {
        let color = if game.position().to_move == Color::Black {
            "b"
        } else {
            "w"
        };
        let reply = engine.ok(&format!("genmove {color}"));
        let mv = from_bottom(&reply);
        assert!(
            mv == Move::Pass && game.must_pass() || game.position().board.is_legal(mv),
            "{reply} in {}",
            game.transcript(true)
        );
        game.play(mv).unwrap();
    }
    // gogui-twogtp relays the final passes.
    engine.ok("play b PASS");
    engine.ok("play w PASS");
    let score = game.final_score_for_black();
    let expected = match score {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(engine.ok("final_score"), expected);
}

#[test]
fn a_gogui_rules_query_also_switches_and_rows_top_keeps_othello_names() {
    // GoGui's rules process starts with `gogui-rules_game_id`.
    let mut engine = gtp(&[]);
    assert_eq!(engine.ok("gogui-rules_game_id"), "Othello");
    engine.ok("play b F4");
    assert!(
        !engine.ask("play w d6").0,
        "d6 is not a legal vertex from the bottom"
    );
    engine.ok("play w D3");
    let mut fixed = gtp(&["--rows", "top"]);
    fixed.ok("gogui-interrupt");
    fixed.ok("play b f5");
    assert_eq!(legal_vertices(&mut fixed), ["D6", "F4", "F6"]);
}

#[test]
fn gogui_interrupt_stops_a_genmove() {
    let mut engine = Engine::start(&["gtp", "--no-book", "--threads", "1", "--depth", "40"]);
    engine.ok("gogui-interrupt");
    engine.send("genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    engine.send("# interrupt");
    let (success, _, text) = engine.reply(Duration::from_secs(5));
    assert!(success && sent.elapsed() < Duration::from_secs(2), "{text}");
    assert!(
        ["C4", "D3", "E6", "F5"].contains(&from_bottom_name(&text).as_str()),
        "{text}"
    );
}

/// The Othello name of a vertex named from the bottom.
fn from_bottom_name(vertex: &str) -> String {
    from_bottom(vertex).to_uppercase()
}

// 11. `play <colour> pass` after the end of the game was an error.

#[test]
fn a_pass_after_the_end_of_the_game_is_accepted() {
    let mut engine = gtp(&[]);
    engine.ok("boardsize 4");
    let mut passes = 0;
    let mut color = "b";
    // As gogui-twogtp plays: colours alternate until two passes in a row.
    while passes < 2 {
        let reply = engine.ok(&format!("genmove {color}"));
        passes = if reply == "pass" { passes + 1 } else { 0 };
        color = if color == "b" { "w" } else { "b" };
    }
    assert_ne!(engine.ok("gogui-rules_final_result"), "unknown");
    engine.ok("play b pass");
    engine.ok("play w pass");
    engine.ok("play b pass");
    engine.ok("final_score");
    // `undo` takes the accepted passes back one by one, and then real moves.
    engine.ok("undo");
    assert!(!engine.ask("play b a1").0, "still over");
}

// 12. A GTP clock set by `time_settings` alone never ran.

#[test]
fn a_gtp_clock_set_once_runs_down() {
    let mut engine = Engine::start(&["gtp", "--no-book", "--threads", "1"]);
    engine.ok("time_settings 1 0 0");
    let mut game = Game::new(Rules::OTHELLO);
    let mut black = Duration::ZERO;
    while !game.is_over() {
        let color = game.position().to_move;
        let name = if color == Color::Black { "b" } else { "w" };
        let start = Instant::now();
        let reply = engine.ok(&format!("genmove {name}"));
        if color == Color::Black {
            black += start.elapsed();
        }
        game.play(Move::parse(&reply).unwrap()).unwrap();
    }
    // A tenth for the pipes and a loaded machine; the unrun clock took 1.31 s.
    assert!(
        black < Duration::from_millis(1100),
        "Black took {black:?} of its 1 s"
    );
}

// Smaller defects.

#[test]
fn malformed_pings_are_answered_and_long_lines_are_not_echoed() {
    let mut engine = nboard(&["--no-book"]);
    let big = "123456789012345678901234567890";
    engine.send(&format!("ping\nping abc\nping {big}"));
    // NBoard reads a number after `pong`: 0 for a ping without one.
    assert_eq!(
        engine.line(Duration::from_secs(5)).as_deref(),
        Some("pong 0")
    );
    assert_eq!(
        engine.line(Duration::from_secs(5)).as_deref(),
        Some("pong 0")
    );
    assert_eq!(
        engine.line(Duration::from_secs(5)),
        Some(format!("pong {big}"))
    );
    // A 1 MB ping and a line with NUL and control characters.
    engine.send(&format!("ping {}", "9".repeat(1 << 20)));
    assert_eq!(
        engine.line(Duration::from_secs(10)).as_deref(),
        Some("pong 0")
    );
    engine.send_bytes(b"hello\0world\x01\x1b[2J\n");
    engine.send("ping 3");
    until_pong(&engine, 3, Duration::from_secs(5));
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some());
    let errors = engine.stderr_lines();
    assert!(!errors.is_empty());
    for line in &errors {
        assert!(line.len() < 300, "a log line of {} bytes", line.len());
        assert!(!line.contains(['\0', '\x01', '\x1b']), "{line:?}");
    }
    assert!(
        errors.iter().any(|l| l.contains("hello\\0world\\u{1}")),
        "{errors:?}"
    );
}

#[test]
fn gtp_ids_beyond_32_bits_are_echoed() {
    let mut engine = gtp(&[]);
    assert_eq!(
        engine.ask("4294967296 name"),
        (true, "4294967296".into(), "Iago".into())
    );
    assert_eq!(
        engine.ask("18446744073709551615 name"),
        (true, "18446744073709551615".into(), "Iago".into())
    );
    let (success, id, text) = engine.ask("18446744073709551616 name");
    assert!(
        !success && id.is_empty() && text.contains("beyond 64 bits"),
        "{text}"
    );
    // Control characters never reach a reply.
    let (success, _, text) = engine.ask("7 play b \u{7}zz9");
    assert!(!success && !text.contains('\u{7}'), "{text:?}");
}

#[test]
fn solve_refuses_positions_beyond_its_empties_limit() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(["solve", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A transcript's position: 57 empties.
    let position = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6c3").unwrap();
    let line = format!("{}\n", Rules::OTHELLO.board_string(&position.position()));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("still solving a 57-empty position after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("57 empty squares") && err.contains("--max-empties"),
        "{err}"
    );
}

#[test]
fn importing_an_empty_book_is_an_error() {
    let dir = std::env::temp_dir().join(format!("iago-empty-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("empty.txt");
    std::fs::write(&input, "% nothing here\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_iago"))
        .args([
            "book",
            "import",
            "--out",
            dir.join("out.book").to_str().unwrap(),
        ])
        .arg(&input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no book positions"), "{err}");
    assert!(!dir.join("out.book").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

// Liveness figures for the record (not a timing assertion): how long a stop takes mid-search.

/// `cargo test --release --test protocol_robustness -- --ignored --nocapture liveness`: 20 runs
/// of each stop during a depth-40 search (2 threads), min / median / max in milliseconds.
#[test]
#[ignore = "measurement: run by hand on a quiet machine"]
fn liveness_figures() {
    fn summary(name: &str, mut ms: Vec<f64>) {
        ms.sort_by(f64::total_cmp);
        println!(
            "{name:<40} min {:7.2}  median {:7.2}  max {:7.2} ms ({} runs)",
            ms[0],
            ms[ms.len() / 2],
            ms[ms.len() - 1],
            ms.len()
        );
    }
    const RUNS: usize = 20;
    let nboard_search = |delay: Duration, stop: &str| -> f64 {
        let mut engine = Engine::start(&["nboard", "--threads", "2", "--no-book"]);
        engine.send(&format!("nboard 2\nset depth 40\nset game {GAME}\nping 1"));
        until_pong(&engine, 1, Duration::from_secs(10));
        if delay.is_zero() {
            let sent = Instant::now();
            engine.send(&format!("go\n{stop}"));
            return finish(&mut engine, stop, sent);
        }
        engine.send("go");
        std::thread::sleep(delay);
        let sent = Instant::now();
        if stop.is_empty() {
            engine.close();
        } else {
            engine.send(stop);
        }
        finish(&mut engine, stop, sent)
    };
    fn finish(engine: &mut Engine, stop: &str, sent: Instant) -> f64 {
        if stop.starts_with("ping") {
            until_pong(engine, 2, Duration::from_secs(10));
            sent.elapsed().as_secs_f64() * 1000.0
        } else {
            let exited = engine.wait_exit(Duration::from_secs(10)).expect("exits");
            (exited - sent).as_secs_f64() * 1000.0
        }
    }
    let ms = Duration::from_millis;
    for (name, delay, stop) in [
        ("nboard ping 500 ms into go", ms(500), "ping 2"),
        ("nboard ping sent with go", Duration::ZERO, "ping 2"),
        ("nboard quit 500 ms into go", ms(500), "quit"),
        ("nboard quit sent with go", Duration::ZERO, "quit"),
        ("nboard end of input 500 ms into go", ms(500), ""),
    ] {
        summary(
            name,
            (0..RUNS).map(|_| nboard_search(delay, stop)).collect(),
        );
    }
    for (name, stop) in [
        ("gtp quit 500 ms into genmove", "quit"),
        ("gtp end of input 500 ms into genmove", ""),
        ("gtp # interrupt 500 ms into genmove", "# interrupt"),
    ] {
        let runs = (0..RUNS)
            .map(|_| {
                let mut engine =
                    Engine::start(&["gtp", "--threads", "2", "--no-book", "--depth", "40"]);
                engine.ok("gogui-interrupt");
                engine.send("genmove b");
                std::thread::sleep(ms(500));
                let sent = Instant::now();
                match stop {
                    "" => engine.close(),
                    s => engine.send(s),
                }
                if stop.starts_with('#') {
                    engine.reply(Duration::from_secs(10));
                    sent.elapsed().as_secs_f64() * 1000.0
                } else {
                    let exited = engine.wait_exit(Duration::from_secs(10)).expect("exits");
                    (exited - sent).as_secs_f64() * 1000.0
                }
            })
            .collect();
        summary(name, runs);
    }
}
