//! GTP v2, Othello dialect (`../shared/protocol/REFERENCE.md` §2): the session.
//!
//! `genmove` searches on a worker thread; the reader keeps reading, so `quit` or the end of the
//! input stop the search at once. Any other command waits for the search to finish, keeping
//! GTP's one-reply-per-command order. A failed command (`? message`) leaves the state unchanged.

pub mod command;
pub mod response;

use std::sync::mpsc::Receiver;
use std::time::Duration;

pub use command::{COMMANDS, Command, Kind, ParseError};
pub use response::Response;

use super::{EngineSlot, Output, Settings};
use crate::board::{Color, Move, Position};
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

/// `B+n`, `W+n` or `0` for a finished game (empties to the winner).
fn result_text(position: &Position) -> String {
    let score = position.final_score_for_black();
    match score {
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
        let position = engine.game().position();
        let board = position.board;
        Some(match kind {
            Kind::ProtocolVersion => Ok("2".into()),
            Kind::Name => Ok("Iago".into()),
            Kind::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Kind::KnownCommand(name) => Ok(COMMANDS
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&name))
                .to_string()),
            Kind::ListCommands => Ok(COMMANDS.join("\n")),
            Kind::BoardSize(8) => Ok(String::new()),
            Kind::BoardSize(_) => Err("unacceptable size".into()),
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
            Kind::ShowBoard => Ok(format!(
                "\n{}\n{} to move",
                position.grid(true),
                position.to_move
            )),
            Kind::FinalScore | Kind::RulesFinalResult => {
                if board.is_game_over() {
                    Ok(result_text(&position))
                } else if kind == Kind::RulesFinalResult {
                    Ok("unknown".into())
                } else {
                    Err("the game is not over".into())
                }
            }
            Kind::ListGames => Ok("Othello".into()),
            Kind::SetGame(name) if name.eq_ignore_ascii_case("othello") => Ok(String::new()),
            Kind::SetGame(name) => Err(format!("unsupported game '{name}': only Othello")),
            Kind::RulesGameId => Ok("Othello".into()),
            Kind::RulesBoardSize => Ok("8".into()),
            Kind::RulesLegalMoves => Ok(if board.is_game_over() {
                String::new()
            } else if board.must_pass() {
                "pass".into()
            } else {
                board
                    .legal_moves()
                    .iter()
                    .map(|s| s.to_string().to_uppercase())
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
            Kind::RulesSideToMove => Ok(match position.to_move {
                Color::Black => "black".into(),
                Color::White => "white".into(),
            }),
            Kind::RulesBoard => Ok(format!("\n{}", rows(&position))),
            Kind::Quit => unreachable!("handled before"),
        })
    }

    /// Plays `mv` for `color`. When `color` is not to move and the side to move must pass, the
    /// pass is played first.
    fn play(&mut self, color: Color, mv: Move) -> Result<String, String> {
        let engine = self.slot.get();
        let position = engine.game().position();
        let mut added = 0;
        if color != position.to_move {
            if !position.board.must_pass() {
                return Err(format!("illegal move: {} is to move", position.to_move));
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
        let position = engine.game().position();
        if position.board.is_game_over() {
            return Some(Ok("pass".into()));
        }
        let mut added = 0;
        if color != position.to_move {
            if !position.board.must_pass() {
                return Some(Err(format!("{} is to move", position.to_move)));
            }
            // The side to move must pass: play it, then think for `color`.
            if play {
                engine.play(Move::Pass).expect("a forced pass is legal");
                added = 1;
            }
        }
        let board = if added == 0 && color != position.to_move {
            position.board.pass()
        } else {
            engine.game().position().board
        };
        if board.is_game_over() || board.legal_moves().is_empty() {
            if play && !board.is_game_over() {
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
            let result = if board == engine.game().position().board {
                engine.go(&limits, &mut |_| {})
            } else {
                engine.analyze(&board, &limits, &mut |_| {})
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

/// The board as rows of `X`, `O` and `.`, row 1 first (for `gogui-rules_board`).
fn rows(position: &Position) -> String {
    (0..8u8)
        .map(|r| {
            (0..8u8)
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
