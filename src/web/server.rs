//! The HTTP side of `iago web`: the page's files, the WebSocket of each tab, the upload that
//! lists the games of a file, and a status line for tests and monitors; every request passes
//! the [`super::guard`] first.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use super::messages::ServerMessage;
use super::session::Session;
use super::{MAX_UPLOAD_BYTES, Shared, WebOptions, assets, guard};
use crate::board::Rules;
use crate::board::notation::{decode_text, excerpt};

/// The largest WebSocket message the transport takes; a longer one closes the connection
/// (1009). Messages up to it but over [`super::messages::MAX_MESSAGE_BYTES`] get an error
/// message back.
const MAX_FRAME_BYTES: usize = 1 << 20;

/// The most games `/api/games` lists from one file.
const MAX_LISTED_GAMES: usize = 5000;

/// Serves the page until the process ends: prints `listening on http://ADDR/` on `out` once
/// the socket is bound, then opens a browser when asked.
pub(crate) fn serve(options: WebOptions, out: &mut dyn Write) -> Result<(), crate::cli::CliError> {
    if !options.listen.ip().is_loopback() {
        log::warn!(
            "listening on {}, which is not a loopback address: other machines can reach this \
             engine (only requests naming it by an IP address, localhost or --allow-host are \
             served)",
            options.listen
        );
    }
    let loaded = options.engine.load()?;
    let pool = super::pool::Pool::new(options.engine.clone(), loaded, options.engines)?;
    let shared = Arc::new(Shared {
        pool: Arc::new(pool),
        level: options.level,
        max_search: options.max_search,
        max_clients: options.max_clients,
        clients: Default::default(),
        allow_hosts: options.allow_hosts.clone(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("iago-web")
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
        let url = format!("http://{}/", listener.local_addr()?);
        writeln!(out, "listening on {url}")?;
        out.flush()?;
        if options.open {
            open_browser(&url);
        }
        // The messages are small and come in bursts: without this, Nagle's algorithm and the
        // client's delayed ACK hold the second of two messages for 40 ms.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                log::debug!("TCP_NODELAY: {e}");
            }
        });
        axum::serve(listener, router(shared)).await?;
        Ok(())
    })
}

/// Opens the system's browser on `url` (a failure is a warning).
fn open_browser(url: &str) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(target_os = "windows") {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let started = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        log::warn!(
            "cannot open a browser ({}: {e}); open {url} by hand",
            opener[0]
        );
    }
}

/// The routes.
fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/ws", get(websocket))
        .route(
            "/api/games",
            post(games).layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES)),
        )
        .route("/api/status", get(status))
        .fallback(get(asset))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), check))
        .with_state(shared)
}

