//! The engines of the server and the searches they run. A fixed number of engines serve every
//! client, one search each at a time, in the order asked (a fair queue); a client holds at
//! most one search. A search runs on a thread of its own, with a stop that its client's
//! session holds: it ends when the client stops it, plays, navigates or leaves, and at the
//! server's time cap.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::board::{Game, Rules, State};
use crate::engine::{Engine, EngineOptions, Loaded, SearchRequest, StopHandle};
use crate::records::PlayedGame;
use crate::review::{MoveReview, ReviewOptions, review_game};
use crate::search::params::ANALYSIS_SELECTIVITY;
use crate::search::solve::SolveReport;
use crate::search::{Limits, Progress, SearchResult, SolveMode, Stopped};

/// How often a running solve reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The engines and their queue.
pub(crate) struct Pool {
    options: EngineOptions,
    loaded: Loaded,
    permits: Arc<Semaphore>,
    idle: Mutex<Vec<Engine>>,
    /// Searches running now.
    running: AtomicUsize,
    /// Searches waiting for an engine.
    waiting: AtomicUsize,
}

impl Pool {
    /// A pool of at most `size` engines made from `options` and `loaded` (made when first
    /// needed; the first one now, so that bad options are an error at the start).
    pub fn new(options: EngineOptions, loaded: Loaded, size: usize) -> Result<Pool, String> {
        let first =
            Engine::with_loaded(options.clone(), loaded.clone()).map_err(|e| e.to_string())?;
        Ok(Pool {
            options,
            loaded,
            permits: Arc::new(Semaphore::new(size.max(1))),
            idle: Mutex::new(vec![first]),
            running: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
        })
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.running.load(Relaxed)
    }

    /// Searches waiting for an engine.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Relaxed)
    }

    /// The evaluation and the book, as read once for every engine.
    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    /// An engine, once one is free (first come, first served).
    async fn lease(self: &Arc<Pool>) -> Permit {
        struct Waiting<'a>(&'a AtomicUsize);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Relaxed);
            }
        }
        self.waiting.fetch_add(1, Relaxed);
        let waiting = Waiting(&self.waiting);
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        drop(waiting);
        Permit {
            pool: Arc::clone(self),
            _permit: permit,
        }
    }
}

/// The right to use an engine of the pool.
struct Permit {
    pool: Arc<Pool>,
    _permit: OwnedSemaphorePermit,
}

impl Permit {
    /// An idle engine, or a new one (blocking: a new one allocates its hash table).
    fn engine(self) -> Result<Lease, String> {
        let idle = self.pool.idle.lock().expect("pool lock").pop();
        let engine = match idle {
            Some(engine) => engine,
            None => Engine::with_loaded(self.pool.options.clone(), self.pool.loaded.clone())
                .map_err(|e| format!("cannot start an engine: {e}"))?,
        };
        self.pool.running.fetch_add(1, Relaxed);
        Ok(Lease {
            engine: Some(engine),
            permit: self,
        })
    }
}

/// An engine taken from the pool; it goes back when dropped.
struct Lease {
    engine: Option<Engine>,
    permit: Permit,
}

impl Lease {
    fn engine(&mut self) -> &mut Engine {
        self.engine.as_mut().expect("held until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let pool = &self.permit.pool;
        if let Some(engine) = self.engine.take() {
            pool.idle.lock().expect("pool lock").push(engine);
        }
        pool.running.fetch_sub(1, Relaxed);
    }
}

/// What a search does.
pub(crate) enum Work {
    /// Choose Iago's move in the game's last position.
    Play {
        /// The game.
        game: Game,
        /// How long to think.
        limits: Limits,
        /// The playing level.
        level: crate::engine::Level,
    },
    /// The value of every legal move, depth by depth, until stopped (or exact).
    Values {
        /// The game; its last position is searched.
        game: Game,
    },
    /// Solve a position.
    Solve {
        /// The rules.
        rules: Rules,
        /// The position.
        state: State,
        /// Exact or win/loss/draw.
        mode: SolveMode,
    },
    /// Review every move of a game.
    Review {
        /// The game.
        played: Box<PlayedGame>,
        /// How deep.
        options: ReviewOptions,
    },
}

impl Work {
    /// The job's name in the messages.
    pub fn name(&self) -> &'static str {
        match self {
            Work::Play { .. } => "play",
            Work::Values { .. } => "values",
            Work::Solve { .. } => "solve",
            Work::Review { .. } => "review",
        }
    }
}

