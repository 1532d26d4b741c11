//! The protected resource: a register that clients write under the lock. With fencing on it
//! rejects a token lower than the highest it has accepted (highest-token-seen), checked and
//! applied in one atomic step. Storage is durable and is never the lock service.

use super::{Ctx, Msg, Note};
use crate::sim::{Durable, Host, NodeId, Process, TimerId};

/// The storage node (see `sim::host`).
pub type Storage = Host<StorageProcess>;

impl Storage {
    pub fn new(fencing: bool) -> Self {
        Host::from_config(fencing)
    }
}

/// The storage server's process: the fencing setting is all it holds.
pub struct StorageProcess {
    fencing: bool,
}

/// What the storage keeps on disk: the highest token it has accepted.
#[derive(Default)]
pub struct Register {
    highest: Option<u64>,
}

impl Durable for Register {}

impl StorageProcess {
    fn accepts(&self, register: &Register, token: Option<u64>) -> bool {
        match (self.fencing, token, register.highest) {
            (true, Some(t), Some(h)) => t >= h,
            // No token (Redlock) cannot be checked: accepted, and the ledger marks it unfenced.
            _ => true,
        }
    }
}

impl Process for StorageProcess {
    type Msg = Msg;
    type Note = Note;
    /// Whether it checks fencing tokens.
    type Config = bool;
    type Durable = Register;

    fn fresh(_: &bool) -> Register {
        Register::default()
    }

    fn boot(fencing: &bool, _: &Register, _: u32) -> Self {
        StorageProcess { fencing: *fencing }
    }

    fn on_message(&mut self, register: &mut Register, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        let Msg::Write { req, token, grant } = msg else { return };
        let accepted = self.accepts(register, token);
        let highest_before = register.highest;
        if accepted {
            if let Some(t) = token {
                register.highest = Some(register.highest.map_or(t, |h| h.max(t)));
            }
        }
        ctx.note(Note::WriteApplied { client: from, grant, token, accepted, highest_before });
        ctx.send(from, Msg::WriteReply { req, accepted });
    }

    fn on_timer(&mut self, _: &mut Register, _ctx: &mut Ctx, _id: TimerId, _tag: u32) {}
}
