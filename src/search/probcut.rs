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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 282 s
#[rustfmt::skip]
// A fitted sigma of 3.14 is data, not an approximation of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.17, 0.991, 5.50), (-0.59, 1.004, 4.03), (-0.02, 0.998, 2.93), (0.09, 0.979, 2.65), (0.24, 0.845, 2.28)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-1.17, 1.026, 3.51), (0.23, 0.984, 3.62), (-0.59, 1.024, 2.85), (-0.06, 1.011, 2.59), (-0.29, 0.983, 2.06)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.15, 0.988, 5.49), (-0.73, 1.004, 4.97), (-0.21, 0.979, 3.96), (0.05, 1.019, 3.19), (0.35, 0.807, 2.46)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.98, 0.985, 3.76), (0.48, 1.005, 4.78), (-0.58, 1.022, 3.36), (-0.21, 1.065, 3.00), (-0.18, 0.976, 2.01)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.83, 0.994, 4.85), (-0.35, 1.005, 4.21), (0.06, 0.996, 3.33), (0.32, 1.039, 2.80), (0.07, 0.933, 1.74)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.48, 0.964, 4.40), (0.13, 1.007, 3.81), (-0.17, 1.021, 3.15), (-0.09, 1.042, 2.32), (-0.20, 0.959, 1.72)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.46, 0.991, 5.47), (-0.47, 1.003, 4.59), (-0.20, 0.996, 3.68), (0.42, 1.026, 3.14), (0.05, 0.937, 2.05)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.10, 0.990, 5.25), (0.13, 1.013, 4.13), (-0.18, 0.993, 3.34), (-0.28, 1.046, 2.69), (-0.20, 0.930, 1.95)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.00, 1.003, 5.42), (-0.31, 1.001, 4.37), (-0.21, 1.012, 3.19), (0.46, 1.030, 2.24), (0.03, 0.961, 1.76)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.88, 1.037, 5.61), (-0.12, 0.979, 3.61), (-0.07, 1.016, 2.86), (-0.28, 0.999, 1.96), (-0.65, 0.993, 1.66)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.88, 1.037, 5.61), (-0.12, 0.979, 3.61), (-0.07, 1.016, 2.86), (-0.28, 0.999, 1.96), (-0.65, 0.993, 1.66)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.88, 1.037, 5.61), (-0.12, 0.979, 3.61), (-0.07, 1.016, 2.86), (-0.28, 0.999, 1.96), (-0.65, 0.993, 1.66)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
