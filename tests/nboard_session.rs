//! NBoard sessions with the real binary, driven by a clean-room client that sequences commands
//! the way NBoard's engine layer does (state update, contempt, depth, ping, request) and checks
//! every reply the way NBoard's reply parser would.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, game_reaching_a_pass, weights_read_before};
use iago::board::rules::Goal;
use iago::board::{Color, Game, Move, Rules};

const LONG: Duration = Duration::from_secs(60);

/// What NBoard would make of one engine line; panics on a line that would raise its
/// "Engine communication error" dialog.
#[derive(Debug, Clone, PartialEq)]
enum Reply {
    Name(String),
    Pong(Option<i64>),
    Status,
    Move {
        mv: Move,
        eval: Option<f64>,
    },
    Hint {
        first: Move,
        eval: Option<f64>,
        depth: String,
        book: bool,
    },
    NodeStats,
    Analysis {
        moves_made: u32,
        eval: f64,
    },
    Learned,
    Ignored,
}

/// A decimal without exponent, as NBoard's `readDoubleNoExponent`.
fn no_exponent(text: &str) -> f64 {
    assert!(!text.contains(['e', 'E']), "exponent in '{text}'");
    text.parse()
        .unwrap_or_else(|_| panic!("not a number: '{text}'"))
}

fn square_or_pass(text: &str) -> Move {
    let t = text.to_ascii_uppercase();
    if ["PA", "PASS", "--"].contains(&t.as_str()) {
        return Move::Pass;
    }
    let b = t.as_bytes();
    assert!(
        b.len() >= 2 && (b'A'..=b'H').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]),
        "bad move '{text}'"
    );
    Move::parse(&t[..2]).unwrap()
}

fn check_line(line: &str) -> Reply {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    match first {
        "===" => {
            let mli = words.collect::<Vec<_>>().join("/");
            let mut parts = mli.split('/');
            let mv = square_or_pass(parts.next().unwrap());
            let eval = parts.next().filter(|e| !e.is_empty()).map(no_exponent);
            if let Some(t) = parts.next().filter(|t| !t.is_empty()) {
                no_exponent(t);
            }
            Reply::Move { mv, eval }
        }
        "pong" => Reply::Pong(words.next().map(|n| n.parse().unwrap())),
        "status" => Reply::Status,
        "set" => {
            assert_eq!(
                words.next(),
                Some("myname"),
                "only `set myname` is allowed: {line}"
            );
            let name = words.next().expect("a name").to_string();
            assert_eq!(words.next(), None, "the name must be one token: {line}");
            Reply::Name(name)
        }
        "search" | "book" => {
            let pv = words.next().expect("pv");
            let eval = words.next().expect("eval");
            let eval = if eval == "NaN" {
                panic!("Iago must never print NaN: {line}")
            } else {
                Some(no_exponent(eval.split(',').next().unwrap()))
            };
            let games: i64 = words
                .next()
                .expect("games")
                .parse()
                .expect("games is an int");
            if first == "search" {
                assert_eq!(games, 0, "{line}");
            }
            let depth = words.next().expect("depth").to_string();
            assert!(
                depth.chars().next().unwrap().is_ascii_digit(),
                "depth starts with an int: {line}"
            );
            Reply::Hint {
                first: square_or_pass(&pv[..2.min(pv.len())]),
                eval,
                depth,
                book: first == "book",
            }
        }
        "nodestats" => {
            let _: u64 = words.next().unwrap().parse().unwrap();
            no_exponent(words.next().unwrap());
            Reply::NodeStats
        }
        "analysis" => {
            let moves_made = words.next().unwrap().parse().unwrap();
            let eval = no_exponent(words.next().unwrap());
            Reply::Analysis { moves_made, eval }
        }
        "learned" => Reply::Learned,
        _ => Reply::Ignored,
    }
}

/// The GGF NBoard would send for `game` (`TY` and `BO` in the game's size, `a` for anti).
fn ggf(game: &Game) -> String {
    let start = game.start();
    let rules = game.rules();
    let board: String = rules
        .board_string(&start)
        .chars()
        .take(rules.board_squares().count())
        .map(|c| if c == 'X' { '*' } else { c })
        .collect();
    let mover = if start.to_move == Color::Black {
        '*'
    } else {
        'O'
    };
    let mut text = format!(
        "(;GM[Othello]PC[NBoard]DT[2026-11-22 10:00:00 GMT]PB[]PW[]RE[?]TI[15:00]TY[{}]BO[{} {board} {mover}]",
        rules.ggf_type(),
        rules.size
    );
    let mut color = start.to_move;
    for mv in game.moves() {
        let tag = if color == Color::Black { 'B' } else { 'W' };
        text.push_str(&format!("{tag}[{}]", mv.to_uppercase()));
        color = color.opposite();
    }
    text.push_str(";)");
    text
}

