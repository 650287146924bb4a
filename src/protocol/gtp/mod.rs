//! GTP v2, Othello dialect (`docs/protocol.md`): the session.
//!
//! `genmove` searches on a worker thread; the reader keeps reading, so `quit`, the end of the
//! input or GoGui's `# interrupt` line stop the search at once (every search has a stop of its
//! own, so a stop right behind `genmove` is not lost). Any other command waits for the search
//! to finish, keeping GTP's one-reply-per-command order. A failed command (`? message`) leaves
//! the state unchanged.
//!
//! Rows: GTP vertices name the rows from the top (a1 top-left, Othello notation, as Edax's
//! GTP, Quarry and most Othello clients do) until the client shows itself to be GoGui, whose
//! board and SGF files put A1 at the bottom left: GoGui and gogui-twogtp send
//! `gogui-interrupt` right after `list_commands`, and GoGui's rule queries start with
//! `gogui-rules_`. From the first `gogui-` command on, vertices name the rows from the bottom.
//! `--rows top|bottom` fixes the convention instead ([`Rows`]). Either way the board itself is
//! the same: `gogui-rules_board` prints the top row first.
//!
//! Clocks: `time_settings` sets both clocks, `time_left` one; the time each `genmove` takes is
//! charged to its colour's clock (main time, then Canadian byo-yomi), so a client that sends
//! only `time_settings` still gets a clock that runs. `time_settings m b 0` with `b > 0` means
//! no time limit, as the GTP specification says.
//!
//! Rule variants: `boardsize 4|6|8` changes the size, `set_game <name>` the rule set (names as
//! [`Rules`] reads them: `Othello`, `Reversi`, `Anti`, `6x6 anti`, …; `list_games` lists them,
//! `gogui-rules_game_id` names the current one). Both start a new game. Every other command
//! works under the current rules.

pub mod command;
pub mod response;

use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use command::{COMMANDS, Command, Kind, ParseError};
pub use response::Response;

pub use super::session::Rows;
use super::session::{EngineSlot, Output, Param, ParamError, Settings};
use crate::board::{Bitboard, Color, Game, Move, Rules, Square, State};
use crate::engine::{Engine, SearchRequest};
use crate::search::time::duration_from_seconds;
use crate::search::{Clock, Limits};

/// The time control from `time_settings`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
}

/// What one colour has left: `time` for the rest of the main time (`stones` 0), or for the
/// `stones` moves of the current byo-yomi period.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ClockLeft {
    time: Duration,
    stones: u32,
}

impl ClockLeft {
    /// The clock after a move that took `used`.
    fn after_move(self, used: Duration, settings: Option<TimeSettings>) -> ClockLeft {
        let byo = settings.filter(|s| s.stones > 0);
        let period = |b: TimeSettings| ClockLeft {
            time: b.byo_yomi,
            stones: b.stones,
        };
        if self.stones == 0 {
            // Main time; its end starts a byo-yomi period that this move already used.
            match (self.time.checked_sub(used), byo) {
                (Some(time), _) if !time.is_zero() => ClockLeft { time, ..self },
                (_, Some(b)) => {
                    let over = used.saturating_sub(self.time);
                    let next = ClockLeft {
                        time: b.byo_yomi.saturating_sub(over),
                        stones: b.stones - 1,
                    };
                    if next.stones == 0 { period(b) } else { next }
                }
                (_, None) => ClockLeft {
                    time: Duration::ZERO,
                    stones: 0,
                },
            }
        } else {
            let next = ClockLeft {
                time: self.time.saturating_sub(used),
                stones: self.stones - 1,
            };
            match byo {
                Some(b) if next.stones == 0 => period(b),
                _ => next,
            }
        }
    }

    /// The search's clock.
    fn clock(self) -> Clock {
        Clock {
            remaining: self.time,
            increment: Duration::ZERO,
            moves_to_go: (self.stones > 0).then_some(self.stones),
        }
    }
}

/// Both colours' clocks, shared with the worker that charges each `genmove`'s time.
type Clocks = Arc<Mutex<[Option<ClockLeft>; 2]>>;

