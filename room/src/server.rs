//! The room's server: the app's dist folder, the voter page, the QR code, and two WebSocket
//! endpoints (docs/ROOM.md): `/room/stage?key=KEY` for the lecture stage, `/room/voter` for
//! phones. One mutex holds the state (state.rs); two watch channels carry what changed to the
//! sockets, each of which sends only the latest (a burst of votes is one counts message to a
//! stage that is behind, never a queue that grows).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State as Shared};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::sync::watch;
use tower_http::services::{ServeDir, ServeFile};

use crate::protocol::{self, FromStage, FromVoter, ToStage, ToVoter, MAX_FRAME_BYTES, MAX_SOCKETS};
use crate::state::State;

/// Paths of the voter's page and the QR code (the stage reads the QR's from its `room` message).
pub const VOTER_PATH: &str = "/v";
pub const QR_PATH: &str = "/room/qr.svg";

/// One room: its presenter key, its voters' address, and the state the sockets share.
pub struct Room {
    key: String,
    voter_url: String,
    qr_svg: String,
    state: Mutex<State>,
    /// The stage's latest counts message ("" while no question is on screen).
    stage: watch::Sender<Arc<str>>,
    /// Bumped when the question or its reveal changes: each voter's socket re-reads its view.
    question: watch::Sender<u64>,
    sockets: AtomicUsize,
}

impl Room {
    /// A room with presenter key `key` whose voters open `voter_url`.
    pub fn new(key: String, voter_url: String) -> Arc<Room> {
        let qr_svg = qr_svg(&voter_url);
        Arc::new(Room {
            key,
            voter_url,
            qr_svg,
            state: Mutex::default(),
            stage: watch::Sender::new(Arc::from("")),
            question: watch::Sender::new(0),
            sockets: AtomicUsize::new(0),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding it would be a bug in state.rs; the counts it left stay usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends the stage the current counts (after `state` changed).
    fn publish_counts(&self, state: &State) {
        let text = state.counts().map(|c| protocol::text(&c)).unwrap_or_default();
        self.stage.send_replace(Arc::from(text));
    }

    /// Compares the presenter key in constant time (a voter cannot learn it by timing).
    fn is_key(&self, given: &str) -> bool {
        let (a, b) = (self.key.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// The voters' address as a QR code: an SVG of black modules on white, 4 modules of margin.
fn qr_svg(url: &str) -> String {
    match qrcode::QrCode::new(url.as_bytes()) {
        Ok(code) => code.render::<qrcode::render::svg::Color>().min_dimensions(320, 320).quiet_zone(true).build(),
        // A URL too long for a QR code (over ~2,900 bytes) draws nothing; the address shows in text.
        Err(_) => String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>"#),
    }
}

/// The server's routes over the app's `dist` folder.
pub fn router(room: Arc<Room>, dist: &Path) -> Router {
    let app = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip());
    Router::new()
        .route("/room/stage", get(stage_upgrade))
        .route("/room/voter", get(voter_upgrade))
        .route(QR_PATH, get(qr))
        .route(VOTER_PATH, get(|h: HeaderMap| voter_asset(h, "text/html; charset=utf-8", include_str!("../assets/voter.html"))))
        .route("/v.js", get(|h: HeaderMap| voter_asset(h, "text/javascript; charset=utf-8", include_str!("../assets/voter.js"))))
        .route("/v.css", get(|h: HeaderMap| voter_asset(h, "text/css; charset=utf-8", include_str!("../assets/voter.css"))))
        .fallback_service(app)
        .with_state(room)
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, room: Arc<Room>, dist: &Path) -> std::io::Result<()> {
    axum::serve(listener, router(room, dist).into_make_service_with_connect_info::<SocketAddr>()).await
}

/// A file of the voter page, under a strict Content-Security-Policy: its own script and style
/// only, no inline code, and connections to this server only (named with ws: as well, for
/// browsers whose 'self' does not cover WebSockets).
async fn voter_asset(headers: HeaderMap, content_type: &'static str, body: &'static str) -> Response {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c)));
    let ws = host.map(|h| format!(" ws://{h} wss://{h}")).unwrap_or_default();
    let csp = format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'{ws}; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_SECURITY_POLICY, csp),
            (header::CACHE_CONTROL, "no-cache".into()),
        ],
        body,
    )
        .into_response()
}

async fn qr(Shared(room): Shared<Arc<Room>>) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "no-cache")], room.qr_svg.clone()).into_response()
}

/// One open socket, counted against `MAX_SOCKETS` until it drops.
struct Slot(Arc<Room>);

impl Slot {
    fn take(room: &Arc<Room>) -> Option<Slot> {
        let before = room.sockets.fetch_add(1, Ordering::SeqCst);
        if before >= MAX_SOCKETS {
            room.sockets.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(room.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::SeqCst);
    }
}

fn full() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, format!("the room is full: {MAX_SOCKETS} sockets are open")).into_response()
}

#[derive(serde::Deserialize)]
struct KeyQuery {
    key: Option<String>,
}

async fn stage_upgrade(Shared(room): Shared<Arc<Room>>, Query(q): Query<KeyQuery>, ws: WebSocketUpgrade) -> Response {
    // Only the presenter key opens the stage's socket, the one way to set the question.
    if !q.key.as_deref().is_some_and(|k| room.is_key(k)) {
        return (StatusCode::FORBIDDEN, "the stage needs the room's presenter key (?key=…), printed by `locklab room`").into_response();
    }
    let Some(slot) = Slot::take(&room) else { return full() };
    limits(ws).on_upgrade(move |socket| stage(socket, slot))
}

