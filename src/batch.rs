//! Batch work split into shards: independent processes, each taking every N-th work item, whose
//! outputs ([`ResultLog`], JSON lines) merge ([`merge_results`]) into the result of one run. A scheduler outside Iago starts them (GNU
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
/// `$JOB_COMPLETION_INDEX` count from 0). `0/1`, the default, is the whole work: shard `1/3`
/// owns the items 1, 4, 7, ….
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

/// The fields a result record adds to the row of the command that made it.
pub const RECORD_FIELDS: [&str; 4] = ["item", "items", "work", "position"];

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
        "{path}, line {line}: not a result record of a sharded run (a JSON object with \"item\", \"items\", \"work\" and \"position\")"
    )]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
    },
    /// A row to record already has a field of the record's own, or is not a JSON object.
    #[error("a row to record must be a JSON object without the fields item, items, work, position")]
    BadRow,
    /// The file holds the results of other settings (another command, mode, depth or rules)
    /// or of an input of another size.
    #[error(
        "{path} holds the results of other work ({found}), not of this run ({expected}): give another --out file"
    )]
    OtherSettings {
        /// The file.
        path: PathBuf,
        /// The work of the file's records: their `work` and item count.
        found: String,
        /// This run's.
        expected: String,
    },
    /// The file holds another position for an item.
    #[error(
        "{path}: work item {item} is {found} there, {expected} here: the file holds the results of another input; give another --out file"
    )]
    OtherWork {
        /// The file.
        path: PathBuf,
        /// The work item, from 0.
        item: usize,
        /// Its position in the file.
        found: String,
        /// Its position in this work.
        expected: String,
    },
    /// Two files disagree on an item's position, on the work's size or on its settings.
    #[error(
        "{first} and {second} disagree on {what} (work item {item}): they hold the results of different work"
    )]
    Disagree {
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
        /// The work item, from 0.
        item: usize,
        /// What differs: "the position", "the number of items" or "the settings".
        what: &'static str,
    },
    /// Items are missing from a merge.
    #[error(
        "{missing} of {items} work items have no result (the first: item {first}, counted from 0); run their shards (again) or merge with --partial"
    )]
    Missing {
        /// How many.
        missing: usize,
        /// Of how many.
        items: usize,
        /// The first missing item, from 0.
        first: usize,
    },
}

/// One finished work item as read back: its place, its work and its whole record.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRecord {
    /// The work item, from 0 in the work's own order (the ordinal `--shard` splits by).
    pub item: usize,
    /// The work's size.
    pub items: usize,
    /// The settings that make the result (the command and its options, such as
    /// `solve exact othello`), so that a file is neither resumed nor merged with the results
    /// of other settings.
    pub work: String,
    /// What the item was (the position as a board string), so that a file cannot be
    /// resumed or merged with another input's results.
    pub position: String,
    /// The record as read, one JSON object.
    pub json: Map<String, Value>,
    /// The line as written, without its newline: a merge writes it back unchanged.
    pub text: String,
}

impl ResultRecord {
    fn parse(line: &str) -> Option<ResultRecord> {
        let Ok(Value::Object(json)) = serde_json::from_str::<Value>(line) else {
            return None;
        };
        let item = usize::try_from(json.get("item")?.as_u64()?).ok()?;
        let items = usize::try_from(json.get("items")?.as_u64()?).ok()?;
        let work = json.get("work")?.as_str()?.to_string();
        let position = json.get("position")?.as_str()?.to_string();
        (item < items).then(|| ResultRecord {
            item,
            items,
            work,
            position,
            json,
            text: line.trim_end().to_string(),
        })
    }

    /// The work of this record as a message names it.
    fn work_text(&self) -> String {
        work_text(&self.work, self.items)
    }
}

fn work_text(work: &str, items: usize) -> String {
    format!("'{work}' over {items} items")
}

/// Reads a file of result records. A last line without its newline (a process killed while
/// writing it) is left out, and the length of the complete lines in bytes is given so that a
/// writer can cut the rest.
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

/// One line of a result file: the command's row and the record's own fields after it.
#[derive(Serialize)]
struct Line<'a, R: Serialize> {
    #[serde(flatten)]
    row: &'a R,
    item: usize,
    items: usize,
    work: &'a str,
    position: &'a str,
}

/// The results of a shard as it runs: a file of JSON lines, one record per finished work item,
/// appended and flushed as each finishes. Opening an existing file resumes it: its records
/// count as done, and a last line cut by a kill is removed.
///
/// A record is the command's own row (its `--json` line) followed by `item` (from 0, the
/// ordinal `--shard` splits by), `items` (the work's size), `work` (the settings that make the
/// result) and `position` (the item's board string).
#[derive(Debug)]
pub struct ResultLog {
    path: PathBuf,
    file: File,
    work: String,
    items: usize,
    done: BTreeMap<usize, ResultRecord>,
}

