//! The labelling of a training run split into shards (`iago train --label-only --shard I/N`):
//! the list of every position a run solves, in an order every shard agrees on, and one
//! shard's share of it.

use std::collections::{HashMap, HashSet};

use super::labels::{add_anchors, check_depths, first_anchors, to_check};
use super::options::{LabelledGame, TrainOptions};
use super::positions::{sample_positions, training_entries, validation_entries};
use super::solved_cache::SolvedCache;
use super::solving::solve_all;
use crate::batch::Shard;
use crate::board::Board;
use crate::eval::pattern::STAGES;
use crate::train::chunk::Record;

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
///
/// [`train`]: super::train
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::evaluation::{train, wthor_games};

    /// A run's labelling split into three shards, each solving its share of one list (in two
    /// passes: which positions the check depth solves depends on every shard's scores), merges
    /// into the very cache of one run; training from it solves nothing and fits the same
    /// weights.
    #[test]
    fn sharded_labelling_merges_into_the_cache_and_the_weights_of_one_run() {
        let wthor = |bytes: &[u8], n: usize| {
            let mut games = wthor_games(&crate::records::wthor::parse(bytes).unwrap(), &[2023]);
            games.truncate(n);
            games
        };
        let mut games = wthor(include_bytes!("../../../tests/data/wthor/WTH_2022.wtb"), 40);
        games.extend(wthor(
            include_bytes!("../../../tests/data/wthor/WTH_2023.wtb"),
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
}