/// One GTP session.
pub struct Session {
    out: Output,
    slot: EngineSlot,
    settings: Settings,
    /// The time control from `time_settings`.
    time_settings: Option<TimeSettings>,
    /// What each colour has left (`None`: no clock).
    clocks: Clocks,
    /// Game moves added by each `play`/`genmove` (2 when a pass was implied; 0 for a pass
    /// after the end), for `undo`.
    history: Vec<usize>,
    /// Whether vertices name the rows from the bottom (GoGui).
    from_bottom: bool,
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// `mv` with its row counted from the other edge of a `size`-square board: the conversion
/// between vertices that name the rows from the bottom and the squares (named from the top).
fn mirror_rows(mv: Move, size: u8) -> Move {
    match mv {
        Move::Play(sq) if sq.row() < size => {
            Square::from_coords(size - 1 - sq.row(), sq.col()).map_or(mv, Move::Play)
        }
        _ => mv,
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

/// `undo`: takes back the moves of the last `play` or `genmove` (`history`'s last count).
fn undo(engine: &mut Engine, history: &mut Vec<usize>) -> Result<String, CommandError> {
    match history.pop() {
        Some(count) => {
            for _ in 0..count {
                engine.undo();
            }
            Ok(String::new())
        }
        None => Err(CommandError::CannotUndo),
    }
}

/// `showboard`: the grid (rows relabelled for a client counting from the bottom), the side to
/// move and, with limited discs, the discs each side has left.
fn board_text(rules: &Rules, state: &State, from_bottom: bool) -> String {
    let grid = rules.grid(state, true);
    let grid = if from_bottom {
        relabel_rows(&grid, rules.size)
    } else {
        grid
    };
    let mut text = format!("\n{grid}\n{} to move", state.position.to_move);
    if rules.discs_per_player.is_some() {
        text.push_str(&format!(
            "\ndiscs left: Black {}, White {}",
            state.left_of(Color::Black),
            state.left_of(Color::White)
        ));
    }
    text
}

/// `final_score` and `gogui-rules_final_result`: the result of a finished game; before the
/// end an error, or `unknown` for the latter (`rules_command`).
fn final_result(game: &Game, rules_command: bool) -> Result<String, CommandError> {
    if game.is_over() {
        Ok(result_text(game))
    } else if rules_command {
        Ok("unknown".into())
    } else {
        Err(CommandError::NotOver)
    }
}

/// `gogui-rules_legal_moves`: the side to move's moves as vertices, `pass`, or nothing at the
/// end of the game.
fn legal_moves_text(game: &Game, from_bottom: bool) -> String {
    if game.is_over() {
        String::new()
    } else if game.must_pass() {
        "pass".into()
    } else {
        Bitboard(game.legal_moves())
            .iter()
            .map(|s| vertex_text(Move::Play(s), game.rules().size, from_bottom))
            .collect::<Vec<_>>()
            .join(" ")
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
            clocks: Arc::new(Mutex::new([None, None])),
            history: Vec::new(),
            from_bottom: settings.rows == Rows::Bottom,
        }
    }

    /// The square a vertex from the client names.
    fn square_of(&mut self, mv: Move) -> Move {
        if self.from_bottom {
            mirror_rows(mv, self.slot.get().rules().size)
        } else {
            mv
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
        if line.trim() == "# interrupt" {
            // GoGui's interrupt (announced by `gogui-interrupt`): the running genmove answers
            // with its best move so far.
            self.slot.stop();
            return true;
        }
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
        if command.is_gogui() && self.settings.rows == Rows::Auto && !self.from_bottom {
            log::info!("GoGui client: vertices name the rows from the bottom from now on");
            self.from_bottom = true;
        }
        if command.kind == Kind::Quit {
            self.slot.stop();
            self.reply(Response::success(id, ""));
            return false;
        }
        let outcome = self.execute(command.kind, id);
        if let Some(outcome) = outcome {
            match outcome {
                Ok(text) => self.reply(Response::success(id, text)),
                Err(error) => self.reply(Response::failure(id, error.to_string())),
            }
        }
        true
    }

    /// Runs a command; `None` when a worker answers it later (`genmove`).
    fn execute(&mut self, kind: Kind, id: Option<u64>) -> Option<Result<String, CommandError>> {
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
            Kind::BoardSize(size) => self.board_size(size, rules),
            Kind::ClearBoard => {
                // A new game starts from an empty hash table, so that a game does not depend
                // on the ones before it. The weights still loading at a program's start are
                // waited for here, before the client's clock runs, not in the first genmove.
                engine.evaluator().wait_until_read();
                engine.new_game();
                engine.clear_hash();
                self.history.clear();
                Ok(String::new())
            }
            Kind::Komi(_) => Ok(String::new()),
            Kind::Play(color, mv) => {
                let mv = self.square_of(mv);
                self.play(color, mv)
            }
            Kind::Genmove(color) => return self.genmove(color, id, true),
            Kind::RegGenmove(color) => return self.genmove(color, id, false),
            Kind::Undo => undo(engine, &mut self.history),
            Kind::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => self.set_time_settings(main, byo_yomi, stones),
            Kind::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.clocks.lock().expect("clock lock")[index(color)] = Some(ClockLeft {
                    time: duration_from_seconds(time),
                    stones,
                });
                Ok(String::new())
            }
            Kind::ShowBoard => Ok(board_text(&rules, &state, self.from_bottom)),
            Kind::FinalScore | Kind::RulesFinalResult => {
                final_result(game, kind == Kind::RulesFinalResult)
            }
            Kind::ListGames => Ok(Rules::GAME_NAMES.join("\n")),
            Kind::SetGame(name) => self.set_game(&name, rules),
            Kind::RulesGameId => Ok(game_name(rules)),
            Kind::RulesBoardSize => Ok(rules.size.to_string()),
            Kind::RulesLegalMoves => Ok(legal_moves_text(game, self.from_bottom)),
            Kind::RulesSideToMove => Ok(match position.to_move {
                Color::Black => "black".into(),
                Color::White => "white".into(),
            }),
            Kind::RulesBoard => Ok(format!("\n{}", rows(game))),
            Kind::Interrupt => Ok(String::new()),
            Kind::AnalyzeCommands => Ok(ANALYZE_COMMANDS.into()),
            Kind::Param(None) => Ok(Param::values(engine)
                .iter()
                .map(|(name, value)| format!("[string] {name} {value}"))
                .collect::<Vec<_>>()
                .join("\n")),
            Kind::Param(Some((name, value))) => Param::parse(&name, &value)
                .map(|param| {
                    param.apply(engine);
                    log::info!("engine parameter {param}");
                    String::new()
                })
                .map_err(CommandError::Param),
            Kind::Quit => unreachable!("handled before"),
        })
    }

