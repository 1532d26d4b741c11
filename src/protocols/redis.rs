//! A Redis server holding the lock key: `SET lock <value> NX PX <ttl>` with the INCR token taken
//! in the same script, the Lua compare-and-delete unlock (or a plain DEL), expiry by the
//! server's wall clock (a forward step expires keys at once), what a crash keeps under each
//! persistence setting, and optionally a replica with asynchronous replication (acknowledged
//! before it is replicated) that promotes itself when the primary has been silent for 1 s. Redlock's instances are the same
//! server without the token counter.

pub use super::config::Persistence;
use super::single_server::SingleServerAgent;
use super::spec::{Build, Holding, LeaseKind, Spec, TokenKind, Words};
use super::{Ctx, Msg, Note, RedisKey};
use crate::sim::{ClockKind, Node, NodeId, TimerId};

const EXPIRY: u32 = 1;
const FSYNC: u32 = 2;
const HEARTBEAT: u32 = 3;
const FAILOVER: u32 = 4;
const FSYNC_EVERY_MS: i64 = 1000;
/// Besides each write, the primary sends its state this often when idle: the heartbeat by
/// which the replica knows it is alive, and what brings a replica up to date after a cut.
const HEARTBEAT_EVERY_MS: i64 = 100;
/// SCENARIO_FORMAT.md: promoted when the primary has been unreachable for 1 s.
const FAILOVER_AFTER_MS: i64 = 1000;

/// Everything the server stores: the lock key and the token counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Data {
    key: Option<RedisKey>,
    counter: u64,
}

/// The primary/replica pair, when `lock.replica` is on.
pub struct Replication {
    pub peer: NodeId,
    pub clients: Vec<NodeId>,
    pub primary: bool,
}

pub struct RedisServer {
    persistence: Persistence,
    issues_tokens: bool,
    replication: Option<Replication>,
    epoch: u64,
    /// Syncs sent as primary (kept across restarts, like a replication offset), and the
    /// newest one applied as replica, within `epoch`.
    sent_seq: u64,
    applied_seq: u64,
    data: Data,
    /// What the last fsync put on disk (aof-everysec).
    synced: Data,
    expiry: Option<TimerId>,
    failover: Option<TimerId>,
    lost_in_crash: Option<u64>,
}

impl RedisServer {
    pub fn new(persistence: Persistence, issues_tokens: bool, replication: Option<Replication>) -> Self {
        RedisServer {
            persistence,
            issues_tokens,
            replication,
            epoch: 0,
            sent_seq: 0,
            applied_seq: 0,
            data: Data::default(),
            synced: Data::default(),
            expiry: None,
            failover: None,
            lost_in_crash: None,
        }
    }

    fn is_primary(&self) -> bool {
        self.replication.as_ref().is_none_or(|r| r.primary)
    }

    /// Only a primary expires keys; a replica waits for the primary's word.
    fn arm_expiry(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.expiry.take() {
            ctx.cancel_timer(t);
        }
        if let (true, Some(key)) = (self.is_primary(), self.data.key) {
            self.expiry = Some(ctx.set_timer_at(key.expires_wall_ms, ClockKind::Wall, EXPIRY));
        }
    }

    /// Removes the key if the server's wall clock has passed its deadline (lazy expiry).
    fn expire_if_due(&mut self, ctx: &mut Ctx) {
        if let (true, Some(key)) = (self.is_primary(), self.data.key) {
            if ctx.wall_ms() >= key.expires_wall_ms {
                self.data.key = None;
                ctx.note(Note::LockExpired { holder: key.owner });
                self.wrote(ctx);
            }
        }
    }

    /// After every change: fsync if `aof-always`, and stream the change to the replica at once
    /// (SCENARIO_FORMAT: writes reach the replica after the network delay). Asynchronous: the
    /// client's reply does not wait for it, so a crash, a cut or a dropped replication message
    /// can still leave the replica without an acknowledged write.
    fn wrote(&mut self, ctx: &mut Ctx) {
        if self.persistence == Persistence::AofAlways {
            self.synced = self.data;
        }
        self.stream(ctx);
    }

