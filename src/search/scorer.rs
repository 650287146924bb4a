//! A small public entry to the 8×8 search for tools (training, fitting): score a board at a
//! depth with a given hash table and evaluation, or solve it exactly, on the calling thread and
//! without a clock. The engine's own searches go through [`crate::engine::Engine`].

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::eval::SearchEval;
use crate::search::SCORE_MAX;
use crate::search::control::Control;
use crate::search::endgame::EndgameSearch;
use crate::search::midgame::Othello;
use crate::search::probcut::Selectivity;
use crate::search::pvs::{Pvs, RootMove};
use crate::search::tt::TranspositionTable;

/// Never set: the searches of a [`Scorer`] run to the end.
static NEVER: AtomicBool = AtomicBool::new(false);

/// One-thread searches of 8×8 boards over a hash table and the evaluation `E` (also the move
/// ordering of the exact solver). Scores are disc differences for the side to move.
pub struct Scorer<'a, E: SearchEval + ?Sized> {
    tt: &'a TranspositionTable,
    game: Othello<'a, E>,
    selectivity: Selectivity,
    /// The root of the last [`Scorer::root_score`] and its moves, best first.
    root: Option<(Board, Vec<RootMove<u64>>)>,
}

impl<'a, E: SearchEval + ?Sized> Scorer<'a, E> {
    /// Searches over `tt` with `eval`, without ProbCut.
    pub fn new(tt: &'a TranspositionTable, eval: &'a E) -> Self {
        Scorer {
            tt,
            game: Othello::new(eval),
            selectivity: Selectivity::NONE,
            root: None,
        }
    }

    /// These searches at selectivity `selectivity`.
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Self {
        self.selectivity = selectivity;
        self
    }

    /// The score of `board` searched `depth` plies deep (exact when the depth covers the empty
    /// squares and there is no ProbCut).
    pub fn score(&self, board: &Board, depth: u32) -> i32 {
        let mut search = self.search();
        search.search_board(board, -SCORE_MAX, SCORE_MAX, depth)
    }

    /// The score of `board` (which has a legal move) searched `depth` ≥ 1 plies deep from its
    /// root moves, whose order the calls on the same board keep from one to the next: calls at
    /// increasing depths are iterative deepening.
    pub fn root_score(&mut self, board: &Board, depth: u32) -> i32 {
        let node = self.game.node(board);
        if self.root.as_ref().is_none_or(|(b, _)| b != board) {
            let moves = RootMove::list(&self.game, &node, u64::MAX);
            assert!(!moves.is_empty(), "root_score needs a legal move");
            self.root = Some((*board, moves));
        }
        let mut search = Pvs::new(
            self.tt,
            self.game,
            Control::new(&NEVER, None),
            false,
            self.selectivity,
        );
        let (_, root) = self.root.as_mut().expect("the root was just set");
        search.root(&node, root, -SCORE_MAX, SCORE_MAX, depth).0
    }

    /// The exact final score of `board` under perfect play, from the endgame solver.
    pub fn solve(&self, board: &Board) -> i32 {
        EndgameSearch::new(self.tt, &NEVER)
            .with_evaluator(self.game.eval)
            .search(board, -SCORE_MAX, SCORE_MAX)
            .expect("a search without a stop flag is never stopped")
    }

    fn search(&self) -> Pvs<'a, Othello<'a, E>> {
        Pvs::new(
            self.tt,
            self.game,
            Control::new(&NEVER, None),
            false,
            self.selectivity,
        )
    }
}