    /// `boardsize`: the rules at one of their sizes; the current size changes nothing.
    fn board_size(&mut self, size: u32, rules: Rules) -> Result<String, CommandError> {
        let Some(size) = Rules::SIZES.into_iter().find(|&s| u32::from(s) == size) else {
            return Err(CommandError::NoSuchSize);
        };
        if size == rules.size {
            // Nothing changes (as before variants: Quarry sends `boardsize 8` first).
            return Ok(String::new());
        }
        self.set_rules(Rules { size, ..rules })
            .map_err(CommandError::Size)
    }

    /// `time_settings`: the time control and both clocks at its start (none when unlimited).
    fn set_time_settings(
        &mut self,
        main: f64,
        byo_yomi: f64,
        stones: u32,
    ) -> Result<String, CommandError> {
        let settings = TimeSettings {
            main: duration_from_seconds(main),
            byo_yomi: duration_from_seconds(byo_yomi),
            stones,
        };
        let unlimited = (!settings.byo_yomi.is_zero() && stones == 0)
            || (settings.main.is_zero() && settings.byo_yomi.is_zero());
        let start = if unlimited {
            None
        } else if settings.main.is_zero() {
            Some(ClockLeft {
                time: settings.byo_yomi,
                stones,
            })
        } else {
            Some(ClockLeft {
                time: settings.main,
                stones: 0,
            })
        };
        self.time_settings = (!unlimited).then_some(settings);
        *self.clocks.lock().expect("clock lock") = [start, start];
        Ok(String::new())
    }

    /// `set_game`: the named game at the current size; the current rules change nothing.
    fn set_game(&mut self, name: &str, rules: Rules) -> Result<String, CommandError> {
        match game_rules(name, rules.size) {
            Ok(chosen) if chosen == rules => Ok(String::new()),
            Ok(chosen) => self
                .set_rules(chosen)
                .map_err(|e| CommandError::Game(e.into())),
            Err(e) => Err(CommandError::Game(e)),
        }
    }

