//! Round-robin tournaments (`iago tournament`): every pair of engines plays `--rounds N` rounds
//! of two games (one opening each, colours swapped), exactly like `iago match` (same engine
//! specs, limits, openings, timeouts, concurrency, forfeits and GGF output); the result is a
//! table of standings.
//!
//! # Schedule
//!
//! With `k` engines there are `k(k-1)/2` pairings; each is played as a match of `N` rounds, one
//! pairing after the other (`--concurrency` games at once within a pairing). Every pairing uses
//! the same openings in the same order (or the same seeded random order), so every engine meets
//! every other engine on the same openings. Each engine plays `2N(k-1)` games.
//!
//! # Standings and the tie-break
//!
//! A win scores 1 point, a draw ½. An engine's disc total is the sum of its disc counts at the
//! end of its games; empties go to the winner, so the two counts of a game sum to 64, and a
//! forfeit counts 64-0 (as `iago match` records it: `RE[±64:t]` or `RE[±64:r]`).
//!
//! Engines are ranked by points, then by the **Brightwell quotient** (BQ), then by name. With
//!
//! * `c` = the nearest integer to 64 (the squares of the board) ÷ the number of rounds of the
//!   tournament, that is the number of games each player plays (`2N(k-1)` here; a half rounds
//!   up),
//!
//! the BQ of a player is
//!
//! * its own disc total
//! * plus `c` × the sum of the tournament points of the opponents it faced, each opponent
//!   counted once per game played against it,
//! * where every bye, and every game against a withdrawn opponent, counts instead as half the
//!   board (32 discs) plus `c` × the player's own points. (The discs of a game against a
//!   withdrawn opponent are thus replaced by 32, and the withdrawn opponent's points are not
//!   counted.)
//!
//! The disc total shown in the table counts every game actually played. Byes and withdrawals
//! cannot arise from the command line (an engine that crashes in every game loses every game but
//! is not withdrawn); [`standings`] handles them for other callers.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use super::game::GameRecord;
use super::spec::EngineSpec;
use super::{Forfeits, MatchConfig, MatchError, MatchReport, Progress, play_match};

/// The squares of the board.
const SQUARES: u32 = 64;

/// One game for the standings: who played which colour and the final disc counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The player with Black.
    pub black: usize,
    /// The player with White.
    pub white: usize,
    /// Black's discs at the end (empties to the winner; a forfeit is 64-0).
    pub black_discs: u32,
    /// White's discs at the end.
    pub white_discs: u32,
}

impl GameResult {
    /// The result of a game of a match between players `players[0]` and `players[1]` (the
    /// match's engines 0 and 1).
    pub fn from_record(record: &GameRecord, players: [usize; 2]) -> GameResult {
        let score = record.score_for_black().clamp(-64, 64);
        let black_discs = ((64 + score) / 2) as u32;
        GameResult {
            black: players[record.black_engine.min(1)],
            white: players[1 - record.black_engine.min(1)],
            black_discs,
            white_discs: SQUARES - black_discs,
        }
    }
}

/// A bye: a round `player` did not play, worth `points` (as the tournament rules say).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bye {
    /// Who had the bye.
    pub player: usize,
    /// The points it gave.
    pub points: f64,
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// Games played (byes not included).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points: 1 a win, ½ a draw, plus the points of byes.
    pub points: f64,
    /// Discs at the end of every game played.
    pub discs: u32,
    /// The Brightwell quotient (see the module documentation).
    pub brightwell: f64,
    /// Whether the player withdrew.
    pub withdrawn: bool,
}

/// The Brightwell constant `c`: 64 ÷ `rounds` to the nearest integer (a half rounds up); 0
/// when `rounds` is 0.
pub fn brightwell_constant(rounds: u32) -> u32 {
    if rounds == 0 {
        return 0;
    }
    (2 * SQUARES + rounds) / (2 * rounds)
}

