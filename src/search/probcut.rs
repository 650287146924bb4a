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

/// Rows: depth 3..=14; columns: [`stage`]. Fitted by
/// `iago probcut-fit ../shared/data/games/wthor/WTH_20{00..22}.wtb --positions 1500 --max-depth 12`
/// (rows 13 and 14 repeat row 12):
/// 1500 positions from 68655 games (seed 1), full-width depths 1-12, hand-written evaluation, 979 s
#[rustfmt::skip]
static FITTED: [[(f32, f32, f32); STAGES]; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-0.65, 1.147, 5.85), (-0.51, 1.147, 3.65), (-0.31, 1.064, 1.87), (-0.18, 0.867, 1.29), (-0.01, 0.707, 1.23)], // depth 3 (shallow 1), pairs per stage: 119/394/392/380/215
    [(-0.95, 1.145, 6.04), (-0.07, 1.130, 3.54), (-0.20, 1.074, 1.86), (-0.05, 0.907, 1.21), (-0.13, 0.781, 1.12)], // depth 4 (shallow 2), pairs per stage: 119/394/392/380/215
    [(-2.00, 1.313, 10.49), (-0.40, 1.249, 5.70), (-0.33, 1.162, 3.04), (0.02, 0.830, 2.06), (0.10, 0.584, 1.30)], // depth 5 (shallow 1), pairs per stage: 119/394/392/380/215
    [(-2.36, 1.305, 10.15), (-0.33, 1.264, 5.49), (-0.31, 1.194, 2.94), (0.02, 0.903, 1.89), (-0.16, 0.702, 1.29)], // depth 6 (shallow 2), pairs per stage: 119/394/392/380/215
    [(-3.24, 1.300, 9.74), (-0.03, 1.230, 5.25), (-0.21, 1.228, 2.69), (0.22, 0.966, 2.32), (0.02, 0.776, 1.14)], // depth 7 (shallow 3), pairs per stage: 119/394/392/380/215
    [(-1.86, 1.283, 10.79), (-0.33, 1.252, 5.46), (-0.20, 1.272, 2.61), (0.00, 1.038, 2.27), (-0.13, 0.829, 1.15)], // depth 8 (shallow 4), pairs per stage: 119/394/392/380/215
    [(-5.01, 1.385, 15.27), (0.07, 1.358, 7.83), (-0.25, 1.374, 3.58), (0.33, 0.953, 2.79), (-0.02, 0.728, 1.40)], // depth 9 (shallow 3), pairs per stage: 119/394/392/380/215
    [(-2.25, 1.332, 16.60), (-0.52, 1.376, 8.11), (-0.46, 1.434, 3.48), (-0.01, 1.072, 2.70), (-0.15, 0.800, 1.33)], // depth 10 (shallow 4), pairs per stage: 119/394/392/380/215
    [(-4.11, 1.261, 19.59), (0.11, 1.371, 8.47), (-0.41, 1.387, 3.39), (0.09, 1.114, 2.16), (-0.14, 0.858, 1.43)], // depth 11 (shallow 5), pairs per stage: 119/394/392/380/215
    [(1.42, 1.247, 19.24), (-0.22, 1.335, 9.30), (-0.40, 1.419, 3.09), (-0.10, 1.194, 2.24), (-0.22, 0.959, 1.12)], // depth 12 (shallow 6), pairs per stage: 76/394/392/380/215
    [(1.42, 1.247, 19.24), (-0.22, 1.335, 9.30), (-0.40, 1.419, 3.09), (-0.10, 1.194, 2.24), (-0.22, 0.959, 1.12)], // depth 13 (shallow 5), pairs per stage: 0/0/0/0/0
    [(1.42, 1.247, 19.24), (-0.22, 1.335, 9.30), (-0.40, 1.419, 3.09), (-0.10, 1.194, 2.24), (-0.22, 0.959, 1.12)], // depth 14 (shallow 6), pairs per stage: 0/0/0/0/0
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
