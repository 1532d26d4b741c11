//! `pause`: a node stops (a GC pause, a VM freeze) and handles nothing until it resumes.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{ms, Kind, Need, Param, Place, Spot, Sweep, AT, NODE};
use crate::decimal::seconds;
use crate::sim::{Fault, NodeId, Role};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Pause {
    pub at_ms: i64,
    pub node: String,
    pub duration_ms: i64,
}

const DURATION: Param = ms("duration_ms", Need::Required, 1, (1, 20_000), Some("for"));

impl Kind for Pause {
    const ID: &'static str = "pause";
    const NOUN: &'static str = "pause";
    /// On the first client, as pointing there would (past the lease): the pause that bites.
    const EXAMPLE_ON: Option<Role> = Some(Role::Client);
    /// A holder's pause, as a multiple of the TTL: the step where it outlives the lease.
    const SWEEP: Option<&'static Sweep> =
        Some(&Sweep { id: "pause_ttl", words: "pause ÷ TTL", param: &DURATION, per_ttl: true, on_clients: true });
    const KNOB: bool = true;

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![(&AT, Place::Int(&mut self.at_ms)), (&NODE, Place::Name(&mut self.node)), (&DURATION, Place::Int(&mut self.duration_ms))]
    }
    fn words(&self) -> String {
        format!("pause {} for {} at {}", self.node, seconds(self.duration_ms), seconds(self.at_ms))
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::Pause { node: id(&self.node), duration_ms: self.duration_ms }
    }
    fn label(&self) -> &'static str {
        "Pause"
    }
    /// From the moment pointed at (or the end of a pause already there), past the lease, and
    /// never into the node's next pause.
    fn here(spot: &Spot, same: &[&Self]) -> Option<Self> {
        let pauses = || same.iter().filter(|p| p.node == spot.node).map(|p| (p.at_ms, p.at_ms + p.duration_ms));
        let start = pauses().filter(|&(from, to)| from <= spot.at_ms && spot.at_ms < to).map(|(_, to)| to).max().unwrap_or(spot.at_ms);
        let room = pauses().filter(|&(from, _)| from > start).map(|(from, _)| from - start).min().unwrap_or(i64::MAX);
        let duration_ms = spot.past_lease_ms().min(room);
        (start < spot.duration_ms && duration_ms >= 1).then(|| Pause { at_ms: start, node: spot.node.clone(), duration_ms })
    }
}
