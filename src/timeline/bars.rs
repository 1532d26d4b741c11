//! Intervals and point marks on lanes: what each client believes, what the lock service holds,
//! pauses, outages, clock changes, overlaps and partitions.

use super::clocks::Clocks;
use crate::check::{self, Verdict};
use crate::protocols::{BeliefEnd, EventKind, Note, Trace};
use crate::sim::{ClockKind, NodeId, Time};

/// A client believing it holds the lock (the checker's definition: from accepting a grant
/// until it processes what ends it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeliefBar {
    pub client: NodeId,
    pub from: Time,
    /// End of the belief, or the end of the run while `open`.
    pub to: Time,
    pub open: bool,
    pub token: Option<u64>,
    /// True time at which the client's own validity timer was due: where a client that is
    /// not paused would have stopped believing.
    pub deadline: Option<Time>,
    /// What ended it (None while open or when a crash did).
    pub end: Option<BeliefEnd>,
    pub event: usize,
    /// The event that ended it (None while open): what it shares its millisecond with
    /// happens before or after it (see `Timeline::lane_state_upto`).
    pub end_event: Option<usize>,
}

/// Why a lock server stopped holding a client's lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaseEnd {
    /// Still held when the run ended.
    Open,
    /// TTL ran out by the server's clock.
    Expired,
    /// The holder released it.
    Released,
    /// Another client's unlock removed it (the plain-DEL bug).
    DeletedBy(NodeId),
    /// The server restarted without it.
    StateLost,
    /// The same client was granted again before this one was seen to end.
    Superseded,
    /// Ensembles: leadership moved; the lease continues on the new leader's lane.
    Moved,
    /// Redis: the server became a replica of a newer primary and dropped its own state.
    Demoted,
}

/// A lease as one lock server holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseBar {
    pub server: NodeId,
    pub holder: NodeId,
    pub token: Option<u64>,
    pub from: Time,
    pub to: Time,
    pub end: LeaseEnd,
    /// When the TTL would run out by the server's wall clock as known at the grant, following
    /// later clock steps and drift.
    pub planned_end: Option<Time>,
    /// Granted while another client still believed it held the lock.
    pub takeover: bool,
    pub event: usize,
    /// The event that ended it, if one did.
    pub end_event: Option<usize>,
}

/// A client's lease as the lock *service* holds it (on at least a quorum of its servers),
/// drawn under the client's belief so the two can be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldBar {
    pub client: NodeId,
    pub from: Time,
    pub to: Time,
    pub token: Option<u64>,
    pub end: LeaseEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandKind {
    /// Frozen: GC pause, VM stall, SIGSTOP.
    Paused,
    /// Crashed and not (yet) restarted.
    Down { machine: bool },
}

/// A stretch of a lane where the node is not running normally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    pub node: NodeId,
    pub from: Time,
    pub to: Time,
    pub kind: BandKind,
    /// The events that start and end it (None: it lasts to the end of the run or its planned end).
    pub from_event: usize,
    pub to_event: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Crash {
        machine: bool,
    },
    Restart,
    ClockJump {
        by_ms: i64,
    },
    ClockDrift {
        ppm: i64,
    },
    StateLost,
    LinkCut {
        to: NodeId,
    },
    LinkDelayed {
        to: NodeId,
        by_ms: i64,
    },
    /// Became leader (ensemble election) or primary (Redis failover).
    Leader {
        epoch: u64,
    },
    /// Stopped leading (stepped down, or demoted to replica).
    Follower {
        epoch: u64,
    },
}

/// Something that happens at one instant on one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub node: NodeId,
    pub at: Time,
    pub kind: MarkKind,
    pub event: usize,
}

/// Two or more clients believing at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverlapBand {
    pub from: Time,
    pub to: Time,
    pub clients: Vec<NodeId>,
}

/// A network partition; `groups` includes the implicit group of unlisted nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionBand {
    pub from: Time,
    pub to: Time,
    pub groups: Vec<Vec<NodeId>>,
}

pub fn beliefs(trace: &Trace, clocks: &Clocks) -> Vec<BeliefBar> {
    let starts = trace.events.iter().enumerate().filter_map(|(i, e)| match e.kind {
        EventKind::Note(Note::BeliefStarted { token, validity_ms, .. }) => Some((i, token, validity_ms)),
        _ => None,
    });
    // `check::beliefs` lists intervals in the order of their BeliefStarted events.
    check::beliefs(trace)
        .into_iter()
        .zip(starts)
        .map(|(b, (event, token, validity_ms))| {
            let deadline = clocks
                .at(b.client, b.from_ms)
                .zip(validity_ms)
                .and_then(|(c, v)| clocks.true_time_when(b.client, ClockKind::Mono, b.from_ms, c.mono_ms + v));
            let end = b.to_ms.and_then(|to| {
                trace.events.iter().enumerate().skip(event).find_map(|(i, e)| match e.kind {
                    EventKind::Note(Note::BeliefEnded { reason }) if e.node == b.client && e.at_ms == to => Some((Some(reason), i)),
                    EventKind::Crashed { .. } if e.node == b.client && e.at_ms == to => Some((None, i)),
                    _ => None,
                })
            });
            BeliefBar {
                client: b.client,
                from: b.from_ms,
                to: b.to_ms.unwrap_or(trace.duration_ms),
                open: b.to_ms.is_none(),
                token,
                deadline,
                end: end.and_then(|(reason, _)| reason),
                event,
                end_event: end.map(|(_, i)| i),
            }
        })
        .collect()
}

