//! Evaluation speed: evaluations per second of the trained pattern evaluation (embedded weights)
//! read from the board, of the same evaluation carried incrementally as the search does it
//! (each child's state updated from its parent's, then evaluated: the cost per leaf), with both
//! kernels, and of the hand-written one, over positions from every stage of a game.
//! Run: `cargo bench --bench eval` (criterion prints the throughput in elements/s).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iago::board::movegen::flips;
use iago::board::{Board, Move};
use iago::eval::{Evaluator, HandEval, PatternEval, SearchEval};

/// 1,000 positions from pseudo-random games (a fixed seed), every number of empties alike.
fn positions() -> Vec<Board> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    while out.len() < 1_000 {
        let mut board = Board::start();
        loop {
            let moves = board.legal_moves();
            if moves.is_empty() {
                let passed = board.pass();
                if passed.legal_moves().is_empty() {
                    break;
                }
                board = passed;
                continue;
            }
            out.push(board);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let squares: Vec<_> = moves.iter().collect();
            board = board.play(Move::Play(squares[(state % squares.len() as u64) as usize]));
        }
    }
    out.truncate(1_000);
    out
}

fn evaluation(c: &mut Criterion) {
    let boards = positions();
    let pattern = PatternEval::embedded().expect("the embedded weights");
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("pattern", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|x| pattern.evaluate(black_box(x)))
                .sum::<i32>()
        })
    });
    // Search order: each position's children, the state of each updated from the parent's.
    let children: u32 = boards.iter().map(|b| b.legal_moves().count()).sum();
    group.finish();
    let mut group = c.benchmark_group("evaluate children");
    group.throughput(Throughput::Elements(children as u64));
    group.bench_function("pattern from scratch", |b| {
        b.iter(|| {
            let mut sum = 0;
            for x in &boards {
                for sq in x.legal_moves().iter() {
                    let child = x.play(Move::Play(sq));
                    sum += pattern.evaluate_fine(black_box(&child));
                }
            }
            sum
        })
    });
    for (name, eval) in [
        ("avx2", pattern.clone()),
        ("portable", pattern.clone().with_portable_kernel()),
    ] {
        if name == "avx2" && !eval.uses_avx2() {
            continue;
        }
        group.bench_function(format!("pattern update + evaluate, {name}"), |b| {
            b.iter(|| {
                let mut sum = 0;
                for x in &boards {
                    let state = eval.state(x);
                    for sq in x.legal_moves().iter() {
                        let i = sq.index() as usize;
                        let f = flips(x.player, x.opponent, i);
                        let child = x.play_unchecked(i, f);
                        let s = eval.play(&state, i, f);
                        sum += eval.evaluate_fine_with(black_box(&child), &s, None);
                    }
                }
                sum
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("hand", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|x| HandEval.evaluate(black_box(x)))
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
