//! `iago.datasets`' compiled part: seeded random games, per-position labels, pass conventions
//! and exact scores, standard 8×8 Othello, in parallel on rayon with the GIL released.
//!
//! A game is a row of square indices (0-63, a1 = 0) padded with `-1`; with explicit passes a
//! pass is `64`. Game `i` of a seed depends on the seed and `i` alone, so the bytes do not
//! depend on the thread count or on how the games are split into calls.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use iago::board::movegen;
use iago::engine::{BookSource, EngineOptions};
use iago::{Board, Color, Engine, Limits, Position, Rules, SearchRequest, SolveMode, State};

use crate::errors::{in_range, seed as seed_arg, threads as threads_arg, value_error};
use crate::interrupt::{Cancel, interruptible};

/// The pass in a row of moves with explicit passes.
pub(crate) const PASS: i8 = 64;
/// Padding after a game's last move.
pub(crate) const PAD: i8 = -1;
/// The longest game with explicit passes: 60 moves, each at most after one pass.
const MAX_EXPLICIT: usize = 120;
/// Games a rayon task takes at a time.
const GAMES_PER_TASK: usize = 512;

/// SplitMix64: the generator of one game, seeded by the batch's seed and the game's number.
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub(crate) fn new(seed: u64, stream: u64) -> SplitMix {
        let mut mixer = SplitMix(seed ^ 0x6A09_E667_F3BC_C909);
        let base = mixer.next_u64();
        SplitMix(base ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform choice among the set bits of `mask` (not empty): the square index.
    pub(crate) fn pick(&mut self, mask: u64) -> usize {
        let k = u64::from(mask.count_ones());
        let mut j = ((u128::from(self.next_u64()) * u128::from(k)) >> 64) as u32;
        let mut rest = mask;
        while j > 0 {
            rest &= rest - 1;
            j -= 1;
        }
        rest.trailing_zeros() as usize
    }
}

/// Plays one game from the start into `out` (square indices, `PASS` for a pass when `passes`),
/// each move the square `choose(board, moves)` picks among the legal `moves` of `board`;
/// returns its length.
fn play_game(
    passes: bool,
    out: &mut [i8; MAX_EXPLICIT],
    mut choose: impl FnMut(&Board, u64) -> usize,
) -> usize {
    let mut board = Board::start();
    let mut len = 0;
    loop {
        let moves = movegen::moves(board.player, board.opponent);
        if moves == 0 {
            let other = board.pass();
            if movegen::moves(other.player, other.opponent) == 0 {
                return len;
            }
            if passes {
                out[len] = PASS;
                len += 1;
            }
            board = other;
            continue;
        }
        let sq = choose(&board, moves);
        let flips = movegen::flips(board.player, board.opponent, sq);
        board = board.play_unchecked(sq, flips);
        out[len] = sq as i8;
        len += 1;
    }
}

/// Plays one uniformly random game into `out` (as [`play_game`]); returns its length.
fn random_game(rng: &mut SplitMix, passes: bool, out: &mut [i8; MAX_EXPLICIT]) -> usize {
    play_game(passes, out, |_, moves| rng.pick(moves))
}

/// `work(engine, i)` for `i` in `0..n` on `threads` threads of its own (default: every core),
/// each with an engine of one search thread (`hash_mb` MiB, no book) made by the thread; the
/// results in the order of `i`. (Plain threads: an engine's search waits on its own pool, and
/// a rayon worker that waits takes other jobs of its pool onto its stack.)
fn with_engines<T: Send>(
    n: usize,
    threads: Option<usize>,
    hash_mb: usize,
    cancel: &Cancel,
    work: impl Fn(&mut Engine, usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let threads = match threads {
        Some(0) => return Err("threads is at least 1".to_string()),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |t| t.get()),
    }
    .min(n.max(1));
    let next = AtomicUsize::new(0);
    let parts: Vec<Result<Vec<(usize, T)>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut engine = Engine::new(EngineOptions {
                        threads: 1,
                        hash_mb,
                        book: BookSource::None,
                        ..EngineOptions::analysis()
                    })
                    .map_err(|e| e.to_string())?;
                    cancel.arm(&mut engine);
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        if i >= n {
                            return Ok(done);
                        }
                        if cancel.is_cancelled() {
                            return Err("interrupted".to_string());
                        }
                        done.push((i, work(&mut engine, i)?));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a worker thread failed".to_string()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(n);
    for part in parts {
        all.extend(part?);
    }
    all.sort_unstable_by_key(|&(i, _)| i);
    Ok(all.into_iter().map(|(_, t)| t).collect())
}

/// `MemoryError` unless `bytes` can be had: a request the system refuses raises rather than
/// ending the interpreter (Rust aborts when an allocation fails).
fn check_memory(bytes: Option<usize>) -> PyResult<()> {
    let refused = || {
        pyo3::exceptions::PyMemoryError::new_err(format!(
            "cannot allocate {} bytes for the arrays",
            bytes.map_or_else(|| "more than 2^64".to_string(), |b| b.to_string())
        ))
    };
    let bytes = bytes.ok_or_else(refused)?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).map_err(|_| refused())
}

