//! The rule variants (small boards, Reversi start, limited discs, Anti-Reversi) as a game of the
//! generic search ([`crate::search::pvs`]): [`Variant`] plays every move, pass and final score
//! through [`Rules`] and [`State`], keys the hash table by [`State::key`] (which folds in the
//! disc supplies), orders moves fastest-first (with parity and a look-ahead when exact) and tries
//! enhanced transposition cut-offs; the evaluation is a simple one (mobility and corners, signed
//! by the goal).
//!
//! A depth that covers the empty squares makes the search exact (passes use no depth, and a
//! finished game scores exactly). Exact nodes with few empties hand over to a plain alpha-beta.

use std::sync::atomic::AtomicBool;

use crate::board::movegen::{flips, moves as movegen_moves};
use crate::board::rules::{Goal, Rules, State, UNLIMITED};
use crate::board::{Bitboard, Board, Move};
use crate::eval::Replies;
use crate::search::INF;
use crate::search::control::Control;
use crate::search::control::Counter;
use crate::search::params::{
    VARIANT_ETC_MIN, VARIANT_LOOKAHEAD_MIN, VARIANT_SHALLOW_MAX, VARIANT_SPLIT_MIN_DEPTH,
};
use crate::search::probcut::Selectivity;
use crate::search::pvs::{self, Child, Generated, NodeContext, Pvs, SearchGame};
use crate::search::tt::{ScoreKind, TranspositionTable};

/// Depth limit that means "to the end".
pub const EXACT: u32 = u32::MAX;

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
        crate::board::bitboard::odd_quadrants(&self.quadrants, empties)
    }
}

/// A rule set as a game of the search.
#[derive(Clone, Copy)]
pub(crate) struct Variant {
    rules: Rules,
    geometry: Geometry,
}

impl Variant {
    /// The game of `rules`.
    pub fn new(rules: Rules) -> Variant {
        Variant {
            rules,
            geometry: Geometry::new(rules.size),
        }
    }

    fn goal_sign(&self) -> i32 {
        match self.rules.goal {
            Goal::MostDiscs => 1,
            Goal::FewestDiscs => -1,
        }
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
}

impl SearchGame for Variant {
    type Node = State;
    type Move = State;
    type List = [Child<State>; 64];
    const SPLIT_MIN_DEPTH: u32 = VARIANT_SPLIT_MIN_DEPTH;
    const PRESEARCH: bool = false;

    #[inline]
    fn empties(&self, state: &State) -> u32 {
        self.rules.empty_count(&state.board())
    }

    #[inline]
    fn key(&self, state: &State) -> Board {
        state.key()
    }

    #[inline]
    fn moves(&self, state: &State) -> u64 {
        self.rules.moves(state)
    }

    #[inline]
    fn make_move(&self, state: &State, sq: usize) -> State {
        self.rules.play_unchecked(state, sq)
    }

    #[inline]
    fn play(&self, _: &State, _: u8, child: &State) -> State {
        *child
    }

    #[inline]
    fn pass(&self, state: &State) -> State {
        state.pass()
    }

    #[inline]
    fn final_score(&self, state: &State) -> i32 {
        self.rules.final_score(&state.board())
    }

    #[inline]
    fn evaluate(&self, state: &State, known: Option<Replies>) -> i32 {
        let moves = known.map_or_else(|| self.rules.moves(state), |k| k.moves);
        evaluate_with_moves(&self.rules, state, moves)
    }

    fn new_list(&self, state: &State) -> Self::List {
        [Child {
            sq: 0,
            mv: *state,
            value: 0,
            replies: None,
        }; 64]
    }

    fn exact_seconds(_: u32, _: usize) -> Option<f64> {
        None
    }

    /// At most [`VARIANT_SHALLOW_MAX`] empties: the plain alpha-beta kernels.
    fn exact(
        &self,
        state: &State,
        context: &NodeContext<'_>,
        counter: &mut Counter<'_>,
    ) -> Option<i32> {
        let NodeContext {
            alpha,
            beta,
            empties,
            ..
        } = *context;
        (empties <= VARIANT_SHALLOW_MAX).then(|| {
            Shallow {
                game: self,
                counter,
            }
            .entry(state, alpha, beta, empties)
        })
    }

