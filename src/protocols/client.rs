//! A client process (A, B, …): acquire, then `writes` times wait `work_ms` on its monotonic clock
//! and write to storage, then release (SCENARIO_FORMAT.md, "Semantics", Clients). The workload is
//! the same for every approach; how the lock is taken and given back is the `LockAgent`'s.
//!
//! A client that crashes loses everything it held in memory. On restart it is a new process
//! (the next incarnation): a fresh agent, a fresh job from the beginning, new lock values and
//! sessions, and request ids of its own, so a reply meant for the dead process is not taken for
//! one of its own. Whatever the old process left at the lock service stays there until it
//! expires.

use super::{AcquireFailure, BeliefEnd, ClientPhase as Phase, Ctx, GrantRef, Msg, Note};
use crate::sim::{ClockKind, Node, NodeId, TimerId};

/// Timer tags at or above this belong to the agent.
pub const AGENT_TAGS: u32 = 100;
const START: u32 = 1;
const RETRY: u32 = 2;
const VALIDITY: u32 = 3;
const WORK: u32 = 4;
const WRITE_TIMEOUT: u32 = 5;

/// What the agent's handling of a message or timer means for the client.
#[derive(Debug, PartialEq)]
pub enum AgentEvent {
    Nothing,
    /// The lock is held; the client may believe it for `validity_ms` (> 0) from now, on its
    /// monotonic clock, or, when None, until the lock service says otherwise (a session or
    /// lease). An agent whose validity came out ≤ 0 gives back what it took and reports
    /// `Failed` instead: nothing was granted.
    Acquired {
        token: Option<u64>,
        validity_ms: Option<i64>,
    },
    Failed(AcquireFailure),
    /// The lock service told the client it no longer holds the lock (session/lease expired).
    Lost(BeliefEnd),
    /// The release finished (or timed out).
    Released,
}

/// How one approach takes and gives back the lock, on the client's side.
pub trait LockAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32);
    /// Gives the lock back; `Released` at once if there is nothing to give back.
    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent;
    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) -> AgentEvent;
    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent;
}

/// Request ids carry the process's incarnation above this many bits: a run has fewer than
/// 2^20 requests (the trace-event limit is far below), and fewer than 2^12 restarts.
const REQ_BITS: u32 = 20;

/// The id before the first request of process `incarnation`: ids of different processes of
/// one client never meet, so a late reply to a dead process matches nothing its successor
/// is waiting for.
pub fn req_base(incarnation: u32) -> u32 {
    incarnation << REQ_BITS
}

/// Builds the lock agent of one process of a client, given its incarnation (0 for the
/// process the run starts, one more after each restart).
pub type AgentFactory = Box<dyn Fn(u32) -> Box<dyn LockAgent>>;

/// One outstanding request with its timeout timer.
pub struct Rpc {
    next: u32,
    pending: Option<(u32, TimerId)>,
}

impl Rpc {
    /// The requests of process `incarnation`.
    pub fn new(incarnation: u32) -> Self {
        Rpc { next: req_base(incarnation), pending: None }
    }

    /// Allocates a request id and arms its timeout (agent timer `tag`).
    pub fn start(&mut self, ctx: &mut Ctx, timeout_ms: i64, tag: u32) -> u32 {
        self.cancel(ctx);
        self.next += 1;
        let timer = ctx.set_timer(timeout_ms, ClockKind::Mono, tag);
        self.pending = Some((self.next, timer));
        self.next
    }

    /// True if `req` is the outstanding request (its timeout is disarmed).
    pub fn answer(&mut self, ctx: &mut Ctx, req: u32) -> bool {
        match self.pending {
            Some((r, timer)) if r == req => {
                ctx.cancel_timer(timer);
                self.pending = None;
                true
            }
            _ => false,
        }
    }

    /// The timeout fired: forget the request, so a late reply is ignored.
    pub fn time_out(&mut self) {
        self.pending = None;
    }

    pub fn cancel(&mut self, ctx: &mut Ctx) {
        if let Some((_, timer)) = self.pending.take() {
            ctx.cancel_timer(timer);
        }
    }
}

/// When and how much a client works.
#[derive(Clone, Debug)]
pub struct ClientPlan {
    pub acquire_at_ms: i64,
    pub work_ms: i64,
    pub writes: u32,
    pub retry_ms: (i64, i64),
    pub request_timeout_ms: i64,
}

/// What one process of the client holds in memory; a crash loses all of it.
struct Job {
    agent: Box<dyn LockAgent>,
    phase: Phase,
    token: Option<u64>,
    validity: Option<TimerId>,
    work: Option<TimerId>,
    write: Rpc,
    writes_done: u32,
}

impl Job {
    fn new(agent: Box<dyn LockAgent>, incarnation: u32) -> Self {
        Job { agent, phase: Phase::Waiting, token: None, validity: None, work: None, write: Rpc::new(incarnation), writes_done: 0 }
    }
}

pub struct Client {
    plan: ClientPlan,
    storage: NodeId,
    make_agent: AgentFactory,
    incarnation: u32,
    /// Acquisitions numbered across the client's processes: a `GrantRef` names one acquisition
    /// for the checker, so a new process does not start again at 1. Bookkeeping of the trace,
    /// not memory of the process (it decides nothing).
    attempt: u32,
    job: Job,
    /// What the process was doing when it died, until its successor starts.
    died_while: Option<Phase>,
}

impl Client {
    pub fn new(plan: ClientPlan, storage: NodeId, make_agent: AgentFactory) -> Self {
        let job = Job::new(make_agent(0), 0);
        Client { plan, storage, make_agent, incarnation: 0, attempt: 0, job, died_while: None }
    }

