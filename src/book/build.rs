//! Building a book: seeding it with lines, evaluating leaves with a search, deepening the best
//! lines and learning played games. The search is any [`BookSearch`] (the engine is one): the
//! book knows nothing of the engine that fills it.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

use serde::Serialize;
use thiserror::Error;

use super::{Book, EXACT_DEPTH, children};
use crate::batch::{Merged, ResultLog, ResultsError, Shard};
use crate::board::{Board, Color, Move, Position};

/// What the book builders need from a search.
pub trait BookSearch {
    /// The best of the moves of `board` in `allowed` (a square mask of legal moves, not empty)
    /// searched `depth` plies (positions with few empties solved exactly): the move, its value
    /// in discs for the side to move, and whether the value is exact; `None` when the search
    /// was stopped.
    fn best_of(&mut self, board: &Board, allowed: u64, depth: u32) -> Option<(Move, i32, bool)>;
}

/// How book positions are evaluated.
#[derive(Clone, Copy, Debug)]
pub struct EvalOptions {
    /// Midgame depth of each leaf search (positions with few empties are solved exactly).
    pub depth: u32,
    /// Worker threads (one search per thread).
    pub threads: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            depth: 10,
            threads: 1,
        }
    }
}

impl Book {
    /// Adds the positions of a line of moves from `start` (at most `plies` moves) to the book,
    /// and counts a game through each when `count` is set. Returns the positions that were new.
    pub fn add_line(
        &mut self,
        start: Board,
        moves: &[Move],
        plies: usize,
        count: bool,
    ) -> Vec<Board> {
        let mut new = Vec::new();
        let mut board = start;
        let mut played = 0;
        let mut iter = moves.iter();
        loop {
            let (node, created) = self.insert(&board);
            if count {
                node.games = node.games.saturating_add(1);
            }
            if created {
                new.push(board);
            }
            if played >= plies {
                break;
            }
            let Some(&mv) = iter.next() else { break };
            match board.try_play(mv) {
                Ok(next) => board = next,
                Err(_) => break,
            }
            if !mv.is_pass() {
                played += 1;
            }
        }
        new
    }
}

/// The moves of `board` whose positions are not in the book, as a bit mask (all bits for a
/// must-pass position whose pass is not linked).
fn unlinked_moves(book: &Book, board: &Board) -> u64 {
    if board.legal_moves().is_empty() {
        return if book.contains(&board.pass()) {
            0
        } else {
            u64::MAX
        };
    }
    children(board)
        .into_iter()
        .filter_map(|(mv, child)| {
            let sq = mv.square()?;
            (!book.contains(&child)).then_some(1u64 << sq.index())
        })
        .fold(0, |a, b| a | b)
}

/// Searches the best unlinked move of each of `boards` and stores it as the position's leaf,
/// each worker thread with a search of its own from `searcher`; `progress` is called once per
/// position. Values are negamaxed afterwards by the caller.
pub fn evaluate<S: BookSearch>(
    book: &mut Book,
    boards: &[Board],
    options: &EvalOptions,
    searcher: &(dyn Fn() -> S + Sync),
    progress: &(dyn Fn() + Sync),
) {
    let work: Vec<(Board, u64)> = boards
        .iter()
        .map(|b| (*b, unlinked_moves(book, b)))
        .collect();
    for (board, leaf, depth) in search_leaves(&work, options, searcher, progress) {
        book.set_leaf(&board, leaf, depth);
    }
}

/// The leaves of `work` (positions with the moves to search in each), searched on
/// `options.threads` threads, each with a search of its own from `searcher` taking the next
/// position from a shared counter; in no particular order, and without the positions whose
/// search was stopped.
fn search_leaves<S: BookSearch>(
    work: &[(Board, u64)],
    options: &EvalOptions,
    searcher: &(dyn Fn() -> S + Sync),
    progress: &(dyn Fn() + Sync),
) -> Vec<Leaf> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Leaf>> = Mutex::new(Vec::with_capacity(work.len()));
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| {
                let mut search = searcher();
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(&(board, allowed)) = work.get(i) else {
                        break;
                    };
                    let Some(leaf) = leaf(&mut search, &board, allowed, options.depth) else {
                        break;
                    };
                    mine.push(leaf);
                    progress();
                }
                results.lock().expect("results lock").extend(mine);
            });
        }
    });
    results.into_inner().expect("results lock")
}

