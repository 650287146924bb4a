//! `Board` (side-to-move relative, 16 bytes, copy-make) and `Position` (a board plus the colour
//! to move).

use std::fmt;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::movegen;
use super::square::{Move, Square};
use super::symmetry::Symmetry;

/// A disc colour, or the side to move. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Black, `X` (also `*`) in board strings.
    Black,
    /// White, `O` in board strings.
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for Black, `O` for White, as in OBF and 64-character boards.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// `Black` or `White`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMoveError {
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// The disc would not flip anything.
    #[error("{0} flips no disc")]
    NoFlips(Square),
    /// A pass was asked for, but a move exists.
    #[error("cannot pass: {0} legal move(s) available")]
    PassWithMoves(u32),
    /// Neither side can move any more.
    #[error("the game is over")]
    GameOver,
    /// The square is outside a board smaller than 8×8.
    #[error("{0} is off the board")]
    OffBoard(Square),
    /// During the Reversi placement phase only the empty centre squares can be played.
    #[error("{0} is not an empty centre square: the first four discs go on the centre")]
    NotCentre(Square),
    /// The side to move has placed all of its discs (a limited disc supply).
    #[error("no discs left to place")]
    NoDiscsLeft,
}

/// Why two bitboards do not make a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the two sides share square(s) {0:?}")]
pub struct OverlapError(pub Bitboard);

/// A board seen from the side to move: `player` holds its discs, `opponent` the other side's.
///
/// 16 bytes and `Copy`: a move makes a new board ("copy-make"), there is no undo.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side not to move.
    pub opponent: u64,
}

impl Board {
    /// The standard Othello start with the first player to move: its discs on e4 and d5, the
    /// other side's on d4 and e5.
    pub const fn start() -> Board {
        Board {
            player: 1 << 28 | 1 << 35,
            opponent: 1 << 27 | 1 << 36,
        }
    }

    /// A board from the discs of the side to move and of the other side.
    pub const fn new(player: u64, opponent: u64) -> Result<Board, OverlapError> {
        if player & opponent != 0 {
            Err(OverlapError(Bitboard(player & opponent)))
        } else {
            Ok(Board { player, opponent })
        }
    }

