//! `clock_drift`: a node's clocks run fast or slow by `ppm` from `at_ms` on.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{signed, Kind, Param, Place, Spot, Sweep, AT, NODE};
use crate::decimal::seconds;
use crate::scenario::limits::MAX_DRIFT_PPM;
use crate::sim::{Fault, NodeId};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ClockDrift {
    pub at_ms: i64,
    pub node: String,
    pub ppm: i64,
}

const PPM: Param = signed("ppm", MAX_DRIFT_PPM, "ppm", (-200_000, 200_000), Some("by"));

impl Kind for ClockDrift {
    const ID: &'static str = "clock_drift";
    const NOUN: &'static str = "clock drift";
    const SWEEP: Option<&'static Sweep> =
        Some(&Sweep { id: "drift_ppm", words: "clock drift (ppm)", param: &PPM, per_ttl: false, on_clients: false });

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![(&AT, Place::Int(&mut self.at_ms)), (&NODE, Place::Name(&mut self.node)), (&PPM, Place::Int(&mut self.ppm))]
    }
    fn words(&self) -> String {
        format!("clock drift {} {:+} ppm at {}", self.node, self.ppm, seconds(self.at_ms))
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::ClockDrift { node: id(&self.node), ppm: self.ppm }
    }
    fn label(&self) -> &'static str {
        "Clock drift"
    }
    /// A clock 20% fast from here on: leases timed on it end a fifth early.
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        spot.has_clock().then(|| ClockDrift { at_ms: spot.at_ms, node: spot.node.clone(), ppm: 200_000 })
    }
}
