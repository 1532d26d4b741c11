//! Faults placed from a scenario alone, with no run to look at: the editor's "add" buttons put
//! each kind where pointing at the diagram would (`Kind::here`), on a node picked by role.

use super::kind::Spot;
use super::{FaultKind, FaultSpec};
use crate::scenario::format::Scenario;
use crate::scenario::nodes::{node_names, service_names};
use crate::sim::Role;

impl Spot {
    /// A spot known only from the scenario (the editor's form): the lease is the TTL asked
    /// for, the next message goes to the node's usual peer (a client talks to the lock service,
    /// the others to the first client). None for an unknown node.
    pub fn planned(scenario: &Scenario, node: &str, at_ms: i64) -> Option<Spot> {
        let names = node_names(scenario);
        let id = names.iter().position(|n| n == node)?;
        let role = if id < scenario.clients.len() {
            Role::Client
        } else if id + 1 < names.len() {
            Role::LockServer
        } else {
            Role::Storage
        };
        let peer = match role {
            Role::Client => first_server(scenario),
            _ => first_client(scenario),
        };
        Some(Spot {
            node: node.to_string(),
            role,
            at_ms,
            duration_ms: scenario.duration_ms,
            lease_ms: scenario.lock.ttl_ms,
            next_send: (peer, at_ms),
        })
    }
}

impl FaultKind {
    /// A new fault of this kind for the editor's "add" buttons, on the first node of the
    /// kind's `Kind::EXAMPLE_ON` role, as pointing there would put it; None for kinds the
    /// form leaves to the JSON.
    pub fn example(self, s: &Scenario, at_ms: i64) -> Option<FaultSpec> {
        let node = match self.0.example_on()? {
            Role::Client => first_client(s),
            _ => first_server(s),
        };
        self.here(&Spot::planned(s, &node, at_ms)?, &s.faults)
    }
}

/// The scenario's first client ("A" where it has none).
fn first_client(s: &Scenario) -> String {
    s.clients.first().map_or_else(|| "A".to_string(), |c| c.name.clone())
}

/// The lock service's first node.
fn first_server(s: &Scenario) -> String {
    service_names(s).into_iter().next().unwrap_or_default()
}
