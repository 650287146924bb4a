//! Interchange: the plain text form of a book, and Edax's `book.dat`.
//!
//! Text form, one position per line (`%` starts a comment):
//!
//! ```text
//! <64 squares a1..h8, X to move> X <value> <level> <games> [<move>:<value>[*] ...]
//! ```
//!
//! e.g. `---------------------------OX------XO--------------------------- X +0 12 251204 f5:+0 ...`.
//! The moves are the linked moves and, marked `*`, the leaf (the best move outside the book);
//! the reader takes the value, level, games and leaf, and finds the links by itself.

use thiserror::Error;

use super::{Book, Node};
use crate::board::{Board, Color, Move, Position, parse_position};

/// A line of a text book or a record of an Edax book that cannot be read.
#[derive(Debug, Error)]
pub enum ImportError {
    /// A text line.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An Edax book.
    #[error("Edax book: {0}")]
    Edax(String),
}

fn signed(v: i32) -> String {
    format!("{v:+}")
}

impl Book {
    /// The book as text, one line per position, in a stable order (sorted by empties, then
    /// by position).
    pub fn to_text(&self) -> String {
        let mut keys: Vec<&Board> = self.nodes.keys().collect();
        keys.sort_by_key(|b| (std::cmp::Reverse(b.empty_count()), b.player, b.opponent));
        let mut out = String::from(
            "% Iago book: position (X to move), value, level, games, moves (* = best move outside the book)\n",
        );
        for board in keys {
            let node = &self.nodes[board];
            let position = Position {
                board: *board,
                to_move: Color::Black,
            };
            out.push_str(&format!(
                "{} {} {} {}",
                position.to_board_string(),
                signed(node.value as i32),
                node.depth,
                node.games
            ));
            for choice in self.moves(board) {
                out.push_str(&format!(
                    " {}:{}{}",
                    choice.mv,
                    signed(choice.value),
                    if choice.linked { "" } else { "*" }
                ));
            }
            out.push('\n');
        }
        out
    }

    /// Reads the text form. Positions are merged into `self`; returns the number read.
    pub fn import_text(&mut self, text: &str) -> Result<usize, ImportError> {
        let mut count = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            let err = |message: String| ImportError::Line {
                line: i + 1,
                message,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() < 5 {
                return Err(err("expected: board side value level games [moves]".into()));
            }
            let position = parse_position(&format!("{} {}", words[0], words[1]))
                .map_err(|e| err(e.to_string()))?;
            let board = position.board;
            let number = |w: &str, what: &str| {
                w.parse::<i64>()
                    .map_err(|_| err(format!("bad {what} {w:?}")))
            };
            let value = number(words[2], "value")?;
            let depth = number(words[3], "level")?;
            let games = number(words[4], "games")?;
            if !(-64..=64).contains(&value)
                || !(0..=60).contains(&depth)
                || !(0..=u32::MAX as i64).contains(&games)
            {
                return Err(err("value, level or games out of range".into()));
            }
            let mut leaf = None;
            for w in &words[5..] {
                let (mv, v) = w
                    .split_once(':')
                    .ok_or_else(|| err(format!("bad move {w:?}")))?;
                let mv = Move::parse(mv).map_err(|e| err(e.to_string()))?;
                if !board.is_legal(mv) {
                    return Err(err(format!("illegal move {mv}")));
                }
                if let Some(v) = v.strip_suffix('*') {
                    let v = number(v, "move value")?;
                    leaf = Some((mv, v.clamp(-64, 64) as i8));
                }
            }
            let (node, _) = self.insert(&board);
            *node = Node {
                value: value as i8,
                depth: depth as u8,
                games: games as u32,
                leaf: None,
            };
            self.set_leaf(&board, leaf, depth as u8);
            count += 1;
        }
        Ok(count)
    }

