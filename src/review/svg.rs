//! A reviewed game as a picture (SVG): the value of the game for Black after every reviewed move,
//! from the start to the end, the blunders marked and labelled with their move and loss. Above
//! the zero line Black is ahead, below it White; the axes and both halves are labelled, so the
//! picture reads without a legend.

use std::fmt::Write;

use super::{BLUNDER, MoveReview, PlayedGame, result_text};

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 390.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 54.0;
const BOTTOM: f64 = 46.0;

/// The picture of game `index` (from 1) with its `reviews` (in the game's order).
pub(crate) fn game_svg(played: &PlayedGame, index: usize, reviews: &[MoveReview]) -> String {
    let plies = played.game.moves().len().max(1);
    let values: Vec<(usize, i32)> = start_point(reviews)
        .into_iter()
        .chain(reviews.iter().map(|r| (r.ply, r.value_for_black())))
        .collect();
    let peak = values.iter().map(|&(_, v)| v.abs()).max().unwrap_or(0);
    // The value axis: ±16 at least, else the next multiple of 8 above the largest value.
    let range = (peak.max(16) + 7) / 8 * 8;
    let frame = Frame { plies, range };
    let title = format!(
        "Game {index}: {} (Black) vs {} (White), {}",
        played.players[0],
        played.players[1],
        result_text(&played.game)
    );
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&title));
    let _ = writeln!(
        svg,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="22" font-size="15" font-weight="bold">{}</text>"#,
        LEFT,
        escape(&title)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="40" font-size="11" fill="#555555">Value for Black after each move. Dots: moves losing {BLUNDER}+ discs (black: Black's, white: White's).</text>"##,
        LEFT
    );
    frame.draw_axes(&mut svg);
    let points: Vec<String> = values
        .iter()
        .map(|&(ply, v)| format!("{:.1},{:.1}", frame.x(ply), frame.y(v)))
        .collect();
    let _ = writeln!(
        svg,
        r##"<polyline id="values" fill="none" stroke="#1f5fbf" stroke-width="2" points="{}"/>"##,
        points.join(" ")
    );
    for r in reviews.iter().filter(|r| r.loss >= BLUNDER) {
        let (x, y) = (frame.x(r.ply), frame.y(r.value_for_black()));
        let fill = if r.black() { "#000000" } else { "#ffffff" };
        let _ = writeln!(
            svg,
            r##"<circle class="blunder" data-ply="{}" data-loss="{}" cx="{x:.1}" cy="{y:.1}" r="5" fill="{fill}" stroke="#c0392b" stroke-width="2"><title>{}</title></circle>"##,
            r.ply,
            r.loss,
            escape(&format!(
                "move {}: {} ({}) played {}, lost {} (best {})",
                r.ply, r.player, r.color, r.played, r.loss, r.best_move
            ))
        );
        // Above the point when Black is ahead there, below it otherwise: away from the curve's
        // side of the zero line.
        let dy = if r.value_for_black() >= 0 { -9.0 } else { 17.0 };
        let _ = writeln!(
            svg,
            r##"<text class="blunder-label" x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#c0392b">{} −{}</text>"##,
            y + dy,
            r.played,
            r.loss
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The value before the first reviewed move: the best value there, one ply before it.
fn start_point(reviews: &[MoveReview]) -> Option<(usize, i32)> {
    let first = reviews.first()?;
    Some((
        first.ply - 1,
        if first.black() {
            first.best_value
        } else {
            -first.best_value
        },
    ))
}

/// The plot's scales: plies 0 to `plies` across, values `-range` to `range` (discs for Black)
/// up.
struct Frame {
    plies: usize,
    range: i32,
}

impl Frame {
    fn x(&self, ply: usize) -> f64 {
        LEFT + (WIDTH - LEFT - RIGHT) * ply as f64 / self.plies as f64
    }

    fn y(&self, value: i32) -> f64 {
        let v = value.clamp(-self.range, self.range);
        TOP + (HEIGHT - TOP - BOTTOM) * f64::from(self.range - v) / f64::from(2 * self.range)
    }

    /// The two halves, the grid with its labels and the axes' names.
    fn draw_axes(&self, svg: &mut String) {
        let (left, right) = (LEFT, WIDTH - RIGHT);
        let (top, zero, bottom) = (self.y(self.range), self.y(0), self.y(-self.range));
        let _ = writeln!(
            svg,
            r##"<rect x="{left}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="#eeeeee"/>"##,
            right - left,
            zero - top
        );
        let _ = writeln!(
            svg,
            r##"<rect x="{left}" y="{zero:.1}" width="{:.1}" height="{:.1}" fill="#fafafa"/>"##,
            right - left,
            bottom - zero
        );
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" fill="#555555">Black ahead</text>"##,
            left + 6.0,
            top + 15.0
        );
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" fill="#555555">White ahead</text>"##,
            left + 6.0,
            bottom - 6.0
        );
        let step = if self.range > 32 { 16 } else { 8 };
        let mut v = -self.range;
        while v <= self.range {
            let y = self.y(v);
            let (stroke, width) = if v == 0 {
                ("#444444", 1.5)
            } else {
                ("#cccccc", 1.0)
            };
            let _ = writeln!(
                svg,
                r#"<line x1="{left}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
            );
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                left - 6.0,
                y + 4.0,
                if v > 0 {
                    format!("+{v}")
                } else {
                    v.to_string()
                }
            );
            v += step;
        }
        let ply_step = if self.plies > 40 { 10 } else { 5 };
        for ply in (0..=self.plies).step_by(ply_step) {
            let x = self.x(ply);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="#e0e0e0"/>"##
            );
            let _ = writeln!(
                svg,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{ply}</text>"#,
                bottom + 16.0
            );
        }
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">move (ply)</text>"#,
            (left + right) / 2.0,
            HEIGHT - 6.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="14" y="{:.1}" text-anchor="middle" transform="rotate(-90 14 {:.1})">discs for Black</text>"#,
            (top + bottom) / 2.0,
            (top + bottom) / 2.0
        );
    }
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
