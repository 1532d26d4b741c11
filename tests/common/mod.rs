//! Seeded scenario generators shared by the property and invariant suites (every run checks the
//! same scenarios). Counts are scaled by `LOCKLAB_PROPERTY_SCALE` (default 1).

#![allow(dead_code)] // each test file uses its own part

pub mod invariants;
pub mod lessons;

use locklab::scenario::fault::{ClockDrift, ClockJump, Crash, Delay, Drop, Partition, Pause};
use locklab::scenario::format::{ClientSpec, FaultSpec, LockConfig, NetworkConfig, StorageConfig};
use locklab::scenario::validate::{node_names, service_names};
use locklab::scenario::{Approach, Persistence, Scenario};
use locklab::sim::rng::Stream;

/// Parses and runs a scenario written in the test (it must be valid).
pub fn run(json: &str) -> locklab::lab::Run {
    locklab::lab::run(&locklab::scenario::parse(json).unwrap_or_else(|e| panic!("{e}\n{json}")))
}

pub fn scale() -> usize {
    std::env::var("LOCKLAB_PROPERTY_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

pub fn pick<'a, T>(rng: &mut Stream, items: &'a [T]) -> &'a T {
    &items[rng.range(0, items.len() as i64 - 1) as usize]
}

/// An approach as the properties distinguish it: Redis with and without its replica are
/// different systems (the replica's failover is its own way to lose the lock).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub approach: Approach,
    pub replica: bool,
}

impl Shape {
    pub const fn of(approach: Approach) -> Shape {
        Shape { approach, replica: false }
    }

    pub fn name(self) -> String {
        if self.replica {
            "redis+replica".into()
        } else {
            self.approach.id().into()
        }
    }
}

/// Every approach in the registry, those with a replica twice (alone and with it), so a new
/// approach is generated for without a change here.
pub fn shapes() -> Vec<Shape> {
    Approach::ALL
        .into_iter()
        .flat_map(|a| [Some(Shape::of(a)), a.spec().replica.then_some(Shape { approach: a, replica: true })])
        .flatten()
        .collect()
}

/// Whether the approach's fencing token comes from a replicated log that never hands a
/// number out twice (ZooKeeper, etcd): the approaches the seed calls safe with fencing.
pub fn consensus(a: Approach) -> bool {
    a.spec().holding == locklab::protocols::spec::Holding::Replicated
}

/// Which faults a generated scenario may contain.
#[derive(Clone, Copy, PartialEq)]
pub enum FaultMix {
    /// Anything the format allows.
    Any,
    /// What a majority-based ensemble must survive: pauses, delays, drops, partitions and
    /// crashes of a minority of its servers (clients may crash too).
    MinorityOfServers,
    /// Faults that end (no clock faults, every crash restarts, every window closes), all over
    /// by `LIVENESS_FAULTS_END_MS`: for liveness.
    Ending,
}

/// With `FaultMix::Ending`, every fault is over by then (its window closed, its node restarted).
pub const LIVENESS_FAULTS_END_MS: i64 = 25_000;

fn base(rng: &mut Stream, shape: Shape, fencing: bool, duration_ms: i64, acquire_by: i64) -> Scenario {
    let approach = shape.approach;
    let servers = match approach.spec().holding {
        _ if approach.spec().default_servers.is_none() => None,
        locklab::protocols::spec::Holding::Majority => Some(*pick(rng, &[1, 3, 5, 7])),
        _ => Some(*pick(rng, &[1, 3, 5])),
    };
    let clients: Vec<ClientSpec> = (0..rng.range(1, 4))
        .map(|i| ClientSpec {
            name: ["A", "B", "C", "D"][i as usize].to_string(),
            acquire_at_ms: rng.range(0, acquire_by),
            work_ms: rng.range(0, 3_000),
            writes: rng.range(0, 3) as u32,
            lock: Default::default(),
        })
        .collect();
    let mut s = Scenario {
        version: 1,
        id: "generated".into(),
        title: String::new(),
        intro: String::new(),
        approach,
        seed: rng.next_u64(),
        duration_ms,
        lock: LockConfig {
            ttl_ms: rng.range(1_000, 15_000),
            servers,
            safe_unlock: rng.range(0, 3) > 0,
            replica: shape.replica,
            persistence: *pick(rng, &[Persistence::None, Persistence::AofEverysec, Persistence::AofAlways]),
            drift_factor: 0.01,
            retry_ms: [rng.range(10, 200), rng.range(200, 500)],
            request_timeout_ms: rng.range(10, 200),
            tick_ms: *pick(rng, &[200, 500, 2000]),
            own: Default::default(),
        },
        storage: StorageConfig { fencing },
        network: NetworkConfig {
            latency_ms: [rng.range(0, 3), rng.range(3, 30)],
            drop_rate: if rng.range(0, 3) == 0 { rng.range(0, 10) as f64 / 100.0 } else { 0.0 },
        },
        clients,
        faults: Vec::new(),
        schedules: Vec::new(),
        expect: None,
    };
    // The approach's own rules (a Kubernetes LeaseDuration above its RenewDeadline, a Consul
    // TTL of at least 10 s), changing as little of the draw as they allow.
    (approach.spec().config.fit)(&mut s.lock);
    s
}

