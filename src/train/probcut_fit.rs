//! Fitting the Multi-ProbCut parameters: for positions sampled from game archives, the static
//! evaluation and full-width searches at every depth up to a maximum give pairs (shallow value,
//! deep value); a least-squares line per (depth, stage) gives `a`, `b` and the residual
//! deviation `sigma`. Two tables: a shallow search against a deep one (`FITTED`), and the static
//! evaluation against the shallowest searches (`STATIC_FITTED`).

use rayon::prelude::*;

use crate::board::Board;
use crate::eval::SearchEval;
use crate::records::wthor::WthorGame;
use crate::search::Scorer;
use crate::search::probcut::{
    MAX_FITTED_DEPTH, MIN_DEPTH, STAGES, STATIC_MAX_DEPTH, shallow_depth, stage,
};
use crate::search::tt::TranspositionTable;

/// Distinct positions (by canonical form) from the games, between 12 and 50 empties, chosen
/// with a fixed-seed generator.
pub fn sample_positions(games: &[WthorGame], count: usize, seed: u64) -> Vec<Board> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    if games.is_empty() {
        return out;
    }
    let mut attempts = 0;
    while out.len() < count && attempts < count * 20 {
        attempts += 1;
        let game = &games[(next() % games.len() as u64) as usize];
        let Some(replayed) = game.replay() else {
            continue;
        };
        let target_empties = 12 + (next() % 39) as u32;
        let mut board = replayed.start().board;
        for &mv in replayed.moves() {
            if board.empty_count() <= target_empties {
                break;
            }
            board = board.play(mv);
        }
        if board.legal_moves().is_empty() || board.empty_count() != target_empties {
            continue;
        }
        if seen.insert(board.canonical().0) {
            out.push(board);
        }
    }
    out
}

/// One position's values: `values[0]` is the static evaluation, `values[d]` the full-width
/// depth-`d` value.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Empty squares of the position.
    pub empties: u32,
    /// Values by depth.
    pub values: Vec<i32>,
}

/// The static evaluation and full-width searches of each position at depths 1 to `max_depth`
/// (stopping below the empties), spread over the current rayon pool, one position per task.
pub fn collect(
    positions: &[Board],
    eval: &crate::eval::Evaluation,
    max_depth: u32,
    done: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    crate::eval::with_search_eval!(eval, e => collect_with(positions, e, max_depth, done))
}

/// [`collect`] with the evaluation's static dispatch chosen.
fn collect_with<E: SearchEval + ?Sized>(
    positions: &[Board],
    eval: &E,
    max_depth: u32,
    done: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    positions
        .par_iter()
        .map_init(
            || TranspositionTable::new(32),
            |tt, board| {
                tt.clear();
                let mut search = Scorer::new(tt, eval);
                let mut values = vec![search.score(board, 0)];
                for depth in 1..=max_depth.min(board.empty_count() - 1) {
                    values.push(search.root_score(board, depth));
                }
                done();
                Sample {
                    empties: board.empty_count(),
                    values,
                }
            },
        )
        .collect()
}

/// `(a, b, sigma)` per depth (one row a depth, from the table's first depth) and stage, with the
/// number of pairs behind each.
pub type Table = Vec<[((f32, f32, f32), usize); STAGES]>;

fn least_squares(pairs: &[(f64, f64)]) -> (f32, f32, f32) {
    let n = pairs.len() as f64;
    let mean_x = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let cov: f64 = pairs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let var: f64 = pairs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let b = if var > 0.0 { cov / var } else { 1.0 };
    let a = mean_y - b * mean_x;
    let residual = pairs
        .iter()
        .map(|p| (p.1 - a - b * p.0).powi(2))
        .sum::<f64>()
        / n;
    (a as f32, b as f32, residual.sqrt() as f32)
}

/// Fits the table of shallow searches against deep ones (rows `MIN_DEPTH..=MAX_FITTED_DEPTH`,
/// the shallow depth [`shallow_depth`]). A (depth, stage) cell with fewer than `min_pairs` pairs
/// takes the fit of all stages at that depth; a depth without data takes the row above.
pub fn fit(samples: &[Sample], min_pairs: usize) -> Table {
    fit_rows(
        samples,
        MIN_DEPTH..=MAX_FITTED_DEPTH,
        shallow_depth,
        min_pairs,
    )
}

