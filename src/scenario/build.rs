//! Turns a validated scenario into a world: clients first, then the lock service, then storage
//! (the order of `validate::node_names`), with the faults scheduled.

use super::format::Scenario;
use super::limits::MAX_TRACE_EVENTS;
use super::validate::node_names;
use crate::protocols::client::{Client, ClientPlan};
use crate::protocols::spec::{Plan, Workload};
use crate::protocols::storage::Storage;
use crate::protocols::{BoxedNode, Msg, Note};
use crate::sim::{NodeInfo, Role, World, WorldConfig};

/// Builds the world for `s` (which must have passed validation).
pub fn world(s: &Scenario) -> World<Msg, Note> {
    let names = node_names(s);
    let id = |name: &str| names.iter().position(|n| n == name).expect("validated node name");
    let clients = s.clients.len();
    let storage = names.len() - 1;
    let spec = s.approach.spec();
    let plan = Plan {
        lock: &s.lock,
        servers: (clients..storage).collect(),
        server_names: &names[clients..storage],
        clients: (0..clients).collect(),
        storage,
    };
    let mut nodes: Vec<(NodeInfo, BoxedNode)> = Vec::with_capacity(names.len());
    for c in &s.clients {
        let plan_of_client = ClientPlan {
            acquire_at_ms: c.acquire_at_ms,
            work_ms: c.work_ms,
            writes: c.writes,
            retry_ms: (s.lock.retry_ms[0], s.lock.retry_ms[1]),
            request_timeout_ms: s.lock.request_timeout_ms,
            workload: spec.workload,
        };
        // Each process of the client (one more after every restart) gets an agent of its own,
        // built with the client's own `lock` fields in place of the scenario's.
        let lock = s.lock.for_client(&c.lock);
        let client = Client::new(plan_of_client, storage, (spec.build.agent)(&Plan { lock: &lock, ..plan.clone() }));
        nodes.push((NodeInfo { name: c.name.clone(), role: Role::Client }, Box::new(client)));
    }
    for (rank, name) in plan.server_names.iter().enumerate() {
        nodes.push((NodeInfo { name: name.clone(), role: Role::LockServer }, (spec.build.server)(&plan, rank)));
    }
    nodes.push((
        NodeInfo { name: "storage".into(), role: Role::Storage },
        Box::new(Storage::new(s.storage.fencing, spec.workload == Workload::ReadModifyWrite)),
    ));
    let cfg = WorldConfig {
        seed: s.seed,
        duration_ms: s.duration_ms,
        latency_ms: (s.network.latency_ms[0], s.network.latency_ms[1]),
        drop_rate: s.network.drop_rate,
        max_events: MAX_TRACE_EVENTS,
    };
    let mut world = World::new(&cfg, nodes);
    // The scenario's faults and its schedules' (drawn from its seed), as one list.
    for f in &super::fault::expand(s) {
        world.schedule_fault(f.at_ms(), super::fault::build(f, &id));
    }
    world
}
