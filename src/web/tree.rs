//! A client's game as a tree: the main line and its variations, each node a position after a
//! move, with what the engine found there (values, Iago's move, a review's verdict). Playing a
//! move where another was played before starts a variation; the main line is kept. A forced
//! pass is played at once, so that the shown position always has a move or is over.

use crate::board::{Color, Game, IllegalMoveError, Move, Rules, State};
use crate::review::MoveReview;
use crate::search::{Bound, SearchResult};

/// The most nodes a tree holds: a client cannot make the server's memory grow without end.
pub(crate) const MAX_NODES: usize = 4096;

/// A value of a node's position from Black's point of view, and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Eval {
    /// Discs for Black.
    pub black: i32,
    /// Whether it is an exact (solved) value.
    pub exact: bool,
    /// Whether it comes from a review (which outranks a search of the same kind).
    pub reviewed: bool,
}

/// The analysis shown on the squares of a node: every legal move's result at the deepest
/// depth completed, and whether the search finished.
#[derive(Clone, Debug, Default)]
pub(crate) struct Values {
    /// The rows, one a move.
    pub rows: Vec<SearchResult>,
    /// Whether they came from the static evaluation of each move (the first, instant rows).
    pub preview: bool,
}

/// One position of the tree.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// The node before (none for the start).
    pub parent: Option<usize>,
    /// The move that led here (none for the start).
    pub mv: Option<Move>,
    /// The nodes after, the main continuation first.
    pub children: Vec<usize>,
    /// The position and the discs left.
    pub state: State,
    /// Moves from the start (passes count).
    pub ply: usize,
    /// The position's value as far as known.
    pub eval: Option<Eval>,
    /// The values of the moves of this position, when shown.
    pub values: Option<Values>,
    /// The review of the move that led here.
    pub review: Option<MoveReview>,
    /// Iago's search, when Iago played the move that led here.
    pub played: Option<SearchResult>,
}

/// Why the tree did not change.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TreeError {
    /// The move is not legal here.
    #[error("{mv} is illegal here: {reason}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why.
        reason: IllegalMoveError,
    },
    /// No node has this number.
    #[error("there is no move {0} in this game")]
    NoNode(usize),
    /// The tree is full.
    #[error("this game holds {MAX_NODES} positions already: start a new one to go on")]
    Full,
}

/// The game tree.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    rules: Rules,
    nodes: Vec<Node>,
    current: usize,
}

impl Tree {
    /// A tree of `game`: its start, and its moves as the main line, the last one shown.
    pub fn from_game(game: &Game) -> Tree {
        let start = game.start_state();
        let mut tree = Tree {
            rules: game.rules(),
            nodes: vec![Node {
                parent: None,
                mv: None,
                children: Vec::new(),
                state: start,
                ply: 0,
                eval: None,
                values: None,
                review: None,
                played: None,
            }],
            current: 0,
        };
        for &mv in game.moves().iter().take(MAX_NODES - 1) {
            if tree.add(mv).is_err() {
                break;
            }
        }
        tree.pass_if_forced();
        tree.mark_final();
        tree
    }

