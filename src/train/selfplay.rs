//! Self-play training data (`iago datagen`): games of Iago against itself from varied openings,
//! every position labelled, written as [`chunk`](super::chunk)s; and the merge of chunks into
//! one set of distinct positions.
//!
//! A game: an opening (a line of `--openings`, game `g` taking line `g mod lines`, or the
//! start), `random_opening_plies` uniformly random moves, `random_moves` moves chosen at random
//! (uniformly, or by a softmax over shallow search values), then best play at a depth or for a
//! time per move. Its positions from the end of the random part on (or all) are recorded with:
//! - `exact`: with at most `exact_empties` empties, the solver's score (also where a search
//!   label's search turned into an exact solve);
//! - `search`: beyond that, the score of a `label_depth`-ply search, with the depth;
//! - `outcome`: the game's result under strong play: the exact score of the game's first
//!   position in the solver's range (or of its end, if the game ends before), carried back
//!   along the game to every earlier position with the sign of its side to move; a position in
//!   the solver's range has its own exact score as its outcome.
//!
//! Every game runs on one thread, on an engine of its own whose hash table is cleared before the
//! game, with a random generator seeded from the seed and the game's number: with a depth
//! limit a game depends only on the settings, the seed and its number, so chunks are the same
//! whichever process, shard or thread made them.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use thiserror::Error;

use crate::batch::Shard;
use crate::board::{Board, Color, Move, Position};
use crate::engine::{Engine, EngineError, EngineOptions, SearchRequest};
use crate::eval::Evaluation;
use crate::matchrun::openings::Opening;
use crate::search::{Bound, Limits, SearchResult};
use crate::train::chunk::{
    self, Chunk, ChunkHeader, ChunkKind, DataError, EXTENSION, Fnv, Record, SearchLabel,
};

/// How the moves after the random part are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Play {
    /// A search to this depth (deterministic).
    Depth(u32),
    /// A search of this many seconds per move (the games depend on the machine's speed).
    Time(f64),
}

/// Random moves chosen by a softmax over the moves' values instead of uniformly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softmax {
    /// Discs: a move `t` discs worse than the best is `e` times less likely.
    pub temperature: f64,
    /// Plies of the search that values each move (at least 2: each reply searched a ply
    /// less).
    pub depth: u32,
}

/// The settings of a data-generation run that decide its games (all of them go into the
/// fingerprint).
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Seed of every random choice.
    pub seed: u64,
    /// Games per chunk: chunk `k` holds games `k * G .. (k + 1) * G`.
    pub games_per_chunk: u32,
    /// Openings to start from (game `g` takes `openings[g % len]`); none: the standard start.
    pub openings: Vec<Opening>,
    /// Uniformly random moves after the opening.
    pub random_opening_plies: u32,
    /// Random moves after those, uniform or by `softmax`.
    pub random_moves: u32,
    /// How `random_moves` are chosen (uniformly without).
    pub softmax: Option<Softmax>,
    /// Best play after the random part.
    pub play: Play,
    /// Plies of the search that labels positions beyond `exact_empties` (0: no search labels).
    pub label_depth: u32,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Record the opening and the random moves' positions too.
    pub record_all: bool,
    /// Hash table of each game's engine, MiB.
    pub hash_mb: usize,
    /// The evaluation of the searches.
    pub eval: Evaluation,
}

impl DatagenOptions {
    /// The fingerprint of these settings: equal settings (openings by their moves, the
    /// evaluation by its weights) give equal fingerprints on every machine.
    pub fn fingerprint(&self) -> u64 {
        let mut openings = Fnv::new();
        for opening in &self.openings {
            openings.write(opening.transcript.as_bytes());
            openings.write(b"\n");
        }
        let softmax = self.softmax.map_or("uniform".to_string(), |s| {
            format!("softmax {:016x} depth {}", s.temperature.to_bits(), s.depth)
        });
        let play = match self.play {
            Play::Depth(d) => format!("depth {d}"),
            Play::Time(t) => format!("time {:016x}", t.to_bits()),
        };
        let text = format!(
            "iagodata {} self-play; seed {}; games per chunk {}; openings {} {:016x}; \
             random opening plies {}; random moves {} {softmax}; play {play}; label depth {}; \
             exact empties {}; record all {}; hash {} MB; eval {:016x}",
            chunk::VERSION,
            self.seed,
            self.games_per_chunk,
            self.openings.len(),
            openings.finish(),
            self.random_opening_plies,
            self.random_moves,
            self.label_depth,
            self.exact_empties,
            self.record_all,
            self.hash_mb,
            eval_fingerprint(&self.eval),
        );
        let mut hash = Fnv::new();
        hash.write(text.as_bytes());
        hash.finish()
    }

