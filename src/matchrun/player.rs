//! The players of a game: the seam between the referee and an engine, and Iago in-process.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::spec::GameLimits;
use crate::board::{Bitboard, Game, Move, Square};
use crate::engine::{Engine, EngineOptions, Loaded, SearchRequest};
use crate::records::ggf::GgfGame;
use crate::search::{Clock, Limits};

/// What the referee asks for one move.
pub(crate) struct MoveRequest<'a> {
    /// The game so far (the side to move has a legal move).
    pub game: &'a Game,
    /// The game so far as GGF, with players, clocks, and the evaluations and times of the moves.
    pub ggf: &'a GgfGame,
    /// The mover's limit.
    pub limit: &'a GameLimits,
    /// The mover's clock, when it plays with one.
    pub remaining: Option<Duration>,
    /// When the referee stops waiting.
    pub deadline: Option<Instant>,
}

/// A move and its evaluation (discs, mover's view), if the engine gave one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reply {
    pub mv: Move,
    pub eval: Option<f64>,
}

/// Why a player gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The process died, could not start, or closed its pipes.
    Crash(String),
    /// An answer that breaks the protocol.
    Protocol(String),
    /// The engine resigned.
    Resign,
}

/// A player: Iago in-process, or an external engine.
pub(crate) trait Player: Send {
    /// Gets ready for a game that starts as `game` (a process that died is started again).
    fn start_game(&mut self, game: &Game, limit: &GameLimits) -> Result<(), Failure>;
    /// Chooses a move.
    fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure>;
    /// Ends the session (external engines get `quit`).
    fn quit(&mut self) {}
}

/// Iago in the match process: one engine per player, with its own hash table and threads.
pub(crate) struct IagoPlayer {
    options: EngineOptions,
    loaded: Loaded,
    engine: Option<Engine>,
}

impl IagoPlayer {
    /// A player with these options and this evaluation and book; the engine is made at the
    /// first game.
    pub fn new(options: EngineOptions, loaded: Loaded) -> Self {
        IagoPlayer {
            options,
            loaded,
            engine: None,
        }
    }

    fn engine(&mut self) -> Result<&mut Engine, Failure> {
        if self.engine.is_none() {
            let engine = Engine::with_loaded(self.options.clone(), self.loaded.clone())
                .map_err(|e| Failure::Crash(e.to_string()))?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("made above"))
    }
}

impl Player for IagoPlayer {
    fn start_game(&mut self, _game: &Game, _limit: &GameLimits) -> Result<(), Failure> {
        self.engine()?.clear_hash();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        let limit = request.limit;
        let limits = Limits {
            depth: limit.depth,
            move_time: limit.move_time,
            clock: request.remaining.map(|remaining| Clock {
                remaining: remaining.max(Duration::from_millis(1)),
                increment: limit.clock.map_or(Duration::ZERO, |c| c.increment),
                moves_to_go: None,
            }),
        };
        let deadline = request.deadline;
        let engine = self.engine()?;
        engine.set_game(request.game.clone());
        let stop = engine.stop_handle();
        // A watchdog stops a search that runs past the deadline.
        let (done, finished) = mpsc::channel::<()>();
        let watchdog = deadline.map(|deadline| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let wait = deadline.saturating_duration_since(Instant::now());
                if finished.recv_timeout(wait) == Err(mpsc::RecvTimeoutError::Timeout) {
                    stop.stop();
                }
            })
        });
        let result = engine.search(&SearchRequest::play(limits), &mut |_| {});
        drop(done);
        if let Some(watchdog) = watchdog {
            let _ = watchdog.join();
        }
        if stop.is_stopped() {
            // The stop belongs to this move's generation: the next move starts a new one.
            return Err(Failure::Timeout);
        }
        Ok(Reply {
            mv: result.best_move,
            eval: Some(f64::from(result.score)),
        })
    }
}

/// A uniformly random legal move, drawn by its own seeded generator: the floor a level is
/// measured against.
pub(crate) struct RandomPlayer {
    draws: crate::rng::SplitMix64,
}

impl RandomPlayer {
    /// A random mover seeded by `seed` (by the clock without one).
    pub fn new(seed: Option<u64>) -> Self {
        RandomPlayer {
            draws: crate::rng::SplitMix64::seeded_or_clock(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn start_game(&mut self, _game: &Game, _limit: &GameLimits) -> Result<(), Failure> {
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<Reply, Failure> {
        let moves = request.game.legal_moves();
        let mv = if moves == 0 {
            Move::Pass
        } else {
            let squares: Vec<Square> = Bitboard(moves).iter().collect();
            let pick = (self.draws.unit() * squares.len() as f64) as usize;
            Move::Play(squares[pick.min(squares.len() - 1)])
        };
        Ok(Reply { mv, eval: None })
    }
}
