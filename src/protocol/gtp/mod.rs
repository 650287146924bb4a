//! GTP v2, Othello dialect (`../shared/protocol/REFERENCE.md` §2): the session.
//!
//! `genmove` searches on a worker thread; the reader keeps reading, so `quit` or the end of the
//! input stop the search at once. Any other command waits for the search to finish, keeping
//! GTP's one-reply-per-command order. A failed command (`? message`) leaves the state unchanged.
//!
//! Rule variants: `boardsize 4|6|8` changes the size, `set_game <name>` the rule set (names as
//! [`Rules`] reads them: `Othello`, `Reversi`, `Anti`, `6x6 anti`, …; `list_games` lists them,
//! `gogui-rules_game_id` names the current one). Both start a new game. Every other command
//! works under the current rules.

pub mod command;
pub mod response;

use std::sync::mpsc::Receiver;
use std::time::Duration;

pub use command::{COMMANDS, Command, Kind, ParseError};
pub use response::Response;

use super::{EngineSlot, Output, Settings};
use crate::board::{Bitboard, Color, Game, Move, Rules};
use crate::engine::Engine;
use crate::search::{Clock, Limits};

/// One GTP session.
pub struct Session {
    out: Output,
    slot: EngineSlot,
    settings: Settings,
    /// Main time, byo-yomi time and stones from `time_settings`.
    time_settings: Option<(f64, f64, u32)>,
    /// Seconds and stones left per colour from `time_left`.
    time_left: [Option<(f64, u32)>; 2],
    /// Game moves added by each `play`/`genmove` (2 when a pass was implied), for `undo`.
    history: Vec<usize>,
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn vertex(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(_) => mv.to_uppercase(),
    }
}

