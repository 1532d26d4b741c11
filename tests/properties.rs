//! Properties over many generated scenarios (seeded, so every run checks the same ones), in the
//! manner of stateright's `always` / `sometimes`: generated scenarios are valid and survive the
//! public format; consensus-backed locks with fencing *always* keep storage safe under faults a
//! majority survives; every approach the seed calls advisory *sometimes* loses an update without
//! fencing; and every client gets the lock once the faults are over (liveness). Each is a named
//! property of the library (`check::properties`). Every generated run is also checked against
//! the trace invariants (`properties::invariants()`). Each test prints
//! its counts per approach (`cargo test --test properties -- --nocapture`).
//!
//! Counts are scaled by `LOCKLAB_PROPERTY_SCALE` (default 1); CI runs the defaults.

mod common;

use common::{consensus, invariants, pick, scale, scenario, shapes, with_long_client_pause, FaultMix, Shape, LIVENESS_FAULTS_END_MS};
use locklab::check::properties::{EVERY_CLIENT_GETS_THE_LOCK, HOLDER_WRITES_ACCEPTED, NO_LOST_UPDATE, STALE_WRITE_REJECTED, TOKENS_RISE};
use locklab::lab;
use locklab::scenario::validate::validate;
use locklab::scenario::{parse, Approach, Scenario};
use locklab::sim::rng::Stream;

#[test]
fn generated_scenarios_are_valid_survive_the_format_and_never_panic() {
    let mut rng = Stream::new(2026, 1);
    let n = 200 * scale();
    for shape in shapes() {
        for i in 0..n {
            let fencing = rng.range(0, 1) == 1;
            let s = scenario(&mut rng, shape, FaultMix::Any, fencing);
            validate(&s).unwrap_or_else(|e| panic!("generated scenario {i} invalid: {e}\n{s:?}"));
            // Through the public format and back: the same scenario, so the same run.
            let back = parse(&serde_json::to_string(&s).unwrap()).unwrap();
            assert_eq!(back, s, "scenario {i} changed through JSON");
            let run = lab::run(&back);
            assert!(!run.trace.truncated, "scenario {i} hit the event limit: {s:?}");
            invariants::check(&run).unwrap_or_else(|e| panic!("{}: {e}\n{s:?}", shape.name()));
        }
    }
}

#[test]
fn consensus_locks_with_fencing_always_keep_storage_safe() {
    let mut rng = Stream::new(2026, 2);
    let n = 3_000 * scale();
    let consensus_locks: Vec<Approach> = Approach::ALL.into_iter().filter(|&a| consensus(a)).collect();
    assert!(!consensus_locks.is_empty());
    for approach in consensus_locks {
        let (mut grants, mut rejected) = (0, 0);
        for _ in 0..n {
            let s = scenario(&mut rng, Shape::of(approach), FaultMix::MinorityOfServers, true);
            let run = lab::run(&s);
            invariants::check(&run).unwrap_or_else(|e| panic!("{}: {e}\n{s:?}", approach.id()));
            for p in [&NO_LOST_UPDATE, &TOKENS_RISE, &HOLDER_WRITES_ACCEPTED] {
                invariants::holds(p, &run).unwrap_or_else(|e| panic!("{e}\n{s:?}\n{:#?}", run.verdict));
            }
            assert!(run.verdict.safe);
            grants += run.verdict.grants.len();
            rejected += usize::from(invariants::holds(&STALE_WRITE_REJECTED, &run).is_err());
        }
        println!("always, {}: {n} runs, {grants} grants, {rejected} runs with a stale write rejected, none accepted", approach.id());
        // The generator must actually exercise the lock, and fencing must have had work to do.
        assert!(grants > n, "{}: only {grants} grants in {n} scenarios", approach.id());
        assert!(rejected > 0, "{}: {} never witnessed: the faults never bit", approach.id(), STALE_WRITE_REJECTED.id);
    }
}

#[test]
fn every_advisory_approach_sometimes_loses_an_update_without_fencing() {
    // docs/PROTOCOLS.md: a TTL lock, a single Redis (with or without its replica) and Redlock are
    // only advisory. Each must lose an update in some generated run, or the generator (or the
    // model) hides the failure the app exists to show.
    let mut rng = Stream::new(2026, 4);
    let n = 300 * scale();
    let advisory: Vec<Shape> = shapes().into_iter().filter(|s| !consensus(s.approach)).collect();
    assert!(!advisory.is_empty());
    for shape in advisory {
        let mut lost = 0;
        for _ in 0..n {
            let s = scenario(&mut rng, shape, FaultMix::Any, false);
            // Half of them with a holder paused past its TTL, the textbook way to lose one.
            let s = if rng.range(0, 1) == 1 { with_long_client_pause(&mut rng, s) } else { s };
            let run = lab::run(&s);
            invariants::check(&run).unwrap_or_else(|e| panic!("{}: {e}\n{s:?}", shape.name()));
            lost += usize::from(invariants::holds(&NO_LOST_UPDATE, &run).is_err());
        }
        println!("sometimes, {}: {lost} of {n} runs lost an update", shape.name());
        assert!(lost > 0, "{}: no generated run lost an update", shape.name());
    }
}

#[test]
fn once_the_faults_are_over_every_client_gets_the_lock() {
    // Liveness. Faults that end (pauses, crashes that restart, partitions, drops and delays
    // with a window; no clock faults, no random loss), all over by 25 s; the run then goes on
    // for longer than anything left behind can hold the lock plus every client's turn
    // (common::quiet_stretch_ms). Every client — the last process of one that crashed — must
    // then have held the lock and finished.
    let mut rng = Stream::new(2026, 5);
    let n = 150 * scale();
    for shape in shapes() {
        let mut faults = 0;
        for _ in 0..n {
            let fencing = rng.range(0, 1) == 1;
            let s: Scenario = scenario(&mut rng, shape, FaultMix::Ending, fencing);
            assert!(s.duration_ms > LIVENESS_FAULTS_END_MS);
            faults += s.faults.len();
            let run = lab::run(&s);
            invariants::check(&run).unwrap_or_else(|e| panic!("{}: {e}\n{s:?}", shape.name()));
            if let Err(e) = invariants::holds(&EVERY_CLIENT_GETS_THE_LOCK, &run) {
                panic!("{}: {e}\n{}", shape.name(), serde_json::to_string(&s).unwrap());
            }
        }
        println!("liveness, {}: {n} runs ({faults} faults), every client got the lock", shape.name());
    }
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
        ("\"tick_ms\": ", "\"tick_ms\": -"),
    ];
    for i in 0..500 * scale() {
        let all = shapes();
        let shape = all[i % all.len()];
        let s = scenario(&mut rng, shape, FaultMix::Any, false);
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
