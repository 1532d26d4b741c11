//! A client process (A, B, …): acquire, then `writes` times wait `work_ms` on its monotonic clock
//! and write to storage, then release (docs/SCENARIO_FORMAT.md, "Semantics", Clients). The workload is
//! the same for every approach; how the lock is taken and given back is the `LockAgent`'s.
//!
//! A client that crashes loses everything it held in memory. On restart it is a new process
//! (the next incarnation): a fresh agent, a fresh job from the beginning, new lock values and
//! sessions, and request ids of its own, so a reply meant for the dead process is not taken for
//! one of its own. Whatever the old process left at the lock service stays there until it
//! expires.

use super::{AcquireFailure, BeliefEnd, ClientPhase as Phase, Ctx, GrantRef, Msg, Note};
use crate::sim::{ClockKind, Durable, Host, NodeId, Process, TimerId};

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
    /// The TCP connection the agent holds open to its lock service, if its lock lives on one
    /// (a PostgreSQL session): its server and the connection's id. The machine's kernel keeps
    /// it up while the process is paused and closes it when the process dies.
    fn connection(&self) -> Option<(NodeId, u64)> {
        None
    }
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

/// How a client's writes relate to the lock (docs/SCENARIO_FORMAT.md, "Semantics", Clients).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Take the lock, make `writes` writes under it, release. Storage's fencing check is
    /// highest-token-seen; a write is stale when storage accepted one under a later grant.
    UnderLock,
    /// No lock: each write is a read-modify-write under its own read (its "grant"), sent with
    /// the version read as a precondition; a refused write is read again and redone. Storage's
    /// fencing check is the precondition (the version must still be the one read); a write is
    /// stale when another write was accepted after its read ("Beyond the seed", conditional-write).
    ReadModifyWrite,
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
    /// Writes under one lock, or each under its own read (conditional writes).
    pub workload: Workload,
}

/// What a client is built with.
pub struct ClientConfig {
    pub plan: ClientPlan,
    pub storage: NodeId,
    pub make_agent: AgentFactory,
}

/// A client node (see `sim::host`).
pub type Client = Host<ClientProcess>;

impl Client {
    pub fn new(plan: ClientPlan, storage: NodeId, make_agent: AgentFactory) -> Self {
        Host::from_config(ClientConfig { plan, storage, make_agent })
    }
}

/// Not a disk (a client keeps nothing): acquisitions numbered across the client's processes.
/// A `GrantRef` names one acquisition for the checker, so a new process does not start again
/// at 1. Bookkeeping of the trace, not memory of the process (it decides nothing).
#[derive(Default)]
pub struct Numbering {
    attempt: u32,
}

impl Durable for Numbering {}

/// What one process of the client holds in memory; a crash loses all of it.
pub struct ClientProcess {
    plan: ClientPlan,
    storage: NodeId,
    incarnation: u32,
    agent: Box<dyn LockAgent>,
    phase: Phase,
    token: Option<u64>,
    validity: Option<TimerId>,
    work: Option<TimerId>,
    write: Rpc,
    writes_done: u32,
}

impl ClientProcess {
    fn begin_attempt(&mut self, n: &mut Numbering, ctx: &mut Ctx) {
        self.phase = Phase::Acquiring;
        n.attempt += 1;
        ctx.note(Note::AcquireStarted { attempt: n.attempt });
        self.agent.acquire(ctx, n.attempt);
    }

    fn react(&mut self, n: &mut Numbering, ctx: &mut Ctx, event: AgentEvent) {
        match event {
            AgentEvent::Nothing => {}
            AgentEvent::Acquired { token, validity_ms } if self.phase == Phase::Acquiring => {
                self.phase = Phase::Holding;
                self.token = token;
                ctx.note(Note::BeliefStarted { attempt: n.attempt, token, validity_ms });
                self.validity = validity_ms.map(|v| ctx.set_timer(v, ClockKind::Mono, VALIDITY));
                if self.plan.writes == 0 {
                    // Nothing to write: it gives the lock straight back.
                    self.end_belief(n, ctx, BeliefEnd::Released);
                } else {
                    self.work = Some(ctx.set_timer(self.plan.work_ms, ClockKind::Mono, WORK));
                }
            }
            AgentEvent::Acquired { .. } => {}
            AgentEvent::Failed(reason) if self.phase == Phase::Acquiring => self.fail(n, ctx, reason),
            AgentEvent::Failed(_) => {}
            AgentEvent::Lost(reason) => self.end_belief(n, ctx, reason),
            // A read-modify-write client reads again for its next write, or to redo a refused one.
            AgentEvent::Released if self.phase == Phase::Releasing && self.rereads() => self.begin_attempt(n, ctx),
            AgentEvent::Released if self.phase == Phase::Releasing => {
                self.phase = Phase::Done;
                ctx.note(Note::Finished);
            }
            AgentEvent::Released => {}
        }
    }

    fn fail(&mut self, n: &Numbering, ctx: &mut Ctx, reason: AcquireFailure) {
        let (lo, hi) = self.plan.retry_ms;
        let retry_in_ms = ctx.rng().range(lo, hi);
        ctx.note(Note::AcquireFailed { attempt: n.attempt, reason, retry_in_ms });
        self.phase = Phase::Waiting;
        ctx.set_timer(retry_in_ms, ClockKind::Mono, RETRY);
    }

