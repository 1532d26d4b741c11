//! PostgreSQL session advisory locks: `SELECT pg_try_advisory_lock(1)` to take the lock,
//! `SELECT pg_advisory_unlock(1)` to give it back (PostgreSQL manual, "Advisory Locks" and
//! "Advisory Lock Functions"). The lock belongs to the server session, the backend serving one
//! client connection, and ends only with it: no TTL, no renewal, no token. A client that is
//! paused keeps its lock however long the pause, because its machine's kernel answers the
//! server's TCP keepalive probes without the process (`sim::Process::kernel`). A client that
//! is cut off keeps *believing*, and nothing tells it otherwise until its next query, while the
//! server's kernel probes the silent connection `tcp_keepalives_idle` after it last heard from
//! it, then every `tcp_keepalives_interval`, and after `tcp_keepalives_count` unanswered probes
//! closes it: the backend exits and its advisory locks are released, so another session takes
//! the lock. A client process that dies closes its connection at once (its kernel sends a FIN),
//! so its lock goes with it; a machine that goes down sends nothing and waits for keepalive.
//! Fencing needs a counter the resource checks: the lock hands out none.
//!
//! Modelled: one lock key; `lock.ttl_ms` is the server's `tcp_keepalives_idle` (the common
//! lifetime a silent client keeps its lock before the probes start), the interval and the count
//! are this approach's settings. PostgreSQL's own default for all three is 0, "use the
//! operating system's": on Linux 2 h, 75 s and 9 probes, so a cut-off client keeps its lock for
//! 2 h 11 min; the defaults here are a server set to find dead clients in seconds. A restarted
//! server has no sessions and no advisory locks (they live in shared memory).

