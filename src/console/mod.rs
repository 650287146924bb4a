//! The interactive console (`iago play`, and plain `iago` at a terminal): a board, a prompt,
//! moves typed as `f5`, Iago answering for the colours it plays, hints, exact solves, reviews,
//! games loaded and saved. A search shows its progress and Ctrl-C stops it; bad input gets one
//! line and leaves the game as it was.

mod command;
mod draw;
mod input;

use std::fmt::Display;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub(crate) use command::{Level, Mode};
pub(crate) use draw::Style;
pub(crate) use input::{Input, catch_interrupts};

use command::{Command, HELP};
use input::{Interruptible, Line};

use crate::board::notation::{looks_like_board, read_text_file};
use crate::board::{Color, Game, Move, Outcome, Rules, State};
use crate::engine::{Engine, SearchRequest, StopHandle};
use crate::records::ggf::GgfGame;
use crate::records::{Pasted, PlayedGame, read_games, read_paste};
use crate::review::{ReviewOptions, ReviewSummary, review_game};
use crate::search::params::ANALYSIS_SELECTIVITY;
use crate::search::solve::SolveReport;
use crate::search::{Bound, Progress, SearchResult, SolveMode, Source, Stopped};

/// How long `solve` without a time may run.
const SOLVE_TIME: Duration = Duration::from_secs(60);

/// The console's settings at the start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// How long Iago thinks.
    pub level: Level,
    /// The colours Iago plays.
    pub mode: Mode,
    /// How the board is drawn.
    pub style: Style,
    /// Whether searches show their progress on a line of their own (a terminal).
    pub progress: bool,
}

/// Runs the console: reads commands from `input` until `quit`, the end of the input, or two
/// Ctrl-C in a row at the prompt; writes to `out`.
pub(crate) fn run(
    engine: Engine,
    settings: Settings,
    mut input: Input,
    out: Box<dyn Write + Send>,
) {
    let mut console = Console {
        engine,
        settings,
        out,
        redo: Vec::new(),
    };
    console.say(format!(
        "Iago {}, an Othello engine. Type a move (f5), go, hint, help or quit.",
        env!("CARGO_PKG_VERSION")
    ));
    console.say(format!(
        "{}; level {}.",
        console.settings.mode, console.settings.level
    ));
    console.settle(true);
    let mut interrupted = false;
    loop {
        match input.read("iago> ") {
            Line::End => break,
            Line::Interrupted if interrupted => break,
            Line::Interrupted => {
                interrupted = true;
                console.say("(Ctrl-C again, quit or Ctrl-D leaves)");
            }
            Line::Text(text) => {
                interrupted = false;
                match command::parse(&text) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => break,
                    Ok(Some(command)) => console.execute(command),
                    Err(message) => console.error(message),
                }
            }
        }
    }
}

struct Console {
    engine: Engine,
    settings: Settings,
    out: Box<dyn Write + Send>,
    /// The moves `undo` took back, the next one to play again last.
    redo: Vec<Move>,
}

impl Console {
    fn say(&mut self, text: impl Display) {
        if let Err(e) = writeln!(self.out, "{text}").and_then(|()| self.out.flush()) {
            log::debug!("console output: {e}");
        }
    }

    fn error(&mut self, text: impl Display) {
        self.say(format!("error: {text}"));
    }

    fn game(&self) -> &Game {
        self.engine.game()
    }

