//! Redisson's lock with its watchdog (docs/PROTOCOLS.md P10): the Redis server of `redis` (with its
//! persistence and optional replica), locked and unlocked as there (Redisson's owner check is
//! its hash field: the unlock is always owner-checked), with a lease of `lock.ttl_ms`
//! (lockWatchdogTimeout, 30 s) that a timer in the client process re-sets every third of it
//! while the client holds the lock. The watchdog is part of the process: a pause freezes it
//! too, and a renewal that finds the key gone stops it without telling the code holding the
//! lock. There is no validity timer: a holder's belief ends only at a rejected write, its
//! release or its crash. `lock.lease_time_ms` is `lock(leaseTime, unit)`: the key gets that
//! lease and no watchdog runs, so it expires then whatever the holder is doing.

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::redis;
use super::spec::{BeliefWords, Build, ConfigRules, Deadline, Holding, LeaseKind, Setting, Spec, TokenKind, Words, Workload};
use super::{AcquireFailure, Ctx, EventKind, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::{ClockKind, NodeId, TimerId};

const ACQUIRE_TIMEOUT: u32 = AGENT_TAGS;
const RELEASE_TIMEOUT: u32 = AGENT_TAGS + 1;
const WATCHDOG: u32 = AGENT_TAGS + 2;

/// One process's Redisson lock and its watchdog.
pub struct WatchdogAgent {
    server: NodeId,
    ttl_ms: i64,
    /// An explicit leaseTime (`lock.lease_time_ms`): the key's lease, with no watchdog.
    lease_time_ms: Option<i64>,
    timeout_ms: i64,
    rpc: Rpc,
    value: u64,
    token: Option<u64>,
    releasing: bool,
    /// The renewal timer, while the lock is held and the watchdog has not stopped.
    watchdog: Option<TimerId>,
}

impl WatchdogAgent {
    pub fn new(incarnation: u32, server: NodeId, ttl_ms: i64, lease_time_ms: Option<i64>, timeout_ms: i64) -> Self {
        WatchdogAgent { server, ttl_ms, lease_time_ms, timeout_ms, rpc: Rpc::new(incarnation), value: 0, token: None, releasing: false, watchdog: None }
    }

    fn arm_watchdog(&mut self, ctx: &mut Ctx) {
        self.watchdog = Some(ctx.set_timer((self.ttl_ms / 3).max(1), ClockKind::Mono, WATCHDOG));
    }

    fn stop_watchdog(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.watchdog.take() {
            ctx.cancel_timer(t);
        }
    }
}

impl LockAgent for WatchdogAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.releasing = false;
        // Redisson's owner id (a UUID and the thread id); random per attempt, as in `redis`.
        self.value = ctx.rng().next_u64();
        if let Some(lease_ms) = self.lease_time_ms {
            ctx.note(Note::FixedLease { lease_ms });
        }
        let req = self.rpc.start(ctx, self.timeout_ms, ACQUIRE_TIMEOUT);
        let ttl_ms = self.lease_time_ms.unwrap_or(self.ttl_ms);
        ctx.send(self.server, Msg::Acquire { req, attempt, value: self.value, ttl_ms });
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.stop_watchdog(ctx);
        self.releasing = true;
        let req = self.rpc.start(ctx, self.timeout_ms, RELEASE_TIMEOUT);
        ctx.send(self.server, Msg::Release { req, value: self.value, token: self.token, safe: true });
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::AcquireReply { req, granted, token } if !self.releasing && self.rpc.answer(ctx, req) => {
                if !granted {
                    return AgentEvent::Failed(AcquireFailure::Busy);
                }
                self.token = token;
                // Redisson starts the watchdog only for a lock taken without a leaseTime.
                if self.lease_time_ms.is_none() {
                    self.arm_watchdog(ctx);
                }
                AgentEvent::Acquired { token, validity_ms: None }
            }
            // The key is gone (expired, or taken): the watchdog stops, and nobody is told.
            Msg::ExtendReply { extended: false, .. } => {
                self.stop_watchdog(ctx);
                AgentEvent::Nothing
            }
            Msg::ReleaseReply { req, .. } if self.releasing && self.rpc.answer(ctx, req) => AgentEvent::Released,
            Msg::PrimaryChanged { primary } => {
                self.server = primary;
                AgentEvent::Nothing
            }
            _ => AgentEvent::Nothing,
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match tag {
            // A renewal with no answer is simply tried again at the next period.
            WATCHDOG if self.watchdog.is_some() && !self.releasing => {
                ctx.send(self.server, Msg::Extend { req: 0, value: self.value, ttl_ms: self.ttl_ms });
                self.arm_watchdog(ctx);
                AgentEvent::Nothing
            }
            ACQUIRE_TIMEOUT => {
                self.rpc.time_out();
                AgentEvent::Failed(AcquireFailure::Timeout)
            }
            RELEASE_TIMEOUT => {
                self.rpc.time_out();
                AgentEvent::Released
            }
            _ => AgentEvent::Nothing,
        }
    }
}

