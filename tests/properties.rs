//! Properties over many generated scenarios (seeded, so every run checks the same ones):
//! determinism, no panics, errors for invalid input, and the safety of consensus-backed locks
//! with fencing under faults that a majority of the ensemble survives.
//!
//! Counts are scaled by `LOCKLAB_PROPERTY_SCALE` (default 1); CI runs the defaults.

use locklab::check::FindingKind;
use locklab::lab;
use locklab::scenario::format::{ClientSpec, FaultSpec, LockConfig, NetworkConfig, StorageConfig};
use locklab::scenario::validate::{node_names, service_names, validate};
use locklab::scenario::{parse, Approach, Persistence, Scenario};
use locklab::sim::rng::Stream;

fn scale() -> usize {
    std::env::var("LOCKLAB_PROPERTY_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

fn pick<'a, T>(rng: &mut Stream, items: &'a [T]) -> &'a T {
    &items[rng.range(0, items.len() as i64 - 1) as usize]
}

/// Which faults a generated scenario may contain.
#[derive(Clone, Copy, PartialEq)]
enum FaultMix {
    /// Anything the format allows.
    Any,
    /// What a majority-based ensemble must survive: pauses, delays, drops, partitions and
    /// crashes of a minority of its servers (clients may crash too).
    MinorityOfServers,
}

fn scenario(rng: &mut Stream, approach: Approach, mix: FaultMix, fencing: bool) -> Scenario {
    let servers = match approach {
        Approach::Redlock => Some(*pick(rng, &[1, 3, 5, 7])),
        Approach::Zookeeper | Approach::Etcd => Some(*pick(rng, &[1, 3, 5])),
        _ => None,
    };
    let duration_ms = rng.range(5_000, 30_000);
    let clients: Vec<ClientSpec> = (0..rng.range(1, 4))
        .map(|i| ClientSpec {
            name: ["A", "B", "C", "D"][i as usize].to_string(),
            acquire_at_ms: rng.range(0, duration_ms / 2),
            work_ms: rng.range(0, 3_000),
            writes: rng.range(0, 3) as u32,
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
            replica: approach == Approach::Redis && rng.range(0, 1) == 1,
            persistence: *pick(rng, &[Persistence::None, Persistence::AofEverysec, Persistence::AofAlways]),
            drift_factor: 0.01,
            retry_ms: [rng.range(10, 200), rng.range(200, 500)],
            request_timeout_ms: rng.range(10, 200),
            tick_ms: 2000,
        },
        storage: StorageConfig { fencing },
        network: NetworkConfig {
            latency_ms: [rng.range(0, 3), rng.range(3, 30)],
            drop_rate: if rng.range(0, 3) == 0 { rng.range(0, 10) as f64 / 100.0 } else { 0.0 },
        },
        clients,
        faults: Vec::new(),
        expect: None,
    };
    let names = node_names(&s);
    let service = service_names(&s);
    let minority = (service.len() - 1) / 2;
    let mut crashed: Vec<String> = Vec::new();
    for _ in 0..rng.range(0, 6) {
        let at_ms = rng.range(0, duration_ms);
        let node = pick(rng, &names).clone();
        let other = pick(rng, &names).clone();
        let fault = match rng.range(0, 6) {
            0 => FaultSpec::Pause { at_ms, node, duration_ms: rng.range(1, 20_000) },
            1 if mix == FaultMix::Any => FaultSpec::ClockJump { at_ms, node, by_ms: rng.range(-20_000, 20_000) },
            1 => FaultSpec::Pause { at_ms, node, duration_ms: rng.range(1, 3_000) },
            2 if mix == FaultMix::Any => FaultSpec::ClockDrift { at_ms, node, ppm: rng.range(-200_000, 200_000) },
            2 | 3 if node == other => continue,
            2 => FaultSpec::Delay { at_ms, from: node, to: other, by_ms: rng.range(0, 5_000), duration_ms: rng.range(1, 10_000) },
            3 => FaultSpec::Drop { at_ms, from: node, to: other, duration_ms: Some(rng.range(1, 10_000)) },
            4 => {
                let mut side: Vec<String> = names.iter().filter(|_| rng.range(0, 1) == 1).cloned().collect();
                if side.is_empty() {
                    side.push(node);
                }
                FaultSpec::Partition { at_ms, groups: vec![side], duration_ms: Some(rng.range(1, 10_000)) }
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
                let restart_after_ms = (rng.range(0, 2) > 0).then(|| rng.range(1, 10_000));
                FaultSpec::Crash { at_ms, node, restart_after_ms, machine: rng.range(0, 1) == 1 }
            }
        };
        s.faults.push(fault);
    }
    s
}

