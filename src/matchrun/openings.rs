//! Openings: a file of transcripts from the standard start (one a line, as in the XOT lists),
//! and the order in which a match plays them.

use std::path::PathBuf;

use thiserror::Error;

use crate::board::notation::TranscriptError;
use crate::board::{Game, Rules};

/// One opening: its transcript and the game it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The 1-based line of the file it came from (0 for the standard start).
    pub line: usize,
    /// The moves, as a compact transcript (`f5d6c3d3…`).
    pub transcript: String,
    /// The game after the opening moves.
    pub game: Game,
}

impl Opening {
    /// The standard start, no moves.
    pub fn start() -> Opening {
        Opening::start_of(Rules::OTHELLO)
    }

    /// The start of `rules`, no moves.
    pub fn start_of(rules: Rules) -> Opening {
        Opening {
            line: 0,
            transcript: String::new(),
            game: Game::new(rules),
        }
    }
}

/// Why openings could not be read; `origin` names the file (or what the text came from).
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// A line that is not a transcript, or one with an illegal move.
    #[error("{origin} line {line}: {error}")]
    Transcript {
        /// Where the text came from.
        origin: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        #[source]
        error: TranscriptError,
    },
    /// A line after which the game is over.
    #[error("{origin} line {line}: the game is over after this opening")]
    GameOver {
        /// Where the text came from.
        origin: String,
        /// The 1-based line.
        line: usize,
    },
    /// A text without a single opening.
    #[error("{origin}: no openings (one transcript a line)")]
    Empty {
        /// Where the text came from.
        origin: String,
    },
    /// The file cannot be read.
    #[error("cannot read openings {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
}

/// Reads openings from `text`: one transcript a line (`f5d6c3`, `F5 D6 C3`, `1. f5 d6 2. c3`,
/// passes optional); blank lines and lines starting with `#`, `%` or `;` are skipped. An
/// unreadable or illegal line, an opening that ends the game, or a text without openings is an
/// error that names `source` and the line.
#[cfg(test)]
pub fn parse_openings(text: &str, source: &str) -> Result<Vec<Opening>, OpeningsError> {
    parse_openings_under(text, source, Rules::OTHELLO)
}

/// [`parse_openings`] with the transcripts played from the start of `rules`.
pub fn parse_openings_under(
    text: &str,
    source: &str,
    rules: Rules,
) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with(['#', '%', ';']) {
            continue;
        }
        let mut game = Game::new(rules);
        game.play_transcript(line)
            .map_err(|error| OpeningsError::Transcript {
                origin: source.to_string(),
                line: i + 1,
                error,
            })?;
        if game.is_over() {
            return Err(OpeningsError::GameOver {
                origin: source.to_string(),
                line: i + 1,
            });
        }
        openings.push(Opening {
            line: i + 1,
            transcript: game.transcript(false),
            game,
        });
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty {
            origin: source.to_string(),
        });
    }
    Ok(openings)
}

/// Reads an openings file (see [`parse_openings`]), the moves played under `rules`.
pub fn load_openings(path: &std::path::Path, rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    let text =
        crate::board::notation::read_text_file(path).map_err(|error| OpeningsError::Read {
            path: path.to_path_buf(),
            error,
        })?;
    parse_openings_under(&text, &path.display().to_string(), rules)
}

/// Plies of the openings a variant match plays when no file is given.
pub const VARIANT_PLIES: usize = 4;

/// Every distinct position `plies` moves from the start of `rules` (forced passes included, not
/// counted), in move order, as openings: what a variant match plays without an openings file,
/// since the XOT lists are for 8×8 Othello. Lines that end the game are left out.
pub fn variant_openings(rules: Rules, plies: usize) -> Vec<Opening> {
    fn walk(
        game: &mut Game,
        plies: usize,
        seen: &mut std::collections::HashSet<crate::board::State>,
        out: &mut Vec<Opening>,
    ) {
        if game.is_over() {
            return;
        }
        if game.must_pass() {
            game.play(crate::board::Move::Pass).expect("a forced pass");
            walk(game, plies, seen, out);
            game.undo();
            return;
        }
        if plies == 0 {
            if seen.insert(game.state()) {
                out.push(Opening {
                    line: out.len() + 1,
                    transcript: game.transcript(false),
                    game: game.clone(),
                });
            }
            return;
        }
        for sq in crate::board::Bitboard(game.legal_moves()).iter() {
            game.play(crate::board::Move::Play(sq))
                .expect("a legal move");
            walk(game, plies - 1, seen, out);
            game.undo();
        }
    }
    let mut out = Vec::new();
    walk(
        &mut Game::new(rules),
        plies,
        &mut std::collections::HashSet::new(),
        &mut out,
    );
    out
}

