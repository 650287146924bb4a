//! Playing a self-play game: the opening, the random moves (uniform or by a softmax over
//! shallow search values), then best play to the end, on an engine of the game's own.

use crate::board::{Board, Move, Position};
use crate::engine::{Engine, EngineError, EngineOptions, Loaded, SearchRequest};
use crate::matchrun::openings::Opening;
use crate::rng::{SplitMix64, mix};
use crate::search::{Bound, Limits, SearchResult};

use super::options::{DatagenOptions, Softmax};

/// The generator of game `game` under `seed`: its stream is fixed on every platform.
fn game_rng(seed: u64, game: u64) -> SplitMix64 {
    SplitMix64::new(mix(mix(seed ^ 0x6A09_E667_F3BC_C908) ^ game))
}

/// A position of a game with what play learned about it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub(super) position: Position,
    /// Moves made from the standard start, passes included.
    pub(super) ply: u8,
    /// Its exact score for the side to move, when a search found it.
    pub(super) exact: Option<i32>,
}

/// An engine for the searches of one game at a time: one thread, no book.
pub(super) fn game_engine(options: &DatagenOptions) -> Result<Engine, EngineError> {
    let loaded = Loaded {
        evaluation: options.eval.clone(),
        book: None,
    };
    Engine::with_loaded(
        EngineOptions {
            threads: 1,
            hash_mb: options.hash_mb,
            ..EngineOptions::analysis()
        },
        loaded,
    )
}

pub(super) fn search(engine: &mut Engine, board: &Board, limits: Limits) -> SearchResult {
    engine.search(&SearchRequest::analyze(limits).board(*board), &mut |_| {})
}

/// The legal moves of `board` (which has one), in square order.
fn moves_of(board: &Board) -> Vec<Move> {
    board.legal_moves().iter().map(Move::Play).collect()
}

/// Plays game `game`: its positions from the start, the last one the game's end, and the index
/// of the first one to record.
pub(super) fn play_game(
    engine: &mut Engine,
    options: &DatagenOptions,
    game: u64,
) -> (Vec<Step>, usize) {
    let mut rng = game_rng(options.seed, game);
    engine.clear_hash();
    let opening = match options.openings.len() {
        0 => Opening::start(),
        n => options.openings[(game % n as u64) as usize].clone(),
    };
    let mut path: Vec<Step> = opening
        .game
        .states()
        .enumerate()
        .map(|(ply, state)| Step {
            position: state.position,
            ply: ply as u8,
            exact: None,
        })
        .collect();
    let advance = |path: &mut Vec<Step>, mv: Move| {
        let last = *path.last().expect("a position");
        path.push(Step {
            position: last.position.try_play(mv).expect("a legal move"),
            ply: last.ply + 1,
            exact: None,
        });
    };
    // The random part; a forced pass is played without counting.
    let random = options.random_opening_plies + options.random_moves;
    let mut chosen = 0;
    while chosen < random {
        let board = path.last().expect("a position").position.board;
        if board.is_game_over() {
            break;
        }
        if board.legal_moves().is_empty() {
            advance(&mut path, Move::Pass);
            continue;
        }
        let mv = match options.softmax {
            Some(softmax) if chosen >= options.random_opening_plies => {
                softmax_move(engine, &board, softmax, &mut rng)
            }
            _ => {
                let moves = moves_of(&board);
                moves[rng.below(moves.len())]
            }
        };
        advance(&mut path, mv);
        chosen += 1;
    }
    let record_from = if options.record_all {
        0
    } else {
        path.len() - 1
    };
    play_out(engine, options, &mut path);
    (path, record_from)
}

/// Best play from the last position of `path` to the end of the game.
fn play_out(engine: &mut Engine, options: &DatagenOptions, path: &mut Vec<Step>) {
    loop {
        let last = *path.last().expect("a position");
        let board = last.position.board;
        if board.is_game_over() {
            return;
        }
        let mv = if board.legal_moves().is_empty() {
            Move::Pass
        } else {
            let result = search(engine, &board, options.play_limits());
            if result.bound == Bound::Exact {
                path.last_mut().expect("a position").exact = Some(result.score);
            }
            result.best_move
        };
        path.push(Step {
            position: last
                .position
                .try_play(mv)
                .expect("the search's move is legal"),
            ply: last.ply + 1,
            exact: None,
        });
    }
}

/// A move of `board` drawn with probability proportional to `exp(value / temperature)`, each
/// move valued by a search of its position `depth - 1` plies deep.
fn softmax_move(
    engine: &mut Engine,
    board: &Board,
    softmax: Softmax,
    rng: &mut SplitMix64,
) -> Move {
    let moves = moves_of(board);
    let limits = Limits::depth(softmax.depth.saturating_sub(1).max(1));
    let values: Vec<i32> = moves
        .iter()
        .map(|&mv| -search(engine, &board.play(mv), limits).score)
        .collect();
    let best = *values.iter().max().expect("a move");
    let weights: Vec<f64> = values
        .iter()
        .map(|&v| ((v - best) as f64 / softmax.temperature).exp())
        .collect();
    let mut draw = rng.unit() * weights.iter().sum::<f64>();
    for (mv, w) in moves.iter().zip(&weights) {
        if draw < *w {
            return *mv;
        }
        draw -= w;
    }
    *moves.last().expect("a move")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Game, Rules};
    use crate::train::selfplay::Play;
    use crate::train::selfplay::labels::game_records;
    use crate::train::selfplay::tests::small;

    /// A game depends on its number and the settings only: the same after other searches on
    /// the same engine as on a fresh one, also when the table's count of searches was about to
    /// make it clear itself (every 256 searches).
    #[test]
    fn a_game_is_the_same_whatever_the_engine_did_before() {
        let options = DatagenOptions {
            play: Play::Depth(4),
            label_depth: 4,
            exact_empties: 12,
            ..small()
        };
        let fresh = game_records(&mut game_engine(&options).unwrap(), &options, 9);
        assert!(!fresh.is_empty());
        let mut used = game_engine(&options).unwrap();
        assert_ne!(game_records(&mut used, &options, 10), fresh);
        assert_eq!(game_records(&mut used, &options, 9), fresh);
        // A fresh table counts from 1: 249 searches bring it to the eve of its own clearing.
        for before in [249, 240] {
            let mut used = game_engine(&options).unwrap();
            for _ in 0..before {
                search(&mut used, &Board::start(), Limits::depth(1));
            }
            assert_eq!(game_records(&mut used, &options, 9), fresh, "{before}");
        }
    }

    /// With a tiny temperature the softmax plays the move the shallow search values best.
    #[test]
    fn a_cold_softmax_plays_the_best_valued_move() {
        let options = small();
        let mut engine = game_engine(&options).unwrap();
        let board = Game::from_transcript(Rules::OTHELLO, Position::start(), "f5d6c3d3c4f4")
            .unwrap()
            .position()
            .board;
        let softmax = Softmax {
            temperature: 0.01,
            depth: 2,
        };
        let value = |engine: &mut Engine, mv: Move| {
            -search(engine, &board.play(mv), Limits::depth(1)).score
        };
        let best = moves_of(&board)
            .into_iter()
            .map(|mv| value(&mut engine, mv))
            .max()
            .unwrap();
        let mut rng = game_rng(1, 1);
        for _ in 0..5 {
            let mv = softmax_move(&mut engine, &board, softmax, &mut rng);
            assert_eq!(value(&mut engine, mv), best);
        }
    }
}
