//! The nodes a scenario has, by name, in world order (clients, the lock service, storage):
//! what validation, faults, Compare and the explorer all name nodes by.

use super::error::{err, ScenarioError};
use super::format::Scenario;

/// The names of every node a scenario has, in world order: clients, the lock service, storage.
pub fn node_names(s: &Scenario) -> Vec<String> {
    let mut names: Vec<String> = s.clients.iter().map(|c| c.name.clone()).collect();
    names.extend(service_names(s));
    names.push("storage".into());
    names
}

/// The lock service's nodes.
pub fn service_names(s: &Scenario) -> Vec<String> {
    (s.approach.spec().nodes)(&s.lock, servers(s))
}

/// `lock.servers` with its per-approach default (1 where the approach has a fixed shape).
pub fn servers(s: &Scenario) -> u32 {
    s.lock.servers.or(s.approach.spec().default_servers).unwrap_or(1)
}

/// How many lock servers must hold a client's lease for the service to hold it.
pub fn quorum(s: &Scenario) -> usize {
    s.approach.spec().quorum(servers(s))
}

/// `no node named "redis-9" (redlock has A, B, redis-1, …, storage)` at `path`.
pub(crate) fn unknown_node(s: &Scenario, path: String, name: &str) -> ScenarioError {
    err(path, format!("no node named \"{name}\" ({} has {})", s.approach.id(), node_names(s).join(", ")))
}
