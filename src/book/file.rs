//! The book file.
//!
//! Layout (little-endian):
//! - magic `IAGOBOOK`, u32 format version (1), u32 positions, u64 FNV-1a checksum of the
//!   uncompressed body, u32 compressed length;
//! - the body, deflate-compressed: the positions in depth-first order from the start position.
//!   Each record is `value: i8, depth: u8, games: LEB128 u32, leaf move: u8, leaf value: i8,
//!   links: u8, link moves: u8 × links`. Moves are squares 0-63 (a1 = 0), 64 a pass, 255 none,
//!   all in the orientation reached by replaying the links from the start. After a record come
//!   the records of its linked children that were not written before, in link order.
//!
//! Positions are not stored, only the moves that reach them: the file is small (a few bytes a
//! position), and loading replays the tree. Positions that cannot be reached from the start by
//! book links are not written.

use std::collections::HashSet;
use std::io::{Read, Write};

use thiserror::Error;

use super::{Book, Node, children, code_move, move_code};
use crate::board::{Board, Move};

const MAGIC: &[u8; 8] = b"IAGOBOOK";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 8 + 4;
/// The smallest record: value, depth, games (one byte), leaf move, leaf value, link count.
const MIN_RECORD: usize = 6;
/// The largest body read (1 GiB, some 150 million positions).
const MAX_BODY: usize = 1 << 30;

/// Why a book file cannot be used.
#[derive(Debug, Error)]
pub enum BookError {
    /// Not a book file.
    #[error("not an Iago book file (bad magic)")]
    Magic,
    /// Another format version.
    #[error("book file format {0}, this build reads format {VERSION}")]
    Version(u32),
    /// Cut short or inconsistent.
    #[error("the book file is truncated or corrupt: {0}")]
    Corrupt(String),
    /// The checksum does not match.
    #[error("the book file's checksum does not match")]
    Checksum,
    /// The file could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

impl Book {
    /// The book as file bytes; the second value counts positions left out because no book link
    /// reaches them from the start.
    pub fn to_bytes(&self) -> (Vec<u8>, usize) {
        let mut body = Vec::new();
        let mut written = HashSet::new();
        if self.contains(&Board::start()) {
            self.write_tree(Board::start(), &mut body, &mut written);
        }
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&body).expect("writing to memory");
        let compressed = encoder.finish().expect("writing to memory");
        let mut out = Vec::with_capacity(HEADER + compressed.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(written.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
        out.extend_from_slice(&compressed);
        (out, self.len() - written.len())
    }

    fn write_tree(&self, root: Board, body: &mut Vec<u8>, written: &mut HashSet<Board>) {
        // Iterative depth-first walk; each stack entry is a board whose record is written and
        // the links still to visit.
        let mut stack: Vec<(Board, std::vec::IntoIter<Board>)> = Vec::new();
        let visit = |board: Board, body: &mut Vec<u8>, written: &mut HashSet<Board>| {
            let (node, sym) = self.get(&board).expect("linked positions are in the book");
            written.insert(board.canonical().0);
            let links: Vec<(Move, Board)> = children(&board)
                .into_iter()
                .filter(|(_, c)| self.contains(c))
                .collect();
            body.push(node.value as u8);
            body.push(node.depth);
            let mut games = node.games;
            loop {
                let byte = (games & 0x7F) as u8;
                games >>= 7;
                body.push(if games == 0 { byte } else { byte | 0x80 });
                if games == 0 {
                    break;
                }
            }
            let leaf = node
                .leaf
                .map(|(mv, v)| (super::map_move(mv, sym.inverse()), v));
            body.push(move_code(leaf.map(|l| l.0)));
            body.push(leaf.map_or(0, |l| l.1) as u8);
            body.push(links.len() as u8);
            for (mv, _) in &links {
                body.push(move_code(Some(*mv)));
            }
            links
                .into_iter()
                .map(|(_, c)| c)
                .collect::<Vec<_>>()
                .into_iter()
        };
        let links = visit(root, body, written);
        stack.push((root, links));
        while let Some((_, links)) = stack.last_mut() {
            match links.next() {
                Some(child) => {
                    if !written.contains(&child.canonical().0) {
                        let grandchildren = visit(child, body, written);
                        stack.push((child, grandchildren));
                    }
                }
                None => {
                    stack.pop();
                }
            }
        }
    }

    /// Reads a book file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(BookError::Magic);
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u32_at(12) as usize;
        let checksum = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let compressed = u32_at(24) as usize;
        let payload = bytes.get(HEADER..HEADER + compressed).ok_or_else(|| {
            BookError::Corrupt(format!(
                "{} bytes, header says {}",
                bytes.len(),
                HEADER + compressed
            ))
        })?;
        let mut body = Vec::new();
        flate2::read::DeflateDecoder::new(payload)
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body)
            .map_err(|e| BookError::Corrupt(e.to_string()))?;
        if body.len() > MAX_BODY {
            return Err(BookError::Corrupt(format!(
                "the positions inflate beyond {MAX_BODY} bytes"
            )));
        }
        if fnv1a(&body) != checksum {
            return Err(BookError::Checksum);
        }
        // The count is outside the checksum: check it against the body before trusting it.
        if count > body.len() / MIN_RECORD {
            return Err(BookError::Corrupt(format!(
                "the header counts {count} positions, {} bytes hold at most {}",
                body.len(),
                body.len() / MIN_RECORD
            )));
        }
        let mut book = Book::new();
        book.nodes.reserve(count);
        if count > 0 {
            let mut reader = Reader { body: &body, at: 0 };
            read_tree(&mut book, &mut reader, Board::start())?;
            if reader.at != body.len() {
                return Err(BookError::Corrupt(format!(
                    "{} bytes after the last position",
                    body.len() - reader.at
                )));
            }
        }
        if book.len() != count {
            return Err(BookError::Corrupt(format!(
                "{} positions, header says {count}",
                book.len()
            )));
        }
        Ok(book)
    }