/// What a search tells its session.
#[derive(Debug)]
pub(crate) enum Event {
    /// It waits for an engine, behind this many searches.
    Queued(usize),
    /// It runs.
    Running,
    /// Iago's search finished an iteration.
    Thinking(SearchResult),
    /// The values of every move at a depth.
    Values(Vec<SearchResult>),
    /// A solve's iteration and nodes so far.
    Solving {
        /// The iteration: depth and selectivity, `None` before the first.
        iteration: Option<(u32, crate::search::Selectivity)>,
        /// Positions so far.
        nodes: u64,
        /// Time so far.
        elapsed: Duration,
    },
    /// A move reviewed.
    Reviewed(MoveReview),
    /// Iago's move.
    Played(SearchResult),
    /// The values search ended.
    ValuesDone,
    /// The solve ended (or was stopped).
    Solved(Result<SolveReport, Stopped>),
    /// The review ended; whether it reviewed every move.
    ReviewDone(bool),
    /// The search could not run.
    Failed(String),
}

/// Where a job sends its events: its number and the event.
pub(crate) type Events = mpsc::UnboundedSender<(u64, Event)>;

/// The stop of one job, before and after it gets an engine.
#[derive(Default)]
struct Cancel {
    cancelled: AtomicBool,
    stop: Mutex<Option<StopHandle>>,
}

impl Cancel {
    /// Ends the job: a waiting job never starts, a running one stops.
    fn cancel(&self) {
        let stop = self.stop.lock().expect("cancel lock");
        self.cancelled.store(true, Relaxed);
        if let Some(stop) = stop.as_ref() {
            stop.stop();
        }
    }

    /// Stops the running search (its time is up); it reports what it found.
    fn expire(&self) {
        if let Some(stop) = self.stop.lock().expect("cancel lock").as_ref() {
            stop.stop();
        }
    }

    /// Gives the job a stop generation of `engine`; false when the job was cancelled first.
    fn arm(&self, engine: &mut Engine) -> bool {
        let mut stop = self.stop.lock().expect("cancel lock");
        if self.cancelled.load(Relaxed) {
            return false;
        }
        *stop = Some(engine.stop_handle());
        true
    }
}

/// A job of a session: dropping it stops the search.
pub(crate) struct Job {
    /// Its number in the session.
    pub id: u64,
    /// `play`, `values`, `solve` or `review`.
    pub kind: &'static str,
    /// The node it is about.
    pub node: usize,
    cancel: Arc<Cancel>,
    task: tokio::task::JoinHandle<()>,
}