/// NBoard's side of the conversation.
struct Gui {
    engine: Engine,
    ping: i64,
    sent: Option<Game>,
    depth: Option<u32>,
    name: Option<String>,
}

impl Gui {
    /// An engine that searches every position (no book).
    fn start() -> Gui {
        Gui::start_with(&["nboard", "--threads", "2", "--hash", "16", "--no-book"])
    }

    /// An engine with `threads` search threads and the book file `path`.
    fn with_book(threads: &str, path: &std::path::Path) -> Gui {
        Gui::start_with(&[
            "nboard",
            "--threads",
            threads,
            "--hash",
            "16",
            "--book",
            path.to_str().unwrap(),
        ])
    }

    fn start_with(args: &[&str]) -> Gui {
        let mut engine = Engine::start(args);
        engine.send("nboard 2");
        Gui {
            engine,
            ping: 0,
            sent: None,
            depth: None,
            name: None,
        }
    }

    /// State update, depth, ping — then the request.
    fn request(&mut self, game: &Game, depth: u32, request: &str) {
        let one_more = self.sent.as_ref().is_some_and(|prev| {
            prev.start() == game.start()
                && prev.moves().len() + 1 == game.moves().len()
                && game.moves().starts_with(prev.moves())
        });
        if one_more {
            let mv = game.moves().last().unwrap();
            self.engine.send(&format!("move {}", mv.to_uppercase()));
        } else {
            self.engine.send(&format!("set game {}", ggf(game)));
        }
        self.sent = Some(game.clone());
        if self.depth != Some(depth) {
            self.engine.send(&format!("set depth {depth}"));
            self.depth = Some(depth);
        }
        self.ping += 1;
        self.engine.send(&format!("ping {}", self.ping));
        self.engine.send(request);
    }

    /// Reads until `done` after the current pong; returns the current replies.
    fn replies(&mut self, done: impl Fn(&Reply) -> bool) -> Vec<Reply> {
        let mut current = false;
        let mut out = Vec::new();
        let ping = self.ping;
        let mut finished = false;
        self.engine.until(LONG, |line| {
            let reply = check_line(line);
            match &reply {
                Reply::Name(n) => self.name = Some(n.clone()),
                Reply::Pong(n) => current = *n == Some(ping),
                _ => {}
            }
            if current {
                finished = done(&reply);
                out.push(reply);
            }
            finished
        });
        out
    }

    fn go(&mut self, game: &Game, depth: u32) -> Reply {
        self.request(game, depth, "go");
        let replies = self.replies(|r| matches!(r, Reply::Move { .. }));
        replies
            .into_iter()
            .find(|r| matches!(r, Reply::Move { .. }))
            .unwrap()
    }

    fn hint(&mut self, game: &Game, depth: u32, n: u32) -> Vec<Reply> {
        self.request(game, depth, &format!("hint {n}"));
        self.replies(|r| matches!(r, Reply::NodeStats))
    }
}

