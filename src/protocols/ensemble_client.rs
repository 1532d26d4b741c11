//! The client side of the ZooKeeper lock recipe and the etcd mutex (docs/PROTOCOLS.md P4, P5):
//! open a session (lease) and keep it alive every third of its timeout; create an ephemeral,
//! ordered lock node; list the queue; if ours is lowest, hold the lock with its czxid /
//! create revision as the token; otherwise watch the next-lower node and list again when it
//! goes. A client learns its session is gone from the service: etcd answers a keepalive
//! with TTL 0; ZooKeeper closes the connection, which the client notices first (Disconnected,
//! Curator's SUSPENDED: unsure, belief kept) and learns Expired only when its reconnect with
//! the session id is refused (docs/SCENARIO_FORMAT.md, "Ensembles"). An etcd client also gives
//! up on its own (`KeepAliveDeadline`): clientv3 closes a lease's keep-alive channel when no
//! keepalive answer came for the lease's TTL, and the session's Done() fires. Requests go to
//! the leader; on silence or a "not leader" answer the client tries the next server.

use super::client::{AgentEvent, LockAgent, AGENT_TAGS};
use super::session_link::{session_lost, SessionLink, Stage};
use super::{BeliefEnd, Ctx, Msg, Note};
use crate::sim::{ClockKind, NodeId, TimerId};

const REQUEST_TIMEOUT: u32 = AGENT_TAGS;
const KEEPALIVE: u32 = AGENT_TAGS + 1;
const DONE_CHECK: u32 = AGENT_TAGS + 2;
/// How often clientv3's `deadlineLoop` looks for leases whose deadline has passed (once a
/// second, on a loop the process starts with its first `KeepAlive`).
pub const DEADLINE_CHECK_MS: i64 = 1_000;

