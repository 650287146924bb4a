//! Training-data chunks (`iago datagen`): a versioned, checksummed header, then fixed-size
//! records of labelled positions. The byte layout is in docs/manual.md (`iago datagen`).
//!
//! Header (64 bytes, little-endian): magic `IAGODATA`; u16 format version ([`VERSION`]); u16
//! record size ([`RECORD_SIZE`]); u32 kind (0 self-play, 1 merged); u64 fingerprint of the
//! settings that made the chunk; u64 chunk number; u64 first game; u64 games; u64 records; u32
//! reserved (0); u32 CRC-32 of the header's first 60 bytes and of the records.
//!
//! Record ([`RECORD_SIZE`] bytes): u64 discs of the side to move, u64 discs of the other side,
//! u32 game number, u16 occurrences, u8 label flags ([`OUTCOME`], [`SEARCH`], [`EXACT`]), u8
//! ply, u8 empties, i8 outcome, i8 search score, u8 search depth, i8 exact score, 3 reserved
//! bytes (0). A label whose flag is clear is stored as 0.

use std::io::Write;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::board::Board;

/// The first 8 bytes of every chunk.
pub const MAGIC: &[u8; 8] = b"IAGODATA";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 64;
/// Bytes of a record.
pub const RECORD_SIZE: usize = 32;
/// A chunk file's extension.
pub const EXTENSION: &str = "iagodata";

/// Label flag: the record has an outcome label.
pub const OUTCOME: u8 = 1;
/// Label flag: the record has a search label (score and depth).
pub const SEARCH: u8 = 2;
/// Label flag: the record has an exact label.
pub const EXACT: u8 = 4;

/// Scores are disc differences for the side to move, within ±64.
const SCORE_RANGE: std::ops::RangeInclusive<i8> = -64..=64;

/// What made a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChunkKind {
    /// Games of `iago datagen`: the records of each game in order, games in order.
    SelfPlay,
    /// Positions merged from other chunks: one record per position class under the 8
    /// symmetries, in canonical form, sorted.
    Merged,
}

impl ChunkKind {
    fn code(self) -> u32 {
        match self {
            ChunkKind::SelfPlay => 0,
            ChunkKind::Merged => 1,
        }
    }
}

/// A search label: the score of a search `depth` plies deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchLabel {
    /// Discs for the side to move.
    pub score: i8,
    /// Plies of the search.
    pub depth: u8,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The discs, relative to the side to move.
    pub board: Board,
    /// The game it comes from (for a merged record, the least of its occurrences).
    pub game: u32,
    /// How many positions it stands for (1 in a self-play chunk; a merged record counts its
    /// duplicates, at most `u16::MAX`).
    pub count: u16,
    /// Moves made from the standard start, passes included (merged: the least).
    pub ply: u8,
    /// The game's result under strong play, discs for the side to move (see
    /// docs/manual.md for how self-play computes it).
    pub outcome: Option<i8>,
    /// The value of a search.
    pub search: Option<SearchLabel>,
    /// The exact final score under perfect play.
    pub exact: Option<i8>,
}

impl Record {
    /// The label flags.
    pub fn flags(&self) -> u8 {
        (if self.outcome.is_some() { OUTCOME } else { 0 })
            | (if self.search.is_some() { SEARCH } else { 0 })
            | (if self.exact.is_some() { EXACT } else { 0 })
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.board.player.to_le_bytes());
        out.extend_from_slice(&self.board.opponent.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.count.to_le_bytes());
        let search = self.search.unwrap_or(SearchLabel { score: 0, depth: 0 });
        out.extend_from_slice(&[
            self.flags(),
            self.ply,
            self.board.empty_count() as u8,
            self.outcome.unwrap_or(0) as u8,
            search.score as u8,
            search.depth,
            self.exact.unwrap_or(0) as u8,
            0,
            0,
            0,
        ]);
    }

    fn read(bytes: &[u8]) -> Result<Record, &'static str> {
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let board = Board::new(u64_at(0), u64_at(8)).map_err(|_| "the two sides overlap")?;
        let flags = bytes[22];
        if flags & !(OUTCOME | SEARCH | EXACT) != 0 {
            return Err("unknown label flags");
        }
        if bytes[24] as u32 != board.empty_count() {
            return Err("the empties do not match the board");
        }
        if bytes[29..32] != [0, 0, 0] {
            return Err("reserved bytes are not zero");
        }
        let label = |byte: u8, flag: u8| -> Result<Option<i8>, &'static str> {
            let score = byte as i8;
            if flags & flag == 0 {
                return if score == 0 {
                    Ok(None)
                } else {
                    Err("a label without its flag")
                };
            }
            if SCORE_RANGE.contains(&score) {
                Ok(Some(score))
            } else {
                Err("a score beyond ±64")
            }
        };
        let search = label(bytes[26], SEARCH)?.map(|score| SearchLabel {
            score,
            depth: bytes[27],
        });
        if search.is_none() && bytes[27] != 0 {
            return Err("a search depth without a search label");
        }
        Ok(Record {
            board,
            game: u32::from_le_bytes(bytes[16..20].try_into().expect("4")),
            count: u16::from_le_bytes(bytes[20..22].try_into().expect("2")),
            ply: bytes[23],
            outcome: label(bytes[25], OUTCOME)?,
            search,
            exact: label(bytes[28], EXACT)?,
        })
    }
}