    /// Switches to `rules` (a new game, an empty hash table); unsupported rules change nothing.
    fn set_rules(&mut self, rules: Rules) -> Result<String, crate::board::rules::UnsupportedRules> {
        let engine = self.slot.get();
        engine.set_rules(rules)?;
        engine.clear_hash();
        self.history.clear();
        Ok(String::new())
    }

    /// Plays `mv` for `color`. When `color` is not to move and the side to move must pass, the
    /// pass is played first. A pass after the end of the game is accepted and changes nothing
    /// (gogui-twogtp relays the final passes).
    fn play(&mut self, color: Color, mv: Move) -> Result<String, CommandError> {
        let engine = self.slot.get();
        if mv.is_pass() && engine.game().is_over() {
            self.history.push(0);
            return Ok(String::new());
        }
        let to_move = engine.game().position().to_move;
        let mut added = 0;
        if color != to_move {
            if !engine.game().must_pass() {
                return Err(CommandError::NotToMove(to_move));
            }
            if mv.is_pass() {
                return Err(CommandError::TwoPasses);
            }
            engine.play(Move::Pass)?;
            added += 1;
        }
        if let Err(e) = engine.play(mv) {
            for _ in 0..added {
                engine.undo();
            }
            return Err(e.into());
        }
        self.history.push(added + 1);
        Ok(String::new())
    }

    /// The limits for `color`'s move: its GTP clock if the client set one, else the command
    /// line's time or depth.
    fn limits(&self, color: Color) -> Limits {
        let clock = self.clocks.lock().expect("clock lock")[index(color)];
        match (clock, self.settings.move_time) {
            (Some(clock), _) => Limits {
                depth: None,
                move_time: None,
                clock: Some(clock.clock()),
            },
            (None, Some(secs)) => Limits::move_time(duration_from_seconds(secs)),
            (None, None) => Limits::depth(self.settings.depth),
        }
    }

    /// `genmove`/`reg_genmove`: answers at once for passes, else searches on the worker.
    fn genmove(
        &mut self,
        color: Color,
        id: Option<u64>,
        play: bool,
    ) -> Option<Result<String, CommandError>> {
        let started = Instant::now();
        let limits = self.limits(color);
        let (from_bottom, time_settings) = (self.from_bottom, self.time_settings);
        let clocks = Arc::clone(&self.clocks);
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
                return Some(Err(CommandError::OtherToMove(state.to_move())));
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
            // The game's own position is played (book, forced moves); a position after
            // an implied pass that `reg_genmove` must not play is searched as it is.
            let request = if target == engine.game().state() {
                SearchRequest::play(limits)
            } else {
                SearchRequest::analyze(limits).state(target)
            };
            let result = engine.search(&request, &mut |_| {});
            let mv = result.best_move;
            if play {
                if let Err(e) = engine.play(mv) {
                    // Cannot happen: the search only returns legal moves.
                    log::error!("engine move {mv} rejected: {e}");
                }
                // The move's time, from the command to the reply, runs off its clock.
                let mut clocks = clocks.lock().expect("clock lock");
                if let Some(left) = &mut clocks[index(color)] {
                    *left = left.after_move(started.elapsed(), time_settings);
                }
            }
            let size = engine.rules().size;
            out.raw(&Response::success(id, vertex_text(mv, size, from_bottom)).to_string());
        });
        None
    }
}

/// The vertex of `mv` on a `size`-square board: upper case (`F5`), `pass`; rows named from the
/// bottom when `from_bottom`.
fn vertex_text(mv: Move, size: u8, from_bottom: bool) -> String {
    let mv = if from_bottom {
        mirror_rows(mv, size)
    } else {
        mv
    };
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(_) => mv.to_uppercase(),
    }
}

