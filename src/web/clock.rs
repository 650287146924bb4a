//! The optional game clock of the page: minutes for each side and an increment, charged
//! while the side to move thinks at the end of its line (not while a person looks back in
//! the game). A side whose time runs out loses on time; the game can go on without a clock.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::Color;

/// The longest game a clock is set for, in minutes a side.
const MAX_MINUTES: f64 = 600.0;

/// The largest increment, in seconds.
const MAX_INCREMENT: f64 = 60.0;

/// The clock of a game.
#[derive(Clone, Debug)]
pub(crate) struct GameClock {
    initial: Duration,
    increment: Duration,
    remaining: [Duration; 2],
    running: Option<(Color, Instant)>,
    flagged: Option<Color>,
}

/// The clock as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ClockView {
    /// Black's time left, in milliseconds (when the state was sent).
    pub black_ms: u64,
    /// White's.
    pub white_ms: u64,
    /// The side whose time runs (`black` or `white`), if any.
    pub running: Option<&'static str>,
    /// The side that ran out of time, if any.
    pub flagged: Option<&'static str>,
    /// The time each side started with, in minutes.
    pub minutes: f64,
    /// The increment, in seconds.
    pub increment: f64,
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl GameClock {
    /// A clock of `minutes` a side and `increment` seconds a move.
    pub fn new(minutes: f64, increment: f64) -> Result<GameClock, String> {
        if !(minutes > 0.0 && minutes <= MAX_MINUTES) {
            return Err(format!(
                "a clock has more than 0 and at most {MAX_MINUTES} minutes a side"
            ));
        }
        if !(0.0..=MAX_INCREMENT).contains(&increment) {
            return Err(format!(
                "a clock's increment is 0 to {MAX_INCREMENT} seconds"
            ));
        }
        let initial = Duration::from_secs_f64(minutes * 60.0);
        Ok(GameClock {
            initial,
            increment: Duration::from_secs_f64(increment),
            remaining: [initial; 2],
            running: None,
            flagged: None,
        })
    }

    /// Both sides back to their full time, the clock stopped.
    pub fn reset(&mut self) {
        self.remaining = [self.initial; 2];
        self.running = None;
        self.flagged = None;
    }

    /// Stops the clock, charging the side whose time ran; `moved`: the colour that just
    /// moved, which gets the increment when its time was running.
    pub fn update(&mut self, moved: Option<Color>) {
        if let Some((color, since)) = self.running.take() {
            let i = index(color);
            self.remaining[i] = self.remaining[i].saturating_sub(since.elapsed());
            if self.remaining[i].is_zero() {
                self.flagged = Some(color);
            } else if moved == Some(color) {
                self.remaining[i] += self.increment;
            }
        }
    }

    /// Starts `color`'s time, unless a side ran out of time.
    pub fn start(&mut self, color: Color) {
        if self.flagged.is_none() {
            self.running = Some((color, Instant::now()));
        }
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<Instant> {
        let (color, since) = self.running?;
        Some(since + self.remaining[index(color)])
    }

    /// The side that ran out of time.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// `color`'s time left now.
    fn left(&self, color: Color) -> Duration {
        let full = self.remaining[index(color)];
        match self.running {
            Some((c, since)) if c == color => full.saturating_sub(since.elapsed()),
            _ => full,
        }
    }

    /// The clock of Iago's search for `color`'s move.
    pub fn limits(&self, color: Color) -> crate::search::time::Clock {
        crate::search::time::Clock {
            remaining: self.left(color),
            increment: self.increment,
            moves_to_go: None,
        }
    }

    /// The clock as the page draws it.
    pub fn view(&self) -> ClockView {
        let name = super::view::color_name;
        ClockView {
            black_ms: self.left(Color::Black).as_millis() as u64,
            white_ms: self.left(Color::White).as_millis() as u64,
            running: self.running.map(|(c, _)| name(c)),
            flagged: self.flagged.map(name),
            minutes: self.initial.as_secs_f64() / 60.0,
            increment: self.increment.as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_to_move_is_charged_and_gets_its_increment() {
        let mut clock = GameClock::new(1.0, 2.0).unwrap();
        clock.start(Color::Black);
        std::thread::sleep(Duration::from_millis(20));
        clock.update(Some(Color::Black));
        let black = clock.remaining[0];
        assert!(black > Duration::from_secs(61) && black < Duration::from_millis(61_990));
        assert_eq!(clock.remaining[1], Duration::from_secs(60));
        assert!(clock.deadline().is_none());
        clock.start(Color::White);
        assert!(clock.deadline().is_some());
    }

    #[test]
    fn a_side_out_of_time_is_flagged_and_the_clock_stops() {
        let mut clock = GameClock::new(0.0005, 0.0).unwrap();
        clock.start(Color::White);
        std::thread::sleep(Duration::from_millis(60));
        clock.update(Some(Color::White));
        assert_eq!(clock.flagged(), Some(Color::White));
        clock.start(Color::Black);
        assert!(clock.deadline().is_none());
        assert_eq!(clock.view().flagged, Some("white"));
    }

    #[test]
    fn bad_clocks_are_refused() {
        for (minutes, increment) in [
            (0.0, 0.0),
            (-1.0, 0.0),
            (601.0, 0.0),
            (1.0, -1.0),
            (1.0, 61.0),
            (f64::NAN, 0.0),
        ] {
            assert!(
                GameClock::new(minutes, increment).is_err(),
                "{minutes} {increment}"
            );
        }
    }
}
