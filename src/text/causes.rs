//! The causes behind the claims captions make, derived once per run from the trace, the
//! verdict and the timeline's lease bars (which already say how each lease a server held
//! ended). Each cause is a fact about the run, not a sentence: `caption` words it.

use super::{Belief, Whereabouts};
use crate::check::Verdict;
use crate::protocols::{EventKind, GrantRef, Note, Trace};
use crate::sim::{NodeId, Time};
use crate::timeline::{LeaseBar, LeaseEnd, MarkKind, Timeline};

/// Why an event is what it is, where its caption claims more than the event itself shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A release reached a server that had nothing of the client's to release.
    NothingToRelease { client: NodeId, gone: Gone },
    /// A write as storage took it and the checker judged it.
    Write(WriteCause),
    /// The service ended `holder`'s lease (a TTL ran out, a session or lease expired), and
    /// where the holder was then. `clock_stepped`: the server's wall clock was stepped while
    /// it held the lease, so it ran out early (or late).
    LeaseEnded { holder: Whereabouts, clock_stepped: bool },
    /// The service granted the lock to `client`; `believers` still believed they held it.
    /// `holding`: how many lock servers hold `client`'s lease once this grant is made, as
    /// their lanes show it (Redlock's instances grant one by one).
    Granted { client: NodeId, believers: Vec<NodeId>, holding: usize },
    /// A client accepted a grant that `instances` of `of` independent instances gave (Redlock).
    Majority { instances: u32, of: u32 },
    /// A client stopped believing because storage rejected its write; `rightful`: that write
    /// was not stale (the token went back), so the client had not lost the lock at all.
    Rejected { rightful: bool },
    /// A ZooKeeper client found its connection closed (Disconnected, Curator's SUSPENDED): it
    /// cannot tell whether its session lives. `believes`: it held the lock, and keeps believing.
    Suspended { believes: bool },
    /// A paused client woke up; whether it still believed it held the lock, and whether the
    /// lock service still held it for it.
    Woke { believes: bool, service_holds: bool },
}

/// Why a server no longer held a client's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gone {
    /// It expired by the server's clock (or the session/lease expired). `clock_stepped`: the
    /// server's wall clock had been stepped while it was held, so it went early (or late).
    Expired { at: Time, clock_stepped: bool },
    /// Another client's plain unlock removed it.
    RemovedBy { by: NodeId, at: Time },
    /// The server restarted without it (no persistence, or a machine crash).
    LostInRestart { at: Time },
    /// The server became a replica of a newer primary and dropped its own state.
    Demoted { at: Time },
    /// The holder released it itself.
    Released { at: Time },
    /// This server never held it: a Redlock instance that said no, a promoted replica the key
    /// never reached.
    NeverHeld,
}

/// How a write at storage came out, as the checker judged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteCause {
    /// Accepted, and nobody else had taken the lock since the writer's grant.
    Fresh,
    /// Accepted after `by` took the lock but before `by` wrote: no data lost yet.
    AfterTakeover { by: NodeId },
    /// Made under an older grant after storage had accepted a write under a newer one.
    Stale { accepted: bool, newer: NodeId, newer_token: Option<u64>, why: StaleWhy },
    /// Rejected although it was not stale: storage had seen a higher token from an *earlier*
    /// holder (the token went back), so fencing blocked the writer — the rightful holder
    /// unless another client has taken the lock since.
    HolderBlocked { highest: Option<u64>, rightful: bool },
}

/// Why a stale write is stale: how the writer lost the lock before the newer holder got it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleWhy {
    /// Where and how the writer's lease ended before the newer grant (None: it never ended
    /// there; the newer grant came from a server that never had it).
    pub lost: Option<(NodeId, Gone)>,
    /// The writer was paused when its lease ended.
    pub writer_paused: bool,
    /// The service never granted the writer's belief (no commit of its acquisition: etcd
    /// 3.4.3's waiter whose key was gone).
    pub ungranted: bool,
    /// When and where the newer holder was granted the lock.
    pub newer_granted_at: Time,
    pub newer_granted_by: NodeId,
}

