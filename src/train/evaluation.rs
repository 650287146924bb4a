//! Training the pattern evaluation (`iago train`).
//!
//! 1. Import: WTHOR archives and Logistello's collection; every position of every game, deduplicated
//!    by canonical form (labels of duplicates are averaged). WTHOR games of the validation years
//!    are kept apart, minus any position the training set also holds.
//! 2. Labels, stage by stage from the end of the game (Logistello's bootstrapping):
//!    - up to `solve_max_empties` empties, every position: Iago's exact solver (game values
//!      cover only the positions of well-played games, while a search scores the positions that
//!      bad moves lead to as well: solved labels for all of 13-16 empties lowered the depth-8
//!      error at 24 empties);
//!    - from there up to 24 empties, values known along the game path: WTHOR's perfect-play
//!      score at its theoretical depth, Logistello's final score (taken for its first position
//!      with 24 empties), a finished game's end, and solved positions: each game's first one in
//!      the solver's range and, where those values disagree, one at each `check_empties` depth.
//!      A position between two plies of equal value gets that value (see [`game_labels`]); the
//!      other positions (up to `max_searched` a stage) get the score of a full-width search of
//!      `searched_depth` plies whose leaves fall in the stages already fitted (more samples
//!      for stages short of exact ones: they lowered the static error at 24 empties);
//!    - earlier: a full-width search of `bootstrap_depth` plies whose leaves fall in the stages
//!      already fitted;
//!    - off the games' paths (`off_path`, `off_path_search`): children of game positions by a
//!      random move, solved in the solver's range and searched beyond it (a search evaluates
//!      mostly positions that no game reached); exact scores are kept between runs in a
//!      [`SolvedCache`]. Each search starts from an empty table of its own, so that labels,
//!      and the weights, are the same in every run.
//!    - self-play data (`iago train --data`, chunks of `iago datagen`; see [`Positions::add_data`]):
//!      its positions join the training set (never the validation set); an exact label makes a
//!      solver-labelled sample at any depth, a search label stands in for the search that
//!      would score a position without a game value (and for the bootstrapping search), and an
//!      outcome alone counts as a game value up to 24 empties.
//! 3. Fit: least squares with L2 regularisation by Adagrad, each stage warm-started from the one
//!    after it in the game; configurations that mirror each other share a weight.
//! 4. Report: training and validation error per stage, and the error against WTHOR's exact
//!    scores at 24 empties on the validation years.
//!
//! The measurements behind these choices are in docs/lab/2026-11-22-trained-evaluation.md,
//! "Training, with its figures".

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rayon::prelude::*;

use crate::batch::Shard;
use crate::board::{Board, Color, Game, Move, Position};
use crate::eval::pattern::{
    FEATURES, FIRST_TABLE, Mobility, SCALARS, STAGE_SIZE, STAGES, TABLES, TABLES_OF,
    canonical_indices, context, for_each_feature, stage, stage_empties,
};
use crate::eval::{Evaluator, HandEval, PatternEval, SCALE, default_evaluator};
use crate::search::Searcher;
use crate::search::tt::TranspositionTable;
use crate::train::chunk::Record;
use crate::train::logbook::LogbookGame;
use crate::train::wthor::WthorGame;

/// What to train on and how much.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Years whose WTHOR games are kept for validation.
    pub validation_years: Vec<u16>,
    /// Positions per stage labelled by search, the stages beyond 24 empties (a random sample
    /// when more exist).
    pub max_per_stage: usize,
    /// Positions per stage labelled by their game's value (stages up to 24 empties).
    pub max_labelled: usize,
    /// Positions per stage labelled by the exact solver (a random sample when more exist).
    pub max_solved: usize,
    /// Positions up to this many empties are solved exactly.
    pub solve_max_empties: u32,
    /// Depths (empties, above `solve_max_empties` and below 24) at which a game's position is
    /// solved where its known values disagree, so that more of its positions get a label.
    pub check_empties: Vec<u32>,
    /// Share of the training positions with up to `solve_max_empties + 1` empties that also
    /// bring the child of a random move (solved): a search meets positions off the games' paths.
    pub off_path: f64,
    /// Share of the training positions beyond `solve_max_empties + 1` empties that also bring
    /// the child of a random move, labelled by a search.
    pub off_path_search: f64,
    /// Plies of the bootstrapping search.
    pub bootstrap_depth: u32,
    /// Training positions per stage, between the solver's range and 24 empties, that have no
    /// trusted game value and are labelled by a search of `searched_depth` plies instead.
    pub max_searched: usize,
    /// Plies of the search that labels those positions (its leaves fall in the stages already
    /// fitted).
    pub searched_depth: u32,
    /// Passes over each stage's samples.
    pub epochs: usize,
    /// Adagrad's learning rate (discs per unit gradient at the first step).
    pub learning_rate: f32,
    /// L2 decay of each mobility context's difference from the shared table, per pass over a
    /// stage's samples (see `fit`).
    pub context_decay: f32,
    /// Validation positions per stage.
    pub validation_per_stage: usize,
    /// Positions at 24 empties searched to depth 8 for the report.
    pub depth8_positions: usize,
    /// Seed of every sample.
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            validation_years: vec![2023, 2024],
            max_per_stage: 300_000,
            max_labelled: 1_500_000,
            max_solved: 1_000_000,
            solve_max_empties: 16,
            check_empties: vec![18],
            off_path: 0.2,
            off_path_search: 0.3,
            bootstrap_depth: 4,
            max_searched: 1_000_000,
            searched_depth: 6,
            epochs: 12,
            learning_rate: 0.16,
            context_decay: 1000.0,
            validation_per_stage: 5_000,
            depth8_positions: 2_000,
            seed: 1,
        }
    }
}

/// A game from an archive with the values its positions are labelled with.
#[derive(Clone, Debug)]
pub struct LabelledGame {
    /// The game, passes included.
    pub game: Game,
    /// Black's value of the game: exact at `exact_at` (WTHOR), or the final score (Logistello),
    /// which labels positions up to 24 empties where the solver confirms it.
    pub black_value: i32,
    /// Empties at which `black_value` is exact (WTHOR's theoretical depth), if any.
    pub exact_at: Option<u32>,
    /// Whether the game belongs to the validation set.
    pub validation: bool,
}

/// WTHOR games with their perfect-play value; the validation years are flagged.
pub fn wthor_games(games: &[WthorGame], validation_years: &[u16]) -> Vec<LabelledGame> {
    games
        .iter()
        .filter_map(|g| {
            Some(LabelledGame {
                game: g.replay()?,
                black_value: 2 * g.black_theoretical as i32 - 64,
                exact_at: Some(g.theoretical_depth as u32),
                validation: validation_years.contains(&g.year),
            })
        })
        .collect()
}

/// Logistello's games with their final score (always training games).
pub fn logbook_games(games: &[LogbookGame]) -> Vec<LabelledGame> {
    games
        .iter()
        .filter_map(|g| {
            Some(LabelledGame {
                game: g.replay()?,
                black_value: g.black_score,
                exact_at: None,
                validation: false,
            })
        })
        .collect()
}

/// A deduplicated position with its averaged game label and the labels of self-play data.
#[derive(Clone, Copy, Debug)]
struct Entry {
    board: Board,
    label_sum: f64,
    label_count: u32,
    data: DataLabels,
}

impl Entry {
    fn new(board: Board) -> Entry {
        Entry {
            board,
            label_sum: 0.0,
            label_count: 0,
            data: DataLabels::default(),
        }
    }
}

/// The labels self-play data gives a position (duplicates combined, see
/// [`crate::train::selfplay::merge_chunks`]); scores for the side to move of the entry's board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct DataLabels {
    exact: Option<i8>,
    search: Option<i8>,
    outcome: Option<i8>,
}

impl DataLabels {
    /// An outcome is used only where nothing better is known.
    fn outcome_only(&self) -> Option<i8> {
        self.outcome
            .filter(|_| self.exact.is_none() && self.search.is_none())
    }
}

/// What [`Positions::add_data`] took from self-play data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataReport {
    /// Records read.
    pub records: usize,
    /// Distinct positions among them.
    pub positions: usize,
    /// Positions left out because they occur in the validation games only.
    pub validation: usize,
    /// Positions the archives' training games hold too.
    pub shared: usize,
}

/// Positions of a set of games, keyed by canonical form.
#[derive(Default)]
struct Positions {
    map: HashMap<Board, Entry>,
}

