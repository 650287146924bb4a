//! What a training run reads and how much it does: the options, and the archive games with
//! the values their positions are labelled with.

use crate::board::Game;
use crate::records::logbook::LogbookGame;
use crate::records::wthor::WthorGame;
use crate::search::Selectivity;

/// Positions up to this many empties are labelled by game values or the solver, the others by
/// the bootstrapping search.
pub(super) const GAME_VALUE_MAX_EMPTIES: u32 = 24;

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
    /// The selectivity of the bootstrapping search (its Multi-ProbCut; none by default).
    pub bootstrap_selectivity: Selectivity,
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
            bootstrap_selectivity: Selectivity::NONE,
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
