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
/// 800 positions from 68655 games (seed 1), full-width depths 1-12, pattern evaluation, 278 s
#[rustfmt::skip]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.37, 0.999, 5.47), (-0.55, 0.993, 4.10), (0.09, 0.993, 3.02), (0.13, 0.976, 2.60), (0.22, 0.841, 2.28)], // depth 3 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-1.33, 1.020, 3.48), (0.08, 0.982, 3.63), (-0.55, 1.025, 3.02), (-0.10, 1.011, 2.61), (-0.20, 0.966, 1.97)], // depth 4 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-1.25, 0.993, 5.30), (-0.57, 0.993, 5.13), (-0.18, 0.985, 3.98), (0.06, 1.021, 3.18), (0.33, 0.827, 2.47)], // depth 5 (shallow 1), pairs per stage: 62/204/220/191/123
    [(-1.24, 0.985, 3.75), (0.39, 1.003, 4.61), (-0.66, 1.025, 3.49), (-0.21, 1.062, 3.01), (-0.25, 0.968, 2.04)], // depth 6 (shallow 2), pairs per stage: 62/204/220/191/123
    [(-0.80, 0.995, 4.78), (-0.41, 1.005, 4.19), (0.03, 1.000, 3.41), (0.24, 1.044, 2.77), (0.07, 0.950, 1.71)], // depth 7 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.12, 0.971, 4.40), (0.42, 1.010, 3.77), (-0.26, 1.019, 3.11), (-0.04, 1.037, 2.36), (-0.35, 0.988, 1.72)], // depth 8 (shallow 4), pairs per stage: 62/204/220/191/123
    [(-0.34, 0.984, 5.46), (-0.43, 0.999, 4.63), (-0.24, 1.003, 3.70), (0.46, 1.030, 3.24), (0.16, 0.952, 1.93)], // depth 9 (shallow 3), pairs per stage: 62/204/220/191/123
    [(-0.08, 0.998, 5.20), (0.34, 1.016, 4.22), (-0.35, 0.997, 3.36), (-0.21, 1.048, 2.73), (-0.37, 0.953, 1.91)], // depth 10 (shallow 4), pairs per stage: 62/204/220/191/123
    [(0.07, 1.008, 5.39), (-0.50, 1.001, 4.46), (-0.10, 1.012, 3.19), (0.58, 1.019, 2.22), (0.14, 0.957, 1.72)], // depth 11 (shallow 5), pairs per stage: 62/204/220/191/123
    [(-0.73, 1.035, 5.59), (0.07, 0.985, 3.71), (-0.05, 1.014, 2.88), (-0.37, 1.005, 2.04), (-0.65, 0.988, 1.66)], // depth 12 (shallow 6), pairs per stage: 42/204/220/191/123
    [(-0.73, 1.035, 5.59), (0.07, 0.985, 3.71), (-0.05, 1.014, 2.88), (-0.37, 1.005, 2.04), (-0.65, 0.988, 1.66)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(-0.73, 1.035, 5.59), (0.07, 0.985, 3.71), (-0.05, 1.014, 2.88), (-0.37, 1.005, 2.04), (-0.65, 0.988, 1.66)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
