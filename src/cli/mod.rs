//! The command line: `iago <subcommand>`. Each subcommand is a thin shell over the library.

use std::io::Write;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::board::notation::looks_like_board;
use crate::board::{Bitboard, Color, Game, Move, Rules, parse_sized_position};
use crate::perft::{PassRule, perft_parallel, perft_rules};

/// Iago, an Othello engine.
#[derive(Parser, Debug)]
#[command(name = "iago", version, about, long_about = None)]
pub struct Cli {
    /// What to do. Without a subcommand, Iago speaks NBoard if the first line is `nboard N`,
    /// GTP otherwise (a GUI needs no arguments).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Engine options for the protocol session when no subcommand is given.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Options of the protocol subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads (default: every core of the machine).
    #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
    pub threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = hash_arg)]
    pub hash: usize,
    /// Search depth when the client sets none (NBoard until `set depth`; GTP without a clock).
    #[arg(long, default_value_t = 12, value_name = "D")]
    pub depth: u32,
    /// Seconds per move when a GTP client gives no clock (instead of --depth).
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// How GTP vertices name the rows: `top` (a1 top-left, Othello notation, Edax's GTP),
    /// `bottom` (A1 bottom-left, GoGui and gogui-twogtp), or `auto`: top until the client sends
    /// a `gogui-` command, as GoGui and gogui-twogtp do at once.
    #[arg(long, value_enum, default_value_t = crate::protocol::gtp::Rows::Auto)]
    pub rows: crate::protocol::gtp::Rows,
    /// The evaluation: a weight file made by `iago train`, `hand` for the hand-written one
    /// (default: the trained weights compiled into the binary).
    #[arg(long, value_name = "FILE|hand")]
    pub eval: Option<String>,
    /// An opening book file (default: the book shipped in `book/`, compiled in). `learn` saves
    /// into this file.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<String>,
    /// Play without an opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Pick at random among book moves within this many discs of the best (varied games).
    #[arg(long, default_value_t = 0, value_name = "DISCS")]
    pub book_randomness: i32,
}

impl Default for EngineArgs {
    fn default() -> Self {
        EngineArgs {
            threads: default_threads(),
            hash: 64,
            depth: 12,
            time: None,
            rows: crate::protocol::gtp::Rows::Auto,
            eval: None,
            book: None,
            no_book: false,
            book_randomness: 0,
        }
    }
}

/// The rule set of a subcommand: `--rules`, `--discs`, `--size`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesArgs {
    /// The game: othello (the default), reversi (empty centre filled by the first four moves
    /// without capture), anti (fewest discs wins) or anti-reversi; also written like
    /// "6x6 anti" or "reversi-32".
    #[arg(long, value_name = "NAME")]
    pub rules: Option<String>,
    /// Discs each player may place in all, the start's included (Reversi's 32); a side with
    /// none left passes. Default: unlimited.
    #[arg(long, value_name = "N")]
    pub discs: Option<u8>,
    /// Board size: 4, 6 or 8 (default 8, or the size of the positions read).
    #[arg(long, value_name = "N")]
    pub size: Option<u8>,
}

impl RulesArgs {
    /// The rules named by the flags, at `--size` or else `default_size`.
    pub fn rules_at(&self, default_size: u8) -> Result<Rules, CliError> {
        let mut rules = match &self.rules {
            Some(name) => name.parse::<Rules>()?,
            None => Rules::OTHELLO,
        };
        if self.rules.as_deref().is_none_or(|n| !n.contains('x')) {
            rules.size = default_size;
        }
        if let Some(size) = self.size {
            if self.rules.as_deref().is_some_and(|n| n.contains('x')) && size != rules.size {
                return Err(format!("--size {size} contradicts --rules '{}'", rules).into());
            }
            rules.size = size;
        }
        if let Some(discs) = self.discs {
            rules.discs_per_player = Some(discs);
        }
        rules.check_supported()?;
        Ok(rules)
    }

