//! Every sentence the product says about a run. A sentence that claims something about the run
//! ("its lock had already expired", "fencing stopped a stale write", "A does not know yet")
//! says it because a `Cause` computed from the trace and the verdict says so, never from a
//! local guess: `Story` derives the causes once per run, `caption` turns an event and its
//! cause into words, and tests/captions.rs checks every cause against the trace on generated
//! runs.

pub mod caption;
mod causes;
pub mod outline;
pub mod quiet;
pub mod verdict;

pub use caption::caption;
pub use causes::{Cause, Gone, StaleWhy, WriteCause};

use crate::check::Verdict;
use crate::protocols::{EventKind, Note, Trace};
use crate::sim::NodeId;
use crate::timeline::Timeline;

/// The causes of a run's claims, by trace event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Story {
    /// In event order, at most one per event.
    causes: Vec<(usize, Cause)>,
    /// Storage checked fencing tokens in this run.
    pub fencing: bool,
}

impl Story {
    /// Derives the causes of every claim a caption of this run can make.
    pub fn new(trace: &Trace, verdict: &Verdict, timeline: &Timeline) -> Story {
        Story { causes: causes::derive(trace, verdict, timeline), fencing: verdict.fencing }
    }

    /// The story of a finished run (deriving its timeline on the way; the screen keeps the
    /// timeline it draws and uses `new`).
    pub fn of_run(run: &crate::lab::Run) -> Story {
        Story::new(&run.trace, &run.verdict, &Timeline::of_run(run))
    }

    /// Why the event at `event` is what it is, where its caption claims more than the event.
    pub fn cause(&self, event: usize) -> Option<&Cause> {
        self.causes.binary_search_by_key(&event, |(e, _)| *e).ok().map(|k| &self.causes[k].1)
    }

    /// Every cause, in event order.
    pub fn causes(&self) -> impl Iterator<Item = (usize, &Cause)> {
        self.causes.iter().map(|(e, c)| (*e, c))
    }
}

/// Where a holder was when something happened to its lock: the difference between "A lost
/// the lock" and "A lost the lock and does not know".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whereabouts {
    pub node: NodeId,
    pub belief: Belief,
    pub paused: bool,
    pub down: bool,
}

/// What a client made of the lock at a moment, by its own notes in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Belief {
    /// It believes it holds the lock.
    Holds,
    /// It held the lock and has stopped believing it does (or its process died).
    Stopped,
    /// It has not held the lock since it last began asking for it: a waiter, a client whose
    /// grant never reached it, a new process.
    NeverHeld,
}

impl Belief {
    /// What `client` believes just before trace event `i` (by event order: a belief that ends
    /// later in the same millisecond still holds).
    pub fn at(trace: &Trace, client: NodeId, i: usize) -> Belief {
        trace.events[..i]
            .iter()
            .rev()
            .filter(|e| e.node == client)
            .find_map(|e| match e.kind {
                EventKind::Note(Note::BeliefStarted { .. }) => Some(Belief::Holds),
                EventKind::Note(Note::BeliefEnded { .. }) | EventKind::Crashed { .. } => Some(Belief::Stopped),
                EventKind::Note(Note::AcquireStarted { .. }) | EventKind::Restarted => Some(Belief::NeverHeld),
                _ => None,
            })
            .unwrap_or(Belief::NeverHeld)
    }
}

impl Whereabouts {
    /// Where `node` was at trace event `i` of `trace`.
    pub fn of(trace: &Trace, timeline: &Timeline, node: NodeId, i: usize) -> Whereabouts {
        let at = trace.events.get(i).map_or(0, |e| e.at_ms);
        let s = timeline.lane_state(node, at);
        Whereabouts { node, belief: Belief::at(trace, node, i), paused: s.paused, down: s.down }
    }
}