/// A batch of games as Python sees it: the rows of moves and their lengths.
type GameArrays<'py> = (Bound<'py, PyArray2<i8>>, Bound<'py, PyArray1<i16>>);

/// Runs `f` on `threads` threads (a pool of its own), or on rayon's global pool.
fn on_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(f()),
        Some(0) => Err(value_error("threads is at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(f))
            .map_err(|e| value_error(format!("cannot start {n} threads: {e}"))),
    }
}

/// `n` uniformly random complete games of standard Othello, seeded: a `(n, L)` int8 array of
/// square indices padded with -1 (L = 60 with implicit passes; with `passes=True` a pass is 64
/// and L is the longest game of the batch) and the `(n,)` int16 lengths. The games are numbers
/// `first` to `first + n - 1` of the seed: chunks of a large set are calls with `first` moved
/// on.
#[pyfunction]
#[pyo3(signature = (n, *, seed = 0, passes = false, first = 0, threads = None))]
fn random_games<'py>(
    py: Python<'py>,
    n: i64,
    seed: i128,
    passes: bool,
    first: i128,
    threads: Option<i64>,
) -> PyResult<GameArrays<'py>> {
    let n = in_range("n", n, 0, 1 << 32)? as usize;
    let (seed, first, threads) = (
        seed_arg("seed", seed)?,
        seed_arg("first", first)?,
        threads_arg(threads)?,
    );
    let row = if passes { MAX_EXPLICIT + 2 } else { 62 };
    check_memory(n.checked_mul(row))?;
    let (moves, lengths, width) = py.detach(|| {
        on_threads(threads, || {
            if passes {
                generate_explicit(n, seed, first)
            } else {
                let mut moves = vec![PAD; n * 60];
                let mut lengths = vec![0i16; n];
                moves
                    .par_chunks_mut(60 * GAMES_PER_TASK)
                    .zip(lengths.par_chunks_mut(GAMES_PER_TASK))
                    .enumerate()
                    .for_each(|(task, (rows, lens))| {
                        let mut buffer = [PAD; MAX_EXPLICIT];
                        for (i, (row, len)) in rows.chunks_mut(60).zip(lens.iter_mut()).enumerate()
                        {
                            let game = first + (task * GAMES_PER_TASK + i) as u64;
                            let mut rng = SplitMix::new(seed, game);
                            let l = random_game(&mut rng, false, &mut buffer);
                            row[..l].copy_from_slice(&buffer[..l]);
                            *len = l as i16;
                        }
                    });
                (moves, lengths, 60)
            }
        })
    })?;
    let moves = PyArray1::from_vec(py, moves).reshape([n, width])?;
    Ok((moves, PyArray1::from_vec(py, lengths)))
}

fn generate_explicit(n: usize, seed: u64, first: u64) -> (Vec<i8>, Vec<i16>, usize) {
    let mut wide = vec![PAD; n * MAX_EXPLICIT];
    let mut lengths = vec![0i16; n];
    wide.par_chunks_mut(MAX_EXPLICIT * GAMES_PER_TASK)
        .zip(lengths.par_chunks_mut(GAMES_PER_TASK))
        .enumerate()
        .for_each(|(task, (rows, lens))| {
            for (i, (row, len)) in rows
                .chunks_mut(MAX_EXPLICIT)
                .zip(lens.iter_mut())
                .enumerate()
            {
                let game = first + (task * GAMES_PER_TASK + i) as u64;
                let mut rng = SplitMix::new(seed, game);
                let row: &mut [i8; MAX_EXPLICIT] = row.try_into().expect("a row");
                *len = random_game(&mut rng, true, row) as i16;
            }
        });
    let width = lengths.iter().copied().max().unwrap_or(0).max(60) as usize;
    (narrow(&wide, MAX_EXPLICIT, width), lengths, width)
}

