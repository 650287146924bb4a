//! Rules as a value: the board size, the start, the disc supply and the goal of the game.
//!
//! Standard Othello is 8×8, four crossed centre discs, unlimited discs, most discs wins. The
//! other rule sets of this project's sources combine freely:
//! - **sizes** 4×4 and 6×6 (with the crossed centre start scaled down). A smaller board lives in
//!   the top-left corner of the 8×8 bitboards (a1..d4 or a1..f6); the squares outside it stay
//!   empty and are never playable, so the 8×8 move generator works unchanged once its moves are
//!   masked with [`Rules::mask`];
//! - the **historical Reversi start**: an empty board; while a centre square is empty, the only
//!   moves are the empty centre squares, placed without capture (so the first four moves, two
//!   per player, fill the centre in any arrangement, crossed or parallel);
//! - a **limited disc supply** (Reversi had 32 discs per player): a side that has placed all of
//!   its discs passes; the game ends when neither side can move. The crossed start's four discs
//!   come out of the supplies (two each);
//! - **Anti-Reversi** ([`Goal::FewestDiscs`]): fewest discs wins.
//!
//! Scores are disc differences for the side to move at the end of the game: (own − other) for
//! most-discs games, (other − own) for fewest-discs games, and in both the empty squares go to the
//! winner (none on a draw), so that a score ranges over ±(squares on the board). **Wipe-out**: a
//! side left with no disc on the board loses by the whole board (64–0 on 8×8, 36–0 on 6×6,
//! 16–0 on 4×4), under either goal.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::movegen;
use super::position::{Board, Color, IllegalMoveError, Position};
use super::square::{Move, Square};

/// How the game starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Setup {
    /// Four discs on the centre squares, crossed (Othello): on 8×8 White d4 and e5, Black e4
    /// and d5.
    Cross,
    /// An empty board; the first four moves fill the centre squares without capturing
    /// (the historical Reversi start).
    Placement,
}

/// What a player tries to achieve.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Goal {
    /// The most discs wins (Othello, Reversi).
    MostDiscs,
    /// The fewest discs wins (Anti-Reversi).
    FewestDiscs,
}

/// A complete rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Board side length: 4, 6 or 8.
    pub size: u8,
    /// How the game starts.
    pub setup: Setup,
    /// Discs each player may place in total, the start's discs included (`None`: unlimited, as
    /// in Othello; Reversi had 32).
    pub discs_per_player: Option<u8>,
    /// What a player tries to achieve.
    pub goal: Goal,
}

/// A rule set that this version cannot play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("rules '{rules}' are not supported: {reason}")]
pub struct UnsupportedRules {
    /// The rule set, as [`Rules`] displays it.
    pub rules: String,
    /// Why not.
    pub reason: String,
}

/// Why a rules name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown rules '{0}': use othello, reversi, anti or anti-reversi, optionally with a size \
     (4x4, 6x6, 8x8) and a disc supply (32-discs), e.g. '6x6 anti' or 'reversi-32'"
)]
pub struct ParseRulesError(pub String);

/// A position that cannot occur under a rule set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A disc outside the board.
    #[error("{0} holds a disc but is off the {1}x{1} board")]
    OffBoard(Square, u8),
    /// More discs of one colour than its supply.
    #[error("{color} has {discs} discs on the board, more than its supply of {supply}")]
    Supply {
        /// The colour.
        color: Color,
        /// Its discs on the board.
        discs: u32,
        /// Discs per player.
        supply: u8,
    },
}

/// Discs left in a supply that has no limit.
pub const UNLIMITED: u8 = u8::MAX;

/// A position under some rules: the discs, the side to move, and each side's discs left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// The discs and the colour to move.
    pub position: Position,
    /// Discs left to place, by colour (`[Black, White]`); [`UNLIMITED`] without a limit.
    pub left: [u8; 2],
}

const fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl State {
    /// The board, relative to the side to move.
    #[inline]
    pub fn board(&self) -> Board {
        self.position.board
    }

    /// The colour to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.position.to_move
    }

    /// Discs left for `color`.
    #[inline]
    pub fn left_of(&self, color: Color) -> u8 {
        self.left[color_index(color)]
    }

    /// The same discs with the other side to move.
    #[inline]
    pub fn pass(&self) -> State {
        State {
            position: self.position.pass(),
            left: self.left,
        }
    }

    /// The board as a hash-table key: with a limited supply the discs left are folded into it,
    /// so that one board with different supplies gives different keys.
    #[inline]
    pub fn key(&self) -> Board {
        let board = self.board();
        if self.left == [UNLIMITED; 2] {
            return board;
        }
        let (mine, theirs) = match self.to_move() {
            Color::Black => (self.left[0], self.left[1]),
            Color::White => (self.left[1], self.left[0]),
        };
        let mix = |x: u8, k: u64| (x as u64 + 1).wrapping_mul(k);
        Board {
            player: board.player ^ mix(mine, 0x9E37_79B9_7F4A_7C15),
            opponent: board.opponent ^ mix(theirs, 0xC2B2_AE3D_27D4_EB4F),
        }
    }
}

impl Rules {
    /// Standard tournament Othello on 8×8.
    pub const OTHELLO: Rules = Rules {
        size: 8,
        setup: Setup::Cross,
        discs_per_player: None,
        goal: Goal::MostDiscs,
    };

    /// The board sizes this version plays.
    pub const SIZES: [u8; 3] = [4, 6, 8];

    /// The names `list_games` offers (each parses with [`Rules::from_str`] at any size).
    pub const GAME_NAMES: [&'static str; 6] = [
        "Othello",
        "Reversi",
        "Reversi-32",
        "Othello-32",
        "Anti",
        "Anti-Reversi",
    ];

    /// Ok when this version implements the rule set.
    pub fn check_supported(&self) -> Result<(), UnsupportedRules> {
        let unsupported = |reason: String| {
            Err(UnsupportedRules {
                rules: self.to_string(),
                reason,
            })
        };
        if !Rules::SIZES.contains(&self.size) {
            return unsupported(format!(
                "the board must be 4x4, 6x6 or 8x8, not {0}x{0}",
                self.size
            ));
        }
        if let Some(n) = self.discs_per_player {
            let squares = self.squares();
            if n < 2 || u32::from(n) > squares {
                return unsupported(format!(
                    "the disc supply must be 2..={squares} per player, not {n}"
                ));
            }
        }
        Ok(())
    }

    /// Whether these are the standard 8×8 Othello rules (the trained evaluation, the book and
    /// the fast solver apply).
    #[inline]
    pub fn is_standard(&self) -> bool {
        *self == Rules::OTHELLO
    }

    /// The squares of the board: the top-left `size`×`size` corner of the 8×8 grid.
    #[inline]
    pub const fn mask(&self) -> u64 {
        let row = (1u64 << self.size) - 1;
        let mut mask = 0;
        let mut r = 0;
        while r < self.size {
            mask |= row << (8 * r);
            r += 1;
        }
        mask
    }

    /// The number of squares.
    #[inline]
    pub const fn squares(&self) -> u32 {
        self.size as u32 * self.size as u32
    }

    /// The empty squares of `board` that are on this board.
    #[inline]
    pub const fn empties(&self, board: &Board) -> u64 {
        self.mask() & !(board.player | board.opponent)
    }

    /// How many squares of this board are empty.
    #[inline]
    pub const fn empty_count(&self, board: &Board) -> u32 {
        self.empties(board).count_ones()
    }

    /// The four corner squares.
    #[inline]
    pub const fn corners(&self) -> u64 {
        let e = (self.size - 1) as u32;
        1 | 1 << e | 1 << (8 * e) | 1 << (8 * e + e)
    }

    /// The four centre squares.
    pub const fn centre(&self) -> u64 {
        let c = (self.size / 2) as u32;
        let a = (c - 1) * 8 + c - 1;
        0b11 << a | 0b11 << (a + 8)
    }

    /// Whether `sq` is on the board.
    pub fn contains(&self, sq: Square) -> bool {
        self.mask() >> sq.index() & 1 != 0
    }

    /// The squares of the board, a1 first, row by row.
    pub fn board_squares(&self) -> impl Iterator<Item = Square> + use<> {
        let size = self.size;
        (0..size).flat_map(move |r| {
            (0..size).map(move |c| Square::from_coords(r, c).expect("inside 8x8"))
        })
    }

