//! `iago review` against planted blunders whose size is known independently: one at 12 empties
//! (its exact loss from the solver), one at 30 empties (far above the noise of the search), a
//! perfectly played endgame (no loss anywhere), the pictures, the batch files, and bad input.

mod common;

use std::path::PathBuf;

use common::{iago, stderr, stdout};
use iago::board::{Color, Game, Move, Position, Rules, parse_obf_line};
use iago::engine::{Engine, EngineOptions, SearchRequest};
use iago::search::{Limits, SolveMode};
use serde_json::Value;

/// FFO #1 (14 empties, Black to move, +18 with g8).
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";

/// The first 30 moves of a game (30 empties, Black to move).
const OPENING_30: &str = "f5d6c4d3c2b3b4b5c5e6c3d2c6b6f7f3e3f2a5a6a3a4a7f4c7d7e8e7f6c8";

fn engine() -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..EngineOptions::analysis()
    })
    .unwrap()
}

fn ffo_1() -> Position {
    parse_obf_line(FFO_1).unwrap().unwrap().position
}

/// The exact score of `position` for the side to move.
fn exact(engine: &mut Engine, position: Position) -> i32 {
    let state = Rules::OTHELLO.state(position).unwrap();
    engine
        .solve(Rules::OTHELLO, &state, SolveMode::Exact)
        .unwrap()
        .solution
        .score
}

/// A GGF game from `start` with `moves`, between Ann (Black) and Bob (White).
fn ggf(start: Position, moves: &[Move]) -> String {
    let board: String = start
        .to_board_string()
        .chars()
        .take(64)
        .map(|c| match c {
            'X' => '*',
            c => c,
        })
        .collect();
    let mover = if start.to_move == Color::Black {
        '*'
    } else {
        'O'
    };
    let mut text = format!("(;GM[Othello]PC[test]PB[Ann]PW[Bob]RE[?]TY[8]BO[8 {board} {mover}]");
    let mut color = start.to_move;
    for &mv in moves {
        let tag = if color == Color::Black { 'B' } else { 'W' };
        text.push_str(&format!("{tag}[{}]", mv.to_uppercase()));
        color = color.opposite();
    }
    text.push_str(";)\n");
    text
}

