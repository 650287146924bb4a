//! `iago solve`: the table, JSON lines, progress bar and exit status.

use std::io::Write;

use serde::Serialize;

use super::args::{CliError, RulesArgs, SearchArgs};
use super::batch::{BatchArgs, problem_positions};
use super::input::{problem_state, problem_text};
use super::output::{positions_bar, pv_text, rate, table_header};
use crate::board::{Move, ObfEntry};
use crate::engine::{Engine, EngineOptions};
use crate::records::problems::{Problem, ProblemError, read_problems};
use crate::search::endgame::{Solution, SolveMode};
use crate::search::solve::SolveReport;

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
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// An OBF file (`<board> X; A2:+38;` lines) or board lines; `-` reads stdin. Without a
    /// file, the built-in suite FFO #40-#49 is solved.
    pub file: Option<String>,
    /// Threads and hash table.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Only win/loss/draw (scores print as +2 / 0 / -2 meaning "at least a win", "draw",
    /// "at most a loss").
    #[arg(long)]
    pub wld: bool,
    /// One JSON object per line instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Refuse positions with more empty squares than this (before solving any): an exact
    /// solve takes about twice as long for each empty more, minutes at 30 empties and
    /// years from the 40s on.
    #[arg(long, default_value_t = DEFAULT_MAX_EMPTIES, value_name = "N")]
    pub max_empties: u32,
    /// The rule set (without a file, a variant's start position is solved).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// A shard of the positions, and a file of results.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Solves a file, stdin (`-`) or the built-in suite.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    let SolveArgs {
        wld,
        json,
        max_empties,
        ..
    } = *args;
    let rules_args = &args.rules;
    let rules = rules_args.rules()?;
    let (text, first_index) = problem_text(args.file.as_deref(), rules_args, &rules)?;
    let mode = if wld {
        SolveMode::WinLossDraw
    } else {
        SolveMode::Exact
    };
    // The solver orders its moves by the evaluation, which the engine reads before the first
    // solve's clock.
    let mut engine = Engine::new(args.search.apply(EngineOptions::analysis()))?;
    let problems = read_problems(&text, rules);
    check_max_empties(&problems, rules_args, max_empties)?;
    let positions = problem_positions(&problems, rules_args);
    let mode_name = if wld { "wld" } else { "exact" };
    let work = format!("solve {mode_name} {rules}");
    let mut shard = args.batch.start(&work, &positions)?;
    // A position done before that disagreed with its annotation still fails the run.
    let mut totals = Totals {
        failures: shard
            .done
            .iter()
            .filter(|r| r.get("ok") == Some(&serde_json::Value::Bool(false)))
            .count(),
        ..Totals::default()
    };
    let progress = positions_bar(shard.count());
    let mut out = std::io::stdout().lock();
    if !json {
        table_header(&mut out, "expected")?;
    }
    for (ordinal, problem) in problems.iter().enumerate() {
        if !shard.runs(ordinal) {
            continue;
        }
        let index = ordinal + first_index;
        let (problem, rules, state) = match problem_state(problem, rules_args) {
            Ok(p) => p,
            Err(e) => {
                totals.bad_lines += 1;
                if let Some(bar) = &progress {
                    bar.inc(1);
                }
                eprintln!("iago: error: {e}");
                continue;
            }
        };
        let board = state.board();
        let empties = rules.empty_count(&board);
        let SolveReport { solution, elapsed } = engine.solve(rules, &state, mode)?;
        let secs = elapsed.as_secs_f64();
        let ok = totals.count(problem, &solution, mode, secs);
        let row = solution_row(index, problem, empties, &solution, secs, ok, mode_name);
        if let Some(position) = &positions[ordinal] {
            shard.record(ordinal, position, &row)?;
        }
        write_row(&mut out, json, &row, &solution, secs, problem)?;
        out.flush()?;
        if let Some(bar) = &progress {
            bar.inc(1);
            bar.set_message(format!("{} nodes", totals.total_nodes));
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    totals.finish(&mut out, json)
}

/// Refuses a position beyond `--max-empties` before any work (a transcript pasted as a
/// position would start a solve that never ends).
fn check_max_empties(
    problems: &[Result<Problem, ProblemError>],
    rules_args: &RulesArgs,
    max_empties: u32,
) -> Result<(), CliError> {
    for problem in problems {
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
    Ok(())
}

/// What the run solved and checked so far.
#[derive(Default)]
struct Totals {
    failures: usize,
    bad_lines: usize,
    checked: usize,
    solved: usize,
    total_nodes: u64,
    total_secs: f64,
}

impl Totals {
    /// Counts a solved position (`secs`: its time) and checks it against its annotation:
    /// whether it agrees, when annotated.
    fn count(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        mode: SolveMode,
        secs: f64,
    ) -> Option<bool> {
        self.solved += 1;
        self.total_nodes += solution.nodes;
        self.total_secs += secs;
        let ok = check(&problem.entry, solution, mode);
        if let Some(ok) = ok {
            self.checked += 1;
            if !ok {
                self.failures += 1;
            }
        }
        ok
    }

    /// Writes the total line (without `--json`), and fails the run on a disagreement or an
    /// unreadable line.
    fn finish(&self, out: &mut impl Write, json: bool) -> Result<(), CliError> {
        let Totals {
            failures,
            bad_lines,
            checked,
            solved,
            total_nodes,
            total_secs,
        } = *self;
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
}

/// The JSON row of one solved position.
fn solution_row<'a>(
    index: usize,
    problem: &Problem,
    empties: u32,
    solution: &Solution,
    secs: f64,
    ok: Option<bool>,
    mode: &'a str,
) -> JsonRow<'a> {
    let best_move = solution
        .pv
        .first()
        .map_or("--".to_string(), |m| m.to_string());
    JsonRow {
        index,
        line: problem.line,
        empties,
        best_move,
        score: solution.score,
        nodes: solution.nodes,
        time_ms: (secs * 1e6).round() / 1e3,
        pv: solution.pv.iter().map(|m| m.to_string()).collect(),
        expected_score: problem.entry.best_score(),
        ok,
        mode,
    }
}

/// Writes one position's result: its JSON line, or its table row with the expected score.
fn write_row(
    out: &mut impl Write,
    json: bool,
    row: &JsonRow,
    solution: &Solution,
    secs: f64,
    problem: &Problem,
) -> Result<(), CliError> {
    if json {
        writeln!(out, "{}", serde_json::to_string(row)?)?;
    } else {
        let expected_text = match (row.expected_score, row.ok) {
            (Some(e), Some(true)) => format!("{e:+} ok"),
            (Some(e), _) => format!("{e:+} FAIL"),
            (None, _) => "-".into(),
        };
        writeln!(
            out,
            "{:>4} {:>7} {:>4} {:>+5} {:>9} {:>14} {:>8.3} s {:>10}  {}",
            row.index,
            row.empties,
            row.best_move,
            solution.score,
            expected_text,
            solution.nodes,
            secs,
            rate(solution.nodes, secs),
            pv_text(&solution.pv, problem.entry.position.to_move)
        )?;
    }
    Ok(())
}

/// Whether a solution agrees with the file's annotations: the score equals the best annotated
/// score (its sign in WLD mode), and the best move, if annotated, carries that score. `None`
/// when the problem has no annotation.
fn check(entry: &ObfEntry, solution: &Solution, mode: SolveMode) -> Option<bool> {
    let expected = entry.best_score()?;
    let score_ok = match mode {
        SolveMode::Exact => solution.score == expected,
        SolveMode::WinLossDraw => solution.score.signum() == expected.signum(),
    };
    let best = solution.pv.first().copied().unwrap_or(Move::Pass);
    let move_ok = match (mode, entry.moves.iter().find(|(m, _)| *m == best)) {
        (SolveMode::Exact, Some(&(_, s))) => s == expected,
        (SolveMode::WinLossDraw, Some(&(_, s))) => s.signum() == expected.signum(),
        (_, None) => true,
    };
    Some(score_ok && move_ok)
}