/// The opening of each round: in file order (wrapping around), or shuffled with `seed` (each
/// opening once before any repeats).
pub fn schedule(count: usize, rounds: usize, random: Option<u64>) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let Some(seed) = random else {
        return (0..rounds).map(|r| r % count).collect();
    };
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut order = Vec::with_capacity(rounds);
    let mut deck: Vec<usize> = Vec::new();
    while order.len() < rounds {
        if deck.is_empty() {
            deck = (0..count).collect();
            // Fisher-Yates; the deck is dealt from the back.
            for i in (1..deck.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                deck.swap(i, j);
            }
        }
        order.push(deck.pop().expect("a full deck"));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cp1252 comment in an openings file (Windows tools write them) is no error.
    #[test]
    fn an_openings_file_in_latin_1_is_read() {
        let path = std::env::temp_dir().join(format!("iago-latin1-{}.txt", std::process::id()));
        std::fs::write(&path, b"# ouvertures de Jos\xe9\nf5d6c3\nf5f6e6\n").unwrap();
        let openings = load_openings(&path, Rules::OTHELLO);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(openings.map(|o| o.len()).map_err(|e| e.to_string()), Ok(2));
    }

    #[test]
    fn variant_openings_are_the_distinct_positions_a_few_plies_in() {
        let six = Rules {
            size: 6,
            ..Rules::OTHELLO
        };
        let openings = variant_openings(six, 4);
        // perft(4) on 6x6 is 244 lines; transpositions leave fewer positions.
        assert!(
            !openings.is_empty() && openings.len() <= 244,
            "{}",
            openings.len()
        );
        for o in &openings {
            assert_eq!(o.game.moves().len(), 4);
            assert_eq!(o.game.rules(), six);
        }
        let states: std::collections::HashSet<_> =
            openings.iter().map(|o| o.game.state()).collect();
        assert_eq!(states.len(), openings.len());
    }

    #[test]
    fn reads_transcripts_and_skips_comments() {
        let text = "# XOT sample\nf5d6c4d3c2b3b4b5\n\n  F5 F6 D3 C5 D6 C7 B5 E3  \n% another comment\n1. f5 f4 2. e3\n";
        let openings = parse_openings(text, "test").unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].line, 2);
        assert_eq!(openings[1].transcript, "f5f6d3c5d6c7b5e3");
        assert_eq!(openings[1].game.moves().len(), 8);
        assert_eq!(openings[2].transcript, "f5f4e3");
    }

    #[test]
    fn bad_files_are_one_line_errors() {
        let e = parse_openings("f5d6\nf5 d6 a1\n", "x.txt").unwrap_err();
        assert!(matches!(e, OpeningsError::Transcript { line: 2, .. }));
        assert_eq!(
            e.to_string(),
            "x.txt line 2: move 3 (a1) by Black is illegal: a1 flips no disc"
        );
        let e = parse_openings("f5d6\nhello\n", "x.txt")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.txt line 2: column"), "{e}");
        assert!(
            parse_openings("\n# nothing\n", "x.txt")
                .unwrap_err()
                .to_string()
                .contains("no openings")
        );
        // A game that is over after the opening (the shortest game, 9 moves).
        let e = parse_openings("e6f4e3f6g5d6e7f5c5", "x.txt")
            .unwrap_err()
            .to_string();
        assert!(e.contains("over"), "{e}");
        let e = load_openings(
            std::path::Path::new("/no/such/openings.txt"),
            Rules::OTHELLO,
        )
        .unwrap_err();
        assert!(matches!(&e, OpeningsError::Read { error, .. }
            if error.kind() == std::io::ErrorKind::NotFound));
        let e = e.to_string();
        assert!(
            e.starts_with("cannot read openings /no/such/openings.txt"),
            "{e}"
        );
    }

    #[test]
    fn sequential_and_random_orders() {
        assert_eq!(schedule(3, 7, None), [0, 1, 2, 0, 1, 2, 0]);
        let a = schedule(5, 10, Some(42));
        assert_eq!(a, schedule(5, 10, Some(42)), "seeded: reproducible");
        assert_ne!(a, schedule(5, 10, Some(43)));
        // Every opening once before any repeats.
        let mut first: Vec<usize> = a[..5].to_vec();
        first.sort_unstable();
        assert_eq!(first, [0, 1, 2, 3, 4]);
        assert!(schedule(0, 4, None).is_empty());
    }
}