    fn execute(&mut self, command: Command) {
        match command {
            Command::Moves(text) => self.play_moves(&text),
            Command::Pass => self.pass(),
            Command::Undo(turns) => self.undo(turns),
            Command::Redo(turns) => self.redo(turns),
            Command::New => {
                self.engine.new_game();
                self.redo.clear();
                self.settle(true);
            }
            Command::Go => self.go(),
            Command::Mode(None) => self.say(format!("{}.", self.settings.mode)),
            Command::Mode(Some(mode)) => {
                self.settings.mode = mode;
                self.say(format!("{mode}."));
                if !self.game().is_over() && mode.plays(self.game().position().to_move) {
                    self.settle(true);
                }
            }
            Command::Hint(n) => self.hint(n),
            Command::Solve(time) => self.solve(time.unwrap_or(SOLVE_TIME)),
            Command::Level(None) => self.say(format!("level {}", self.settings.level)),
            Command::Level(Some(level)) => {
                self.settings.level = level;
                self.engine.set_level(level.playing());
                self.say(format!("level {level}"));
            }
            Command::Board(None) => self.draw(),
            Command::Board(Some(text)) => self.set_board(&text),
            Command::Load(path) => self.load(&path),
            Command::Save(path) => self.save(&path),
            Command::Review => self.review(),
            Command::Help => self.say(HELP),
            Command::Quit => {}
        }
    }

    /// Draws the board.
    fn draw(&mut self) {
        let style = self.settings.style;
        let game = self.engine.game();
        let mut panel = draw::panel(style, game, draw::shows_rules(&game.rules()));
        panel.push(format!(
            "Iago: {}, level {}",
            self.settings.mode.short(),
            self.settings.level
        ));
        let text = draw::board(style, game, &panel);
        if let Err(e) = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
        {
            log::debug!("console output: {e}");
        }
    }

    /// After the game changed: passes for a side without a move, Iago's moves for the colours
    /// it plays (with `autoplay`), then the board, and the result when the game is over.
    fn settle(&mut self, autoplay: bool) {
        loop {
            self.auto_pass();
            let game = self.game();
            if game.is_over() || !autoplay || !self.settings.mode.plays(game.position().to_move) {
                break;
            }
            if !self.engine_move() {
                break;
            }
            if self.settings.mode == Mode::Both && !self.game().is_over() {
                self.draw();
            }
        }
        self.draw();
        if self.game().is_over() {
            let result = draw::result(self.game());
            self.say(format!(
                "Game over: {result}. new starts another game, undo takes moves back."
            ));
        }
    }

    /// Passes for the side to move when it has no move and the game goes on.
    fn auto_pass(&mut self) {
        let game = self.game();
        if game.is_over() || !game.must_pass() {
            return;
        }
        let color = game.position().to_move;
        match self.engine.play(Move::Pass) {
            Ok(()) => self.say(format!("{} has no legal move and passes.", color.name())),
            Err(e) => self.error(e),
        }
    }

    fn play_moves(&mut self, text: &str) {
        if self.game().is_over() {
            self.error("the game is over: new starts another, undo takes moves back");
            return;
        }
        let mut game = self.game().clone();
        match game.play_transcript(text) {
            Ok(()) => {
                self.engine.set_game(game);
                self.redo.clear();
                self.settle(true);
            }
            Err(e) => self.error(e),
        }
    }

    fn pass(&mut self) {
        let game = self.game();
        if game.is_over() {
            self.error("the game is over");
        } else if !game.must_pass() {
            let color = game.position().to_move;
            self.error(format!(
                "{} has a legal move: a pass is allowed only without one",
                color.name()
            ));
        } else {
            self.auto_pass();
            self.redo.clear();
            self.settle(true);
        }
    }

    /// Iago plays the side to move.
    fn go(&mut self) {
        if self.game().is_over() {
            self.error("the game is over: new starts another, undo takes moves back");
            return;
        }
        if self.engine_move() {
            self.redo.clear();
            self.settle(true);
        }
    }

    /// Iago searches and plays the side to move; false when stopped (nothing played).
    fn engine_move(&mut self) -> bool {
        let color = self.game().position().to_move;
        let request = SearchRequest::play(self.settings.level.limits());
        let (result, stopped) =
            self.stoppable(|engine, observer| engine.search(&request, observer));
        if stopped {
            self.say("Stopped: the game is as it was (go lets Iago move).");
            return false;
        }
        if let Err(e) = self.engine.play(result.best_move) {
            self.error(format!("Iago's move {}: {e}", result.best_move));
            return false;
        }
        self.redo.clear();
        self.say(format!(
            "Iago plays {} for {}: {}",
            draw::move_name(result.best_move),
            color.name(),
            describe(&result)
        ));
        true
    }

