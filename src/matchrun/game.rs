//! One game between two players: the referee loop (forced passes, clocks, timeouts, legality)
//! and the record it leaves, written as GGF.

use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;

use super::openings::Opening;
use super::player::{Failure, MoveRequest, Player};
use super::spec::{GameLimits, seconds_text};
use crate::board::{Color, Game, Move, Position};
use crate::records::ggf::TimeControl;
use crate::records::ggf::{GgfGame, MoveItem};

/// Why a game ended before its last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Forfeit {
    /// Over its time (clock, time per move, move timeout or game timeout).
    Time,
    /// The engine process died or could not be started.
    Crash,
    /// A reply the referee could not read, or a command the engine refused.
    Protocol,
    /// An illegal move.
    Illegal,
    /// The engine resigned (GTP `resign`).
    Resign,
}

impl Forfeit {
    /// `lost on time`, `crashed`, …
    pub fn describe(self) -> &'static str {
        match self {
            Forfeit::Time => "lost on time",
            Forfeit::Crash => "crashed",
            Forfeit::Protocol => "broke the protocol",
            Forfeit::Illegal => "played an illegal move",
            Forfeit::Resign => "resigned",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to the end: Black's disc difference, empties to the winner.
    Finished {
        /// Black minus White.
        score_for_black: i32,
    },
    /// One side lost by forfeit.
    Forfeited {
        /// The colour that lost.
        loser: Color,
        /// Why.
        reason: Forfeit,
        /// The details (`took 1.52 s, 1.00 s allowed`, `exited with status 1`, …).
        message: String,
    },
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 0-based game number in the match.
    pub index: usize,
    /// 0-based round (two games per round, colours swapped).
    pub round: usize,
    /// The opening played.
    pub opening: Opening,
    /// Which engine of the match (0 or 1) played Black; the other played White.
    pub black_engine: usize,
    /// Names of Black and White.
    pub names: [String; 2],
    /// Limits of Black and White.
    pub limits: [GameLimits; 2],
    /// The start position (the standard start; the opening moves are in `moves`).
    pub start: Position,
    /// Every move with the colour that played it; engine moves carry their evaluation (discs,
    /// mover's view) and time (seconds).
    pub moves: Vec<(Color, MoveItem)>,
    /// How it ended.
    pub outcome: Outcome,
    /// When it began.
    pub started: SystemTime,
}

impl GameRecord {
    /// Black's disc difference; a forfeit counts as a loss by the whole board (64-0 on 8×8).
    pub fn score_for_black(&self) -> i32 {
        let squares = self.opening.game.rules().squares() as i32;
        match &self.outcome {
            Outcome::Finished { score_for_black } => *score_for_black,
            Outcome::Forfeited { loser, .. } => match loser {
                Color::Black => -squares,
                Color::White => squares,
            },
        }
    }