impl ResultLog {
    /// Opens (or creates) the file at `path` for the results of `items` work items made with
    /// the settings `work`; a file holding results of other settings or another work size is
    /// refused, and left as it was.
    pub fn open(
        path: impl AsRef<Path>,
        work: &str,
        items: usize,
    ) -> Result<ResultLog, ResultsError> {
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
        if let Some(other) = records.iter().find(|r| r.work != work || r.items != items) {
            return Err(ResultsError::OtherSettings {
                path,
                found: other.work_text(),
                expected: work_text(work, items),
            });
        }
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
        let done = records.into_iter().map(|r| (r.item, r)).collect();
        Ok(ResultLog {
            path,
            file,
            work: work.to_string(),
            items,
            done,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many items the file already holds.
    pub fn done_count(&self) -> usize {
        self.done.len()
    }

    /// The record of item `item` if it is finished; an error if the file holds another
    /// position for it (the file belongs to another input).
    pub fn finished(
        &self,
        item: usize,
        position: &str,
    ) -> Result<Option<&ResultRecord>, ResultsError> {
        match self.done.get(&item) {
            Some(record) if record.position != position => Err(ResultsError::OtherWork {
                path: self.path.clone(),
                item,
                found: record.position.clone(),
                expected: position.to_string(),
            }),
            found => Ok(found),
        }
    }

    /// Appends the record of finished item `item` (from 0, below the work's size), whose
    /// position is `position`: `row`, which must serialise to a JSON object without the
    /// record's own fields ([`RECORD_FIELDS`]), then those fields. Flushed at once.
    pub fn append(
        &mut self,
        item: usize,
        position: &str,
        row: &impl Serialize,
    ) -> Result<(), ResultsError> {
        let io_error = |source| ResultsError::Io {
            path: self.path.clone(),
            source,
        };
        match serde_json::to_value(row) {
            Ok(Value::Object(fields)) if RECORD_FIELDS.iter().all(|f| !fields.contains_key(*f)) => {
            }
            _ => return Err(ResultsError::BadRow),
        }
        let mut line = serde_json::to_string(&Line {
            row,
            item,
            items: self.items,
            work: &self.work,
            position,
        })
        .map_err(|e| io_error(e.into()))?;
        let parsed = ResultRecord::parse(&line).ok_or_else(|| ResultsError::NotARecord {
            path: self.path.clone(),
            line: self.done.len() + 1,
        })?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io_error)?;
        self.file.flush().map_err(io_error)?;
        self.done.insert(parsed.item, parsed);
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
    /// Records of items found in an earlier file too (kept once).
    pub duplicates: usize,
}

impl Merged {
    /// Writes the records as JSON lines, each as its shard wrote it.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        for record in &self.records {
            writeln!(out, "{}", record.text)?;
        }
        Ok(())
    }
}

/// Merges result files (from `--shard` runs, in any order; a shard run twice counts once).
/// Files that disagree on an item's position, on the work's size or on its settings are
/// refused; missing items are an error unless `partial`. Where an item was run twice, the
/// record of the file named first is kept (on one thread, records of one item differ only in
/// `time_ms`).
pub fn merge_results(paths: &[PathBuf], partial: bool) -> Result<Merged, ResultsError> {
    let mut by_item: BTreeMap<usize, (ResultRecord, usize)> = BTreeMap::new();
    // The first record read, and its file: every other must have its size and settings.
    let mut first: Option<(ResultRecord, usize)> = None;
    let mut duplicates = 0;
    for (file, path) in paths.iter().enumerate() {
        let (records, _) = read_records(path)?;
        for record in records {
            let disagree = |other: usize, what| ResultsError::Disagree {
                first: paths[other].clone(),
                second: path.clone(),
                item: record.item,
                what,
            };
            match &first {
                Some((f, other)) if f.items != record.items => {
                    return Err(disagree(*other, "the number of items"));
                }
                Some((f, other)) if f.work != record.work => {
                    return Err(disagree(*other, "the settings"));
                }
                Some(_) => {}
                None => first = Some((record.clone(), file)),
            }
            match by_item.get(&record.item) {
                Some((kept, other)) => {
                    if kept.position != record.position {
                        return Err(disagree(*other, "the position"));
                    }
                    duplicates += 1;
                }
                None => {
                    by_item.insert(record.item, (record, file));
                }
            }
        }
    }
    let items = first.map_or(0, |(r, _)| r.items);
    let missing = items - by_item.len();
    if missing > 0 && !partial {
        let first = (0..items).find(|i| !by_item.contains_key(i)).unwrap_or(0);
        return Err(ResultsError::Missing {
            missing,
            items,
            first,
        });
    }
    Ok(Merged {
        records: by_item.into_values().map(|(r, _)| r).collect(),
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

    /// A record as a shard writes it: a row (`index` from 1, `score`) and the record's fields.
    fn record(item: usize, items: usize, work: &str, position: &str, score: i32) -> Value {
        serde_json::json!({"index": item + 1, "score": score, "item": item, "items": items,
            "work": work, "position": position})
    }

    fn row(item: usize, score: i32) -> Value {
        serde_json::json!({"index": item + 1, "score": score})
    }

    #[test]
    fn a_result_log_resumes_and_drops_a_cut_last_line() {
        let dir = scratch("resume");
        let path = dir.join("shard.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut log = ResultLog::open(&path, "solve exact", 3).unwrap();
        log.append(0, "a", &row(0, 5)).unwrap();
        log.append(2, "c", &row(2, -4)).unwrap();
        drop(log);
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            written.lines().next(),
            Some(r#"{"index":1,"score":5,"item":0,"items":3,"work":"solve exact","position":"a"}"#)
        );
        // A kill in the middle of the third record.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"index\":2,\"sco").unwrap();
        drop(file);
        // Other settings or another size: refused, and the file is left as it was.
        for (work, items) in [("solve wld", 3), ("solve exact", 4)] {
            assert!(matches!(
                ResultLog::open(&path, work, items),
                Err(ResultsError::OtherSettings { .. })
            ));
        }
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("\"sco"));
        let mut log = ResultLog::open(&path, "solve exact", 3).unwrap();
        assert_eq!(log.done_count(), 2);
        assert_eq!(log.finished(0, "a").unwrap().unwrap().json["score"], 5);
        assert!(log.finished(1, "b").unwrap().is_none());
        assert!(matches!(
            log.finished(2, "x"),
            Err(ResultsError::OtherWork { item: 2, .. })
        ));
        log.append(1, "b", &row(1, 0)).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&written), "{text}");
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with("\"position\":\"b\"}\n"), "{text}");
        // Not a row, or a row with a record's field: refused, never appended.
        let mut log = ResultLog::open(&path, "solve exact", 3).unwrap();
        assert!(matches!(
            log.append(1, "b", &serde_json::json!(1)),
            Err(ResultsError::BadRow)
        ));
        assert!(matches!(
            log.append(1, "b", &serde_json::json!({"item": 2})),
            Err(ResultsError::BadRow)
        ));
        // An item beyond the work.
        assert!(log.append(3, "d", &row(3, 0)).is_err());
        drop(log);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        std::fs::write(&path, "garbage\n{}\n").unwrap();
        assert!(matches!(
            ResultLog::open(&path, "solve exact", 3),
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
        let w = "solve exact";
        let a = write("a", &[record(0, 4, w, "p0", 1), record(2, 4, w, "p2", 3)]);
        let b = write("b", &[record(3, 4, w, "p3", 4), record(1, 4, w, "p1", 2)]);
        let again = write("again", &[record(1, 4, w, "p1", 2)]);
        let empty = write("empty", &[]);
        let merged = merge_results(&[b.clone(), empty, a.clone(), again.clone()], false).unwrap();
        let scores: Vec<_> = merged
            .records
            .iter()
            .map(|r| r.json["score"].clone())
            .collect();
        assert_eq!(scores, [1, 2, 3, 4]);
        assert_eq!((merged.items, merged.duplicates), (4, 1));
        // Written back line for line.
        let mut out = Vec::new();
        merged.write_to(&mut out).unwrap();
        let lines: Vec<String> = [0, 1, 2, 3]
            .map(|i| format!("{}\n", record(i, 4, w, &format!("p{i}"), i as i32 + 1)))
            .into();
        assert_eq!(String::from_utf8(out).unwrap(), lines.concat());
        assert!(matches!(
            merge_results(std::slice::from_ref(&a), false),
            Err(ResultsError::Missing {
                missing: 2,
                items: 4,
                first: 1
            })
        ));
        let partial = merge_results(std::slice::from_ref(&a), true).unwrap();
        assert_eq!((partial.records.len(), partial.items), (2, 4));
        let other = write("other", &[record(1, 4, w, "q1", 2)]);
        assert!(matches!(
            merge_results(&[a.clone(), b.clone(), other], false),
            Err(ResultsError::Disagree {
                item: 1,
                what: "the position",
                ..
            })
        ));
        let bigger = write("bigger", &[record(1, 5, w, "p1", 2)]);
        assert!(matches!(
            merge_results(&[a.clone(), bigger], false),
            Err(ResultsError::Disagree {
                what: "the number of items",
                ..
            })
        ));
        let wld = write("wld", &[record(1, 4, "solve wld", "p1", 2)]);
        assert!(matches!(
            merge_results(&[a, wld], false),
            Err(ResultsError::Disagree {
                what: "the settings",
                ..
            })
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
        let shard: Shard = "1/3".parse().unwrap();
        let mine: Vec<usize> = (0..8).filter(|&k| shard.owns(k)).collect();
        assert_eq!(mine, [1, 4, 7]);
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
        assert_eq!(Shard::default(), Shard::ALL);
    }
}
