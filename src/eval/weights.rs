//! The trained pattern evaluation and its weight file.
//!
//! File layout (little-endian):
//! - magic `IAGOEVAL`, then u32 format version (6);
//! - u32 weight tables (per stage one per mobility context, in stages 3-5 also per number of
//!   empties, see [`TABLES`]), u32 weights per table, u32 weights per disc (the scale);
//! - u64 layout fingerprint (changes when the patterns, the move patterns, the stages or the
//!   contexts change);
//! - per table: u64 checksum of its compressed stream (FNV-1a over 64-bit little-endian
//!   words) and u32 compressed length (format 5 summed the inflated stream, ten times as many
//!   bytes, a noticeable part of the loading time: docs/lab/2026-11-22-trained-evaluation.md);
//! - per table: a deflate stream of the table's differences from the table before (wrapping
//!   i16; table 0 from zeros), zigzag-coded (0, -1, 1, -2, … → 0, 1, 2, 3, …) and split into two
//!   planes, every weight's high byte first, then every low byte. Training starts each stage
//!   from the one before, the contexts of a stage from the same weights, and many
//!   configurations never occur in a stage, so most differences are 0 and the others small.
//!   Tables are separate streams so that loading decodes them in parallel, then adds them up.

use std::io::Write;

use thiserror::Error;

use super::features::{INSTANCES, Kernel, PatternState, layout};
use super::pattern::{
    COUNT_OFFSET, COUNTS, MOVE_PATTERNS, Mobility, PATTERNS, SCALARS, STAGE_SIZE, STAGES, TABLES,
    TABLES_OF, for_each_feature, for_each_other_feature, stage_empties, table,
};
use super::{Evaluator, Replies};
use crate::board::Board;
use crate::board::movegen::moves;

const MAGIC: &[u8; 8] = b"IAGOEVAL";
const VERSION: u32 = 6;
/// Weight units per disc.
pub const SCALE: i32 = 64;
const HEADER: usize = 8 + 4 * 4 + 8;
/// Per-table entry after the header: checksum and compressed length.
const TABLE_ENTRY: usize = 8 + 4;

/// The weights compiled into the binary (made by `iago train`).
static EMBEDDED: &[u8] = include_bytes!("iago.eval");

/// Why a weight file cannot be used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// Not a weight file.
    #[error("not an Iago evaluation file (bad magic)")]
    Magic,
    /// Another format version.
    #[error("evaluation file format {0}, this build reads format {VERSION}")]
    Version(u32),
    /// Made for other patterns.
    #[error("the evaluation file was made for other patterns ({found} tables × {size} weights)")]
    Layout {
        /// Weight tables in the file.
        found: u32,
        /// Weights per table in the file.
        size: u32,
    },
    /// Cut short or corrupted.
    #[error("the evaluation file is truncated or corrupt: {0}")]
    Corrupt(String),
    /// The checksum does not match.
    #[error("the evaluation file's checksum does not match")]
    Checksum,
    /// The file could not be read.
    #[error("cannot read the evaluation file: {0}")]
    Io(#[from] std::io::Error),
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

/// FNV-1a over 64-bit words (the tail zero-padded): a byte-wise hash would add noticeably to
/// the loading time (measured: docs/lab/2026-11-22-trained-evaluation.md).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(0xCBF2_9CE4_8422_2325, |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        (h ^ u64::from_le_bytes(word)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// A table's compressed stream and its checksum.
type Stream<'a> = (&'a [u8], u64);

/// Zigzag code: small magnitudes of either sign become small unsigned numbers.
fn zigzag(w: i16) -> u16 {
    ((w << 1) ^ (w >> 15)) as u16
}

fn unzigzag(z: u16) -> i16 {
    ((z >> 1) as i16) ^ -((z & 1) as i16)
}

/// A table's uncompressed stream: zigzag-coded weights, high-byte plane then low-byte plane.
fn planes(weights: &[i16]) -> Vec<u8> {
    let coded: Vec<u16> = weights.iter().map(|&w| zigzag(w)).collect();
    let high = coded.iter().map(|&z| (z >> 8) as u8);
    high.chain(coded.iter().map(|&z| z as u8)).collect()
}

