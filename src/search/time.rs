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
    /// `solve_seconds` is the time an exact solve of so many empties takes (`None` where no
    /// model is known): a game clock is shared over the moves before the solve fits, not over
    /// the moves to the end of the game. A clock is charged `overhead` beyond the engine's own
    /// time for every move (a GUI's delays): that much is kept for each move left in the plan.
    pub(crate) fn plan(
        &self,
        start: Instant,
        empties: u32,
        overhead: Duration,
        solve_seconds: &dyn Fn(u32) -> Option<f64>,
    ) -> TimePlan {
        let budget = match (self.move_time, self.clock) {
            (Some(t), _) => Some(move_time_budget(t)),
            (None, Some(clock)) => Some(clock_budget(&clock, empties, overhead, solve_seconds)),
            (None, None) => None,
        };
        let banked = self.move_time.is_none()
            && self.clock.is_some_and(|clock| clock.moves_to_go != Some(1));
        // A budget beyond what the clock can represent is no deadline.
        TimePlan {
            start,
            target: budget.and_then(|(target, _)| start.checked_add(target)),
            hard: budget.and_then(|(_, hard)| start.checked_add(hard)),
            banked,
        }
    }
}

/// How long a move should take (`target`) and when it is stopped (`hard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// When the search began.
    pub start: Instant,
    /// When the move should end: iterations start while they are predicted to end by about
    /// this time, so that the moves take it on average.
    pub target: Option<Instant>,
    /// The search is stopped at this instant.
    pub hard: Option<Instant>,
    /// Whether time left unused is kept for later moves (a clock), or lost (a time per move,
    /// a byo-yomi period of one move).
    pub banked: bool,
}

impl TimePlan {
    /// Time left before the hard deadline (`None`: unlimited).
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        self.hard.map(|h| h.saturating_duration_since(now))
    }

    /// Whether the target has passed.
    pub fn past_target(&self, now: Instant) -> bool {
        self.target.is_some_and(|t| now >= t)
    }

    /// Whether an iteration predicted to take `predicted` may start at `now`. On a clock, time
    /// left unused is kept for later moves: the whole iteration must be predicted to end by
    /// the target, so that the time kept for the solve is not spent before it. With a time per
    /// move, what is left is lost: the first part of it (one [`UNBANKED_START_SHARE`]-th) must
    /// be predicted to end by the target (the deadline), so that the first root move is searched
    /// and a later one may still be proved better before the iteration is stopped.
    pub fn may_start(&self, now: Instant, predicted: Duration) -> bool {
        let Some(target) = self.target else {
            return true;
        };
        let end = if self.banked {
            now.checked_add(predicted)
        } else {
            now.checked_add(predicted / UNBANKED_START_SHARE)
        };
        end.is_some_and(|end| end <= target)
    }
}

/// With a time per move, an iteration starts when one N-th of it (here a quarter) is predicted
/// to end by the deadline: a quarter played stronger than a half at `time=0.02` on 2 threads
/// (2026-12-02-gui-clock-and-threads.md).
const UNBANKED_START_SHARE: u32 = 4;

/// The safety margin kept before a deadline: 15 ms, or a fifth of very short budgets. It covers
/// the time to notice the deadline, unwind the threads and write the reply.
fn margin(budget: Duration) -> Duration {
    Duration::from_millis(15).min(budget / 5)
}

/// `(target, hard)` for a fixed time per move: all of it but the margin.
fn move_time_budget(time: Duration) -> (Duration, Duration) {
    let hard = time - margin(time);
    (hard, hard)
}

