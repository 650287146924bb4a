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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 316 s
#[rustfmt::skip]
// A fitted sigma of 3.14 is data, not an approximation of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.27, 0.994, 4.61), (-0.70, 0.990, 4.31), (-0.06, 1.002, 3.13), (0.12, 0.982, 2.57), (0.40, 0.853, 2.16)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.47, 1.024, 3.50), (0.18, 0.989, 3.60), (-0.56, 1.015, 2.87), (-0.01, 1.025, 2.70), (-0.37, 1.008, 1.93)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.93, 0.972, 5.21), (-0.78, 0.988, 5.14), (-0.09, 0.986, 3.85), (0.11, 1.025, 2.86), (0.34, 0.849, 2.47)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.73, 0.979, 3.99), (0.35, 1.019, 4.81), (-0.62, 1.022, 3.35), (-0.06, 1.072, 3.06), (-0.31, 1.024, 2.15)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.57, 0.977, 4.78), (-0.34, 0.989, 4.57), (0.05, 1.000, 3.22), (0.25, 1.043, 2.52), (0.01, 0.953, 1.75)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.45, 0.962, 4.34), (0.15, 0.999, 4.03), (-0.11, 1.028, 3.07), (-0.04, 1.039, 1.96), (-0.27, 0.987, 1.56)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.09, 0.994, 5.18), (-0.52, 0.997, 4.80), (-0.22, 0.996, 3.52), (0.44, 1.037, 2.92), (-0.09, 0.985, 2.11)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.51, 0.986, 5.04), (0.10, 1.003, 4.26), (-0.02, 1.013, 3.14), (-0.16, 1.040, 2.50), (-0.18, 0.970, 1.77)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.06, 0.996, 5.26), (-0.45, 0.995, 4.28), (-0.25, 1.012, 2.94), (0.59, 1.034, 2.22), (0.05, 0.962, 1.74)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.82, 1.050, 5.37), (-0.07, 0.965, 3.69), (0.24, 1.023, 2.74), (-0.17, 1.006, 1.95), (-0.50, 0.972, 1.45)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.82, 1.050, 5.37), (-0.07, 0.965, 3.69), (0.24, 1.023, 2.74), (-0.17, 1.006, 1.95), (-0.50, 0.972, 1.45)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.82, 1.050, 5.37), (-0.07, 0.965, 3.69), (0.24, 1.023, 2.74), (-0.17, 1.006, 1.95), (-0.50, 0.972, 1.45)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
