//! Problem files (`iago solve`, `iago analyze`): OBF lines (`<board> X; A2:+38;`), bare board
//! strings, or transcripts from the start, one position a line.

use crate::board::notation::{ParseObfError, TranscriptError, looks_like_board};
use crate::board::{Game, ObfEntry, Rules, parse_obf_line};

/// One position of a problem file.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position and its annotations.
    pub entry: ObfEntry,
}

/// A line of a problem file that could not be read.
#[derive(Clone, Debug, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ProblemError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub error: ProblemLineError,
}

/// What is wrong with a problem line: a bad board/OBF line, or a bad transcript.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ProblemLineError {
    /// The line looks like a board (64 squares) but is not a valid OBF line.
    #[error(transparent)]
    Obf(#[from] ParseObfError),
    /// The line is read as a transcript from the start and is not one.
    #[error("neither a board (64 squares and the side to move) nor a transcript: {0}")]
    Transcript(#[from] TranscriptError),
}

/// Reads every position of a problem file, skipping blank lines and `%` comments. A line is an
/// OBF line or a bare board string (16, 36 or 64 squares) when it starts with board
/// characters; otherwise it is a transcript played from the start of `rules` (e.g. an XOT
/// opening list). A bad line becomes an error and the others are still read.
pub fn read_problems(text: &str, rules: Rules) -> Vec<Result<Problem, ProblemError>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let parsed: Result<Option<ObfEntry>, ProblemLineError> = if looks_like_board(line) {
                parse_obf_line(line).map_err(Into::into)
            } else if line.trim().is_empty() || line.trim_start().starts_with('%') {
                Ok(None)
            } else {
                let mut game = Game::new(rules);
                game.play_transcript(line)
                    .map(|()| {
                        Some(ObfEntry {
                            position: game.position(),
                            size: rules.size,
                            moves: Vec::new(),
                            score: None,
                        })
                    })
                    .map_err(Into::into)
            };
            match parsed {
                Ok(Some(entry)) => Some(Ok(Problem { line: i + 1, entry })),
                Ok(None) => None,
                Err(error) => Some(Err(ProblemError { line: i + 1, error })),
            }
        })
        .collect()
}
