//! What the space-time diagram draws, derived once per run from the trace and the verdict.
//!
//! The UI renders a pure function of (trace, cursor); this module is the "trace" half made
//! drawable: lanes, bars, bands, marks, arrows and write outcomes with true-time extents, plus
//! the navigation (steps, key moments, playback pacing) and per-node clocks at any instant.
//! It is plain Rust, so everything here is tested natively, and it is written over node roles
//! and notes generically: a new approach's nodes get lanes without changes here.

mod arrows;
mod bars;
mod clocks;
pub mod draw;
mod leaders;
mod moments;
pub mod pacing;
#[cfg(test)]
mod tests;

pub use arrows::Arrow;
pub use bars::{Band, BandKind, BeliefBar, HeldBar, LeaseBar, LeaseEnd, Mark, MarkKind, OverlapBand, PartitionBand};
pub use clocks::{ClockReading, Clocks};
pub use leaders::Leadership;
pub use moments::{current_event, is_captioned, KeyKind, KeyMoment, Step};

use crate::check::Verdict;
use crate::lab::Run;
use crate::protocols::{EventKind, Trace};
use crate::scenario::{validate, Approach};
use crate::sim::{NodeId, Role, Time};

/// One horizontal lane of the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub node: NodeId,
    pub name: String,
    pub role: Role,
    /// Palette slot for clients (A = 0, B = 1, …); other roles draw in neutral ink.
    pub hue: Option<usize>,
}

/// How a storage write ended, as the ledger and the diagram tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteResult {
    Accepted,
    Rejected,
    /// Accepted although a newer holder had already written: a lost update.
    StaleAccepted,
}

impl WriteResult {
    /// The stable name used in `data-result` attributes and CSS classes.
    pub fn id(self) -> &'static str {
        match self {
            WriteResult::Accepted => "accepted",
            WriteResult::Rejected => "rejected",
            WriteResult::StaleAccepted => "stale-accepted",
        }
    }
}

/// A write as it arrived at storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteMark {
    pub storage: NodeId,
    pub client: NodeId,
    pub at: Time,
    pub token: Option<u64>,
    pub result: WriteResult,
    pub after_takeover: bool,
    pub unfenced: bool,
    pub event: usize,
}

/// Everything the diagram draws for one run. Times are true milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    pub approach: Approach,
    pub duration_ms: Time,
    /// Display order: lock service on top, clients in the middle, storage at the bottom, so
    /// lock traffic goes up and writes go down from the clients.
    pub lanes: Vec<Lane>,
    pub beliefs: Vec<BeliefBar>,
    pub leases: Vec<LeaseBar>,
    pub held: Vec<HeldBar>,
    pub bands: Vec<Band>,
    pub marks: Vec<Mark>,
    pub arrows: Vec<Arrow>,
    pub writes: Vec<WriteMark>,
    pub overlaps: Vec<OverlapBand>,
    pub partitions: Vec<PartitionBand>,
    pub key_moments: Vec<KeyMoment>,
    pub steps: Vec<Step>,
    pub leadership: Vec<Leadership>,
    pub clocks: Clocks,
}

impl Timeline {
    /// Derives the drawing of a finished run.
    pub fn of_run(run: &Run) -> Timeline {
        Timeline::new(&run.trace, &run.verdict, run.scenario.approach, validate::quorum(&run.scenario))
    }

    /// Derives the drawing from its parts; `quorum` is how many lock servers must hold a
    /// client's lease for the service as a whole to hold it.
    pub fn new(trace: &Trace, verdict: &Verdict, approach: Approach, quorum: usize) -> Timeline {
        let clocks = Clocks::new(trace);
        let lanes = lanes(trace);
        let beliefs = bars::beliefs(trace, &clocks);
        // Ensembles replicate one lock; Redlock's instances each hold their own.
        let leases = bars::leases(trace, &clocks, &beliefs, approach.spec().shared_lease());
        let held = bars::held(&leases, quorum.max(1));
        let writes = writes(trace, verdict);
        let key_moments = moments::key_moments(trace, verdict, approach, &leases, &writes);
        let t = Timeline {
            approach,
            duration_ms: trace.duration_ms,
            beliefs,
            held,
            bands: bars::bands(trace),
            marks: bars::marks(trace),
            arrows: arrows::arrows(trace, approach),
            overlaps: bars::overlaps(trace, verdict),
            partitions: bars::partitions(trace),
            steps: moments::steps(trace),
            leadership: leaders::leadership(trace),
            leases,
            writes,
            key_moments,
            lanes,
            clocks,
        };
        t.within(span(trace))
    }

    /// The timeline cut at `end`: what runs past it ends there, what happens after it is left
    /// out (the heartbeats of an ensemble's idle seconds).
    fn within(mut self, end: Time) -> Timeline {
        self.duration_ms = end;
        for to in self.beliefs.iter_mut().map(|b| &mut b.to).chain(self.leases.iter_mut().map(|l| &mut l.to)) {
            *to = (*to).min(end);
        }
        for to in self.held.iter_mut().map(|h| &mut h.to).chain(self.bands.iter_mut().map(|b| &mut b.to)) {
            *to = (*to).min(end);
        }
        for to in self.overlaps.iter_mut().map(|o| &mut o.to).chain(self.partitions.iter_mut().map(|p| &mut p.to)) {
            *to = (*to).min(end);
        }
        self.arrows.retain(|a| a.sent <= end);
        self.steps.retain(|s| s.at <= end);
        self.key_moments.retain(|k| k.at <= end);
        self.marks.retain(|m| m.at <= end);
        self.writes.retain(|w| w.at <= end);
        self
    }

