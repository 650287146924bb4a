//! A lock-free transposition table shared by all search threads.
//!
//! Each entry is three `AtomicU64`: the two halves of the board, each XOR-ed with the data word,
//! and the data word. A reader accepts an entry only when both halves XOR the data back to its own
//! board, so an entry torn by two concurrent writers is rejected, and an entry is never trusted on
//! a hash match alone: the whole board is compared. Two entries share a 64-byte bucket.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::board::Board;
use crate::search::probcut::Selectivity;

/// What the table knows about a position. Scores are disc differences for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best move found (square index), or [`NO_MOVE`].
    pub best_move: u8,
    /// The best move before `best_move` replaced it (a second candidate for move ordering, as
    /// Egaroucid keeps), or [`NO_MOVE`]. Set by [`TranspositionTable::store`].
    pub second_move: u8,
    /// Search depth in plies (for exact endgame entries: the number of empty squares).
    pub depth: u8,
    /// Whether the bounds are on the exact score or on a depth-limited search's estimate.
    pub kind: ScoreKind,
}

/// What the bounds of an entry are bounds on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// The exact final score (the entry's depth is the position's number of empties).
    Exact,
    /// The value of a depth-limited search at this selectivity.
    Estimate(Selectivity),
}

impl ScoreKind {
    /// The kind's code in an entry's bits: 0 for exact, 1 + the selectivity's rank otherwise (higher
    /// codes are less pruning).
    fn code(self) -> u8 {
        match self {
            ScoreKind::Exact => 0,
            ScoreKind::Estimate(selectivity) => 1 + selectivity.rank(),
        }
    }

    /// The kind of code `code` ([`ScoreKind::code`]).
    fn from_code(code: u8) -> ScoreKind {
        match code {
            0 => ScoreKind::Exact,
            c => ScoreKind::Estimate(Selectivity::from_rank(c - 1)),
        }
    }
}

/// `best_move` when the entry holds no move.
pub const NO_MOVE: u8 = 64;

const VALID: u64 = 1 << 63;

impl TtData {
    /// The entry recording `best`, the fail-soft result of a search in `(alpha, beta)`: a lower
    /// bound when it reached `beta`, an upper bound when it did not exceed `alpha`, else exact.
    /// A move that failed low is no better than its siblings, so an upper bound records no move
    /// and [`TranspositionTable::store`] keeps the move the entry had.
    pub fn from_result(
        best: i32,
        alpha: i32,
        beta: i32,
        best_move: u8,
        depth: u32,
        kind: ScoreKind,
    ) -> TtData {
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best > alpha {
            (best, best)
        } else {
            (-64, best)
        };
        TtData {
            lower: lower as i8,
            upper: upper as i8,
            best_move: if best > alpha { best_move } else { NO_MOVE },
            second_move: NO_MOVE,
            depth: depth as u8,
            kind,
        }
    }

    /// Whether the bounds answer a search whose score must be of kind `wanted`, `depth` plies
    /// deep, on this position with `empties` empty squares: an exact entry answers any search
    /// (its depth is the empties); an estimate answers no exact search, and a depth-limited one
    /// when it is at least as deep and prunes no more.
    #[inline]
    pub fn answers(&self, wanted: ScoreKind, depth: u32, empties: u32) -> bool {
        match (self.kind, wanted) {
            (ScoreKind::Exact, _) => self.depth as u32 == empties,
            (ScoreKind::Estimate(_), ScoreKind::Exact) => false,
            (ScoreKind::Estimate(have), ScoreKind::Estimate(want)) => {
                self.depth as u32 >= depth && have >= want
            }
        }
    }

    /// Whether the bounds are on the exact score of a position with `empties` empty squares.
    #[inline]
    pub fn is_exact(&self, empties: u32) -> bool {
        self.kind == ScoreKind::Exact && self.depth as u32 == empties
    }

    /// Narrows `(alpha, beta)` with this entry's bounds; `Some(score)` when they already settle
    /// the node (the score is then a valid fail-soft result).
    #[inline]
    pub fn narrow(&self, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        let (lower, upper) = (self.lower as i32, self.upper as i32);
        if lower >= *beta {
            return Some(lower);
        }
        if upper <= *alpha || lower == upper {
            return Some(upper);
        }
        *alpha = (*alpha).max(lower);
        *beta = (*beta).min(upper);
        None
    }

    /// What makes an entry worth keeping: depth (an exact result's depth is its number of
    /// empties), then less pruning (an exact result above any selective one).
    fn quality(&self) -> (u8, u8) {
        match self.kind {
            ScoreKind::Exact => (self.depth, u8::MAX),
            kind => (self.depth, kind.code()),
        }
    }

