//! What the page draws, as the server sends it: the state of a client's game after every
//! change ([`StateView`]), the values of the moves ([`ValuesView`]), a solve's result
//! ([`SolvedView`]) and a review's tables ([`ReviewView`]). Built from the session's tree; the
//! page only draws.

use serde::Serialize;

use super::messages::LevelMessage;
use super::tree::{Tree, Values};
use crate::board::{Bitboard, Color, Move, Rules, Square};
use crate::book::BookMove;
use crate::review::{BLUNDER, MoveReview, PHASES};
use crate::search::{Bound, SearchResult};

/// The state of a client's game.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct StateView {
    /// The rules, as `--rules` writes them (`othello`, `6x6 anti`).
    pub rules: String,
    /// Squares a side.
    pub size: u8,
    /// The squares a1 first, row by row: `X` Black, `O` White, `-` empty.
    pub squares: String,
    /// `black` or `white`.
    pub to_move: &'static str,
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares.
    pub empty: u32,
    /// Discs left to Black and White with a limited supply.
    pub left: Option<[u8; 2]>,
    /// The legal moves of the side to move.
    pub legal: Vec<String>,
    /// The last move's square (the move before a forced pass).
    pub last: Option<String>,
    /// The discs it flipped.
    pub flipped: Vec<String>,
    /// The result of a finished game (`Black wins by 8`), empties to the winner.
    pub result: Option<String>,
    /// The node shown.
    pub node: usize,
    /// The line shown: the start, the moves to the node, its main continuation.
    pub line: Vec<usize>,
    /// Every node of the game tree, by number.
    pub nodes: Vec<NodeView>,
    /// The line shown as a transcript, without passes.
    pub transcript: String,
    /// The URL fragment that reopens the line shown.
    pub fragment: String,
    /// Which colours Iago plays: `white`, `black`, `both` or `none`.
    pub iago: &'static str,
    /// How long Iago thinks a move.
    pub level: LevelMessage,
    /// The clock, when one is set.
    pub clock: Option<super::clock::ClockView>,
    /// The opening book's moves here, best first.
    pub book: Vec<BookView>,
    /// Whether values are shown.
    pub values_on: bool,
    /// The values of the moves here, as far as searched.
    pub values: Option<ValuesView>,
    /// The review of the line shown, when one ran.
    pub review: Option<ReviewView>,
}

/// A node of the tree.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct NodeView {
    /// Its number.
    pub id: usize,
    /// The node before.
    pub parent: Option<usize>,
    /// The move that led here (`f5`, `PA`); none for the start.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Moves from the start.
    pub ply: usize,
    /// Who made the move: `black` or `white`.
    pub color: Option<&'static str>,
    /// The nodes after, the main one first.
    pub children: Vec<usize>,
    /// The position's value for Black, as far as known.
    pub eval: Option<i32>,
    /// Whether that value is exact.
    pub exact: bool,
    /// Discs the move lost, by the review.
    pub loss: Option<i32>,
    /// The best move instead, by the review.
    pub best: Option<String>,
    /// Whether the move lost [`BLUNDER`] discs or more.
    pub blunder: bool,
    /// How Iago found the move, when Iago played it.
    pub iago: Option<IagoMove>,
}

/// How Iago found a move it played.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct IagoMove {
    /// Its score for Iago.
    pub score: i32,
    /// `depth@selectivity%`, or `book`.
    pub depth: String,
    /// Milliseconds of search.
    pub time_ms: u64,
}

/// A book move.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BookView {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    pub value: i32,
}

/// The values of a node's moves.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ValuesView {
    /// The node.
    pub node: usize,
    /// The deepest depth in the rows (`12@73%`).
    pub depth: String,
    /// Whether the rows are the instant static values, before the search's first depth.
    pub preview: bool,
    /// Whether the search is over (finished, stopped or at its time cap).
    pub done: bool,
    /// A row a move, best first.
    pub rows: Vec<ValueRow>,
}

/// A move's value.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ValueRow {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    pub score: i32,
    /// `estimate`, `exact` or `wld`.
    pub bound: &'static str,
    /// `depth@selectivity%`.
    pub depth: String,
    /// The best line after it, the move first.
    pub pv: String,
}

