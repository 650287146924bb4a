//! `iago web` without a browser: the real binary on loopback, driven over HTTP and its
//! WebSocket: the page's files, the guard (`Host`, `Origin`), the messages of a session, bad
//! input, the limits, and a bounded load test. The browser tests are in tests/browser/.

#![cfg(feature = "web")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A running `iago web` on a free loopback port.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    /// `iago web --listen 127.0.0.1:0 ARGS`, with one thread and a 16 MiB table unless `ARGS`
    /// says otherwise.
    fn start(args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_iago"));
        command.args(["web", "--listen", "127.0.0.1:0"]).args(args);
        for (option, default) in [("--threads", "1"), ("--hash", "16")] {
            if !args.contains(&option) {
                command.args([option, default]);
            }
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start iago web");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line: {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// `GET /api/status`: clients, searches running, searches waiting.
    fn status(&self) -> (u64, u64, u64) {
        let (code, body) = http(&self.addr, "GET /api/status", &[], b"");
        assert_eq!(code, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap();
        (n("clients"), n("searches"), n("queued"))
    }

    /// Waits until no search runs or waits, within `timeout`; how long it took.
    #[track_caller]
    fn wait_idle(&self, timeout: Duration) -> Duration {
        let start = Instant::now();
        loop {
            let (_, searches, queued) = self.status();
            if searches == 0 && queued == 0 {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < timeout,
                "{searches} searches still run after {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The server's resident memory, in KiB (Linux).
    fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn client(&self) -> Client {
        Client::connect(&self.addr, &[])
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request (`"GET /path"`) with extra headers and a body, `Host` the server's unless
/// given; the status code and the body.
fn http(addr: &str, line: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("{line} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(request.as_bytes()).unwrap();
    // The server may answer (413) before it reads the whole body.
    let _ = stream.write_all(body);
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let code = reply
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {reply:?}"));
    let body = reply
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (code, body)
}

/// A WebSocket client of the page's protocol.
struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    /// The last state message.
    state: Value,
}

impl Client {
    /// Connects with extra headers; reads the hello and the first state.
    fn connect(addr: &str, headers: &[(&str, &str)]) -> Client {
        let ws = Client::handshake(addr, headers).expect("the WebSocket opens");
        let mut client = Client {
            ws,
            state: Value::Null,
        };
        let hello = client.next(Duration::from_secs(10));
        assert_eq!(hello["type"], "hello", "{hello}");
        client.until(Duration::from_secs(10), |m| m["type"] == "state");
        client
    }

    fn handshake(
        addr: &str,
        headers: &[(&str, &str)],
    ) -> Result<WebSocket<MaybeTlsStream<TcpStream>>, tungstenite::Error> {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        for (k, v) in headers {
            let name: tungstenite::http::HeaderName = k.parse().expect("a header name");
            request
                .headers_mut()
                .insert(name, v.parse().expect("a header value"));
        }
        let (ws, _) = tungstenite::connect(request)?;
        Ok(ws)
    }

    fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).unwrap();
    }

    fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).unwrap();
    }

    /// The next message, within `timeout`.
    fn next(&mut self, timeout: Duration) -> Value {
        self.try_next(timeout)
            .unwrap_or_else(|| panic!("no message within {timeout:?}"))
    }

    fn try_next(&mut self, timeout: Duration) -> Option<Value> {
        if let MaybeTlsStream::Plain(stream) = self.ws.get_mut() {
            stream.set_read_timeout(Some(timeout)).unwrap();
        }
        loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let v: Value = serde_json::from_str(text.as_str()).unwrap();
                    if v["type"] == "state" {
                        self.state = v.clone();
                    }
                    return Some(v);
                }
                Ok(Message::Close(_)) => return None,
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return None;
                }
                Err(_) => return None,
            }
        }
    }

    /// Reads messages until one satisfies `wanted` (which it returns), within `timeout`.
    #[track_caller]
    fn until(&mut self, timeout: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no such message within {timeout:?}");
            if let Some(m) = self.try_next(left)
                && wanted(&m)
            {
                return m;
            }
        }
    }

    /// Sends `message` and reads until an error message, which it returns.
    fn error_for(&mut self, message: &str) -> String {
        self.send_text(message);
        let m = self.until(Duration::from_secs(10), |m| m["type"] == "error");
        m["message"].as_str().unwrap().to_string()
    }

    /// Sends `message` and reads until the state whose `field` is `value`.
    #[track_caller]
    fn state_with(&mut self, message: Value, field: &str, value: impl Into<Value>) -> Value {
        let value = value.into();
        self.send(message);
        self.until(Duration::from_secs(30), |m| {
            m["type"] == "state" && m[field] == value
        })
    }

    /// Waits until the session's search ends.
    fn idle(&mut self, timeout: Duration) {
        self.until(timeout, |m| m["type"] == "busy" && m["job"].is_null());
    }
}

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