/// Rows of `width` from rows of `from` (`width <= from`).
fn narrow(rows: &[i8], from: usize, width: usize) -> Vec<i8> {
    if from == width {
        return rows.to_vec();
    }
    let mut out = Vec::with_capacity(rows.len() / from * width);
    for row in rows.chunks(from) {
        out.extend_from_slice(&row[..width]);
    }
    out
}

/// One move of a row: a square, a pass, or the end of the game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Square(usize),
    Pass,
    End,
}

fn token(value: i8, explicit: bool) -> Option<Token> {
    match value {
        0..=63 => Some(Token::Square(value as usize)),
        PASS if explicit => Some(Token::Pass),
        PAD => Some(Token::End),
        _ => None,
    }
}

/// Why a row of moves does not replay.
fn row_error(game: usize, ply: usize, message: impl std::fmt::Display) -> String {
    format!("game {game}, move {}: {message}", ply + 1)
}

/// Plays one game of moves drawn from the engine's values at `depth` (every legal move played,
/// then the static evaluation or a search of `depth - 1` plies): move `m` with probability
/// proportional to `exp(value(m) / temperature)`, the best (the first best, in square order)
/// when `temperature` is 0. Returns its length.
fn engine_game(
    engine: &mut Engine,
    rng: &mut SplitMix,
    depth: u32,
    temperature: f64,
    passes: bool,
    out: &mut [i8; MAX_EXPLICIT],
) -> usize {
    // The table starts empty: a game's values do not depend on the games before it.
    engine.clear_hash();
    play_game(passes, out, |board, moves| {
        if moves.count_ones() == 1 {
            return moves.trailing_zeros() as usize;
        }
        let values: Vec<(usize, i32)> = iago::board::Bitboard(moves)
            .iter()
            .map(|square| {
                let sq = square.index() as usize;
                let flips = movegen::flips(board.player, board.opponent, sq);
                let child = board.play_unchecked(sq, flips);
                (sq, move_value(engine, &child, depth))
            })
            .collect();
        choose(&values, temperature, rng)
    })
}

/// The value of the move that led to `child` for the player who made it: the final score when
/// the game is over, else the static evaluation (`depth` 1) or a search of `depth - 1` plies
/// of the child, negated.
fn move_value(engine: &mut Engine, child: &Board, depth: u32) -> i32 {
    if child.is_game_over() {
        return -child.final_score();
    }
    if depth == 1 {
        return -engine.evaluator().evaluate(child);
    }
    let request = SearchRequest::analyze(Limits::depth(depth - 1)).board(*child);
    -engine.search(&request, &mut |_| {}).score
}

