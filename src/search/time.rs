//! Search limits and time planning: how long a move may take, with a safety margin so that the
//! engine never runs past the time it was given.

use std::time::{Duration, Instant};

/// The longest time taken from outside (a clock, a move time, time used): about 31 years. A
/// longer value means "no practical limit" and is read as this one.
pub const MAX_SECONDS: f64 = 1e9;

/// Seconds from outside (a protocol, a file, the command line) as a duration that every
/// later computation can use: NaN and negative values are zero, values beyond [`MAX_SECONDS`]
/// (`1e300`, infinity) are [`MAX_SECONDS`].
pub fn duration_from_seconds(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(seconds.min(MAX_SECONDS))
    }
}

/// A game clock for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the clock is refilled, if the time control says so.
    pub moves_to_go: Option<u32>,
}

/// What a search may spend. With no field set, the search runs until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration (plies); exact solving starts when the depth covers the
    /// empties or, with this limit only, from `depth × 3/2` empties.
    pub depth: Option<u32>,
    /// Time for this move.
    pub move_time: Option<Duration>,
    /// The game clock (used when `move_time` is not set).
    pub clock: Option<Clock>,
}

impl Limits {
    /// A depth limit only.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A time limit for this move only.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// The deadlines of a search starting at `start` in a position with `empties` empty squares.
    pub fn plan(&self, start: Instant, empties: u32) -> TimePlan {
        let budget = match (self.move_time, self.clock) {
            (Some(t), _) => Some(move_time_budget(t)),
            (None, Some(clock)) => Some(clock_budget(&clock, empties)),
            (None, None) => None,
        };
        // A budget beyond what the clock can represent is no deadline.
        TimePlan {
            start,
            soft: budget.and_then(|(soft, _)| start.checked_add(soft)),
            hard: budget.and_then(|(_, hard)| start.checked_add(hard)),
        }
    }
}

/// When to stop starting new work (`soft`) and when to stop outright (`hard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// When the search began.
    pub start: Instant,
    /// No new iteration starts after this.
    pub soft: Option<Instant>,
    /// The search is stopped at this instant.
    pub hard: Option<Instant>,
}

impl TimePlan {
    /// Time left before the hard deadline (`None`: unlimited).
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        self.hard.map(|h| h.saturating_duration_since(now))
    }

    /// Whether the soft deadline has passed.
    pub fn past_soft(&self, now: Instant) -> bool {
        self.soft.is_some_and(|s| now >= s)
    }
}

/// The safety margin kept before a deadline: 15 ms, or a fifth of very short budgets. It covers
/// the time to notice the deadline, unwind the threads and write the reply.
fn margin(budget: Duration) -> Duration {
    Duration::from_millis(15).min(budget / 5)
}

/// `(soft, hard)` for a fixed time per move.
fn move_time_budget(time: Duration) -> (Duration, Duration) {
    let hard = time - margin(time);
    (hard / 2, hard)
}

/// `(soft, hard)` from a game clock: an equal share of the remaining time over the moves left
/// (about half the empties), plus most of the increment. A clock that lasts the game gives no
/// move more than a third of it; one refilled after `moves_to_go` moves (a byo-yomi period)
/// keeps half a share for each of the period's other moves, so that its last move may use all.
fn clock_budget(clock: &Clock, empties: u32) -> (Duration, Duration) {
    // Keep a reserve for the communication with the GUI over the rest of the game.
    let reserve = Duration::from_millis(50).min(clock.remaining / 10);
    let usable = clock.remaining.saturating_sub(reserve);
    let moves_left = clock
        .moves_to_go
        .unwrap_or(empties.div_ceil(2))
        .clamp(1, 40);
    let share = usable / moves_left + clock.increment * 9 / 10;
    let cap = match clock.moves_to_go {
        Some(_) => usable - usable / moves_left / 2 * (moves_left - 1),
        None => usable / 3,
    };
    let hard_cap = cap + clock.increment * 9 / 10;
    let hard = (share * 2).min(hard_cap).min(usable);
    let hard = hard.saturating_sub(margin(hard));
    (share.min(hard) * 3 / 5, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_time_keeps_a_margin() {
        let start = Instant::now();
        let plan = Limits::move_time(Duration::from_secs(1)).plan(start, 40);
        assert_eq!(plan.hard, Some(start + Duration::from_millis(985)));
        assert!(plan.soft.unwrap() < plan.hard.unwrap());
        let tiny = Limits::move_time(Duration::from_millis(10)).plan(start, 40);
        assert_eq!(tiny.hard, Some(start + Duration::from_millis(8)));
    }

    #[test]
    fn clock_shares_the_time() {
        let start = Instant::now();
        let clock = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let plan = limits.plan(start, 40);
        let hard = plan.hard.unwrap() - start;
        // 20 moves left: about 3 s each, at most twice that.
        assert!(
            hard > Duration::from_secs(3) && hard < Duration::from_secs(7),
            "{hard:?}"
        );
        // With a second left and many moves to go, still well under a second.
        let short = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(1),
                ..clock
            }),
            ..Limits::default()
        };
        let hard = short.plan(start, 50).hard.unwrap() - start;
        assert!(hard < Duration::from_millis(200), "{hard:?}");
    }

    #[test]
    fn a_byo_yomi_period_is_spent_on_its_moves() {
        let start = Instant::now();
        let period = |seconds: f64, stones| Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs_f64(seconds),
                increment: Duration::ZERO,
                moves_to_go: Some(stones),
            }),
            ..Limits::default()
        };
        // One move in the period: all of it but the reserve and the margin.
        let plan = period(1.0, 1).plan(start, 40);
        assert_eq!(plan.hard.unwrap() - start, Duration::from_millis(935));
        assert!(plan.soft.unwrap() - start >= Duration::from_millis(500));
        let plan = period(0.1, 1).plan(start, 40);
        let hard = plan.hard.unwrap() - start;
        assert!(
            hard > Duration::from_millis(70) && hard < Duration::from_millis(90),
            "{hard:?}"
        );
        // Four moves in 4 s: about a second each, at most the time that leaves the other
        // three half a second each.
        let hard = period(4.0, 4).plan(start, 40).hard.unwrap() - start;
        assert!(
            hard > Duration::from_millis(1900) && hard <= Duration::from_millis(2000),
            "{hard:?}"
        );
        // The same time as sudden death lasts the game: a fraction of it per move.
        let whole_game = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(1),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        assert!(whole_game.plan(start, 40).hard.unwrap() - start < Duration::from_millis(150));
    }

    #[test]
    fn absurd_times_are_clamped() {
        assert_eq!(duration_from_seconds(f64::NAN), Duration::ZERO);
        assert_eq!(duration_from_seconds(-3.0), Duration::ZERO);
        assert_eq!(duration_from_seconds(1.5), Duration::from_millis(1500));
        let most = Duration::from_secs_f64(MAX_SECONDS);
        assert_eq!(duration_from_seconds(1e300), most);
        assert_eq!(duration_from_seconds(f64::INFINITY), most);
        // The largest values still plan without overflow.
        let clock = Clock {
            remaining: most,
            increment: most,
            moves_to_go: Some(1),
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let plan = limits.plan(Instant::now(), 60);
        assert!(plan.hard.is_some());
        assert!(
            Limits::move_time(most)
                .plan(Instant::now(), 60)
                .hard
                .is_some()
        );
    }

    #[test]
    fn no_limit_means_no_deadline() {
        let plan = Limits::depth(10).plan(Instant::now(), 30);
        assert_eq!(plan.hard, None);
        assert_eq!(plan.remaining(Instant::now()), None);
    }
}