/// A searched position: the board, its best move outside the book with that move's value, and
/// the depth of the search behind that value.
pub type Leaf = (Board, Option<(Move, i8)>, u8);

/// The best move of `board` among `allowed`, its value and the depth behind it, searched by
/// `search`;
/// `None` when the search was stopped.
pub fn leaf(search: &mut impl BookSearch, board: &Board, allowed: u64, depth: u32) -> Option<Leaf> {
    if board.is_game_over() {
        return Some((*board, None, EXACT_DEPTH));
    }
    if allowed == 0 {
        return Some((*board, None, 0));
    }
    let (mv, score, exact) = search.best_of(board, allowed, depth)?;
    let searched = if exact {
        EXACT_DEPTH
    } else {
        depth.min(59) as u8
    };
    Some((*board, Some((mv, score.clamp(-64, 64) as i8)), searched))
}

/// Options of [`deepen`].
#[derive(Clone, Copy, Debug)]
pub struct DeepenOptions {
    /// Follow every move within this many discs of the best.
    pub deviation: i32,
    /// Do not add positions beyond this many plies from the start.
    pub plies: u32,
    /// Stop after adding this many positions.
    pub max_new: usize,
    /// Stop after this many rounds (`usize::MAX`: until nothing is left to add).
    pub rounds: usize,
}

/// Extends the book along its best lines and the lines within `deviation` discs of them (as
/// Edax's `book deviate`): every leaf move within the deviation of its position's best becomes
/// a book position, evaluated, and the values are negamaxed; repeated, round after round
/// ([`begin_round`], then the searches, then [`finish_round`]), until nothing is left to add,
/// `max_new` positions were added or `rounds` rounds were run. Returns the number added.
pub fn deepen<S: BookSearch>(
    book: &mut Book,
    options: &DeepenOptions,
    eval: &EvalOptions,
    searcher: &(dyn Fn() -> S + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> usize {
    let mut added = 0;
    book.negamax();
    for _ in 0..options.rounds {
        if added >= options.max_new {
            break;
        }
        let Some(round) = begin_round(book, options, options.max_new - added) else {
            break;
        };
        added += round.new;
        let leaves = search_leaves(&round.work, eval, searcher, &|| {});
        finish_round(book, leaves);
        progress(added);
    }
    added
}

/// One round of [`deepen`]: the positions it adds and the positions it searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// How many positions the round adds: the first ones of `work`.
    pub new: usize,
    /// The positions to search, each with the moves to search in it (a square mask: those that
    /// lead out of the book once the new positions are in): the new positions, then their
    /// parents, whose leaves may now be linked. Every process that begins the round from the
    /// same book with the same options lists the same positions in the same order.
    pub work: Vec<(Board, u64)>,
}

/// Begins a round of [`deepen`] on a negamaxed `book`: picks the positions to add (at most
/// `max_new`), inserts them, and lists the positions to search. `None` when nothing is left to
/// add (the book is then unchanged).
pub fn begin_round(book: &mut Book, options: &DeepenOptions, max_new: usize) -> Option<Round> {
    let (new, parents) = deviations(book, options);
    if new.is_empty() || max_new == 0 {
        return None;
    }
    let new: Vec<Board> = new.into_iter().take(max_new).collect();
    for b in &new {
        book.insert(b);
    }
    let work = new
        .iter()
        .chain(&parents)
        .map(|b| (*b, unlinked_moves(book, b)))
        .collect();
    Some(Round {
        new: new.len(),
        work,
    })
}

/// Ends a round: stores the searched leaves and negamaxes the values.
pub fn finish_round(book: &mut Book, leaves: impl IntoIterator<Item = Leaf>) {
    for (board, leaf, depth) in leaves {
        book.set_leaf(&board, leaf, depth);
    }
    book.negamax();
}

/// The text of a position of a round in its results: the board as searched, X to move.
fn board_text(board: &Board) -> String {
    Position {
        board: *board,
        to_move: Color::Black,
    }
    .to_board_string()
}

/// A searched position of a round as a line of a shard's results.
#[derive(Serialize)]
struct LeafRecord {
    /// The best move outside the book in the board's orientation, `null` when there is none.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// That move's value, discs for the side to move.
    score: Option<i8>,
    /// The depth of the search behind the value, 60 when exact (`level` in the file, as
    /// Edax names it).
    #[serde(rename = "level")]
    depth: u8,
}

/// Why a round's shard cannot be searched or its results not merged.
#[derive(Debug, Error)]
pub enum RoundError {
    /// A results file could not be read, written or merged.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The results are of a round of another size.
    #[error(
        "the results are of a round of {found} positions, the round computed from the book has {expected}: they come from another book or other --deviation, --plies or --max-new"
    )]
    OtherRound {
        /// The results' round size.
        found: usize,
        /// The size of the round computed here.
        expected: usize,
    },
    /// An item of the results is another position.
    #[error(
        "item {index} of the results is {found}, the round computed from the book has {expected}: they come from another book or other options"
    )]
    OtherPosition {
        /// The item.
        index: usize,
        /// Its position in the results.
        found: String,
        /// Its position in the round.
        expected: String,
    },
    /// A record without a usable value.
    #[error("item {index} of the results: {reason}")]
    BadRecord {
        /// The item.
        index: usize,
        /// What is wrong.
        reason: String,
    },
}