/// `B+n`, `W+n` or `0` for a finished game, scored by its rules (empties to the winner).
fn result_text(game: &Game) -> String {
    match game.final_score_for_black() {
        0 => "0".into(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

impl Session {
    /// A session around `engine`, writing to `out`.
    pub fn new(engine: Engine, out: Output, settings: Settings) -> Session {
        Session {
            out,
            slot: EngineSlot::new(engine),
            settings,
            time_settings: None,
            time_left: [None, None],
            history: Vec::new(),
        }
    }

    /// Handles `first` (if given), then every line until `quit` or the end of input.
    pub fn run(mut self, first: Option<String>, rx: Receiver<Option<String>>) {
        if let Some(line) = first
            && !self.handle(&line)
        {
            return;
        }
        while let Ok(Some(line)) = rx.recv() {
            if !self.handle(&line) {
                return;
            }
        }
        self.slot.stop();
    }

    fn reply(&self, response: Response) {
        self.out.raw(&response.to_string());
    }

    /// Handles one line; `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(ParseError::Empty) => return true,
            Err(e) => {
                let message = match &e {
                    ParseError::Unknown { .. } => "unknown command".to_string(),
                    other => other.to_string(),
                };
                // Keep the reply order: a running genmove answers first.
                self.slot.get();
                self.reply(Response::failure(e.id(), message));
                return true;
            }
        };
        let id = command.id;
        if command.kind == Kind::Quit {
            self.slot.stop();
            self.reply(Response::success(id, ""));
            return false;
        }
        let outcome = self.execute(command.kind, id);
        if let Some(outcome) = outcome {
            match outcome {
                Ok(text) => self.reply(Response::success(id, text)),
                Err(message) => self.reply(Response::failure(id, message)),
            }
        }
        true
    }

    /// Runs a command; `None` when a worker answers it later (`genmove`).
    fn execute(&mut self, kind: Kind, id: Option<u32>) -> Option<Result<String, String>> {
        let engine = self.slot.get();
        let game = engine.game();
        let rules = game.rules();
        let state = game.state();
        let position = state.position;
        Some(match kind {
            Kind::ProtocolVersion => Ok("2".into()),
            Kind::Name => Ok("Iago".into()),
            Kind::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Kind::KnownCommand(name) => Ok(COMMANDS
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&name))
                .to_string()),
            Kind::ListCommands => Ok(COMMANDS.join("\n")),
            Kind::BoardSize(size) => {
                let Some(size) = Rules::SIZES.into_iter().find(|&s| u32::from(s) == size) else {
                    return Some(Err("unacceptable size".into()));
                };
                if size == rules.size {
                    // Nothing changes (as before variants: Quarry sends `boardsize 8` first).
                    return Some(Ok(String::new()));
                }
                self.set_rules(Rules { size, ..rules })
                    .map_err(|e| format!("unacceptable size: {e}"))
            }
            Kind::ClearBoard => {
                // A new game starts from an empty hash table, so that a game does not depend
                // on the ones before it.
                engine.new_game();
                engine.clear_hash();
                self.history.clear();
                Ok(String::new())
            }
            Kind::Komi(_) => Ok(String::new()),
            Kind::Play(color, mv) => self.play(color, mv),
            Kind::Genmove(color) => return self.genmove(color, id, true),
            Kind::RegGenmove(color) => return self.genmove(color, id, false),
            Kind::Undo => match self.history.pop() {
                Some(count) => {
                    for _ in 0..count {
                        engine.undo();
                    }
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            Kind::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                self.time_settings = Some((main, byo_yomi, stones));
                self.time_left = [None, None];
                Ok(String::new())
            }
            Kind::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.time_left[index(color)] = Some((time, stones));
                Ok(String::new())
            }
            Kind::ShowBoard => {
                let mut text = format!(
                    "\n{}\n{} to move",
                    rules.grid(&state, true),
                    position.to_move
                );
                if rules.discs_per_player.is_some() {
                    text.push_str(&format!(
                        "\ndiscs left: Black {}, White {}",
                        state.left_of(Color::Black),
                        state.left_of(Color::White)
                    ));
                }
                Ok(text)
            }
            Kind::FinalScore | Kind::RulesFinalResult => {
                if game.is_over() {
                    Ok(result_text(game))
                } else if kind == Kind::RulesFinalResult {
                    Ok("unknown".into())
                } else {
                    Err("the game is not over".into())
                }
            }
            Kind::ListGames => Ok(Rules::GAME_NAMES.join("\n")),
            Kind::SetGame(name) => match game_rules(&name, rules.size) {
                Ok(chosen) if chosen == rules => Ok(String::new()),
                Ok(chosen) => self
                    .set_rules(chosen)
                    .map_err(|e| format!("unsupported game: {e}")),
                Err(e) => Err(format!("unsupported game: {e}")),
            },
            Kind::RulesGameId => Ok(game_name(rules)),
            Kind::RulesBoardSize => Ok(rules.size.to_string()),
            Kind::RulesLegalMoves => Ok(if game.is_over() {
                String::new()
            } else if game.must_pass() {
                "pass".into()
            } else {
                Bitboard(game.legal_moves())
                    .iter()
                    .map(|s| s.to_string().to_uppercase())
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
            Kind::RulesSideToMove => Ok(match position.to_move {
                Color::Black => "black".into(),
                Color::White => "white".into(),
            }),
            Kind::RulesBoard => Ok(format!("\n{}", rows(game))),
            Kind::Quit => unreachable!("handled before"),
        })
    }

    /// Switches to `rules` (a new game, an empty hash table); unsupported rules change nothing.
    fn set_rules(&mut self, rules: Rules) -> Result<String, String> {
        let engine = self.slot.get();
        engine.set_rules(rules).map_err(|e| e.to_string())?;
        engine.clear_hash();
        self.history.clear();
        Ok(String::new())
    }

    /// Plays `mv` for `color`. When `color` is not to move and the side to move must pass, the
    /// pass is played first.
    fn play(&mut self, color: Color, mv: Move) -> Result<String, String> {
        let engine = self.slot.get();
        let to_move = engine.game().position().to_move;
        let mut added = 0;
        if color != to_move {
            if !engine.game().must_pass() {
                return Err(format!("illegal move: {to_move} is to move"));
            }
            if mv.is_pass() {
                return Err("illegal move: two passes in a row".into());
            }
            engine
                .play(Move::Pass)
                .map_err(|e| format!("illegal move: {e}"))?;
            added += 1;
        }
        if let Err(e) = engine.play(mv) {
            for _ in 0..added {
                engine.undo();
            }
            return Err(format!("illegal move: {e}"));
        }
        self.history.push(added + 1);
        Ok(String::new())
    }

    /// The limits for `color`'s move: its GTP clock if the client set one, else the command
    /// line's time or depth.
    fn limits(&self, color: Color) -> Limits {
        let clock = match (self.time_left[index(color)], self.time_settings) {
            (Some((time, stones)), _) => Some(Clock {
                remaining: Duration::from_secs_f64(time),
                increment: Duration::ZERO,
                moves_to_go: (stones > 0).then_some(stones),
            }),
            (None, Some((main, byo_yomi, stones))) if main > 0.0 || byo_yomi > 0.0 => {
                Some(if main > 0.0 {
                    Clock {
                        remaining: Duration::from_secs_f64(main),
                        increment: Duration::ZERO,
                        moves_to_go: None,
                    }
                } else {
                    Clock {
                        remaining: Duration::from_secs_f64(byo_yomi),
                        increment: Duration::ZERO,
                        moves_to_go: Some(stones.max(1)),
                    }
                })
            }
            _ => None,
        };
        match (clock, self.settings.move_time) {
            (Some(clock), _) => Limits {
                depth: None,
                move_time: None,
                clock: Some(clock),
            },
            (None, Some(secs)) => Limits::move_time(Duration::from_secs_f64(secs)),
            (None, None) => Limits::depth(self.settings.depth),
        }
    }

    /// `genmove`/`reg_genmove`: answers at once for passes, else searches on the worker.
    fn genmove(
        &mut self,
        color: Color,
        id: Option<u32>,
        play: bool,
    ) -> Option<Result<String, String>> {
        let limits = self.limits(color);
        let engine = self.slot.get();
        let game = engine.game();
        let rules = game.rules();
        if game.is_over() {
            return Some(Ok("pass".into()));
        }
        let state = game.state();
        let mut added = 0;
        if color != state.to_move() {
            if !game.must_pass() {
                return Some(Err(format!("{} is to move", state.to_move())));
            }
            // The side to move must pass: play it, then think for `color`.
            if play {
                engine.play(Move::Pass).expect("a forced pass is legal");
                added = 1;
            }
        }
        // The position `color` moves in: the game's, or the one after an implied pass that
        // `reg_genmove` must not play.
        let target = if color == state.to_move() {
            state
        } else {
            state.pass()
        };
        if rules.moves(&target) == 0 {
            // `color` must pass (it is to move: the game is not over).
            if play {
                engine.play(Move::Pass).expect("a forced pass is legal");
                added += 1;
            }
            if added > 0 {
                self.history.push(added);
            }
            return Some(Ok("pass".into()));
        }
        if play {
            self.history.push(added + 1);
        }
        let out = self.out.clone();
        self.slot.spawn(move |engine| {
            // The game's own position goes through `go` (book, forced moves); a position after
            // an implied pass that `reg_genmove` must not play is searched as it is.
            let result = if target == engine.game().state() {
                engine.go(&limits, &mut |_| {})
            } else {
                engine.analyze_state(&target, &limits, &mut |_| {})
            };
            let mv = result.best_move;
            if play && let Err(e) = engine.play(mv) {
                // Cannot happen: the search only returns legal moves.
                log::error!("engine move {mv} rejected: {e}");
            }
            out.raw(&Response::success(id, vertex(mv)).to_string());
        });
        None
    }
}

/// The rules `set_game <name>` selects: the name read by [`Rules`]; the size is `size` unless
/// the name gives one (`6x6 anti`).
fn game_rules(name: &str, size: u8) -> Result<Rules, String> {
    let rules: Rules = name.parse().map_err(|e| format!("{e}"))?;
    let names_a_size = name
        .split(|c: char| c.is_whitespace() || c == ',' || c == '-' || c == '_')
        .any(|w| {
            w.split_once(['x', 'X'])
                .is_some_and(|(a, _)| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
        });
    let rules = if names_a_size {
        rules
    } else {
        Rules { size, ..rules }
    };
    rules.check_supported().map_err(|e| e.to_string())?;
    Ok(rules)
}

/// The name of `rules` without the size (`gogui-rules_board_size` tells it): the
/// `list_games` entry when there is one (`Othello`, `Anti`, …), else [`Rules`]' own name.
fn game_name(rules: Rules) -> String {
    let eight = Rules { size: 8, ..rules };
    Rules::GAME_NAMES
        .iter()
        .find(|name| name.parse::<Rules>() == Ok(eight))
        .map_or_else(|| eight.to_string(), |name| name.to_string())
}

/// The board as rows of `X`, `O` and `.`, row 1 first (for `gogui-rules_board`).
fn rows(game: &Game) -> String {
    let size = game.rules().size;
    let position = game.position();
    (0..size)
        .map(|r| {
            (0..size)
                .map(|c| {
                    let sq = crate::board::Square::from_coords(r, c).expect("on the board");
                    match position.disc(sq) {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{Goal, Opening};

    #[test]
    fn set_game_names_keep_the_size_unless_they_give_one() {
        let anti = |size| Rules {
            size,
            goal: Goal::FewestDiscs,
            ..Rules::OTHELLO
        };
        assert_eq!(game_rules("anti", 6), Ok(anti(6)));
        assert_eq!(game_rules("Anti", 8), Ok(anti(8)));
        assert_eq!(game_rules("6x6 anti", 8), Ok(anti(6)));
        assert_eq!(game_rules("anti 4x4", 6), Ok(anti(4)));
        assert_eq!(game_rules("Othello", 4).unwrap().size, 4);
        let reversi = game_rules("Reversi-32", 6).unwrap();
        assert_eq!(
            (reversi.size, reversi.opening, reversi.discs_per_player),
            (6, Opening::Placement, Some(32))
        );
        assert!(
            game_rules("chess", 8)
                .unwrap_err()
                .starts_with("unknown rules 'chess'")
        );
        let err = game_rules("5x5 othello", 8).unwrap_err();
        assert!(err.contains("not supported"), "{err}");
        // 32 discs each do not fit on 16 squares.
        assert!(game_rules("Reversi-32", 4).is_err());
    }

    #[test]
    fn game_ids_are_list_games_names() {
        for name in Rules::GAME_NAMES {
            for size in Rules::SIZES {
                let rules = game_rules(name, size);
                let Ok(rules) = rules else { continue };
                assert_eq!(game_name(rules), name);
                assert_eq!(game_rules(&game_name(rules), size), Ok(rules));
            }
        }
        let odd = Rules {
            discs_per_player: Some(20),
            ..Rules::OTHELLO
        };
        assert_eq!(game_name(odd), "othello 20-discs");
        assert_eq!(game_rules(&game_name(odd), 8), Ok(odd));
    }
}
