//! `partition`: the nodes split into groups that cannot reach each other (unlisted nodes form
//! one more group), for `duration_ms` or to the end.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{ms, Kind, Need, Param, Place, Spot, Ty, AT};
use crate::decimal::seconds;
use crate::sim::{Fault, NodeId, Role};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Partition {
    pub at_ms: i64,
    pub groups: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<i64>,
}

const GROUPS: Param = Param { name: "groups", ty: Ty::Groups, form: None };
const FOR: Param = ms("duration_ms", Need::Optional { absent: "to the end" }, 1, (1, 10_000), Some("for"));

impl Kind for Partition {
    const ID: &'static str = "partition";
    const NOUN: &'static str = "partition";
    /// The first client cut off from everyone, as pointing there would.
    const EXAMPLE_ON: Option<Role> = Some(Role::Client);

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![(&AT, Place::Int(&mut self.at_ms)), (&GROUPS, Place::Groups(&mut self.groups)), (&FOR, Place::Maybe(&mut self.duration_ms))]
    }
    fn words(&self) -> String {
        let groups: Vec<String> = self.groups.iter().map(|g| format!("{{{}}}", g.join(", "))).collect();
        let until = self.duration_ms.map(|d| format!(" for {}", seconds(d))).unwrap_or_default();
        format!("partition {} at {}{until}", groups.join(" | "), seconds(self.at_ms))
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::Partition { groups: self.groups.iter().map(|g| g.iter().map(|n| id(n)).collect()).collect(), duration_ms: self.duration_ms }
    }
    fn label(&self) -> &'static str {
        "Partition"
    }
    /// The node cut off from every other, past the lease.
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        Some(Partition { at_ms: spot.at_ms, groups: vec![vec![spot.node.clone()]], duration_ms: Some(spot.past_lease_ms()) })
    }
}
