//! Stop conditions shared by every thread of one search: a stop flag that a GUI or the clock
//! sets, a deadline, and one flag per parallel split (set when a sibling cuts off).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use crate::search::params::POLL_INTERVAL;

/// The stop conditions of one search thread. `Copy`: each parallel task carries its own.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Control<'a>>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl<'a> Control<'a> {
    /// Stops when `stop` is set or at `deadline` (which then sets `stop`).
    pub(crate) fn new(stop: &'a AtomicBool, deadline: Option<Instant>) -> Self {
        Control {
            flag: stop,
            parent: None,
            stop,
            deadline,
        }
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
        }
    }

    /// Whether a flag of the chain is set.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.flag.load(Relaxed) || self.parent.is_some_and(|p| p.is_set())
    }

    /// Whether to stop now; reads the clock every [`POLL_INTERVAL`] calls (`poll` counts them
    /// down) and sets the stop flag once the deadline has passed.
    #[inline]
    pub(crate) fn should_stop(&self, poll: &mut u32) -> bool {
        if self.is_set() {
            return true;
        }
        if let Some(deadline) = self.deadline {
            *poll = poll.wrapping_sub(1);
            if *poll == 0 || *poll > POLL_INTERVAL {
                *poll = POLL_INTERVAL;
                if Instant::now() >= deadline {
                    self.stop.store(true, Relaxed);
                    return true;
                }
            }
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
    stopped: bool,
}

impl<'a> Counter<'a> {
    /// No positions yet, stopped by `control`.
    pub fn new(control: Control<'a>) -> Self {
        Counter {
            control,
            poll: 1,
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts one position.
    #[inline]
    pub fn count(&mut self) {
        self.nodes += 1;
    }

    /// Counts `nodes` positions (a sub-search's).
    #[inline]
    pub fn add(&mut self, nodes: u64) {
        self.nodes += nodes;
    }

    /// Whether to stop now (a stop flag, or the deadline, read every few calls); once it says
    /// so, the search is stopped.
    #[inline]
    pub fn poll_stop(&mut self) -> bool {
        let stop = self.control.should_stop(&mut self.poll);
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
        let mut poll = 1;
        assert!(!child.should_stop(&mut poll));
        cut.store(true, Relaxed);
        assert!(child.is_set() && !control.is_set());
        let past = Control::new(&stop, Some(Instant::now() - Duration::from_millis(1)));
        assert!(past.should_stop(&mut poll));
        assert!(stop.load(Relaxed), "the deadline sets the stop flag");
        let user = AtomicBool::new(false);
        let outer = Control::new(&user, None);
        let local = AtomicBool::new(false);
        let inner = outer.nested(&local, Some(Instant::now() - Duration::from_millis(1)));
        let mut poll = 1;
        assert!(inner.should_stop(&mut poll));
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
}
