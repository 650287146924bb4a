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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 1649 s
#[rustfmt::skip]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.11, 1.036, 5.21), (-0.65, 1.004, 4.32), (-0.10, 1.014, 2.71), (0.18, 1.023, 2.76), (0.43, 0.851, 2.29)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.71, 1.041, 3.39), (0.01, 0.954, 3.67), (-0.39, 1.046, 2.92), (-0.03, 1.010, 2.49), (-0.37, 0.977, 2.00)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.96, 1.030, 5.29), (-0.35, 0.987, 5.31), (-0.29, 0.975, 3.77), (0.00, 1.048, 3.09), (0.57, 0.834, 2.42)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-1.09, 1.014, 3.97), (0.02, 0.994, 4.52), (-0.26, 1.014, 3.39), (-0.25, 1.045, 2.73), (-0.40, 0.993, 1.97)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.13, 1.027, 4.33), (0.25, 1.008, 3.86), (-0.07, 0.970, 3.58), (-0.12, 1.034, 2.48), (0.45, 0.935, 1.74)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.35, 1.016, 4.43), (0.08, 1.042, 3.84), (-0.32, 0.960, 3.43), (0.02, 1.051, 2.20), (-0.43, 0.996, 1.59)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.78, 1.035, 5.42), (0.08, 1.019, 4.16), (-0.36, 0.939, 3.95), (0.06, 1.016, 2.89), (0.45, 0.952, 2.13)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(0.10, 1.035, 5.23), (0.26, 1.061, 4.52), (-0.27, 0.937, 3.40), (0.14, 1.041, 2.62), (-0.36, 0.933, 1.84)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.29, 1.096, 4.77), (-0.16, 1.033, 4.55), (-0.28, 0.966, 3.36), (0.11, 1.016, 2.23), (0.26, 0.945, 1.80)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(0.03, 1.066, 5.69), (0.43, 1.009, 3.75), (-0.59, 0.968, 3.33), (0.37, 1.035, 2.22), (-0.49, 0.975, 1.84)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(0.03, 1.066, 5.69), (0.43, 1.009, 3.75), (-0.59, 0.968, 3.33), (0.37, 1.035, 2.22), (-0.49, 0.975, 1.84)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(0.03, 1.066, 5.69), (0.43, 1.009, 3.75), (-0.59, 0.968, 3.33), (0.37, 1.035, 2.22), (-0.49, 0.975, 1.84)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