#[test]
fn a_whole_game_against_itself() {
    let mut gui = Gui::start();
    let mut game = Game::new(Rules::OTHELLO);
    while !game.is_over() {
        let Reply::Move { mv, eval } = gui.go(&game, 3) else {
            unreachable!()
        };
        assert!(eval.is_some());
        let board = game.position().board;
        if mv == Move::Pass {
            assert!(board.must_pass(), "PA only when forced");
        }
        game.play(mv)
            .unwrap_or_else(|e| panic!("illegal move {mv} from the engine: {e}"));
    }
    assert_eq!(gui.name.as_deref(), Some("Iago"));
    assert!(game.moves().len() >= 58);
    let errors = gui.engine.stderr_lines();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn pass_positions() {
    let mut gui = Gui::start();
    let game = game_reaching_a_pass();
    let Reply::Move { mv, .. } = gui.go(&game, 4) else {
        unreachable!()
    };
    assert_eq!(mv, Move::Pass);
    let hints = gui.hint(&game, 4, 4);
    let firsts: Vec<_> = hints
        .iter()
        .filter_map(|r| match r {
            Reply::Hint { first, .. } => Some(*first),
            _ => None,
        })
        .collect();
    assert!(!firsts.is_empty());
    assert!(firsts.iter().all(|m| *m == Move::Pass), "{hints:?}");
    // After the pass is played (sent as a move), the engine answers for the other side.
    let mut after = game.clone();
    after.play(Move::Pass).unwrap();
    let Reply::Move { mv, .. } = gui.go(&after, 4) else {
        unreachable!()
    };
    assert!(after.position().board.is_legal(mv));
}

#[test]
fn hint_deepens_and_covers_distinct_moves() {
    let mut gui = Gui::start();
    let game =
        Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5d6c3").unwrap();
    let hints = gui.hint(&game, 5, 3);
    let mut firsts = std::collections::HashSet::new();
    let mut depths = Vec::new();
    for r in &hints {
        if let Reply::Hint {
            first, depth, book, ..
        } = r
        {
            assert!(!book);
            assert!(game.position().board.is_legal(*first));
            firsts.insert(*first);
            depths.push(depth.clone());
        }
    }
    assert!(firsts.len() >= 3, "{hints:?}");
    assert!(
        depths.contains(&"1".to_string()) && depths.contains(&"5".to_string()),
        "{depths:?}"
    );
}

#[test]
fn ping_stops_thinking_and_is_answered_in_order() {
    let mut gui = Gui::start();
    let game = Game::new(Rules::OTHELLO);
    gui.request(&game, 40, "go");
    std::thread::sleep(Duration::from_millis(300));
    gui.ping += 1;
    let sent = Instant::now();
    gui.engine.send(&format!("ping {}", gui.ping));
    let lines = gui.engine.until(Duration::from_secs(5), |l| {
        l == format!("pong {}", gui.ping)
    });
    let elapsed = sent.elapsed();
    let best = lines
        .iter()
        .position(|l| l.starts_with("==="))
        .expect("the stopped search still answers");
    assert!(
        best < lines.len() - 1,
        "=== comes before the pong: {lines:?}"
    );
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    // The engine still works afterwards.
    let Reply::Move { mv, .. } = gui.go(&game, 2) else {
        unreachable!()
    };
    assert!(game.position().board.is_legal(mv));
}

#[test]
fn quit_and_end_of_input_exit_mid_search() {
    for use_quit in [true, false] {
        let mut gui = Gui::start();
        gui.request(&Game::new(Rules::OTHELLO), 40, "go");
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        if use_quit {
            gui.engine.send("quit");
        } else {
            gui.engine.close();
        }
        let exited = gui
            .engine
            .wait_exit(Duration::from_secs(5))
            .expect("iago exits");
        let took = exited - sent;
        assert!(took < Duration::from_secs(1), "took {took:?}");
    }
}

#[test]
fn malformed_lines_and_illegal_moves_are_ignored() {
    let mut gui = Gui::start();
    let game = Game::new(Rules::OTHELLO);
    gui.request(&game, 2, "go");
    gui.replies(|r| matches!(r, Reply::NodeStats));
    for junk in [
        "hello",
        "move Z9",
        "move A1",
        "set depth x",
        "ping",
        "go now",
        "set game (;garbage",
        "set move_overhead -3",
        "set move_overhead 40",
        "\u{7f}\u{1}",
    ] {
        gui.engine.send(junk);
    }
    gui.ping += 1;
    gui.engine.send(&format!("ping {}", gui.ping));
    let last = format!("pong {}", gui.ping);
    let lines = gui.engine.until(Duration::from_secs(5), |l| l == last);
    assert_eq!(
        lines,
        vec!["pong 0".to_string(), format!("pong {}", gui.ping)],
        "nothing but the pongs on stdout (pong 0 for the bare ping)"
    );
    // The position did not change: `move A1` was illegal.
    gui.engine.send("go");
    let lines = gui.engine.until(LONG, |l| l.starts_with("==="));
    let Reply::Move { mv, .. } = check_line(lines.last().unwrap()) else {
        unreachable!()
    };
    assert!(game.position().board.is_legal(mv), "{mv}");
    std::thread::sleep(Duration::from_millis(100));
    let errors = gui.engine.stderr_lines();
    assert!(errors.len() >= 7, "each bad line is logged: {errors:?}");
    for line in errors {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(
            ![
                "set",
                "===",
                "pong",
                "search",
                "book",
                "nodestats",
                "analysis",
                "status",
                "learned"
            ]
            .contains(&first),
            "a log line that NBoard would parse: {line}"
        );
    }
}

#[test]
fn learn_and_analyze() {
    let mut gui = Gui::start();
    let game = Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5d6c3d3c4")
        .unwrap();
    gui.request(&game, 2, "learn");
    let replies = gui.replies(|r| matches!(r, Reply::Learned));
    assert_eq!(replies.last(), Some(&Reply::Learned));
    gui.request(&game, 2, "analyze");
    let replies = gui.replies(|r| matches!(r, Reply::Analysis { moves_made: 0, .. }));
    let made: Vec<u32> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Analysis { moves_made, .. } => Some(*moves_made),
            _ => None,
        })
        .collect();
    assert_eq!(made, vec![5, 4, 3, 2, 1, 0]);
}

