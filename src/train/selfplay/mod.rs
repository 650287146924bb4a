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

mod generate;
mod labels;
mod merge;
mod play;

mod options;

pub use generate::{RunSpec, generate};
pub(crate) use merge::combine;
pub use merge::merge_chunks;
pub use options::{DatagenOptions, Play, Softmax};

/// Settings and files that the tests of the submodules share.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::chunk;
    use std::path::{Path, PathBuf};

    /// Small settings: shallow searches, the solver from 10 empties.
    pub(super) fn small() -> DatagenOptions {
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

    pub(super) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iago-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    pub(super) fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
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
}