/// Gives the memory pages that lie wholly inside `bytes`, a part of [`EMBEDDED`] that has been
/// read, back to the system (Linux; elsewhere nothing). Those pages belong to the executable's
/// read-only data: should anything read them again, they come back from the file unchanged.
fn release_read_pages(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `sysconf` only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGE_SIZE) };
        let Ok(page) = usize::try_from(page) else {
            return;
        };
        if page == 0 {
            return;
        }
        let start = (bytes.as_ptr() as usize).next_multiple_of(page);
        let end = (bytes.as_ptr() as usize + bytes.len()) / page * page;
        if end > start {
            // SAFETY: `start .. end` is whole pages inside `bytes`, which lies in the static,
            // never-written `EMBEDDED` array: a private mapping of the executable file. For such
            // pages MADV_DONTNEED only drops them from memory; a later read faults them in
            // again from the file with the same contents, so every reference stays valid.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// Checks one table's stream and inflates it into `out` (`STAGE_SIZE` weights); `raw` is
/// scratch space.
fn decode_table(
    payload: &[u8],
    expected: u64,
    raw: &mut Vec<u8>,
    out: &mut [i16],
) -> Result<(), WeightsError> {
    if checksum(payload) != expected {
        return Err(WeightsError::Checksum);
    }
    raw.clear();
    raw.reserve(STAGE_SIZE * 2);
    let status = flate2::Decompress::new(false)
        .decompress_vec(payload, raw, flate2::FlushDecompress::Finish)
        .map_err(|e| WeightsError::Corrupt(e.to_string()))?;
    if status != flate2::Status::StreamEnd || raw.len() != STAGE_SIZE * 2 {
        return Err(WeightsError::Corrupt(format!(
            "a table inflates to {}{} bytes, expected {}",
            raw.len(),
            if status == flate2::Status::StreamEnd {
                ""
            } else {
                "+"
            },
            STAGE_SIZE * 2
        )));
    }
    let (high, low) = raw.split_at(STAGE_SIZE);
    for ((w, &h), &l) in out.iter_mut().zip(high).zip(low) {
        *w = unzigzag(u16::from_le_bytes([l, h]));
    }
    Ok(())
}

/// A fingerprint of the feature layout: pattern squares, stages, contexts and scalars.
fn layout_fingerprint() -> u64 {
    let mut bytes = Vec::new();
    for p in PATTERNS {
        bytes.extend_from_slice(p.squares);
        bytes.push(0xFF);
    }
    for p in MOVE_PATTERNS {
        bytes.extend_from_slice(p.squares);
        bytes.push(0xFE);
    }
    bytes.extend_from_slice(&(STAGES as u32).to_le_bytes());
    for st in 0..STAGES {
        let (low, high) = stage_empties(st);
        bytes.extend_from_slice(&[low as u8, high as u8]);
    }
    bytes.extend_from_slice(&(SCALARS as u32).to_le_bytes());
    bytes.extend_from_slice(&(COUNTS as u32).to_le_bytes());
    for tables in TABLES_OF {
        bytes.extend_from_slice(&(tables as u32).to_le_bytes());
    }
    fnv1a(&bytes)
}

/// The pattern evaluation with its weights (`TABLES × STAGE_SIZE` i16 in units of 1/64 disc).
#[derive(Clone)]
pub struct PatternEval {
    weights: Box<[i16]>,
    kernel: Kernel,
    /// Tells this evaluation's entries in the evaluation caches from other evaluations'.
    id: u32,
}

/// Entries of each thread's evaluation cache (24 bytes each: 192 KiB); the size was chosen by
/// measurement (docs/lab/2026-11-26-eval-speed.md).
const CACHE_ENTRIES: usize = 1 << 13;

/// One evaluated position: the board, the evaluation it was evaluated by, the value.
#[derive(Clone, Copy, Default)]
struct CacheEntry {
    player: u64,
    opponent: u64,
    eval: u32,
    value: i32,
}

thread_local! {
    /// The last evaluations of this thread's searches, direct-mapped by the board's hash: a
    /// search evaluates many positions again (iterative deepening, ProbCut's shallow searches
    /// and the move ordering revisit the same leaves). An entry answers only for the same board
    /// and the same evaluation, so the value is always the one computed.
    static CACHE: std::cell::RefCell<Box<[CacheEntry]>> =
        std::cell::RefCell::new(vec![CacheEntry::default(); CACHE_ENTRIES].into_boxed_slice());
}

/// A new evaluation's cache id (0 stays unused, so empty entries never match).
fn next_id() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PatternEval {
    /// The weights compiled into the binary. The pages of their file that decoding has read
    /// go back to the system as it goes (`release_read_pages`): the process then holds the
    /// decoded tables, not the compressed bytes beside them.
    pub fn embedded() -> Result<PatternEval, WeightsError> {
        PatternEval::from_bytes(EMBEDDED)
    }

    /// Reads a weight file.
    pub fn load(path: &std::path::Path) -> Result<PatternEval, WeightsError> {
        PatternEval::from_bytes(&std::fs::read(path)?)
    }

    /// An evaluation from raw weights (`TABLES × STAGE_SIZE`, 1/64 disc).
    pub fn from_weights(weights: Vec<i16>) -> PatternEval {
        assert_eq!(weights.len(), TABLES * STAGE_SIZE);
        PatternEval {
            weights: weights.into_boxed_slice(),
            kernel: Kernel::detect(),
            id: next_id(),
        }
    }

    /// This evaluation with its incremental state updated by the portable kernel on any CPU
    /// (what a test of the portable path and the benchmark of both kernels take).
    pub fn with_portable_kernel(mut self) -> PatternEval {
        self.kernel = Kernel::SCALAR;
        self
    }

    /// Whether the incremental state is updated by the AVX2 kernel (the CPU has AVX2 and
    /// `IAGO_EVAL_KERNEL` is not `scalar`).
    pub fn uses_avx2(&self) -> bool {
        self.kernel.is_avx2()
    }

    /// How the incremental state is updated.
    #[inline]
    pub(crate) fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The weights of the pattern instances of `state` in the stage table `w`, summed by this
    /// evaluation's kernel.
    #[inline]
    fn sum_patterns(&self, w: &[i16], state: &PatternState) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.kernel.is_avx2() {
            // SAFETY: only `Kernel::detect` makes an AVX2 `Kernel`, after checking the CPU.
            return unsafe { pattern_sum_avx2(w, state) };
        }
        pattern_sum(w, state)
    }

    /// The raw weights.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// Parses a weight file (the embedded weights' pages are released as they are read).
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, WeightsError> {
        let embedded = std::ptr::eq(bytes, EMBEDDED);
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let (tables, size, scale) = (u32_at(12), u32_at(16), u32_at(20));
        if tables as usize != TABLES
            || size as usize != STAGE_SIZE
            || scale as i32 != SCALE
            || u64_at(24) != layout_fingerprint()
        {
            return Err(WeightsError::Layout {
                found: tables,
                size,
            });
        }
        // Per table: where its stream lies and its checksum.
        let mut streams = Vec::with_capacity(TABLES);
        let mut at = HEADER + TABLES * TABLE_ENTRY;
        for st in 0..TABLES {
            let entry = HEADER + st * TABLE_ENTRY;
            if bytes.len() < entry + TABLE_ENTRY {
                return Err(WeightsError::Corrupt(format!(
                    "{} bytes, the header alone needs {}",
                    bytes.len(),
                    HEADER + TABLES * TABLE_ENTRY
                )));
            }
            let length = u32_at(entry + 8) as usize;
            let payload = bytes.get(at..at + length).ok_or_else(|| {
                WeightsError::Corrupt(format!(
                    "{} bytes, the header says {}",
                    bytes.len(),
                    at + length
                ))
            })?;
            streams.push((payload, u64_at(entry)));
            at += length;
        }
        // Tables decode in parallel: one thread per core, tables dealt round-robin, each
        // written straight into its slice of the weights.
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, TABLES);
        let mut weights = vec![0i16; TABLES * STAGE_SIZE];
        let mut jobs: Vec<Vec<(&mut [i16], Stream)>> = (0..threads).map(|_| Vec::new()).collect();
        for (st, out) in weights.chunks_mut(STAGE_SIZE).enumerate() {
            jobs[st % threads].push((out, streams[st]));
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|job| {
                    scope.spawn(move || {
                        let mut raw = Vec::new();
                        job.into_iter().try_for_each(|(out, (payload, expected))| {
                            decode_table(payload, expected, &mut raw, out)?;
                            if embedded {
                                release_read_pages(payload);
                            }
                            Ok::<(), WeightsError>(())
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .try_for_each(|h| h.join().expect("table decoding does not panic"))
        })?;
        for st in 1..TABLES {
            let (done, rest) = weights.split_at_mut(st * STAGE_SIZE);
            let before = &done[(st - 1) * STAGE_SIZE..];
            for (w, &b) in rest[..STAGE_SIZE].iter_mut().zip(before) {
                *w = w.wrapping_add(b);
            }
        }
        Ok(PatternEval::from_weights(weights))
    }

    /// The weight file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for v in [VERSION, TABLES as u32, STAGE_SIZE as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&layout_fingerprint().to_le_bytes());
        let mut streams = Vec::with_capacity(TABLES);
        let zeros = vec![0i16; STAGE_SIZE];
        let befores = std::iter::once(&zeros[..]).chain(self.weights.chunks_exact(STAGE_SIZE));
        for (weights, before) in self.weights.chunks_exact(STAGE_SIZE).zip(befores) {
            let delta: Vec<i16> = weights
                .iter()
                .zip(before)
                .map(|(w, b)| w.wrapping_sub(*b))
                .collect();
            let raw = planes(&delta);
            let mut encoder =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
            encoder.write_all(&raw).expect("writing to memory");
            let compressed = encoder.finish().expect("writing to memory");
            out.extend_from_slice(&checksum(&compressed).to_le_bytes());
            out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
            streams.push(compressed);
        }
        for compressed in streams {
            out.extend_from_slice(&compressed);
        }
        out
    }

    /// The evaluation in 1/64 disc, before rounding, read from the board alone.
    #[inline]
    pub fn evaluate_fine(&self, board: &Board) -> i32 {
        let mobility = Mobility::of(board);
        let t = table(board, mobility);
        let w = &self.weights[t * STAGE_SIZE..(t + 1) * STAGE_SIZE];
        let mut sum = 0i32;
        let s = for_each_feature(board, mobility, |i| sum += w[i] as i32);
        sum + scalar_terms(w, s)
    }

    /// [`PatternEval::evaluate_fine`] from the incremental state of `board`; `known`: what the
    /// caller already computed of the side to move (its legal moves, its potential mobility).
    /// The same value.
    #[inline]
    pub fn evaluate_fine_with(
        &self,
        board: &Board,
        state: &PatternState,
        known: Option<Replies>,
    ) -> i32 {
        let mobility = Mobility {
            player: known.map_or_else(|| moves(board.player, board.opponent), |k| k.moves),
            opponent: moves(board.opponent, board.player),
        };
        let potential = known.and_then(|k| k.potential).map(u32::from);
        let t = table(board, mobility);
        let w = &self.weights[t * STAGE_SIZE..(t + 1) * STAGE_SIZE];
        let mut sum = self.sum_patterns(w, state);
        let s = for_each_other_feature(board, mobility, potential, |i| sum += w[i] as i32);
        sum + scalar_terms(w, s)
    }

    /// The evaluation of `board` in discs from its incremental state (see
    /// [`PatternEval::evaluate_fine_with`]).
    #[inline]
    pub fn evaluate_with(
        &self,
        board: &Board,
        state: &PatternState,
        known: Option<Replies>,
    ) -> i32 {
        let at = board.hash() as usize & (CACHE_ENTRIES - 1);
        let cached = CACHE.with_borrow(|cache| {
            let e = cache[at];
            (e.player == board.player && e.opponent == board.opponent && e.eval == self.id)
                .then_some(e.value)
        });
        if let Some(value) = cached {
            return value;
        }
        let value = round_to_discs(self.evaluate_fine_with(board, state, known));
        CACHE.with_borrow_mut(|cache| {
            cache[at] = CacheEntry {
                player: board.player,
                opponent: board.opponent,
                eval: self.id,
                value,
            }
        });
        value
    }
}

/// The weights of the pattern instances of a position with state `state` in the stage table
/// `w`, summed.
#[inline]
fn pattern_sum(w: &[i16], state: &PatternState) -> i32 {
    let offsets = &layout().offsets;
    (0..INSTANCES)
        .map(|lane| w[offsets[lane] as usize + state.mine[lane] as usize] as i32)
        .sum()
}

/// [`pattern_sum`] by AVX2 gathers, eight lanes at a time.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pattern_sum_avx2(w: &[i16], state: &PatternState) -> i32 {
    use std::arch::x86_64::*;
    const GROUPS: usize = INSTANCES.div_ceil(8);
    let offsets = &layout().offsets;
    // Every pattern index lies below the count tables, so the 32-bit read at a pattern weight
    // (the weight and the one after it) stays inside the table.
    debug_assert!(w.len() > COUNT_OFFSET);
    let base = w.as_ptr().cast::<i32>();
    // SAFETY: the loads read 8 lanes of `state.mine` and of `offsets` (80 lanes each, so
    // 8 * GROUPS = 72 lanes are in bounds); each gathered lane reads the 4 bytes at weight
    // `offset + index` of `w`, an instance index (below `COUNT_OFFSET`, see above), and the
    // lanes of the last group beyond the instances are masked off and not read.
    unsafe {
        let mut acc = _mm256_setzero_si256();
        for k in 0..GROUPS {
            let index = _mm256_cvtepu16_epi32(_mm_loadu_si128(
                state.mine.as_ptr().add(8 * k).cast::<__m128i>(),
            ));
            let offset = _mm256_loadu_si256(offsets.as_ptr().add(8 * k).cast::<__m256i>());
            let at = _mm256_add_epi32(index, offset);
            let valid = INSTANCES.saturating_sub(8 * k).min(8) as i32;
            let gathered = if valid == 8 {
                _mm256_i32gather_epi32::<2>(base, at)
            } else {
                let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(valid), lanes);
                _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), base, at, mask)
            };
            // The low 16 bits of each lane are the weight: sign-extend them.
            acc = _mm256_add_epi32(
                acc,
                _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(gathered)),
            );
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
    }
}

