//! The search skeleton, generic over the rule set: negamax PVS over the hash table (fail-soft,
//! null-window searches of the later moves with a re-search inside the window, Young Brothers
//! Wait splits over rayon after the first move, Multi-ProbCut, move ordering by shallow
//! searches), the root search of an iteration, and the two ways to read a best line (the hash
//! table's moves, or an exact line confirmed by searches).
//!
//! A rule set enters through [`SearchGame`]: its moves, passes and final scores, its hash key,
//! its evaluation, its static move ordering (with the cut-offs found while ordering) and the
//! exact solver it hands over to near the end. Its hooks receive a [`NodeContext`] (the table,
//! the window, the depth) and, for the exact hand-over, the search's [`Counter`]; they never see
//! the search itself. [`Pvs`] is compiled once for each game (static dispatch): the 8×8 board
//! with each evaluation (`midgame::Othello`) and the rule variants (`variant::Variant`). The 8×8
//! exact solver keeps a loop of its own (`search::endgame`; docs/design.md says why).

use crate::board::{Board, Move, Square};
use crate::eval::Replies;
use crate::search::control::{self, Control, Counter};
use crate::search::probcut::{self, Selectivity};
use crate::search::tt::{NO_MOVE, ScoreKind, TranspositionTable, TtData};
use crate::search::{INF, SCORE_MAX, Stopped};

/// A move of a node's list: its square, what playing it needs ([`SearchGame::Move`]), its
/// ordering value, and the opponent's replies once the ordering generated them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child<M> {
    pub sq: u8,
    pub mv: M,
    pub value: i32,
    pub replies: Option<Replies>,
}

/// What [`SearchGame::generate`] found: a score that settles the node (a wipe-out, a
/// transposition cut-off), or `len` valued moves and the best score already known (from moves
/// the table settled without a search; `-INF` when none).
pub(crate) enum Generated {
    Cut(i32),
    Moves { len: usize, best: i32 },
}

/// What a hook of the search knows of the node it serves.
#[derive(Clone, Copy)]
pub(crate) struct NodeContext<'t> {
    /// The shared hash table, to probe and prefetch.
    pub tt: &'t TranspositionTable,
    /// The window.
    pub alpha: i32,
    /// The window.
    pub beta: i32,
    /// Plies left to search (at least the empties when the node searches to the end).
    pub depth: u32,
    /// The empty squares.
    pub empties: u32,
    /// Whether the node searches to the end of the game without ProbCut.
    pub exact: bool,
    /// The table's best move for the node, or [`NO_MOVE`].
    pub hash_move: u8,
    /// Whether the node may split its work over the current rayon pool.
    pub parallel: bool,
}

/// A rule set as the search sees it: positions ([`SearchGame::Node`], carrying whatever
/// incremental state the evaluation keeps), their moves, and the hooks of the search
/// (evaluation, ordering, cut-offs, the exact hand-over). Scores are disc differences for the
/// side to move.
pub(crate) trait SearchGame: Copy + Send + Sync {
    /// A position with the evaluation's state.
    type Node: Copy + Send + Sync;
    /// What a move list keeps to play a move (the flips, or the child itself).
    type Move: Copy + Send + Sync;
    /// A node's move list.
    type List: AsMut<[Child<Self::Move>]>;
    /// Splits only at nodes with at least this remaining depth.
    const SPLIT_MIN_DEPTH: u32;
    /// Whether the driver runs the selective pre-searches before an exact solve.
    const PRESEARCH: bool;

