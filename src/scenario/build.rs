//! Turns a validated scenario into a world: clients first, then the lock service, then storage
//! (the order of `validate::node_names`), with the faults scheduled.

use super::format::{Approach, Scenario};
use super::limits::MAX_TRACE_EVENTS;
use super::validate::node_names;
use crate::protocols::client::{Client, ClientPlan, LockAgent};
use crate::protocols::db_lease::DbServer;
use crate::protocols::ensemble::{EnsembleServer, Flavour};
use crate::protocols::ensemble_client::EnsembleAgent;
use crate::protocols::redis::{RedisServer, Replication};
use crate::protocols::redlock::RedlockAgent;
use crate::protocols::single_server::SingleServerAgent;
use crate::protocols::storage::Storage;
use crate::protocols::{BoxedNode, Msg, Note};
use crate::sim::{NodeInfo, Role, World, WorldConfig};

/// Builds the world for `s` (which must have passed validation).
pub fn world(s: &Scenario) -> World<Msg, Note> {
    let names = node_names(s);
    let id = |name: &str| names.iter().position(|n| n == name).expect("validated node name");
    let clients = s.clients.len();
    let storage = names.len() - 1;
    let server = clients; // the first lock-service node
    let mut nodes: Vec<(NodeInfo, BoxedNode)> = Vec::with_capacity(names.len());
    for c in &s.clients {
        let plan = ClientPlan {
            acquire_at_ms: c.acquire_at_ms,
            work_ms: c.work_ms,
            writes: c.writes,
            retry_ms: (s.lock.retry_ms[0], s.lock.retry_ms[1]),
            request_timeout_ms: s.lock.request_timeout_ms,
        };
        let agent: Box<dyn LockAgent> = match s.approach {
            Approach::DbLease | Approach::Redis => {
                Box::new(SingleServerAgent::new(server, s.lock.ttl_ms, s.lock.request_timeout_ms, s.lock.safe_unlock))
            }
            Approach::Redlock => Box::new(RedlockAgent::new(
                (server..storage).collect(),
                s.lock.ttl_ms,
                s.lock.drift_factor,
                s.lock.request_timeout_ms,
                s.lock.safe_unlock,
            )),
            Approach::Zookeeper | Approach::Etcd => {
                Box::new(EnsembleAgent::new((server..storage).collect(), s.lock.ttl_ms, s.lock.request_timeout_ms))
            }
        };
        nodes.push((NodeInfo { name: c.name.clone(), role: Role::Client }, Box::new(Client::new(plan, storage, agent))));
    }
    for (rank, name) in names[clients..storage].iter().enumerate() {
        let node: BoxedNode = match s.approach {
            Approach::DbLease => Box::new(DbServer::new()),
            Approach::Redis => {
                let replication = s.lock.replica.then(|| Replication {
                    peer: if name == "redis" { id("redis-replica") } else { id("redis") },
                    clients: (0..clients).collect(),
                    primary: name == "redis",
                });
                Box::new(RedisServer::new(s.lock.persistence, true, replication))
            }
            // Redlock's instances are plain Redis servers with no token counter.
            Approach::Redlock => Box::new(RedisServer::new(s.lock.persistence, false, None)),
            Approach::Zookeeper => Box::new(EnsembleServer::new(Flavour::ZooKeeper, rank, (server..storage).collect())),
            Approach::Etcd => Box::new(EnsembleServer::new(Flavour::Etcd, rank, (server..storage).collect())),
        };
        nodes.push((NodeInfo { name: name.clone(), role: Role::LockServer }, node));
    }
    nodes.push((NodeInfo { name: "storage".into(), role: Role::Storage }, Box::new(Storage::new(s.storage.fencing))));
    let cfg = WorldConfig {
        seed: s.seed,
        duration_ms: s.duration_ms,
        latency_ms: (s.network.latency_ms[0], s.network.latency_ms[1]),
        drop_rate: s.network.drop_rate,
        max_events: MAX_TRACE_EVENTS,
    };
    let mut world = World::new(&cfg, nodes);
    for f in &s.faults {
        world.schedule_fault(f.at_ms(), super::fault::build(f, &id));
    }
    world
}