    /// Runs `job` on the engine with a stop Ctrl-C reaches and the progress shown; returns
    /// its value and whether it was stopped.
    fn stoppable<T>(
        &mut self,
        job: impl FnOnce(&mut Engine, &mut (dyn FnMut(&SearchResult) + Send)) -> T,
    ) -> (T, bool) {
        let stop = self.engine.stop_handle();
        let _interruptible = Interruptible::new(stop.clone());
        let progress = self.settings.progress;
        let out = &mut self.out;
        let start = Instant::now();
        let mut observer = |result: &SearchResult| {
            if progress {
                let line = progress_line(result, start.elapsed());
                // Best effort: the progress line is redrawn at the next iteration.
                let _ = write!(out, "\r\x1b[K{line}").and_then(|()| out.flush());
            }
        };
        let value = job(&mut self.engine, &mut observer);
        if progress {
            let _ = write!(self.out, "\r\x1b[K").and_then(|()| self.out.flush());
        }
        (value, stop.is_stopped())
    }

    /// Runs `step` up to `turns` times, until it does nothing; whether it did something.
    fn repeat(&mut self, turns: usize, step: fn(&mut Console) -> bool) -> bool {
        let mut done = 0;
        while done < turns && step(self) {
            done += 1;
        }
        done > 0
    }

    fn undo(&mut self, turns: usize) {
        if !self.repeat(turns, Console::undo_turn) {
            self.error("nothing to undo");
        } else {
            self.draw();
        }
    }

    /// Takes back the last move and the passes after it; in a game against Iago, back to the
    /// person's turn. False at the start.
    fn undo_turn(&mut self) -> bool {
        let mut took = false;
        loop {
            while self.game().moves().last().is_some_and(|m| m.is_pass()) {
                let pass = self.engine.undo().expect("a pass to take back");
                self.redo.push(pass);
            }
            let Some(mv) = self.engine.undo() else {
                return took;
            };
            self.redo.push(mv);
            took = true;
            let mode = self.settings.mode;
            let game = self.game();
            if !(mode.is_match() && mode.plays(game.position().to_move)) || game.moves().is_empty()
            {
                return true;
            }
        }
    }

    fn redo(&mut self, turns: usize) {
        if !self.repeat(turns, Console::redo_turn) {
            self.error("nothing to redo");
        } else {
            self.settle(false);
        }
    }

    /// Plays again the move `undo` took back last, the passes after it and, in a game against
    /// Iago, its reply. False when there is none.
    fn redo_turn(&mut self) -> bool {
        let Some(mv) = self.redo.pop() else {
            return false;
        };
        if self.engine.play(mv).is_err() {
            self.redo.clear();
            return false;
        }
        let mode = self.settings.mode;
        while let Some(&next) = self.redo.last() {
            let to_move = self.game().position().to_move;
            if !(next.is_pass() || mode.is_match() && mode.plays(to_move)) {
                break;
            }
            self.redo.pop();
            if self.engine.play(next).is_err() {
                self.redo.clear();
                break;
            }
        }
        true
    }

    /// The `n` best moves with their scores, book moves marked.
    fn hint(&mut self, n: usize) {
        if self.game().is_over() {
            self.error("the game is over");
            return;
        }
        let book = self.engine.book_moves();
        let request = SearchRequest::analyze(self.settings.level.limits());
        let (hints, stopped) = self.stoppable(|engine, observer| {
            engine.hint(n, &request, &mut |rows: &[SearchResult]| {
                if let Some(best) = rows.first() {
                    observer(best);
                }
            })
        });
        if stopped {
            self.say("Stopped; the moves found so far:");
        }
        let to_move = self.game().position().to_move;
        self.say(format!(
            "     move  score ({})  depth       book  line",
            to_move.name()
        ));
        // Best first by score: a later search of a depth can come out above an earlier one.
        let mut moves = hints.moves;
        moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        for (rank, result) in moves.iter().enumerate() {
            let in_book = book
                .iter()
                .find(|choice| choice.mv == result.best_move)
                .map_or(String::new(), |choice| format!("{:+}", choice.value));
            self.say(format!(
                "{:>4}. {:<4} {:>+6}{:<9}{:<11} {:>5}  {}",
                rank + 1,
                draw::move_name(result.best_move),
                result.score,
                bound_mark(result.bound),
                result.depth_text(),
                in_book,
                line(&result.pv, 10)
            ));
        }
        if !book.is_empty() {
            let moves: Vec<String> = book
                .iter()
                .map(|c| format!("{} {:+}", c.mv, c.value))
                .collect();
            self.say(format!("book: {}", moves.join(", ")));
        }
    }