/// Positions up to this many empties are labelled by game values or the solver, the others by
/// the bootstrapping search.
const GAME_VALUE_MAX_EMPTIES: u32 = 24;

/// Off-path positions: the child of a game position by a move chosen at random, for a share of
/// the game positions whose children the solver labels and for a share of those whose children
/// a search labels (children with 17-24 empties have no game value: they join the positions
/// scored by a search of `searched_depth` plies, see `max_searched`).
#[derive(Clone, Copy, Debug)]
struct OffPath {
    /// Share of the game positions with solved children that get one (0 = none, 1 = all).
    rate: f64,
    /// Children with at most this many empties (the solver's range).
    max_empties: u32,
    /// Share of the game positions with children beyond [`GAME_VALUE_MAX_EMPTIES`] that get one.
    search_rate: f64,
    seed: u64,
}

impl OffPath {
    /// The off-path child of `board` (canonical), if it gets one: random but the same in every
    /// run and for every symmetric form of the position.
    fn child(&self, board: &Board) -> Option<Board> {
        let empties = board.empty_count();
        let rate = if empties > self.max_empties + 1 {
            self.search_rate
        } else {
            self.rate
        };
        if rate <= 0.0 || empties < 2 {
            return None;
        }
        let h = Board {
            player: board.player ^ self.seed,
            opponent: board.opponent,
        }
        .hash();
        if (h >> 11) as f64 / (1u64 << 53) as f64 >= rate {
            return None;
        }
        let moves: Vec<_> = board.legal_moves().iter().collect();
        let sq = *moves.get((h & 0x3FF) as usize % moves.len().max(1))?;
        let child = board.play(Move::Play(sq));
        (!child.is_game_over()).then_some(child)
    }
}

impl Positions {
    /// Adds the positions of `game`; `labels`: Black's label of each of them, by ply (see
    /// [`game_labels`]).
    fn add(&mut self, game: &LabelledGame, labels: &[Option<i32>], off_path: Option<&OffPath>) {
        for (pos, label) in path(&game.game).into_iter().zip(labels) {
            let board = pos.board;
            let empties = board.empty_count();
            if empties == 0 || empties > 60 || board.is_game_over() {
                continue;
            }
            let key = board.canonical().0;
            let entry = self.map.entry(key).or_insert(Entry::new(board));
            if let Some(black) = label {
                let value = if pos.to_move == Color::Black {
                    *black
                } else {
                    -black
                };
                entry.label_sum += value as f64;
                entry.label_count += 1;
            }
            if let Some(child) = off_path.and_then(|o| o.child(&key)) {
                self.map
                    .entry(child.canonical().0)
                    .or_insert(Entry::new(child));
            }
        }
    }

    /// Adds the positions of self-play `records` with their labels (duplicates combined), except
    /// those that only the validation games hold: validation stays what it is without data.
    /// Finished games and positions without a label are left out.
    fn add_data(&mut self, records: &[Record], validation: &Positions) -> DataReport {
        let (merged, _) = crate::train::selfplay::combine(records);
        let mut report = DataReport {
            records: records.len(),
            positions: merged.len(),
            ..DataReport::default()
        };
        for r in merged {
            let key = r.board;
            if key.is_game_over() || r.flags() == 0 {
                continue;
            }
            let shared = self.map.contains_key(&key);
            if !shared && validation.map.contains_key(&key) {
                report.validation += 1;
                continue;
            }
            report.shared += shared as usize;
            let entry = self.map.entry(key).or_insert(Entry::new(key));
            // The labels are for the side to move of the canonical board, which has the same
            // side to move as the entry's (a symmetry keeps the colours).
            entry.data = DataLabels {
                exact: r.exact,
                search: r.search.map(|s| s.score),
                outcome: r.outcome,
            };
        }
        report
    }

    /// The positions of `stage`, shuffled with `seed`.
    fn stage(&self, st: usize, seed: u64, exclude: Option<&Positions>) -> Vec<Entry> {
        let mut out: Vec<Entry> = self
            .map
            .iter()
            .filter(|(key, e)| {
                stage(e.board.empty_count()) == st
                    && exclude.is_none_or(|x| !x.map.contains_key(key))
            })
            .map(|(_, e)| *e)
            .collect();
        out.sort_unstable_by_key(|e| (e.board.player, e.board.opponent));
        shuffle(&mut out, seed ^ st as u64);
        out
    }
}

fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

/// How a sample was labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// Iago's exact solver.
    Solved,
    /// The game's value.
    Game,
    /// A search over the stages already fitted.
    Bootstrap,
    /// The search label of self-play data.
    SelfPlay,
}

impl LabelKind {
    /// The kind's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            LabelKind::Solved => "solved",
            LabelKind::Game => "game",
            LabelKind::Bootstrap => "bootstrap",
            LabelKind::SelfPlay => "self-play",
        }
    }
}

/// One stage's line of the report.
#[derive(Clone, Debug)]
pub struct StageReport {
    /// The stage.
    pub stage: usize,
    /// Its empties.
    pub empties: (u32, u32),
    /// How its training samples were labelled: each kind present, with its count.
    pub kinds: Vec<(LabelKind, usize)>,
    /// Training samples.
    pub train: usize,
    /// Mean absolute training error, discs.
    pub train_mae: f64,
    /// Validation samples.
    pub validation: usize,
    /// Mean absolute validation error, discs.
    pub validation_mae: f64,
    /// Seconds spent on the stage.
    pub seconds: f64,
}

/// The headline figures: errors against exact scores at 24 empties on unseen games.
#[derive(Clone, Debug, Default)]
pub struct ExactReport {
    /// Positions (WTHOR validation years, 24 empties, not in the training set).
    pub positions: usize,
    /// Mean absolute error of the trained evaluation.
    pub static_mae: f64,
    /// Same for the hand-written evaluation.
    pub hand_mae: f64,
    /// Positions searched to depth 8.
    pub depth8_positions: usize,
    /// Mean absolute error of a depth-8 search (ProbCut 95%) with the trained evaluation.
    pub depth8_mae: f64,
}

