//! Engine-vs-engine matches (`iago match`): two engines play pairs of games from a list of
//! openings, colours swapped within each pair; the result is a score, an Elo difference with
//! its 95% confidence interval, optionally an SPRT verdict, and every game as GGF.
//!
//! # Engines
//!
//! Each engine is a spec of comma-separated items, `key=value` or a bare word (`\,` puts a comma
//! into a value):
//!
//! | item | meaning |
//! |---|---|
//! | `iago` | Iago in the match process |
//! | `cmd=COMMAND LINE` | an external program, split on whitespace like NBoard does; a relative path with a `/` is taken from `dir` |
//! | `dir=PATH` | the working directory of `cmd` |
//! | `proto=nboard\|gtp` | the protocol of `cmd` (default `nboard`) |
//! | `name=NAME` | one word, for reports and the GGF `PB`/`PW` (default `Iago-d4`, or the program's name) |
//! | `depth=N` | search depth (NBoard sends `set depth N`; GTP has no depth command, give it on the engine's command line) |
//! | `time=SECS` | time per move (in-process and GTP via `time_settings 0 SECS 1`; NBoard has no such setting) |
//! | `tc=BASE[+INC]` | a game clock, seconds or `m:ss`, e.g. `60+0.5` (NBoard: `TI` in the GGF of `set game`; GTP: `time_settings` and `time_left`) |
//! | `threads=N`, `hash=MB`, `eval=FILE\|hand`, `book`, `book=FILE`, `book=off`, `nobook` | in-process Iago only (defaults: 1 thread, 16 MiB, the embedded evaluation, no book) |
//!
//! Examples: `name=Iago4,iago,depth=4`; `name=NTest,cmd=./ntest x,dir=/opt/ntest,depth=4`;
//! `cmd=iago gtp --threads 1 --depth 2,proto=gtp`.
//!
//! An engine with any of `depth`, `time`, `tc` uses exactly those; otherwise the match's
//! `--depth`, `--move-time`, `--tc` apply. The search stops at the first limit reached.
//! NBoard engines always get a depth, 60 when only a clock is set: an engine whose depth
//! overrides its clock (NTest does) needs `depth=` next to `tc=`. The command line is split on
//! whitespace without quoting, so paths with spaces need `dir=` and a relative program.
//!
//! # Refereeing
//!
//! Forced passes are played by the referee. Every other move is timed: with a clock or a time
//! per move, a move that takes longer than the time left plus `--time-margin` loses on time;
//! otherwise `--move-timeout` bounds the wait; `--game-timeout` bounds a whole game. A process
//! that dies, an unreadable reply, a refused command or an illegal move loses the game and is
//! reported; a failed process is killed and started again for the next game, and the match goes
//! on. A forfeit is recorded as a 64-0 loss (`RE[-64:t]` for time, `:r` otherwise).
//!
//! NBoard engines are driven like NBoard's own `NBoardSyncEngine`: `clear` before each game, then
//! for each move `set game <GGF>`, `set depth`, `ping N`, `go`, and the first `=== move` after
//! `pong N`; other lines are ignored. GTP engines
//! get `boardsize 8`, `clear_board`, `play b f5` for each move they have not seen (passes left
//! out), and `genmove w`.
//!
//! # Openings and schedule
//!
//! `--openings FILE` holds one transcript a line from the standard start (XOT lists, `#`
//! comments). Each round plays one opening twice, colours swapped: `--rounds N` gives `2N` games.
//! Openings are taken in file order, or shuffled with `--random` (`--seed S` to repeat a
//! match). Without a file, every game starts from the standard position. `--concurrency N`
//! plays N games at once, each worker with its own engines.
//!
//! # Results
//!
//! Scores are from the first engine's view: a win is 1, a draw ½. The Elo difference is
//! logistic (`-400 log10(1/s - 1)`), with a 95% interval from the per-game (trinomial) variance.
//! `--sprt elo0 elo1 alpha beta` stops the match when the GSPRT log-likelihood ratio leaves
//! `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`. `--ggf FILE` appends each game as one GGF line.

