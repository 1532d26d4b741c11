//! The lock approaches, written as actors on the `sim` world, plus the client (Process A, B, …)
//! and the storage with its fencing check. Messages and notes of every approach share one
//! vocabulary so the checker, the narrator and the UI treat them alike.

pub mod client;
pub mod config;
pub mod ensemble;
pub mod ensemble_client;
pub mod registry;
pub mod session_link;
pub mod single_server;
pub mod spec;
pub mod storage;
pub mod words;

pub use config::LockConfig;
pub use spec::Spec;

// The one list of approaches (registry.rs): a line declares the approach's module and registers
// it (its `Approach` variant, its place in `Approach::ALL` and its `SPEC`).
registry::approaches! {
    DbLease: db_lease,
    Redis: redis,
    Redlock: redlock,
    Zookeeper: zookeeper,
    Etcd: etcd,
    ConditionalWrite: conditional_write,
    K8sLease: k8s_lease,
    Redisson: redisson,
    Consul: consul,
    DynamodbLock: dynamodb_lock,
    PgAdvisory: pg_advisory,
}

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
    /// Database: `UPDATE … SET expires_at = now() WHERE … AND token = $tok` (`safe`) or a plain
    /// `DELETE FROM locks WHERE name = $n`.
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
    /// Redis: extend the lock if it is still this value's (Lua: `if GET == value then PEXPIRE
    /// ttl`): Redisson's watchdog renewal.
    Extend {
        req: u32,
        value: u64,
        ttl_ms: i64,
    },
    ExtendReply {
        req: u32,
        extended: bool,
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
    /// Conditional writes (no lock service): read the object's version (S3 `GET` → ETag, GCS
    /// generation, SQL `SELECT version`). The reply is the client's "grant".
    Read {
        req: u32,
        attempt: u32,
    },
    ReadReply {
        req: u32,
        version: u64,
    },
    /// Kubernetes: `GET` the Lease object (`coordination.k8s.io/v1`); None: there is none yet.
    GetLease {
        req: u32,
    },
    LeaseReply {
        req: u32,
        lease: Option<LeaseRecord>,
    },
    /// Kubernetes: create (`rv` None) or update the Lease, carrying the resourceVersion it
    /// read: optimistic concurrency, refused with a conflict if another update came first.
    /// `attempt`: the candidate's acquisition the update belongs to (ground truth).
    UpdateLease {
        req: u32,
        attempt: u32,
        rv: Option<u64>,
        lease: LeaseRecord,
    },
    UpdateReply {
        req: u32,
        /// The record as stored (with its new resourceVersion), or None: a conflict.
        stored: Option<LeaseRecord>,
    },
    /// Ensemble (ZooKeeper/etcd) client requests, sent to the leader.
    /// ZooKeeper: connect (session); etcd: `LeaseGrant(TTL)`.
    OpenSession {
        req: u32,
        nonce: u64,
        ttl_ms: i64,
    },
    SessionReply {
        req: u32,
        session: u64,
        ttl_ms: i64,
    },
    /// ZooKeeper: `create /lock/guid-lock- EPHEMERAL_SEQUENTIAL`; etcd: `Txn(If CreateRevision(pfx/<lease>) == 0, Put(…, lease))`.
    CreateLockNode {
        req: u32,
        session: u64,
        attempt: u32,
    },
    CreateReply {
        req: u32,
        token: u64,
    },
    /// Consul: `PUT kv?acquire=` answered false: the key is held (`holder`: its LockIndex) or,
    /// with nobody holding it, a lock-delay is in force.
    AcquireRefused {
        req: u32,
        holder: Option<u64>,
        lock_delay: bool,
    },
    /// ZooKeeper: `getChildren /lock`; etcd: `Get pfx --prefix` sorted by create revision.
    ListLockNodes {
        req: u32,
        session: u64,
        /// etcd 3.4.3's `waitDeletes` (`lock.etcd_version`): the last key created before this
        /// revision, the client's own, whether or not its key still exists.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<u64>,
    },
    /// `mine`: this session's node, if it still exists; `predecessor`: the next-lower node.
    ListReply {
        req: u32,
        mine: Option<u64>,
        predecessor: Option<u64>,
    },
    /// ZooKeeper: `exists(pred, watch)`; etcd: `Watch(pred key)` for its DELETE. A watch belongs
    /// to the session (connection) that set it.
    WatchNode {
        req: u32,
        token: u64,
        session: u64,
    },
    WatchReply {
        req: u32,
        exists: bool,
    },
    /// The watched node was deleted.
    WatchFired {
        token: u64,
        session: u64,
    },
    /// Unlock: ZooKeeper `delete` of the own node; etcd `Delete` of the own key.
    DeleteLockNode {
        req: u32,
        session: u64,
    },
    DeleteReply {
        req: u32,
    },
    /// The client is done: close the session / revoke the lease.
    CloseSession {
        req: u32,
        session: u64,
    },
    CloseReply {
        req: u32,
    },
    /// ZooKeeper session ping / etcd `LeaseKeepAlive`. `watching`: the node a waiter is
    /// watching, so the server can (re)register the watch and fire it if the node is already
    /// gone — what a real client's watch re-registration does (ZooKeeper's SetWatches, etcd's
    /// watch resume from a revision): a watch event is never lost while the session lives.
    KeepAlive {
        session: u64,
        watching: Option<u64>,
    },
    KeepAliveReply {
        session: u64,
        alive: bool,
    },
    /// ZooKeeper: the server closed this session's connection (the session expired, or a
    /// request named a session that no longer exists).
    SessionClosed {
        session: u64,
    },
    /// ZooKeeper: a client whose connection closed reconnects with its session id; answered
    /// with `SessionReply` if the session lives, else `ReconnectRefused`.
    Reconnect {
        req: u32,
        session: u64,
    },
    /// ZooKeeper: "session expired" — the reconnect is refused: the session is gone.
    ReconnectRefused {
        req: u32,
        session: u64,
    },
    /// Not the leader: try `leader` (None: unknown, try another server).
    NotLeader {
        req: u32,
        leader: Option<NodeId>,
    },
    /// Ensemble replication (Raft-style; Zab differs in detail, not in what the lock sees).
    Append {
        epoch: u64,
        prev_len: u32,
        prev_epoch: u64,
        entries: Vec<Entry>,
        commit: u32,
    },
    AppendReply {
        epoch: u64,
        ok: bool,
        len: u32,
    },
    RequestVote {
        epoch: u64,
        last_len: u32,
        last_epoch: u64,
    },
    VoteReply {
        epoch: u64,
        granted: bool,
    },
    /// Redis replication stream: the primary's whole lock state (also its heartbeat), sent
    /// after each write and when idle. `seq` orders it: the network may deliver two syncs out
    /// of order, a replication connection does not.
    ReplicaSync {
        epoch: u64,
        seq: u64,
        key: Option<RedisKey>,
        counter: u64,
    },
    /// Redis failover: clients should now talk to `primary`.
    PrimaryChanged {
        primary: NodeId,
    },
    /// TCP keepalive (PostgreSQL's `tcp_keepalives_idle/interval/count`): the server's kernel
    /// probes connection `conn` after it has been idle. Answered by the client machine's kernel,
    /// never by its process (`sim::Process::kernel`): a paused process's connection stays up.
    TcpProbe {
        conn: u64,
    },
    /// The client's kernel: connection `conn` is open (the ACK to a probe).
    TcpAck {
        conn: u64,
    },
    /// A kernel: connection `conn` is closed. The FIN the kernel of a process that died sends
    /// on each of its connections, or the reset its kernel answers a probe of a connection no
    /// live process has.
    TcpClosed {
        conn: u64,
    },
}

