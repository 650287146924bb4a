//! `iago web` without a browser: the real binary on loopback, driven over HTTP and its
//! WebSocket: the page's files, the guard (`Host`, `Origin`), the messages of a session, bad
//! input and the limits. The load tests are in tests/web_load.rs, the browser tests in
//! tests/browser/.

#![cfg(feature = "web")]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::Message;

use common::web::{Client, Server, http};

#[test]
fn the_page_and_its_files_are_served_with_their_types() {
    let server = Server::start(&[]);
    let (code, body) = http(&server.addr, "GET /", &[], b"");
    assert_eq!(code, 200);
    assert!(body.contains("<title>Iago"), "{body}");
    for (path, kind) in [
        ("/app.js", "javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let mut stream = TcpStream::connect(&server.addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "{path}: {reply}");
        assert!(reply.to_lowercase().contains(kind), "{path}");
        assert!(reply.contains("content-security-policy"), "{path}");
    }
    assert_eq!(http(&server.addr, "GET /nothing-here", &[], b"").0, 404);
}

#[test]
fn a_foreign_host_or_origin_is_refused() {
    let server = Server::start(&["--allow-host", "board.lan"]);
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
    ] {
        let (code, _) = http(&server.addr, "GET /", &[("Host", host)], b"");
        assert_eq!(code, 403, "Host: {host}");
    }
    for host in ["localhost:9999", "127.0.0.1", "[::1]:1", "board.lan:8080"] {
        let (code, _) = http(&server.addr, "GET /", &[("Host", host)], b"");
        assert_eq!(code, 200, "Host: {host}");
    }
    // A page of another site cannot open the WebSocket, nor upload.
    let origin = format!("http://{}", server.addr);
    for bad in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        match Client::handshake(&server.addr, &[("Origin", bad)]) {
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403, "Origin: {bad}");
            }
            other => panic!("Origin {bad}: {:?}", other.map(|_| ())),
        }
        let (code, _) = http(
            &server.addr,
            "POST /api/games?name=a.txt",
            &[("Origin", bad)],
            b"f5d6",
        );
        assert_eq!(code, 403, "upload with Origin: {bad}");
    }
    // The page's own origin, and a program that sends none, are served.
    Client::connect(&server.addr, &[("Origin", origin.as_str())]);
    Client::connect(&server.addr, &[]);
}

