//! What a match produced ([`MatchReport`]: the games, the tally, forfeits, the SPRT, the time
//! each engine used) and its text report.

use std::time::Duration;

use serde::Serialize;

use super::config::MatchConfig;
use super::game::{Forfeit, GameRecord, Outcome};
use super::spec::GameLimits;
use super::stats::{EloEstimate, Sprt, SprtDecision, Tally};

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
    pub(crate) fn add(&mut self, reason: Forfeit) {
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
    /// What each plays at, as text: its limits (`depth 8`, `clock 60+0.5`), for Iago below
    /// full strength its level (`level 3, casual`), or `random moves`.
    pub settings: [String; 2],
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
            let spent = times.iter().sum::<f64>();
            used.seconds += spent;
            if let Some(clock) = self.limits[engine].clock {
                let moves = times.len() as u32;
                let given = (clock.base + clock.increment * moves).as_secs_f64();
                used.clock_seconds += given;
                let left = given - spent;
                used.least_left = Some(used.least_left.map_or(left, |l: f64| l.min(left)));
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
    /// The least time left on its clock at the end of a game, in seconds (negative: over
    /// its time, within the runner's margin), with a clock.
    pub least_left: Option<f64>,
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
        report.settings[0],
        report.settings[1],
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
            if let (Some(share), Some(left)) = (used.clock_share(), used.least_left) {
                part.push_str(&format!(
                    " ({:.0}% of its clock, at least {left:.2} s left)",
                    100.0 * share
                ));
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
                    g.names[super::game::color_index(*loser)],
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
