//! Engine-vs-engine matches (`iago match`): two engines play pairs of games from a list of
//! openings, colours swapped within each pair; the result is a score, an Elo difference with
//! its 95% confidence interval, optionally an SPRT verdict, and every game as GGF. The engine
//! specs, the options and how the referee drives each protocol are in docs/manual.md
//! (`iago match`).
//!
//! Here: the match's configuration and the loop of its workers; [`spec`] reads the engines,
//! [`game`] referees one game, [`player`] and [`external`] are the players, [`openings`] and
//! [`stats`] the schedule and the statistics, [`report`] and [`summary`] what a match produced,
//! as text and as JSON, [`tournament`] a round robin of matches.

pub mod config;
pub mod external;
pub mod game;
pub mod openings;
pub(crate) mod player;
pub mod report;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tournament;

pub use config::{MatchConfig, MatchError};
pub use report::{Forfeits, MatchReport, SprtState, summary_text};
pub use summary::summary;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use self::external::{GtpPlayer, NboardPlayer, check_startable};
use self::game::{GameRecord, GameSetup, Outcome, play_game};
use self::player::{IagoPlayer, Player, RandomPlayer};
use self::spec::{EngineKind, EngineSpec, GameLimits};
use self::stats::{Sprt, SprtDecision, Tally};
use crate::board::Color;
use crate::protocol::Protocol;

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
    /// What the engine plays at, for the reports: its limits, its level below full strength,
    /// or random moves.
    fn settings(&self) -> String {
        match &self.spec.kind {
            EngineKind::Iago(options) if !options.level.is_top() => {
                let level = options.level;
                format!("level {}, {}", level.number(), level.name())
            }
            EngineKind::Random { .. } => "random moves".into(),
            _ => self.limit.to_string(),
        }
    }

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
                // A level below full strength chooses its moves at its own depths.
                if limit.is_empty() && options.level.is_top() {
                    return Err(no_limit());
                }
                let loaded = options.load().map_err(|error| MatchError::Load {
                    name: name.clone(),
                    error,
                })?;
                setup.loaded = Some(loaded);
            }
            EngineKind::Random { .. } => {}
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
                check_startable(external, name).map_err(|error| MatchError::Start {
                    name: name.clone(),
                    error,
                })?;
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
            EngineKind::Random { seed } => Box::new(RandomPlayer::new(*seed)),
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
                overheads: [setups[0].spec.overhead, setups[1].spec.overhead],
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
    let settings = [setups[0].settings(), setups[1].settings()];
    Ok(state.report(config, names, limits, settings, total, begin))
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
        settings: [String; 2],
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
            settings,
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
        assert!(
            matches!(start, external::StartError::Spawn { .. }),
            "{start:?}"
        );
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