/// A square of `values` (square, value), in square order: by a softmax of the values at
/// `temperature`, or the first best at 0.
fn choose(values: &[(usize, i32)], temperature: f64, rng: &mut SplitMix) -> usize {
    let best = values.iter().map(|&(_, v)| v).max().expect("moves");
    if temperature <= 0.0 {
        return values.iter().find(|&&(_, v)| v == best).expect("a best").0;
    }
    let weights: Vec<f64> = values
        .iter()
        .map(|&(_, v)| (f64::from(v - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    // 53 random bits: a uniform number in [0, total).
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (&(sq, _), w) in values.iter().zip(&weights) {
        if x < *w {
            return sq;
        }
        x -= w;
    }
    values[values.len() - 1].0
}

/// `n` complete games of standard Othello whose moves are drawn from the engine's values (a
/// search of every legal move to `depth` plies, scores in discs): move `m` with probability
/// proportional to `exp(value(m) / temperature)` (`temperature` 0: the best move). As
/// `random_games` otherwise: seeded per game (the same bytes on any thread count), `first`,
/// `passes`. About a thousand times slower than random games at depth 1.
#[pyfunction]
#[pyo3(signature = (n, *, depth = 1, temperature = 1.0, seed = 0, passes = false, first = 0, threads = None))]
#[allow(clippy::too_many_arguments)]
fn engine_games<'py>(
    py: Python<'py>,
    n: i64,
    depth: i64,
    temperature: f64,
    seed: i128,
    passes: bool,
    first: i128,
    threads: Option<i64>,
) -> PyResult<GameArrays<'py>> {
    let n = in_range("n", n, 0, 1 << 32)? as usize;
    let depth = in_range("depth", depth, 1, 20)? as u32;
    let (seed, first, threads) = (
        seed_arg("seed", seed)?,
        seed_arg("first", first)?,
        threads_arg(threads)?,
    );
    if !(temperature.is_finite() && temperature >= 0.0) {
        return Err(value_error(format!(
            "temperature {temperature} is not a number of discs of at least 0"
        )));
    }
    check_memory(n.checked_mul(2 * (MAX_EXPLICIT + 8)))?;
    let cancel = Cancel::new();
    let played = interruptible(py, &cancel, || {
        with_engines(n, threads, 1, &cancel, |engine, i| {
            let mut rng = SplitMix::new(seed, first.wrapping_add(i as u64));
            let mut row = [PAD; MAX_EXPLICIT];
            let len = engine_game(engine, &mut rng, depth, temperature, passes, &mut row);
            Ok((row, len))
        })
    })?;
    let played = played.map_err(value_error)?;
    let width = if passes {
        played.iter().map(|&(_, l)| l).max().unwrap_or(0).max(60)
    } else {
        60
    };
    let mut moves = vec![PAD; n * width];
    let mut lengths = vec![0i16; n];
    for (game, (row, len)) in played.iter().enumerate() {
        moves[game * width..game * width + len].copy_from_slice(&row[..*len]);
        lengths[game] = *len as i16;
    }
    Ok((
        PyArray1::from_vec(py, moves).reshape([n, width])?,
        PyArray1::from_vec(py, lengths),
    ))
}

/// One move of a replayed row.
struct Step {
    /// The square, `None` for a written pass.
    square: Option<usize>,
    /// The discs the move flipped.
    flips: u64,
    /// The board after it, relative to the side to move next.
    after: Board,
    /// The legal moves of the side to move next.
    moves: u64,
    /// The side to move next.
    next: Color,
    /// Whether the other side had to pass after the move, a pass the row leaves out.
    passed_after: bool,
}

/// Replays row `game` (its first `len` moves), calling `visit` for each; passes are taken
/// where the row leaves them out (`explicit` false) or where they are written (64).
fn replay(
    row: &[i8],
    len: usize,
    explicit: bool,
    game: usize,
    mut visit: impl FnMut(&Step),
) -> Result<(), String> {
    let mut board = Board::start();
    let mut moves = movegen::moves(board.player, board.opponent);
    let mut color = Color::Black;
    for (ply, &value) in row.iter().take(len).enumerate() {
        let tok = token(value, explicit).ok_or_else(|| {
            row_error(
                game,
                ply,
                format!("{value} is not a square (0-63), a pass (64) or -1"),
            )
        })?;
        let step = match tok {
            Token::End => break,
            Token::Pass => {
                if moves != 0 {
                    return Err(row_error(game, ply, "a pass while a move exists"));
                }
                let after = board.pass();
                let next_moves = movegen::moves(after.player, after.opponent);
                if next_moves == 0 {
                    return Err(row_error(game, ply, "a pass after the game is over"));
                }
                Step {
                    square: None,
                    flips: 0,
                    after,
                    moves: next_moves,
                    next: color.opposite(),
                    passed_after: false,
                }
            }
            Token::Square(sq) => {
                if moves >> sq & 1 == 0 {
                    let name = iago::Square::from_index_unchecked(sq as u8);
                    let why = if moves == 0 && explicit {
                        "the side to move must pass (64)".to_string()
                    } else {
                        format!("{name} is not legal")
                    };
                    return Err(row_error(game, ply, why));
                }
                let flips = movegen::flips(board.player, board.opponent, sq);
                let mut after = board.play_unchecked(sq, flips);
                let mut next_moves = movegen::moves(after.player, after.opponent);
                let mut next = color.opposite();
                let mut passed_after = false;
                if !explicit && next_moves == 0 {
                    let other = after.pass();
                    let other_moves = movegen::moves(other.player, other.opponent);
                    if other_moves != 0 {
                        // The other side must pass: the mover moves again.
                        (after, next_moves, next, passed_after) = (other, other_moves, color, true);
                    }
                }
                Step {
                    square: Some(sq),
                    flips,
                    after,
                    moves: next_moves,
                    next,
                    passed_after,
                }
            }
        };
        visit(&step);
        (board, moves, color) = (step.after, step.moves, step.next);
    }
    Ok(())
}

/// The moves of a batch of games as one slice, its row width, and each row's length (given, or
/// up to the first -1).
fn read_rows<'a>(
    moves: &'a PyReadonlyArray2<'_, i8>,
    lengths: Option<&'a PyReadonlyArray1<'_, i16>>,
) -> PyResult<(&'a [i8], usize, Vec<usize>)> {
    let width = moves.shape()[1];
    let rows = moves.as_slice()?;
    let lengths = lengths.map(|l| l.as_slice()).transpose()?;
    Ok((rows, width, row_lengths(rows, width, lengths)?))
}

