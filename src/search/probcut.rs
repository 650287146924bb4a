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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 292 s
#[rustfmt::skip]
// A fitted sigma of 3.14 is data, not an approximation of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.28, 1.002, 5.36), (-0.59, 1.002, 4.24), (0.08, 0.987, 2.98), (0.15, 0.978, 2.66), (0.25, 0.840, 2.25)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-1.17, 1.026, 3.51), (0.28, 0.998, 3.63), (-0.48, 1.024, 2.94), (-0.04, 1.014, 2.62), (-0.28, 0.975, 2.05)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.25, 0.997, 5.55), (-0.68, 1.010, 5.29), (-0.18, 0.981, 3.95), (0.07, 1.017, 3.08), (0.32, 0.823, 2.41)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.98, 0.985, 3.76), (0.44, 1.017, 4.95), (-0.62, 1.035, 3.41), (-0.17, 1.067, 3.00), (-0.19, 0.982, 1.95)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.83, 0.994, 4.85), (-0.29, 1.007, 4.36), (0.08, 1.007, 3.21), (0.23, 1.039, 2.75), (-0.03, 0.938, 1.70)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.48, 0.964, 4.40), (0.16, 1.001, 3.95), (-0.16, 1.022, 3.03), (-0.07, 1.040, 2.23), (-0.15, 0.957, 1.71)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.46, 0.991, 5.47), (-0.54, 1.003, 4.73), (-0.25, 1.012, 3.56), (0.38, 1.023, 3.09), (0.04, 0.930, 2.05)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.10, 0.990, 5.25), (0.16, 1.005, 4.20), (-0.24, 1.009, 3.20), (-0.24, 1.041, 2.63), (-0.16, 0.917, 1.91)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.00, 1.003, 5.42), (-0.41, 0.992, 4.38), (-0.12, 1.020, 3.15), (0.54, 1.038, 2.20), (0.07, 0.945, 1.73)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.88, 1.037, 5.61), (-0.03, 0.974, 3.63), (0.06, 1.013, 2.84), (-0.18, 1.001, 2.04), (-0.58, 0.979, 1.54)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.88, 1.037, 5.61), (-0.03, 0.974, 3.63), (0.06, 1.013, 2.84), (-0.18, 1.001, 2.04), (-0.58, 0.979, 1.54)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.88, 1.037, 5.61), (-0.03, 0.974, 3.63), (0.06, 1.013, 2.84), (-0.18, 1.001, 2.04), (-0.58, 0.979, 1.54)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