/// Leases as the lock servers hold them. With `shared` (an ensemble: one replicated lock, noted
/// by whichever server leads) an end noted on any server ends the lease, and a lease follows
/// leadership to the new leader's lane; otherwise (Redlock, a single server) each server
/// holds its own.
pub fn leases(trace: &Trace, clocks: &Clocks, beliefs: &[BeliefBar], shared: bool) -> Vec<LeaseBar> {
    let mut out: Vec<LeaseBar> = Vec::new();
    let close = |out: &mut Vec<LeaseBar>, event: usize, holder: Option<NodeId>, end: LeaseEnd| {
        let e = &trace.events[event];
        let here = |l: &LeaseBar| shared || l.server == e.node;
        for l in out.iter_mut().filter(|l| here(l) && l.end == LeaseEnd::Open && holder.is_none_or(|h| h == l.holder)) {
            l.to = e.at_ms;
            l.end = end;
            l.end_event = Some(event);
        }
    };
    for (i, e) in trace.events.iter().enumerate() {
        let EventKind::Note(note) = &e.kind else { continue };
        match *note {
            Note::LockCommitted { client, token, expires_wall_ms, .. } => {
                close(&mut out, i, Some(client), LeaseEnd::Superseded);
                let takeover = beliefs.iter().any(|b| b.client != client && b.from <= e.at_ms && e.at_ms < b.to);
                out.push(LeaseBar {
                    server: e.node,
                    holder: client,
                    token,
                    from: e.at_ms,
                    to: trace.duration_ms,
                    end: LeaseEnd::Open,
                    planned_end: expires_wall_ms.and_then(|w| clocks.true_time_when(e.node, ClockKind::Wall, e.at_ms, w)),
                    takeover,
                    event: i,
                    end_event: None,
                });
            }
            Note::LockExpired { holder } => close(&mut out, i, Some(holder), LeaseEnd::Expired),
            // A renewal (Redisson's watchdog) moves the end the server planned.
            Note::LockExtended { holder, expires_wall_ms } => {
                for l in out.iter_mut().filter(|l| l.server == e.node && l.holder == holder && l.end == LeaseEnd::Open) {
                    l.planned_end = clocks.true_time_when(e.node, ClockKind::Wall, e.at_ms, expires_wall_ms);
                }
            }
            Note::LockReleased { holder, by } => {
                let end = if by == holder { LeaseEnd::Released } else { LeaseEnd::DeletedBy(by) };
                close(&mut out, i, Some(holder), end);
            }
            // The keys went with the restart itself: the note that says so comes right after
            // the node's `Restarted` event, and from that event on the server holds nothing
            // (its lane must not read "lock: A" at "redis restarts").
            Note::StateLost { .. } => close(&mut out, restart_of(trace, i), None, LeaseEnd::StateLost),
            Note::Demoted { .. } if !shared => close(&mut out, i, None, LeaseEnd::Demoted),
            Note::LeaderElected { .. } if shared => {
                let moving: Vec<LeaseBar> = out.iter().filter(|l| l.end == LeaseEnd::Open && l.server != e.node).cloned().collect();
                for l in moving {
                    close(&mut out, i, Some(l.holder), LeaseEnd::Moved);
                    out.push(LeaseBar { server: e.node, from: e.at_ms, takeover: false, event: i, end_event: None, ..l });
                }
            }
            _ => {}
        }
    }
    out
}

/// The `Restarted` event a state-lost note at `i` reports on: the same node's, in the same
/// millisecond, before it (the note itself where there is none).
fn restart_of(trace: &Trace, i: usize) -> usize {
    let e = &trace.events[i];
    let same_ms = trace.events[..i].iter().enumerate().rev().take_while(|(_, x)| x.at_ms == e.at_ms);
    same_ms.filter(|(_, x)| x.node == e.node && matches!(x.kind, EventKind::Restarted)).map(|(j, _)| j).next().unwrap_or(i)
}