    /// The search limits of best play.
    fn play_limits(&self) -> Limits {
        match self.play {
            Play::Depth(depth) => Limits::depth(depth),
            Play::Time(seconds) => crate::engine::seconds(seconds),
        }
    }
}

/// A hash of the evaluation's weights (`hand` for the hand-written one).
fn eval_fingerprint(eval: &Evaluation) -> u64 {
    let mut hash = Fnv::new();
    let pattern = match eval {
        Evaluation::Embedded => crate::eval::embedded(),
        Evaluation::Pattern(p) => Some(&**p),
        Evaluation::Hand => None,
    };
    match pattern {
        Some(p) => {
            for w in p.weights() {
                hash.write(&w.to_le_bytes());
            }
        }
        None => hash.write(b"hand"),
    }
    hash.finish()
}

/// SplitMix64: a small generator whose stream is fixed by its seed on every platform.
struct Rng(u64);

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator of game `game` under `seed`.
    fn for_game(seed: u64, game: u64) -> Rng {
        Rng(mix(mix(seed ^ 0x6A09_E667_F3BC_C908) ^ game))
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (n ≥ 1).
    fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A position of a game with what play learned about it.
#[derive(Clone, Copy, Debug)]
struct Step {
    position: Position,
    /// Moves made from the standard start, passes included.
    ply: u8,
    /// Its exact score for the side to move, when a search found it.
    exact: Option<i32>,
}

/// An engine for the searches of one game at a time: one thread, no book.
pub(crate) fn game_engine(options: &DatagenOptions) -> Result<Engine, EngineError> {
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: options.hash_mb,
        ..EngineOptions::default()
    })?;
    engine.set_evaluator(options.eval.clone());
    Ok(engine)
}

fn search(engine: &mut Engine, board: &Board, limits: Limits) -> SearchResult {
    engine.search(&SearchRequest::analyze(limits).board(*board), &mut |_| {})
}

/// The legal moves of `board` (which has one), in square order.
fn moves_of(board: &Board) -> Vec<Move> {
    board.legal_moves().iter().map(Move::Play).collect()
}

/// Plays game `game`: its positions from the start, the last one the game's end, and the index
/// of the first one to record.
fn play_game(engine: &mut Engine, options: &DatagenOptions, game: u64) -> (Vec<Step>, usize) {
    let mut rng = Rng::for_game(options.seed, game);
    engine.clear_hash();
    let opening = match options.openings.len() {
        0 => Opening::start(),
        n => options.openings[(game % n as u64) as usize].clone(),
    };
    let mut path: Vec<Step> = opening
        .game
        .states()
        .enumerate()
        .map(|(ply, state)| Step {
            position: state.position,
            ply: ply as u8,
            exact: None,
        })
        .collect();
    let advance = |path: &mut Vec<Step>, mv: Move| {
        let last = *path.last().expect("a position");
        path.push(Step {
            position: last.position.try_play(mv).expect("a legal move"),
            ply: last.ply + 1,
            exact: None,
        });
    };
    // The random part; a forced pass is played without counting.
    let random = options.random_opening_plies + options.random_moves;
    let mut chosen = 0;
    while chosen < random {
        let board = path.last().expect("a position").position.board;
        if board.is_game_over() {
            break;
        }
        if board.legal_moves().is_empty() {
            advance(&mut path, Move::Pass);
            continue;
        }
        let mv = match options.softmax {
            Some(softmax) if chosen >= options.random_opening_plies => {
                softmax_move(engine, &board, softmax, &mut rng)
            }
            _ => {
                let moves = moves_of(&board);
                moves[rng.below(moves.len())]
            }
        };
        advance(&mut path, mv);
        chosen += 1;
    }
    let record_from = if options.record_all {
        0
    } else {
        path.len() - 1
    };
    play_out(engine, options, &mut path);
    (path, record_from)
}

