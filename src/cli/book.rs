//! `iago book …`: build, deepen, inspect and convert opening books.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use clap::Subcommand;

use super::args::{CliError, ThreadsArg};
use super::games::count_arg;
use super::output::check_output_dir;
use crate::batch::{ResultLog, ResultsError, Shard, merge_results};
use crate::board::{Board, Game, Move, Position, Rules, parse_position};
use crate::book::build::{DeepenOptions, EvalOptions};
use crate::book::{Book, EXACT_DEPTH, build};
use crate::records::read_archives;

/// The `book` subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from game archives and opening lists: every position of their first plies,
    /// each evaluated by a search, values negamaxed.
    Build {
        /// Where to write the book.
        #[arg(long, value_name = "FILE")]
        out: String,
        /// A directory of WTHOR `.wtb` files (or one file).
        #[arg(long, value_name = "PATH")]
        wthor: Option<String>,
        /// Logistello's `logbook.gam` or `logbook.gam.gz`.
        #[arg(long, value_name = "FILE")]
        logistello: Option<String>,
        /// Files of opening lines (e.g. XOT lists), one transcript per line, added whole.
        #[arg(long, value_name = "FILE")]
        lines: Vec<String>,
        /// Plies of each archive game to add.
        #[arg(long, default_value_t = 12, value_name = "N")]
        plies: usize,
        /// Search depth of each position's evaluation.
        #[arg(long, default_value_t = 10, value_name = "D")]
        depth: u32,
        /// At most this many games from each archive (a quick sample).
        #[arg(long, value_name = "N")]
        max_games: Option<usize>,
        /// Worker threads.
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Extend the best lines and every line within DEVIATION discs of them (as Edax's `book
    /// deviate`), then negamax; round after round, or one round split into shards (--shard)
    /// whose results --merge puts into the book.
    Deepen {
        /// The book to extend.
        file: String,
        /// Where to write the book (default: over FILE); with --shard, where to write the
        /// shard's results (JSON lines, required; resumed when the file exists).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Follow every move within this many discs of the best.
        #[arg(long, default_value_t = 2, value_name = "DISCS")]
        deviation: i32,
        /// Add no position beyond this many plies.
        #[arg(long, default_value_t = 20, value_name = "N")]
        plies: u32,
        /// Stop after adding this many positions (with --shard or --merge: in the round).
        #[arg(long, default_value_t = 10_000, value_name = "N")]
        max_new: usize,
        /// Search depth of each new position.
        #[arg(long, default_value_t = 10, value_name = "D")]
        depth: u32,
        /// Stop after this many rounds (default: when nothing is left or --max-new positions
        /// were added).
        #[arg(long, value_name = "N", value_parser = count_arg, conflicts_with_all = ["shard", "merge"])]
        rounds: Option<usize>,
        /// Search shard I of N (0 <= I < N) of one round: every N-th of the positions that
        /// every shard computes alike from FILE and --deviation, --plies, --max-new (pass them
        /// the same ones); the results go to --out. Then --merge them.
        #[arg(long, value_name = "I/N", requires = "out", conflicts_with = "merge")]
        shard: Option<Shard>,
        /// Finish the round of the shards whose results these files hold (every position
        /// once, computed from FILE with the same options): their values go into the book,
        /// which is negamaxed and written to --out (default: over FILE). Searches nothing.
        #[arg(long, value_name = "RESULTS", num_args = 1.., conflicts_with_all = ["depth", "threads"])]
        merge: Vec<String>,
        /// Worker threads.
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// Add a played game (a transcript from the start) to the book.
    Learn {
        /// The book.
        file: String,
        /// The game, e.g. "f5d6c3d3c4…".
        transcript: String,
        /// Where to write it (default: over FILE).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Search depth of each new position.
        #[arg(long, default_value_t = 10, value_name = "D")]
        depth: u32,
    },
    /// Size, load time, positions per ply and levels, and the moves of the start position.
    Info {
        /// The book (`builtin` for the one compiled into the binary).
        file: String,
    },
    /// The book's moves for a position: a board ("<64 squares> X") or a transcript.
    Probe {
        /// The book (`builtin` for the one compiled into the binary).
        file: String,
        /// The position; several words are joined with spaces.
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        position: Vec<String>,
    },
    /// Write the book as text, one line per position (see docs/manual.md).
    Export {
        /// The book (`builtin` for the one compiled into the binary).
        file: String,
        /// Where to write the text (default: stdout).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
    /// Read a text book or an Edax `book.dat` and write an Iago book.
    Import {
        /// The text or Edax file.
        input: String,
        /// Where to write the book.
        #[arg(long, value_name = "FILE")]
        out: String,
    },
}

fn open(file: &str) -> Result<Book, CliError> {
    if file == "builtin" {
        return Ok(Book::shipped()?);
    }
    Book::load(std::path::Path::new(file)).map_err(|e| format!("{file}: {e}").into())
}

fn save(book: &Book, path: &str) -> Result<(), CliError> {
    let dropped = book
        .save(std::path::Path::new(path))
        .map_err(|e| format!("cannot write {path}: {e}"))?;
    if dropped > 0 {
        log::warn!(
            "{dropped} positions are not linked from the start position and were not written"
        );
    }
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "wrote {path}: {} positions, {size} bytes",
        book.len() - dropped
    );
    Ok(())
}

fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} (eta {{eta}})"
            ))
            .expect("valid template"),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// Runs a `book` subcommand.
