//! The protected resource: a register that clients write under the lock. With fencing on it
//! rejects a token lower than the highest it has accepted (highest-token-seen), checked and
//! applied in one atomic step. Storage is durable and is never the lock service.
//!
//! For conditional writes (no lock service, `Workload::ReadModifyWrite`) it is an object with a
//! version, starting at 1: a read answers the version, every accepted write makes it one
//! higher, and with fencing on a write is accepted only if the version is still the one it
//! read (S3 `If-Match`, GCS `ifGenerationMatch`, SQL `WHERE version = $v`; a refusal is the
//! 412); with fencing off the precondition is ignored (a plain PUT).

use super::{Ctx, Msg, Note};
use crate::sim::{Durable, Host, NodeId, Process, TimerId};

/// The storage node (see `sim::host`).
pub type Storage = Host<StorageProcess>;

impl Storage {
    /// `preconditions`: writes carry the version they read (conditional writes).
    pub fn new(fencing: bool, preconditions: bool) -> Self {
        Host::from_config(Checks { fencing, preconditions })
    }
}

/// What storage checks.
#[derive(Clone, Copy)]
pub struct Checks {
    pub fencing: bool,
    /// A token is the version the writer read, not a lock's token.
    pub preconditions: bool,
}

/// The storage server's process: its settings are all it holds.
pub struct StorageProcess {
    checks: Checks,
}

/// What the storage keeps on disk: the highest token it has accepted, and the object's version.
pub struct Register {
    highest: Option<u64>,
    version: u64,
}

impl Durable for Register {}

impl StorageProcess {
    fn accepts(&self, register: &Register, token: Option<u64>) -> bool {
        if self.checks.preconditions {
            return !self.checks.fencing || token == Some(register.version);
        }
        match (self.checks.fencing, token, register.highest) {
            (true, Some(t), Some(h)) => t >= h,
            // No token (Redlock) cannot be checked: accepted, and the ledger marks it unfenced.
            _ => true,
        }
    }
}

impl Process for StorageProcess {
    type Msg = Msg;
    type Note = Note;
    type Config = Checks;
    type Durable = Register;

    fn fresh(_: &Checks) -> Register {
        Register { highest: None, version: 1 }
    }

    fn boot(checks: &Checks, _: &Register, _: u32) -> Self {
        StorageProcess { checks: *checks }
    }

    fn on_message(&mut self, register: &mut Register, ctx: &mut Ctx, from: NodeId, msg: Msg) {
        let (req, token, grant) = match msg {
            Msg::Write { req, token, grant } => (req, token, grant),
            Msg::Read { req, attempt } => {
                let version = register.version;
                ctx.note(Note::VersionRead { client: from, attempt, version });
                ctx.send(from, Msg::ReadReply { req, version });
                return;
            }
            _ => return,
        };
        let accepted = self.accepts(register, token);
        // What the write was checked against: the version, or the highest token.
        let highest_before = if self.checks.preconditions { Some(register.version) } else { register.highest };
        if accepted {
            register.version += 1;
            if let Some(t) = token {
                register.highest = Some(register.highest.map_or(t, |h| h.max(t)));
            }
        }
        ctx.note(Note::WriteApplied { client: from, grant, token, accepted, highest_before });
        ctx.send(from, Msg::WriteReply { req, accepted });
    }

    fn on_timer(&mut self, _: &mut Register, _ctx: &mut Ctx, _id: TimerId, _tag: u32) {}
}