/// Why standings could not be computed: results that name players who are not there, or that
/// cannot be.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum StandingsError {
    /// A game of a player index out of range.
    #[error("game {black} vs {white}: only {players} players")]
    UnknownPlayer {
        /// The player with Black.
        black: usize,
        /// The player with White.
        white: usize,
        /// Players in the tournament.
        players: usize,
    },
    /// A game of a player against itself.
    #[error("player {0} cannot play itself")]
    SelfPlay(usize),
    /// Disc counts that sum to more than the board holds.
    #[error("game {black} vs {white}: {black_discs}-{white_discs} is more than {SQUARES} discs")]
    TooManyDiscs {
        /// The player with Black.
        black: usize,
        /// The player with White.
        white: usize,
        /// Black's discs.
        black_discs: u32,
        /// White's discs.
        white_discs: u32,
    },
    /// A bye for a player index out of range.
    #[error("bye for player {player}: only {players} players")]
    UnknownByePlayer {
        /// The player.
        player: usize,
        /// Players in the tournament.
        players: usize,
    },
    /// A bye worth negative or non-finite points.
    #[error("bye for player {player}: {points} points")]
    ByePoints {
        /// The player.
        player: usize,
        /// The points.
        points: f64,
    },
    /// A withdrawn player index out of range.
    #[error("withdrawn player {player}: only {players} players")]
    UnknownWithdrawn {
        /// The player.
        player: usize,
        /// Players in the tournament.
        players: usize,
    },
}

/// Why a tournament could not be played.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// Fewer than two engines.
    #[error("a tournament needs at least two engines")]
    TooFewEngines,
    /// A pairing's match could not be played (its engines or settings were refused).
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The results could not be tabled.
    #[error(transparent)]
    Standings(#[from] StandingsError),
}

/// The standings of `players` players from their games, unranked (index `i` is player `i`).
/// `rounds` is the number of rounds of the tournament (games each player plays), for the
/// Brightwell constant. Games against a withdrawn player, and byes, count in the Brightwell
/// quotient as 32 discs plus `c` × the player's own points. Errors on a player index out of
/// range, a player against itself, disc counts over 64, or a bye with negative or non-finite
/// points.
pub fn standings(
    players: usize,
    games: &[GameResult],
    withdrawn: &BTreeSet<usize>,
    byes: &[Bye],
    rounds: u32,
) -> Result<Vec<Standing>, StandingsError> {
    check_results(players, games, withdrawn, byes)?;
    let mut table = count_results(players, games, withdrawn, byes);
    set_brightwell(&mut table, games, withdrawn, byes, rounds);
    Ok(table)
}

/// The errors of [`standings`]: players out of range, self-play, too many discs, bad byes.
fn check_results(
    players: usize,
    games: &[GameResult],
    withdrawn: &BTreeSet<usize>,
    byes: &[Bye],
) -> Result<(), StandingsError> {
    for g in games {
        if g.black >= players || g.white >= players {
            return Err(StandingsError::UnknownPlayer {
                black: g.black,
                white: g.white,
                players,
            });
        }
        if g.black == g.white {
            return Err(StandingsError::SelfPlay(g.black));
        }
        if g.black_discs.saturating_add(g.white_discs) > SQUARES {
            return Err(StandingsError::TooManyDiscs {
                black: g.black,
                white: g.white,
                black_discs: g.black_discs,
                white_discs: g.white_discs,
            });
        }
    }
    for b in byes {
        if b.player >= players {
            return Err(StandingsError::UnknownByePlayer {
                player: b.player,
                players,
            });
        }
        if !(b.points.is_finite() && b.points >= 0.0) {
            return Err(StandingsError::ByePoints {
                player: b.player,
                points: b.points,
            });
        }
    }
    if let Some(&player) = withdrawn.iter().find(|&&w| w >= players) {
        return Err(StandingsError::UnknownWithdrawn { player, players });
    }
    Ok(())
}

