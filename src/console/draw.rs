//! The console's board: coordinates, discs, the legal moves and the last move marked, and
//! beside it the counts, whose turn, the move number and who Iago plays.

use crate::board::{Color, Game, Move, Outcome, Rules, Square};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// ANSI colours: a green board, black and white discs.
    pub color: bool,
    /// Unicode discs (● ○ ·) rather than ASCII (X O -).
    pub unicode: bool,
}

impl Style {
    /// Plain ASCII, no colours (`--ascii`, and any output that is not a terminal).
    pub const ASCII: Style = Style {
        color: false,
        unicode: false,
    };

    /// The style for an output that is a terminal (`terminal`) or not: colours unless
    /// `NO_COLOR` is set (to anything but the empty string) or `TERM` is `dumb`; ASCII with
    /// `ascii`.
    pub fn detect(ascii: bool, terminal: bool) -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        if ascii || !terminal || dumb {
            return Style::ASCII;
        }
        Style {
            color: !no_color,
            unicode: true,
        }
    }

    fn disc(self, color: Color) -> &'static str {
        match (self.color, self.unicode, color) {
            (true, _, Color::Black) => "\x1b[30m●\x1b[39m",
            (true, _, Color::White) => "\x1b[97m●\x1b[39m",
            (false, true, Color::Black) => "●",
            (false, true, Color::White) => "○",
            (false, false, c) => match c {
                Color::Black => "X",
                Color::White => "O",
            },
        }
    }

    /// The disc of `color` as the board shows it, for the legend.
    pub fn legend(self, color: Color) -> &'static str {
        self.disc(color)
    }

    fn empty(self, legal: bool) -> &'static str {
        match (self.color, self.unicode, legal) {
            (true, _, true) => "\x1b[93m+\x1b[39m",
            (true, _, false) => "\x1b[2;30m·\x1b[22;39m",
            (false, true, true) => "+",
            (false, true, false) => "·",
            (false, false, true) => ".",
            (false, false, false) => "-",
        }
    }

    fn bracket(self, open: bool) -> &'static str {
        match (self.color, open) {
            (true, true) => "\x1b[91m[\x1b[39m",
            (true, false) => "\x1b[91m]\x1b[39m",
            (false, true) => "[",
            (false, false) => "]",
        }
    }

    fn board_row(self, cells: &str) -> String {
        if self.color {
            format!("\x1b[42m{cells}\x1b[0m")
        } else {
            cells.to_string()
        }
    }
}

/// The board of `game` with `panel` (lines of text) to its right, row by row; what does not fit
/// beside the rows follows below.
pub(crate) fn board(style: Style, game: &Game, panel: &[String]) -> String {
    let rules = game.rules();
    let state = game.state();
    let moves = if game.is_over() {
        0
    } else {
        rules.moves(&state)
    };
    let last = game.moves().iter().rev().find_map(|m| m.square());
    let letters: String = (0..rules.size)
        .map(|c| format!(" {} ", (b'a' + c) as char))
        .collect();
    let mut lines = vec![format!("   {letters}")];
    for row in 0..rules.size {
        let mut cells = String::new();
        for col in 0..rules.size {
            let sq = Square::from_coords(row, col).expect("inside the board");
            let marked = last == Some(sq);
            cells.push_str(if marked { style.bracket(true) } else { " " });
            cells.push_str(match state.position.disc(sq) {
                Some(color) => style.disc(color),
                None => style.empty(moves >> sq.index() & 1 != 0),
            });
            cells.push_str(if marked { style.bracket(false) } else { " " });
        }
        lines.push(format!(
            "{:>2} {} {}",
            row + 1,
            style.board_row(&cells),
            row + 1
        ));
    }
    lines.push(format!("   {letters}"));
    let mut out = String::new();
    let beside = lines.len().saturating_sub(1);
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        if (1..beside).contains(&i)
            && let Some(text) = panel.get(i - 1)
        {
            out.push_str("   ");
            out.push_str(text);
        }
        out.push('\n');
    }
    for text in panel.iter().skip(beside.saturating_sub(1)) {
        out.push_str("   ");
        out.push_str(text);
        out.push('\n');
    }
    out
}

