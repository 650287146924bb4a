//! The search for the rule variants (small boards, Reversi start, limited discs, Anti-Reversi):
//! the same PVS as the main search, written over [`State`] and [`Rules`] so that every rule is
//! honoured, with a simple evaluation (mobility and corners, signed by the goal).
//!
//! A depth that covers the empty squares makes the search exact (passes use no depth, and a
//! finished game scores exactly). Exact nodes with few empties run a plain alpha-beta; deeper
//! nodes use the shared transposition table (keyed by [`State::key`], which folds in the disc
//! supplies), the hash move, fastest-first ordering and Young Brothers Wait splits over the
//! rayon pool.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::movegen::{flips, moves as movegen_moves};
use crate::board::rules::{Goal, Rules, State, UNLIMITED};
use crate::board::{Bitboard, Board, Move, Square};
use crate::search::control::{self, Control};
use crate::search::time::TimePlan;
use crate::search::tt::{NO_MOVE, SEL_EXACT, TranspositionTable, TtData};
use crate::search::{Bound, SearchResult, Source};

/// Exact nodes with at most this many empties: no table, no sorting.
const SHALLOW: u32 = 6;

/// Parallel splits only at nodes with at least this remaining depth (or empties when exact).
const SPLIT_MIN: u32 = 11;

/// Above any score.
const INF: i32 = 127;

/// Depth limit that means "to the end".
pub const EXACT: u32 = u32::MAX;

/// The variant search of one thread.
pub struct VariantSearch<'a> {
    rules: Rules,
    geometry: Geometry,
    tt: &'a TranspositionTable,
    control: Control<'a>,
    poll: u32,
    parallel: bool,
    aborted: bool,
    /// Positions visited.
    pub nodes: u64,
}

/// Square classes of a board size, for move ordering.
#[derive(Clone, Copy)]
struct Geometry {
    /// The four quadrants (size/2 × size/2 each).
    quadrants: [u64; 4],
    corners: u64,
    /// Corners high, the squares next to them low.
    square_value: [i8; 64],
}

impl Geometry {
    fn new(size: u8) -> Geometry {
        let s = i32::from(size);
        let h = s / 2;
        let mut quadrants = [0u64; 4];
        let mut square_value = [0i8; 64];
        for r in 0..s {
            for c in 0..s {
                let sq = (r * 8 + c) as usize;
                quadrants[((r >= h) as usize) * 2 + (c >= h) as usize] |= 1 << sq;
                // Distance to the nearest edge along each axis.
                let (dr, dc) = (r.min(s - 1 - r), c.min(s - 1 - c));
                square_value[sq] = match (dr, dc) {
                    (0, 0) => 10,
                    (1, 1) => -6,
                    (0, 1) | (1, 0) => -2,
                    (0, _) | (_, 0) => 3,
                    _ => 0,
                };
            }
        }
        Geometry {
            quadrants,
            corners: Rules {
                size,
                ..Rules::OTHELLO
            }
            .corners(),
            square_value,
        }
    }