    /// Belief ends (for `reason`); the client then gives the lock back.
    fn end_belief(&mut self, n: &mut Numbering, ctx: &mut Ctx, reason: BeliefEnd) {
        if self.phase != Phase::Holding {
            return;
        }
        ctx.note(Note::BeliefEnded { reason });
        for timer in [self.validity.take(), self.work.take()].into_iter().flatten() {
            ctx.cancel_timer(timer);
        }
        self.write.cancel(ctx);
        self.phase = Phase::Releasing;
        ctx.note(Note::ReleaseSent);
        let event = self.agent.release(ctx);
        self.react(n, ctx, event);
    }

    fn send_write(&mut self, n: &Numbering, ctx: &mut Ctx) {
        let number = self.writes_done + 1;
        let req = self.write.start(ctx, self.plan.request_timeout_ms, WRITE_TIMEOUT);
        let grant = GrantRef { client: ctx.me(), attempt: n.attempt };
        ctx.note(Note::WriteSent { n: number, token: self.token });
        ctx.send(self.storage, Msg::Write { req, token: self.token, grant });
    }

    /// Whether a finished release is followed by another read: a read-modify-write client that
    /// has writes left to make (or to redo).
    fn rereads(&self) -> bool {
        self.plan.workload == Workload::ReadModifyWrite && self.writes_done < self.plan.writes
    }

    /// A write finished (accepted, or given up on): next write or release. A read-modify-write
    /// write is its own grant's only one: it ends the belief (and the client reads again), and
    /// one given up on counts as refused.
    fn after_write(&mut self, n: &mut Numbering, ctx: &mut Ctx, accepted: bool) {
        if self.plan.workload == Workload::ReadModifyWrite {
            self.writes_done += u32::from(accepted);
            self.end_belief(n, ctx, BeliefEnd::Released);
            return;
        }
        self.writes_done += 1;
        if self.writes_done < self.plan.writes {
            self.work = Some(ctx.set_timer(self.plan.work_ms, ClockKind::Mono, WORK));
        } else {
            self.end_belief(n, ctx, BeliefEnd::Released);
        }
    }
}

impl Process for ClientProcess {
    type Msg = Msg;
    type Note = Note;
    type Config = ClientConfig;
    type Durable = Numbering;

    fn fresh(_: &ClientConfig) -> Numbering {
        Numbering::default()
    }

    /// A fresh agent and the job from the beginning, with request ids of its own.
    fn boot(config: &ClientConfig, _: &Numbering, incarnation: u32) -> Self {
        ClientProcess {
            plan: config.plan.clone(),
            storage: config.storage,
            incarnation,
            agent: (config.make_agent)(incarnation),
            phase: Phase::Waiting,
            token: None,
            validity: None,
            work: None,
            write: Rpc::new(incarnation),
            writes_done: 0,
        }
    }

    fn on_start(&mut self, _: &mut Numbering, ctx: &mut Ctx) {
        ctx.set_timer_at(self.plan.acquire_at_ms, ClockKind::Mono, START);
    }

    /// The kernel acknowledges a keepalive probe of the connection a live process holds, and
    /// resets any other (its process died, or it is a dead process's).
    fn kernel(process: Option<&Self>, msg: &Msg) -> Option<Msg> {
        let &Msg::TcpProbe { conn } = msg else { return None };
        let open = process.and_then(|p| p.agent.connection()).is_some_and(|(_, c)| c == conn);
        Some(if open { Msg::TcpAck { conn } } else { Msg::TcpClosed { conn } })
    }

    /// The process died: its kernel closes its connection (a FIN to the server).
    fn on_death(&self) -> Vec<(NodeId, Msg)> {
        self.agent.connection().map(|(server, conn)| (server, Msg::TcpClosed { conn })).into_iter().collect()
    }

    /// A new process: nothing of the old one's memory, the job from the beginning (acquiring at
    /// `acquire_at_ms`, at once if that has passed). The trace says where the dead one was.
    fn on_restart(&mut self, _: &mut Numbering, ctx: &mut Ctx, dead: &Self) {
        ctx.note(Note::StartedOver { incarnation: self.incarnation, predecessor: dead.phase });
        ctx.set_timer_at(self.plan.acquire_at_ms, ClockKind::Mono, START);
    }

    fn on_message(&mut self, n: &mut Numbering, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        if let Msg::WriteReply { req, accepted } = msg {
            if self.phase == Phase::Holding && self.write.answer(ctx, req) {
                if accepted {
                    self.after_write(n, ctx, true);
                } else {
                    self.end_belief(n, ctx, BeliefEnd::WriteRejected);
                }
            }
            return;
        }
        let event = self.agent.on_message(ctx, from, &msg);
        self.react(n, ctx, event);
    }

    fn on_timer(&mut self, n: &mut Numbering, ctx: &mut Ctx, _id: TimerId, tag: u32) {
        match tag {
            START | RETRY if self.phase == Phase::Waiting => self.begin_attempt(n, ctx),
            VALIDITY => {
                self.validity = None;
                self.end_belief(n, ctx, BeliefEnd::ValidityExpired);
            }
            WORK if self.phase == Phase::Holding => {
                self.work = None;
                self.send_write(n, ctx);
            }
            WRITE_TIMEOUT if self.phase == Phase::Holding => {
                self.write.time_out();
                ctx.note(Note::WriteTimedOut { n: self.writes_done + 1 });
                self.after_write(n, ctx, false);
            }
            t if t >= AGENT_TAGS => {
                let event = self.agent.on_timer(ctx, t);
                self.react(n, ctx, event);
            }
            _ => {}
        }
    }
}
