//! NBoard protocol v2 (`docs/protocol.md`): the session.
//!
//! Searches (`go`, `hint`, `learn`, `analyze`) run on a worker thread and print their own
//! replies; `ping` stops them and is answered after their last line; a state change or a new
//! request stops a running search first (the new request supersedes it). Every job has a stop
//! of its own, so a stop sent right after a request is never lost. Unknown or malformed lines
//! are logged on stderr (cut and escaped) and ignored; times from outside are clamped.
//!
//! `hint n` prints the `n` moves of each depth together, depth after depth, because NBoard
//! keeps only the hints of the latest depth; `analysis` values are from Black's point of
//! view, as NBoard's graph draws them.
//!
//! Rule variants come with `set game`: its `TY` gives the board size (4, 6, 8) and the anti
//! flag, its `BO` the start (discs only on a centre not yet full mean the Reversi start); see
//! [`crate::records::ggf`]. A game the engine cannot play is refused with one log line and the
//! previous game stays. `go`, `hint`, `move` and `analyze` then work under the game's rules.

pub mod command;
pub mod response;

use std::sync::mpsc::Receiver;
use std::time::Duration;

pub use command::{Command, ParseError, PingId};
pub use response::{Depth, Eval, HintLine, Response};

use super::session::{EngineSlot, Output, Settings};
use crate::board::{Color, Move};
use crate::engine::{Engine, LearnError, SearchRequest};
use crate::records::ggf::{GgfGame, MoveItem, TimeControl};
use crate::search::time::duration_from_seconds;
use crate::search::{Bound, Clock, Limits, SearchResult};

/// The name the engine gives itself (one token).
pub const NAME: &str = "Iago";

/// The clock state from the last `set game` and the `move`s since.
#[derive(Clone, Copy, Debug, Default)]
struct Clocks {
    control: [Option<TimeControl>; 2],
    used: [Duration; 2],
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// One NBoard session.
pub struct Session {
    out: Output,
    slot: EngineSlot,
    depth: u32,
    clocks: Clocks,
}

impl Session {
    /// A session around `engine`, writing to `out`.
    pub fn new(engine: Engine, out: Output, settings: Settings) -> Session {
        Session {
            out,
            slot: EngineSlot::new(engine),
            depth: settings.depth,
            clocks: Clocks::default(),
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
        // End of input: stop thinking and leave.
        self.slot.stop();
    }

    /// Handles one line; `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(ParseError::Empty) => return true,
            Err(e) => {
                log::warn!("ignored NBoard line: {e}");
                return true;
            }
        };
        log::debug!(
            "nboard < {}",
            crate::board::notation::excerpt(&command.to_string())
        );
        match command {
            Command::Nboard(version) => {
                if version != 2 {
                    log::warn!(
                        "NBoard protocol version {version} announced; Iago speaks version 2"
                    );
                }
            }
            Command::SetDepth(depth) => {
                self.slot.stop();
                self.depth = depth.clamp(1, crate::search::driver::MAX_DEPTH);
                self.out.line(Response::SetMyName(NAME.into()));
            }
            Command::SetGame(text) => self.set_game(&text),
            Command::SetContempt(contempt) => {
                self.slot.stop();
                log::debug!("set contempt {contempt}: accepted; the search has no draw value");
            }
            Command::SetParam(param) => {
                param.apply(self.slot.stop());
                log::info!("engine parameter {param}");
            }
            Command::Move(item) => self.play(item),
            Command::Ping(n) => {
                // The GUI waits for the pong before its clock runs: the weights still loading
                // at the program's start are waited for here, not in the first search.
                self.slot.stop().evaluator().wait_until_read();
                if n.is_none() {
                    log::warn!("ping without a valid number, answered by pong 0");
                }
                // NBoard reads a number after `pong`.
                self.out
                    .line(Response::Pong(Some(n.unwrap_or_else(|| 0.into()))));
            }
            Command::Go => self.go(),
            Command::Hint(n) => self.hint(n.max(1) as usize),
            Command::Learn => self.learn(),
            Command::Analyze => self.analyze(),
            Command::Clear => self.slot.stop().clear_hash(),
            Command::Quit => {
                self.slot.stop();
                return false;
            }
        }
        true
    }

    fn set_game(&mut self, text: &str) {
        let parsed = GgfGame::parse(text).and_then(|ggf| ggf.game().map(|game| (ggf, game)));
        match parsed {
            Ok((ggf, game)) => {
                let engine = self.slot.stop();
                if engine.rules() != game.rules() {
                    // The engine empties its hash table for the new rules.
                    log::info!("playing {} from now on", game.rules());
                }
                engine.set_game(game);
                self.clocks = Clocks {
                    control: [
                        ggf.time_control(Color::Black),
                        ggf.time_control(Color::White),
                    ],
                    used: [ggf.time_used(Color::Black), ggf.time_used(Color::White)],
                };
            }
            Err(e) => log::warn!("ignored set game, the previous game stays: {e}"),
        }
    }

    fn play(&mut self, item: MoveItem) {
        let engine = self.slot.stop();
        let color = engine.game().position().to_move;
        match engine.play_inferring_pass(item.mv) {
            Ok(passed) => {
                let mover = if passed { color.opposite() } else { color };
                if let Some(t) = item.time {
                    let used = &mut self.clocks.used[index(mover)];
                    *used = used.saturating_add(duration_from_seconds(t));
                }
            }
            Err(e) => log::warn!("ignored move {}: {e}", item.mv),
        }
    }

