//! Stop conditions shared by every thread of one search: a stop flag that a GUI or the clock
//! sets, a deadline, and one flag per parallel split (set when a sibling cuts off); the node
//! counter that polls them; and the progress a long search shows to another thread.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use crate::search::Selectivity;
use crate::search::params::POLL_INTERVAL;

/// What a running search has done so far, for a progress display on another thread (the
/// console's line during a deep solve): the positions visited, which every search thread adds
/// to every few hundred of its deep nodes, and the iteration under way.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    /// The iteration: 0 before the first, else `depth << 8 | selectivity rank + 1`.
    iteration: AtomicU32,
}

impl Progress {
    /// A progress with nothing done yet.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// The positions visited so far (a little behind the search's own count).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// The iteration under way: its depth (the empties for a search to the end) and its
    /// selectivity ([`Selectivity::NONE`] for an exact one); `None` before the first.
    pub fn iteration(&self) -> Option<(u32, Selectivity)> {
        let code = self.iteration.load(Relaxed);
        (code != 0).then(|| (code >> 8, Selectivity::from_rank((code & 0xFF) as u8 - 1)))
    }

    /// Starts an iteration of `depth` at `selectivity`.
    pub(crate) fn enter(&self, depth: u32, selectivity: Selectivity) {
        self.iteration
            .store(depth << 8 | (u32::from(selectivity.rank()) + 1), Relaxed);
    }
}

/// The stop conditions of one search thread. `Copy`: each parallel task carries its own.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Control<'a>>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    progress: Option<&'a Progress>,
    /// Whether polls count down to a tick: with a deadline or a progress.
    polled: bool,
}

impl<'a> Control<'a> {
    /// Stops when `stop` is set or at `deadline` (which then sets `stop`).
    pub(crate) fn new(stop: &'a AtomicBool, deadline: Option<Instant>) -> Self {
        Control {
            flag: stop,
            parent: None,
            stop,
            deadline,
            progress: None,
            polled: deadline.is_some(),
        }
    }

    /// These conditions, the searches under them adding their nodes to `progress`.
    pub(crate) fn watched(self, progress: &'a Progress) -> Self {
        Control {
            progress: Some(progress),
            polled: true,
            ..self
        }
    }

    /// The progress the searches under these conditions report to, if any.
    pub(crate) fn progress(&self) -> Option<&'a Progress> {
        self.progress
    }

    /// The stop flag of the whole search (what a deadline sets).
    pub(crate) fn stop_flag(&self) -> &'a AtomicBool {
        self.stop
    }

    /// Conditions under these ones with a flag and a deadline of their own: the deadline sets
    /// `flag`, not the flags above, so it ends only this search.
    pub(crate) fn nested<'b>(
        &'b self,
        flag: &'b AtomicBool,
        deadline: Option<Instant>,
    ) -> Control<'b> {
        Control {
            flag,
            parent: Some(self),
            stop: flag,
            deadline,
            progress: self.progress,
            polled: deadline.is_some() || self.progress.is_some(),
        }
    }

    /// The conditions for the tasks of a parallel split: these, or `cut` (set when a sibling
    /// fails high).
    pub(crate) fn split<'b>(&'b self, cut: &'b AtomicBool) -> Control<'b> {
        Control {
            flag: cut,
            parent: Some(self),
            stop: self.stop,
            deadline: self.deadline,
            progress: self.progress,
            polled: self.polled,
        }
    }

    /// Whether a flag of the chain is set.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.flag.load(Relaxed) || self.parent.is_some_and(|p| p.is_set())
    }

    /// Whether to stop now. Every [`POLL_INTERVAL`] calls (`poll` counts them down) of a
    /// search with a deadline or a progress, it reads the clock, setting the stop flag once the
    /// deadline has passed, and adds the `nodes` counted since the last time (`reported` of
    /// them were) to the progress.
    #[inline]
    pub(crate) fn should_stop(&self, poll: &mut u32, nodes: u64, reported: &mut u64) -> bool {
        if self.is_set() {
            return true;
        }
        if self.polled {
            *poll = poll.wrapping_sub(1);
            if *poll == 0 || *poll > POLL_INTERVAL {
                *poll = POLL_INTERVAL;
                return self.tick(nodes, reported);
            }
        }
        false
    }

    /// The work of every [`POLL_INTERVAL`]-th poll: the nodes to the progress, the clock
    /// against the deadline (whether it has passed, which sets the stop flag).
    #[cold]
    #[inline(never)]
    fn tick(&self, nodes: u64, reported: &mut u64) -> bool {
        if let Some(progress) = self.progress {
            progress.nodes.fetch_add(nodes - *reported, Relaxed);
            *reported = nodes;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.store(true, Relaxed);
            return true;
        }
        false
    }
}

