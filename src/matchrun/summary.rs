//! The JSON summary of a match (`iago match --json`).

use serde::Serialize;

use super::game::Outcome;
use super::report::{Forfeits, MatchReport, SprtState};

/// The JSON summary of a match.
#[derive(Serialize, Debug)]
pub struct MatchSummary {
    /// The two engines; results are from the first one's view.
    pub engines: [String; 2],
    /// Their limits as text, or their level (`level 3, casual`), or `random moves`.
    pub limits: [String; 2],
    /// Games played.
    pub games: u32,
    /// Games scheduled.
    pub scheduled: usize,
    /// First engine's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// First engine's losses.
    pub losses: u32,
    /// Mean points per game (0 to 1).
    pub score: Option<f64>,
    /// Elo difference (`null` when infinite or no games).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval.
    pub elo_low: Option<f64>,
    /// Upper end of the 95% interval.
    pub elo_high: Option<f64>,
    /// First engine's mean disc difference over games played to the end.
    pub average_disc_difference: Option<f64>,
    /// Forfeits of each engine.
    pub forfeits: [Forfeits; 2],
    /// The SPRT.
    pub sprt: Option<SprtState>,
    /// The opening seed, when the order was random.
    pub seed: Option<u64>,
    /// Seconds the match took.
    pub seconds: f64,
    /// The time each engine spent on its moves.
    pub time: [TimeSummary; 2],
    /// Every game.
    pub results: Vec<GameSummary>,
}

/// One game in the JSON summary.
#[derive(Serialize, Debug)]
pub struct GameSummary {
    /// 1-based game number.
    pub game: usize,
    /// The opening transcript.
    pub opening: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The GGF result (`+12`, `-64:t`).
    pub result: String,
    /// Black's disc difference (forfeits ±64).
    pub score_for_black: i32,
    /// `normal`, or the forfeit (`time`, `crash`, `protocol`, `illegal`, `resign`).
    pub termination: String,
    /// What went wrong, for a forfeit.
    pub message: Option<String>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The summary of a report, for JSON.
pub fn summary(report: &MatchReport) -> MatchSummary {
    let elo = report.elo();
    MatchSummary {
        engines: report.names.clone(),
        limits: report.settings.clone(),
        games: report.tally.games(),
        scheduled: report.scheduled,
        wins: report.tally.wins,
        draws: report.tally.draws,
        losses: report.tally.losses,
        score: report.tally.score(),
        elo: elo.and_then(|e| finite(e.elo)),
        elo_low: elo.and_then(|e| finite(e.low)),
        elo_high: elo.and_then(|e| finite(e.high)),
        average_disc_difference: report.average_discs(),
        forfeits: report.forfeits,
        sprt: report.sprt,
        seed: report.seed,
        seconds: report.elapsed.as_secs_f64(),
        time: [0, 1].map(|engine| {
            let used = report.time_use(engine);
            TimeSummary {
                ms_per_move: used.ms_per_move(),
                seconds_per_game: used.seconds_per_game(),
                clock_share: used.clock_share(),
                least_seconds_left: used.least_left,
            }
        }),
        results: report
            .games
            .iter()
            .map(|g| {
                let (termination, message) = match &g.outcome {
                    Outcome::Finished { .. } => ("normal".to_string(), None),
                    Outcome::Forfeited {
                        reason, message, ..
                    } => (
                        serde_json::to_value(reason)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        Some(message.clone()),
                    ),
                };
                GameSummary {
                    game: g.index + 1,
                    opening: g.opening.transcript.clone(),
                    black: g.names[0].clone(),
                    white: g.names[1].clone(),
                    result: g.result_text(),
                    score_for_black: g.score_for_black(),
                    termination,
                    message,
                }
            })
            .collect(),
    }
}

/// [`TimeUse`] in the JSON summary.
#[derive(Serialize, Debug)]
pub struct TimeSummary {
    /// Mean milliseconds a move.
    pub ms_per_move: Option<f64>,
    /// Mean seconds a game.
    pub seconds_per_game: Option<f64>,
    /// The share of its clock used (0 to 1), with a clock.
    pub clock_share: Option<f64>,
    /// The least time left on its clock at the end of a game, in seconds, with a clock.
    pub least_seconds_left: Option<f64>,
}
