//! The 8×8 game of the search ([`Othello`]): the hooks of the generic PVS ([`crate::search::pvs`])
//! for the standard board, with the evaluation `E` carrying its incremental state from node to
//! node. Move ordering by shallow searches and mobility, the wipe-out cut-off, and the hand-over
//! to the exact solver ([`EndgameSearch`]) when the remaining depth covers every empty square.
//!
//! Scores are disc differences for the side to move, like the solver's, so both share the hash
//! table: an exact endgame entry answers any depth.

use crate::board::movegen::{flips, moves, potential_moves};
use crate::board::{Bitboard, Board};
use crate::eval::{Replies, SearchEval};
use crate::search::SCORE_MAX;
use crate::search::Stopped;
use crate::search::control::Counter;
use crate::search::endgame::{EndgameSearch, NoEval, SolveMode};
use crate::search::params::{
    EXACT_GROWTH_PER_EMPTY, EXACT_SECONDS_AT_20, EXACT_TWO_THREAD_SPEEDUP, MIDGAME_SPLIT_MIN_DEPTH,
    ORDERING_SEARCH_FROM, ORDERING_SEARCH_WEIGHT, SELECTIVE_END_MIN_EMPTIES,
};
use crate::search::pvs;
use crate::search::pvs::{Child, Generated, NodeContext, Pvs, SearchGame};
use crate::search::tt::TranspositionTable;

const CORNERS: u64 = Bitboard::CORNERS.0;

/// A board with the evaluation's state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<S> {
    /// The discs, relative to the side to move.
    pub board: Board,
    /// The evaluation's incremental state of `board`.
    pub state: S,
}

/// Standard Othello searched with the evaluation `E`.
pub(crate) struct Othello<'a, E: ?Sized> {
    /// The evaluation.
    pub eval: &'a E,
}

impl<E: ?Sized> Clone for Othello<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: ?Sized> Copy for Othello<'_, E> {}

impl<'a, E: SearchEval + ?Sized> Othello<'a, E> {
    /// The game over `eval`.
    pub fn new(eval: &'a E) -> Self {
        Othello { eval }
    }

    /// `board` with its evaluation state computed from scratch.
    pub fn node(&self, board: &Board) -> Node<E::State> {
        Node {
            board: *board,
            state: self.eval.state(board),
        }
    }
}

impl<'a, E: SearchEval + ?Sized> Pvs<'a, Othello<'a, E>> {
    /// [`Pvs::pvs`] of `board`, whose evaluation state is computed here.
    pub fn search_board(&mut self, board: &Board, alpha: i32, beta: i32, depth: u32) -> i32 {
        let node = self.game().node(board);
        self.pvs(&node, alpha, beta, depth)
    }
}

/// Seconds to solve `empties` exactly on `threads` threads, by the model of
/// [`EXACT_SECONDS_AT_20`]: exact solves with the evaluation in the ordering.
pub(crate) fn exact_seconds(empties: u32, threads: usize) -> f64 {
    let speedup = if threads <= 1 {
        1.0
    } else {
        EXACT_TWO_THREAD_SPEEDUP * threads as f64 / 2.0
    };
    EXACT_SECONDS_AT_20 * EXACT_GROWTH_PER_EMPTY.powi(empties as i32 - 20) / speedup
}

impl<'a, E: SearchEval + ?Sized> SearchGame for Othello<'a, E> {
    type Node = Node<E::State>;
    type Move = u64;
    type List = [Child<u64>; 34];
    const SPLIT_MIN_DEPTH: u32 = MIDGAME_SPLIT_MIN_DEPTH;
    const PRESEARCH: bool = true;

    #[inline]
    fn empties(&self, node: &Self::Node) -> u32 {
        (node.board.player | node.board.opponent).count_zeros()
    }

    #[inline]
    fn key(&self, node: &Self::Node) -> Board {
        node.board
    }

    #[inline]
    fn moves(&self, node: &Self::Node) -> u64 {
        moves(node.board.player, node.board.opponent)
    }

