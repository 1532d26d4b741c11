//! Conditional writes at the resource, with no lock service at all (docs/PROTOCOLS.md P11): a client
//! reads the object's version (S3's ETag, GCS's generation, SQL's `version` column), works,
//! and writes with the version it read as a precondition (`If-Match`, `ifGenerationMatch`,
//! `UPDATE … WHERE version = $v`). Storage (`storage`) checks it when fencing is on and answers
//! a refusal with 412; the client then reads again and redoes its work. With fencing off the
//! write is a plain PUT: check (the read), then act (the write) — the race the precondition
//! closes. The client's "grant" is its read; each write is made under a read of its own
//! (`Workload::ReadModifyWrite`).

use super::client::{AgentEvent, LockAgent, Rpc, AGENT_TAGS};
use super::spec::{Deadline, BeliefWords, Build, ConfigRules, Holding, LeaseKind, Spec, TablePlan, TokenKind, Words, Workload};
use super::{AcquireFailure, BeliefEnd, Ctx, EventKind, Msg, Note, Trace};
use crate::decimal::seconds;
use crate::sim::{ClockKind, NodeId};

const READ_TIMEOUT: u32 = AGENT_TAGS;

/// The client side: one read, answered with the version.
pub struct ReadAgent {
    storage: NodeId,
    timeout_ms: i64,
    rpc: Rpc,
}

impl LockAgent for ReadAgent {
    fn acquire(&mut self, ctx: &mut Ctx, attempt: u32) {
        let req = self.rpc.start(ctx, self.timeout_ms, READ_TIMEOUT);
        ctx.send(self.storage, Msg::Read { req, attempt });
    }

    /// There is no lock to give back.
    fn release(&mut self, _ctx: &mut Ctx) -> AgentEvent {
        AgentEvent::Released
    }

    fn on_message(&mut self, ctx: &mut Ctx, _from: NodeId, msg: &Msg) -> AgentEvent {
        match *msg {
            Msg::ReadReply { req, version } if self.rpc.answer(ctx, req) => {
                AgentEvent::Acquired { token: Some(version), validity_ms: None }
            }
            _ => AgentEvent::Nothing,
        }
    }

    fn on_timer(&mut self, _ctx: &mut Ctx, tag: u32) -> AgentEvent {
        self.rpc.time_out();
        match tag {
            READ_TIMEOUT => AgentEvent::Failed(AcquireFailure::Timeout),
            _ => AgentEvent::Nothing,
        }
    }
}

pub const SPEC: Spec = Spec {
    id: "conditional-write",
    label: "If-Match conditional write",
    short: "Conditional write",
    nodes: |_, _| Vec::new(),
    default_servers: None,
    holding: Holding::One,
    lease: LeaseKind::FixedTtl,
    granted_ttl: |l| l.ttl_ms,
    grant_rule: None,
    token: TokenKind::Version,
    safe_unlock: false,
    persistence: false,
    replica: false,
    drift_factor: false,
    expiry_clock: ClockKind::Mono,
    deadline: Deadline::Reached,
    config: ConfigRules::PLAIN,
    workload: Workload::ReadModifyWrite,
    words: Words {
        lease: "read",
        ttl: "lease TTL",
        expired: "",
        keepalive: "",
        roles: ["storage", "storage"],
        message: words,
        got: "reads",
        caption,
        belief: BeliefWords {
            bar: "works from the version it read",
            bar_short: "read",
            lane: ["works from its read", "read"],
            none: "idle",
            together: ["work from what they read", "at work"],
            at_once: ["work from what they read at the same time", "worked from what they read at the same time"],
            grant: ["read", "reads"],
            most: "most at work at once",
            legend: ["works from the version it read", "two at work at once"],
            service_holds: false,
        },
    },
    table: TablePlan::claims("a plain PUT (fencing off) ignores the version: the check-then-act race loses updates with no fault at all"),
    replica_table: None,
    build: Build {
        agent: |p| {
            let (storage, timeout_ms) = (p.storage, p.lock.request_timeout_ms);
            Box::new(move |inc| Box::new(ReadAgent { storage, timeout_ms, rpc: Rpc::new(inc) }))
        },
        // No lock service: `nodes` names none, so none is built.
        server: |_, _| unreachable!("conditional-write has no lock-service nodes"),
    },
};