    fn pack(self, date: u8) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best_move as u64) << 16
            | (self.depth as u64) << 24
            | (self.kind.code() as u64) << 32
            | (date as u64) << 40
            | (self.second_move as u64) << 48
            | VALID
    }

    fn unpack(word: u64) -> (TtData, u8) {
        (
            TtData {
                lower: word as u8 as i8,
                upper: (word >> 8) as u8 as i8,
                best_move: (word >> 16) as u8,
                depth: (word >> 24) as u8,
                kind: ScoreKind::from_code((word >> 32) as u8),
                second_move: (word >> 48) as u8,
            },
            (word >> 40) as u8,
        )
    }
}

#[derive(Default)]
struct Entry {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; 2],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The buckets, in memory aligned to 2 MiB that Linux is asked to back with huge pages: a
/// probe is a random access into hundreds of MiB, and with 4 KiB pages nearly every one also
/// misses the TLB. Huge pages make a long solve faster (measured:
/// docs/lab/2026-11-22-endgame-solver.md).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

/// Alignment (and huge page size) of the bucket array.
const HUGE_PAGE: usize = 2 << 20;

impl Buckets {
    /// `len` zeroed buckets (at least one), or `None` when the memory cannot be had.
    fn new(len: usize) -> Option<Buckets> {
        let len = len.max(1);
        let layout = std::alloc::Layout::array::<Bucket>(len)
            .and_then(|l| l.align_to(HUGE_PAGE))
            .ok()?;
        // SAFETY: the layout has a non-zero size (at least one 64-byte bucket).
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = std::ptr::NonNull::new(raw.cast::<Bucket>())?;
        #[cfg(target_os = "linux")]
        // SAFETY: `raw .. raw + layout.size()` is memory this allocation owns; MADV_HUGEPAGE only
        // changes how the kernel backs it (a failure leaves ordinary pages, which is fine). It
        // comes before the first write, which then faults huge pages in.
        unsafe {
            libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        // SAFETY: the allocation holds `len` buckets; all-zero bytes are a valid `Bucket` (three
        // `AtomicU64` of 0 each), so after this every element is initialised.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        Some(Buckets { ptr, len, layout })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `Buckets::new` with this very layout, and freed only here.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

// SAFETY: `Buckets` owns its memory like a `Box<[Bucket]>`, and `Bucket` is `Send` and `Sync`
// (atomics only).
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access only hands out `&[Bucket]`, whose fields are atomic.
unsafe impl Sync for Buckets {}

/// The shared table. `Sync`: every field is atomic.
pub struct TranspositionTable {
    buckets: Buckets,
    date: AtomicU64,
}

/// The largest table, in MiB (4 TiB; the machine's memory is the real limit).
pub const MAX_MB: usize = 1 << 22;

/// Why a table of the size asked for cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Zero, or beyond 4 TiB.
    #[error("a hash table of {0} MiB is out of range (1 to {MAX_MB} MiB)")]
    Range(usize),
    /// More than the machine has.
    #[error("a hash table of {asked} MiB is more than this machine's memory ({memory} MiB)")]
    Memory {
        /// MiB asked for.
        asked: usize,
        /// MiB of physical memory.
        memory: usize,
    },
    /// The allocation failed.
    #[error("cannot allocate a hash table of {0} MiB")]
    Allocation(usize),
}

/// The machine's physical memory in MiB, where the system tells it.
fn physical_memory_mb() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads system constants and has no preconditions.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGE_SIZE),
            )
        };
        if pages > 0 && size > 0 {
            return Some(((pages as u128 * size as u128) >> 20) as usize);
        }
    }
    None
}