/// Best play from the last position of `path` to the end of the game.
fn play_out(engine: &mut Engine, options: &DatagenOptions, path: &mut Vec<Step>) {
    loop {
        let last = *path.last().expect("a position");
        let board = last.position.board;
        if board.is_game_over() {
            return;
        }
        let mv = if board.legal_moves().is_empty() {
            Move::Pass
        } else {
            let result = search(engine, &board, options.play_limits());
            if result.bound == Bound::Exact {
                path.last_mut().expect("a position").exact = Some(result.score);
            }
            result.best_move
        };
        path.push(Step {
            position: last
                .position
                .try_play(mv)
                .expect("the search's move is legal"),
            ply: last.ply + 1,
            exact: None,
        });
    }
}

/// A move of `board` drawn with probability proportional to `exp(value / temperature)`, each
/// move valued by a search of its position `depth - 1` plies deep.
fn softmax_move(engine: &mut Engine, board: &Board, softmax: Softmax, rng: &mut Rng) -> Move {
    let moves = moves_of(board);
    let limits = Limits::depth(softmax.depth.saturating_sub(1).max(1));
    let values: Vec<i32> = moves
        .iter()
        .map(|&mv| -search(engine, &board.play(mv), limits).score)
        .collect();
    let best = *values.iter().max().expect("a move");
    let weights: Vec<f64> = values
        .iter()
        .map(|&v| ((v - best) as f64 / softmax.temperature).exp())
        .collect();
    let mut draw = rng.unit() * weights.iter().sum::<f64>();
    for (mv, w) in moves.iter().zip(&weights) {
        if draw < *w {
            return *mv;
        }
        draw -= w;
    }
    *moves.last().expect("a move")
}

/// A score for a record: within ±64 by construction.
fn score8(score: i32) -> i8 {
    score.clamp(-64, 64) as i8
}

/// The records of a played game (see the module's documentation for the labels): the
/// positions of `path` from `record_from` on where the side to move has a move.
fn label_game(
    engine: &mut Engine,
    options: &DatagenOptions,
    game: u64,
    path: &mut [Step],
    record_from: usize,
) -> Vec<Record> {
    let in_range = |s: &Step| {
        s.position.board.empty_count() <= options.exact_empties || s.position.board.is_game_over()
    };
    let recorded = |s: &Step| !s.position.board.legal_moves().is_empty();
    if !path[record_from..].iter().any(recorded) {
        return Vec::new();
    }
    let exact_of = |engine: &mut Engine, step: &mut Step| -> i32 {
        let board = step.position.board;
        *step.exact.get_or_insert_with(|| {
            if board.is_game_over() {
                board.final_score()
            } else {
                let result = search(
                    engine,
                    &board,
                    Limits::depth(crate::search::driver::MAX_DEPTH),
                );
                debug_assert_eq!(result.bound, Bound::Exact);
                result.score
            }
        })
    };
    // The anchor of the outcomes: the first position in the solver's range (the last
    // position, the game's end, at the latest).
    let anchor = path.iter().position(in_range).unwrap_or(path.len() - 1);
    let anchor_black = {
        let score = exact_of(engine, &mut path[anchor]);
        match path[anchor].position.to_move {
            Color::Black => score,
            Color::White => -score,
        }
    };
    let mut records = Vec::new();
    for (i, step) in path.iter_mut().enumerate().skip(record_from) {
        if !recorded(step) {
            continue;
        }
        let board = step.position.board;
        let mut record = Record {
            board,
            game: game as u32,
            count: 1,
            ply: step.ply,
            outcome: None,
            search: None,
            exact: None,
        };
        if in_range(step) {
            record.exact = Some(score8(exact_of(engine, step)));
        } else if options.label_depth > 0 {
            let result = search(engine, &board, Limits::depth(options.label_depth));
            record.search = Some(SearchLabel {
                score: score8(result.score),
                depth: options.label_depth as u8,
            });
            if result.bound == Bound::Exact {
                record.exact = Some(score8(result.score));
            }
        }
        record.outcome = Some(if i >= anchor {
            record.exact.expect("solved: in the solver's range")
        } else {
            score8(match step.position.to_move {
                Color::Black => anchor_black,
                Color::White => -anchor_black,
            })
        });
        records.push(record);
    }
    records
}

