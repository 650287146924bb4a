//! Batch work split into shards: independent processes, each taking every N-th work item, whose
//! outputs merge into the result of one run. A scheduler outside Iago starts them (GNU
//! parallel, a Slurm job array, a Kubernetes indexed Job: docs/batch.md).

use std::fmt;
use std::str::FromStr;

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

#[cfg(test)]
mod tests {
    use super::*;

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
