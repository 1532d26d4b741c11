//! The ZooKeeper lock recipe (PROTOCOLS.md P4) in the registry: an ensemble (`ensemble`) of
//! `zk-N` servers whose lock nodes are EPHEMERAL_SEQUENTIAL znodes, their czxid the fencing
//! token, held while the client's session is kept alive by pings (`ensemble_client`).

use super::ensemble::{EnsembleServer, Flavour};
use super::ensemble_client::EnsembleAgent;
use super::spec::{numbered, Build, Holding, LeaseKind, Spec, TokenKind, Words};
use super::Msg;
use crate::decimal::seconds;
use crate::sim::ClockKind;

pub const SPEC: Spec = Spec {
    id: "zookeeper",
    label: "ZooKeeper recipe",
    short: "ZooKeeper",
    nodes: |_, n| numbered("zk", n),
    default_servers: Some(3),
    holding: Holding::Replicated,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| Flavour::ZooKeeper.granted_ttl(l.ttl_ms, l.tick_ms),
    grant_rule: Some(|l| {
        format!("negotiates session timeouts into {}–{} (2–20 × tickTime)", seconds(2 * l.tick_ms), seconds(20 * l.tick_ms))
    }),
    token: TokenKind::Czxid,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    words: Words {
        lease: "session",
        ttl: "session timeout",
        expired: "session expired",
        keepalive: "pings",
        roles: ["leader", "follower"],
        message: words,
    },
    build: Build {
        agent: |p| {
            let (servers, ttl, timeout) = (p.servers.clone(), p.lock.ttl_ms, p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(EnsembleAgent::new(inc, Flavour::ZooKeeper, servers.clone(), ttl, timeout)))
        },
        server: |p, rank| Box::new(EnsembleServer::node(Flavour::ZooKeeper, rank, p.servers.clone(), p.lock.tick_ms)),
    },
};

/// The ZooKeeper API calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::OpenSession { ttl_ms, .. } => format!("connect: new session, timeout {}", seconds(*ttl_ms)),
        Msg::SessionReply { session, ttl_ms, .. } => format!("session 0x{session:x} ({} negotiated)", seconds(*ttl_ms)),
        Msg::CreateLockNode { .. } => "create /lock/guid-lock- EPHEMERAL_SEQUENTIAL".into(),
        Msg::ListLockNodes { .. } => "getChildren /lock".into(),
        Msg::WatchNode { token, .. } => format!("exists({}, watch)", SPEC.token.label(Some(*token))),
        Msg::CloseSession { .. } => "close session".into(),
        Msg::KeepAlive { .. } => "ping".into(),
        Msg::KeepAliveReply { alive: false, .. } => "SESSION EXPIRED".into(),
        _ => return None,
    })
}
