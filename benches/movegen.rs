//! Move generation and flips: the production kernels against the alternatives that were measured
//! before choosing them. Run: `cargo bench --bench movegen`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use iago::board::movegen::{self, flips, moves};
use iago::board::{Board, Move};

const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Alternative 1: a Kogge-Stone parallel-prefix flood from the played square in each of the 8
/// directions, keeping the run when the square after it holds a disc of the mover.
fn flips_kogge_stone(p: u64, o: u64, sq: usize) -> u64 {
    let m = 1u64 << sq;
    let inner = o & INNER;
    let mut flipped = 0;
    for (dir, mask) in [(1, inner), (8, o), (7, inner), (9, inner)] {
        let pair = mask & (mask << dir);
        let mut f = mask & (m << dir);
        f |= mask & (f << dir);
        f |= pair & (f << (2 * dir));
        f |= pair & (f << (2 * dir));
        flipped |= f & (((f << dir) & p != 0) as u64).wrapping_neg();
        let pair = mask & (mask >> dir);
        let mut f = mask & (m >> dir);
        f |= mask & (f >> dir);
        f |= pair & (f >> (2 * dir));
        f |= pair & (f >> (2 * dir));
        flipped |= f & (((f >> dir) & p != 0) as u64).wrapping_neg();
    }
    flipped
}

/// Alternative 2: the same flood written on four-lane arrays (one lane per direction), so that
/// the compiler can vectorise it with per-lane shifts where the target has them (AVX2).
fn flips_lanes(p: u64, o: u64, sq: usize) -> u64 {
    let m = 1u64 << sq;
    let inner = o & INNER;
    let dir: [u64; 4] = [1, 8, 7, 9];
    let mask: [u64; 4] = [inner, o, inner, inner];
    let mut out = [0u64; 4];
    let mut left = [0u64; 4];
    let mut right = [0u64; 4];
    for i in 0..4 {
        left[i] = mask[i] & (m << dir[i]);
        right[i] = mask[i] & (m >> dir[i]);
    }
    for i in 0..4 {
        left[i] |= mask[i] & (left[i] << dir[i]);
        right[i] |= mask[i] & (right[i] >> dir[i]);
    }
    for _ in 0..2 {
        for i in 0..4 {
            left[i] |= mask[i] & (mask[i] << dir[i]) & (left[i] << (2 * dir[i]));
            right[i] |= mask[i] & (mask[i] >> dir[i]) & (right[i] >> (2 * dir[i]));
        }
    }
    for i in 0..4 {
        out[i] = left[i] & (((left[i] << dir[i]) & p != 0) as u64).wrapping_neg()
            | right[i] & (((right[i] >> dir[i]) & p != 0) as u64).wrapping_neg();
    }
    out[0] | out[1] | out[2] | out[3]
}

/// Alternative 4: the bit-scan rays with the square as a compile-time constant, one function per
/// square called through a table (empty rays vanish, masks become immediates).
fn flips_const<const SQ: usize>(p: u64, o: u64) -> u64 {
    let rays = &RAYS[SQ];
    let not_o = !o;
    let mut flipped = 0;
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        if ray != 0 {
            let stop = not_o & ray;
            let first = stop & stop.wrapping_neg();
            flipped |= if first & p != 0 {
                ray & first.wrapping_sub(1)
            } else {
                0
            };
        }
        d += 1;
    }
    while d < 8 {
        let ray = rays[d];
        if ray != 0 {
            let stop = (not_o & ray) | 1;
            let first = (1u64 << 63) >> stop.leading_zeros();
            flipped |= if first & p & ray != 0 {
                ray & !((first << 1).wrapping_sub(1))
            } else {
                0
            };
        }
        d += 1;
    }
    flipped
}

const RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let dirs: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut r, mut c) = ((sq / 8) as i32 + dirs[d].0, (sq % 8) as i32 + dirs[d].1);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[sq][d] |= 1 << (r * 8 + c);
                r += dirs[d].0;
                c += dirs[d].1;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
};

macro_rules! table {
    ($($n:literal)*) => { [$(flips_const::<$n> as fn(u64, u64) -> u64),*] };
}
static FLIP_TABLE: [fn(u64, u64) -> u64; 64] = table!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);

fn flips_table(p: u64, o: u64, sq: usize) -> u64 {
    FLIP_TABLE[sq](p, o)
}

/// Alternative 3: a loop that walks each direction square by square (branchy, the naive way).
fn flips_walk(p: u64, o: u64, sq: usize) -> u64 {
    let mut all = 0;
    let (r0, c0) = ((sq / 8) as i32, (sq % 8) as i32);
    for (dr, dc) in [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ] {
        let (mut r, mut c) = (r0 + dr, c0 + dc);
        let mut line = 0u64;
        while (0..8).contains(&r) && (0..8).contains(&c) {
            let bit = 1u64 << (r * 8 + c);
            if o & bit == 0 {
                if p & bit != 0 {
                    all |= line;
                }
                break;
            }
            line |= bit;
            r += dr;
            c += dc;
        }
    }
    all
}

