//! Your own trace, judged (issue 37 item 6): a history of what processes did with a lock —
//! acquire, grant, renew, release, expire, write with its token and storage's answer — as JSON
//! lines (docs/HISTORY_FORMAT.md), read with an error that names the line and the field
//! (`read`), turned into a trace on the lanes a scenario of the same approach has (`to_run`),
//! and drawn and judged by the same code as a simulated run (`lab::of_trace`). The other way,
//! any trace — a simulated run or a recording of real servers — is written as a history
//! (`write`), so the recordings are offered in this format and a history round-trips.

mod read;
mod to_run;
mod write;

pub use read::{read, HistoryError};
pub use to_run::to_run;
pub use write::write;

use crate::protocols::{Approach, BeliefEnd};

/// The format's version (`"history": 1` in the header line).
pub const FORMAT: u32 = 1;
/// The largest history read, in bytes of text.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// The most lines a history may have (the header and blank lines count).
pub const MAX_LINES: usize = 100_000;

/// A history as read: its header (defaults where it has none) and its operations in time order.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub header: Header,
    pub ops: Vec<Line>,
}

/// The first line, when it carries `"history": 1`: what the lanes are and how storage checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Whose vocabulary and lock-service lanes the history is drawn with ("db-lease" when
    /// unsaid: one lock-service lane and plain tokens).
    pub approach: Approach,
    /// Whether storage checked fencing tokens (the verdict's `fencing`): false when unsaid.
    pub fencing: bool,
    pub id: String,
    pub title: String,
    /// The lock service's shape, as a scenario's `lock` says it (`{"servers": 5}`, `{"replica":
    /// true}`): which lock-service lanes there are. Read by the scenario reader, so any of its
    /// settings may be given, with its errors.
    pub lock: Option<serde_json::Value>,
}

impl Default for Header {
    fn default() -> Header {
        Header { approach: Approach::DbLease, fencing: false, id: "history".into(), title: String::new(), lock: None }
    }
}

/// One operation: at `t` ms, `process` did `op`. `line` is its 1-based line in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub line: usize,
    pub t: i64,
    pub process: String,
    pub op: Op,
}

/// What happened (docs/HISTORY_FORMAT.md, "Operations").
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// The process asked for the lock.
    Acquire,
    /// The lock service refused it: someone else holds the lock.
    Denied,
    /// The process received the lock, with this token and lease lifetime if it has them.
    /// `committed_at`: when the service committed it, where that was before the process heard
    /// (a late reply, a process paused before it read it; a conditional write's read).
    /// `committed` false: the service never committed it, yet the process was told it holds
    /// the lock (etcd 3.4.3's waiter whose lease had expired, etcd#11456).
    Grant {
        token: Option<u64>,
        ttl_ms: Option<i64>,
        committed_at: Option<i64>,
        committed: bool,
    },
    /// Its lease was extended by `ttl_ms` from now (its grant's when unsaid).
    Renew {
        ttl_ms: Option<i64>,
    },
    /// The lock service expired its lease (seen at the service).
    Expire,
    /// The process stopped believing it holds the lock, for this reason.
    Lost {
        reason: BeliefEnd,
    },
    /// The process released the lock, and the service removed it.
    Release,
    /// Its write reached storage with this token, and storage accepted or rejected it.
    Write {
        token: Option<u64>,
        accepted: bool,
    },
    /// The node stopped for `ms` (a GC pause, a VM stall).
    Pause {
        ms: i64,
    },
    Crash,
    Restart,
}

impl Op {
    /// The op's name in the format.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Acquire => "acquire",
            Op::Denied => "denied",
            Op::Grant { .. } => "grant",
            Op::Renew { .. } => "renew",
            Op::Expire => "expire",
            Op::Lost { .. } => "lost",
            Op::Release => "release",
            Op::Write { .. } => "write",
            Op::Pause { .. } => "pause",
            Op::Crash => "crash",
            Op::Restart => "restart",
        }
    }

    /// Whether any node may do it (a fault), not only a client process.
    fn any_node(&self) -> bool {
        matches!(self, Op::Pause { .. } | Op::Crash | Op::Restart)
    }
}

/// Why a belief ended, as `lost`'s `reason` names it (the trace's `BeliefEnd` but `Released`,
/// which is the op `release`).
pub(crate) const LOST_REASONS: &[(&str, BeliefEnd)] = &[
    ("validity_expired", BeliefEnd::ValidityExpired),
    ("session_expired", BeliefEnd::SessionExpired),
    ("write_rejected", BeliefEnd::WriteRejected),
];

#[cfg(test)]
mod tests;
