//! The client side of the ZooKeeper lock recipe and the etcd mutex (docs/PROTOCOLS.md P4, P5):
//! open a session (lease) and keep it alive every third of its timeout; create an ephemeral,
//! ordered lock node; list the queue; if ours is lowest, hold the lock with its czxid /
//! create revision as the token; otherwise watch the next-lower node and list again when it
//! goes. A client learns its session is gone only from the service: etcd answers a keepalive
//! with TTL 0; ZooKeeper closes the connection, which the client notices first (Disconnected,
//! Curator's SUSPENDED: unsure, belief kept) and learns Expired only when its reconnect with
//! the session id is refused (docs/SCENARIO_FORMAT.md, "Ensembles"). Requests go to the leader; on
//! silence or a "not leader" answer the client tries the next server.

use super::client::{AgentEvent, LockAgent, AGENT_TAGS};
use super::session_link::{session_lost, SessionLink, Stage};
use super::{Ctx, Msg, Note};
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
    link: SessionLink,
    ttl_ms: i64,
    step: Step,
    attempt: u32,
    session_ttl_ms: i64,
    token: Option<u64>,
    keepalive: Option<TimerId>,
    awaiting_pong: bool,
    /// The watch request was answered and registered; now we wait for it to fire.
    watch_registered: bool,
    /// ZooKeeper: the connection was closed; the client is reconnecting with its session id and
    /// does not know yet whether the session still exists.
    reconnecting: bool,
}

impl Step {
    fn stage(self) -> Stage {
        match self {
            Step::Idle => Stage::Idle,
            Step::Holding => Stage::Holding,
            Step::Deleting | Step::Closing => Stage::Releasing,
            Step::Opening | Step::Creating | Step::Listing | Step::Watching(_) => Stage::Acquiring,
        }
    }
}

impl EnsembleAgent {
    /// The agent of process `incarnation` of a client (see `client::req_base`).
    pub fn new(incarnation: u32, servers: Vec<NodeId>, ttl_ms: i64, timeout_ms: i64) -> Self {
        EnsembleAgent {
            link: SessionLink::new(incarnation, servers, timeout_ms),
            ttl_ms,
            step: Step::Idle,
            attempt: 0,
            session_ttl_ms: ttl_ms,
            token: None,
            keepalive: None,
            awaiting_pong: false,
            watch_registered: false,
            reconnecting: false,
        }
    }

    /// The request of the current step, as request `req` (None: the step sends nothing).
    fn step_msg(&self, req: u32) -> Option<Msg> {
        let session = self.link.session.unwrap_or(0);
        match self.step {
            Step::Opening => Some(Msg::OpenSession { req, nonce: self.link.nonce, ttl_ms: self.ttl_ms }),
            Step::Creating => Some(Msg::CreateLockNode { req, session, attempt: self.attempt }),
            Step::Listing => Some(Msg::ListLockNodes { req, session }),
            Step::Watching(token) => Some(Msg::WatchNode { req, token, session }),
            Step::Deleting => Some(Msg::DeleteLockNode { req, session }),
            Step::Closing => Some(Msg::CloseSession { req, session }),
            Step::Idle | Step::Holding => None,
        }
    }

    /// (Re)sends the request of the current step to the current target; while reconnecting,
    /// the step waits until the connection is back.
    fn send_step(&mut self, ctx: &mut Ctx) {
        if self.reconnecting || self.step_msg(0).is_none() {
            return;
        }
        self.watch_registered = false;
        let req = self.link.start(ctx, REQUEST_TIMEOUT);
        let msg = self.step_msg(req).expect("checked above");
        self.link.send(ctx, msg);
    }

    /// Sends again whatever is outstanding: the reconnect, or the current step.
    fn resend(&mut self, ctx: &mut Ctx) {
        match (self.reconnecting, self.link.session) {
            (true, Some(session)) => {
                let req = self.link.start(ctx, REQUEST_TIMEOUT);
                self.link.send(ctx, Msg::Reconnect { req, session });
            }
            _ => self.send_step(ctx),
        }
    }

    /// ZooKeeper: the connection is gone. The client cannot tell whether its session survives,
    /// so it keeps believing (SUSPENDED) and reconnects with its session id.
    fn disconnected(&mut self, ctx: &mut Ctx, session: u64) {
        ctx.note(Note::Disconnected { session });
        self.reconnecting = true;
        self.awaiting_pong = false;
        if let Some(t) = self.keepalive.take() {
            ctx.cancel_timer(t);
        }
        self.resend(ctx);
    }

    /// The reconnect was accepted: the session lives. A watch set on the old connection went
    /// with it, so a waiter lists again.
    fn reconnected(&mut self, ctx: &mut Ctx, session: u64) {
        ctx.note(Note::Reconnected { session });
        self.reconnecting = false;
        self.arm_keepalive(ctx);
        if matches!(self.step, Step::Watching(_)) {
            self.go(ctx, Step::Listing);
        } else {
            self.send_step(ctx);
        }
    }

    fn go(&mut self, ctx: &mut Ctx, step: Step) {
        self.step = step;
        self.send_step(ctx);
    }

    fn arm_keepalive(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.keepalive.take() {
            ctx.cancel_timer(t);
        }
        if self.link.session.is_some() {
            self.keepalive = Some(ctx.set_timer((self.session_ttl_ms / 3).max(1), ClockKind::Mono, KEEPALIVE));
        }
    }

