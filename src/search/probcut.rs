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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 529 s
#[rustfmt::skip]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.38, 0.997, 5.39), (-0.54, 0.988, 4.15), (-0.11, 1.006, 2.99), (0.15, 1.005, 2.73), (0.54, 0.869, 2.23)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.83, 1.017, 3.52), (-0.09, 0.980, 3.56), (-0.39, 1.035, 3.02), (-0.08, 1.006, 2.71), (-0.48, 0.957, 1.98)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.33, 0.996, 5.36), (-0.39, 0.995, 5.16), (-0.52, 0.991, 3.82), (0.03, 1.039, 3.15), (0.79, 0.860, 2.36)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.76, 0.986, 3.74), (0.09, 1.001, 4.60), (-0.18, 1.022, 3.30), (-0.18, 1.045, 2.89), (-0.50, 1.008, 2.08)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.96, 1.004, 4.77), (-0.17, 1.011, 4.05), (-0.21, 0.998, 3.33), (-0.07, 1.028, 2.53), (0.39, 0.934, 1.66)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.23, 0.979, 4.53), (0.14, 1.010, 3.80), (0.02, 1.006, 3.12), (0.07, 1.041, 2.35), (-0.55, 0.981, 1.53)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.36, 0.992, 5.61), (-0.25, 1.007, 4.50), (-0.65, 1.002, 3.72), (-0.04, 1.019, 3.04), (0.36, 0.949, 2.00)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.10, 1.007, 5.34), (0.32, 1.018, 4.27), (-0.01, 0.985, 3.40), (0.19, 1.039, 2.79), (-0.36, 0.955, 1.81)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.05, 1.006, 5.58), (-0.46, 1.002, 4.40), (-0.27, 1.020, 3.11), (-0.04, 1.017, 2.20), (0.11, 0.928, 1.85)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.64, 1.041, 5.67), (0.16, 0.985, 3.74), (-0.18, 1.012, 2.90), (0.38, 1.036, 2.05), (-0.69, 0.942, 1.70)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.64, 1.041, 5.67), (0.16, 0.985, 3.74), (-0.18, 1.012, 2.90), (0.38, 1.036, 2.05), (-0.69, 0.942, 1.70)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.64, 1.041, 5.67), (0.16, 0.985, 3.74), (-0.18, 1.012, 2.90), (0.38, 1.036, 2.05), (-0.69, 0.942, 1.70)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