    /// Reads a book file from disk.
    pub fn load(path: &std::path::Path) -> Result<Book, BookError> {
        let book = Book::from_bytes(&std::fs::read(path)?)?;
        Ok(book)
    }

    /// Writes the book to disk (through a temporary file, so that a crash leaves the old one).
    pub fn save(&self, path: &std::path::Path) -> Result<usize, BookError> {
        let (bytes, dropped) = self.to_bytes();
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, path)?;
        Ok(dropped)
    }
}

struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, BookError> {
        let b = *self
            .body
            .get(self.at)
            .ok_or_else(|| BookError::Corrupt("the positions end early".into()))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, BookError> {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(value)
                    .map_err(|_| BookError::Corrupt("a game count overflows".into()));
            }
        }
        Err(BookError::Corrupt("a game count is too long".into()))
    }

    fn mv(&mut self) -> Result<Option<Move>, BookError> {
        let code = self.byte()?;
        code_move(code).ok_or_else(|| BookError::Corrupt(format!("move code {code}")))
    }
}

fn read_tree(book: &mut Book, reader: &mut Reader, root: Board) -> Result<(), BookError> {
    let mut stack: Vec<std::vec::IntoIter<Board>> =
        vec![read_record(book, reader, root)?.into_iter()];
    while let Some(links) = stack.last_mut() {
        match links.next() {
            Some(child) => {
                if !book.contains(&child) {
                    let grandchildren = read_record(book, reader, child)?;
                    stack.push(grandchildren.into_iter());
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(())
}

/// Reads the record of `board`, stores it, and returns the positions its links lead to.
fn read_record(
    book: &mut Book,
    reader: &mut Reader,
    board: Board,
) -> Result<Vec<Board>, BookError> {
    let value = reader.byte()? as i8;
    let depth = reader.byte()?;
    let games = reader.varint()?;
    let leaf_move = reader.mv()?;
    let leaf_value = reader.byte()? as i8;
    let n = reader.byte()? as usize;
    let mut links = Vec::with_capacity(n);
    for _ in 0..n {
        let mv = reader
            .mv()?
            .ok_or_else(|| BookError::Corrupt("a link without a move".into()))?;
        let child = board
            .try_play(mv)
            .map_err(|e| BookError::Corrupt(format!("illegal link {mv}: {e}")))?;
        links.push(child);
    }
    if let Some(mv) = leaf_move
        && !board.is_legal(mv)
    {
        return Err(BookError::Corrupt(format!("illegal leaf move {mv}")));
    }
    if !(-64..=64).contains(&value) || !(-64..=64).contains(&leaf_value) {
        return Err(BookError::Corrupt(format!(
            "value {value} or {leaf_value} out of range"
        )));
    }
    book.put(
        &board,
        Node {
            value,
            depth,
            games,
            leaf: leaf_move.map(|mv| (mv, leaf_value)),
        },
    );
    Ok(links)
}
