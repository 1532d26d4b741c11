//! How a message reads on the wire, for the diagram's arrows and the captions.

use super::{Approach, Msg};
use crate::decimal::seconds;

/// How a message reads on the wire, for the approach in use: the approach's own words
/// (`Spec::words`) where it has them, else the common ones below.
pub fn message_label(approach: Approach, msg: &Msg) -> String {
    if let Some(words) = (approach.spec().words.message)(msg) {
        return words;
    }
    match msg {
        Msg::Acquire { ttl_ms, .. } => format!("acquire, TTL {}", seconds(*ttl_ms)),
        Msg::AcquireReply { granted: true, token, .. } => format!("granted, {}", approach.token_label(*token)),
        Msg::AcquireReply { granted: false, .. } => "busy".into(),
        Msg::Release { .. } => "release".into(),
        Msg::ReleaseReply { released, .. } => (if *released { "released" } else { "not yours: nothing deleted" }).into(),
        Msg::Write { token, .. } => format!("write ({})", approach.token_label(*token)),
        Msg::WriteReply { accepted: true, .. } => "write OK".into(),
        Msg::WriteReply { accepted: false, .. } => "write rejected: stale token".into(),
        Msg::Read { .. } => "read".into(),
        Msg::AcquireRefused { lock_delay: true, .. } => "refused: lock-delay in force".into(),
        Msg::AcquireRefused { .. } => "refused: held".into(),
        Msg::Extend { ttl_ms, .. } => format!("extend, TTL {}", seconds(*ttl_ms)),
        Msg::ExtendReply { extended, .. } => (if *extended { "extended" } else { "not yours: nothing extended" }).into(),
        Msg::GetLease { .. } => "read the lease".into(),
        Msg::LeaseReply { .. } => "the lease".into(),
        Msg::UpdateLease { .. } => "update the lease".into(),
        Msg::UpdateReply { stored, .. } => (if stored.is_some() { "updated" } else { "conflict" }).into(),
        Msg::ReadReply { version, .. } => approach.token_label(Some(*version)),
        Msg::OpenSession { ttl_ms, .. } => format!("open session, timeout {}", seconds(*ttl_ms)),
        Msg::SessionReply { session, ttl_ms, .. } => format!("session {session:x}, timeout {}", seconds(*ttl_ms)),
        Msg::CreateLockNode { .. } => "create lock node".into(),
        Msg::CreateReply { token, .. } => format!("created, {}", approach.token_label(Some(*token))),
        Msg::ListLockNodes { .. } => "list lock nodes".into(),
        Msg::ListReply { predecessor: None, mine: Some(_), .. } => "yours is lowest: you hold the lock".into(),
        Msg::ListReply { predecessor: Some(p), .. } => format!("queued behind {}", approach.token_label(Some(*p))),
        Msg::ListReply { mine: None, .. } => "your node is gone".into(),
        Msg::WatchNode { token, .. } => format!("watch {}", approach.token_label(Some(*token))),
        Msg::WatchReply { exists: true, .. } => "watch set".into(),
        Msg::WatchReply { exists: false, .. } => "already gone".into(),
        Msg::WatchFired { token, .. } => format!("watch fired: {} deleted", approach.token_label(Some(*token))),
        Msg::DeleteLockNode { .. } => "delete own lock node".into(),
        Msg::DeleteReply { .. } => "deleted".into(),
        Msg::CloseSession { .. } => "close session".into(),
        Msg::CloseReply { .. } => "closed".into(),
        Msg::KeepAlive { .. } => "keepalive".into(),
        Msg::KeepAliveReply { alive: true, .. } => "alive".into(),
        Msg::KeepAliveReply { alive: false, .. } => "session gone".into(),
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
        Msg::SessionClosed { session } => format!("connection closed: session 0x{session:x} is gone"),
        Msg::Reconnect { session, .. } => format!("reconnect with session 0x{session:x}"),
        Msg::ReconnectRefused { .. } => "SESSION EXPIRED (reconnect refused)".into(),
        Msg::PrimaryChanged { .. } => "failover: talk to the new primary from now on".into(),
        Msg::TcpProbe { .. } => "TCP keepalive probe".into(),
        Msg::TcpAck { .. } => "ACK (the kernel answers)".into(),
        Msg::TcpClosed { .. } => "connection closed (FIN/RST)".into(),
    }
}