    /// The legal moves of the side to move.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::moves(self.player, self.opponent))
    }

    /// Whether `mv` can be played here (a pass only when the side to move has no move and the
    /// game is not over).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// The discs flipped by playing on `sq` (empty when `sq` is occupied or not a legal move).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) >> sq.index() & 1 != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(
            self.player,
            self.opponent,
            sq.index() as usize,
        ))
    }

    fn check(&self, mv: Move) -> Result<u64, IllegalMoveError> {
        match mv {
            Move::Play(sq) => {
                if (self.player | self.opponent) >> sq.index() & 1 != 0 {
                    return Err(IllegalMoveError::Occupied(sq));
                }
                let flips = movegen::flips(self.player, self.opponent, sq.index() as usize);
                if flips == 0 {
                    Err(IllegalMoveError::NoFlips(sq))
                } else {
                    Ok(flips)
                }
            }
            Move::Pass => {
                let moves = self.legal_moves().count();
                if moves != 0 {
                    Err(IllegalMoveError::PassWithMoves(moves))
                } else if self.is_game_over() {
                    Err(IllegalMoveError::GameOver)
                } else {
                    Ok(0)
                }
            }
        }
    }

    /// Plays `mv` (a square or a pass) and returns the board for the other side, or says why the
    /// move is illegal.
    pub fn try_play(&self, mv: Move) -> Result<Board, IllegalMoveError> {
        let flips = self.check(mv)?;
        Ok(match mv {
            Move::Play(sq) => self.play_unchecked(sq.index() as usize, flips),
            Move::Pass => self.pass(),
        })
    }

    /// Plays `mv`. Panics if it is illegal; see [`Board::try_play`].
    pub fn play(&self, mv: Move) -> Board {
        match self.try_play(mv) {
            Ok(board) => board,
            Err(e) => panic!("illegal move {mv} on\n{self}: {e}"),
        }
    }

    /// Places a disc on square `sq` flipping `flips` (from [`movegen::flips`]) and hands the move
    /// to the other side. No check: the hot path of search and perft.
    #[inline]
    pub const fn play_unchecked(&self, sq: usize, flips: u64) -> Board {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player | flips | 1 << sq,
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// The side to move has no legal move but the other side has one.
    pub fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.pass().legal_moves().is_empty()
    }

    /// Neither side has a legal move.
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.pass().legal_moves().is_empty()
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        (self.player | self.opponent).count_zeros()
    }

    /// Discs of the side to move.
    #[inline]
    pub const fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    /// Discs of the other side.
    #[inline]
    pub const fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// The final score of a finished game for the side to move, in discs, by the world
    /// federation's convention: the empty squares go to the winner (none on a draw).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let p = self.player_count() as i32;
        let o = self.opponent_count() as i32;
        let empties = 64 - p - o;
        let diff = p - o;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// A 64-bit hash of the board, well mixed in every bit (for hash tables).
    #[inline]
    pub const fn hash(&self) -> u64 {
        let mut h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.opponent;
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 32)
    }

    /// The board transformed by `sym`.
    #[inline]
    pub const fn transform(&self, sym: Symmetry) -> Board {
        Board {
            player: sym.apply_bits(self.player),
            opponent: sym.apply_bits(self.opponent),
        }
    }

    /// The canonical form: the least of the 8 transformed boards (ordered by `player`, then
    /// `opponent`), and the symmetry that maps `self` to it.
    pub fn canonical(&self) -> (Board, Symmetry) {
        use super::symmetry::{mirror_columns, transpose};
        // The eight images from two mirrors and two transposes (the byte swaps are cheap).
        let (p, o) = (self.player, self.opponent);
        let (ph, oh) = (mirror_columns(p), mirror_columns(o));
        let (pt, ot) = (transpose(p), transpose(o));
        let (pth, oth) = (mirror_columns(pt), mirror_columns(ot));
        let images = [
            (p, o, Symmetry::Identity),
            (ph, oh, Symmetry::MirrorColumns),
            (p.swap_bytes(), o.swap_bytes(), Symmetry::MirrorRows),
            (ph.swap_bytes(), oh.swap_bytes(), Symmetry::Rotate180),
            (pt, ot, Symmetry::Transpose),
            (pth.swap_bytes(), oth.swap_bytes(), Symmetry::AntiTranspose),
            (pth, oth, Symmetry::Rotate90),
            (pt.swap_bytes(), ot.swap_bytes(), Symmetry::Rotate270),
        ];
        let mut best = images[0];
        for &image in &images[1..] {
            if (image.0, image.1) < (best.0, best.1) {
                best = image;
            }
        }
        (
            Board {
                player: best.0,
                opponent: best.1,
            },
            best.2,
        )
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {{ player: {:#018x}, opponent: {:#018x} }}",
            self.player, self.opponent
        )
    }
}

impl fmt::Display for Board {
    /// An 8×8 grid: `X` the side to move, `O` the other side, `-` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = Position {
            board: *self,
            to_move: Color::Black,
        };
        write!(f, "{}", position.grid(false))
    }
}

/// A board with the colour of the side to move: what notation and protocols talk about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The discs, relative to the side to move.
    pub board: Board,
    /// The colour of the side to move.
    pub to_move: Color,
}

impl Position {
    /// The standard Othello start: Black on e4 and d5, White on d4 and e5, Black to move.
    pub const fn start() -> Position {
        Position {
            board: Board::start(),
            to_move: Color::Black,
        }
    }

    /// A position from the black and white discs and the side to move.
    pub const fn from_colors(
        black: u64,
        white: u64,
        to_move: Color,
    ) -> Result<Position, OverlapError> {
        let board = match to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        match board {
            Ok(board) => Ok(Position { board, to_move }),
            Err(e) => Err(e),
        }
    }

    /// Black's discs.
    pub const fn black(&self) -> Bitboard {
        Bitboard(match self.to_move {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        })
    }

    /// White's discs.
    pub const fn white(&self) -> Bitboard {
        Bitboard(match self.to_move {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        })
    }

