//! The client side of the ZooKeeper lock recipe and the etcd mutex (PROTOCOLS.md P4, P5):
//! open a session (lease) and keep it alive every third of its timeout; create an ephemeral,
//! ordered lock node; list the queue; if ours is lowest, hold the lock with its czxid /
//! create revision as the token; otherwise watch the next-lower node and list again when it
//! goes. A client learns its session is gone only from a reply. Requests go to the leader;
//! on silence or a "not leader" answer the client tries the next server.

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::{AcquireFailure, BeliefEnd, Ctx, Msg};
use crate::sim::{ClockKind, NodeId, TimerId};

const REQUEST_TIMEOUT: u32 = AGENT_TAGS;
const KEEPALIVE: u32 = AGENT_TAGS + 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Idle,
    Opening,
    Creating,
    Listing,
    /// Waiting for the node with this token to go.
    Watching(u64),
    Holding,
    Deleting,
    Closing,
}

pub struct EnsembleAgent {
    servers: Vec<NodeId>,
    target: usize,
    ttl_ms: i64,
    timeout_ms: i64,
    rpc: Rpc,
    step: Step,
    attempt: u32,
    session: Option<u64>,
    session_ttl_ms: i64,
    nonce: u64,
    token: Option<u64>,
    keepalive: Option<TimerId>,
    awaiting_pong: bool,
    /// The watch request was answered and registered; now we wait for it to fire.
    watch_registered: bool,
}

impl EnsembleAgent {
    pub fn new(servers: Vec<NodeId>, ttl_ms: i64, timeout_ms: i64) -> Self {
        EnsembleAgent {
            servers,
            target: 0,
            ttl_ms,
            timeout_ms,
            rpc: Rpc::default(),
            step: Step::Idle,
            attempt: 0,
            session: None,
            session_ttl_ms: ttl_ms,
            nonce: 0,
            token: None,
            keepalive: None,
            awaiting_pong: false,
            watch_registered: false,
        }
    }

    fn server(&self) -> NodeId {
        self.servers[self.target]
    }

    /// (Re)sends the request of the current step to the current target.
    fn send_step(&mut self, ctx: &mut Ctx) {
        let session = self.session.unwrap_or(0);
        let msg = |req| match self.step {
            Step::Opening => Some(Msg::OpenSession { req, nonce: self.nonce, ttl_ms: self.ttl_ms }),
            Step::Creating => Some(Msg::CreateLockNode { req, session, attempt: self.attempt }),
            Step::Listing => Some(Msg::ListLockNodes { req, session }),
            Step::Watching(token) => Some(Msg::WatchNode { req, token }),
            Step::Deleting => Some(Msg::DeleteLockNode { req, session }),
            Step::Closing => Some(Msg::CloseSession { req, session }),
            Step::Idle | Step::Holding => None,
        };
        if msg(0).is_none() {
            return;
        }
        self.watch_registered = false;
        let req = self.rpc.start(ctx, self.timeout_ms, REQUEST_TIMEOUT);
        let to = self.server();
        ctx.send(to, msg(req).expect("checked above"));
    }

    fn go(&mut self, ctx: &mut Ctx, step: Step) {
        self.step = step;
        self.send_step(ctx);
    }

    fn next_server(&mut self) {
        self.target = (self.target + 1) % self.servers.len();
    }

    fn arm_keepalive(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.keepalive.take() {
            ctx.cancel_timer(t);
        }
        if self.session.is_some() {
            self.keepalive = Some(ctx.set_timer((self.session_ttl_ms / 3).max(1), ClockKind::Mono, KEEPALIVE));
        }
    }

    fn send_keepalive(&mut self, ctx: &mut Ctx) {
        if let Some(session) = self.session {
            self.awaiting_pong = true;
            let to = self.server();
            ctx.send(to, Msg::KeepAlive { session });
        }
    }

