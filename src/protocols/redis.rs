//! A Redis server holding the lock key: `SET lock <value> NX PX <ttl>` with the INCR token taken
//! in the same script, the Lua compare-and-delete unlock (or a plain DEL), expiry by the
//! server's wall clock (a forward step expires keys at once), what a crash keeps under each
//! persistence setting, and optionally a replica with asynchronous replication (acknowledged
//! before it is replicated) that promotes itself when the primary has been silent for 1 s. Redlock's instances are the same
//! server without the token counter.

pub use super::config::Persistence;
use super::single_server::SingleServerAgent;
use super::spec::{
    common_captions, BeliefWords, Build, ConfigRules, Deadline, Holding, LeaseKind, Setting, Spec, TableMix, TablePlan, TokenKind, Words,
    Workload,
};
use super::{Ctx, Msg, Note, RedisKey};
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

const EXPIRY: u32 = 1;
const FSYNC: u32 = 2;
const HEARTBEAT: u32 = 3;
const FAILOVER: u32 = 4;
const FSYNC_EVERY_MS: i64 = 1000;
/// Besides each write, the primary sends its state this often when idle: the heartbeat by
/// which the replica knows it is alive, and what brings a replica up to date after a cut.
const HEARTBEAT_EVERY_MS: i64 = 100;
/// docs/SCENARIO_FORMAT.md: promoted when the primary has been unreachable for 1 s.
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
    /// The role it starts in.
    pub primary: bool,
}

/// What a Redis server is built with.
pub struct RedisConfig {
    pub persistence: Persistence,
    pub issues_tokens: bool,
    pub replication: Option<Replication>,
    /// `lock.restart_delay_ms`: after a restart it serves nothing for this long (0: at once).
    pub restart_delay_ms: i64,
}

/// What a Redis server keeps through a crash (see `Durable::crash` for what a crash loses).
pub struct RedisDisk {
    /// The append-only file as far as the server wrote it (the OS holds it) and as far as it
    /// was fsynced; nothing is written to it without persistence.
    aof: Data,
    fsynced: Data,
    /// The role, the epoch and the syncs sent as primary and applied as replica within it:
    /// what the config rewrite on failover and the replication offset saved with the dataset
    /// keep, whatever the persistence setting.
    primary: bool,
    epoch: u64,
    sent_seq: u64,
    applied_seq: u64,
}

impl Durable for RedisDisk {
    fn crash(&mut self, machine: bool) {
        if machine {
            self.aof = self.fsynced; // the OS's unwritten pages went down with the machine
        } else {
            self.fsynced = self.aof; // the OS writes out what the dead process wrote
        }
    }
}

/// A Redis server's process: its dataset in memory and its timers.
pub struct RedisServer {
    persistence: Persistence,
    issues_tokens: bool,
    /// The peer and the clients to tell of a failover, when replicated.
    replication: Option<(NodeId, Vec<NodeId>)>,
    data: Data,
    expiry: Option<TimerId>,
    failover: Option<TimerId>,
    restart_delay_ms: i64,
    /// A delayed restart: until this time on its monotonic clock it serves nothing.
    closed_until_ms: Option<i64>,
}

impl RedisServer {
    pub fn node(persistence: Persistence, issues_tokens: bool, replication: Option<Replication>, restart_delay_ms: i64) -> Host<RedisServer> {
        Host::from_config(RedisConfig { persistence, issues_tokens, replication, restart_delay_ms })
    }

    /// Only a primary expires keys; a replica waits for the primary's word.
    fn arm_expiry(&mut self, disk: &RedisDisk, ctx: &mut Ctx) {
        if let Some(t) = self.expiry.take() {
            ctx.cancel_timer(t);
        }
        if let (true, Some(key)) = (disk.primary, self.data.key) {
            self.expiry = Some(ctx.set_timer_at(key.expires_wall_ms, ClockKind::Wall, EXPIRY));
        }
    }

    /// Removes the key if the server's wall clock has passed its deadline (lazy expiry).
    fn expire_if_due(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx) {
        if let (true, Some(key)) = (disk.primary, self.data.key) {
            if ctx.wall_ms() >= key.expires_wall_ms {
                self.data.key = None;
                ctx.note(Note::LockExpired { holder: key.owner });
                self.wrote(disk, ctx);
            }
        }
    }

    /// After every change: append it to the AOF (and fsync it if `aof-always`), and stream it
    /// to the replica at once (SCENARIO_FORMAT: writes reach the replica after the network
    /// delay). Asynchronous: the client's reply does not wait for it, so a crash, a cut or a
    /// dropped replication message can still leave the replica without an acknowledged write.
    fn wrote(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx) {
        self.append(disk);
        self.stream(disk, ctx);
    }

    fn append(&self, disk: &mut RedisDisk) {
        if self.persistence != Persistence::None {
            disk.aof = self.data;
        }
        if self.persistence == Persistence::AofAlways {
            disk.fsynced = self.data;
        }
    }