    /// Solves the position exactly, stopping after `limit`.
    fn solve(&mut self, limit: Duration) {
        let game = self.game();
        if game.is_over() {
            let result = draw::result(game);
            self.say(format!("The game is over: {result}."));
            return;
        }
        let (rules, state) = (game.rules(), game.state());
        let empties = rules.empty_count(&state.position.board);
        let to_move = state.position.to_move;
        let stop = self.engine.stop_handle();
        let interruptible = Interruptible::new(stop.clone());
        let deadline = Deadline::start(stop, limit);
        let solved = if self.settings.progress {
            self.solve_showing_progress(rules, &state, empties, limit)
        } else {
            self.engine.solve(rules, &state, SolveMode::Exact)
        };
        let timed_out = deadline.finish();
        drop(interruptible);
        match solved {
            Ok(report) => {
                let s = &report.solution;
                let outcome = Outcome::for_color(to_move, s.score);
                self.say(format!(
                    "exact score {:+} for {} ({outcome}), {empties} empties; line {}",
                    s.score,
                    to_move.name(),
                    line(&s.pv, 60)
                ));
                self.say(format!(
                    "{} nodes in {:.2} s",
                    s.nodes,
                    report.elapsed.as_secs_f64()
                ));
            }
            Err(_) if timed_out => self.error(format!(
                "not solved within {} s ({empties} empties); solve SECS allows more",
                limit.as_secs_f64()
            )),
            Err(_) => self.say("Stopped: the position is not solved."),
        }
    }

    /// Solves `state` (with `empties` empty squares) on a thread of its own while a line shows
    /// its progress, redrawn every [`PROGRESS_EVERY`]: the iteration, the nodes and the time.
    fn solve_showing_progress(
        &mut self,
        rules: Rules,
        state: &State,
        empties: u32,
        limit: Duration,
    ) -> Result<SolveReport, Stopped> {
        let progress = Progress::new();
        let start = Instant::now();
        let (engine, out) = (&mut self.engine, &mut self.out);
        let show = |out: &mut Box<dyn Write + Send>, text: String| {
            // Best effort: the line is redrawn at the next tick.
            let _ = write!(out, "\r\x1b[K{text}").and_then(|()| out.flush());
        };
        show(
            out,
            format!(
                "solving {empties} empties (at most {} s; Ctrl-C stops)...",
                limit.as_secs_f64()
            ),
        );
        let solved = std::thread::scope(|scope| {
            let (done, finished) = channel::<()>();
            let solving = scope.spawn(|| {
                let solved = engine.solve_watched(rules, state, SolveMode::Exact, &progress);
                drop(done);
                solved
            });
            while finished.recv_timeout(PROGRESS_EVERY) == Err(RecvTimeoutError::Timeout) {
                show(
                    out,
                    solve_progress_line(empties, &progress, start.elapsed()),
                );
            }
            solving.join().expect("the solve does not panic")
        });
        show(out, String::new());
        solved
    }