/// The lengths of rows: given, or up to the first -1.
fn row_lengths(moves: &[i8], width: usize, lengths: Option<&[i16]>) -> PyResult<Vec<usize>> {
    let rows = moves.len() / width.max(1);
    match lengths {
        Some(l) if l.len() != rows => {
            Err(value_error(format!("{} lengths for {rows} games", l.len())))
        }
        Some(l) => l
            .iter()
            .map(|&x| {
                usize::try_from(x)
                    .ok()
                    .filter(|&x| x <= width)
                    .ok_or_else(|| value_error(format!("length {x} is not in 0..{width}")))
            })
            .collect(),
        None => Ok(moves
            .chunks(width.max(1))
            .map(|row| row.iter().position(|&v| v == PAD).unwrap_or(row.len()))
            .collect()),
    }
}

/// A zeroed buffer of `len` bytes for an array. A large one is backed by huge pages where the
/// system lends them on request (Linux's transparent huge pages in `madvise` mode, as numpy
/// asks for its own arrays): filling fresh memory is otherwise bound by its page faults.
fn zeroed(len: usize) -> Vec<i8> {
    let mut buffer: Vec<i8> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buffer.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + len) / HUGE * HUGE;
        if end > first {
            // SAFETY: `first..end` lies inside the buffer's allocation (of at least `len`
            // bytes from `start`), and MADV_HUGEPAGE only advises the kernel how to back it:
            // it neither reads, writes nor frees the memory.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    buffer.resize(len, 0);
    buffer
}

/// Eight bytes (0 or 1) for each byte of a mask: the squares of a row.
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        let mut word = 0u64;
        while bit < 8 {
            if b >> bit & 1 != 0 {
                word |= 1 << (8 * bit);
            }
            bit += 1;
        }
        table[b] = word;
        b += 1;
    }
    table
};

/// Writes `mine + 2 * theirs` (a square's class: 0 empty, 1 mine, 2 theirs) or a 0/1 mask as
/// 64 bytes.
#[inline]
fn spread(out: &mut [i8], mine: u64, theirs: u64) {
    for (row, chunk) in out.chunks_exact_mut(8).enumerate() {
        let a = SPREAD[(mine >> (8 * row) & 0xFF) as usize];
        let b = SPREAD[(theirs >> (8 * row) & 0xFF) as usize];
        chunk.copy_from_slice(&(a + 2 * b).to_le_bytes().map(|x| x as i8));
    }
}

/// The labels of one position after a move, written at position `p` of the arrays.
struct Labels<'a> {
    board: &'a mut [i8],
    flipped: &'a mut [i8],
    legal: &'a mut [i8],
    to_move: &'a mut [i8],
}