impl TranspositionTable {
    /// A table using `megabytes` MiB; panics when the memory cannot be had (for the small
    /// tables of internal searches; sizes from users go through [`TranspositionTable::try_new`]).
    pub fn new(megabytes: usize) -> TranspositionTable {
        Self::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table using `megabytes` MiB: 1 to [`MAX_MB`], no more than the machine's memory, and
    /// an allocation that can fail without ending the process.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        if !(1..=MAX_MB).contains(&megabytes) {
            return Err(TableError::Range(megabytes));
        }
        if let Some(memory) = physical_memory_mb()
            && megabytes > memory
        {
            return Err(TableError::Memory {
                asked: megabytes,
                memory,
            });
        }
        let count = (megabytes << 20) / std::mem::size_of::<Bucket>();
        let buckets = Buckets::new(count).ok_or(TableError::Allocation(megabytes))?;
        Ok(TranspositionTable {
            buckets,
            date: AtomicU64::new(1),
        })
    }

    /// The memory held by the entries, in bytes.
    #[cfg(test)]
    pub fn size_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.buckets)
    }

    /// Starts a new search: entries from earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        let date = self.date.fetch_add(1, Relaxed) + 1;
        if date.is_multiple_of(256) {
            self.clear();
        }
    }

    /// Forgets everything, on the threads of the current rayon pool: the entries and the count
    /// of searches, so that what follows does not depend on what came before (the table is
    /// cleared again every 256 searches: a game's searches after a clear must count from the
    /// same point whatever the table did before).
    pub fn clear(&self) {
        use rayon::prelude::*;
        self.buckets.par_chunks(1 << 14).for_each(|chunk| {
            for bucket in chunk {
                for e in &bucket.entries {
                    e.data.store(0, Relaxed);
                    e.player.store(0, Relaxed);
                    e.opponent.store(0, Relaxed);
                }
            }
        });
        self.date.store(1, Relaxed);
    }

    fn current_date(&self) -> u8 {
        self.date.load(Relaxed) as u8
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        let index = ((hash as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the CPU to bring the bucket of `hash` into cache.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let bucket: *const Bucket = self.bucket(hash);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; it never faults and reads nothing into the program,
        // and the pointer comes from a live reference anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The entry for `board` (whose hash is `hash`), if present.
    #[inline]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<TtData> {
        for e in &self.bucket(hash).entries {
            let data = e.data.load(Relaxed);
            if data & VALID != 0
                && e.player.load(Relaxed) ^ data == board.player
                && e.opponent.load(Relaxed) ^ data == board.opponent
            {
                return Some(TtData::unpack(data).0);
            }
        }
        None
    }

    /// Records a search result. An entry for the same board at the same depth and of the same kind
    /// has its bounds tightened; a better one (deeper, or as deep and less selective: an exact
    /// result is as deep as its empties) is kept; otherwise the new result replaces the same
    /// board's entry (keeping its moves when the result has none; a new best move makes the old
    /// one the second) or the least valuable entry of the bucket (an older search's first, then
    /// the shallowest, exact results included).
    pub fn store(&self, board: &Board, hash: u64, new: TtData) {
        let date = self.current_date();
        let bucket = self.bucket(hash);
        let mut victim = &bucket.entries[0];
        let mut victim_value = u32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Relaxed);
            let same_board = data & VALID != 0
                && e.player.load(Relaxed) ^ data == board.player
                && e.opponent.load(Relaxed) ^ data == board.opponent;
            if same_board {
                let (old, _) = TtData::unpack(data);
                let mut merged = new;
                if old.depth == new.depth && old.kind == new.kind {
                    merged.lower = old.lower.max(new.lower);
                    merged.upper = old.upper.min(new.upper);
                    if merged.lower > merged.upper {
                        // Bounds from different searches disagree: trust the new result.
                        merged = new;
                    }
                } else if old.quality() > new.quality() {
                    return;
                }
                if merged.best_move == NO_MOVE || merged.best_move == old.best_move {
                    merged.best_move = old.best_move;
                    merged.second_move = old.second_move;
                } else {
                    merged.second_move = old.best_move;
                }
                write(e, board, merged.pack(date));
                return;
            }
            let (old, old_date) = TtData::unpack(data);
            let value = if data & VALID == 0 {
                0
            } else {
                let (depth, kind) = old.quality();
                ((old_date == date) as u32) << 16 | (depth as u32) << 8 | kind as u32
            };
            if value < victim_value {
                victim_value = value;
                victim = e;
            }
        }
        write(victim, board, new.pack(date));
    }
}