impl Msg {
    /// Whether the message is a TCP segment of a kernel's own (`TcpProbe`, `TcpAck`,
    /// `TcpClosed`): a node's kernel sends and receives these while its process is paused or
    /// dead, as long as its machine is up (the checker's `handled-only-when-up` knows it).
    pub fn is_kernels(&self) -> bool {
        matches!(self, Msg::TcpProbe { .. } | Msg::TcpAck { .. } | Msg::TcpClosed { .. })
    }
}

/// One entry of an ensemble's replicated log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub epoch: u64,
    pub op: Op,
}

/// A state change an ensemble commits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// A new leader's first entry: committing it commits everything before it.
    Noop,
    OpenSession {
        client: NodeId,
        nonce: u64,
        ttl_ms: i64,
    },
    CloseSession {
        session: u64,
        expired: bool,
    },
    CreateLockNode {
        session: u64,
        client: NodeId,
        attempt: u32,
    },
    DeleteLockNode {
        session: u64,
        by: NodeId,
    },
}

/// A Kubernetes Lease's spec and metadata as the leader-election code reads and writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseRecord {
    /// `holderIdentity`: the holding process (None: released, an empty holder).
    pub holder: Option<NodeId>,
    /// The identity string of that process (a random id per process, as client-go's
    /// hostname + UUID); 0 when empty.
    pub identity: u64,
    /// `leaseDurationSeconds`, in ms (whole seconds).
    pub duration_ms: i64,
    /// `leaseTransitions`.
    pub transitions: u64,
    /// `metadata.resourceVersion`, set by the apiserver on every update.
    pub rv: u64,
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
    /// The lock was granted (Redlock: by a majority), but so late that no validity time was left
    /// by the client's clock; it gives the lock back.
    ValidityExhausted { validity_ms: i64 },
    /// ZooKeeper/etcd: the session or lease expired while the client was still queued.
    SessionExpired,
}

/// Where a client process is in its job (acquire, write, release).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientPhase {
    /// Not yet started, or between attempts.
    Waiting,
    /// An acquisition is under way.
    Acquiring,
    /// It believes it holds the lock.
    Holding,
    /// Its release is under way.
    Releasing,
    /// It has released: the job is done.
    Done,
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
    /// A reply from the ensemble said its session (ZooKeeper) or lease (etcd) had expired.
    SessionExpired,
}

