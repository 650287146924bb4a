//! What a session's searches find, folded into its game: Iago's move, the values of the moves
//! (and the instant static ones before them), a solve's progress and result, a review's rows.

use std::time::Duration;

use super::Session;
use crate::board::{Color, Move, Square};
use crate::search::{Bound, SearchResult, Selectivity, SolveMode, Source};
use crate::web::messages::ServerMessage;
use crate::web::pool::Event;
use crate::web::tree::{Eval, Values, for_black};
use crate::web::view;

/// The nodes whose values a session keeps (to show them again at once): a bound on its memory.
const KEPT_VALUES: usize = 256;

/// The moves of a value's best line that a session keeps.
const KEPT_LINE: usize = 20;

impl Session {
    /// The static values of every move of the position shown, at once, before the search's
    /// first depth: what a search of depth 1 finds.
    pub(super) fn preview_values(&mut self) {
        let node = self.tree.current();
        if self.tree.node(node).is_some_and(|n| n.values.is_some()) {
            self.values_dirty = true;
            return;
        }
        let rules = self.tree.rules();
        let state = self.tree.state();
        let rows = crate::board::Bitboard(rules.moves(&state))
            .iter()
            .map(|sq: Square| {
                let child = rules.play_unchecked(&state, sq.index() as usize);
                let (score, bound) = if rules.is_over(&child) {
                    (-rules.final_score(&child.board()), Bound::Exact)
                } else if rules.is_standard() {
                    (
                        -self
                            .shared
                            .pool
                            .loaded()
                            .evaluation
                            .evaluate(&child.board()),
                        Bound::Estimate,
                    )
                } else {
                    (
                        -crate::search::variant::evaluate(&rules, &child),
                        Bound::Estimate,
                    )
                };
                let mut row = SearchResult::immediate(
                    Move::Play(sq),
                    score,
                    bound,
                    Source::Search,
                    Duration::ZERO,
                );
                row.depth = 1;
                row.selectivity = Selectivity::NONE;
                row.pv = vec![Move::Play(sq)];
                row
            })
            .collect();
        self.keep_values(node, rows, true);
        self.values_dirty = true;
    }

    /// Keeps `rows` as the values of `node`, their lines cut to [`KEPT_LINE`] moves; the values
    /// of at most [`KEPT_VALUES`] nodes are kept, the oldest forgotten first.
    fn keep_values(&mut self, node: usize, mut rows: Vec<SearchResult>, preview: bool) {
        for row in &mut rows {
            row.pv.truncate(KEPT_LINE);
        }
        let Some(n) = self.tree.node_mut(node) else {
            return;
        };
        let new = n.values.is_none();
        n.values = Some(Values { rows, preview });
        if new {
            self.valued.push_back(node);
            while self.valued.len() > KEPT_VALUES {
                let old = self.valued.pop_front().expect("more than the most kept");
                if let Some(n) = self.tree.node_mut(old) {
                    n.values = None;
                }
            }
        }
    }

    /// An event of a search; those of a search that ended are dropped.
    pub fn on_event(&mut self, id: u64, event: Event) {
        let Some(job) = self.job.as_ref().filter(|j| j.id == id) else {
            return;
        };
        let (node, kind) = (job.node, job.kind);
        match event {
            Event::Queued(ahead) => self.out.push(ServerMessage::Busy {
                job: Some(kind),
                queued: ahead,
            }),
            Event::Running => self.out.push(ServerMessage::Busy {
                job: Some(kind),
                queued: 0,
            }),
            Event::Thinking(result) => self.out.push(ServerMessage::Thinking {
                node,
                depth: result.depth_text(),
                mv: result.best_move.to_string(),
                score: result.score,
                pv: view::line_text(&result.pv),
                nodes: result.nodes,
                time_ms: result.time.as_millis() as u64,
            }),
            Event::Values(rows) => self.on_values(node, rows),
            Event::ValuesDone => {
                self.job = None;
                if let Some(values) = self.tree.node(node).and_then(|n| n.values.as_ref()) {
                    self.out
                        .push(ServerMessage::Values(view::values(node, values, true)));
                }
                self.out.push(ServerMessage::Busy {
                    job: None,
                    queued: 0,
                });
            }
            Event::Played(result) => self.on_played(node, &result),
            Event::Solving {
                iteration,
                nodes,
                elapsed,
            } => {
                let empties = self
                    .tree
                    .node(node)
                    .map_or(0, |n| self.tree.rules().empty_count(&n.state.board()));
                let text = solve_progress(empties, iteration, nodes, elapsed);
                self.out.push(ServerMessage::Solving { node, text });
            }
            Event::Solved(solved) => self.on_solved(node, solved),
            Event::Reviewed(row) => self.on_reviewed(&row),
            Event::ReviewDone(complete) => {
                self.job = None;
                if let Some(review) = &mut self.review {
                    review.complete = complete;
                }
                self.dirty = true;
                self.out.push(ServerMessage::Busy {
                    job: None,
                    queued: 0,
                });
                self.settle(false);
            }
            Event::Failed(message) => {
                self.job = None;
                self.error(message);
                self.out.push(ServerMessage::Busy {
                    job: None,
                    queued: 0,
                });
            }
        }
    }

