//! Any run as a history: what its processes did with the lock, in the format `read` reads
//! (docs/HISTORY_FORMAT.md). The recordings of real servers are offered this way, and every
//! simulated run round-trips through it with the same verdict (tests.rs).
//!
//! A trace says more than a history can: messages, clock jumps and drift, partitions and the
//! service's own bookkeeping have no line, and a grant is written when its process received
//! it (the trace's `BeliefStarted`), not when the service committed it.

use serde_json::{json, Value};

use super::{FORMAT, LOST_REASONS};
use crate::lab::Run;
use crate::protocols::{BeliefEnd, EventKind, Note};

/// The run's history, one JSON object per line, the header first.
pub fn write(run: &Run) -> String {
    let s = &run.scenario;
    let title = if s.title.is_empty() { String::new() } else { format!(",\"title\":{}", json!(s.title)) };
    // The lock service's shape, where it is not the approach's default: its lanes.
    let mut shape = Vec::new();
    if let Some(n) = s.lock.servers {
        shape.push(format!("\"servers\":{n}"));
    }
    if s.lock.replica {
        shape.push("\"replica\":true".to_string());
    }
    let lock = if shape.is_empty() { String::new() } else { format!(",\"lock\":{{{}}}", shape.join(",")) };
    let header = format!(
        "{{\"history\":{FORMAT},\"approach\":{},\"fencing\":{},\"id\":{}{title}{lock}}}",
        json!(s.approach.id()),
        s.storage.fencing,
        json!(s.id)
    );
    let trace = &run.trace;
    // Each acquisition's commits, in order: when and with which token. A grant whose client
    // was told no token (DynamoDB's record version) still carried the service's; one committed
    // before its client heard (a reply read after a pause; a conditional write's read at
    // storage) says when (`committed_at`): the verdict orders grants by their commits.
    let mut committed: Vec<((usize, u32), i64, Option<u64>)> = Vec::new();
    let quorum = crate::scenario::nodes::quorum(s).max(1);
    let mut out: Vec<(i64, String)> = Vec::new();
    for e in &trace.events {
        match &e.kind {
            EventKind::Note(Note::LockCommitted { client, attempt, token, .. }) => committed.push(((*client, *attempt), e.at_ms, *token)),
            EventKind::Note(Note::VersionRead { client, attempt, version }) => {
                committed.push(((*client, *attempt), e.at_ms, Some(*version)))
            }
            _ => {}
        }
        // Events of no one node (a machine's, `sim::NO_NODE`) have no line.
        let Some(who) = trace.nodes.get(e.node).map(|n| n.name.as_str()) else { continue };
        let line = |op: &str, more: Value| about(e.at_ms, who, op, more);
        let written = match &e.kind {
            EventKind::Note(n) => match n {
                Note::AcquireStarted { .. } => Some(line("acquire", json!({}))),
                Note::AcquireFailed { .. } => Some(line("denied", json!({}))),
                Note::BeliefStarted { token, validity_ms, attempt } => {
                    let key = (e.node, *attempt);
                    let mine: Vec<&(_, i64, Option<u64>)> = committed.iter().filter(|(k, _, _)| *k == key).collect();
                    let token = token.or_else(|| mine.last().and_then(|(_, _, t)| *t));
                    // The commit that made it a grant: the quorum-th (Redlock's majority).
                    let at = mine.get(quorum - 1).or(mine.last()).map(|(_, at, _)| *at).filter(|&at| at < e.at_ms);
                    // No commit at all: told it holds a lock the service never granted.
                    let never = mine.is_empty().then_some(false);
                    Some(line("grant", json!({ "token": token, "ttl_ms": validity_ms, "committed_at": at, "committed": never })))
                }
                Note::BeliefEnded { reason: BeliefEnd::Released } => Some(line("release", json!({}))),
                Note::BeliefEnded { reason } => {
                    let name = LOST_REASONS.iter().find(|(_, r)| r == reason).map(|(n, _)| *n);
                    Some(line("lost", json!({ "reason": name })))
                }
                // The service's facts are about a process: written on its line.
                Note::LockExpired { holder } => Some(about(e.at_ms, trace.name(*holder), "expire", json!({}))),
                Note::LockExtended { holder, expires_wall_ms } => {
                    Some(about(e.at_ms, trace.name(*holder), "renew", json!({ "ttl_ms": (expires_wall_ms - e.at_ms).max(1) })))
                }
                Note::WriteApplied { client, token, accepted, .. } => Some(about(
                    e.at_ms,
                    trace.name(*client),
                    "write",
                    json!({ "token": token, "result": if *accepted { "accepted" } else { "rejected" } }),
                )),
                _ => None,
            },
            EventKind::Paused { until_ms } => Some(line("pause", json!({ "ms": until_ms - e.at_ms }))),
            EventKind::Crashed { .. } => Some(line("crash", json!({}))),
            EventKind::Restarted => Some(line("restart", json!({}))),
            _ => None,
        };
        out.extend(written);
    }
    // A grant written at its read's time may come before lines already written.
    crate::sort::by_key(&mut out, |(t, _)| *t);
    let lines = std::iter::once(header).chain(out.into_iter().map(|(_, l)| l));
    lines.collect::<Vec<_>>().join("\n") + "\n"
}

/// A line at `t` about `process`, its fields in the order the format lists them (`t`,
/// `process`, `op`, then the op's own): written by hand because serde_json's map sorts keys.
fn about(t: i64, process: &str, op: &str, more: Value) -> (i64, String) {
    let mut fields = vec![format!("\"t\":{t}"), format!("\"process\":{}", json!(process)), format!("\"op\":{}", json!(op))];
    if let Value::Object(m) = more {
        fields.extend(m.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| format!("{}:{v}", json!(k))));
    }
    (t, format!("{{{}}}", fields.join(",")))
}