    /// Plays `mv` for the side to move.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMoveError> {
        Ok(Position {
            board: self.board.try_play(mv)?,
            to_move: self.to_move.opposite(),
        })
    }

    /// The same discs with the other colour to move.
    pub const fn pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.opposite(),
        }
    }

    /// The final score for Black, in discs, empties to the winner.
    pub const fn final_score_for_black(&self) -> i32 {
        match self.to_move {
            Color::Black => self.board.final_score(),
            Color::White => -self.board.final_score(),
        }
    }

    /// The disc on `sq`: `Some(color)` or `None` for empty.
    pub const fn disc(&self, sq: Square) -> Option<Color> {
        if self.black().contains(sq) {
            Some(Color::Black)
        } else if self.white().contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The 64-character board (`X` black, `O` white, `-` empty, a1..h8) and the side to move,
    /// e.g. `---------------------------OX------XO--------------------------- X`.
    pub fn to_board_string(&self) -> String {
        let mut s: String = Square::all()
            .map(|sq| self.disc(sq).map_or('-', Color::symbol))
            .collect();
        s.push(' ');
        s.push(self.to_move.symbol());
        s
    }

    /// A labelled grid; with `mark_moves`, legal moves are shown as `.`.
    pub fn grid(&self, mark_moves: bool) -> String {
        let moves = if mark_moves {
            self.board.legal_moves()
        } else {
            Bitboard::EMPTY
        };
        let mut out = String::from("  a b c d e f g h\n");
        for row in 0..8u8 {
            out.push((b'1' + row) as char);
            for col in 0..8u8 {
                let sq = Square::from_coords(row, col).expect("row and col below 8");
                out.push(' ');
                out.push(match self.disc(sq) {
                    Some(color) => color.symbol(),
                    None if moves.contains(sq) => '.',
                    None => '-',
                });
            }
            out.push(' ');
            out.push((b'1' + row) as char);
            out.push('\n');
        }
        out.push_str("  a b c d e f g h");
        out
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Display for Position {
    /// The 64-character board string and side to move (see [`Position::to_board_string`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_board_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn start_position() {
        let p = Position::start();
        assert_eq!(
            p.to_board_string(),
            "---------------------------OX------XO--------------------------- X"
        );
        let moves: Vec<String> = p
            .board
            .legal_moves()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
        assert_eq!(p.board.empty_count(), 60);
    }

    #[test]
    fn play_flips_and_swaps_sides() {
        let b = Board::start().play(Move::Play(sq("f5")));
        // White to move now: White has d4 only; Black has d5, e4, e5, f5.
        assert_eq!(b.player_count(), 1);
        assert_eq!(b.opponent_count(), 4);
        assert_eq!(b.flips(sq("f6")), Bitboard::from_square(sq("e5")));
    }

    #[test]
    fn illegal_moves_are_explained() {
        let b = Board::start();
        assert_eq!(
            b.try_play(Move::Play(sq("d4"))),
            Err(IllegalMoveError::Occupied(sq("d4")))
        );
        assert_eq!(
            b.try_play(Move::Play(sq("a1"))),
            Err(IllegalMoveError::NoFlips(sq("a1")))
        );
        assert_eq!(
            b.try_play(Move::Pass),
            Err(IllegalMoveError::PassWithMoves(4))
        );
        let over = Board::new(!0 >> 1, 0).unwrap();
        assert!(over.is_game_over());
        assert_eq!(over.try_play(Move::Pass), Err(IllegalMoveError::GameOver));
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        // 40 vs 20 with 4 empties: +24.
        let b = Board::new((1 << 40) - 1, ((1 << 20) - 1) << 40).unwrap();
        assert_eq!(b.final_score(), 24);
        assert_eq!(b.pass().final_score(), -24);
        let draw = Board::new((1 << 30) - 1, ((1 << 30) - 1) << 30).unwrap();
        assert_eq!(draw.final_score(), 0);
    }

    #[test]
    fn overlap_is_rejected() {
        assert!(Board::new(3, 2).is_err());
        assert!(Position::from_colors(1, 1, Color::White).is_err());
    }

    #[test]
    fn canonical_form_is_shared_by_all_symmetric_boards() {
        let b = Board::start()
            .play(Move::Play(sq("f5")))
            .play(Move::Play(sq("d6")));
        let (canon, sym) = b.canonical();
        assert_eq!(b.transform(sym), canon);
        for s in Symmetry::ALL {
            assert_eq!(b.transform(s).canonical().0, canon);
        }
    }

    #[test]
    fn hash_differs_between_colours() {
        let b = Board::start();
        assert_ne!(b.hash(), b.pass().hash());
    }
}
