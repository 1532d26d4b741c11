//! What the session-based lock clients share (ZooKeeper and etcd in ensemble_client.rs, Consul
//! in consul.rs): the lock service's servers and the one the client talks to, its one
//! outstanding request, its session, and what losing that session ends. Each client keeps its
//! own steps (the recipes differ: a queue of ordered nodes, or one key to acquire); this is the
//! part a third session-based service would otherwise copy.

use super::client::{AgentEvent, Rpc};
use super::{AcquireFailure, BeliefEnd, Ctx, Msg};
use crate::sim::{NodeId, TimerId};

/// A client's link to a replicated lock service through one of its servers at a time.
pub struct SessionLink {
    servers: Vec<NodeId>,
    target: usize,
    timeout_ms: i64,
    pub rpc: Rpc,
    /// The session this process opened and has not seen end.
    pub session: Option<u64>,
    /// The identity of the last open-session request (a retried open is the same session).
    pub nonce: u64,
}

/// Where a client was when its session ended, for what the loss ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Idle,
    /// Opening a session, queueing, waiting, retrying: an acquisition fails.
    Acquiring,
    /// A held lock is lost.
    Holding,
    /// Releasing or closing: the release is done (the service dropped the lock with the session).
    Releasing,
}

impl SessionLink {
    /// The link of process `incarnation` of a client (see `client::req_base`).
    pub fn new(incarnation: u32, servers: Vec<NodeId>, timeout_ms: i64) -> Self {
        SessionLink { servers, target: 0, timeout_ms, rpc: Rpc::new(incarnation), session: None, nonce: 0 }
    }

    /// The server requests go to.
    pub fn server(&self) -> NodeId {
        self.servers[self.target]
    }

    pub fn is_mine(&self, session: u64) -> bool {
        self.session == Some(session)
    }

    /// Whether an acquisition must open a session first (none is open): if so, the open
    /// request gets a fresh identity.
    pub fn must_open(&mut self, ctx: &mut Ctx) -> bool {
        if self.session.is_some() {
            return false;
        }
        self.nonce = ctx.rng().next_u64();
        true
    }

    /// Starts a request (its timeout is agent timer `tag`) and returns its id.
    pub fn start(&mut self, ctx: &mut Ctx, tag: u32) -> u32 {
        self.rpc.start(ctx, self.timeout_ms, tag)
    }

    /// Sends `msg` to the current server.
    pub fn send(&self, ctx: &mut Ctx, msg: Msg) {
        ctx.send(self.server(), msg);
    }

    /// The outstanding request timed out: the next request goes to the next server.
    pub fn timed_out(&mut self) {
        self.rpc.time_out();
        self.next_server();
    }

    pub fn next_server(&mut self) {
        self.target = (self.target + 1) % self.servers.len();
    }

    /// A "not leader" answer from `from`. True when it named another server as the leader,
    /// now the target (the caller resends); otherwise (an election is on) the next server is
    /// tried, but only when the request times out or the next renewal is due, not in a tight
    /// loop.
    pub fn follow_leader(&mut self, from: NodeId, leader: Option<NodeId>) -> bool {
        match leader.and_then(|l| self.servers.iter().position(|&s| s == l)) {
            Some(i) if self.servers[i] != from => {
                self.target = i;
                true
            }
            _ => {
                self.next_server();
                false
            }
        }
    }

    /// The session is over: forget it and the outstanding request, and cancel `timers`.
    pub fn forget(&mut self, ctx: &mut Ctx, timers: impl IntoIterator<Item = Option<TimerId>>) {
        self.session = None;
        self.rpc.cancel(ctx);
        for t in timers.into_iter().flatten() {
            ctx.cancel_timer(t);
        }
    }
}

/// What the service ending the session ends, by where the client was.
pub fn session_lost(stage: Stage) -> AgentEvent {
    match stage {
        Stage::Holding => AgentEvent::Lost(BeliefEnd::SessionExpired),
        Stage::Releasing => AgentEvent::Released,
        Stage::Idle => AgentEvent::Nothing,
        Stage::Acquiring => AgentEvent::Failed(AcquireFailure::SessionExpired),
    }
}
