//! Multi-ProbCut parameters: a deep search's value `v_d` is predicted from a shallow one's as
//! `v_d ≈ a + b · v_s` with residual standard deviation `sigma`, per depth and game stage.
//!
//! The table is fitted on data by `iago probcut-fit` (see docs/manual.md): positions from game
//! archives, full-width searches at depth `d` and at [`shallow_depth`]`(d)`, least squares per
//! (depth, stage). Re-fit whenever the evaluation changes.

/// The selectivity of a search: the confidence selectivity of its Multi-ProbCut, in percent, as
/// `--selectivity` takes it and `12@95%` prints it. A cut is taken when the shallow search's
/// result lies `t` standard deviations beyond the bound; the percent is the chance that a
/// normal error stays within `t` of its mean. Selectivities are ordered from the most pruning
/// (58%) to none (100%, [`Selectivity::NONE`]): the hash table takes an entry of a selectivity
/// at least as high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

/// `(percent, t)` of each selectivity, ascending; the last does no ProbCut.
const SELECTIVITIES: [(u8, f32); 7] = [
    (58, 0.8),
    (73, 1.1),
    (87, 1.5),
    (95, 2.0),
    (98, 2.6),
    (99, 3.3),
    (100, f32::INFINITY),
];

impl Selectivity {
    /// 100%: no selective cut, the search is full-width.
    pub const NONE: Selectivity = Selectivity(SELECTIVITIES.len() as u8 - 1);

    /// The selectivity whose confidence is `percent` (58, 73, 87, 95, 98, 99 or 100), if there is one.
    pub const fn from_percent(percent: u8) -> Option<Selectivity> {
        let mut k = 0;
        while k < SELECTIVITIES.len() {
            if SELECTIVITIES[k].0 == percent {
                return Some(Selectivity(k as u8));
            }
            k += 1;
        }
        None
    }

    /// The selectivity whose confidence is `percent`, for constants: a percent that is none does
    /// not compile.
    pub const fn new(percent: u8) -> Selectivity {
        match Selectivity::from_percent(percent) {
            Some(selectivity) => selectivity,
            None => panic!("not a selectivity"),
        }
    }

    /// The confidence in percent.
    pub const fn percent(self) -> u8 {
        SELECTIVITIES[self.0 as usize].0
    }

    /// How many standard deviations beyond a bound a shallow result must lie for a cut
    /// (infinite at [`Selectivity::NONE`]).
    pub fn t(self) -> f32 {
        SELECTIVITIES[self.0 as usize].1
    }

    /// Whether searches at this selectivity prune selectively (every one but
    /// [`Selectivity::NONE`]).
    pub fn is_selective(self) -> bool {
        self != Selectivity::NONE
    }

    /// The next higher selectivity that still prunes, if any (`99` has none).
    pub fn next_selective(self) -> Option<Selectivity> {
        let next = Selectivity::from_rank(self.0 + 1);
        (next > self && next.is_selective()).then_some(next)
    }

    /// The position of the selectivity in the ascending list, from 0 (for a compact encoding).
    pub(crate) fn rank(self) -> u8 {
        self.0
    }

    /// The selectivity of rank `rank` ([`Selectivity::rank`]); ranks beyond the last give the last.
    pub(crate) fn from_rank(rank: u8) -> Selectivity {
        Selectivity(rank.min(Selectivity::NONE.0))
    }
}

/// A text that names no selectivity; it says what the selectivities are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSelectivityError(String);

impl std::fmt::Display for ParseSelectivityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = SELECTIVITIES.iter().map(|(p, _)| p.to_string()).collect();
        write!(f, "one of {}, not {}", names.join(", "), self.0)
    }
}

impl std::error::Error for ParseSelectivityError {}

impl std::fmt::Display for Selectivity {
    /// The percent, as `--selectivity` takes it (`58`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.percent())
    }
}

impl std::str::FromStr for Selectivity {
    type Err = ParseSelectivityError;

