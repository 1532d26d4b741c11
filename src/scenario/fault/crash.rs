//! `crash`: a client or lock-service node stops, loses what it held in memory, and restarts
//! after `restart_after_ms` (or stays down); `machine` loses what was not yet on disk too.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{ms, tenths_up, Kind, Need, Param, Place, Spot, Ty, AT, NODE};
use crate::decimal::seconds;
use crate::sim::{Fault, NodeId, Role};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Crash {
    pub at_ms: i64,
    pub node: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_after_ms: Option<i64>,
    #[serde(default)]
    pub machine: bool,
}

const RESTART: Param = ms("restart_after_ms", Need::Optional { absent: "stays down" }, 1, (1, 10_000), Some("restarts after"));
const MACHINE: Param = Param { name: "machine", ty: Ty::Flag, form: None };

impl Kind for Crash {
    const ID: &'static str = "crash";
    const NOUN: &'static str = "crash";
    /// The first lock-service node, as pointing there would.
    const EXAMPLE_ON: Option<Role> = Some(Role::LockServer);

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![
            (&AT, Place::Int(&mut self.at_ms)),
            (&NODE, Place::Name(&mut self.node)),
            (&RESTART, Place::Maybe(&mut self.restart_after_ms)),
            (&MACHINE, Place::Flag(&mut self.machine)),
        ]
    }
    fn words(&self) -> String {
        let what = if self.machine { "machine crash" } else { "crash" };
        let (node, at) = (&self.node, seconds(self.at_ms));
        match self.restart_after_ms {
            Some(r) => format!("{what} {node} at {at}, restart after {}", seconds(r)),
            None => format!("{what} {node} at {at}"),
        }
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::Crash { node: id(&self.node), machine: self.machine, restart_after_ms: self.restart_after_ms }
    }
    fn label(&self) -> &'static str {
        if self.machine {
            "Machine crash"
        } else {
            "Crash"
        }
    }
    fn rule(&self, param: &str) -> Option<&'static str> {
        (param == NODE.name && self.node == "storage")
            .then_some("storage is durable and does not crash in this model; crash a client or a lock-service node")
    }
    /// Back after half a lease, as a new process (what it held stays until it expires).
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        let restart = tenths_up(spot.lease_ms / 2);
        (spot.role != Role::Storage).then(|| Crash {
            at_ms: spot.at_ms,
            node: spot.node.clone(),
            restart_after_ms: Some(restart),
            machine: false,
        })
    }
}