    /// A new game under `rules`.
    pub fn new(rules: Rules) -> Tree {
        Tree::from_game(&Game::new(rules))
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Every node, by number.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node shown.
    pub fn current(&self) -> usize {
        self.current
    }

    /// A node.
    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// A node, to annotate.
    pub fn node_mut(&mut self, id: usize) -> Option<&mut Node> {
        self.nodes.get_mut(id)
    }

    /// The state shown.
    pub fn state(&self) -> State {
        self.nodes[self.current].state
    }

    /// Whether the game is over at the node shown.
    pub fn is_over(&self) -> bool {
        self.rules.is_over(&self.state())
    }

    /// Whether the node shown ends its line (nothing was played after it).
    pub fn at_end(&self) -> bool {
        self.nodes[self.current].children.is_empty()
    }

    /// The nodes from the start to `id`, both included.
    pub fn path_to(&self, id: usize) -> Vec<usize> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(parent) = self.nodes[at].parent {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The line shown: the path to the current node, then its main continuation.
    pub fn line(&self) -> Vec<usize> {
        let mut line = self.path_to(self.current);
        let mut at = self.current;
        while let Some(&next) = self.nodes[at].children.first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// The game from the start to node `id`.
    pub fn game_to(&self, id: usize) -> Game {
        let path = self.path_to(id);
        let mut game = Game::from_state(self.rules, self.nodes[0].state);
        for &node in &path[1..] {
            let mv = self.nodes[node]
                .mv
                .expect("every node but the start has a move");
            game.play(mv).expect("the tree holds legal moves");
        }
        game
    }

    /// The game of the line shown (to its end).
    pub fn line_game(&self) -> Game {
        let line = self.line();
        self.game_to(*line.last().expect("the start at least"))
    }

    /// The moves of the line shown, passes included.
    #[cfg(test)]
    pub fn line_moves(&self) -> Vec<Move> {
        self.line()[1..]
            .iter()
            .map(|&n| self.nodes[n].mv.expect("a move"))
            .collect()
    }

    /// Plays `mv` at the node shown: goes to the child that played it before, or adds it (a
    /// variation when the node has children already); then plays a forced pass. Returns the
    /// node shown.
    pub fn play(&mut self, mv: Move) -> Result<usize, TreeError> {
        self.add(mv)?;
        self.pass_if_forced();
        self.mark_final();
        Ok(self.current)
    }

    /// Adds `mv` after the node shown (or finds it) and shows it.
    fn add(&mut self, mv: Move) -> Result<usize, TreeError> {
        let parent = self.current;
        if let Some(&child) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(mv))
        {
            self.current = child;
            return Ok(child);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(TreeError::Full);
        }
        let state = self
            .rules
            .play(&self.nodes[parent].state, mv)
            .map_err(|reason| TreeError::Illegal { mv, reason })?;
        let id = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(parent),
            mv: Some(mv),
            children: Vec::new(),
            state,
            ply: self.nodes[parent].ply + 1,
            eval: None,
            values: None,
            review: None,
            played: None,
        });
        self.nodes[parent].children.push(id);
        self.current = id;
        Ok(id)
    }

    /// Plays the pass of a side without a move while the game goes on.
    fn pass_if_forced(&mut self) {
        if self.rules.must_pass(&self.state()) {
            // A pass cannot be illegal here; a full tree keeps the position as it is.
            let _ = self.add(Move::Pass);
        }
    }

    /// Gives a finished position its exact value.
    fn mark_final(&mut self) {
        let state = self.state();
        if self.rules.is_over(&state) {
            let black = self.rules.final_score_for_black(&state.position);
            self.nodes[self.current].eval = Some(Eval {
                black,
                exact: true,
                reviewed: false,
            });
        }
    }

    /// Shows node `id`.
    pub fn goto(&mut self, id: usize) -> Result<(), TreeError> {
        if id >= self.nodes.len() {
            return Err(TreeError::NoNode(id));
        }
        self.current = id;
        Ok(())
    }

    /// Goes one move back, over a forced pass too (never to a position that must pass, but
    /// the start); false at the start.
    pub fn back(&mut self) -> bool {
        let Some(parent) = self.nodes[self.current].parent else {
            return false;
        };
        self.current = parent;
        while self.rules.must_pass(&self.nodes[self.current].state)
            && let Some(before) = self.nodes[self.current].parent
        {
            self.current = before;
        }
        true
    }

    /// Goes one move forward on the main continuation, over a forced pass too; false at
    /// the end.
    pub fn forward(&mut self) -> bool {
        let Some(&next) = self.nodes[self.current].children.first() else {
            return false;
        };
        self.current = next;
        if self.rules.must_pass(&self.nodes[next].state)
            && let Some(&pass) = self.nodes[next].children.first()
        {
            self.current = pass;
        }
        true
    }

    /// Shows the start (its pass, if the start must pass).
    pub fn go_start(&mut self) {
        self.current = 0;
        if self.rules.must_pass(&self.nodes[0].state)
            && let Some(&pass) = self.nodes[0].children.first()
        {
            self.current = pass;
        }
    }

    /// Shows the end of the line shown.
    pub fn go_end(&mut self) {
        while self.forward() {}
    }

    /// Makes the line through the node shown the main line: at every node on its path, the
    /// child towards it becomes the first.
    pub fn promote(&mut self) {
        let path = self.path_to(self.current);
        for pair in path.windows(2) {
            let (parent, child) = (pair[0], pair[1]);
            let children = &mut self.nodes[parent].children;
            if let Some(at) = children.iter().position(|&c| c == child) {
                let c = children.remove(at);
                children.insert(0, c);
            }
        }
    }

    /// Records a value of node `id`'s position: an exact value is not replaced by an
    /// estimate, nor a reviewed value by a search's of the same kind.
    pub fn set_eval(&mut self, id: usize, eval: Eval) {
        let Some(node) = self.nodes.get_mut(id) else {
            return;
        };
        let keep = node.eval.is_some_and(|old| {
            (old.exact && !eval.exact)
                || (old.reviewed && !eval.reviewed && old.exact == eval.exact)
        });
        if !keep {
            node.eval = Some(eval);
        }
    }