    /// The start position, Black to move: the crossed centre (White on the top-left and
    /// bottom-right centre squares, as d4 and e5 on 8×8), or an empty board.
    pub fn start_position(&self) -> Position {
        let c = (self.size / 2) as u32;
        let a = (c - 1) * 8 + c - 1;
        let (black, white) = match self.setup {
            Setup::Cross => (1u64 << (a + 1) | 1 << (a + 8), 1u64 << a | 1 << (a + 9)),
            Setup::Placement => (0, 0),
        };
        Position::from_colors(black, white, Color::Black).expect("disjoint")
    }

    /// The start: [`Rules::start_position`] with full supplies (less the crossed start's discs).
    pub fn start(&self) -> State {
        self.state(self.start_position())
            .expect("the start position is valid")
    }

    /// `position` under these rules. With a limited supply the discs placed so far are deduced
    /// from the board: every move adds one disc, so `m` = discs on the board minus the start's
    /// discs moves were made; the side to move is taken to have made ⌊m/2⌋ of them and the other
    /// side ⌈m/2⌉ (exact when no pass occurred). Fails when a disc is off the board or a colour
    /// has more discs than its supply.
    pub fn state(&self, position: Position) -> Result<State, PositionError> {
        let board = position.board;
        let off = (board.player | board.opponent) & !self.mask();
        if off != 0 {
            let sq = Square::from_index_unchecked(off.trailing_zeros() as u8);
            return Err(PositionError::OffBoard(sq, self.size));
        }
        let Some(supply) = self.discs_per_player else {
            return Ok(State {
                position,
                left: [UNLIMITED; 2],
            });
        };
        for color in [Color::Black, Color::White] {
            let discs = match color {
                Color::Black => position.black().count(),
                Color::White => position.white().count(),
            };
            if discs > u32::from(supply) {
                return Err(PositionError::Supply {
                    color,
                    discs,
                    supply,
                });
            }
        }
        let initial = match self.setup {
            Setup::Cross => 2,
            Setup::Placement => 0,
        };
        let on_board = board.player.count_ones() + board.opponent.count_ones();
        let moves = on_board.saturating_sub(2 * initial);
        let placed_to_move = initial + moves / 2;
        let placed_other = initial + moves.div_ceil(2);
        let left = |placed: u32| supply.saturating_sub(placed.min(255) as u8);
        let mut state = State {
            position,
            left: [0; 2],
        };
        state.left[color_index(position.to_move)] = left(placed_to_move);
        state.left[color_index(position.to_move.opposite())] = left(placed_other);
        Ok(state)
    }

    /// Whether the board is in the placement phase (Reversi start, a centre square still empty).
    #[inline]
    pub fn in_placement(&self, board: &Board) -> bool {
        self.setup == Setup::Placement && self.centre() & !(board.player | board.opponent) != 0
    }

    /// The legal moves of the side to move, as a square mask.
    #[inline]
    pub fn moves(&self, state: &State) -> u64 {
        let board = state.board();
        if state.left_of(state.to_move()) == 0 {
            0
        } else if self.in_placement(&board) {
            self.centre() & !(board.player | board.opponent)
        } else {
            movegen::moves(board.player, board.opponent) & self.mask()
        }
    }

    /// Whether neither side can move.
    pub fn is_over(&self, state: &State) -> bool {
        self.moves(state) == 0 && self.moves(&state.pass()) == 0
    }

    /// Whether the side to move has no move but the other side has one.
    pub fn must_pass(&self, state: &State) -> bool {
        self.moves(state) == 0 && self.moves(&state.pass()) != 0
    }

    /// The discs flipped by a legal move on square index `sq` (none in the placement phase).
    #[inline]
    pub fn flips(&self, board: &Board, sq: usize) -> u64 {
        if self.in_placement(board) {
            0
        } else {
            movegen::flips(board.player, board.opponent, sq)
        }
    }