/// A `showboard` grid with its row labels counted from the bottom.
fn relabel_rows(grid: &str, size: u8) -> String {
    let relabel = |c: char| match c.to_digit(10) {
        Some(d @ 1..=8) if d <= u32::from(size) => {
            char::from_digit(u32::from(size) + 1 - d, 10).unwrap_or(c)
        }
        _ => c,
    };
    grid.lines()
        .map(|line| {
            let mut chars: Vec<char> = line.chars().collect();
            if let Some(first) = chars.first_mut() {
                *first = relabel(*first);
            }
            if chars.len() > 1
                && let Some(last) = chars.last_mut()
            {
                *last = relabel(*last);
            }
            chars.into_iter().collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rules `set_game <name>` selects: the name read by [`Rules`]; the size is `size` unless
/// the name gives one (`6x6 anti`).
fn game_rules(name: &str, size: u8) -> Result<Rules, GameRulesError> {
    let rules: Rules = name.parse()?;
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
    rules.check_supported()?;
    Ok(rules)
}

/// Why a command failed: the text of its `? …` reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum CommandError {
    /// `boardsize` of no board size (not 4, 6 or 8).
    #[error("unacceptable size")]
    NoSuchSize,
    /// `boardsize` of a size the current rules cannot be played at.
    #[error("unacceptable size: {0}")]
    Size(#[source] crate::board::rules::UnsupportedRules),
    /// `undo` with nothing to undo.
    #[error("cannot undo")]
    CannotUndo,
    /// `final_score` before the end of the game.
    #[error("the game is not over")]
    NotOver,
    /// `set_game` of rules that cannot be read or played.
    #[error("unsupported game: {0}")]
    Game(#[source] GameRulesError),
    /// `play` of an illegal move.
    #[error("illegal move: {0}")]
    Illegal(#[from] crate::board::IllegalMoveError),
    /// `play` for the colour not to move while the one to move has a move.
    #[error("illegal move: {0} is to move")]
    NotToMove(Color),
    /// `play pass` for the colour not to move when the one to move must pass.
    #[error("illegal move: two passes in a row")]
    TwoPasses,
    /// `genmove` for the colour not to move while the one to move has a move.
    #[error("{0} is to move")]
    OtherToMove(Color),
    /// `iago-param` of an unknown parameter or a bad value.
    #[error(transparent)]
    Param(#[from] ParamError),
}

/// The reply to `gogui-analyze_commands`: GoGui's parameter dialog over `iago-param`.
const ANALYZE_COMMANDS: &str = "param/Iago Parameters/iago-param";

/// Why `set_game` names no rules this version plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum GameRulesError {
    /// The name is not one of rules.
    #[error(transparent)]
    Name(#[from] crate::board::rules::ParseRulesError),
    /// Rules this version does not play.
    #[error(transparent)]
    Unsupported(#[from] crate::board::rules::UnsupportedRules),
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
    use crate::board::rules::{Goal, Setup};

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
            (reversi.size, reversi.setup, reversi.discs_per_player),
            (6, Setup::Placement, Some(32))
        );
        assert!(matches!(
            game_rules("chess", 8),
            Err(GameRulesError::Name(_))
        ));
        let err = CommandError::Game(game_rules("chess", 8).unwrap_err()).to_string();
        assert!(
            err.starts_with("unsupported game: unknown rules 'chess'"),
            "{err}"
        );
        let err = game_rules("5x5 othello", 8).unwrap_err();
        assert!(matches!(err, GameRulesError::Unsupported(_)));
        assert!(err.to_string().contains("not supported"), "{err}");
        // 32 discs each do not fit on 16 squares.
        assert!(game_rules("Reversi-32", 4).is_err());
    }

    #[test]
    fn failures_read_as_gtp_replies() {
        for (error, text) in [
            (CommandError::NoSuchSize, "unacceptable size".to_string()),
            (CommandError::CannotUndo, "cannot undo".into()),
            (CommandError::NotOver, "the game is not over".into()),
            (
                CommandError::Illegal(crate::board::IllegalMoveError::GameOver),
                "illegal move: the game is over".into(),
            ),
            (
                CommandError::NotToMove(Color::White),
                "illegal move: White is to move".into(),
            ),
            (
                CommandError::TwoPasses,
                "illegal move: two passes in a row".into(),
            ),
            (
                CommandError::OtherToMove(Color::Black),
                "Black is to move".into(),
            ),
        ] {
            assert_eq!(error.to_string(), text);
        }
        let four = Rules {
            size: 4,
            discs_per_player: Some(32),
            ..Rules::OTHELLO
        };
        let unsupported = four.check_supported().unwrap_err();
        assert_eq!(
            CommandError::Size(unsupported.clone()).to_string(),
            format!("unacceptable size: {unsupported}")
        );
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
