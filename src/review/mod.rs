//! Reviewing played games (`iago review`): for every move, the value of the move played and of
//! the best move from the mover's point of view, and the discs the move lost. Positions with few
//! empties are solved exactly; the others are searched to a depth, the played and the best move
//! at the same depth and selectivity over one hash table (cleared at the start of each game, so
//! that a game's review does not depend on the games before it). The losses are summed per
//! player and per phase of the game ([`ReviewSummary`]) and drawn ([`svg`]).

pub(crate) mod svg;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::board::{Color, Game, Move, Rules, State, Symmetry};
use crate::engine::{Engine, SearchRequest};
use crate::records::PlayedGame;
use crate::search::{Bound, Limits};

/// A loss of at least this many discs is a blunder: marked in the tables, counted in the
/// summaries, drawn in the pictures.
pub const BLUNDER: i32 = 4;

/// The phases of a game by the empty squares before the move: 60-45, 44-35, 34-25, 24-15, 14-0.
pub const PHASES: [(u32, u32); 5] = [(60, 45), (44, 35), (34, 25), (24, 15), (14, 0)];

/// The phase (an index into [`PHASES`]) of a move made with `empties` empty squares.
pub fn phase(empties: u32) -> usize {
    PHASES
        .iter()
        .position(|&(_, low)| empties >= low)
        .unwrap_or(PHASES.len() - 1)
}

/// The depth of a review unless told otherwise (`iago review --depth`, the console's `review`
/// at a time level): deep enough that the reviewer out-searches the games it judges, a game
/// of 60 moves in about half a minute on two threads (2026-11-28-where-games-are-lost.md).
pub const DEFAULT_DEPTH: u32 = 14;

/// Positions with at most this many empties are solved exactly unless told otherwise
/// (`--exact-from`, the console's `review`): about a second a move on two threads.
pub const DEFAULT_EXACT_FROM: u32 = 20;

/// How deep a review searches.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// The depth of the search of positions with more than `exact_from` empties.
    pub depth: u32,
    /// Positions with at most this many empties are solved exactly (a search of `depth` plies
    /// solves those of up to `depth × 3/2` empties exactly anyway).
    pub exact_from: u32,
    /// Review only this player's moves.
    pub player: Option<String>,
    /// Openings the games were started from (`iago match --openings`): the moves of a game
    /// that follow the longest of them are not the players' choices, and not reviewed.
    pub openings: Vec<Vec<Move>>,
    /// The first moves of every game not reviewed (0: all reviewed): the opening that players
    /// know by heart, left out to compare their play with games started from set openings.
    pub from_ply: usize,
}

impl ReviewOptions {
    /// Every move of a game, both players', from the first: at `depth`, exact from
    /// `exact_from` empties.
    pub fn whole_game(depth: u32, exact_from: u32) -> ReviewOptions {
        ReviewOptions {
            depth,
            exact_from,
            player: None,
            openings: Vec::new(),
            from_ply: 0,
        }
    }

    /// The plies of `game` that an opening of [`ReviewOptions::openings`] played.
    fn opening_plies(&self, game: &Game) -> usize {
        self.openings
            .iter()
            .filter(|o| game.moves().starts_with(o))
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }

    /// Whether the move of `played` at index `i` (from 0) is reviewed: not a pass, not an
    /// opening's nor one of the first [`ReviewOptions::from_ply`], and the player's with
    /// `--player`.
    pub fn reviews(&self, played: &PlayedGame, i: usize, mover: Color) -> bool {
        !played.game.moves()[i].is_pass()
            && i >= self.from_ply
            && i >= self.opening_plies(&played.game)
            && self
                .player
                .as_deref()
                .is_none_or(|p| p == played.player(mover))
    }
}

/// One reviewed move. Values are discs for the player who moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReview {
    /// The game, from 1.
    pub game: usize,
    /// The move's place in the game, from 1 (passes count).
    pub ply: usize,
    /// Empty squares before the move.
    pub empties: u32,
    /// The mover's name.
    pub player: String,
    /// The mover's colour: `black` or `white`.
    pub color: &'static str,
    /// The move played.
    #[serde(rename = "move")]
    pub played: String,
    /// The best move found.
    pub best_move: String,
    /// The value of the move played.
    pub value: i32,
    /// The value of the best move.
    pub best_value: i32,
    /// `best_value - value`.
    pub loss: i32,
    /// Whether both values are exact (solved), not a search's estimates.
    pub exact: bool,
}

