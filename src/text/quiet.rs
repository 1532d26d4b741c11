//! The one caption for a stretch played at fast-forward: how long it is and what routine
//! traffic fills it ("9.5 s pass: B asks 38 times and is refused: A holds the lock.").

use crate::decimal::seconds;
use crate::protocols::{AcquireFailure, EventKind, Msg, Note, Trace};
use crate::sim::{NodeId, Time};
use crate::timeline::draw::words::and_list;

/// What happens in true time (from, to): retries per client, keep-alives, heartbeats.
pub fn summary(trace: &Trace, from: Time, to: Time) -> String {
    let lo = trace.events.partition_point(|e| e.at_ms <= from);
    let hi = trace.events.partition_point(|e| e.at_ms < to);
    let mut refused: Vec<(NodeId, u32, Vec<NodeId>)> = Vec::new();
    let mut other_failures: Vec<(NodeId, u32)> = Vec::new();
    let (mut keepalives, mut heartbeats) = (0u32, 0u32);
    for e in &trace.events[lo..hi.max(lo)] {
        match &e.kind {
            EventKind::Note(Note::LockBusy { client, holder }) => match refused.iter_mut().find(|r| r.0 == *client) {
                Some(r) => {
                    r.1 += 1;
                    if !r.2.contains(holder) {
                        r.2.push(*holder);
                    }
                }
                None => refused.push((*client, 1, vec![*holder])),
            },
            EventKind::Note(Note::AcquireFailed { reason, .. }) if !matches!(reason, AcquireFailure::Busy) => {
                match other_failures.iter_mut().find(|f| f.0 == e.node) {
                    Some(f) => f.1 += 1,
                    None => other_failures.push((e.node, 1)),
                }
            }
            EventKind::Sent { msg: Msg::KeepAlive { .. }, .. } => keepalives += 1,
            EventKind::Sent { msg: Msg::Append { entries, .. }, .. } if entries.is_empty() => heartbeats += 1,
            EventKind::Sent { msg: Msg::ReplicaSync { .. }, .. } => heartbeats += 1,
            _ => {}
        }
    }
    let name = |n: NodeId| trace.nodes.get(n).map_or("?", |i| i.name.as_str());
    let mut parts: Vec<String> = Vec::new();
    for (client, times, holders) in &refused {
        let holders: Vec<&str> = holders.iter().map(|&h| name(h)).collect();
        parts.push(format!("{} is refused {} while {} holds the lock", name(*client), times_word(*times), and_list(&holders)));
    }
    for (client, times) in &other_failures {
        parts.push(format!("{} fails to get the lock {}", name(*client), times_word(*times)));
    }
    if keepalives > 0 {
        parts.push(format!("{keepalives} keep-alive{} keep sessions open", if keepalives == 1 { "" } else { "s" }));
    }
    if heartbeats > 0 && parts.is_empty() {
        parts.push("the servers exchange heartbeats".into());
    }
    let span = seconds(to - from);
    if parts.is_empty() {
        format!("{span} pass with nothing new.")
    } else {
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        format!("{span} pass: {}.", and_list(&parts))
    }
}

fn times_word(n: u32) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}
