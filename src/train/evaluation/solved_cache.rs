//! The binary file of solved positions kept between training runs: [`SolvedCache`], its format
//! and its errors.

use std::collections::HashMap;

use crate::board::{Board, Color, Position};

/// Exact scores of solved positions, by canonical board, kept in a file between runs
/// (`iago train --solved FILE`): solving is most of a training run's time, and exact scores stay
/// valid whatever the features or the weights.
///
/// File: magic `IAGOSOLV`, u32 version (1), u64 count, then per position the canonical board's
/// player and opponent bitboards (u64 each) and the exact score (i8), little-endian, sorted.
#[derive(Default)]
pub struct SolvedCache {
    pub(super) map: HashMap<Board, i8>,
}

/// Why a solved-positions file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolvedCacheError {
    /// Not a solved-positions file.
    #[error("not an Iago solved-positions file (bad magic)")]
    Magic,
    /// A version this build does not read.
    #[error("solved-positions file version {0}, expected {SOLVED_VERSION}")]
    Version(u32),
    /// Fewer or more bytes than the positions announced.
    #[error("solved-positions file truncated: {count} positions announced, {bytes} bytes of them")]
    Truncated {
        /// Positions announced in the header.
        count: usize,
        /// Bytes that follow the header.
        bytes: usize,
    },
    /// A record that is no position (overlapping discs) or a score beyond ±64.
    #[error("solved-positions file holds an impossible position")]
    Impossible,
    /// Two caches merged give one position two scores.
    #[error(
        "position {position} is solved as {first:+} in one file and {second:+} in another: one of them is wrong"
    )]
    Conflict {
        /// The position (canonical, X to move).
        position: String,
        /// Its score in the cache merged into.
        first: i8,
        /// Its score in the other.
        second: i8,
    },
}

const SOLVED_MAGIC: &[u8; 8] = b"IAGOSOLV";
const SOLVED_VERSION: u32 = 1;
/// Magic, version, count.
const SOLVED_HEADER: usize = 8 + 4 + 8;
const SOLVED_RECORD: usize = 17;

impl SolvedCache {
    /// Reads a cache written by [`SolvedCache::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SolvedCacheError> {
        if bytes.len() < SOLVED_HEADER || &bytes[..8] != SOLVED_MAGIC {
            return Err(SolvedCacheError::Magic);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != SOLVED_VERSION {
            return Err(SolvedCacheError::Version(version));
        }
        let count = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes")) as usize;
        let body = &bytes[SOLVED_HEADER..];
        if count.checked_mul(SOLVED_RECORD) != Some(body.len()) {
            return Err(SolvedCacheError::Truncated {
                count,
                bytes: body.len(),
            });
        }
        let mut map = HashMap::with_capacity(count);
        for record in body.chunks_exact(SOLVED_RECORD) {
            let word = |k: usize| u64::from_le_bytes(record[k..k + 8].try_into().expect("8"));
            let score = record[16] as i8;
            let board = Board::new(word(0), word(8))
                .ok()
                .filter(|_| (-64..=64).contains(&score))
                .ok_or(SolvedCacheError::Impossible)?;
            map.insert(board, score);
        }
        Ok(SolvedCache { map })
    }

    /// The file's bytes (sorted, so that equal caches give equal files).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records: Vec<(&Board, &i8)> = self.map.iter().collect();
        records.sort_unstable_by_key(|(b, _)| (b.player, b.opponent));
        let mut out = Vec::with_capacity(SOLVED_HEADER + records.len() * SOLVED_RECORD);
        out.extend_from_slice(SOLVED_MAGIC);
        out.extend_from_slice(&SOLVED_VERSION.to_le_bytes());
        out.extend_from_slice(&(records.len() as u64).to_le_bytes());
        for (b, &score) in records {
            out.extend_from_slice(&b.player.to_le_bytes());
            out.extend_from_slice(&b.opponent.to_le_bytes());
            out.push(score as u8);
        }
        out
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Adds the positions of `other` (the union of the two) and returns how many were new. A
    /// position the two hold with different scores is refused, and then nothing is added:
    /// exact scores cannot differ, so one of the files is wrong.
    pub fn merge(&mut self, other: &SolvedCache) -> Result<usize, SolvedCacheError> {
        let conflict = other
            .map
            .iter()
            .filter_map(|(board, &second)| {
                let first = *self.map.get(board)?;
                (first != second).then_some((*board, first, second))
            })
            .min_by_key(|(b, _, _)| (b.player, b.opponent));
        if let Some((board, first, second)) = conflict {
            let position = Position {
                board,
                to_move: Color::Black,
            };
            return Err(SolvedCacheError::Conflict {
                position: position.to_board_string(),
                first,
                second,
            });
        }
        let before = self.map.len();
        self.map.extend(other.map.iter().map(|(&b, &s)| (b, s)));
        Ok(self.map.len() - before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::evaluation::tests::position;

    #[test]
    fn merged_caches_hold_the_union_and_refuse_two_scores_for_a_position() {
        let (a, b, c) = (
            position("f5d6").canonical().0,
            position("f5f6e6").canonical().0,
            position("f5f4").canonical().0,
        );
        let cache = |records: &[(Board, i8)]| SolvedCache {
            map: records.iter().copied().collect(),
        };
        let mut merged = cache(&[(a, -12), (b, 64)]);
        assert_eq!(merged.merge(&cache(&[(b, 64), (c, 3)])), Ok(1));
        assert_eq!(merged.map, cache(&[(a, -12), (b, 64), (c, 3)]).map);
        let e = merged.merge(&cache(&[(c, 2), (position("d3").canonical().0, 0)]));
        assert!(
            matches!(
                &e,
                Err(SolvedCacheError::Conflict {
                    first: 3,
                    second: 2,
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(
            e.unwrap_err()
                .to_string()
                .contains("solved as +3 in one file and +2")
        );
        assert_eq!(merged.len(), 3, "nothing added");
    }

    #[test]
    fn solved_cache_round_trips_and_refuses_bad_files() {
        let mut cache = SolvedCache::default();
        cache.map.insert(position("f5d6").canonical().0, -12);
        cache.map.insert(position("f5f6e6").canonical().0, 64);
        let bytes = cache.to_bytes();
        let back = SolvedCache::from_bytes(&bytes).unwrap();
        assert_eq!(back.map, cache.map);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(
            SolvedCache::from_bytes(b"IAGOEVAL").err(),
            Some(SolvedCacheError::Magic)
        );
        let e = SolvedCache::from_bytes(&bytes[..bytes.len() - 1]).err();
        assert_eq!(
            e.map(|e| e.to_string()).as_deref(),
            Some("solved-positions file truncated: 2 positions announced, 33 bytes of them")
        );
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] = 100;
        assert_eq!(
            SolvedCache::from_bytes(&bad).err(),
            Some(SolvedCacheError::Impossible)
        );
    }
}