    fn stream(&mut self, ctx: &mut Ctx) {
        if let (true, Some(r)) = (self.is_primary(), &self.replication) {
            self.sent_seq += 1;
            let (epoch, seq, key, counter) = (self.epoch, self.sent_seq, self.data.key, self.data.counter);
            ctx.send(r.peer, Msg::ReplicaSync { epoch, seq, key, counter });
        }
    }

    fn arm_failover(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.failover.take() {
            ctx.cancel_timer(t);
        }
        if !self.is_primary() {
            self.failover = Some(ctx.set_timer(FAILOVER_AFTER_MS, ClockKind::Mono, FAILOVER));
        }
    }

    fn set_role(&mut self, ctx: &mut Ctx, primary: bool) {
        if let Some(r) = self.replication.as_mut() {
            r.primary = primary;
        }
        self.arm_expiry(ctx);
        self.arm_failover(ctx);
    }

    fn on_sync(&mut self, ctx: &mut Ctx, from: NodeId, epoch: u64, seq: u64, key: Option<RedisKey>, counter: u64) {
        if epoch < self.epoch {
            return; // an old primary that has not heard the news yet
        }
        if self.is_primary() {
            if epoch == self.epoch {
                return;
            }
            ctx.note(Note::Demoted { epoch, primary: from });
        } else if epoch == self.epoch && seq <= self.applied_seq {
            return; // overtaken on the way by a newer sync
        }
        self.epoch = epoch;
        self.applied_seq = seq;
        self.data = Data { key, counter };
        if self.persistence == Persistence::AofAlways {
            self.synced = self.data;
        }
        self.set_role(ctx, false);
    }

    fn promote(&mut self, ctx: &mut Ctx) {
        self.epoch += 1;
        ctx.note(Note::Promoted { epoch: self.epoch });
        self.set_role(ctx, true);
        self.expire_if_due(ctx);
        if let Some(r) = &self.replication {
            for &c in &r.clients {
                ctx.send(c, Msg::PrimaryChanged { primary: ctx.me() });
            }
        }
        self.stream(ctx);
        ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
    }
}

