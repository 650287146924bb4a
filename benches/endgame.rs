//! The exact solver on FFO #1-#19 (14-16 empties), one thread, a 16 MiB hash table cleared
//! before each position, through `Engine::solve` (the best line included). Run: `cargo bench
//! --bench endgame`. Node counts are printed once: they are deterministic on one thread and make
//! a regression signature.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use iago::board::{Rules, State, parse_obf_line};
use iago::engine::{Engine, EngineOptions};
use iago::search::SolveMode;

fn bench(c: &mut Criterion) {
    let states: Vec<State> = include_str!("../tests/data/fforum-1-19.obf")
        .lines()
        .filter_map(|l| parse_obf_line(l).unwrap())
        .map(|e| Rules::OTHELLO.state(e.position).unwrap())
        .collect();
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..EngineOptions::analysis()
    })
    .unwrap();
    let mut solve_all = || {
        let mut nodes = 0;
        for state in &states {
            let report = engine
                .solve(Rules::OTHELLO, black_box(state), SolveMode::Exact)
                .unwrap();
            nodes += black_box(report).solution.nodes;
        }
        nodes
    };
    println!("FFO #1-#19: {} nodes", solve_all());
    let mut g = c.benchmark_group("endgame");
    g.bench_function("ffo 1-19 exact, 1 thread", |b| b.iter(&mut solve_all));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(10));
    targets = bench
}
criterion_main!(benches);