    fn send_keepalive(&mut self, ctx: &mut Ctx) {
        if let (Some(session), false) = (self.link.session, self.reconnecting) {
            self.awaiting_pong = true;
            let watching = match self.step {
                Step::Watching(token) if self.watch_registered => Some(token),
                _ => None,
            };
            self.link.send(ctx, Msg::KeepAlive { session, watching });
        }
    }

    /// The ensemble said the session is gone (its node with it).
    fn session_lost(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.reconnecting = false;
        self.link.forget(ctx, [self.keepalive.take()]);
        session_lost(std::mem::replace(&mut self.step, Step::Idle).stage())
    }

    /// A "not leader" answer: to a keepalive (`req` 0) or to the outstanding request.
    fn redirected(&mut self, ctx: &mut Ctx, from: NodeId, req: u32, leader: Option<NodeId>) {
        if !self.link.follow_leader(from, leader) {
            return;
        }
        if req == 0 {
            self.send_keepalive(ctx);
            // A watch lives with the leader that registered it; this one is gone, so queue up
            // again (the real client re-registers its watches when it reconnects to another
            // server).
            if matches!(self.step, Step::Watching(_)) && self.watch_registered && !self.reconnecting {
                self.go(ctx, Step::Listing);
            }
        } else if self.link.rpc.answer(ctx, req) {
            self.resend(ctx);
        }
    }
}

impl LockAgent for EnsembleAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.attempt = attempt;
        let step = if self.link.must_open(ctx) { Step::Opening } else { Step::Creating };
        self.go(ctx, step);
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        if self.link.session.is_none() {
            self.step = Step::Idle;
            return AgentEvent::Released;
        }
        self.go(ctx, Step::Deleting);
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::SessionReply { req, session, ttl_ms }
                if self.step == Step::Opening && !self.reconnecting && self.link.rpc.answer(ctx, req) =>
            {
                self.link.session = Some(session);
                self.session_ttl_ms = ttl_ms;
                self.arm_keepalive(ctx);
                self.go(ctx, Step::Creating);
            }
            Msg::CreateReply { req, token } if self.step == Step::Creating && self.link.rpc.answer(ctx, req) => {
                self.token = Some(token);
                self.go(ctx, Step::Listing);
            }
            Msg::ListReply { req, mine, predecessor } if self.step == Step::Listing && self.link.rpc.answer(ctx, req) => {
                match (mine, predecessor) {
                    (None, _) => return self.session_lost(ctx),
                    (Some(token), None) => {
                        self.step = Step::Holding;
                        return AgentEvent::Acquired { token: Some(token), validity_ms: None };
                    }
                    (Some(_), Some(pred)) => self.go(ctx, Step::Watching(pred)),
                }
            }
            Msg::WatchReply { req, exists } if matches!(self.step, Step::Watching(_)) && self.link.rpc.answer(ctx, req) => {
                if exists {
                    self.watch_registered = true;
                } else {
                    self.go(ctx, Step::Listing);
                }
            }
            Msg::WatchFired { token, session } if self.step == Step::Watching(token) && self.link.is_mine(session) => {
                self.go(ctx, Step::Listing)
            }
            Msg::DeleteReply { req } if self.step == Step::Deleting && self.link.rpc.answer(ctx, req) => {
                self.go(ctx, Step::Closing);
                return AgentEvent::Released;
            }
            Msg::CloseReply { req } if self.step == Step::Closing && self.link.rpc.answer(ctx, req) => {
                self.link.session = None;
                self.step = Step::Idle;
                if let Some(t) = self.keepalive.take() {
                    ctx.cancel_timer(t);
                }
            }
            // Replies about another session (a dead process's, or one this process closed) are
            // not news about this one.
            Msg::KeepAliveReply { session, .. } | Msg::SessionClosed { session } if !self.link.is_mine(session) => {}
            Msg::SessionClosed { session } if !self.reconnecting => self.disconnected(ctx, session),
            // The service's word that the session is gone is final (etcd's TTL 0); ZooKeeper
            // closes the connection instead (above), which says nothing yet.
            Msg::KeepAliveReply { alive: false, .. } => return self.session_lost(ctx),
            Msg::KeepAliveReply { alive: true, .. } => self.awaiting_pong = false,
            Msg::SessionReply { req, session, .. } if self.reconnecting && self.link.is_mine(session) && self.link.rpc.answer(ctx, req) => {
                self.reconnected(ctx, session)
            }
            Msg::ReconnectRefused { req, session } if self.reconnecting && self.link.is_mine(session) && self.link.rpc.answer(ctx, req) => {
                return self.session_lost(ctx)
            }
            Msg::NotLeader { req, leader } => self.redirected(ctx, from, req, leader),
            _ => {}
        }
        AgentEvent::Nothing
    }

    fn on_timer(&mut self, ctx: &mut Ctx, tag: u32) -> AgentEvent {
        match tag {
            REQUEST_TIMEOUT => {
                self.link.timed_out();
                self.resend(ctx);
            }
            KEEPALIVE => {
                self.keepalive = None;
                if self.awaiting_pong {
                    // The last keepalive went unanswered: that server may be gone. A watch
                    // registered there is lost with it, so queue up again via a fresh list.
                    self.link.next_server();
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