    /// The lane drawn for `node`, if any.
    pub fn lane(&self, node: NodeId) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.node == node)
    }

    /// Palette slot of a client (None for servers and storage).
    pub fn hue(&self, node: NodeId) -> Option<usize> {
        self.lane(node).and_then(|l| l.hue)
    }

    /// The name of a node ("?" for ids outside the run).
    pub fn name(&self, node: NodeId) -> &str {
        self.lane(node).map_or("?", |l| l.name.as_str())
    }

    /// What a lane is doing at true time `t`, for the status chips beside its name.
    pub fn lane_state(&self, node: NodeId, t: Time) -> LaneState {
        self.lane_state_upto(node, t, None)
    }

    /// What a lane is doing at true time `t` once event `upto` (at `t`) has happened and the
    /// events after it in the same millisecond have not (None: all of `t`'s events have): at
    /// "A wakes up" A still believes, though its own timer ends that belief in the same ms.
    pub fn lane_state_upto(&self, node: NodeId, t: Time, upto: Option<usize>) -> LaneState {
        let by = |ev: Option<usize>| match (upto, ev) {
            (Some(e), Some(ev)) => ev <= e,
            _ => true,
        };
        let within = |from: Time, start: usize, to: Time, end: Option<usize>| {
            let started = from < t || (from == t && by(Some(start)));
            let ended = to < t || (to == t && by(end));
            started && !ended
        };
        let band = |b: &Band| b.node == node && within(b.from, b.from_event, b.to, b.to_event);
        LaneState {
            paused: self.bands.iter().any(|b| band(b) && b.kind == BandKind::Paused),
            down: self.bands.iter().any(|b| band(b) && matches!(b.kind, BandKind::Down { .. })),
            believes: self.beliefs.iter().find(|b| b.client == node && within(b.from, b.event, b.to, b.end_event)).map(|b| b.token),
            holders: self
                .leases
                .iter()
                .filter(|l| l.server == node && within(l.from, l.event, l.to, l.end_event))
                .map(|l| (l.holder, l.token))
                .collect(),
        }
    }
}

/// A lane's situation at one instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneState {
    pub paused: bool,
    pub down: bool,
    /// Some(token) while a client believes it holds the lock.
    pub believes: Option<Option<u64>>,
    /// On a lock server: whose lease it holds, with the token.
    pub holders: Vec<(NodeId, Option<u64>)>,
}

/// The span the diagram's axis shows: the run up to its story's last event, with a margin of
/// a tenth of that (at least a second), in whole seconds, never past the run's end. A
/// scenario's `duration_ms` is how long the simulation may run; a story of 4 s in a run of
/// 20 s was drawn in the first fifth of the axis (issue 36). The story is everything but the
/// traffic that flows all the time whatever happens: lock servers' heartbeats and replication
/// among themselves, and clients' keep-alives.
pub fn span(trace: &Trace) -> Time {
    let role = |n: NodeId| trace.nodes.get(n).map(|i| i.role);
    let chatter = |from: NodeId, to: NodeId, msg: &crate::protocols::Msg| {
        (role(from) == Some(Role::LockServer) && role(to) == Some(Role::LockServer)) || arrows::heartbeat(msg)
    };
    let mut last: Time = 0;
    for e in &trace.events {
        let until = match &e.kind {
            EventKind::Sent { to, msg, .. } if chatter(e.node, *to, msg) => continue,
            EventKind::Received { from, msg, .. } if chatter(*from, e.node, msg) => continue,
            // A fault planned past the run's last event lasts to its planned end.
            EventKind::Paused { until_ms } | EventKind::LinkDelayed { until_ms, .. } => *until_ms,
            EventKind::LinkCut { until_ms, .. } | EventKind::PartitionStarted { until_ms, .. } => until_ms.unwrap_or(e.at_ms),
            _ => e.at_ms,
        };
        last = last.max(until).max(e.at_ms);
    }
    let margin = (last / 10).max(1_000);
    let whole = (last + margin + 999) / 1_000 * 1_000;
    whole.min(trace.duration_ms).max(1)
}

fn lanes(trace: &Trace) -> Vec<Lane> {
    let rank = |r: Role| match r {
        Role::LockServer => 0,
        Role::Client => 1,
        Role::Storage => 2,
    };
    let mut clients = 0;
    let mut out: Vec<Lane> = trace
        .nodes
        .iter()
        .enumerate()
        .map(|(node, info)| {
            let hue = (info.role == Role::Client).then(|| {
                clients += 1;
                clients - 1
            });
            Lane { node, name: info.name.clone(), role: info.role, hue }
        })
        .collect();
    crate::sort::by_key(&mut out, |l| (rank(l.role), l.node)); // stable: keeps the scenario's order within a role
    out
}

/// Storage writes with the verdict's judgement, matched by trace event index.
fn writes(trace: &Trace, verdict: &Verdict) -> Vec<WriteMark> {
    verdict
        .writes
        .iter()
        .filter_map(|w| {
            let e = trace.events.get(w.event)?;
            let result = match (w.accepted, w.stale) {
                (false, _) => WriteResult::Rejected,
                (true, true) => WriteResult::StaleAccepted,
                (true, false) => WriteResult::Accepted,
            };
            Some(WriteMark {
                storage: e.node,
                client: trace.node_id(&w.client)?,
                at: w.at_ms,
                token: w.token,
                result,
                after_takeover: w.after_takeover,
                unfenced: w.unfenced,
                event: w.event,
            })
        })
        .collect()
}