/// `(target, hard)` from a game clock.
///
/// A clock that lasts the game is shared in two parts. The exact solve is planned at the most
/// empties it fits in [`SOLVE_SHARES`] midgame moves' time by `solve_seconds`, and that much
/// is kept for it. The rest is shared equally over the moves before it, at most twice a share
/// a move and a third of the clock. From that point on, a move's target is half the usable time and
/// its deadline three quarters, so that the solve may take what it needs and the moves after
/// it still have time. Without a model, the clock is shared over about half the empties.
///
/// A clock refilled after `moves_to_go` moves (a byo-yomi period) keeps half a share for each
/// of the period's other moves, so that its last move may use all. Most of an increment is
/// added to every share.
///
/// Before any of this, the clock keeps `overhead` and [`MOVE_FLOOR`] for each move it still
/// pays for (the period's, or the engine's moves to the end of the game, this one included,
/// and [`PASS_ALLOWANCE`] more): the time a GUI charges beyond the engine's own, which the
/// engine never sees, and the least a reply takes. As the moves are played the reserve shrinks
/// with them, so that it is not lost. A clock too short for its reserve (an overhead set too
/// high, more passes than allowed) still gives each move a quarter of its equal share.
/// Without the floor and the passes, the reserve ran out at the end of a game
/// (2026-12-02-clock-floor.md).
fn clock_budget(
    clock: &Clock,
    empties: u32,
    overhead: Duration,
    solve_seconds: &dyn Fn(u32) -> Option<f64>,
) -> (Duration, Duration) {
    let moves_left = match clock.moves_to_go {
        Some(period) => period.clamp(1, 40),
        None => empties.div_ceil(2).max(1) + PASS_ALLOWANCE,
    };
    let reserve = (overhead + MOVE_FLOOR).saturating_mul(moves_left);
    let usable = clock
        .remaining
        .saturating_sub(reserve)
        .max(clock.remaining / (4 * moves_left));
    let increment = clock.increment * 9 / 10;
    let (share, cap) = match clock.moves_to_go {
        Some(period) => {
            let moves = period.clamp(1, 40);
            let share = usable / moves;
            (share, usable - share / 2 * (moves - 1))
        }
        None => match solve_plan(usable, empties, solve_seconds) {
            Some((solve_from, kept)) if empties > solve_from => {
                let moves = (empties - solve_from).div_ceil(2).min(40);
                ((usable - kept) / moves, usable / 3)
            }
            Some(_) => {
                let hard = (usable * 3 / 4 + increment).min(usable);
                let hard = hard.saturating_sub(margin(hard));
                return ((usable / 2 + increment).min(hard), hard);
            }
            None => (usable / empties.div_ceil(2).clamp(1, 40), usable / 3),
        },
    };
    let share = share + increment;
    let hard = (share * 2).min(cap + increment).min(usable);
    let hard = hard.saturating_sub(margin(hard));
    (share.min(hard), hard)
}

/// The least time a move costs the engine itself (reading the position, a search stopped at
/// once, writing the reply), kept beside the overhead for each move left, the one searched
/// included: its margin alone is too thin for a budget of a few milliseconds
/// (2026-12-03-byo-yomi-floor-and-trials.md).
const MOVE_FLOOR: Duration = Duration::from_millis(5);

/// Moves kept beyond half the empties to the end of a game on a clock: the opponent's passes
/// give the engine more moves than half the empties, mostly near the end, where the clock
/// has least time for them.
const PASS_ALLOWANCE: u32 = 2;

/// The most time the exact solve may keep, in midgame moves' shares.
const SOLVE_SHARES: u32 = 10;

/// The time a clock keeps for the exact solve, as a share of the model's, which times a solve
/// from an empty table. In a game the midgame searches before it have filled the table and
/// reach the end themselves, in far less time than the model's (2026-11-28-clock-reserve.md).
const SOLVE_RESERVE_OF_MODEL: f64 = 0.25;