    /// The empty squares.
    fn empties(&self, node: &Self::Node) -> u32;
    /// The hash-table key.
    fn key(&self, node: &Self::Node) -> Board;
    /// The side to move's legal moves (a square mask).
    fn moves(&self, node: &Self::Node) -> u64;
    /// The move on square `sq` (legal).
    fn make_move(&self, node: &Self::Node, sq: usize) -> Self::Move;
    /// The position after `mv` on `sq`.
    fn play(&self, node: &Self::Node, sq: u8, mv: &Self::Move) -> Self::Node;
    /// The position after a pass.
    fn pass(&self, node: &Self::Node) -> Self::Node;
    /// The final score of a finished game.
    fn final_score(&self, node: &Self::Node) -> i32;
    /// The static evaluation; `known`: what the caller computed of the side to move.
    fn evaluate(&self, node: &Self::Node, known: Option<Replies>) -> i32;
    /// An empty move list for `node`.
    fn new_list(&self, node: &Self::Node) -> Self::List;
    /// Time to solve `empties` exactly on `threads` threads, if known (the driver switches to
    /// the exact solve when it fits the clock).
    fn exact_seconds(empties: u32, threads: usize) -> Option<f64>;

    /// The exact hand-over at a node whose depth covers its empties (`node.depth >=
    /// node.empties`; no hash move yet): the score from a solver of the game's own, counting
    /// its positions into `counter` (and stopping it when stopped, the score then meaningless),
    /// or `None` to go on with the PVS to the end of the game (exact without ProbCut, selective
    /// with it).
    fn exact(
        &self,
        node: &Self::Node,
        context: &NodeContext<'_>,
        counter: &mut Counter<'_>,
    ) -> Option<i32>;

    /// Fills `list` with the `legal` moves of `node` and their ordering values (higher first;
    /// the search sorts them), or settles the node.
    fn generate(
        &self,
        node: &Self::Node,
        legal: u64,
        context: &NodeContext<'_>,
        list: &mut [Child<Self::Move>],
    ) -> Generated;

    /// At a node searched `depth` plies deep: the depth of the shallow searches whose scores
    /// join the ordering values of its moves (the hash move excepted), and their weight;
    /// `None` for the static values alone. A shallow search of depth 0 is the static
    /// evaluation with the replies the ordering generated.
    fn ordering_search(&self, _depth: u32) -> Option<(u32, i32)> {
        None
    }

    /// The line of an exact iteration whose root child `node` scores `score`, when the game
    /// confirms it by searches ([`exact_line`]); `None`: the hash table's line
    /// ([`principal_variation`]).
    fn confirmed_line(
        _tt: &TranspositionTable,
        _game: Self,
        _stop: &std::sync::atomic::AtomicBool,
        _node: &Self::Node,
        _score: i32,
    ) -> Option<Vec<Move>> {
        None
    }
}

/// One root move with the score of its last completed search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove<M> {
    /// The square (0..=63).
    pub sq: u8,
    /// What playing it needs.
    pub mv: M,
    /// Score of the last search of this move (`-INF` before any).
    pub score: i32,
}

impl<M> RootMove<M> {
    /// The root moves of `node` restricted to `allowed` (a bitboard of squares).
    pub fn list<G: SearchGame<Move = M>>(
        game: &G,
        node: &G::Node,
        allowed: u64,
    ) -> Vec<RootMove<M>> {
        let mut m = game.moves(node) & allowed;
        let mut out = Vec::new();
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push(RootMove {
                sq: sq as u8,
                mv: game.make_move(node, sq),
                score: -INF,
            });
        }
        out
    }
}

/// One thread's search of the game `G`.
pub(crate) struct Pvs<'a, G: SearchGame> {
    tt: &'a TranspositionTable,
    game: G,
    counter: Counter<'a>,
    parallel: bool,
    selectivity: Selectivity,
    /// A stopped root search found a move better than the first one (now first).
    improved: bool,
}

impl<'a, G: SearchGame> Pvs<'a, G> {
    /// A search at selectivity `selectivity`, splitting over the current rayon pool when
    /// `parallel`.
    pub fn new(
        tt: &'a TranspositionTable,
        game: G,
        control: Control<'a>,
        parallel: bool,
        selectivity: Selectivity,
    ) -> Self {
        Pvs {
            tt,
            game,
            counter: Counter::new(control),
            parallel: parallel && rayon::current_num_threads() > 1,
            selectivity,
            improved: false,
        }
    }

