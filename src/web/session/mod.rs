//! One client of the page: its game tree, its settings and its one search. Messages in are
//! turned into changes of the tree and into searches of the pool, as a protocol session turns
//! commands into engine requests; after each change the whole state goes out. The search
//! belongs to the session: it stops when the client stops it, plays a move, goes elsewhere in
//! the game (a review goes on) or leaves.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;

use super::Shared;
mod events;

use super::clock::GameClock;
use super::messages::{ClientMessage, LevelMessage, ServerMessage};
use super::pool::{Event, Job, Work};
use super::tree::Tree;
use super::view::{self, StateView};
use crate::board::{Color, Game, Move, Rules};
use crate::console::{Level, Mode};
use crate::records::PlayedGame;
use crate::records::ggf::GgfGame;
use crate::review::ReviewOptions;
use crate::search::{Limits, SolveMode};

/// The depth of a review unless the page asks for another: a game of 60 moves in about ten
/// seconds on two threads.
pub(crate) const REVIEW_DEPTH: u32 = 12;

/// Positions with at most this many empties are solved exactly by a review.
pub(crate) const REVIEW_EXACT_FROM: u32 = 18;

/// The deepest review a page may ask for.
const MAX_REVIEW_DEPTH: u32 = 30;

/// A review run: the nodes of the line reviewed, by ply.
struct ReviewRun {
    nodes: Vec<usize>,
    depth: u32,
    exact_from: u32,
    complete: bool,
}

/// A client's session.
pub(crate) struct Session {
    shared: Arc<Shared>,
    tree: Tree,
    mode: Mode,
    level: Level,
    clock: Option<GameClock>,
    values_on: bool,
    /// The node whose values search was stopped: not started again there.
    values_halted: Option<usize>,
    /// Iago does not move by itself until the person plays or says go.
    paused: bool,
    job: Option<Job>,
    jobs: u64,
    review: Option<ReviewRun>,
    /// The mode of the last solve asked for.
    solve_mode: SolveMode,
    /// The nodes `undo` left, the last one to go back to last.
    redo: Vec<usize>,
    /// The nodes with values kept, the oldest first.
    valued: std::collections::VecDeque<usize>,
    events: mpsc::UnboundedSender<(u64, Event)>,
    /// Messages to send.
    out: Vec<ServerMessage>,
    /// Whether the state changed since it was last sent.
    dirty: bool,
    /// Whether the values of the node shown changed since they were last sent.
    values_dirty: bool,
}

impl Session {
    /// A session of a new client: a new game of Othello, Iago playing White, at the server's
    /// level; and the receiver of its searches' events.
    pub fn new(shared: Arc<Shared>) -> (Session, mpsc::UnboundedReceiver<(u64, Event)>) {
        let (events, received) = mpsc::unbounded_channel();
        let level = shared.level;
        let mut session = Session {
            shared,
            tree: Tree::new(Rules::OTHELLO),
            mode: Mode::White,
            level,
            clock: None,
            values_on: false,
            values_halted: None,
            paused: false,
            job: None,
            jobs: 0,
            review: None,
            solve_mode: SolveMode::Exact,
            redo: Vec::new(),
            valued: std::collections::VecDeque::new(),
            events,
            out: Vec::new(),
            dirty: true,
            values_dirty: false,
        };
        session
            .out
            .push(ServerMessage::Hello(session.shared.hello()));
        (session, received)
    }

    /// The messages to send now: the queued ones, then the state and the values when they
    /// changed.
    pub fn take_messages(&mut self) -> Vec<ServerMessage> {
        if self.dirty {
            self.dirty = false;
            self.values_dirty = false;
            let state = self.state_view();
            self.out.push(ServerMessage::State(Box::new(state)));
        } else if self.values_dirty {
            self.values_dirty = false;
            if let Some(values) = self.values_view() {
                self.out.push(ServerMessage::Values(values));
            }
        }
        std::mem::take(&mut self.out)
    }