/// Consul's lock-delay as a session's invalidation applies it: the session's (`asked_ms`) and
/// what Consul enforces (`applied_ms`: capped at `structs.MaxLockDelay`, 60 s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LockDelay {
    pub asked_ms: i64,
    pub applied_ms: i64,
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
    /// `validity_ms` is None for session/lease-based locks: it believes until told otherwise.
    BeliefStarted { attempt: u32, token: Option<u64>, validity_ms: Option<i64> },
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
    /// Client: restarted after a crash as a new process (`incarnation` 1, 2, …) that remembers
    /// nothing and starts its job over. `predecessor`: where the dead process was in its job; if
    /// it was holding (or acquiring, or releasing), what it had at the lock service stays there
    /// until it expires.
    StartedOver { incarnation: u32, predecessor: ClientPhase },
    /// Lock service: committed `client`'s acquisition. For TTL locks (db, Redis) the lease ends
    /// when the server's wall clock reads `expires_wall_ms`; ensembles hold it for the session.
    LockCommitted { client: NodeId, attempt: u32, token: Option<u64>, expires_wall_ms: Option<i64> },
    /// Ensemble: this server won an election and leads `epoch`.
    LeaderElected { epoch: u64 },
    /// Ensemble: this leader lost contact with a majority and stepped down.
    SteppedDown { epoch: u64 },
    /// Ensemble: a session (ZooKeeper) or lease (etcd) was created with this timeout/TTL.
    SessionOpened { client: NodeId, session: u64, ttl_ms: i64 },
    /// ZooKeeper client: its connection was closed. It cannot tell whether its session (and
    /// lock) survives: Disconnected, Curator's SUSPENDED; it keeps believing and reconnects.
    Disconnected { session: u64 },
    /// ZooKeeper client: its reconnect was accepted; the session lives.
    Reconnected { session: u64 },
    /// Ensemble: the leader expired a session/lease it had not heard from in time. `lock_delay`:
    /// the lock-delay its lock is now held back for (Consul, when the session held the key).
    SessionExpired {
        client: NodeId,
        session: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        lock_delay: Option<LockDelay>,
    },
    /// Ensemble: `client`'s node joined the queue with this token (czxid / create revision).
    LockQueued { client: NodeId, token: u64 },
    /// Redis: the replica promoted itself after the primary was unreachable for 1 s.
    Promoted { epoch: u64 },
    /// Redis: a primary heard from a newer primary and became its replica.
    Demoted { epoch: u64, primary: NodeId },
    /// Client (Redisson): it asks for the lock with an explicit `leaseTime` of `lease_ms`, so
    /// no watchdog will renew it (`lock.lease_time_ms`).
    FixedLease { lease_ms: i64 },
    /// Redis: the watchdog's renewal set `holder`'s key to expire at `expires_wall_ms`.
    LockExtended { holder: NodeId, expires_wall_ms: i64 },
    /// Lock service: refused `client` because `holder` holds it.
    LockBusy { client: NodeId, holder: NodeId },
    /// Lock service: the lease of `holder` expired by the server's wall clock.
    LockExpired { holder: NodeId },
    /// Lock service: an unlock from `by` removed `holder`'s lock (by ≠ holder: the plain-DEL bug).
    LockReleased { holder: NodeId, by: NodeId },
    /// Lock service: an unlock from `by` found the lock not theirs and left it alone.
    UnlockRefused { by: NodeId, holder: Option<NodeId> },
    /// Database: a plain release (`DELETE FROM locks WHERE name = $n`) by `by` removed the row of
    /// `owner` (live or already expired); with it goes the token column, so the next grant
    /// inserts a fresh row with token 1 (`token_was` was the row's).
    RowDeleted { owner: NodeId, by: NodeId, token_was: u64 },
    /// Redis: restarted, it serves nothing for `for_ms` (`lock.restart_delay_ms`, a delayed restart).
    RestartDelayed { for_ms: i64 },
    /// Lock service: a restart kept nothing (no persistence); the counter restarts.
    StateLost { token_counter_was: u64 },
    /// Storage (conditional writes): answered `client`'s read with the object's `version`: the
    /// client's grant, for the checker (a conditional write's "grant" is its read).
    VersionRead { client: NodeId, attempt: u32, version: u64 },
    /// Storage: a write arrived and was accepted or rejected.
    WriteApplied { client: NodeId, grant: GrantRef, token: Option<u64>, accepted: bool, highest_before: Option<u64> },
}

pub type Trace = sim::Trace<Msg, Note>;
pub type Event = sim::Event<Msg, Note>;
pub type EventKind = sim::EventKind<Msg, Note>;
pub type Ctx<'a> = sim::Ctx<'a, Msg, Note>;
pub type BoxedNode = Box<dyn sim::Node<Msg, Note>>;