/// The guard of every request: its `Host`, and the `Origin` of a WebSocket or an upload; then
/// the headers that keep the page to itself.
async fn check(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if !guard::host_allowed(&host, &shared.allow_hosts) {
        log::info!("refused a request for the host '{}'", excerpt(&host));
        return forbidden(
            "this server answers only to localhost, IP addresses and --allow-host names",
        );
    }
    let needs_origin = request.method() != Method::GET || request.uri().path() == "/ws";
    if needs_origin {
        let origin = match headers.get(header::ORIGIN).map(HeaderValue::to_str) {
            None => None,
            Some(Ok(origin)) => Some(origin),
            Some(Err(_)) => return forbidden("unreadable Origin"),
        };
        if !guard::origin_allowed(origin, &host) {
            log::info!(
                "refused a request from the origin '{}'",
                excerpt(origin.unwrap_or_default())
            );
            return forbidden("requests from other sites are refused");
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (
            "content-security-policy",
            "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; \
             frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

fn forbidden(why: &'static str) -> Response {
    (StatusCode::FORBIDDEN, format!("403 forbidden: {why}\n")).into_response()
}

/// A file of the page.
async fn asset(request: Request) -> Response {
    let Some(asset) = assets::find(request.uri().path()) else {
        return (StatusCode::NOT_FOUND, "404 not found\n").into_response();
    };
    let etag = assets::etag(asset);
    let cached = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == etag);
    let headers = [
        (header::CONTENT_TYPE, asset.mime.to_string()),
        (header::CACHE_CONTROL, "no-cache".to_string()),
        (header::ETAG, etag),
    ];
    if cached {
        (StatusCode::NOT_MODIFIED, headers).into_response()
    } else {
        (headers, asset.body).into_response()
    }
}

/// What `/api/status` says: clients connected, searches running and waiting.
#[derive(Serialize)]
struct Status {
    clients: usize,
    searches: usize,
    queued: usize,
}

async fn status(State(shared): State<Arc<Shared>>) -> Response {
    axum::Json(Status {
        clients: shared.clients.load(Relaxed),
        searches: shared.pool.running(),
        queued: shared.pool.waiting(),
    })
    .into_response()
}

/// A tab's WebSocket (refused when the server has all the clients it takes).
async fn websocket(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    if shared.clients.load(Relaxed) >= shared.max_clients {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "503: this server has all the clients it takes (--max-clients)\n",
        )
            .into_response();
    }
    upgrade
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| client(socket, shared))
}

/// One client, until it leaves: its messages in, its session's messages out.
async fn client(mut socket: WebSocket, shared: Arc<Shared>) {
    struct Counted(Arc<Shared>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.clients.fetch_sub(1, Relaxed);
        }
    }
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Relaxed);
    let clients = shared.clients.fetch_add(1, Relaxed) + 1;
    log::info!("client {id} connected ({clients} now)");
    let _counted = Counted(Arc::clone(&shared));
    let (mut session, mut events) = Session::new(shared);
    loop {
        if send(&mut socket, session.take_messages()).await.is_err() {
            break;
        }
        let deadline = session.flag_deadline();
        tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => session.on_text(text.as_str()),
                Some(Ok(Message::Binary(bytes))) => session.on_text(
                    std::str::from_utf8(&bytes).unwrap_or("not UTF-8"),
                ),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            Some((id, event)) = events.recv() => {
                session.on_event(id, event);
                while let Ok((id, event)) = events.try_recv() {
                    session.on_event(id, event);
                }
            }
            () = sleep_until(deadline), if deadline.is_some() => session.on_flag(),
        }
    }
    // The session goes, and its search stops with it.
    match session.job() {
        Some(job) => log::info!("client {id} left: its {job} search stops"),
        None => log::info!("client {id} left"),
    }
}

async fn sleep_until(deadline: Option<std::time::Instant>) {
    if let Some(deadline) = deadline {
        tokio::time::sleep_until(deadline.into()).await;
    }
}

async fn send(socket: &mut WebSocket, messages: Vec<ServerMessage>) -> Result<(), axum::Error> {
    for message in messages {
        let text = serde_json::to_string(&message).expect("messages serialise");
        socket.send(Message::Text(text.into())).await?;
    }
    Ok(())
}

/// The name of an uploaded file.
#[derive(Deserialize)]
struct Upload {
    #[serde(default)]
    name: String,
}

/// The games of an uploaded file, to pick from.
#[derive(Debug, Serialize)]
struct GameList {
    /// The games read (at most [`MAX_LISTED_GAMES`]).
    games: Vec<ListedGame>,
    /// Games in the file.
    total: usize,
    /// The games that could not be read, a line each.
    errors: Vec<String>,
}

/// One game of a file.
#[derive(Debug, Serialize)]
struct ListedGame {
    /// Its place in the file, from 1.
    index: usize,
    /// Black's name.
    black: String,
    /// White's name.
    white: String,
    /// Moves, passes included.
    moves: usize,
    /// The result (`Black wins by 4`), or `unfinished`.
    result: String,
    /// What to paste to open it: a transcript, or the GGF game.
    text: String,
}