/// The positions a search thread has visited and its stop conditions, polled: one for the
/// skeleton's searches (`search::pvs`, and a hook that searches on its own counts into it) and
/// one for the 8x8 solver's (`search::endgame`).
pub(crate) struct Counter<'a> {
    control: Control<'a>,
    poll: u32,
    nodes: u64,
    /// The nodes counted into the progress (or counted there by a sub-search).
    reported: u64,
    stopped: bool,
}

impl<'a> Counter<'a> {
    /// No positions yet, stopped by `control`.
    pub fn new(control: Control<'a>) -> Self {
        Counter {
            control,
            poll: 1,
            nodes: 0,
            reported: 0,
            stopped: false,
        }
    }

    /// Counts one position.
    #[inline]
    pub fn count(&mut self) {
        self.nodes += 1;
    }

    /// Counts `nodes` positions (a sub-search's, which reported them to the progress itself).
    #[inline]
    pub fn add(&mut self, nodes: u64) {
        self.nodes += nodes;
        self.reported += nodes;
    }

    /// Whether to stop now (a stop flag, or the deadline, read every few calls); once it says
    /// so, the search is stopped.
    #[inline]
    pub fn poll_stop(&mut self) -> bool {
        let stop = self
            .control
            .should_stop(&mut self.poll, self.nodes, &mut self.reported);
        if stop {
            self.stopped = true;
        }
        stop
    }

    /// Marks the search stopped (a sub-search was).
    #[inline]
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Whether the search was stopped; its scores are then meaningless.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// The positions counted.
    #[inline]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The stop conditions, for a sub-search.
    #[inline]
    pub fn control(&self) -> Control<'a> {
        self.control
    }
}

