//! The trace: every step of a run, in order. It is the only thing the checker, the narrator and
//! the UI read, so everything they show must be derivable from it.

use serde::Serialize;

use super::network::LossReason;
use super::rng::fnv1a;
use super::{NodeId, Time};

/// What one node is, for lanes and captions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeInfo {
    pub name: String,
    pub role: Role,
}

/// The part a node plays in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Client,
    LockServer,
    Storage,
}

/// One step of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event<M, N> {
    pub at_ms: Time,
    pub node: NodeId,
    pub kind: EventKind<M, N>,
}

/// The sim-level vocabulary; protocols add theirs through `Note`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind<M, N> {
    /// A message left `node`. `arrives_at_ms` is None when the network lost it.
    Sent {
        msg_id: u64,
        to: NodeId,
        msg: M,
        arrives_at_ms: Option<Time>,
        lost: Option<LossReason>,
    },
    /// `node` handled a message (later than its arrival if the node was paused).
    Received {
        msg_id: u64,
        from: NodeId,
        msg: M,
        arrived_at_ms: Time,
    },
    /// A message reached a crashed node and vanished (or had reached it while it was paused, and
    /// the node crashed before handling it).
    Lost {
        msg_id: u64,
        from: NodeId,
        reason: LossReason,
    },
    Paused {
        until_ms: Time,
    },
    Resumed,
    ClockJumped {
        by_ms: i64,
    },
    ClockDrift {
        ppm: i64,
    },
    Crashed {
        machine: bool,
    },
    Restarted,
    PartitionStarted {
        groups: Vec<Vec<NodeId>>,
        until_ms: Option<Time>,
    },
    PartitionHealed,
    LinkCut {
        to: NodeId,
        until_ms: Option<Time>,
    },
    LinkDelayed {
        to: NodeId,
        by_ms: i64,
        until_ms: Time,
    },
    /// What the protocol itself reports (grants, expiries, writes, beliefs…).
    Note(N),
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace<M, N> {
    pub nodes: Vec<NodeInfo>,
    pub duration_ms: Time,
    pub events: Vec<Event<M, N>>,
    /// True when the run hit the event limit and stopped early.
    pub truncated: bool,
}

impl<M: Serialize, N: Serialize> Trace<M, N> {
    /// A stable 64-bit FNV-1a hash of the serialized trace, for determinism tests.
    pub fn hash(&self) -> u64 {
        let bytes = serde_json::to_vec(self).unwrap_or_else(|e| panic!("a trace did not serialize: {e}"));
        fnv1a(&bytes)
    }
}

impl<M, N> Trace<M, N> {
    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.name == name)
    }

    pub fn name(&self, id: NodeId) -> &str {
        &self.nodes[id].name
    }
}
