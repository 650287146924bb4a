//! The opening book: positions in canonical form with their negamaxed values.
//!
//! Each position ([`Node`]) holds its value for the side to move, the depth of the search that produced
//! it, the number of archive games through it, and its best move *outside* the book (the
//! "leaf", as in Edax's books) with that move's value. Its links are the legal moves whose
//! resulting positions are also in the book; they are found by probing, and the file stores
//! them as the tree's shape (see [`Book::save`]). A position's value is the best of its leaf and
//! of its linked children, negamaxed from the book's frontier up to the start
//! ([`Book::negamax`]).
//!
//! Positions are stored once per symmetry class: the key is [`Board::canonical`], and moves are
//! kept in the canonical orientation and mapped back on probing.

pub(crate) mod build;
mod file;
pub(crate) mod text;

pub use file::BookError;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::board::{Board, Move, Square, Symmetry};

/// `Node::depth` of a position whose value is exact (the formats call it a level, as Edax
/// does).
pub const EXACT_DEPTH: u8 = 60;

/// One book position (canonical orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Value for the side to move, in discs (negamaxed over links and the leaf).
    pub value: i8,
    /// Depth of the search that evaluated the leaf ([`EXACT_DEPTH`] when exact).
    pub depth: u8,
    /// Archive or learned games through this position.
    pub games: u32,
    /// The best move outside the book and its value, if the position has such a move.
    pub leaf: Option<(Move, i8)>,
}

impl Node {
    /// A position not evaluated yet.
    pub const fn new() -> Node {
        Node {
            value: 0,
            depth: 0,
            games: 0,
            leaf: None,
        }
    }
}

impl Default for Node {
    fn default() -> Self {
        Node::new()
    }
}

/// A move the book knows for a position, in the position's own orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move, discs.
    pub value: i32,
    /// Games through the position after the move (0 for the leaf move).
    pub games: u32,
    /// The depth of the search behind the value ([`EXACT_DEPTH`] when exact).
    pub depth: u8,
    /// Whether the move leads to a book position (rather than being the leaf).
    pub linked: bool,
}

/// Maps a square through a symmetry.
fn map_move(mv: Move, sym: Symmetry) -> Move {
    match mv {
        Move::Play(sq) => Move::Play(sym.apply_square(sq)),
        Move::Pass => Move::Pass,
    }
}

/// The moves of `board` and the positions they lead to (the pass when the side to move must
/// pass; nothing when the game is over).
pub(crate) fn children(board: &Board) -> Vec<(Move, Board)> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        if board.pass().legal_moves().is_empty() {
            return Vec::new();
        }
        return vec![(Move::Pass, board.pass())];
    }
    moves
        .iter()
        .map(|sq| (Move::Play(sq), board.play(Move::Play(sq))))
        .collect()
}

/// A hasher for boards: the derived `Hash` writes the two bitboards, mixed here with a
/// multiply-xorshift (SipHash would be most of the load time of a book).
#[derive(Clone, Copy, Default)]
pub(crate) struct BoardHasher(u64);

impl std::hash::Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type BoardMap<V> = HashMap<Board, V, std::hash::BuildHasherDefault<BoardHasher>>;

/// The opening book.
#[derive(Debug, Default)]
pub struct Book {
    nodes: BoardMap<Node>,
    /// Pick among moves within this many discs of the best (0: always the best).
    randomness: i32,
    rng: AtomicU64,
    /// Where `learn` saves the book, if anywhere.
    path: Mutex<Option<std::path::PathBuf>>,
}

impl Clone for Book {
    fn clone(&self) -> Self {
        Book {
            nodes: self.nodes.clone(),
            randomness: self.randomness,
            rng: AtomicU64::new(self.rng.load(Relaxed)),
            path: Mutex::new(self.path.lock().expect("path lock").clone()),
        }
    }
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book {
            rng: AtomicU64::new(0x9E37_79B9_7F4A_7C15),
            ..Book::default()
        }
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of `board` (any orientation) and the symmetry that maps `board` onto the key.
    pub fn get(&self, board: &Board) -> Option<(&Node, Symmetry)> {
        let (key, sym) = board.canonical();
        self.nodes.get(&key).map(|n| (n, sym))
    }

