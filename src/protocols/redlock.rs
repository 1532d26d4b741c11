//! The Redlock client (docs/PROTOCOLS.md P3): `SET NX PX` to N independent instances at once, each
//! reply awaited at most `request_timeout_ms`; the lock is held only if a majority said OK and
//! `validity = ttl − elapsed − (drift_factor·ttl + 2 ms)` is still positive, measured on the
//! client's monotonic clock from before the first request. Otherwise it unlocks every instance
//! and the client retries after a random delay. The value is random: there is no fencing token.
//! `lock.check_elapsed: false` is the client Kleppmann's article reads: it counts the majority
//! and believes for `ttl − drift` from then, never subtracting the time the round took.

use super::client::{req_base, AgentEvent, LockAgent, AGENT_TAGS};
use super::redis::{self, RedisServer};
use super::spec::{
    numbered, BeliefWords, Build, ConfigRules, Deadline, Holding, LeaseKind, Setting, Spec, TablePlan, TokenKind, Words,
    Workload,
};
use super::{AcquireFailure, Ctx, EventKind, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::{ClockKind, NodeId, TimerId};

const ROUND_TIMEOUT: u32 = AGENT_TAGS;

#[derive(Debug, PartialEq)]
enum Round {
    Idle,
    Acquiring,
    Releasing,
}

/// The client's own settings: its lease TTL (each SET carries it), the drift allowance, how
/// long it waits for an instance, how it unlocks, and whether it checks the elapsed time.
#[derive(Clone, Copy)]
pub struct Options {
    pub ttl_ms: i64,
    pub drift_factor: f64,
    pub timeout_ms: i64,
    pub safe_unlock: bool,
    /// `lock.check_elapsed`: antirez's step 3 (true) or the client that skips it (false).
    pub check_elapsed: bool,
}

pub struct RedlockAgent {
    instances: Vec<NodeId>,
    ttl_ms: i64,
    drift_factor: f64,
    timeout_ms: i64,
    safe_unlock: bool,
    check_elapsed: bool,
    round: Round,
    req: u32,
    value: u64,
    started_mono: i64,
    /// Per instance: None while waiting, Some(ok) once it answered.
    answers: Vec<Option<bool>>,
    deadline: Option<TimerId>,
}

impl RedlockAgent {
    /// The agent of process `incarnation` of a client (see `client::req_base`).
    pub fn new(incarnation: u32, instances: Vec<NodeId>, o: Options) -> Self {
        let n = instances.len();
        RedlockAgent {
            instances,
            ttl_ms: o.ttl_ms,
            drift_factor: o.drift_factor,
            timeout_ms: o.timeout_ms,
            safe_unlock: o.safe_unlock,
            check_elapsed: o.check_elapsed,
            round: Round::Idle,
            req: req_base(incarnation),
            value: 0,
            started_mono: 0,
            answers: vec![None; n],
            deadline: None,
        }
    }

    fn quorum(&self) -> u32 {
        self.instances.len() as u32 / 2 + 1
    }

    /// Sends `msg(req)` to every instance and waits for all of them or the timeout.
    fn broadcast(&mut self, ctx: &mut Ctx, round: Round, msg: impl Fn(u32) -> Msg) {
        if let Some(t) = self.deadline.take() {
            ctx.cancel_timer(t);
        }
        self.round = round;
        self.req += 1;
        self.answers.iter_mut().for_each(|a| *a = None);
        for &to in &self.instances {
            ctx.send(to, msg(self.req));
        }
        self.deadline = Some(ctx.set_timer(self.timeout_ms, ClockKind::Mono, ROUND_TIMEOUT));
    }

    /// Every instance answered or the timeout passed: decide.
    fn settle(&mut self, ctx: &mut Ctx) -> AgentEvent {
        if let Some(t) = self.deadline.take() {
            ctx.cancel_timer(t);
        }
        match self.round {
            Round::Idle => AgentEvent::Nothing,
            Round::Releasing => {
                self.round = Round::Idle;
                AgentEvent::Released
            }
            Round::Acquiring => {
                let granted = self.answers.iter().filter(|a| **a == Some(true)).count() as u32;
                // Step 3 subtracts the time the round took; the client without it does not, so a
                // pause between the replies and the count goes unnoticed.
                let elapsed = if self.check_elapsed { ctx.mono_ms() - self.started_mono } else { 0 };
                let drift = (self.drift_factor * self.ttl_ms as f64).round() as i64 + 2;
                let validity_ms = self.ttl_ms - elapsed - drift;
                if granted >= self.quorum() && validity_ms > 0 {
                    self.round = Round::Idle;
                    return AgentEvent::Acquired { token: None, validity_ms: Some(validity_ms) };
                }
                // Failed: unlock every instance (even those that said no: a reply may be lost).
                self.unlock_all(ctx);
                self.round = Round::Idle;
                if granted < self.quorum() {
                    AgentEvent::Failed(AcquireFailure::NoQuorum { granted, needed: self.quorum() })
                } else {
                    AgentEvent::Failed(AcquireFailure::ValidityExhausted { validity_ms })
                }
            }
        }
    }

    fn unlock_all(&mut self, ctx: &mut Ctx) {
        let (value, safe) = (self.value, self.safe_unlock);
        self.broadcast(ctx, Round::Releasing, |req| Msg::Release { req, value, token: None, safe });
    }
}

impl LockAgent for RedlockAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.started_mono = ctx.mono_ms();
        self.value = ctx.rng().next_u64();
        let (value, ttl_ms) = (self.value, self.ttl_ms);
        self.broadcast(ctx, Round::Acquiring, |req| Msg::Acquire { req, attempt, value, ttl_ms });
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.unlock_all(ctx);
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) -> AgentEvent {
        let Some(i) = self.instances.iter().position(|&n| n == from) else { return AgentEvent::Nothing };
        let ok = match (&self.round, msg) {
            (Round::Acquiring, Msg::AcquireReply { req, granted, .. }) if *req == self.req => *granted,
            (Round::Releasing, Msg::ReleaseReply { req, released }) if *req == self.req => *released,
            _ => return AgentEvent::Nothing,
        };
        self.answers[i] = Some(ok);
        if self.answers.iter().all(Option::is_some) {
            self.settle(ctx)
        } else {
            AgentEvent::Nothing
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        if tag != ROUND_TIMEOUT {
            return AgentEvent::Nothing;
        }
        self.deadline = None;
        self.settle(ctx)
    }
}

