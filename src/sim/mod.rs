//! The deterministic simulation core: virtual time, clocks, network, faults and the trace.
//! Plain Rust: no web-sys, no yew, no wall clock.

pub mod clock;
pub mod host;
pub mod network;
pub mod rng;
pub mod trace;
pub mod world;

/// True time, in milliseconds since the start of the run.
pub type Time = i64;

/// Index of a node in the world (and in `Trace::nodes`).
pub type NodeId = usize;

/// Node id used for events that belong to no single node (partitions).
pub const NO_NODE: NodeId = usize::MAX;

pub use clock::{ClockKind, LocalClock, NodeClocks};
pub use host::{Durable, Host, Process};
pub use network::LossReason;
pub use rng::fnv1a;
pub use trace::{Event, EventKind, NodeInfo, Role, Trace};
pub use world::{Ctx, Fault, Node, TimerId, World, WorldConfig};
