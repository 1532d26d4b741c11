//! Session and lease timing as the real servers do it (docs/SCENARIO_FORMAT.md, `lock.tick_ms`,
//! "Ensembles", verdict `granted_ttl_ms`).

mod common;

use common::run;
use locklab::lab::Run;
use locklab::protocols::{BeliefEnd, EventKind, Msg, Note};

/// The ZooKeeper run measured on a real 3.8 server: tickTime 200 ms, a 2 s session, the holder
/// frozen (SIGSTOP) for 3 s. The real server expired the session and the update was lost.
fn frozen_zookeeper_holder(tick_ms: i64, fencing: bool) -> Run {
    run(&format!(
        r#"{{"version": 1, "approach": "zookeeper", "seed": 2, "duration_ms": 10000, "storage": {{"fencing": {fencing}}},
        "lock": {{"ttl_ms": 2000, "tick_ms": {tick_ms}}},
        "clients": [{{"name": "A", "work_ms": 500}}, {{"name": "B", "acquire_at_ms": 100, "work_ms": 300}}],
        "faults": [{{"at_ms": 100, "kind": "pause", "node": "A", "duration_ms": 3000}}]}}"#
    ))
}

#[test]
fn zookeeper_grants_the_asked_timeout_within_2_to_20_ticks() {
    let fast = frozen_zookeeper_holder(200, false);
    assert_eq!(fast.verdict.granted_ttl_ms, Some(2000));
    assert!(!fast.verdict.safe, "a 3 s freeze outlives a 2 s session: {:#?}", fast.verdict);
    assert_eq!(fast.verdict.stale_writes_accepted, 1);
    assert!(frozen_zookeeper_holder(200, true).verdict.stale_writes_rejected == 1);
    // A stock tickTime (2 s) makes the 2 s asked for a 4 s session: the freeze is survived.
    let stock = frozen_zookeeper_holder(2000, false);
    assert_eq!(stock.verdict.granted_ttl_ms, Some(4000));
    assert!(stock.verdict.safe && stock.verdict.max_concurrent_holders == 1, "{:#?}", stock.verdict);
    // And the upper bound: 20 ticks.
    let long = run(r#"{"version": 1, "approach": "zookeeper", "lock": {"ttl_ms": 90000, "tick_ms": 1000}, "duration_ms": 3000}"#);
    assert_eq!(long.verdict.granted_ttl_ms, Some(20_000));
}

#[test]
fn zookeeper_expires_sessions_on_tick_boundaries() {
    for tick in [200, 700, 2000] {
        let r = frozen_zookeeper_holder(tick, false);
        let opened = r.trace.events.iter().find_map(|e| match e.kind {
            EventKind::Note(Note::SessionOpened { session: 1, ttl_ms, .. }) => Some((e.at_ms, ttl_ms)),
            _ => None,
        });
        let (opened_at, ttl) = opened.expect("A's session opened");
        let expired_at = r
            .trace
            .events
            .iter()
            .find_map(|e| matches!(e.kind, EventKind::Note(Note::SessionExpired { session: 1, .. })).then_some(e.at_ms));
        if ttl > 3000 {
            continue; // outlived the freeze: nothing to expire
        }
        let expired_at = expired_at.expect("A's session expired");
        // Last heard when it opened (A froze before its first ping); the deadline goes into the
        // bucket of the next multiple of tickTime, and the expiry commits a few ms after it.
        let bucket = ((opened_at + ttl) / tick + 1) * tick;
        assert!((bucket..bucket + 20).contains(&expired_at), "tick {tick}: expired at {expired_at}, bucket {bucket}");
    }
}

#[test]
fn a_zookeeper_client_is_first_disconnected_then_learns_expired_when_its_reconnect_is_refused() {
    let r = run(r#"{"version": 1, "approach": "zookeeper", "seed": 42, "duration_ms": 20000, "lock": {"ttl_ms": 6000},
        "clients": [{"name": "A", "work_ms": 1000, "writes": 2}, {"name": "B", "acquire_at_ms": 2000, "work_ms": 500}],
        "faults": [{"at_ms": 500, "kind": "pause", "node": "A", "duration_ms": 15000}]}"#);
    let a = r.trace.node_id("A").unwrap();
    let find = |pred: &dyn Fn(&EventKind) -> bool| r.trace.events.iter().position(|e| e.node == a && pred(&e.kind));
    let disconnected = find(&|k| matches!(k, EventKind::Note(Note::Disconnected { .. }))).expect("A notices the closed connection");
    let refused = find(&|k| matches!(k, EventKind::Received { msg: Msg::ReconnectRefused { .. }, .. })).expect("reconnect refused");
    let ended = find(&|k| matches!(k, EventKind::Note(Note::BeliefEnded { .. }))).unwrap();
    assert!(disconnected < refused && refused < ended, "{disconnected} {refused} {ended}");
    // Belief was kept while it was unsure, and ended by the refusal.
    assert_eq!(r.trace.events[ended].kind, EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::SessionExpired }));
    assert_eq!(r.trace.events[ended].at_ms, r.trace.events[refused].at_ms);
    // The closed connection came from the leader when it expired the session, while A was frozen.
    let closed = r.trace.events.iter().find(|e| matches!(e.kind, EventKind::Sent { msg: Msg::SessionClosed { .. }, to, .. } if to == a));
    assert!(closed.is_some_and(|e| e.at_ms < 15_500));
    // A's stale write went out after it resumed, before it knew: the lost update.
    assert_eq!(r.verdict.stale_writes_accepted, 1);
}

