//! WTHOR game archives (`WTH_YYYY.wtb`, the French federation's format): a 16-byte header, then
//! 68-byte records with Black's final and theoretical disc counts and up to 60 moves.

use thiserror::Error;

use crate::board::{Game, Move, Position, Rules, Square};

/// One archived game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// The moves as recorded (passes are not recorded; [`WthorGame::replay`] infers them).
    pub moves: Vec<Square>,
    /// Black's disc count at the end, empties to the winner.
    pub black_discs: u8,
    /// Black's disc count under perfect play from the position with `theoretical_depth` empties.
    pub black_theoretical: u8,
    /// The empties at which the theoretical score was computed (22 or 24 in recent files).
    pub theoretical_depth: u8,
    /// The year of the tournament.
    pub year: u16,
}

/// Why a WTHOR file could not be read.
#[derive(Debug, Error)]
pub enum WthorError {
    /// Shorter than its header says.
    #[error("truncated WTHOR file: {0} bytes, expected a 16-byte header and 68-byte records")]
    Truncated(usize),
    /// Not an 8×8 Othello file.
    #[error("unsupported WTHOR board size {0} (only 8x8 games)")]
    BoardSize(u8),
    /// A move outside a1..h8.
    #[error("game {game}: move {index} has the code {code}, not a square")]
    BadMove {
        /// 0-based game number in the file.
        game: usize,
        /// 0-based move number.
        index: usize,
        /// The byte.
        code: u8,
    },
}

/// Parses a whole `.wtb` file.
pub fn parse(bytes: &[u8]) -> Result<Vec<WthorGame>, WthorError> {
    if bytes.len() < 16 {
        return Err(WthorError::Truncated(bytes.len()));
    }
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    let year = u16::from_le_bytes([bytes[10], bytes[11]]);
    let size = bytes[12];
    if size != 0 && size != 8 {
        return Err(WthorError::BoardSize(size));
    }
    let theoretical_depth = if bytes[14] == 0 { 22 } else { bytes[14] };
    if bytes.len() < 16 + count * 68 {
        return Err(WthorError::Truncated(bytes.len()));
    }
    (0..count)
        .map(|game| {
            let record = &bytes[16 + game * 68..16 + (game + 1) * 68];
            let mut moves = Vec::with_capacity(60);
            for (index, &code) in record[8..68].iter().enumerate() {
                if code == 0 {
                    break;
                }
                let (row, col) = (code / 10, code % 10);
                let sq = (1..=8)
                    .contains(&row)
                    .then_some(())
                    .filter(|_| (1..=8).contains(&col))
                    .and_then(|_| Square::from_coords(row - 1, col - 1))
                    .ok_or(WthorError::BadMove { game, index, code })?;
                moves.push(sq);
            }
            Ok(WthorGame {
                moves,
                black_discs: record[6],
                black_theoretical: record[7],
                theoretical_depth,
                year,
            })
        })
        .collect()
}

impl WthorGame {
    /// Replays the game from the standard start, inserting the passes; `None` if a move is
    /// illegal.
    pub fn replay(&self) -> Option<Game> {
        let mut game = Game::from_position(Rules::OTHELLO, Position::start());
        for &sq in &self.moves {
            game.play_inferring_pass(Move::Play(sq)).ok()?;
        }
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[u8], black: u8, theoretical: u8) -> Vec<u8> {
        let mut r = vec![0u8; 68];
        r[6] = black;
        r[7] = theoretical;
        r[8..8 + moves.len()].copy_from_slice(moves);
        r
    }

    #[test]
    fn parses_and_replays_a_small_file() {
        let mut bytes = vec![20, 24, 1, 1, 1, 0, 0, 0, 0, 0, 0xE8, 0x07, 8, 0, 24, 0];
        // f5 d6 c3: codes 10*row + column.
        bytes.extend(record(&[56, 64, 33], 40, 36));
        let games = parse(&bytes).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].year, 2024);
        assert_eq!(games[0].black_discs, 40);
        assert_eq!(games[0].theoretical_depth, 24);
        let game = games[0].replay().unwrap();
        assert_eq!(game.transcript(false), "f5d6c3");
    }

    #[test]
    fn rejects_bad_files() {
        assert!(matches!(parse(&[0; 10]), Err(WthorError::Truncated(10))));
        let mut bytes = vec![20, 24, 1, 1, 1, 0, 0, 0, 0, 0, 0xE8, 0x07, 8, 0, 24, 0];
        bytes.extend(record(&[99], 40, 36));
        assert!(matches!(
            parse(&bytes),
            Err(WthorError::BadMove { code: 99, .. })
        ));
    }
}