    fn stream(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx) {
        if let (true, Some((peer, _))) = (disk.primary, &self.replication) {
            disk.sent_seq += 1;
            let (epoch, seq, key, counter) = (disk.epoch, disk.sent_seq, self.data.key, self.data.counter);
            ctx.send(*peer, Msg::ReplicaSync { epoch, seq, key, counter });
        }
    }

    fn arm_failover(&mut self, disk: &RedisDisk, ctx: &mut Ctx) {
        if let Some(t) = self.failover.take() {
            ctx.cancel_timer(t);
        }
        if !disk.primary {
            self.failover = Some(ctx.set_timer(FAILOVER_AFTER_MS, ClockKind::Mono, FAILOVER));
        }
    }

    fn set_role(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, primary: bool) {
        if self.replication.is_some() {
            disk.primary = primary;
        }
        self.arm_expiry(disk, ctx);
        self.arm_failover(disk, ctx);
    }

    fn on_sync(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, from: NodeId, sync: (u64, u64, Option<RedisKey>, u64)) {
        let (epoch, seq, key, counter) = sync;
        if epoch < disk.epoch {
            return; // an old primary that has not heard the news yet
        }
        if disk.primary {
            if epoch == disk.epoch {
                return;
            }
            ctx.note(Note::Demoted { epoch, primary: from });
        } else if epoch == disk.epoch && seq <= disk.applied_seq {
            return; // overtaken on the way by a newer sync
        }
        disk.epoch = epoch;
        disk.applied_seq = seq;
        self.data = Data { key, counter };
        self.append(disk);
        self.set_role(disk, ctx, false);
    }

    fn promote(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx) {
        disk.epoch += 1;
        ctx.note(Note::Promoted { epoch: disk.epoch });
        self.set_role(disk, ctx, true);
        self.expire_if_due(disk, ctx);
        if let Some((_, clients)) = &self.replication {
            for &c in clients {
                ctx.send(c, Msg::PrimaryChanged { primary: ctx.me() });
            }
        }
        self.stream(disk, ctx);
        ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
    }

    /// The owner-checked `PEXPIRE` (Redisson's renewal script): the key gets `ttl_ms` from
    /// now by this server's wall clock if it still holds `value`.
    fn extend(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, from: NodeId, (req, value, ttl_ms): (u32, u64, i64)) {
        let key = self.data.key.filter(|k| k.value == value);
        if let Some(k) = key {
            let expires_wall_ms = ctx.wall_ms() + ttl_ms;
            self.data.key = Some(RedisKey { expires_wall_ms, ..k });
            ctx.note(Note::LockExtended { holder: k.owner, expires_wall_ms });
            self.wrote(disk, ctx);
            self.arm_expiry(disk, ctx);
        }
        ctx.send(from, Msg::ExtendReply { req, extended: key.is_some() });
    }

    /// `SET lock <value> NX PX <ttl>` and the INCR, or the unlock.
    fn on_command(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, from: NodeId, msg: Msg) {
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
                self.wrote(disk, ctx);
                self.arm_expiry(disk, ctx);
                ctx.send(from, Msg::AcquireReply { req, granted: true, token });
            }
            Msg::Extend { req, value, ttl_ms } => self.extend(disk, ctx, from, (req, value, ttl_ms)),
            Msg::Release { req, value, safe, .. } => {
                let holder = self.data.key.map(|k| k.owner);
                let matches = self.data.key.is_some_and(|k| k.value == value);
                let released = holder.is_some() && (matches || !safe);
                if let (true, Some(holder)) = (released, holder) {
                    self.data.key = None;
                    ctx.note(Note::LockReleased { holder, by: from });
                    self.wrote(disk, ctx);
                } else {
                    ctx.note(Note::UnlockRefused { by: from, holder });
                }
                ctx.send(from, Msg::ReleaseReply { req, released });
            }
            _ => {}
        }
    }
}

impl Process for RedisServer {
    type Msg = Msg;
    type Note = Note;
    type Config = RedisConfig;
    type Durable = RedisDisk;

    fn fresh(config: &RedisConfig) -> RedisDisk {
        let primary = config.replication.as_ref().is_none_or(|r| r.primary);
        RedisDisk { aof: Data::default(), fsynced: Data::default(), primary, epoch: 0, sent_seq: 0, applied_seq: 0 }
    }

    /// The dataset is loaded from the AOF (empty without persistence).
    fn boot(config: &RedisConfig, disk: &RedisDisk, _: u32) -> Self {
        RedisServer {
            persistence: config.persistence,
            issues_tokens: config.issues_tokens,
            replication: config.replication.as_ref().map(|r| (r.peer, r.clients.clone())),
            data: disk.aof,
            expiry: None,
            failover: None,
            restart_delay_ms: config.restart_delay_ms,
            closed_until_ms: None,
        }
    }

    fn on_start(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx) {
        if self.persistence == Persistence::AofEverysec {
            ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
        }
        if self.replication.is_some() {
            ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
            self.arm_failover(disk, ctx);
        }
    }

