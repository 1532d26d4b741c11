//! Messages as arrows between lanes: sent, arrived (or lost), and handled (later than the
//! arrival when the receiver was paused).

use crate::protocols::{EventKind, Msg, Trace};
use crate::scenario::Approach;
use crate::sim::{LossReason, NodeId, Role, Time};
use crate::vec_map::VecMap;

/// One message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub msg_id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub sent: Time,
    /// When it reached `to` (also set when it vanished there because `to` was down).
    pub arrive: Option<Time>,
    /// When `to` handled it, if that happened.
    pub handled: Option<Time>,
    pub loss: Option<LossReason>,
    /// The client this exchange belongs to, for its colour.
    pub client: Option<NodeId>,
    /// Traffic with storage (writes) rather than with the lock service.
    pub data: bool,
    /// Sent by a server or storage back to a client.
    pub reply: bool,
    /// Part of a refused acquisition (a retry loop): drawn faint so the story stands out.
    pub quiet: bool,
    pub label: String,
    pub event: usize,
}

impl Arrow {
    /// Where the drawing ends: the arrival, or a short stub for a message the network lost.
    pub fn end(&self) -> Time {
        self.arrive.unwrap_or(self.sent + 2)
    }

    /// Whether it is on the wire at true time `t`.
    pub fn in_flight(&self, t: f64) -> bool {
        (self.sent as f64) <= t && t < self.end() as f64
    }
}

/// Request id and whether a message is an acquisition refused by the service. New message
/// kinds fall through as "not part of a retry loop".
fn refusal(msg: &Msg) -> Option<(u32, bool)> {
    match msg {
        Msg::Acquire { req, .. } => Some((*req, false)),
        Msg::AcquireReply { req, granted: false, .. } => Some((*req, true)),
        _ => None,
    }
}

/// Keep-alive traffic: it flows all the time and says "still here"; drawn faint.
pub(super) fn heartbeat(msg: &Msg) -> bool {
    matches!(msg, Msg::KeepAlive { .. } | Msg::KeepAliveReply { alive: true, .. })
}

pub fn arrows(trace: &Trace, approach: Approach) -> Vec<Arrow> {
    let role = |n: NodeId| trace.nodes.get(n).map(|i| i.role);
    let mut out: Vec<Arrow> = Vec::new();
    let mut by_id: VecMap<u64, usize> = VecMap::new();
    // (client, server, req) → the acquisition request's arrow.
    let mut requests: VecMap<(NodeId, NodeId, u32), usize> = VecMap::new();
    // (client, server) → whether the server's last answer to an acquisition was a refusal. A
    // release sent after a refused acquisition (Redlock unlocks every instance after a failed
    // round) is part of that retry and as faint; one after a grant keeps its ink.
    // (client, server) → whether the server's last answer to an acquisition was a refusal. A
    // release sent after a refused acquisition (Redlock unlocks every instance after a failed
    // round) belongs to that retry and is as faint, and so is its reply; one after a grant keeps
    // its ink (a refused safe unlock is part of the story).
    let mut refused_last: VecMap<(NodeId, NodeId), bool> = VecMap::new();
    let mut faint_releases: VecMap<(NodeId, NodeId, u32), usize> = VecMap::new();
    for (i, e) in trace.events.iter().enumerate() {
        match &e.kind {
            EventKind::Sent { msg_id, to, msg, arrives_at_ms, lost } => {
                let (from, to) = (e.node, *to);
                let client = [from, to].into_iter().find(|&n| role(n) == Some(Role::Client));
                let reply = role(from) != Some(Role::Client) && role(to) == Some(Role::Client);
                let mut arrow = Arrow {
                    msg_id: *msg_id,
                    from,
                    to,
                    sent: e.at_ms,
                    arrive: *arrives_at_ms,
                    handled: None,
                    loss: *lost,
                    client,
                    data: role(from) == Some(Role::Storage) || role(to) == Some(Role::Storage),
                    reply,
                    quiet: heartbeat(msg),
                    label: crate::protocols::words::message_label(approach, msg),
                    event: i,
                };
                match msg {
                    Msg::AcquireReply { granted, .. } if reply => {
                        refused_last.insert((to, from), !*granted);
                    }
                    Msg::Release { req, .. } if refused_last.get(&(from, to)) == Some(&true) => {
                        arrow.quiet = true;
                        faint_releases.insert((from, to, *req), out.len());
                    }
                    Msg::ReleaseReply { req, .. } if faint_releases.get(&(to, from, *req)).is_some() => arrow.quiet = true,
                    _ => {}
                }
                if let Some((req, refused)) = refusal(msg) {
                    if !reply {
                        requests.insert((from, to, req), out.len());
                    } else if refused {
                        arrow.quiet = true;
                        if let Some(&r) = requests.get(&(to, from, req)) {
                            out[r].quiet = true;
                        }
                    }
                }
                by_id.insert(*msg_id, out.len());
                out.push(arrow);
            }
            EventKind::Received { msg_id, .. } => {
                if let Some(&a) = by_id.get(msg_id) {
                    out[a].handled = Some(e.at_ms);
                }
            }
            EventKind::Lost { msg_id, reason, .. } => {
                if let Some(&a) = by_id.get(msg_id) {
                    out[a].loss = Some(*reason);
                    out[a].arrive = Some(e.at_ms);
                }
            }
            _ => {}
        }
    }
    out
}
