//! Match statistics: win/draw/loss tallies, the logistic Elo difference with its 95% confidence
//! interval, and the sequential probability ratio test (SPRT) that stops a match early.
//!
//! Every figure is from the first engine's point of view; a game scores 1, ½ or 0.

use serde::Serialize;
use thiserror::Error;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game: its score for the first engine (`1.0`, `0.5` or `0.0`).
    pub fn add(&mut self, points: f64) {
        if points > 0.5 {
            self.wins += 1;
        } else if points < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The mean score per game (`None` before the first game).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The observed variance of one game's score (trinomial: 1, ½, 0 with the observed
    /// frequencies).
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    /// The Elo difference and its 95% confidence interval (`None` before the first game).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let var = self.variance()?;
        let half_width = Z95 * (var / self.games() as f64).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score((s - half_width).max(0.0)),
            high: elo_from_score((s + half_width).min(1.0)),
        })
    }
}

/// An Elo difference with its 95% confidence interval. A perfect score gives infinite values
/// (written as `null` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl std::fmt::Display for EloEstimate {
    /// `+88.7 (95%: +47.2 .. +132.9)`, infinities as `+inf`/`-inf`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (95%: {} .. {})",
            signed(self.elo),
            signed(self.low),
            signed(self.high)
        )
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The logistic Elo difference that gives the expected score `s` (in `0..=1`):
/// `-400 log10(1/s - 1)`; `±inf` at the ends.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test of H0 `elo = elo0` against H1 `elo = elo1`, with the
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Why SPRT parameters were refused (the messages name the `--sprt` option that sets them).
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub enum SprtError {
    /// The Elos are not finite or not in order.
    #[error("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    Elos {
        /// Elo under H0.
        elo0: f64,
        /// Elo under H1.
        elo1: f64,
    },
    /// An error rate outside `(0, 1)`, or rates that sum to 1 or more.
    #[error(
        "--sprt: alpha ({alpha}) and beta ({beta}) must lie between 0 and 1, with a sum below 1"
    )]
    Rates {
        /// False-positive rate.
        alpha: f64,
        /// False-negative rate.
        beta: f64,
    },
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    /// The log-likelihood ratio fell below the lower bound: `elo0` is accepted.
    H0,
    /// The log-likelihood ratio rose above the upper bound: `elo1` is accepted.
    H1,
}

impl Sprt {
    /// Checks the parameters: finite Elos with `elo0 < elo1`, `alpha` and `beta` in `(0, 1)`
    /// with `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Elos { elo0, elo1 });
        }
        let rate = |x: f64| x > 0.0 && x < 1.0;
        if !(rate(alpha) && rate(beta) && alpha + beta < 1.0) {
            return Err(SprtError::Rates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `(lower, upper)`: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio by the GSPRT approximation (fishtest, cutechess):
    /// `0.5 N (s1 - s0)(2s - s0 - s1) / var`, with `s0`, `s1` the expected scores of the two
    /// Elos, `s` the mean score and `var` the per-game variance. Zero while the variance is zero
    /// (no game yet, or every game with the same score).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let (Some(s), Some(var)) = (tally.score(), tally.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        0.5 * tally.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / var
    }

    /// The decision, once the ratio has left the bounds.
    pub fn decide(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 10^(1/4) : 1 odds is 100 Elo.
        assert!(close(elo_from_score(score_from_elo(100.0)), 100.0));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0));
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn confidence_interval_from_the_trinomial_variance() {
        // 100 wins, 50 draws, 50 losses: s = 0.625, var = 0.171875 (values from an independent
        // Python computation).
        let t = tally(100, 50, 50);
        assert_eq!(t.score(), Some(0.625));
        assert!(close(t.variance().unwrap(), 0.171_875));
        let e = t.elo().unwrap();
        assert!(close(e.elo, 88.739_499_846_542_51), "{e:?}");
        assert!(close(e.low, 47.222_663_628_591_555), "{e:?}");
        assert!(close(e.high, 132.908_728_751_890_75), "{e:?}");
        // Ten times fewer games: the same estimate, a wider interval.
        let e = tally(10, 5, 5).elo().unwrap();
        assert!(close(e.low, -39.564_837_551_208_285), "{e:?}");
        assert!(close(e.high, 248.184_866_976_588_67), "{e:?}");
        assert_eq!(e.to_string(), "+88.7 (95%: -39.6 .. +248.2)");
    }

    #[test]
    fn degenerate_tallies() {
        assert_eq!(Tally::default().elo(), None);
        let all_wins = tally(4, 0, 0).elo().unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.to_string(), "+inf (95%: +inf .. +inf)");
        let draws = tally(0, 6, 0).elo().unwrap();
        assert_eq!((draws.elo, draws.low, draws.high), (0.0, 0.0, 0.0));
        let mut t = Tally::default();
        for points in [1.0, 0.5, 0.0, 0.0] {
            t.add(points);
        }
        assert_eq!(t, tally(1, 1, 2));
    }

    #[test]
    fn sprt_log_likelihood_ratio() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979_166_440_3));
        assert!(close(upper, 2.944_438_979_166_440_3));
        // Values from an independent Python computation of the same formula.
        assert!(close(
            sprt.llr(&tally(100, 50, 50)),
            1.016_437_077_214_787_5
        ));
        assert!(close(
            sprt.llr(&tally(60, 80, 60)),
            -0.034_512_800_533_283_68
        ));
        assert!(close(
            sprt.llr(&tally(1000, 800, 900)),
            1.650_875_541_622_462_3
        ));
        assert_eq!(sprt.decide(&tally(100, 50, 50)), None);
        assert_eq!(sprt.llr(&tally(0, 10, 0)), 0.0);
        // A clear winner is accepted, a clear loser rejected.
        assert_eq!(sprt.decide(&tally(300, 100, 100)), Some(SprtDecision::H1));
        assert_eq!(sprt.decide(&tally(100, 100, 300)), Some(SprtDecision::H0));
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(-5.0, 5.0, 0.05, 0.1).is_ok());
    }
}