pub mod external;
pub mod game;
pub mod openings;
pub(crate) mod player;
pub mod spec;
pub mod stats;
pub mod tournament;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use self::external::{GtpPlayer, NboardPlayer, StartError, check_startable};
use self::game::{Forfeit, GameRecord, GameSetup, Outcome, play_game};
use self::openings::Opening;
use self::player::{IagoPlayer, Player};
use self::spec::{EngineKind, EngineSpec, GameLimits};
use self::stats::{EloEstimate, Sprt, SprtDecision, Tally};
use crate::board::Color;
use crate::protocol::Protocol;

/// A match, ready to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's view.
    pub engines: [EngineSpec; 2],
    /// The rules of every game.
    pub rules: crate::board::Rules,
    /// The openings (at least one; [`Opening::start`] for none).
    pub openings: Vec<Opening>,
    /// Where the openings came from (for the summary).
    pub openings_source: String,
    /// Rounds of two games.
    pub rounds: usize,
    /// `Some(seed)`: openings in a seeded random order.
    pub random_seed: Option<u64>,
    /// The limit of engines whose spec sets none.
    pub limit: GameLimits,
    /// Tolerance over an allotted time.
    pub time_margin: Duration,
    /// Longest wait for a move without a clock or time per move.
    pub move_timeout: Duration,
    /// Longest game.
    pub game_timeout: Option<Duration>,
    /// Games at once.
    pub concurrency: usize,
    /// Early stop by SPRT.
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// A match of `rounds` rounds from the standard start with these engines and default limit;
    /// 0.2 s time margin, 60 s move timeout, one game at a time.
    pub fn new(engines: [EngineSpec; 2], limit: GameLimits, rounds: usize) -> MatchConfig {
        MatchConfig {
            engines,
            rules: crate::board::Rules::OTHELLO,
            openings: vec![Opening::start()],
            openings_source: "the standard start".into(),
            rounds,
            random_seed: None,
            limit,
            time_margin: Duration::from_millis(200),
            move_timeout: Duration::from_secs(60),
            game_timeout: None,
            concurrency: 1,
            sprt: None,
        }
    }
}

/// Why a match could not start: its settings, or an engine that cannot be set up. (Once the
/// games run, what goes wrong in them is a forfeit, not an error.)
#[derive(Debug, Error)]
pub enum MatchError {
    /// Two engines with one name (the reports and the GGF could not tell them apart).
    #[error("both engines are named {0}: give one a name= in its spec")]
    SameName(String),
    /// An empty list of openings.
    #[error("no openings")]
    NoOpenings,
    /// A concurrency of zero.
    #[error("--concurrency must be at least 1")]
    NoConcurrency,
    /// An engine without a depth, a time or a clock.
    #[error(
        "engine {0} has no limit: give --depth, --move-time or --tc, or depth=, time= or tc= in its spec"
    )]
    NoLimit(String),
    /// An NBoard engine given only a time per move.
    #[error(
        "engine {0} speaks NBoard, which has no time per move: give it depth= or a clock (tc=)"
    )]
    NboardMoveTime(String),
    /// The evaluation or the book of an in-process engine cannot be read.
    #[error("engine {name}: {}", spec_words(error))]
    Load {
        /// The engine.
        name: String,
        /// Why.
        #[source]
        error: crate::engine::LoadError,
    },
    /// An external engine cannot be started.
    #[error("engine {name}: {error}")]
    Start {
        /// The engine.
        name: String,
        /// Why.
        #[source]
        error: StartError,
    },
}

/// A loading error in the words of an engine spec: a weight file is named by `eval=`.
fn spec_words(error: &crate::engine::LoadError) -> String {
    match error {
        crate::engine::LoadError::Eval { name, error } => format!("eval={name}: {error}"),
        error => error.to_string(),
    }
}

/// Forfeits of one engine, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Forfeits {
    /// Losses on time (clock, time per move, move or game timeout).
    pub time: u32,
    /// Crashes (the process died or could not start).
    pub crash: u32,
    /// Protocol errors.
    pub protocol: u32,
    /// Illegal moves.
    pub illegal: u32,
    /// Resignations.
    pub resign: u32,
}