#[test]
fn a_person_plays_and_iago_answers() {
    let server = Server::start(&["--depth", "4"]);
    let mut client = server.client();
    assert_eq!(client.state["transcript"], "");
    assert_eq!(client.state["iago"], "white");
    assert_eq!(client.state["legal"], json!(["d3", "c4", "f5", "e6"]));
    client.send(json!({"type": "play", "move": "f5"}));
    let state = client.until(Duration::from_secs(30), |m| {
        m["type"] == "state" && m["transcript"].as_str().is_some_and(|t| t.len() == 4)
    });
    assert!(state["transcript"].as_str().unwrap().starts_with("f5"));
    assert_eq!(state["to_move"], "black");
    assert_eq!(
        state["black"].as_u64().unwrap() + state["white"].as_u64().unwrap(),
        6
    );
    // The last move and its flips are named.
    assert!(state["last"].is_string());
    assert_eq!(state["flipped"].as_array().unwrap().len(), 1);
    // A move for Iago's side while it is to move is refused with a reason.
    let error = client.error_for(r#"{"type":"play","move":"a1"}"#);
    assert!(error.contains("a1"), "{error}");
}

#[test]
fn values_come_at_once_and_deepen() {
    let server = Server::start(&[]);
    let mut client = server.client();
    client.send(json!({"type": "settings", "iago": "none"}));
    client.state_with(
        json!({"type": "paste", "text": "f5d6c3d3c4"}),
        "transcript",
        "f5d6c3d3c4",
    );
    let started = Instant::now();
    client.send(json!({"type": "values", "on": true}));
    let first = client.until(Duration::from_secs(5), |m| {
        m["type"] == "values" || m["type"] == "state" && !m["values"].is_null()
    });
    let first_ms = started.elapsed().as_millis();
    let first = if first["type"] == "state" {
        first["values"].clone()
    } else {
        first
    };
    let legal = client.state["legal"].as_array().unwrap().clone();
    assert_eq!(
        first["rows"].as_array().unwrap().len(),
        legal.len(),
        "{first}"
    );
    assert!(first_ms < 2000, "first values after {first_ms} ms");
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let m = client.until(Duration::from_secs(30), |m| {
            m["type"] == "values" && !m["preview"].as_bool().unwrap()
        });
        let depth: u32 = m["depth"]
            .as_str()
            .unwrap()
            .split('@')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(m["rows"].as_array().unwrap().len(), legal.len());
        for row in m["rows"].as_array().unwrap() {
            assert!(legal.contains(&row["move"]), "{row}");
            assert!(row["score"].as_i64().unwrap().abs() <= 64);
        }
        if depths.last() != Some(&depth) {
            depths.push(depth);
        }
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    client.send(json!({"type": "stop"}));
    client.idle(Duration::from_secs(5));
    server.wait_idle(Duration::from_secs(2));
}

#[test]
fn a_solve_gives_the_exact_score() {
    let server = Server::start(&[]);
    let mut client = server.client();
    // The first position of Edax's hard 20-empties set: E1 draws (0).
    let board = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X";
    client.state_with(json!({"type": "paste", "text": board}), "empty", 20);
    client.send(json!({"type": "solve"}));
    let solved = client.until(Duration::from_secs(120), |m| m["type"] == "solved");
    assert_eq!(solved["solved"], true, "{solved}");
    assert_eq!(solved["score"], 0, "{solved}");
    assert_eq!(solved["mode"], "exact");
    assert!(solved["pv"].as_str().unwrap().starts_with("e1"), "{solved}");
    client.send(json!({"type": "solve", "mode": "wld"}));
    let solved = client.until(Duration::from_secs(120), |m| m["type"] == "solved");
    assert_eq!(
        (solved["score"].as_i64(), solved["text"].as_str()),
        (Some(0), Some("draw"))
    );
    // A longer solve shows its progress as the console does: FFO #38, 24 empties, +4.
    let ffo = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fforum-20-39.obf"
    ))
    .unwrap();
    let board = ffo
        .lines()
        .map(|l| l.split(';').next().unwrap().to_string())
        .find(|b| b.matches('-').count() == 24)
        .unwrap();
    client.state_with(json!({"type": "paste", "text": board}), "empty", 24);
    client.send(json!({"type": "solve"}));
    let progress = client.until(Duration::from_secs(60), |m| m["type"] == "solving");
    assert!(
        progress["text"]
            .as_str()
            .unwrap()
            .starts_with("solving 24 empties: "),
        "{progress}"
    );
    let solved = client.until(Duration::from_secs(120), |m| m["type"] == "solved");
    assert_eq!(solved["score"], 4, "{solved}");
}

#[test]
fn a_review_marks_the_losses_of_the_line() {
    let server = Server::start(&[]);
    let mut client = server.client();
    client.send(json!({"type": "settings", "iago": "none"}));
    // c6 after f5d6c3d3c4f4 gives away much.
    client.state_with(
        json!({"type": "paste", "text": "f5d6c3d3c4f4f6f3e6e7"}),
        "transcript",
        "f5d6c3d3c4f4f6f3e6e7",
    );
    client.send(json!({"type": "review", "depth": 6}));
    let mut progress = 0;
    let state = client.until(Duration::from_secs(60), |m| {
        m["type"] == "state" && m["review"]["complete"] == true
    });
    let _ = &mut progress;
    let nodes = state["nodes"].as_array().unwrap();
    let reviewed: Vec<&Value> = nodes.iter().filter(|n| !n["loss"].is_null()).collect();
    assert_eq!(reviewed.len(), 10, "every move of the line is reviewed");
    assert!(reviewed.iter().all(|n| n["loss"].as_i64().unwrap() >= 0));
    // Every position of the line has a value for the graph.
    for id in state["line"].as_array().unwrap() {
        let node = &nodes[id.as_u64().unwrap() as usize];
        assert!(node["eval"].is_i64(), "{node}");
    }
    let rows = state["review"]["rows"].as_array().unwrap();
    let all: Vec<&Value> = rows.iter().filter(|r| r["phase"] == "all").collect();
    assert_eq!(all.len(), 2);
    assert_eq!(
        all.iter()
            .map(|r| r["moves"].as_u64().unwrap())
            .sum::<u64>(),
        10
    );
}

