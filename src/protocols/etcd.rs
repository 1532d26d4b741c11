//! The etcd mutex (PROTOCOLS.md P5) in the registry: an ensemble (`ensemble`) of `etcd-N`
//! servers whose lock keys `pfx/<leaseID>` are ordered by create revision, the fencing token,
//! held while the client's lease is kept alive (`ensemble_client`).

use super::ensemble::{EnsembleServer, Flavour};
use super::ensemble_client::EnsembleAgent;
use super::spec::{numbered, Build, Holding, LeaseKind, Spec, TokenKind, Words};
use super::Msg;
use crate::decimal::seconds;
use crate::sim::ClockKind;

pub const SPEC: Spec = Spec {
    id: "etcd",
    label: "etcd mutex",
    short: "etcd",
    nodes: |_, n| numbered("etcd", n),
    default_servers: Some(3),
    holding: Holding::Replicated,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| Flavour::Etcd.granted_ttl(l.ttl_ms, l.tick_ms),
    grant_rule: Some(|_| "grants whole-second lease TTLs of at least 2 s".into()),
    token: TokenKind::Revision,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    words: Words {
        lease: "lease",
        ttl: "lease TTL",
        expired: "lease expired",
        keepalive: "keepalives",
        roles: ["leader", "follower"],
        message: words,
    },
    build: Build {
        agent: |p| {
            let (servers, ttl, timeout) = (p.servers.clone(), p.lock.ttl_ms, p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(EnsembleAgent::new(inc, Flavour::Etcd, servers.clone(), ttl, timeout)))
        },
        server: |p, rank| Box::new(EnsembleServer::node(Flavour::Etcd, rank, p.servers.clone(), p.lock.tick_ms)),
    },
};

/// The etcd API calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::OpenSession { ttl_ms, .. } => format!("LeaseGrant TTL {}", seconds(*ttl_ms)),
        Msg::SessionReply { session, ttl_ms, .. } => format!("lease {session:x}, TTL {}", seconds(*ttl_ms)),
        Msg::CreateLockNode { session, .. } => format!("Txn: if CreateRevision(lock/{session:x}) == 0 then Put"),
        Msg::ListLockNodes { .. } => "Get lock/ --prefix, sort by create revision".into(),
        Msg::WatchNode { token, .. } => format!("Watch DELETE of {}", SPEC.token.label(Some(*token))),
        Msg::CloseSession { .. } => "LeaseRevoke".into(),
        Msg::KeepAlive { .. } => "LeaseKeepAlive".into(),
        Msg::KeepAliveReply { alive: false, .. } => "lease not found (TTL 0)".into(),
        _ => return None,
    })
}
