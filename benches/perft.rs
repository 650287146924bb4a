//! perft from the start position. Run: `cargo bench --bench perft`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use iago::board::Board;
use iago::perft::{PassRule, perft};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    for (name, rule) in [
        ("pass_is_ply", PassRule::Ply),
        ("pass_is_free", PassRule::Free),
    ] {
        g.bench_function(format!("{name} depth 9"), |b| {
            b.iter(|| perft(black_box(&Board::start()), 9, rule))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
