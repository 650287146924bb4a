//! `iago analyze` (a depth- or time-limited search of each position) and `iago bench` (a fixed
//! search for regression checks).

use std::io::{IsTerminal, Write};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::board::{Board, Game, Position, Rules, State};
use crate::cli::{CliError, RulesArgs, pv_text, rate};
use crate::cli_solve::{problem_state, problem_text};
use crate::engine::{Engine, EngineOptions};
use crate::search::{Bound, Limits, SELECTIVITY, SearchResult};
use crate::solve::read_problems;

/// One analysed position as a JSON object.
#[derive(Serialize)]
struct JsonRow {
    index: usize,
    line: usize,
    empties: u32,
    best_move: String,
    score: i32,
    depth: u32,
    selectivity: u8,
    bound: &'static str,
    nodes: u64,
    time_ms: f64,
    pv: Vec<String>,
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Estimate => "estimate",
        Bound::WinLossDraw => "wld",
        Bound::Exact => "exact",
    }
}

/// How `iago analyze` searches.
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeOptions {
    /// Depth limit (0: the static evaluation).
    pub depth: Option<u32>,
    /// Seconds per position.
    pub time: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash: usize,
    /// JSON lines instead of the table.
    pub json: bool,
    /// ProbCut confidence in percent (a level of [`SELECTIVITY`]; 100: none).
    pub selectivity: u8,
}

/// Searches every position of a file (or the built-in suite) to a depth or for a time.
pub fn run(
    file: Option<&str>,
    options: AnalyzeOptions,
    eval: crate::eval::Evaluation,
    rules_args: &RulesArgs,
) -> Result<(), CliError> {
    let AnalyzeOptions {
        depth,
        time,
        threads,
        hash,
        json,
        selectivity,
    } = options;
    if let Some(t) = time
        && !(t > 0.0 && t.is_finite())
    {
        return Err(format!("--time must be a positive number of seconds, not {t}").into());
    }
    let limits = match (depth, time) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(t)) => Limits::move_time(crate::search::time::duration_from_seconds(t)),
        (None, None) => return Err("give --depth D or --time SECS".into()),
    };
    let Some(level) = SELECTIVITY.iter().position(|&(_, p)| p == selectivity) else {
        let levels: Vec<String> = SELECTIVITY.iter().map(|(_, p)| p.to_string()).collect();
        return Err(format!(
            "--selectivity must be one of {}, not {selectivity}",
            levels.join(", ")
        )
        .into());
    };
    let rules = rules_args.rules()?;
    let (text, first_index) = problem_text(file, rules_args, &rules)?;
    let mut engine = Engine::new(EngineOptions {
        threads,
        hash_mb: hash,
        selectivity: level,
        ..EngineOptions::default()
    })?;
    engine.set_evaluator(eval);
    let problems = read_problems(&text, rules);
    let progress = (problems.len() > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(problems.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed}")
                .expect("valid template"),
        );
        bar
    });
    let mut out = std::io::stdout().lock();
    if !json {
        writeln!(
            out,
            "{:>4} {:>7} {:>4} {:>5} {:>9} {:>14} {:>10} {:>10}  pv",
            "#", "empties", "move", "score", "depth", "nodes", "time", "nodes/s"
        )?;
    }
    let (mut bad_lines, mut total_nodes, mut total_secs) = (0, 0u64, 0.0);
    for (ordinal, problem) in problems.iter().enumerate() {
        if let Some(bar) = &progress {
            bar.inc(1);
        }
        let (problem, rules, state) = match problem_state(problem, rules_args) {
            Ok(p) => p,
            Err(e) => {
                bad_lines += 1;
                eprintln!("iago: error: {e}");
                continue;
            }
        };
        if engine.rules() != rules {
            engine.set_rules(rules)?;
        }
        let position = state.position;
        let board = position.board;
        let empties = rules.empty_count(&board);
        let result = if depth == Some(0) {
            static_result(&engine, &rules, &state)
        } else {
            engine.clear_hash();
            engine.analyze_state(&state, &limits, &mut |_| {})
        };
        total_nodes += result.nodes;
        total_secs += result.time.as_secs_f64();
        let index = ordinal + first_index;
        let best_move = match result.pv.first() {
            Some(m) if depth != Some(0) => m.to_string(),
            _ => "--".to_string(),
        };
        if json {
            let row = JsonRow {
                index,
                line: problem.line,
                empties,
                best_move,
                score: result.score,
                depth: result.depth,
                selectivity: result.selectivity,
                bound: bound_name(result.bound),
                nodes: result.nodes,
                time_ms: (result.time.as_secs_f64() * 1e6).round() / 1e3,
                pv: result.pv.iter().map(|m| m.to_string()).collect(),
            };
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        } else {
            writeln!(
                out,
                "{:>4} {:>7} {:>4} {:>+5} {:>9} {:>14} {:>8.3} s {:>10}  {}",
                index,
                empties,
                best_move,
                result.score,
                result.depth_text(),
                result.nodes,
                result.time.as_secs_f64(),
                rate(result.nodes, result.time.as_secs_f64()),
                pv_text(&result.pv, position.to_move)
            )?;
        }
        out.flush()?;
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if !json {
        writeln!(
            out,
            "total: {total_nodes} nodes, {total_secs:.3} s, {} nodes/s",
            rate(total_nodes, total_secs)
        )?;
    }
    if bad_lines > 0 {
        return Err(format!("{bad_lines} line(s) could not be read").into());
    }
    Ok(())
}