#[test]
fn a_variation_keeps_the_main_line_and_undo_goes_back_to_the_person() {
    let server = Server::start(&["--depth", "2"]);
    let mut client = server.client();
    client.send(json!({"type": "settings", "iago": "none"}));
    client.state_with(
        json!({"type": "paste", "text": "f5d6c3d3c4"}),
        "transcript",
        "f5d6c3d3c4",
    );
    client.send(json!({"type": "back"}));
    client.send(json!({"type": "back"}));
    let state = client.until(Duration::from_secs(5), |m| {
        m["type"] == "state" && m["nodes"][m["node"].as_u64().unwrap() as usize]["ply"] == 3
    });
    assert_eq!(
        state["transcript"], "f5d6c3d3c4",
        "the line shown is the whole game"
    );
    let other = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .find(|m| m != "d3")
        .unwrap();
    let line = format!("f5d6c3{other}");
    let state = client.state_with(
        json!({"type": "play", "move": other}),
        "transcript",
        line.as_str(),
    );
    let id = |s: &Value, moves: &str| -> u64 {
        // The node reached by the moves, from the start.
        let nodes = s["nodes"].as_array().unwrap();
        let mut at = 0usize;
        for m in moves.as_bytes().chunks(2) {
            let m = std::str::from_utf8(m).unwrap();
            at = nodes[at]["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as usize)
                .find(|&c| nodes[c]["move"] == m)
                .unwrap_or_else(|| panic!("{moves}: no {m}"));
        }
        at as u64
    };
    // The main line is still there.
    let d3 = id(&state, "f5d6c3d3c4");
    client.state_with(
        json!({"type": "goto", "node": d3}),
        "transcript",
        "f5d6c3d3c4",
    );
    client.state_with(json!({"type": "start"}), "transcript", "f5d6c3d3c4");
    client.state_with(json!({"type": "end"}), "transcript", "f5d6c3d3c4");
    // Against Iago, undo goes back to the person's turn.
    client.send(json!({"type": "new"}));
    client.send(json!({"type": "settings", "iago": "white"}));
    client.send(json!({"type": "play", "move": "f5"}));
    client.until(Duration::from_secs(30), |m| {
        m["type"] == "state" && m["transcript"].as_str().is_some_and(|t| t.len() == 4)
    });
    let state = client.state_with(json!({"type": "undo"}), "to_move", "black");
    assert_eq!(state["node"], 0);
    let state = client.state_with(json!({"type": "redo"}), "to_move", "black");
    assert_eq!(
        state["nodes"][state["node"].as_u64().unwrap() as usize]["ply"],
        2
    );
}

#[test]
fn every_rule_set_is_played() {
    let server = Server::start(&["--depth", "2"]);
    let mut client = server.client();
    for (rules, squares, legal) in [
        ("6x6", 36, 4),
        ("4x4", 16, 4),
        ("reversi", 64, 4),
        ("anti", 64, 4),
        ("othello 32-discs", 64, 4),
    ] {
        client.send(json!({"type": "new", "rules": rules}));
        let state = client.until(Duration::from_secs(10), |m| {
            m["type"] == "state"
                && m["squares"].as_str().unwrap().len() == squares
                && m["rules"]
                    .as_str()
                    .unwrap()
                    .contains(rules.split(' ').next().unwrap())
        });
        assert_eq!(state["legal"].as_array().unwrap().len(), legal, "{rules}");
        // Iago plays White: after Black's first move it answers.
        let first = state["legal"][0].as_str().unwrap().to_string();
        client.send(json!({"type": "play", "move": first}));
        let state = client.until(Duration::from_secs(30), |m| {
            m["type"] == "state" && m["nodes"].as_array().unwrap().len() >= 3
        });
        assert_eq!(state["to_move"], "black", "{rules}: {state}");
    }
    // A 32-disc game counts the discs left.
    client.send(json!({"type": "new", "rules": "othello 32-discs"}));
    let state = client.until(Duration::from_secs(10), |m| {
        m["type"] == "state" && !m["left"].is_null()
    });
    assert_eq!(state["left"], json!([30, 30]));
}

#[test]
fn bad_input_gets_one_line_and_changes_nothing() {
    let server = Server::start(&[]);
    let mut client = server.client();
    client.send(json!({"type": "settings", "iago": "none"}));
    client.state_with(
        json!({"type": "paste", "text": "f5d6"}),
        "transcript",
        "f5d6",
    );
    let huge = format!(r#"{{"type":"paste","text":"{}"}}"#, "f5".repeat(40_000));
    let cases = [
        ("garbage", "bad message"),
        ("{}", "bad message"),
        (r#"{"type":"fly"}"#, "bad message"),
        (r#"{"type":"play","move":"z9"}"#, "move"),
        (r#"{"type":"play","move":"a1"}"#, "a1"),
        (r#"{"type":"goto","node":999}"#, "999"),
        (r#"{"type":"new","rules":"chess"}"#, "chess"),
        (r#"{"type":"new","rules":"10x10"}"#, "10x10"),
        (r#"{"type":"settings","level":{"depth":0}}"#, "depth"),
        (r#"{"type":"settings","level":{"time":100000}}"#, "time"),
        (r#"{"type":"settings","clock":{"minutes":-1}}"#, "clock"),
        (r#"{"type":"settings","iago":"martians"}"#, "iago"),
        (r#"{"type":"solve","mode":"guess"}"#, "mode"),
        (r#"{"type":"review","depth":99}"#, "depth"),
        (r#"{"type":"paste","text":"f5d6c3c3"}"#, "move 4"),
        (r#"{"type":"paste","text":"XXXXZ"}"#, "column"),
        (r#"{"type":"paste","text":""}"#, "nothing to read"),
        (r#"{"type":"fragment","text":"f5f5"}"#, "link"),
        (huge.as_str(), "too long"),
    ];
    for (message, says) in cases {
        let error = client.error_for(message);
        assert!(
            error.to_lowercase().contains(&says.to_lowercase()),
            "{message:.60}: {error}"
        );
        assert!(!error.contains('\n') && error.len() < 300, "{error}");
    }
    // Nothing changed, and the connection lives on.
    let state = client.state_with(json!({"type": "start"}), "node", 0);
    let _ = state;
    client.send(json!({"type": "end"}));
    let state = client.until(Duration::from_secs(5), |m| m["type"] == "state");
    assert_eq!(state["transcript"], "f5d6");
    // A frame over the transport's limit closes that connection only.
    let mut big = Client::connect(&server.addr, &[]);
    let _ = big.ws.send(Message::text("x".repeat(2 << 20)));
    assert!(
        big.try_next(Duration::from_secs(5))
            .is_none_or(|m| m["type"] != "state")
    );
    let mut after = server.client();
    after.state_with(json!({"type": "paste", "text": "f5"}), "transcript", "f5");
}

#[test]
fn two_clients_do_not_see_each_other() {
    let server = Server::start(&["--depth", "2"]);
    let mut a = server.client();
    let mut b = server.client();
    a.send(json!({"type": "settings", "iago": "none"}));
    a.state_with(
        json!({"type": "paste", "text": "f5d6c3"}),
        "transcript",
        "f5d6c3",
    );
    b.send(json!({"type": "new", "rules": "6x6"}));
    b.until(Duration::from_secs(5), |m| {
        m["type"] == "state" && m["size"] == 6
    });
    a.send(json!({"type": "values", "on": true}));
    a.until(Duration::from_secs(10), |m| {
        m["type"] == "values" && m["preview"] == false
    });
    // b sees none of a's messages; its game is its own.
    b.send(json!({"type": "promote"}));
    let state = b.until(Duration::from_secs(5), |m| m["type"] == "state");
    assert_eq!(
        (state["size"].as_u64(), state["transcript"].as_str()),
        (Some(6), Some(""))
    );
    assert!(
        b.try_next(Duration::from_millis(300))
            .is_none_or(|m| m["type"] != "values")
    );
    assert_eq!(server.status().0, 2);
}

#[test]
fn a_search_ends_with_its_client_and_at_the_time_cap() {
    let server = Server::start(&["--max-search", "0.5", "--max-clients", "3", "--no-book"]);
    let mut client = server.client();
    client.send(json!({"type": "values", "on": true}));
    client.until(Duration::from_secs(5), |m| {
        m["type"] == "busy" && m["job"] == "values"
    });
    // The cap: the values search ends by itself.
    client.until(Duration::from_secs(5), |m| {
        m["type"] == "values" && m["done"] == true
    });
    server.wait_idle(Duration::from_secs(1));
    // A client that leaves mid-search: its search stops at once.
    let mut leaving = server.client();
    leaving.send(json!({"type": "settings", "iago": "none", "level": {"time": 0.4}}));
    leaving.send(json!({"type": "go"}));
    leaving.until(Duration::from_secs(5), |m| {
        m["type"] == "busy" && m["job"] == "play"
    });
    let start = Instant::now();
    while server.status().1 == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "Iago's search never ran"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    drop(leaving);
    server.wait_idle(Duration::from_secs(1));
    // At most --max-clients at once.
    let _b = server.client();
    let _c = server.client();
    match Client::handshake(&server.addr, &[]) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("a fourth client: {:?}", other.map(|_| ())),
    }
}

#[test]
fn a_file_lists_its_games_and_a_big_one_is_refused() {
    let server = Server::start(&[]);
    let wthor = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/wthor/WTH_2023.wtb"
    ))
    .unwrap();
    let (code, body) = http(
        &server.addr,
        "POST /api/games?name=WTH_2023.wtb",
        &[],
        &wthor,
    );
    assert_eq!(code, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let games = list["games"].as_array().unwrap();
    assert_eq!(
        list["total"].as_u64().unwrap() as usize,
        (wthor.len() - 16) / 68
    );
    assert!(!games.is_empty());
    // A listed game opens by its text.
    let mut client = server.client();
    client.send(json!({"type": "settings", "iago": "none"}));
    let text = games[0]["text"].as_str().unwrap();
    client.state_with(json!({"type": "paste", "text": text}), "transcript", text);
    let (code, body) = http(
        &server.addr,
        "POST /api/games?name=x.txt",
        &[],
        b"f5d6c3\nnot a game\n",
    );
    assert_eq!(code, 200);
    let list: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (
            list["total"].as_u64(),
            list["games"].as_array().unwrap().len()
        ),
        (Some(2), 1)
    );
    assert!(list["errors"][0].as_str().unwrap().contains("x.txt:2"));
    let (code, _) = http(
        &server.addr,
        "POST /api/games?name=big.ggf",
        &[],
        &vec![b'f'; (16 << 20) + 1],
    );
    assert_eq!(code, 413);
}

/// `iago web ARGS` with `PATH` led by `path_first`: the first line of its standard output, then
/// (once it is ended) its standard error.
fn first_line_and_log(args: &[&str], path_first: Option<&std::path::Path>) -> (String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iago"));
    command
        .args(["web", "--threads", "1", "--hash", "1"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![dir.to_path_buf()];
        paths.extend(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(paths).unwrap());
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    (line, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn listening_elsewhere_than_loopback_warns() {
    let (line, log) = first_line_and_log(&["--listen", "0.0.0.0:0"], None);
    assert!(line.starts_with("listening on http://0.0.0.0:"), "{line}");
    assert!(log.contains("not a loopback address"), "{log}");
    let (line, log) = first_line_and_log(&["--listen", "127.0.0.1:0"], None);
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    assert!(!log.contains("loopback"), "{log}");
    // A bad address is an error before anything is served.
    let out = Command::new(env!("CARGO_BIN_EXE_iago"))
        .args(["web", "--listen", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--listen"));
}

#[cfg(unix)]
#[test]
fn open_starts_the_browser_on_the_page() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("iago-web-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opened = dir.join("opened");
    let opener = dir.join(if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    });
    std::fs::write(
        &opener,
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", opened.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (line, _) = first_line_and_log(&["--listen", "127.0.0.1:0", "--open"], Some(&dir));
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_string();
    let start = Instant::now();
    while !opened.exists() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(std::fs::read_to_string(&opened).unwrap().trim(), url);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clock_runs_out_and_the_side_to_move_loses_on_time() {
    let server = Server::start(&[]);
    let mut client = server.client();
    client.send(
        json!({"type": "settings", "iago": "none", "clock": {"minutes": 0.01, "increment": 0}}),
    );
    let state = client.until(Duration::from_secs(5), |m| {
        m["type"] == "state" && !m["clock"].is_null()
    });
    assert_eq!(state["clock"]["running"], "black");
    assert!(state["clock"]["black_ms"].as_u64().unwrap() <= 600);
    let state = client.until(Duration::from_secs(5), |m| {
        m["type"] == "state" && !m["result"].is_null()
    });
    assert_eq!(state["result"], "Black lost on time: White wins");
    assert_eq!(state["clock"]["flagged"], "black");
    // Iago keeps to a clock: with a minute a side it answers at once in the opening.
    client.send(
        json!({"type": "settings", "iago": "white", "clock": {"minutes": 1, "increment": 1}}),
    );
    client.send(json!({"type": "new"}));
    client.send(json!({"type": "play", "move": "f5"}));
    let state = client.until(Duration::from_secs(10), |m| {
        m["type"] == "state" && m["transcript"].as_str().is_some_and(|t| t.len() == 4)
    });
    let clock = &state["clock"];
    assert_eq!(clock["running"], "black");
    assert!(clock["white_ms"].as_u64().unwrap() > 55_000, "{clock}");
    assert!(clock["black_ms"].as_u64().unwrap() > 55_000, "{clock}");
}