    #[inline]
    fn make_move(&self, node: &Self::Node, sq: usize) -> u64 {
        flips(node.board.player, node.board.opponent, sq)
    }

    #[inline]
    fn play(&self, node: &Self::Node, sq: u8, &f: &u64) -> Self::Node {
        let Board {
            player: p,
            opponent: o,
        } = node.board;
        Node {
            board: Board {
                player: o ^ f,
                opponent: p | f | 1 << sq,
            },
            state: self.eval.play(&node.state, sq as usize, f),
        }
    }

    #[inline]
    fn pass(&self, node: &Self::Node) -> Self::Node {
        Node {
            board: node.board.pass(),
            state: self.eval.pass(&node.state),
        }
    }

    #[inline]
    fn final_score(&self, node: &Self::Node) -> i32 {
        node.board.final_score()
    }

    #[inline]
    fn evaluate(&self, node: &Self::Node, known: Option<Replies>) -> i32 {
        // A side without discs has lost the whole board (a wipe-out ends the game at once).
        if node.board.player == 0 {
            return node.board.final_score();
        }
        self.eval.evaluate_with(&node.board, &node.state, known)
    }

    #[inline]
    fn new_list(&self, _: &Self::Node) -> Self::List {
        [Child {
            sq: 0,
            mv: 0,
            value: 0,
            replies: None,
        }; 34]
    }

    fn exact_seconds(empties: u32, threads: usize) -> Option<f64> {
        Some(exact_seconds(empties, threads))
    }

    /// A depth that covers every empty square is exact without selectivity; with it, the search
    /// goes on to the end with ProbCut and calls the exact solver at
    /// [`SELECTIVE_END_MIN_EMPTIES`]. The solver shares the hash table and the stop conditions.
    #[inline]
    fn exact(
        &self,
        node: &Self::Node,
        context: &NodeContext<'_>,
        counter: &mut Counter<'_>,
    ) -> Option<i32> {
        if !context.exact && context.empties > SELECTIVE_END_MIN_EMPTIES {
            return None;
        }
        let mut solver =
            EndgameSearch::with_control(context.tt, counter.control()).with_evaluator(self.eval);
        if context.parallel {
            solver = solver.parallel();
        }
        let NodeContext {
            alpha,
            beta,
            empties,
            ..
        } = *context;
        let score = solver.dispatch(node.board.player, node.board.opponent, alpha, beta, empties);
        counter.add(solver.nodes());
        if solver.is_stopped() {
            counter.stop();
            return Some(0);
        }
        Some(score)
    }

    /// The moves, a wipe-out settling the node at once; valued: the hash move first, then by
    /// the opponent's mobility (corners counting double) and potential mobility (and, from
    /// depth 3, a shallow search of each child: [`Self::ordering_search`]).
    fn generate(
        &self,
        node: &Self::Node,
        legal: u64,
        context: &NodeContext<'_>,
        list: &mut [Child<u64>],
    ) -> Generated {
        let Board {
            player: p,
            opponent: o,
        } = node.board;
        let mut len = 0;
        let mut m = legal;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, x);
            if f == o {
                return Generated::Cut(SCORE_MAX);
            }
            list[len] = Child {
                sq: x as u8,
                mv: f,
                value: 0,
                replies: None,
            };
            len += 1;
        }
        for entry in list[..len].iter_mut() {
            let (x, f) = (entry.sq, entry.mv);
            if x == context.hash_move {
                entry.value = 1 << 24;
                continue;
            }
            let (cp, co) = (o ^ f, p | f | 1 << x);
            if context.depth >= 2 {
                // The child probes the table first thing: start loading its bucket.
                context.tt.prefetch(
                    Board {
                        player: cp,
                        opponent: co,
                    }
                    .hash(),
                );
            }
            let replies = moves(cp, co);
            let potential = potential_moves(cp, co).count_ones();
            entry.replies = Some(Replies {
                moves: replies,
                potential: Some(potential as u8),
            });
            let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            entry.value = -16 * mobility - 4 * potential as i32;
        }
        Generated::Moves {
            len,
            best: -crate::search::INF,
        }
    }

    /// From the depths of [`ORDERING_SEARCH_FROM`], the children's static values, then their
    /// 1-ply and 2-ply searches, each disc worth [`ORDERING_SEARCH_WEIGHT`].
    #[inline]
    fn ordering_search(&self, depth: u32) -> Option<(u32, i32)> {
        let searches = ORDERING_SEARCH_FROM.iter().filter(|&&d| depth >= d).count() as u32;
        searches
            .checked_sub(1)
            .map(|shallow| (shallow, ORDERING_SEARCH_WEIGHT))
    }
}

