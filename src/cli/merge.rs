//! `iago merge`: the files of a batch's shards joined into one (docs/batch.md).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::args::CliError;
use crate::batch::merge_results;

/// The options of `iago merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' files, in any order: JSON lines written by `solve --out` or `analyze --out`
    /// (a shard run twice counts once), or self-play chunks of `iago datagen` (files or their
    /// directories).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Write the merge to FILE instead of stdout; for self-play chunks, a directory (made if
    /// missing, holding no chunk) for the merged chunks.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Merge what there is: items without a result are left out instead of an error.
    #[arg(long)]
    pub partial: bool,
}

/// The first bytes of a self-play chunk of `iago datagen`.
pub const SELF_PLAY_MAGIC: &[u8; 8] = b"IAGODATA";

/// The kinds of file a batch makes, told apart by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// JSON lines of `solve --out` or `analyze --out` (an empty file too: a shard that owned
    /// no item, or one killed before its first result). Anything that is not a self-play chunk
    /// is read as this, so that a broken file is named with its line.
    Results,
    /// A binary chunk of self-play positions written by `iago datagen`
    /// ([`SELF_PLAY_MAGIC`] first), or a directory of them.
    SelfPlay,
}

impl InputKind {
    /// The kind of the file at `path`, from its first bytes.
    pub fn of(path: &Path) -> Result<InputKind, CliError> {
        if path.is_dir() {
            return Ok(InputKind::SelfPlay);
        }
        let mut head = Vec::with_capacity(SELF_PLAY_MAGIC.len());
        std::fs::File::open(path)
            .and_then(|f| f.take(SELF_PLAY_MAGIC.len() as u64).read_to_end(&mut head))
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Ok(if head == SELF_PLAY_MAGIC {
            InputKind::SelfPlay
        } else {
            InputKind::Results
        })
    }
}

/// Merges the files, all of one kind.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
    let kinds = args
        .files
        .iter()
        .map(|path| InputKind::of(path))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(other) = kinds.iter().position(|&k| k != kinds[0]) {
        let (chunk, results) = if kinds[0] == InputKind::SelfPlay {
            (0, other)
        } else {
            (other, 0)
        };
        return Err(format!(
            "{} is a self-play chunk and {} a file of results: merge each kind on its own",
            args.files[chunk].display(),
            args.files[results].display()
        )
        .into());
    }
    match kinds[0] {
        InputKind::Results => merge_result_files(args),
        InputKind::SelfPlay => merge_self_play(args),
    }
}

/// Joins result files: every item once, in the input's order, each record as its shard wrote it.
fn merge_result_files(args: &MergeArgs) -> Result<(), CliError> {
    let merged = merge_results(&args.files, args.partial)?;
    if merged.items == 0 && !args.partial {
        return Err(
            "none of the files holds a result (merge with --partial to accept that)".into(),
        );
    }
    let mut text = Vec::new();
    merged.write_to(&mut text)?;
    write_output(args.out.as_deref(), &text)?;
    let missing = merged.items - merged.records.len();
    eprintln!(
        "iago merge: {} of {} items from {} files, {} duplicates{}",
        merged.records.len(),
        merged.items,
        args.files.len(),
        merged.duplicates,
        if missing > 0 {
            format!(", {missing} missing (--partial)")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Joins self-play chunks of `iago datagen` (files or directories) into merged chunks in the
/// directory `--out`: each position once under the 8 symmetries, labels combined.
fn merge_self_play(args: &MergeArgs) -> Result<(), CliError> {
    let Some(out) = args.out.as_deref() else {
        return Err(
            "self-play chunks merge into a directory of chunks: give it with --out DIR".into(),
        );
    };
    let report = crate::train::selfplay::merge_chunks(&args.files, out)?;
    eprintln!(
        "iago merge: {} records from {} chunk files, {} distinct positions in {} files in {}{}",
        report.records_read,
        report.files_read,
        report.positions,
        report.files_written,
        out.display(),
        if report.exact_conflicts > 0 {
            format!(
                ", {} positions with disagreeing exact labels (the least kept: damaged or foreign data?)",
                report.exact_conflicts
            )
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Writes `bytes` to `out` (whole, or not at all if the directory is missing), or to stdout.
fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match out {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()).into()),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(bytes)?;
            stdout.flush()?;
            Ok(())
        }
    }
}