/// Where at least `quorum` servers hold each client's lease at once.
pub fn held(leases: &[LeaseBar], quorum: usize) -> Vec<HeldBar> {
    let mut clients: Vec<NodeId> = leases.iter().map(|l| l.holder).collect();
    crate::sort::unique(&mut clients);
    let mut out = Vec::new();
    for client in clients {
        let mine: Vec<&LeaseBar> = leases.iter().filter(|l| l.holder == client).collect();
        // Ends sort before starts at the same instant, so back-to-back leases do not overlap.
        let mut edges: Vec<(Time, bool, usize)> = Vec::new();
        // A lease that ends the instant it starts holds nothing (its end would sort before
        // its start).
        for (k, l) in mine.iter().enumerate().filter(|(_, l)| l.from < l.to) {
            edges.push((l.from, true, k));
            edges.push((l.to, false, k));
        }
        crate::sort::by_key(&mut edges, |&(t, starts, k)| (t, starts, k));
        let mut count = 0usize;
        let mut open: Option<(Time, Option<u64>)> = None;
        for (t, starts, k) in edges {
            if starts {
                count += 1;
                if count == quorum {
                    open = Some((t, mine[k].token));
                }
            } else {
                if count == quorum {
                    if let Some((from, token)) = open.take() {
                        out.push(HeldBar { client, from, to: t, token, end: mine[k].end });
                    }
                }
                count -= 1;
            }
        }
    }
    crate::sort::by_key(&mut out, |h| (h.client, h.from));
    // A lease that moved with leadership is one lease to its client.
    let mut merged: Vec<HeldBar> = Vec::with_capacity(out.len());
    for h in out {
        match merged.last_mut() {
            Some(p) if p.client == h.client && p.to == h.from && p.end == LeaseEnd::Moved => {
                p.to = h.to;
                p.end = h.end;
            }
            _ => merged.push(h),
        }
    }
    crate::sort::by_key(&mut merged, |h| (h.from, h.client));
    merged
}

pub fn bands(trace: &Trace) -> Vec<Band> {
    let mut out = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let later = &trace.events[i + 1..];
        let (kind, fallback) = match e.kind {
            EventKind::Paused { until_ms } => (BandKind::Paused, until_ms.min(trace.duration_ms)),
            EventKind::Crashed { machine } => (BandKind::Down { machine }, trace.duration_ms),
            _ => continue,
        };
        let ends = |k: &EventKind| match kind {
            BandKind::Paused => matches!(k, EventKind::Resumed | EventKind::Crashed { .. }),
            BandKind::Down { .. } => matches!(k, EventKind::Restarted),
        };
        let end = later.iter().position(|l| l.node == e.node && ends(&l.kind));
        let to = end.map_or(fallback, |j| later[j].at_ms);
        out.push(Band { node: e.node, from: e.at_ms, to, kind, from_event: i, to_event: end.map(|j| i + 1 + j) });
    }
    out
}

pub fn marks(trace: &Trace) -> Vec<Mark> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(event, e)| {
            let kind = match e.kind {
                EventKind::Crashed { machine } => MarkKind::Crash { machine },
                EventKind::Restarted => MarkKind::Restart,
                EventKind::ClockJumped { by_ms } => MarkKind::ClockJump { by_ms },
                EventKind::ClockDrift { ppm } => MarkKind::ClockDrift { ppm },
                EventKind::LinkCut { to, .. } => MarkKind::LinkCut { to },
                EventKind::LinkDelayed { to, by_ms, .. } => MarkKind::LinkDelayed { to, by_ms },
                EventKind::Note(Note::StateLost { .. }) => MarkKind::StateLost,
                EventKind::Note(Note::LeaderElected { epoch } | Note::Promoted { epoch }) => MarkKind::Leader { epoch },
                EventKind::Note(Note::SteppedDown { epoch } | Note::Demoted { epoch, .. }) => MarkKind::Follower { epoch },
                _ => return None,
            };
            Some(Mark { node: e.node, at: e.at_ms, kind, event })
        })
        .collect()
}

pub fn overlaps(trace: &Trace, verdict: &Verdict) -> Vec<OverlapBand> {
    verdict
        .overlaps
        .iter()
        .map(|o| OverlapBand { from: o.from_ms, to: o.to_ms, clients: o.clients.iter().filter_map(|c| trace.node_id(c)).collect() })
        .collect()
}

pub fn partitions(trace: &Trace) -> Vec<PartitionBand> {
    let mut out = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let EventKind::PartitionStarted { groups, until_ms } = &e.kind else { continue };
        let healed =
            trace.events[i + 1..].iter().find(|l| matches!(l.kind, EventKind::PartitionHealed | EventKind::PartitionStarted { .. }));
        let to = healed.map_or(until_ms.unwrap_or(trace.duration_ms), |l| l.at_ms);
        let mut groups = groups.clone();
        let rest: Vec<NodeId> = (0..trace.nodes.len()).filter(|n| !groups.iter().any(|g| g.contains(n))).collect();
        if !rest.is_empty() {
            groups.push(rest);
        }
        out.push(PartitionBand { from: e.at_ms, to: to.min(trace.duration_ms), groups });
    }
    out
}
