//! Navigation: the events a step visits, the key moments a lecturer jumps between (grant,
//! expiry, takeover, stale write, …), and how both relate to a cursor.

use super::bars::{LeaseBar, LeaseEnd};
use super::{Timeline, WriteMark, WriteResult};
use crate::check::Verdict;
use crate::protocols::{AcquireFailure, Approach, BeliefEnd, Event, EventKind, Note, Trace};
use crate::sim::{NodeId, Time};

/// An event a step lands on (one with its own caption).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub event: usize,
    pub at: Time,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    Grant,
    Takeover,
    LeaseExpired,
    LeaseDeleted,
    BeliefLost,
    Write(WriteResult),
    Paused,
    Resumed,
    Crashed,
    Restarted,
    ClockChanged,
    Partition,
    Healed,
    StateLost,
    LeaderChanged,
    SessionExpired,
    /// A ZooKeeper client finds its connection closed (Disconnected, Curator's SUSPENDED).
    Suspended,
}

/// A moment worth jumping to, with a short label for the axis and the key-moment list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMoment {
    pub at: Time,
    pub event: usize,
    pub node: NodeId,
    pub kind: KeyKind,
    pub text: String,
}

/// Captioned events, except the repeats of a retry loop: a client refused while another holds
/// the lock retries every few hundred ms, and a lecturer should not press → forty times to get
/// through it. The first refusal stays a step; its repeats are skipped until the client holds
/// the lock (or fails for another reason).
pub fn steps(trace: &Trace) -> Vec<Step> {
    let mut retrying: Vec<NodeId> = Vec::new();
    let mut out = Vec::new();
    for (event, e) in trace.events.iter().enumerate() {
        if !is_captioned(e) {
            continue;
        }
        let routine = match &e.kind {
            EventKind::Note(Note::AcquireStarted { attempt }) => *attempt > 1 && retrying.contains(&e.node),
            EventKind::Note(Note::LockBusy { client, .. }) => retrying.contains(client),
            EventKind::Note(Note::AcquireFailed { reason: AcquireFailure::Busy, .. }) => !mark(&mut retrying, e.node),
            EventKind::Note(Note::AcquireFailed { .. } | Note::BeliefStarted { .. }) => {
                retrying.retain(|&n| n != e.node);
                false
            }
            _ => false,
        };
        if !routine {
            out.push(Step { event, at: e.at_ms });
        }
    }
    out
}

/// Adds `n` to the set; true if it was not there.
fn mark(set: &mut Vec<NodeId>, n: NodeId) -> bool {
    let new = !set.contains(&n);
    if new {
        set.push(n);
    }
    new
}

pub fn key_moments(trace: &Trace, verdict: &Verdict, approach: Approach, leases: &[LeaseBar], writes: &[WriteMark]) -> Vec<KeyMoment> {
    let tok = |t: Option<u64>| approach.token_label(t);
    let name = |n: NodeId| trace.nodes.get(n).map_or("?", |i| i.name.as_str());
    let mut out: Vec<KeyMoment> = Vec::new();
    let mut push = |at: Time, event: usize, node: NodeId, kind: KeyKind, text: String| out.push(KeyMoment { at, event, node, kind, text });
    let servers = trace.nodes.iter().filter(|n| n.role == crate::sim::Role::LockServer).count() as u32;
    let quorum = approach.spec().quorum(servers);
    for g in &verdict.grants {
        let node = trace.events.get(g.event).map_or(0, |e| e.node);
        let takeover = leases.iter().any(|l| l.event == g.event && l.takeover);
        let (kind, verb) = if takeover { (KeyKind::Takeover, "takes over") } else { (KeyKind::Grant, approach.spec().words.got) };
        // Independent instances grant at the quorum-th OK: name the majority, not one instance.
        let how = if quorum > 1 { format!("{quorum} of {servers} instances, {}", tok(g.token)) } else { tok(g.token) };
        push(g.at_ms, g.event, node, kind, format!("{} {verb} ({how})", g.client));
    }
    for l in leases {
        let (kind, text) = match l.end {
            LeaseEnd::Expired => (KeyKind::LeaseExpired, format!("{}'s lease expires at {}", name(l.holder), name(l.server))),
            LeaseEnd::DeletedBy(by) => (KeyKind::LeaseDeleted, format!("{} deletes {}'s lock", name(by), name(l.holder))),
            _ => continue,
        };
        push(l.to, l.end_event.unwrap_or(l.event), l.server, kind, text);
    }
    for w in writes {
        let what = match w.result {
            WriteResult::Accepted => "write accepted",
            WriteResult::Rejected => "write rejected",
            WriteResult::StaleAccepted => "STALE write accepted",
        };
        push(w.at, w.event, w.storage, KeyKind::Write(w.result), format!("{}'s {what} ({})", name(w.client), tok(w.token)));
    }
    for (i, e) in trace.events.iter().enumerate() {
        let me = name(e.node);
        let (kind, text) = match &e.kind {
            EventKind::Paused { until_ms } => (KeyKind::Paused, format!("{me} pauses for {} ms", until_ms - e.at_ms)),
            EventKind::Resumed => (KeyKind::Resumed, format!("{me} wakes up")),
            EventKind::Crashed { .. } => (KeyKind::Crashed, format!("{me} crashes")),
            EventKind::Restarted => (KeyKind::Restarted, format!("{me} restarts")),
            EventKind::ClockJumped { by_ms } => (KeyKind::ClockChanged, format!("{me}'s clock jumps {by_ms:+} ms")),
            EventKind::ClockDrift { ppm } => (KeyKind::ClockChanged, format!("{me}'s clock drifts {ppm:+} ppm")),
            EventKind::PartitionStarted { .. } => (KeyKind::Partition, "the network partitions".into()),
            EventKind::PartitionHealed => (KeyKind::Healed, "the partition heals".into()),
            EventKind::Note(Note::StateLost { .. }) => (KeyKind::StateLost, format!("{me} restarts empty")),
            // The first election happens at start-up; later ones are the story.
            EventKind::Note(Note::LeaderElected { epoch }) if *epoch > 1 => {
                (KeyKind::LeaderChanged, format!("{me} becomes leader (epoch {epoch})"))
            }
            EventKind::Note(Note::Promoted { epoch }) => (KeyKind::LeaderChanged, format!("{me} is promoted to primary (epoch {epoch})")),
            EventKind::Note(Note::SessionExpired { client, .. }) => {
                (KeyKind::SessionExpired, format!("{}'s session expires at {me}", name(*client)))
            }
            EventKind::Note(Note::Disconnected { .. }) => (KeyKind::Suspended, format!("{me} is disconnected (SUSPENDED)")),
            EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::ValidityExpired }) => {
                (KeyKind::BeliefLost, format!("{me}'s own timer runs out"))
            }
            EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::WriteRejected }) => {
                (KeyKind::BeliefLost, format!("{me} learns it lost the lock"))
            }
            _ => continue,
        };
        push(e.at_ms, i, e.node, kind, text);
    }
    crate::sort::by_key(&mut out, |k| (k.at, k.event));
    // Redlock and ensembles repeat the same fact on several servers within a few ms: keep one.
    let mut kept: Vec<KeyMoment> = Vec::with_capacity(out.len());
    for k in out {
        if kept.iter().rev().take_while(|p| k.at - p.at < 50).any(|p| p.kind == k.kind && p.text == k.text) {
            continue;
        }
        kept.push(k);
    }
    kept
}

