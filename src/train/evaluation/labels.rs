//! Labels: Black's values along each game's path (anchors: game values and solved plies), and
//! the label of every sample of a stage (solver, game value, self-play data or a search).

use rayon::prelude::*;

use super::options::{GAME_VALUE_MAX_EMPTIES, LabelledGame, TrainOptions};
use super::positions::{Entry, path};
use super::solved_cache::SolvedCache;
use super::solving::{solve, solve_all};
use crate::board::{Board, Color, Position};
use crate::eval::PatternEval;
use crate::search::tt::TranspositionTable;
use crate::search::{Scorer, Selectivity};

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

/// A ply of a game whose value for Black is known: WTHOR's perfect-play score at its depth, a
/// solved position, the end of a finished game (`exact`); or Logistello's final score taken for
/// the game's first position with 24 empties, which only a solved ply can confirm.
#[derive(Clone, Copy, Debug)]
pub(super) struct Anchor {
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
pub(super) fn first_within(path: &[Position], empties: u32) -> Option<usize> {
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
/// moves; docs/lab/2026-11-22-trained-evaluation.md.) Every
/// solved score goes into `cache`, which `solved` gets as it grows (see [`solve_all`]);
/// `progress` gets a line per depth.
pub(super) fn game_labels(
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
pub(super) fn first_anchors(games: &[LabelledGame]) -> Vec<Vec<Anchor>> {
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
pub(super) fn check_depths(options: &TrainOptions) -> Vec<u32> {
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
pub(super) fn to_check(
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
pub(super) fn add_anchors(
    anchors: &mut [Vec<Anchor>],
    wanted: &[(usize, usize, Position)],
    scores: &[i32],
) {
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

/// Labels `entries` (all of one stage) with the solver, the game value or a search; exact scores
/// come from `cache` when it has them, and new ones go into it.
pub(super) fn label(
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
                    let (depth, selectivity) = if empties <= GAME_VALUE_MAX_EMPTIES {
                        (options.searched_depth, Selectivity::NONE)
                    } else {
                        (options.bootstrap_depth, options.bootstrap_selectivity)
                    };
                    let search = Scorer::new(small, eval).with_selectivity(selectivity);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    use crate::board::{Game, Move, Rules};
    use crate::eval::HandEval;
    use crate::eval::pattern::{STAGE_SIZE, TABLES, stage};
    use crate::train::evaluation::positions::{DataLabels, select};
    use crate::train::evaluation::tests::wthor_game;

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
            let score = Scorer::new(&tt, &HandEval).solve(&p.board);
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
}