/// `RLock.lock(leaseTime, unit)`: an explicit lease, and so no watchdog (Redisson's wiki,
/// "Distributed locks and synchronizers": "Redisson also allows to specify leaseTime … After
/// that timeout lock will be released automatically"; the watchdog "works only for locks
/// acquired without leaseTime"). 0: `lock()`, leased for lockWatchdogTimeout and renewed.
pub const LEASE_TIME: Setting = Setting::ms(
    "lease_time_ms",
    0,
    600_000,
    0,
    "leaseTime",
    "Redisson's lock(leaseTime): the key's lease, with no watchdog (0: lock() without one, leased for lock.ttl_ms and renewed by the watchdog; github.com/redisson/redisson/wiki/8.-distributed-locks-and-synchronizers)",
);

pub const SPEC: Spec = Spec {
    id: "redisson",
    label: "Redisson watchdog lock",
    short: "Redisson",
    nodes: redis::SPEC.nodes,
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::Counter,
    safe_unlock: false,
    persistence: true,
    replica: true,
    drift_factor: false,
    expiry_clock: ClockKind::Wall,
    deadline: Deadline::Reached,
    config: ConfigRules {
        default_ttl_ms: 30_000,
        settings: &[LEASE_TIME, redis::RESTART_DELAY],
        // Config.lockWatchdogTimeout is each Redisson client's; leaseTime is each call's.
        per_client: &["lease_time_ms", "ttl_ms"],
        ..ConfigRules::PLAIN
    },
    workload: Workload::UnderLock,
    words: Words {
        lease: "key",
        ttl: "watchdog lease",
        expired: "TTL expired",
        keepalive: "watchdog renewals",
        roles: ["primary", "replica"],
        message: words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: super::redis::TABLE,
    replica_table: Some(super::redis::REPLICA_TABLE),
    build: Build {
        agent: |p| {
            let (server, ttl, timeout) = (p.servers[0], p.lock.ttl_ms, p.lock.request_timeout_ms);
            let lease_time = Some(p.lock.get(&LEASE_TIME)).filter(|&ms| ms > 0);
            Box::new(move |inc| Box::new(WatchdogAgent::new(inc, server, ttl, lease_time, timeout)))
        },
        server: redis::SPEC.build.server,
    },
};

/// Redisson's scripts, where they differ from the plain Redis commands.
fn words(msg: &Msg) -> Option<String> {
    match msg {
        Msg::Acquire { ttl_ms, .. } => Some(format!("EVAL lock: HINCRBY lock <owner> 1, PEXPIRE {ttl_ms}")),
        Msg::Release { .. } => Some("EVAL unlock (owner-checked)".into()),
        Msg::Extend { ttl_ms, .. } => Some(format!("watchdog: EVAL renew, PEXPIRE {ttl_ms} if owner")),
        Msg::ExtendReply { extended: true, .. } => Some("1 (renewed)".into()),
        Msg::ExtendReply { extended: false, .. } => Some("0: not yours any more (the watchdog stops)".into()),
        _ => redis::words(msg),
    }
}

/// The explicit leaseTime of the acquisition that ends in the belief at `event`, if it had one:
/// the client's last `FixedLease` note of this attempt (after its last `AcquireStarted`).
fn fixed_lease(trace: &Trace, event: usize) -> Option<i64> {
    let me = trace.events.get(event)?.node;
    trace.events[..event].iter().rev().filter(|e| e.node == me).find_map(|e| match e.kind {
        EventKind::Note(Note::FixedLease { lease_ms }) => Some(Some(lease_ms)),
        EventKind::Note(Note::AcquireStarted { .. }) => Some(None),
        _ => None,
    })?
}

/// The captions where the watchdog changes the story.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let EventKind::Note(note) = &e.kind else { return None };
    let ttl = trace.events.iter().find_map(|e| match e.kind {
        EventKind::Sent { msg: Msg::Acquire { ttl_ms, .. }, .. } => Some(seconds(ttl_ms)),
        _ => None,
    });
    let ttl = ttl.unwrap_or_else(|| "its".into());
    Some(match *note {
        Note::BeliefStarted { token, .. } if fixed_lease(trace, event).is_some() => format!(
            "{me} holds the lock ({}). It gave an explicit leaseTime, so no watchdog renews it: the key expires {} after it was set. {me} keeps no timer of its own and believes until a write is rejected or it releases.",
            SPEC.token.label(token),
            seconds(fixed_lease(trace, event).unwrap_or_default())
        ),
        Note::BeliefStarted { token, .. } => format!(
            "{me} holds the lock ({}). Its watchdog re-sets the {ttl} lease every third of it while {me} runs; {me} keeps no timer of its own and believes until a write is rejected or it releases.",
            SPEC.token.label(token)
        ),
        Note::LockExtended { holder, .. } => {
            format!("{me} extends {}'s key by the watchdog's renewal: {ttl} from now again.", trace.name(holder))
        }
        _ => return None,
    })
}