/// Every cause of a run, in event order.
pub fn derive(trace: &Trace, verdict: &Verdict, t: &Timeline) -> Vec<(usize, Cause)> {
    let grants = grant_refs(trace);
    let mut out: Vec<(usize, Cause)> = Vec::new();
    // Each client's latest write, as its cause says (for the belief a rejection ends).
    let mut last_write: Vec<(NodeId, WriteCause)> = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let cause = match &e.kind {
            EventKind::Note(Note::UnlockRefused { by, holder: None }) => {
                Some(Cause::NothingToRelease { client: *by, gone: gone_at(trace, t, e.node, *by, e.at_ms) })
            }
            EventKind::Note(Note::WriteApplied { client, .. }) => {
                let cause = write_cause(trace, verdict, t, &grants, i);
                if let Some(c) = &cause {
                    last_write.retain(|(n, _)| n != client);
                    last_write.push((*client, c.clone()));
                }
                cause.map(Cause::Write)
            }
            EventKind::Note(Note::BeliefEnded { reason: crate::protocols::BeliefEnd::WriteRejected }) => {
                let rightful =
                    last_write.iter().any(|(n, c)| *n == e.node && matches!(c, WriteCause::HolderBlocked { rightful: true, .. }));
                Some(Cause::Rejected { rightful })
            }
            EventKind::Note(Note::LockExpired { holder }) | EventKind::Note(Note::SessionExpired { client: holder, .. }) => {
                let holder = Whereabouts::of(trace, t, *holder, i);
                let ended = t.leases.iter().find(|l| l.end_event == Some(i));
                let clock_stepped = ended.is_some_and(|l| stepped(t, l.server, l.from, l.to));
                Some(Cause::LeaseEnded { holder, clock_stepped })
            }
            EventKind::Note(Note::LockCommitted { client, .. }) => {
                let believers = t.beliefs.iter().filter(|b| b.client != *client && b.from <= e.at_ms && e.at_ms < b.to).map(|b| b.client);
                Some(Cause::Granted { client: *client, believers: dedup(believers), holding: holding(t, *client, e.at_ms, i) })
            }
            EventKind::Note(Note::BeliefStarted { attempt, .. }) if t.approach.spec().quorum(servers(trace)) > 1 => {
                let instances = trace.events[..i]
                    .iter()
                    .filter(|c| matches!(c.kind, EventKind::Note(Note::LockCommitted { client, attempt: a, .. }) if client == e.node && a == *attempt))
                    .count() as u32;
                Some(Cause::Majority { instances, of: servers(trace) })
            }
            EventKind::Note(Note::Disconnected { .. }) => Some(Cause::Suspended { believes: believes_at(trace, e.node, i) }),
            EventKind::Resumed if t.lane(e.node).is_some_and(|l| l.hue.is_some()) => {
                let believes = believes_at(trace, e.node, i);
                let service_holds = t.held.iter().any(|h| h.client == e.node && h.from <= e.at_ms && e.at_ms < h.to);
                Some(Cause::Woke { believes, service_holds })
            }
            _ => None,
        };
        if let Some(c) = cause {
            out.push((i, c));
        }
    }
    out
}

/// Whether `client` believes it holds the lock just before trace event `i`.
fn believes_at(trace: &Trace, client: NodeId, i: usize) -> bool {
    Belief::at(trace, client, i) == Belief::Holds
}

fn servers(trace: &Trace) -> u32 {
    trace.nodes.iter().filter(|n| n.role == crate::sim::Role::LockServer).count() as u32
}

fn dedup(ids: impl Iterator<Item = NodeId>) -> Vec<NodeId> {
    let mut v: Vec<NodeId> = ids.collect();
    crate::sort::unique(&mut v);
    v
}

/// Each LockCommitted event's grant, by event index (for matching lease bars to grants).
fn grant_refs(trace: &Trace) -> Vec<(usize, GrantRef)> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.kind {
            EventKind::Note(Note::LockCommitted { client, attempt, .. }) => Some((i, GrantRef { client, attempt })),
            _ => None,
        })
        .collect()
}

/// How a lease bar's end reads as a `Gone`, if it is an end at all (a lease that moved with
/// leadership, or was superseded by the same client's next grant, goes on).
fn gone_of(t: &Timeline, l: &LeaseBar) -> Option<Gone> {
    Some(match l.end {
        LeaseEnd::Expired => Gone::Expired { at: l.to, clock_stepped: stepped(t, l.server, l.from, l.to) },
        LeaseEnd::DeletedBy(by) => Gone::RemovedBy { by, at: l.to },
        LeaseEnd::StateLost => Gone::LostInRestart { at: l.to },
        LeaseEnd::Demoted => Gone::Demoted { at: l.to },
        LeaseEnd::Released => Gone::Released { at: l.to },
        LeaseEnd::Open | LeaseEnd::Superseded | LeaseEnd::Moved => return None,
    })
}

/// Whether `server`'s wall clock was stepped within [from, to].
fn stepped(t: &Timeline, server: NodeId, from: Time, to: Time) -> bool {
    t.marks.iter().any(|m| m.node == server && matches!(m.kind, MarkKind::ClockJump { .. }) && from <= m.at && m.at <= to)
}