pub fn run(command: BookCommand) -> Result<(), CliError> {
    match command {
        BookCommand::Build {
            out,
            wthor,
            logistello,
            lines,
            plies,
            depth,
            max_games,
            threads: ThreadsArg { threads },
        } => {
            let sources = BuildSources {
                wthor: wthor.as_deref(),
                logistello: logistello.as_deref(),
                lines: &lines,
                plies,
                max_games,
            };
            build_book(&out, &sources, &EvalOptions { depth, threads })
        }
        BookCommand::Deepen {
            file,
            out,
            deviation,
            plies,
            max_new,
            depth,
            rounds,
            shard,
            merge,
            threads: ThreadsArg { threads },
        } => {
            let options = DeepenOptions {
                deviation,
                plies,
                max_new,
                rounds: rounds.unwrap_or(usize::MAX),
            };
            let eval = EvalOptions { depth, threads };
            if let Some(shard) = shard {
                let out = out.ok_or("--shard needs --out FILE for its results")?;
                return deepen_shard(&file, &out, shard, &options, &eval);
            }
            if !merge.is_empty() {
                return deepen_merge(&file, out.as_deref().unwrap_or(&file), &merge, &options);
            }
            deepen(&file, out.as_deref().unwrap_or(&file), &options, &eval)
        }
        BookCommand::Learn {
            file,
            transcript,
            out,
            depth,
        } => learn(&file, &transcript, out.as_deref().unwrap_or(&file), depth),
        BookCommand::Info { file } => info(&file),
        BookCommand::Probe { file, position } => probe(&file, &position.join(" ")),
        BookCommand::Export { file, out } => export(&file, out),
        BookCommand::Import { input, out } => import(&input, &out),
    }
}

/// Where `book build` takes its positions from.
struct BuildSources<'a> {
    /// A directory of WTHOR files (or one file).
    wthor: Option<&'a str>,
    /// Logistello's game archive.
    logistello: Option<&'a str>,
    /// Files of opening lines.
    lines: &'a [String],
    /// Plies of each archive game to add.
    plies: usize,
    /// At most this many games from each archive.
    max_games: Option<usize>,
}

/// `book build`: adds the archives' first plies and the opening lines, evaluates every
/// position, negamaxes and writes the book to `out`.
fn build_book(out: &str, sources: &BuildSources, eval: &EvalOptions) -> Result<(), CliError> {
    let start = Instant::now();
    check_output_dir(out)?;
    let mut book = Book::new();
    let archives = read_archives(
        sources.wthor.map(Path::new),
        sources.logistello.map(Path::new),
        sources.max_games,
    )?;
    let games: Vec<Game> = archives
        .wthor
        .iter()
        .filter_map(|g| g.replay())
        .chain(archives.logistello.iter().filter_map(|g| g.replay()))
        .collect();
    for game in &games {
        book.add_line(game.start().board, game.moves(), sources.plies, true);
    }
    let from_games = book.len();
    let line_count = add_opening_lines(&mut book, sources.lines)?;
    eprintln!(
        "{} games ({} plies each): {from_games} positions; {line_count} opening lines: {} more; evaluating at depth {} on {} threads",
        games.len(),
        sources.plies,
        book.len() - from_games,
        eval.depth,
        eval.threads
    );
    let boards: Vec<Board> = book.iter().map(|(b, _)| *b).collect();
    let bar = progress_bar(boards.len() as u64, "positions");
    build::evaluate(&mut book, &boards, eval, &leaf_engine, &|| bar.inc(1));
    bar.finish_and_clear();
    book.negamax();
    save(&book, out)?;
    eprintln!("built in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Adds every line of the opening-line `files` whole (blank, `%` and `#` lines skipped): how
/// many lines.
fn add_opening_lines(book: &mut Book, files: &[String]) -> Result<usize, CliError> {
    let mut line_count = 0;
    for file in files {
        let text = crate::board::notation::read_text_file(std::path::Path::new(file))
            .map_err(|e| format!("cannot read {file}: {e}"))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
                continue;
            }
            let game = Game::from_transcript(Rules::OTHELLO, Position::start(), line)
                .map_err(|e| format!("{file}:{}: {e}", i + 1))?;
            book.add_line(game.start().board, game.moves(), usize::MAX, false);
            line_count += 1;
        }
    }
    Ok(line_count)
}