/// `POST /api/games?name=FILE`: the games of a GGF, transcript or WTHOR file sent as the body,
/// read in memory.
async fn games(Query(upload): Query<Upload>, headers: HeaderMap, body: Bytes) -> Response {
    let _ = headers;
    let name = excerpt(&upload.name);
    let listed = tokio::task::spawn_blocking(move || list_games(&name, &body)).await;
    match listed {
        Ok(Ok(list)) => axum::Json(list).into_response(),
        Ok(Err(message)) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(ErrorBody { error: message }),
        )
            .into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "500\n").into_response(),
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

fn list_games(name: &str, bytes: &[u8]) -> Result<GameList, String> {
    if bytes.is_empty() {
        return Err(format!("{name}: the file is empty"));
    }
    let wthor =
        name.to_ascii_lowercase().ends_with(".wtb") || bytes.iter().take(4096).any(|&b| b == 0);
    if wthor {
        let games = crate::records::wthor::parse(bytes).map_err(|e| format!("{name}: {e}"))?;
        let total = games.len();
        let mut list = GameList {
            games: Vec::new(),
            total,
            errors: Vec::new(),
        };
        for (i, game) in games.iter().enumerate().take(MAX_LISTED_GAMES) {
            match game.replay() {
                Some(played) => list.games.push(ListedGame {
                    index: i + 1,
                    black: format!("player {}", game.black_player),
                    white: format!("player {}", game.white_player),
                    moves: played.moves().len(),
                    result: crate::review::result_text(&played),
                    text: played.transcript(false),
                }),
                None => list
                    .errors
                    .push(format!("{name}: game {}: an illegal move", i + 1)),
            }
        }
        return Ok(list);
    }
    let text = decode_text(bytes.to_vec(), name);
    let mut list = GameList {
        games: Vec::new(),
        total: 0,
        errors: Vec::new(),
    };
    let mut cursor = crate::records::GameCursor::default();
    while let Some(game) = cursor.next_game(&text, name, Rules::OTHELLO) {
        list.total += 1;
        match game {
            Ok(played) if list.games.len() < MAX_LISTED_GAMES => {
                let text = if played.tags.is_empty() {
                    played.game.transcript(false)
                } else {
                    let mut ggf = crate::records::GgfGame::from_game(&played.game);
                    ggf.tags = played.tags.clone();
                    ggf.to_string()
                };
                list.games.push(ListedGame {
                    index: list.total,
                    black: played.players[0].clone(),
                    white: played.players[1].clone(),
                    moves: played.game.moves().len(),
                    result: crate::review::result_text(&played.game),
                    text,
                });
            }
            Ok(_) => {}
            Err(e) if list.errors.len() < 100 => list.errors.push(e.to_string()),
            Err(_) => {}
        }
    }
    if list.total == 0 {
        return Err(format!(
            "{name}: no game in the file (GGF, transcripts a line, or WTHOR .wtb)"
        ));
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_list_their_games_and_their_errors() {
        let text = b"f5d6c3\n(;GM[Othello]PC[x]PB[Ann]PW[Bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)\nf5f5\n";
        let list = list_games("games.txt", text).unwrap();
        assert_eq!(list.total, 3);
        assert_eq!(list.games.len(), 2);
        assert_eq!(list.games[0].text, "f5d6c3");
        assert_eq!(
            (list.games[1].black.as_str(), list.games[1].white.as_str()),
            ("Ann", "Bob")
        );
        assert!(list.games[1].text.starts_with("(;GM[Othello]"));
        assert_eq!(list.errors.len(), 1);
        assert!(list.errors[0].contains("games.txt:3"), "{}", list.errors[0]);
        assert!(list_games("empty.ggf", b"").is_err());
        assert!(list_games("x.txt", b"# nothing\n").is_err());
        assert!(
            list_games("x.wtb", &[0u8; 10])
                .unwrap_err()
                .contains("truncated")
        );
    }
}
