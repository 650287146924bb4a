//! What a self-play run plays and records: its options, the move choice, and the fingerprint
//! that tells two runs' chunks apart.

use crate::eval::Evaluation;
use crate::matchrun::openings::Opening;
use crate::search::Limits;
use crate::train::chunk::{self, Fnv};

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
    pub(super) fn play_limits(&self) -> Limits {
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