/// Why `server` had nothing of `client`'s at `at`: how the client's latest lease there, taken
/// since its current acquisition began, ended — or that there was none.
fn gone_at(trace: &Trace, t: &Timeline, server: NodeId, client: NodeId, at: Time) -> Gone {
    let since = trace.events.iter().rev().find(|e| {
        e.node == client && e.at_ms <= at && matches!(e.kind, EventKind::Note(Note::AcquireStarted { .. }) | EventKind::Restarted)
    });
    let since = since.map_or(0, |e| e.at_ms);
    t.leases
        .iter()
        .rev()
        .filter(|l| l.server == server && l.holder == client && since <= l.from && l.to <= at)
        .find_map(|l| gone_of(t, l))
        .unwrap_or(Gone::NeverHeld)
}

fn write_cause(trace: &Trace, verdict: &Verdict, t: &Timeline, grants: &[(usize, GrantRef)], event: usize) -> Option<WriteCause> {
    let w = verdict.writes.iter().find(|w| w.event == event)?;
    let EventKind::Note(Note::WriteApplied { client, grant, highest_before, .. }) = trace.events[event].kind else { return None };
    if w.stale {
        // The newer write storage had accepted before this one: the latest accepted write made
        // under a later grant than this write's.
        let order = |g: &GrantRef| verdict.grants.iter().position(|vg| grants.iter().any(|(i, r)| r == g && *i == vg.event));
        let mine = order(&grant);
        let newer = verdict.writes.iter().filter(|o| o.event < event && o.accepted).filter_map(|o| {
            let EventKind::Note(Note::WriteApplied { grant: og, .. }) = trace.events[o.event].kind else { return None };
            let k = order(&og)?;
            (Some(k) > mine).then_some((k, o))
        });
        let (k, newer_write) = newer.max_by_key(|(k, o)| (*k, o.event))?;
        let newer_grant = &verdict.grants[k];
        let newer_client = trace.node_id(&newer_grant.client)?;
        let newer_by = trace.events.get(newer_grant.event).map_or(0, |e| e.node);
        // How the writer's lease ended before the newer grant: its latest end at or before
        // that grant, on any server that held it since this grant's first commit (Redlock's
        // instances commit one by one before the majority makes it a grant).
        let commit = grants.iter().find(|(_, r)| *r == grant);
        let first_commit = commit.map_or(0, |(i, _)| trace.events[*i].at_ms);
        let lost = t
            .leases
            .iter()
            .filter(|l| l.holder == client && first_commit <= l.from && l.to <= newer_grant.at_ms)
            .filter_map(|l| gone_of(t, l).map(|g| (l.to, l.server, g)))
            .max_by_key(|(to, _, _)| *to)
            .map(|(_, server, g)| (server, g));
        let lost_at = lost.map(|(_, g)| gone_time(g).unwrap_or(newer_grant.at_ms)).unwrap_or(newer_grant.at_ms);
        let writer_paused = t.lane_state(client, lost_at).paused;
        return Some(WriteCause::Stale {
            accepted: w.accepted,
            newer: newer_client,
            newer_token: newer_write.token,
            why: StaleWhy {
                lost,
                writer_paused,
                ungranted: commit.is_none(),
                newer_granted_at: newer_grant.at_ms,
                newer_granted_by: newer_by,
            },
        });
    }
    if !w.accepted {
        return Some(WriteCause::HolderBlocked { highest: highest_before, rightful: !w.after_takeover });
    }
    if w.after_takeover {
        // The first grant to another client after this write's own grant, by this write's time.
        let mine = verdict.grants.iter().position(|g| grants.iter().any(|(i, r)| *r == grant && *i == g.event));
        let by = mine.and_then(|m| verdict.grants[m + 1..].iter().find(|g| g.client != trace.name(client) && g.at_ms <= w.at_ms));
        return Some(WriteCause::AfterTakeover { by: by.and_then(|g| trace.node_id(&g.client)).unwrap_or(client) });
    }
    Some(WriteCause::Fresh)
}

/// When a lease ended, for the ends that have a time.
fn gone_time(g: Gone) -> Option<Time> {
    match g {
        Gone::Expired { at, .. }
        | Gone::RemovedBy { at, .. }
        | Gone::LostInRestart { at }
        | Gone::Demoted { at }
        | Gone::Released { at } => Some(at),
        Gone::NeverHeld => None,
    }
}

/// How many lock servers' lanes show `client` holding the lock once event `i` (at `at`) has
/// happened: the count a caption gives is the one the lanes show.
fn holding(t: &Timeline, client: NodeId, at: Time, i: usize) -> usize {
    let servers = t.lanes.iter().filter(|l| l.role == crate::sim::Role::LockServer);
    servers.filter(|l| t.lane_state_upto(l.node, at, Some(i)).holders.iter().any(|&(h, _)| h == client)).count()
}