/// Fits the table of the static evaluation against the shallowest searches (rows
/// `1..=STATIC_MAX_DEPTH`), as [`fit`] does.
pub fn fit_static(samples: &[Sample], min_pairs: usize) -> Table {
    fit_rows(samples, 1..=STATIC_MAX_DEPTH, |_| 0, min_pairs)
}

/// One row per depth of `depths`: the values at `shallow(depth)` against those at `depth`.
fn fit_rows(
    samples: &[Sample],
    depths: std::ops::RangeInclusive<u32>,
    shallow: fn(u32) -> u32,
    min_pairs: usize,
) -> Table {
    let mut table: Table = Vec::new();
    for depth in depths {
        let shallow = shallow(depth) as usize;
        let pairs_of = |filter: &dyn Fn(&Sample) -> bool| -> Vec<(f64, f64)> {
            samples
                .iter()
                .filter(|s| filter(s) && s.values.len() > depth as usize)
                .map(|s| (s.values[shallow] as f64, s.values[depth as usize] as f64))
                .collect()
        };
        let all = pairs_of(&|_| true);
        let mut row = [((0.0, 1.0, 6.0), 0); STAGES];
        for (st, cell) in row.iter_mut().enumerate() {
            let pairs = pairs_of(&|s| stage(s.empties) == st);
            *cell = if pairs.len() >= min_pairs {
                (least_squares(&pairs), pairs.len())
            } else if all.len() >= min_pairs {
                (least_squares(&all), 0)
            } else if let Some(prev) = table.last() {
                (prev[st].0, 0)
            } else {
                ((0.0, 1.0, 6.0), 0)
            };
        }
        table.push(row);
    }
    table
}

/// The table of [`fit`] as the Rust source of `FITTED` in `search/probcut.rs`.
pub fn render(table: &Table) -> String {
    render_rows(table, MIN_DEPTH, |d| {
        format!("shallow {}", shallow_depth(d))
    })
}

/// The table of [`fit_static`] as the Rust source of `STATIC_FITTED` in `search/probcut.rs`.
pub fn render_static(table: &Table) -> String {
    render_rows(table, 1, |_| "static".to_string())
}

/// One line of source per row, the first row at `first_depth`.
fn render_rows(table: &Table, first_depth: u32, shallow: impl Fn(u32) -> String) -> String {
    let mut out = String::new();
    for (i, row) in table.iter().enumerate() {
        let depth = first_depth + i as u32;
        let cells: Vec<String> = row
            .iter()
            .map(|((a, b, s), _)| format!("({a:.2}, {b:.3}, {s:.2})"))
            .collect();
        let counts: Vec<String> = row.iter().map(|(_, n)| n.to_string()).collect();
        out.push_str(&format!(
            "    [{}], // depth {depth} ({}), pairs per stage: {}\n",
            cells.join(", "),
            shallow(depth),
            counts.join("/")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_line() {
        let pairs: Vec<(f64, f64)> = (0..20).map(|x| (x as f64, 2.0 + 0.5 * x as f64)).collect();
        let (a, b, s) = least_squares(&pairs);
        assert!((a - 2.0).abs() < 1e-4 && (b - 0.5).abs() < 1e-4 && s < 1e-4);
    }

    #[test]
    fn fit_on_synthetic_samples() {
        // Every depth's value (the static one too) = a common value + its own noise in -2..=2:
        // b ≈ 1, sigma ≈ 2.
        let samples: Vec<Sample> = (0..400i32)
            .map(|i| Sample {
                empties: 20 + (i % 30) as u32,
                values: (0..=MAX_FITTED_DEPTH as i32)
                    .map(|d| (i % 21 - 10) + (i * 31 + d * d * 17) % 5 - 2)
                    .collect(),
            })
            .collect();
        let table = fit(&samples, 30);
        let ((_, b, sigma), _) = table[0][stage(30)];
        assert!((b - 1.0).abs() < 0.2, "{b}");
        assert!(sigma > 0.5 && sigma < 3.0, "{sigma}");
        assert!(render(&table).contains("// depth 3 (shallow 1)"));
        let table = fit_static(&samples, 30);
        assert_eq!(table.len(), STATIC_MAX_DEPTH as usize);
        let ((_, b, sigma), n) = table[0][stage(30)];
        assert!((b - 1.0).abs() < 0.2, "{b}");
        assert!(sigma > 0.5 && sigma < 3.0 && n > 30, "{sigma} {n}");
        assert!(
            render_static(&table).starts_with("    [(")
                && render_static(&table).contains("// depth 1 (static)")
        );
    }
}
