//! `iago web` under load, without a browser: 50 clients at once, and a client sending random
//! messages fast.

#![cfg(feature = "web")]

mod common;

use std::time::{Duration, Instant};

use serde_json::json;

use common::web::{Client, Server};

/// 50 clients ask for values at once, each for about a second, then leave: no error, the
/// first values within 200 ms (p99), memory bounded, and every search stopped once they left.
/// Prints its figures.
#[test]
fn fifty_clients_asking_for_values() {
    const CLIENTS: usize = 50;
    let server = Server::start(&["--threads", "2", "--max-search", "1", "--max-clients", "64"]);
    let rss_before = server.rss_kib();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(CLIENTS));
    let threads: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let addr = server.addr.clone();
            let barrier = std::sync::Arc::clone(&barrier);
            std::thread::spawn(move || -> Result<(Duration, Option<Duration>), String> {
                let mut client = Client::connect(&addr, &[]);
                let openings = ["f5", "f5d6", "f5f6", "f5f4", "f5d6c3"];
                client.send(json!({"type": "settings", "iago": "none"}));
                client.send(json!({"type": "paste", "text": openings[i % openings.len()]}));
                client.until(Duration::from_secs(10), |m| m["type"] == "state");
                barrier.wait();
                let asked = Instant::now();
                client.send(json!({"type": "values", "on": true}));
                let mut first = None;
                let mut engine = None;
                while asked.elapsed() < Duration::from_millis(1500) {
                    let Some(m) = client.try_next(Duration::from_millis(100)) else {
                        continue;
                    };
                    let values = match m["type"].as_str() {
                        Some("values") => m.clone(),
                        Some("state") if !m["values"].is_null() => m["values"].clone(),
                        Some("error") => return Err(m["message"].to_string()),
                        _ => continue,
                    };
                    first.get_or_insert(asked.elapsed());
                    if values["preview"] == false {
                        engine.get_or_insert(asked.elapsed());
                    }
                }
                let first = first.ok_or("no values")?;
                Ok((first, engine))
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let left = Instant::now();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let mut firsts: Vec<Duration> = results.iter().map(|r| r.as_ref().unwrap().0).collect();
    firsts.sort();
    let engine_updates = results
        .iter()
        .filter(|r| r.as_ref().unwrap().1.is_some())
        .count();
    let p99 = firsts[(firsts.len() * 99).div_ceil(100) - 1];
    let p50 = firsts[firsts.len() / 2];
    // Every search stops once its client has left.
    loop {
        let (clients, searches, queued) = server.status();
        if clients == 0 && searches == 0 && queued == 0 {
            break;
        }
        assert!(
            left.elapsed() < Duration::from_secs(2),
            "still {clients} clients, {searches} searches, {queued} queued"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let stopped = left.elapsed();
    let rss_after = server.rss_kib();
    eprintln!(
        "load: {CLIENTS} clients, 0 errors; first values p50 {} ms, p99 {} ms; {engine_updates} \
         got an engine's values within 1.5 s; all searches ended {} ms after the last client \
         left; memory {:?} -> {:?} KiB",
        p50.as_millis(),
        p99.as_millis(),
        stopped.as_millis(),
        rss_before,
        rss_after
    );
    assert!(p99 <= Duration::from_millis(200), "p99 {p99:?}");
    if let (Some(before), Some(after)) = (rss_before, rss_after) {
        assert!(
            after < before + 400 * 1024,
            "memory grew from {before} to {after} KiB"
        );
    }
}

/// A client that does anything, in any order, fast: the server never fails, every state's
/// board is that of its line's moves, and a second client is served all along.
#[test]
fn random_messages_never_break_the_server() {
    let server = Server::start(&["--depth", "2", "--max-search", "1"]);
    let mut client = server.client();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let rules = ["othello", "6x6", "4x4", "anti", "reversi", "othello 32"];
    let pick = |items: &[&'static str], i: u64| items[i as usize];
    let mut checked = 0;
    for _ in 0..600 {
        let state = client.state.clone();
        let legal: Vec<String> = state["legal"]
            .as_array()
            .map(|l| l.iter().map(|m| m.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let nodes = state["nodes"].as_array().map_or(1, Vec::len) as u64;
        let message = match next(16) {
            0..=4 if !legal.is_empty() => {
                json!({"type": "play", "move": legal[next(legal.len() as u64) as usize]})
            }
            0..=4 => json!({"type": "play", "move": "a1"}),
            5 => json!({"type": "back"}),
            6 => json!({"type": "forward"}),
            7 => json!({"type": "goto", "node": next(nodes + 2)}),
            8 => json!({"type": "undo"}),
            9 => json!({"type": "redo"}),
            10 => json!({"type": "values", "on": next(2) == 0}),
            11 => json!({"type": "new", "rules": rules[next(rules.len() as u64) as usize]}),
            12 => {
                json!({"type": "settings", "iago": pick(&["white", "black", "both", "none"], next(4))})
            }
            13 => {
                json!({"type": pick(&["stop", "go", "promote", "start", "end", "ggf"], next(6))})
            }
            14 => {
                json!({"type": "paste", "text": pick(&["f5d6", "x", "f5d6c3d3c4f4", "", "f5f5"], next(5))})
            }
            15 if next(2) == 0 => {
                json!({"type": "solve", "mode": pick(&["exact", "wld"], next(2))})
            }
            _ => json!({"type": "review", "depth": 1}),
        };
        client.send(message);
        // Read what came, briefly; check each state's board against its moves.
        while let Some(m) =
            client.try_next(Duration::from_millis(if next(4) == 0 { 20 } else { 1 }))
        {
            if m["type"] != "state" {
                continue;
            }
            let (Some(squares), Some(rules)) = (m["squares"].as_str(), m["rules"].as_str()) else {
                panic!("{m}");
            };
            assert_eq!(squares.len(), m["size"].as_u64().unwrap().pow(2) as usize);
            if rules == "othello" && m["fragment"].as_str() == m["transcript"].as_str() {
                // The line shown from the start: its board at the node is that of the moves
                // of the path.
                let nodes = m["nodes"].as_array().unwrap();
                let mut path = Vec::new();
                let mut at = m["node"].as_u64().unwrap() as usize;
                while let Some(parent) = nodes[at]["parent"].as_u64() {
                    path.push(nodes[at]["move"].as_str().unwrap().to_string());
                    at = parent as usize;
                }
                path.reverse();
                let mut game = iago::Game::new(iago::Rules::OTHELLO);
                for mv in &path {
                    game.play(iago::Move::parse(mv).unwrap()).unwrap();
                }
                let expected = iago::Rules::OTHELLO.board_string(&game.position());
                assert_eq!(
                    format!(
                        "{squares} {}",
                        if m["to_move"] == "black" { 'X' } else { 'O' }
                    ),
                    expected
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} states checked");
    // The server lives on, and serves a new client at once.
    let mut other = server.client();
    other.state_with(
        json!({"type": "paste", "text": "f5d6"}),
        "transcript",
        "f5d6",
    );
}