/// Per-position labels of games (rows of `moves`, each up to its length): for the position
/// after every move, `board` (64 squares: 0 empty, 1 the side to move next's disc, 2 the
/// other's), `flipped` (1 where the move flipped a disc), `legal` (1 on the legal moves of
/// the side to move next) and `to_move` (0 Black, 1 White, the side to move next). Positions
/// are in order, game by game; there are `lengths.sum()` of them.
#[pyfunction]
#[pyo3(signature = (moves, lengths = None, *, passes = false, threads = None))]
fn labels<'py>(
    py: Python<'py>,
    moves: PyReadonlyArray2<'py, i8>,
    lengths: Option<PyReadonlyArray1<'py, i16>>,
    passes: bool,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let (rows, width, lengths) = read_rows(&moves, lengths.as_ref())?;
    check_memory(lengths.iter().sum::<usize>().checked_mul(3 * 64 + 1))?;
    let (board, flipped, legal, to_move, total) = py
        .detach(|| on_threads(threads, || label_rows(rows, width, &lengths, passes)))?
        .map_err(value_error)?;
    let dict = PyDict::new(py);
    dict.set_item("board", PyArray1::from_vec(py, board).reshape([total, 64])?)?;
    dict.set_item(
        "flipped",
        PyArray1::from_vec(py, flipped).reshape([total, 64])?,
    )?;
    dict.set_item("legal", PyArray1::from_vec(py, legal).reshape([total, 64])?)?;
    dict.set_item("to_move", PyArray1::from_vec(py, to_move))?;
    Ok(dict)
}

type LabelArrays = (Vec<i8>, Vec<i8>, Vec<i8>, Vec<i8>, usize);

fn label_rows(
    rows: &[i8],
    width: usize,
    lengths: &[usize],
    explicit: bool,
) -> Result<LabelArrays, String> {
    // Positions of each game: its moves up to the first -1 within its length.
    let counts: Vec<usize> = rows
        .chunks(width.max(1))
        .zip(lengths)
        .map(|(row, &len)| row[..len].iter().take_while(|&&v| v != PAD).count())
        .collect();
    let total: usize = counts.iter().sum();
    let (mut board, mut flipped, mut legal) =
        (zeroed(total * 64), zeroed(total * 64), zeroed(total * 64));
    let mut to_move = vec![0i8; total];
    // Tasks of GAMES_PER_TASK games, each with its slices of the outputs.
    let mut tasks = Vec::new();
    let (mut b, mut f, mut l, mut t) = (
        &mut board[..],
        &mut flipped[..],
        &mut legal[..],
        &mut to_move[..],
    );
    for (task, games) in counts.chunks(GAMES_PER_TASK).enumerate() {
        let positions: usize = games.iter().sum();
        let (b0, b1) = std::mem::take(&mut b).split_at_mut(positions * 64);
        let (f0, f1) = std::mem::take(&mut f).split_at_mut(positions * 64);
        let (l0, l1) = std::mem::take(&mut l).split_at_mut(positions * 64);
        let (t0, t1) = std::mem::take(&mut t).split_at_mut(positions);
        (b, f, l, t) = (b1, f1, l1, t1);
        tasks.push((
            task * GAMES_PER_TASK,
            games,
            Labels {
                board: b0,
                flipped: f0,
                legal: l0,
                to_move: t0,
            },
        ));
    }
    tasks.into_par_iter().try_for_each(|(first, games, out)| {
        let mut p = 0;
        for (i, &count) in games.iter().enumerate() {
            let game = first + i;
            let row = &rows[game * width..(game + 1) * width];
            replay(row, count, explicit, game, |step| {
                let at = p * 64..(p + 1) * 64;
                let after = step.after;
                spread(&mut out.board[at.clone()], after.player, after.opponent);
                spread(&mut out.flipped[at.clone()], step.flips, 0);
                spread(&mut out.legal[at], step.moves, 0);
                out.to_move[p] = match step.next {
                    Color::Black => 0,
                    Color::White => 1,
                };
                p += 1;
            })?;
        }
        Ok::<(), String>(())
    })?;
    Ok((board, flipped, legal, to_move, total))
}