/// `book deepen` without `--shard` or `--merge`: deepens the book `file` round after round
/// and writes it to `out`.
fn deepen(
    file: &str,
    out: &str,
    options: &DeepenOptions,
    eval: &EvalOptions,
) -> Result<(), CliError> {
    let start = Instant::now();
    check_output_dir(out)?;
    let mut book = open(file)?;
    let before = book.len();
    let added = build::deepen(&mut book, options, eval, &deepen_search, &|n| {
        eprintln!("deepen: {n} positions added")
    });
    eprintln!(
        "{before} positions, {added} added in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    save(&book, out)
}

/// `book learn`: adds a played game to the book `file` and writes it to `out`.
fn learn(file: &str, transcript: &str, out: &str, depth: u32) -> Result<(), CliError> {
    let mut book = open(file)?;
    let game = Game::from_transcript(Rules::OTHELLO, Position::start(), transcript)?;
    let mut engine = crate::engine::Engine::new(crate::engine::EngineOptions::analysis())?;
    let added = build::learn(
        &mut book,
        game.start().board,
        game.moves(),
        crate::engine::LEARN_PLIES,
        &mut engine,
        depth,
    )
    .ok_or("the searches were stopped")?;
    eprintln!("{added} positions added");
    save(&book, out)
}

/// `book export`: the book as text, to `out` or stdout.
fn export(file: &str, out: Option<String>) -> Result<(), CliError> {
    let book = open(file)?;
    let text = book.to_text();
    match out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `book import`: reads a text book or an Edax `book.dat` and writes an Iago book to `out`.
fn import(input: &str, out: &str) -> Result<(), CliError> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let mut book = Book::new();
    let n = if bytes.starts_with(&0x4544_4158u32.to_le_bytes()) {
        book.import_edax(&bytes)
    } else {
        book.import_text(&String::from_utf8_lossy(&bytes))
    }
    .map_err(|e| format!("{input}: {e}"))?;
    if n == 0 {
        return Err(format!("{input}: no book positions in it").into());
    }
    book.negamax();
    eprintln!("{input}: {n} positions read");
    save(&book, out)
}

/// `book deepen --shard`: searches a shard's positions of the round computed from `file`,
/// appending them to the results file `out`.
fn deepen_shard(
    file: &str,
    out: &str,
    shard: Shard,
    options: &DeepenOptions,
    eval: &EvalOptions,
) -> Result<(), CliError> {
    let start = Instant::now();
    check_output_dir(out)?;
    let mut book = open(file)?;
    book.negamax();
    let Some(round) = build::begin_round(&mut book, options, options.max_new) else {
        eprintln!("{file}: nothing left to add within the deviation and the plies");
        return Ok(());
    };
    let mut log = ResultLog::open(out, &deepen_work(options, eval), round.work.len())?;
    let owned = (0..round.work.len()).filter(|&k| shard.owns(k)).count();
    eprintln!(
        "round: {} positions to search ({} new, {} parents), {owned} of them shard {shard}'s; searching at depth {} on {} threads",
        round.work.len(),
        round.new,
        round.work.len() - round.new,
        eval.depth,
        eval.threads
    );
    let bar = progress_bar(owned as u64, "positions");
    // A resumed shard: what the file holds is done.
    bar.set_position(log.done_count().min(owned) as u64);
    let searched = build::evaluate_shard(&round, shard, &mut log, eval, &deepen_search, &|| {
        bar.inc(1)
    })?;
    bar.finish_and_clear();
    eprintln!(
        "shard {shard}: {searched} positions searched, {} were in {out}, in {:.0} s",
        owned - searched,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The settings a round's results depend on, recorded with each result (a results file of
/// other settings is neither resumed nor merged).
fn deepen_work(options: &DeepenOptions, eval: &EvalOptions) -> String {
    format!(
        "book deepen depth {} deviation {} plies {} max-new {}",
        eval.depth, options.deviation, options.plies, options.max_new
    )
}

/// `book deepen --merge`: finishes the round computed from `file` with the shards' results.
fn deepen_merge(
    file: &str,
    out: &str,
    results: &[String],
    options: &DeepenOptions,
) -> Result<(), CliError> {
    check_output_dir(out)?;
    let mut book = open(file)?;
    book.negamax();
    let before = book.len();
    let paths: Vec<std::path::PathBuf> = results.iter().map(Into::into).collect();
    let merged = merge_results(&paths, false).map_err(|e| match e {
        ResultsError::Missing {
            missing,
            items,
            first,
        } => format!(
            "{missing} of the round's {items} positions have no result (the first: item {first}): run their shards (again) and merge the files of every shard"
        ),
        e => e.to_string(),
    })?;
    match build::begin_round(&mut book, options, options.max_new) {
        Some(round) => {
            let leaves = build::round_leaves(&round, &merged)?;
            build::finish_round(&mut book, leaves);
        }
        None if merged.items > 0 => {
            return Err(build::RoundError::OtherRound {
                found: merged.items,
                expected: 0,
            }
            .into());
        }
        None => eprintln!("{file}: nothing left to add within the deviation and the plies"),
    }
    eprintln!("{before} positions, {} added", book.len() - before);
    save(&book, out)
}

fn info(file: &str) -> Result<(), CliError> {
    let start = Instant::now();
    let book = open(file)?;
    let load = start.elapsed();
    let size = if file == "builtin" {
        0
    } else {
        std::fs::metadata(file).map(|m| m.len()).unwrap_or(0)
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "book: {file}")?;
    if size > 0 {
        writeln!(out, "size: {size} bytes")?;
    }
    writeln!(out, "positions: {}", book.len())?;
    writeln!(out, "load time: {:.1} ms", load.as_secs_f64() * 1000.0)?;
    let mut per_ply = [0usize; 61];
    let mut exact = 0;
    for (board, node) in book.iter() {
        per_ply[(60 - board.empty_count().min(60)) as usize] += 1;
        exact += usize::from(node.depth == EXACT_DEPTH);
    }
    writeln!(out, "exact values: {exact}")?;
    write!(out, "positions per ply:")?;
    for (ply, n) in per_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
        write!(out, " {ply}:{n}")?;
    }
    writeln!(out)?;
    print_choices(&mut out, &book, &Board::start())
}

fn print_choices(out: &mut impl Write, book: &Book, board: &Board) -> Result<(), CliError> {
    let choices = book.moves(board);
    if choices.is_empty() {
        writeln!(out, "not in the book")?;
        return Ok(());
    }
    writeln!(out, "move  value  level   games  kind")?;
    for c in choices {
        // The column says `level`, the book formats' word for the depth.
        let depth = if c.depth == EXACT_DEPTH {
            "exact".to_string()
        } else {
            c.depth.to_string()
        };
        writeln!(
            out,
            "{:<4} {:>+6} {:>6} {:>7}  {}",
            c.mv.to_string(),
            c.value,
            depth,
            c.games,
            if c.linked { "book" } else { "best other move" }
        )?;
    }
    Ok(())
}

fn probe(file: &str, position: &str) -> Result<(), CliError> {
    let book = open(file)?;
    let board = if crate::board::notation::looks_like_board(position) {
        parse_position(position)?.board
    } else {
        Game::from_transcript(Rules::OTHELLO, Position::start(), position)?
            .position()
            .board
    };
    print_choices(&mut std::io::stdout().lock(), &book, &board)
}

/// The search of a deepening worker: [`leaf_engine`]'s, its table emptied before each
/// position, so that a value does not depend on the positions the thread searched before: a
/// round split into shards, or run on another number of threads, gives the same book.
struct DeepenSearch(crate::engine::Engine);

impl build::BookSearch for DeepenSearch {
    fn best_of(&mut self, board: &Board, allowed: u64, depth: u32) -> Option<(Move, i32, bool)> {
        self.0.clear_hash();
        self.0.best_of(board, allowed, depth)
    }
}

fn deepen_search() -> DeepenSearch {
    DeepenSearch(leaf_engine())
}

/// The search of a book builder's worker thread: an engine of one thread with a 16 MiB table
/// of its own, no book.
fn leaf_engine() -> crate::engine::Engine {
    crate::engine::Engine::new(crate::engine::EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..crate::engine::EngineOptions::analysis()
    })
    .expect("one thread and 16 MiB")
}