    /// Sets up a game as a paste box reads `text` ([`read_paste`]): a board string (16, 36 or
    /// 64 squares and the side to move, or an OBF line) under the current rules at its size, a
    /// transcript from the start of the current rules, or a GGF game under its own rules.
    fn set_board(&mut self, text: &str) {
        match read_paste(text, self.engine.rules()) {
            Ok(pasted) => {
                self.engine.set_game(pasted.game);
                self.redo.clear();
                self.settle(false);
            }
            Err(e) => self.error(e),
        }
    }

    /// Loads the first game (GGF, transcript) or position (OBF, board line) of a file.
    fn load(&mut self, path: &str) {
        let text = match read_text_file(Path::new(path)) {
            Ok(text) => text,
            Err(e) => return self.error(format!("cannot read {path}: {e}")),
        };
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with(['#', '%', ';']));
        let Some(first) = first else {
            return self.error(format!("{path}: no game or position in the file"));
        };
        if looks_like_board(first) && !first.contains("(;") {
            match read_paste(first, self.engine.rules()) {
                Ok(Pasted { game, .. }) => {
                    self.engine.set_game(game);
                    self.redo.clear();
                    self.say(format!("Loaded the position of {path}."));
                    self.settle(false);
                }
                Err(e) => self.error(format!("{path}: {e}")),
            }
            return;
        }
        let games = read_games(&text, path, self.engine.rules());
        let count = games.len();
        match games.into_iter().next() {
            None => self.error(format!("{path}: no game or position in the file")),
            Some(Err(e)) => self.error(e),
            Some(Ok(played)) => {
                let moves = played.game.moves().len();
                self.engine.set_game(played.game);
                self.redo.clear();
                let of = if count > 1 {
                    format!(" (the first of {count} games)")
                } else {
                    String::new()
                };
                self.say(format!(
                    "Loaded {} vs {}, {moves} moves{of}.",
                    played.players[0], played.players[1]
                ));
                self.settle(false);
            }
        }
    }

    /// The players' names for a record: Iago for the colours it plays.
    fn players(&self) -> [String; 2] {
        [Color::Black, Color::White].map(|c| {
            if self.settings.mode.plays(c) {
                "Iago".to_string()
            } else {
                c.name().to_string()
            }
        })
    }

    /// Saves the game as GGF.
    fn save(&mut self, path: &str) {
        let mut ggf = GgfGame::from_game(self.game());
        let [black, white] = self.players();
        ggf.tags.push(("PB".into(), black));
        ggf.tags.push(("PW".into(), white));
        if self.game().is_over() {
            ggf.tags
                .push(("RE".into(), self.game().final_score_for_black().to_string()));
        }
        match std::fs::write(path, format!("{ggf}\n")) {
            Ok(()) => self.say(format!(
                "Saved the game ({} moves) to {path}.",
                self.game().moves().len()
            )),
            Err(e) => self.error(format!("cannot write {path}: {e}")),
        }
    }

    /// Reviews the game's moves: the discs each lost.
    fn review(&mut self) {
        if self.game().moves().iter().all(|m| m.is_pass()) {
            self.error("no moves to review");
            return;
        }
        let played = PlayedGame {
            game: self.game().clone(),
            players: self.players(),
            line: 1,
            tags: Vec::new(),
        };
        let depth = match self.settings.level {
            Level::Depth(depth) => depth,
            Level::Time(_) | Level::Named(_) => crate::review::DEFAULT_DEPTH,
        };
        let options = ReviewOptions::whole_game(depth, crate::review::DEFAULT_EXACT_FROM);
        let total = played.game.moves().iter().filter(|m| !m.is_pass()).count();
        let stop = self.engine.stop_handle();
        let interruptible = Interruptible::new(stop.clone());
        let progress = self.settings.progress;
        let out = &mut self.out;
        let mut done = 0;
        // At the selectivity of analysis, as `iago review`; the games go on at that of play.
        let play = self.engine.options().selectivity;
        self.engine.set_selectivity(ANALYSIS_SELECTIVITY);
        let reviewed = review_game(&mut self.engine, &played, 1, &options, &mut |_| {
            done += 1;
            if progress {
                let _ = write!(out, "\r\x1b[Kreviewing: move {done} of {total}")
                    .and_then(|()| out.flush());
            }
        });
        self.engine.set_selectivity(play);
        drop(interruptible);
        if progress {
            let _ = write!(self.out, "\r\x1b[K").and_then(|()| self.out.flush());
        }
        let reviews = match reviewed {
            Ok(reviews) => reviews,
            Err(e) => return self.error(e),
        };
        if stop.is_stopped() {
            self.say(format!("Stopped after {} of {total} moves:", reviews.len()));
        }
        let mut summary = ReviewSummary::default();
        for r in &reviews {
            summary.add(r);
        }
        let written = crate::review::write_table(&mut self.out, &played, 1, &reviews, depth)
            .and_then(|()| crate::review::write_summary(&mut self.out, &summary));
        if let Err(e) = written {
            log::debug!("console output: {e}");
        }
    }
}