use std::collections::BTreeMap;

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::spec::{BeliefWords, Build, ConfigRules, Deadline, Holding, LeaseKind, Setting, Spec, TablePlan, TokenKind, Words, Workload};
use super::{AcquireFailure, Ctx, EventKind, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::{ClockKind, Host, NodeId, Process, TimerId};

/// The lock's key, as the statements name it.
const KEY: u32 = 1;

/// `tcp_keepalives_interval`: how long the server's kernel waits for the answer to a probe
/// before the next.
pub const KEEPALIVE_INTERVAL: Setting = Setting::ms(
    "keepalive_interval_ms",
    1,
    600_000,
    1_000,
    "tcp_keepalives_interval",
    "PostgreSQL's tcp_keepalives_interval: after the idle time (lock.ttl_ms), the server probes a silent client connection this often (Linux's default: 75 s)",
);
/// `tcp_keepalives_count`: unanswered probes before the connection is closed.
pub const KEEPALIVE_COUNT: Setting = Setting::count(
    "keepalive_count",
    1,
    127,
    3,
    "probes",
    "tcp_keepalives_count",
    "PostgreSQL's tcp_keepalives_count: after this many unanswered probes the server closes the connection, ending the session and its advisory locks (Linux's default: 9)",
);

/// When a silent connection is found dead: the server's `tcp_keepalives_*` settings.
#[derive(Clone, Copy)]
pub struct Keepalive {
    idle_ms: i64,
    interval_ms: i64,
    count: i64,
}

impl Keepalive {
    fn of(lock: &super::LockConfig) -> Keepalive {
        Keepalive { idle_ms: lock.ttl_ms, interval_ms: lock.get(&KEEPALIVE_INTERVAL), count: lock.get(&KEEPALIVE_COUNT) }
    }

    /// How long after the last word from a client its session ends when no probe is answered.
    fn silence_ms(self) -> i64 {
        self.idle_ms + self.interval_ms * self.count
    }
}

/// One backend: a client connection and what its kernel knows of it.
struct Backend {
    client: NodeId,
    /// Unanswered keepalive probes since the client was last heard from.
    unanswered: i64,
    /// The next keepalive step (the idle time, or a probe's interval).
    timer: TimerId,
}

/// The PostgreSQL server: its backends by connection (the backend's pid stands for it) and
/// which one holds the advisory lock. All in memory: a restart has none.
pub struct PgServer {
    keepalive: Keepalive,
    backends: BTreeMap<u64, Backend>,
    holder: Option<u64>,
}

impl PgServer {
    /// Heard from connection `conn`: its keepalive starts over from idle.
    fn heard(&mut self, ctx: &mut Ctx, conn: u64) {
        let idle = self.keepalive.idle_ms;
        if let Some(b) = self.backends.get_mut(&conn) {
            ctx.cancel_timer(b.timer);
            b.unanswered = 0;
            b.timer = ctx.set_timer(idle, ClockKind::Mono, 0);
        }
    }

    /// The backend of `conn` exits (its connection was closed, or found dead): its session's
    /// advisory locks are released.
    fn end(&mut self, ctx: &mut Ctx, conn: u64) {
        let Some(b) = self.backends.remove(&conn) else { return };
        ctx.cancel_timer(b.timer);
        ctx.note(Note::SessionExpired { client: b.client, session: conn, lock_delay: None });
        if self.holder == Some(conn) {
            self.holder = None;
            ctx.note(Note::LockExpired { holder: b.client });
        }
    }

    fn holder_client(&self) -> Option<NodeId> {
        self.holder.and_then(|h| self.backends.get(&h)).map(|b| b.client)
    }
}

impl Process for PgServer {
    type Msg = Msg;
    type Note = Note;
    type Config = Keepalive;
    type Durable = ();

    fn fresh(_: &Keepalive) {}

    fn boot(keepalive: &Keepalive, _: &(), _: u32) -> Self {
        PgServer { keepalive: *keepalive, backends: BTreeMap::new(), holder: None }
    }

    fn on_message(&mut self, _: &mut (), ctx: &mut Ctx, from: NodeId, msg: Msg) {
        match msg {
            Msg::OpenSession { req, .. } => {
                // The postmaster forks a backend for the new connection.
                let conn = ctx.rng().next_u64();
                let timer = ctx.set_timer(self.keepalive.idle_ms, ClockKind::Mono, 0);
                self.backends.insert(conn, Backend { client: from, unanswered: 0, timer });
                ctx.note(Note::SessionOpened { client: from, session: conn, ttl_ms: self.keepalive.silence_ms() });
                ctx.send(from, Msg::SessionReply { req, session: conn, ttl_ms: self.keepalive.silence_ms() });
            }
            Msg::TcpAck { conn } => self.heard(ctx, conn),
            Msg::TcpClosed { conn } => self.end(ctx, conn),
            // A statement on a connection this server has no backend for (it ended, or the
            // server restarted since): the server's kernel resets it.
            Msg::Acquire { value: conn, .. } | Msg::Release { value: conn, .. } if !self.backends.contains_key(&conn) => {
                ctx.send(from, Msg::TcpClosed { conn })
            }
            Msg::Acquire { req, attempt, value: conn, .. } => {
                self.heard(ctx, conn);
                // SELECT pg_try_advisory_lock(1): true at once, or false without waiting. (A
                // session that already holds it would be granted it again, stacked; the client
                // never asks twice on one connection: see `PgAgent::on_timer`.)
                let granted = self.holder.is_none_or(|h| h == conn);
                if granted {
                    self.holder = Some(conn);
                    ctx.note(Note::LockCommitted { client: from, attempt, token: None, expires_wall_ms: None });
                } else if let Some(holder) = self.holder_client() {
                    ctx.note(Note::LockBusy { client: from, holder });
                }
                ctx.send(from, Msg::AcquireReply { req, granted, token: None });
            }
            Msg::Release { req, value: conn, .. } => {
                self.heard(ctx, conn);
                // SELECT pg_advisory_unlock(1): false, with a WARNING, if this session does not
                // hold it.
                let released = self.holder == Some(conn);
                if released {
                    self.holder = None;
                    ctx.note(Note::LockReleased { holder: from, by: from });
                } else {
                    ctx.note(Note::UnlockRefused { by: from, holder: self.holder_client() });
                }
                ctx.send(from, Msg::ReleaseReply { req, released });
            }
            _ => {}
        }
    }

    /// A connection's keepalive step: probe it, or close it after the last unanswered probe.
    fn on_timer(&mut self, _: &mut (), ctx: &mut Ctx, id: TimerId, _tag: u32) {
        let Some((&conn, b)) = self.backends.iter_mut().find(|(_, b)| b.timer == id) else { return };
        if b.unanswered >= self.keepalive.count {
            self.end(ctx, conn);
            return;
        }
        b.unanswered += 1;
        b.timer = ctx.set_timer(self.keepalive.interval_ms, ClockKind::Mono, 0);
        let client = b.client;
        ctx.send(client, Msg::TcpProbe { conn });
    }

    /// The postmaster died with its machine up: its kernel closes every client connection.
    fn on_death(&self) -> Vec<(NodeId, Msg)> {
        self.backends.iter().map(|(&conn, b)| (b.client, Msg::TcpClosed { conn })).collect()
    }
}

const REQUEST: u32 = AGENT_TAGS;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Idle,
    Connecting,
    Acquiring,
    Holding,
    Releasing,
}