    fn begin_attempt(&mut self, ctx: &mut Ctx) {
        self.job.phase = Phase::Acquiring;
        self.attempt += 1;
        ctx.note(Note::AcquireStarted { attempt: self.attempt });
        self.job.agent.acquire(ctx, self.attempt);
    }

    fn react(&mut self, ctx: &mut Ctx, event: AgentEvent) {
        match event {
            AgentEvent::Nothing => {}
            AgentEvent::Acquired { token, validity_ms } if self.job.phase == Phase::Acquiring => {
                self.job.phase = Phase::Holding;
                self.job.token = token;
                ctx.note(Note::BeliefStarted { attempt: self.attempt, token, validity_ms });
                self.job.validity = validity_ms.map(|v| ctx.set_timer(v, ClockKind::Mono, VALIDITY));
                if self.plan.writes == 0 {
                    // Nothing to write: it gives the lock straight back.
                    self.end_belief(ctx, BeliefEnd::Released);
                } else {
                    self.job.work = Some(ctx.set_timer(self.plan.work_ms, ClockKind::Mono, WORK));
                }
            }
            AgentEvent::Acquired { .. } => {}
            AgentEvent::Failed(reason) if self.job.phase == Phase::Acquiring => self.fail(ctx, reason),
            AgentEvent::Failed(_) => {}
            AgentEvent::Lost(reason) => self.end_belief(ctx, reason),
            AgentEvent::Released if self.job.phase == Phase::Releasing => {
                self.job.phase = Phase::Done;
                ctx.note(Note::Finished);
            }
            AgentEvent::Released => {}
        }
    }

    fn fail(&mut self, ctx: &mut Ctx, reason: AcquireFailure) {
        let (lo, hi) = self.plan.retry_ms;
        let retry_in_ms = ctx.rng().range(lo, hi);
        ctx.note(Note::AcquireFailed { attempt: self.attempt, reason, retry_in_ms });
        self.job.phase = Phase::Waiting;
        ctx.set_timer(retry_in_ms, ClockKind::Mono, RETRY);
    }

    /// Belief ends (for `reason`); the client then gives the lock back.
    fn end_belief(&mut self, ctx: &mut Ctx, reason: BeliefEnd) {
        if self.job.phase != Phase::Holding {
            return;
        }
        ctx.note(Note::BeliefEnded { reason });
        for timer in [self.job.validity.take(), self.job.work.take()].into_iter().flatten() {
            ctx.cancel_timer(timer);
        }
        self.job.write.cancel(ctx);
        self.job.phase = Phase::Releasing;
        ctx.note(Note::ReleaseSent);
        let event = self.job.agent.release(ctx);
        self.react(ctx, event);
    }

    fn send_write(&mut self, ctx: &mut Ctx) {
        let n = self.job.writes_done + 1;
        let req = self.job.write.start(ctx, self.plan.request_timeout_ms, WRITE_TIMEOUT);
        let grant = GrantRef { client: ctx.me(), attempt: self.attempt };
        ctx.note(Note::WriteSent { n, token: self.job.token });
        ctx.send(self.storage, Msg::Write { req, token: self.job.token, grant });
    }

    /// A write finished (accepted, or given up on): next write or release.
    fn after_write(&mut self, ctx: &mut Ctx) {
        self.job.writes_done += 1;
        if self.job.writes_done < self.plan.writes {
            self.job.work = Some(ctx.set_timer(self.plan.work_ms, ClockKind::Mono, WORK));
        } else {
            self.end_belief(ctx, BeliefEnd::Released);
        }
    }
}

impl Node<Msg, Note> for Client {
    fn on_start(&mut self, ctx: &mut Ctx) {
        ctx.set_timer_at(self.plan.acquire_at_ms, ClockKind::Mono, START);
    }

    fn on_crash(&mut self, _machine: bool) {
        self.died_while = Some(self.job.phase);
    }

    /// A new process: nothing of the old one's memory, the job from the beginning (acquiring at
    /// `acquire_at_ms`, at once if that has passed).
    fn on_restart(&mut self, ctx: &mut Ctx) {
        self.incarnation += 1;
        self.job = Job::new((self.make_agent)(self.incarnation), self.incarnation);
        let predecessor = self.died_while.take().unwrap_or(Phase::Waiting);
        ctx.note(Note::StartedOver { incarnation: self.incarnation, predecessor });
        ctx.set_timer_at(self.plan.acquire_at_ms, ClockKind::Mono, START);
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        if let Msg::WriteReply { req, accepted } = msg {
            if self.job.phase == Phase::Holding && self.job.write.answer(ctx, req) {
                if accepted {
                    self.after_write(ctx);
                } else {
                    self.end_belief(ctx, BeliefEnd::WriteRejected);
                }
            }
            return;
        }
        let event = self.job.agent.on_message(ctx, from, &msg);
        self.react(ctx, event);
    }

    fn on_timer(&mut self, ctx: &mut Ctx, _id: TimerId, tag: u32) {
        match tag {
            START | RETRY if self.job.phase == Phase::Waiting => self.begin_attempt(ctx),
            VALIDITY => {
                self.job.validity = None;
                self.end_belief(ctx, BeliefEnd::ValidityExpired);
            }
            WORK if self.job.phase == Phase::Holding => {
                self.job.work = None;
                self.send_write(ctx);
            }
            WRITE_TIMEOUT if self.job.phase == Phase::Holding => {
                self.job.write.time_out();
                ctx.note(Note::WriteTimedOut { n: self.job.writes_done + 1 });
                self.after_write(ctx);
            }
            t if t >= AGENT_TAGS => {
                let event = self.job.agent.on_timer(ctx, t);
                self.react(ctx, event);
            }
            _ => {}
        }
    }
}
