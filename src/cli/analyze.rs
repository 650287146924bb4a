//! `iago analyze`: a depth- or time-limited search of each position.

use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use super::args::{
    CliError, EvalArg, RulesArgs, SearchArgs, engine_error, seconds_arg, selectivity_arg,
};
use super::batch::{BatchArgs, problem_positions};
use super::input::{problem_state, problem_text};
use super::output::{positions_bar, pv_text, rate, table_header};
use crate::board::{Color, Rules, State};
use crate::engine::{Engine, EngineOptions, SearchRequest};
use crate::records::problems::read_problems;
use crate::search::params::ANALYSIS_SELECTIVITY;
use crate::search::{Bound, Limits, SearchResult, Selectivity};

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

/// The options of `iago analyze`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "time"])))]
pub struct AnalyzeArgs {
    /// An OBF file or board lines; `-` reads stdin; without a file, FFO #40-#49.
    pub file: Option<String>,
    /// Search depth in plies (0: the static evaluation). Exact solving starts at
    /// depth × 3/2 empties.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Time per position in seconds.
    #[arg(long, value_name = "SECS", value_parser = seconds_arg)]
    pub time: Option<f64>,
    /// Threads and hash table.
    #[command(flatten)]
    pub search: SearchArgs,
    /// One JSON object per line instead of the table.
    #[arg(long)]
    pub json: bool,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
    /// ProbCut confidence of the midgame search in percent: 58, 73, 87, 95, 98, 99, or 100 for
    /// no selective cuts (a full-width search to the depth).
    #[arg(long, default_value_t = ANALYSIS_SELECTIVITY, value_name = "PERCENT", value_parser = selectivity_arg)]
    pub selectivity: Selectivity,
    /// The rule set (without a file, a variant's start position is searched).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// A shard of the positions, and a file of results.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Searches every position of a file (or the built-in suite) to a depth or for a time.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let AnalyzeArgs {
        depth,
        time,
        json,
        selectivity,
        ..
    } = *args;
    let options = args.search.apply(EngineOptions {
        selectivity,
        eval: args.eval.source(),
        ..EngineOptions::analysis()
    });
    let loaded = options.load().map_err(|e| engine_error(e.into()))?;
    let rules_args = &args.rules;
    let limits = match (depth, time) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(t)) => Limits::move_time(crate::search::time::duration_from_seconds(t)),
        (None, None) => return Err("give --depth D or --time SECS".into()),
    };
    let selectivity = selectivity.percent();
    let rules = rules_args.rules()?;
    let (text, first_index) = problem_text(args.file.as_deref(), rules_args, &rules)?;
    let mut engine = Engine::with_loaded(options, loaded).map_err(engine_error)?;
    let problems = read_problems(&text, rules);
    let positions = problem_positions(&problems, rules_args);
    let work = work_text(args, selectivity, &rules);
    let mut shard = args.batch.start(&work, &positions)?;
    let progress = positions_bar(shard.count());
    let mut out = std::io::stdout().lock();
    if !json {
        table_header(&mut out, "depth")?;
    }
    let (mut bad_lines, mut total_nodes, mut total_secs) = (0, 0u64, 0.0);
    for (ordinal, problem) in problems.iter().enumerate() {
        if !shard.runs(ordinal) {
            continue;
        }
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
        let empties = rules.empty_count(&position.board);
        let result = search_position(&mut engine, &rules, state, depth, limits);
        total_nodes += result.nodes;
        total_secs += result.time.as_secs_f64();
        let index = ordinal + first_index;
        let row = analysis_row(index, problem.line, empties, depth, &result);
        if let Some(position) = &positions[ordinal] {
            shard.record(ordinal, position, &row)?;
        }
        write_row(&mut out, json, &row, &result, position.to_move)?;
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

/// The settings that make a result, for `--out`: the limit, selectivity, evaluation and rules.
fn work_text(args: &AnalyzeArgs, selectivity: u8, rules: &Rules) -> String {
    let limit = match (args.depth, args.time) {
        (Some(d), _) => format!("depth {d}"),
        (None, t) => format!("time {}", t.unwrap_or_default()),
    };
    let eval_name = args.eval.eval.as_deref().unwrap_or("embedded");
    format!("analyze {limit} selectivity {selectivity} eval {eval_name} {rules}")
}

/// The search of one position (the static evaluation at `--depth 0`).
fn search_position(
    engine: &mut Engine,
    rules: &Rules,
    state: State,
    depth: Option<u32>,
    limits: Limits,
) -> SearchResult {
    if depth == Some(0) {
        static_result(engine, rules, &state)
    } else {
        engine.clear_hash();
        engine.search(&SearchRequest::analyze(limits).state(state), &mut |_| {})
    }
}

/// The JSON row of one analysed position (no move at `--depth 0`).
fn analysis_row(
    index: usize,
    line: usize,
    empties: u32,
    depth: Option<u32>,
    result: &SearchResult,
) -> JsonRow {
    let best_move = match result.pv.first() {
        Some(m) if depth != Some(0) => m.to_string(),
        _ => "--".to_string(),
    };
    JsonRow {
        index,
        line,
        empties,
        best_move,
        score: result.score,
        depth: result.depth,
        selectivity: result.selectivity.percent(),
        bound: bound_name(result.bound),
        nodes: result.nodes,
        time_ms: (result.time.as_secs_f64() * 1e6).round() / 1e3,
        pv: result.pv.iter().map(|m| m.to_string()).collect(),
    }
}

/// Writes one position's result: its JSON line, or its table row (`to_move` colours the PV).
fn write_row(
    out: &mut impl Write,
    json: bool,
    row: &JsonRow,
    result: &SearchResult,
    to_move: Color,
) -> Result<(), CliError> {
    if json {
        writeln!(out, "{}", serde_json::to_string(row)?)?;
    } else {
        writeln!(
            out,
            "{:>4} {:>7} {:>4} {:>+5} {:>9} {:>14} {:>8.3} s {:>10}  {}",
            row.index,
            row.empties,
            row.best_move,
            result.score,
            result.depth_text(),
            result.nodes,
            result.time.as_secs_f64(),
            rate(result.nodes, result.time.as_secs_f64()),
            pv_text(&result.pv, to_move)
        )?;
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
        selectivity: Selectivity::NONE,
        bound: if over { Bound::Exact } else { Bound::Estimate },
        nodes: 1,
        time: start.elapsed(),
        pv: Vec::new(),
        source: crate::search::Source::Search,
    }
}