impl Forfeits {
    fn add(&mut self, reason: Forfeit) {
        match reason {
            Forfeit::Time => self.time += 1,
            Forfeit::Crash => self.crash += 1,
            Forfeit::Protocol => self.protocol += 1,
            Forfeit::Illegal => self.illegal += 1,
            Forfeit::Resign => self.resign += 1,
        }
    }
}

/// The state of the SPRT at the end of a match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtState {
    /// The test.
    #[serde(flatten)]
    pub test: Sprt,
    /// The log-likelihood ratio over all games played.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// The decision and the number of games when it was reached.
    pub decision: Option<SprtDecision>,
    /// Games played when the decision was reached.
    pub decided_after: Option<u32>,
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Names of the two engines.
    pub names: [String; 2],
    /// Their limits.
    pub limits: [GameLimits; 2],
    /// Games scheduled (`2 × rounds`).
    pub scheduled: usize,
    /// The games played, in schedule order.
    pub games: Vec<GameRecord>,
    /// The first engine's wins, draws and losses.
    pub tally: Tally,
    /// Forfeits of each engine.
    pub forfeits: [Forfeits; 2],
    /// The SPRT, if one ran.
    pub sprt: Option<SprtState>,
    /// The opening seed of a random order.
    pub seed: Option<u64>,
    /// Wall time of the match.
    pub elapsed: Duration,
}

impl MatchReport {
    /// The Elo difference of the first engine.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.tally.elo()
    }

    /// The first engine's mean disc difference over the games played to the end.
    pub fn average_discs(&self) -> Option<f64> {
        let discs: Vec<i32> = self.games.iter().filter_map(|g| g.discs_for(0)).collect();
        (!discs.is_empty()).then(|| discs.iter().sum::<i32>() as f64 / discs.len() as f64)
    }

    /// The time engine `engine` (0 or 1) spent on its moves, as the runner measured it.
    pub fn time_use(&self, engine: usize) -> TimeUse {
        let mut used = TimeUse::default();
        for game in &self.games {
            let color = game.color_of(engine);
            let times: Vec<f64> = (game.moves.iter())
                .filter(|(c, _)| *c == color)
                .filter_map(|(_, item)| item.time)
                .collect();
            used.games += 1;
            used.moves += times.len();
            used.seconds += times.iter().sum::<f64>();
            if let Some(clock) = self.limits[engine].clock {
                let moves = times.len() as u32;
                used.clock_seconds += (clock.base + clock.increment * moves).as_secs_f64();
            }
        }
        used
    }

    /// Games won by Black, by White, and drawn.
    pub fn by_color(&self) -> (usize, usize, usize) {
        let count =
            |f: &dyn Fn(i32) -> bool| self.games.iter().filter(|g| f(g.score_for_black())).count();
        (count(&|s| s > 0), count(&|s| s < 0), count(&|s| s == 0))
    }
}

/// The time an engine spent on its moves over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeUse {
    /// Games played.
    pub games: usize,
    /// Moves the engine chose (the openings' moves are not its own).
    pub moves: usize,
    /// Seconds spent on them.
    pub seconds: f64,
    /// The time its clock gave it over those games (zero without a clock).
    pub clock_seconds: f64,
}

impl TimeUse {
    /// Mean milliseconds a move.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| 1000.0 * self.seconds / self.moves as f64)
    }

    /// Mean seconds a game.
    pub fn seconds_per_game(&self) -> Option<f64> {
        (self.games > 0).then(|| self.seconds / self.games as f64)
    }

    /// The share of its clock it used (0 to 1), with a clock.
    pub fn clock_share(&self) -> Option<f64> {
        (self.clock_seconds > 0.0).then(|| self.seconds / self.clock_seconds)
    }
}

/// [`TimeUse`] in the JSON summary.
#[derive(Serialize, Debug)]
pub struct TimeSummary {
    /// Mean milliseconds a move.
    pub ms_per_move: Option<f64>,
    /// Mean seconds a game.
    pub seconds_per_game: Option<f64>,
    /// The share of its clock used (0 to 1), with a clock.
    pub clock_share: Option<f64>,
}