    /// Hash move first, then fastest-first (the opponent's mobility, corners counting triple),
    /// moves into odd quadrants (exact, at most 16 empties), square values and, exact from
    /// [`VARIANT_LOOKAHEAD_MIN`] empties, a crude one-ply look-ahead. Exact nodes from
    /// [`VARIANT_ETC_MIN`] empties look each child up first: an exact bound that cuts settles the
    /// node, one that cannot raise alpha drops the move.
    fn generate(
        &self,
        state: &State,
        moves: u64,
        context: &NodeContext<'_>,
        list: &mut [Child<State>],
    ) -> Generated {
        let NodeContext {
            tt,
            alpha,
            beta,
            exact,
            hash_move,
            empties: n,
            ..
        } = *context;
        let g = self.geometry;
        let odd = if exact && n <= 16 {
            g.odd_quadrants(self.rules.empties(&state.board()))
        } else {
            0
        };
        let sign = self.goal_sign();
        let mut best = -INF;
        let mut len = 0;
        for sq in Bitboard(moves).iter() {
            let x = sq.index();
            let child = self.rules.play_unchecked(state, x as usize);
            if exact && n >= VARIANT_ETC_MIN {
                let child_key = child.key();
                if let Some(e) = tt.probe(&child_key, child_key.hash())
                    && e.kind == ScoreKind::Exact
                {
                    if -(e.upper as i32) >= beta {
                        return Generated::Cut(-(e.upper as i32));
                    }
                    if -(e.lower as i32) <= alpha {
                        best = best.max(-(e.lower as i32));
                        continue;
                    }
                }
            }
            let replies = self.rules.moves(&child);
            let value = if x == hash_move {
                1 << 20
            } else {
                let mobility =
                    (replies.count_ones() + 2 * (replies & g.corners).count_ones()) as i32;
                let mut value = -64 * mobility
                    + 16 * (odd >> x & 1) as i32
                    + 4 * sign * i32::from(g.square_value[x as usize]);
                if exact && n >= VARIANT_LOOKAHEAD_MIN {
                    value -= 4 * self.lookahead(&child, replies);
                }
                value
            };
            list[len] = Child {
                sq: x,
                mv: child,
                value,
                replies: Some(Replies::moves(replies)),
            };
            len += 1;
        }
        Generated::Moves { len, best }
    }

    fn confirmed_line(
        tt: &TranspositionTable,
        game: Self,
        stop: &AtomicBool,
        state: &State,
        score: i32,
    ) -> Option<Vec<Move>> {
        Some(exact_line(game.rules, tt, stop, state, score))
    }
}

/// The exact search of the last [`VARIANT_SHALLOW_MAX`] empties: plain alpha-beta without table
/// or ordering, counting into the calling search's counter.
struct Shallow<'g, 'c, 'a> {
    game: &'g Variant,
    counter: &'c mut Counter<'a>,
}

