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
//!    - earlier: a search of `bootstrap_depth` plies (full width unless `bootstrap_selectivity`
//!      says otherwise) whose leaves fall in the stages already fitted; [`refit`] fits only these
//!      stages again, from a weight file, and solves nothing;
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
//! The measurements behind these choices are in docs/lab/2026-11-22-trained-evaluation.md.

mod fit;
mod labels;
mod options;
mod positions;
mod shard;
mod solved_cache;
mod solving;

pub use labels::LabelKind;
pub use options::{LabelledGame, TrainOptions, logbook_games, wthor_games};
pub use shard::label_shard;
pub use solved_cache::SolvedCache;

use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Color};
use crate::eval::pattern::{STAGE_SIZE, STAGES, TABLES, stage_empties};
use crate::eval::{Evaluator, HandEval, PatternEval};
use crate::search::Scorer;
use crate::search::tt::TranspositionTable;
use crate::train::chunk::Record;

use fit::{Sample, export, fit, fit_size, mae, sample, unfitted};
use labels::{game_labels, label};
use options::GAME_VALUE_MAX_EMPTIES;
use positions::{Positions, sample_positions, training_entries, validation_entries};

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
    fit_stages(games, data, options, None, cache, progress, solved)
}

/// Refits the stages of `start` whose positions all have more than `beyond` empties and keeps
/// its other stages: the stages of the midgame, labelled by the bootstrapping search over the
/// stages already fitted, without the solving that the stages near the end need when `beyond`
/// is at least 24. The first refitted stage starts from `start`'s own tables of that stage.
pub fn refit(
    games: &[LabelledGame],
    data: &[Record],
    options: &TrainOptions,
    start: (&PatternEval, u32),
    cache: &mut SolvedCache,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> (PatternEval, Vec<StageReport>, ExactReport) {
    fit_stages(games, data, options, Some(start), cache, progress, solved)
}

/// [`train`] (`start_from` none) or [`refit`].
fn fit_stages(
    games: &[LabelledGame],
    data: &[Record],
    options: &TrainOptions,
    start_from: Option<(&PatternEval, u32)>,
    cache: &mut SolvedCache,
    progress: &mut dyn FnMut(&str),
    solved: &mut dyn FnMut(&SolvedCache),
) -> (PatternEval, Vec<StageReport>, ExactReport) {
    let start = Instant::now();
    let first_stage = start_from.map_or(0, |(_, beyond)| {
        (0..STAGES)
            .find(|&st| stage_empties(st).0 > beyond)
            .unwrap_or(STAGES)
    });
    let labels = if first_stage == STAGES || stage_empties(first_stage).0 > GAME_VALUE_MAX_EMPTIES {
        // Only the bootstrapping search labels these stages: no game values, nothing solved.
        games
            .iter()
            .map(|g| vec![None; g.game.moves().len() + 1])
            .collect()
    } else {
        game_labels(games, options, cache, progress, solved)
    };
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
    let mut weights = match start_from {
        Some((eval, _)) => eval.weights().to_vec(),
        None => vec![0i16; TABLES * STAGE_SIZE],
    };
    let mut w = vec![0f32; STAGE_SIZE];
    let mut reports = Vec::new();
    for st in first_stage..STAGES {
        let stage_start = Instant::now();
        let eval = PatternEval::from_weights(weights.clone());
        let entries = training_entries(&training, st, options);
        let known = cache.len();
        let labelled = label(&entries, options, &eval, cache);
        let samples: Vec<Sample> = labelled.par_iter().map(|(b, l, _)| sample(b, *l)).collect();
        if st == first_stage && start_from.is_some() {
            w = unfitted(&weights, st);
        } else if w.len() != fit_size(st) {
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
                    Scorer::new(tt, eval).with_selectivity(crate::search::Selectivity::new(87));
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

/// Positions and games that the tests of the submodules share.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    pub(super) fn position(moves: &str) -> Board {
        let mut board = Board::start();
        for k in (0..moves.len()).step_by(2) {
            board = board.play(Move::parse(&moves[k..k + 2]).unwrap());
        }
        board
    }

    pub(super) fn wthor_game() -> LabelledGame {
        let bytes = include_bytes!("../../../tests/data/wthor/WTH_2022.wtb");
        wthor_games(&crate::records::wthor::parse(bytes).unwrap(), &[])
            .into_iter()
            .find(|g| g.game.is_over() && g.exact_at == Some(24))
            .expect("a finished WTHOR game")
    }

    /// A refit beyond 24 empties keeps every table of the stages up to 24 empties as they
    /// were, fits the others, and solves nothing.
    #[test]
    fn a_refit_beyond_24_empties_keeps_the_stages_near_the_end() {
        let bytes = include_bytes!("../../../tests/data/wthor/WTH_2022.wtb");
        let mut games = wthor_games(&crate::records::wthor::parse(bytes).unwrap(), &[]);
        games.truncate(60);
        let start = PatternEval::from_weights(
            (0..TABLES * STAGE_SIZE)
                .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as i16 - 32)
                .collect(),
        );
        let options = TrainOptions {
            bootstrap_depth: 2,
            bootstrap_selectivity: crate::search::Selectivity::from_percent(73).unwrap(),
            epochs: 1,
            depth8_positions: 2,
            ..TrainOptions::default()
        };
        let mut cache = SolvedCache::default();
        let (eval, reports, _) = refit(
            &games,
            &[],
            &options,
            (&start, 24),
            &mut cache,
            &mut |_| {},
            &mut |_| panic!("nothing is solved"),
        );
        assert_eq!(cache.len(), 0);
        let stages: Vec<usize> = reports.iter().map(|r| r.stage).collect();
        assert_eq!(stages, (6..STAGES).collect::<Vec<_>>());
        assert!(reports.iter().all(|r| {
            r.kinds
                .iter()
                .all(|&(kind, _)| kind == LabelKind::Bootstrap)
        }));
        use crate::eval::pattern::FIRST_TABLE;
        let kept = FIRST_TABLE[6] * STAGE_SIZE;
        assert!(eval.weights()[..kept] == start.weights()[..kept]);
        for st in 6..10 {
            let tables = FIRST_TABLE[st] * STAGE_SIZE..FIRST_TABLE[st + 1] * STAGE_SIZE;
            assert!(
                eval.weights()[tables.clone()] != start.weights()[tables],
                "stage {st} was not fitted"
            );
        }
    }
}
