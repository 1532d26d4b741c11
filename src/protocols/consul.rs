//! Consul sessions and KV locks (docs/PROTOCOLS.md P9): `consul-N` servers on the consensus ensemble
//! (`ensemble`, Raft as Consul runs it). A client creates a session with a TTL and renews it
//! every TTL/2; the leader invalidates a session it has not heard from for a time drawn from the
//! seed between TTL and 2 × TTL (the TTL is a lower bound; Consul's own timer takes 2 × TTL,
//! SessionTTLMultiplier), and a new leader restarts every session's timer. The
//! lock is `PUT kv/<key>?acquire=<session>`: it succeeds when no live session holds the key and
//! no lock-delay is in force, and the key's LockIndex grows by one (the token). Invalidating a
//! session releases its lock (behavior `release`) and starts the lock-delay: no acquire of the
//! key succeeds for `lock.lock_delay_ms`, Chubby's mitigation for holders that cannot check a
//! sequencer. A refused client waits for the key to change (a blocking query), or 5 s after a
//! lock-delay refusal (DefaultLockRetryTime); the holder watches its key (`monitorLock`) and
//! stops believing when it no longer names its session.

use super::client::{AgentEvent, LockAgent, AGENT_TAGS};
use super::ensemble::{EnsembleServer, Refusal, Service, Stamps};
use super::session_link::{session_lost, SessionLink, Stage};
use super::spec::{Deadline, 
    numbered, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Setting, Spec, TableMix, TablePlan, TokenKind, Words, Workload,
};
use super::{Ctx, EventKind, LockDelay, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::{ClockKind, NodeId, TimerId};

const REQUEST_TIMEOUT: u32 = AGENT_TAGS;
const RENEW: u32 = AGENT_TAGS + 1;
const RETRY: u32 = AGENT_TAGS + 2;
/// The API's DefaultLockRetryTime: how long `Lock()` waits after a lock-delay refusal.
pub const LOCK_RETRY_MS: i64 = 5_000;
/// `structs.MaxLockDelay`: Consul enforces at most 60 s of lock-delay. Its session endpoint
/// accepts any longer value, and the state store caps it when it invalidates the session
/// ("Enforce the max lock delay": `if delay > structs.MaxLockDelay { delay = structs.MaxLockDelay }`).
pub const MAX_LOCK_DELAY_MS: i64 = 60_000;
/// The session's lock-delay (Consul's default 15 s; "clients are able to disable this mechanism
/// by providing a zero delay value"). Consul accepts a longer one and enforces 60 s
/// (`MAX_LOCK_DELAY_MS`), and so does the model, saying so in its captions; bounded above as a
/// TTL is (scenario::limits::MAX_TTL_MS).
pub const LOCK_DELAY: Setting = Setting::ms(
    "lock_delay_ms",
    0,
    600_000,
    15_000,
    "lock-delay",
    "Consul's lock-delay (0 turns it off; above 60 s Consul enforces 60 s, structs.MaxLockDelay): after a session is invalidated, no acquire of its key succeeds for this long",
);
/// Consul accepts session TTLs from 10 s to 24 h.
const TTL_RANGE_MS: (i64, i64) = (10_000, 86_400_000);
/// How often the leader looks for sessions past their wait (Consul arms a timer per session; a
/// 100 ms sweep keeps the trace small and invalidates at most 100 ms late).
const SESSION_CHECK_MS: i64 = 100;

/// Consul's own decisions on the ensemble.
pub struct Consul;

impl Service for Consul {
    fn granted_ttl(&self, requested_ms: i64, _tick_ms: i64) -> i64 {
        requested_ms
    }

    fn expiry_period(&self, _tick_ms: i64) -> i64 {
        SESSION_CHECK_MS
    }

    /// The TTL is a lower bound: "a session is not expired before the TTL, but there is no
    /// explicit promise about the upper bound" (session_ttl.go), and the HTTP API says sessions
    /// "may not be reaped for up to double this TTL". Consul's own timer takes 2 × TTL
    /// (SessionTTLMultiplier); the model draws anywhere in that contract, [TTL, 2 × TTL], so
    /// the explorer meets invalidations a client may not count on being late.
    fn wait_range(&self, ttl_ms: i64) -> (i64, i64) {
        (ttl_ms, 2 * ttl_ms)
    }

    fn expired(&self, heard_ms: i64, wait_ms: i64, now_ms: i64, _tick_ms: i64) -> bool {
        heard_ms + wait_ms <= now_ms
    }

    /// The key's LockIndex.
    fn token(&self, stamps: Stamps) -> u64 {
        stamps.acquisitions
    }

    /// A renewal of an invalidated session is answered "not found".
    fn session_gone(&self, session: u64) -> Msg {
        Msg::KeepAliveReply { session, alive: false }
    }

    /// The session's lock-delay, capped at `structs.MaxLockDelay` as Consul's state store does.
    fn lock_delay(&self, asked_ms: i64) -> Option<LockDelay> {
        Some(LockDelay { asked_ms, applied_ms: asked_ms.min(MAX_LOCK_DELAY_MS) })
    }

    /// `?acquire=` succeeds only when nobody holds the key and no lock-delay is in force; it
    /// is refused otherwise (nothing queues).
    fn admit(&self, holder: Option<u64>, lock_delay: bool) -> Result<(), Refusal> {
        match holder {
            Some(_) => Err(Refusal { holder, lock_delay: false }),
            None if lock_delay => Err(Refusal { holder: None, lock_delay: true }),
            None => Ok(()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Idle,
    Opening,
    Acquiring,
    /// Refused while `holder` holds the key: a blocking query waits for it to change.
    Waiting(u64),
    /// Refused for the lock-delay: trying again after `LOCK_RETRY_MS`.
    Delayed,
    Holding(u64),
    Releasing,
    Destroying,
}

/// One process's session and lock, as the API's `Lock()` runs them.
pub struct SessionLock {
    link: SessionLink,
    ttl_ms: i64,
    step: Step,
    attempt: u32,
    renew: Option<TimerId>,
    retry: Option<TimerId>,
}

impl Step {
    fn stage(self) -> Stage {
        match self {
            Step::Idle => Stage::Idle,
            Step::Holding(_) => Stage::Holding,
            Step::Releasing | Step::Destroying => Stage::Releasing,
            Step::Opening | Step::Acquiring | Step::Waiting(_) | Step::Delayed => Stage::Acquiring,
        }
    }
}

impl SessionLock {
    pub fn new(incarnation: u32, servers: Vec<NodeId>, ttl_ms: i64, timeout_ms: i64) -> Self {
        SessionLock {
            link: SessionLink::new(incarnation, servers, timeout_ms),
            ttl_ms,
            step: Step::Idle,
            attempt: 0,
            renew: None,
            retry: None,
        }
    }

    /// The request of the current step, as request `req` (None: the step sends nothing).
    fn step_msg(&self, req: u32) -> Option<Msg> {
        let session = self.link.session.unwrap_or(0);
        match self.step {
            Step::Opening => Some(Msg::OpenSession { req, nonce: self.link.nonce, ttl_ms: self.ttl_ms }),
            Step::Acquiring => Some(Msg::CreateLockNode { req, session, attempt: self.attempt }),
            Step::Waiting(token) => Some(Msg::WatchNode { req, token, session }),
            Step::Releasing => Some(Msg::DeleteLockNode { req, session }),
            Step::Destroying => Some(Msg::CloseSession { req, session }),
            Step::Idle | Step::Delayed | Step::Holding(_) => None,
        }
    }

    /// (Re)sends the request of the current step to the server it targets.
    fn send_step(&mut self, ctx: &mut Ctx) {
        if self.step_msg(0).is_none() {
            return;
        }
        let req = self.link.start(ctx, REQUEST_TIMEOUT);
        let msg = self.step_msg(req).expect("checked above");
        self.link.send(ctx, msg);
    }

    fn go(&mut self, ctx: &mut Ctx, step: Step) {
        self.step = step;
        self.send_step(ctx);
    }

    fn arm_renew(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.renew.take() {
            ctx.cancel_timer(t);
        }
        if self.link.session.is_some() {
            self.renew = Some(ctx.set_timer((self.ttl_ms / 2).max(1), ClockKind::Mono, RENEW));
        }
    }

    /// The session renewal (`RenewPeriodic`), naming the key watched so a server that lacks
    /// the watch registers it (or fires it if the key has changed).
    fn send_renew(&mut self, ctx: &mut Ctx) {
        let Some(session) = self.link.session else { return };
        let watching = match self.step {
            Step::Holding(t) | Step::Waiting(t) => Some(t),
            _ => None,
        };
        self.link.send(ctx, Msg::KeepAlive { session, watching });
    }

    /// The session is gone (renewal answered "not found"), or the key no longer names it.
    fn lost(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.link.forget(ctx, [self.renew.take(), self.retry.take()]);
        session_lost(std::mem::replace(&mut self.step, Step::Idle).stage())
    }

    fn refused(&mut self, ctx: &mut Ctx, holder: Option<u64>) {
        match holder {
            Some(token) => self.go(ctx, Step::Waiting(token)),
            None => {
                self.step = Step::Delayed;
                self.retry = Some(ctx.set_timer(LOCK_RETRY_MS, ClockKind::Mono, RETRY));
            }
        }
    }

    /// A "not leader" answer: go to the leader named (resending the renewal, `req` 0, or the
    /// outstanding request), else try the next server on the next timeout or renewal.
    fn redirected(&mut self, ctx: &mut Ctx, from: NodeId, req: u32, leader: Option<NodeId>) {
        if self.link.follow_leader(from, leader) {
            if req == 0 {
                self.send_renew(ctx);
            } else if self.link.rpc.answer(ctx, req) {
                self.send_step(ctx);
            }
        }
    }
}

impl LockAgent for SessionLock {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.attempt = attempt;
        let step = if self.link.must_open(ctx) { Step::Opening } else { Step::Acquiring };
        self.go(ctx, step);
    }

    /// `?release=` (no lock-delay), then the session is destroyed.
    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        if self.link.session.is_none() {
            self.step = Step::Idle;
            return AgentEvent::Released;
        }
        self.go(ctx, Step::Releasing);
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::SessionReply { req, session, .. } if self.step == Step::Opening && self.link.rpc.answer(ctx, req) => {
                self.link.session = Some(session);
                self.arm_renew(ctx);
                self.go(ctx, Step::Acquiring);
            }
            Msg::CreateReply { req, token } if self.step == Step::Acquiring && self.link.rpc.answer(ctx, req) => {
                // Held: `monitorLock` watches the key from now on.
                self.step = Step::Waiting(token);
                self.send_step(ctx);
                self.step = Step::Holding(token);
                return AgentEvent::Acquired { token: Some(token), validity_ms: None };
            }
            Msg::AcquireRefused { req, holder, .. } if self.step == Step::Acquiring && self.link.rpc.answer(ctx, req) => {
                self.refused(ctx, holder)
            }
            Msg::WatchReply { req, exists } if self.link.rpc.answer(ctx, req) => match self.step {
                Step::Waiting(_) if !exists => self.go(ctx, Step::Acquiring),
                Step::Holding(_) if !exists => return self.lost(ctx),
                _ => {}
            },
            Msg::WatchFired { token, session } if self.link.is_mine(session) => match self.step {
                Step::Waiting(t) if t == token => self.go(ctx, Step::Acquiring),
                Step::Holding(t) if t == token => return self.lost(ctx),
                _ => {}
            },
            Msg::DeleteReply { req } if self.step == Step::Releasing && self.link.rpc.answer(ctx, req) => {
                self.go(ctx, Step::Destroying);
                return AgentEvent::Released;
            }
            Msg::CloseReply { req } if self.step == Step::Destroying && self.link.rpc.answer(ctx, req) => {
                self.link.session = None;
                self.step = Step::Idle;
                if let Some(t) = self.renew.take() {
                    ctx.cancel_timer(t);
                }
            }
            Msg::KeepAliveReply { session, alive: false } if self.link.is_mine(session) => return self.lost(ctx),
            Msg::NotLeader { req, leader } => self.redirected(ctx, from, req, leader),
            _ => {}
        }
        AgentEvent::Nothing
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match tag {
            REQUEST_TIMEOUT => {
                self.link.timed_out();
                self.send_step(ctx);
            }
            // A renewal with no answer is retried at the next period.
            RENEW => {
                self.renew = None;
                self.send_renew(ctx);
                self.arm_renew(ctx);
            }
            RETRY if self.step == Step::Delayed => {
                self.retry = None;
                self.go(ctx, Step::Acquiring);
            }
            _ => {}
        }
        AgentEvent::Nothing
    }
}

/// Consul accepts session TTLs of 10 s to 24 h and refuses anything else.
fn check(l: &super::LockConfig) -> Result<(), (&'static str, String)> {
    let (lo, hi) = TTL_RANGE_MS;
    if !(lo..=hi).contains(&l.ttl_ms) {
        return Err(("lock.ttl_ms", format!("{} ms is out of range: Consul accepts session TTLs of 10 s to 24 h", l.ttl_ms)));
    }
    Ok(())
}

pub const SPEC: Spec = Spec {
    id: "consul",
    label: "Consul session lock",
    short: "Consul",
    nodes: |_, n| numbered("consul", n),
    default_servers: Some(3),
    holding: Holding::Replicated,
    lease: LeaseKind::KeptAlive,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::LockIndex,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Reached,
    config: ConfigRules {
        default_ttl_ms: 15_000,
        settings: &[LOCK_DELAY],
        per_client: &[],
        check,
        fit: |l| l.ttl_ms = l.ttl_ms.clamp(TTL_RANGE_MS.0, TTL_RANGE_MS.1),
    },
    workload: Workload::UnderLock,
    words: Words {
        lease: "session",
        ttl: "session TTL",
        expired: "session invalidated",
        keepalive: "renewals",
        roles: ["leader", "follower"],
        message: words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan {
        label_suffix: ", a 60 s run",
        duration_ms: Some(60_000),
        mix: TableMix::OnePause { from_ms: 30_000, to_ms: 50_000, words: "long pauses: one pause of A or B of 30 to 50 s" },
        ..TablePlan::claims("lock-delay is no token: a pause longer than 2 × TTL + lock-delay (35 s) still writes late")
    },
    replica_table: None,
    build: Build {
        agent: |p| {
            let (servers, ttl, timeout) = (p.servers.clone(), p.lock.ttl_ms, p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(SessionLock::new(inc, servers.clone(), ttl, timeout)))
        },
        server: |p, rank| {
            let delay = p.lock.get(&LOCK_DELAY);
            Box::new(EnsembleServer::node(&Consul, rank, p.servers.clone(), p.lock.tick_ms, delay))
        },
    },
};

/// The Consul HTTP API calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::OpenSession { ttl_ms, .. } => format!("PUT /v1/session/create TTL {}s", ttl_ms / 1000),
        Msg::SessionReply { session, .. } => format!("session {session:x}"),
        Msg::CreateLockNode { session, .. } => format!("PUT /v1/kv/lock?acquire={session:x}"),
        Msg::CreateReply { token, .. } => format!("true (LockIndex {token})"),
        Msg::AcquireRefused { lock_delay: true, .. } => "false: lock-delay in force".into(),
        Msg::AcquireRefused { holder, .. } => format!("false: held ({})", SPEC.token.label(*holder)),
        Msg::WatchNode { .. } => "GET /v1/kv/lock?index=… (blocking query)".into(),
        Msg::WatchFired { .. } => "the key changed".into(),
        Msg::DeleteLockNode { session, .. } => format!("PUT /v1/kv/lock?release={session:x}"),
        Msg::CloseSession { session, .. } => format!("PUT /v1/session/destroy/{session:x}"),
        Msg::KeepAlive { session, .. } => format!("PUT /v1/session/renew/{session:x}"),
        Msg::KeepAliveReply { alive: false, .. } => "404: session not found".into(),
        _ => return None,
    })
}