    /// Whether `board` (any orientation) is in the book.
    pub fn contains(&self, board: &Board) -> bool {
        self.nodes.contains_key(&board.canonical().0)
    }

    /// The node of `board`, created empty if missing; `true` when it was created.
    pub fn insert(&mut self, board: &Board) -> (&mut Node, bool) {
        let key = board.canonical().0;
        let mut created = false;
        let node = self.nodes.entry(key).or_insert_with(|| {
            created = true;
            Node::new()
        });
        (node, created)
    }

    /// Stores `node` for `board` with its leaf given in `board`'s orientation.
    pub(crate) fn put(&mut self, board: &Board, mut node: Node) {
        let (key, sym) = board.canonical();
        node.leaf = node.leaf.map(|(mv, v)| (map_move(mv, sym), v));
        self.nodes.insert(key, node);
    }

    /// Sets the leaf of `board` (the move in `board`'s orientation).
    pub fn set_leaf(&mut self, board: &Board, leaf: Option<(Move, i8)>, depth: u8) {
        let (key, sym) = board.canonical();
        let node = self.nodes.entry(key).or_default();
        node.leaf = leaf.map(|(mv, v)| (map_move(mv, sym), v));
        node.depth = depth;
    }

    /// Every `(canonical board, node)`.
    pub fn iter(&self) -> impl Iterator<Item = (&Board, &Node)> {
        self.nodes.iter()
    }

    /// Chooses within `discs` of the best move (0: only the best).
    pub fn set_randomness(&mut self, discs: i32) {
        self.randomness = discs.max(0);
    }

    /// Seeds the random choice among near-best moves.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = AtomicU64::new(seed | 1);
    }

    /// Where `learn` saves the book.
    pub fn set_path(&self, path: Option<std::path::PathBuf>) {
        *self.path.lock().expect("path lock") = path;
    }

    /// The file `learn` saves to, if any.
    pub fn path(&self) -> Option<std::path::PathBuf> {
        self.path.lock().expect("path lock").clone()
    }

    /// The moves the book knows for `board` (its own orientation), best first: the linked moves
    /// and the leaf.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let Some((node, sym)) = self.get(board) else {
            return Vec::new();
        };
        let mut out: Vec<BookMove> = children(board)
            .into_iter()
            .filter_map(|(mv, child)| {
                let (c, _) = self.get(&child)?;
                Some(BookMove {
                    mv,
                    value: -(c.value as i32),
                    games: c.games,
                    depth: c.depth,
                    linked: true,
                })
            })
            .collect();
        if let Some((mv, value)) = node.leaf {
            let mv = map_move(mv, sym.inverse());
            if board.is_legal(mv) && !out.iter().any(|c| c.mv == mv) {
                out.push(BookMove {
                    mv,
                    value: value as i32,
                    games: 0,
                    depth: node.depth,
                    linked: false,
                });
            }
        }
        out.sort_by_key(|c| (-c.value, std::cmp::Reverse(c.games)));
        out
    }

    /// The move to play from `board`: the best, or a random one within the randomness of it.
    pub fn choose(&self, board: &Board) -> Option<BookMove> {
        let choices = self.moves(board);
        let best = choices.first()?.value;
        let near: Vec<&BookMove> = choices
            .iter()
            .filter(|c| c.value >= best - self.randomness)
            .collect();
        let mut state = self.rng.load(Relaxed);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        self.rng.store(state, Relaxed);
        Some(*near[(state % near.len() as u64) as usize])
    }

    /// Recomputes every value from the leaves and the final scores up to the start: a node's
    /// value is the best of its leaf and of its linked children.
    pub fn negamax(&mut self) {
        let mut done: BoardMap<(i8, u8)> = BoardMap::default();
        let keys: Vec<Board> = self.nodes.keys().copied().collect();
        for key in keys {
            self.negamax_from(key, &mut done);
        }
    }

    fn negamax_from(&mut self, key: Board, done: &mut BoardMap<(i8, u8)>) {
        if done.contains_key(&key) {
            return;
        }
        // Iterative post-order walk: deep books would overflow the stack with recursion.
        let mut stack: Vec<(Board, Vec<Board>)> = vec![(key, self.linked_keys(&key))];
        while let Some((board, pending)) = stack.last_mut() {
            if let Some(child) = pending.pop() {
                if !done.contains_key(&child) {
                    let grandchildren = self.linked_keys(&child);
                    stack.push((child, grandchildren));
                }
                continue;
            }
            let board = *board;
            let node = self.nodes[&board];
            let mut best = node.leaf.map(|(_, v)| v as i32);
            // A position without a leaf takes the shallowest depth of its links.
            let mut depth = node.leaf.map(|_| node.depth);
            for (_, child) in children(&board) {
                if let Some(&(v, l)) = done.get(&child.canonical().0) {
                    best = Some(best.map_or(-(v as i32), |b| b.max(-(v as i32))));
                    if node.leaf.is_none() {
                        depth = Some(depth.map_or(l, |x| x.min(l)));
                    }
                }
            }
            let value = match best {
                Some(v) => v,
                None if board.is_game_over() => board.final_score(),
                None => node.value as i32,
            };
            let value = value.clamp(-64, 64) as i8;
            let depth = depth.unwrap_or(if board.is_game_over() {
                EXACT_DEPTH
            } else {
                node.depth
            });
            let stored = self.nodes.get_mut(&board).expect("in the book");
            stored.value = value;
            stored.depth = depth;
            done.insert(board, (value, depth));
            stack.pop();
        }
    }

    fn linked_keys(&self, board: &Board) -> Vec<Board> {
        children(board)
            .into_iter()
            .map(|(_, child)| child.canonical().0)
            .filter(|k| self.nodes.contains_key(k))
            .collect()
    }
}

