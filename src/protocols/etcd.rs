//! The etcd mutex (docs/PROTOCOLS.md P5) in the registry: an ensemble (`ensemble`) of `etcd-N`
//! servers whose lock keys `pfx/<leaseID>` are ordered by create revision, the fencing token,
//! held while the client's lease is kept alive (`ensemble_client`).

use super::ensemble::{EnsembleServer, Service, Stamps, ELECTION_TIMEOUT_MS};
use super::ensemble_client::{EnsembleAgent, DEADLINE_CHECK_MS};
use super::spec::{Deadline, Setting, 
    numbered, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Spec, TablePlan, TokenKind, Words, Workload,
};
use super::{BeliefEnd, EventKind, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::ClockKind;

/// Which etcd's mutex (clientv3/concurrency, which the server's Lock API runs too). `"3.4.3"`:
/// a waiter whose keys before it are gone holds the lock without looking whether its own key
/// (and so its lease) still exists, and does not watch its session while it waits
/// (etcd-io/etcd#11456, found by Jepsen's etcd 3.4.3 analysis). `"fixed"` (the default, what
/// the model did before): PR #11408's Get of its own key before Lock returns, so a waiter whose
/// lease expired while it waited learns so and starts over.
pub const ETCD_VERSION: Setting = Setting::named(
    "etcd_version",
    &["fixed", "3.4.3"],
    0,
    "etcd version",
    "etcd's mutex: \"3.4.3\" grants a waiter whose lease expired while it waited (github.com/etcd-io/etcd/issues/11456; jepsen.io/analyses/etcd-3.4.3); \"fixed\" = with PR #11408 (github.com/etcd-io/etcd/pull/11408), which checks the waiter's own key first",
);

pub const SPEC: Spec = Spec {
    id: "etcd",
    label: "etcd mutex",
    short: "etcd",
    nodes: |_, n| numbered("etcd", n),
    default_servers: Some(3),
    holding: Holding::Replicated,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| Etcd.granted_ttl(l.ttl_ms, l.tick_ms),
    grant_rule: Some(|_| "grants whole-second lease TTLs of at least 2 s".into()),
    token: TokenKind::Revision,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Reached,
    // Each process grants its own lease (`concurrency.WithTTL`): etcd#9921 is a 20 s holder
    // and a 5 s waiter.
    config: ConfigRules { settings: &[ETCD_VERSION], per_client: &["ttl_ms"], ..ConfigRules::PLAIN },
    workload: Workload::UnderLock,
    words: Words {
        lease: "lease",
        ttl: "lease TTL",
        expired: "lease expired",
        keepalive: "keepalives",
        roles: ["leader", "follower"],
        message: words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("the token never repeats: with fencing on, nothing is lost"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (servers, ttl, timeout) = (p.servers.clone(), p.lock.ttl_ms, p.lock.request_timeout_ms);
            let blind = ETCD_VERSION.show(p.lock.get(&ETCD_VERSION)) == "3.4.3";
            Box::new(move |inc| Box::new(EnsembleAgent::new(inc, servers.clone(), ttl, timeout, true, blind)))
        },
        server: |p, rank| Box::new(EnsembleServer::node(&Etcd, rank, p.servers.clone(), p.lock.tick_ms, 0)),
    },
};

/// An etcd leader looks for expired leases this often (lessor's revoke loop), so a lease ends
/// 0–500 ms after its TTL (measured on etcd 3.4: 34–498 ms late).
pub const LEASE_CHECK_MS: i64 = 500;

/// etcd's own decisions on the ensemble. A revoked lease is not announced (the client learns at
/// its next keepalive), and a range read by a revoked lease's client is answered like any other.
pub struct Etcd;

impl Service for Etcd {
    /// Whole-second TTLs of at least ceil(1.5 × election timeout).
    fn granted_ttl(&self, requested_ms: i64, _tick_ms: i64) -> i64 {
        let secs = (requested_ms + 999) / 1000;
        secs.max((3 * ELECTION_TIMEOUT_MS / 2 + 999) / 1000) * 1000
    }

    fn expiry_period(&self, _tick_ms: i64) -> i64 {
        LEASE_CHECK_MS
    }

    /// The lessor's revoke loop ticks every 500 ms from when the server started.
    fn checks_from_process_start(&self) -> bool {
        true
    }

    /// A lease whose TTL has passed is revoked at the next check.
    fn expired(&self, heard_ms: i64, wait_ms: i64, now_ms: i64, _tick_ms: i64) -> bool {
        heard_ms + wait_ms < now_ms
    }

    /// The create revision (store-wide, bumped by every mutation).
    fn token(&self, stamps: Stamps) -> u64 {
        stamps.revision
    }

    /// "lease not found": a keepalive answered with TTL 0.
    fn session_gone(&self, session: u64) -> Msg {
        Msg::KeepAliveReply { session, alive: false }
    }
}

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

/// The captions where etcd's client has its own words: it gave up on its lease itself; on
/// etcd 3.4.3, it holds the lock though its own key is gone.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    if let EventKind::Note(Note::BeliefStarted { token, .. }) = e.kind {
        // The listing that let it in, the last it handled: "your node is gone" on 3.4.3.
        let listing = trace.events[..event].iter().rev().filter(|x| x.node == e.node).find_map(|x| match x.kind {
            EventKind::Received { msg: Msg::ListReply { mine, .. }, .. } => Some(mine),
            _ => None,
        });
        if listing == Some(None) {
            return Some(format!(
                "{me} now believes it holds the lock ({}): no key is left before its revision, and etcd 3.4.3's Lock returns without looking whether {me}'s own key still exists. It does not: etcd deleted it with {me}'s lease.",
                SPEC.token.label(token)
            ));
        }
        return None;
    }
    let EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::ValidityExpired }) = e.kind else { return None };
    // The TTL of the lease this client was last granted.
    let ttl = trace.events[..event].iter().rev().find_map(|x| match x.kind {
        EventKind::Note(Note::SessionOpened { client, ttl_ms, .. }) if client == e.node => Some(ttl_ms),
        _ => None,
    })?;
    Some(format!(
        "{me} has had no keepalive answer for its lease's TTL ({}): its etcd client closes the keep-alive channel (checked every {}) and the session's Done() fires. {me} stops believing it holds the lock and gives it back.",
        seconds(ttl),
        seconds(DEADLINE_CHECK_MS)
    ))
}