    /// The colour engine `engine` (0 or 1) played.
    pub fn color_of(&self, engine: usize) -> Color {
        if engine == self.black_engine {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The game's points for engine `engine`: 1, ½ or 0.
    pub fn points_for(&self, engine: usize) -> f64 {
        let score = match self.color_of(engine) {
            Color::Black => self.score_for_black(),
            Color::White => -self.score_for_black(),
        };
        match score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }

    /// The disc difference for engine `engine` when the game was played to the end.
    pub fn discs_for(&self, engine: usize) -> Option<i32> {
        match self.outcome {
            Outcome::Finished { score_for_black } => Some(match self.color_of(engine) {
                Color::Black => score_for_black,
                Color::White => -score_for_black,
            }),
            Outcome::Forfeited { .. } => None,
        }
    }

    /// The GGF `RE` value: `+12`, `0`, `-6`; forfeits `+64:t` (time) or `-64:r` (any other).
    pub fn result_text(&self) -> String {
        let score = self.score_for_black();
        let number = if score == 0 {
            "0".to_string()
        } else {
            format!("{score:+}")
        };
        match &self.outcome {
            Outcome::Finished { .. } => number,
            Outcome::Forfeited { reason, .. } => {
                let flag = if *reason == Forfeit::Time { "t" } else { "r" };
                format!("{number}:{flag}")
            }
        }
    }

    /// The game as GGF, the way NBoard writes it (`GM PC DT PB PW RE TI TY BO` and the moves),
    /// with a `CO` comment giving the limits and, for a forfeit, its reason.
    pub fn to_ggf(&self) -> GgfGame {
        let mut comment = format!(
            "iago match game {}: {} (Black) {}; {} (White) {}",
            self.index + 1,
            self.names[0],
            self.limits[0],
            self.names[1],
            self.limits[1]
        );
        if let Outcome::Forfeited {
            loser,
            reason,
            message,
        } = &self.outcome
        {
            let name = &self.names[color_index(*loser)];
            comment.push_str(&format!(
                "; {name} ({loser}) {}: {message}",
                reason.describe()
            ));
        }
        let clocks = [self.limits[0].clock, self.limits[1].clock];
        let mut ggf = ggf_header(
            &self.names,
            clocks,
            &self.result_text(),
            self.started,
            self.start,
            self.opening.game.rules(),
        );
        ggf.tags.push(("CO".into(), comment));
        ggf.moves = self.moves.clone();
        ggf
    }
}

/// The forfeit a player's failure causes, and its message; `time` explains a timeout.
fn forfeit_of(failure: &Failure, time: Option<&str>) -> (Forfeit, String) {
    match failure {
        Failure::Timeout => (
            Forfeit::Time,
            time.unwrap_or("no reply in time").to_string(),
        ),
        Failure::Crash(m) => (Forfeit::Crash, m.clone()),
        Failure::Protocol(m) => (Forfeit::Protocol, m.clone()),
        Failure::Resign => (Forfeit::Resign, "resign".into()),
    }
}

/// `GM PC DT PB PW RE`, the clock (`TI`, or `TB` and `TW` when they differ; `TI[0:00]` without
/// a clock) and `TY` (`8`, or the size and `a` for anti), with the start position and no moves.
pub(crate) fn ggf_header(
    names: &[String; 2],
    clocks: [Option<TimeControl>; 2],
    result: &str,
    started: SystemTime,
    start: Position,
    rules: crate::board::Rules,
) -> GgfGame {
    let mut tags: Vec<(String, String)> = vec![
        ("GM".into(), "Othello".into()),
        ("PC".into(), "iago match".into()),
        ("DT".into(), date_text(started)),
        ("PB".into(), names[0].clone()),
        ("PW".into(), names[1].clone()),
        ("RE".into(), result.into()),
    ];
    let text = |c: Option<TimeControl>| c.map_or_else(|| "0:00".to_string(), |c| c.to_string());
    if clocks[0] == clocks[1] {
        tags.push(("TI".into(), text(clocks[0])));
    } else {
        tags.push(("TB".into(), text(clocks[0])));
        tags.push(("TW".into(), text(clocks[1])));
    }
    tags.push(("TY".into(), rules.ggf_type()));
    GgfGame {
        tags,
        start,
        moves: Vec::new(),
    }
}

/// `yyyy-MM-dd HH:mm:ss GMT`, as NBoard writes `DT`.
pub(crate) fn date_text(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} GMT",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

pub(crate) fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Everything the referee needs to run one game.
pub(crate) struct GameSetup<'a> {
    pub index: usize,
    pub round: usize,
    pub opening: &'a Opening,
    /// Which engine (0 or 1) plays Black.
    pub black_engine: usize,
    /// Names of engine 0 and engine 1.
    pub names: [&'a str; 2],
    /// Limits of engine 0 and engine 1.
    pub limits: [GameLimits; 2],
    /// What the clocks of engine 0 and engine 1 are charged for each move beyond its time.
    pub overheads: [Duration; 2],
    /// Tolerance over an allotted time before a loss on time.
    pub margin: Duration,
    /// Longest wait for a move when neither a clock nor a time per move bounds it.
    pub move_timeout: Duration,
    /// Longest game, if bounded.
    pub game_timeout: Option<Duration>,
}

/// Plays one game; `players` are engine 0 and engine 1. Forced passes are played by the
/// referee; every other move is asked for, timed and checked.
pub(crate) fn play_game(setup: &GameSetup<'_>, players: [&mut dyn Player; 2]) -> GameRecord {
    let mut players = players;
    if setup.black_engine == 1 {
        players.swap(0, 1);
    }
    // Now players[0] is Black and players[1] White.
    let mut referee = Referee::new(setup);
    referee.record.outcome = referee.play(&mut players);
    referee.record
}

/// A game being refereed: the game so far, its record and the clocks.
struct Referee<'a> {
    setup: &'a GameSetup<'a>,
    /// Limits of Black and White.
    limits: [GameLimits; 2],
    /// What the clocks of Black and White are charged for each move beyond its time.
    overheads: [Duration; 2],
    /// When the game timeout runs out, if there is one.
    game_deadline: Option<Instant>,
    game: Game,
    record: GameRecord,
    /// The clocks of Black and White.
    clocks: [Option<TimeControl>; 2],
    /// Time left on each clock.
    remaining: [Option<Duration>; 2],
    /// The GGF header sent with every move request.
    header: GgfGame,
}

impl<'a> Referee<'a> {
    /// The game after the opening, with Black's and White's names and limits, its record
    /// holding the opening moves.
    fn new(setup: &'a GameSetup<'a>) -> Referee<'a> {
        let engine_of = |color: Color| match color {
            Color::Black => setup.black_engine,
            Color::White => 1 - setup.black_engine,
        };
        let names = [
            setup.names[engine_of(Color::Black)].to_string(),
            setup.names[engine_of(Color::White)].to_string(),
        ];
        let limits = [
            setup.limits[engine_of(Color::Black)],
            setup.limits[engine_of(Color::White)],
        ];
        let overheads = [
            setup.overheads[engine_of(Color::Black)],
            setup.overheads[engine_of(Color::White)],
        ];
        let started = SystemTime::now();
        let begin = Instant::now();
        let game_deadline = setup.game_timeout.map(|t| begin + t);
        let game = setup.opening.game.clone();
        let mut record = GameRecord {
            index: setup.index,
            round: setup.round,
            opening: setup.opening.clone(),
            black_engine: setup.black_engine,
            names: names.clone(),
            limits,
            start: game.start(),
            moves: Vec::new(),
            outcome: Outcome::Finished { score_for_black: 0 },
            started,
        };
        for (state, &mv) in game.states().zip(game.moves()) {
            record.moves.push((state.to_move(), MoveItem::new(mv)));
        }
        let clocks = [limits[0].clock, limits[1].clock];
        let remaining = clocks.map(|c| c.map(|c| c.base));
        let header = ggf_header(&names, clocks, "?", started, game.start(), game.rules());
        Referee {
            setup,
            limits,
            overheads,
            game_deadline,
            game,
            record,
            clocks,
            remaining,
            header,
        }
    }