async fn voter_upgrade(Shared(room): Shared<Arc<Room>>, ws: WebSocketUpgrade) -> Response {
    let Some(slot) = Slot::take(&room) else { return full() };
    limits(ws).on_upgrade(move |socket| voter(socket, slot))
}

/// Frames over `MAX_FRAME_BYTES` close the socket; up to it, a message is read and one over
/// `MAX_MESSAGE_BYTES` is answered with an error (protocol::parse).
fn limits(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_FRAME_BYTES).max_frame_size(MAX_FRAME_BYTES)
}

/// A frame as a message's text: Some(Ok) a text frame, Some(Err) a frame the protocol has no
/// use for (said back), None for pings, pongs and the end of the socket (`closed`).
fn frame_text(frame: Option<Result<Message, axum::Error>>, closed: &mut bool) -> Option<Result<String, String>> {
    match frame {
        Some(Ok(Message::Text(t))) => Some(Ok(t.as_str().to_string())),
        Some(Ok(Message::Binary(_))) => Some(Err("message: binary frames are not part of the protocol; send JSON text".into())),
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
        Some(Ok(Message::Close(_)) | Err(_)) | None => {
            *closed = true;
            None
        }
    }
}

async fn send(socket: &mut WebSocket, text: String) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// The stage's socket: its questions in, the counts out.
async fn stage(mut socket: WebSocket, slot: Slot) {
    let room = slot.0.clone();
    let hello = ToStage::Room { voter_url: room.voter_url.clone(), qr: QR_PATH.into() };
    let mut counts = room.stage.subscribe();
    counts.mark_changed();
    if !send(&mut socket, protocol::text(&hello)).await {
        return;
    }
    let voter_only = [("hello", "a voter's message; the stage does not vote"), ("vote", "a voter's message; the stage does not vote")];
    loop {
        tokio::select! {
            frame = socket.recv() => {
                let mut closed = false;
                let reply = match frame_text(frame, &mut closed) {
                    Some(Ok(text)) => stage_message(&room, &text, &voter_only).err(),
                    Some(Err(e)) => Some(e),
                    None => None,
                };
                if closed {
                    break;
                }
                if let Some(error) = reply {
                    if !send(&mut socket, protocol::text(&ToStage::Error { error })).await {
                        break;
                    }
                }
            }
            changed = counts.changed() => {
                if changed.is_err() {
                    break;
                }
                let text = counts.borrow_and_update().clone();
                if !text.is_empty() && !send(&mut socket, text.to_string()).await {
                    break;
                }
            }
        }
    }
}

/// A stage's message applied: the question (or none) on screen, for every phone and the stage.
fn stage_message(room: &Room, text: &str, foreign: &[(&str, &str)]) -> Result<(), String> {
    let question = match protocol::parse::<FromStage>(text, foreign)? {
        FromStage::Question(q) => {
            q.check()?;
            Some(q)
        }
        FromStage::Idle => None,
    };
    let mut state = room.state();
    state.set_question(question);
    room.publish_counts(&state);
    drop(state);
    room.question.send_modify(|n| *n += 1);
    Ok(())
}

/// A phone's socket: its hello and votes in; the question, its vote and errors out.
async fn voter(mut socket: WebSocket, slot: Slot) {
    let room = slot.0.clone();
    let mut question = room.question.subscribe();
    {
        let mut state = room.state();
        state.voters_online += 1;
        room.publish_counts(&state);
    }
    let stage_only = [
        ("question", "only the stage, with the presenter key, may set the question"),
        ("idle", "only the stage, with the presenter key, may set the question"),
    ];
    let mut id: Option<String> = None;
    loop {
        tokio::select! {
            frame = socket.recv() => {
                let mut closed = false;
                let reply = match frame_text(frame, &mut closed) {
                    Some(Ok(text)) => Some(voter_message(&room, &mut id, &text, &stage_only)),
                    Some(Err(error)) => Some(ToVoter::Error { error }),
                    None => None,
                };
                if closed {
                    break;
                }
                if let Some(reply) = reply {
                    if !send(&mut socket, protocol::text(&reply)).await {
                        break;
                    }
                }
            }
            changed = question.changed() => {
                if changed.is_err() {
                    break;
                }
                question.borrow_and_update();
                // A phone that has not said who it is hears the question after its hello.
                if let Some(id) = &id {
                    let view = room.state().for_voter(Some(id));
                    if !send(&mut socket, protocol::text(&view)).await {
                        break;
                    }
                }
            }
        }
    }
    let mut state = room.state();
    state.voters_online -= 1;
    room.publish_counts(&state);
}

/// A phone's message applied, and what it hears back.
fn voter_message(room: &Room, id: &mut Option<String>, text: &str, foreign: &[(&str, &str)]) -> ToVoter {
    let message = match protocol::parse::<FromVoter>(text, foreign) {
        Ok(m) => m,
        Err(error) => return ToVoter::Error { error },
    };
    match message {
        FromVoter::Hello { voter } => match protocol::check_voter_id(&voter) {
            Ok(()) => {
                let view = room.state().for_voter(Some(&voter));
                *id = Some(voter);
                view
            }
            Err(error) => ToVoter::Error { error },
        },
        FromVoter::Vote { lesson, step, choice } => {
            let Some(voter) = id.as_deref() else {
                return ToVoter::Error { error: "vote: say hello with your voter id first".into() };
            };
            let mut state = room.state();
            match state.vote(voter, &lesson, step, choice) {
                Ok(seq) => {
                    room.publish_counts(&state);
                    ToVoter::Voted { lesson, step, choice, seq }
                }
                Err(error) => ToVoter::Error { error },
            }
        }
    }
}
