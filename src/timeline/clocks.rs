//! Each node's two local clocks, reconstructed from the trace's `ClockJumped` / `ClockDrift`
//! events with the same `LocalClock` the simulation used, so what the diagram shows at the
//! cursor is what the node itself read there.

use crate::protocols::{EventKind, Trace};
use crate::sim::{ClockKind, LocalClock, NodeClocks, NodeId, Time};

/// A node's clocks from some true time on, until the next change.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    from: Time,
    clocks: NodeClocks,
    /// Drift in effect, for the readout.
    ppm: i64,
}

/// What a node's clocks read at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub wall_ms: i64,
    pub mono_ms: i64,
    /// Drift in effect (0 = exact).
    pub ppm: i64,
}

impl ClockReading {
    /// How far the wall clock is from true time `t` (what a step or drift did).
    pub fn wall_skew(&self, t: Time) -> i64 {
        self.wall_ms - t
    }
}

/// The clock history of every node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    per_node: Vec<Vec<Segment>>,
}

impl Clocks {
    pub fn new(trace: &Trace) -> Clocks {
        let start = Segment { from: 0, clocks: NodeClocks::exact(), ppm: 0 };
        let mut per_node = vec![vec![start]; trace.nodes.len()];
        for e in &trace.events {
            let Some(history) = per_node.get_mut(e.node) else { continue };
            let mut next = history.last().expect("every node starts with a segment").clone();
            match e.kind {
                EventKind::ClockJumped { by_ms } => next.clocks.wall.jump(e.at_ms, by_ms),
                EventKind::ClockDrift { ppm } => {
                    next.clocks.wall.set_drift(e.at_ms, ppm);
                    next.clocks.mono.set_drift(e.at_ms, ppm);
                    next.ppm = ppm;
                }
                _ => continue,
            }
            next.from = e.at_ms;
            history.push(next);
        }
        Clocks { per_node }
    }

    fn segment(&self, node: NodeId, t: Time) -> Option<&Segment> {
        let history = self.per_node.get(node)?;
        let i = history.partition_point(|s| s.from <= t);
        history.get(i.saturating_sub(1))
    }

    /// Both clocks of `node` at true time `t`.
    pub fn at(&self, node: NodeId, t: Time) -> Option<ClockReading> {
        let s = self.segment(node, t)?;
        Some(ClockReading { wall_ms: s.clocks.wall.read_ms(t), mono_ms: s.clocks.mono.read_ms(t), ppm: s.ppm })
    }

    /// The first true time ≥ `from` at which `node`'s `kind` clock reads at least `reading_ms`,
    /// following every later jump and drift change (so a lease that a forward clock step ends
    /// early is drawn ending early). None past the last segment is impossible: the last
    /// segment runs forever.
    pub fn true_time_when(&self, node: NodeId, kind: ClockKind, from: Time, reading_ms: i64) -> Option<Time> {
        let history = self.per_node.get(node)?;
        let first = history.partition_point(|s| s.from <= from).saturating_sub(1);
        for (i, s) in history.iter().enumerate().skip(first) {
            let start = s.from.max(from);
            let clock: &LocalClock = s.clocks.get(kind);
            let t = clock.true_time_of(start, reading_ms);
            match history.get(i + 1) {
                Some(next) if t >= next.from => continue,
                _ => return Some(t),
            }
        }
        None
    }
}
