//! `clock_jump`: a node's wall clock steps by `by_ms` (NTP, an operator); its monotonic clock
//! does not.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{signed, Kind, Param, Place, Spot, Sweep, AT, NODE};
use crate::decimal::seconds;
use crate::scenario::limits::MAX_CLOCK_JUMP_MS;
use crate::sim::{Fault, NodeId, Role};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ClockJump {
    pub at_ms: i64,
    pub node: String,
    pub by_ms: i64,
}

const BY: Param = signed("by_ms", MAX_CLOCK_JUMP_MS, "ms", (-20_000, 20_000), Some("by"));

impl Kind for ClockJump {
    const ID: &'static str = "clock_jump";
    const NOUN: &'static str = "clock jump";
    /// A TTL forward on the first lock-service node: its key or row expires at once.
    const EXAMPLE_ON: Option<Role> = Some(Role::LockServer);
    const SWEEP: Option<&'static Sweep> =
        Some(&Sweep { id: "jump_ms", words: "clock jump (ms)", param: &BY, per_ttl: false, on_clients: false });

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![(&AT, Place::Int(&mut self.at_ms)), (&NODE, Place::Name(&mut self.node)), (&BY, Place::Int(&mut self.by_ms))]
    }
    fn words(&self) -> String {
        let sign = if self.by_ms >= 0 { "+" } else { "" };
        format!("clock jump {} by {sign}{} at {}", self.node, seconds(self.by_ms), seconds(self.at_ms))
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::ClockJump { node: id(&self.node), by_ms: self.by_ms }
    }
    fn label(&self) -> &'static str {
        "Clock jump"
    }
    /// Forward by one lease: a lease timed on this clock ends early.
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        spot.has_clock().then(|| ClockJump { at_ms: spot.at_ms, node: spot.node.clone(), by_ms: spot.lease_ms })
    }
}
