//! The ZooKeeper lock recipe (docs/PROTOCOLS.md P4) in the registry: an ensemble (`ensemble`) of
//! `zk-N` servers whose lock nodes are EPHEMERAL_SEQUENTIAL znodes, their czxid the fencing
//! token, held while the client's session is kept alive by pings (`ensemble_client`).

use super::ensemble::{EnsembleServer, Service, Stamps};
use super::ensemble_client::EnsembleAgent;
use super::spec::{Deadline, 
    common_captions, numbered, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Spec, TablePlan, TokenKind, Words, Workload,
};
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
    granted_ttl: |l| ZooKeeper.granted_ttl(l.ttl_ms, l.tick_ms),
    grant_rule: Some(|l| {
        format!("negotiates session timeouts into {}–{} (2–20 × tickTime)", seconds(2 * l.tick_ms), seconds(20 * l.tick_ms))
    }),
    token: TokenKind::Czxid,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Reached,
    config: ConfigRules::PLAIN,
    workload: Workload::UnderLock,
    words: Words {
        lease: "session",
        ttl: "session timeout",
        expired: "session expired",
        keepalive: "pings",
        roles: ["leader", "follower"],
        message: words,
        got: "gets the lock",
        caption: common_captions,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("the token never repeats: with fencing on, nothing is lost"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (servers, ttl, timeout) = (p.servers.clone(), p.lock.ttl_ms, p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(EnsembleAgent::new(inc, servers.clone(), ttl, timeout, false, false)))
        },
        server: |p, rank| Box::new(EnsembleServer::node(&ZooKeeper, rank, p.servers.clone(), p.lock.tick_ms, 0)),
    },
};

/// ZooKeeper's own decisions on the ensemble.
pub struct ZooKeeper;

impl Service for ZooKeeper {
    /// A server negotiates the session timeout into [2, 20] × tickTime.
    fn granted_ttl(&self, requested_ms: i64, tick_ms: i64) -> i64 {
        requested_ms.clamp(2 * tick_ms, 20 * tick_ms)
    }

    /// Every tick, at multiples of it.
    fn expiry_period(&self, tick_ms: i64) -> i64 {
        tick_ms
    }

    /// The ExpiryQueue puts the deadline in the bucket of the next multiple of tickTime above
    /// it and expires a bucket when its time comes.
    fn expired(&self, heard_ms: i64, wait_ms: i64, now_ms: i64, tick_ms: i64) -> bool {
        ((heard_ms + wait_ms).div_euclid(tick_ms) + 1) * tick_ms <= now_ms
    }

    /// The czxid: the create's zxid.
    fn token(&self, stamps: Stamps) -> u64 {
        stamps.zxid
    }

    /// The server has closed that session's connection.
    fn session_gone(&self, session: u64) -> Msg {
        Msg::SessionClosed { session }
    }

    /// The leader closes an expired session's connection: the client notices that first (it
    /// cannot tell yet whether its session lives) and reconnects with its session id to learn.
    fn expiry_notice(&self, session: u64) -> Option<Msg> {
        Some(self.session_gone(session))
    }

    /// getChildren on a gone session's connection: that connection is closed too.
    fn gone_listing(&self, session: u64) -> Option<Msg> {
        Some(self.session_gone(session))
    }
}

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