#[test]
fn generated_scenarios_are_deterministic_valid_and_never_panic() {
    let mut rng = Stream::new(2026, 1);
    let n = 1_000 * scale();
    for i in 0..n {
        let approach = Approach::ALL[i % Approach::ALL.len()];
        let fencing = rng.range(0, 1) == 1;
        let s = scenario(&mut rng, approach, FaultMix::Any, fencing);
        validate(&s).unwrap_or_else(|e| panic!("generated scenario {i} invalid: {e}\n{s:?}"));
        let a = lab::run(&s);
        let b = lab::run(&s);
        assert_eq!(a.trace.hash(), b.trace.hash(), "scenario {i} is not deterministic: {s:?}");
        assert!(!a.trace.truncated, "scenario {i} hit the event limit");
        // Round trip through the public format gives the same run.
        let json = serde_json::to_string(&s).unwrap();
        let back = parse(&json).unwrap();
        assert_eq!(lab::run(&back).trace.hash(), a.trace.hash(), "scenario {i} changed through JSON");
    }
}

#[test]
fn consensus_locks_with_fencing_never_accept_a_stale_write() {
    let mut rng = Stream::new(2026, 2);
    let n = 10_000 * scale();
    let mut grants = 0;
    let mut rejected = 0;
    for i in 0..n {
        let approach = if i % 2 == 0 { Approach::Zookeeper } else { Approach::Etcd };
        let s = scenario(&mut rng, approach, FaultMix::MinorityOfServers, true);
        let v = lab::run(&s).verdict;
        assert_eq!(v.stale_writes_accepted, 0, "stale write accepted in {s:?}\n{v:#?}");
        assert!(v.safe);
        let bad_tokens = v.findings.iter().any(|f| matches!(f.kind, FindingKind::TokenRepeated | FindingKind::TokenRegressed));
        assert!(!bad_tokens, "token order broken in {s:?}\n{v:#?}");
        grants += v.grants.len();
        rejected += v.stale_writes_rejected as usize;
    }
    // The generator must actually exercise the lock, and fencing must have had work to do.
    assert!(grants > n, "only {grants} grants in {n} scenarios");
    assert!(rejected > 0, "no stale write was ever rejected: the faults never bit");
}

#[test]
fn mutated_scenarios_get_an_error_never_a_panic() {
    let mut rng = Stream::new(2026, 3);
    let breakers: &[(&str, &str)] = &[
        ("\"version\": 1", "\"version\": 7"),
        ("\"approach\"", "\"aproach\""),
        ("\"ttl_ms\": ", "\"ttl_ms\": -"),
        ("\"name\": \"A\"", "\"name\": \"storage\""),
        ("\"latency_ms\": [", "\"latency_ms\": [99999, "),
        ("\"duration_ms\": ", "\"duration_ms\": \"soon\", \"x\": "),
        ("{", "{\"surprise\": true, "),
        ("\"clients\": [", "\"clients\": [{\"name\": \"A\"}, "),
    ];
    for i in 0..500 * scale() {
        let approach = Approach::ALL[i % Approach::ALL.len()];
        let s = scenario(&mut rng, approach, FaultMix::Any, false);
        let json = serde_json::to_string_pretty(&s).unwrap().replace(":", ": ").replace(":  ", ": ");
        let (from, to) = pick(&mut rng, breakers);
        if !json.contains(from) {
            continue;
        }
        let broken = json.replacen(from, to, 1);
        let err = parse(&broken).expect_err(&format!("mutation {from:?} → {to:?} should be rejected:\n{broken}"));
        assert!(!err.to_string().is_empty());
        // Random truncation: always an error, never a panic.
        let cut = rng.range(0, json.len() as i64 - 2) as usize;
        if json.is_char_boundary(cut) {
            assert!(parse(&json[..cut]).is_err());
        }
    }
}
