//! The merge of chunks into one record per distinct position under the 8 symmetries, labels of
//! duplicates combined (`iago merge`, and self-play data in training).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::train::chunk::{
    self, Chunk, ChunkHeader, ChunkKind, DataError, EXTENSION, Fnv, Record, SearchLabel,
};

use super::labels::score8;

/// The labels of one position class gathered from its duplicates; the result does not depend on
/// the order in which they come.
#[derive(Clone, Copy, Debug)]
struct Gathered {
    board: Board,
    count: u64,
    game: u32,
    ply: u8,
    outcome_sum: i64,
    outcome_count: u64,
    search_depth: u8,
    search_sum: i64,
    search_count: u64,
    exact: Option<i8>,
    exact_conflict: bool,
}

impl Gathered {
    fn new(board: Board) -> Gathered {
        Gathered {
            board,
            count: 0,
            game: u32::MAX,
            ply: u8::MAX,
            outcome_sum: 0,
            outcome_count: 0,
            search_depth: 0,
            search_sum: 0,
            search_count: 0,
            exact: None,
            exact_conflict: false,
        }
    }

    fn add(&mut self, r: &Record) {
        let weight = r.count.max(1) as u64;
        self.count += weight;
        self.game = self.game.min(r.game);
        self.ply = self.ply.min(r.ply);
        if let Some(o) = r.outcome {
            self.outcome_sum += o as i64 * weight as i64;
            self.outcome_count += weight;
        }
        if let Some(s) = r.search {
            if s.depth > self.search_depth || self.search_count == 0 {
                self.search_depth = s.depth;
                self.search_sum = 0;
                self.search_count = 0;
            }
            if s.depth == self.search_depth {
                self.search_sum += s.score as i64 * weight as i64;
                self.search_count += weight;
            }
        }
        if let Some(e) = r.exact {
            if self.exact.is_some_and(|x| x != e) {
                self.exact_conflict = true;
            }
            self.exact = Some(self.exact.map_or(e, |x| x.min(e)));
        }
    }

    fn record(&self) -> Record {
        Record {
            board: self.board,
            game: self.game,
            count: self.count.min(u16::MAX as u64) as u16,
            ply: self.ply,
            outcome: (self.outcome_count > 0).then(|| mean(self.outcome_sum, self.outcome_count)),
            search: (self.search_count > 0).then(|| SearchLabel {
                score: mean(self.search_sum, self.search_count),
                depth: self.search_depth,
            }),
            exact: self.exact,
        }
    }
}

/// `sum / count` rounded to the nearest integer, halves away from zero.
fn mean(sum: i64, count: u64) -> i8 {
    let count = count as i64;
    let magnitude = (2 * sum.abs() + count) / (2 * count);
    score8((sum.signum() * magnitude) as i32)
}

/// Gathers records into one per position class under the 8 symmetries (see [`merge_chunks`]
/// for how labels combine); returns the merged records, in canonical form sorted by board, and
/// the number of classes whose exact labels disagreed.
pub(crate) fn combine<'a>(records: impl IntoIterator<Item = &'a Record>) -> (Vec<Record>, usize) {
    let mut map: HashMap<Board, Gathered> = HashMap::new();
    for r in records {
        let key = r.board.canonical().0;
        map.entry(key).or_insert_with(|| Gathered::new(key)).add(r);
    }
    let conflicts = map.values().filter(|g| g.exact_conflict).count();
    let mut merged: Vec<Record> = map.values().map(Gathered::record).collect();
    merged.sort_unstable_by_key(|r| (r.board.player, r.board.opponent));
    (merged, conflicts)
}

/// Records per file of a merge's output (32 MiB).
pub const MERGED_RECORDS_PER_FILE: usize = 1 << 20;

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Chunk files read.
    pub files_read: usize,
    /// Records read.
    pub records_read: u64,
    /// Distinct positions (classes under the 8 symmetries) written.
    pub positions: u64,
    /// Files written.
    pub files_written: usize,
    /// Positions whose exact labels disagreed (the least was kept): a sign of damaged or
    /// foreign data.
    pub exact_conflicts: usize,
}

