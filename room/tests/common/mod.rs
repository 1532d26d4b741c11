//! The tests' room: a server on a free loopback port over a dist folder of one page, and
//! WebSocket clients for its stage and phones.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use locklab_room::Room;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub const KEY: &str = "0123456789abcdef0123456789abcdef";

pub struct Server {
    pub addr: SocketAddr,
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("ws://{}{path}", self.addr)
    }
}

/// A room on a free loopback port; its dist is one index.html in the tests' own folder.
pub async fn start() -> Server {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dist = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "room-dist-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>app</title>").unwrap();
    // The server runs on its own runtime and threads, as it does in its own process: the
    // tests' phones (hundreds of tasks in the load test) do not queue ahead of its work.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let room = Room::new(KEY.into(), format!("http://{addr}/v"));
            locklab_room::server::serve(listener, room, &dist).await
        })
    });
    Server { addr }
}

pub async fn connect(url: &str) -> Ws {
    tokio_tungstenite::connect_async(url).await.unwrap_or_else(|e| panic!("connect {url}: {e}")).0
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

pub async fn send_text(ws: &mut Ws, text: String) {
    ws.send(Message::Text(text.into())).await.unwrap();
}

/// The next message (pings skipped), within 10 s.
pub async fn recv(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message within 10 s");
        match m.expect("the socket is open").expect("a frame") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

/// The next message of type `kind`, skipping others (counts that went by, say).
pub async fn recv_type(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let v = recv(ws).await;
        if v["type"] == kind {
            return v;
        }
    }
}

/// The stage's socket, past its `room` message.
pub async fn stage(s: &Server) -> Ws {
    let mut ws = connect(&s.url(&format!("/room/stage?key={KEY}"))).await;
    assert_eq!(recv(&mut ws).await["type"], "room");
    ws
}

/// A phone's socket after its hello, and what it heard back.
pub async fn voter(s: &Server, id: &str) -> (Ws, Value) {
    let mut ws = connect(&s.url("/room/voter")).await;
    send(&mut ws, json!({"type": "hello", "voter": id})).await;
    let first = recv(&mut ws).await;
    (ws, first)
}

/// Sends the stage's question and waits until the server has applied it (its first counts):
/// a phone's socket is another connection, which could otherwise overtake it.
pub async fn ask(stage: &mut Ws, q: Value) {
    let step = q["step"].clone();
    send(stage, q).await;
    while recv_type(stage, "counts").await["step"] != step {}
}

pub fn question(step: usize, n: usize) -> Value {
    json!({"type": "question", "lesson": "clocks", "step": step, "prompt": "Does the lock hold?",
           "choices": (0..n).map(|i| format!("choice {i}")).collect::<Vec<_>>()})
}

/// The stage's first counts that include the vote acknowledged with `seq` (`voted.seq`).
pub async fn counts_from(stage: &mut Ws, seq: &Value) -> Value {
    let seq = seq.as_u64().expect("a seq");
    loop {
        let v = recv_type(stage, "counts").await;
        if v["seq"].as_u64().unwrap() >= seq {
            return v;
        }
    }
}