/// Searches the positions of `round` that `shard` owns (every N-th) and `log` lacks, on
/// `options.threads` threads, appending each result to `log` as it comes (a shard cut short
/// resumes where it stopped). `progress` is called once per position searched. Returns how many
/// were searched; the searched leaves are not stored in any book ([`round_leaves`] reads them
/// back from the merged results).
pub fn evaluate_shard<S: BookSearch>(
    round: &Round,
    shard: Shard,
    log: &mut ResultLog,
    options: &EvalOptions,
    searcher: &(dyn Fn() -> S + Sync),
    progress: &(dyn Fn() + Sync),
) -> Result<usize, RoundError> {
    let items = round.work.len();
    let mut todo = Vec::new();
    for (index, (board, allowed)) in round.work.iter().enumerate() {
        if !shard.owns(index) {
            continue;
        }
        match log.finished(index, &board_text(board))? {
            Some(record) if record.items != items => {
                return Err(RoundError::OtherRound {
                    found: record.items,
                    expected: items,
                });
            }
            Some(_) => {}
            None => todo.push((index, *board, *allowed)),
        }
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<(usize, Leaf)>();
    let mut searched = 0;
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1).min(todo.len()) {
            let send = send.clone();
            let (next, failed, todo) = (&next, &failed, &todo);
            scope.spawn(move || {
                let mut search = searcher();
                while !failed.load(Relaxed) {
                    let Some(&(index, board, allowed)) = todo.get(next.fetch_add(1, Relaxed))
                    else {
                        break;
                    };
                    let Some(leaf) = leaf(&mut search, &board, allowed, options.depth) else {
                        break;
                    };
                    if send.send((index, leaf)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for (index, (board, best, depth)) in receive {
            let record = LeafRecord {
                mv: best.map(|(mv, _)| mv.to_string()),
                score: best.map(|(_, score)| score),
                depth,
            };
            if let Err(e) = log.append(index, &board_text(&board), &record) {
                failed.store(true, Relaxed);
                error = Some(e);
                break;
            }
            searched += 1;
            progress();
        }
    });
    match error {
        Some(e) => Err(e.into()),
        None => Ok(searched),
    }
}

/// The leaves of `round` read back from the merged results of its shards
/// ([`crate::batch::merge_results`]): every item, each the position the round lists at its
/// index, with a legal move and a value in range.
pub fn round_leaves(round: &Round, merged: &Merged) -> Result<Vec<Leaf>, RoundError> {
    if merged.items != round.work.len() {
        return Err(RoundError::OtherRound {
            found: merged.items,
            expected: round.work.len(),
        });
    }
    let mut leaves = Vec::with_capacity(round.work.len());
    for (record, (board, _)) in merged.records.iter().zip(&round.work) {
        let index = record.item;
        let expected = board_text(board);
        if record.position != expected {
            return Err(RoundError::OtherPosition {
                index,
                found: record.position.clone(),
                expected,
            });
        }
        let bad = |reason: &str| RoundError::BadRecord {
            index,
            reason: reason.to_string(),
        };
        let depth = record.json.get("level").and_then(|v| v.as_u64());
        let depth = depth
            .filter(|&l| l <= EXACT_DEPTH as u64)
            .ok_or_else(|| bad("no \"level\" from 0 to 60"))? as u8;
        let mv = match record.json.get("move") {
            None | Some(serde_json::Value::Null) => None,
            Some(mv) => {
                let mv = mv
                    .as_str()
                    .and_then(|t| Move::parse(t).ok())
                    .ok_or_else(|| bad("\"move\" is not a move"))?;
                if !board.is_legal(mv) {
                    return Err(bad("\"move\" is not legal in the position"));
                }
                Some(mv)
            }
        };
        let score = record.json.get("score").and_then(|v| v.as_i64());
        let best = match (mv, score) {
            (Some(mv), Some(score)) if (-64..=64).contains(&score) => Some((mv, score as i8)),
            (None, None) => None,
            _ => return Err(bad("\"score\" is not a value from -64 to 64 for the move")),
        };
        leaves.push((*board, best, depth));
    }
    Ok(leaves)
}

/// The leaf moves within the deviation on the walk from the start: the positions they lead to,
/// and their parents (whose leaves must be searched again once those moves are linked).
///
/// Both lists depend only on the book and the options: the walk is a depth-first stack walk
/// over the book's moves in the order of [`Book::choices`] (a stable sort of the legal moves,
/// in square order, by value), and the hash sets only test membership.
fn deviations(book: &Book, options: &DeepenOptions) -> (Vec<Board>, Vec<Board>) {
    let mut new = Vec::new();
    let mut new_keys = HashSet::new();
    let mut parents = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![Board::start()];
    while let Some(board) = stack.pop() {
        if !seen.insert(board.canonical().0) || 60 - board.empty_count() >= options.plies {
            continue;
        }
        let choices = book.moves(&board);
        let Some(best) = choices.first().map(|c| c.value) else {
            continue;
        };
        let mut parent = false;
        for c in choices
            .iter()
            .filter(|c| c.value >= best - options.deviation)
        {
            let child = board.play(c.mv);
            if c.linked {
                stack.push(child);
            } else if !child.is_game_over() && new_keys.insert(child.canonical().0) {
                new.push(child);
                parent = true;
            }
        }
        if parent {
            parents.push(board);
        }
    }
    (new, parents)
}

/// Adds a played game to the book: its positions up to `plies` plies, a game counted through
/// each, new positions and their parents evaluated, values negamaxed. Returns the positions
/// added, or `None` when the searches were stopped (the book is then half updated: the caller
/// works on a copy and drops it).
pub fn learn(
    book: &mut Book,
    start: Board,
    moves: &[Move],
    plies: usize,
    search: &mut impl BookSearch,
    depth: u32,
) -> Option<usize> {
    let new = book.add_line(start, moves, plies, true);
    let mut todo: Vec<Board> = new.clone();
    // Parents of new positions: their leaves may now be linked.
    let mut board = start;
    for &mv in moves.iter().take(plies + 4) {
        let Ok(next) = board.try_play(mv) else { break };
        if new.iter().any(|n| n.canonical().0 == next.canonical().0) && book.contains(&board) {
            todo.push(board);
        }
        board = next;
    }
    for b in &todo {
        let allowed = unlinked_moves(book, b);
        let (_, leaf, searched) = leaf(search, b, allowed, depth)?;
        book.set_leaf(b, leaf, searched);
    }
    book.negamax();
    Some(new.len())
}