/// Whether the client counts the lock as acquired only if the time the round took leaves some
/// validity (antirez's step 3, the Redis distributed-locks page: "if and only if the client was
/// able to acquire the lock in the majority of the instances … and the total time elapsed to
/// acquire the lock is less than lock validity time"). `false` is the client of Kleppmann's
/// "How to do distributed locking", which takes a majority of OKs as the lock whatever the time.
pub const CHECK_ELAPSED: Setting = Setting::flag(
    "check_elapsed",
    true,
    "check elapsed time",
    "Redlock's step 3 (redis.io/docs/latest/develop/use/patterns/distributed-locks): the lock counts only if the time the acquire round took leaves validity; false = the client that skips it (martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html)",
);

/// Redlock in the registry (see `registry`).
pub const SPEC: Spec = Spec {
    id: "redlock",
    label: "Redlock",
    short: "Redlock",
    nodes: |_, n| numbered("redis", n),
    default_servers: Some(5),
    holding: Holding::Majority,
    lease: LeaseKind::FixedTtl,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::None,
    safe_unlock: true,
    persistence: true,
    replica: false,
    drift_factor: true,
    expiry_clock: ClockKind::Wall,
    deadline: Deadline::Reached,
    config: ConfigRules { settings: &[CHECK_ELAPSED, redis::RESTART_DELAY], per_client: &["check_elapsed", "ttl_ms"], ..ConfigRules::PLAIN },
    workload: Workload::UnderLock,
    words: Words {
        lease: "key",
        ttl: "lease TTL",
        expired: "TTL expired",
        keepalive: "",
        roles: ["primary", "replica"],
        message: redis::words,
        got: "gets the lock",
        caption,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("no token: with fencing on, storage has nothing to compare, and the same updates are lost"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (servers, l) = (p.servers.clone(), p.lock);
            let o = Options {
                ttl_ms: l.ttl_ms,
                drift_factor: l.drift_factor,
                timeout_ms: l.request_timeout_ms,
                safe_unlock: l.safe_unlock,
                check_elapsed: l.flag(&CHECK_ELAPSED),
            };
            Box::new(move |inc| Box::new(RedlockAgent::new(inc, servers.clone(), o)))
        },
        // Redlock's instances are plain Redis servers with no token counter.
        server: |p, _| Box::new(RedisServer::node(p.lock.persistence, false, None, p.lock.get(&redis::RESTART_DELAY))),
    },
};

/// The caption where Redlock has its own words: a client without the elapsed-time check that
/// believes after a round longer than its keys' TTL (`lock.check_elapsed: false`).
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let EventKind::Note(Note::BeliefStarted { validity_ms: Some(validity), .. }) = e.kind else { return None };
    let mine = trace.events[..event].iter().rev().filter(|x| x.node == e.node);
    let asked_at = mine.clone().find(|x| matches!(x.kind, EventKind::Note(Note::AcquireStarted { .. })))?.at_ms;
    let ttl = mine.clone().find_map(|x| match x.kind {
        EventKind::Sent { msg: Msg::Acquire { ttl_ms, .. }, .. } => Some(ttl_ms),
        _ => None,
    })?;
    let took = e.at_ms - asked_at;
    (took >= ttl).then(|| {
        format!(
            "{me} counts a majority of OKs and believes it holds the lock for the next {} by its own clock. It does not subtract the {} the round took (lock.check_elapsed: false), longer than the {} TTL its keys were set with: they have expired.",
            seconds(validity),
            seconds(took),
            seconds(ttl)
        )
    })
}