/// Exact scores of solved positions, by canonical board, kept in a file between runs
/// (`iago train --solved FILE`): solving is most of a training run's time, and exact scores stay
/// valid whatever the features or the weights.
///
/// File: magic `IAGOSOLV`, u32 version (1), u64 count, then per position the canonical board's
/// player and opponent bitboards (u64 each) and the exact score (i8), little-endian, sorted.
#[derive(Default)]
pub struct SolvedCache {
    map: HashMap<Board, i8>,
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

/// The positions of a game, the start first: one per ply.
fn path(game: &Game) -> Vec<Position> {
    let mut position = game.start();
    std::iter::once(position)
        .chain(game.moves().iter().map(|&mv| {
            position = position.try_play(mv).expect("replayed games are legal");
            position
        }))
        .collect()
}

/// A ply of a game whose value for Black is known: WTHOR's perfect-play score at its depth, a
/// solved position, the end of a finished game (`exact`); or Logistello's final score taken for
/// the game's first position with 24 empties, which only a solved ply can confirm.
#[derive(Clone, Copy, Debug)]
struct Anchor {
    ply: usize,
    black: i32,
    exact: bool,
}

/// Black's label of the positions of one game from 24 empties down to the solver's range, by
/// ply: an exact anchor's own value, or the value of the anchors on both sides when they agree.
/// The perfect-play value along a game changes only where a move loses discs, so it holds
/// between two plies that have the same value (barring errors that cancel out).
fn labels_of(path: &[Position], anchors: &[Anchor], solve_max_empties: u32) -> Vec<Option<i32>> {
    (0..path.len())
        .map(|ply| {
            let board = path[ply].board;
            let empties = board.empty_count();
            if empties <= solve_max_empties
                || empties > GAME_VALUE_MAX_EMPTIES
                || board.is_game_over()
            {
                return None;
            }
            if let Some(a) = anchors.iter().find(|a| a.ply == ply && a.exact) {
                return Some(a.black);
            }
            let before = anchors.iter().rev().find(|a| a.ply <= ply)?;
            let after = anchors.iter().find(|a| a.ply > ply)?;
            (before.black == after.black).then_some(before.black)
        })
        .collect()
}

/// The first ply of `path` with at most `empties` empties, unless the game is over there.
fn first_within(path: &[Position], empties: u32) -> Option<usize> {
    let ply = path.iter().position(|p| p.board.empty_count() <= empties)?;
    (!path[ply].board.is_game_over()).then_some(ply)
}

/// Black's labels of the positions of every game, by ply (see [`labels_of`]).
///
/// Anchors: the game's value (WTHOR's is exact at its depth; Logistello's final score is
/// assumed at 24 empties), the end of a finished game, and the game's first position in the
/// solver's range, solved. Where two anchors disagree, each depth of `options.check_empties` in
/// turn (highest first) solves the game's first position at that depth, so that the stretches
/// on both sides of it can be labelled. (Few WTHOR games end with their perfect-play score,
/// and few still have it at 16 empties: most human games lose discs somewhere in their last 24
/// moves; docs/lab/2026-11-22-trained-evaluation.md, "Training, with its figures".) Every
/// solved score goes into `cache`, which `solved` gets as it grows (see [`solve_all`]);
/// `progress` gets a line per depth.
fn game_labels(
    games: &[LabelledGame],
    options: &TrainOptions,
    cache: &mut SolvedCache,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> Vec<Vec<Option<i32>>> {
    let mut anchors = first_anchors(games);
    for (round, &depth) in check_depths(options).iter().enumerate() {
        let wanted = to_check(games, &anchors, round, depth, options);
        let boards: Vec<Board> = wanted.iter().map(|&(_, _, p)| p.board).collect();
        let what = format!("solving at {depth} empties");
        let scores = solve_all(&boards, cache, &what, progress, solved);
        add_anchors(&mut anchors, &wanted, &scores);
        progress(&format!(
            "game values checked at {depth} empties: {} positions",
            wanted.len()
        ));
    }
    games
        .par_iter()
        .zip(&anchors)
        .map(|(g, anchors)| labels_of(&path(&g.game), anchors, options.solve_max_empties))
        .collect()
}

/// The anchors every game has before anything is solved: its value (WTHOR's exact at its depth,
/// Logistello's assumed at 24 empties) and the end of a finished game.
fn first_anchors(games: &[LabelledGame]) -> Vec<Vec<Anchor>> {
    games
        .par_iter()
        .map(|g| {
            let path = path(&g.game);
            let top = match g.exact_at {
                Some(at) => path
                    .iter()
                    .position(|p| p.board.empty_count() == at)
                    .map(|ply| (ply, true)),
                None => first_within(&path, GAME_VALUE_MAX_EMPTIES).map(|ply| (ply, false)),
            };
            let mut anchors: Vec<Anchor> = top
                .map(|(ply, exact)| Anchor {
                    ply,
                    black: g.black_value,
                    exact,
                })
                .into_iter()
                .collect();
            if g.game.is_over() {
                anchors.push(Anchor {
                    ply: path.len() - 1,
                    black: g.game.final_score_for_black(),
                    exact: true,
                });
            }
            anchors
        })
        .collect()
}

/// The depths (empties) at which [`game_labels`] solves, one round each: the solver's range,
/// then each check depth, highest first.
fn check_depths(options: &TrainOptions) -> Vec<u32> {
    let mut depths = vec![options.solve_max_empties];
    let mut checks: Vec<u32> = options
        .check_empties
        .iter()
        .copied()
        .filter(|&e| e > options.solve_max_empties && e < GAME_VALUE_MAX_EMPTIES)
        .collect();
    checks.sort_unstable_by(|a, b| b.cmp(a));
    depths.extend(checks);
    depths
}

/// The `(game, ply, position)`s that round `round` of [`game_labels`] solves, at `depth`
/// empties, in the order of the games: in the first round every game's first position in the
/// solver's range, in the later ones the position at the check depth of each game that still
/// has unlabelled plies (which depends on the scores of the rounds before, in `anchors`).
fn to_check(
    games: &[LabelledGame],
    anchors: &[Vec<Anchor>],
    round: usize,
    depth: u32,
    options: &TrainOptions,
) -> Vec<(usize, usize, Position)> {
    games
        .par_iter()
        .zip(anchors)
        .enumerate()
        .filter_map(|(i, (g, anchors))| {
            let path = path(&g.game);
            if round > 0 {
                let labels = labels_of(&path, anchors, options.solve_max_empties);
                let top = anchors.first()?.ply;
                let complete = labels[top..].iter().zip(&path[top..]).all(|(label, p)| {
                    label.is_some()
                        || p.board.empty_count() <= options.solve_max_empties
                        || p.board.is_game_over()
                });
                if complete {
                    return None;
                }
            }
            let ply = first_within(&path, depth)?;
            anchors
                .iter()
                .all(|a| a.ply != ply)
                .then_some((i, ply, path[ply]))
        })
        .collect()
}

/// Adds the solved positions of a round (`scores`: each of `wanted`'s, for the side to move)
/// to their games' anchors.
fn add_anchors(anchors: &mut [Vec<Anchor>], wanted: &[(usize, usize, Position)], scores: &[i32]) {
    for (&(i, ply, position), &score) in wanted.iter().zip(scores) {
        let black = if position.to_move == Color::Black {
            score
        } else {
            -score
        };
        let at = anchors[i].partition_point(|a| a.ply < ply);
        anchors[i].insert(
            at,
            Anchor {
                ply,
                black,
                exact: true,
            },
        );
    }
}

/// The exact score of `board` for the side to move, from `known` or by the solver (then `true`).
///
/// The solver orders the moves of its larger nodes by the engine's evaluation as well (the
/// compiled-in weights, parsed once per process by [`default_evaluator`]): exact
/// scores do not depend on the ordering, and it saves time (measured:
/// docs/lab/2026-11-22-trained-evaluation.md, "Figures moved from the code's comments
/// (2026-11-26)").
fn solve(tt: &mut TranspositionTable, board: &Board, known: &HashMap<Board, i8>) -> (i32, bool) {
    if let Some(&score) = known.get(&board.canonical().0) {
        return (score as i32, false);
    }
    // Exact scores do not depend on what the table holds: no need to clear it.
    tt.new_search();
    let ordering = default_evaluator();
    let score = crate::with_search_eval!(&ordering, eval => {
        Searcher::new(tt, eval).solve(board)
    });
    (score, true)
}

/// The exact scores of `boards` (side to move), in parallel; new ones go into `cache`. Solving
/// thousands of positions takes minutes: in a list of 1,000 or more, after each tenth `progress`
/// gets a line headed `what` and `solved` the cache (a run cut short keeps what it solved); a
/// shorter list hands the cache over once at its end, if it solved anything.
fn solve_all(
    boards: &[Board],
    cache: &mut SolvedCache,
    what: &str,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> Vec<i32> {
    let start = Instant::now();
    let step = boards.len().div_ceil(10).max(1);
    let mut scores = Vec::with_capacity(boards.len());
    let mut unsaved = false;
    for chunk in boards.chunks(step) {
        let known = &cache.map;
        let results: Vec<(i32, bool)> = chunk
            .par_iter()
            .map_init(|| TranspositionTable::new(8), |tt, b| solve(tt, b, known))
            .collect();
        for (board, &(score, new)) in chunk.iter().zip(&results) {
            if new {
                cache.map.insert(board.canonical().0, score as i8);
            }
        }
        unsaved |= results.iter().any(|&(_, new)| new);
        scores.extend(results.into_iter().map(|(score, _)| score));
        let long = boards.len() >= 1000;
        if unsaved && (long || scores.len() == boards.len()) {
            solved(cache);
            unsaved = false;
        }
        if long {
            progress(&format!(
                "{what}: {} of {} positions, {:.0} s",
                scores.len(),
                boards.len(),
                start.elapsed().as_secs_f64()
            ));
        }
    }
    scores
}

/// The positions a training run solves (canonical, each once), in an order that depends only
/// on the games and `options`, never on threads or hash maps: the games' first positions in
/// the solver's range, each stage's solved samples (training, then validation), then the
/// check depths' positions round by round. Which games a check depth solves depends on the
/// scores of the round before: the list stops before the first round whose predecessor's
/// scores `known` does not hold all, and that round's depth comes with it.
fn solve_list(
    games: &[LabelledGame],
    data: &[Record],
    options: &TrainOptions,
    known: &HashMap<Board, i8>,
) -> (Vec<Board>, Option<u32>) {
    let mut list = Vec::new();
    let mut listed = HashSet::new();
    let mut push = |list: &mut Vec<Board>, board: &Board| {
        let key = board.canonical().0;
        if listed.insert(key) {
            list.push(key);
        }
    };
    let depths = check_depths(options);
    let mut anchors = first_anchors(games);
    let mut wanted = to_check(games, &anchors, 0, depths[0], options);
    for (_, _, p) in &wanted {
        push(&mut list, &p.board);
    }
    // The stages' samples: the games' labels decide only which positions beyond the solver's
    // range are samples (see `select`), not which are solved.
    let no_labels: Vec<Vec<Option<i32>>> = games
        .iter()
        .map(|g| vec![None; g.game.moves().len() + 1])
        .collect();
    let (training, validation, _) = sample_positions(games, &no_labels, data, options);
    for st in 0..STAGES {
        let entries = training_entries(&training, st, options)
            .into_iter()
            .chain(validation_entries(&validation, &training, st, options));
        for e in entries.filter(|e| e.board.empty_count() <= options.solve_max_empties) {
            push(&mut list, &e.board);
        }
    }
    for (round, &depth) in depths.iter().enumerate().skip(1) {
        let scores: Option<Vec<i32>> = wanted
            .iter()
            .map(|(_, _, p)| known.get(&p.board.canonical().0).map(|&s| s as i32))
            .collect();
        let Some(scores) = scores else {
            return (list, Some(depth));
        };
        add_anchors(&mut anchors, &wanted, &scores);
        wanted = to_check(games, &anchors, round, depth, options);
        for (_, _, p) in &wanted {
            push(&mut list, &p.board);
        }
    }
    (list, None)
}

/// What [`label_shard`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelReport {
    /// Positions of the list to solve (every shard's), as far as it is known.
    pub listed: usize,
    /// This shard's positions of the list.
    pub owned: usize,
    /// Of them, those this run solved (the others were in the cache).
    pub solved: usize,
    /// The check depth (empties) where the list stops, if it does: the positions to solve
    /// there depend on the scores of other shards' positions. Merge the shards' caches, give
    /// each shard the merged one and run them again.
    pub pending: Option<u32>,
}

/// The labelling of a training run split into shards (`iago train --label-only --shard I/N`):
/// solves this shard's positions (those whose ordinal in the list of [`solve_list`] it owns)
/// that `cache` lacks, and fits nothing. Every shard of a run lists the same positions in the
/// same order, so the shards' caches merged ([`SolvedCache::merge`]) hold every position that
/// [`train`] solves, and `train` from them solves nothing. `progress` and `solved` as for
/// [`train`].
pub fn label_shard(
    games: &[LabelledGame],
    data: &[Record],
    options: &TrainOptions,
    shard: Shard,
    cache: &mut SolvedCache,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> LabelReport {
    let mut report = LabelReport {
        listed: 0,
        owned: 0,
        solved: 0,
        pending: None,
    };
    loop {
        let (list, pending) = solve_list(games, data, options, &cache.map);
        let mine: Vec<Board> = list
            .iter()
            .enumerate()
            .skip(report.listed)
            .filter(|&(k, _)| shard.owns(k))
            .map(|(_, &b)| b)
            .collect();
        let known = mine.iter().filter(|b| cache.map.contains_key(b)).count();
        progress(&format!(
            "shard {shard}: {} positions to solve listed{}, {} of them this shard's, {known} of those already solved",
            list.len(),
            pending.map_or(String::new(), |d| format!(" (until {d} empties)")),
            mine.len()
        ));
        let before = cache.len();
        solve_all(
            &mine,
            cache,
            &format!("shard {shard} solving"),
            progress,
            solved,
        );
        report.listed = list.len();
        report.owned += mine.len();
        report.solved += cache.len() - before;
        report.pending = pending;
        // The list goes on only where this shard now holds all the scores it lacked.
        if pending.is_none() || cache.len() == before {
            return report;
        }
    }
}

/// Labels `entries` (all of one stage) with the solver, the game value or a search; exact scores
/// come from `cache` when it has them, and new ones go into it.
fn label(
    entries: &[Entry],
    options: &TrainOptions,
    eval: &PatternEval,
    cache: &mut SolvedCache,
) -> Vec<(Board, f32, LabelKind)> {
    let known = &cache.map;
    let labelled: Vec<(Board, f32, LabelKind, bool)> = entries
        .par_iter()
        .map_init(
            || (TranspositionTable::new(8), TranspositionTable::new(1)),
            |(tt, small), e| {
                let empties = e.board.empty_count();
                if let Some(exact) = e.data.exact {
                    (e.board, exact as f32, LabelKind::Solved, false)
                } else if empties <= options.solve_max_empties {
                    let (score, new) = solve(tt, &e.board, known);
                    (e.board, score as f32, LabelKind::Solved, new)
                } else if e.label_count > 0 {
                    (
                        e.board,
                        (e.label_sum / e.label_count as f64) as f32,
                        LabelKind::Game,
                        false,
                    )
                } else if let Some(score) = e.data.search {
                    (e.board, score as f32, LabelKind::SelfPlay, false)
                } else if let Some(outcome) = e
                    .data
                    .outcome_only()
                    .filter(|_| empties <= GAME_VALUE_MAX_EMPTIES)
                {
                    (e.board, outcome as f32, LabelKind::Game, false)
                } else {
                    // A fresh table for each search: what an earlier position's search left
                    // behind (results of other depths) would make the score depend on which
                    // positions a thread happened to search before, and a rerun differ.
                    small.clear();
                    let search = Searcher::new(small, eval);
                    let depth = if empties <= GAME_VALUE_MAX_EMPTIES {
                        options.searched_depth
                    } else {
                        options.bootstrap_depth
                    };
                    let score = search.score(&e.board, depth);
                    (e.board, score as f32, LabelKind::Bootstrap, false)
                }
            },
        )
        .collect();
    labelled
        .into_iter()
        .map(|(board, label, kind, new)| {
            if new {
                cache.map.insert(board.canonical().0, label as i8);
            }
            (board, label, kind)
        })
        .collect()
}

/// The training sample of a position: its table within its stage ([`context`]), canonical weight
/// indices (within a table), scalars, label.
struct Sample {
    context: u8,
    indices: [u32; FEATURES],
    scalars: [f32; SCALARS],
    label: f32,
}

fn sample(board: &Board, label: f32) -> Sample {
    let canon = canonical_indices();
    let mobility = Mobility::of(board);
    let mut indices = [0u32; FEATURES];
    let mut n = 0;
    let s = for_each_feature(board, mobility, |i| {
        indices[n] = canon[i];
        n += 1;
    });
    debug_assert_eq!(n, FEATURES);
    Sample {
        context: context(board, mobility) as u8,
        indices,
        scalars: s.map(|x| x as f32),
        label,
    }
}

/// The float weights of stage `st` while it is fitted: a table shared by the stage's tables,
/// then each table's difference from it. A table's weights are the sum of the two.
fn fit_size(st: usize) -> usize {
    (1 + TABLES_OF[st]) * STAGE_SIZE
}

/// Where the difference table of `s`'s context starts in a stage's float weights.
fn delta_base(s: &Sample) -> usize {
    (1 + s.context as usize) * STAGE_SIZE
}

fn predict(w: &[f32], s: &Sample) -> f32 {
    let (delta, scalars) = (delta_base(s), STAGE_SIZE - SCALARS);
    s.indices
        .iter()
        .map(|&i| w[i as usize] + w[delta + i as usize])
        .sum::<f32>()
        + s.scalars
            .iter()
            .enumerate()
            .map(|(k, x)| x * (w[scalars + k] + w[delta + scalars + k]))
            .sum::<f32>()
}

/// Fits `w` (one stage's [`fit_size`] float weights, canonical space, discs) to `samples` by
/// Adagrad with L2 decay.
///
/// A context's differences decay by `context_decay` per pass over the samples whatever their
/// count, so that a configuration seen rarely in a context keeps the shared weight and only the
/// common ones part. The rate was chosen on a 20,000-game sample by the exact 24-empties error
/// on the validation years: lower and higher rates both did worse, and the decay of the shared
/// table (1e-4 or 1e-3 per update) hardly mattered (chosen by measurement:
/// docs/lab/2026-11-22-trained-evaluation.md, "Figures moved from the code's comments
/// (2026-11-26)").
fn fit(w: &mut [f32], samples: &[Sample], options: &TrainOptions, seed: u64) {
    const DECAY: f32 = 1e-4;
    let scalars = STAGE_SIZE - SCALARS;
    let mut seen = vec![0u32; w.len()];
    for s in samples {
        let delta = delta_base(s);
        for &i in &s.indices {
            seen[delta + i as usize] += 1;
        }
        for j in 0..SCALARS {
            seen[delta + scalars + j] += 1;
        }
    }
    let decay: Vec<f32> = seen
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            if i < STAGE_SIZE {
                DECAY
            } else {
                options.context_decay / n.max(1) as f32
            }
        })
        .collect();
    let rate = options.learning_rate;
    let mut accumulated = vec![1e-3f32; w.len()];
    let mut step = |w: &mut [f32], i: usize, g: f32, rate: f32| {
        let g = g + decay[i] * w[i];
        accumulated[i] += g * g;
        w[i] -= rate * g / accumulated[i].sqrt();
    };
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    for epoch in 0..options.epochs {
        shuffle(&mut order, seed.wrapping_add(epoch as u64));
        for &k in &order {
            let s = &samples[k as usize];
            let delta = delta_base(s);
            let error = predict(w, s) - s.label;
            for &i in &s.indices {
                step(w, i as usize, error, rate);
                step(w, delta + i as usize, error, rate);
            }
            for (j, x) in s.scalars.iter().enumerate() {
                step(w, scalars + j, error * x, rate * 0.1);
                step(w, delta + scalars + j, error * x, rate * 0.1);
            }
        }
    }
}

fn mae(eval: &PatternEval, labelled: &[(Board, f32, LabelKind)]) -> f64 {
    if labelled.is_empty() {
        return 0.0;
    }
    labelled
        .iter()
        .map(|(b, label, _)| (eval.evaluate_fine(b) as f64 / SCALE as f64 - *label as f64).abs())
        .sum::<f64>()
        / labelled.len() as f64
}

/// Writes the stage's canonical float weights into its i16 tables: each table is the shared
/// one plus its differences (every configuration gets its canonical twin's weight).
fn export(weights: &mut [i16], st: usize, w: &[f32]) {
    let canon = canonical_indices();
    for context in 0..TABLES_OF[st] {
        let table = FIRST_TABLE[st] + context;
        let delta = &w[(1 + context) * STAGE_SIZE..(2 + context) * STAGE_SIZE];
        for i in 0..STAGE_SIZE {
            let c = canon[i] as usize;
            let v = ((w[c] + delta[c]) * SCALE as f32).round();
            weights[table * STAGE_SIZE + i] = v.clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        }
    }
}

/// The positions of stage `st` that get a label: up to 24 empties, in the solver's range every
/// position (solved exactly), beyond it those with a trusted game value and, for training only,
/// up to `max_searched` of the others (scored by a search); further from the end, a sample for
/// the bootstrapping search. Validation keeps to exact labels up to 24 empties, so that its
/// errors are against the truth.
fn select(
    mut entries: Vec<Entry>,
    st: usize,
    options: &TrainOptions,
    training: bool,
) -> Vec<Entry> {
    if stage_empties(st).1 <= GAME_VALUE_MAX_EMPTIES {
        let (mut solved, rest): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| {
            e.board.empty_count() <= options.solve_max_empties || e.data.exact.is_some()
        });
        solved.truncate(options.max_solved);
        let (known, unknown): (Vec<Entry>, Vec<Entry>) = rest
            .into_iter()
            .partition(|e| e.label_count > 0 || e.data.outcome_only().is_some());
        solved.extend(known.into_iter().take(options.max_labelled));
        if training {
            solved.extend(unknown.into_iter().take(options.max_searched));
        }
        solved
    } else {
        entries.truncate(options.max_per_stage);
        entries
    }
}