/// A scratch file holding `text`.
fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("iago-review-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The JSON rows of `iago review FILE --json ARGS`, which must succeed.
fn review_json(path: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["review", path.to_str().unwrap(), "--json", "--threads", "1"];
    all.extend_from_slice(args);
    let out = iago(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A perfect line from `position` to the end of the game.
fn perfect_line_from(engine: &mut Engine, position: Position) -> Vec<Move> {
    let state = Rules::OTHELLO.state(position).unwrap();
    let solved = engine
        .solve(Rules::OTHELLO, &state, SolveMode::Exact)
        .unwrap();
    solved.solution.pv
}

/// A perfect line from FFO #1 to the end.
fn perfect_line(engine: &mut Engine) -> Vec<Move> {
    perfect_line_from(engine, ffo_1())
}

#[test]
fn a_perfectly_played_endgame_loses_nothing() {
    let mut engine = engine();
    let line = perfect_line(&mut engine);
    let path = scratch_file("perfect.ggf", &ggf(ffo_1(), &line));
    let rows = review_json(&path, &["--depth", "4"]);
    std::fs::remove_file(&path).unwrap();
    let moves = line.iter().filter(|m| !m.is_pass()).count();
    assert_eq!(rows.len(), moves, "every move but the passes");
    for row in &rows {
        assert_eq!(row["loss"], 0, "{row}");
        assert_eq!(row["exact"], true, "{row}");
        assert_eq!(row["value"], row["best_value"], "{row}");
        let for_black =
            row["value"].as_i64().unwrap() * if row["color"] == "black" { 1 } else { -1 };
        assert_eq!(for_black, 18, "the game's value stays Black's +18: {row}");
    }
    assert_eq!(rows[0]["player"], "Ann");
    assert_eq!(rows[0]["empties"], 14);
}

/// A game from FFO #1: `perfect` moves of the solver's line, then the worst move (by exact
/// solves of every move), then the solver's line to the end.
struct Blundered {
    moves: Vec<Move>,
    /// The worst move, at ply `perfect + 1`.
    blunder: Move,
    /// The exact values of the best move and of the blunder, for the side that blundered.
    best: i32,
    value: i32,
    /// Empties before the blunder.
    empties: u32,
}

fn blundered_game(engine: &mut Engine, perfect: usize) -> Blundered {
    let line = perfect_line(engine);
    let mut position = ffo_1();
    let mut moves = line[..perfect].to_vec();
    for &mv in &moves {
        position = position.try_play(mv).unwrap();
    }
    let best = exact(engine, position);
    let (blunder, value) = position
        .board
        .legal_moves()
        .iter()
        .map(|sq| {
            let mv = Move::Play(sq);
            (mv, -exact(engine, position.try_play(mv).unwrap()))
        })
        .min_by_key(|&(_, v)| v)
        .unwrap();
    moves.push(blunder);
    let after = position.try_play(blunder).unwrap();
    moves.extend(perfect_line_from(engine, after));
    Blundered {
        moves,
        blunder,
        best,
        value,
        empties: position.board.empty_count(),
    }
}

#[test]
fn a_blunder_at_12_empties_is_found_with_its_exact_loss() {
    let mut engine = engine();
    let game = blundered_game(&mut engine, 2);
    assert_eq!(game.empties, 12);
    let loss = game.best - game.value;
    assert!(loss >= 8, "a blunder worth finding: {loss}");
    let path = scratch_file("blunder12.ggf", &ggf(ffo_1(), &game.moves));
    let rows = review_json(&path, &["--depth", "4"]);
    std::fs::remove_file(&path).unwrap();
    let row = rows.iter().find(|r| r["ply"] == 3).expect("the third move");
    assert_eq!(row["empties"], 12);
    assert_eq!(row["move"], game.blunder.to_string());
    assert_eq!(row["exact"], true);
    assert_eq!(row["best_value"], game.best);
    assert_eq!(row["value"], game.value);
    assert_eq!(row["loss"], loss);
    // The only loss of the game.
    let total: i64 = rows.iter().map(|r| r["loss"].as_i64().unwrap()).sum();
    assert_eq!(total, i64::from(loss));
}

#[test]
fn a_blunder_at_30_empties_is_found_far_above_the_noise() {
    let opening = Game::from_transcript(Rules::OTHELLO, Position::start(), OPENING_30).unwrap();
    let position = opening.position();
    assert_eq!(position.board.empty_count(), 30);
    // Each move's value from a 12-ply search on a fresh table: the worst is the blunder.
    let mut engine = engine();
    let mut value_of = |mask: u64| {
        engine.clear_hash();
        let request = SearchRequest::analyze(Limits::depth(12))
            .board(position.board)
            .moves(mask);
        engine.search(&request, &mut |_| {}).score
    };
    let best = value_of(u64::MAX);
    let (blunder, value) = position
        .board
        .legal_moves()
        .iter()
        .map(|sq| (Move::Play(sq), value_of(1 << sq.index())))
        .min_by_key(|&(_, v)| v)
        .unwrap();
    let planted = best - value;
    assert!(planted >= 16, "a loss far above the noise: {planted}");
    let path = scratch_file(
        "blunder30.txt",
        &format!("# a game\n{OPENING_30}{blunder}\n"),
    );
    let openings = scratch_file("openings30.txt", &format!("{OPENING_30}\n"));
    let rows = review_json(
        &path,
        &["--depth", "12", "--openings", openings.to_str().unwrap()],
    );
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&openings).unwrap();
    assert_eq!(rows.len(), 1, "only the move after the opening: {rows:?}");
    let row = &rows[0];
    assert_eq!(
        (row["ply"].as_u64(), row["empties"].as_u64()),
        (Some(31), Some(30))
    );
    assert_eq!(row["move"], blunder.to_string());
    assert_eq!(row["exact"], false);
    let loss = row["loss"].as_i64().unwrap();
    assert!(
        (loss - i64::from(planted)).abs() <= 4,
        "review {loss}, planted {planted}"
    );
}

#[test]
fn the_picture_draws_every_move_and_marks_the_blunders() {
    // White's second move replaced by its worst one, then perfect play again.
    let game = blundered_game(&mut engine(), 3);
    let moves = game.moves;
    let path = scratch_file("picture.ggf", &ggf(ffo_1(), &moves));
    let dir = std::env::temp_dir().join(format!("iago-review-{}-svg", std::process::id()));
    let rows = review_json(&path, &["--depth", "4", "--svg", dir.to_str().unwrap()]);
    let svg = std::fs::read_to_string(dir.join("game-1.svg")).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the picture is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let title = root
        .children()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.contains("Ann (Black) vs Bob (White)"), "{title}");
    let points: Vec<(f64, f64)> = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("values"))
        .unwrap()
        .attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert_eq!(
        points.len(),
        rows.len() + 1,
        "the start and every reviewed move"
    );
    assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "left to right");
    // The values as drawn: the same for every move but the blunder's, which drops; with the
    // y axis pointing down, a worse value for Black is a larger y.
    let blunder_ply = 4;
    let blunders: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("blunder"))
        .collect();
    let expected: Vec<&Value> = rows
        .iter()
        .filter(|r| r["loss"].as_i64().unwrap() >= 4)
        .collect();
    assert_eq!(blunders.len(), expected.len());
    assert_eq!(blunders.len(), 1);
    assert_eq!(
        blunders[0].attribute("data-ply"),
        Some(blunder_ply.to_string().as_str())
    );
    assert_eq!(
        blunders[0].attribute("data-loss").map(str::to_string),
        Some(expected[0]["loss"].to_string())
    );
    let at = rows.iter().position(|r| r["ply"] == blunder_ply).unwrap() + 1;
    assert!(
        points[at].1 != points[at - 1].1,
        "the curve moves at the blunder"
    );
    assert!(
        points[at + 1..].iter().all(|p| p.1 == points[at].1),
        "and stays after it (perfect play)"
    );
}