impl Job {
    /// Starts `work` on the pool: it waits for an engine, then runs for at most `cap`.
    pub fn start(
        pool: &Arc<Pool>,
        id: u64,
        node: usize,
        work: Work,
        cap: Duration,
        events: Events,
    ) -> Job {
        let kind = work.name();
        let cancel = Arc::new(Cancel::default());
        let task = tokio::spawn(run(
            Arc::clone(pool),
            id,
            work,
            cap,
            events,
            Arc::clone(&cancel),
        ));
        Job {
            id,
            kind,
            node,
            cancel,
            task,
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

/// A job's life: the queue, then the search on a thread of its own, with its time cap and
/// (for a solve) its progress.
async fn run(
    pool: Arc<Pool>,
    id: u64,
    work: Work,
    cap: Duration,
    events: Events,
    cancel: Arc<Cancel>,
) {
    let send = |event| {
        // The session is gone when this fails: nothing to tell.
        let _ = events.send((id, event));
    };
    if pool.permits.available_permits() == 0 {
        send(Event::Queued(pool.waiting() + 1));
    }
    let permit = pool.lease().await;
    if cancel.cancelled.load(Relaxed) {
        return;
    }
    send(Event::Running);
    let solving = matches!(work, Work::Solve { .. });
    let progress = Arc::new(Progress::new());
    let blocking = {
        let (events, cancel, progress) =
            (events.clone(), Arc::clone(&cancel), Arc::clone(&progress));
        tokio::task::spawn_blocking(move || {
            let send = |event| {
                let _ = events.send((id, event));
            };
            let mut lease = match permit.engine() {
                Ok(lease) => lease,
                Err(e) => return send(Event::Failed(e)),
            };
            if cancel.arm(lease.engine()) {
                execute(lease.engine(), work, &progress, &send);
            }
        })
    };
    tokio::pin!(blocking);
    let start = Instant::now();
    let deadline = tokio::time::sleep(cap);
    tokio::pin!(deadline);
    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
    ticks.tick().await;
    loop {
        tokio::select! {
            _ = &mut blocking => break,
            () = &mut deadline => cancel.expire(),
            _ = ticks.tick(), if solving => send(Event::Solving {
                iteration: progress.iteration(),
                nodes: progress.nodes(),
                elapsed: start.elapsed(),
            }),
        }
    }
}

/// Runs `work` on `engine`, sending what it finds.
fn execute(engine: &mut Engine, work: Work, progress: &Progress, send: &(dyn Fn(Event) + Sync)) {
    match work {
        Work::Play {
            game,
            limits,
            level,
        } => {
            engine.set_game(game);
            // The engines serve every client: the level is this search's alone.
            engine.set_level(level);
            let result = engine.search(&SearchRequest::play(limits), &mut |r| {
                send(Event::Thinking(r.clone()));
            });
            engine.set_level(crate::engine::Level::TOP);
            send(Event::Played(result));
        }
        Work::Values { game } => {
            let moves = game.legal_moves().count_ones() as usize;
            engine.set_game(game);
            let request = SearchRequest::analyze(Limits::default());
            // At the selectivity of analysis, as `iago analyze`.
            with_selectivity(engine, ANALYSIS_SELECTIVITY, |engine| {
                engine.hint(moves.max(1), &request, &mut |rows| {
                    send(Event::Values(rows.to_vec()));
                })
            });
            send(Event::ValuesDone);
        }
        Work::Solve { rules, state, mode } => {
            let solved = engine.solve_watched(rules, &state, mode, progress);
            send(Event::Solved(solved));
        }
        Work::Review { played, options } => {
            let total = played.game.moves().iter().filter(|m| !m.is_pass()).count();
            let mut done = 0;
            // At the selectivity of analysis, as `iago review`.
            let reviewed = with_selectivity(engine, ANALYSIS_SELECTIVITY, |engine| {
                review_game(engine, &played, 1, &options, &mut |row| {
                    done += 1;
                    send(Event::Reviewed(row.clone()));
                })
            });
            match reviewed {
                Ok(_) => send(Event::ReviewDone(done == total)),
                Err(e) => send(Event::Failed(e.to_string())),
            }
        }
    }
}

/// Runs `job` on `engine` at `selectivity`, then puts the engine's own back (the engines serve
/// every client).
fn with_selectivity<T>(
    engine: &mut Engine,
    selectivity: crate::search::Selectivity,
    job: impl FnOnce(&mut Engine) -> T,
) -> T {
    let own = engine.options().selectivity;
    engine.set_selectivity(selectivity);
    let value = job(engine);
    engine.set_selectivity(own);
    value
}