#[test]
fn an_etcd_leader_looks_for_expired_leases_every_500_ms_from_its_own_start() {
    // One client asking at the same moment in every run: only the seed differs. The leader's
    // lessor checks every 500 ms from a phase the seed draws, so a lease ends 0–500 ms after
    // its TTL (plus the commit), spread over that range across seeds rather than always
    // ~495 ms late (a grid fixed at 0).
    let mut lateness = Vec::new();
    for seed in 1..=24 {
        let r = run(&format!(
            r#"{{"version": 1, "approach": "etcd", "seed": {seed}, "duration_ms": 8000, "lock": {{"ttl_ms": 2000}},
            "network": {{"latency_ms": [1, 5]}},
            "clients": [{{"name": "A", "acquire_at_ms": 19, "work_ms": 3000}}],
            "faults": [{{"at_ms": 600, "kind": "pause", "node": "A", "duration_ms": 5000}}]}}"#
        ));
        assert_eq!(r.verdict.granted_ttl_ms, Some(2000));
        let heard = r.trace.events.iter().find_map(|e| matches!(e.kind, EventKind::Note(Note::SessionOpened { .. })).then_some(e.at_ms));
        let expired = r.trace.events.iter().find_map(|e| matches!(e.kind, EventKind::Note(Note::SessionExpired { .. })).then_some(e.at_ms));
        let (heard, expired) = (heard.expect("lease granted"), expired.expect("lease expired"));
        // Proposed at the first check after the TTL, committed a round trip later.
        let late = expired - heard - 2000;
        assert!((1..=500 + 20).contains(&late), "seed {seed}: heard {heard}, expired {expired}");
        lateness.push(late);
    }
    let (lo, hi) = (lateness.iter().min().unwrap(), lateness.iter().max().unwrap());
    assert!(hi - lo > 300, "lateness spread {lo}..{hi} ms across seeds: {lateness:?}");
}

#[test]
fn ttl_locks_report_the_ttl_they_asked_for() {
    let r = run(r#"{"version": 1, "approach": "redis", "lock": {"ttl_ms": 7000}, "duration_ms": 3000}"#);
    assert_eq!(r.verdict.granted_ttl_ms, Some(7000));
    let e = run(r#"{"version": 1, "approach": "etcd", "lock": {"ttl_ms": 1200}, "duration_ms": 3000}"#);
    assert_eq!(e.verdict.granted_ttl_ms, Some(2000), "etcd's minimum TTL");
    // Nobody asked: nothing to report.
    let none = run(
        r#"{"version": 1, "approach": "redis", "duration_ms": 1000, "clients": [{"name": "A"}], "faults": [{"at_ms": 0, "kind": "crash", "node": "A"}]}"#,
    );
    assert_eq!(none.verdict.granted_ttl_ms, None);
}