/// The scalar features times their weights (the last [`SCALARS`] of a table).
#[inline]
fn scalar_terms(w: &[i16], scalars: [i32; SCALARS]) -> i32 {
    let base = STAGE_SIZE - SCALARS;
    scalars
        .iter()
        .enumerate()
        .map(|(k, x)| x * w[base + k] as i32)
        .sum()
}

/// 1/64 disc to discs, rounded half away from zero, within `-64..=64`.
#[inline]
fn round_to_discs(fine: i32) -> i32 {
    let discs = (fine + if fine >= 0 { SCALE / 2 } else { -SCALE / 2 }) / SCALE;
    discs.clamp(-64, 64)
}

impl Evaluator for PatternEval {
    fn evaluate(&self, board: &Board) -> i32 {
        round_to_discs(self.evaluate_fine(board))
    }

    fn name(&self) -> &str {
        "pattern"
    }
}

impl std::fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternEval({} weights)", self.weights.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternEval {
        let weights = (0..TABLES * STAGE_SIZE)
            .map(|i| ((i * 7919) % 201) as i16 - 100)
            .collect();
        PatternEval::from_weights(weights)
    }

    #[test]
    fn file_round_trip() {
        let eval = sample();
        let bytes = eval.to_bytes();
        let back = PatternEval::from_bytes(&bytes).unwrap();
        assert_eq!(back.weights(), eval.weights());
    }

    #[test]
    fn zigzag_round_trips() {
        for w in [0, 1, -1, 2, -2, 300, -300, i16::MAX, i16::MIN] {
            assert_eq!(unzigzag(zigzag(w)), w);
        }
        assert_eq!([0, -1, 1, -2].map(zigzag), [0, 1, 2, 3]);
    }

    #[test]
    fn corrupt_files_are_refused() {
        let bytes = sample().to_bytes();
        assert!(matches!(
            PatternEval::from_bytes(b"nonsense"),
            Err(WeightsError::Magic)
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            PatternEval::from_bytes(&version),
            Err(WeightsError::Version(9))
        ));
        assert!(matches!(
            PatternEval::from_bytes(&bytes[..bytes.len() - 10]),
            Err(WeightsError::Corrupt(_))
        ));
        let mut checksum = bytes.clone();
        checksum[HEADER + 1] ^= 1;
        assert!(matches!(
            PatternEval::from_bytes(&checksum),
            Err(WeightsError::Checksum)
        ));
        let mut payload = bytes.clone();
        let last = payload.len() - 1;
        payload[last] ^= 1;
        assert!(matches!(
            PatternEval::from_bytes(&payload),
            Err(WeightsError::Checksum)
        ));
        let mut layout = bytes;
        layout[16] ^= 1;
        assert!(matches!(
            PatternEval::from_bytes(&layout),
            Err(WeightsError::Layout { .. })
        ));
    }

    #[test]
    fn the_embedded_weights_load_fast_and_evaluate_symmetrically() {
        let start = std::time::Instant::now();
        let eval = PatternEval::embedded().unwrap();
        assert!(
            start.elapsed() < std::time::Duration::from_millis(500),
            "{:?}",
            start.elapsed()
        );
        let mut board = Board::start();
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            board = board.play(crate::board::Move::parse(mv).unwrap());
        }
        for sym in crate::board::Symmetry::ALL {
            assert_eq!(
                eval.evaluate_fine(&board.transform(sym)),
                eval.evaluate_fine(&board),
                "{sym:?}"
            );
        }
    }

    /// Decoding the embedded weights gives their pages back as it reads them; a second decoding
    /// reads them again from the executable, and a copy of the bytes decodes alike.
    #[test]
    fn the_embedded_weights_decode_alike_after_their_pages_went_back() {
        let first = PatternEval::embedded().unwrap();
        let again = PatternEval::embedded().unwrap();
        assert!(first.weights() == again.weights());
        // A copy elsewhere in memory: decoded without giving pages back.
        let bytes: Vec<u8> = EMBEDDED.to_vec();
        let copy = PatternEval::from_bytes(&bytes).unwrap();
        assert!(first.weights() == copy.weights());
    }
}
