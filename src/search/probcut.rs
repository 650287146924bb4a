//! Multi-ProbCut parameters: a deep search's value `v_d` is predicted from a shallow one's as
//! `v_d ≈ a + b · v_s` with residual standard deviation `sigma`, per depth and game stage.
//!
//! The table is fitted on data by `iago probcut-fit` (see docs/manual.md): positions from game
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
/// `iago probcut-fit WTH_20{00..22}.wtb --positions 800 --max-depth 12` (the WTHOR archives of
/// 2000-2022; the command and its data are in docs/manual.md)
/// (rows 13 and 14 repeat row 12):
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation
#[rustfmt::skip]
// A refit may give a sigma of 3.14 (an earlier table had one): data, not an approximation
// of π.
#[allow(clippy::approx_constant)]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.53, 0.993, 4.51), (-0.24, 1.001, 4.20), (-0.24, 0.988, 3.37), (-0.01, 0.979, 2.55), (0.25, 0.864, 2.26)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.40, 1.018, 3.31), (0.13, 0.992, 3.18), (-0.40, 1.017, 2.86), (-0.05, 0.999, 2.52), (-0.02, 0.984, 1.99)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.07, 0.972, 4.94), (0.02, 0.996, 5.14), (-0.31, 0.977, 3.95), (0.18, 1.025, 3.32), (0.29, 0.844, 2.68)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-0.73, 0.973, 3.61), (-0.11, 0.999, 4.37), (-0.50, 1.025, 3.62), (-0.14, 1.060, 2.88), (-0.31, 1.014, 2.25)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.18, 0.973, 4.50), (0.11, 0.972, 4.43), (-0.01, 1.010, 3.45), (0.27, 1.045, 2.61), (0.05, 0.934, 1.88)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.58, 0.966, 4.42), (-0.35, 0.999, 3.64), (-0.06, 1.020, 3.06), (-0.04, 1.042, 2.10), (-0.35, 0.992, 1.49)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.23, 0.995, 5.74), (0.01, 0.978, 4.89), (-0.06, 0.979, 3.84), (0.50, 1.032, 2.94), (0.04, 0.977, 1.99)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.69, 0.989, 5.20), (-0.44, 0.999, 3.92), (-0.17, 1.006, 3.18), (-0.06, 1.045, 2.68), (-0.49, 1.006, 1.80)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.11, 1.004, 5.46), (-0.12, 0.982, 3.85), (-0.00, 1.005, 3.08), (0.41, 1.010, 2.04), (-0.17, 0.956, 1.80)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.79, 1.046, 5.34), (-0.11, 0.983, 3.54), (-0.08, 1.001, 2.72), (-0.17, 1.010, 2.05), (-0.23, 0.978, 1.62)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.79, 1.046, 5.34), (-0.11, 0.983, 3.54), (-0.08, 1.001, 2.72), (-0.17, 1.010, 2.05), (-0.23, 0.978, 1.62)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.79, 1.046, 5.34), (-0.11, 0.983, 3.54), (-0.08, 1.001, 2.72), (-0.17, 1.010, 2.05), (-0.23, 0.978, 1.62)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