/// Alternative moves(): a direction loop with a plain 6-step flood (no parallel prefix).
fn moves_dumb7(p: u64, o: u64) -> u64 {
    let inner = o & INNER;
    let mut m = 0;
    for (dir, mask) in [(1, inner), (8, o), (7, inner), (9, inner)] {
        let mut l = mask & (p << dir);
        let mut r = mask & (p >> dir);
        for _ in 0..5 {
            l |= mask & (l << dir);
            r |= mask & (r >> dir);
        }
        m |= (l << dir) | (r >> dir);
    }
    m & !(p | o)
}

/// Alternative moves(): the parallel prefix on four-lane arrays (one lane per direction) for the
/// vectoriser.
fn moves_lanes(p: u64, o: u64) -> u64 {
    let inner = o & INNER;
    let dir: [u64; 4] = [1, 8, 7, 9];
    let mask: [u64; 4] = [inner, o, inner, inner];
    let mut l = [0u64; 4];
    let mut r = [0u64; 4];
    let mut ml = [0u64; 4];
    let mut mr = [0u64; 4];
    let mut out = [0u64; 4];
    for i in 0..4 {
        l[i] = mask[i] & (p << dir[i]);
        r[i] = mask[i] & (p >> dir[i]);
        l[i] |= mask[i] & (l[i] << dir[i]);
        r[i] |= mask[i] & (r[i] >> dir[i]);
        ml[i] = mask[i] & (mask[i] << dir[i]);
        mr[i] = mask[i] & (mask[i] >> dir[i]);
        l[i] |= ml[i] & (l[i] << (2 * dir[i]));
        r[i] |= mr[i] & (r[i] >> (2 * dir[i]));
        l[i] |= ml[i] & (l[i] << (2 * dir[i]));
        r[i] |= mr[i] & (r[i] >> (2 * dir[i]));
        out[i] = (l[i] << dir[i]) | (r[i] >> dir[i]);
    }
    (out[0] | out[1] | out[2] | out[3]) & !(p | o)
}

/// Positions from pseudo-random games, every ply, with their legal moves.
fn sample_positions() -> Vec<(Board, Vec<usize>)> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    for _ in 0..200 {
        let mut b = Board::start();
        loop {
            let legal = b.legal_moves();
            if legal.is_empty() {
                if b.is_game_over() {
                    break;
                }
                b = b.play(Move::Pass);
                continue;
            }
            let squares: Vec<usize> = legal.iter().map(|s| s.index() as usize).collect();
            out.push((b, squares.clone()));
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let sq = squares[(state % squares.len() as u64) as usize];
            b = b.play_unchecked(sq, flips(b.player, b.opponent, sq));
        }
    }
    out
}

type FlipFn = fn(u64, u64, usize) -> u64;

fn bench(c: &mut Criterion) {
    let positions = sample_positions();
    for (b, squares) in &positions {
        assert_eq!(
            moves_dumb7(b.player, b.opponent),
            moves(b.player, b.opponent)
        );
        for &sq in squares {
            let f = flips(b.player, b.opponent, sq);
            assert_eq!(flips_kogge_stone(b.player, b.opponent, sq), f);
            assert_eq!(flips_lanes(b.player, b.opponent, sq), f);
            assert_eq!(flips_walk(b.player, b.opponent, sq), f);
            assert_eq!(flips_table(b.player, b.opponent, sq), f);
        }
    }
    let calls: usize = positions.iter().map(|(_, s)| s.len()).sum();
    println!(
        "{} positions, {calls} flips calls per iteration",
        positions.len()
    );

    let mut g = c.benchmark_group("moves");
    g.bench_function("kogge_stone_prefix (kept)", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, (b, _)| {
                acc ^ moves(black_box(b.player), b.opponent)
            })
        })
    });
    g.bench_function("dumb7", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, (b, _)| {
                acc ^ moves_dumb7(black_box(b.player), b.opponent)
            })
        })
    });
    g.bench_function("lanes", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, (b, _)| {
                acc ^ moves_lanes(black_box(b.player), b.opponent)
            })
        })
    });
    g.bench_function("potential_moves", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, (b, _)| {
                acc ^ movegen::potential_moves(black_box(b.player), b.opponent)
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("flips");
    let variants: [(&str, FlipFn); 6] = [
        ("rays_const_table", flips_table),
        ("rays_avx2", flips),
        ("rays_bitscan", movegen::flips_scalar),
        ("kogge_stone", flips_kogge_stone),
        ("lanes", flips_lanes),
        ("walk", flips_walk),
    ];
    for (name, f) in variants {
        g.bench_function(name, |bch| {
            bch.iter(|| {
                positions.iter().fold(0u64, |acc, (b, squares)| {
                    squares
                        .iter()
                        .fold(acc, |acc, &sq| acc ^ f(black_box(b.player), b.opponent, sq))
                })
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