/// The training and the validation positions of `games`, with their games' labels (by game,
/// by ply: see [`game_labels`]) and, for training, the off-path children and the positions of
/// the self-play records `data` (with what was taken from them, when there are any).
fn sample_positions(
    games: &[LabelledGame],
    labels: &[Vec<Option<i32>>],
    data: &[Record],
    options: &TrainOptions,
) -> (Positions, Positions, Option<DataReport>) {
    let mut training = Positions::default();
    let mut validation = Positions::default();
    let off_path = OffPath {
        rate: options.off_path,
        search_rate: options.off_path_search,
        max_empties: options.solve_max_empties,
        seed: options.seed,
    };
    for (g, labels) in games.iter().zip(labels) {
        if g.validation {
            validation.add(g, labels, None);
        } else {
            training.add(g, labels, Some(&off_path));
        }
    }
    let added = (!data.is_empty()).then(|| training.add_data(data, &validation));
    (training, validation, added)
}

/// The training samples of stage `st`, in a fixed order (see [`select`]).
fn training_entries(training: &Positions, st: usize, options: &TrainOptions) -> Vec<Entry> {
    select(training.stage(st, options.seed, None), st, options, true)
}

/// The validation samples of stage `st` (none that training holds), in a fixed order.
fn validation_entries(
    validation: &Positions,
    training: &Positions,
    st: usize,
    options: &TrainOptions,
) -> Vec<Entry> {
    let mut held_out = select(
        validation.stage(st, options.seed, Some(training)),
        st,
        options,
        false,
    );
    held_out.truncate(options.validation_per_stage);
    held_out
}

