//! `iago bench`: a fixed search of fixed positions, for regression checks (one thread: a
//! deterministic node signature) and for the parallel speed-up (`--threads N`: time to depth and
//! nodes per second).

use std::io::Write;

use super::args::{CliError, EvalArg, engine_error, hash_arg, threads_arg};
use super::output::rate;
use crate::board::{Board, Game, Position, Rules};
use crate::engine::{DEFAULT_HASH_MB, Engine, EngineOptions, SearchRequest};
use crate::search::Limits;

/// The options of `iago bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = 12, value_name = "D")]
    pub depth: u32,
    /// Search threads. One thread gives the same node count on every run; more threads
    /// measure time to depth and nodes per second (their node counts vary).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_name = "MB", value_parser = hash_arg)]
    pub hash: usize,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
}

/// The positions of `iago bench`: the first ten XOT openings (balanced 8-move starts), then
/// five positions reached from later XOT lines by random play (40 to 28 empties).
const BENCH_OPENINGS: [&str; 10] = [
    "f5d6c4d3c2b3b4b5",
    "f5f6d3c5d6c7b5e3",
    "f5f4e3d2c3e6e1g5",
    "f5f6e6d6f7g6h5g5",
    "f5d6c3g5e6f3g4g6",
    "f5d6c5f4e3c6f6g5",
    "f5d6c3f4c5d3g3b6",
    "f5f4g3f6f7g4d3h2",
    "f5f6d3e3f3c5b6g5",
    "f5f4e3d2c3e6f2c5",
];

const BENCH_LATER: [&str; 5] = [
    "-----------O-X----O-X------OXOO--OXOOXOO-X-XOOX----O-O-X--O----- X",
    "X--OX----X-O-O----XOOX----XOXXO--XXXXXO--OXXX--O--X-X----------- X",
    "---XOX-----XOO-O---XOXOX-OOOOOX----OOXO---OXX-O---OXO-O--OX----- X",
    "X--O-----XO-O----XXO-OO--X-XOOO-OXXOOOOX-XOOOOO--OO-OO---O------ X",
    "---X-O-X-O--O-X-OOOO-X---OXOXXXXXXOXOXX----OXOX---OXO-X---X---XO X",
];

/// Searches the bench positions at `--depth` on `--threads` threads; prints each node count, the
/// total (a deterministic signature on one thread) and the speed: the time to depth, all
/// positions together, and the nodes per second.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let BenchArgs {
        depth,
        threads,
        hash,
        ..
    } = *args;
    let mut engine = Engine::new(EngineOptions {
        threads,
        hash_mb: hash,
        eval: args.eval.source(),
        ..EngineOptions::analysis()
    })
    .map_err(engine_error)?;
    let limits = Limits::depth(depth);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "bench: {} positions, depth {depth}, {threads} thread{}, {hash} MiB hash, {} evaluation",
        BENCH_OPENINGS.len() + BENCH_LATER.len(),
        if threads == 1 { "" } else { "s" },
        engine.evaluator().name()
    )?;
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    let mut boards: Vec<Board> = Vec::new();
    for transcript in BENCH_OPENINGS {
        boards.push(
            Game::from_transcript(Rules::OTHELLO, Position::start(), transcript)?
                .position()
                .board,
        );
    }
    for board in BENCH_LATER {
        boards.push(crate::board::parse_position(board)?.board);
    }
    let names = BENCH_OPENINGS.iter().chain(BENCH_LATER.iter());
    for (i, (board, transcript)) in boards.iter().zip(names).enumerate() {
        engine.clear_hash();
        let result = engine.search(&SearchRequest::analyze(limits).board(*board), &mut |_| {});
        writeln!(
            out,
            "{:>3} {:>4} {:>+4} {:>9} {:>12} {:>8.3} s  {}",
            i + 1,
            result.best_move,
            result.score,
            result.depth_text(),
            result.nodes,
            result.time.as_secs_f64(),
            transcript
        )?;
        nodes += result.nodes;
        secs += result.time.as_secs_f64();
    }
    if threads == 1 {
        writeln!(out, "nodes: {nodes}")?;
    } else {
        writeln!(
            out,
            "nodes: {nodes} (not a signature: {threads} threads vary)"
        )?;
    }
    writeln!(out, "time: {secs:.3} s, {} nodes/s", rate(nodes, secs))?;
    Ok(())
}