/// The exact solve a clock with `usable` time plans at `empties` or fewer, and the time it
/// keeps for it ([`SOLVE_RESERVE_OF_MODEL`] of the model's): the most empties whose solve
/// keeps at most [`SOLVE_SHARES`] shares of the time left to the moves before it. The plan
/// stays where it is while the moves spend their shares. `None` without a model.
fn solve_plan(
    usable: Duration,
    empties: u32,
    solve_seconds: &dyn Fn(u32) -> Option<f64>,
) -> Option<(u32, Duration)> {
    solve_seconds(0)?;
    let usable = usable.as_secs_f64();
    let fits = |e: u32| {
        let moves = f64::from((empties - e).div_ceil(2));
        let shares = f64::from(SOLVE_SHARES);
        let kept = SOLVE_RESERVE_OF_MODEL * solve_seconds(e)?;
        (kept * (moves + shares) <= usable * shares).then_some(kept)
    };
    Some(
        (0..=empties)
            .rev()
            .find_map(|e| fits(e).map(|t| (e, Duration::from_secs_f64(t))))
            .unwrap_or((0, Duration::ZERO)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_model(_: u32) -> Option<f64> {
        None
    }

    /// Othello-like: 0.1 s at 20 empties, doubling with each empty square.
    fn model(empties: u32) -> Option<f64> {
        Some(0.1 * 2f64.powi(empties as i32 - 20))
    }

    #[test]
    fn move_time_keeps_a_margin() {
        let start = Instant::now();
        let plan =
            Limits::move_time(Duration::from_secs(1)).plan(start, 40, Duration::ZERO, &no_model);
        assert_eq!(plan.hard, Some(start + Duration::from_millis(985)));
        assert_eq!(plan.target, plan.hard);
        let tiny =
            Limits::move_time(Duration::from_millis(10)).plan(start, 40, Duration::ZERO, &no_model);
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
        let plan = limits.plan(start, 40, Duration::ZERO, &no_model);
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
        let hard = short
            .plan(start, 50, Duration::ZERO, &no_model)
            .hard
            .unwrap()
            - start;
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
        // One move in the period: all of it but the move's floor and the margin.
        let plan = period(1.0, 1).plan(start, 40, Duration::ZERO, &no_model);
        assert_eq!(plan.hard.unwrap() - start, Duration::from_millis(980));
        assert_eq!(plan.target, plan.hard);
        let plan = period(0.03, 1).plan(start, 40, Duration::ZERO, &no_model);
        assert_eq!(plan.hard.unwrap() - start, Duration::from_millis(20));
        // Four moves in 4 s: about a second each, at most the time that leaves the other
        // three half a second each.
        let hard = period(4.0, 4)
            .plan(start, 40, Duration::ZERO, &no_model)
            .hard
            .unwrap()
            - start;
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
        assert!(
            whole_game
                .plan(start, 40, Duration::ZERO, &no_model)
                .hard
                .unwrap()
                - start
                < Duration::from_millis(150)
        );
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
        let plan = limits.plan(Instant::now(), 60, Duration::ZERO, &no_model);
        assert!(plan.hard.is_some());
        assert!(
            Limits::move_time(most)
                .plan(Instant::now(), 60, Duration::ZERO, &no_model)
                .hard
                .is_some()
        );
    }

    #[test]
    fn no_limit_means_no_deadline() {
        let plan = Limits::depth(10).plan(Instant::now(), 30, Duration::ZERO, &no_model);
        assert_eq!(plan.hard, None);
        assert_eq!(plan.remaining(Instant::now()), None);
    }

    #[test]
    fn a_clock_keeps_time_for_the_solve() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(4),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let ms = Duration::from_millis;
        // 41 empties: 21 moves and 2 passes keep 5 ms each, 3,885 ms are usable. The solve of
        // 26 empties keeps 1.6 s (a quarter of the model's 6.4 s), less than ten times the
        // share of the 8 moves before it in the other 2,285 ms (27 empties would keep 3.2 s,
        // more than ten shares of 7 moves).
        let plan = limits.plan(start, 41, Duration::ZERO, &model);
        assert_eq!(plan.target.unwrap() - start, ms(2285) / 8);
        assert_eq!(plan.hard.unwrap() - start, ms(2285) * 2 / 8 - ms(15));
        // Over 21 moves without a model.
        let without = limits.plan(start, 41, Duration::ZERO, &no_model);
        assert_eq!(without.target.unwrap() - start, ms(3885) / 21);
        // At the solve point and after it: half the usable clock (15 moves keep 5 ms each),
        // three quarters at most.
        let plan = limits.plan(start, 26, Duration::ZERO, &model);
        assert_eq!(plan.target.unwrap() - start, ms(3925) / 2);
        assert_eq!(plan.hard.unwrap() - start, ms(3925) * 3 / 4 - ms(15));
    }

    #[test]
    fn a_clock_keeps_the_overhead_of_every_move_left() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let clock = |seconds: u64, moves_to_go| Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(seconds),
                increment: Duration::ZERO,
                moves_to_go,
            }),
            ..Limits::default()
        };
        // 10 s, 40 empties: 20 moves and 2 passes keep 55 ms each (the overhead and the
        // floor), the other 8,790 ms are shared over the 20 moves.
        let plan = clock(10, None).plan(start, 40, ms(50), &no_model);
        assert_eq!(plan.target.unwrap() - start, ms(8790) / 20);
        // After the solve point: half and three quarters of what the 13 moves and 2 passes
        // left leave.
        let plan = clock(10, None).plan(start, 26, ms(50), &model);
        assert_eq!(plan.target.unwrap() - start, ms(9175) / 2);
        assert_eq!(plan.hard.unwrap() - start, ms(9175) * 3 / 4 - ms(15));
        // The last move of a period keeps its own overhead and floor.
        let plan = clock(1, Some(1)).plan(start, 40, ms(50), &no_model);
        assert_eq!(plan.hard.unwrap() - start, ms(945 - 15));
        // An overhead beyond the clock still leaves each move a quarter of its equal share
        // of the clock (22 moves kept): the shares of it are played as they would be.
        let plan = clock(1, None).plan(start, 40, ms(500), &no_model);
        assert_eq!(plan.target.unwrap() - start, ms(1000) / 88 / 20);
    }

    /// Plays a game on `clock` where every move takes all the time it may (its deadline and
    /// the margin, at least [`MOVE_FLOOR`]) and is charged `overhead` more; the opponent
    /// passes `passes` times before the end. Returns the least time left before a move, or
    /// `None` if the clock ran out.
    fn worst_case_game(
        clock: Duration,
        overhead: Duration,
        passes: u32,
        solve_seconds: &dyn Fn(u32) -> Option<f64>,
    ) -> Option<Duration> {
        let start = Instant::now();
        let mut remaining = clock;
        let mut least = clock;
        let mut empties = 60;
        let mut passes_left = passes;
        while empties > 0 {
            least = least.min(remaining);
            let limits = Limits {
                clock: Some(Clock {
                    remaining,
                    increment: Duration::ZERO,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
            let hard = limits.plan(start, empties, overhead, solve_seconds).hard? - start;
            let took = (hard + margin(hard)).max(MOVE_FLOOR) + overhead;
            remaining = remaining.checked_sub(took)?;
            // The opponent's move, or its pass near the end.
            if passes_left > 0 && empties <= 2 * passes + 2 {
                passes_left -= 1;
                empties -= 1;
            } else {
                empties = empties.saturating_sub(2);
            }
        }
        Some(least)
    }

    #[test]
    fn a_clock_spent_to_every_deadline_never_runs_out() {
        let ms = Duration::from_millis;
        for seconds in [1, 4, 10, 60, 600] {
            for overhead in [ms(0), ms(50)] {
                for passes in 0..=PASS_ALLOWANCE {
                    for solve in [&model as &dyn Fn(u32) -> Option<f64>, &no_model] {
                        let clock = Duration::from_secs(seconds);
                        if overhead.saturating_mul(32) >= clock / 2 {
                            continue;
                        }
                        let least = worst_case_game(clock, overhead, passes, solve);
                        assert!(
                            least.is_some(),
                            "{seconds} s, {overhead:?} a move, {passes} passes: out of time"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_iteration_starts_when_it_is_predicted_to_end_in_time() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let ms = Duration::from_millis;
        // On a clock: the whole iteration by the target.
        let clock = TimePlan {
            start,
            target: Some(at(100)),
            hard: Some(at(200)),
            banked: true,
        };
        assert!(clock.may_start(at(40), ms(60)));
        assert!(!clock.may_start(at(40), ms(61)));
        // With a time per move: its first quarter by the deadline.
        let per_move = TimePlan {
            start,
            target: Some(at(100)),
            hard: Some(at(100)),
            banked: false,
        };
        assert!(per_move.may_start(at(40), ms(240)));
        assert!(!per_move.may_start(at(40), ms(244)));
        assert!(!per_move.may_start(at(100), ms(2)));
        // Without a deadline, always.
        let free = TimePlan {
            start,
            target: None,
            hard: None,
            banked: false,
        };
        assert!(free.may_start(at(40), Duration::from_secs(1_000_000)));
    }
}
