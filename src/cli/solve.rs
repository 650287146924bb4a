//! `iago solve`: the table, JSON lines, progress bar and exit status.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::board::{Rules, State};
use crate::cli::{CliError, RulesArgs, pv_text, rate, read_input};
use crate::search::endgame::SolveMode;
use crate::solve::Problem;
use crate::solve::{SolveReport, Solver, SolverOptions, check, read_problems};

/// One solved position as a JSON object.
#[derive(Serialize)]
struct JsonRow<'a> {
    index: usize,
    line: usize,
    empties: u32,
    best_move: String,
    score: i32,
    nodes: u64,
    time_ms: f64,
    pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
    mode: &'a str,
}

/// The most empty squares `iago solve` takes without `--max-empties` (FFO #79 has 36).
pub const DEFAULT_MAX_EMPTIES: u32 = 36;

/// The options of `iago solve`.
#[derive(Clone, Copy, Debug)]
pub struct SolveArgs {
    /// Search threads.
    pub threads: usize,
    /// Hash table, MiB.
    pub hash: usize,
    /// Win/loss/draw only.
    pub wld: bool,
    /// JSON lines instead of the table.
    pub json: bool,
    /// Positions with more empties are refused.
    pub max_empties: u32,
}

/// Solves a file, stdin (`-`) or the built-in suite.
pub fn run(file: Option<&str>, args: SolveArgs, rules_args: &RulesArgs) -> Result<(), CliError> {
    let SolveArgs {
        threads,
        hash,
        wld,
        json,
        max_empties,
    } = args;
    let rules = rules_args.rules()?;
    let (text, first_index) = problem_text(file, rules_args, &rules)?;
    let mode = if wld {
        SolveMode::WinLossDraw
    } else {
        SolveMode::Exact
    };
    let solver = Solver::new(SolverOptions {
        threads,
        hash_mb: hash,
        mode,
    })?;
    let problems = read_problems(&text, rules);
    // Refuse a position beyond the limit before any work (a transcript pasted as a position
    // would start a solve that never ends).
    for problem in &problems {
        if let Ok((problem, rules, state)) = problem_state(problem, rules_args) {
            let empties = rules.empty_count(&state.board());
            if empties > max_empties {
                return Err(format!(
                    "line {}: {empties} empty squares, more than --max-empties {max_empties}; an exact solve that deep does not end in practice (raise --max-empties to try)",
                    problem.line
                )
                .into());
            }
        }
    }
    let mut failures = 0usize;
    let mut bad_lines = 0usize;
    let mut checked = 0usize;
    let mut solved = 0usize;
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0f64;
    let progress = if problems.len() > 1 && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(problems.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} {msg}")
                .expect("valid template"),
        );
        Some(bar)
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    if !json {
        writeln!(
            out,
            "{:>4} {:>7} {:>4} {:>5} {:>9} {:>14} {:>10} {:>10}  pv",
            "#", "empties", "move", "score", "expected", "nodes", "time", "nodes/s"
        )?;
    }
    for (ordinal, problem) in problems.iter().enumerate() {
        let index = ordinal + first_index;
        let (problem, rules, state) = match problem_state(problem, rules_args) {
            Ok(p) => p,
            Err(e) => {
                bad_lines += 1;
                if let Some(bar) = &progress {
                    bar.inc(1);
                }
                eprintln!("iago: error: {e}");
                continue;
            }
        };
        let board = state.board();
        let empties = rules.empty_count(&board);
        let SolveReport { solution, elapsed } = solver.solve_state(&rules, &state)?;
        let secs = elapsed.as_secs_f64();
        solved += 1;
        total_nodes += solution.nodes;
        total_secs += secs;
        let ok = check(&problem.entry, &solution, mode);
        if let Some(ok) = ok {
            checked += 1;
            if !ok {
                failures += 1;
            }
        }
        let expected = problem.entry.best_score();
        let best_move = solution
            .pv
            .first()
            .map_or("--".to_string(), |m| m.to_string());
        if json {
            let row = JsonRow {
                index,
                line: problem.line,
                empties,
                best_move,
                score: solution.score,
                nodes: solution.nodes,
                time_ms: (secs * 1e6).round() / 1e3,
                pv: solution.pv.iter().map(|m| m.to_string()).collect(),
                expected_score: expected,
                ok,
                mode: if wld { "wld" } else { "exact" },
            };
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        } else {
            let expected_text = match (expected, ok) {
                (Some(e), Some(true)) => format!("{e:+} ok"),
                (Some(e), _) => format!("{e:+} FAIL"),
                (None, _) => "-".into(),
            };
            writeln!(
                out,
                "{:>4} {:>7} {:>4} {:>+5} {:>9} {:>14} {:>8.3} s {:>10}  {}",
                index,
                empties,
                best_move,
                solution.score,
                expected_text,
                solution.nodes,
                secs,
                rate(solution.nodes, secs),
                pv_text(&solution.pv, problem.entry.position.to_move)
            )?;
        }
        out.flush()?;
        if let Some(bar) = &progress {
            bar.inc(1);
            bar.set_message(format!("{total_nodes} nodes"));
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if !json {
        writeln!(
            out,
            "total: {solved} solved, {} of {checked} annotated scores agree, {total_nodes} nodes, {total_secs:.3} s, {} nodes/s",
            checked - failures,
            rate(total_nodes, total_secs)
        )?;
    }
    if failures > 0 || bad_lines > 0 {
        return Err(format!(
            "{failures} position(s) disagree with their annotations, {bad_lines} line(s) could not be read"
        )
        .into());
    }
    Ok(())
}

/// The problems to read: FILE, stdin, the built-in suite, or, for a variant without a file, the
/// variant's start position.
pub(crate) fn problem_text(
    file: Option<&str>,
    args: &RulesArgs,
    rules: &Rules,
) -> Result<(String, usize), CliError> {
    if file.is_none() && !args.is_default() {
        return Ok((rules.board_string(&rules.start_position()), 1));
    }
    read_input(file)
}

/// A problem with its rules (`--size` must agree with the board read) and its state.
pub(crate) fn problem_state<'a, E: std::fmt::Display>(
    problem: &'a Result<Problem, E>,
    args: &RulesArgs,
) -> Result<(&'a Problem, Rules, State), String> {
    let problem = problem.as_ref().map_err(|e| e.to_string())?;
    let rules = args
        .rules_for(problem.entry.size)
        .map_err(|e| format!("line {}: {e}", problem.line))?;
    let state = rules
        .state(problem.entry.position)
        .map_err(|e| format!("line {}: {e}", problem.line))?;
    Ok((problem, rules, state))
}