    /// A selectivity by its percent (`"58"`, …, `"100"`, blanks around it ignored).
    fn from_str(text: &str) -> Result<Selectivity, ParseSelectivityError> {
        let text = text.trim();
        text.parse::<u8>()
            .ok()
            .and_then(Selectivity::from_percent)
            .ok_or_else(|| ParseSelectivityError(text.to_string()))
    }
}

/// The smallest depth at which ProbCut is tried with a shallow search.
pub const MIN_DEPTH: u32 = 3;

/// The deepest search that ProbCut cuts by the static evaluation (from depth 1; below
/// [`MIN_DEPTH`] no shallow search is cheap enough): deeper, the static cut cost strength
/// (2026-11-28-static-probcut.md).
pub const STATIC_MAX_DEPTH: u32 = 2;

/// The depth of the shallow search for a deep one at `depth`: about half, with the same parity
/// (odd and even depths evaluate differently).
pub const fn shallow_depth(depth: u32) -> u32 {
    let mut s = depth / 2;
    if (depth - s) % 2 == 1 {
        s -= 1;
    }
    if s == 0 { 1 } else { s }
}

/// Stages: empties 0-14, 15-24, 25-34, 35-44, 45-60.
pub const STAGES: usize = 5;

/// The stage of a position with `empties` empty squares.
pub const fn stage(empties: u32) -> usize {
    match empties {
        0..=14 => 0,
        15..=24 => 1,
        25..=34 => 2,
        35..=44 => 3,
        _ => 4,
    }
}

/// Depths covered by the fitted table; deeper searches use the deepest row.
pub const MAX_FITTED_DEPTH: u32 = 14;

/// `(a, b, sigma)` for a search at `depth` with `empties` empty squares.
pub fn parameters(depth: u32, empties: u32) -> (f32, f32, f32) {
    let d = depth.clamp(MIN_DEPTH, MAX_FITTED_DEPTH) as usize - MIN_DEPTH as usize;
    FITTED[d][stage(empties)]
}

/// `(a, b, sigma)` of the static evaluation against a search at `depth` (1 to
/// [`STATIC_MAX_DEPTH`]) with `empties` empty squares.
pub fn static_parameters(depth: u32, empties: u32) -> (f32, f32, f32) {
    let d = depth.clamp(1, STATIC_MAX_DEPTH) as usize - 1;
    STATIC_FITTED[d][stage(empties)]
}

/// Rows: depth 1..=[`STATIC_MAX_DEPTH`], the static evaluation against a full-width search at
/// that depth; columns: [`stage`]. Fitted by `iago probcut-fit WTH_20{00..22}.wtb --positions 3000
/// --max-depth 2 --seed 13` (its second table):
/// 3000 positions from 68655 games (seed 13), pattern evaluation
#[rustfmt::skip]
static STATIC_FITTED: [[(f32, f32, f32); STAGES]; STATIC_MAX_DEPTH as usize] = [
    [(0.59, 1.032, 4.08), (0.08, 0.992, 3.66), (-0.24, 1.007, 3.21), (-0.77, 0.960, 2.55), (-1.86, 0.972, 2.28)], // depth 1 (static), pairs per stage: 247/783/772/813/385
    [(0.11, 1.021, 4.66), (-0.13, 1.004, 3.95), (-0.15, 0.998, 3.50), (-0.06, 0.968, 2.83), (-0.13, 0.968, 2.44)], // depth 2 (static), pairs per stage: 247/783/772/813/385
];