impl MoveReview {
    /// Whether the mover was Black.
    pub fn black(&self) -> bool {
        self.color == "black"
    }

    /// The value of the move played from Black's point of view.
    pub fn value_for_black(&self) -> i32 {
        if self.black() {
            self.value
        } else {
            -self.value
        }
    }
}

/// Reviews the moves of `played` (game `index` of the input, from 1) with `engine`, whose
/// threads, table, evaluation and selectivity the searches use; `progress` gets each reviewed
/// move as soon as it is reviewed. Forced passes are not reviewed, nor with `options.player` the other player's
/// moves. The engine's stop flag ends the review early (the moves reviewed so far are given).
pub fn review_game(
    engine: &mut Engine,
    played: &PlayedGame,
    index: usize,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(&MoveReview),
) -> Result<Vec<MoveReview>, crate::board::rules::UnsupportedRules> {
    let rules = played.game.rules();
    if engine.rules() != rules {
        engine.set_rules(rules)?;
    }
    engine.clear_hash();
    let mut out = Vec::new();
    let states: Vec<State> = played.game.states().collect();
    for (i, &mv) in played.game.moves().iter().enumerate() {
        let state = states[i];
        let color = state.position.to_move;
        let player = played.player(color);
        let Some(square) = mv.square().filter(|_| options.reviews(played, i, color)) else {
            continue;
        };
        let empties = rules.empty_count(&state.position.board);
        let limits = if empties <= options.exact_from {
            Limits::depth(60)
        } else {
            Limits::depth(options.depth)
        };
        let best = engine.search(&SearchRequest::analyze(limits).state(state), &mut |_| {});
        if engine.is_stopped() {
            break;
        }
        let (mut best_move, mut best_value) = (best.best_move, best.score);
        let mut exact = best.bound == Bound::Exact;
        let value = if best_move == mv || symmetric(&rules, &state, mv, best_move) {
            best_value
        } else {
            let mask = 1u64 << square.index();
            let request = SearchRequest::analyze(limits).state(state).moves(mask);
            let result = engine.search(&request, &mut |_| {});
            if engine.is_stopped() {
                break;
            }
            exact &= result.bound == Bound::Exact;
            if result.score > best_value {
                // The move searched alone came out better than the best of all (a
                // depth-limited search is not monotone): it is the best found.
                (best_move, best_value) = (mv, result.score);
            }
            result.score
        };
        out.push(MoveReview {
            game: index,
            ply: i + 1,
            empties,
            player: player.to_string(),
            color: if color == Color::Black {
                "black"
            } else {
                "white"
            },
            played: mv.to_string(),
            best_move: best_move.to_string(),
            value,
            best_value,
            loss: best_value - value,
            exact,
        });
        progress(out.last().expect("a review was just added"));
    }
    Ok(out)
}

/// Whether `a` and `b` are the same move up to a symmetry of the 8×8 position `state` (as the
/// four first moves are): then they are worth the same, whatever a search says.
fn symmetric(rules: &Rules, state: &State, a: Move, b: Move) -> bool {
    let (Some(a), Some(b)) = (a.square(), b.square()) else {
        return false;
    };
    let board = state.position.board;
    rules.size == 8
        && Symmetry::ALL
            .iter()
            .any(|&s| board.transform(s) == board && s.apply_square(a) == b)
}

/// Moves, summed losses and blunders of one player in one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LossTally {
    /// Moves reviewed.
    pub moves: usize,
    /// Discs lost in all.
    pub loss: i64,
    /// Moves that lost [`BLUNDER`] discs or more.
    pub blunders: usize,
}

impl LossTally {
    fn add(&mut self, review: &MoveReview) {
        self.moves += 1;
        self.loss += i64::from(review.loss);
        self.blunders += usize::from(review.loss >= BLUNDER);
    }

    /// The mean loss a move (0 without moves).
    pub fn mean(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.loss as f64 / self.moves as f64
        }
    }
}

/// The losses of every player, by phase ([`PHASES`]) and in all.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReviewSummary {
    players: BTreeMap<String, [LossTally; PHASES.len()]>,
}

impl ReviewSummary {
    /// Counts `review`.
    pub fn add(&mut self, review: &MoveReview) {
        let phases = self.players.entry(review.player.clone()).or_default();
        phases[phase(review.empties)].add(review);
    }

