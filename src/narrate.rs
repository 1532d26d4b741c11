//! Plain-language captions for trace events, written for a student watching the diagram.

use crate::protocols::{AcquireFailure, BeliefEnd, Event, EventKind, Msg, Note, Trace};
use crate::scenario::Approach;
use crate::sim::{LossReason, NodeId, Role};

fn tok(t: Option<u64>) -> String {
    t.map_or("no token".into(), |t| format!("token {t}"))
}

fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// How a message reads on the wire, for the approach in use.
pub fn message_label(approach: Approach, msg: &Msg) -> String {
    let db = approach == Approach::DbLease;
    match msg {
        Msg::Acquire { ttl_ms, value, .. } if db => {
            format!("upsert lease row, expires now()+{} (owner {:04x})", secs(*ttl_ms), value & 0xffff)
        }
        Msg::Acquire { ttl_ms, value, .. } => format!("SET lock {:04x}… NX PX {ttl_ms}", value & 0xffff),
        Msg::AcquireReply { granted: true, token, .. } if db => format!("row returned, {}", tok(*token)),
        Msg::AcquireReply { granted: false, .. } if db => "no row: busy".into(),
        Msg::AcquireReply { granted: true, token, .. } => format!("OK, {}", tok(*token)),
        Msg::AcquireReply { granted: false, .. } => "nil (key exists)".into(),
        Msg::Release { safe: true, .. } if db => "release: expires_at = now() WHERE token matches".into(),
        Msg::Release { safe: false, .. } if db => "release: expires_at = now() (no token check)".into(),
        Msg::Release { safe: true, value, .. } => format!("EVAL compare-and-delete {:04x}…", value & 0xffff),
        Msg::Release { safe: false, .. } => "DEL lock".into(),
        Msg::ReleaseReply { released, .. } => (if *released { "released" } else { "not yours: nothing deleted" }).into(),
        Msg::Write { token, .. } => format!("write ({})", tok(*token)),
        Msg::WriteReply { accepted: true, .. } => "write OK".into(),
        Msg::WriteReply { accepted: false, .. } => "write rejected: stale token".into(),
        Msg::ReplicaSync { key: Some(k), counter, .. } => {
            format!("replicate: lock held ({:04x}…), token counter {counter}", k.value & 0xffff)
        }
        Msg::ReplicaSync { key: None, counter, .. } => format!("replicate: lock free, token counter {counter}"),
        Msg::PrimaryChanged { .. } => "failover: talk to the new primary from now on".into(),
    }
}

/// The caption for one event.
pub fn caption(trace: &Trace, approach: Approach, event: &Event) -> String {
    let name = |n: NodeId| trace.name(n).to_string();
    let me = if event.node < trace.nodes.len() { name(event.node) } else { String::new() };
    let service = trace.nodes.iter().find(|n| n.role == Role::LockServer).map_or("the lock service".to_string(), |n| n.name.clone());
    match &event.kind {
        EventKind::Sent { to, msg, lost: None, .. } => format!("{me} → {}: {}", name(*to), message_label(approach, msg)),
        EventKind::Sent { to, msg, lost: Some(reason), .. } => {
            format!("{me} → {}: {} — lost ({})", name(*to), message_label(approach, msg), loss(*reason))
        }
        EventKind::Received { from, msg, arrived_at_ms, .. } if *arrived_at_ms < event.at_ms => format!(
            "{me} finally handles {}'s \"{}\", which arrived at {} while it was paused.",
            name(*from),
            message_label(approach, msg),
            secs(*arrived_at_ms)
        ),
        EventKind::Received { from, msg, .. } => format!("{me} receives {}'s \"{}\".", name(*from), message_label(approach, msg)),
        EventKind::Lost { from, .. } => format!("A message from {} reached {me} while it was down and was lost.", name(*from)),
        EventKind::Paused { until_ms } => format!(
            "{me} freezes (a stop-the-world GC pause or VM stall) until {}. It does not notice: to {me}, no time passes.",
            secs(*until_ms)
        ),
        EventKind::Resumed => format!("{me} wakes up. It still believes everything it believed before the pause; overdue timers and queued messages are handled now, in order."),
        EventKind::ClockJumped { by_ms } => {
            let dir = if *by_ms >= 0 { "ahead" } else { "back" };
            format!("{me}'s wall clock jumped {} {dir} (an NTP step). True time did not move; anything that expires by {me}'s wall clock now expires {}.", secs(by_ms.abs()), if *by_ms >= 0 { "early" } else { "late" })
        }
        EventKind::ClockDrift { ppm } => format!("{me}'s clock now runs {} by {} ppm.", if *ppm >= 0 { "fast" } else { "slow" }, ppm.abs()),
        EventKind::Crashed { machine: true } => format!("{me}'s machine loses power: the process dies and whatever was not yet on disk is gone."),
        EventKind::Crashed { machine: false } => format!("{me} crashes (kill -9). Whatever reached the OS survives; messages in flight to it are lost."),
        EventKind::Restarted => format!("{me} restarts with what its persistence kept."),
        EventKind::PartitionStarted { groups, .. } => {
            let sides: Vec<String> = groups.iter().map(|g| g.iter().map(|&n| name(n)).collect::<Vec<_>>().join(", ")).collect();
            format!("The network partitions: {{{}}} can no longer talk to the rest.", sides.join("} | {"))
        }
        EventKind::PartitionHealed => "The partition heals; every node can talk again.".into(),
        EventKind::LinkCut { to, .. } => format!("Messages from {me} to {} are now dropped.", name(*to)),
        EventKind::LinkDelayed { to, by_ms, .. } => format!("Messages from {me} to {} are now delayed by an extra {}.", name(*to), secs(*by_ms)),
        EventKind::Note(note) => note_caption(&name, &me, &service, approach, note),
    }
}