/// A scenario with up to five faults of `mix`.
pub fn scenario(rng: &mut Stream, shape: Shape, mix: FaultMix, fencing: bool) -> Scenario {
    let mut s = if mix == FaultMix::Ending {
        let mut s = base(rng, shape, fencing, 0, 10_000);
        s.network.drop_rate = 0.0;
        // A client whose every reply comes after its timeout never gets the lock, faults or not
        // (and each grant it gave up on holds the lock for a TTL): liveness needs replies that
        // can arrive in time.
        s.lock.request_timeout_ms = s.lock.request_timeout_ms.max(2 * s.network.latency_ms[1] + 10);
        s
    } else {
        let duration_ms = rng.range(5_000, 30_000);
        base(rng, shape, fencing, duration_ms, duration_ms / 2)
    };
    let horizon = if mix == FaultMix::Ending { 15_000 } else { s.duration_ms };
    // Ending faults are at most this long, so all are over by LIVENESS_FAULTS_END_MS.
    let window = |rng: &mut Stream, max: i64| if mix == FaultMix::Ending { rng.range(1, 5_000) } else { rng.range(1, max) };
    let names = node_names(&s);
    let service = service_names(&s);
    let minority = service.len().saturating_sub(1) / 2;
    let mut crashed: Vec<String> = Vec::new();
    for _ in 0..rng.range(0, 6) {
        let at_ms = rng.range(0, horizon);
        let node = pick(rng, &names).clone();
        let other = pick(rng, &names).clone();
        let fault = match rng.range(0, 6) {
            0 => FaultSpec::Pause(Pause { at_ms, node, duration_ms: window(rng, 20_000) }),
            1 if mix == FaultMix::Any => FaultSpec::ClockJump(ClockJump { at_ms, node, by_ms: rng.range(-20_000, 20_000) }),
            1 => FaultSpec::Pause(Pause { at_ms, node, duration_ms: window(rng, 3_000) }),
            2 if mix == FaultMix::Any => FaultSpec::ClockDrift(ClockDrift { at_ms, node, ppm: rng.range(-200_000, 200_000) }),
            2 | 3 if node == other => continue,
            2 => {
                let by_ms = if mix == FaultMix::Ending { rng.range(0, 2_000) } else { rng.range(0, 5_000) };
                FaultSpec::Delay(Delay { at_ms, from: node, to: other, by_ms, duration_ms: window(rng, 10_000) })
            }
            3 => FaultSpec::Drop(Drop { at_ms, from: node, to: other, duration_ms: Some(window(rng, 10_000)) }),
            4 => {
                let mut side: Vec<String> = names.iter().filter(|_| rng.range(0, 1) == 1).cloned().collect();
                if side.is_empty() {
                    side.push(node);
                }
                FaultSpec::Partition(Partition { at_ms, groups: vec![side], duration_ms: Some(window(rng, 10_000)) })
            }
            _ => {
                if node == "storage" {
                    continue;
                }
                let is_server = service.contains(&node);
                if mix == FaultMix::MinorityOfServers && is_server && !crashed.contains(&node) {
                    if crashed.len() >= minority {
                        continue;
                    }
                    crashed.push(node.clone());
                }
                let restart_after_ms = match mix {
                    FaultMix::Ending => Some(window(rng, 10_000)),
                    _ => (rng.range(0, 2) > 0).then(|| rng.range(1, 10_000)),
                };
                FaultSpec::Crash(Crash { at_ms, node, restart_after_ms, machine: rng.range(0, 1) == 1 })
            }
        };
        s.faults.push(fault);
    }
    if mix == FaultMix::Ending {
        s.duration_ms = LIVENESS_FAULTS_END_MS + quiet_stretch_ms(&s);
    }
    s
}

/// How long a run must go on with no fault active for every client to get the lock in turn:
/// the longest lease or session anything left behind can hold out (its TTL, ZooKeeper's
/// granted timeout at least 2 ticks, etcd's at least 2 s, plus one expiry check), then each
/// client's turn (its writes with their replies or timeouts, and its retries), with slack for
/// elections and failovers.
pub fn quiet_stretch_ms(s: &Scenario) -> i64 {
    let l = &s.lock;
    let mut lease = l.ttl_ms.max(2 * l.tick_ms).max(2_000) + l.tick_ms.max(500) + 1_000;
    let delay = &locklab::protocols::consul::LOCK_DELAY;
    if s.approach.spec().config.settings.iter().any(|x| x.name() == delay.name()) {
        // Consul: an invalidated session is found only after 2 × TTL, then the lock-delay runs,
        // and a refused client looks again 5 s later.
        lease += l.ttl_ms + l.get(delay).min(60_000) + 5_000;
    }
    let reply = 2 * s.network.latency_ms[1] + l.request_timeout_ms;
    let turn: i64 = s.clients.iter().map(|c| c.writes as i64 * (c.work_ms + reply) + l.retry_ms[1] + 1_000).sum();
    lease + 2 * turn + 10_000
}

/// Adds a pause of one client longer than the TTL, at a time it may well hold the lock: the
/// schedule under which a lease-based lock loses an update (docs/PROTOCOLS.md (b) 1).
pub fn with_long_client_pause(rng: &mut Stream, mut s: Scenario) -> Scenario {
    let client = rng.range(0, s.clients.len() as i64 - 1) as usize;
    let c = &s.clients[client];
    let at_ms = (c.acquire_at_ms + rng.range(0, c.work_ms + 200)).min(s.duration_ms);
    let duration_ms = s.lock.ttl_ms + rng.range(500, 10_000);
    s.faults.push(FaultSpec::Pause(Pause { at_ms, node: c.name.clone(), duration_ms }));
    s
}