    /// The kind of the search under way (`play`, `values`, `solve`, `review`), if any.
    pub fn job(&self) -> Option<&'static str> {
        self.job.as_ref().map(|j| j.kind)
    }

    /// When the clock of the side to move runs out, if it runs.
    pub fn flag_deadline(&self) -> Option<Instant> {
        self.clock.as_ref().and_then(GameClock::deadline)
    }

    /// The clock ran out: the side to move loses on time.
    pub fn on_flag(&mut self) {
        if let Some(clock) = &mut self.clock {
            clock.update(None);
            if clock.flagged().is_some() {
                self.job = None;
                self.dirty = true;
            }
        }
    }

    fn error(&mut self, message: impl Into<String>) {
        self.out.push(ServerMessage::Error {
            message: message.into(),
        });
    }

    /// Reads one text message and acts on it.
    pub fn on_text(&mut self, text: &str) {
        match super::messages::parse(text) {
            Ok(message) => self.on_message(message),
            Err(e) => self.error(e),
        }
    }

    fn on_message(&mut self, message: ClientMessage) {
        match message {
            ClientMessage::New { rules } => self.new_game(rules.as_deref()),
            ClientMessage::Play { mv } => self.play(&mv),
            ClientMessage::Go => self.go(),
            ClientMessage::Stop => self.stop(),
            ClientMessage::Goto { node } => {
                if let Err(e) = self.navigate(|tree| tree.goto(node).map(|()| true)) {
                    self.error(e.to_string());
                }
            }
            ClientMessage::Back => self.step(super::tree::Tree::back),
            ClientMessage::Forward => self.step(super::tree::Tree::forward),
            ClientMessage::Start => self.step(|t| {
                t.go_start();
                true
            }),
            ClientMessage::End => self.step(|t| {
                t.go_end();
                true
            }),
            ClientMessage::Undo => self.undo(),
            ClientMessage::Redo => self.redo(),
            ClientMessage::Promote => {
                self.tree.promote();
                self.dirty = true;
            }
            ClientMessage::Values { on } => {
                self.values_on = on;
                self.values_halted = None;
                if !on && self.job.as_ref().is_some_and(|j| j.kind == "values") {
                    self.end_job();
                }
                self.dirty = true;
                self.settle(false);
            }
            ClientMessage::Solve { mode } => self.solve(mode.as_deref()),
            ClientMessage::Review { depth } => self.review(depth),
            ClientMessage::Paste { text } => {
                let rules = self.tree.rules();
                match crate::records::paste::read_paste(&text, rules) {
                    Ok(pasted) => self.load(&pasted.game),
                    Err(e) => self.error(e.to_string()),
                }
            }
            ClientMessage::Fragment { text } => match view::read_fragment(&text) {
                Ok(game) => self.load(&game),
                Err(e) => self.error(e.to_string()),
            },
            ClientMessage::Settings { iago, level, clock } => self.settings(iago, level, clock),
            ClientMessage::Ggf => {
                let text = self.ggf();
                self.out.push(ServerMessage::Ggf { text });
            }
        }
    }

    /// Ends the search, whatever it is.
    fn end_job(&mut self) {
        if self.job.take().is_some() {
            self.out.push(ServerMessage::Busy {
                job: None,
                queued: 0,
            });
        }
    }

    /// Ends the search unless it is a review (which is about the game, not the position).
    fn end_position_job(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.kind != "review") {
            self.end_job();
        }
    }

    fn new_game(&mut self, rules: Option<&str>) {
        let rules = match rules {
            None => self.tree.rules(),
            Some(name) => match parse_rules(name) {
                Ok(rules) => rules,
                Err(e) => return self.error(e),
            },
        };
        self.end_job();
        self.tree = Tree::new(rules);
        self.after_load();
        self.paused = false;
        self.settle(true);
    }

    /// A game read from a paste, a file or a link: its line shown to the end, Iago waiting.
    fn load(&mut self, game: &Game) {
        self.end_job();
        self.tree = Tree::from_game(game);
        self.after_load();
        self.paused = true;
        self.settle(false);
    }

    fn after_load(&mut self) {
        self.review = None;
        self.valued.clear();
        self.redo.clear();
        self.values_halted = None;
        if let Some(clock) = &mut self.clock {
            clock.reset();
        }
        self.dirty = true;
        self.update_clock(None);
    }

    fn play(&mut self, text: &str) {
        let mv = match parse_move(text, self.tree.rules()) {
            Ok(mv) => mv,
            Err(e) => return self.error(e),
        };
        if self.tree.is_over() {
            return self
                .error("the game is over: new starts another, undo or the move list goes back");
        }
        let to_move = self.tree.state().to_move();
        if self.mode.plays(to_move) && !self.paused && self.tree.at_end() {
            return self.error(format!(
                "it is Iago's move ({}): stop it first, or change who Iago plays",
                to_move.name()
            ));
        }
        if self.clock.as_ref().is_some_and(|c| c.flagged().is_some()) && self.tree.at_end() {
            // The clock fell: the game goes on without one.
            self.clock = None;
        }
        let before = self.tree.current();
        match self.tree.play(mv) {
            Ok(_) => {
                self.end_position_job();
                self.redo.clear();
                self.paused = false;
                self.dirty = true;
                self.update_clock(Some((before, to_move)));
                self.settle(true);
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn go(&mut self) {
        if self.tree.is_over() {
            return self.error("the game is over");
        }
        self.end_job();
        self.paused = false;
        self.start_play();
    }

    fn stop(&mut self) {
        if let Some(job) = &self.job {
            match job.kind {
                "play" => self.paused = true,
                "values" => self.values_halted = Some(job.node),
                _ => {}
            }
        }
        if self.mode == Mode::Both {
            self.paused = true;
        }
        self.end_job();
        self.dirty = true;
    }

    /// Moves in the tree with `step`; the search of the position ends, Iago waits.
    fn step(&mut self, step: impl FnOnce(&mut Tree) -> bool) {
        // A step past either end changes nothing and is no error.
        let _ = self.navigate(|tree| Ok::<bool, super::tree::TreeError>(step(tree)));
    }

    fn navigate<E>(&mut self, go: impl FnOnce(&mut Tree) -> Result<bool, E>) -> Result<(), E> {
        let before = self.tree.current();
        go(&mut self.tree)?;
        if self.tree.current() != before {
            self.end_position_job();
            self.paused = true;
            self.redo.clear();
            self.dirty = true;
            self.update_clock(None);
            self.settle(false);
        }
        Ok(())
    }

    /// Takes back a turn: to the person's last move in a game against Iago, else one move.
    fn undo(&mut self) {
        let left = self.tree.current();
        if !self.tree.back() {
            return self.error("nothing to undo");
        }
        if self.mode.is_match() {
            while self.mode.plays(self.tree.state().to_move()) && self.tree.back() {}
        }
        self.end_position_job();
        self.redo.push(left);
        self.paused = self.mode == Mode::Both || self.mode.plays(self.tree.state().to_move());
        self.dirty = true;
        self.update_clock(None);
        self.settle(false);
    }

    /// Goes back to where the last `undo` left.
    fn redo(&mut self) {
        let Some(target) = self.redo.pop() else {
            return self.error("nothing to redo");
        };
        if self.tree.goto(target).is_err() {
            self.redo.clear();
            return self.error("nothing to redo");
        }
        self.end_position_job();
        self.paused = true;
        self.dirty = true;
        self.update_clock(None);
        self.settle(false);
    }

    fn settings(
        &mut self,
        iago: Option<String>,
        level: Option<LevelMessage>,
        clock: Option<Option<super::messages::ClockMessage>>,
    ) {
        // Everything is checked before anything changes.
        let mode = match iago.as_deref().map(str::to_ascii_lowercase) {
            None => None,
            Some(word) => match Mode::parse(&word) {
                Some(mode) => Some(mode),
                None => return self.error("iago is white, black, both or none"),
            },
        };
        let level = match level.map(|l| self.shared.check_level(l)) {
            None => None,
            Some(Ok(level)) => Some(level),
            Some(Err(e)) => return self.error(e),
        };
        let clock = match clock {
            None => None,
            Some(None) => Some(None),
            Some(Some(c)) => match GameClock::new(c.minutes, c.increment) {
                Ok(clock) => Some(Some(clock)),
                Err(e) => return self.error(e),
            },
        };
        if let Some(level) = level {
            self.level = level;
        }
        if let Some(clock) = clock {
            self.clock = clock;
            self.update_clock(None);
        }
        if let Some(mode) = mode {
            let changed = mode != self.mode;
            self.mode = mode;
            if changed {
                if self.job.as_ref().is_some_and(|j| j.kind == "play") {
                    self.end_job();
                }
                self.paused = false;
            }
        }
        self.dirty = true;
        self.settle(true);
    }

    fn solve(&mut self, mode: Option<&str>) {
        let mode = match mode.unwrap_or("exact") {
            "exact" => SolveMode::Exact,
            "wld" => SolveMode::WinLossDraw,
            _ => return self.error("solve's mode is exact or wld"),
        };
        if self.tree.is_over() {
            return self.error("the game is over: nothing to solve");
        }
        self.end_job();
        self.solve_mode = mode;
        let (rules, state) = (self.tree.rules(), self.tree.state());
        let work = Work::Solve { rules, state, mode };
        self.start_job(work);
    }

    fn review(&mut self, depth: Option<u32>) {
        let depth = depth.unwrap_or(REVIEW_DEPTH);
        if !(1..=MAX_REVIEW_DEPTH).contains(&depth) {
            return self.error(format!("a review's depth is 1 to {MAX_REVIEW_DEPTH}"));
        }
        let game = self.tree.line_game();
        if game.moves().iter().all(|m| m.is_pass()) {
            return self.error("no moves to review");
        }
        self.end_job();
        let line = self.tree.line();
        for &node in &line {
            if let Some(n) = self.tree.node_mut(node) {
                n.review = None;
            }
        }
        let exact_from = REVIEW_EXACT_FROM;
        self.review = Some(ReviewRun {
            nodes: line,
            depth,
            exact_from,
            complete: false,
        });
        let played = PlayedGame {
            game,
            players: self.players(),
            line: 1,
            tags: Vec::new(),
        };
        let options = ReviewOptions::whole_game(depth, exact_from);
        self.dirty = true;
        self.start_job(Work::Review {
            played: Box::new(played),
            options,
        });
    }

    /// The players' names: Iago for the colours it plays.
    fn players(&self) -> [String; 2] {
        [Color::Black, Color::White].map(|c| {
            if self.mode.plays(c) {
                "Iago".to_string()
            } else {
                c.name().to_string()
            }
        })
    }

    fn ggf(&self) -> String {
        let game = self.tree.line_game();
        let mut ggf = GgfGame::from_game(&game);
        let [black, white] = self.players();
        ggf.tags.push(("PB".into(), black));
        ggf.tags.push(("PW".into(), white));
        if game.is_over() {
            ggf.tags
                .push(("RE".into(), game.final_score_for_black().to_string()));
        }
        ggf.to_string()
    }

    /// After a change: Iago's move when it is to play (with `autoplay`), else the values of
    /// the position when they are shown; a search of another position ends.
    fn settle(&mut self, autoplay: bool) {
        let node = self.tree.current();
        let running = self.job.as_ref().map(|j| (j.kind, j.node));
        if matches!(running, Some(("review" | "solve", _))) {
            return;
        }
        let over = self.tree.is_over();
        let to_move = self.tree.state().to_move();
        let flagged = self.clock.as_ref().is_some_and(|c| c.flagged().is_some());
        if autoplay
            && !self.paused
            && !over
            && !flagged
            && self.mode.plays(to_move)
            && self.tree.at_end()
        {
            if running != Some(("play", node)) {
                self.end_job();
                self.start_play();
            }
            return;
        }
        if running == Some(("play", node)) {
            return;
        }
        if self.values_on && !over && self.values_halted != Some(node) {
            if running != Some(("values", node)) {
                self.end_job();
                self.preview_values();
                let game = self.tree.game_to(node);
                self.start_job(Work::Values { game });
            }
            return;
        }
        if running.is_some_and(|(_, n)| n != node) || running.is_some_and(|(k, _)| k == "values") {
            self.end_job();
        }
    }

    /// Iago searches the position shown to play it.
    fn start_play(&mut self) {
        let to_move = self.tree.state().to_move();
        let mut limits = self.level.limits();
        if let Some(clock) = self.clock.as_ref().filter(|c| c.flagged().is_none()) {
            limits = Limits {
                depth: limits.depth,
                move_time: None,
                clock: Some(clock.limits(to_move)),
            };
        }
        let game = self.tree.game_to(self.tree.current());
        let level = self.level.playing();
        self.start_job(Work::Play {
            game,
            limits,
            level,
        });
    }

    fn start_job(&mut self, work: Work) {
        self.jobs += 1;
        let kind = work.name();
        let job = Job::start(
            &self.shared.pool,
            self.jobs,
            self.tree.current(),
            work,
            self.shared.max_search,
            self.events.clone(),
        );
        self.job = Some(job);
        self.out.push(ServerMessage::Busy {
            job: Some(kind),
            queued: 0,
        });
    }

    /// Charges the clock for the time since the last change; `moved`: the node and the colour
    /// of a move just made.
    fn update_clock(&mut self, moved: Option<(usize, Color)>) {
        let running = self.tree.at_end() && !self.tree.is_over();
        let to_move = self.tree.state().to_move();
        if let Some(clock) = &mut self.clock {
            clock.update(moved.map(|(_, c)| c));
            if running {
                clock.start(to_move);
            }
        }
    }

    fn values_view(&self) -> Option<view::ValuesView> {
        let node = self.tree.current();
        let values = self.tree.node(node)?.values.as_ref()?;
        let done = !self
            .job
            .as_ref()
            .is_some_and(|j| j.kind == "values" && j.node == node);
        Some(view::values(node, values, done))
    }

    fn state_view(&self) -> StateView {
        let board = view::board(&self.tree);
        let node = self.tree.current();
        let line = self.tree.line();
        let line_game = self.tree.line_game();
        let rules = self.tree.rules();
        let book = match &self.shared.pool.loaded().book {
            Some(book) if rules.is_standard() => {
                view::book(&book.moves(&self.tree.state().board()))
            }
            _ => Vec::new(),
        };
        let review = self.review.as_ref().map(|run| {
            let rows: Vec<&crate::review::MoveReview> = run
                .nodes
                .iter()
                .filter_map(|&n| self.tree.node(n).and_then(|n| n.review.as_ref()))
                .collect();
            view::review(&rows, run.depth, run.exact_from, run.complete)
        });
        let mut result = board.result;
        if let Some(color) = self.clock.as_ref().and_then(GameClock::flagged) {
            result = Some(format!(
                "{} lost on time: {} wins",
                color.name(),
                color.opposite().name()
            ));
        }
        StateView {
            rules: rules.to_string(),
            size: rules.size,
            squares: board.squares,
            to_move: board.to_move,
            black: board.counts[0],
            white: board.counts[1],
            empty: board.counts[2],
            left: board.left,
            legal: board.legal,
            last: board.last,
            flipped: board.flipped,
            result,
            node,
            line,
            nodes: view::nodes(&self.tree),
            transcript: line_game.transcript(false),
            fragment: view::fragment(rules, &line_game.start(), line_game.moves()),
            iago: match self.mode {
                Mode::Neither => "none",
                Mode::Black => "black",
                Mode::White => "white",
                Mode::Both => "both",
            },
            level: match self.level {
                Level::Depth(d) => LevelMessage::Depth(d),
                Level::Time(t) => LevelMessage::Time(t.as_secs_f64()),
                Level::Named(level) => LevelMessage::Level(level.number()),
            },
            clock: self.clock.as_ref().map(GameClock::view),
            book,
            values_on: self.values_on,
            values: self.values_view(),
            review,
        }
    }
}

/// Rules named in a message, checked.
fn parse_rules(name: &str) -> Result<Rules, String> {
    let rules: Rules = name
        .parse()
        .map_err(|e: crate::board::rules::ParseRulesError| e.to_string())?;
    rules.check_supported().map_err(|e| e.to_string())?;
    Ok(rules)
}

/// A move named in a message: a square of the board (`f5`) or a pass.
fn parse_move(text: &str, rules: Rules) -> Result<Move, String> {
    let mv = Move::parse(text.trim()).map_err(|e| format!("move: {e}"))?;
    if let Move::Play(sq) = mv
        && !rules.contains(sq)
    {
        return Err(format!("{sq} is off the {0}x{0} board", rules.size));
    }
    Ok(mv)
}