/// Progress after each game, for a live display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games finished.
    pub done: usize,
    /// Games scheduled.
    pub total: usize,
    /// The first engine's tally so far.
    pub tally: Tally,
    /// The SPRT's log-likelihood ratio so far.
    pub llr: Option<f64>,
}

/// An engine ready to make players (one per worker): its spec, its limit, and for Iago the
/// evaluation and book, read once for all its players.
struct EngineSetup {
    spec: EngineSpec,
    limit: GameLimits,
    loaded: Option<crate::engine::Loaded>,
}

impl EngineSetup {
    fn prepare(spec: &EngineSpec, default: &GameLimits) -> Result<EngineSetup, MatchError> {
        let limit = spec.effective_limit(default);
        let name = &spec.name;
        let no_limit = || MatchError::NoLimit(name.clone());
        let mut setup = EngineSetup {
            spec: spec.clone(),
            limit,
            loaded: None,
        };
        match &spec.kind {
            EngineKind::Iago(options) => {
                if limit.is_empty() {
                    return Err(no_limit());
                }
                let loaded = options.load().map_err(|error| MatchError::Load {
                    name: name.clone(),
                    error,
                })?;
                setup.loaded = Some(loaded);
            }
            EngineKind::External(external) => {
                match external.protocol {
                    Protocol::Nboard => {
                        if limit.depth.is_none() && limit.clock.is_none() {
                            if limit.move_time.is_some() {
                                return Err(MatchError::NboardMoveTime(name.clone()));
                            }
                            return Err(no_limit());
                        }
                        if limit.move_time.is_some() {
                            log::warn!(
                                "engine {name}: NBoard has no time per move; the time per move only bounds the wait"
                            );
                        }
                    }
                    Protocol::Gtp => {
                        if limit.depth.is_some() {
                            log::warn!(
                                "engine {name}: GTP has no depth command; its own command line sets the depth"
                            );
                        }
                    }
                }
                check_startable(external, name)?;
            }
        }
        Ok(setup)
    }

    fn player(&self) -> Box<dyn Player> {
        match &self.spec.kind {
            EngineKind::Iago(options) => Box::new(IagoPlayer::new(
                options.clone(),
                self.loaded.clone().expect("loaded in prepare"),
            )),
            EngineKind::External(external) => match external.protocol {
                Protocol::Nboard => Box::new(NboardPlayer::new(external.clone(), &self.spec.name)),
                Protocol::Gtp => Box::new(GtpPlayer::new(external.clone(), &self.spec.name)),
            },
        }
    }
}

/// Shared between the workers.
struct Shared {
    games: Vec<GameRecord>,
    tally: Tally,
    forfeits: [Forfeits; 2],
    decision: Option<(SprtDecision, u32)>,
}

/// Plays a match. `on_game` sees every game as it ends (in the order they end), with the
/// progress so far; it runs under a lock, so games are reported one at a time.
pub fn play_match(
    config: &MatchConfig,
    on_game: &(dyn Fn(&GameRecord, &Progress) + Sync),
) -> Result<MatchReport, MatchError> {
    check_config(config)?;
    let setups = [
        EngineSetup::prepare(&config.engines[0], &config.limit)?,
        EngineSetup::prepare(&config.engines[1], &config.limit)?,
    ];
    let total = config.rounds * 2;
    let order = openings::schedule(config.openings.len(), config.rounds, config.random_seed);
    let names = [setups[0].spec.name.as_str(), setups[1].spec.name.as_str()];
    let limits = [setups[0].limit, setups[1].limit];
    let begin = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared {
        games: Vec::with_capacity(total),
        tally: Tally::default(),
        forfeits: [Forfeits::default(); 2],
        decision: None,
    });
    let worker = || {
        let mut players = [setups[0].player(), setups[1].player()];
        while !stop.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= total {
                break;
            }
            let round = index / 2;
            let setup = GameSetup {
                index,
                round,
                opening: &config.openings[order[round]],
                black_engine: index % 2,
                names,
                limits,
                margin: config.time_margin,
                move_timeout: config.move_timeout,
                game_timeout: config.game_timeout,
            };
            let [a, b] = &mut players;
            let record = play_game(&setup, [a.as_mut(), b.as_mut()]);
            let mut state = shared.lock().unwrap_or_else(|p| p.into_inner());
            let progress = state.count(&record, config.sprt, total, &stop);
            on_game(&record, &progress);
            state.games.push(record);
        }
        for player in &mut players {
            player.quit();
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(total.max(1)) {
            scope.spawn(worker);
        }
    });
    let state = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(state.report(config, names, limits, total, begin))
}