    /// Reads an Edax `book.dat` (format 4; see the protocol reference §3). Positions are merged
    /// into `self`; returns the number read. Edax's values, levels and game counts are kept; its
    /// leaf becomes the leaf.
    pub fn import_edax(&mut self, bytes: &[u8]) -> Result<usize, ImportError> {
        let err = |m: String| ImportError::Edax(m);
        const HEADER: usize = 8 + 2 + 8 + 20 + 4;
        if bytes.len() < HEADER {
            return Err(err(format!(
                "{} bytes, too short for the header",
                bytes.len()
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if u32_at(0) != 0x4544_4158 || u32_at(4) != 0x424F_4F4B {
            return Err(err("bad magic (expected EDAX BOOK)".into()));
        }
        if bytes[8] != 4 {
            return Err(err(format!("version {}, only version 4 is read", bytes[8])));
        }
        let n = i32::from_le_bytes(bytes[38..42].try_into().expect("4 bytes"));
        if n < 0 {
            return Err(err(format!("{n} positions")));
        }
        let mut at = HEADER;
        let mut take = |len: usize| -> Result<&[u8], ImportError> {
            let slice = bytes
                .get(at..at + len)
                .ok_or_else(|| err(format!("truncated at byte {at}")))?;
            at += len;
            Ok(slice)
        };
        for record in 0..n as usize {
            let head = take(16 + 16 + 6 + 2)?;
            let u64_at = |k: usize| u64::from_le_bytes(head[k..k + 8].try_into().expect("8 bytes"));
            let (player, opponent) = (u64_at(0), u64_at(8));
            let u32h = |k: usize| u32::from_le_bytes(head[k..k + 4].try_into().expect("4 bytes"));
            let games = u32h(16).saturating_add(u32h(20)).saturating_add(u32h(24));
            let value = i16::from_le_bytes([head[32], head[33]]);
            let (n_link, depth) = (head[38] as usize, head[39]);
            let links = take(2 * n_link)?.to_vec();
            let leaf = take(2)?;
            let board = Board::new(player, opponent)
                .map_err(|_| err(format!("record {record}: overlapping discs")))?;
            for pair in links.chunks_exact(2) {
                if pair[1] < 64
                    && !board.is_legal(Move::Play(crate::board::Square::from_index_unchecked(
                        pair[1],
                    )))
                {
                    return Err(err(format!(
                        "record {record}: illegal link move {}",
                        pair[1]
                    )));
                }
            }
            let leaf = match leaf[1] {
                sq @ 0..=63 => {
                    let mv = Move::Play(crate::board::Square::from_index_unchecked(sq));
                    if !board.is_legal(mv) {
                        return Err(err(format!("record {record}: illegal leaf move {mv}")));
                    }
                    Some((mv, (leaf[0] as i8).clamp(-64, 64)))
                }
                _ => None,
            };
            let (node, _) = self.insert(&board);
            *node = Node {
                value: value.clamp(-64, 64) as i8,
                depth: depth.min(super::EXACT_DEPTH),
                games,
                leaf: None,
            };
            self.set_leaf(&board, leaf, depth.min(super::EXACT_DEPTH));
        }
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    /// A two-position Edax book: the start (leaf f5 +0, link to the position after f5) and the
    /// position after f5 (leaf d6 +1), written field by field as Edax's `fwrite` lays them out.
    pub(crate) fn tiny_edax_book() -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&0x4544_4158u32.to_le_bytes());
        out.extend_from_slice(&0x424F_4F4Bu32.to_le_bytes());
        out.extend_from_slice(&[4, 6]);
        out.extend_from_slice(&2024i16.to_le_bytes());
        out.extend_from_slice(&[1, 2, 3, 4, 5, 0]);
        for option in [21i32, 24, 4, 0, 1] {
            out.extend_from_slice(&option.to_le_bytes());
        }
        out.extend_from_slice(&2i32.to_le_bytes());
        let f5 = Move::Play(Square::parse("f5").unwrap());
        let d6 = Move::Play(Square::parse("d6").unwrap());
        let start = Board::start();
        let after = start.play(f5);
        for (board, wins, value, links, leaf) in [
            (start, 10u32, 0i16, vec![(0i8, 37u8)], (0i8, 255u8)),
            (after, 7, 1, vec![], (1, d6.square().unwrap().index())),
        ] {
            out.extend_from_slice(&board.player.to_le_bytes());
            out.extend_from_slice(&board.opponent.to_le_bytes());
            for count in [wins, 2, 1, 13] {
                out.extend_from_slice(&count.to_le_bytes());
            }
            for v in [value, value - 2, value + 2] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.push(links.len() as u8);
            out.push(18);
            for (s, m) in links {
                out.push(s as u8);
                out.push(m);
            }
            out.push(leaf.0 as u8);
            out.push(leaf.1);
        }
        out
    }

    #[test]
    fn imports_an_edax_book() {
        let mut book = Book::new();
        assert_eq!(book.import_edax(&tiny_edax_book()).unwrap(), 2);
        let after = Board::start().play(Move::parse("f5").unwrap());
        let (node, _) = book.get(&after).unwrap();
        assert_eq!((node.value, node.depth, node.games), (1, 18, 10));
        let choices = book.moves(&after);
        assert_eq!(choices.len(), 1);
        assert_eq!(choices[0].mv, Move::parse("d6").unwrap());
        // The start links to f5 (and its symmetric twins, which are the same book position).
        let start = book.moves(&Board::start());
        assert_eq!(start.len(), 4);
        assert!(start.iter().all(|c| c.value == -1 && c.linked));
        assert!(matches!(
            book.import_edax(&tiny_edax_book()[..50]),
            Err(ImportError::Edax(_))
        ));
        let mut bad = tiny_edax_book();
        bad[0] = 0;
        assert!(book.import_edax(&bad).is_err());
    }

    #[test]
    fn text_round_trip() {
        let mut book = Book::new();
        book.import_edax(&tiny_edax_book()).unwrap();
        book.negamax();
        let text = book.to_text();
        let mut back = Book::new();
        assert_eq!(back.import_text(&text).unwrap(), 2);
        assert_eq!(back.to_text(), text);
        let err = back
            .import_text(
                "---------------------------OX------XO--------------------------- X +0 12 3 a1:+4*",
            )
            .unwrap_err();
        assert_eq!(err.to_string(), "line 1: illegal move a1");
    }
}