    /// Starts the game with both players and plays it out: how it ended.
    fn play(&mut self, players: &mut [&mut dyn Player; 2]) -> Outcome {
        for color in [Color::Black, Color::White] {
            let i = color_index(color);
            if let Err(failure) = players[i].start_game(&self.game, &self.limits[i]) {
                let (reason, message) = forfeit_of(&failure, None);
                return forfeited(color, reason, format!("at the start: {message}"));
            }
        }
        loop {
            let position = self.game.position();
            if self.game.is_over() {
                return Outcome::Finished {
                    score_for_black: self.game.final_score_for_black(),
                };
            }
            let color = position.to_move;
            if self.game.must_pass() {
                self.game.play(Move::Pass).expect("a forced pass is legal");
                self.record.moves.push((color, MoveItem::new(Move::Pass)));
                continue;
            }
            let i = color_index(color);
            if let Err(outcome) = self.engine_move(color, &mut *players[i]) {
                return outcome;
            }
        }
    }

    /// Asks `player` (of `color`) for a move, times and checks it, and plays it; a forfeit
    /// ends the game. A move on a clock is charged its time and the mover's overhead.
    fn engine_move(&mut self, color: Color, player: &mut dyn Player) -> Result<(), Outcome> {
        let i = color_index(color);
        let limit = self.limits[i];
        let overhead = match self.remaining[i] {
            Some(_) => self.overheads[i],
            None => Duration::ZERO,
        };
        // What the mover may spend, and when the referee stops waiting.
        let allotted = self.remaining[i].or(limit.move_time);
        let (wait, by_game_timeout) = self.wait(allotted);
        let wait = wait.saturating_sub(overhead);
        let mut ggf = self.header.clone();
        ggf.moves = self.record.moves.clone();
        let request = MoveRequest {
            game: &self.game,
            ggf: &ggf,
            limit: &limit,
            remaining: self.remaining[i],
            deadline: Some(Instant::now() + wait),
        };
        let start = Instant::now();
        let reply = player.play(&request);
        let elapsed = start.elapsed();
        let charged = elapsed + overhead;
        let time = MoveTime {
            setup: self.setup,
            remaining: self.remaining[i],
            move_time: limit.move_time,
            by_game_timeout,
            elapsed: charged,
            overhead,
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(failure) => {
                let (reason, message) = forfeit_of(&failure, Some(&time.message(false)));
                return Err(forfeited(color, reason, message));
            }
        };
        if elapsed > wait {
            return Err(forfeited(color, Forfeit::Time, time.message(true)));
        }
        if reply.mv.is_pass() || self.game.play(reply.mv).is_err() {
            let why = match self.game.rules().play(&self.game.state(), reply.mv) {
                Err(e) => e.to_string(),
                Ok(_) => "legal".into(),
            };
            return Err(forfeited(
                color,
                Forfeit::Illegal,
                format!("{} ({why})", reply.mv.to_uppercase()),
            ));
        }
        if let (Some(left), Some(clock)) = (self.remaining[i], self.clocks[i]) {
            self.remaining[i] = Some(left.saturating_sub(charged) + clock.increment);
        }
        self.record.moves.push((
            color,
            MoveItem {
                mv: reply.mv,
                eval: reply.eval.filter(|e| e.is_finite()),
                time: Some(charged.as_secs_f64()),
            },
        ));
        Ok(())
    }