fn loss(reason: LossReason) -> &'static str {
    match reason {
        LossReason::RandomLoss => "random packet loss",
        LossReason::LinkCut => "this link is cut",
        LossReason::Partitioned => "the network is partitioned",
        LossReason::ReceiverDown => "the receiver is down",
    }
}

fn note_caption(name: &dyn Fn(NodeId) -> String, me: &str, service: &str, approach: Approach, note: &Note) -> String {
    let lease = if approach == Approach::DbLease { "lease row" } else { "key" };
    match note {
        Note::AcquireStarted { attempt: 1 } => format!("{me} asks {service} for the lock."),
        Note::AcquireStarted { attempt } => format!("{me} tries again for the lock (attempt {attempt})."),
        Note::AcquireFailed { reason: AcquireFailure::Busy, retry_in_ms, .. } => format!("{me} did not get the lock: someone else holds it. It retries in {retry_in_ms} ms."),
        Note::AcquireFailed { reason: AcquireFailure::Timeout, retry_in_ms, .. } => format!("{me} got no usable answer in time and retries in {retry_in_ms} ms."),
        Note::AcquireFailed { reason: AcquireFailure::NoQuorum { granted, needed }, retry_in_ms, .. } => format!(
            "Only {granted} instance(s) said OK; {me} needs {needed}. It unlocks every instance and retries in {retry_in_ms} ms."
        ),
        Note::AcquireFailed { reason: AcquireFailure::ValidityExhausted { validity_ms }, retry_in_ms, .. } => format!(
            "{me} got a majority, but so slowly that no validity was left ({validity_ms} ms). It unlocks everything and retries in {retry_in_ms} ms."
        ),
        Note::BeliefStarted { token, validity_ms, .. } => format!("{me} now holds the lock ({}) and believes it for the next {} by its own clock.", tok(*token), secs(*validity_ms)),
        Note::BeliefEnded { reason: BeliefEnd::ValidityExpired } => format!("{me}'s own timer says its lease has run out: it stops believing it holds the lock and gives it back."),
        Note::BeliefEnded { reason: BeliefEnd::Released } => format!("{me} is done writing and releases the lock."),
        Note::BeliefEnded { reason: BeliefEnd::WriteRejected } => format!("Storage rejected {me}'s write: only now does {me} learn it lost the lock."),
        Note::WriteSent { n, token } => format!("{me} sends write #{n} to storage ({}) — it has not re-checked the lock, it just believes it holds it.", tok(*token)),
        Note::WriteTimedOut { n } => format!("{me} got no reply to write #{n} in time and moves on."),
        Note::ReleaseSent => format!("{me} sends its release to {service}."),
        Note::Finished => format!("{me} is finished with the lock."),
        Note::LockCommitted { client, token, .. } => format!("{me} grants the lock to {} ({}).", name(*client), tok(*token)),
        Note::LockBusy { client, holder } => format!("{me} refuses {}: the lock is held by {}.", name(*client), name(*holder)),
        Note::LockExpired { holder } => format!("{}'s {lease} expired at {me} (by {me}'s clock). {} may not know yet.", name(*holder), name(*holder)),
        Note::LockReleased { holder, by } if holder == by => format!("{me} released {}'s lock.", name(*holder)),
        Note::LockReleased { holder, by } => format!("{} deleted {}'s lock! A plain unlock does not check whose lock it removes.", name(*by), name(*holder)),
        Note::UnlockRefused { by, holder: Some(h) } => format!("{me} left the lock alone: it belongs to {}, not {}.", name(*h), name(*by)),
        Note::UnlockRefused { by, holder: None } => format!("{}'s release found nothing to release: its lock had already expired.", name(*by)),
        Note::Promoted { epoch } => format!("{me} has not heard from its primary for 1 s and promotes itself (epoch {epoch}). It only has what had been replicated to it."),
        Note::Demoted { primary, .. } => format!("{me} hears from the new primary {} and becomes its replica, dropping its own state.", name(*primary)),
        Note::StateLost { token_counter_was } => format!("{me} came back empty: the lock and the token counter (was {token_counter_was}) are gone, so tokens start again from 1."),
        Note::WriteApplied { client, token, accepted: true, highest_before, .. } => match (token, highest_before) {
            (Some(t), Some(h)) if t < h => format!("Storage accepts {}'s write with token {t} even though it has seen token {h}: fencing is off, so a stale write overwrites newer data.", name(*client)),
            (None, _) => format!("Storage accepts {}'s write; it carries no fencing token.", name(*client)),
            _ => format!("Storage accepts {}'s write ({}).", name(*client), tok(*token)),
        },
        Note::WriteApplied { client, token, accepted: false, highest_before, .. } => format!(
            "Storage rejects {}'s write: {} is lower than the {} it has already accepted. Fencing stopped a stale write.",
            name(*client),
            tok(*token),
            tok(*highest_before)
        ),
    }
}

/// Index of the last event at or before `cursor_ms` worth a caption (message receipts are
/// skipped: the send and the effect tell the story), or None before the first.
pub fn current_event(trace: &Trace, cursor_ms: i64) -> Option<usize> {
    let end = trace.events.partition_point(|e| e.at_ms <= cursor_ms);
    (0..end).rev().find(|&i| is_captioned(&trace.events[i]))
}

/// Whether an event gets its own caption when stepping.
pub fn is_captioned(e: &Event) -> bool {
    match &e.kind {
        EventKind::Received { arrived_at_ms, .. } => *arrived_at_ms < e.at_ms,
        EventKind::Sent { .. } => false,
        _ => true,
    }
}