    /// The depth, and the clock of the side to move when the game has one. Stops a running
    /// job: every caller is about to start a new one.
    fn limits(&mut self) -> Limits {
        let color = self.slot.stop().game().position().to_move;
        let clock = self.clocks.control[index(color)].map(|tc| Clock {
            remaining: tc
                .base
                .saturating_sub(self.clocks.used[index(color)])
                .max(Duration::from_millis(20)),
            increment: tc.increment,
            moves_to_go: None,
        });
        Limits {
            depth: Some(self.depth),
            move_time: None,
            clock,
        }
    }

    fn go(&mut self) {
        let limits = self.limits();
        let out = self.out.clone();
        self.slot.spawn(move |engine| {
            let progress = out.clone();
            let result = engine.search(&SearchRequest::play(limits), &mut |r| {
                let pv: String = r.pv.iter().map(|m| m.to_uppercase()).collect();
                progress.line(Response::Status(format!(
                    "{NAME} {} {:+} {pv}",
                    r.depth_text(),
                    r.score
                )));
            });
            out.line(Response::BestMove(MoveItem {
                mv: result.best_move,
                eval: Some(result.score as f64),
                time: Some(result.time.as_secs_f64()),
            }));
            out.line(Response::NodeStats {
                nodes: result.nodes,
                seconds: result.time.as_secs_f64(),
            });
        });
    }

    /// `learn`: the game goes into the book (saved when the book came from a file), then
    /// `learned`.
    fn learn(&mut self) {
        let depth = self.depth;
        let out = self.out.clone();
        self.slot.spawn(move |engine| match engine.learn(depth) {
            Ok(added) => {
                log::info!("learned the game: {added} new book positions");
                out.line(Response::Learned);
            }
            // Stopped by a ping or a new request: the GUI no longer waits for `learned`.
            Err(LearnError::Stopped) => log::info!("learning stopped, the book is unchanged"),
            Err(e) => {
                log::warn!("cannot learn the game: {e}");
                out.line(Response::Learned);
            }
        });
    }

    /// `hint n`: the book's moves as `book` lines, then the other moves searched together,
    /// depth by depth: each depth's `search` lines come together, so that NBoard, which keeps
    /// the hints of the latest depth only, shows all of them.
    fn hint(&mut self, n: usize) {
        let limits = Limits::depth(self.depth);
        let out = self.out.clone();
        self.slot.spawn(move |engine| {
            let book = engine.book_moves();
            let mut excluded = 0u64;
            for choice in book.iter().take(n) {
                out.line(Response::Book(book_line(choice)));
                if let Some(sq) = choice.mv.square() {
                    excluded |= 1 << sq.index();
                }
            }
            let searched = n.saturating_sub(book.len());
            if !book.is_empty() && (searched == 0 || excluded == engine.game().legal_moves()) {
                out.line(Response::NodeStats {
                    nodes: 0,
                    seconds: 0.0,
                });
                return;
            }
            let start = std::time::Instant::now();
            let request = SearchRequest::analyze(limits).moves(!excluded);
            let hints = engine.hint(searched, &request, &mut |row| {
                for result in row {
                    out.line(Response::Search(hint_line(result)));
                }
            });
            out.line(Response::NodeStats {
                nodes: hints.nodes,
                seconds: start.elapsed().as_secs_f64(),
            });
        });
    }

    /// `analysis <moves made> <eval>` for every position, from the end back to the start; the
    /// eval is Black's (NBoard draws the series on its graph of Black's evals, and its own
    /// engine sends Black's values).
    fn analyze(&mut self) {
        let depth = self.depth;
        let out = self.out.clone();
        self.slot.spawn(move |engine| {
            engine.analyze_game(&Limits::depth(depth), &mut |moves_made, to_move, eval| {
                let black = match to_move {
                    Color::Black => eval,
                    Color::White => -eval,
                };
                out.line(Response::Analysis {
                    moves_made: moves_made as u32,
                    eval: black as f64,
                });
            });
        });
    }
}
/// A `book` line for one of the book's moves.
fn book_line(choice: &crate::book::BookMove) -> HintLine {
    HintLine {
        pv: vec![choice.mv],
        eval: Eval::Value(choice.value as f64),
        games: choice.games as u64,
        depth: if choice.depth == crate::book::EXACT_DEPTH {
            Depth::exact()
        } else {
            Depth::plies(choice.depth as u32)
        },
        text: String::new(),
    }
}

/// A `search` line from a search result.
fn hint_line(result: &SearchResult) -> HintLine {
    let depth = match result.bound {
        Bound::Exact => Depth::exact(),
        Bound::WinLossDraw => Depth::win_loss_draw(),
        Bound::Estimate => Depth::plies(result.depth),
    };
    let pv = if result.pv.is_empty() {
        vec![result.best_move]
    } else {
        result.pv.clone()
    };
    let pv: Vec<Move> = if pv.first() == Some(&result.best_move) {
        pv
    } else {
        vec![result.best_move]
    };
    HintLine {
        pv,
        eval: Eval::Value(result.score as f64),
        games: 0,
        depth,
        text: String::new(),
    }
}