    /// Records a search's value of node `id`'s position (discs for its side to move).
    pub fn set_search_value(&mut self, id: usize, score: i32, bound: Bound) {
        let Some(node) = self.nodes.get(id) else {
            return;
        };
        let black = for_black(node.state.to_move(), score);
        self.set_eval(
            id,
            Eval {
                black,
                exact: bound == Bound::Exact,
                reviewed: false,
            },
        );
    }

    /// The child of `id` reached by `mv`, when played.
    pub fn child(&self, id: usize, mv: Move) -> Option<usize> {
        self.nodes
            .get(id)?
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].mv == Some(mv))
    }
}

/// A score for `color` as a score for Black.
pub(crate) fn for_black(color: Color, score: i32) -> i32 {
    match color {
        Color::Black => score,
        Color::White => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    fn transcript(tree: &Tree) -> String {
        crate::board::notation::write_transcript(&tree.line_moves(), false)
    }

    #[test]
    fn a_different_move_starts_a_variation_and_keeps_the_main_line() {
        let game = Game::from_transcript(
            Rules::OTHELLO,
            Rules::OTHELLO.start_position(),
            "f5d6c3d3c4",
        )
        .unwrap();
        let mut tree = Tree::from_game(&game);
        assert_eq!(transcript(&tree), "f5d6c3d3c4");
        assert!(tree.back() && tree.back());
        assert_eq!(tree.node(tree.current()).unwrap().ply, 3);
        // The line shown is still the whole game.
        assert_eq!(transcript(&tree), "f5d6c3d3c4");
        // White's f4 instead of d3.
        tree.play(mv("f4")).unwrap();
        assert_eq!(transcript(&tree), "f5d6c3f4");
        // The main line is kept: the start's line still ends with d3c4.
        tree.go_start();
        assert_eq!(transcript(&tree), "f5d6c3d3c4");
        // Playing the main move again follows it instead of adding a node.
        let count = tree.nodes().len();
        for m in ["f5", "d6", "c3", "f4"] {
            tree.play(mv(m)).unwrap();
        }
        assert_eq!(tree.nodes().len(), count);
        tree.promote();
        tree.go_start();
        assert_eq!(transcript(&tree), "f5d6c3f4");
    }

    #[test]
    fn a_forced_pass_is_played_at_once_and_stepped_over() {
        // On 4x4, games with a pass come soon: play the k-th legal move (cycling) until one
        // of the games has one.
        let rules: Rules = "4x4".parse().unwrap();
        let mut passes = 0;
        for k in 0..16 {
            let mut tree = Tree::new(rules);
            while !tree.is_over() {
                let legal: Vec<crate::board::Square> =
                    crate::board::Bitboard(rules.moves(&tree.state()))
                        .iter()
                        .collect();
                assert!(!legal.is_empty(), "the position shown never must pass");
                let sq = legal[(k + tree.node(tree.current()).unwrap().ply) % legal.len()];
                let before = tree.current();
                tree.play(Move::Play(sq)).unwrap();
                if tree.node(tree.current()).unwrap().mv == Some(Move::Pass) {
                    passes += 1;
                    // Back goes over the pass to the move before it, forward over it again.
                    let pass = tree.current();
                    tree.back();
                    assert_eq!(tree.current(), before);
                    tree.forward();
                    assert_eq!(tree.current(), pass);
                }
            }
            let last = tree.node(tree.current()).unwrap();
            assert!(last.eval.is_some_and(|e| e.exact));
        }
        assert!(passes > 0, "some of these 4x4 games have a pass");
    }

    #[test]
    fn an_illegal_move_changes_nothing() {
        let mut tree = Tree::new(Rules::OTHELLO);
        assert!(matches!(
            tree.play(mv("a1")),
            Err(TreeError::Illegal { .. })
        ));
        assert_eq!((tree.current(), tree.nodes().len()), (0, 1));
        assert!(matches!(tree.goto(7), Err(TreeError::NoNode(7))));
    }

    #[test]
    fn an_exact_value_is_not_replaced_by_an_estimate() {
        let mut tree = Tree::new(Rules::OTHELLO);
        tree.set_search_value(0, 4, Bound::Exact);
        tree.set_search_value(0, 2, Bound::Estimate);
        assert_eq!(tree.node(0).unwrap().eval.unwrap().black, 4);
    }
}