thread_local! {
    /// How many searches of the main line this thread is inside of (the driver's own search and
    /// the tasks of its splits): a helper search started on such a thread would stall the
    /// search whose stack it borrows (see [`helper_may_start`]).
    static IN_MAIN_SEARCH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Marks the current thread as running the main search until the guard drops.
pub(crate) struct MainSearch(());

impl MainSearch {
    /// Enters the main search on this thread.
    pub(crate) fn enter() -> MainSearch {
        IN_MAIN_SEARCH.with(|c| c.set(c.get() + 1));
        MainSearch(())
    }
}

impl Drop for MainSearch {
    fn drop(&mut self) {
        IN_MAIN_SEARCH.with(|c| c.set(c.get() - 1));
    }
}

/// Whether a helper search (a task that runs until the main search ends) may run on this
/// thread: not when the thread is inside the main search, for instance waiting at a split for
/// a stolen child, since the main search could not end before the helper does.
pub(crate) fn helper_may_start() -> bool {
    IN_MAIN_SEARCH.with(|c| c.get() == 0)
}

/// A split's cut flag on a cache line of its own: the other threads read it at every node.
#[repr(align(64))]
struct CutFlag(AtomicBool);

/// The outcome of one child search in a parallel split: `(score, move, nodes, stopped)`.
pub(crate) type ChildResult = (i32, u8, u64, bool);

/// Young Brothers Wait, the parallel part: searches the `children` of a null-window node
/// `(alpha, alpha + 1)` over the current rayon pool. `search(child, control)` runs one child
/// under the split's conditions; the first child that fails high (score > `alpha`) cancels its
/// siblings. Returns the best score (fail-soft, `lowest` if none finished), its move and the
/// nodes of all children; sets nothing itself: the caller checks `control.is_set()` for a stop
/// from above.
pub(crate) fn split<T: Sync>(
    control: &Control<'_>,
    children: &[T],
    alpha: i32,
    lowest: i32,
    search: impl Fn(&T, Control<'_>) -> ChildResult + Sync,
) -> (i32, u8, u64) {
    use rayon::prelude::*;
    let cut = CutFlag(AtomicBool::new(false));
    let cut = &cut.0;
    let split = control.split(cut);
    let none = (lowest, super::tt::NO_MOVE, 0);
    // As many workers as threads (or moves), each taking the next move in the list's order: a
    // thread that joins late takes the best-ordered move left, not one from the far half.
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().min(children.len());
    (0..workers)
        .into_par_iter()
        .with_max_len(1)
        .map(|_| {
            let _main = MainSearch::enter();
            let mut best = none;
            while !cut.load(Relaxed) {
                let i = next.fetch_add(1, Relaxed);
                let Some(child) = children.get(i) else {
                    break;
                };
                let (score, mv, nodes, stopped) = search(child, split);
                best.2 += nodes;
                if stopped {
                    break;
                }
                if score > alpha {
                    cut.store(true, Relaxed);
                }
                if score > best.0 {
                    (best.0, best.1) = (score, mv);
                }
            }
            best
        })
        .reduce(
            || none,
            |a, b| {
                let nodes = a.2 + b.2;
                if b.0 > a.0 {
                    (b.0, b.1, nodes)
                } else {
                    (a.0, a.1, nodes)
                }
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn chain_and_deadline() {
        let stop = AtomicBool::new(false);
        let control = Control::new(&stop, None);
        let cut = AtomicBool::new(false);
        let child = control.split(&cut);
        let (mut poll, mut reported) = (1, 0);
        assert!(!child.should_stop(&mut poll, 0, &mut reported));
        cut.store(true, Relaxed);
        assert!(child.is_set() && !control.is_set());
        let past = Control::new(&stop, Some(Instant::now() - Duration::from_millis(1)));
        assert!(past.should_stop(&mut poll, 0, &mut reported));
        assert!(stop.load(Relaxed), "the deadline sets the stop flag");
        let user = AtomicBool::new(false);
        let outer = Control::new(&user, None);
        let local = AtomicBool::new(false);
        let inner = outer.nested(&local, Some(Instant::now() - Duration::from_millis(1)));
        let mut poll = 1;
        assert!(inner.should_stop(&mut poll, 0, &mut reported));
        assert!(
            local.load(Relaxed) && !user.load(Relaxed),
            "a nested deadline ends only its search"
        );
        user.store(true, Relaxed);
        local.store(false, Relaxed);
        assert!(
            outer.nested(&local, None).is_set(),
            "a stop from above reaches the nested search"
        );
    }

    /// A watched search adds its nodes to the progress every [`POLL_INTERVAL`] polls, its
    /// splits' tasks theirs; what a sub-search reported is not counted twice.
    #[test]
    fn a_watched_search_reports_its_nodes() {
        let stop = AtomicBool::new(false);
        let progress = Progress::new();
        assert_eq!((progress.nodes(), progress.iteration()), (0, None));
        let control = Control::new(&stop, None).watched(&progress);
        let p = u64::from(POLL_INTERVAL);
        // Reports at the first poll and every POLL_INTERVAL polls after it.
        let mut counter = Counter::new(control);
        for _ in 0..=POLL_INTERVAL {
            counter.count();
            counter.count();
            assert!(!counter.poll_stop());
        }
        assert_eq!(progress.nodes(), 2 * (p + 1));
        let cut = AtomicBool::new(false);
        let mut task = Counter::new(control.split(&cut));
        for _ in 0..=POLL_INTERVAL {
            task.count();
            task.poll_stop();
        }
        assert_eq!(progress.nodes(), 3 * (p + 1));
        counter.add(task.nodes());
        for _ in 0..3 {
            counter.count();
        }
        for _ in 0..POLL_INTERVAL {
            counter.poll_stop();
        }
        assert_eq!(progress.nodes(), 3 * (p + 1) + 3, "the task's nodes once");
        progress.enter(22, Selectivity::NONE);
        assert_eq!(progress.iteration(), Some((22, Selectivity::NONE)));
        // Unwatched: no report.
        let quiet = Progress::new();
        let mut counter = Counter::new(Control::new(&stop, None));
        for _ in 0..=POLL_INTERVAL {
            counter.count();
            counter.poll_stop();
        }
        assert_eq!(quiet.nodes(), 0);
    }
}