    /// The rules named by the flags (8×8 unless a size is given).
    pub fn rules(&self) -> Result<Rules, CliError> {
        self.rules_at(8)
    }

    /// The rules for a position of `size` squares a side read from the input: `--size`, when
    /// given, must agree.
    pub fn rules_for(&self, size: u8) -> Result<Rules, CliError> {
        let rules = self.rules_at(size)?;
        if rules.size != size {
            return Err(format!(
                "a {size}x{size} position, but the rules are for {0}x{0} (--size)",
                rules.size
            )
            .into());
        }
        Ok(rules)
    }

    /// Whether no flag was given (standard Othello).
    pub fn is_default(&self) -> bool {
        *self == RulesArgs::default()
    }
}

/// A board string of 16, 36 or 64 squares and the side to move, under the flags' rules.
fn read_board(args: &RulesArgs, input: &str) -> Result<(Rules, Game), CliError> {
    let (position, size) = parse_sized_position(input)?;
    let rules = args.rules_for(size)?;
    Ok((rules, Game::try_from_position(rules, position)?))
}

/// A position read from the command line: a board string of 16, 36 or 64 squares and the side
/// to move, or a transcript played from the start of the rules.
pub(crate) fn read_position(args: &RulesArgs, input: &str) -> Result<(Rules, Game), CliError> {
    if looks_like_board(input) {
        read_board(args, input)
    } else {
        let rules = args.rules()?;
        let mut game = Game::new(rules);
        game.play_transcript(input)?;
        Ok((rules, game))
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Speak the NBoard protocol (v2) on stdin/stdout.
    Nboard(EngineArgs),
    /// Speak GTP (Othello dialect) on stdin/stdout.
    Gtp(EngineArgs),
    /// Count the leaves of the game tree to each depth up to DEPTH (move-generator check and
    /// speed test).
    Perft {
        /// The deepest depth to count (each depth from 1 is printed).
        depth: u32,
        /// A forced pass does not use a ply (the default: it does, as in Edax).
        #[arg(long)]
        pass_free: bool,
        /// Start from this position instead: 64 squares a1..h8 (X, O, -) and the side to move,
        /// e.g. "---------------------------OX------XO--------------------------- X" (16 or 36
        /// squares for 4x4 / 6x6).
        #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
        position: Option<String>,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_name = "N", value_parser = threads_arg)]
        threads: usize,
        /// The rule set.
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Solve endgame positions exactly: the best move, the final disc difference under perfect
    /// play (empties to the winner), nodes, time and a best line.
    Solve {
        /// An OBF file (`<board> X; A2:+38;` lines) or board lines; `-` reads stdin. Without a
        /// file, the built-in suite FFO #40-#49 is solved.
        file: Option<String>,
        /// Search threads (default: every core of the machine).
        #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
        threads: usize,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64, value_name = "MB", value_parser = hash_arg)]
        hash: usize,
        /// Only win/loss/draw (scores print as +2 / 0 / -2 meaning "at least a win", "draw",
        /// "at most a loss").
        #[arg(long)]
        wld: bool,
        /// One JSON object per line instead of the table.
        #[arg(long)]
        json: bool,
        /// Refuse positions with more empty squares than this (before solving any): an exact
        /// solve takes about twice as long for each empty more, minutes at 30 empties and
        /// years from the 40s on.
        #[arg(long, default_value_t = crate::cli_solve::DEFAULT_MAX_EMPTIES, value_name = "N")]
        max_empties: u32,
        /// The rule set (without a file, a variant's start position is solved).
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Search each position to a depth or for a time: best move, score (discs for the side to
    /// move), depth@selectivity, nodes, time and principal variation.
    #[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "time"])))]
    Analyze {
        /// An OBF file or board lines; `-` reads stdin; without a file, FFO #40-#49.
        file: Option<String>,
        /// Search depth in plies (0: the static evaluation). Exact solving starts at
        /// depth × 3/2 empties.
        #[arg(long, value_name = "D")]
        depth: Option<u32>,
        /// Time per position in seconds.
        #[arg(long, value_name = "SECS")]
        time: Option<f64>,
        /// Search threads (default: every core of the machine).
        #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
        threads: usize,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64, value_name = "MB", value_parser = hash_arg)]
        hash: usize,
        /// One JSON object per line instead of the table.
        #[arg(long)]
        json: bool,
        /// The evaluation: a weight file made by `iago train`, `hand` for the hand-written one
        /// (default: the trained weights compiled into the binary).
        #[arg(long, value_name = "FILE|hand")]
        eval: Option<String>,
        /// ProbCut confidence of the midgame search in percent: 73, 87, 95, 98, 99, or 100 for
        /// no selective cuts (a full-width search to the depth).
        #[arg(long, default_value_t = 95, value_name = "PERCENT")]
        selectivity: u8,
        /// The rule set (without a file, a variant's start position is searched).
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Search fixed positions at a fixed depth on one thread: a deterministic node count for
    /// regression checks, and the speed.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = 12, value_name = "D")]
        depth: u32,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64, value_name = "MB", value_parser = hash_arg)]
        hash: usize,
        /// The evaluation: a weight file made by `iago train`, `hand` for the hand-written one
        /// (default: the trained weights compiled into the binary).
        #[arg(long, value_name = "FILE|hand")]
        eval: Option<String>,
    },
    /// Fit the Multi-ProbCut parameters on positions sampled from WTHOR archives; prints the
    /// table of `src/search/probcut.rs`.
    ProbcutFit {
        /// WTHOR `.wtb` files.
        #[arg(required = true, value_name = "WTB")]
        files: Vec<String>,
        /// Positions to sample.
        #[arg(long, default_value_t = 600, value_name = "N")]
        positions: usize,
        /// Deepest full-width search per position.
        #[arg(long, default_value_t = 11, value_name = "D")]
        max_depth: u32,
        /// Worker threads (one position per thread).
        #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
        threads: usize,
        /// Seed of the position sampler.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// The evaluation: a weight file made by `iago train`, `hand` for the hand-written one
        /// (default: the trained weights compiled into the binary).
        #[arg(long, value_name = "FILE|hand")]
        eval: Option<String>,
    },
    /// Train the pattern evaluation on game archives and write the weight file (see docs/manual.md).
    Train {
        /// A directory of WTHOR `WTH_*.wtb` files (or one file).
        #[arg(long, value_name = "PATH")]
        wthor: String,
        /// Logistello's `logbook.gam` or `logbook.gam.gz`.
        #[arg(long, value_name = "FILE")]
        logistello: Option<String>,
        /// Where to write the weights.
        #[arg(long, value_name = "FILE")]
        out: String,
        /// WTHOR years kept for validation.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "2023,2024",
            value_name = "YEARS"
        )]
        validation_years: Vec<u16>,
        /// Positions per stage labelled by search (the stages beyond 24 empties).
        #[arg(long, default_value_t = 300_000, value_name = "N")]
        max_per_stage: usize,
        /// Positions per stage labelled by their game's value (the stages up to 24 empties).
        #[arg(long, default_value_t = 1_500_000, value_name = "N")]
        max_labelled: usize,
        /// Positions per stage labelled by the exact solver.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        max_solved: usize,
        /// Solve positions with at most this many empties.
        #[arg(long, default_value_t = 16, value_name = "E")]
        solve_max_empties: u32,
        /// Where a game's known values disagree between 24 empties and the solver's range, solve
        /// its position at these depths (empties) too, so that more of its positions get the
        /// game's value; an empty list solves none.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "18",
            value_name = "EMPTIES"
        )]
        check_empties: Vec<u32>,
        /// Share of the training positions in the solver's range (and one empty beyond) that
        /// also bring the child of a random move, solved (positions off the games' paths).
        #[arg(long, default_value_t = 0.2, value_name = "R")]
        off_path: f64,
        /// Share of the training positions beyond the solver's range (and one empty) that also
        /// bring the child of a random move, labelled by a search.
        #[arg(long, default_value_t = 0.3, value_name = "R")]
        off_path_search: f64,
        /// Training positions per stage between the solver's range and 24 empties that have no
        /// trusted game value and get the score of a search instead.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        max_searched: usize,
        /// Plies of the search that scores those positions.
        #[arg(long, default_value_t = 6, value_name = "D")]
        searched_depth: u32,
        /// Passes over each stage's samples.
        #[arg(long, default_value_t = 12, value_name = "N")]
        epochs: usize,
        /// Adagrad's learning rate.
        #[arg(long, default_value_t = 0.16, value_name = "R")]
        learning_rate: f32,
        /// L2 decay of each mobility context's difference from the shared table, per pass over
        /// a stage's samples: rarely seen configurations keep the shared weight.
        #[arg(long, default_value_t = 1000.0, value_name = "L")]
        context_decay: f32,
        /// At most this many games from each archive (a quick sample).
        #[arg(long, value_name = "N")]
        max_games: Option<usize>,
        /// Worker threads.
        #[arg(long, default_value_t = default_threads(), value_name = "N", value_parser = threads_arg)]
        threads: usize,
        /// Seed of the samples.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// Exact scores of solved positions: read when the file exists, and written back with
        /// the positions this run solves (a rerun then skips the solving).
        #[arg(long, value_name = "FILE")]
        solved: Option<String>,
    },
    /// Play a match between two engines (in-process Iago or NBoard/GTP programs): pairs of
    /// games from a list of openings, colours swapped; score, Elo ± 95% interval, optional SPRT,
    /// games as GGF.
    Match(crate::matchrun::MatchArgs),
    /// Play a round robin between two or more engines: every pair plays --rounds rounds of two
    /// games (colours swapped) as in `match`; standings by points, then Brightwell quotient.
    Tournament(crate::matchrun::tournament::TournamentArgs),
    /// Opening books: build, deepen, learn, info, probe, export, import (see docs/manual.md).
    #[command(subcommand)]
    Book(crate::cli_book::BookCommand),
    /// Print a position as a grid: a board string ("<64 squares> X") or a transcript from the
    /// start ("f5d6c3", "1. f5 d6 2. c3", passes optional).
    Show {
        /// The position or transcript; several words are joined with spaces.
        #[arg(required = true, num_args = 1.., value_name = "POSITION|TRANSCRIPT", allow_hyphen_values = true)]
        input: Vec<String>,
        /// The rule set.
        #[command(flatten)]
        rules: RulesArgs,
    },
}