    /// The union of the quadrants holding an odd number of empties.
    #[inline]
    fn odd_quadrants(&self, empties: u64) -> u64 {
        let mut odd = 0;
        for q in self.quadrants {
            if (empties & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }
}

/// Exact nodes with at least this many empties order moves by a 1-ply look-ahead.
const LOOKAHEAD_MIN: u32 = 14;

/// Exact nodes with at least this many empties try enhanced transposition cut-offs.
const ETC_MIN: u32 = 10;

#[derive(Clone, Copy)]
struct Candidate {
    sq: u8,
    value: i32,
    child: State,
}

impl<'a> VariantSearch<'a> {
    /// A search stopped by `stop`.
    pub fn new(rules: Rules, tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        Self::with_control(rules, tt, Control::new(stop, None))
    }

    pub(crate) fn with_control(
        rules: Rules,
        tt: &'a TranspositionTable,
        control: Control<'a>,
    ) -> Self {
        VariantSearch {
            rules,
            geometry: Geometry::new(rules.size),
            tt,
            control,
            poll: 0,
            parallel: false,
            aborted: false,
            nodes: 0,
        }
    }

    /// Splits deep nodes over the current rayon pool.
    pub fn parallel(mut self) -> Self {
        self.parallel = true;
        self
    }

    /// Whether the search was stopped (its result is then meaningless).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The score of `state` for the side to move in `(alpha, beta)`, fail-soft, `depth` plies
    /// deep ([`EXACT`] or any depth ≥ the empties: exact).
    pub fn search(&mut self, state: &State, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.control.should_stop(&mut self.poll) {
            self.aborted = true;
            return 0;
        }
        let n = self.rules.empty_count(&state.board());
        let moves = self.rules.moves(state);
        if moves == 0 {
            let passed = state.pass();
            if self.rules.moves(&passed) == 0 {
                return self.rules.final_score(&state.board());
            }
            return -self.search(&passed, depth, -beta, -alpha);
        }
        let exact = depth >= n;
        if depth == 0 {
            return self.evaluate(state, moves);
        }
        if exact && n <= SHALLOW {
            if state.left == [UNLIMITED; 2] && !self.rules.in_placement(&state.board()) {
                let b = state.board();
                return self.shallow_plain(b.player, b.opponent, moves, alpha, beta, n);
            }
            return self.shallow(state, moves, alpha, beta);
        }
        let key = state.key();
        let hash = key.hash();
        let mut hash_move = NO_MOVE;
        if let Some(entry) = self.tt.probe(&key, hash) {
            let usable = entry.selectivity == SEL_EXACT || (!exact && entry.depth as u32 >= depth);
            if usable && let Some(score) = entry.narrow(&mut alpha, &mut beta) {
                return score;
            }
            hash_move = entry.best_move;
        }
        let mut list = [Candidate {
            sq: NO_MOVE,
            value: 0,
            child: *state,
        }; 64];
        let mut len = 0;
        let g = self.geometry;
        let empties = self.rules.empties(&state.board());
        let odd = if exact && n <= 16 {
            g.odd_quadrants(empties)
        } else {
            0
        };
        let sign = self.goal_sign();
        let mut best = -INF;
        for sq in Bitboard(moves).iter() {
            let x = sq.index();
            let child = self.rules.play_unchecked(state, x as usize);
            if exact && n >= ETC_MIN {
                let child_key = child.key();
                if let Some(e) = self.tt.probe(&child_key, child_key.hash())
                    && e.selectivity == SEL_EXACT
                {
                    if -(e.upper as i32) >= beta {
                        return -(e.upper as i32);
                    }
                    if -(e.lower as i32) <= alpha {
                        best = best.max(-(e.lower as i32));
                        continue;
                    }
                }
            }
            let value = if x == hash_move {
                1 << 20
            } else {
                let replies = self.rules.moves(&child);
                let mobility =
                    (replies.count_ones() + 2 * (replies & g.corners).count_ones()) as i32;
                let mut value = -64 * mobility
                    + 16 * (odd >> x & 1) as i32
                    + 4 * sign * i32::from(g.square_value[x as usize]);
                if exact && n >= LOOKAHEAD_MIN {
                    value -= 4 * self.lookahead(&child, replies);
                }
                value
            };
            list[len] = Candidate {
                sq: x,
                value,
                child,
            };
            len += 1;
        }
        if len == 0 {
            // Every move was settled by the table.
            return best;
        }
        let list = &mut list[..len];
        list.sort_unstable_by_key(|c| -c.value);
        let child_depth = if exact { EXACT } else { depth - 1 };
        let split_depth = if exact { n } else { depth };
        let alpha_start = alpha;
        let mut best_move = NO_MOVE;
        for i in 0..len {
            if i == 1 && self.parallel && split_depth >= SPLIT_MIN && beta == alpha + 1 && len > 2 {
                let (score, sq) = self.split(&list[1..], alpha, child_depth);
                if self.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = sq;
                }
                break;
            }
            let c = list[i];
            let mut score;
            if i == 0 {
                score = -self.search(&c.child, child_depth, -beta, -alpha);
            } else {
                score = -self.search(&c.child, child_depth, -alpha - 1, -alpha);
                if score > alpha && score < beta {
                    score = -self.search(&c.child, child_depth, -beta, -alpha);
                }
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = c.sq;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let (stored_depth, selectivity) = if exact { (n, SEL_EXACT) } else { (depth, 1) };
        self.tt.store(
            &key,
            hash,
            TtData::from_result(
                best,
                alpha_start,
                beta,
                best_move,
                stored_depth,
                selectivity,
            ),
        );
        best
    }

    /// The best crude value (mobility and corners) one ply below `state`, for ordering.
    fn lookahead(&self, state: &State, moves: u64) -> i32 {
        if moves == 0 {
            return -self.crude(&state.pass());
        }
        Bitboard(moves)
            .iter()
            .map(|sq| -self.crude(&self.rules.play_unchecked(state, sq.index() as usize)))
            .max()
            .unwrap_or(0)
    }

    /// Weighted mobility difference and corners, for the side to move.
    fn crude(&self, state: &State) -> i32 {
        let c = self.geometry.corners;
        let mine = self.rules.moves(state);
        let theirs = self.rules.moves(&state.pass());
        let b = state.board();
        let m = |x: u64| (x.count_ones() + 2 * (x & c).count_ones()) as i32;
        4 * (m(mine) - m(theirs))
            + 16 * self.goal_sign()
                * ((b.player & c).count_ones() as i32 - (b.opponent & c).count_ones() as i32)
    }

    /// Searches `moves` of a null-window node `(alpha, alpha + 1)` in parallel.
    fn split(&mut self, moves: &[Candidate], alpha: i32, depth: u32) -> (i32, u8) {
        let (rules, tt) = (self.rules, self.tt);
        let (best, sq, nodes) = control::split(&self.control, moves, alpha, -INF, |c, control| {
            let mut sub = VariantSearch::with_control(rules, tt, control).parallel();
            let score = -sub.search(&c.child, depth, -alpha - 1, -alpha);
            (score, c.sq, sub.nodes, sub.aborted)
        });
        self.nodes += nodes;
        if self.control.is_set() {
            self.aborted = true;
        }
        (best, sq)
    }

    /// Exact alpha-beta without table or ordering, for the last few empties.
    fn shallow(&mut self, state: &State, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INF;
        for sq in Bitboard(moves).iter() {
            let child = self.rules.play_unchecked(state, sq.index() as usize);
            self.nodes += 1;
            let child_moves = self.rules.moves(&child);
            let score = if child_moves == 0 {
                let passed = child.pass();
                let back = self.rules.moves(&passed);
                if back == 0 {
                    -self.rules.final_score(&child.board())
                } else {
                    self.shallow(&passed, back, alpha, beta)
                }
            } else {
                -self.shallow(&child, child_moves, -beta, -alpha)
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// [`VariantSearch::shallow`] without supplies or placement (the common case): plain
    /// bitboards, moves in odd quadrants first.
    fn shallow_plain(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        let mask = self.rules.mask();
        let empties = mask & !(p | o);
        let odd = self.geometry.odd_quadrants(empties);
        let mut best = -INF;
        for class in [moves & odd, moves & !odd] {
            for sq in Bitboard(class).iter() {
                let x = sq.index() as usize;
                let f = flips(p, o, x);
                let (cp, co) = (o ^ f, p | f | 1 << x);
                self.nodes += 1;
                let score = if n == 2 {
                    // One empty left: whoever can take it does, else the game ends.
                    self.last_square(cp, co, empties & !(1 << x))
                } else if n == 1 {
                    -self.rules.final_score(&Board {
                        player: cp,
                        opponent: co,
                    })
                } else {
                    let child_moves = movegen_moves(cp, co) & mask;
                    if child_moves == 0 {
                        let back = movegen_moves(co, cp) & mask;
                        if back == 0 {
                            -self.rules.final_score(&Board {
                                player: cp,
                                opponent: co,
                            })
                        } else {
                            self.shallow_plain(co, cp, back, alpha, beta, n - 1)
                        }
                    } else {
                        -self.shallow_plain(cp, co, child_moves, -beta, -alpha, n - 1)
                    }
                };
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if score >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// The final score for the player who is *not* to move in `(p, o)` (the parent's view)
    /// with the single empty square `last`: the side to move takes it if it flips, else the
    /// other side, else the game ends.
    fn last_square(&mut self, p: u64, o: u64, last: u64) -> i32 {
        let x = last.trailing_zeros() as usize;
        self.nodes += 1;
        // `mine`/`theirs`: the parent's side and the side to move here, at the end.
        let f = flips(p, o, x);
        let (mine, theirs) = if f != 0 {
            (o ^ f, p | f | last)
        } else {
            let f = flips(o, p, x);
            if f != 0 {
                (o | f | last, p ^ f)
            } else {
                (o, p)
            }
        };
        self.rules.final_score(&Board {
            player: mine,
            opponent: theirs,
        })
    }

    fn goal_sign(&self) -> i32 {
        match self.rules.goal {
            Goal::MostDiscs => 1,
            Goal::FewestDiscs => -1,
        }
    }

    fn evaluate(&self, state: &State, moves: u64) -> i32 {
        evaluate_with_moves(&self.rules, state, moves)
    }
}

/// A simple evaluation for the side to move, in discs: mobility, and corners (good when most
/// discs wins, bad when fewest does). Never a proven score.
pub fn evaluate(rules: &Rules, state: &State) -> i32 {
    evaluate_with_moves(rules, state, rules.moves(state))
}

fn evaluate_with_moves(rules: &Rules, state: &State, moves: u64) -> i32 {
    let board = state.board();
    let replies = rules.moves(&state.pass());
    let mobility = moves.count_ones() as i32 - replies.count_ones() as i32;
    let corners = rules.corners();
    let corner = (board.player & corners).count_ones() as i32
        - (board.opponent & corners).count_ones() as i32;
    let sign = match rules.goal {
        Goal::MostDiscs => 1,
        Goal::FewestDiscs => -1,
    };
    let limit = rules.squares() as i32 - 2;
    (2 * mobility + 6 * corner * sign).clamp(-limit, limit)
}

/// The exact best line from `state`, whose exact score is `score`: at each ply the first move
/// (hash move first) whose exact value is the score.
pub fn exact_line(
    rules: Rules,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    state: &State,
    score: i32,
) -> Vec<Move> {
    let mut line = Vec::new();
    let (mut state, mut score) = (*state, score);
    let mut search = VariantSearch::new(rules, tt, stop);
    while !rules.is_over(&state) {
        let moves = rules.moves(&state);
        if moves == 0 {
            line.push(Move::Pass);
            state = state.pass();
            score = -score;
            continue;
        }
        let hash_move = tt
            .probe(&state.key(), state.key().hash())
            .map_or(NO_MOVE, |e| e.best_move);
        let mut squares: Vec<u8> = Bitboard(moves).iter().map(|s| s.index()).collect();
        squares.sort_by_key(|&x| x != hash_move);
        let Some(&x) = squares.iter().find(|&&x| {
            let child = rules.play_unchecked(&state, x as usize);
            -search.search(&child, EXACT, -score - 1, -score + 1) == score
        }) else {
            break;
        };
        if search.aborted() {
            break;
        }
        line.push(Move::Play(Square::from_index_unchecked(x)));
        state = rules.play_unchecked(&state, x as usize);
        score = -score;
    }
    line
}

/// What one call of [`think`] searches.
pub(crate) struct VariantThink<'a> {
    /// The rules.
    pub rules: Rules,
    /// The position (with at least one allowed move).
    pub state: State,
    /// Deepest iteration.
    pub max_depth: Option<u32>,
    /// The first iteration (1 normally; a multi-PV search runs one depth at a time).
    pub first_depth: u32,
    /// Deadlines.
    pub plan: TimePlan,
    /// Root moves to consider (a square mask).
    pub allowed: u64,
    /// Called after every completed iteration.
    pub observer: &'a mut (dyn FnMut(&SearchResult) + Send),
}

/// Iterative deepening over the variant search; the iteration that reaches the empties is exact.
/// A depth limit alone solves exactly from depth × 3/2 empties, as the main search does.
pub(crate) fn think(
    tt: &TranspositionTable,
    stop: &AtomicBool,
    think: VariantThink<'_>,
) -> SearchResult {
    let VariantThink {
        rules,
        state,
        max_depth,
        first_depth,
        plan,
        allowed,
        observer,
    } = think;
    let outer = Control::new(stop, None);
    let deadline = AtomicBool::new(false);
    let control = outer.nested(&deadline, plan.hard);
    let empties = rules.empty_count(&state.board());
    let legal = rules.moves(&state) & allowed;
    assert!(legal != 0, "think needs a legal move");
    let mut root: Vec<(u8, State)> = Bitboard(legal)
        .iter()
        .map(|sq| {
            (
                sq.index(),
                rules.play_unchecked(&state, sq.index() as usize),
            )
        })
        .collect();
    let max_depth = max_depth.unwrap_or(60).max(1);
    let mut depth = if plan.hard.is_none() && empties <= max_depth + max_depth / 2 {
        empties
    } else {
        first_depth.clamp(1, max_depth).min(empties)
    };
    let mut nodes = 0;
    let mut best: Option<SearchResult> = None;
    loop {
        let exact = depth >= empties;
        let mut search = VariantSearch::with_control(rules, tt, control).parallel();
        let mut alpha = -INF;
        let mut best_index = 0;
        for (i, &(_, child)) in root.iter().enumerate() {
            let d = if exact { EXACT } else { depth - 1 };
            let mut score = if i == 0 {
                -search.search(&child, d, -INF, INF)
            } else {
                -search.search(&child, d, -alpha - 1, -alpha)
            };
            if i > 0 && score > alpha && !search.aborted() {
                score = -search.search(&child, d, -INF, -alpha);
            }
            if search.aborted() {
                break;
            }
            if score > alpha {
                alpha = score;
                best_index = i;
            }
        }
        nodes += search.nodes;
        if search.aborted() {
            break;
        }
        root[..=best_index].rotate_right(1);
        let (sq, child) = root[0];
        let mut pv = vec![Move::Play(Square::from_index_unchecked(sq))];
        if exact {
            pv.extend(exact_line(rules, tt, stop, &child, -alpha));
        }
        let result = SearchResult {
            best_move: pv[0],
            score: alpha,
            depth: if exact { empties } else { depth },
            selectivity: 100,
            bound: if exact { Bound::Exact } else { Bound::Estimate },
            nodes,
            time: plan.start.elapsed(),
            pv,
            source: Source::Search,
        };
        observer(&result);
        best = Some(result);
        if exact || depth >= max_depth || plan.past_soft(Instant::now()) {
            break;
        }
        depth += 1;
    }
    let mut result = best.unwrap_or_else(|| {
        // Stopped before the first iteration: the first move, unsearched.
        let mv = Move::Play(Square::from_index_unchecked(root[0].0));
        SearchResult::immediate(mv, 0, Bound::Estimate, Source::Search, plan.start.elapsed())
    });
    result.nodes = nodes;
    result.time = plan.start.elapsed();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::Opening;

    /// Plain minimax over the rules: the reference for the exact search.
    fn minimax(rules: &Rules, state: &State) -> i32 {
        let moves = rules.moves(state);
        if moves == 0 {
            let passed = state.pass();
            if rules.moves(&passed) == 0 {
                return rules.final_score(&state.board());
            }
            return -minimax(rules, &passed);
        }
        Bitboard(moves)
            .iter()
            .map(|sq| -minimax(rules, &rules.play_unchecked(state, sq.index() as usize)))
            .max()
            .expect("a move")
    }

    /// A state `plies` random moves from the start.
    fn random_state(rules: &Rules, seed: u64, plies: u32) -> State {
        let mut state = rules.start();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..plies {
            let moves = rules.moves(&state);
            if moves == 0 {
                if rules.is_over(&state) {
                    break;
                }
                state = state.pass();
                continue;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let list: Vec<Square> = Bitboard(moves).iter().collect();
            let sq = list[(x % list.len() as u64) as usize];
            state = rules.play_unchecked(&state, sq.index() as usize);
        }
        state
    }

    #[test]
    fn exact_search_matches_minimax_under_every_rule_set() {
        let tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for size in [4u8, 6] {
            for opening in [Opening::Cross, Opening::Placement] {
                for goal in [Goal::MostDiscs, Goal::FewestDiscs] {
                    for discs in [None, Some(size * size / 2 - 2)] {
                        let rules = Rules {
                            size,
                            opening,
                            discs_per_player: discs,
                            goal,
                        };
                        // About 10 empties left (the whole 4×4 game from the crossed start).
                        let empties = rules.empty_count(&rules.start().board());
                        let plies = empties.saturating_sub(if size == 4 { 12 } else { 10 });
                        for seed in 0..3 {
                            let state = random_state(&rules, seed, plies + seed as u32);
                            let exact = minimax(&rules, &state);
                            tt.clear();
                            let mut search = VariantSearch::new(rules, &tt, &stop);
                            assert_eq!(
                                search.search(&state, EXACT, -INF, INF),
                                exact,
                                "{rules} seed {seed}"
                            );
                            let narrow = search.search(&state, EXACT, exact - 1, exact + 1);
                            assert_eq!(narrow, exact, "{rules} seed {seed}");
                            let line = exact_line(rules, &tt, &stop, &state, exact);
                            let mut end = state;
                            for &mv in &line {
                                end = rules.play(&end, mv).unwrap();
                            }
                            assert!(rules.is_over(&end), "{rules}: {line:?}");
                            let sign = if end.to_move() == state.to_move() {
                                1
                            } else {
                                -1
                            };
                            assert_eq!(sign * rules.final_score(&end.board()), exact);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 48);
    }
}