/// The checks of a match's configuration before any engine is prepared.
fn check_config(config: &MatchConfig) -> Result<(), MatchError> {
    if config.engines[0].name == config.engines[1].name {
        return Err(MatchError::SameName(config.engines[0].name.clone()));
    }
    if config.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    if config.concurrency == 0 {
        return Err(MatchError::NoConcurrency);
    }
    Ok(())
}

impl Shared {
    /// Counts a finished game in the tally, the forfeits and the SPRT (setting `stop` when the
    /// test decides): the progress with it, of `total` games.
    fn count(
        &mut self,
        record: &GameRecord,
        sprt: Option<Sprt>,
        total: usize,
        stop: &AtomicBool,
    ) -> Progress {
        self.tally.add(record.points_for(0));
        if let Outcome::Forfeited { loser, reason, .. } = &record.outcome {
            let engine = if *loser == Color::Black {
                record.black_engine
            } else {
                1 - record.black_engine
            };
            self.forfeits[engine].add(*reason);
        }
        let llr = sprt.map(|s| s.llr(&self.tally));
        if self.decision.is_none()
            && let Some(decision) = sprt.and_then(|s| s.decide(&self.tally))
        {
            self.decision = Some((decision, self.tally.games()));
            stop.store(true, Ordering::Relaxed);
        }
        Progress {
            done: self.games.len() + 1,
            total,
            tally: self.tally,
            llr,
        }
    }

    /// The report of the match once every worker is done (games in schedule order).
    fn report(
        mut self,
        config: &MatchConfig,
        names: [&str; 2],
        limits: [GameLimits; 2],
        total: usize,
        begin: Instant,
    ) -> MatchReport {
        self.games.sort_by_key(|g| g.index);
        let sprt = config.sprt.map(|test| {
            let (lower, upper) = test.bounds();
            SprtState {
                test,
                llr: test.llr(&self.tally),
                lower,
                upper,
                decision: self.decision.map(|d| d.0),
                decided_after: self.decision.map(|d| d.1),
            }
        });
        MatchReport {
            names: [names[0].to_string(), names[1].to_string()],
            limits,
            scheduled: total,
            games: self.games,
            tally: self.tally,
            forfeits: self.forfeits,
            sprt,
            seed: config.random_seed,
            elapsed: begin.elapsed(),
        }
    }
}

/// The JSON summary of a match.
#[derive(Serialize, Debug)]
pub struct MatchSummary {
    /// The two engines; results are from the first one's view.
    pub engines: [String; 2],
    /// Their limits, as text.
    pub limits: [String; 2],
    /// Games played.
    pub games: u32,
    /// Games scheduled.
    pub scheduled: usize,
    /// First engine's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// First engine's losses.
    pub losses: u32,
    /// Mean points per game (0 to 1).
    pub score: Option<f64>,
    /// Elo difference (`null` when infinite or no games).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval.
    pub elo_low: Option<f64>,
    /// Upper end of the 95% interval.
    pub elo_high: Option<f64>,
    /// First engine's mean disc difference over games played to the end.
    pub average_disc_difference: Option<f64>,
    /// Forfeits of each engine.
    pub forfeits: [Forfeits; 2],
    /// The SPRT.
    pub sprt: Option<SprtState>,
    /// The opening seed, when the order was random.
    pub seed: Option<u64>,
    /// Seconds the match took.
    pub seconds: f64,
    /// The time each engine spent on its moves.
    pub time: [TimeSummary; 2],
    /// Every game.
    pub results: Vec<GameSummary>,
}