/// The book chosen by `--book`/`--no-book`; a book that cannot be read gives a warning and no
/// book.
pub(crate) fn opening_book(args: &EngineArgs) -> Option<crate::book::Book> {
    if args.no_book {
        return None;
    }
    let start = Instant::now();
    let loaded = match &args.book {
        Some(path) => crate::book::Book::load(std::path::Path::new(path))
            .inspect(|b| b.set_path(Some(path.into()))),
        None => crate::book::Book::shipped(),
    };
    match loaded {
        Ok(mut book) => {
            book.set_randomness(args.book_randomness);
            book.set_seed(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64),
            );
            log::info!(
                "opening book: {} positions, loaded in {:.1} ms",
                book.len(),
                start.elapsed().as_secs_f64() * 1000.0
            );
            Some(book)
        }
        Err(e) => {
            let name = args.book.as_deref().unwrap_or("the built-in book");
            log::warn!("cannot use the opening book {name}: {e}; playing without a book");
            None
        }
    }
}

/// The evaluation chosen by `--eval` (the embedded one without it).
fn evaluator(eval: Option<&str>) -> Result<crate::eval::Evaluation, CliError> {
    match eval {
        None => Ok(crate::eval::default_evaluator()),
        Some(name) => {
            crate::eval::load_evaluator(name).map_err(|e| format!("--eval {name}: {e}").into())
        }
    }
}