    /// Whether the search was stopped (its scores are then meaningless).
    pub fn is_stopped(&self) -> bool {
        self.counter.is_stopped()
    }

    /// Whether the last root search, stopped, had proved a later move better than the first
    /// one: that move is then first in the root list, with its score.
    pub fn improved(&self) -> bool {
        self.improved
    }

    /// Positions visited (evaluated leaves and exact-solver nodes included).
    pub fn nodes(&self) -> u64 {
        self.counter.nodes()
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// This search, splitting over the current rayon pool when it has more than one thread.
    pub fn parallel(mut self) -> Self {
        self.parallel = rayon::current_num_threads() > 1;
        self
    }

    /// The static evaluation, counted as a node.
    #[inline]
    fn evaluate(&mut self, node: &G::Node, known: Option<Replies>) -> i32 {
        self.counter.count();
        self.game.evaluate(node, known)
    }

    /// Searches `root` (the moves of `node`, best guess first) at `depth` in `(alpha, beta)`.
    /// Updates each move's score (exact for the best move when inside the window, bounds for the
    /// others) and returns the best score and the index of the best move. The list is left
    /// sorted best first.
    #[allow(
        clippy::needless_range_loop,
        reason = "the loop writes back into `root[i]`"
    )]
    pub fn root(
        &mut self,
        node: &G::Node,
        root: &mut [RootMove<G::Move>],
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> (i32, usize) {
        let mut best = -INF;
        let mut best_index = 0;
        let alpha_at_entry = alpha;
        self.improved = false;
        for i in 0..root.len() {
            if i == 1 && self.parallel && depth >= G::SPLIT_MIN_DEPTH && root.len() > 2 {
                // The later root moves as at any PV node: in parallel, at a null window.
                let rest: Vec<Child<G::Move>> = root[1..]
                    .iter()
                    .map(|m| Child {
                        sq: m.sq,
                        mv: m.mv,
                        value: 0,
                        replies: None,
                    })
                    .collect();
                // Stopped, the split still gives the moves it had searched to the end: one
                // proved better than the first is played, as on one thread.
                let (score, sq, _) = self.split_pv(node, alpha, beta, &rest, depth);
                if sq != NO_MOVE && score > best {
                    best = score;
                    best_index = root.iter().position(|m| m.sq == sq).expect("a root move");
                    root[best_index].score = score;
                }
                break;
            }
            let mv = root[i];
            let child = self.game.play(node, mv.sq, &mv.mv);
            let score = self.search_move(&child, i == 0, alpha, beta, depth - 1);
            if self.counter.is_stopped() {
                break;
            }
            root[i].score = score;
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // A stopped search keeps the old order, unless a later move scored above the window's
        // bottom and so above the first move, which was searched to the end before it.
        self.improved = self.counter.is_stopped() && best_index > 0 && best > alpha_at_entry;
        if !self.counter.is_stopped() || self.improved {
            // Best first; moves not searched after a cut-off keep their old order at the end.
            let best_move = root[best_index];
            root.copy_within(0..best_index, 1);
            root[0] = best_move;
            best_index = 0;
        }
        (best, best_index)
    }

    /// Negamax PVS, fail-soft, at `depth` plies (passes are free). A depth that covers every
    /// empty square goes to the game's exact hand-over ([`SearchGame::exact`]), or on to the
    /// end.
    pub fn pvs(&mut self, node: &G::Node, mut alpha: i32, mut beta: i32, depth: u32) -> i32 {
        let empties = self.game.empties(node);
        let mut depth = depth;
        if depth >= empties {
            let context = self.context(alpha, beta, depth, empties, NO_MOVE);
            if let Some(score) = self.game.exact(node, &context, &mut self.counter) {
                return score;
            }
            depth = empties;
        }
        if depth == 0 {
            return self.evaluate(node, None);
        }
        self.counter.count();
        if self.counter.poll_stop() {
            return 0;
        }
        let exact = depth >= empties && !self.selectivity.is_selective();
        let kind = if exact {
            ScoreKind::Exact
        } else {
            ScoreKind::Estimate(self.selectivity)
        };
        let key = self.game.key(node);
        let hash = key.hash();
        let mut hash_move = NO_MOVE;
        if let Some(entry) = self.tt.probe(&key, hash) {
            if entry.answers(kind, depth, empties)
                && let Some(score) = entry.narrow(&mut alpha, &mut beta)
            {
                return score;
            }
            hash_move = entry.best_move;
        }
        let legal = self.game.moves(node);
        if legal == 0 {
            let passed = self.game.pass(node);
            if self.game.moves(&passed) == 0 {
                return self.game.final_score(node);
            }
            return -self.pvs(&passed, -beta, -alpha, depth);
        }
        if let Some(score) = self.probcut(node, alpha, beta, depth, empties) {
            return score;
        }
        let mut list = self.game.new_list(node);
        let list = list.as_mut();
        let context = self.context(alpha, beta, depth, empties, hash_move);
        let (len, best) = match self.ordered_moves(node, legal, &context, list) {
            Generated::Cut(score) => return score,
            Generated::Moves { len, best } => (len, best),
        };
        if self.counter.is_stopped() {
            return 0;
        }
        if len == 0 {
            // Every move was settled by the table.
            return best;
        }
        let Some((best, best_move)) = self.search_moves(node, &list[..len], best, &context) else {
            return 0;
        };
        self.tt.store(
            &key,
            hash,
            TtData::from_result(best, alpha, beta, best_move, depth, kind),
        );
        best
    }

    /// What the hooks learn of a node with `empties` empty squares searched `depth` plies deep
    /// in `(alpha, beta)`.
    #[inline]
    fn context(
        &self,
        alpha: i32,
        beta: i32,
        depth: u32,
        empties: u32,
        hash_move: u8,
    ) -> NodeContext<'a> {
        NodeContext {
            tt: self.tt,
            alpha,
            beta,
            depth,
            empties,
            exact: depth >= empties && !self.selectivity.is_selective(),
            hash_move,
            parallel: self.parallel,
        }
    }

    /// The `legal` moves of `node` in the order to search them: the game's values
    /// ([`SearchGame::generate`]), with the scores of shallow searches where the game asks for
    /// them ([`SearchGame::ordering_search`]), sorted best first; or the score that settles the
    /// node. Check for a stop afterwards (the list is then unsorted).
    #[inline]
    fn ordered_moves(
        &mut self,
        node: &G::Node,
        legal: u64,
        context: &NodeContext<'_>,
        list: &mut [Child<G::Move>],
    ) -> Generated {
        let generated = self.game.generate(node, legal, context, list);
        let Generated::Moves { len, .. } = generated else {
            return generated;
        };
        let list = &mut list[..len];
        if let Some((depth, weight)) = self.game.ordering_search(context.depth) {
            for c in list.iter_mut().filter(|c| c.sq != context.hash_move) {
                let child = self.game.play(node, c.sq, &c.mv);
                let score = if depth == 0 && self.game.empties(&child) != 0 {
                    // The child's static value, with the replies the game generated.
                    -self.evaluate(&child, c.replies)
                } else {
                    -self.pvs(&child, -SCORE_MAX, SCORE_MAX, depth)
                };
                if self.counter.is_stopped() {
                    return generated;
                }
                c.value += weight * score;
            }
        }
        list.sort_unstable_by_key(|c| -c.value);
        generated
    }

    /// Searches the ordered `moves` of `node` in its window, `best` the score already known:
    /// the first with the whole window, the later ones at a null window (in parallel from the
    /// second one at deep nodes). The best score (fail-soft) and its move, `None` when stopped.
    #[inline]
    fn search_moves(
        &mut self,
        node: &G::Node,
        moves: &[Child<G::Move>],
        mut best: i32,
        context: &NodeContext<'_>,
    ) -> Option<(i32, u8)> {
        let NodeContext {
            mut alpha,
            beta,
            depth,
            ..
        } = *context;
        let mut best_move = NO_MOVE;
        for (
            i,
            &Child {
                sq, mv, replies, ..
            },
        ) in moves.iter().enumerate()
        {
            if i == 1 && self.parallel && depth >= G::SPLIT_MIN_DEPTH && moves.len() > 2 {
                let (score, split_move) = if beta == alpha + 1 {
                    let found = self.split(node, alpha, &moves[1..], depth);
                    if self.counter.is_stopped() {
                        return None;
                    }
                    found
                } else {
                    match self.split_pv(node, alpha, beta, &moves[1..], depth) {
                        (_, _, true) => return None,
                        (score, sq, false) => (score, sq),
                    }
                };
                if score > best {
                    best = score;
                    best_move = split_move;
                }
                break;
            }
            let child = self.game.play(node, sq, &mv);
            let score = if depth == 1 && self.game.empties(&child) != 0 {
                // A leaf: its static value with the replies the ordering generated. A
                // null-window search inside the window would be searched again for the same
                // value: counted, not repeated.
                let score = -self.evaluate(&child, replies);
                if i > 0 && score > alpha && score < beta {
                    self.counter.count();
                }
                score
            } else {
                self.search_move(&child, i == 0, alpha, beta, depth - 1)
            };
            if self.counter.is_stopped() {
                return None;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// The score of one move's `child` (`depth` plies below it): the first move with the whole
    /// window, a later one with a null window, searched again with the whole window when it
    /// lands inside it (principal variation search).
    #[inline]
    fn search_move(
        &mut self,
        child: &G::Node,
        first: bool,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        if first {
            return -self.pvs(child, -beta, -alpha, depth);
        }
        let score = -self.pvs(child, -alpha - 1, -alpha, depth);
        if !self.counter.is_stopped() && score > alpha && score < beta {
            return -self.pvs(child, -beta, -alpha, depth);
        }
        score
    }

    /// Multi-ProbCut: a shallow null-window search (at the shallowest depths, the static
    /// evaluation) predicts whether the deep one would fail high (or low) with the confidence of
    /// the current selectivity; if so, returns the bound.
    fn probcut(
        &mut self,
        node: &G::Node,
        alpha: i32,
        beta: i32,
        depth: u32,
        empties: u32,
    ) -> Option<i32> {
        if !self.selectivity.is_selective() {
            return None;
        }
        let t = self.selectivity.t();
        if depth <= probcut::STATIC_MAX_DEPTH {
            // The static evaluation stands in for the shallow search (not counted: no new
            // position).
            let (a, b, sigma) = probcut::static_parameters(depth, empties);
            let predicted = a + b * self.game.evaluate(node, None) as f32;
            if beta < SCORE_MAX && predicted >= beta as f32 + t * sigma {
                return Some(beta);
            }
            if alpha > -SCORE_MAX && predicted <= alpha as f32 - t * sigma {
                return Some(alpha);
            }
            return None;
        }
        if depth < probcut::MIN_DEPTH {
            return None;
        }
        let shallow = probcut::shallow_depth(depth);
        let (a, b, sigma) = probcut::parameters(depth, empties);
        let high = ((beta as f32 + t * sigma - a) / b).ceil() as i32;
        if beta < SCORE_MAX && high < SCORE_MAX {
            let score = self.pvs(node, high - 1, high, shallow);
            if self.counter.is_stopped() {
                return Some(0);
            }
            if score >= high {
                return Some(beta);
            }
        }
        let low = ((alpha as f32 - t * sigma - a) / b).floor() as i32;
        if alpha > -SCORE_MAX && low > -SCORE_MAX {
            let score = self.pvs(node, low, low + 1, shallow);
            if self.counter.is_stopped() {
                return Some(0);
            }
            if score <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// The later `moves` of a PV node `(alpha, beta)` in parallel: a null-window split at
    /// `alpha`; a move that fails high is searched again in the window (alone), and the moves
    /// left are split again above the new alpha (those already refuted settle from the table).
    /// Returns the best score (fail-soft), its move, and whether the search was stopped: then
    /// the best of the moves searched to the end in the window (`NO_MOVE` if none). Never
    /// inlined, as [`Self::split`]: the one-thread search never calls them and keeps its hot
    /// loop lean.
    #[inline(never)]
    fn split_pv(
        &mut self,
        node: &G::Node,
        mut alpha: i32,
        beta: i32,
        moves: &[Child<G::Move>],
        depth: u32,
    ) -> (i32, u8, bool) {
        let mut rest = moves.to_vec();
        let (mut best, mut best_move) = (-INF, NO_MOVE);
        while !rest.is_empty() {
            let (score, sq) = if rest.len() == 1 {
                let c = rest[0];
                let child = self.game.play(node, c.sq, &c.mv);
                (-self.pvs(&child, -alpha - 1, -alpha, depth - 1), c.sq)
            } else {
                self.split(node, alpha, &rest, depth)
            };
            if self.counter.is_stopped() {
                return (best, best_move, true);
            }
            if score <= alpha || score >= beta {
                if score > best {
                    best = score;
                    best_move = sq;
                }
                break;
            }
            let j = rest.iter().position(|c| c.sq == sq).expect("a split move");
            let c = rest.remove(j);
            let child = self.game.play(node, c.sq, &c.mv);
            let score = -self.pvs(&child, -beta, -alpha, depth - 1);
            if self.counter.is_stopped() {
                return (best, best_move, true);
            }
            if score > best {
                best = score;
                best_move = c.sq;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        (best, best_move, false)
    }

    /// Searches `moves` of a null-window node `(alpha, alpha + 1)` in parallel; the first child
    /// that fails high cancels its siblings. Returns the best score and its move.
    #[inline(never)]
    fn split(
        &mut self,
        node: &G::Node,
        alpha: i32,
        moves: &[Child<G::Move>],
        depth: u32,
    ) -> (i32, u8) {
        let (tt, game, selectivity) = (self.tt, self.game, self.selectivity);
        let control = self.counter.control();
        let (best, sq, nodes) = control::split(&control, moves, alpha, -INF, |c, control| {
            let mut sub = Pvs::new(tt, game, control, true, selectivity);
            let child = game.play(node, c.sq, &c.mv);
            let score = -sub.pvs(&child, -alpha - 1, -alpha, depth - 1);
            (score, c.sq, sub.nodes(), sub.is_stopped())
        });
        self.counter.add(nodes);
        if control.is_set() {
            self.counter.stop();
        }
        (best, sq)
    }
}

/// The best line: the root move `first`, then the hash table's best moves while they are legal,
/// up to `depth` moves (passes included, not counted).
pub(crate) fn principal_variation<G: SearchGame>(
    game: &G,
    tt: &TranspositionTable,
    node: &G::Node,
    first: u8,
    depth: u32,
) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut node = *node;
    let mut next = first;
    let mut plies = 0;
    let hash_move = |node: &G::Node| {
        let key = game.key(node);
        tt.probe(&key, key.hash()).map_or(NO_MOVE, |e| e.best_move)
    };
    while plies < depth.max(1) && pv.len() < 80 {
        let legal = game.moves(&node);
        if legal == 0 {
            let passed = game.pass(&node);
            if game.moves(&passed) == 0 {
                break;
            }
            pv.push(Move::Pass);
            node = passed;
            next = hash_move(&node);
            continue;
        }
        let Some(sq) = Square::from_index(next).filter(|&s| legal >> s.index() & 1 != 0) else {
            break;
        };
        pv.push(Move::Play(sq));
        let x = sq.index();
        node = game.play(&node, x, &game.make_move(&node, x as usize));
        plies += 1;
        next = hash_move(&node);
    }
    pv
}

/// A solver that can confirm the exact value of a position: what [`exact_line`] needs.
pub(crate) trait ExactSolver {
    /// The game solved.
    type Game: SearchGame;
    /// The game.
    fn game(&self) -> Self::Game;
    /// The hash table.
    fn tt(&self) -> &TranspositionTable;
    /// Bounds on the exact score of `node` that a hash table holds.
    fn exact_bounds(&self, node: &<Self::Game as SearchGame>::Node) -> Option<(i32, i32)>;
    /// The exact score of `node` in `(alpha, beta)`, fail-soft.
    fn solve(
        &mut self,
        node: &<Self::Game as SearchGame>::Node,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Stopped>;
}

/// A search of any game confirms exact values by searching to the end (the variants' exact
/// lines; the 8×8 board's come from its own solver).
impl<G: SearchGame> ExactSolver for Pvs<'_, G> {
    type Game = G;

    fn game(&self) -> G {
        self.game
    }

    fn tt(&self) -> &TranspositionTable {
        self.tt
    }

    fn exact_bounds(&self, node: &G::Node) -> Option<(i32, i32)> {
        let key = self.game.key(node);
        self.tt
            .probe(&key, key.hash())
            .filter(|e| e.is_exact(self.game.empties(node)))
            .map(|e| (e.lower as i32, e.upper as i32))
    }

    fn solve(&mut self, node: &G::Node, alpha: i32, beta: i32) -> Result<i32, Stopped> {
        let score = self.pvs(node, alpha, beta, u32::MAX);
        if self.is_stopped() {
            Err(Stopped)
        } else {
            Ok(score)
        }
    }
}

/// A line of best moves from `node` whose value is `score` (exact, or with `wld` the verdict as
/// `+2/0/-2`): at each position the child whose exact score a hash table already holds, else the
/// first child (the hash move first) that a search with a window around the expected value
/// confirms.
/// The moves found go into `pv`, also when the search is stopped.
pub(crate) fn exact_line<S: ExactSolver>(
    solver: &mut S,
    node: &<S::Game as SearchGame>::Node,
    score: i32,
    wld: bool,
    pv: &mut Vec<Move>,
) -> Result<(), Stopped> {
    let mut node = *node;
    let mut score = score;
    loop {
        let game = solver.game();
        let legal = game.moves(&node);
        if legal == 0 {
            let passed = game.pass(&node);
            if game.moves(&passed) == 0 {
                return Ok(());
            }
            pv.push(Move::Pass);
            node = passed;
            score = -score;
            continue;
        }
        let key = game.key(&node);
        let hash_move = solver
            .tt()
            .probe(&key, key.hash())
            .map_or(NO_MOVE, |e| e.best_move);
        let mut children: Vec<(u8, <S::Game as SearchGame>::Node)> = crate::board::Bitboard(legal)
            .iter()
            .map(|sq| {
                let x = sq.index();
                (x, game.play(&node, x, &game.make_move(&node, x as usize)))
            })
            .collect();
        if let Some(i) = children.iter().position(|&(s, _)| s == hash_move) {
            children.swap(0, i);
        }
        // Whether a child's value (for the side to move here) reaches `score`.
        let reaches = |value: i32| {
            if wld {
                2 * value.signum() == score
            } else {
                value == score
            }
        };
        // A child whose exact score a table already holds settles the move without a search
        // (the exact search leaves its principal variation there).
        let mut chosen = children.iter().copied().find(|(_, child)| {
            solver
                .exact_bounds(child)
                .is_some_and(|(lower, upper)| lower == upper && reaches(-lower))
        });
        if chosen.is_none() {
            let (alpha, beta) = if wld {
                (-1, 1)
            } else {
                (-score - 1, -score + 1)
            };
            for (sq, child) in children {
                if reaches(-solver.solve(&child, alpha, beta)?) {
                    chosen = Some((sq, child));
                    break;
                }
            }
        }
        let Some((sq, child)) = chosen else {
            // Only a solver whose table was overwritten mid-line can get here.
            return Ok(());
        };
        pv.push(Move::Play(Square::from_index_unchecked(sq)));
        node = child;
        score = -score;
    }
}