/// `--depth 0`: the static evaluation, no move.
fn static_result(engine: &Engine, rules: &Rules, state: &State) -> SearchResult {
    let start = Instant::now();
    let over = rules.is_over(state);
    let score = if over {
        rules.final_score(&state.board())
    } else if rules.is_standard() {
        engine.evaluator().evaluate(&state.board())
    } else {
        crate::search::variant::evaluate(rules, state)
    };
    SearchResult {
        best_move: crate::board::Move::Pass,
        score,
        depth: 0,
        selectivity: 100,
        bound: if over { Bound::Exact } else { Bound::Estimate },
        nodes: 1,
        time: start.elapsed(),
        pv: Vec::new(),
        source: crate::search::Source::Search,
    }
}

/// The positions of `iago bench`: the first ten XOT openings (balanced 8-move starts), then
/// five positions reached from later XOT lines by random play (40 to 28 empties).
const BENCH_OPENINGS: [&str; 10] = [
    "f5d6c4d3c2b3b4b5",
    "f5f6d3c5d6c7b5e3",
    "f5f4e3d2c3e6e1g5",
    "f5f6e6d6f7g6h5g5",
    "f5d6c3g5e6f3g4g6",
    "f5d6c5f4e3c6f6g5",
    "f5d6c3f4c5d3g3b6",
    "f5f4g3f6f7g4d3h2",
    "f5f6d3e3f3c5b6g5",
    "f5f4e3d2c3e6f2c5",
];

const BENCH_LATER: [&str; 5] = [
    "-----------O-X----O-X------OXOO--OXOOXOO-X-XOOX----O-O-X--O----- X",
    "X--OX----X-O-O----XOOX----XOXXO--XXXXXO--OXXX--O--X-X----------- X",
    "---XOX-----XOO-O---XOXOX-OOOOOX----OOXO---OXX-O---OXO-O--OX----- X",
    "X--O-----XO-O----XXO-OO--X-XOOO-OXXOOOOX-XOOOOO--OO-OO---O------ X",
    "---X-O-X-O--O-X-OOOO-X---OXOXXXXXXOXOXX----OXOX---OXO-X---X---XO X",
];

/// Searches the bench positions at `depth` on one thread; prints each node count, the total (a
/// deterministic signature) and the speed.
pub fn bench(depth: u32, hash: usize, eval: crate::eval::Evaluation) -> Result<(), CliError> {
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: hash,
        ..EngineOptions::default()
    })?;
    engine.set_evaluator(eval);
    let limits = Limits::depth(depth);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "bench: {} positions, depth {depth}, 1 thread, {hash} MiB hash, {} evaluation",
        BENCH_OPENINGS.len() + BENCH_LATER.len(),
        engine.evaluator().name()
    )?;
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    let mut boards: Vec<Board> = Vec::new();
    for transcript in BENCH_OPENINGS {
        boards.push(
            Game::from_transcript(Rules::OTHELLO, Position::start(), transcript)?
                .position()
                .board,
        );
    }
    for board in BENCH_LATER {
        boards.push(crate::board::parse_position(board)?.board);
    }
    let names = BENCH_OPENINGS.iter().chain(BENCH_LATER.iter());
    for (i, (board, transcript)) in boards.iter().zip(names).enumerate() {
        engine.clear_hash();
        let result = engine.analyze(board, &limits, &mut |_| {});
        writeln!(
            out,
            "{:>3} {:>4} {:>+4} {:>9} {:>12} {:>8.3} s  {}",
            i + 1,
            result.best_move,
            result.score,
            result.depth_text(),
            result.nodes,
            result.time.as_secs_f64(),
            transcript
        )?;
        nodes += result.nodes;
        secs += result.time.as_secs_f64();
    }
    writeln!(out, "nodes: {nodes}")?;
    writeln!(out, "time: {secs:.3} s, {} nodes/s", rate(nodes, secs))?;
    Ok(())
}