/// `--threads`: 1 to [`crate::engine::MAX_THREADS`].
pub(crate) fn threads_arg(text: &str) -> Result<usize, String> {
    let max = crate::engine::MAX_THREADS;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a number of threads from 1 to {max}")),
    }
}

/// `--hash`: 1 to [`crate::search::tt::MAX_MB`] MiB (the machine's memory is checked when the
/// table is made).
pub(crate) fn hash_arg(text: &str) -> Result<usize, String> {
    let max = crate::search::tt::MAX_MB;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a size in MiB from 1 to {max}")),
    }
}

/// The number of cores, the default thread count of searching subcommands.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// An error for the user: one line, printed by `main` with a non-zero exit.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let Some(command) = cli.command else {
        return run_protocol(cli.engine, None);
    };
    match command {
        Command::Nboard(args) => run_protocol(args, Some(crate::protocol::Protocol::Nboard)),
        Command::Gtp(args) => run_protocol(args, Some(crate::protocol::Protocol::Gtp)),
        Command::Perft {
            depth,
            pass_free,
            position,
            threads,
            rules,
        } => run_perft(depth, pass_free, position.as_deref(), threads, &rules),
        Command::Book(command) => crate::cli_book::run(command),
        Command::Match(args) => crate::matchrun::run(args),
        Command::Tournament(args) => crate::matchrun::tournament::run(args),
        Command::Show { input, rules } => run_show(&input.join(" "), &rules),
        Command::Analyze {
            file,
            depth,
            time,
            threads,
            hash,
            json,
            eval,
            selectivity,
            rules,
        } => crate::cli_analyze::run(
            file.as_deref(),
            crate::cli_analyze::AnalyzeOptions {
                depth,
                time,
                threads,
                hash,
                json,
                selectivity,
            },
            evaluator(eval.as_deref())?,
            &rules,
        ),
        Command::Bench { depth, hash, eval } => {
            crate::cli_analyze::bench(depth, hash, evaluator(eval.as_deref())?)
        }
        Command::Train {
            wthor,
            logistello,
            out,
            validation_years,
            max_per_stage,
            max_labelled,
            max_solved,
            solve_max_empties,
            check_empties,
            off_path,
            off_path_search,
            max_searched,
            searched_depth,
            epochs,
            learning_rate,
            context_decay,
            max_games,
            threads,
            seed,
            solved,
        } => {
            let options = crate::train::evaluation::TrainOptions {
                validation_years,
                max_per_stage,
                max_labelled,
                max_solved,
                solve_max_empties,
                check_empties,
                off_path,
                off_path_search,
                max_searched,
                searched_depth,
                epochs,
                learning_rate,
                context_decay,
                seed,
                ..Default::default()
            };
            run_train(
                &wthor,
                logistello.as_deref(),
                &out,
                solved.as_deref(),
                max_games,
                threads,
                &options,
            )
        }
        Command::ProbcutFit {
            files,
            positions,
            max_depth,
            threads,
            seed,
            eval,
        } => run_probcut_fit(
            &files,
            positions,
            max_depth,
            threads,
            seed,
            &evaluator(eval.as_deref())?,
        ),
        Command::Solve {
            file,
            threads,
            hash,
            wld,
            json,
            max_empties,
            rules,
        } => crate::cli_solve::run(
            file.as_deref(),
            crate::cli_solve::SolveArgs {
                threads,
                hash,
                wld,
                json,
                max_empties,
            },
            &rules,
        ),
    }
}