/// A solve's result.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SolvedView {
    /// The node solved.
    pub node: usize,
    /// `exact` or `wld`.
    pub mode: &'static str,
    /// Whether it finished; a stopped solve has no score.
    pub solved: bool,
    /// The score for the side to move (exact: disc difference; wld: its sign).
    pub score: Option<i32>,
    /// The result it proves, for the side to move's colour (`Black wins by 4`, `White wins`).
    pub text: String,
    /// The best line.
    pub pv: String,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
}

/// A review's tables: the losses by player and phase.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ReviewView {
    /// The depth of the searches that did not solve.
    pub depth: u32,
    /// Positions with at most this many empties were solved.
    pub exact_from: u32,
    /// Whether every move was reviewed.
    pub complete: bool,
    /// One row a player and phase, then the player's whole game.
    pub rows: Vec<PhaseRow>,
}

/// The losses of one player in one phase.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PhaseRow {
    /// `black` or `white`.
    pub color: &'static str,
    /// `60-45` … `14-0`, or `all`.
    pub phase: String,
    /// Moves reviewed.
    pub moves: usize,
    /// Mean discs lost a move.
    pub mean: f64,
    /// Moves that lost [`BLUNDER`] discs or more.
    pub blunders: usize,
}

/// `black` or `white`.
pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A square's name in the notation of the page (`f5`).
fn square_names(mask: u64) -> Vec<String> {
    Bitboard(mask)
        .iter()
        .map(|s: Square| s.to_string())
        .collect()
}

/// The nodes of the tree as the page sees them.
pub(crate) fn nodes(tree: &Tree) -> Vec<NodeView> {
    tree.nodes()
        .iter()
        .enumerate()
        .map(|(id, node)| {
            let color = node
                .parent
                .map(|p| color_name(tree.nodes()[p].state.to_move()));
            NodeView {
                id,
                parent: node.parent,
                mv: node.mv.map(|m| m.to_string()),
                ply: node.ply,
                color,
                children: node.children.clone(),
                eval: node.eval.map(|e| e.black),
                exact: node.eval.is_some_and(|e| e.exact),
                loss: node.review.as_ref().map(|r| r.loss),
                best: node.review.as_ref().map(|r| r.best_move.clone()),
                blunder: node.review.as_ref().is_some_and(|r| r.loss >= BLUNDER),
                iago: node.played.as_ref().map(|r| IagoMove {
                    score: r.score,
                    depth: match r.source {
                        crate::search::Source::Book => "book".to_string(),
                        crate::search::Source::Forced => "forced".to_string(),
                        crate::search::Source::Search => r.depth_text(),
                    },
                    time_ms: r.time.as_millis() as u64,
                }),
            }
        })
        .collect()
}

/// The board of the node shown: squares, counts, moves, the last move and its flips.
pub(crate) struct BoardView {
    pub squares: String,
    pub to_move: &'static str,
    pub counts: [u32; 3],
    pub left: Option<[u8; 2]>,
    pub legal: Vec<String>,
    pub last: Option<String>,
    pub flipped: Vec<String>,
    pub result: Option<String>,
}

/// The board of the node shown.
pub(crate) fn board(tree: &Tree) -> BoardView {
    let rules = tree.rules();
    let id = tree.current();
    let node = &tree.nodes()[id];
    let state = node.state;
    let position = state.position;
    let squares: String = rules
        .board_squares()
        .map(|sq| position.disc(sq).map_or('-', Color::symbol))
        .collect();
    let black = position.black().count();
    let white = position.white().count();
    // The last move that put a disc down: a forced pass shows the move before it.
    let mut at = id;
    if node.mv == Some(Move::Pass)
        && let Some(parent) = node.parent
    {
        at = parent;
    }
    let (last, flipped) = match (tree.nodes()[at].mv, tree.nodes()[at].parent) {
        (Some(Move::Play(sq)), Some(parent)) => {
            let before = tree.nodes()[parent].state.position;
            let after = tree.nodes()[at].state.position;
            let flipped =
                (before.black().0 & after.white().0) | (before.white().0 & after.black().0);
            (Some(sq.to_string()), square_names(flipped))
        }
        _ => (None, Vec::new()),
    };
    let over = rules.is_over(&state);
    let result = over.then(|| {
        let outcome = crate::board::Outcome {
            score_for_black: rules.final_score_for_black(&position),
        };
        outcome.to_string()
    });
    let left = (rules.discs_per_player.is_some())
        .then(|| [state.left_of(Color::Black), state.left_of(Color::White)]);
    BoardView {
        squares,
        to_move: color_name(position.to_move),
        counts: [black, white, rules.empty_count(&position.board)],
        left,
        legal: square_names(rules.moves(&state)),
        last,
        flipped,
        result,
    }
}