    /// Plays a legal move on square index `sq` (no check).
    #[inline]
    pub fn play_unchecked(&self, state: &State, sq: usize) -> State {
        let board = state.board();
        let flips = self.flips(&board, sq);
        let mut left = state.left;
        let i = color_index(state.to_move());
        if left[i] != UNLIMITED {
            left[i] -= 1;
        }
        State {
            position: Position {
                board: board.play_unchecked(sq, flips),
                to_move: state.to_move().opposite(),
            },
            left,
        }
    }

    /// Plays `mv` for the side to move, or says why it is illegal.
    pub fn play(&self, state: &State, mv: Move) -> Result<State, IllegalMoveError> {
        let moves = self.moves(state);
        match mv {
            Move::Play(sq) => {
                let board = state.board();
                if !self.contains(sq) {
                    Err(IllegalMoveError::OffBoard(sq))
                } else if (board.player | board.opponent) >> sq.index() & 1 != 0 {
                    Err(IllegalMoveError::Occupied(sq))
                } else if moves >> sq.index() & 1 != 0 {
                    Ok(self.play_unchecked(state, sq.index() as usize))
                } else if state.left_of(state.to_move()) == 0 {
                    Err(IllegalMoveError::NoDiscsLeft)
                } else if self.in_placement(&board) {
                    Err(IllegalMoveError::NotCentre(sq))
                } else {
                    Err(IllegalMoveError::NoFlips(sq))
                }
            }
            Move::Pass => {
                if moves != 0 {
                    Err(IllegalMoveError::PassWithMoves(moves.count_ones()))
                } else if self.is_over(state) {
                    Err(IllegalMoveError::GameOver)
                } else {
                    Ok(state.pass())
                }
            }
        }
    }

    /// The final score of a finished game for the side to move (see the module docs: goal,
    /// empties to the winner, wipe-out).
    pub fn final_score(&self, board: &Board) -> i32 {
        let squares = self.squares() as i32;
        let p = board.player.count_ones() as i32;
        let o = board.opponent.count_ones() as i32;
        if p == 0 && o > 0 {
            return -squares;
        }
        if o == 0 && p > 0 {
            return squares;
        }
        let diff = match self.goal {
            Goal::MostDiscs => p - o,
            Goal::FewestDiscs => o - p,
        };
        let empties = squares - p - o;
        match diff {
            d if d > 0 => d + empties,
            d if d < 0 => d - empties,
            _ => 0,
        }
    }

    /// The final score for Black.
    pub fn final_score_for_black(&self, position: &Position) -> i32 {
        let score = self.final_score(&position.board);
        match position.to_move {
            Color::Black => score,
            Color::White => -score,
        }
    }

    /// The board string of `position` in this size: `size`² squares a1 first (`X` black, `O`
    /// white, `-` empty), a space and the side to move.
    pub fn board_string(&self, position: &Position) -> String {
        let mut s: String = self
            .board_squares()
            .map(|sq| position.disc(sq).map_or('-', Color::symbol))
            .collect();
        s.push(' ');
        s.push(position.to_move.symbol());
        s
    }

    /// A labelled grid of `state`; with `mark_moves`, legal moves are shown as `.`.
    pub fn grid(&self, state: &State, mark_moves: bool) -> String {
        let moves = if mark_moves { self.moves(state) } else { 0 };
        let letters: String = (0..self.size)
            .map(|c| format!(" {}", (b'a' + c) as char))
            .collect();
        let mut out = format!(" {letters}\n");
        for row in 0..self.size {
            out.push((b'1' + row) as char);
            for col in 0..self.size {
                let sq = Square::from_coords(row, col).expect("inside 8x8");
                out.push(' ');
                out.push(match state.position.disc(sq) {
                    Some(color) => color.symbol(),
                    None if moves >> sq.index() & 1 != 0 => '.',
                    None => '-',
                });
            }
            out.push(' ');
            out.push((b'1' + row) as char);
            out.push('\n');
        }
        out.push(' ');
        out.push_str(&letters);
        out
    }