/// A client's libpq connection and its lock statements.
pub struct PgAgent {
    server: NodeId,
    timeout_ms: i64,
    rpc: Rpc,
    /// The open connection (its backend), None before connecting and once it is found closed.
    conn: Option<u64>,
    attempt: u32,
    step: Step,
}

impl PgAgent {
    fn new(incarnation: u32, server: NodeId, timeout_ms: i64) -> Self {
        PgAgent { server, timeout_ms, rpc: Rpc::new(incarnation), conn: None, attempt: 0, step: Step::Idle }
    }

    fn try_lock(&mut self, ctx: &mut Ctx, conn: u64) {
        self.step = Step::Acquiring;
        let req = self.rpc.start(ctx, self.timeout_ms, REQUEST);
        ctx.send(self.server, Msg::Acquire { req, attempt: self.attempt, value: conn, ttl_ms: 0 });
    }
}

impl LockAgent for PgAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.attempt = attempt;
        match self.conn {
            Some(conn) => self.try_lock(ctx, conn),
            None => {
                self.step = Step::Connecting;
                let req = self.rpc.start(ctx, self.timeout_ms, REQUEST);
                let nonce = ctx.rng().next_u64();
                ctx.send(self.server, Msg::OpenSession { req, nonce, ttl_ms: 0 });
            }
        }
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        // A connection already found closed took the lock with it.
        let Some(conn) = self.conn else { return AgentEvent::Released };
        self.step = Step::Releasing;
        let req = self.rpc.start(ctx, self.timeout_ms, REQUEST);
        ctx.send(self.server, Msg::Release { req, value: conn, token: None, safe: true });
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::SessionReply { req, session, .. } if self.step == Step::Connecting && self.rpc.answer(ctx, req) => {
                self.conn = Some(session);
                self.try_lock(ctx, session);
                AgentEvent::Nothing
            }
            Msg::AcquireReply { req, granted, .. } if self.step == Step::Acquiring && self.rpc.answer(ctx, req) => {
                if granted {
                    self.step = Step::Holding;
                    AgentEvent::Acquired { token: None, validity_ms: None }
                } else {
                    self.step = Step::Idle;
                    AgentEvent::Failed(AcquireFailure::Busy)
                }
            }
            Msg::ReleaseReply { req, .. } if self.step == Step::Releasing && self.rpc.answer(ctx, req) => {
                self.step = Step::Idle;
                AgentEvent::Released
            }
            // The connection is closed (the server reset it or went away). libpq reads it only
            // at the client's next statement: a holder that is working learns nothing and goes
            // on believing; a statement under way fails.
            Msg::TcpClosed { conn } if self.conn == Some(conn) => {
                self.conn = None;
                match self.step {
                    Step::Acquiring | Step::Connecting => {
                        self.rpc.cancel(ctx);
                        self.step = Step::Idle;
                        AgentEvent::Failed(AcquireFailure::SessionExpired)
                    }
                    Step::Releasing => {
                        self.rpc.cancel(ctx);
                        self.step = Step::Idle;
                        AgentEvent::Released
                    }
                    Step::Idle | Step::Holding => AgentEvent::Nothing,
                }
            }
            _ => AgentEvent::Nothing,
        }
    }

    /// A statement got no answer in time: the connection is in an unknown state (the lock may
    /// have been granted, or released, or not), so the client closes it, as a pool discards a
    /// broken connection; its session, and any lock it holds, ends when the server sees the FIN
    /// or, if that is lost, when its next keepalive probe is answered with a reset. The next
    /// attempt connects afresh, so no session ever asks for the lock twice.
    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        if tag != REQUEST {
            return AgentEvent::Nothing;
        }
        self.rpc.time_out();
        if let Some(conn) = self.conn.take() {
            ctx.send(self.server, Msg::TcpClosed { conn });
        }
        let step = std::mem::replace(&mut self.step, Step::Idle);
        match step {
            Step::Connecting | Step::Acquiring => AgentEvent::Failed(AcquireFailure::Timeout),
            Step::Releasing => AgentEvent::Released,
            Step::Idle | Step::Holding => AgentEvent::Nothing,
        }
    }

    fn connection(&self) -> Option<(NodeId, u64)> {
        self.conn.map(|c| (self.server, c))
    }
}

