//! Batch work split into shards: independent processes, each taking every N-th work item, whose
//! outputs merge into the result of one run. A scheduler outside Iago starts them (GNU
//! parallel, a Slurm job array, a Kubernetes indexed Job: docs/batch.md).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Serialize;
use serde_json::{Map, Value};
use thiserror::Error;

/// One shard of N: the work items whose 0-based ordinal `k` has `k % count == index`.
///
/// Written `I/N` with `0 <= I < N` (Slurm's `$SLURM_ARRAY_TASK_ID` and Kubernetes'
/// `$JOB_COMPLETION_INDEX` count from 0). `0/1`, the default, is the whole work.
///
/// ```
/// use iago::batch::Shard;
///
/// let shard: Shard = "1/3".parse().unwrap();
/// let mine: Vec<usize> = (0..8).filter(|&k| shard.owns(k)).collect();
/// assert_eq!(mine, [1, 4, 7]);
/// assert!("3/3".parse::<Shard>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a `--shard` value cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseShardError {
    /// Not two numbers around a slash.
    #[error("a shard is written I/N (for example 0/4: the first of four), 0 <= I < N")]
    Syntax,
    /// N is 0.
    #[error("a work split into 0 shards has none to run: N must be at least 1")]
    NoShards,
    /// I is not below N.
    #[error("shard {index}/{count}: the index counts from 0 and must be below {count}")]
    OutOfRange {
        /// I.
        index: u32,
        /// N.
        count: u32,
    },
}

impl Shard {
    /// The whole work: one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ParseShardError> {
        if count == 0 {
            return Err(ParseShardError::NoShards);
        }
        if index >= count {
            return Err(ParseShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// This shard's index, from 0.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shards the work is split into.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole work.
    pub fn is_all(self) -> bool {
        self.count == 1
    }

    /// Whether work item `ordinal` (from 0, in the work's own order) belongs to this shard.
    pub fn owns(self, ordinal: usize) -> bool {
        ordinal % self.count as usize == self.index as usize
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::ALL
    }
}

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let (index, count) = text.trim().split_once('/').ok_or(ParseShardError::Syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseShardError::Syntax);
            }
            s.parse::<u32>().map_err(|_| ParseShardError::Syntax)
        };
        Shard::new(number(index)?, number(count)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a file of results cannot be used.
#[derive(Debug, Error)]
pub enum ResultsError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A line (not the last, which may be cut by a kill) is not a result record.
    #[error(
        "{path}, line {line}: not a result record of a sharded run (a JSON object with \"index\", \"position\" and \"items\")"
    )]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
    },
    /// The file holds the results of another input.
    #[error(
        "{path}: work item {index} is {found} there, {expected} here: the file holds the results of other work"
    )]
    OtherWork {
        /// The file.
        path: PathBuf,
        /// The work item.
        index: usize,
        /// Its position in the file.
        found: String,
        /// Its position in this work.
        expected: String,
    },
    /// Two files hold different positions, or different work sizes, for one item.
    #[error(
        "{first} and {second} disagree on work item {index}: they hold the results of different work"
    )]
    Disagree {
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
        /// The work item.
        index: usize,
    },
    /// Items are missing from a merge.
    #[error(
        "{missing} of {items} work items have no result (the first: {first}); run their shards (again) or merge with --partial"
    )]
    Missing {
        /// How many.
        missing: usize,
        /// Of how many.
        items: usize,
        /// The first missing item.
        first: usize,
    },
}

/// One finished work item as read back: its place and its whole record.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRecord {
    /// The work item, from 0 in the work's own order.
    pub index: usize,
    /// The work's size.
    pub items: usize,
    /// What the item was (the position as a board string), so that a file cannot be
    /// resumed or merged with another work's results.
    pub position: String,
    /// The record as written, one JSON object.
    pub json: Map<String, Value>,
}

impl ResultRecord {
    fn parse(line: &str) -> Option<ResultRecord> {
        let Ok(Value::Object(json)) = serde_json::from_str::<Value>(line) else {
            return None;
        };
        let index = usize::try_from(json.get("index")?.as_u64()?).ok()?;
        let items = usize::try_from(json.get("items")?.as_u64()?).ok()?;
        let position = json.get("position")?.as_str()?.to_string();
        (index < items).then_some(ResultRecord {
            index,
            items,
            position,
            json,
        })
    }
}