/// The HTTP (S3) calls a message stands for.
fn words(msg: &Msg) -> Option<String> {
    Some(match msg {
        Msg::Read { .. } => "GET object (read its version)".into(),
        Msg::ReadReply { version, .. } => format!("200 OK, ETag: version {version}"),
        Msg::Write { token: Some(v), .. } => format!("PUT If-Match: version {v}"),
        Msg::WriteReply { accepted: true, .. } => "200 OK".into(),
        Msg::WriteReply { accepted: false, .. } => "412 Precondition Failed".into(),
        _ => return None,
    })
}

/// The captions of a read-modify-write client and its storage, where the lock words do not fit.
fn caption(trace: &Trace, event: usize, me: &str) -> Option<String> {
    let e = trace.events.get(event)?;
    let EventKind::Note(note) = &e.kind else { return None };
    let name = |n: NodeId| trace.name(n).to_string();
    Some(match *note {
        Note::AcquireStarted { attempt: 1 } => format!("{me} reads the object to learn its version: there is no lock to take."),
        Note::AcquireStarted { .. } => format!("{me} reads the object again: every write starts from a fresh read."),
        Note::AcquireFailed { reason: AcquireFailure::Timeout, retry_in_ms, .. } => {
            format!("{me}'s read got no answer in time; it reads again in {}.", seconds(retry_in_ms))
        }
        Note::BeliefStarted { token: Some(v), .. } => format!(
            "{me} read version {v}. It works on it, then writes with the precondition \"still version {v}\". Nothing stops another client reading the same version meanwhile."
        ),
        Note::WriteSent { token: Some(v), .. } => format!("{me} writes its result: PUT If-Match: version {v}. It has not read again since."),
        Note::BeliefEnded { reason: BeliefEnd::WriteRejected } => {
            format!("412: someone wrote since {me} read. {me} throws its work away and will read again and redo it.")
        }
        Note::BeliefEnded { reason: BeliefEnd::Released } if timed_out_just_before(trace, event) => {
            format!("{me} treats the unanswered write as refused: it will read again and redo it.")
        }
        Note::BeliefEnded { reason: BeliefEnd::Released } => format!("{me}'s write is done."),
        Note::ReleaseSent => format!("{me} holds no lock: there is nothing to release."),
        Note::Finished => format!("{me} has made all its writes."),
        Note::WriteApplied { client, token: Some(read), accepted, highest_before: Some(current), .. } => {
            applied(trace, event, &name(client), read, current, accepted)
        }
        _ => return None,
    })
}

/// Whether the belief ending at `event` ended because its write went unanswered.
fn timed_out_just_before(trace: &Trace, event: usize) -> bool {
    let node = trace.events[event].node;
    trace.events[..event]
        .iter()
        .rev()
        .find(|e| e.node == node)
        .is_some_and(|e| matches!(e.kind, EventKind::Note(Note::WriteTimedOut { .. })))
}

/// Storage applying (or refusing) a write that read version `read` while the object is at
/// `current`: whose write came in between, and what became of it.
fn applied(trace: &Trace, event: usize, writer: &str, read: u64, current: u64, accepted: bool) -> String {
    let between = trace.events[..event].iter().rev().find_map(|e| match e.kind {
        EventKind::Note(Note::WriteApplied { client, accepted: true, .. }) if trace.name(client) != writer => Some(trace.name(client)),
        _ => None,
    });
    let other = between.unwrap_or("another client");
    match (accepted, read == current) {
        (true, true) => format!("Storage accepts {writer}'s write: it read version {read}, still the current one. The object is now version {}.", current + 1),
        (true, false) => format!(
            "Storage accepts {writer}'s STALE write: {writer} read version {read}, but {other}'s write has made it version {current} since. {other}'s update is lost: with the precondition unchecked this is a plain PUT (check, then act)."
        ),
        (false, _) => format!(
            "Storage refuses {writer}'s write: 412 Precondition Failed. {writer} read version {read}, but {other}'s write has made it version {current}; the precondition keeps {other}'s update."
        ),
    }
}