/// Each player's games, wins, draws, losses, points (byes included) and discs, without the
/// Brightwell quotient.
fn count_results(
    players: usize,
    games: &[GameResult],
    withdrawn: &BTreeSet<usize>,
    byes: &[Bye],
) -> Vec<Standing> {
    let mut table: Vec<Standing> = (0..players)
        .map(|player| Standing {
            player,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            discs: 0,
            brightwell: 0.0,
            withdrawn: withdrawn.contains(&player),
        })
        .collect();
    for g in games {
        for (me, mine, theirs) in [
            (g.black, g.black_discs, g.white_discs),
            (g.white, g.white_discs, g.black_discs),
        ] {
            let s = &mut table[me];
            s.games += 1;
            s.discs += mine;
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => {
                    s.wins += 1;
                    s.points += 1.0;
                }
                std::cmp::Ordering::Equal => {
                    s.draws += 1;
                    s.points += 0.5;
                }
                std::cmp::Ordering::Less => s.losses += 1,
            }
        }
    }
    for b in byes {
        table[b.player].points += b.points;
    }
    table
}

/// Sets each player's Brightwell quotient from the counted `table`'s points.
fn set_brightwell(
    table: &mut [Standing],
    games: &[GameResult],
    withdrawn: &BTreeSet<usize>,
    byes: &[Bye],
    rounds: u32,
) {
    let c = f64::from(brightwell_constant(rounds));
    let half_board = f64::from(SQUARES / 2);
    let points: Vec<f64> = table.iter().map(|s| s.points).collect();
    let mut quotient = vec![0.0; table.len()];
    for g in games {
        for (me, mine, opponent) in [
            (g.black, g.black_discs, g.white),
            (g.white, g.white_discs, g.black),
        ] {
            quotient[me] += if withdrawn.contains(&opponent) {
                half_board + c * points[me]
            } else {
                f64::from(mine) + c * points[opponent]
            };
        }
    }
    for b in byes {
        quotient[b.player] += half_board + c * points[b.player];
    }
    for (s, q) in table.iter_mut().zip(quotient) {
        s.brightwell = q;
    }
}

/// The standings in rank order: points, then Brightwell quotient (both highest first), then
/// name. `names[i]` is player `i`'s name (missing names sort as empty).
pub fn rank(mut table: Vec<Standing>, names: &[String]) -> Vec<Standing> {
    let name = |i: usize| names.get(i).map_or("", String::as_str);
    table.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.brightwell.total_cmp(&a.brightwell))
            .then_with(|| name(a.player).cmp(name(b.player)))
    });
    table
}

/// A tournament, ready to play.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The engines, with distinct names.
    pub engines: Vec<EngineSpec>,
    /// Everything else (openings, rounds, limits, timeouts, concurrency) as for a match; its
    /// `engines` are replaced by each pairing's.
    pub base: MatchConfig,
}

impl TournamentConfig {
    /// The pairings `(i, j)`, `i < j`, in playing order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let k = self.engines.len();
        (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect()
    }

    /// Games each engine plays: `2N(k-1)`.
    pub fn games_per_engine(&self) -> usize {
        self.base
            .rounds
            .saturating_mul(2)
            .saturating_mul(self.engines.len().saturating_sub(1))
    }
}

/// One pairing's match.
#[derive(Clone, Debug)]
pub struct PairingReport {
    /// The two engines (indices into the tournament's engines); the match's engine 0 and 1.
    pub players: [usize; 2],
    /// The match.
    pub report: MatchReport,
}

/// What a tournament produced.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    /// Engine names.
    pub names: Vec<String>,
    /// Engine limits, as text.
    pub limits: Vec<String>,
    /// Rounds of each pairing.
    pub rounds: usize,
    /// Every pairing's match, in playing order.
    pub pairings: Vec<PairingReport>,
    /// Forfeits of each engine.
    pub forfeits: Vec<Forfeits>,
    /// The Brightwell constant.
    pub brightwell_c: u32,
    /// Standings in rank order.
    pub standings: Vec<Standing>,
    /// The opening seed of a random order.
    pub seed: Option<u64>,
    /// Wall time.
    pub elapsed: Duration,
}