impl Timeline {
    /// The step whose caption is showing: the focused event if the cursor is on its
    /// millisecond, else the last step at or before the cursor.
    pub fn current_step(&self, cursor: f64, focus: Option<usize>) -> Option<usize> {
        let ms = cursor.floor() as Time;
        if let Some(f) = focus {
            if let Ok(k) = self.steps.binary_search_by_key(&f, |s| s.event) {
                if self.steps[k].at == ms {
                    return Some(k);
                }
            }
        }
        self.steps.partition_point(|s| s.at <= ms).checked_sub(1)
    }

    /// The step after the one showing.
    pub fn next_step(&self, cursor: f64, focus: Option<usize>) -> Option<Step> {
        let next = self.current_step(cursor, focus).map_or(0, |k| k + 1);
        self.steps.get(next).copied()
    }

    /// The step before the one showing (None: go to the start).
    pub fn prev_step(&self, cursor: f64, focus: Option<usize>) -> Option<Step> {
        let k = self.current_step(cursor, focus)?;
        k.checked_sub(1).map(|k| self.steps[k])
    }

    /// The key moment the cursor stands on: the one whose event is focused, at the cursor's
    /// millisecond (several key moments can share one: an expiry and the takeover it allows).
    fn key_at(&self, cursor: f64, focus: Option<usize>) -> Option<usize> {
        let ms = cursor.floor() as Time;
        self.key_moments.iter().position(|k| Some(k.event) == focus && k.at == ms && k.at as f64 == cursor)
    }

    /// The next key moment: after the one the cursor stands on, else the first strictly
    /// after the cursor.
    pub fn next_key(&self, cursor: f64, focus: Option<usize>) -> Option<&KeyMoment> {
        match self.key_at(cursor, focus) {
            Some(k) => self.key_moments.get(k + 1),
            None => self.key_moments.iter().find(|k| k.at as f64 > cursor),
        }
    }

    /// The previous key moment: before the one the cursor stands on, else the last strictly
    /// before the cursor.
    pub fn prev_key(&self, cursor: f64, focus: Option<usize>) -> Option<&KeyMoment> {
        match self.key_at(cursor, focus) {
            Some(k) => k.checked_sub(1).map(|k| &self.key_moments[k]),
            None => self.key_moments.iter().rev().find(|k| (k.at as f64) < cursor.floor()),
        }
    }

    /// The last key moment at or before the cursor (the focused one where several share the
    /// cursor's millisecond).
    pub fn key_before(&self, cursor: f64, focus: Option<usize>) -> Option<&KeyMoment> {
        match self.key_at(cursor, focus) {
            Some(k) => self.key_moments.get(k),
            None => self.key_moments.iter().rev().find(|k| k.at as f64 <= cursor),
        }
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
