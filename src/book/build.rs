//! Building a book: seeding it with lines, evaluating leaves with a search, deepening the best
//! lines and learning played games. The search is any [`Searcher`] (the engine is one): the
//! book knows nothing of the engine that fills it.

use std::collections::HashSet;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use super::{Book, EXACT_LEVEL, children};
use crate::board::{Board, Move};

/// What the book builders need from a search.
pub trait Searcher {
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

/// Adds the positions of a line of moves from `start` (at most `plies` moves) to the book, and
/// counts a game through each when `count` is set. Returns the positions that were new.
pub fn add_line(
    book: &mut Book,
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
        let (node, created) = book.insert(&board);
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
pub fn evaluate<S: Searcher>(
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
    // One search per worker thread, each taking the next position from a shared counter.
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
    let results = results.into_inner().expect("results lock");
    for (board, leaf, level) in results {
        book.set_leaf(&board, leaf, level);
    }
}

/// A searched position: the board, its best move outside the book with that move's value, and
/// the level of the value.
pub type Leaf = (Board, Option<(Move, i8)>, u8);

/// The best move of `board` among `allowed` and its value and level, searched by `search`;
/// `None` when the search was stopped.
pub fn leaf(search: &mut impl Searcher, board: &Board, allowed: u64, depth: u32) -> Option<Leaf> {
    if board.is_game_over() {
        return Some((*board, None, EXACT_LEVEL));
    }
    if allowed == 0 {
        return Some((*board, None, 0));
    }
    let (mv, score, exact) = search.best_of(board, allowed, depth)?;
    let level = if exact {
        EXACT_LEVEL
    } else {
        depth.min(59) as u8
    };
    Some((*board, Some((mv, score.clamp(-64, 64) as i8)), level))
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
}

/// Extends the book along its best lines and the lines within `deviation` discs of them (as
/// Edax's `book deviate`): every leaf move within the deviation of its position's best becomes
/// a book position, evaluated, and the values are negamaxed; repeated until nothing is left to
/// add or `max_new` positions were added. Returns the number added.
pub fn deepen<S: Searcher>(
    book: &mut Book,
    options: &DeepenOptions,
    eval: &EvalOptions,
    searcher: &(dyn Fn() -> S + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> usize {
    let mut added = 0;
    book.negamax();
    while added < options.max_new {
        let (new, parents) = deviations(book, options);
        if new.is_empty() {
            break;
        }
        let new: Vec<Board> = new.into_iter().take(options.max_new - added).collect();
        for b in &new {
            book.insert(b);
        }
        added += new.len();
        let mut todo: Vec<Board> = new;
        todo.extend(parents);
        evaluate(book, &todo, eval, searcher, &|| {});
        book.negamax();
        progress(added);
    }
    added
}

/// The leaf moves within the deviation on the walk from the start: the positions they lead to,
/// and their parents (whose leaves must be searched again once those moves are linked).
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
        let choices = book.choices(&board);
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
    search: &mut impl Searcher,
    depth: u32,
) -> Option<usize> {
    let new = add_line(book, start, moves, plies, true);
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
        let (_, leaf, level) = leaf(search, b, allowed, depth)?;
        book.set_leaf(b, leaf, level);
    }
    book.negamax();
    Some(new.len())
}