#[inline]
fn write(e: &Entry, board: &Board, data: u64) {
    e.data.store(data, Relaxed);
    e.player.store(board.player ^ data, Relaxed);
    e.opponent.store(board.opponent ^ data, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(lower: i8, upper: i8, depth: u8) -> TtData {
        TtData {
            lower,
            upper,
            best_move: 19,
            second_move: NO_MOVE,
            depth,
            kind: ScoreKind::Estimate(Selectivity::new(99)),
        }
    }

    #[test]
    fn size_is_what_was_asked() {
        let tt = TranspositionTable::new(16);
        assert_eq!(tt.size_bytes(), 16 << 20);
    }

    #[test]
    fn store_probe_and_merge() {
        let tt = TranspositionTable::new(1);
        let b = Board::start();
        assert_eq!(tt.probe(&b, b.hash()), None);
        tt.store(&b, b.hash(), data(-64, 10, 20));
        assert_eq!(tt.probe(&b, b.hash()), Some(data(-64, 10, 20)));
        tt.store(&b, b.hash(), data(-4, 64, 20));
        assert_eq!(tt.probe(&b, b.hash()), Some(data(-4, 10, 20)));
        // A shallower result does not replace a deeper one.
        tt.store(&b, b.hash(), data(0, 0, 10));
        assert_eq!(tt.probe(&b, b.hash()), Some(data(-4, 10, 20)));
        // The other side to move is another position.
        assert_eq!(tt.probe(&b.pass(), b.pass().hash()), None);
    }

    #[test]
    fn a_hash_match_alone_is_not_a_hit() {
        let tt = TranspositionTable::new(1);
        let a = Board::start();
        let b = a.pass();
        tt.store(&a, 42, data(2, 2, 5));
        assert_eq!(tt.probe(&b, 42), None);
        assert!(tt.probe(&a, 42).is_some());
    }

    const LEVEL: ScoreKind = ScoreKind::Estimate(Selectivity::new(99));

    #[test]
    fn a_fail_low_keeps_the_move_of_the_entry() {
        let tt = TranspositionTable::new(1);
        let b = Board::start();
        let fail_low = TtData::from_result(-3, 0, 1, 37, 20, LEVEL);
        assert_eq!((fail_low.upper, fail_low.best_move), (-3, NO_MOVE));
        tt.store(&b, b.hash(), data(0, 64, 18));
        tt.store(&b, b.hash(), fail_low);
        let entry = tt.probe(&b, b.hash()).unwrap();
        assert_eq!((entry.upper, entry.depth, entry.best_move), (-3, 20, 19));
        // A result inside the window or above it records its move.
        assert_eq!(TtData::from_result(0, -1, 1, 37, 20, LEVEL).best_move, 37);
        assert_eq!(TtData::from_result(1, 0, 1, 37, 20, LEVEL).best_move, 37);
    }

    #[test]
    fn a_replaced_best_move_becomes_the_second() {
        let tt = TranspositionTable::new(1);
        let b = Board::start();
        // Stores the exact search's `score` in `(alpha, alpha + 1)` with move `mv`, then
        // returns the entry's (best, second) moves.
        let store = |score, alpha, mv, empties| {
            let data = TtData::from_result(score, alpha, alpha + 1, mv, empties, ScoreKind::Exact);
            tt.store(&b, b.hash(), data);
            tt.probe(&b, b.hash()).map(|e| (e.best_move, e.second_move))
        };
        assert_eq!(store(9, 8, 19, 20), Some((19, NO_MOVE)));
        assert_eq!(store(9, 8, 26, 20), Some((26, 19)));
        // A fail-low, or the same best move again, keeps both.
        assert_eq!(store(-3, 0, 37, 20), Some((26, 19)));
        assert_eq!(store(9, 8, 26, 20), Some((26, 19)));
        // A deeper result for the board carries the moves over too.
        assert_eq!(store(9, 8, 37, 21), Some((37, 26)));
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_exact_result() {
        let tt = TranspositionTable::new(1);
        let boards = [Board::start(), Board::start().pass(), Board::default()];
        let exact = |empties| TtData::from_result(4, 0, 8, 19, empties, ScoreKind::Exact);
        // All three share a bucket (the same hash); the bucket holds two entries.
        tt.store(&boards[0], 42, exact(20));
        tt.store(&boards[1], 42, exact(10));
        tt.store(&boards[2], 42, exact(15));
        assert_eq!(tt.probe(&boards[0], 42).map(|e| e.depth), Some(20));
        assert_eq!(tt.probe(&boards[1], 42), None);
        assert_eq!(tt.probe(&boards[2], 42).map(|e| e.depth), Some(15));
    }

    #[test]
    fn negative_scores_round_trip() {
        let d = data(-64, -62, 30);
        assert_eq!(TtData::unpack(d.pack(7)), (d, 7));
    }

    #[test]
    fn kinds_round_trip_and_rank_exact_above_estimates() {
        let selectivities = (0..=100).filter_map(Selectivity::from_percent);
        let kinds: Vec<ScoreKind> = selectivities
            .map(ScoreKind::Estimate)
            .chain([ScoreKind::Exact])
            .collect();
        for (i, &kind) in kinds.iter().enumerate() {
            let d = TtData {
                kind,
                ..data(1, 3, 12)
            };
            assert_eq!(TtData::unpack(d.pack(1)).0, d);
            for &other in &kinds[i + 1..] {
                let better = TtData { kind: other, ..d };
                assert!(better.quality() > d.quality(), "{other:?} above {kind:?}");
            }
        }
        let exact = TtData {
            kind: ScoreKind::Exact,
            ..data(1, 3, 12)
        };
        assert!(exact.answers(ScoreKind::Exact, 12, 12) && exact.answers(LEVEL, 30, 12));
        let estimate = data(1, 3, 12);
        assert!(!estimate.answers(ScoreKind::Exact, 12, 12));
        assert!(estimate.answers(LEVEL, 12, 30) && !estimate.answers(LEVEL, 13, 30));
        let full_width = ScoreKind::Estimate(Selectivity::NONE);
        assert!(!estimate.answers(full_width, 12, 30));
    }
}
