//! The network between nodes: latency drawn per message from the link's stream, random loss,
//! and the link faults (partition, one-way drop, extra delay). Decisions are taken when a
//! message is sent.

use serde::Serialize;

use super::rng::{link_key, Stream};
use super::{NodeId, Time};

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// `network.drop_rate` picked it.
    RandomLoss,
    /// A `drop` fault cuts this link.
    LinkCut,
    /// Sender and receiver were on different sides of a partition.
    Partitioned,
    /// The receiver was crashed when it arrived.
    ReceiverDown,
}

#[derive(Clone, Debug)]
struct Partition {
    /// Group index per node; nodes not listed share one extra group.
    group_of: Vec<usize>,
    until: Time,
}

#[derive(Clone, Debug)]
struct LinkWindow {
    from: NodeId,
    to: NodeId,
    since: Time,
    until: Time,
    by_ms: i64,
}

/// Everything about links, with one random stream per directed link.
#[derive(Clone, Debug)]
pub struct Network {
    latency: (i64, i64),
    drop_rate: f64,
    seed: u64,
    /// One stream per directed link, created on the link's first message.
    streams: Vec<Option<Stream>>,
    /// The nodes' names, by id: a link's stream is keyed by its ends' names (`rng::link_key`).
    names: Vec<String>,
    partitions: Vec<Partition>,
    cuts: Vec<LinkWindow>,
    delays: Vec<LinkWindow>,
}

/// What the network decided for one message.
pub enum Route {
    Deliver(Time),
    Lost(LossReason),
}

impl Network {
    /// The network between the nodes named `names` (node `i` is `names[i]`).
    pub fn new(seed: u64, names: Vec<String>, latency: (i64, i64), drop_rate: f64) -> Self {
        Network {
            latency,
            drop_rate,
            seed,
            streams: vec![None; names.len() * names.len()],
            names,
            partitions: Vec::new(),
            cuts: Vec::new(),
            delays: Vec::new(),
        }
    }

    /// Routes a message sent now. Both draws happen for every message so one fault does not
    /// shift the link's later draws.
    pub fn route(&mut self, now: Time, from: NodeId, to: NodeId) -> Route {
        let (seed, names) = (self.seed, &self.names);
        let stream = self.streams[from * names.len() + to].get_or_insert_with(|| Stream::new(seed, link_key(&names[from], &names[to])));
        let latency = stream.range(self.latency.0, self.latency.1);
        let lost = self.drop_rate > 0.0 && stream.unit() < self.drop_rate;
        if !self.can_talk(now, from, to) {
            return Route::Lost(LossReason::Partitioned);
        }
        if self.cuts.iter().any(|c| c.from == from && c.to == to && c.since <= now && now < c.until) {
            return Route::Lost(LossReason::LinkCut);
        }
        if lost {
            return Route::Lost(LossReason::RandomLoss);
        }
        let extra: i64 =
            self.delays.iter().filter(|d| d.from == from && d.to == to && d.since <= now && now < d.until).map(|d| d.by_ms).sum();
        Route::Deliver(now + latency + extra)
    }

    /// Whether `a` and `b` are on the same side of every partition active at `now`.
    pub fn can_talk(&self, now: Time, a: NodeId, b: NodeId) -> bool {
        self.partitions.iter().filter(|p| now < p.until).all(|p| p.group_of[a] == p.group_of[b])
    }

    pub fn partition(&mut self, groups: &[Vec<NodeId>], until: Time) {
        let extra = groups.len();
        let mut group_of = vec![extra; self.names.len()];
        for (g, members) in groups.iter().enumerate() {
            for &n in members {
                group_of[n] = g;
            }
        }
        self.partitions.push(Partition { group_of, until });
    }

    pub fn cut(&mut self, from: NodeId, to: NodeId, since: Time, until: Time) {
        self.cuts.push(LinkWindow { from, to, since, until, by_ms: 0 });
    }

    pub fn delay(&mut self, from: NodeId, to: NodeId, since: Time, until: Time, by_ms: i64) {
        self.delays.push(LinkWindow { from, to, since, until, by_ms });
    }
}