/// The lines beside the board: discs of each side (and discs left where they are counted),
/// the move number and whose turn or the result, and the last move.
pub(crate) fn panel(style: Style, game: &Game, rules_line: bool) -> Vec<String> {
    let rules = game.rules();
    let state = game.state();
    let position = state.position;
    let to_move = position.to_move;
    let over = game.is_over();
    let side = |color: Color| {
        let discs = match color {
            Color::Black => position.black().count(),
            Color::White => position.white().count(),
        };
        let turn = if !over && color == to_move {
            "  <- to move"
        } else {
            ""
        };
        format!(
            "{:<5} {} {discs:>2}{turn}",
            color.name(),
            style.legend(color)
        )
    };
    let mut lines = vec![side(Color::Black), side(Color::White)];
    if rules.discs_per_player.is_some() {
        lines.push(format!(
            "discs left: Black {}, White {}",
            state.left_of(Color::Black),
            state.left_of(Color::White)
        ));
    }
    let number = game.moves().len() + 1;
    lines.push(if over {
        format!("game over: {}", result(game))
    } else {
        format!("move {number}, {} to move", to_move.name())
    });
    if let Some((index, mv)) = game
        .moves()
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| !m.is_pass())
    {
        let mover = game
            .states()
            .nth(index)
            .map_or(Color::Black, |s| s.position.to_move);
        lines.push(format!("last move: {mv} ({})", mover.name()));
    }
    if rules_line {
        lines.push(format!("rules: {rules}"));
    }
    lines
}

/// The result of a finished game and its discs: `Black wins by 16 (40-24)`, `draw (32-32)`;
/// `(38-24, empties to the winner)` when some squares are empty (under Anti rules the side
/// with fewer discs wins).
pub(crate) fn result(game: &Game) -> String {
    let position = game.position();
    let (black, white) = (position.black().count(), position.white().count());
    let outcome = Outcome {
        score_for_black: game.final_score_for_black(),
    };
    if game.rules().empty_count(&position.board) > 0 {
        format!("{outcome} ({black}-{white}, empties to the winner)")
    } else {
        format!("{outcome} ({black}-{white})")
    }
}

/// A move as the console names it: `f5`, `pass`.
pub(crate) fn move_name(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(sq) => sq.to_string(),
    }
}

/// Whether `rules` needs a line of its own (anything but standard 8×8 Othello).
pub(crate) fn shows_rules(rules: &Rules) -> bool {
    !rules.is_standard()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_board_marks_moves_discs_and_the_last_move() {
        let game =
            Game::from_transcript(Rules::OTHELLO, Rules::OTHELLO.start_position(), "f5").unwrap();
        let text = board(Style::ASCII, &game, &panel(Style::ASCII, &game, false));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    a  b  c  d  e  f  g  h ");
        assert_eq!(
            lines[3],
            " 3  -  -  -  -  -  -  -  -  3   move 2, White to move"
        );
        assert_eq!(
            lines[4],
            " 4  -  -  -  O  X  .  -  -  4   last move: f5 (Black)"
        );
        assert_eq!(lines[5], " 5  -  -  -  X  X [X] -  -  5");
        assert!(lines[1].ends_with("Black X  4"), "{}", lines[1]);
        assert!(lines[2].ends_with("White O  1  <- to move"), "{}", lines[2]);
        assert_eq!(lines[6], " 6  -  -  -  .  -  .  -  -  6");
        assert_eq!(lines.len(), 10);
    }

    #[test]
    fn a_small_board_puts_the_panel_below_when_it_does_not_fit() {
        let rules: Rules = "4x4".parse().unwrap();
        let mut game = Game::new(rules);
        let first = Square::from_index(game.legal_moves().trailing_zeros() as u8).unwrap();
        game.play(Move::Play(first)).unwrap();
        let lines: Vec<String> = board(Style::ASCII, &game, &panel(Style::ASCII, &game, true))
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines[0], "    a  b  c  d ");
        assert_eq!(lines[5], "    a  b  c  d ");
        assert_eq!(lines.len(), 7, "{lines:#?}");
        assert!(lines[6].starts_with("   rules: 4x4"), "{lines:#?}");
        assert!(
            lines[4].starts_with(" 4  -  -  -  -  4   last move: "),
            "{lines:#?}"
        );
    }

    #[test]
    fn results_count_discs() {
        let rules: Rules = "4x4".parse().unwrap();
        let (position, _) = crate::board::parse_sized_position("XXXXXXXXXXXXOOOO O").unwrap();
        let game = Game::try_from_position(rules, position).unwrap();
        assert!(game.is_over());
        assert_eq!(result(&game), "Black wins by 8 (12-4)");
        let (position, _) = crate::board::parse_sized_position("XXXXXXXXXX--OOOO O").unwrap();
        let game = Game::try_from_position(rules, position).unwrap();
        assert!(game.is_over());
        assert_eq!(
            result(&game),
            "Black wins by 8 (10-4, empties to the winner)"
        );
        assert_eq!(move_name(Move::Pass), "pass");
    }
}
