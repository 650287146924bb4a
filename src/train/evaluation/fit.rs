//! The fit of a stage's weights: samples (feature indices and scalars), Adagrad with L2 decay,
//! prediction, error and the export into the evaluation's tables.

use super::labels::LabelKind;
use super::options::TrainOptions;
use super::positions::shuffle;
use crate::board::Board;
use crate::eval::pattern::{
    FEATURES, FIRST_TABLE, Mobility, SCALARS, STAGE_SIZE, TABLES_OF, canonical_indices, context,
    for_each_feature,
};
use crate::eval::{PatternEval, SCALE};

/// The training sample of a position: its table within its stage ([`context`]), canonical weight
/// indices (within a table), scalars, label.
pub(super) struct Sample {
    context: u8,
    indices: [u32; FEATURES],
    scalars: [f32; SCALARS],
    label: f32,
}

pub(super) fn sample(board: &Board, label: f32) -> Sample {
    let canon = canonical_indices();
    let mobility = Mobility::of(board);
    let mut indices = [0u32; FEATURES];
    let mut n = 0;
    let s = for_each_feature(board, mobility, |i| {
        indices[n] = canon[i];
        n += 1;
    });
    debug_assert_eq!(n, FEATURES);
    Sample {
        context: context(board, mobility) as u8,
        indices,
        scalars: s.map(|x| x as f32),
        label,
    }
}

/// The float weights of stage `st` while it is fitted: a table shared by the stage's tables,
/// then each table's difference from it. A table's weights are the sum of the two.
pub(super) fn fit_size(st: usize) -> usize {
    (1 + TABLES_OF[st]) * STAGE_SIZE
}

/// Where the difference table of `s`'s context starts in a stage's float weights.
fn delta_base(s: &Sample) -> usize {
    (1 + s.context as usize) * STAGE_SIZE
}

fn predict(w: &[f32], s: &Sample) -> f32 {
    let (delta, scalars) = (delta_base(s), STAGE_SIZE - SCALARS);
    s.indices
        .iter()
        .map(|&i| w[i as usize] + w[delta + i as usize])
        .sum::<f32>()
        + s.scalars
            .iter()
            .enumerate()
            .map(|(k, x)| x * (w[scalars + k] + w[delta + scalars + k]))
            .sum::<f32>()
}

/// Fits `w` (one stage's [`fit_size`] float weights, canonical space, discs) to `samples` by
/// Adagrad with L2 decay.
///
/// A context's differences decay by `context_decay` per pass over the samples whatever their
/// count, so that a configuration seen rarely in a context keeps the shared weight and only the
/// common ones part. The rate was chosen on a 20,000-game sample by the exact 24-empties error
/// on the validation years: lower and higher rates both did worse, and the decay of the shared
/// table (1e-4 or 1e-3 per update) hardly mattered (chosen by measurement:
/// docs/lab/2026-11-22-trained-evaluation.md).
pub(super) fn fit(w: &mut [f32], samples: &[Sample], options: &TrainOptions, seed: u64) {
    const DECAY: f32 = 1e-4;
    let scalars = STAGE_SIZE - SCALARS;
    let mut seen = vec![0u32; w.len()];
    for s in samples {
        let delta = delta_base(s);
        for &i in &s.indices {
            seen[delta + i as usize] += 1;
        }
        for j in 0..SCALARS {
            seen[delta + scalars + j] += 1;
        }
    }
    let decay: Vec<f32> = seen
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            if i < STAGE_SIZE {
                DECAY
            } else {
                options.context_decay / n.max(1) as f32
            }
        })
        .collect();
    let rate = options.learning_rate;
    let mut accumulated = vec![1e-3f32; w.len()];
    let mut step = |w: &mut [f32], i: usize, g: f32, rate: f32| {
        let g = g + decay[i] * w[i];
        accumulated[i] += g * g;
        w[i] -= rate * g / accumulated[i].sqrt();
    };
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    for epoch in 0..options.epochs {
        shuffle(&mut order, seed.wrapping_add(epoch as u64));
        for &k in &order {
            let s = &samples[k as usize];
            let delta = delta_base(s);
            let error = predict(w, s) - s.label;
            for &i in &s.indices {
                step(w, i as usize, error, rate);
                step(w, delta + i as usize, error, rate);
            }
            for (j, x) in s.scalars.iter().enumerate() {
                step(w, scalars + j, error * x, rate * 0.1);
                step(w, delta + scalars + j, error * x, rate * 0.1);
            }
        }
    }
}

pub(super) fn mae(eval: &PatternEval, labelled: &[(Board, f32, LabelKind)]) -> f64 {
    if labelled.is_empty() {
        return 0.0;
    }
    labelled
        .iter()
        .map(|(b, label, _)| (eval.evaluate_fine(b) as f64 / SCALE as f64 - *label as f64).abs())
        .sum::<f64>()
        / labelled.len() as f64
}

