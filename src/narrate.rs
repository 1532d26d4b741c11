//! Plain-language captions for trace events, written for a student watching the diagram.

use crate::decimal::seconds as secs;
use crate::protocols::{AcquireFailure, BeliefEnd, ClientPhase, Event, EventKind, Msg, Note, Trace};
use crate::scenario::Approach;
use crate::sim::{LossReason, NodeId, Role};

/// How a message reads on the wire, for the approach in use.
pub fn message_label(approach: Approach, msg: &Msg) -> String {
    let db = approach == Approach::DbLease;
    let zk = approach == Approach::Zookeeper;
    match msg {
        Msg::Acquire { ttl_ms, value, .. } if db => {
            format!("upsert lease row, expires now()+{} (owner {:04x})", secs(*ttl_ms), value & 0xffff)
        }
        Msg::Acquire { ttl_ms, value, .. } => format!("SET lock {:04x}… NX PX {ttl_ms}", value & 0xffff),
        Msg::AcquireReply { granted: true, token, .. } if db => format!("row returned, {}", approach.token_label(*token)),
        Msg::AcquireReply { granted: false, .. } if db => "no row: busy".into(),
        Msg::AcquireReply { granted: true, token, .. } => format!("OK, {}", approach.token_label(*token)),
        Msg::AcquireReply { granted: false, .. } => "nil (key exists)".into(),
        // Short: a label in flight sits beside its dot, often over other labels.
        Msg::Release { safe: true, .. } if db => "release: expire row if token matches".into(),
        Msg::Release { safe: false, .. } if db => "DELETE lock row (any owner)".into(),
        Msg::Release { safe: true, value, .. } => format!("EVAL compare-and-delete {:04x}…", value & 0xffff),
        Msg::Release { safe: false, .. } => "DEL lock".into(),
        Msg::ReleaseReply { released, .. } => (if *released { "released" } else { "not yours: nothing deleted" }).into(),
        Msg::Write { token, .. } => format!("write ({})", approach.token_label(*token)),
        Msg::WriteReply { accepted: true, .. } => "write OK".into(),
        Msg::WriteReply { accepted: false, .. } => "write rejected: stale token".into(),
        Msg::OpenSession { ttl_ms, .. } if zk => format!("connect: new session, timeout {}", secs(*ttl_ms)),
        Msg::OpenSession { ttl_ms, .. } => format!("LeaseGrant TTL {}", secs(*ttl_ms)),
        Msg::SessionReply { session, ttl_ms, .. } if zk => format!("session 0x{session:x} ({} negotiated)", secs(*ttl_ms)),
        Msg::SessionReply { session, ttl_ms, .. } => format!("lease {session:x}, TTL {}", secs(*ttl_ms)),
        Msg::CreateLockNode { .. } if zk => "create /lock/guid-lock- EPHEMERAL_SEQUENTIAL".into(),
        Msg::CreateLockNode { session, .. } => format!("Txn: if CreateRevision(lock/{session:x}) == 0 then Put"),
        Msg::CreateReply { token, .. } => format!("created, {}", approach.token_label(Some(*token))),
        Msg::ListLockNodes { .. } if zk => "getChildren /lock".into(),
        Msg::ListLockNodes { .. } => "Get lock/ --prefix, sort by create revision".into(),
        Msg::ListReply { predecessor: None, mine: Some(_), .. } => "yours is lowest: you hold the lock".into(),
        Msg::ListReply { predecessor: Some(p), .. } => format!("queued behind {}", approach.token_label(Some(*p))),
        Msg::ListReply { mine: None, .. } => "your node is gone".into(),
        Msg::WatchNode { token, .. } if zk => format!("exists({}, watch)", approach.token_label(Some(*token))),
        Msg::WatchNode { token, .. } => format!("Watch DELETE of {}", approach.token_label(Some(*token))),
        Msg::WatchReply { exists: true, .. } => "watch set".into(),
        Msg::WatchReply { exists: false, .. } => "already gone".into(),
        Msg::WatchFired { token, .. } => format!("watch fired: {} deleted", approach.token_label(Some(*token))),
        Msg::DeleteLockNode { .. } => "delete own lock node".into(),
        Msg::DeleteReply { .. } => "deleted".into(),
        Msg::CloseSession { .. } if zk => "close session".into(),
        Msg::CloseSession { .. } => "LeaseRevoke".into(),
        Msg::CloseReply { .. } => "closed".into(),
        Msg::KeepAlive { .. } if zk => "ping".into(),
        Msg::KeepAlive { .. } => "LeaseKeepAlive".into(),
        Msg::KeepAliveReply { alive: true, .. } => "alive".into(),
        Msg::KeepAliveReply { alive: false, .. } if zk => "SESSION EXPIRED".into(),
        Msg::KeepAliveReply { alive: false, .. } => "lease not found (TTL 0)".into(),
        Msg::SessionClosed { session } => format!("connection closed: session 0x{session:x} is gone"),
        Msg::Reconnect { session, .. } => format!("reconnect with session 0x{session:x}"),
        Msg::ReconnectRefused { .. } => "SESSION EXPIRED (reconnect refused)".into(),
        Msg::NotLeader { leader: Some(_), .. } => "not the leader; try the leader".into(),
        Msg::NotLeader { leader: None, .. } => "not the leader; no leader known".into(),
        Msg::Append { entries, .. } if entries.is_empty() => "heartbeat".into(),
        Msg::Append { entries, .. } => format!("replicate {} log entr{}", entries.len(), if entries.len() == 1 { "y" } else { "ies" }),
        Msg::AppendReply { ok: true, len, .. } => format!("ack (log length {len})"),
        Msg::AppendReply { ok: false, .. } => "nack: logs differ".into(),
        Msg::RequestVote { epoch, .. } => format!("vote for me (epoch {epoch})"),
        Msg::VoteReply { granted: true, .. } => "vote granted".into(),
        Msg::VoteReply { granted: false, .. } => "vote refused".into(),
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
    let servers: Vec<&str> = trace.nodes.iter().filter(|n| n.role == Role::LockServer).map(|n| n.name.as_str()).collect();
    let service = match servers.as_slice() {
        [one] => one.to_string(),
        _ if approach == Approach::Redlock => "every instance".to_string(),
        _ => "the leader".to_string(),
    };
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
        Note::AcquireFailed { reason: AcquireFailure::SessionExpired, retry_in_ms, .. } => {
            format!("{me}'s session expired while it waited in the queue; it starts over in {retry_in_ms} ms.")
        }
        Note::AcquireFailed { reason: AcquireFailure::NoQuorum { granted, needed }, retry_in_ms, .. } => format!(
            "Only {granted} instance(s) said OK; {me} needs {needed}. It unlocks every instance and retries in {retry_in_ms} ms."
        ),
        Note::AcquireFailed { reason: AcquireFailure::ValidityExhausted { validity_ms }, retry_in_ms, .. } if approach != Approach::Redlock => format!(
            "{me} was granted the lock, but the reply came so late that its TTL had already run out by {me}'s clock ({validity_ms} ms left). It gives the lock back and retries in {retry_in_ms} ms."
        ),
        Note::AcquireFailed { reason: AcquireFailure::ValidityExhausted { validity_ms }, retry_in_ms, .. } => format!(
            "{me} got a majority, but so slowly that no validity was left ({validity_ms} ms). It unlocks everything and retries in {retry_in_ms} ms."
        ),
        Note::BeliefStarted { token, validity_ms: Some(v), .. } => {
            format!("{me} now holds the lock ({}) and believes it for the next {} by its own clock.", approach.token_label(*token), secs(*v))
        }
        Note::BeliefStarted { token, validity_ms: None, .. } => {
            format!("{me} now holds the lock ({}) and will believe it until the ensemble tells it its session is gone.", approach.token_label(*token))
        }
        Note::BeliefEnded { reason: BeliefEnd::SessionExpired } => {
            format!("{me} hears back that its session expired: only now does it know it lost the lock.")
        }
        Note::BeliefEnded { reason: BeliefEnd::ValidityExpired } => format!("{me}'s own timer says its lease has run out: it stops believing it holds the lock and gives it back."),
        Note::BeliefEnded { reason: BeliefEnd::Released } => format!("{me} is done writing and releases the lock."),
        Note::BeliefEnded { reason: BeliefEnd::WriteRejected } => format!("Storage rejected {me}'s write: only now does {me} learn it lost the lock."),
        Note::WriteSent { n, token } => format!("{me} sends write #{n} to storage ({}) — it has not re-checked the lock, it just believes it holds it.", approach.token_label(*token)),
        Note::WriteTimedOut { n } => format!("{me} got no reply to write #{n} in time and moves on."),
        Note::ReleaseSent => format!("{me} sends its release to {service}."),
        Note::Finished => format!("{me} is finished with the lock."),
        Note::StartedOver { incarnation, predecessor } => {
            let what = if matches!(approach, Approach::Zookeeper | Approach::Etcd) { "session" } else { "lock" };
            let left = match predecessor {
                ClientPhase::Holding => format!(
                    " Its old process held the lock: whatever of its {what} is still at the lock service stays there until it expires, and until then blocks the others, the new {me} included."
                ),
                ClientPhase::Releasing => format!(" Its old process was giving the lock back: if that release did not get through, its {what} stays at the lock service until it expires."),
                ClientPhase::Acquiring => format!(" Its old process was asking for the lock: whatever it was granted stays at the lock service until it expires."),
                ClientPhase::Waiting | ClientPhase::Done => String::new(),
            };
            format!("{me} is back as a new process (restart {incarnation}): it remembers nothing and starts its job over.{left}")
        }
        Note::Disconnected { .. } => format!(
            "{me} notices its connection was closed (Disconnected, SUSPENDED): it cannot tell whether its session still lives, keeps believing, and reconnects."
        ),
        Note::Reconnected { .. } => format!("{me} reconnected: its session is still alive."),
        Note::LockCommitted { client, token, .. } => format!("{me} grants the lock to {} ({}).", name(*client), approach.token_label(*token)),
        Note::LockBusy { client, holder } => format!("{me} refuses {}: the lock is held by {}.", name(*client), name(*holder)),
        Note::LockExpired { holder } if matches!(approach, Approach::Zookeeper | Approach::Etcd) => {
            format!("{}'s lock node is gone with its {}: the lock is free for the next in line. {} may not know yet.", name(*holder), if approach == Approach::Zookeeper { "session" } else { "lease" }, name(*holder))
        }
        Note::LockExpired { holder } => format!("{}'s {lease} expired at {me} (by {me}'s clock). {} may not know yet.", name(*holder), name(*holder)),
        Note::LockReleased { holder, by } if holder == by => format!("{me} released {}'s lock.", name(*holder)),
        Note::LockReleased { holder, by } => format!("{} deleted {}'s lock! A plain unlock does not check whose lock it removes.", name(*by), name(*holder)),
        Note::UnlockRefused { by, holder: Some(h) } => format!("{me} left the lock alone: it belongs to {}, not {}.", name(*h), name(*by)),
        Note::UnlockRefused { by, holder: None } => format!("{}'s release found nothing to release: its lock had already expired.", name(*by)),
        Note::LeaderElected { epoch } => format!("{me} is now the leader (epoch {epoch}). Sessions and leases get a fresh full timeout from it."),
        Note::SteppedDown { .. } => {
            format!("{me} is no longer the leader: it lost touch with a majority, or heard of a newer epoch.")
        }
        Note::SessionOpened { client, ttl_ms, .. } if approach == Approach::Zookeeper => {
            format!("{}'s session is open (timeout {}); pings every third of it keep it alive.", name(*client), secs(*ttl_ms))
        }
        Note::SessionOpened { client, ttl_ms, .. } => format!("{}'s lease is granted (TTL {}); keepalives every third of it renew it.", name(*client), secs(*ttl_ms)),
        Note::SessionExpired { client, .. } => format!(
            "The leader has not heard from {} for a whole timeout and expires its {}: its lock node is deleted and watchers are told. {} does not know.",
            name(*client),
            if approach == Approach::Zookeeper { "session" } else { "lease" },
            name(*client)
        ),
        Note::LockQueued { client, token } => format!("{}'s lock node joins the queue ({}).", name(*client), approach.token_label(Some(*token))),
        Note::Promoted { epoch } => format!("{me} has not heard from its primary for 1 s and promotes itself (epoch {epoch}). It only has what had been replicated to it."),
        Note::Demoted { primary, .. } => format!("{me} hears from the new primary {} and becomes its replica, dropping its own state.", name(*primary)),
        Note::RowDeleted { owner, by, token_was } => format!(
            "{}'s plain release deleted {} lease row (token {token_was}): the token column goes with it, so the next grant inserts a fresh row with token 1.",
            name(*by),
            if owner == by { "its own".to_string() } else { format!("{}'s", name(*owner)) }
        ),
        Note::StateLost { token_counter_was } => format!("{me} came back empty: the lock and the token counter (was {token_counter_was}) are gone, so tokens start again from 1."),
        Note::WriteApplied { client, token, accepted: true, highest_before, .. } => match (token, highest_before) {
            (Some(t), Some(h)) if t < h => format!("Storage accepts {}'s write with {} even though it has seen {}: fencing is off, so a stale write overwrites newer data.", name(*client), approach.token_label(Some(*t)), approach.token_label(Some(*h))),
            (None, _) => format!("Storage accepts {}'s write; it carries no fencing token.", name(*client)),
            _ => format!("Storage accepts {}'s write ({}).", name(*client), approach.token_label(*token)),
        },
        Note::WriteApplied { client, token, accepted: false, highest_before, .. } => format!(
            "Storage rejects {}'s write: {} is lower than the {} it has already accepted. Fencing stopped a stale write.",
            name(*client),
            approach.token_label(*token),
            approach.token_label(*highest_before)
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