/// etcd's clientv3 keep-alive deadline (client/v3/lease.go): each keepalive answer sets the
/// lease's deadline to now + its TTL (`recvKeepAlive`), and `deadlineLoop`, every second,
/// closes the keep-alive channels of a lease whose deadline has passed ("waited too long for
/// response; lease may be expired"). concurrency.Session's Done() fires when that channel
/// closes, and `etcdctl lock` (the holder etcd ships) ends with "session expired" on it, so
/// the modelled holder stops believing then. A paused process checks nothing while paused: on
/// resume its overdue timers run in the order they became due (a write due before the deadline
/// goes out first), so only a running process, cut off from etcd, stops in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeepAliveDeadline {
    /// When the lease is taken to be gone, on the client's monotonic clock.
    at_ms: i64,
    /// When this process's deadline loop started: its checks fall on multiples of a second from it.
    loop_start_ms: i64,
}

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
    /// Whether this client gives up on a lease of its own (etcd's clientv3; ZooKeeper's client
    /// waits for the ensemble's word).
    gives_up: bool,
    deadline: Option<KeepAliveDeadline>,
    done_check: Option<TimerId>,
    /// etcd 3.4.3's mutex (`lock.etcd_version`): while it waits it does not watch its
    /// session, and when the keys before its own are gone it holds the lock without looking
    /// whether its own key still exists (etcd#11456; PR #11408 added the look).
    waits_blindly: bool,
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
    /// The agent of process `incarnation` of a client (see `client::req_base`); `gives_up`:
    /// it keeps clientv3's keep-alive deadline (`KeepAliveDeadline`).
    pub fn new(incarnation: u32, servers: Vec<NodeId>, ttl_ms: i64, timeout_ms: i64, gives_up: bool, waits_blindly: bool) -> Self {
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
            gives_up,
            deadline: None,
            done_check: None,
            waits_blindly,
        }
    }

    /// Whether it is waiting for the lock (queued, or listing the queue).
    fn waiting(&self) -> bool {
        matches!(self.step, Step::Listing | Step::Watching(_))
    }

    /// A keepalive answer (or the grant, whose first keepalive the real client sends at once)
    /// came now: the lease's deadline moves to now + its TTL, and the check that would close it
    /// to the deadline loop's first tick after that.
    fn heard(&mut self, ctx: &mut Ctx) {
        if !self.gives_up {
            return;
        }
        let now = ctx.mono_ms();
        let loop_start_ms = self.deadline.map_or(now, |d| d.loop_start_ms);
        let at_ms = now + self.session_ttl_ms;
        self.deadline = Some(KeepAliveDeadline { at_ms, loop_start_ms });
        if let Some(t) = self.done_check.take() {
            ctx.cancel_timer(t);
        }
        // `deadline.Before(now)`: the first tick strictly after the deadline.
        let tick = loop_start_ms + ((at_ms - loop_start_ms).div_euclid(DEADLINE_CHECK_MS) + 1) * DEADLINE_CHECK_MS;
        self.done_check = Some(ctx.set_timer_at(tick, ClockKind::Mono, DONE_CHECK));
    }

    /// The request of the current step, as request `req` (None: the step sends nothing).
    fn step_msg(&self, req: u32) -> Option<Msg> {
        let session = self.link.session.unwrap_or(0);
        match self.step {
            Step::Opening => Some(Msg::OpenSession { req, nonce: self.link.nonce, ttl_ms: self.ttl_ms }),
            Step::Creating => Some(Msg::CreateLockNode { req, session, attempt: self.attempt }),
            Step::Listing => Some(Msg::ListLockNodes { req, session, before: self.token.filter(|_| self.waits_blindly) }),
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
        self.link.forget(ctx, [self.keepalive.take(), self.done_check.take()]);
        session_lost(std::mem::replace(&mut self.step, Step::Idle).stage())
    }

    /// The deadline loop found the lease's deadline passed: clientv3 closes its keep-alive
    /// channel and stops renewing it, the session's Done() fires. A holder stops believing (its
    /// own timer, as a validity's end is); a waiter's attempt fails.
    fn gave_up(&mut self, ctx: &mut Ctx) -> AgentEvent {
        match self.session_lost(ctx) {
            AgentEvent::Lost(_) => AgentEvent::Lost(BeliefEnd::ValidityExpired),
            other => other,
        }
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
                self.heard(ctx);
                self.go(ctx, Step::Creating);
            }
            Msg::CreateReply { req, token } if self.step == Step::Creating && self.link.rpc.answer(ctx, req) => {
                self.token = Some(token);
                self.go(ctx, Step::Listing);
            }
            Msg::ListReply { req, mine, predecessor } if self.step == Step::Listing && self.link.rpc.answer(ctx, req) => {
                match (mine, predecessor) {
                    // 3.4.3: nothing before its revision, so it holds the lock, its key or not.
                    (None, None) if self.waits_blindly && self.token.is_some() => {
                        self.step = Step::Holding;
                        return AgentEvent::Acquired { token: self.token, validity_ms: None };
                    }
                    (None, Some(pred)) if self.waits_blindly => self.go(ctx, Step::Watching(pred)),
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
                for t in [self.keepalive.take(), self.done_check.take()].into_iter().flatten() {
                    ctx.cancel_timer(t);
                }
            }
            // Replies about another session (a dead process's, or one this process closed) are
            // not news about this one.
            Msg::KeepAliveReply { session, .. } | Msg::SessionClosed { session } if !self.link.is_mine(session) => {}
            Msg::SessionClosed { session } if !self.reconnecting => self.disconnected(ctx, session),
            // The service's word that the session is gone is final (etcd's TTL 0); ZooKeeper
            // closes the connection instead (above), which says nothing yet.
            // 3.4.3's Lock() does not watch the session while it waits: it waits on.
            Msg::KeepAliveReply { alive: false, .. } if self.waits_blindly && self.waiting() => self.awaiting_pong = false,
            Msg::KeepAliveReply { alive: false, .. } => return self.session_lost(ctx),
            Msg::KeepAliveReply { alive: true, .. } => {
                self.awaiting_pong = false;
                self.heard(ctx);
            }
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
            DONE_CHECK => {
                self.done_check = None;
                if self.link.session.is_some()
                    && self.deadline.is_some_and(|d| d.at_ms < ctx.mono_ms())
                    && !(self.waits_blindly && self.waiting())
                {
                    return self.gave_up(ctx);
                }
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