#[test]
fn the_clock_limits_the_move_time() {
    let mut gui = Gui::start();
    // Two seconds left for Black with 60 empties: each move must be quick.
    let game = Game::new(Rules::OTHELLO);
    gui.engine.send(&format!(
        "set game {}",
        ggf(&game).replace("TI[15:00]", "TI[0:02]")
    ));
    gui.sent = Some(game.clone());
    gui.depth = Some(40);
    gui.engine.send("set depth 40");
    gui.ping += 1;
    gui.engine.send(&format!("ping {}", gui.ping));
    let start = Instant::now();
    gui.engine.send("go");
    gui.replies(|r| matches!(r, Reply::Move { .. }));
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
}

/// A book file: the start, f5 and f5d6 (White's d6 linked; leaves: after f5, f4 +2; after f5d6,
/// c3 +1).
fn small_book(path: &std::path::Path) {
    use iago::book::Book;
    let mut book = Book::new();
    let line =
        Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5d6").unwrap();
    book.add_line(line.start().board, line.moves(), 12, true);
    let f5 = iago::board::Board::start().play(Move::parse("f5").unwrap());
    book.set_leaf(&f5, Some((Move::parse("f4").unwrap(), 2)), 12);
    book.set_leaf(
        &f5.play(Move::parse("d6").unwrap()),
        Some((Move::parse("c3").unwrap(), 1)),
        12,
    );
    book.negamax();
    book.save(path).unwrap();
}