/// One game in the JSON summary.
#[derive(Serialize, Debug)]
pub struct GameSummary {
    /// 1-based game number.
    pub game: usize,
    /// The opening transcript.
    pub opening: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The GGF result (`+12`, `-64:t`).
    pub result: String,
    /// Black's disc difference (forfeits ±64).
    pub score_for_black: i32,
    /// `normal`, or the forfeit (`time`, `crash`, `protocol`, `illegal`, `resign`).
    pub termination: String,
    /// What went wrong, for a forfeit.
    pub message: Option<String>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The summary of a report, for JSON.
pub fn summary(report: &MatchReport) -> MatchSummary {
    let elo = report.elo();
    MatchSummary {
        engines: report.names.clone(),
        limits: report.limits.map(|l| l.to_string()),
        games: report.tally.games(),
        scheduled: report.scheduled,
        wins: report.tally.wins,
        draws: report.tally.draws,
        losses: report.tally.losses,
        score: report.tally.score(),
        elo: elo.and_then(|e| finite(e.elo)),
        elo_low: elo.and_then(|e| finite(e.low)),
        elo_high: elo.and_then(|e| finite(e.high)),
        average_disc_difference: report.average_discs(),
        forfeits: report.forfeits,
        sprt: report.sprt,
        seed: report.seed,
        seconds: report.elapsed.as_secs_f64(),
        time: [0, 1].map(|engine| {
            let used = report.time_use(engine);
            TimeSummary {
                ms_per_move: used.ms_per_move(),
                seconds_per_game: used.seconds_per_game(),
                clock_share: used.clock_share(),
            }
        }),
        results: report
            .games
            .iter()
            .map(|g| {
                let (termination, message) = match &g.outcome {
                    Outcome::Finished { .. } => ("normal".to_string(), None),
                    Outcome::Forfeited {
                        reason, message, ..
                    } => (
                        serde_json::to_value(reason)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        Some(message.clone()),
                    ),
                };
                GameSummary {
                    game: g.index + 1,
                    opening: g.opening.transcript.clone(),
                    black: g.names[0].clone(),
                    white: g.names[1].clone(),
                    result: g.result_text(),
                    score_for_black: g.score_for_black(),
                    termination,
                    message,
                }
            })
            .collect(),
    }
}

/// The summary as text.
pub fn summary_text(report: &MatchReport, config: &MatchConfig) -> String {
    let mut s = summary_header(report, config);
    s.push_str(&score_lines(report));
    s.push_str(&time_line(report));
    s.push_str(&forfeit_count_lines(report));
    if let Some(sprt) = &report.sprt {
        s.push_str(&sprt_line(sprt));
    }
    s.push_str(&forfeit_lines(report));
    s
}

/// The summary's first line: the engines, their limits, the games and the openings.
fn summary_header(report: &MatchReport, config: &MatchConfig) -> String {
    let [a, b] = &report.names;
    let t = report.tally;
    let mut s = String::new();
    let order = match report.seed {
        Some(seed) => format!("random order, seed {seed}"),
        None => "in order".into(),
    };
    s.push_str(&format!(
        "{a} ({}) vs {b} ({}): {} of {} games, openings from {}, {order}, {:.1} s\n",
        report.limits[0],
        report.limits[1],
        t.games(),
        report.scheduled,
        config.openings_source,
        report.elapsed.as_secs_f64()
    ));
    s
}

/// The time each engine spent: `Time: A 12.4 ms a move, 0.37 s a game (92% of its clock); B …`.
fn time_line(report: &MatchReport) -> String {
    let parts: Vec<String> = [0, 1]
        .into_iter()
        .filter_map(|engine| {
            let used = report.time_use(engine);
            let mut part = format!(
                "{} {:.1} ms a move, {:.2} s a game",
                report.names[engine],
                used.ms_per_move()?,
                used.seconds_per_game()?
            );
            if let Some(share) = used.clock_share() {
                part.push_str(&format!(" ({:.0}% of its clock)", 100.0 * share));
            }
            Some(part)
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("Time: {}\n", parts.join("; "))
    }
}

/// The score, the Elo difference, the average disc difference and the wins by colour.
fn score_lines(report: &MatchReport) -> String {
    let [a, _] = &report.names;
    let t = report.tally;
    let mut s = String::new();
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    s.push_str(&format!(
        "Score of {a}: {}, {}, {}",
        count(t.wins, "win", "wins"),
        count(t.draws, "draw", "draws"),
        count(t.losses, "loss", "losses")
    ));
    if let Some(score) = t.score() {
        s.push_str(&format!(" ({:.1}%)", 100.0 * score));
    }
    s.push('\n');
    if let Some(elo) = report.elo() {
        s.push_str(&format!("Elo difference: {elo}\n"));
    }
    if let Some(avg) = report.average_discs() {
        let finished = report
            .games
            .iter()
            .filter(|g| g.discs_for(0).is_some())
            .count();
        s.push_str(&format!(
            "Average disc difference: {avg:+.2} ({a}'s view, {finished} games played to the end)\n"
        ));
    }
    let (black, white, draws) = report.by_color();
    s.push_str(&format!(
        "Black won {black}, White won {white}, {draws} drawn\n"
    ));
    s
}

/// Each engine's losses on time, crashes, protocol errors, illegal moves and resignations.
fn forfeit_count_lines(report: &MatchReport) -> String {
    let [a, b] = &report.names;
    let mut s = String::new();
    let f = &report.forfeits;
    s.push_str(&format!(
        "Losses on time: {a} {}, {b} {}\n",
        f[0].time, f[1].time
    ));
    s.push_str(&format!(
        "Crashes: {a} {}, {b} {}; protocol errors: {a} {}, {b} {}; illegal moves: {a} {}, {b} {}\n",
        f[0].crash, f[1].crash, f[0].protocol, f[1].protocol, f[0].illegal, f[1].illegal
    ));
    if f[0].resign + f[1].resign > 0 {
        s.push_str(&format!(
            "Resignations: {a} {}, {b} {}\n",
            f[0].resign, f[1].resign
        ));
    }
    s
}

/// The SPRT's bounds, log-likelihood ratio and verdict.
fn sprt_line(sprt: &SprtState) -> String {
    let verdict = match (sprt.decision, sprt.decided_after) {
        (Some(SprtDecision::H1), Some(n)) => format!("H1 accepted after {n} games"),
        (Some(SprtDecision::H0), Some(n)) => format!("H0 accepted after {n} games"),
        _ => "no decision".into(),
    };
    format!(
        "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} in ({:.2}, {:.2}), {verdict}\n",
        sprt.test.elo0,
        sprt.test.elo1,
        sprt.test.alpha,
        sprt.test.beta,
        sprt.llr,
        sprt.lower,
        sprt.upper
    )
}

/// The forfeited games (the first 20), with who lost and why.
fn forfeit_lines(report: &MatchReport) -> String {
    let mut s = String::new();
    let forfeited: Vec<&GameRecord> = report
        .games
        .iter()
        .filter(|g| matches!(g.outcome, Outcome::Forfeited { .. }))
        .collect();
    if !forfeited.is_empty() {
        s.push_str("Forfeits:\n");
        for g in forfeited.iter().take(20) {
            if let Outcome::Forfeited {
                loser,
                reason,
                message,
            } = &g.outcome
            {
                s.push_str(&format!(
                    "  game {}: {} ({loser}) {}: {message}\n",
                    g.index + 1,
                    g.names[game::color_index(*loser)],
                    reason.describe()
                ));
            }
        }
        if forfeited.len() > 20 {
            s.push_str(&format!("  … and {} more\n", forfeited.len() - 20));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> EngineSpec {
        EngineSpec::parse(text).unwrap()
    }

    #[test]
    fn in_process_match_plays_every_game_legally() {
        let mut config = MatchConfig::new(
            [spec("iago,depth=2"), spec("iago,depth=1")],
            GameLimits::default(),
            2,
        );
        config.openings = openings::parse_openings("f5d6c3d3c4f4\nf5f6e6f4", "t").unwrap();
        config.concurrency = 2;
        let seen = Mutex::new(0);
        let report = play_match(&config, &|_, p| {
            *seen.lock().unwrap() += 1;
            assert!(p.done <= p.total);
        })
        .unwrap();
        assert_eq!(*seen.lock().unwrap(), 4);
        assert_eq!(report.games.len(), 4);
        assert_eq!(report.tally.games(), 4);
        for (i, g) in report.games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert!(
                matches!(g.outcome, Outcome::Finished { .. }),
                "{:?}",
                g.outcome
            );
            let ggf = crate::records::ggf::GgfGame::parse(&g.to_ggf().to_string()).unwrap();
            let game = ggf.game().unwrap();
            assert!(game.is_over());
            assert_eq!(game.position().final_score_for_black(), g.score_for_black());
            // Colours alternate within a round; the opening is the round's.
            assert_eq!(g.black_engine, i % 2);
            assert!(game.transcript(false).starts_with(&g.opening.transcript));
        }
        assert_eq!(report.games[0].opening, report.games[1].opening);
        let text = summary_text(&report, &config);
        assert!(text.contains("Score of Iago-d2"), "{text}");
        let json = serde_json::to_value(summary(&report)).unwrap();
        assert_eq!(json["games"], 4);
        assert_eq!(json["results"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn sprt_stops_early() {
        // Two identical deterministic engines win one game of each pair (the same game with the
        // roles swapped): a score of 50% is far below the H0 score of a 200-Elo edge.
        let mut config = MatchConfig::new(
            [spec("name=A,iago,depth=1"), spec("name=B,iago,depth=1")],
            GameLimits::default(),
            50,
        );
        config.openings =
            openings::parse_openings("f5d6c3d3c4f4\nf5f6e6f4\nf5d6c5f4e3", "t").unwrap();
        config.sprt = Some(Sprt::new(200.0, 400.0, 0.3, 0.3).unwrap());
        let report = play_match(&config, &|_, _| {}).unwrap();
        let sprt = report.sprt.unwrap();
        assert_eq!(sprt.decision, Some(SprtDecision::H0), "{sprt:?}");
        assert_eq!(sprt.decided_after, Some(report.games.len() as u32));
        assert!(report.games.len() < 20, "{}", report.games.len());
        assert!(sprt.llr <= sprt.lower);
    }

    #[test]
    fn configuration_errors() {
        let config =
            |engines: [&str; 2]| MatchConfig::new(engines.map(spec), GameLimits::default(), 1);
        let error = |engines| play_match(&config(engines), &|_, _| {}).unwrap_err();
        let e = error(["name=X,iago", "name=X,iago,depth=2"]).to_string();
        assert!(e.contains("both engines are named X"), "{e}");
        // No limit at all.
        let e = error(["iago", "name=B,iago"]).to_string();
        assert!(e.contains("has no limit"), "{e}");
        let mut none = config(["iago,depth=1", "iago,depth=2"]);
        none.concurrency = 0;
        assert!(matches!(
            play_match(&none, &|_, _| {}),
            Err(MatchError::NoConcurrency)
        ));
        let e = error(["iago,depth=1", "cmd=/no/such/engine,depth=1"]);
        let MatchError::Start { name, error: start } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(name, "engine");
        assert!(matches!(start, StartError::Spawn { .. }), "{start:?}");
        let e = e.to_string();
        assert!(
            e.starts_with("engine engine: cannot start '/no/such/engine'"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        let e = error(["iago,depth=1", "cmd=true,time=1"]).to_string();
        assert!(e.contains("no time per move"), "{e}");
        let e = error(["iago,depth=1,book=/no/such/book", "iago,depth=2"]).to_string();
        assert!(e.starts_with("engine Iago-d1: book /no/such/book: "), "{e}");
    }
}
