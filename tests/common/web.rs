//! Drives `iago web` over HTTP and its WebSocket: the server on a free loopback port, raw
//! HTTP requests, and a client of the page's protocol.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A running `iago web` on a free loopback port.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// `iago web --listen 127.0.0.1:0 ARGS`, with one thread and a 16 MiB table unless `ARGS`
    /// says otherwise.
    pub fn start(args: &[&str]) -> Server {
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
    pub fn status(&self) -> (u64, u64, u64) {
        let (code, body) = http(&self.addr, "GET /api/status", &[], b"");
        assert_eq!(code, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap();
        (n("clients"), n("searches"), n("queued"))
    }

    /// Waits until no search runs or waits, within `timeout`; how long it took.
    #[track_caller]
    pub fn wait_idle(&self, timeout: Duration) -> Duration {
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
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn client(&self) -> Client {
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
pub fn http(addr: &str, line: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
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
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    /// The last state message.
    pub state: Value,
}

impl Client {
    /// Connects with extra headers; reads the hello and the first state.
    pub fn connect(addr: &str, headers: &[(&str, &str)]) -> Client {
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

    pub fn handshake(
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

    pub fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).unwrap();
    }

    pub fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).unwrap();
    }

    /// The next message, within `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Value {
        self.try_next(timeout)
            .unwrap_or_else(|| panic!("no message within {timeout:?}"))
    }

    pub fn try_next(&mut self, timeout: Duration) -> Option<Value> {
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
    pub fn until(&mut self, timeout: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
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
    pub fn error_for(&mut self, message: &str) -> String {
        self.send_text(message);
        let m = self.until(Duration::from_secs(10), |m| m["type"] == "error");
        m["message"].as_str().unwrap().to_string()
    }

    /// Sends `message` and reads until the state whose `field` is `value`.
    #[track_caller]
    pub fn state_with(&mut self, message: Value, field: &str, value: impl Into<Value>) -> Value {
        let value = value.into();
        self.send(message);
        self.until(Duration::from_secs(30), |m| {
            m["type"] == "state" && m[field] == value
        })
    }

    /// Waits until the session's search ends.
    pub fn idle(&mut self, timeout: Duration) {
        self.until(timeout, |m| m["type"] == "busy" && m["job"].is_null());
    }
}
