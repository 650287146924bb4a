//! The exact solver on FFO #1-#19 (14-16 empties), one thread, fresh 16 MiB hash table per
//! position. Run: `cargo bench --bench endgame`. Node counts are printed once: they are
//! deterministic on one thread and make a regression signature.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use iago::board::{Board, parse_obf_line};
use iago::search::endgame::EndgameSearch;
use iago::search::tt::TranspositionTable;

fn bench(c: &mut Criterion) {
    let boards: Vec<Board> = include_str!("../tests/data/fforum-1-19.obf")
        .lines()
        .filter_map(|l| parse_obf_line(l).unwrap())
        .map(|e| e.position.board)
        .collect();
    let tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    let solve_all = || {
        let mut nodes = 0;
        for board in &boards {
            tt.clear();
            let mut search = EndgameSearch::new(&tt, &stop);
            black_box(search.search(black_box(board), -64, 64).unwrap());
            nodes += search.nodes;
        }
        nodes
    };
    println!("FFO #1-#19: {} nodes", solve_all());
    let mut g = c.benchmark_group("endgame");
    g.bench_function("ffo 1-19 exact, 1 thread", |b| b.iter(solve_all));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(10));
    targets = bench
}
criterion_main!(benches);