/// Rows of moves with the passes written as 64, from rows without them (or the reverse with
/// `remove=True`): the same games, replayed and checked.
#[pyfunction]
#[pyo3(signature = (moves, lengths = None, *, remove = false))]
fn convert_passes<'py>(
    py: Python<'py>,
    moves: PyReadonlyArray2<'py, i8>,
    lengths: Option<PyReadonlyArray1<'py, i16>>,
    remove: bool,
) -> PyResult<GameArrays<'py>> {
    let (rows, width, lengths) = read_rows(&moves, lengths.as_ref())?;
    let n = lengths.len();
    let converted: Result<Vec<Vec<i8>>, String> = py.detach(|| {
        (0..n)
            .into_par_iter()
            .map(|game| {
                let row = &rows[game * width..(game + 1) * width];
                let mut out = Vec::with_capacity(MAX_EXPLICIT);
                // `remove`: the input has explicit passes; else it has none, and the passes
                // replay infers are written.
                replay(row, lengths[game], remove, game, |step| {
                    if let Some(sq) = step.square {
                        out.push(sq as i8);
                        if step.passed_after {
                            out.push(PASS);
                        }
                    }
                })?;
                Ok(out)
            })
            .collect()
    });
    let converted = converted.map_err(value_error)?;
    let width = converted.iter().map(Vec::len).max().unwrap_or(0).max(60);
    let mut flat = vec![PAD; n * width];
    let mut lens = vec![0i16; n];
    for (game, row) in converted.iter().enumerate() {
        flat[game * width..game * width + row.len()].copy_from_slice(row);
        lens[game] = row.len() as i16;
    }
    Ok((
        PyArray1::from_vec(py, flat).reshape([n, width])?,
        PyArray1::from_vec(py, lens),
    ))
}

/// Exact scores (disc difference for the side to move, empties to the winner) of standard
/// 8×8 positions given as the side to move's and the other side's discs (uint64 masks), solved
/// in parallel, one position a thread: an int8 array. A position with more than `max_empties`
/// empty squares is refused (a `ValueError`) rather than solved for hours.
#[pyfunction]
#[pyo3(signature = (player, opponent, *, threads = None, hash_mb = 4, max_empties = 28))]
fn exact_scores<'py>(
    py: Python<'py>,
    player: PyReadonlyArray1<'py, u64>,
    opponent: PyReadonlyArray1<'py, u64>,
    threads: Option<i64>,
    hash_mb: i64,
    max_empties: i64,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let threads = threads_arg(threads)?;
    let hash_mb = in_range("hash_mb", hash_mb, 1, 1 << 16)? as usize;
    let max_empties = in_range("max_empties", max_empties, 0, 60)? as u32;
    let (p, o) = (player.as_slice()?, opponent.as_slice()?);
    if p.len() != o.len() {
        return Err(value_error(format!(
            "{} player masks for {} opponent masks",
            p.len(),
            o.len()
        )));
    }
    if let Some(i) = (0..p.len()).find(|&i| p[i] & o[i] != 0) {
        return Err(value_error(format!(
            "position {i}: the two sides share squares ({:#x})",
            p[i] & o[i]
        )));
    }
    if let Some(i) = (0..p.len()).find(|&i| (p[i] | o[i]).count_zeros() > max_empties) {
        return Err(value_error(format!(
            "position {i} has {} empty squares, more than max_empties={max_empties} (an exact \
             solve grows about threefold with each empty square)",
            (p[i] | o[i]).count_zeros()
        )));
    }
    let cancel = Cancel::new();
    let scores = interruptible(py, &cancel, || {
        with_engines(p.len(), threads, hash_mb, &cancel, |engine, i| {
            let state = State {
                position: Position {
                    board: Board {
                        player: p[i],
                        opponent: o[i],
                    },
                    to_move: Color::Black,
                },
                left: [iago::board::rules::UNLIMITED; 2],
            };
            engine
                .solve(Rules::OTHELLO, &state, SolveMode::Exact)
                .map(|r| r.solution.score as i8)
                .map_err(|_| "interrupted".to_string())
        })
    })?;
    Ok(PyArray1::from_vec(py, scores.map_err(value_error)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(random_games, m)?)?;
    m.add_function(wrap_pyfunction!(engine_games, m)?)?;
    m.add_function(wrap_pyfunction!(labels, m)?)?;
    m.add_function(wrap_pyfunction!(convert_passes, m)?)?;
    m.add_function(wrap_pyfunction!(exact_scores, m)?)?;
    Ok(())
}