/// Stops a generation after a time unless finished first.
struct Deadline {
    cancel: Sender<()>,
    thread: Option<JoinHandle<bool>>,
}

impl Deadline {
    fn start(stop: StopHandle, after: Duration) -> Deadline {
        let (cancel, cancelled) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("iago-deadline".into())
            .spawn(move || {
                let fired = matches!(
                    cancelled.recv_timeout(after),
                    Err(RecvTimeoutError::Timeout)
                );
                if fired {
                    stop.stop();
                }
                fired
            })
            .inspect_err(|e| log::warn!("no time limit: {e}"))
            .ok();
        Deadline { cancel, thread }
    }

    /// Ends the wait; whether the time ran out first.
    fn finish(self) -> bool {
        drop(self.cancel);
        self.thread.is_some_and(|t| t.join().unwrap_or(false))
    }
}

/// How Iago's move was found: its score, depth, time and line.
fn describe(result: &SearchResult) -> String {
    match result.source {
        Source::Book => format!("{:+} from the book", result.score),
        Source::Forced if result.best_move.is_pass() => "no move".to_string(),
        Source::Forced => format!("{:+}, the only move", result.score),
        Source::Search => format!(
            "{:+}{} at depth {} in {:.2} s; line {}",
            result.score,
            bound_mark(result.bound),
            result.depth_text(),
            result.time.as_secs_f64(),
            line(&result.pv, 10)
        ),
    }
}

/// What a score proves, after it: nothing for an estimate.
fn bound_mark(bound: Bound) -> &'static str {
    match bound {
        Bound::Estimate => "",
        Bound::WinLossDraw => " (w/l/d)",
        Bound::Exact => " (exact)",
    }
}

/// The first `most` moves of a line.
fn line(pv: &[Move], most: usize) -> String {
    let mut text: Vec<String> = pv.iter().take(most).map(|&m| draw::move_name(m)).collect();
    if pv.len() > most {
        text.push("...".into());
    }
    text.join(" ")
}

/// How often the line of a running solve is redrawn.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// A solve's progress in one line of at most 78 characters: `solving 26 empties: 18@87%,
/// 35.2 M nodes, 2.0 s`, the iteration `exact` once the exact search runs.
fn solve_progress_line(empties: u32, progress: &Progress, elapsed: Duration) -> String {
    let iteration = match progress.iteration() {
        Some((_, s)) if !s.is_selective() => "exact".to_string(),
        Some((depth, s)) => format!("{depth}@{}%", s.percent()),
        None => "starting".to_string(),
    };
    let text = format!(
        "solving {empties} empties: {iteration}, {:.1} M nodes, {:.1} s (Ctrl-C stops)",
        progress.nodes() as f64 / 1e6,
        elapsed.as_secs_f64()
    );
    text.chars().take(78).collect()
}

/// A search's progress in one line of at most 78 characters.
fn progress_line(result: &SearchResult, elapsed: Duration) -> String {
    let text = format!(
        "thinking: depth {}  {:+}  {:.1} s  {}",
        result.depth_text(),
        result.score,
        elapsed.as_secs_f64(),
        line(&result.pv, 8)
    );
    text.chars().take(78).collect()
}