#[test]
fn the_book_answers_go_and_hint_and_learns() {
    let dir = std::env::temp_dir().join(format!("iago-nboard-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.book");
    small_book(&path);
    let mut gui = Gui::with_book("2", &path);
    // After f5 the book knows f4 (+2, its best move outside the book) and d6 (-1).
    let f5 = Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5").unwrap();
    let reply = gui.go(&f5, 10);
    assert_eq!(
        reply,
        Reply::Move {
            mv: Move::parse("f4").unwrap(),
            eval: Some(2.0)
        }
    );
    let hints = gui.hint(&f5, 4, 4);
    let lines: Vec<&Reply> = hints
        .iter()
        .filter(|r| matches!(r, Reply::Hint { .. }))
        .collect();
    let book: Vec<(Move, bool)> = lines
        .iter()
        .map(|r| match r {
            Reply::Hint { first, book, .. } => (*first, *book),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        book[..2],
        [
            (Move::parse("f4").unwrap(), true),
            (Move::parse("d6").unwrap(), true)
        ],
        "{hints:?}"
    );
    // The third move is searched (a `search` line), not one of the book's.
    assert!(
        book[2..]
            .iter()
            .all(|(mv, b)| !b && !["f4", "d6"].contains(&mv.to_string().as_str())),
        "{hints:?}"
    );
    // `learn` adds the game and saves the book file.
    let game = Game::from_transcript(
        Rules::OTHELLO,
        iago::board::Position::start(),
        "f5d6c3d3c4f4",
    )
    .unwrap();
    gui.request(&game, 4, "learn");
    let replies = gui.replies(|r| matches!(r, Reply::Learned));
    assert_eq!(replies.last(), Some(&Reply::Learned));
    gui.engine.send("quit");
    let book = iago::book::Book::load(&path).unwrap();
    assert!(
        book.contains(&game.position().board),
        "{} positions",
        book.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_gives_book_positions_their_book_values() {
    let dir = std::env::temp_dir().join(format!("iago-nboard-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.book");
    small_book(&path);
    let book = iago::book::Book::load(&path).unwrap();
    let mut gui = Gui::with_book("1", &path);
    let game =
        Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5d6c3").unwrap();
    gui.request(&game, 6, "analyze");
    let replies = gui.replies(|r| matches!(r, Reply::Analysis { moves_made: 0, .. }));
    let curve: Vec<(u32, f64)> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Analysis { moves_made, eval } => Some((*moves_made, *eval)),
            _ => None,
        })
        .collect();
    assert_eq!(curve.len(), 4, "{curve:?}");
    // The start, f5 and f5d6 are in the book: Black's view of their best book move's value.
    for (made, state) in game.states().enumerate().take(3) {
        let best = book
            .moves(&state.board())
            .iter()
            .map(|c| c.value)
            .max()
            .expect("a book position");
        let black = if state.to_move() == iago::board::Color::Black {
            best
        } else {
            -best
        };
        let point = curve.iter().find(|(m, _)| *m as usize == made).unwrap();
        assert_eq!(point.1, f64::from(black), "after {made} moves: {curve:?}");
    }
    gui.engine.send("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_new_book_file_is_made_from_the_built_in_book_and_learns() {
    let dir = std::env::temp_dir().join(format!("iago-nboard-newbook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.book");
    assert!(!path.exists());
    let mut gui = Gui::with_book("1", &path);
    // An opening the built-in book plays: the book answers at once.
    let f5 = Game::from_transcript(Rules::OTHELLO, iago::board::Position::start(), "f5").unwrap();
    let hints = gui.hint(&f5, 4, 2);
    assert!(
        hints
            .iter()
            .any(|r| matches!(r, Reply::Hint { book: true, .. })),
        "{hints:?}"
    );
    let shipped = iago::book::Book::shipped().unwrap();
    // A whole game off the book's usual lines, learned into the new file.
    let game = common::random_game(Rules::OTHELLO, 100, 77);
    assert!(game.is_over());
    gui.request(&game, 2, "learn");
    let replies = gui.replies(|r| matches!(r, Reply::Learned));
    assert_eq!(replies.last(), Some(&Reply::Learned));
    gui.engine.send("quit");
    gui.engine.wait_exit(LONG);
    let learned = iago::book::Book::load(&path).expect("the new book file");
    assert!(
        learned.len() > shipped.len(),
        "{} <= {}",
        learned.len(),
        shipped.len()
    );
    let new = game
        .states()
        .take(20)
        .filter(|s| !shipped.contains(&s.board()))
        .find(|s| !s.board().legal_moves().is_empty())
        .expect("a position the built-in book lacks");
    assert!(learned.contains(&new.board()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_file_that_cannot_be_made_is_a_warning_at_the_start() {
    let mut engine = Engine::start(&[
        "nboard",
        "--threads",
        "1",
        "--hash",
        "16",
        "--book",
        "/nonexistent-dir/mine.book",
    ]);
    engine.send("nboard 2");
    // The first search waits for the book: its warning is out by the pong.
    engine.send("set depth 2");
    engine.send("hint 1");
    engine.send("ping 1");
    engine.until(LONG, |l| l == "pong 1");
    engine.send("quit");
    engine.wait_exit(LONG);
    let errors = engine.stderr_lines().join("\n");
    assert!(
        errors.contains("cannot create the opening book /nonexistent-dir/mine.book"),
        "{errors}"
    );
    assert!(errors.contains("not be saved"), "{errors}");
}

/// Whether `mv` is legal in `game` under its rules (a pass only when forced).
fn legal_in(game: &Game, mv: Move) -> bool {
    match mv {
        Move::Pass => game.must_pass(),
        Move::Play(sq) => game.legal_moves() >> sq.index() & 1 != 0,
    }
}

#[test]
fn a_whole_4x4_anti_game() {
    let mut gui = Gui::start();
    let anti = Rules {
        size: 4,
        goal: Goal::FewestDiscs,
        ..Rules::OTHELLO
    };
    let mut game = Game::new(anti);
    let mut passes = 0;
    while !game.is_over() {
        let Reply::Move { mv, eval } = gui.go(&game, 4) else {
            unreachable!()
        };
        assert!(eval.is_some());
        assert!(
            legal_in(&game, mv),
            "{mv} in {} ({})",
            game.transcript(true),
            ggf(&game)
        );
        passes += usize::from(mv == Move::Pass);
        game.play(mv).unwrap();
    }
    assert!(
        game.moves().len() - passes >= 4,
        "{}",
        game.transcript(true)
    );
    // hint at the end and in the middle of the game: legal moves only.
    let mut middle = game.clone();
    while middle.moves().len() > 3 {
        middle.undo();
    }
    let hints = gui.hint(&middle, 3, 4);
    let firsts: Vec<Move> = hints
        .iter()
        .filter_map(|r| match r {
            Reply::Hint { first, book, .. } => {
                assert!(!book, "no book for variants");
                Some(*first)
            }
            _ => None,
        })
        .collect();
    assert!(!firsts.is_empty(), "{hints:?}");
    assert!(firsts.iter().all(|&m| legal_in(&middle, m)), "{hints:?}");
    let errors = gui.engine.stderr_lines();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn set_game_reads_6x6_boards_and_refuses_unsupported_types() {
    let mut gui = Gui::start();
    // As NBoard writes it: TY[6], BO[6 <36 squares> <mover>], then the moves.
    let text = "(;GM[Othello]PC[NBoard]DT[2026-11-22 10:00:00 GMT]PB[]PW[]RE[?]TI[15:00]TY[6]\
                BO[6 --------------O*----*O-------------- *]B[C2]W[D2];)";
    let six = Rules {
        size: 6,
        ..Rules::OTHELLO
    };
    let game = Game::from_transcript(six, six.start_position(), "c2d2").unwrap();
    gui.engine.send(&format!("set game {text}"));
    gui.sent = Some(game.clone());
    gui.depth = Some(3);
    gui.engine.send("set depth 3");
    gui.ping += 1;
    gui.engine.send(&format!("ping {}", gui.ping));
    gui.engine.send("go");
    let replies = gui.replies(|r| matches!(r, Reply::Move { .. }));
    let Some(Reply::Move { mv, .. }) = replies.last() else {
        panic!("{replies:?}")
    };
    assert!(legal_in(&game, *mv), "{mv}");

    // `move` under the 6x6 rules, then go for White.
    let mut next = game.clone();
    next.play(*mv).unwrap();
    let Reply::Move { mv, .. } = gui.go(&next, 3) else {
        unreachable!()
    };
    assert!(legal_in(&next, mv), "{mv}");
    gui.engine.until(LONG, |l| l.starts_with("nodestats"));

    // Unsupported types: one log line each, and the 6x6 game (`next`) stays.
    let unsupported = [
        "(;GM[Othello]TY[s8]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "(;GM[Othello]TY[10];)",
        "(;GM[Othello]TY[8k]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "(;GM[Othello]BO[5 ------------O*---------- *];)",
    ];
    for text in unsupported {
        gui.engine.send(&format!("set game {text}"));
    }
    gui.ping += 1;
    gui.engine.send(&format!("ping {}", gui.ping));
    let lines = gui
        .engine
        .until(Duration::from_secs(5), |l| l.starts_with("pong"));
    assert_eq!(lines, vec![format!("pong {}", gui.ping)], "stdout is clean");
    gui.engine.send("go");
    let lines = gui.engine.until(LONG, |l| l.starts_with("==="));
    let Reply::Move { mv, .. } = check_line(lines.last().unwrap()) else {
        unreachable!()
    };
    assert!(legal_in(&next, mv), "{mv} after {}", next.transcript(true));
    std::thread::sleep(Duration::from_millis(100));
    let errors = gui.engine.stderr_lines();
    assert_eq!(errors.len(), unsupported.len(), "one line each: {errors:?}");
    for (line, ty) in errors.iter().zip(["TY[s8]", "TY[10]", "TY[8k]", "BO[5"]) {
        assert!(
            line.contains("ignored set game") && line.contains(ty),
            "{line}"
        );
        assert!(line.contains("synchro") || !ty.contains('s'), "{line}");
    }
}

/// NBoard waits for the pong before it starts its clock: the pong comes only once the weights
/// still loading at the program's start are read, so the first search does not wait for them.
#[test]
fn the_first_pong_comes_once_the_weights_are_read() {
    weights_read_before("nboard", "nboard 2\nping 1\nquit\n", "pong 1", |l| {
        l == "pong 1"
    });
}
