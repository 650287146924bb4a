//! Logistello's game collection (`logbook.gam`): one game per line, `+d3-c3+c4…: -04 10`, each
//! move prefixed by the colour that played it (`+` Black, `-` White; a repeated sign means the
//! other side passed), then Black's final disc difference.

use thiserror::Error;

use crate::board::{Game, Move, Position, Rules, Square};

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogbookGame {
    /// The moves with their colours (`true` for Black).
    pub moves: Vec<(bool, Square)>,
    /// Black's final disc difference.
    pub black_score: i32,
}

/// A line that is not a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("logbook line {line}: {message}")]
pub struct LogbookError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses one line.
pub fn parse_line(text: &str, line: usize) -> Result<LogbookGame, LogbookError> {
    let error = |message: String| LogbookError { line, message };
    let (moves_text, result) = text
        .split_once(':')
        .ok_or_else(|| error("no ':' before the score".into()))?;
    let score_text = result
        .split_whitespace()
        .next()
        .ok_or_else(|| error("no score".into()))?;
    let black_score: i32 = score_text
        .parse()
        .map_err(|_| error(format!("bad score '{score_text}'")))?;
    let bytes = moves_text.trim().as_bytes();
    if bytes.len() % 3 != 0 {
        return Err(error(
            "moves must be sign + square, three characters each".into(),
        ));
    }
    let moves = bytes
        .chunks(3)
        .map(|c| {
            let black = match c[0] {
                b'+' => true,
                b'-' => false,
                other => return Err(error(format!("'{}' is not + or -", other as char))),
            };
            let sq = Square::parse(std::str::from_utf8(&c[1..]).unwrap_or(""))
                .map_err(|e| error(e.to_string()))?;
            Ok((black, sq))
        })
        .collect::<Result<_, _>>()?;
    Ok(LogbookGame { moves, black_score })
}

/// Parses a whole collection (already decompressed); bad lines are returned as errors.
pub fn parse(text: &str) -> Vec<Result<LogbookGame, LogbookError>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l, i + 1))
        .collect()
}

impl LogbookGame {
    /// Replays the game from the start, inserting the passes; `None` if a move is illegal.
    pub fn replay(&self) -> Option<Game> {
        let mut game = Game::from_position(Rules::OTHELLO, Position::start());
        for &(black, sq) in &self.moves {
            let to_move_is_black = game.position().to_move == crate::board::Color::Black;
            if black != to_move_is_black {
                game.play(Move::Pass).ok()?;
            }
            game.play(Move::Play(sq)).ok()?;
        }
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_replays() {
        let game = parse_line("+d3-c3+c4-e3: -04 10", 1).unwrap();
        assert_eq!(game.black_score, -4);
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.replay().unwrap().transcript(false), "d3c3c4e3");
        assert!(parse_line("+d3-c3", 2).is_err());
        assert!(parse_line("+d3*c3: +00", 3).is_err());
        assert!(parse_line("+d3-c3+c4-e3: x", 4).is_err());
        // White plays twice: Black passed (illegal here, so no replay).
        assert!(parse_line("+d3-c3-c4: +00", 5).unwrap().replay().is_none());
    }
}