fn run_perft(
    depth: u32,
    pass_free: bool,
    position: Option<&str>,
    threads: usize,
    rules: &RulesArgs,
) -> Result<(), CliError> {
    let (rules, game) = match position {
        Some(text) => read_board(rules, text).map_err(|e| format!("bad --position: {e}"))?,
        None => {
            let rules = rules.rules()?;
            (rules, Game::new(rules))
        }
    };
    let state = game.state();
    let rule = if pass_free {
        PassRule::Free
    } else {
        PassRule::Ply
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "perft {rules} from {}, {}, {threads} thread{}",
        rules.board_string(&state.position),
        if pass_free {
            "passes are free"
        } else {
            "a pass uses a ply"
        },
        if threads == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "{:>5} {:>16} {:>11} {:>16}",
        "depth", "leaves", "time", "leaves/s"
    )?;
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = pool.install(|| {
            if rules.is_standard() {
                perft_parallel(&state.board(), d, rule)
            } else {
                perft_rules(&rules, &state, d, rule)
            }
        });
        let secs = start.elapsed().as_secs_f64();
        let speed = if secs > 0.001 {
            format!("{:.1} M", leaves as f64 / secs / 1e6)
        } else {
            "-".to_string()
        };
        writeln!(out, "{d:>5} {leaves:>16} {secs:>9.3} s {speed:>16}")?;
        out.flush()?;
    }
    Ok(())
}

