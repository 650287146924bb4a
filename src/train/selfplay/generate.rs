//! A data-generation run (`iago datagen`): the chunks of a shard played on worker threads,
//! written as their games finish; sound chunks already there are kept.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use thiserror::Error;

use crate::batch::Shard;
use crate::engine::{Engine, EngineError};
use crate::train::chunk::{self, Chunk, ChunkHeader, ChunkKind, DataError, EXTENSION, Record};

use super::labels::game_records;
use super::options::DatagenOptions;
use super::play::game_engine;

/// The file name of chunk `k`.
pub fn chunk_name(k: u64) -> String {
    format!("chunk-{k:06}.{EXTENSION}")
}

/// Where and how much a run generates.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Games in all (of every shard): chunks `0 .. ceil(games / games_per_chunk)`.
    pub games: u64,
    /// The directory of the chunks (made if missing).
    pub out: PathBuf,
    /// The chunks of this process: chunk `k` belongs to shard `k mod N`.
    pub shard: Shard,
    /// Games played at once.
    pub threads: usize,
}

/// Progress of a run, after each game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Games this run plays.
    pub games_total: u64,
    /// Games played so far.
    pub games: u64,
    /// Positions recorded so far.
    pub positions: u64,
    /// Chunks written so far.
    pub chunks_written: usize,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Chunks of this shard.
    pub chunks: usize,
    /// Chunks already present and sound, left alone.
    pub skipped: usize,
    /// Chunks present but damaged or incomplete, made again.
    pub regenerated: usize,
    /// Chunks written.
    pub written: usize,
    /// Games played.
    pub games: u64,
    /// Positions recorded.
    pub positions: u64,
    /// Seconds of the run.
    pub seconds: f64,
    /// The fingerprint of the settings.
    pub fingerprint: u64,
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// Reading or writing chunks.
    #[error(transparent)]
    Data(#[from] DataError),
    /// An engine could not be made (its hash table).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A worker thread could not start.
    #[error("cannot start a worker thread: {0}")]
    Thread(std::io::Error),
}

/// What to do with chunk `k`: `None` when a sound chunk of these settings is there already.
/// A damaged or incomplete one is reported on the log and made again; a sound chunk of other
/// settings is an error.
fn check_existing(
    path: &Path,
    k: u64,
    first_game: u64,
    games: u64,
    fingerprint: u64,
) -> Result<Option<bool>, DataError> {
    if !path.exists() {
        return Ok(Some(false));
    }
    match chunk::read_chunk(path) {
        Ok(chunk) => {
            let h = chunk.header;
            if h.kind != ChunkKind::SelfPlay || h.fingerprint != fingerprint {
                return Err(DataError::Foreign {
                    path: path.to_path_buf(),
                    found: h.fingerprint,
                    expected: fingerprint,
                });
            }
            if h.chunk == k && h.first_game == first_game && h.games == games {
                return Ok(None);
            }
            log::warn!(
                "{}: holds games {}..{} as chunk {}, this run makes games {first_game}..{} there; making it again",
                path.display(),
                h.first_game,
                h.first_game + h.games,
                h.chunk,
                first_game + games
            );
            Ok(Some(true))
        }
        Err(DataError::Chunk { source, .. }) => {
            log::warn!("{}: {source}; making it again", path.display());
            Ok(Some(true))
        }
        Err(e) => Err(e),
    }
}

/// The chunks of `spec.shard` to make, as `(chunk, first game, games)`: those `spec.out` does
/// not hold yet (counted in `report`, with those it holds and those made again).
fn chunks_to_make(
    spec: &RunSpec,
    per_chunk: u64,
    report: &mut RunReport,
) -> Result<Vec<(u64, u64, u64)>, DatagenError> {
    let mut todo = Vec::new();
    for k in (0..spec.games.div_ceil(per_chunk)).filter(|&k| spec.shard.owns(k as usize)) {
        report.chunks += 1;
        let first = k * per_chunk;
        let games = per_chunk.min(spec.games - first);
        let path = spec.out.join(chunk_name(k));
        // A temporary file left by a run that was stopped.
        let _ = std::fs::remove_file(chunk::temporary_path(&path));
        match check_existing(&path, k, first, games, report.fingerprint)? {
            None => report.skipped += 1,
            Some(again) => {
                report.regenerated += again as usize;
                todo.push((k, first, games));
            }
        }
    }
    Ok(todo)
}