/// Rows: depth 3..=14; columns: [`stage`]. Fitted for the trained evaluation by
/// `iago probcut-fit WTH_20{00..22}.wtb --positions 800 --max-depth 12` (the WTHOR archives of
/// 2000-2022; the command and its data are in docs/manual.md)
/// (rows 13 and 14 repeat row 12):
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation
#[rustfmt::skip]
// A refit may give a sigma of 3.14 (an earlier table had one): data, not an approximation
// of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.29, 1.001, 4.70), (-0.28, 1.004, 4.13), (-0.22, 1.000, 3.31), (0.19, 0.987, 2.70), (0.21, 0.891, 2.39)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.55, 1.022, 3.40), (0.13, 0.990, 3.27), (-0.40, 1.025, 2.86), (-0.13, 1.010, 2.61), (-0.07, 1.002, 1.86)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.71, 0.980, 5.11), (0.02, 0.999, 4.90), (-0.33, 1.000, 4.05), (0.26, 1.034, 3.44), (0.33, 0.864, 2.54)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.84, 0.979, 3.75), (-0.02, 1.004, 4.56), (-0.46, 1.040, 3.64), (-0.10, 1.069, 3.07), (-0.41, 1.013, 2.17)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.05, 0.974, 4.38), (0.10, 0.976, 4.31), (0.11, 1.012, 3.29), (0.22, 1.044, 2.47), (0.28, 0.918, 1.82)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.51, 0.970, 4.33), (-0.32, 1.009, 3.66), (-0.02, 1.017, 2.95), (-0.01, 1.053, 2.05), (-0.51, 0.981, 1.53)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.26, 0.992, 5.45), (0.08, 0.982, 4.71), (0.03, 0.985, 3.59), (0.41, 1.030, 2.84), (0.38, 0.960, 1.96)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.66, 0.983, 5.19), (-0.37, 1.010, 3.99), (-0.21, 1.016, 3.22), (-0.01, 1.041, 2.51), (-0.77, 1.002, 1.72)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.05, 0.993, 5.31), (-0.14, 0.987, 3.70), (0.17, 0.996, 3.09), (0.36, 1.010, 1.97), (0.26, 0.947, 1.76)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.52, 1.044, 5.13), (-0.13, 0.982, 3.42), (-0.14, 1.008, 2.77), (-0.22, 1.009, 1.93), (-0.57, 0.970, 1.54)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.52, 1.044, 5.13), (-0.13, 0.982, 3.42), (-0.14, 1.008, 2.77), (-0.22, 1.009, 1.93), (-0.57, 0.970, 1.54)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.52, 1.044, 5.13), (-0.13, 0.982, 3.42), (-0.14, 1.008, 2.77), (-0.22, 1.009, 1.93), (-0.57, 0.970, 1.54)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectivities_by_percent() {
        let all: Vec<u8> = (0..=100)
            .filter_map(Selectivity::from_percent)
            .map(Selectivity::percent)
            .collect();
        assert_eq!(all, [58, 73, 87, 95, 98, 99, 100]);
        assert!(Selectivity::new(58) < Selectivity::new(95));
        assert!(Selectivity::new(99) < Selectivity::NONE);
        assert!(!Selectivity::NONE.is_selective() && Selectivity::new(99).is_selective());
        assert_eq!(" 87 ".parse(), Ok(Selectivity::new(87)));
        let err = "90".parse::<Selectivity>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "one of 58, 73, 87, 95, 98, 99, 100, not 90"
        );
        for selectivity in (0..=100).filter_map(Selectivity::from_percent) {
            assert_eq!(Selectivity::from_rank(selectivity.rank()), selectivity);
        }
        let ladder: Vec<u8> =
            std::iter::successors(Some(Selectivity::new(58)), |s| s.next_selective())
                .map(Selectivity::percent)
                .collect();
        assert_eq!(ladder, [58, 73, 87, 95, 98, 99]);
        assert_eq!(Selectivity::NONE.next_selective(), None);
    }

    #[test]
    fn shallow_depths_keep_parity() {
        for d in MIN_DEPTH..40 {
            let s = shallow_depth(d);
            assert!(s >= 1 && s < d, "{d} -> {s}");
            if s > 1 {
                assert_eq!((d - s) % 2, 0, "{d} -> {s}");
            }
        }
    }
}