impl Node<Msg, Note> for RedisServer {
    fn on_start(&mut self, ctx: &mut Ctx) {
        if self.persistence == Persistence::AofEverysec {
            ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
        }
        if self.replication.is_some() {
            ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
            self.arm_failover(ctx);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        if let Msg::ReplicaSync { epoch, seq, key, counter } = msg {
            self.on_sync(ctx, from, epoch, seq, key, counter);
            return;
        }
        if let (false, Some(r)) = (self.is_primary(), &self.replication) {
            // A replica is read-only (READONLY error); tell the client where the primary is.
            ctx.send(from, Msg::PrimaryChanged { primary: r.peer });
            return;
        }
        self.expire_if_due(ctx);
        match msg {
            Msg::Acquire { req, attempt, value, ttl_ms } => {
                if let Some(key) = self.data.key {
                    ctx.note(Note::LockBusy { client: from, holder: key.owner });
                    ctx.send(from, Msg::AcquireReply { req, granted: false, token: None });
                    return;
                }
                let expires_wall_ms = ctx.wall_ms() + ttl_ms;
                self.data.key = Some(RedisKey { value, owner: from, expires_wall_ms });
                let token = self.issues_tokens.then(|| {
                    self.data.counter += 1;
                    self.data.counter
                });
                ctx.note(Note::LockCommitted { client: from, attempt, token, expires_wall_ms: Some(expires_wall_ms) });
                self.wrote(ctx);
                self.arm_expiry(ctx);
                ctx.send(from, Msg::AcquireReply { req, granted: true, token });
            }
            Msg::Release { req, value, safe, .. } => {
                let holder = self.data.key.map(|k| k.owner);
                let matches = self.data.key.is_some_and(|k| k.value == value);
                let released = holder.is_some() && (matches || !safe);
                if let (true, Some(holder)) = (released, holder) {
                    self.data.key = None;
                    ctx.note(Note::LockReleased { holder, by: from });
                    self.wrote(ctx);
                } else {
                    ctx.note(Note::UnlockRefused { by: from, holder });
                }
                ctx.send(from, Msg::ReleaseReply { req, released });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, id: TimerId, tag: u32) {
        match tag {
            EXPIRY if self.expiry == Some(id) => {
                self.expiry = None;
                self.expire_if_due(ctx);
                if self.data.key.is_some() {
                    self.arm_expiry(ctx); // the wall clock was stepped back meanwhile
                }
            }
            FSYNC => {
                self.synced = self.data;
                ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
            }
            HEARTBEAT if self.is_primary() => {
                self.stream(ctx);
                ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
            }
            FAILOVER if self.failover == Some(id) => {
                self.failover = None;
                self.promote(ctx);
            }
            _ => {}
        }
    }

    fn on_crash(&mut self, machine: bool) {
        self.expiry = None;
        self.failover = None;
        let kept = match self.persistence {
            Persistence::None => Data::default(),
            Persistence::AofEverysec if machine => self.synced,
            Persistence::AofEverysec | Persistence::AofAlways => self.data,
        };
        self.lost_in_crash = (kept != self.data).then_some(self.data.counter);
        self.data = kept;
        self.synced = kept;
    }

    fn on_restart(&mut self, ctx: &mut Ctx) {
        if let Some(counter) = self.lost_in_crash.take() {
            ctx.note(Note::StateLost { token_counter_was: counter });
        }
        // Expiry keeps "flowing" while the server is down: a key past its deadline goes at once.
        self.arm_expiry(ctx);
        self.on_start(ctx);
    }
}

/// Single-instance Redis (optionally with a replica) in the registry (see `registry`).
pub const SPEC: Spec = Spec {
    id: "redis",
    label: "Redis SET NX PX",
    short: "Redis",
    nodes: |l, _| if l.replica { vec!["redis".into(), "redis-replica".into()] } else { vec!["redis".into()] },
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::FixedTtl,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::Counter,
    safe_unlock: true,
    persistence: true,
    replica: true,
    drift_factor: false,
    expiry_clock: ClockKind::Wall,
    words: Words { lease: "key", ttl: "lease TTL", expired: "TTL expired", keepalive: "", roles: ["primary", "replica"], message: words },
    build: Build {
        agent: |p| {
            let (server, ttl, timeout, safe) = (p.servers[0], p.lock.ttl_ms, p.lock.request_timeout_ms, p.lock.safe_unlock);
            Box::new(move |inc| Box::new(SingleServerAgent::new(inc, server, ttl, timeout, safe)))
        },
        server: |p, rank| {
            // With a replica, server 0 is the primary and server 1 its replica.
            let replication =
                p.lock.replica.then(|| Replication { peer: p.servers[1 - rank], clients: p.clients.clone(), primary: rank == 0 });
            Box::new(RedisServer::new(p.lock.persistence, true, replication))
        },
    },
};

/// The Redis commands a lock message stands for (Redlock's instances speak the same).
pub(super) fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::Acquire { ttl_ms, value, .. } => format!("SET lock {:04x}… NX PX {ttl_ms}", value & 0xffff),
        Msg::AcquireReply { granted: true, token: Some(t), .. } => format!("OK, {}", SPEC.token.label(Some(*t))),
        Msg::AcquireReply { granted: true, token: None, .. } => "OK".into(),
        Msg::AcquireReply { granted: false, .. } => "nil (key exists)".into(),
        Msg::Release { safe: true, value, .. } => format!("EVAL compare-and-delete {:04x}…", value & 0xffff),
        Msg::Release { safe: false, .. } => "DEL lock".into(),
        _ => return None,
    })
}