    /// The ensemble said the session is gone (its node with it).
    fn session_lost(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.session = None;
        self.rpc.cancel(ctx);
        if let Some(t) = self.keepalive.take() {
            ctx.cancel_timer(t);
        }
        let step = std::mem::replace(&mut self.step, Step::Idle);
        match step {
            Step::Holding => AgentEvent::Lost(BeliefEnd::SessionExpired),
            Step::Deleting | Step::Closing => AgentEvent::Released,
            Step::Idle => AgentEvent::Nothing,
            _ => AgentEvent::Failed(AcquireFailure::SessionExpired),
        }
    }
}

impl LockAgent for EnsembleAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.attempt = attempt;
        if self.session.is_some() {
            self.go(ctx, Step::Creating);
        } else {
            self.nonce = ctx.rng().next_u64();
            self.go(ctx, Step::Opening);
        }
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        if self.session.is_none() {
            self.step = Step::Idle;
            return AgentEvent::Released;
        }
        self.go(ctx, Step::Deleting);
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::SessionReply { req, session, ttl_ms } if self.step == Step::Opening && self.rpc.answer(ctx, req) => {
                self.session = Some(session);
                self.session_ttl_ms = ttl_ms;
                self.arm_keepalive(ctx);
                self.go(ctx, Step::Creating);
            }
            Msg::CreateReply { req, token } if self.step == Step::Creating && self.rpc.answer(ctx, req) => {
                self.token = Some(token);
                self.go(ctx, Step::Listing);
            }
            Msg::ListReply { req, mine, predecessor } if self.step == Step::Listing && self.rpc.answer(ctx, req) => {
                match (mine, predecessor) {
                    (None, _) => return self.session_lost(ctx),
                    (Some(token), None) => {
                        self.step = Step::Holding;
                        return AgentEvent::Acquired { token: Some(token), validity_ms: None };
                    }
                    (Some(_), Some(pred)) => self.go(ctx, Step::Watching(pred)),
                }
            }
            Msg::WatchReply { req, exists } if matches!(self.step, Step::Watching(_)) && self.rpc.answer(ctx, req) => {
                if exists {
                    self.watch_registered = true;
                } else {
                    self.go(ctx, Step::Listing);
                }
            }
            Msg::WatchFired { token } if self.step == Step::Watching(token) => self.go(ctx, Step::Listing),
            Msg::DeleteReply { req } if self.step == Step::Deleting && self.rpc.answer(ctx, req) => {
                self.go(ctx, Step::Closing);
                return AgentEvent::Released;
            }
            Msg::CloseReply { req } if self.step == Step::Closing && self.rpc.answer(ctx, req) => {
                self.session = None;
                self.step = Step::Idle;
                if let Some(t) = self.keepalive.take() {
                    ctx.cancel_timer(t);
                }
            }
            Msg::KeepAliveReply { alive: false, .. } => return self.session_lost(ctx),
            Msg::KeepAliveReply { alive: true, .. } => self.awaiting_pong = false,
            Msg::NotLeader { req, leader } => match leader.and_then(|l| self.servers.iter().position(|&s| s == l)) {
                // Redirected: go to the leader now.
                Some(i) if self.servers[i] != from => {
                    self.target = i;
                    if req == 0 {
                        self.send_keepalive(ctx);
                    } else if self.rpc.answer(ctx, req) {
                        self.send_step(ctx);
                    }
                }
                // No leader known (an election is on): try the next server, but only when the
                // request times out or the next keepalive is due, not in a tight loop.
                _ => self.next_server(),
            },
            _ => {}
        }
        AgentEvent::Nothing
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match tag {
            REQUEST_TIMEOUT => {
                self.rpc.time_out();
                self.next_server();
                self.send_step(ctx);
            }
            KEEPALIVE => {
                self.keepalive = None;
                if self.awaiting_pong {
                    // The last keepalive went unanswered: that server may be gone. A watch
                    // registered there is lost with it, so queue up again via a fresh list.
                    self.next_server();
                    if matches!(self.step, Step::Watching(_)) && self.watch_registered {
                        self.go(ctx, Step::Listing);
                    }
                }
                self.send_keepalive(ctx);
                self.arm_keepalive(ctx);
            }
            _ => {}
        }
        AgentEvent::Nothing
    }
}
