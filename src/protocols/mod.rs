//! The lock approaches, written as actors on the `sim` world, plus the client (Process A, B, …)
//! and the storage with its fencing check. Messages and notes of every approach share one
//! vocabulary so the checker, the narrator and the UI treat them alike.

pub mod client;
pub mod db_lease;
pub mod redis;
pub mod redlock;
pub mod single_server;
pub mod storage;

use serde::Serialize;

use crate::sim::{self, NodeId};

/// Which acquisition of which client a write was made under (ground truth, not seen by storage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GrantRef {
    pub client: NodeId,
    pub attempt: u32,
}

/// Every message any node sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Msg {
    /// Take the lock on one server. Redis: `SET lock <value> NX PX <ttl_ms>` and, in the same
    /// script, `INCR lock:token`. Database: the guarded `INSERT … ON CONFLICT … DO UPDATE …
    /// WHERE expires_at < now() RETURNING token`. `value` is the client's random nonce.
    Acquire {
        req: u32,
        attempt: u32,
        value: u64,
        ttl_ms: i64,
    },
    AcquireReply {
        req: u32,
        granted: bool,
        token: Option<u64>,
    },
    /// Give the lock back. Redis: the Lua compare-and-delete (`safe`) or a plain `DEL`.
    /// Database: `UPDATE … SET expires_at = now()`, guarded by the token when `safe`.
    Release {
        req: u32,
        value: u64,
        token: Option<u64>,
        safe: bool,
    },
    ReleaseReply {
        req: u32,
        released: bool,
    },
    /// Storage: write the protected resource, presenting the fencing token if there is one.
    Write {
        req: u32,
        token: Option<u64>,
        grant: GrantRef,
    },
    WriteReply {
        req: u32,
        accepted: bool,
    },
    /// Redis replication stream: the primary's whole lock state (also its heartbeat).
    ReplicaSync {
        epoch: u64,
        key: Option<RedisKey>,
        counter: u64,
    },
    /// Redis failover: clients should now talk to `primary`.
    PrimaryChanged {
        primary: NodeId,
    },
}

/// The Redis lock key as it travels in the replication stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RedisKey {
    pub value: u64,
    pub owner: NodeId,
    /// Absolute wall-clock deadline: AOF and replication carry it this way.
    pub expires_wall_ms: i64,
}

/// Why an acquisition attempt failed (the client retries after a random delay).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AcquireFailure {
    /// The lock service said someone else holds it.
    Busy,
    /// No reply within `request_timeout_ms`.
    Timeout,
    /// Redlock: fewer than a majority of instances said OK.
    NoQuorum { granted: u32, needed: u32 },
    /// Redlock: a majority said OK, but so late that no validity time was left.
    ValidityExhausted { validity_ms: i64 },
}

/// What ended a client's belief that it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BeliefEnd {
    /// Its own validity timer (TTL measured from the request, on its monotonic clock) fired.
    ValidityExpired,
    /// It finished its writes and released.
    Released,
    /// Storage rejected its write (fencing).
    WriteRejected,
}

/// Protocol facts reported into the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// Client: starts an acquisition attempt.
    AcquireStarted { attempt: u32 },
    /// Client: the attempt failed; it retries after `retry_in_ms`.
    AcquireFailed { attempt: u32, reason: AcquireFailure, retry_in_ms: i64 },
    /// Client: accepted a grant and now believes it holds the lock until `validity_ms` passes.
    BeliefStarted { attempt: u32, token: Option<u64>, validity_ms: i64 },
    /// Client: stopped believing it holds the lock.
    BeliefEnded { reason: BeliefEnd },
    /// Client: sent its `n`-th write.
    WriteSent { n: u32, token: Option<u64> },
    /// Client: gave up waiting for a write's reply.
    WriteTimedOut { n: u32 },
    /// Client: sent its release.
    ReleaseSent,
    /// Client: done with the lock for this run.
    Finished,
    /// Lock service: committed `client`'s acquisition. For TTL locks (db, Redis) the lease ends
    /// when the server's wall clock reads `expires_wall_ms`; ensembles hold it for the session.
    LockCommitted { client: NodeId, attempt: u32, token: Option<u64>, expires_wall_ms: Option<i64> },
    /// Redis: the replica promoted itself after the primary was unreachable for 1 s.
    Promoted { epoch: u64 },
    /// Redis: a primary heard from a newer primary and became its replica.
    Demoted { epoch: u64, primary: NodeId },
    /// Lock service: refused `client` because `holder` holds it.
    LockBusy { client: NodeId, holder: NodeId },
    /// Lock service: the lease of `holder` expired by the server's wall clock.
    LockExpired { holder: NodeId },
    /// Lock service: an unlock from `by` removed `holder`'s lock (by ≠ holder: the plain-DEL bug).
    LockReleased { holder: NodeId, by: NodeId },
    /// Lock service: an unlock from `by` found the lock not theirs and left it alone.
    UnlockRefused { by: NodeId, holder: Option<NodeId> },
    /// Lock service: a restart kept nothing (no persistence); the counter restarts.
    StateLost { token_counter_was: u64 },
    /// Storage: a write arrived and was accepted or rejected.
    WriteApplied { client: NodeId, grant: GrantRef, token: Option<u64>, accepted: bool, highest_before: Option<u64> },
}

pub type Trace = sim::Trace<Msg, Note>;
pub type Event = sim::Event<Msg, Note>;
pub type EventKind = sim::EventKind<Msg, Note>;
pub type Ctx<'a> = sim::Ctx<'a, Msg, Note>;
pub type BoxedNode = Box<dyn sim::Node<Msg, Note>>;