/// A chunk's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// Self-play or merged.
    pub kind: ChunkKind,
    /// The fingerprint of the settings and seed that made the chunk (merged: of its inputs'
    /// fingerprints).
    pub fingerprint: u64,
    /// The chunk's number (self-play: games `first_game..first_game + games`).
    pub chunk: u64,
    /// The first game (0 in a merged chunk).
    pub first_game: u64,
    /// Games played (0 in a merged chunk).
    pub games: u64,
}

/// A chunk: its header and its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The header (the record count and the checksum are those of `records`).
    pub header: ChunkHeader,
    /// The records.
    pub records: Vec<Record>,
}

/// Why bytes are not a chunk this build reads.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChunkError {
    /// Not a data chunk.
    #[error("not an Iago data chunk (bad magic)")]
    Magic,
    /// Another format version.
    #[error("data chunk format version {0}, this build reads version {VERSION}")]
    Version(u16),
    /// A record size other than this version's.
    #[error("data chunk records of {0} bytes, expected {RECORD_SIZE}")]
    RecordSize(u16),
    /// An unknown kind.
    #[error("unknown data chunk kind {0}")]
    Kind(u32),
    /// Fewer or more bytes than the records announced.
    #[error("data chunk truncated or padded: {records} records announced, {bytes} bytes of them")]
    Length {
        /// Records announced.
        records: u64,
        /// Bytes after the header.
        bytes: usize,
    },
    /// The checksum does not match.
    #[error("data chunk damaged: checksum {stored:08x} stored, {computed:08x} computed")]
    Checksum {
        /// In the header.
        stored: u32,
        /// Of the bytes read.
        computed: u32,
    },
    /// A record that cannot be.
    #[error("data chunk record {index}: {what}")]
    Record {
        /// 0-based.
        index: usize,
        /// What is wrong.
        what: &'static str,
    },
}

fn crc(header: &[u8], body: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(&header[..60]);
    crc.update(body);
    crc.sum()
}

impl Chunk {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = Vec::with_capacity(HEADER_SIZE + self.records.len() * RECORD_SIZE);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
        out.extend_from_slice(&h.kind.code().to_le_bytes());
        for word in [
            h.fingerprint,
            h.chunk,
            h.first_game,
            h.games,
            self.records.len() as u64,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&[0; 8]);
        for record in &self.records {
            record.write(&mut out);
        }
        let sum = crc(&out[..HEADER_SIZE], &out[HEADER_SIZE..]);
        out[60..64].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a chunk: magic, version, record size, kind, length, checksum, then every record
    /// (a board without overlap, its empties, known flags, scores within ±64, zero padding).
    pub fn from_bytes(bytes: &[u8]) -> Result<Chunk, ChunkError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(ChunkError::Magic);
        }
        if bytes.len() < HEADER_SIZE {
            return Err(ChunkError::Length {
                records: 0,
                bytes: 0,
            });
        }
        let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().expect("2"));
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let version = u16_at(8);
        if version != VERSION {
            return Err(ChunkError::Version(version));
        }
        if u16_at(10) as usize != RECORD_SIZE {
            return Err(ChunkError::RecordSize(u16_at(10)));
        }
        let kind = match u32_at(12) {
            0 => ChunkKind::SelfPlay,
            1 => ChunkKind::Merged,
            other => return Err(ChunkError::Kind(other)),
        };
        let records = u64_at(48);
        let body = &bytes[HEADER_SIZE..];
        if records.checked_mul(RECORD_SIZE as u64) != Some(body.len() as u64) {
            return Err(ChunkError::Length {
                records,
                bytes: body.len(),
            });
        }
        let (stored, computed) = (u32_at(60), crc(&bytes[..HEADER_SIZE], body));
        if stored != computed {
            return Err(ChunkError::Checksum { stored, computed });
        }
        let records = body
            .chunks_exact(RECORD_SIZE)
            .enumerate()
            .map(|(index, r)| Record::read(r).map_err(|what| ChunkError::Record { index, what }))
            .collect::<Result<Vec<Record>, ChunkError>>()?;
        Ok(Chunk {
            header: ChunkHeader {
                kind,
                fingerprint: u64_at(16),
                chunk: u64_at(24),
                first_game: u64_at(32),
                games: u64_at(40),
            },
            records,
        })
    }
}