/// Reads a file of result records. A last line without its newline (a process killed while
/// writing it) is left out, and its length in bytes is given so that a writer can cut it.
fn read_records(path: &Path) -> Result<(Vec<ResultRecord>, u64), ResultsError> {
    let io_error = |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::new(File::open(path).map_err(io_error)?);
    let mut records = Vec::new();
    let mut complete = 0u64;
    let mut bytes = Vec::new();
    let mut line = 0usize;
    loop {
        bytes.clear();
        let read = reader.read_until(b'\n', &mut bytes).map_err(io_error)?;
        if read == 0 || bytes.last() != Some(&b'\n') {
            break;
        }
        line += 1;
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            complete += read as u64;
            continue;
        }
        let record = ResultRecord::parse(&text).ok_or_else(|| ResultsError::NotARecord {
            path: path.to_path_buf(),
            line,
        })?;
        records.push(record);
        complete += read as u64;
    }
    Ok((records, complete))
}

/// The results of a shard as it runs: a file of JSON lines, one record per finished work item,
/// appended and flushed as each finishes. Opening an existing file resumes it: its records
/// count as done, and a last line cut by a kill is removed.
#[derive(Debug)]
pub struct ResultLog {
    path: PathBuf,
    file: File,
    done: BTreeMap<usize, ResultRecord>,
}

impl ResultLog {
    /// Opens (or creates) the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<ResultLog, ResultsError> {
        let path = path.as_ref().to_path_buf();
        let io_error = |source| ResultsError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        let (records, complete) = read_records(&path)?;
        let length = file.metadata().map_err(io_error)?.len();
        if length > complete {
            log::warn!(
                "{}: dropped an unfinished last line ({} bytes) left by an interrupted run",
                path.display(),
                length - complete
            );
            file.set_len(complete).map_err(io_error)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io_error)?;
        let done = records.into_iter().map(|r| (r.index, r)).collect();
        Ok(ResultLog { path, file, done })
    }

    /// How many items the file already holds.
    pub fn done_count(&self) -> usize {
        self.done.len()
    }

    /// The record of item `index` if it is finished; an error if the file holds another
    /// position for it (the file belongs to other work).
    pub fn finished(
        &self,
        index: usize,
        position: &str,
    ) -> Result<Option<&ResultRecord>, ResultsError> {
        match self.done.get(&index) {
            Some(record) if record.position != position => Err(ResultsError::OtherWork {
                path: self.path.clone(),
                index,
                found: record.position.clone(),
                expected: position.to_string(),
            }),
            found => Ok(found),
        }
    }

    /// Appends the record of a finished item (which must serialise to a JSON object with
    /// `index`, `items` and `position`) and flushes it.
    pub fn append(&mut self, record: &impl Serialize) -> Result<(), ResultsError> {
        let io_error = |source| ResultsError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(record).map_err(|e| io_error(e.into()))?;
        let parsed = ResultRecord::parse(&line).ok_or_else(|| ResultsError::NotARecord {
            path: self.path.clone(),
            line: self.done.len() + 1,
        })?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io_error)?;
        self.file.flush().map_err(io_error)?;
        self.done.insert(parsed.index, parsed);
        Ok(())
    }
}

/// The merge of shards' result files: every item once, in the work's order.
#[derive(Debug)]
pub struct Merged {
    /// The records, by item.
    pub records: Vec<ResultRecord>,
    /// The work's size.
    pub items: usize,
    /// Items found in more than one file (kept once).
    pub duplicates: usize,
}