impl Shallow<'_, '_, '_> {
    /// The exact score of `state` with `n` ≤ [`VARIANT_SHALLOW_MAX`] empties.
    fn entry(&mut self, state: &State, alpha: i32, beta: i32, n: u32) -> i32 {
        self.counter.count();
        if self.counter.poll_stop() {
            return 0;
        }
        let rules = self.game.rules;
        let moves = rules.moves(state);
        if moves == 0 {
            let passed = state.pass();
            if rules.moves(&passed) == 0 {
                return rules.final_score(&state.board());
            }
            return -self.entry(&passed, -beta, -alpha, n);
        }
        if state.left == [UNLIMITED; 2] && !rules.in_placement(&state.board()) {
            let b = state.board();
            return self.plain(b.player, b.opponent, moves, alpha, beta, n);
        }
        self.any(state, moves, alpha, beta)
    }

    /// Exact alpha-beta under any rules (supplies, placement).
    fn any(&mut self, state: &State, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let rules = self.game.rules;
        let mut best = -INF;
        for sq in Bitboard(moves).iter() {
            let child = rules.play_unchecked(state, sq.index() as usize);
            self.counter.count();
            let child_moves = rules.moves(&child);
            let score = if child_moves == 0 {
                let passed = child.pass();
                let back = rules.moves(&passed);
                if back == 0 {
                    -rules.final_score(&child.board())
                } else {
                    self.any(&passed, back, alpha, beta)
                }
            } else {
                -self.any(&child, child_moves, -beta, -alpha)
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

    /// [`Shallow::any`] without supplies or placement (the common case): plain bitboards,
    /// moves in odd quadrants first.
    fn plain(&mut self, p: u64, o: u64, moves: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        let rules = self.game.rules;
        let mask = rules.mask();
        let empties = mask & !(p | o);
        let odd = self.game.geometry.odd_quadrants(empties);
        let mut best = -INF;
        for class in [moves & odd, moves & !odd] {
            for sq in Bitboard(class).iter() {
                let x = sq.index() as usize;
                let f = flips(p, o, x);
                let (cp, co) = (o ^ f, p | f | 1 << x);
                self.counter.count();
                let score = if n == 2 {
                    // One empty left: whoever can take it does, else the game ends.
                    self.last_square(cp, co, empties & !(1 << x))
                } else if n == 1 {
                    -rules.final_score(&Board {
                        player: cp,
                        opponent: co,
                    })
                } else {
                    let child_moves = movegen_moves(cp, co) & mask;
                    if child_moves == 0 {
                        let back = movegen_moves(co, cp) & mask;
                        if back == 0 {
                            -rules.final_score(&Board {
                                player: cp,
                                opponent: co,
                            })
                        } else {
                            self.plain(co, cp, back, alpha, beta, n - 1)
                        }
                    } else {
                        -self.plain(cp, co, child_moves, -beta, -alpha, n - 1)
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
        self.counter.count();
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
        self.game.rules.final_score(&Board {
            player: mine,
            opponent: theirs,
        })
    }
}

/// The variant search of one thread (for the solver's front end).
pub struct VariantSearch<'a> {
    search: Pvs<'a, Variant>,
}

impl<'a> VariantSearch<'a> {
    /// A search stopped by `stop`.
    #[cfg(test)]
    pub fn new(rules: Rules, tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        VariantSearch::with_control(rules, tt, Control::new(stop, None))
    }

    /// A search under `control`.
    pub(crate) fn with_control(
        rules: Rules,
        tt: &'a TranspositionTable,
        control: Control<'a>,
    ) -> Self {
        VariantSearch {
            search: Pvs::new(tt, Variant::new(rules), control, false, Selectivity::NONE),
        }
    }

    /// Splits deep nodes over the current rayon pool.
    pub fn parallel(mut self) -> Self {
        self.search = self.search.parallel();
        self
    }

    /// Whether the search was stopped (its result is then meaningless).
    pub fn is_stopped(&self) -> bool {
        self.search.is_stopped()
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// The score of `state` for the side to move in `(alpha, beta)`, fail-soft, `depth` plies
    /// deep ([`EXACT`] or any depth ≥ the empties: exact).
    pub fn search(&mut self, state: &State, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.search.pvs(state, alpha, beta, depth)
    }
}

/// A simple evaluation for the side to move, in discs: mobility, and corners (good when most
/// discs wins, bad when fewest does); the final score when neither side can move.
pub fn evaluate(rules: &Rules, state: &State) -> i32 {
    evaluate_with_moves(rules, state, rules.moves(state))
}

fn evaluate_with_moves(rules: &Rules, state: &State, moves: u64) -> i32 {
    let board = state.board();
    let replies = rules.moves(&state.pass());
    if moves == 0 && replies == 0 {
        return rules.final_score(&board);
    }
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

/// The exact best line from `state`, whose exact score is `score`: at each ply a move whose
/// exact value is the score (see [`pvs::exact_line`]).
pub fn exact_line(
    rules: Rules,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    state: &State,
    score: i32,
) -> Vec<Move> {
    let mut search = Pvs::new(
        tt,
        Variant::new(rules),
        Control::new(stop, None),
        false,
        Selectivity::NONE,
    );
    let mut line = Vec::new();
    // A stopped search leaves the line found so far.
    let _ = pvs::exact_line(&mut search, state, score, false, &mut line);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::rules::Setup;

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
            for setup in [Setup::Cross, Setup::Placement] {
                for goal in [Goal::MostDiscs, Goal::FewestDiscs] {
                    for discs in [None, Some(size * size / 2 - 2)] {
                        let rules = Rules {
                            size,
                            setup,
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

    /// The exact search has two loops: the generic PVS (which searches the variants, here on
    /// the 8×8 board with the standard rules) and the 8×8 solver's own (`EndgameSearch`, which
    /// the midgame hands over to). On FFO positions of 14 to 22 empties they give the same
    /// exact scores, those of the files.
    #[test]
    fn the_generic_search_and_the_solver_agree_on_8x8_endgames() {
        use crate::board::{Color, Position, parse_obf_line};
        use crate::search::endgame::EndgameSearch;
        let tt = TranspositionTable::new(16);
        let stop = AtomicBool::new(false);
        let files = [
            include_str!("../../tests/data/fforum-1-19.obf"),
            include_str!("../../tests/data/fforum-20-39.obf"),
        ];
        let mut by_empties = [0; 23];
        for entry in files
            .iter()
            .flat_map(|f| f.lines())
            .filter_map(|l| parse_obf_line(l).unwrap())
        {
            let board = entry.position.board;
            let empties = board.empty_count() as usize;
            if !(14..=22).contains(&empties) {
                continue;
            }
            let position = Position {
                board,
                to_move: Color::Black,
            };
            let state = Rules::OTHELLO.state(position).unwrap();
            tt.clear();
            let generic =
                VariantSearch::new(Rules::OTHELLO, &tt, &stop).search(&state, EXACT, -INF, INF);
            tt.clear();
            let solver = EndgameSearch::new(&tt, &stop)
                .search(&board, -64, 64)
                .unwrap();
            assert_eq!(generic, solver, "{board}");
            assert_eq!(Some(solver), entry.best_score(), "{board}");
            by_empties[empties] += 1;
        }
        assert_eq!(by_empties[14..=22], [7, 6, 7, 1, 1, 2, 9, 2, 1]);
    }
}