/// Writes chunk `k` of `out`, its `games` games from game `first`, with their `records`.
fn write_chunk(
    out: &std::path::Path,
    (k, first, games): (u64, u64, u64),
    fingerprint: u64,
    records: Vec<Record>,
) -> Result<(), DatagenError> {
    let chunk = Chunk {
        header: ChunkHeader {
            kind: ChunkKind::SelfPlay,
            fingerprint,
            chunk: k,
            first_game: first,
            games,
        },
        records,
    };
    chunk::write_atomically(&out.join(chunk_name(k)), &chunk.to_bytes())?;
    Ok(())
}

/// Plays the games of the chunks of `spec.shard` that `spec.out` does not hold yet and writes
/// each chunk once its games are played (to a temporary name, then renamed). `progress` gets
/// the counts after every game.
pub fn generate(
    options: &DatagenOptions,
    spec: &RunSpec,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RunReport, DatagenError> {
    let start = Instant::now();
    let out = &spec.out;
    std::fs::create_dir_all(out).map_err(|source| DataError::Write {
        path: out.clone(),
        source,
    })?;
    let fingerprint = options.fingerprint();
    let per_chunk = options.games_per_chunk.max(1) as u64;
    let mut report = RunReport {
        fingerprint,
        ..RunReport::default()
    };
    let todo = chunks_to_make(spec, per_chunk, &mut report)?;
    let tasks: Vec<(usize, u64)> = todo
        .iter()
        .enumerate()
        .flat_map(|(c, &(_, first, games))| (first..first + games).map(move |g| (c, g)))
        .collect();
    let mut state = Progress {
        games_total: tasks.len() as u64,
        ..Progress::default()
    };
    progress(&state);
    if tasks.is_empty() {
        report.seconds = start.elapsed().as_secs_f64();
        return Ok(report);
    }
    let workers = spec.threads.clamp(1, tasks.len());
    let engines = (0..workers)
        .map(|_| game_engine(options))
        .collect::<Result<Vec<Engine>, EngineError>>()?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Games run on threads of their own rather than on a rayon pool: each engine searches on
    // its own pool, and a rayon worker waiting for another pool would start other games
    // meanwhile, on top of the one it waits for.
    let result = std::thread::scope(|scope| -> Result<(), DatagenError> {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, u64, Vec<Record>)>();
        for (i, mut engine) in engines.into_iter().enumerate() {
            let (tx, tasks, next, stop) = (tx.clone(), &tasks, &next, &stop);
            std::thread::Builder::new()
                .name(format!("iago-datagen-{i}"))
                .spawn_scoped(scope, move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Some(&(c, game)) = tasks.get(next.fetch_add(1, Ordering::Relaxed))
                        else {
                            break;
                        };
                        let records = game_records(&mut engine, options, game);
                        if tx.send((c, game, records)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| {
                    stop.store(true, Ordering::Relaxed);
                    DatagenError::Thread(e)
                })?;
        }
        drop(tx);
        let mut pending: HashMap<usize, Vec<Option<Vec<Record>>>> = HashMap::new();
        for (c, game, records) in rx {
            let (_, first, games) = todo[c];
            state.games += 1;
            state.positions += records.len() as u64;
            let slots = pending
                .entry(c)
                .or_insert_with(|| vec![None; games as usize]);
            slots[(game - first) as usize] = Some(records);
            if slots.iter().all(Option::is_some) {
                let records = pending
                    .remove(&c)
                    .expect("the chunk's games")
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect();
                if let Err(e) = write_chunk(out, todo[c], fingerprint, records) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                state.chunks_written += 1;
            }
            progress(&state);
        }
        Ok(())
    });
    result?;
    report.written = state.chunks_written;
    report.games = state.games;
    report.positions = state.positions;
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::selfplay::tests::{files, small, temp_dir};

    fn run(
        options: &DatagenOptions,
        dir: &Path,
        games: u64,
        shard: Shard,
        threads: usize,
    ) -> RunReport {
        let spec = RunSpec {
            games,
            out: dir.to_path_buf(),
            shard,
            threads,
        };
        generate(options, &spec, &mut |_| {}).unwrap()
    }

    /// One run on 2 threads and three shards on 1 thread each make the same files, byte for
    /// byte; a second run makes nothing.
    #[test]
    fn shards_make_the_files_of_one_run() {
        let options = small();
        let (whole, split) = (temp_dir("datagen-whole"), temp_dir("datagen-split"));
        let report = run(&options, &whole, 7, Shard::ALL, 2);
        assert_eq!((report.chunks, report.written, report.games), (4, 4, 7));
        for i in 0..3 {
            let report = run(&options, &split, 7, Shard::new(i, 3).unwrap(), 1);
            assert_eq!(report.chunks, [2, 1, 1][i as usize]);
        }
        let made = files(&whole);
        assert_eq!(made.len(), 4);
        assert_eq!(made, files(&split));
        let last = chunk::read_chunk(&whole.join(chunk_name(3))).unwrap();
        assert_eq!((last.header.first_game, last.header.games), (6, 1));
        assert!(last.records.iter().all(|r| r.game == 6));
        let again = run(&options, &whole, 7, Shard::ALL, 2);
        assert_eq!((again.skipped, again.written, again.games), (4, 0, 0));
        for dir in [whole, split] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    /// A resumed run makes only the chunks that are missing, damaged or incomplete, leaves the
    /// sound ones alone (same file, same bytes), and refuses a directory of other settings.
    #[test]
    fn a_resumed_run_makes_only_what_is_missing_or_damaged() {
        let options = small();
        let dir = temp_dir("datagen-resume");
        run(&options, &dir, 5, Shard::ALL, 2);
        let before = files(&dir);
        let identity = |k: u64| {
            let meta = std::fs::metadata(dir.join(chunk_name(k))).unwrap();
            (
                std::os::unix::fs::MetadataExt::ino(&meta),
                meta.modified().unwrap(),
            )
        };
        let kept = identity(1);
        std::fs::remove_file(dir.join(chunk_name(0))).unwrap();
        let damaged = dir.join(chunk_name(2));
        let mut bytes = std::fs::read(&damaged).unwrap();
        bytes[100] ^= 4;
        std::fs::write(&damaged, bytes).unwrap();
        // A temporary file of a run that was stopped.
        std::fs::write(chunk::temporary_path(&dir.join(chunk_name(0))), b"partial").unwrap();
        let report = run(&options, &dir, 5, Shard::ALL, 2);
        assert_eq!(
            (
                report.skipped,
                report.regenerated,
                report.written,
                report.games
            ),
            (1, 1, 2, 3)
        );
        assert_eq!(files(&dir), before);
        assert_eq!(identity(1), kept, "a sound chunk is not written again");
        assert!(!chunk::temporary_path(&dir.join(chunk_name(0))).exists());
        // More games: the last chunk, short of a game, is made again whole.
        let report = run(&options, &dir, 6, Shard::ALL, 1);
        assert_eq!(
            (report.skipped, report.regenerated, report.games),
            (2, 1, 2)
        );
        // Other settings: refused, naming the chunk.
        let other = DatagenOptions { seed: 8, ..small() };
        let spec = RunSpec {
            games: 6,
            out: dir.clone(),
            shard: Shard::ALL,
            threads: 1,
        };
        let err = generate(&other, &spec, &mut |_| {}).unwrap_err();
        assert!(
            err.to_string()
                .contains("chunk-000000.iagodata was made with other settings"),
            "{err}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