    /// The GGF `TY` field: the size, then `a` for an anti game (e.g. `8`, `6a`).
    pub fn ggf_type(&self) -> String {
        match self.goal {
            Goal::MostDiscs => self.size.to_string(),
            Goal::FewestDiscs => format!("{}a", self.size),
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::OTHELLO
    }
}

impl fmt::Display for Rules {
    /// A short name such as `othello`, `6x6 anti`, `reversi 32-discs`; [`Rules::from_str`]
    /// reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.size != 8 {
            parts.push(format!("{0}x{0}", self.size));
        }
        parts.push(
            match (self.setup, self.goal) {
                (Setup::Cross, Goal::MostDiscs) => "othello",
                (Setup::Placement, Goal::MostDiscs) => "reversi",
                (Setup::Cross, Goal::FewestDiscs) => "anti",
                (Setup::Placement, Goal::FewestDiscs) => "anti-reversi",
            }
            .to_string(),
        );
        if let Some(n) = self.discs_per_player {
            parts.push(format!("{n}-discs"));
        }
        f.write_str(&parts.join(" "))
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads words separated by spaces, commas or dashes, in any order and case: `othello`,
    /// `reversi` (placement start), `anti` (fewest discs wins), a size `NxN`, and a supply as a
    /// bare number (`32`, `32-discs`). E.g. `reversi-32`, `Anti-Reversi`, `6x6 anti`.
    /// Unset parts are Othello's. The result is not checked: see [`Rules::check_supported`].
    fn from_str(text: &str) -> Result<Rules, ParseRulesError> {
        let error = || ParseRulesError(super::notation::excerpt(text));
        let mut rules = Rules::OTHELLO;
        let words: Vec<String> = text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '-' || c == '_')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        if words.is_empty() {
            return Err(error());
        }
        for word in &words {
            match word.as_str() {
                "othello" => {}
                "reversi" => rules.setup = Setup::Placement,
                "anti" | "antiothello" | "antireversi" => {
                    rules.goal = Goal::FewestDiscs;
                    if word == "antireversi" {
                        rules.setup = Setup::Placement;
                    }
                }
                "discs" | "disc" => {}
                w => {
                    if let Some((a, b)) = w.split_once('x') {
                        let size: u8 = a.parse().map_err(|_| error())?;
                        if b.parse::<u8>() != Ok(size) {
                            return Err(error());
                        }
                        rules.size = size;
                    } else {
                        rules.discs_per_player = Some(w.parse().map_err(|_| error())?);
                    }
                }
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn reversi() -> Rules {
        Rules {
            setup: Setup::Placement,
            discs_per_player: Some(32),
            ..Rules::OTHELLO
        }
    }

    #[test]
    fn names_round_trip_and_errors_are_clear() {
        assert_eq!(Rules::OTHELLO.to_string(), "othello");
        assert_eq!(reversi().to_string(), "reversi 32-discs");
        for rules in [
            Rules::OTHELLO,
            reversi(),
            Rules {
                size: 6,
                goal: Goal::FewestDiscs,
                ..reversi()
            },
            Rules {
                size: 4,
                goal: Goal::FewestDiscs,
                ..Rules::OTHELLO
            },
        ] {
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
        assert_eq!("Reversi-32".parse::<Rules>(), Ok(reversi()));
        for name in Rules::GAME_NAMES {
            assert!(name.parse::<Rules>().is_ok(), "{name}");
        }
        assert!("chess".parse::<Rules>().is_err());
        assert!("6x7".parse::<Rules>().is_err());
        let odd = Rules {
            size: 5,
            ..Rules::OTHELLO
        };
        assert_eq!(
            odd.check_supported().unwrap_err().to_string(),
            "rules '5x5 othello' are not supported: the board must be 4x4, 6x6 or 8x8, not 5x5"
        );
    }

    #[test]
    fn small_boards_start_crossed_in_their_centre() {
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        assert_eq!(
            six.board_string(&six.start_position()),
            "--------------OX----XO-------------- X"
        );
        assert_eq!(Rules::OTHELLO.start_position(), Position::start());
        let four = Rules {
            size: 4,
            ..Rules::OTHELLO
        };
        let start = four.start();
        let moves: Vec<Square> = crate::board::Bitboard(four.moves(&start)).iter().collect();
        assert_eq!(moves, [sq("b1"), sq("a2"), sq("d3"), sq("c4")]);
        assert_eq!(
            four.play(&start, Move::Play(sq("e1"))),
            Err(IllegalMoveError::OffBoard(sq("e1")))
        );
    }

    #[test]
    fn reversi_placement_phase() {
        let rules = reversi();
        let mut state = rules.start();
        assert_eq!(state.board().player | state.board().opponent, 0);
        assert_eq!(
            rules.play(&state, Move::Play(sq("c3"))),
            Err(IllegalMoveError::NotCentre(sq("c3")))
        );
        // Parallel arrangement: Black d4, White e4, Black d5, White e5.
        for name in ["d4", "e4", "d5", "e5"] {
            assert_eq!(rules.moves(&state), rules.centre() & !occupied(&state));
            let before = state.board().player.count_ones() + state.board().opponent.count_ones();
            state = rules.play(&state, Move::Play(sq(name))).unwrap();
            let after = state.board();
            assert_eq!(
                after.player.count_ones() + after.opponent.count_ones(),
                before + 1
            );
        }
        assert_eq!(
            state.position.black().0,
            1 << sq("d4").index() | 1 << sq("d5").index()
        );
        assert_eq!(state.left, [30, 30]);
        // Normal captures from now on: Black's f4 captures e4 (d4 is Black's).
        assert!(rules.moves(&state) >> sq("f4").index() & 1 != 0);
        let next = rules.play(&state, Move::Play(sq("f4"))).unwrap();
        assert_eq!(next.position.black().count(), 4);
    }

    fn occupied(state: &State) -> u64 {
        state.board().player | state.board().opponent
    }

    #[test]
    fn empty_supply_passes_and_ends_the_game() {
        let rules = Rules {
            discs_per_player: Some(3),
            ..Rules::OTHELLO
        };
        let start = rules.start();
        assert_eq!(start.left, [1, 1]);
        let s1 = rules.play(&start, Move::Play(sq("f5"))).unwrap();
        let s2 = rules.play(&s1, Move::Play(sq("f6"))).unwrap();
        assert_eq!(s2.left, [0, 0]);
        assert_eq!(rules.moves(&s2), 0);
        assert!(rules.is_over(&s2));
        assert_eq!(
            rules.play(&s2, Move::Play(sq("e6"))),
            Err(IllegalMoveError::NoDiscsLeft)
        );
        // Black out of discs, White not: Black passes.
        let s = State {
            left: [0, 5],
            ..s1.pass()
        };
        assert!(rules.must_pass(&s));
    }

    #[test]
    fn anti_scores_invert_and_draws_are_zero() {
        let anti = Rules {
            goal: Goal::FewestDiscs,
            ..Rules::OTHELLO
        };
        // 40 vs 20 with 4 empties.
        let b = Board::new((1 << 40) - 1, ((1 << 20) - 1) << 40).unwrap();
        assert_eq!(Rules::OTHELLO.final_score(&b), 24);
        assert_eq!(anti.final_score(&b), -24);
        assert_eq!(anti.final_score(&b.pass()), 24);
        let draw = Board::new((1 << 30) - 1, ((1 << 30) - 1) << 30).unwrap();
        assert_eq!(anti.final_score(&draw), 0);
        // Wipe-out loses under both goals, by the whole board.
        let wiped = Board::new(0, 0b111).unwrap();
        assert_eq!(anti.final_score(&wiped), -64);
        let six = Rules { size: 6, ..anti };
        assert_eq!(six.final_score(&wiped), -36);
        assert_eq!(Rules::OTHELLO.final_score(&wiped.pass()), 64);
    }

    #[test]
    fn supplies_are_deduced_from_set_up_positions() {
        let rules = reversi();
        let position = rules
            .state(Rules::OTHELLO.start_position())
            .unwrap()
            .position;
        let state = rules.state(position).unwrap();
        assert_eq!(state.left, [30, 30]);
        let full = Position::from_colors(!0 >> 20, 0, Color::Black).unwrap();
        assert!(matches!(
            rules.state(full),
            Err(PositionError::Supply { discs: 44, .. })
        ));
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        let corner = Position::from_colors(1 << 63, 1 << 62, Color::Black).unwrap();
        assert_eq!(
            six.state(corner).unwrap_err().to_string(),
            "g8 holds a disc but is off the 6x6 board"
        );
    }
}