    fn on_message(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        if self.closed_until_ms.is_some_and(|t| ctx.mono_ms() < t) {
            return; // a delayed restart: not serving yet, so no answer at all
        }
        if let Msg::ReplicaSync { epoch, seq, key, counter } = msg {
            self.on_sync(disk, ctx, from, (epoch, seq, key, counter));
            return;
        }
        if let (false, Some((peer, _))) = (disk.primary, &self.replication) {
            // A replica is read-only (READONLY error); tell the client where the primary is.
            ctx.send(from, Msg::PrimaryChanged { primary: *peer });
            return;
        }
        self.expire_if_due(disk, ctx);
        self.on_command(disk, ctx, from, msg);
    }

    fn on_timer(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, id: TimerId, tag: u32) {
        match tag {
            EXPIRY if self.expiry == Some(id) => {
                self.expiry = None;
                self.expire_if_due(disk, ctx);
                if self.data.key.is_some() {
                    self.arm_expiry(disk, ctx); // the wall clock was stepped back meanwhile
                }
            }
            FSYNC => {
                disk.fsynced = disk.aof;
                ctx.set_timer(FSYNC_EVERY_MS, ClockKind::Mono, FSYNC);
            }
            HEARTBEAT if disk.primary => {
                self.stream(disk, ctx);
                ctx.set_timer(HEARTBEAT_EVERY_MS, ClockKind::Mono, HEARTBEAT);
            }
            FAILOVER if self.failover == Some(id) => {
                self.failover = None;
                self.promote(disk, ctx);
            }
            _ => {}
        }
    }

    fn on_restart(&mut self, disk: &mut RedisDisk, ctx: &mut Ctx, dead: &Self) {
        if self.data != dead.data {
            ctx.note(Note::StateLost { token_counter_was: dead.data.counter });
        }
        // Expiry keeps "flowing" while the server is down: a key past its deadline goes at once.
        self.arm_expiry(disk, ctx);
        self.on_start(disk, ctx);
        if self.restart_delay_ms > 0 {
            self.closed_until_ms = Some(ctx.mono_ms() + self.restart_delay_ms);
            ctx.note(Note::RestartDelayed { for_ms: self.restart_delay_ms });
        }
    }
}

/// The Redis distributed-locks page's "delayed restarts": a restarted instance is kept
/// unavailable (it serves nothing) for this long, at least the longest TTL in use, so no lock
/// it forgot is still believed when it serves again. 0 (the default, as before): it serves at
/// once, with what its persistence kept.
pub const RESTART_DELAY: Setting = Setting::ms(
    "restart_delay_ms",
    0,
    600_000,
    0,
    "restart delay",
    "the Redis distributed-locks page's delayed restart: after a restart the instance serves nothing for this long (0: at once; redis.io/docs/latest/develop/use/patterns/distributed-locks, \"Performance, crash recovery and fsync\")",
);

/// Single-instance Redis (optionally with a replica) in the registry (see `registry`).
/// The table's Redis row (Redisson's too): without persistence, a restart forgets the counter.
pub const TABLE: TablePlan = TablePlan {
    label_suffix: ", no persistence",
    lock: |l| l.persistence = Persistence::None,
    mix: TableMix::CrashesAndPauses {
        server: "redis",
        words: "crashes without persistence and pauses: up to 3 crashes of the server or pauses of A and B, in the first 6 s",
    },
    ..TablePlan::claims(
        "a restart without persistence forgets the counter and hands a token out again: fencing with it can still lose the update",
    )
};

/// The table's Redis-with-a-replica row (Redisson's too): a failover to a replica behind.
pub const REPLICA_TABLE: TablePlan = TablePlan {
    mix: TableMix::CrashesAndPauses {
        server: "redis",
        words: "failover and pauses: up to 3 crashes of the primary or pauses of A and B, in the first 6 s",
    },
    runs: Some(4_000),
    ..TablePlan::claims(
        "a failover to a replica that has not seen the counter hands a token out again, and fencing with it loses the update",
    )
};

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
    deadline: Deadline::Reached,
    config: ConfigRules { settings: &[RESTART_DELAY], ..ConfigRules::PLAIN },
    workload: Workload::UnderLock,
    words: Words {
        lease: "key",
        ttl: "lease TTL",
        expired: "TTL expired",
        keepalive: "",
        roles: ["primary", "replica"],
        message: words,
        got: "gets the lock",
        caption: common_captions,
        belief: BeliefWords::LOCK,
    },
    table: TABLE,
    replica_table: Some(REPLICA_TABLE),
    build: Build {
        agent: |p| {
            let (server, ttl, timeout, safe) = (p.servers[0], p.lock.ttl_ms, p.lock.request_timeout_ms, p.lock.safe_unlock);
            Box::new(move |inc| Box::new(SingleServerAgent::new(inc, server, ttl, timeout, safe)))
        },
        server: |p, rank| {
            // With a replica, server 0 is the primary and server 1 its replica.
            let replication =
                p.lock.replica.then(|| Replication { peer: p.servers[1 - rank], clients: p.clients.clone(), primary: rank == 0 });
            Box::new(RedisServer::node(p.lock.persistence, true, replication, p.lock.get(&RESTART_DELAY)))
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
