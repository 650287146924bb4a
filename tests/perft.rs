//! perft against the reference counts of `../shared/data/perft.tsv` (copied in `tests/data`),
//! both pass conventions.

use iago::board::Board;
use iago::perft::{PassRule, perft, perft_parallel};

/// depth, pass_is_ply, pass_is_free.
const TABLE: &str = include_str!("data/perft.tsv");

fn reference() -> Vec<(u32, u64, u64)> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split('\t').map(|x| x.trim().parse().unwrap()).collect();
            (f[0] as u32, f[1], f[2])
        })
        .collect()
}

fn check_up_to(max_depth: u32, parallel: bool) {
    let rows = reference();
    assert!(rows.len() >= 13);
    for (depth, ply, free) in rows.into_iter().filter(|r| r.0 <= max_depth) {
        let count = |rule| {
            if parallel {
                perft_parallel(&Board::start(), depth, rule)
            } else {
                perft(&Board::start(), depth, rule)
            }
        };
        assert_eq!(count(PassRule::Ply), ply, "pass_is_ply depth {depth}");
        assert_eq!(count(PassRule::Free), free, "pass_is_free depth {depth}");
    }
}

#[test]
fn start_position_to_depth_10() {
    check_up_to(10, false);
}

#[test]
fn parallel_start_position_to_depth_10() {
    check_up_to(10, true);
}

#[test]
#[ignore = "depth 11-13: minutes in release; run with --ignored"]
fn start_position_to_depth_13() {
    check_up_to(13, true);
}

#[test]
fn depth_zero_is_one_leaf() {
    assert_eq!(perft(&Board::start(), 0, PassRule::Ply), 1);
    assert_eq!(perft(&Board::start(), 0, PassRule::Free), 1);
}