pub const SPEC: Spec = Spec {
    id: "pg-advisory",
    label: "PostgreSQL advisory lock",
    short: "PG advisory",
    nodes: |_, _| vec!["postgres".into()],
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| Keepalive::of(l).silence_ms(),
    grant_rule: Some(|l| {
        let k = Keepalive::of(l);
        format!(
            "a session lock has no TTL: it ends with the session, which the server ends only when the client's connection closes or {} of silence pass (tcp_keepalives_idle {} + {} probes × {})",
            seconds(k.silence_ms()),
            seconds(k.idle_ms),
            k.count,
            seconds(k.interval_ms)
        )
    }),
    token: TokenKind::None,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Reached,
    config: ConfigRules { default_ttl_ms: 10_000, settings: &[KEEPALIVE_INTERVAL, KEEPALIVE_COUNT], per_client: &[], check: |_| Ok(()), fit: |_| {} },
    workload: Workload::UnderLock,
    words: Words {
        lease: "session",
        ttl: "tcp_keepalives_idle",
        expired: "session ended",
        keepalive: "keepalive probes",
        roles: ["primary", "standby"],
        message: words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("a paused client keeps the lock (its kernel answers keepalives); one cut off from PostgreSQL loses it after keepalive yet writes on"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (server, timeout) = (p.servers[0], p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(PgAgent::new(inc, server, timeout)))
        },
        server: |p, _| Box::new(Host::<PgServer>::from_config(Keepalive::of(p.lock))),
    },
};

/// A backend's process id, as `pg_stat_activity` would show it.
fn pid(conn: u64) -> u64 {
    10_000 + conn % 90_000
}

/// The SQL and the TCP a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match *msg {
        Msg::OpenSession { .. } => "connect (a backend per connection)".into(),
        Msg::SessionReply { session, .. } => format!("ready: backend pid {}", pid(session)),
        Msg::Acquire { .. } => format!("SELECT pg_try_advisory_lock({KEY})"),
        Msg::AcquireReply { granted: true, .. } => "t: this session holds it".into(),
        Msg::AcquireReply { granted: false, .. } => "f: another session holds it".into(),
        Msg::Release { .. } => format!("SELECT pg_advisory_unlock({KEY})"),
        Msg::ReleaseReply { released: true, .. } => "t: released".into(),
        Msg::ReleaseReply { released: false, .. } => "f: WARNING: you don't own a lock".into(),
        Msg::TcpProbe { conn } => format!("TCP keepalive probe (pid {})", pid(conn)),
        Msg::TcpAck { .. } => "ACK (the client's kernel)".into(),
        Msg::TcpClosed { conn } => format!("connection to pid {} closed", pid(conn)),
        _ => return None,
    })
}

/// The captions where a session lock differs from a lease: it is opened by connecting, ends
/// with the connection, and is found dead by TCP keepalive.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let note = match &e.kind {
        // A probe reaches the client's machine: its kernel answers, not its process.
        EventKind::Received { msg: Msg::TcpProbe { .. }, from, .. } => {
            return Some(format!(
                "{}'s keepalive probe reaches {me}'s machine: its kernel answers it, without {me}'s process.",
                trace.name(*from)
            ))
        }
        EventKind::Note(note) => note,
        _ => return None,
    };
    let name = |n: NodeId| trace.name(n).to_string();
    // Whether the session just ended because its connection was closed (a FIN), not silence.
    let closed = || {
        trace.events[..event]
            .iter()
            .rev()
            .take_while(|p| p.at_ms == e.at_ms)
            .any(|p| p.node == e.node && matches!(p.kind, EventKind::Received { msg: Msg::TcpClosed { .. }, .. }))
    };
    Some(match *note {
        Note::SessionOpened { client, ttl_ms, .. } => format!(
            "{} connects; its backend's session will hold the lock until the connection closes. If {} falls silent, the server probes after tcp_keepalives_idle and gives up {} after it last heard from it.",
            name(client),
            name(client),
            seconds(ttl_ms)
        ),
        Note::SessionExpired { client, .. } if closed() => {
            format!("{}'s connection is closed (its process is gone): the backend exits and its session ends.", name(client))
        }
        Note::SessionExpired { client, .. } => format!(
            "No keepalive probe to {} was answered: the server's kernel closes the connection, the backend exits and its session ends. {} is not told.",
            name(client),
            name(client)
        ),
        Note::BeliefStarted { .. } => format!(
            "{me} holds the lock (no token). It will believe so until it unlocks: if its session ends meanwhile, nothing tells it before its next statement."
        ),
        Note::LockExpired { holder } => {
            format!("{}'s advisory lock is released with its session: another session can take it now.", name(holder))
        }
        _ => return None,
    })
}