/// Writes the stage's canonical float weights into its i16 tables: each table is the shared
/// one plus its differences (every configuration gets its canonical twin's weight).
pub(super) fn export(weights: &mut [i16], st: usize, w: &[f32]) {
    let canon = canonical_indices();
    for context in 0..TABLES_OF[st] {
        let table = FIRST_TABLE[st] + context;
        let delta = &w[(1 + context) * STAGE_SIZE..(2 + context) * STAGE_SIZE];
        for i in 0..STAGE_SIZE {
            let c = canon[i] as usize;
            let v = ((w[c] + delta[c]) * SCALE as f32).round();
            weights[table * STAGE_SIZE + i] = v.clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        }
    }
}

/// The float weights of stage `st` of `weights` as [`fit`] takes them, the inverse of [`export`]:
/// the mean of the stage's tables as the shared table, each table's difference from it after.
pub(super) fn unfitted(weights: &[i16], st: usize) -> Vec<f32> {
    let mut w = vec![0f32; fit_size(st)];
    let tables = TABLES_OF[st];
    let table = |context: usize| &weights[(FIRST_TABLE[st] + context) * STAGE_SIZE..][..STAGE_SIZE];
    for context in 0..tables {
        for (shared, &v) in w[..STAGE_SIZE].iter_mut().zip(table(context)) {
            *shared += v as f32 / SCALE as f32 / tables as f32;
        }
    }
    let (shared, deltas) = w.split_at_mut(STAGE_SIZE);
    for context in 0..tables {
        let table = table(context);
        let delta = &mut deltas[context * STAGE_SIZE..][..STAGE_SIZE];
        for ((d, &v), s) in delta.iter_mut().zip(table).zip(shared.iter()) {
            *d = v as f32 / SCALE as f32 - s;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::TABLES;
    use crate::train::evaluation::tests::position;

    /// A context's table is the shared one plus its differences, and the decay of the
    /// differences decides how much of what one context's samples teach the other keeps.
    #[test]
    fn contexts_share_a_table_and_part_only_where_the_samples_pay_for_it() {
        let board = position("f5d6c3d3c4");
        let mut s = sample(&board, 10.0);
        s.context = 1;
        let other = Sample {
            context: 0,
            indices: s.indices,
            scalars: s.scalars,
            label: 0.0,
        };
        let fitted = |context_decay: f32| {
            let options = TrainOptions {
                context_decay,
                epochs: 30,
                ..TrainOptions::default()
            };
            let mut w = vec![0f32; fit_size(3)];
            let samples = [Sample { ..s }, Sample { ..s }, Sample { ..s }];
            fit(&mut w, &samples, &options, 1);
            (predict(&w, &s), predict(&w, &other), w)
        };
        // Strong decay: context 1's three samples move the shared table, context 0 follows.
        let (own, shared, _) = fitted(1e6);
        assert!((own - 10.0).abs() < 0.5, "{own}");
        assert!((own - shared).abs() < 0.2, "{own} {shared}");
        // No decay: the shared table and context 1's differences learn alike, each about half.
        let (own, shared, w) = fitted(0.0);
        assert!((own - 10.0).abs() < 0.5, "{own}");
        assert!((shared - own / 2.0).abs() < 0.5, "{own} {shared}");
        // Exported tables are the sums of the shared weights and the context's differences.
        let mut weights = vec![0i16; TABLES * STAGE_SIZE];
        export(&mut weights, 3, &w);
        let scalars = (STAGE_SIZE - SCALARS..STAGE_SIZE).map(|i| i as u32);
        for i in s.indices.iter().copied().chain(scalars) {
            let i = i as usize;
            for context in 0..TABLES_OF[3] {
                let sum = w[i] + w[(1 + context) * STAGE_SIZE + i];
                let exported = weights[(FIRST_TABLE[3] + context) * STAGE_SIZE + i];
                assert_eq!(
                    exported,
                    (sum * SCALE as f32).round() as i16,
                    "{i} {context}"
                );
            }
        }
        assert!(
            w[STAGE_SIZE + s.indices[0] as usize] == 0.0,
            "context 0 saw no sample"
        );
    }

    /// Refitting starts from a stage's tables read back as float weights: exported again, they
    /// are the same tables, for a stage of two tables and for one of a pair per number of empties.
    #[test]
    fn unfitted_weights_export_to_the_same_tables() {
        let eval = PatternEval::embedded().unwrap();
        for st in [4, 7] {
            let w = unfitted(eval.weights(), st);
            assert_eq!(w.len(), fit_size(st));
            let mut weights = vec![0i16; TABLES * STAGE_SIZE];
            export(&mut weights, st, &w);
            let tables =
                FIRST_TABLE[st] * STAGE_SIZE..(FIRST_TABLE[st] + TABLES_OF[st]) * STAGE_SIZE;
            assert!(
                weights[tables.clone()] == eval.weights()[tables],
                "stage {st}"
            );
        }
    }
}