/// Merges the chunks at `inputs` (files, or directories of `*.iagodata` files) into the
/// directory `output` (made if missing; it must hold no chunk): one record per distinct
/// position under the 8 symmetries, in canonical form (the least of its 8 images), sorted by
/// board, in files `merged-000000.iagodata`, … of at most [`MERGED_RECORDS_PER_FILE`] records.
///
/// Labels of duplicates combine, whatever the order of the inputs: an exact label wins (exact
/// labels agree; should they not, the least is kept and the position counted in
/// [`MergeReport::exact_conflicts`]); the deepest search label wins, and equal depths are
/// averaged; outcomes are averaged; averages weigh each record by its count and round to the
/// nearest disc, halves away from zero. The count is the sum of the counts (at most 65,535),
/// the game and the ply the least. The header's fingerprint is a hash of the inputs'
/// distinct fingerprints.
pub fn merge_chunks(inputs: &[PathBuf], output: &Path) -> Result<MergeReport, DataError> {
    let mut files = Vec::new();
    for input in inputs {
        files.extend(chunk::chunk_files(input)?);
    }
    if output.is_dir() && !chunk::chunks_in(output)?.is_empty() {
        return Err(DataError::OutputNotEmpty {
            path: output.to_path_buf(),
        });
    }
    let mut report = MergeReport::default();
    let mut fingerprints = BTreeSet::new();
    let mut map: HashMap<Board, Gathered> = HashMap::new();
    for file in &files {
        let chunk = chunk::read_chunk(file)?;
        report.files_read += 1;
        report.records_read += chunk.records.len() as u64;
        fingerprints.insert((
            chunk.header.kind == ChunkKind::Merged,
            chunk.header.fingerprint,
        ));
        for r in &chunk.records {
            let key = r.board.canonical().0;
            map.entry(key).or_insert_with(|| Gathered::new(key)).add(r);
        }
    }
    report.exact_conflicts = map.values().filter(|g| g.exact_conflict).count();
    let mut merged: Vec<Record> = map.into_values().map(|g| g.record()).collect();
    merged.sort_unstable_by_key(|r| (r.board.player, r.board.opponent));
    report.positions = merged.len() as u64;
    let mut hash = Fnv::new();
    hash.write(b"iagodata merged");
    for (merged, fingerprint) in &fingerprints {
        hash.write(&[*merged as u8]);
        hash.write_u64(*fingerprint);
    }
    let fingerprint = hash.finish();
    std::fs::create_dir_all(output).map_err(|source| DataError::Write {
        path: output.to_path_buf(),
        source,
    })?;
    for (k, records) in merged.chunks(MERGED_RECORDS_PER_FILE).enumerate() {
        let chunk = Chunk {
            header: ChunkHeader {
                kind: ChunkKind::Merged,
                fingerprint,
                chunk: k as u64,
                first_game: 0,
                games: 0,
            },
            records: records.to_vec(),
        };
        let path = output.join(format!("merged-{k:06}.{EXTENSION}"));
        chunk::write_atomically(&path, &chunk.to_bytes())?;
        report.files_written += 1;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Game, Position, Rules};
    use crate::train::selfplay::tests::{files, temp_dir};

    fn record(board: Board, game: u32) -> Record {
        Record {
            board,
            game,
            count: 1,
            ply: 60 - board.empty_count() as u8,
            outcome: None,
            search: None,
            exact: None,
        }
    }

    /// A position and its mirror image are one position: their labels combine (exact kept,
    /// the deeper search, outcomes averaged), whatever the order of the inputs.
    #[test]
    fn merge_keeps_one_record_per_symmetric_class_in_any_order() {
        let board = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6c3d3c4")
            .unwrap()
            .position()
            .board;
        let mirror = board.transform(crate::board::Symmetry::MirrorRows);
        assert_ne!(mirror, board);
        let other = Board::start();
        let a = Chunk {
            header: ChunkHeader {
                kind: ChunkKind::SelfPlay,
                fingerprint: 1,
                chunk: 0,
                first_game: 0,
                games: 1,
            },
            records: vec![
                Record {
                    outcome: Some(4),
                    search: Some(SearchLabel { score: 1, depth: 6 }),
                    ..record(board, 3)
                },
                Record {
                    outcome: Some(-2),
                    ..record(other, 3)
                },
            ],
        };
        let b = Chunk {
            header: ChunkHeader {
                fingerprint: 2,
                chunk: 1,
                ..a.header
            },
            records: vec![
                Record {
                    outcome: Some(7),
                    search: Some(SearchLabel { score: 5, depth: 8 }),
                    exact: Some(2),
                    ..record(mirror, 1)
                },
                Record {
                    outcome: Some(-3),
                    search: Some(SearchLabel { score: 3, depth: 8 }),
                    ..record(board, 2)
                },
            ],
        };
        let dir = temp_dir("datagen-merge");
        std::fs::create_dir_all(dir.join("in")).unwrap();
        let (pa, pb) = (dir.join("in/a.iagodata"), dir.join("in/b.iagodata"));
        std::fs::write(&pa, a.to_bytes()).unwrap();
        std::fs::write(&pb, b.to_bytes()).unwrap();
        let one = merge_chunks(&[pa.clone(), pb.clone()], &dir.join("ab")).unwrap();
        assert_eq!(
            one,
            MergeReport {
                files_read: 2,
                records_read: 4,
                positions: 2,
                files_written: 1,
                exact_conflicts: 0
            }
        );
        merge_chunks(&[pb, pa], &dir.join("ba")).unwrap();
        merge_chunks(&[dir.join("in")], &dir.join("dir")).unwrap();
        let merged = files(&dir.join("ab"));
        assert_eq!(merged, files(&dir.join("ba")));
        assert_eq!(merged, files(&dir.join("dir")));
        let chunk = chunk::read_chunk(&dir.join("ab/merged-000000.iagodata")).unwrap();
        assert_eq!(chunk.header.kind, ChunkKind::Merged);
        let class = chunk
            .records
            .iter()
            .find(|r| r.board == board.canonical().0)
            .unwrap();
        assert_eq!(class.count, 3);
        assert_eq!(class.game, 1);
        assert_eq!(class.exact, Some(2));
        assert_eq!(class.search, Some(SearchLabel { score: 4, depth: 8 }));
        // (4 + 7 - 3) / 3 = 2.67.
        assert_eq!(class.outcome, Some(3));
        // The output must not already hold chunks.
        assert!(matches!(
            merge_chunks(&[dir.join("in")], &dir.join("ab")),
            Err(DataError::OutputNotEmpty { .. })
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn means_round_halves_away_from_zero() {
        assert_eq!(
            [(5, 2), (-5, 2), (4, 3), (-4, 3), (0, 1), (-1, 3)].map(|(s, n)| mean(s, n)),
            [3, -3, 1, -1, 0, 0]
        );
    }
}
