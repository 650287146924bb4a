//! The command line: `iago <subcommand>`. Each subcommand is a thin shell over the library, in a
//! file of its own (its arguments and its `run`); the argument groups and helpers they share are
//! in [`args`], the options `match` and `tournament` share in [`games`].

use clap::{Parser, Subcommand};

pub mod analyze;
pub mod args;
pub mod batch;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod games;
pub mod input;
pub mod matches;
pub mod merge;
pub mod output;
mod parse;
pub mod perft;
pub mod play;
pub mod probcut_fit;
pub mod protocol;
pub mod review;
pub mod show;
pub mod solve;
pub mod tournament;
pub mod train;
#[cfg(feature = "web")]
pub mod web;

pub use args::CliError;
use args::{EngineArgs, RulesArgs};
pub use parse::parse;

/// Iago, an Othello engine.
#[derive(Parser, Debug)]
#[command(name = "iago", version, about, long_about = None)]
pub struct Cli {
    /// What to do. Without a subcommand, Iago opens the console when standard input is a
    /// terminal; otherwise (a GUI, a script) it speaks NBoard if the first line is `nboard N`,
    /// GTP otherwise.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Engine options for the protocol session or the console when no subcommand is given;
    /// before a subcommand, they count for it (one it does not take is an error).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The rule set of the console (plain `iago` at a terminal); a protocol session takes its
    /// rules from the client.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play, get hints and solve at the terminal: a board, a prompt, moves typed as f5 (plain
    /// lines, no colours, when standard input is not a terminal).
    Play(play::PlayArgs),
    /// Speak the NBoard protocol (v2) on stdin/stdout.
    Nboard(EngineArgs),
    /// Speak GTP (Othello dialect) on stdin/stdout.
    Gtp(EngineArgs),
    /// Count the leaves of the game tree to each depth up to DEPTH (move-generator check and
    /// speed test).
    Perft(perft::PerftArgs),
    /// Solve endgame positions exactly: the best move, the final disc difference under perfect
    /// play (empties to the winner), nodes, time and a best line.
    Solve(solve::SolveArgs),
    /// Search each position to a depth or for a time: best move, score (discs for the side to
    /// move), depth@selectivity, nodes, time and principal variation.
    Analyze(analyze::AnalyzeArgs),
    /// Search fixed positions at a fixed depth: on one thread (the default) a deterministic node
    /// count for regression checks and the speed; on several, time to depth and nodes/s.
    Bench(bench::BenchArgs),
    /// Fit the Multi-ProbCut parameters on positions sampled from WTHOR archives; prints the
    /// tables of `src/search/probcut.rs`.
    ProbcutFit(probcut_fit::ProbcutFitArgs),
    /// Train the pattern evaluation on game archives and write the weight file (see docs/manual.md).
    Train(train::TrainArgs),
    /// Play Iago against itself and write the positions with their labels (outcome, search,
    /// exact) as training-data chunks; resumable, split into shards (see docs/manual.md).
    Datagen(datagen::DatagenArgs),
    /// Play a match between two engines (in-process Iago or NBoard/GTP programs): pairs of
    /// games from a list of openings, colours swapped; score, Elo ± 95% interval, optional SPRT,
    /// games as GGF.
    Match(matches::MatchArgs),
    /// Play a round robin between two or more engines: every pair plays --rounds rounds of two
    /// games (colours swapped) as in `match`; standings by points, then Brightwell quotient.
    Tournament(tournament::TournamentArgs),
    /// Merge the result files of `solve` or `analyze --shard I/N --out FILE` into one, every
    /// position once in the input's order (see docs/batch.md).
    Merge(merge::MergeArgs),
    /// Opening books: build, deepen, learn, info, probe, export, import (see docs/manual.md).
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Review games move by move: the value of each move played and of the best move, the
    /// discs lost, a summary by player and phase of the game, a picture of each game.
    Review(review::ReviewArgs),
    /// Print a position as a grid: a board string ("<64 squares> X") or a transcript from the
    /// start ("f5d6c3", "1. f5 d6 2. c3", passes optional).
    Show(show::ShowArgs),
    /// Serve the analysis board in the browser: play, values on every square, solve, review,
    /// games in and out (listens on 127.0.0.1:8080; see docs/web.md).
    #[cfg(feature = "web")]
    Web(web::WebArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let Some(command) = cli.command else {
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            return play::run(&play::PlayArgs::at_terminal(cli.engine, cli.rules));
        }
        if !cli.rules.is_default() {
            return Err(
                "--rules, --discs and --size are for the console (plain iago at a \
                        terminal, iago play); a protocol session takes the rules its client sets"
                    .into(),
            );
        }
        return protocol::run(cli.engine, None);
    };
    match command {
        Command::Play(args) => play::run(&args),
        Command::Nboard(args) => protocol::run(args, Some(crate::protocol::Protocol::Nboard)),
        Command::Gtp(args) => protocol::run(args, Some(crate::protocol::Protocol::Gtp)),
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::ProbcutFit(args) => probcut_fit::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Datagen(args) => datagen::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Book(command) => book::run(command),
        Command::Review(args) => review::run(&args),
        Command::Show(args) => show::run(&args),
        #[cfg(feature = "web")]
        Command::Web(args) => web::run(&args),
    }
}