/// The best line of an exact 8×8 solve, confirmed through the generic best-line extraction over
/// this game.
impl<E: SearchEval + ?Sized> EndgameSearch<'_, E> {
    /// A line of best moves from `board` whose value is `score` (exact, or the WLD verdict as
    /// `+2/0/-2`): at each position the child whose exact score a hash table already holds, else
    /// the first child that a search with a window around the expected value confirms.
    pub fn principal_variation(
        &mut self,
        board: &Board,
        score: i32,
        mode: SolveMode,
    ) -> Result<Vec<crate::board::Move>, Stopped> {
        let mut pv = Vec::new();
        let node = Node {
            board: *board,
            state: (),
        };
        let wld = mode == SolveMode::WinLossDraw;
        pvs::exact_line(self, &node, score, wld, &mut pv)?;
        Ok(pv)
    }
}

/// The game of the exact line: the 8×8 board without an evaluation.
const BOARD_GAME: Othello<'static, NoEval> = Othello { eval: &NoEval };

impl<E: SearchEval + ?Sized> pvs::ExactSolver for EndgameSearch<'_, E> {
    type Game = Othello<'static, NoEval>;

    fn game(&self) -> Self::Game {
        BOARD_GAME
    }

    fn tt(&self) -> &TranspositionTable {
        self.tt
    }

    fn exact_bounds(&self, node: &Node<()>) -> Option<(i32, i32)> {
        let b = node.board;
        self.table_bounds(b.player, b.opponent, b.empty_count())
    }

    fn solve(&mut self, node: &Node<()>, alpha: i32, beta: i32) -> Result<i32, Stopped> {
        self.search(&node.board, alpha, beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};
    use crate::eval::{Evaluator, HandEval};
    use crate::search::control::Control;
    use crate::search::tt::TranspositionTable;
    use std::sync::atomic::AtomicBool;

    /// Plain negamax to `depth` with the same conventions (passes free, exact when the depth
    /// covers the empties).
    fn minimax(board: &Board, depth: u32) -> i32 {
        let legal = board.legal_moves();
        if legal.is_empty() {
            if board.pass().legal_moves().is_empty() {
                return board.final_score();
            }
            return -minimax(&board.pass(), depth);
        }
        if depth >= board.empty_count() {
            return legal
                .iter()
                .map(|sq| -minimax(&board.play(Move::Play(sq)), depth - 1))
                .max()
                .unwrap();
        }
        if depth == 0 {
            return HandEval.evaluate(board);
        }
        legal
            .iter()
            .map(|sq| -minimax(&board.play(Move::Play(sq)), depth - 1))
            .max()
            .unwrap()
    }

    fn random_board(seed: u64, plies: usize) -> Board {
        let mut state = seed | 1;
        let mut board = Board::start();
        for _ in 0..plies {
            let legal: Vec<Square> = board.legal_moves().iter().collect();
            if legal.is_empty() {
                if board.is_game_over() {
                    break;
                }
                board = board.pass();
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            board = board.play(Move::Play(legal[(state % legal.len() as u64) as usize]));
        }
        board
    }

    #[test]
    fn full_width_search_equals_minimax() {
        let stop = AtomicBool::new(false);
        for seed in 1..40u64 {
            let board = random_board(seed, 10 + (seed as usize * 7) % 45);
            for depth in 1..=3 {
                let tt = TranspositionTable::new(1);
                let mut search = Pvs::new(
                    &tt,
                    Othello::new(&HandEval),
                    Control::new(&stop, None),
                    false,
                    crate::search::Selectivity::NONE,
                );
                let score = search.search_board(&board, -SCORE_MAX, SCORE_MAX, depth);
                assert_eq!(score, minimax(&board, depth), "seed {seed} depth {depth}");
            }
        }
    }

    /// On two threads the root searches its later moves in a split. A stop inside it keeps
    /// only the moves searched to the end in the window: a move it reports as better than the
    /// first (`improved`) has that score by plain minimax, and beats the first move. The first
    /// root move is the worst one, so that most stops come after a later move has improved.
    #[test]
    fn a_stopped_root_split_keeps_only_finished_moves() {
        use crate::search::control::Progress;
        use crate::search::pvs::RootMove;
        use std::sync::atomic::Ordering::Relaxed;

        let depth = MIDGAME_SPLIT_MIN_DEPTH;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two threads");
        let game = Othello::new(&HandEval);
        let (mut improved_runs, mut runs) = (0, 0);
        for seed in 1..6u64 {
            let board = random_board(seed, 16 + 3 * seed as usize);
            let node = game.node(&board);
            let mut root = RootMove::list(&game, &node, u64::MAX);
            if root.len() < 3 {
                continue;
            }
            let mut values = [0; 64];
            for m in &root {
                let square = Square::from_index(m.sq).expect("a square");
                values[m.sq as usize] = -minimax(&board.play(Move::Play(square)), depth - 1);
            }
            let value = |sq: u8| values[sq as usize];
            root.sort_by_key(|m| value(m.sq));
            let (worst, best) = (value(root[0].sq), value(root[root.len() - 1].sq));
            assert!(
                worst < best,
                "seed {seed}: the root moves have different values"
            );
            let full = {
                let stop = AtomicBool::new(false);
                let tt = TranspositionTable::new(1);
                let mut search = Pvs::new(
                    &tt,
                    game,
                    Control::new(&stop, None),
                    true,
                    crate::search::Selectivity::NONE,
                );
                pool.install(|| search.root(&node, &mut root.clone(), -SCORE_MAX, SCORE_MAX, depth))
                    .0
            };
            assert_eq!(full, best, "seed {seed}: the two-thread search is minimax");
            for stop_at in (1..40).map(|k| k * 150) {
                let (stop, done) = (AtomicBool::new(false), AtomicBool::new(false));
                let progress = Progress::new();
                let tt = TranspositionTable::new(1);
                let mut list = root.clone();
                let control = Control::new(&stop, None).watched(&progress);
                let mut search =
                    Pvs::new(&tt, game, control, true, crate::search::Selectivity::NONE);
                std::thread::scope(|scope| {
                    scope.spawn(|| {
                        while !done.load(Relaxed) && progress.nodes() < stop_at {
                            std::hint::spin_loop();
                        }
                        stop.store(true, Relaxed);
                    });
                    pool.install(|| search.root(&node, &mut list, -SCORE_MAX, SCORE_MAX, depth));
                    done.store(true, Relaxed);
                });
                runs += 1;
                if search.improved() {
                    improved_runs += 1;
                    let played = list[0];
                    assert_ne!(played.sq, root[0].sq, "seed {seed}, stop at {stop_at}");
                    assert_eq!(
                        played.score,
                        value(played.sq),
                        "seed {seed}, stop at {stop_at}"
                    );
                    assert!(played.score > worst, "seed {seed}, stop at {stop_at}");
                }
            }
        }
        assert!(
            improved_runs > 0 && improved_runs < runs,
            "{improved_runs} of {runs} stopped searches improved"
        );
    }
}