/// Trains the evaluation on `games` and the self-play records `data` (none: the archives
/// alone, as before there was data); exact scores come from and go to `cache`; `progress`
/// receives one line per step, and `solved` the cache after each stage that solved positions.
pub fn train(
    games: &[LabelledGame],
    data: &[Record],
    options: &TrainOptions,
    cache: &mut SolvedCache,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> (PatternEval, Vec<StageReport>, ExactReport) {
    let start = Instant::now();
    let labels = game_labels(games, options, cache, progress, solved);
    let (training, validation, added) = sample_positions(games, &labels, data, options);
    progress(&format!(
        "{} games: {} training positions, {} validation positions (before removing overlaps)",
        games.len(),
        training.map.len(),
        validation.map.len()
    ));
    if let Some(added) = added {
        progress(&format!(
            "self-play data: {} records, {} distinct positions ({} also in the archives' training games, {} left out as validation positions): {} training positions",
            added.records,
            added.positions,
            added.shared,
            added.validation,
            training.map.len()
        ));
    }
    let mut weights = vec![0i16; TABLES * STAGE_SIZE];
    let mut w = vec![0f32; STAGE_SIZE];
    let mut reports = Vec::new();
    for st in 0..STAGES {
        let stage_start = Instant::now();
        let eval = PatternEval::from_weights(weights.clone());
        let entries = training_entries(&training, st, options);
        let known = cache.len();
        let labelled = label(&entries, options, &eval, cache);
        let samples: Vec<Sample> = labelled.par_iter().map(|(b, l, _)| sample(b, *l)).collect();
        if w.len() != fit_size(st) {
            // Warm start from the shared table of the stage before only.
            w.truncate(STAGE_SIZE);
            w.resize(fit_size(st), 0.0);
        }
        fit(&mut w, &samples, options, options.seed ^ (st as u64) << 8);
        export(&mut weights, st, &w);
        let eval = PatternEval::from_weights(weights.clone());
        let held_out = validation_entries(&validation, &training, st, options);
        let held_out = label(&held_out, options, &eval, cache);
        if cache.len() > known {
            solved(cache);
        }
        let kinds: Vec<(LabelKind, usize)> = [
            LabelKind::Solved,
            LabelKind::Game,
            LabelKind::Bootstrap,
            LabelKind::SelfPlay,
        ]
        .into_iter()
        .map(|k| (k, labelled.iter().filter(|(_, _, kind)| *kind == k).count()))
        .filter(|&(_, n)| n > 0)
        .collect();
        let report = StageReport {
            stage: st,
            empties: stage_empties(st),
            kinds,
            train: labelled.len(),
            train_mae: mae(&eval, &labelled),
            validation: held_out.len(),
            validation_mae: mae(&eval, &held_out),
            seconds: stage_start.elapsed().as_secs_f64(),
        };
        progress(&format!(
            "stage {:>2} (empties {:>2}-{:>2}): {} samples ({}), train MAE {:.2}, validation {} MAE {:.2}, {:.0} s",
            st,
            report.empties.0,
            report.empties.1,
            report.train,
            report
                .kinds
                .iter()
                .map(|(k, n)| format!("{n} {}", k.name()))
                .collect::<Vec<_>>()
                .join(", "),
            report.train_mae,
            report.validation,
            report.validation_mae,
            report.seconds
        ));
        reports.push(report);
    }
    let eval = PatternEval::from_weights(weights);
    let exact = exact_report(games, &training, &eval, options);
    progress(&format!("done in {:.0} s", start.elapsed().as_secs_f64()));
    (eval, reports, exact)
}

/// Errors against WTHOR's exact scores at their theoretical depth on the validation games.
fn exact_report(
    games: &[LabelledGame],
    training: &Positions,
    eval: &PatternEval,
    options: &TrainOptions,
) -> ExactReport {
    let mut seen = std::collections::HashSet::new();
    let mut positions: Vec<(Board, i32)> = Vec::new();
    for g in games.iter().filter(|g| g.validation) {
        let Some(at) = g.exact_at else { continue };
        let mut position = g.game.start();
        for &mv in g.game.moves() {
            if position.board.empty_count() == at {
                break;
            }
            position = position.try_play(mv).expect("legal");
        }
        let board = position.board;
        if board.empty_count() != at || board.is_game_over() {
            continue;
        }
        let key = board.canonical().0;
        if training.map.contains_key(&key) || !seen.insert(key) {
            continue;
        }
        let value = if position.to_move == Color::Black {
            g.black_value
        } else {
            -g.black_value
        };
        positions.push((board, value));
    }
    if positions.is_empty() {
        return ExactReport::default();
    }
    let n = positions.len() as f64;
    let static_mae = positions
        .iter()
        .map(|(b, v)| (eval.evaluate(b) - v).abs() as f64)
        .sum::<f64>()
        / n;
    let hand_mae = positions
        .iter()
        .map(|(b, v)| (HandEval.evaluate(b) - v).abs() as f64)
        .sum::<f64>()
        / n;
    let searched: Vec<&(Board, i32)> = positions.iter().take(options.depth8_positions).collect();
    let depth8_sum: f64 = searched
        .par_iter()
        .map_init(
            || TranspositionTable::new(16),
            |tt, (b, v)| {
                tt.clear();
                let search =
                    Searcher::new(tt, eval).with_level(crate::search::ProbCutLevel::new(87));
                (search.score(b, 8) - v).abs() as f64
            },
        )
        .sum();
    ExactReport {
        positions: positions.len(),
        static_mae,
        hand_mae,
        depth8_positions: searched.len(),
        depth8_mae: depth8_sum / searched.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;

    /// A context's table is the shared one plus its differences, and the decay of the
    /// differences decides how much of what one context's samples teach the other keeps.
    #[test]
    fn contexts_share_a_table_and_part_only_where_the_samples_pay_for_it() {
        let board = position("f5d6c3d3c4");
        let mut s = sample(&board, 10.0);
        s.context = 1;
        let other = Sample {
            context: 0,
            indices: s.indices,
            scalars: s.scalars,
            label: 0.0,
        };
        let fitted = |context_decay: f32| {
            let options = TrainOptions {
                context_decay,
                epochs: 30,
                ..TrainOptions::default()
            };
            let mut w = vec![0f32; fit_size(3)];
            let samples = [Sample { ..s }, Sample { ..s }, Sample { ..s }];
            fit(&mut w, &samples, &options, 1);
            (predict(&w, &s), predict(&w, &other), w)
        };
        // Strong decay: context 1's three samples move the shared table, context 0 follows.
        let (own, shared, _) = fitted(1e6);
        assert!((own - 10.0).abs() < 0.5, "{own}");
        assert!((own - shared).abs() < 0.2, "{own} {shared}");
        // No decay: the shared table and context 1's differences learn alike, each about half.
        let (own, shared, w) = fitted(0.0);
        assert!((own - 10.0).abs() < 0.5, "{own}");
        assert!((shared - own / 2.0).abs() < 0.5, "{own} {shared}");
        // Exported tables are the sums of the shared weights and the context's differences.
        let mut weights = vec![0i16; TABLES * STAGE_SIZE];
        export(&mut weights, 3, &w);
        let scalars = (STAGE_SIZE - SCALARS..STAGE_SIZE).map(|i| i as u32);
        for i in s.indices.iter().copied().chain(scalars) {
            let i = i as usize;
            for context in 0..TABLES_OF[3] {
                let sum = w[i] + w[(1 + context) * STAGE_SIZE + i];
                let exported = weights[(FIRST_TABLE[3] + context) * STAGE_SIZE + i];
                assert_eq!(
                    exported,
                    (sum * SCALE as f32).round() as i16,
                    "{i} {context}"
                );
            }
        }
        assert!(
            w[STAGE_SIZE + s.indices[0] as usize] == 0.0,
            "context 0 saw no sample"
        );
    }

    /// [`label`]'s labels and kinds for `entries`, on one thread.
    fn label_entries(
        entries: &[Entry],
        options: &TrainOptions,
        eval: &PatternEval,
    ) -> Vec<(f32, LabelKind)> {
        let mut cache = SolvedCache::default();
        label(entries, options, eval, &mut cache)
            .into_iter()
            .map(|(_, l, k)| (l, k))
            .collect()
    }

    fn position(moves: &str) -> Board {
        let mut board = Board::start();
        for k in (0..moves.len()).step_by(2) {
            board = board.play(Move::parse(&moves[k..k + 2]).unwrap());
        }
        board
    }

    /// A long list of solves reports each tenth and hands the cache over as it grows, so that
    /// a run cut short keeps what it solved; a second pass over the same list solves nothing.
    #[test]
    fn solve_all_reports_each_tenth_and_saves_as_it_goes() {
        let mut boards = Vec::new();
        let mut seed = 7u64;
        while boards.len() < 1000 {
            let mut board = Board::start();
            while board.empty_count() > 9 && !board.is_game_over() {
                let moves: Vec<_> = board.legal_moves().into_iter().collect();
                if moves.is_empty() {
                    board = board.pass();
                    continue;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                board = board.play(Move::Play(moves[(seed >> 33) as usize % moves.len()]));
            }
            if !board.is_game_over() && !board.legal_moves().is_empty() {
                boards.push(board);
            }
        }
        let distinct: std::collections::HashSet<Board> =
            boards.iter().map(|b| b.canonical().0).collect();
        let mut cache = SolvedCache::default();
        let (mut lines, mut saves) = (Vec::new(), Vec::new());
        let scores = solve_all(
            &boards,
            &mut cache,
            "at 9 empties",
            &mut |line| lines.push(line.to_string()),
            &mut |c| saves.push(c.len()),
        );
        assert_eq!(lines.len(), 10, "{lines:?}");
        assert!(lines[0].starts_with("at 9 empties: 100 of 1000 positions"));
        assert!(lines[9].starts_with("at 9 empties: 1000 of 1000 positions"));
        assert_eq!(saves.len(), 10);
        assert!(saves.windows(2).all(|w| w[0] < w[1]), "{saves:?}");
        assert_eq!(*saves.last().unwrap(), distinct.len());
        // Spot checks against the plain solver.
        let tt = TranspositionTable::new(1);
        for (board, &score) in boards.iter().zip(&scores).step_by(97) {
            let exact = Searcher::new(&tt, &HandEval).solve(board);
            assert_eq!(score, exact);
        }
        let mut again = Vec::new();
        let rescored = solve_all(&boards, &mut cache, "again", &mut |_| {}, &mut |c| {
            again.push(c.len())
        });
        assert_eq!(rescored, scores);
        assert!(again.is_empty(), "nothing new to save");
    }

    #[test]
    fn off_path_children_are_legal_repeatable_and_in_the_labelled_ranges() {
        let board = position("f5d6c3d3c4f4f6f3e6e7").canonical().0;
        let all = OffPath {
            rate: 1.0,
            max_empties: 16,
            search_rate: 1.0,
            seed: 1,
        };
        let child = all
            .child(&board)
            .expect("rate 1 gives every position a child");
        assert_eq!(child.empty_count(), board.empty_count() - 1);
        assert!(
            board
                .legal_moves()
                .iter()
                .any(|sq| board.play(Move::Play(sq)) == child)
        );
        assert_eq!(all.child(&board), Some(child));
        // Beyond 25 empties the search rate decides, the solver's does not.
        let none = OffPath {
            search_rate: 0.0,
            ..all
        };
        assert_eq!(none.child(&board), None);
        assert_eq!(OffPath { rate: 0.0, ..all }.child(&board), Some(child));
        // Between the solver's range and 25 empties the search rate decides too: such children
        // have no game value and are scored by a search.
        let mut late = board;
        while late.empty_count() > 20 {
            let sq = late.legal_moves().iter().next().expect("a move");
            late = late.play(Move::Play(sq));
        }
        assert_eq!(late.empty_count(), 20);
        assert_eq!(all.child(&late).map(|c| c.empty_count()), Some(19));
        assert_eq!(none.child(&late), None);
        let solver = OffPath {
            max_empties: 19,
            ..none
        };
        assert_eq!(solver.child(&late).map(|c| c.empty_count()), Some(19));
    }

    /// Between the solver's range and 24 empties, training takes the positions without a game
    /// value too (up to `max_searched`), scored by a search of `searched_depth` plies; the
    /// validation set keeps to game values. A search's score does not depend on what the
    /// thread searched before: a position searched after its grandparent (whose search left
    /// shallower results for it) scores as when searched first.
    #[test]
    fn searched_labels_fill_the_game_value_stages_and_do_not_depend_on_order() {
        // Positions of a real game: a grandparent at 36 empties and its grandchild.
        let path = path(&wthor_game().game);
        let at = |empties: u32| path[first_within(&path, empties).unwrap()].board;
        let (grandparent, grandchild) = (at(36), at(34));
        assert_eq!(
            (grandparent.empty_count(), grandchild.empty_count()),
            (36, 34)
        );
        let entry = |board: Board, label_count: u32| Entry {
            board,
            label_sum: 10.0 * label_count as f64,
            label_count,
            data: DataLabels::default(),
        };
        // Positions of one stage: one with a game value, two without.
        let late = at(22);
        assert!(late.legal_moves().count() >= 3);
        let sibling = |k: usize| {
            let sq = late.legal_moves().iter().nth(k).unwrap();
            late.play(Move::Play(sq))
        };
        let entries = vec![
            entry(sibling(0), 1),
            entry(sibling(1), 0),
            entry(sibling(2), 0),
        ];
        let st = stage(21);
        let options = TrainOptions {
            max_searched: 1,
            searched_depth: 3,
            ..TrainOptions::default()
        };
        let picked = |training: bool| -> Vec<u32> {
            select(entries.clone(), st, &options, training)
                .iter()
                .map(|e| e.label_count)
                .collect()
        };
        assert_eq!(picked(true), [1, 0]);
        assert_eq!(picked(false), [1]);

        // A small evaluation with weights all over the place, so that scores differ.
        let weights = (0..TABLES * STAGE_SIZE)
            .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57) as i16 - 64)
            .collect();
        let eval = PatternEval::from_weights(weights);
        let options = TrainOptions {
            searched_depth: 4,
            bootstrap_depth: 4,
            ..TrainOptions::default()
        };
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let labels = |order: &[Board]| -> HashMap<Board, f32> {
            let entries: Vec<Entry> = order.iter().map(|&b| entry(b, 0)).collect();
            let mut cache = SolvedCache::default();
            one_thread
                .install(|| label(&entries, &options, &eval, &mut cache))
                .into_iter()
                .map(|(b, l, kind)| {
                    assert_eq!(kind, LabelKind::Bootstrap);
                    (b, l)
                })
                .collect()
        };
        // The game's positions from 36 to 22 empties, searched in turn, in the reverse order,
        // and each alone.
        let searched: Vec<Board> = path
            .iter()
            .map(|p| p.board)
            .filter(|b| (22..=36).contains(&b.empty_count()))
            .collect();
        assert!(searched.contains(&grandchild) && searched.len() >= 15);
        let forward = labels(&searched);
        let mut reversed = searched.clone();
        reversed.reverse();
        assert_eq!(forward, labels(&reversed));
        for board in &searched {
            assert_eq!(forward[board], labels(&[*board])[board]);
        }
        assert!(forward.values().any(|&l| l != 0.0));
    }

    fn wthor_game() -> LabelledGame {
        let bytes = include_bytes!("../../tests/data/wthor/WTH_2022.wtb");
        wthor_games(&crate::train::wthor::parse(bytes).unwrap(), &[])
            .into_iter()
            .find(|g| g.game.is_over() && g.exact_at == Some(24))
            .expect("a finished WTHOR game")
    }

    /// Plies are labelled by an exact anchor, or by the anchors on both sides when they agree;
    /// only from 24 empties down to the solver's range.
    #[test]
    fn labels_span_the_plies_between_agreeing_anchors() {
        let game = wthor_game();
        let path = path(&game.game);
        let ply = |e: u32| first_within(&path, e).unwrap();
        let (p24, p18, p16) = (ply(24), ply(18), ply(16));
        assert_eq!(path[p24].board.empty_count(), 24);
        let anchor = |ply, black, exact| Anchor { ply, black, exact };
        let labels = |anchors: &[Anchor]| labels_of(&path, anchors, 16);
        let agree = labels(&[anchor(p24, 6, true), anchor(p16, 6, true)]);
        assert!(agree[p24..p16].iter().all(|&l| l == Some(6)), "{agree:?}");
        assert!(
            agree[..p24]
                .iter()
                .chain(&agree[p16..])
                .all(Option::is_none)
        );
        // Disagreeing at 24 and 16, a solved ply at 18 labels the stretch it agrees with.
        let split = labels(&[
            anchor(p24, 6, true),
            anchor(p18, 6, true),
            anchor(p16, 4, true),
        ]);
        assert!(split[p24..=p18].iter().all(|&l| l == Some(6)), "{split:?}");
        assert!(split[p18 + 1..].iter().all(Option::is_none), "{split:?}");
        let only_exact = labels(&[anchor(p24, 6, true), anchor(p16, 4, true)]);
        let labelled: Vec<usize> = (0..path.len())
            .filter(|&p| only_exact[p].is_some())
            .collect();
        assert_eq!(labelled, [p24]);
        // An assumed value (Logistello's) labels nothing, not even its own ply, unless confirmed.
        assert!(
            labels(&[anchor(p24, 6, false), anchor(p16, 4, true)])
                .iter()
                .all(Option::is_none)
        );
        assert_eq!(
            labels(&[anchor(p24, 6, false), anchor(p16, 6, true)])[p24],
            Some(6)
        );
    }

    /// The whole labelling with the solver: the anchors come from solved positions at 16 and,
    /// where the values disagree, at 18 empties; unfinished games keep only their exact ply.
    #[test]
    fn game_labels_solve_the_checks_where_values_disagree() {
        let game = wthor_game();
        let path = path(&game.game);
        let tt = TranspositionTable::new(4);
        let exact = |ply: usize| {
            let p = path[ply];
            let score = Searcher::new(&tt, &HandEval).solve(&p.board);
            if p.to_move == Color::Black {
                score
            } else {
                -score
            }
        };
        let (p24, p18, p16) = (
            first_within(&path, 24).unwrap(),
            first_within(&path, 18).unwrap(),
            first_within(&path, 16).unwrap(),
        );
        let (e18, e16) = (exact(p18), exact(p16));
        let value = e16 + 2;
        let mut short = Game::from_position(Rules::OTHELLO, game.game.start());
        for &mv in &game.game.moves()[..40] {
            short.play(mv).unwrap();
        }
        let games = [
            LabelledGame {
                black_value: value,
                ..game.clone()
            },
            LabelledGame {
                game: short,
                ..game.clone()
            },
        ];
        let options = TrainOptions {
            check_empties: vec![18],
            ..TrainOptions::default()
        };
        let mut cache = SolvedCache::default();
        let labels = game_labels(&games, &options, &mut cache, &mut |_| {}, &mut |_| {});
        let expected: Vec<Option<i32>> = (0..path.len())
            .map(|ply| match ply {
                p if p == p24 => Some(value),
                p if p < p24 || p >= p16 => None,
                p if p < p18 => (e18 == value).then_some(value),
                p if p == p18 => Some(e18),
                _ => (e18 == e16).then_some(e16),
            })
            .collect();
        assert_eq!(labels[0], expected);
        let short_labelled: Vec<usize> = (0..labels[1].len())
            .filter(|&p| labels[1][p].is_some())
            .collect();
        assert_eq!(short_labelled, [p24]);
        assert_eq!(
            cache.len(),
            2,
            "the positions at 16 and 18 empties of the finished game"
        );
    }

    /// A run's labelling split into three shards, each solving its share of one list (in two
    /// passes: which positions the check depth solves depends on every shard's scores), merges
    /// into the very cache of one run; training from it solves nothing and fits the same
    /// weights.
    #[test]
    fn sharded_labelling_merges_into_the_cache_and_the_weights_of_one_run() {
        let wthor = |bytes: &[u8], n: usize| {
            let mut games = wthor_games(&crate::train::wthor::parse(bytes).unwrap(), &[2023]);
            games.truncate(n);
            games
        };
        let mut games = wthor(include_bytes!("../../tests/data/wthor/WTH_2022.wtb"), 40);
        games.extend(wthor(
            include_bytes!("../../tests/data/wthor/WTH_2023.wtb"),
            20,
        ));
        assert_eq!(games.iter().filter(|g| g.validation).count(), 20);
        let options = TrainOptions {
            validation_years: vec![2023],
            max_per_stage: 30,
            max_labelled: 40,
            max_solved: 40,
            solve_max_empties: 10,
            check_empties: vec![13],
            max_searched: 20,
            searched_depth: 2,
            bootstrap_depth: 2,
            epochs: 1,
            validation_per_stage: 20,
            depth8_positions: 4,
            ..TrainOptions::default()
        };
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        };
        let (one, two) = (pool(1), pool(2));
        let mut single = SolvedCache::default();
        let (weights, _, _) =
            two.install(|| train(&games, &[], &options, &mut single, &mut |_| {}, &mut |_| {}));

        // The list is the same on any number of threads; it stops before the check depth
        // until the first round's scores are known, and then it is what one run solves.
        let nothing = HashMap::new();
        let (first, pending) = two.install(|| solve_list(&games, &[], &options, &nothing));
        assert_eq!(pending, Some(13));
        assert_eq!(
            one.install(|| solve_list(&games, &[], &options, &nothing)),
            (first.clone(), pending)
        );
        let (list, pending) = two.install(|| solve_list(&games, &[], &options, &single.map));
        assert_eq!(pending, None);
        assert!(list.len() > first.len() && list.starts_with(&first));
        let listed: HashSet<Board> = list.iter().copied().collect();
        assert_eq!(listed.len(), list.len(), "each position listed once");
        assert_eq!(listed, single.map.keys().copied().collect::<HashSet<_>>());

        // Three shards: a pass, the caches merged and handed to every shard, a second pass.
        let merge_all = |caches: &[SolvedCache]| {
            let mut merged = SolvedCache::default();
            for cache in caches {
                merged.merge(cache).unwrap();
            }
            merged
        };
        let mut caches: Vec<SolvedCache> = (0..3).map(|_| SolvedCache::default()).collect();
        let mut solved_by_shards = 0;
        for pending in [Some(13), None] {
            for (i, cache) in caches.iter_mut().enumerate() {
                let shard = Shard::new(i as u32, 3).unwrap();
                let mut run = || {
                    two.install(|| {
                        label_shard(
                            &games,
                            &[],
                            &options,
                            shard,
                            cache,
                            &mut |_| {},
                            &mut |_| {},
                        )
                    })
                };
                let report = run();
                assert_eq!(report.pending, pending, "{shard}: {report:?}");
                assert!(report.solved > 0 && report.owned >= report.solved);
                solved_by_shards += report.solved;
                // Run again (resumed from its cache): nothing left to solve.
                assert_eq!(run().solved, 0);
            }
            let merged = merge_all(&caches);
            for cache in &mut caches {
                cache.merge(&merged).unwrap();
            }
        }
        let merged = merge_all(&caches);
        assert_eq!(solved_by_shards, single.len(), "each position solved once");
        assert_eq!(merged.to_bytes(), single.to_bytes());

        // Training from the merged cache solves nothing and fits the same weights.
        let mut cache = SolvedCache::from_bytes(&merged.to_bytes()).unwrap();
        let mut saves = 0;
        let (again, _, _) = one.install(|| {
            train(&games, &[], &options, &mut cache, &mut |_| {}, &mut |_| {
                saves += 1
            })
        });
        assert_eq!(saves, 0);
        assert!(again.to_bytes() == weights.to_bytes());

        // A process that is the whole work goes through every pass at once.
        let mut whole = SolvedCache::default();
        let report = label_shard(
            &games,
            &[],
            &options,
            Shard::ALL,
            &mut whole,
            &mut |_| {},
            &mut |_| {},
        );
        let n = single.len();
        assert_eq!(
            report,
            LabelReport {
                listed: n,
                owned: n,
                solved: n,
                pending: None
            }
        );
        assert_eq!(whole.to_bytes(), single.to_bytes());
    }

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

    /// Self-play records join the training positions, never the validation ones: an exact
    /// label makes a solved sample at any depth, a search label replaces the search of a
    /// position without a game value, an outcome alone counts as a game value; a game value of
    /// the archives beats a search label. Mirror images are one position.
    #[test]
    fn self_play_labels_join_the_training_samples_by_kind() {
        use crate::train::chunk::SearchLabel;
        let path = path(&wthor_game().game);
        let at = |empties: u32| path[first_within(&path, empties).unwrap()].board;
        let record = |board: Board| Record {
            board,
            game: 0,
            count: 1,
            ply: 0,
            outcome: None,
            search: None,
            exact: None,
        };
        let search = |score| Some(SearchLabel { score, depth: 10 });
        // A position off the game's path, which only the validation games hold.
        let held_out = {
            let b = at(30);
            b.legal_moves()
                .iter()
                .map(|sq| b.play(Move::Play(sq)))
                .find(|c| {
                    path.iter()
                        .all(|p| p.board.canonical().0 != c.canonical().0)
                })
                .unwrap()
        };
        let (exact20, searched22, outcome23, game21) = (at(20), at(22), at(23), at(21));
        let mirrored = searched22.transform(crate::board::Symmetry::Transpose);
        let records = [
            Record {
                exact: Some(6),
                search: search(3),
                outcome: Some(6),
                ..record(exact20)
            },
            Record {
                search: search(-5),
                outcome: Some(2),
                ..record(searched22)
            },
            Record {
                search: search(-7),
                ..record(mirrored)
            },
            Record {
                outcome: Some(4),
                ..record(outcome23)
            },
            Record {
                search: search(9),
                ..record(game21)
            },
            Record {
                search: search(1),
                ..record(held_out)
            },
        ];
        let mut training = Positions::default();
        let mut label = vec![None; path.len()];
        label[first_within(&path, 21).unwrap()] = Some(12);
        let game = LabelledGame {
            validation: false,
            ..wthor_game()
        };
        training.add(&game, &label, None);
        let before = training.map.len();
        let mut validation = Positions::default();
        validation
            .map
            .insert(held_out.canonical().0, Entry::new(held_out));
        let report = training.add_data(&records, &validation);
        assert_eq!(
            report,
            DataReport {
                records: 6,
                positions: 5,
                validation: 1,
                shared: 4,
            }
        );
        assert_eq!(training.map.len(), before);
        assert!(!training.map.contains_key(&held_out.canonical().0));
        let options = TrainOptions::default();
        let entries: Vec<Entry> = [exact20, searched22, outcome23, game21]
            .iter()
            .map(|b| training.map[&b.canonical().0])
            .collect();
        let eval = PatternEval::from_weights(vec![0; TABLES * STAGE_SIZE]);
        let labelled = label_entries(&entries, &options, &eval);
        let black = |board: Board, value: f32| {
            let ply = path.iter().position(|p| p.board == board).unwrap();
            if path[ply].to_move == Color::Black {
                value
            } else {
                -value
            }
        };
        assert_eq!(
            labelled,
            [
                (6.0, LabelKind::Solved),
                (-6.0, LabelKind::SelfPlay),
                (4.0, LabelKind::Game),
                (black(game21, 12.0), LabelKind::Game),
            ]
        );
        // The exact label puts its position with the solved ones, the outcome with the game
        // values, the search label with the searched ones (training only).
        let picked = |options: &TrainOptions, training| -> Vec<Board> {
            select(entries.clone(), stage(22), options, training)
                .iter()
                .map(|e| e.board)
                .collect()
        };
        let no_solved = TrainOptions {
            max_solved: 0,
            ..TrainOptions::default()
        };
        assert_eq!(picked(&no_solved, true), [outcome23, game21, searched22]);
        let no_searched = TrainOptions {
            max_searched: 0,
            ..TrainOptions::default()
        };
        assert_eq!(picked(&no_searched, true), [exact20, outcome23, game21]);
        assert_eq!(picked(&options, false), [exact20, outcome23, game21]);
        assert_eq!(picked(&options, true).len(), 4);
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
