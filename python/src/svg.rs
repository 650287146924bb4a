//! A board as a picture (SVG), for Jupyter's `_repr_svg_`: the discs, the legal moves as small
//! dots, the last move ringed, and the coordinates round the board.

use std::fmt::Write;

use iago::board::{Color, Move, Rules, State};

const CELL: u32 = 40;
const MARGIN: u32 = 20;

/// The picture of `state` under `rules`, `last` (the move that led to it) ringed.
pub(crate) fn board_svg(rules: &Rules, state: &State, last: Option<Move>) -> String {
    let n = u32::from(rules.size);
    let side = 2 * MARGIN + n * CELL;
    let moves = rules.moves(state);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{side}" height="{side}" font-family="sans-serif" font-size="12">"##
    );
    let _ = write!(
        svg,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{0}" height="{0}" fill="#2e7d32" stroke="#000"/>"##,
        n * CELL
    );
    for i in 1..n {
        let at = MARGIN + i * CELL;
        let end = MARGIN + n * CELL;
        let _ = write!(
            svg,
            r##"<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{end}" stroke="#000"/><line x1="{MARGIN}" y1="{at}" x2="{end}" y2="{at}" stroke="#000"/>"##
        );
    }
    for i in 0..n {
        let centre = MARGIN + i * CELL + CELL / 2;
        let letter = char::from(b'a' + i as u8);
        let _ = write!(
            svg,
            r##"<text x="{centre}" y="14" text-anchor="middle">{letter}</text><text x="8" y="{0}" text-anchor="middle">{1}</text>"##,
            centre + 4,
            i + 1
        );
    }
    for sq in rules.board_squares() {
        let (x, y) = (
            MARGIN + u32::from(sq.col()) * CELL + CELL / 2,
            MARGIN + u32::from(sq.row()) * CELL + CELL / 2,
        );
        match state.position.disc(sq) {
            Some(color) => {
                let (fill, stroke) = match color {
                    Color::Black => ("#111", "#000"),
                    Color::White => ("#f5f5f5", "#000"),
                };
                let _ = write!(
                    svg,
                    r##"<circle cx="{x}" cy="{y}" r="{0}" fill="{fill}" stroke="{stroke}"/>"##,
                    CELL / 2 - 4
                );
            }
            None if moves >> sq.index() & 1 != 0 => {
                let _ = write!(
                    svg,
                    r##"<circle cx="{x}" cy="{y}" r="4" fill="#000" fill-opacity="0.35"/>"##
                );
            }
            None => {}
        }
        if last.and_then(Move::square) == Some(sq) {
            let _ = write!(svg, r##"<circle cx="{x}" cy="{y}" r="5" fill="#e53935"/>"##);
        }
    }
    let _ = write!(svg, "<title>{}</title></svg>", title(rules, state));
    svg
}

fn title(rules: &Rules, state: &State) -> String {
    format!("{} to move ({rules})", state.to_move().name())
}