    /// How long to wait for a move the mover is `allotted`, and whether the game timeout
    /// shortened the wait.
    fn wait(&self, allotted: Option<Duration>) -> (Duration, bool) {
        let mut wait = allotted.map_or(self.setup.move_timeout, |a| a + self.setup.margin);
        let mut by_game_timeout = false;
        if let Some(deadline) = self.game_deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < wait {
                wait = left;
                by_game_timeout = true;
            }
        }
        (wait, by_game_timeout)
    }
}

/// A loss by forfeit of `loser`.
fn forfeited(loser: Color, reason: Forfeit, message: String) -> Outcome {
    Outcome::Forfeited {
        loser,
        reason,
        message,
    }
}

/// What one move was allowed and took, for the message of a loss on time.
struct MoveTime<'a> {
    setup: &'a GameSetup<'a>,
    /// The mover's clock before the move.
    remaining: Option<Duration>,
    /// The mover's time per move.
    move_time: Option<Duration>,
    /// Whether the game timeout set the wait.
    by_game_timeout: bool,
    /// The overhead charged on top of the move's time (included in `elapsed`).
    overhead: Duration,
    /// How long the move took.
    elapsed: Duration,
}

impl MoveTime<'_> {
    /// The time spent against the time allowed; `answered`: whether a move came.
    fn message(&self, answered: bool) -> String {
        let setup = self.setup;
        let elapsed = self.elapsed;
        let mut spent = if answered {
            format!("took {:.2} s", elapsed.as_secs_f64())
        } else {
            format!("no move after {:.2} s", elapsed.as_secs_f64())
        };
        if !self.overhead.is_zero() {
            spent.push_str(&format!(
                " ({} s of overhead included)",
                seconds_text(self.overhead)
            ));
        }
        if self.by_game_timeout {
            let total = seconds_text(setup.game_timeout.unwrap_or_default());
            return format!("{spent}: the game timeout ({total} s) ran out");
        }
        let margin = seconds_text(setup.margin);
        match (self.remaining, self.move_time) {
            (Some(left), _) => format!(
                "{spent} with {:.2} s left on its clock (margin {margin} s)",
                left.as_secs_f64()
            ),
            (None, Some(t)) => format!(
                "{spent}, {} s per move (margin {margin} s)",
                seconds_text(t)
            ),
            (None, None) => format!(
                "{spent}: the move timeout is {} s",
                seconds_text(setup.move_timeout)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchrun::player::{Failure, MoveRequest, Player, Reply};

    /// Plays the first legal move at once.
    struct Quick;

    impl Player for Quick {
        fn start_game(&mut self, _: &Game, _: &GameLimits) -> Result<(), Failure> {
            Ok(())
        }
        fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
            let moves = request.game.legal_moves();
            let first = crate::board::Square::from_index_unchecked(moves.trailing_zeros() as u8);
            Ok(Reply {
                mv: Move::Play(first),
                eval: None,
            })
        }
    }

    /// A game of two instant players on `tc=1+0`, engine 0 (Black) charged `overhead` a move.
    fn instant_game(overhead: Duration) -> GameRecord {
        let opening = super::super::openings::Opening::start();
        let clock = GameLimits {
            clock: Some(TimeControl {
                base: Duration::from_secs(1),
                increment: Duration::ZERO,
                grace: Duration::ZERO,
            }),
            ..GameLimits::default()
        };
        let setup = GameSetup {
            index: 0,
            round: 0,
            opening: &opening,
            black_engine: 0,
            names: ["A", "B"],
            limits: [clock, clock],
            overheads: [overhead, Duration::ZERO],
            margin: Duration::ZERO,
            move_timeout: Duration::from_secs(10),
            game_timeout: None,
        };
        play_game(&setup, [&mut Quick, &mut Quick])
    }

    #[test]
    fn a_clock_is_charged_the_overhead_of_every_move() {
        let record = instant_game(Duration::from_millis(20));
        assert!(matches!(record.outcome, Outcome::Finished { .. }));
        let timed = record.moves.iter().filter_map(|(c, m)| Some((c, m.time?)));
        assert!(timed.clone().count() > 40);
        for (color, time) in timed {
            match color {
                Color::Black => assert!((0.02..0.1).contains(&time), "{time}"),
                Color::White => assert!(time < 0.05, "{time}"),
            }
        }
        // 100 ms a move: the clock of 1 s runs out within a dozen moves.
        let record = instant_game(Duration::from_millis(100));
        match record.outcome {
            Outcome::Forfeited {
                loser,
                reason,
                ref message,
            } => {
                assert_eq!((loser, reason), (Color::Black, Forfeit::Time));
                assert!(
                    message.contains("(0.1 s of overhead included)"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
        let black_moves = (record.moves.iter())
            .filter(|(c, m)| *c == Color::Black && m.time.is_some())
            .count();
        assert_eq!(black_moves, 9, "{:?}", record.moves);
    }

    fn record(outcome: Outcome) -> GameRecord {
        let opening = super::super::openings::parse_openings("f5d6c3", "t")
            .unwrap()
            .remove(0);
        let mut moves = Vec::new();
        let mut position = Position::start();
        for &mv in opening.game.moves() {
            moves.push((position.to_move, MoveItem::new(mv)));
            position = position.try_play(mv).unwrap();
        }
        moves.push((
            Color::White,
            MoveItem {
                mv: Move::parse("d3").unwrap(),
                eval: Some(-1.0),
                time: Some(0.52),
            },
        ));
        GameRecord {
            index: 4,
            round: 2,
            opening,
            black_engine: 1,
            names: ["Iago-d4".into(), "NTest".into()],
            limits: [
                GameLimits {
                    depth: Some(4),
                    ..GameLimits::default()
                },
                GameLimits {
                    clock: Some(TimeControl {
                        base: Duration::from_secs(60),
                        increment: Duration::from_millis(500),
                        grace: Duration::ZERO,
                    }),
                    ..GameLimits::default()
                },
            ],
            start: Position::start(),
            moves,
            outcome,
            started: SystemTime::UNIX_EPOCH + Duration::from_secs(1_392_015_147),
        }
    }

    #[test]
    fn ggf_round_trip() {
        let r = record(Outcome::Forfeited {
            loser: Color::Black,
            reason: Forfeit::Time,
            message: "took 2.00 s, 1.00 s allowed".into(),
        });
        let text = r.to_ggf().to_string();
        assert!(
            text.starts_with("(;GM[Othello]PC[iago match]DT[2014-02-10 06:52:27 GMT]PB[Iago-d4]PW[NTest]RE[-64:t]TB[0:00]TW[1:00/0:00.5/0:00]TY[8]CO["),
            "{text}"
        );
        assert!(text.ends_with("BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3/-1.00/0.52];)"), "{text}");
        let parsed = GgfGame::parse(&text).unwrap();
        assert_eq!(parsed, r.to_ggf());
        assert_eq!(parsed.tag("RE"), Some("-64:t"));
        assert!(
            parsed
                .tag("CO")
                .unwrap()
                .contains("Iago-d4 (Black) lost on time")
        );
        let game = parsed.game().unwrap();
        assert_eq!(game.transcript(false), "f5d6c3d3");
        assert_eq!(
            parsed.time_control(Color::White).unwrap().increment,
            Duration::from_millis(500)
        );
        assert_eq!(parsed.time_control(Color::Black), None);
        // Engine 1 played Black and lost.
        assert_eq!((r.points_for(1), r.points_for(0)), (0.0, 1.0));
        assert_eq!(r.discs_for(0), None);
    }

    #[test]
    fn finished_results() {
        let r = record(Outcome::Finished {
            score_for_black: 12,
        });
        assert_eq!(r.result_text(), "+12");
        assert_eq!((r.discs_for(1), r.discs_for(0)), (Some(12), Some(-12)));
        assert_eq!(r.points_for(1), 1.0);
        let r = record(Outcome::Finished { score_for_black: 0 });
        assert_eq!((r.result_text(), r.points_for(0)), ("0".into(), 0.5));
        let mut r = record(Outcome::Finished {
            score_for_black: -2,
        });
        r.limits = [GameLimits::default(); 2];
        let text = r.to_ggf().to_string();
        assert!(text.contains("RE[-2]TI[0:00]TY[8]"), "{text}");
        let r = record(Outcome::Forfeited {
            loser: Color::White,
            reason: Forfeit::Crash,
            message: "exited".into(),
        });
        assert_eq!(r.result_text(), "+64:r");
    }

    #[test]
    fn dates() {
        assert_eq!(date_text(SystemTime::UNIX_EPOCH), "1970-01-01 00:00:00 GMT");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_661);
        assert_eq!(date_text(leap), "2000-02-29 01:01:01 GMT");
    }
}
