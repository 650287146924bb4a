//! Multi-ProbCut parameters: a deep search's value `v_d` is predicted from a shallow one's as
//! `v_d ≈ a + b · v_s` with residual standard deviation `sigma`, per depth and game stage.
//!
//! The table is fitted on data by `iago probcut-fit` (see the README): positions from game
//! archives, full-width searches at depth `d` and at [`shallow_depth`]`(d)`, least squares per
//! (depth, stage). Re-fit whenever the evaluation changes.

/// The smallest depth at which ProbCut is tried.
pub const MIN_DEPTH: u32 = 3;

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

/// Rows: depth 3..=14; columns: [`stage`]. Fitted for the trained evaluation by
/// `iago probcut-fit ../shared/data/games/wthor/WTH_20{00..22}.wtb --positions 800 --max-depth 12`
/// (rows 13 and 14 repeat row 12):
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 357 s
#[rustfmt::skip]
// A fitted sigma of 3.14 is data, not an approximation of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.27, 0.994, 4.61), (-0.34, 0.999, 4.12), (-0.11, 0.992, 3.30), (0.08, 0.981, 2.56), (0.35, 0.887, 2.11)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.47, 1.024, 3.50), (-0.09, 0.983, 3.21), (-0.43, 1.015, 2.78), (-0.08, 1.021, 2.65), (-0.15, 0.986, 1.94)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.93, 0.972, 5.21), (-0.12, 0.989, 4.93), (-0.14, 0.989, 3.79), (0.11, 1.033, 3.00), (0.19, 0.855, 2.51)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.73, 0.979, 3.99), (-0.23, 1.005, 4.44), (-0.60, 1.031, 3.61), (-0.07, 1.072, 3.17), (-0.28, 1.011, 2.20)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.57, 0.977, 4.78), (0.20, 0.971, 4.35), (0.10, 1.017, 3.39), (0.26, 1.051, 2.55), (0.06, 0.948, 1.82)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.45, 0.962, 4.34), (-0.24, 0.999, 3.67), (-0.11, 1.021, 3.02), (0.03, 1.041, 2.17), (-0.30, 1.000, 1.52)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.09, 0.994, 5.18), (0.23, 0.981, 4.62), (-0.08, 0.994, 3.79), (0.46, 1.045, 2.92), (-0.08, 0.948, 2.00)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.51, 0.986, 5.04), (-0.30, 1.003, 3.99), (-0.30, 1.017, 3.13), (0.03, 1.027, 2.58), (-0.36, 0.994, 1.78)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.06, 0.996, 5.26), (-0.00, 0.988, 3.92), (-0.01, 1.002, 2.81), (0.56, 1.034, 2.12), (-0.05, 0.974, 1.66)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.82, 1.050, 5.37), (-0.17, 0.971, 3.69), (-0.11, 1.004, 2.70), (-0.30, 1.010, 2.00), (-0.33, 0.977, 1.48)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.82, 1.050, 5.37), (-0.17, 0.971, 3.69), (-0.11, 1.004, 2.70), (-0.30, 1.010, 2.00), (-0.33, 0.977, 1.48)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.82, 1.050, 5.37), (-0.17, 0.971, 3.69), (-0.11, 1.004, 2.70), (-0.30, 1.010, 2.00), (-0.33, 0.977, 1.48)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
];

#[cfg(test)]
mod tests {
    use super::*;

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
