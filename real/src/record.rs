//! What passes between the harness and a client process: the client's job (one JSON line on
//! its stdin) and what it observed (JSON lines on its stdout, each stamped on the shared
//! monotonic clock).

use serde::{Deserialize, Serialize};

use crate::clock::TimeBase;

/// Which lock service a client talks to, and where.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Service {
    /// Single Redis (`addrs[0]`), and with a replica `addrs[1]`, tried when the first fails.
    Redis { addrs: Vec<String> },
    /// PostgreSQL: a libpq-style connection string.
    Postgres { conn: String },
    /// PostgreSQL's session advisory lock: a libpq-style connection string.
    PgAdvisory { conn: String },
    /// etcd: the JSON gateway of one member (`host:port`).
    Etcd { addr: String },
    /// ZooKeeper: the connect string (`host:port,host:port,…`).
    Zookeeper { addrs: String },
    /// Redlock: N independent Redis instances (`redis-1` … `redis-N`).
    Redlock { addrs: Vec<String> },
    /// Redisson's lock and watchdog on one Redis.
    Redisson { addr: String },
    /// No lock service: the object row in PostgreSQL, written with its version as the
    /// precondition (conditional-write).
    Versioned { conn: String },
}

/// One client process's job (docs/SCENARIO_FORMAT.md, "Semantics", Clients), in scenario ms.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub name: String,
    /// 0 for the process the run starts, one more after each restart.
    pub incarnation: u32,
    /// Acquisitions are numbered across a client's processes: this process's first is one more.
    pub attempts_before: u32,
    pub acquire_at_ms: i64,
    pub work_ms: i64,
    pub writes: u32,
    pub ttl_ms: i64,
    /// Wall ms per scenario ms (the lease the service is asked for is scaled too).
    pub scale: f64,
    pub retry_ms: [i64; 2],
    /// The wall-clock floor of any request's timeout (ms): a scaled 50 ms timeout would fail
    /// spuriously on a loaded machine, and a timeout the model never takes would change the run.
    pub timeout_floor_ms: u64,
    pub request_timeout_ms: i64,
    pub safe_unlock: bool,
    /// Redlock's clock drift factor.
    #[serde(default)]
    pub drift_factor: f64,
    /// Storage checks the precondition (conditional-write: the only storage is the database).
    #[serde(default)]
    pub fencing: bool,
    pub seed: u64,
    pub service: Service,
    pub storage: String,
    /// Known at start for a restarted process; the first processes wait for `go` on stdin.
    pub time: Option<TimeBase>,
}

/// Why an attempt failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The service answered: someone else holds it.
    Busy,
    /// No answer in time, or the connection failed.
    Unreachable,
    /// etcd, ZooKeeper: the lease or session expired while the client was still queued.
    SessionExpired,
    /// Redlock: fewer than a majority of instances said OK.
    NoQuorum { granted: u32, needed: u32 },
    /// Redlock: a majority said OK, but no validity was left.
    ValidityExhausted { validity_ms: i64 },
}

/// Why a belief ended (the model's `BeliefEnd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    ValidityExpired,
    Released,
    WriteRejected,
    /// etcd: a keepalive was answered with TTL 0; ZooKeeper: the session expired.
    SessionExpired,
}

/// What a client observed, as it happened.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "ev", rename_all = "snake_case")]
pub enum Seen {
    /// Connected and waiting for the start.
    Ready,
    AcquireStarted {
        attempt: u32,
    },
    /// The service granted the attempt; `sent_ns` is when the request left; `server`: which
    /// of the service's nodes granted it.
    Granted {
        attempt: u32,
        token: Option<u64>,
        sent_ns: i64,
        /// None for a lease kept alive (etcd): it believes until told otherwise.
        validity_ms: Option<i64>,
        server: usize,
        /// Redlock: each instance that said OK, with when (midway between its request and
        /// its answer); the grant is the majority's.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        commits: Vec<(usize, i64)>,
    },
    /// conditional-write: the database applied (or refused) a write, stamped midway between
    /// the request and its answer; `version_before` is what it was checked against.
    Applied {
        attempt: u32,
        token: Option<u64>,
        accepted: bool,
        version_before: Option<u64>,
        at_ns: i64,
    },
    AcquireFailed {
        attempt: u32,
        failure: Failure,
        retry_in_ms: i64,
    },
    WriteSent {
        attempt: u32,
        n: u32,
        token: Option<u64>,
    },
    WriteAnswered {
        n: u32,
        accepted: bool,
    },
    WriteTimedOut {
        n: u32,
    },
    BeliefEnded {
        reason: Ended,
    },
    ReleaseSent,
    /// The release's answer: whether it removed this client's lock.
    ReleaseAnswered {
        removed: bool,
    },
    Finished,
}

/// One line of a client's stdout.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Line {
    pub t_ns: i64,
    #[serde(flatten)]
    pub seen: Seen,
}