/// The records of game `game` (see the module's documentation).
pub(crate) fn game_records(
    engine: &mut Engine,
    options: &DatagenOptions,
    game: u64,
) -> Vec<Record> {
    let (mut path, record_from) = play_game(engine, options, game);
    label_game(engine, options, game, &mut path, record_from)
}

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
    let chunk_count = spec.games.div_ceil(per_chunk);
    let mut report = RunReport {
        fingerprint,
        ..RunReport::default()
    };
    // (chunk, first game, games) to make.
    let mut todo: Vec<(u64, u64, u64)> = Vec::new();
    for k in (0..chunk_count).filter(|&k| spec.shard.owns(k as usize)) {
        report.chunks += 1;
        let first = k * per_chunk;
        let games = per_chunk.min(spec.games - first);
        let path = out.join(chunk_name(k));
        // A temporary file left by a run that was stopped.
        let _ = std::fs::remove_file(chunk::temporary_path(&path));
        match check_existing(&path, k, first, games, fingerprint)? {
            None => report.skipped += 1,
            Some(again) => {
                report.regenerated += again as usize;
                todo.push((k, first, games));
            }
        }
    }
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
            let (k, first, games) = todo[c];
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
                let written = chunk::write_atomically(&out.join(chunk_name(k)), &chunk.to_bytes());
                if let Err(e) = written {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e.into());
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
    use crate::board::{Game, Rules};
    use crate::eval::HandEval;
    use crate::search::Searcher;
    use crate::search::tt::TranspositionTable;

    /// Small settings: shallow searches, the solver from 10 empties.
    fn small() -> DatagenOptions {
        DatagenOptions {
            seed: 7,
            games_per_chunk: 2,
            openings: Vec::new(),
            random_opening_plies: 2,
            random_moves: 4,
            softmax: None,
            play: Play::Depth(2),
            label_depth: 3,
            exact_empties: 10,
            record_all: false,
            hash_mb: 1,
            eval: crate::eval::default_evaluator(),
        }
    }

    fn solve(board: &Board) -> i32 {
        let tt = TranspositionTable::new(1);
        Searcher::new(&tt, &HandEval).solve(board)
    }

    /// A complete game with two passes.
    const GAME: &str = "f5f4f3g4h5h4h3e6d7d6c6c7c8d8c4f2g3f6e2b7a6b5g7a7b8c5e7b6b4c3d2f8e8g2f1a5d3a3b3g6h7h8f7d1e3g1g8a4h1h2e1a2g5a8c1b2a1b1c2h6";

    fn steps(transcript: &str) -> Vec<Step> {
        let game = Game::from_transcript(Rules::OTHELLO, Position::start(), transcript).unwrap();
        game.states()
            .enumerate()
            .map(|(ply, s)| Step {
                position: s.position,
                ply: ply as u8,
                exact: None,
            })
            .collect()
    }

    /// Exact labels are the solver's scores; outcomes before the solver's range carry the
    /// score of the game's first position in it, with the sign of the side to move, and in
    /// the range each position's own score; search labels elsewhere, at the label depth.
    #[test]
    fn labels_are_exact_where_solved_and_outcomes_carry_the_anchor_with_the_right_sign() {
        let options = DatagenOptions {
            record_all: true,
            ..small()
        };
        let mut engine = game_engine(&options).unwrap();
        let mut path = steps(GAME);
        let records = label_game(&mut engine, &options, 5, &mut path, 0);
        let path = steps(GAME);
        let with_moves = path
            .iter()
            .filter(|s| !s.position.board.legal_moves().is_empty())
            .count();
        assert_eq!(
            records.len(),
            with_moves,
            "must-pass positions are not recorded"
        );
        let anchor = path
            .iter()
            .position(|s| s.position.board.empty_count() <= 10)
            .unwrap();
        let anchor_black = {
            let score = solve(&path[anchor].position.board);
            match path[anchor].position.to_move {
                Color::Black => score,
                Color::White => -score,
            }
        };
        let (mut before, mut exact) = (0, 0);
        for r in &records {
            let step = path[r.ply as usize];
            assert_eq!(step.position.board, r.board);
            assert_eq!((r.game, r.count), (5, 1));
            if r.board.empty_count() <= 10 {
                exact += 1;
                let score = solve(&r.board) as i8;
                assert_eq!(r.exact, Some(score), "ply {}", r.ply);
                assert_eq!(r.outcome, Some(score));
                assert_eq!(r.search, None);
            } else {
                before += 1;
                let own = match step.position.to_move {
                    Color::Black => anchor_black,
                    Color::White => -anchor_black,
                };
                assert_eq!(r.outcome, Some(own as i8), "ply {}", r.ply);
                assert_eq!(r.search.map(|s| s.depth), Some(3));
                assert_eq!(r.exact, None);
            }
        }
        assert!(before > 40 && exact >= 8, "{before} {exact}");
        // Both colours before the anchor: the sign alternates.
        assert!(
            records
                .iter()
                .any(|r| r.outcome == Some(anchor_black as i8))
        );
        assert!(
            records
                .iter()
                .any(|r| r.outcome == Some(-anchor_black as i8))
        );
        assert_ne!(anchor_black, 0);
    }

    /// Without a position in the solver's range before the end, the outcome is the game's
    /// final score (Black -28 in this game), with the sign of each side to move.
    #[test]
    fn a_game_that_ends_before_the_solver_range_takes_its_final_score() {
        let options = DatagenOptions {
            record_all: true,
            exact_empties: 0,
            label_depth: 0,
            ..small()
        };
        let mut engine = game_engine(&options).unwrap();
        let mut path = steps(GAME);
        let records = label_game(&mut engine, &options, 0, &mut path, 20);
        assert_eq!(records.first().map(|r| r.ply), Some(20));
        for r in &records {
            let black = match path[r.ply as usize].position.to_move {
                Color::Black => -28,
                Color::White => 28,
            };
            assert_eq!(r.outcome, Some(black), "ply {}", r.ply);
            assert_eq!((r.search, r.exact), (None, None));
        }
    }

    /// A game depends on its number and the settings only: the same after other searches on
    /// the same engine as on a fresh one, also when the table's count of searches was about to
    /// make it clear itself (every 256 searches).
    #[test]
    fn a_game_is_the_same_whatever_the_engine_did_before() {
        let options = DatagenOptions {
            play: Play::Depth(4),
            label_depth: 4,
            exact_empties: 12,
            ..small()
        };
        let fresh = game_records(&mut game_engine(&options).unwrap(), &options, 9);
        assert!(!fresh.is_empty());
        let mut used = game_engine(&options).unwrap();
        assert_ne!(game_records(&mut used, &options, 10), fresh);
        assert_eq!(game_records(&mut used, &options, 9), fresh);
        // A fresh table counts from 1: 249 searches bring it to the eve of its own clearing.
        for before in [249, 240] {
            let mut used = game_engine(&options).unwrap();
            for _ in 0..before {
                search(&mut used, &Board::start(), Limits::depth(1));
            }
            assert_eq!(game_records(&mut used, &options, 9), fresh, "{before}");
        }
    }

    /// With a tiny temperature the softmax plays the move the shallow search values best.
    #[test]
    fn a_cold_softmax_plays_the_best_valued_move() {
        let options = small();
        let mut engine = game_engine(&options).unwrap();
        let board = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6c3d3c4f4")
            .unwrap()
            .position()
            .board;
        let softmax = Softmax {
            temperature: 0.01,
            depth: 2,
        };
        let value = |engine: &mut Engine, mv: Move| {
            -search(engine, &board.play(mv), Limits::depth(1)).score
        };
        let best = moves_of(&board)
            .into_iter()
            .map(|mv| value(&mut engine, mv))
            .max()
            .unwrap();
        let mut rng = Rng::for_game(1, 1);
        for _ in 0..5 {
            let mv = softmax_move(&mut engine, &board, softmax, &mut rng);
            assert_eq!(value(&mut engine, mv), best);
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iago-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut names: Vec<PathBuf> = chunk::chunks_in(dir).unwrap();
        names.sort();
        names
            .into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect()
    }

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