/// Merges result files (from `--shard` runs, in any order; a shard run twice counts once).
/// Files that disagree on an item's position or on the work's size are refused; missing items
/// are an error unless `partial`. Where an item was run twice, the record of the file named
/// first is kept (records of one item differ only in times, and node counts on several threads).
pub fn merge_results(paths: &[PathBuf], partial: bool) -> Result<Merged, ResultsError> {
    let mut by_index: BTreeMap<usize, (ResultRecord, usize)> = BTreeMap::new();
    let mut items: Option<(usize, usize)> = None;
    let mut duplicates = 0;
    for (file, path) in paths.iter().enumerate() {
        let (records, _) = read_records(path)?;
        for record in records {
            let disagree = |other: usize| ResultsError::Disagree {
                first: paths[other].clone(),
                second: path.clone(),
                index: record.index,
            };
            match items {
                Some((n, other)) if n != record.items => return Err(disagree(other)),
                None => items = Some((record.items, file)),
                _ => {}
            }
            match by_index.get(&record.index) {
                Some((kept, other)) => {
                    if kept.position != record.position {
                        return Err(disagree(*other));
                    }
                    duplicates += 1;
                }
                None => {
                    by_index.insert(record.index, (record, file));
                }
            }
        }
    }
    let items = items.map_or(0, |(n, _)| n);
    let missing = items - by_index.len();
    if missing > 0 && !partial {
        let first = (0..items).find(|i| !by_index.contains_key(i)).unwrap_or(0);
        return Err(ResultsError::Missing {
            missing,
            items,
            first,
        });
    }
    Ok(Merged {
        records: by_index.into_values().map(|(r, _)| r).collect(),
        items,
        duplicates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iago-batch-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn record(index: usize, items: usize, position: &str, score: i32) -> Value {
        serde_json::json!({"index": index, "items": items, "position": position, "score": score})
    }

    #[test]
    fn a_result_log_resumes_and_drops_a_cut_last_line() {
        let dir = scratch("resume");
        let path = dir.join("shard.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut log = ResultLog::open(&path).unwrap();
        log.append(&record(0, 3, "a", 5)).unwrap();
        log.append(&record(2, 3, "c", -4)).unwrap();
        drop(log);
        // A kill in the middle of the third record.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"index\":1,\"ite").unwrap();
        drop(file);
        let mut log = ResultLog::open(&path).unwrap();
        assert_eq!(log.done_count(), 2);
        assert_eq!(log.finished(0, "a").unwrap().unwrap().json["score"], 5);
        assert!(log.finished(1, "b").unwrap().is_none());
        assert!(matches!(
            log.finished(2, "x"),
            Err(ResultsError::OtherWork { index: 2, .. })
        ));
        log.append(&record(1, 3, "b", 0)).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with("\"score\":0}\n"), "{text}");
        // Not a record: refused, never appended.
        let mut log = ResultLog::open(&path).unwrap();
        assert!(log.append(&serde_json::json!({"score": 1})).is_err());
        std::fs::write(&path, "garbage\n{}\n").unwrap();
        assert!(matches!(
            ResultLog::open(&path),
            Err(ResultsError::NotARecord { line: 1, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn merging_takes_every_item_once_and_refuses_foreign_or_missing_work() {
        let dir = scratch("merge");
        let write = |name: &str, records: &[Value]| {
            let path = dir.join(name);
            let text: String = records.iter().map(|r| format!("{r}\n")).collect();
            std::fs::write(&path, text).unwrap();
            path
        };
        let a = write("a", &[record(0, 4, "p0", 1), record(2, 4, "p2", 3)]);
        let b = write("b", &[record(3, 4, "p3", 4), record(1, 4, "p1", 2)]);
        let again = write("again", &[record(1, 4, "p1", 2)]);
        let merged = merge_results(&[b.clone(), a.clone(), again.clone()], false).unwrap();
        let scores: Vec<_> = merged
            .records
            .iter()
            .map(|r| r.json["score"].clone())
            .collect();
        assert_eq!(scores, [1, 2, 3, 4]);
        assert_eq!((merged.items, merged.duplicates), (4, 1));
        assert!(matches!(
            merge_results(std::slice::from_ref(&a), false),
            Err(ResultsError::Missing {
                missing: 2,
                items: 4,
                first: 1
            })
        ));
        assert_eq!(
            merge_results(std::slice::from_ref(&a), true)
                .unwrap()
                .records
                .len(),
            2
        );
        let other = write("other", &[record(1, 4, "q1", 2)]);
        assert!(matches!(
            merge_results(&[a.clone(), b.clone(), other], false),
            Err(ResultsError::Disagree { index: 1, .. })
        ));
        let bigger = write("bigger", &[record(1, 5, "p1", 2)]);
        assert!(matches!(
            merge_results(&[a, bigger], false),
            Err(ResultsError::Disagree { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_partition_the_work() {
        for count in 1..=7u32 {
            let shards: Vec<Shard> = (0..count).map(|i| Shard::new(i, count).unwrap()).collect();
            for k in 0..100 {
                assert_eq!(
                    shards.iter().filter(|s| s.owns(k)).count(),
                    1,
                    "{k} of {count}"
                );
            }
        }
    }

    #[test]
    fn shard_text_round_trips_and_bad_text_is_refused() {
        for text in ["0/1", "3/8", "99/100"] {
            assert_eq!(text.parse::<Shard>().unwrap().to_string(), text);
        }
        assert_eq!(" 2 / 5 ".parse::<Shard>(), Shard::new(2, 5));
        assert_eq!("1/0".parse::<Shard>(), Err(ParseShardError::NoShards));
        assert_eq!(
            "4/4".parse::<Shard>(),
            Err(ParseShardError::OutOfRange { index: 4, count: 4 })
        );
        for bad in [
            "",
            "3",
            "a/b",
            "-1/4",
            "+1/4",
            "1/4/5",
            "1/99999999999",
            "1.5/4",
        ] {
            assert_eq!(bad.parse::<Shard>(), Err(ParseShardError::Syntax), "{bad}");
        }
        assert!(Shard::ALL.is_all() && Shard::default() == Shard::ALL);
    }
}