    /// Each player with its phases' tallies, by name.
    pub fn players(&self) -> impl Iterator<Item = (&str, &[LossTally; PHASES.len()])> {
        self.players
            .iter()
            .map(|(name, tallies)| (name.as_str(), tallies))
    }

    /// Whether no move was counted.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }
}

/// The whole-game tally of `phases`.
pub(crate) fn total(phases: &[LossTally]) -> LossTally {
    phases.iter().fold(LossTally::default(), |a, t| LossTally {
        moves: a.moves + t.moves,
        loss: a.loss + t.loss,
        blunders: a.blunders + t.blunders,
    })
}

/// A phase's name: `60-45`, …, `14-0`.
pub(crate) fn phase_name(index: usize) -> String {
    let (high, low) = PHASES[index];
    format!("{high}-{low}")
}

/// The result of a game for its title: `Black wins by 4`, `White wins by 10`, `draw` (the
/// empties to the winner), or `unfinished`.
pub(crate) fn result_text(game: &Game) -> String {
    game.outcome()
        .map_or_else(|| "unfinished".to_string(), |o| o.to_string())
}

/// The table of one game's review: a title line (players, result, moves), then a row a reviewed
/// move (ply, empties, player, move, best move, values, loss, how it was valued, `??` for a
/// blunder). `depth` is the depth of the searches that did not solve.
pub(crate) fn write_table(
    out: &mut impl std::io::Write,
    played: &PlayedGame,
    index: usize,
    reviews: &[MoveReview],
    depth: u32,
) -> std::io::Result<()> {
    writeln!(
        out,
        "game {index}: {} (Black) vs {} (White), {}, {} moves (line {})",
        played.players[0],
        played.players[1],
        result_text(&played.game),
        played.game.moves().len(),
        played.line
    )?;
    writeln!(
        out,
        " ply empties player       move best    value  best  loss  search"
    )?;
    let depth = format!("depth {depth}");
    for r in reviews {
        let mark = if r.loss >= BLUNDER { "  ??" } else { "" };
        writeln!(
            out,
            "{:>4} {:>7} {:<12} {:<4} {:<4} {:>+7} {:>+5} {:>5}  {}{mark}",
            r.ply,
            r.empties,
            truncate(&r.player, 12),
            r.played,
            r.best_move,
            r.value,
            r.best_value,
            r.loss,
            if r.exact { "exact" } else { depth.as_str() }
        )?;
    }
    Ok(())
}

/// The losses by player and phase.
pub(crate) fn write_summary(
    out: &mut impl std::io::Write,
    summary: &ReviewSummary,
) -> std::io::Result<()> {
    writeln!(
        out,
        "summary: discs lost a move by phase (empties before the move); a blunder loses {BLUNDER} or more"
    )?;
    writeln!(out, "player       phase  moves  mean loss  blunders")?;
    let mut everyone = [LossTally::default(); PHASES.len()];
    for (player, phases) in summary.players() {
        write_player(out, player, phases)?;
        for (all, tally) in everyone.iter_mut().zip(phases) {
            *all = total(&[*all, *tally]);
        }
    }
    if summary.players.len() > 1 {
        // Every player together: the profile of a whole archive.
        write_player(out, "(everyone)", &everyone)?;
    }
    out.flush()
}

/// The rows of one player (or of everyone): each phase with moves, then the whole game.
fn write_player(
    out: &mut impl std::io::Write,
    player: &str,
    phases: &[LossTally; PHASES.len()],
) -> std::io::Result<()> {
    let rows = (0..PHASES.len())
        .map(|k| (phase_name(k), phases[k]))
        .chain([("all".to_string(), total(phases))]);
    for (name, tally) in rows {
        if tally.moves == 0 {
            continue;
        }
        writeln!(
            out,
            "{:<12} {:>5} {:>6} {:>10.2} {:>9}",
            truncate(player, 12),
            name,
            tally.moves,
            tally.mean(),
            tally.blunders
        )?;
    }
    Ok(())
}

/// At most `chars` characters of `text`.
fn truncate(text: &str, chars: usize) -> String {
    text.chars().take(chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_cover_every_count_of_empties() {
        assert_eq!(phase(60), 0);
        assert_eq!(phase(45), 0);
        assert_eq!(phase(44), 1);
        assert_eq!(phase(25), 2);
        assert_eq!(phase(24), 3);
        assert_eq!(phase(15), 3);
        assert_eq!(phase(14), 4);
        assert_eq!(phase(0), 4);
        assert_eq!(phase_name(2), "34-25");
    }
}