/// The book's moves as the page shows them.
pub(crate) fn book(moves: &[BookMove]) -> Vec<BookView> {
    moves
        .iter()
        .map(|m| BookView {
            mv: m.mv.to_string(),
            value: m.value,
        })
        .collect()
}

/// `estimate`, `exact` or `wld`.
pub(crate) fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Estimate => "estimate",
        Bound::Exact => "exact",
        Bound::WinLossDraw => "wld",
    }
}

/// A line of moves as text (`f5 d6 c3`).
pub(crate) fn line_text(pv: &[Move]) -> String {
    pv.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The values of node `node`, best first.
pub(crate) fn values(node: usize, values: &Values, done: bool) -> ValuesView {
    let mut rows: Vec<&SearchResult> = values.rows.iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.score));
    let deepest = rows
        .iter()
        .max_by_key(|r| (r.depth, r.selectivity.percent()))
        .map_or_else(String::new, |r| r.depth_text());
    ValuesView {
        node,
        depth: deepest,
        preview: values.preview,
        done,
        rows: rows
            .into_iter()
            .map(|r| ValueRow {
                mv: r.best_move.to_string(),
                score: r.score,
                bound: bound_name(r.bound),
                depth: r.depth_text(),
                pv: line_text(&r.pv),
            })
            .collect(),
    }
}

/// The tables of a review of `reviews` (the rows of the moves reviewed).
pub(crate) fn review(
    reviews: &[&MoveReview],
    depth: u32,
    exact_from: u32,
    complete: bool,
) -> ReviewView {
    let mut rows = Vec::new();
    for color in ["black", "white"] {
        let mine: Vec<&&MoveReview> = reviews.iter().filter(|r| r.color == color).collect();
        let phase_rows = (0..PHASES.len()).map(|k| {
            let (high, low) = PHASES[k];
            let of_phase: Vec<&&&MoveReview> = mine
                .iter()
                .filter(|r| crate::review::phase(r.empties) == k)
                .collect();
            tally(
                color,
                format!("{high}-{low}"),
                of_phase.iter().map(|r| r.loss),
            )
        });
        let all = tally(color, "all".to_string(), mine.iter().map(|r| r.loss));
        rows.extend(phase_rows.filter(|r| r.moves > 0));
        if all.moves > 0 {
            rows.push(all);
        }
    }
    ReviewView {
        depth,
        exact_from,
        complete,
        rows,
    }
}

fn tally(color: &'static str, phase: String, losses: impl Iterator<Item = i32>) -> PhaseRow {
    let losses: Vec<i32> = losses.collect();
    let moves = losses.len();
    let total: i64 = losses.iter().map(|&l| i64::from(l)).sum();
    PhaseRow {
        color,
        phase,
        moves,
        mean: if moves == 0 {
            0.0
        } else {
            (total as f64 / moves as f64 * 100.0).round() / 100.0
        },
        blunders: losses.iter().filter(|&&l| l >= BLUNDER).count(),
    }
}

/// The URL fragment of a game: the transcript for standard Othello from its start; otherwise
/// the rules (`6x6-anti`) and, for a set-up start, its board string, before it, each followed
/// by `:`. [`read_fragment`] reads it back.
pub(crate) fn fragment(rules: Rules, start: &crate::board::Position, moves: &[Move]) -> String {
    let transcript = crate::board::notation::write_transcript(moves, false);
    let mut parts = Vec::new();
    if rules != Rules::OTHELLO {
        parts.push(rules.to_string().replace(' ', "-"));
    }
    if *start != rules.start_position() {
        parts.push(rules.board_string(start).replace(' ', ""));
    }
    parts.push(transcript);
    parts.join(":")
}

