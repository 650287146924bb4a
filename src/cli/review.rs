//! `iago review`: where the games were lost. Every move of every game (or of one player) with
//! the value of the move played and of the best move, and the discs lost; a summary by player
//! and phase; a picture of each game.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::args::{CliError, EvalArg, RulesArgs, SearchArgs, engine_error, selectivity_arg};
use super::batch::BatchArgs;
use super::input::read_input;
use super::output::count_bar;
use crate::engine::{Engine, EngineOptions};
use crate::records::{GameError, PlayedGame, read_games};
use crate::review::{
    DEFAULT_DEPTH, DEFAULT_EXACT_FROM, MoveReview, ReviewOptions, ReviewSummary, result_text,
    review_game, svg::game_svg, write_summary, write_table,
};
use crate::search::Selectivity;
use crate::search::params::ANALYSIS_SELECTIVITY;

/// The options of `iago review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The games: GGF files (any number of games a file, as NBoard, servers and `iago match`
    /// write them), transcripts from the start, one a line (`-` reads stdin), or a WTHOR
    /// archive (`.wtb`; its players named from the `.JOU` file beside it, if any).
    pub file: String,
    /// Review only the first N games of the input.
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Leave out the first N moves of every game (the opening players know by heart), e.g. to
    /// compare games from the start with games from 8-move openings (`--from-ply 8`).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub from_ply: usize,
    /// Review only this player's moves (the name of the games' PB or PW tag; for transcripts,
    /// Black or White).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// The openings the games were started from (as `iago match --openings` takes them): the
    /// moves a game shares with the longest of them are not reviewed.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Search depth of the positions that are not solved exactly; the played and the best move
    /// are searched at the same depth and selectivity.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_name = "D",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Positions with at most E empty squares are solved exactly: about a second a move on two
    /// threads at the default (a search of D plies also solves positions of up to D × 3/2
    /// empties exactly).
    #[arg(long, default_value_t = DEFAULT_EXACT_FROM, value_name = "E",
          value_parser = clap::value_parser!(u32).range(0..=60))]
    pub exact_from: u32,
    /// Threads and hash table.
    #[command(flatten)]
    pub search: SearchArgs,
    /// One JSON object per reviewed move instead of the tables (game, ply, empties, player,
    /// color, move, best_move, value, best_value, loss, exact).
    #[arg(long)]
    pub json: bool,
    /// Write a picture of each game to DIR (made if missing): game-N.svg, the value for Black
    /// after every move, the blunders marked.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArg,
    /// ProbCut confidence of the searches in percent: 58, 73, 87, 95, 98, 99, or 100 for none.
    #[arg(long, default_value_t = ANALYSIS_SELECTIVITY, value_name = "PERCENT", value_parser = selectivity_arg)]
    pub selectivity: Selectivity,
    /// The rules of transcripts (GGF games carry their own).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// A shard of the games, and a file of results (one line a game).
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// One reviewed game as a line of `--out`.
#[derive(Serialize)]
struct GameRow<'a> {
    game: usize,
    black: &'a str,
    white: &'a str,
    result: String,
    moves: &'a [MoveReview],
}

