//! The protected resource: a register that clients write under the lock. With fencing on it
//! rejects a token lower than the highest it has accepted (highest-token-seen), checked and
//! applied in one atomic step. Storage is durable and is never the lock service.

use super::{Ctx, Msg, Note};
use crate::sim::{Node, NodeId, TimerId};

pub struct Storage {
    fencing: bool,
    highest: Option<u64>,
}

impl Storage {
    pub fn new(fencing: bool) -> Self {
        Storage { fencing, highest: None }
    }

    fn accepts(&self, token: Option<u64>) -> bool {
        match (self.fencing, token, self.highest) {
            (true, Some(t), Some(h)) => t >= h,
            // No token (Redlock) cannot be checked: accepted, and the ledger marks it unfenced.
            _ => true,
        }
    }
}

impl Node<Msg, Note> for Storage {
    fn on_message(&mut self, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        let Msg::Write { req, token, grant } = msg else { return };
        let accepted = self.accepts(token);
        let highest_before = self.highest;
        if accepted {
            if let Some(t) = token {
                self.highest = Some(self.highest.map_or(t, |h| h.max(t)));
            }
        }
        ctx.note(Note::WriteApplied { client: from, grant, token, accepted, highest_before });
        ctx.send(from, Msg::WriteReply { req, accepted });
    }

    fn on_timer(&mut self, _ctx: &mut Ctx, _id: TimerId, _tag: u32) {}
}