/// Why data files could not be read or written; each names its file.
#[derive(Debug, Error)]
pub enum DataError {
    /// A file or directory that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file that is no chunk this build reads.
    #[error("{}: {source}", path.display())]
    Chunk {
        /// The path.
        path: PathBuf,
        /// Why.
        source: ChunkError,
    },
    /// A file or directory that cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A chunk made with other settings where this run would write its own.
    #[error(
        "{} was made with other settings (fingerprint {found:016x}, this run's {expected:016x}): use another --out directory, or remove it",
        path.display()
    )]
    Foreign {
        /// The chunk.
        path: PathBuf,
        /// Its fingerprint.
        found: u64,
        /// This run's.
        expected: u64,
    },
    /// A directory given as input without a single chunk.
    #[error("{}: no data chunks (*.{EXTENSION}) in it", path.display())]
    NoChunks {
        /// The directory.
        path: PathBuf,
    },
    /// An output directory that already holds chunks.
    #[error("{} already holds data chunks: merge into a new or empty directory", path.display())]
    OutputNotEmpty {
        /// The directory.
        path: PathBuf,
    },
}

/// Reads and checks the chunk at `path`.
pub fn read_chunk(path: &Path) -> Result<Chunk, DataError> {
    let bytes = std::fs::read(path).map_err(|source| DataError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Chunk::from_bytes(&bytes).map_err(|source| DataError::Chunk {
        path: path.to_path_buf(),
        source,
    })
}

/// The chunk files of `path`: the file itself, or a directory's `*.iagodata` files (not its
/// subdirectories), sorted by name. A directory without chunks is an error.
pub fn chunk_files(path: &Path) -> Result<Vec<PathBuf>, DataError> {
    if !path.is_dir() {
        if !path.exists() {
            return Err(DataError::Read {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = chunks_in(path)?;
    if files.is_empty() {
        return Err(DataError::NoChunks {
            path: path.to_path_buf(),
        });
    }
    files.sort();
    Ok(files)
}

/// The `*.iagodata` files in directory `dir`.
pub(crate) fn chunks_in(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let read_error = |source| DataError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        if path.is_file() && path.extension().is_some_and(|x| x == EXTENSION) {
            files.push(path);
        }
    }
    Ok(files)
}

/// Every record of the chunks at `paths` (files, or directories of `*.iagodata` files), file
/// by file in the order given (a directory's files by name). Any file that is not a sound
/// chunk is an error.
pub fn read_records(paths: &[PathBuf]) -> Result<Vec<Record>, DataError> {
    let mut records = Vec::new();
    for path in paths {
        for file in chunk_files(path)? {
            records.extend(read_chunk(&file)?.records);
        }
    }
    Ok(records)
}

/// Writes `bytes` to `path` through a temporary file in the same directory, synced and then
/// renamed: a reader (or a resumed run) sees the whole file or none of it.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), DataError> {
    let write_error = |source| DataError::Write {
        path: path.to_path_buf(),
        source,
    };
    let tmp = temporary_path(path);
    let mut file = std::fs::File::create(&tmp).map_err(write_error)?;
    file.write_all(bytes).map_err(write_error)?;
    file.sync_all().map_err(write_error)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(write_error)
}

/// Where [`write_atomically`] writes `path` before the rename.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// FNV-1a, 64 bits: a hash that is the same on every platform and in every build (fingerprints
/// are compared across machines).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xCBF2_9CE4_8422_2325)
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
    }

    pub(crate) fn write_u64(&mut self, x: u64) {
        self.write(&x.to_le_bytes());
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn board(moves: &str) -> Board {
        let mut board = Board::start();
        for k in (0..moves.len()).step_by(2) {
            board = board.play(Move::parse(&moves[k..k + 2]).unwrap());
        }
        board
    }

    fn sample_chunk() -> Chunk {
        Chunk {
            header: ChunkHeader {
                kind: ChunkKind::SelfPlay,
                fingerprint: 0x0123_4567_89AB_CDEF,
                chunk: 7,
                first_game: 14,
                games: 2,
            },
            records: vec![
                Record {
                    board: board("f5d6"),
                    game: 14,
                    count: 1,
                    ply: 2,
                    outcome: Some(-6),
                    search: Some(SearchLabel {
                        score: -3,
                        depth: 10,
                    }),
                    exact: None,
                },
                Record {
                    board: board("f5f6e6f4"),
                    game: 15,
                    count: 1,
                    ply: 4,
                    outcome: Some(64),
                    search: None,
                    exact: Some(-64),
                },
                Record {
                    board: board("c4"),
                    game: 15,
                    count: 3,
                    ply: 1,
                    outcome: None,
                    search: None,
                    exact: None,
                },
            ],
        }
    }

    #[test]
    fn chunks_round_trip_byte_for_byte() {
        let chunk = sample_chunk();
        let bytes = chunk.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + 3 * RECORD_SIZE);
        assert_eq!(&bytes[..8], b"IAGODATA");
        // The flags and empties of the first record, where the manual says they are.
        let first = &bytes[HEADER_SIZE..HEADER_SIZE + RECORD_SIZE];
        assert_eq!(first[22], OUTCOME | SEARCH);
        assert_eq!(first[24], 58);
        assert_eq!(first[26] as i8, -3);
        let back = Chunk::from_bytes(&bytes).unwrap();
        assert_eq!(back, chunk);
        assert_eq!(back.to_bytes(), bytes);
        let empty = Chunk {
            records: Vec::new(),
            ..chunk
        };
        assert_eq!(Chunk::from_bytes(&empty.to_bytes()).unwrap(), empty);
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_is_refused() {
        let bytes = sample_chunk().to_bytes();
        for at in 0..bytes.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = bytes.clone();
                bad[at] ^= bit;
                assert!(Chunk::from_bytes(&bad).is_err(), "byte {at} bit {bit:#x}");
            }
        }
        for len in 0..bytes.len() {
            assert!(Chunk::from_bytes(&bytes[..len]).is_err(), "{len} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Chunk::from_bytes(&longer),
            Err(ChunkError::Length {
                records: 3,
                bytes: 3 * RECORD_SIZE + 1
            })
        );
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 3] ^= 0x10;
        assert!(matches!(
            Chunk::from_bytes(&flipped),
            Err(ChunkError::Checksum { .. })
        ));
        assert_eq!(Chunk::from_bytes(b"IAGOEVAL"), Err(ChunkError::Magic));
    }

    #[test]
    fn another_version_or_layout_is_named_as_such() {
        let bytes = sample_chunk().to_bytes();
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert_eq!(Chunk::from_bytes(&v2), Err(ChunkError::Version(2)));
        assert_eq!(
            ChunkError::Version(2).to_string(),
            "data chunk format version 2, this build reads version 1"
        );
        let mut wide = bytes.clone();
        wide[10] = 40;
        assert_eq!(Chunk::from_bytes(&wide), Err(ChunkError::RecordSize(40)));
        let mut kind = bytes;
        kind[12] = 9;
        assert_eq!(Chunk::from_bytes(&kind), Err(ChunkError::Kind(9)));
    }

    /// Records that cannot be are refused even under a valid checksum (a writer's bug, not
    /// damage).
    #[test]
    fn impossible_records_are_refused() {
        let chunk = sample_chunk();
        let reencode = |edit: &dyn Fn(&mut [u8])| {
            let mut bytes = chunk.to_bytes();
            edit(&mut bytes[HEADER_SIZE..HEADER_SIZE + RECORD_SIZE]);
            let sum = crc(&bytes[..HEADER_SIZE], &bytes[HEADER_SIZE..]);
            bytes[60..64].copy_from_slice(&sum.to_le_bytes());
            Chunk::from_bytes(&bytes)
        };
        let what = |result: Result<Chunk, ChunkError>| match result {
            Err(ChunkError::Record { index: 0, what }) => what,
            other => panic!("{other:?}"),
        };
        assert_eq!(what(reencode(&|r| r[11] |= r[3])), "the two sides overlap");
        assert_eq!(what(reencode(&|r| r[22] |= 8)), "unknown label flags");
        assert_eq!(
            what(reencode(&|r| r[24] = 3)),
            "the empties do not match the board"
        );
        assert_eq!(what(reencode(&|r| r[26] = 65)), "a score beyond ±64");
        assert_eq!(what(reencode(&|r| r[28] = 2)), "a label without its flag");
        assert_eq!(
            what(reencode(&|r| r[31] = 1)),
            "reserved bytes are not zero"
        );
        assert!(reencode(&|_| {}).is_ok());
    }

    #[test]
    fn fnv_matches_the_published_vectors() {
        let hash = |s: &str| {
            let mut h = Fnv::new();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(hash("a"), 0xAF63_DC4C_8601_EC8C);
        assert_eq!(hash("foobar"), 0x8594_4171_F739_67E8);
    }
}