/// The square of a move as stored in files: 0-63, 64 for a pass, 255 for none.
pub(crate) fn move_code(mv: Option<Move>) -> u8 {
    match mv {
        Some(Move::Play(sq)) => sq.index(),
        Some(Move::Pass) => 64,
        None => 255,
    }
}

/// The inverse of [`move_code`].
pub(crate) fn code_move(code: u8) -> Option<Option<Move>> {
    match code {
        0..=63 => Some(Some(Move::Play(Square::from_index_unchecked(code)))),
        64 => Some(Some(Move::Pass)),
        255 => Some(None),
        _ => None,
    }
}

/// The book shipped in `book/iago.book`, compiled into the binary (built by `iago book build`).
static SHIPPED: &[u8] = include_bytes!("../../book/iago.book");

impl Book {
    /// The shipped book.
    pub fn shipped() -> Result<Book, file::BookError> {
        Book::from_bytes(SHIPPED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Game, Position, Rules};

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    fn line(transcript: &str) -> Game {
        Game::from_transcript(Rules::OTHELLO, Position::start(), transcript).unwrap()
    }

    /// The start, f5, f5d6, f5f6, with leaves: start c4 -3, f5: d6 is linked, leaf f4 +2;
    /// f5d6: leaf c3 +1; f5f6: leaf e6 -4.
    fn small_book() -> Book {
        let mut book = Book::new();
        for t in ["f5d6", "f5f6"] {
            let g = line(t);
            book.add_line(g.start().board, g.moves(), 12, true);
        }
        let start = Board::start();
        let f5 = start.play(mv("f5"));
        book.set_leaf(&start, Some((mv("c4"), -3)), 10);
        book.set_leaf(&f5, Some((mv("f4"), 2)), 10);
        book.set_leaf(&f5.play(mv("d6")), Some((mv("c3"), 1)), 10);
        book.set_leaf(&f5.play(mv("f6")), Some((mv("e6"), -4)), 10);
        book.negamax();
        book
    }

    #[test]
    fn values_are_negamaxed_from_leaves_and_links() {
        let book = small_book();
        let f5 = Board::start().play(mv("f5"));
        // After f5 (White to move): d6 gives -1, f6 gives +4, leaf f4 +2: the best is f6, +4.
        let choices = book.moves(&f5);
        assert_eq!(
            choices.iter().map(|c| (c.mv, c.value)).collect::<Vec<_>>(),
            vec![(mv("f6"), 4), (mv("f4"), 2), (mv("d6"), -1)]
        );
        assert_eq!(book.get(&f5).unwrap().0.value, 4);
        // At the start: f5 (and its 3 twins) -4, leaf c4 -3 is the twin of f5, so only links.
        let start = book.moves(&Board::start());
        assert_eq!(start.len(), 4);
        assert!(
            start
                .iter()
                .all(|c| c.value == -4 && c.linked && c.games == 2)
        );
        assert_eq!(book.get(&Board::start()).unwrap().0.games, 2);
    }

    #[test]
    fn symmetric_positions_share_a_node_and_moves_map_back() {
        let book = small_book();
        // e6 is the twin of f5 through the anti-diagonal; after it, the book's f6 maps to e6's twin.
        let e6 = Board::start().play(mv("e6"));
        let choices = book.moves(&e6);
        assert_eq!(choices.len(), 3);
        for c in &choices {
            assert!(e6.is_legal(c.mv), "{}", c.mv);
        }
        assert_eq!(choices[0].value, 4);
        let best_child = e6.play(choices[0].mv);
        assert_eq!(
            best_child.canonical().0,
            Board::start().play(mv("f5")).play(mv("f6")).canonical().0
        );
    }

    #[test]
    fn file_round_trip_and_corruption() {
        let book = small_book();
        let (bytes, dropped) = book.to_bytes();
        assert_eq!(dropped, 0);
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back.len(), book.len());
        assert_eq!(back.to_text(), book.to_text());
        assert!(matches!(
            Book::from_bytes(b"IAGOBOO"),
            Err(file::BookError::Magic)
        ));
        let mut version = bytes.clone();
        version[8] = 7;
        assert!(matches!(
            Book::from_bytes(&version),
            Err(file::BookError::Version(7))
        ));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 3]),
            Err(file::BookError::Corrupt(_))
        ));
        let mut checksum = bytes.clone();
        checksum[17] ^= 0x40;
        assert!(matches!(
            Book::from_bytes(&checksum),
            Err(file::BookError::Checksum)
        ));
        // The count is not under the checksum: a huge one is an error, not an allocation.
        for count in [u32::MAX, 0x1000_0000, book.len() as u32 + 1] {
            let mut header = bytes.clone();
            header[12..16].copy_from_slice(&count.to_le_bytes());
            assert!(
                matches!(Book::from_bytes(&header), Err(file::BookError::Corrupt(_))),
                "count {count}"
            );
        }
        // A book whose positions are not linked from the start writes only what is reachable.
        let mut island = small_book();
        island.insert(
            &Board::start()
                .play(mv("f5"))
                .play(mv("f6"))
                .play(mv("e6"))
                .play(mv("f4")),
        );
        assert_eq!(island.to_bytes().1, 1);
    }

    #[test]
    fn randomness_picks_among_near_best_moves() {
        let mut book = small_book();
        let f5 = Board::start().play(mv("f5"));
        for _ in 0..20 {
            assert_eq!(book.choose(&f5).unwrap().mv, mv("f6"));
        }
        book.set_randomness(2);
        let picked: std::collections::HashSet<Move> =
            (0..200).map(|_| book.choose(&f5).unwrap().mv).collect();
        assert_eq!(picked, [mv("f6"), mv("f4")].into_iter().collect());
    }

    /// A stand-in search for the builders: the move that leaves the opponent fewest replies,
    /// valued by that count, never exact.
    struct MobilitySearch;

    impl build::BookSearch for MobilitySearch {
        fn best_of(&mut self, board: &Board, allowed: u64, _: u32) -> Option<(Move, i32, bool)> {
            crate::board::Bitboard(allowed)
                .iter()
                .map(|sq| {
                    let replies = board.play(Move::Play(sq)).legal_moves().count() as i32;
                    (Move::Play(sq), -replies, false)
                })
                .max_by_key(|&(mv, value, _)| (value, std::cmp::Reverse(mv.square())))
        }
    }

    #[test]
    fn deepen_follows_the_near_best_moves_and_evaluates_what_it_adds() {
        let mut book = small_book();
        let before = book.len();
        let options = build::DeepenOptions {
            deviation: 64,
            plies: 3,
            max_new: 1_000,
            rounds: usize::MAX,
        };
        let eval = build::EvalOptions {
            depth: 2,
            threads: 2,
        };
        let added = build::deepen(&mut book, &options, &eval, &|| MobilitySearch, &|_| {});
        assert!(added > 0);
        assert_eq!(book.len(), before + added);
        // With every move within the deviation, all positions up to 3 plies are in the book;
        // none beyond.
        for (board, node) in book.iter() {
            assert!(60 - board.empty_count() <= 3, "{board}");
            if 60 - board.empty_count() == 3 {
                assert!(node.leaf.is_some() && node.depth == 2, "{node:?}");
            }
        }
        let after_f5: Vec<BookMove> = book.moves(&Board::start().play(mv("f5")));
        assert_eq!(after_f5.len(), 3);
        assert!(after_f5.iter().all(|c| c.linked));
        // A second pass finds nothing new within the same limits.
        assert_eq!(
            build::deepen(&mut book, &options, &eval, &|| MobilitySearch, &|_| {}),
            0
        );
    }

    /// A round split into three shards (results as JSON lines, one shard cut short and
    /// resumed) and merged gives the book of one unsharded round; the results of another
    /// round, or of too few shards, are refused.
    #[test]
    fn a_round_split_into_shards_merges_into_the_book_of_one_round() {
        use crate::batch::{ResultLog, ResultsError, Shard, merge_results};
        let options = build::DeepenOptions {
            deviation: 64,
            plies: 3,
            max_new: 1_000,
            rounds: 1,
        };
        let eval = build::EvalOptions {
            depth: 2,
            threads: 2,
        };
        let mut one = small_book();
        let added = build::deepen(&mut one, &options, &eval, &|| MobilitySearch, &|_| {});
        // Each process computes the round from the book itself.
        let round_of = |options: &build::DeepenOptions| {
            let mut book = small_book();
            book.negamax();
            let round = build::begin_round(&mut book, options, options.max_new);
            (book, round.expect("positions to add"))
        };
        let (_, round) = round_of(&options);
        assert_eq!(round.new, added);
        assert!(round.work.len() > round.new, "parents searched again");
        let dir = std::env::temp_dir().join(format!("iago-book-round-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<std::path::PathBuf> = (0..3)
            .map(|i| dir.join(format!("round-{i}.jsonl")))
            .collect();
        let shard_run = |i: u32| {
            let shard = Shard::new(i, 3).unwrap();
            let (_, round) = round_of(&options);
            let mut log = ResultLog::open(&paths[i as usize], "deepen", round.work.len()).unwrap();
            build::evaluate_shard(&round, shard, &mut log, &eval, &|| MobilitySearch, &|| {})
                .unwrap()
        };
        for i in 0..3 {
            let _ = std::fs::remove_file(&paths[i as usize]);
            let owned = (0..round.work.len()).filter(|k| k % 3 == i as usize);
            assert_eq!(shard_run(i), owned.count());
            assert_eq!(shard_run(i), 0, "resumed: nothing left");
        }
        // Shard 1 killed while writing its last record: the resumed run searches it again.
        let text = std::fs::read_to_string(&paths[1]).unwrap();
        let cut = text.trim_end().rfind('\n').map_or(0, |n| n + 1) + 10;
        std::fs::write(&paths[1], &text[..cut]).unwrap();
        assert_eq!(shard_run(1), 1);
        assert_eq!(std::fs::read_to_string(&paths[1]).unwrap(), text);
        // Too few shards: refused.
        assert!(matches!(
            merge_results(&paths[..2], false),
            Err(ResultsError::Missing { .. })
        ));
        let merged = merge_results(&paths, false).unwrap();
        let (mut book, round) = round_of(&options);
        let leaves = build::round_leaves(&round, &merged).unwrap();
        build::finish_round(&mut book, leaves);
        assert_eq!(book.to_text(), one.to_text());
        assert!(book.to_bytes().0 == one.to_bytes().0);
        // The round of other options (or of another book) is refused.
        let (_, other) = round_of(&build::DeepenOptions {
            deviation: 1,
            ..options
        });
        assert_ne!(other, round);
        let refused = build::round_leaves(&other, &merged);
        assert!(
            matches!(
                refused,
                Err(build::RoundError::OtherRound { .. } | build::RoundError::OtherPosition { .. })
            ),
            "{refused:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_shipped_book_loads() {
        let start = std::time::Instant::now();
        let book = Book::shipped().unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        assert!(book.len() > 10_000, "{} positions", book.len());
        // Every XOT opening line is covered; the start has the four symmetric first moves.
        assert_eq!(book.moves(&Board::start()).len(), 4);
        let xot = line("f5d6c4d3c2b3b4b5");
        assert!(book.contains(&xot.position().board));
    }
}