fn add_forfeits(total: &mut Forfeits, more: &Forfeits) {
    total.time += more.time;
    total.crash += more.crash;
    total.protocol += more.protocol;
    total.illegal += more.illegal;
    total.resign += more.resign;
}

/// Plays a tournament. `on_game` sees every game as it ends with its pairing (indices of the
/// match's engines 0 and 1) and the pairing's progress.
pub fn play_tournament(
    config: &TournamentConfig,
    on_game: &(dyn Fn([usize; 2], &GameRecord, &Progress) + Sync),
) -> Result<TournamentReport, TournamentError> {
    if config.engines.len() < 2 {
        return Err(TournamentError::TooFewEngines);
    }
    let begin = Instant::now();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut limits: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.effective_limit(&config.base.limit).to_string())
        .collect();
    let mut pairings = Vec::new();
    let mut forfeits = vec![Forfeits::default(); names.len()];
    let mut results = Vec::new();
    for (i, j) in config.pairings() {
        let mut match_config = config.base.clone();
        match_config.engines = [config.engines[i].clone(), config.engines[j].clone()];
        let report = play_match(&match_config, &|record, progress| {
            on_game([i, j], record, progress)
        })?;
        limits[i].clone_from(&report.settings[0]);
        limits[j].clone_from(&report.settings[1]);
        add_forfeits(&mut forfeits[i], &report.forfeits[0]);
        add_forfeits(&mut forfeits[j], &report.forfeits[1]);
        results.extend(
            report
                .games
                .iter()
                .map(|g| GameResult::from_record(g, [i, j])),
        );
        pairings.push(PairingReport {
            players: [i, j],
            report,
        });
    }
    let rounds = u32::try_from(config.games_per_engine()).unwrap_or(u32::MAX);
    let table = standings(names.len(), &results, &BTreeSet::new(), &[], rounds)?;
    Ok(TournamentReport {
        standings: rank(table, &names),
        names,
        limits,
        rounds: config.base.rounds,
        pairings,
        forfeits,
        brightwell_c: brightwell_constant(rounds),
        seed: config.base.random_seed,
        elapsed: begin.elapsed(),
    })
}

/// The JSON summary of a tournament.
#[derive(Serialize, Debug)]
pub struct TournamentSummary {
    /// Rounds of each pairing.
    pub rounds: usize,
    /// Games each engine played.
    pub games_per_engine: usize,
    /// The Brightwell constant `c`.
    pub brightwell_c: u32,
    /// The opening seed, when the order was random.
    pub seed: Option<u64>,
    /// Seconds the tournament took.
    pub seconds: f64,
    /// The standings, best first.
    pub standings: Vec<StandingSummary>,
    /// Every pairing's score.
    pub pairings: Vec<PairingSummary>,
}

/// One line of the standings in JSON.
#[derive(Serialize, Debug)]
pub struct StandingSummary {
    /// 1-based rank.
    pub rank: usize,
    /// The engine's name.
    pub name: String,
    /// Its limit.
    pub limit: String,
    /// Games played.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Points (win 1, draw ½).
    pub points: f64,
    /// Disc total.
    pub discs: u32,
    /// Brightwell quotient.
    pub brightwell: f64,
    /// Forfeits (losses by time, crash, …).
    pub forfeits: Forfeits,
}

/// One pairing in JSON: the points of each engine.
#[derive(Serialize, Debug)]
pub struct PairingSummary {
    /// The two engines.
    pub engines: [String; 2],
    /// Their points.
    pub points: [f64; 2],
    /// Games played.
    pub games: usize,
}

