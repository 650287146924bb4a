//! The positions to train on: the games' positions deduplicated by canonical form with their
//! labels, off-path children, self-play data, and each stage's training and validation samples.

use std::collections::HashMap;

use super::options::{GAME_VALUE_MAX_EMPTIES, LabelledGame, TrainOptions};
use crate::board::{Board, Color, Game, Move, Position};
use crate::eval::pattern::{stage, stage_empties};
use crate::train::chunk::Record;

/// A deduplicated position with its averaged game label and the labels of self-play data.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) board: Board,
    pub(super) label_sum: f64,
    pub(super) label_count: u32,
    pub(super) data: DataLabels,
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
pub(super) struct DataLabels {
    pub(super) exact: Option<i8>,
    pub(super) search: Option<i8>,
    outcome: Option<i8>,
}

impl DataLabels {
    /// An outcome is used only where nothing better is known.
    pub(super) fn outcome_only(&self) -> Option<i8> {
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
pub(super) struct Positions {
    pub(super) map: HashMap<Board, Entry>,
}

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
    ///
    /// [`game_labels`]: super::labels::game_labels
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

pub(super) fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

/// The positions of a game, the start first: one per ply.
pub(super) fn path(game: &Game) -> Vec<Position> {
    let mut position = game.start();
    std::iter::once(position)
        .chain(game.moves().iter().map(|&mv| {
            position = position.try_play(mv).expect("replayed games are legal");
            position
        }))
        .collect()
}

/// The positions of stage `st` that get a label: up to 24 empties, in the solver's range every
/// position (solved exactly), beyond it those with a trusted game value and, for training only,
/// up to `max_searched` of the others (scored by a search); further from the end, a sample for
/// the bootstrapping search. Validation keeps to exact labels up to 24 empties, so that its
/// errors are against the truth.
pub(super) fn select(
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
///
/// [`game_labels`]: super::labels::game_labels
pub(super) fn sample_positions(
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
pub(super) fn training_entries(
    training: &Positions,
    st: usize,
    options: &TrainOptions,
) -> Vec<Entry> {
    select(training.stage(st, options.seed, None), st, options, true)
}

/// The validation samples of stage `st` (none that training holds), in a fixed order.
pub(super) fn validation_entries(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PatternEval;
    use crate::eval::pattern::{STAGE_SIZE, TABLES};
    use crate::train::evaluation::labels::{LabelKind, first_within, label};
    use crate::train::evaluation::solved_cache::SolvedCache;
    use crate::train::evaluation::tests::{position, wthor_game};

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
}