#[test]
fn shards_merge_into_one_run_and_a_rerun_resumes() {
    let games = format!("{OPENING_30}\nf5d6c3d3c4\n{OPENING_30}\nf5f6e6f4\n");
    let path = scratch_file("batch.txt", &games);
    let out = |name: &str| {
        std::env::temp_dir().join(format!("iago-review-{}-{name}", std::process::id()))
    };
    let run = |extra: &[&str]| {
        let mut args = vec![
            "review",
            path.to_str().unwrap(),
            "--depth",
            "3",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        let o = iago(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    let (whole, first, second) = (out("whole.jsonl"), out("s0.jsonl"), out("s1.jsonl"));
    run(&["--out", whole.to_str().unwrap()]);
    run(&["--shard", "0/2", "--out", first.to_str().unwrap()]);
    run(&["--shard", "1/2", "--out", second.to_str().unwrap()]);
    let again = run(&["--out", whole.to_str().unwrap()]);
    assert!(stderr(&again).contains("4 of the 4"), "{}", stderr(&again));
    assert_eq!(
        stdout(&again)
            .lines()
            .filter(|l| l.starts_with("game "))
            .count(),
        0
    );
    let merged = iago(&["merge", first.to_str().unwrap(), second.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let one = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(stdout(&merged), one);
    assert_eq!(one.lines().count(), 4);
    let game: Value = serde_json::from_str(one.lines().nth(1).unwrap()).unwrap();
    assert_eq!(game["game"], 2);
    assert_eq!(game["moves"].as_array().unwrap().len(), 5);
    for f in [&path, &whole, &first, &second] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn bad_input_is_a_one_line_error() {
    let missing = iago(&["review", "/no/such/games.ggf"]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        stderr(&missing).trim(),
        "iago: error: cannot read /no/such/games.ggf: No such file or directory (os error 2)"
    );
    let empty = scratch_file("empty.txt", "# nothing here\n\n");
    let out = iago(&["review", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        format!("iago: error: {}: no games", empty.display())
    );
    std::fs::remove_file(&empty).unwrap();
    // A bad line and a broken GGF game: each named with its line, the good game reviewed.
    let mixed = scratch_file("mixed.txt", "f5d6c3\nf5f5\n(;GM[Othello]BO[8 nonsense];)\n");
    let out = iago(&["review", mixed.to_str().unwrap(), "--json", "--depth", "2"]);
    std::fs::remove_file(&mixed).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let errors: Vec<String> = stderr(&out).lines().map(str::to_string).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("iago: error: {}:2: ", mixed.display())),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with(&format!("iago: error: {}:3: ", mixed.display())),
        "{errors:?}"
    );
    assert_eq!(errors[2], "iago: error: 2 game(s) could not be read");
    assert_eq!(
        stdout(&out).lines().count(),
        3,
        "the good game's three moves"
    );
}
