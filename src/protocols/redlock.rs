//! The Redlock client (docs/PROTOCOLS.md P3): `SET NX PX` to N independent instances at once, each
//! reply awaited at most `request_timeout_ms`; the lock is held only if a majority said OK and
//! `validity = ttl − elapsed − (drift_factor·ttl + 2 ms)` is still positive, measured on the
//! client's monotonic clock from before the first request. Otherwise it unlocks every instance
//! and the client retries after a random delay. The value is random: there is no fencing token.

use super::client::{req_base, AgentEvent, LockAgent, AGENT_TAGS};
use super::redis::{self, RedisServer};
use super::spec::{Deadline, 
    common_captions, numbered, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Spec, TablePlan, TokenKind, Words, Workload,
};
use super::{AcquireFailure, Ctx, Msg};
use crate::sim::{ClockKind, NodeId, TimerId};

const ROUND_TIMEOUT: u32 = AGENT_TAGS;

#[derive(Debug, PartialEq)]
enum Round {
    Idle,
    Acquiring,
    Releasing,
}

pub struct RedlockAgent {
    instances: Vec<NodeId>,
    ttl_ms: i64,
    drift_factor: f64,
    timeout_ms: i64,
    safe_unlock: bool,
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
    pub fn new(incarnation: u32, instances: Vec<NodeId>, ttl_ms: i64, drift_factor: f64, timeout_ms: i64, safe_unlock: bool) -> Self {
        let n = instances.len();
        RedlockAgent {
            instances,
            ttl_ms,
            drift_factor,
            timeout_ms,
            safe_unlock,
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
                let elapsed = ctx.mono_ms() - self.started_mono;
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
    config: ConfigRules::PLAIN,
    workload: Workload::UnderLock,
    words: Words {
        lease: "key",
        ttl: "lease TTL",
        expired: "TTL expired",
        keepalive: "",
        roles: ["primary", "replica"],
        message: redis::words,
        got: "gets the lock",
        caption: common_captions,
        belief: BeliefWords::LOCK,
    },
    table: TablePlan::claims("no token: with fencing on, storage has nothing to compare, and the same updates are lost"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (servers, l) = (p.servers.clone(), p.lock.clone());
            Box::new(move |inc| {
                Box::new(RedlockAgent::new(inc, servers.clone(), l.ttl_ms, l.drift_factor, l.request_timeout_ms, l.safe_unlock))
            })
        },
        // Redlock's instances are plain Redis servers with no token counter.
        server: |p, _| Box::new(RedisServer::node(p.lock.persistence, false, None)),
    },
};
