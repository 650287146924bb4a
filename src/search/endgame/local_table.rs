//! Each thread's own small table of exact bounds, for the solver's deep nodes below
//! [`SHARED_TT_MIN_EMPTIES`] empties: no locks and no moves, only bounds true whatever search
//! stored them.

use super::SHALLOW_MAX;
use crate::search::SCORE_MAX;
use crate::search::params::SHARED_TT_MIN_EMPTIES;

/// Entries per number of empties in a thread's own table.
const LOCAL_TT_SIZE: usize = 1 << 10;

/// One entry of a thread's own table: a position and bounds on its exact score.
#[derive(Clone, Copy, Default)]
struct LocalEntry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
}

thread_local! {
    /// Each thread's own table, for the deep nodes below [`SHARED_TT_MIN_EMPTIES`]: bounds on
    /// exact scores, true whatever search stored them, so the table lives as long as the thread.
    static LOCAL_TT: Box<[std::cell::Cell<LocalEntry>]> = (0..LOCAL_TT_SIZE
        * (SHARED_TT_MIN_EMPTIES - SHALLOW_MAX - 1) as usize)
        .map(|_| std::cell::Cell::new(LocalEntry::default()))
        .collect();
}

/// Empties this thread's own table. Its entries stay true from one search to the next, but
/// they change the node counts of a later search: a run that must be reproducible item by item
/// (`iago solve --shard`, whichever shard takes the item) starts every item from empty tables
/// ([`crate::engine::Engine::clear_hash`]).
pub(crate) fn clear_thread_table() {
    LOCAL_TT.with(|t| t.iter().for_each(|e| e.set(LocalEntry::default())));
}

/// The slot of `(p, o)` with `n` empties (SHALLOW_MAX < n < SHARED_TT_MIN_EMPTIES) in a
/// thread's own table.
#[inline]
fn local_slot(p: u64, o: u64, n: u32) -> usize {
    let h = (p.wrapping_mul(0x9DDA_1C54_CFE6_B6E9) ^ o.wrapping_mul(0xA2E6_C030_0831_E05A)) >> 54;
    (n - SHALLOW_MAX - 1) as usize * LOCAL_TT_SIZE + h as usize
}

/// Bounds `(lower, upper)` on the score of `(p, o)` with `n` empties from this thread's table.
#[inline]
pub(super) fn local_probe(p: u64, o: u64, n: u32) -> Option<(i32, i32)> {
    LOCAL_TT.with(|t| {
        let e = t[local_slot(p, o, n)].get();
        (e.player == p && e.opponent == o).then_some((e.lower as i32, e.upper as i32))
    })
}

/// Stores bounds on the score of `(p, o)` with `n` empties: `score` searched in `(alpha, beta)`.
#[inline]
pub(super) fn local_store(p: u64, o: u64, n: u32, score: i32, alpha: i32, beta: i32) {
    let lower = if score > alpha { score } else { -SCORE_MAX };
    let upper = if score < beta { score } else { SCORE_MAX };
    LOCAL_TT.with(|t| {
        t[local_slot(p, o, n)].set(LocalEntry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_table_keeps_bounds_of_its_positions_only() {
        let (p, o) = (0x0000_0010_0800_0000u64, 0x0000_0008_1000_0000u64);
        let n = SHALLOW_MAX + 1;
        local_store(p, o, n, 6, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((6, SCORE_MAX)));
        local_store(p, o, n, 2, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((2, 2)));
        local_store(p, o, n, -12, -10, 4);
        assert_eq!(local_probe(p, o, n), Some((-SCORE_MAX, -12)));
        assert_eq!(local_probe(o, p, n), None);
        assert_eq!(local_probe(p, o, n + 1), None);
    }
}