    fn on_values(&mut self, node: usize, rows: Vec<SearchResult>) {
        if let Some(best) = rows.iter().max_by_key(|r| r.score) {
            self.tree.set_search_value(node, best.score, best.bound);
        }
        self.keep_values(node, rows, false);
        if node == self.tree.current() {
            self.values_dirty = true;
        }
    }

    fn on_played(&mut self, node: usize, result: &SearchResult) {
        self.job = None;
        self.out.push(ServerMessage::Busy {
            job: None,
            queued: 0,
        });
        if node != self.tree.current() || self.tree.is_over() {
            return;
        }
        let mover = self.tree.state().to_move();
        let black = for_black(mover, result.score);
        let exact = result.bound == Bound::Exact;
        let eval = Eval {
            black,
            exact,
            reviewed: false,
        };
        if result.source == Source::Search {
            self.tree.set_eval(node, eval);
        }
        match self.tree.play(result.best_move) {
            Ok(_) => {
                if let Some(child) = self.tree.child(node, result.best_move) {
                    self.tree.set_eval(child, eval);
                    if let Some(played) = self.tree.node_mut(child) {
                        played.played = Some(SearchResult {
                            pv: Vec::new(),
                            ..result.clone()
                        });
                    }
                }
                let shown = self.tree.current();
                self.tree.set_eval(shown, eval);
                self.redo.clear();
                self.dirty = true;
                self.update_clock(Some((node, mover)));
                self.settle(true);
            }
            Err(e) => self.error(format!("Iago's move {}: {e}", result.best_move)),
        }
    }

    fn on_solved(
        &mut self,
        node: usize,
        solved: Result<crate::search::solve::SolveReport, crate::search::Stopped>,
    ) {
        self.job = None;
        self.out.push(ServerMessage::Busy {
            job: None,
            queued: 0,
        });
        let Some(state) = self.tree.node(node).map(|n| n.state) else {
            return;
        };
        let to_move = state.to_move();
        let (mode, exact) = match self.solve_mode {
            SolveMode::Exact => ("exact", true),
            SolveMode::WinLossDraw => ("wld", false),
        };
        let view = match solved {
            Ok(report) => {
                let s = &report.solution;
                let outcome = crate::board::Outcome::for_color(to_move, s.score);
                let text = match (exact, outcome.winner()) {
                    (true, _) => outcome.to_string(),
                    (false, Some(winner)) => format!("{} wins", winner.name()),
                    (false, None) => "draw".to_string(),
                };
                if exact {
                    self.tree.set_search_value(node, s.score, Bound::Exact);
                    self.dirty = true;
                }
                view::SolvedView {
                    node,
                    mode,
                    solved: true,
                    score: Some(s.score),
                    text,
                    pv: view::line_text(&s.pv),
                    nodes: s.nodes,
                    time_ms: report.elapsed.as_millis() as u64,
                }
            }
            Err(_) => view::SolvedView {
                node,
                mode,
                solved: false,
                score: None,
                text: format!(
                    "not solved within {} s (the server's limit, --max-search)",
                    self.shared.max_search.as_secs_f64()
                ),
                pv: String::new(),
                nodes: 0,
                time_ms: 0,
            },
        };
        self.out.push(ServerMessage::Solved(view));
    }

    fn on_reviewed(&mut self, row: &crate::review::MoveReview) {
        let Some(review) = &self.review else {
            return;
        };
        let (Some(&node), Some(&parent)) =
            (review.nodes.get(row.ply), review.nodes.get(row.ply - 1))
        else {
            return;
        };
        let mover = if row.black() {
            Color::Black
        } else {
            Color::White
        };
        self.tree.set_eval(
            parent,
            Eval {
                black: for_black(mover, row.best_value),
                exact: row.exact,
                reviewed: true,
            },
        );
        self.tree.set_eval(
            node,
            Eval {
                black: for_black(mover, row.value),
                exact: row.exact,
                reviewed: true,
            },
        );
        if let Some(n) = self.tree.node_mut(node) {
            n.review = Some(row.clone());
        }
        let total = review.nodes[1..]
            .iter()
            .filter(|&&n| self.tree.node(n).is_some_and(|n| n.mv != Some(Move::Pass)))
            .count();
        let done = review.nodes[1..]
            .iter()
            .filter(|&&n| self.tree.node(n).is_some_and(|n| n.review.is_some()))
            .count();
        self.out.push(ServerMessage::Reviewing { done, total });
        self.dirty = true;
    }
}

/// A solve's progress line, as the console shows it.
fn solve_progress(
    empties: u32,
    iteration: Option<(u32, Selectivity)>,
    nodes: u64,
    elapsed: Duration,
) -> String {
    let iteration = match iteration {
        Some((_, s)) if !s.is_selective() => "exact".to_string(),
        Some((depth, s)) => format!("{depth}@{}%", s.percent()),
        None => "starting".to_string(),
    };
    format!(
        "solving {empties} empties: {iteration}, {:.1} M nodes, {:.1} s",
        nodes as f64 / 1e6,
        elapsed.as_secs_f64()
    )
}