fn run_show(input: &str, rules: &RulesArgs) -> Result<(), CliError> {
    let from_board = looks_like_board(input);
    let (rules, game) = read_position(rules, input)?;
    let state = game.state();
    let position = state.position;
    let board = position.board;
    let mut out = std::io::stdout().lock();
    if !rules.is_standard() {
        writeln!(out, "Rules: {rules}")?;
    }
    writeln!(out, "{}", rules.grid(&state, true))?;
    let empty = rules.empty_count(&board);
    writeln!(
        out,
        "Black (X) {} discs, White (O) {} discs, {empty} empty",
        position.black().count(),
        position.white().count(),
    )?;
    if rules.discs_per_player.is_some() {
        writeln!(
            out,
            "Discs left: Black {}, White {}",
            state.left_of(Color::Black),
            state.left_of(Color::White)
        )?;
    }
    if !from_board {
        writeln!(
            out,
            "Moves: {} ({})",
            game.moves().len(),
            game.transcript(true)
        )?;
    }
    if game.is_over() {
        let score = game.final_score_for_black();
        let result = match score {
            s if s > 0 => format!("Black wins by {s}"),
            s if s < 0 => format!("White wins by {}", -s),
            _ => "draw".to_string(),
        };
        writeln!(
            out,
            "Game over: {result} (Black {score:+}, empties to the winner)"
        )?;
    } else if game.must_pass() {
        writeln!(out, "{} to move must pass", position.to_move)?;
    } else {
        let moves: Vec<String> = Bitboard(game.legal_moves())
            .iter()
            .map(|s| s.to_string())
            .collect();
        writeln!(
            out,
            "{} to move; legal moves ({}): {}",
            position.to_move,
            moves.len(),
            moves.join(" ")
        )?;
    }
    writeln!(out, "Board: {}", rules.board_string(&position))?;
    Ok(())
}

/// A PV as Edax writes it: upper case for Black's moves, lower case for White's.
pub(crate) fn pv_text(pv: &[Move], first: Color) -> String {
    let mut color = first;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        out.push(match color {
            Color::Black => mv.to_uppercase(),
            Color::White => mv.to_string().to_lowercase(),
        });
        color = color.opposite();
    }
    out.join(" ")
}

pub(crate) fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1} M", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

/// The text of FILE, of stdin for `-`, or of the built-in suite without a file; and the index
/// of its first position (40 for the built-in FFO #40-#49).
pub(crate) fn read_input(file: Option<&str>) -> Result<(String, usize), CliError> {
    use std::io::Read;
    Ok(match file {
        None => (
            crate::solve::BUILTIN_SUITE.to_string(),
            crate::solve::BUILTIN_FIRST_INDEX,
        ),
        Some("-") => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            (
                crate::board::notation::decode_text(bytes, "standard input"),
                1,
            )
        }
        Some(path) => (
            crate::board::notation::read_text_file(std::path::Path::new(path))
                .map_err(|e| format!("cannot read {path}: {e}"))?,
            1,
        ),
    })
}

