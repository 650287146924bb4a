//! Stop conditions shared by every thread of one search: a stop flag that a GUI or the clock
//! sets, a deadline, and one flag per parallel split (set when a sibling cuts off).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// How often (in calls of [`Control::should_stop`]) the clock is read.
const POLL_INTERVAL: u32 = 256;

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
    }
}
