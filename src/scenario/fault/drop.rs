//! `drop`: every message from `from` to `to` is lost, for `duration_ms` or to the end.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{ms, Kind, Need, Param, Place, Spot, AT, FROM, TO};
use crate::decimal::seconds;
use crate::sim::{Fault, NodeId};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Drop {
    pub at_ms: i64,
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<i64>,
}

const FOR: Param = ms("duration_ms", Need::Optional { absent: "to the end" }, 1, (1, 10_000), Some("for"));

impl Kind for Drop {
    const ID: &'static str = "drop";
    const NOUN: &'static str = "drop";

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![
            (&AT, Place::Int(&mut self.at_ms)),
            (&FROM, Place::Name(&mut self.from)),
            (&TO, Place::Name(&mut self.to)),
            (&FOR, Place::Maybe(&mut self.duration_ms)),
        ]
    }
    fn words(&self) -> String {
        let (from, to, at) = (&self.from, &self.to, seconds(self.at_ms));
        match self.duration_ms {
            None => format!("drop {from} → {to} from {at}"),
            Some(d) => format!("drop {from} → {to} from {at} for {}", seconds(d)),
        }
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::Drop { from: id(&self.from), to: id(&self.to), duration_ms: self.duration_ms }
    }
    fn label(&self) -> &'static str {
        "Drop"
    }
    fn rule(&self, param: &str) -> Option<&'static str> {
        super::kind::same_link_end(param, &self.from, &self.to)
    }
    /// Its messages to its next peer lost for longer than the lease.
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        let (to, _) = &spot.next_send;
        Some(Drop { at_ms: spot.at_ms, from: spot.node.clone(), to: to.clone(), duration_ms: Some(spot.past_lease_ms()) })
    }
}
