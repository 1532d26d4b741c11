//! The client side of a lock held on one server (a database row or a Redis key): one request,
//! one reply, a validity of `ttl − elapsed` measured on the client's monotonic clock from the
//! moment it asked. Redis and db-lease differ only on the server side.

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::{AcquireFailure, Ctx, Msg};
use crate::sim::NodeId;

const ACQUIRE_TIMEOUT: u32 = AGENT_TAGS;
const RELEASE_TIMEOUT: u32 = AGENT_TAGS + 1;

pub struct SingleServerAgent {
    server: NodeId,
    ttl_ms: i64,
    timeout_ms: i64,
    safe_unlock: bool,
    rpc: Rpc,
    asked_at_mono: i64,
    value: u64,
    token: Option<u64>,
    releasing: bool,
}

impl SingleServerAgent {
    /// The agent of process `incarnation` of a client (see `client::req_base`).
    pub fn new(incarnation: u32, server: NodeId, ttl_ms: i64, timeout_ms: i64, safe_unlock: bool) -> Self {
        SingleServerAgent {
            server,
            ttl_ms,
            timeout_ms,
            safe_unlock,
            rpc: Rpc::new(incarnation),
            asked_at_mono: 0,
            value: 0,
            token: None,
            releasing: false,
        }
    }
}

impl LockAgent for SingleServerAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        self.releasing = false;
        self.asked_at_mono = ctx.mono_ms();
        // A fresh random value per attempt, like the 20 random bytes real clients use.
        self.value = ctx.rng().next_u64();
        let req = self.rpc.start(ctx, self.timeout_ms, ACQUIRE_TIMEOUT);
        ctx.send(self.server, Msg::Acquire { req, attempt, value: self.value, ttl_ms: self.ttl_ms });
    }

    fn release(&mut self, ctx: &mut Ctx) -> AgentEvent {
        self.releasing = true;
        let req = self.rpc.start(ctx, self.timeout_ms, RELEASE_TIMEOUT);
        ctx.send(self.server, Msg::Release { req, value: self.value, token: self.token, safe: self.safe_unlock });
        AgentEvent::Nothing
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::AcquireReply { req, granted, token } if !self.releasing && self.rpc.answer(ctx, req) => {
                if !granted {
                    return AgentEvent::Failed(AcquireFailure::Busy);
                }
                self.token = token;
                let validity_ms = self.ttl_ms - (ctx.mono_ms() - self.asked_at_mono);
                if validity_ms <= 0 {
                    // Granted, but the reply came so late that the TTL had already run out by
                    // the client's clock: give it back, nothing was held.
                    self.release(ctx);
                    self.releasing = false;
                    return AgentEvent::Failed(AcquireFailure::ValidityExhausted { validity_ms });
                }
                AgentEvent::Acquired { token, validity_ms: Some(validity_ms) }
            }
            Msg::ReleaseReply { req, .. } if self.releasing && self.rpc.answer(ctx, req) => AgentEvent::Released,
            Msg::PrimaryChanged { primary } => {
                // Failover: later requests go to the new primary; the pending one times out.
                self.server = primary;
                AgentEvent::Nothing
            }
            _ => AgentEvent::Nothing,
        }
    }

    fn on_timer(&mut self, _ctx: &mut Ctx, tag: u32) -> AgentEvent {
        self.rpc.time_out();
        match tag {
            ACQUIRE_TIMEOUT => AgentEvent::Failed(AcquireFailure::Timeout),
            RELEASE_TIMEOUT => AgentEvent::Released,
            _ => AgentEvent::Nothing,
        }
    }
}