/// The summary of a report, for JSON.
pub fn summary(report: &TournamentReport) -> TournamentSummary {
    let name = |i: usize| report.names.get(i).cloned().unwrap_or_default();
    TournamentSummary {
        rounds: report.rounds,
        games_per_engine: report
            .rounds
            .saturating_mul(2)
            .saturating_mul(report.names.len().saturating_sub(1)),
        brightwell_c: report.brightwell_c,
        seed: report.seed,
        seconds: report.elapsed.as_secs_f64(),
        standings: report
            .standings
            .iter()
            .enumerate()
            .map(|(r, s)| StandingSummary {
                rank: r + 1,
                name: name(s.player),
                limit: report.limits.get(s.player).cloned().unwrap_or_default(),
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                points: s.points,
                discs: s.discs,
                brightwell: s.brightwell,
                forfeits: report.forfeits.get(s.player).copied().unwrap_or_default(),
            })
            .collect(),
        pairings: report
            .pairings
            .iter()
            .map(|p| {
                let points = |e: usize| p.report.games.iter().map(|g| g.points_for(e)).sum();
                PairingSummary {
                    engines: p.players.map(name),
                    points: [points(0), points(1)],
                    games: p.report.games.len(),
                }
            })
            .collect(),
    }
}

/// `2`, `1.5`.
fn points_text(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// The standings as a text table, with the pairings' scores.
pub fn summary_text(report: &TournamentReport, config: &TournamentConfig) -> String {
    let s = summary(report);
    let mut out = String::new();
    let order = match report.seed {
        Some(seed) => format!("random order, seed {seed}"),
        None => "in order".into(),
    };
    out.push_str(&format!(
        "Round robin: {} engines, {} round{} per pairing, {} games each, openings from {}, {order}, {:.1} s\n",
        report.names.len(),
        report.rounds,
        if report.rounds == 1 { "" } else { "s" },
        s.games_per_engine,
        config.base.openings_source,
        s.seconds
    ));
    let width = report
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max("Engine".len());
    out.push_str(&format!(
        "{:>4}  {:<width$}  {:>5} {:>4} {:>4} {:>4} {:>6} {:>6} {:>10}  {}\n",
        "Rank", "Engine", "Games", "W", "D", "L", "Points", "Discs", "Brightwell", "Limit"
    ));
    for line in &s.standings {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5} {:>4} {:>4} {:>4} {:>6} {:>6} {:>10}  {}\n",
            line.rank,
            line.name,
            line.games,
            line.wins,
            line.draws,
            line.losses,
            points_text(line.points),
            line.discs,
            points_text(line.brightwell),
            line.limit
        ));
    }
    out.push_str(&format!(
        "Ranked by points, then Brightwell quotient (c = {}), then name.\n",
        s.brightwell_c
    ));
    out.push_str("Pairings:\n");
    for p in &s.pairings {
        out.push_str(&format!(
            "  {} {} - {} {} ({} games)\n",
            p.engines[0],
            points_text(p.points[0]),
            points_text(p.points[1]),
            p.engines[1],
            p.games
        ));
    }
    let forfeited: Vec<String> = s
        .standings
        .iter()
        .filter(|l| l.forfeits != Forfeits::default())
        .map(|l| {
            let f = l.forfeits;
            format!(
                "  {}: time {}, crash {}, protocol {}, illegal {}, resign {}\n",
                l.name, f.time, f.crash, f.protocol, f.illegal, f.resign
            )
        })
        .collect();
    if !forfeited.is_empty() {
        out.push_str("Forfeits:\n");
        for line in forfeited {
            out.push_str(&line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn game(black: usize, white: usize, black_discs: u32, white_discs: u32) -> GameResult {
        GameResult {
            black,
            white,
            black_discs,
            white_discs,
        }
    }

    #[test]
    fn brightwell_constant_rounds_to_nearest() {
        assert_eq!(brightwell_constant(4), 16);
        assert_eq!(brightwell_constant(6), 11); // 10.67
        assert_eq!(brightwell_constant(7), 9); // 9.14
        assert_eq!(brightwell_constant(13), 5); // 4.92
        assert_eq!(brightwell_constant(128), 1); // 0.5 rounds up
        assert_eq!(brightwell_constant(200), 0);
        assert_eq!(brightwell_constant(0), 0);
    }

    #[test]
    fn brightwell_by_hand() {
        // Three players, each plays the other two once: 2 rounds, c = 32.
        // 0 beats 1 40-24, 1 beats 2 33-31, 0 draws 2 32-32.
        let games = [game(0, 1, 40, 24), game(1, 2, 33, 31), game(2, 0, 32, 32)];
        let t = standings(3, &games, &BTreeSet::new(), &[], 2).unwrap();
        // Points: 0 → 1.5, 1 → 1, 2 → 0.5. Discs: 0 → 72, 1 → 57, 2 → 63.
        assert_eq!(
            t.iter().map(|s| s.points).collect::<Vec<_>>(),
            [1.5, 1.0, 0.5]
        );
        assert_eq!(t.iter().map(|s| s.discs).collect::<Vec<_>>(), [72, 57, 63]);
        assert_eq!(
            (t[0].wins, t[0].draws, t[0].losses, t[0].games),
            (1, 1, 0, 2)
        );
        // BQ 0 = 72 + 32 × (1 + 0.5) = 120; BQ 1 = 57 + 32 × (1.5 + 0.5) = 121;
        // BQ 2 = 63 + 32 × (1.5 + 1) = 143.
        assert_eq!(
            t.iter().map(|s| s.brightwell).collect::<Vec<_>>(),
            [120.0, 121.0, 143.0]
        );
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let ranked: Vec<usize> = rank(t, &names).iter().map(|s| s.player).collect();
        assert_eq!(ranked, [0, 1, 2]);
    }

    #[test]
    fn brightwell_with_a_withdrawn_opponent_and_a_bye() {
        // Four players, 3 rounds (c = 21). Player 3 withdrew after one game; player 2 had a
        // bye worth 1 point in the round it would have played 3.
        // 0 beats 1 36-28; 0 beats 3 50-14; 1 beats 2 40-24; 2 beats 0 38-26; 1 draws 3 32-32
        // is not played (3 withdrew); bye for 2.
        let games = [
            game(0, 1, 36, 28),
            game(3, 0, 14, 50),
            game(1, 2, 40, 24),
            game(2, 0, 38, 26),
        ];
        let withdrawn = BTreeSet::from([3]);
        let byes = [Bye {
            player: 2,
            points: 1.0,
        }];
        let t = standings(4, &games, &withdrawn, &byes, 3).unwrap();
        assert_eq!(brightwell_constant(3), 21);
        // Points: 0 → 2, 1 → 1, 2 → 1 + 1 (bye) = 2, 3 → 0.
        assert_eq!(
            t.iter().map(|s| s.points).collect::<Vec<_>>(),
            [2.0, 1.0, 2.0, 0.0]
        );
        // Discs actually played: 0 → 36 + 50 + 26 = 112, 1 → 68, 2 → 62, 3 → 14.
        assert_eq!(
            t.iter().map(|s| s.discs).collect::<Vec<_>>(),
            [112, 68, 62, 14]
        );
        // BQ 0 = (36 + 21 × 1) + (32 + 21 × 2) [vs withdrawn 3] + (26 + 21 × 2) = 57 + 74 + 68 = 199.
        // BQ 1 = (28 + 21 × 2) + (40 + 21 × 2) = 70 + 82 = 152.
        // BQ 2 = (24 + 21 × 1) + (38 + 21 × 2) + bye (32 + 21 × 2) = 45 + 80 + 74 = 199.
        // BQ 3 = 14 + 21 × 2 = 56 (its own opponents did not withdraw).
        assert_eq!(
            t.iter().map(|s| s.brightwell).collect::<Vec<_>>(),
            [199.0, 152.0, 199.0, 56.0]
        );
        assert!(t[3].withdrawn && !t[0].withdrawn);
        // Equal points and quotient: by name.
        let names: Vec<String> = ["Zed", "B", "Amy", "C"].map(String::from).to_vec();
        let ranked: Vec<usize> = rank(t, &names).iter().map(|s| s.player).collect();
        assert_eq!(ranked, [2, 0, 1, 3]);
    }

    #[test]
    fn half_points_and_forfeits() {
        // One round of two players: c = 32. A draw with empties split and a 64-0 forfeit.
        let games = [game(0, 1, 32, 32), game(1, 0, 0, 64)];
        let t = standings(2, &games, &BTreeSet::new(), &[], 2).unwrap();
        assert_eq!((t[0].points, t[1].points), (1.5, 0.5));
        assert_eq!((t[0].discs, t[1].discs), (96, 32));
        // BQ 0 = 96 + 32 × 0.5 × 2 = 128; BQ 1 = 32 + 32 × 1.5 × 2 = 128.
        assert_eq!((t[0].brightwell, t[1].brightwell), (128.0, 128.0));
    }

    #[test]
    fn bad_input_is_an_error() {
        let none = BTreeSet::new();
        assert!(standings(2, &[game(0, 2, 32, 32)], &none, &[], 1).is_err());
        assert!(standings(2, &[game(1, 1, 32, 32)], &none, &[], 1).is_err());
        assert!(standings(2, &[game(0, 1, 40, 40)], &none, &[], 1).is_err());
        assert!(standings(2, &[game(0, 1, u32::MAX, 5)], &none, &[], 1).is_err());
        let message =
            |games: &[GameResult]| standings(2, games, &none, &[], 1).unwrap_err().to_string();
        assert_eq!(
            message(&[game(0, 2, 32, 32)]),
            "game 0 vs 2: only 2 players"
        );
        assert_eq!(
            message(&[game(0, 1, 40, 40)]),
            "game 0 vs 1: 40-40 is more than 64 discs"
        );
        let bye = |points| Bye { player: 0, points };
        assert!(standings(2, &[], &none, &[bye(f64::NAN)], 1).is_err());
        assert!(
            standings(
                2,
                &[],
                &none,
                &[Bye {
                    player: 5,
                    points: 1.0
                }],
                1
            )
            .is_err()
        );
        assert!(standings(2, &[], &BTreeSet::from([2]), &[], 1).is_err());
        assert_eq!(standings(0, &[], &none, &[], 0).unwrap(), vec![]);
    }

    #[test]
    fn in_process_tournament() {
        let engines: Vec<EngineSpec> = ["iago,depth=1", "iago,depth=2", "name=Third,iago,depth=1"]
            .iter()
            .map(|e| EngineSpec::parse(e).unwrap())
            .collect();
        let mut base = MatchConfig::new(
            [engines[0].clone(), engines[1].clone()],
            super::super::spec::GameLimits::default(),
            1,
        );
        base.openings = super::super::openings::parse_openings("f5d6c3d3c4f4", "t").unwrap();
        let c = TournamentConfig { engines, base };
        assert_eq!(c.pairings(), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(c.games_per_engine(), 4);
        let seen = Mutex::new(0);
        let report = play_tournament(&c, &|_, _, _| *seen.lock().unwrap() += 1).unwrap();
        assert_eq!(*seen.lock().unwrap(), 6);
        assert_eq!(report.pairings.len(), 3);
        assert_eq!(report.brightwell_c, 16);
        let total: f64 = report.standings.iter().map(|s| s.points).sum();
        assert_eq!(total, 6.0);
        let discs: u32 = report.standings.iter().map(|s| s.discs).sum();
        assert_eq!(discs, 6 * 64);
        assert!(report.standings.iter().all(|s| s.games == 4));
        for w in report.standings.windows(2) {
            assert!(w[0].points >= w[1].points);
        }
        let text = summary_text(&report, &c);
        assert!(text.contains("Brightwell"), "{text}");
        let json = serde_json::to_value(summary(&report)).unwrap();
        assert_eq!(json["standings"].as_array().unwrap().len(), 3);
    }
}
