//! Batch runs of `solve`, `analyze` and `review`: `--shard I/N` and `--out FILE`, the items a
//! process runs, and the results it resumes from (docs/batch.md).

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::args::{CliError, RulesArgs};
use super::input::problem_state;
use super::output::check_output_dir;
use crate::batch::{ResultLog, Shard};
use crate::records::problems::{Problem, ProblemError};

/// `--shard I/N` and `--out FILE` of `solve` and `analyze`: a share of the positions, their
/// results kept (and resumed) in a file of JSON lines that `iago merge` joins (docs/batch.md).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchArgs {
    /// Run only shard I of N (counted from 0): the positions whose ordinal k in the input
    /// (from 0) has k % N == I.
    #[arg(long, value_name = "I/N", default_value_t = Shard::ALL)]
    pub shard: Shard,
    /// Also write each position's result to FILE as a JSON line (the --json row and the
    /// fields item, items, work, position); positions FILE already holds are skipped, so a
    /// rerun of the same command resumes.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl BatchArgs {
    /// Opens `--out` for the results of `work` (the settings that make a result) over the
    /// items whose board strings are `positions` (`None` for a line that cannot be read), and
    /// picks the items this process runs: the shard's, less those `--out` holds already (one
    /// line on stderr says how many). A file of another input or other settings is refused.
    pub(crate) fn start(
        &self,
        work: &str,
        positions: &[Option<String>],
    ) -> Result<ShardRun, CliError> {
        let mut log = match &self.out {
            Some(path) => {
                check_output_dir(&path.to_string_lossy())?;
                Some(ResultLog::open(path, work, positions.len())?)
            }
            None => None,
        };
        let mut runs = vec![false; positions.len()];
        let mut done = Vec::new();
        for (item, position) in positions.iter().enumerate() {
            if !self.shard.owns(item) {
                continue;
            }
            if let (Some(log), Some(position)) = (&log, position)
                && let Some(record) = log.finished(item, position)?
            {
                done.push(record.json.clone());
                continue;
            }
            runs[item] = true;
        }
        if let Some(log) = log.as_mut().filter(|_| !done.is_empty()) {
            let left = runs.iter().filter(|&&r| r).count();
            eprintln!(
                "iago: {}: {} of the {} positions of shard {} are done already, skipped; {left} to run",
                log.path().display(),
                done.len(),
                done.len() + left,
                self.shard
            );
        }
        Ok(ShardRun { log, runs, done })
    }
}

/// The items one process of a batch runs, and where their results go.
pub(crate) struct ShardRun {
    log: Option<ResultLog>,
    runs: Vec<bool>,
    /// The records of the shard's items that `--out` held already (not run again).
    pub done: Vec<Map<String, Value>>,
}

impl ShardRun {
    /// Whether this process runs item `item` (from 0).
    pub fn runs(&self, item: usize) -> bool {
        self.runs[item]
    }

    /// How many items this process runs.
    pub fn count(&self) -> usize {
        self.runs.iter().filter(|&&r| r).count()
    }

    /// Writes the result `row` of item `item` (from 0, at `position`) to `--out`, if given.
    pub fn record(
        &mut self,
        item: usize,
        position: &str,
        row: &impl serde::Serialize,
    ) -> Result<(), CliError> {
        if let Some(log) = &mut self.log {
            log.append(item, position, row)?;
        }
        Ok(())
    }
}

/// The board string of every problem (`None` where a line cannot be read): what identifies a
/// work item of `solve` and `analyze` in a result file.
pub(crate) fn problem_positions(
    problems: &[Result<Problem, ProblemError>],
    args: &RulesArgs,
) -> Vec<Option<String>> {
    problems
        .iter()
        .map(|problem| {
            let (_, rules, state) = problem_state(problem, args).ok()?;
            Some(rules.board_string(&state.position))
        })
        .collect()
}
