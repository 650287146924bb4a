//! WTHOR game archives (`WTH_YYYY.wtb`, the French federation's format): a 16-byte header, then
//! 68-byte records with the tournament, the players, Black's final and theoretical disc counts
//! and up to 60 moves. The names of the players and tournaments are in two files of their own
//! (`WTHOR.JOU`, `WTHOR.TRN`: a 16-byte header, then 20- and 26-byte Latin-1 names).

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
    /// The tournament's number in the tournament file (`WTHOR.TRN`).
    pub tournament: u16,
    /// Black's number in the player file (`WTHOR.JOU`).
    pub black_player: u16,
    /// White's number in the player file.
    pub white_player: u16,
}

/// What the header of a `.wtb` file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The games in the file.
    pub games: usize,
    /// The year of its tournaments.
    pub year: u16,
    /// The empties at which the theoretical scores were computed.
    pub theoretical_depth: u8,
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
    let header = parse_header(bytes)?;
    (0..header.games)
        .map(|game| parse_game(bytes, &header, game))
        .collect()
}

/// Reads the header of a `.wtb` file and checks that the file holds all of its games.
pub fn parse_header(bytes: &[u8]) -> Result<Header, WthorError> {
    if bytes.len() < 16 {
        return Err(WthorError::Truncated(bytes.len()));
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    let year = u16::from_le_bytes([bytes[10], bytes[11]]);
    let size = bytes[12];
    if size != 0 && size != 8 {
        return Err(WthorError::BoardSize(size));
    }
    let theoretical_depth = if bytes[14] == 0 { 22 } else { bytes[14] };
    if bytes.len() < 16 + games * 68 {
        return Err(WthorError::Truncated(bytes.len()));
    }
    Ok(Header {
        games,
        year,
        theoretical_depth,
    })
}

/// Game `game` (from 0, below `header.games`) of a `.wtb` file whose header is `header`.
pub fn parse_game(bytes: &[u8], header: &Header, game: usize) -> Result<WthorGame, WthorError> {
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
    let word = |at: usize| u16::from_le_bytes([record[at], record[at + 1]]);
    Ok(WthorGame {
        moves,
        black_discs: record[6],
        black_theoretical: record[7],
        theoretical_depth: header.theoretical_depth,
        year: header.year,
        tournament: word(0),
        black_player: word(2),
        white_player: word(4),
    })
}

/// The names of a player file (`WTHOR.JOU`, 20 bytes a name) or a tournament file
/// (`WTHOR.TRN`, 26 bytes a name), in the order of their numbers: Latin-1, up to the first
/// zero byte, trimmed.
pub fn parse_names(bytes: &[u8]) -> Result<Vec<String>, WthorError> {
    if bytes.len() < 16 {
        return Err(WthorError::Truncated(bytes.len()));
    }
    let count = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let width = match bytes[12] {
        0 | 8 => {
            // The record width is not in the header: the body divides into it.
            let body = bytes.len() - 16;
            if count == 0 {
                return Ok(Vec::new());
            }
            match body / count {
                w @ (20 | 26) => w,
                _ => return Err(WthorError::Truncated(bytes.len())),
            }
        }
        size => return Err(WthorError::BoardSize(size)),
    };
    if bytes.len() < 16 + count * width {
        return Err(WthorError::Truncated(bytes.len()));
    }
    Ok(bytes[16..16 + count * width]
        .chunks_exact(width)
        .map(|name| {
            let end = name.iter().position(|&b| b == 0).unwrap_or(width);
            // Latin-1: every byte is the code point of the same value.
            name[..end]
                .iter()
                .map(|&b| char::from(b))
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect())
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
        let mut first = record(&[56, 64, 33], 40, 36);
        first[..6].copy_from_slice(&[7, 0, 0x2C, 1, 5, 0]);
        bytes.extend(first);
        let games = parse(&bytes).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].year, 2024);
        assert_eq!(games[0].black_discs, 40);
        assert_eq!(games[0].theoretical_depth, 24);
        let game = games[0].replay().unwrap();
        assert_eq!(game.transcript(false), "f5d6c3");
        assert_eq!(
            (
                games[0].tournament,
                games[0].black_player,
                games[0].white_player
            ),
            (7, 300, 5)
        );
    }

    #[test]
    fn names_are_read_from_player_and_tournament_files() {
        let header = |count: u16| {
            let mut h = vec![20, 24, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
            h[8..10].copy_from_slice(&count.to_le_bytes());
            h
        };
        let mut players = header(2);
        for name in [&b"Tastet Marc"[..], &b"L\xe9vy Ren\xe9"[..]] {
            let mut record = [0u8; 20];
            record[..name.len()].copy_from_slice(name);
            players.extend(record);
        }
        assert_eq!(parse_names(&players).unwrap(), ["Tastet Marc", "Lévy René"]);
        let mut tournaments = header(1);
        tournaments.extend(*b"World Championship\0\0\0\0\0\0\0\0");
        assert_eq!(parse_names(&tournaments).unwrap(), ["World Championship"]);
        assert!(matches!(
            parse_names(&players[..40]),
            Err(WthorError::Truncated(40))
        ));
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