fn run_probcut_fit(
    files: &[String],
    positions: usize,
    max_depth: u32,
    threads: usize,
    seed: u64,
    eval: &crate::eval::Evaluation,
) -> Result<(), CliError> {
    use crate::train::{probcut_fit, wthor};
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        games.extend(wthor::parse(&bytes).map_err(|e| format!("{file}: {e}"))?);
    }
    let sample = probcut_fit::sample_positions(&games, positions, seed);
    log::info!("{} games, {} positions sampled", games.len(), sample.len());
    let bar = indicatif::ProgressBar::new(sample.len() as u64);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let start = Instant::now();
    let samples = pool.install(|| probcut_fit::collect(&sample, eval, max_depth, &|| bar.inc(1)));
    bar.finish_and_clear();
    let table = probcut_fit::fit(&samples, 30);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "// {} positions from {} games (seed {seed}), full-width depths 1-{max_depth}, {} evaluation, {:.0} s",
        samples.len(),
        games.len(),
        eval.name(),
        start.elapsed().as_secs_f64()
    )?;
    write!(out, "{}", probcut_fit::render(&table))?;
    Ok(())
}

fn run_protocol(
    args: EngineArgs,
    protocol: Option<crate::protocol::Protocol>,
) -> Result<(), CliError> {
    if let Some(t) = args.time
        && !(t > 0.0 && t.is_finite())
    {
        return Err(format!("--time must be a positive number of seconds, not {t}").into());
    }
    let mut engine = crate::engine::Engine::new(crate::engine::EngineOptions {
        threads: args.threads,
        hash_mb: args.hash,
        ..crate::engine::EngineOptions::default()
    })?;
    let evaluation = evaluator(args.eval.as_deref())?;
    let embedded = matches!(evaluation, crate::eval::Evaluation::Embedded);
    engine.set_evaluator(evaluation);
    // The weights (see `default_evaluator`) and then the book load while the session starts,
    // one after the other, so that their peaks of memory do not add up.
    let book_args = args.clone();
    engine.set_book_loading(move || {
        if embedded {
            crate::eval::embedded();
        }
        opening_book(&book_args)
    });
    crate::protocol::serve(
        engine,
        protocol,
        crate::protocol::Settings {
            depth: args.depth.clamp(1, 60),
            move_time: args.time,
            rows: args.rows,
        },
    );
    Ok(())
}

/// Game archives read from the command line.
pub(crate) struct Archives {
    /// WTHOR games, every file in order.
    pub wthor: Vec<crate::train::wthor::WthorGame>,
    /// WTHOR files read.
    pub wthor_files: usize,
    /// Logistello's games.
    pub logistello: Vec<crate::train::logbook::LogbookGame>,
}

/// Reads a WTHOR directory (or one `.wtb` file) and optionally Logistello's `logbook.gam[.gz]`;
/// `max_games` keeps a sample (spread over the WTHOR files).
pub(crate) fn read_archives(
    wthor: Option<&str>,
    logistello: Option<&str>,
    max_games: Option<usize>,
) -> Result<Archives, CliError> {
    use crate::train::{logbook, wthor as wtb};
    let mut archives = Archives {
        wthor: Vec::new(),
        wthor_files: 0,
        logistello: Vec::new(),
    };
    if let Some(wthor) = wthor {
        let path = std::path::Path::new(wthor);
        let files: Vec<std::path::PathBuf> = if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .map_err(|e| format!("cannot read {wthor}: {e}"))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
                .collect();
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        for file in &files {
            let bytes =
                std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let mut games = wtb::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
            if let Some(n) = max_games {
                games.truncate(n.div_ceil(files.len()).max(1));
            }
            archives.wthor.extend(games);
        }
        archives.wthor_files = files.len();
    }
    if let Some(file) = logistello {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let text = if file.ends_with(".gz") {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
                .map_err(|e| format!("{file}: {e}"))?;
            text
        } else {
            String::from_utf8_lossy(&bytes).into_owned()
        };
        archives.logistello = logbook::parse(&text)
            .into_iter()
            .filter_map(|g| g.map_err(|e| log::warn!("{e}")).ok())
            .collect();
        if let Some(n) = max_games {
            archives.logistello.truncate(n);
        }
    }
    Ok(archives)
}