/// The captions where Consul's sessions differ from ZooKeeper's and etcd's: renewals every
/// TTL/2, invalidation after 2 × TTL, a key released (not a node deleted) and then held back
/// by the lock-delay, no queue.
fn caption(trace: &Trace, event: usize, _me: &str) -> Option<String> {
    let EventKind::Note(note) = &trace.events.get(event)?.kind else { return None };
    let name = |n: NodeId| trace.name(n).to_string();
    Some(match *note {
        Note::SessionOpened { client, ttl_ms, .. } => format!(
            "{}'s session is open (TTL {}): it renews every TTL/2 ({}); without a renewal the leader invalidates it, not before the TTL and at most 2 × TTL ({}) later.",
            name(client),
            seconds(ttl_ms),
            seconds(ttl_ms / 2),
            seconds(2 * ttl_ms)
        ),
        Note::SessionExpired { client, lock_delay, .. } => format!(
            "The leader has not heard from {} for longer than its session's TTL allows (Consul may wait TTL to 2 × TTL) and invalidates its session{}",
            name(client),
            lock_delay.map_or_else(|| ".".to_string(), |d| format!(": the key is released, and {}.", held_back(d)))
        ),
        Note::LockExpired { holder } => match lock_delay_of(trace, event) {
            Some(d) if d.applied_ms == 0 => format!("{}'s lock is released with its session; with no lock-delay, anyone may take it now.", name(holder)),
            _ => format!("{}'s lock is released with its session; until the lock-delay ends, nobody can take it.", name(holder)),
        },
        Note::LockQueued { client, token } => format!("{}'s acquire succeeds ({}).", name(client), SPEC.token.label(Some(token))),
        _ => return None,
    })
}

/// What the lock-delay does to the released key, in the caption's words: how long it holds it
/// back, and Consul's cap when the session asked for more than it enforces.
fn held_back(d: LockDelay) -> String {
    match d {
        LockDelay { applied_ms: 0, .. } => "with lock-delay 0 (off) any acquire may take it at once".into(),
        LockDelay { asked_ms, applied_ms } if asked_ms > applied_ms => format!(
            "lock-delay holds it back from every acquire for {} (the session asked {}; Consul enforces at most {})",
            seconds(applied_ms),
            seconds(asked_ms),
            seconds(MAX_LOCK_DELAY_MS)
        ),
        LockDelay { applied_ms, .. } => format!("lock-delay holds it back from every acquire for {}", seconds(applied_ms)),
    }
}

/// The lock-delay of the invalidation that released a lock at `event`: the session expiry
/// just before it in the trace.
fn lock_delay_of(trace: &Trace, event: usize) -> Option<LockDelay> {
    trace.events[..event].iter().rev().find_map(|e| match e.kind {
        EventKind::Note(Note::SessionExpired { lock_delay, .. }) => Some(lock_delay),
        _ => None,
    })?
}