/// Reviews every game of the input.
pub fn run(args: &ReviewArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let source = if args.file == "-" {
        "standard input"
    } else {
        args.file.as_str()
    };
    let mut games = if args.file.to_ascii_lowercase().ends_with(".wtb") {
        wthor_games(Path::new(&args.file))?
    } else {
        let (text, _) = read_input(Some(&args.file))?;
        read_games(&text, source, rules)
    };
    if let Some(n) = args.games {
        games.truncate(n);
    }
    if games.is_empty() {
        return Err(format!("{source}: no games").into());
    }
    let keys: Vec<Option<String>> = games
        .iter()
        .map(|g| g.as_ref().ok().map(PlayedGame::key))
        .collect();
    let mut shard = args.batch.start(&work_text(args), &keys)?;
    let mut engine = Engine::new(args.search.apply(EngineOptions {
        selectivity: args.selectivity,
        eval: args.eval.source(),
        ..EngineOptions::analysis()
    }))
    .map_err(engine_error)?;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    let openings = match &args.openings {
        Some(path) => crate::matchrun::openings::load_openings(path, rules)?
            .into_iter()
            .map(|o| o.game.moves().to_vec())
            .collect(),
        None => Vec::new(),
    };
    let options = ReviewOptions {
        depth: args.depth,
        exact_from: args.exact_from,
        player: args.player.clone(),
        openings,
        from_ply: args.from_ply,
    };
    let to_review: usize = games
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.runs(*i))
        .filter_map(|(_, g)| g.as_ref().ok())
        .map(|g| reviewed_moves(g, &options))
        .sum();
    let progress = count_bar(to_review, "moves");
    let mut out = std::io::stdout().lock();
    let mut summary = ReviewSummary::default();
    let mut bad_games = 0;
    for (item, game) in games.iter().enumerate() {
        if !shard.runs(item) {
            continue;
        }
        let played = match game {
            Ok(played) => played,
            Err(e) => {
                bad_games += 1;
                eprintln!("iago: error: {e}");
                continue;
            }
        };
        let index = item + 1;
        let reviews = review_game(&mut engine, played, index, &options, &mut |_| {
            if let Some(bar) = &progress {
                bar.inc(1);
            }
        })?;
        reviews.iter().for_each(|r| summary.add(r));
        let row = GameRow {
            game: index,
            black: &played.players[0],
            white: &played.players[1],
            result: result_text(&played.game),
            moves: &reviews,
        };
        let key = keys[item].as_deref().expect("a game read has a key");
        shard.record(item, key, &row)?;
        if let Some(dir) = &args.svg {
            let path = dir.join(format!("game-{index}.svg"));
            std::fs::write(&path, game_svg(played, index, &reviews))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if let Some(bar) = &progress {
            bar.suspend(|| write_game(&mut out, args, played, index, &reviews))?;
        } else {
            write_game(&mut out, args, played, index, &reviews)?;
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if !args.json && !summary.is_empty() {
        write_summary(&mut out, &summary)?;
    }
    if bad_games > 0 {
        return Err(format!("{bad_games} game(s) could not be read").into());
    }
    Ok(())
}

/// The games of a WTHOR archive, the players named by the `.JOU` file beside it (by number
/// without one).
fn wthor_games(path: &Path) -> Result<Vec<Result<PlayedGame, GameError>>, CliError> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games =
        crate::records::wthor::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let names = std::fs::read_dir(dir)
        .ok()
        .and_then(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("jou")))
        })
        .and_then(|jou| std::fs::read(jou).ok())
        .and_then(|bytes| crate::records::wthor::parse_names(&bytes).ok())
        .unwrap_or_default();
    let name = |n: u16| {
        names
            .get(usize::from(n))
            .cloned()
            .unwrap_or_else(|| format!("player {n}"))
    };
    Ok(games
        .iter()
        .enumerate()
        .map(|(i, g)| match g.replay() {
            Some(game) => Ok(PlayedGame {
                game,
                players: [name(g.black_player), name(g.white_player)],
                line: i + 1,
                tags: Vec::new(),
            }),
            None => Err(GameError::Read {
                input: path.display().to_string(),
                line: i + 1,
                message: "an illegal move in the game".into(),
            }),
        })
        .collect())
}

/// The settings that make a review's results, for `--out`.
fn work_text(args: &ReviewArgs) -> String {
    format!(
        "review depth {} exact-from {} from-ply {} selectivity {} eval {} player {} openings {}",
        args.depth,
        args.exact_from,
        args.from_ply,
        args.selectivity.percent(),
        args.eval.eval.as_deref().unwrap_or("embedded"),
        args.player.as_deref().unwrap_or("*"),
        args.openings
            .as_deref()
            .map_or("none".into(), |p| p.display().to_string())
    )
}

/// How many moves of `played` a review with `options` searches (see [`ReviewOptions::reviews`]).
fn reviewed_moves(played: &PlayedGame, options: &ReviewOptions) -> usize {
    played
        .game
        .states()
        .take(played.game.moves().len())
        .enumerate()
        .filter(|(i, state)| options.reviews(played, *i, state.position.to_move))
        .count()
}

/// The review of one game: its JSON lines, or its table.
fn write_game(
    out: &mut impl Write,
    args: &ReviewArgs,
    played: &PlayedGame,
    index: usize,
    reviews: &[MoveReview],
) -> std::io::Result<()> {
    if args.json {
        for r in reviews {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return out.flush();
    }
    write_table(out, played, index, reviews, args.depth)?;
    writeln!(out)?;
    out.flush()
}