/// Refuses an output `path` whose directory does not exist, before a long run that would
/// otherwise fail only when it writes its result (`train`, `book build`, `book deepen`).
pub(crate) fn check_output_dir(path: &str) -> Result<(), CliError> {
    let dir = std::path::Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(format!("cannot write {path}: no such directory").into());
    }
    Ok(())
}

fn run_train(
    wthor: &str,
    logistello: Option<&str>,
    out_path: &str,
    solved_path: Option<&str>,
    max_games: Option<usize>,
    threads: usize,
    options: &crate::train::evaluation::TrainOptions,
) -> Result<(), CliError> {
    use crate::train::evaluation;
    let start = Instant::now();
    // A training run takes up to an hour: a file it could not write should fail now, not then.
    for path in std::iter::once(out_path).chain(solved_path) {
        check_output_dir(path)?;
    }
    let mut cache = match solved_path {
        Some(path) if std::path::Path::new(path).exists() => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let cache =
                evaluation::SolvedCache::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
            eprintln!("[train] {} solved positions from {path}", cache.len());
            cache
        }
        _ => evaluation::SolvedCache::default(),
    };
    let mut save_error = None;
    let mut save = |cache: &evaluation::SolvedCache| {
        let Some(path) = solved_path else { return };
        match std::fs::write(path, cache.to_bytes()) {
            Ok(()) => eprintln!("[train] {} solved positions written to {path}", cache.len()),
            Err(e) => save_error = Some(format!("cannot write {path}: {e}")),
        }
    };
    let archives = read_archives(Some(wthor), logistello, max_games)?;
    let mut games = evaluation::wthor_games(&archives.wthor, &options.validation_years);
    let wthor_count = games.len();
    games.extend(evaluation::logbook_games(&archives.logistello));
    eprintln!(
        "[train] {} WTHOR games from {} files, {} Logistello games; validation years {:?}",
        wthor_count,
        archives.wthor_files,
        games.len() - wthor_count,
        options.validation_years
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let (eval, stages, exact) = pool.install(|| {
        evaluation::train(
            &games,
            options,
            &mut cache,
            &mut |line| eprintln!("[train] {line}"),
            &mut save,
        )
    });
    std::fs::write(out_path, eval.to_bytes())
        .map_err(|e| format!("cannot write {out_path}: {e}"))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "stage  empties  labels            train  train MAE  validation  valid MAE"
    )?;
    for s in &stages {
        writeln!(
            out,
            "{:>5}  {:>2}-{:>2}    {:<16} {:>7}  {:>9.2}  {:>10}  {:>9.2}",
            s.stage,
            s.empties.0,
            s.empties.1,
            s.kinds
                .iter()
                .map(|(k, _)| k.name())
                .collect::<Vec<_>>()
                .join("+"),
            s.train,
            s.train_mae,
            s.validation,
            s.validation_mae
        )?;
    }
    writeln!(
        out,
        "exact scores at 24 empties, validation years: {} positions; MAE static {:.2} (hand-written {:.2}); depth 8 on {}: {:.2}",
        exact.positions, exact.static_mae, exact.hand_mae, exact.depth8_positions, exact.depth8_mae
    )?;
    writeln!(
        out,
        "wrote {out_path} in {:.0} s",
        start.elapsed().as_secs_f64()
    )?;
    match save_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