/// Why a fragment names no game.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FragmentError {
    /// Too many parts.
    #[error("a link holds at most rules, a board and moves, separated by ':'")]
    Parts,
    /// Rules that do not read.
    #[error("link: {0}")]
    Rules(String),
    /// A board or moves that do not read.
    #[error("link: {0}")]
    Game(String),
}

/// The game a URL fragment holds (see [`fragment`]); percent-escapes are decoded.
pub(crate) fn read_fragment(text: &str) -> Result<crate::board::Game, FragmentError> {
    let text = percent_decode(text.trim_start_matches('#'));
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(FragmentError::Parts);
    }
    let (moves, rest) = parts.split_last().expect("split gives one part at least");
    let (rules_text, board_text) = match rest {
        [] => (None, None),
        [one] if crate::board::notation::looks_like_board(one) => (None, Some(*one)),
        [one] => (Some(*one), None),
        [rules, board] => (Some(*rules), Some(*board)),
        _ => return Err(FragmentError::Parts),
    };
    let rules = match rules_text {
        None => Rules::OTHELLO,
        Some(name) => {
            let rules: Rules =
                name.parse()
                    .map_err(|e: crate::board::rules::ParseRulesError| {
                        FragmentError::Rules(e.to_string())
                    })?;
            rules
                .check_supported()
                .map_err(|e| FragmentError::Rules(e.to_string()))?;
            rules
        }
    };
    let mut game = match board_text {
        None => crate::board::Game::new(rules),
        Some(board) => crate::board::Game::from_board(board, |size| {
            let rules = Rules { size, ..rules };
            rules
                .check_supported()
                .map(|()| rules)
                .map_err(|e| FragmentError::Rules(e.to_string()))
        })?,
    };
    game.play_transcript(moves)
        .map_err(|e| FragmentError::Game(e.to_string()))?;
    Ok(game)
}

impl From<crate::board::notation::ParsePositionError> for FragmentError {
    fn from(e: crate::board::notation::ParsePositionError) -> Self {
        FragmentError::Game(format!("board, {e}"))
    }
}

impl From<crate::board::rules::PositionError> for FragmentError {
    fn from(e: crate::board::rules::PositionError) -> Self {
        FragmentError::Game(format!("board: {e}"))
    }
}

/// `text` with `%XX` escapes decoded (bad escapes kept as they are).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;

    #[test]
    fn fragments_read_back_into_the_same_game() {
        let games = [
            Game::from_transcript(Rules::OTHELLO, Rules::OTHELLO.start_position(), "f5d6c3d3")
                .unwrap(),
            Game::new(Rules::OTHELLO),
            Game::from_transcript(
                "6x6 anti".parse().unwrap(),
                "6x6 anti".parse::<Rules>().unwrap().start_position(),
                "b3",
            )
            .unwrap(),
            Game::from_transcript(
                "reversi 32-discs".parse().unwrap(),
                Rules::OTHELLO.start_position(),
                "",
            )
            .unwrap_or_else(|_| Game::new("reversi 32-discs".parse().unwrap())),
            Game::from_position(
                Rules::OTHELLO,
                crate::board::parse_position(
                    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
                )
                .unwrap(),
            ),
        ];
        for game in games {
            let text = fragment(game.rules(), &game.start(), game.moves());
            let back = read_fragment(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.rules(), game.rules(), "{text}");
            assert_eq!(back.start(), game.start(), "{text}");
            assert_eq!(back.moves(), game.moves(), "{text}");
        }
        assert_eq!(
            fragment(
                Rules::OTHELLO,
                &Rules::OTHELLO.start_position(),
                &[Move::parse("f5").unwrap()]
            ),
            "f5"
        );
    }

    #[test]
    fn bad_fragments_say_why() {
        for text in ["zz", "martian:f5", "a:b:c:d", "f5f5", "6x6:h8"] {
            assert!(read_fragment(text).is_err(), "{text}");
        }
        assert_eq!(read_fragment("%66%35d6").unwrap().moves().len(), 2);
    }
}
