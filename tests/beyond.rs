//! The approaches beyond the seed (docs/SCENARIO_FORMAT.md, "Beyond the seed"; docs/PROTOCOLS.md P8–P11),
//! each on its own: its happy path is safe and every client finishes, its stories' verdicts with
//! fencing off and on are what they `expect`, and over generated scenarios it *sometimes* loses
//! an update without its check and, where the contract says so, *always* keeps storage safe
//! with it (`cargo test --test beyond -- --nocapture` prints the counts).

mod common;

use common::{invariants, scale, scenario, with_long_client_pause, FaultMix, Shape};
use locklab::check::properties::{EVERY_CLIENT_GETS_THE_LOCK, NO_LOST_UPDATE};
use locklab::lab;
use locklab::protocols::{BeliefEnd, EventKind, Note};
use locklab::scenario::catalog::get as builtin;
use locklab::scenario::{Approach, Scenario};
use locklab::sim::rng::Stream;
use locklab::theme::Theme;

/// The built-in `id` with fencing off and on: each run agrees with its `expect` and keeps the
/// trace invariants.
fn agrees_with_expect(id: &str) -> [lab::Run; 2] {
    let s = builtin(id).unwrap_or_else(|| panic!("no built-in {id}"));
    [false, true].map(|fencing| {
        let r = lab::run(&lab::with_fencing(&s, fencing));
        assert_eq!(r.expect_mismatches(), Some(vec![]), "{id}, fencing {fencing}: {:#?}", r.verdict);
        invariants::check(&r).unwrap_or_else(|e| panic!("{id}: {e}"));
        r
    })
}

/// The happy path of `approach`: safe, one holder at a time, and every client finished.
fn happy(approach: Approach) {
    for r in agrees_with_expect(&format!("happy-path-{}", approach.id())) {
        assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1, "{:#?}", r.verdict);
        invariants::holds(&EVERY_CLIENT_GETS_THE_LOCK, &r).unwrap();
        let finished = r.trace.events.iter().filter(|e| matches!(e.kind, EventKind::Note(Note::Finished))).count();
        assert_eq!(finished, r.scenario.clients.len());
    }
}

/// Over `n` generated scenarios of `approach` (half of them with a holder paused past its TTL):
/// how many lost an update with fencing `fencing`. Every run keeps the invariants.
fn lost_updates(approach: Approach, fencing: bool, mix: FaultMix, key: u64, n: usize) -> usize {
    lost_updates_with(approach, fencing, mix, key, n, |rng, s| if rng.range(0, 1) == 1 { with_long_client_pause(rng, s) } else { s })
}

/// The same, each generated scenario changed by `fault` first.
fn lost_updates_with(
    approach: Approach,
    fencing: bool,
    mix: FaultMix,
    key: u64,
    n: usize,
    fault: impl Fn(&mut Stream, Scenario) -> Scenario,
) -> usize {
    let mut rng = Stream::new(2026, key);
    let mut lost = 0;
    for _ in 0..n {
        let s = scenario(&mut rng, Shape::of(approach), mix, fencing);
        let s = fault(&mut rng, s);
        let r = lab::run(&s);
        invariants::check(&r).unwrap_or_else(|e| panic!("{}: {e}\n{s:?}", approach.id()));
        lost += usize::from(invariants::holds(&NO_LOST_UPDATE, &r).is_err());
    }
    println!("{}, fencing {fencing}: {lost} of {n} runs lost an update", approach.id());
    lost
}

// --- conditional-write --------------------------------------------------------------------

#[test]
fn conditional_write_happy_path_is_safe_and_live() {
    happy(Approach::ConditionalWrite);
}

#[test]
fn conditional_write_race_loses_the_first_update_with_a_plain_put_and_redoes_it_with_if_match() {
    let [off, on] = agrees_with_expect("conditional-write-race");
    // Both read version 1; B's write lands first; A's, based on version 1, lands last.
    let grants: Vec<(&str, Option<u64>)> = off.verdict.grants.iter().map(|g| (g.client.as_str(), g.token)).collect();
    assert_eq!(grants, [("A", Some(1)), ("B", Some(1))]);
    assert!(off.verdict.writes.iter().all(|w| w.accepted && !w.after_takeover));
    // With the precondition A is refused (412), reads version 2 and its redone write goes through.
    let a = on.trace.node_id("A").unwrap();
    let refused = on
        .trace
        .events
        .iter()
        .any(|e| e.node == a && matches!(e.kind, EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::WriteRejected })));
    assert!(refused);
    let last = on.verdict.writes.last().unwrap();
    assert_eq!((last.client.as_str(), last.token, last.accepted, last.stale), ("A", Some(2), true, false));
    assert_eq!(on.verdict.writes.iter().filter(|w| w.accepted).count(), 2, "both updates survive");
}

#[test]
fn conditional_write_without_the_check_sometimes_loses_an_update_and_with_it_never_does() {
    let n = 300 * scale();
    assert!(lost_updates(Approach::ConditionalWrite, false, FaultMix::Any, 11, n) > 0);
    // The precondition is checked at the resource itself: no fault of any kind gets past it.
    assert_eq!(lost_updates(Approach::ConditionalWrite, true, FaultMix::Any, 12, n), 0);
}

// --- k8s-lease ------------------------------------------------------------------------------

#[test]
fn k8s_lease_happy_path_is_safe_and_live() {
    happy(Approach::K8sLease);
}

/// When `client`'s belief ended, and why.
fn belief_end(r: &lab::Run, client: &str) -> Option<(i64, BeliefEnd)> {
    let n = r.trace.node_id(client)?;
    r.trace.events.iter().find_map(|e| match e.kind {
        EventKind::Note(Note::BeliefEnded { reason }) if e.node == n => Some((e.at_ms, reason)),
        _ => None,
    })
}

#[test]
fn k8s_lease_gc_pause_the_old_leader_writes_before_its_renew_deadline_ends_its_belief() {
    let [off, on] = agrees_with_expect("k8s-lease-gc-pause");
    // B took over while A was paused; A's overdue write went out on waking, before its renew
    // round (which starts only then) could give up.
    let tokens: Vec<Option<u64>> = off.verdict.grants.iter().map(|g| g.token).collect();
    assert_eq!(tokens, [Some(0), Some(1)], "leaseTransitions: created at 0, +1 at the takeover");
    let stale = off.verdict.writes.iter().find(|w| w.stale).unwrap();
    let (ended, _) = belief_end(&off, "A").unwrap();
    assert_eq!(stale.client, "A");
    assert!(stale.at_ms <= ended, "A wrote at {} and stopped believing at {ended}", stale.at_ms);
    let resumed = off.trace.events.iter().find(|e| matches!(e.kind, EventKind::Resumed)).unwrap().at_ms;
    assert!(stale.at_ms - resumed < 100, "A's write went out as it woke (at {resumed}), not after a renew round");
    assert!(on.verdict.writes.iter().any(|w| w.client == "A" && !w.accepted));
}

#[test]
fn k8s_lease_fast_clock_gives_two_leaders_with_no_pause() {
    let [off, _] = agrees_with_expect("k8s-lease-fast-clock");
    let s = &off.scenario;
    assert!(!s.faults.iter().any(|f| matches!(f, locklab::scenario::FaultSpec::Pause(_))));
    // B took the Lease before A's renew round gave up: two leaders at once.
    let b_granted = off.verdict.grants.iter().find(|g| g.client == "B").unwrap().at_ms;
    let (a_stopped, _) = belief_end(&off, "A").unwrap();
    assert!(b_granted < a_stopped, "B at {b_granted}, A stopped at {a_stopped}");
    // Without B's drift, B waits its full LeaseDuration and A has stopped by then.
    let mut steady = s.clone();
    steady.faults.retain(|f| !matches!(f, locklab::scenario::FaultSpec::ClockDrift(_)));
    let r = lab::run(&steady);
    assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1, "{:#?}", r.verdict);
}

#[test]
fn k8s_lease_without_the_check_sometimes_loses_an_update_and_with_transitions_checked_never_does() {
    let n = 300 * scale();
    assert!(lost_updates(Approach::K8sLease, false, FaultMix::Any, 21, n) > 0);
    // leaseTransitions only grows, in one durable store: checked at storage, it fences.
    assert_eq!(lost_updates(Approach::K8sLease, true, FaultMix::Any, 22, n), 0);
}

#[test]
fn k8s_lease_refuses_a_config_client_go_refuses_and_the_fields_elsewhere() {
    let parse = |approach: &str, lock: &str| {
        locklab::scenario::parse(&format!(r#"{{"version": 1, "approach": "{approach}", "lock": {lock}}}"#))
            .map(|s| s.lock)
            .map_err(|e| e.to_string())
    };
    assert_eq!(parse("k8s-lease", "{}").unwrap().ttl_ms, 15_000, "LeaseDuration defaults to 15 s");
    let e = parse("k8s-lease", r#"{"ttl_ms": 10000}"#).unwrap_err();
    assert!(e.starts_with("lock.renew_deadline_ms: 10000 ms must be below the LeaseDuration"), "{e}");
    let e = parse("k8s-lease", r#"{"renew_deadline_ms": 2000, "retry_period_ms": 2000}"#).unwrap_err();
    assert!(e.starts_with("lock.renew_deadline_ms: 2000 ms must be above 1.2 × RetryPeriod"), "{e}");
    let e = parse("redis", r#"{"retry_period_ms": 2000}"#).unwrap_err();
    assert!(e.starts_with("lock.retry_period_ms: only k8s-lease has this field (this scenario is redis)"), "{e}");
}

// --- redisson -------------------------------------------------------------------------------

#[test]
fn redisson_happy_path_is_safe_and_live() {
    happy(Approach::Redisson);
    // A worked 12 s on a 30 s lease: the watchdog renewed it at least once.
    let r = lab::run(&builtin("happy-path-redisson").unwrap());
    assert!(r.trace.events.iter().any(|e| matches!(e.kind, EventKind::Note(Note::LockExtended { .. }))));
}

#[test]
fn redisson_watchdog_hides_a_15_s_pause_that_a_fixed_10_s_ttl_does_not_and_loses_a_40_s_one() {
    let [off, _] = agrees_with_expect("redisson-watchdog");
    // The first write (after the 15 s pause) is A's own and safe; the stale one follows the 40 s pause.
    let first = &off.verdict.writes[0];
    assert_eq!((first.client.as_str(), first.accepted, first.stale), ("A", true, false));
    let b = off.verdict.grants.iter().find(|g| g.client == "B").unwrap().at_ms;
    assert!(b > 40_000, "B got the lock only after the long pause, at {b}");
    // The same 15 s pause against a fixed 10 s TTL (redis-gc-pause's lock) loses the lock.
    let mut fixed = builtin("redisson-watchdog").unwrap();
    fixed.approach = Approach::Redis;
    fixed.lock.ttl_ms = 10_000;
    fixed.lock.retry_ms = [100, 300];
    fixed.faults.truncate(1);
    fixed.expect = None;
    let r = lab::run(&fixed);
    assert!(!r.verdict.safe, "{:#?}", r.verdict);
}

#[test]
fn redisson_watchdog_cut_off_the_worker_writes_on_after_the_key_expired() {
    let [off, on] = agrees_with_expect("redisson-watchdog-cut");
    let s = &off.scenario;
    assert!(!s.faults.iter().any(|f| matches!(f, locklab::scenario::FaultSpec::Pause(_))), "no pause: only the renewals are lost");
    // With fencing A learns it lost the lock only from storage's refusal.
    assert_eq!(belief_end(&on, "A").map(|(_, why)| why), Some(BeliefEnd::WriteRejected));
}

#[test]
fn redisson_without_the_check_sometimes_loses_an_update() {
    assert!(lost_updates(Approach::Redisson, false, FaultMix::Any, 31, 300 * scale()) > 0);
}

// --- consul ---------------------------------------------------------------------------------

#[test]
fn consul_happy_path_is_safe_and_live() {
    happy(Approach::Consul);
}

#[test]
fn consul_lock_delay_protects_a_pause_shorter_than_the_ttl_plus_the_delay_and_not_one_longer_than_twice_the_ttl_plus_it() {
    let [off, _] = agrees_with_expect("consul-lock-delay");
    // Whatever the seed draws for the invalidation (TTL to 2 × TTL), the story holds: A's 20 s
    // pause ends within TTL + lock-delay (25 s) and B's 40 s one outlasts 2 × TTL + lock-delay.
    for seed in [off.scenario.seed].into_iter().chain(1..=12) {
        let mut s = off.scenario.clone();
        s.seed = seed;
        let r = lab::run(&s);
        // A's late write is not stale, no token needed.
        let a = r.verdict.writes.iter().find(|w| w.client == "A").unwrap();
        assert!(a.accepted && !a.stale && !a.after_takeover, "seed {seed}: {a:?}");
        // The next grant waited for the lock-delay after A's session was invalidated.
        let invalidated = r.trace.events.iter().find_map(|e| match e.kind {
            EventKind::Note(Note::SessionExpired { .. }) => Some(e.at_ms),
            _ => None,
        });
        let b = r.verdict.grants.iter().find(|g| g.client == "B").unwrap().at_ms;
        assert!(b >= invalidated.unwrap() + 15_000, "seed {seed}: B at {b}, A's session invalidated at {invalidated:?}");
        // B's 40 s pause is longer: C takes over and B's write is stale.
        let stale: Vec<&str> = r.verdict.writes.iter().filter(|w| w.stale).map(|w| w.client.as_str()).collect();
        assert_eq!(stale, ["B"], "seed {seed}");
    }
}

#[test]
fn consul_invalidates_a_silent_session_anywhere_from_its_ttl_to_twice_it_as_the_seed_draws() {
    // Consul's contract: not before the TTL, at most 2 × TTL ("may not be reaped for up to
    // double this TTL"). A freezes at once; how long after its session opened is it invalidated?
    let base = builtin("consul-lock-delay").unwrap();
    let waits: Vec<i64> = (1..=16)
        .map(|seed| {
            let r = lab::run(&Scenario { seed, ..base.clone() });
            let at = |f: fn(&Note) -> bool| {
                r.trace.events.iter().find(|e| matches!(&e.kind, EventKind::Note(n) if f(n))).map(|e| e.at_ms).unwrap()
            };
            at(|n| matches!(n, Note::SessionExpired { .. })) - at(|n| matches!(n, Note::SessionOpened { .. }))
        })
        .collect();
    // Within [TTL, 2 × TTL] (plus the leader's 100 ms sweep), and spread over it.
    assert!(waits.iter().all(|w| (10_000..=20_100).contains(w)), "{waits:?}");
    assert!(waits.iter().any(|&w| w < 13_000) && waits.iter().any(|&w| w > 17_000), "the draws explore the range: {waits:?}");
}

#[test]
fn consul_refuses_a_ttl_outside_10_s_to_24_h_and_only_consul_has_a_lock_delay() {
    let e = locklab::scenario::parse(r#"{"version": 1, "approach": "consul", "lock": {"ttl_ms": 5000}}"#).unwrap_err().to_string();
    assert!(e.starts_with("lock.ttl_ms: 5000 ms is out of range: Consul accepts session TTLs of 10 s to 24 h"), "{e}");
    let e = locklab::scenario::parse(r#"{"version": 1, "approach": "etcd", "lock": {"lock_delay_ms": 1000}}"#).unwrap_err().to_string();
    assert!(e.starts_with("lock.lock_delay_ms: only consul has this field"), "{e}");
    let e = locklab::scenario::parse(r#"{"version": 1, "approach": "consul", "lock": {"lock_delay_ms": -1}}"#).unwrap_err().to_string();
    assert!(e.starts_with("lock.lock_delay_ms: -1 ms is out of range: must be 0..=600000 ms"), "{e}");
}

/// How long after the first session invalidation of a run of `s` B gets the lock, and the
/// caption of that invalidation.
fn takeover_after_invalidation(s: &Scenario) -> (i64, String) {
    let run = lab::run(s);
    let at = run.trace.events.iter().position(|e| matches!(e.kind, EventKind::Note(Note::SessionExpired { .. }))).unwrap();
    let invalidated = run.trace.events[at].at_ms;
    let b = run.verdict.grants.iter().find(|g| g.client == "B" && g.at_ms > invalidated).unwrap().at_ms;
    let story = locklab::text::Story::of_run(&run);
    (b - invalidated, locklab::text::caption(&run.trace, s.approach, &story, at))
}

#[test]
fn a_consul_lock_delay_above_60_s_is_accepted_and_enforced_as_60_s_as_consul_caps_it() {
    // Consul's session endpoint takes any lock-delay; its state store enforces at most
    // structs.MaxLockDelay (60 s) when it invalidates the session.
    let mut s = builtin("consul-lock-delay").unwrap();
    s.duration_ms = 120_000;
    s.faults.truncate(1);
    s.lock.own.set("lock_delay_ms", Some(90_000));
    locklab::scenario::validate::validate(&s).unwrap();
    let (waited, caption) = takeover_after_invalidation(&s);
    assert!((60_000..65_000).contains(&waited), "B locks 60 s (and its 5 s retry) after the invalidation, not 90 s: {waited} ms");
    assert!(caption.contains("for 60 s (the session asked 90 s; Consul enforces at most 60 s)"), "{caption}");
    s.lock.own.set("lock_delay_ms", Some(60_000));
    assert_eq!(takeover_after_invalidation(&s).0, waited, "90 s acts as 60 s");
}

#[test]
fn a_consul_lock_delay_of_0_turns_it_off_b_locks_as_soon_as_the_session_is_invalidated() {
    // consul-lock-delay: A's session is invalidated while A is frozen; with the default 15 s
    // lock-delay B is held off, with 0 it is not (Chubby and Consul allow 0), and the caption
    // says which.
    let mut s = builtin("consul-lock-delay").unwrap();
    let (delayed, caption) = takeover_after_invalidation(&s);
    assert!(delayed >= 15_000, "with the default lock-delay B waits it out: {delayed} ms");
    assert!(caption.contains("lock-delay holds it back from every acquire for 15 s."), "{caption}");
    s.lock.own.set("lock_delay_ms", Some(0));
    locklab::scenario::validate::validate(&s).unwrap();
    let (at_once, caption) = takeover_after_invalidation(&s);
    assert!(at_once < 5_000, "with lock-delay 0, B locks at its next try after the invalidation: {at_once} ms");
    assert!(caption.contains("with lock-delay 0 (off) any acquire may take it at once"), "{caption}");
}

#[test]
fn consul_without_the_check_sometimes_loses_an_update_once_a_pause_outlasts_twice_the_ttl_and_the_lock_delay() {
    // Generated runs rarely pause a holder for 2 × TTL + lock-delay (at least 35 s by default):
    // the lock-delay protects them all. With a pause that long, an update is lost.
    let mut rng = Stream::new(2026, 41);
    let n = 200 * scale();
    let mut lost = 0;
    for _ in 0..n {
        let mut s = scenario(&mut rng, Shape::of(Approach::Consul), FaultMix::Any, false);
        s.duration_ms = 90_000;
        s.lock.own.set("lock_delay_ms", Some(rng.range(0, 5_000)));
        let c = s.clients[rng.range(0, s.clients.len() as i64 - 1) as usize].clone();
        let duration_ms = 2 * s.lock.ttl_ms + s.lock.get(&locklab::protocols::consul::LOCK_DELAY) + rng.range(1_000, 15_000);
        s.faults.push(locklab::scenario::FaultSpec::Pause(locklab::scenario::fault::Pause {
            at_ms: c.acquire_at_ms + rng.range(0, c.work_ms + 200),
            node: c.name,
            duration_ms,
        }));
        s.faults.sort_by_key(|f| f.at_ms());
        // Replies slower than the timeout make clients retry in a tight loop: a 90 s run of
        // that can reach the event limit, which says nothing about the lock.
        s.lock.request_timeout_ms = s.lock.request_timeout_ms.max(2 * s.network.latency_ms[1] + 10);
        let r = lab::run(&s);
        assert!(!r.trace.truncated, "{s:?}");
        invariants::check(&r).unwrap_or_else(|e| panic!("consul: {e}\n{s:?}"));
        lost += usize::from(invariants::holds(&NO_LOST_UPDATE, &r).is_err());
    }
    println!("consul, fencing false, a pause past 2 × TTL + lock-delay: {lost} of {n} runs lost an update");
    assert!(lost > 0);
}

// --- dynamodb-lock -----------------------------------------------------------------------------

#[test]
fn dynamodb_lock_happy_path_is_safe_and_live() {
    happy(Approach::DynamodbLock);
}

#[test]
fn dynamodb_lock_a_holder_paused_past_lease_duration_loses_an_update_with_fencing_on_as_off() {
    // The record version number is no token: storage has nothing to refuse the late write by.
    let [off, on] = agrees_with_expect("dynamodb-lock-gc-pause");
    assert!(!off.verdict.safe && !on.verdict.safe);
    // B took over only after a whole leaseDuration without a new version number, by its clock.
    let b = off.trace.node_id("B").unwrap();
    let granted = off.trace.events.iter().find(|e| e.node == b && matches!(e.kind, EventKind::Note(Note::BeliefStarted { .. })));
    assert!(granted.unwrap().at_ms >= 20_000, "{:?}", granted);
}

#[test]
fn dynamodb_lock_settings_are_its_own_and_the_heartbeat_must_be_shorter_than_the_lease() {
    let parse = |approach: &str, lock: &str| {
        locklab::scenario::parse(&format!(r#"{{"version": 1, "approach": "{approach}", "lock": {lock}}}"#)).map_err(|e| e.to_string())
    };
    let e = parse("dynamodb-lock", r#"{"ttl_ms": 4000}"#).unwrap_err();
    assert!(e.starts_with("lock.heartbeat_period_ms: 5000 ms must be below the leaseDuration (4000 ms)"), "{e}");
    assert!(parse("dynamodb-lock", r#"{"ttl_ms": 4000, "heartbeat_period_ms": 1000, "refresh_period_ms": 200}"#).is_ok());
    let e = parse("redis", r#"{"refresh_period_ms": 200}"#).unwrap_err();
    assert!(e.starts_with("lock.refresh_period_ms: only dynamodb-lock has this field (this scenario is redis)"), "{e}");
}

#[test]
fn dynamodb_lock_sometimes_loses_an_update_with_fencing_off_and_on() {
    let n = 200 * scale();
    assert!(lost_updates(Approach::DynamodbLock, false, FaultMix::Any, 61, n) > 0);
    assert!(lost_updates(Approach::DynamodbLock, true, FaultMix::Any, 62, n) > 0);
}

// --- pg-advisory -------------------------------------------------------------------------------

#[test]
fn pg_advisory_happy_path_is_safe_and_live() {
    happy(Approach::PgAdvisory);
}

/// When `client` got the lock (its first belief), in the run `r`.
fn granted_at(r: &lab::Run, client: &str) -> Option<i64> {
    let node = r.trace.node_id(client).unwrap();
    r.trace.events.iter().find(|e| e.node == node && matches!(e.kind, EventKind::Note(Note::BeliefStarted { .. }))).map(|e| e.at_ms)
}

#[test]
fn pg_advisory_a_paused_holder_keeps_its_lock_however_long_the_pause() {
    // The built-in: a 15 s pause, its kernel answering the server's probes meanwhile.
    let [off, _] = agrees_with_expect("pg-advisory-gc-pause");
    let probes_answered =
        off.trace.events.iter().filter(|e| matches!(&e.kind, EventKind::Sent { msg: locklab::protocols::Msg::TcpAck { .. }, .. })).count();
    assert!(probes_answered > 0, "no keepalive probe was answered during the pause");
    // Any pause, from 1 s to 10 minutes: B gets the lock only after A has unlocked.
    let base = builtin("pg-advisory-gc-pause").unwrap();
    for pause_s in [1, 9, 14, 30, 120, 600] {
        let mut s = base.clone();
        s.duration_ms = pause_s * 1000 + 5_000;
        if let locklab::scenario::FaultSpec::Pause(p) = &mut s.faults[0] {
            p.duration_ms = pause_s * 1000;
        }
        let r = lab::run(&s);
        invariants::check(&r).unwrap();
        assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1, "a {pause_s} s pause: {:#?}", r.verdict);
        assert!(granted_at(&r, "B").is_some_and(|t| t > 500 + pause_s * 1000), "a {pause_s} s pause: B got it while A was paused");
    }
}

#[test]
fn pg_advisory_a_holder_cut_off_loses_its_session_after_idle_plus_interval_times_count_and_writes_late() {
    // No token: storage cannot refuse the late write, with fencing on as off.
    let [off, on] = agrees_with_expect("pg-advisory-cut-off");
    assert!(!off.verdict.safe && !on.verdict.safe);
    // The silence is counted from A's last segment, its lock statement at about 15 ms (A, at
    // work, sends postgres nothing, so the cut at 1 s changes nothing until the probes): B
    // cannot have the lock before the keepalive gives up 5 s + 3 × 1 s later, and gets it at
    // its next retry after.
    let b = granted_at(&off, "B").unwrap();
    assert!((8_000..=8_000 + 400).contains(&b), "B got the lock at {b} ms");
    // Keepalive settings are read from the scenario: a count of 6 moves the takeover 3 s later.
    let mut s = builtin("pg-advisory-cut-off").unwrap();
    s.lock.own.set("keepalive_count", Some(6));
    let r = lab::run(&s);
    assert!(granted_at(&r, "B").unwrap() >= b + 3_000 - 400);
}

#[test]
fn pg_advisory_a_crashed_holder_process_frees_the_lock_at_once_and_a_crashed_machine_only_after_keepalive() {
    let mut s = builtin("happy-path-pg-advisory").unwrap();
    s.duration_ms = 30_000;
    let crash = |machine: bool| {
        let f = format!(r#"{{"at_ms": 300, "kind": "crash", "node": "A", "machine": {machine}}}"#);
        let mut s = s.clone();
        s.faults.push(serde_json::from_str(&f).unwrap());
        let r = lab::run(&s);
        invariants::check(&r).unwrap();
        granted_at(&r, "B").unwrap()
    };
    // The process dies: its kernel's FIN ends the session; B's next retry gets it.
    assert!(crash(false) < 300 + 500, "{}", crash(false));
    // The machine dies: nothing is sent; the server gives up after 10 s + 3 × 1 s of silence.
    assert!(crash(true) >= 13_000, "{}", crash(true));
}

/// One client of a generated pg-advisory scenario works longer than the keepalive's silence
/// and is cut off from `postgres` (both ways, storage still reachable) for longer than it.
fn with_holder_cut_off(rng: &mut Stream, mut s: Scenario) -> Scenario {
    let silence = (Approach::PgAdvisory.spec().granted_ttl)(&s.lock);
    let i = rng.range(0, s.clients.len() as i64 - 1) as usize;
    s.clients[i].work_ms = silence + rng.range(500, 5_000);
    s.duration_ms = s.duration_ms.max(s.clients[i].acquire_at_ms + 2 * silence + 10_000);
    let c = &s.clients[i];
    let at_ms = c.acquire_at_ms + rng.range(0, 2_000);
    let duration_ms = silence + rng.range(500, 10_000);
    for (from, to) in [(c.name.as_str(), "postgres"), ("postgres", c.name.as_str())] {
        let f = format!(r#"{{"at_ms": {at_ms}, "kind": "drop", "from": "{from}", "to": "{to}", "duration_ms": {duration_ms}}}"#);
        s.faults.push(serde_json::from_str(&f).unwrap());
    }
    s
}

#[test]
fn pg_advisory_sometimes_loses_an_update_with_fencing_off_and_on_once_a_holder_is_cut_off() {
    // Pauses alone never do (above); a client cut off from postgres past the keepalive does.
    let n = 200 * scale();
    assert!(lost_updates_with(Approach::PgAdvisory, false, FaultMix::Any, 71, n, with_holder_cut_off) > 0);
    assert!(lost_updates_with(Approach::PgAdvisory, true, FaultMix::Any, 72, n, with_holder_cut_off) > 0);
}

// --- real outages -------------------------------------------------------------------------------

#[test]
fn every_outage_says_what_it_is_adapted_from_links_its_source_and_agrees_with_its_expect() {
    let outages = locklab::scenario::catalog::outages();
    assert!(!outages.is_empty(), "no outage to check");
    for s in outages {
        assert!(s.intro.starts_with("Adapted from"), "{}", s.id);
        assert!(s.intro.contains("https://"), "{}: links its source", s.id);
        assert!(s.intro.contains("Simplified"), "{}: says what it simplifies", s.id);
        let [off, on] = agrees_with_expect(&s.id);
        assert!(!off.verdict.safe && on.verdict.safe, "{}: an update lost without the check, none with it", s.id);
    }
}

/// Every caption of the built-in `id`'s run (fencing off), one string.
fn captions_of(id: &str) -> String {
    let run = lab::run(&builtin(id).unwrap());
    let story = locklab::text::Story::of_run(&run);
    locklab::text::caption::all(&run.trace, run.scenario.approach, &story).join("\n")
}

#[test]
fn each_approach_captions_in_its_own_terms() {
    // Consul renews every TTL/2 and invalidates between TTL and 2 × TTL (P9); it releases a
    // key, held back by lock-delay, and queues nobody.
    let consul = captions_of("consul-lock-delay");
    assert!(
        consul.contains(
            "renews every TTL/2 (5 s); without a renewal the leader invalidates it, not before the TTL and at most 2 × TTL (20 s) later"
        ),
        "{consul}"
    );
    assert!(consul.contains("(Consul may wait TTL to 2 × TTL)") && consul.contains("until the lock-delay ends"));
    for wrong in ["every third", "lock node", "whole timeout", "joins the queue"] {
        assert!(!consul.contains(wrong), "consul says {wrong:?}");
    }
    // The apiserver expires nothing: each candidate judges the Lease by its own clock (P8).
    for id in ["k8s-lease-gc-pause", "k8s-lease-fast-clock", "k8s-two-leaders"] {
        let k8s = captions_of(id);
        assert!(!k8s.contains("expired at apiserver") && !k8s.contains("lock node"), "{id}");
        assert!(k8s.contains("The apiserver expires nothing") && k8s.contains("'s own clock") && k8s.contains("'s Lease over"), "{id}");
    }
    // Redis has no nodes: the key expired.
    for id in ["redisson-watchdog", "redisson-watchdog-cut", "redisson-renewals-missed"] {
        let r = captions_of(id);
        assert!(!r.contains("lock node") && r.contains("key expired at redis"), "{id}");
    }
}

/// A conditional write has no lock: its diagram, legend words and verdict never say a client
/// holds or believes it holds one (they say it works from the version it read), at every key
/// moment of every conditional-write built-in, wide and narrow, fencing off and on.
#[test]
fn conditional_write_never_speaks_of_a_lock_a_client_holds() {
    use locklab::scenario::catalog;
    use locklab::timeline::draw::export;
    use locklab::timeline::Timeline;
    let ids: Vec<String> = catalog::all().into_iter().filter(|s| s.approach == Approach::ConditionalWrite).map(|s| s.id).collect();
    assert!(ids.len() >= 2, "{ids:?}");
    for id in &ids {
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&builtin(id).unwrap(), fencing));
            let t = Timeline::of_run(&run);
            let words = [locklab::text::verdict::sentence(&run.verdict)]
                .into_iter()
                .chain(t.key_moments.iter().map(|k| locklab::text::verdict::so_far(&run.verdict, k.at)));
            for w in words {
                assert!(!w.contains("lock") && !w.contains("holder"), "{id} {fencing}: {w}");
            }
            // The storage's column counts the object's versions: one more per accepted write.
            let last = export::figure(&run, &t, run.scenario.duration_ms, 1280.0, false, Theme::Light, "");
            let accepted = run.verdict.writes.iter().filter(|w| w.accepted).count();
            assert!(last.contains(&format!("object at version {}", 1 + accepted)), "{id} {fencing}");
            for k in &t.key_moments {
                for width in [342.0, 1280.0] {
                    let svg = export::figure(&run, &t, k.at, width, false, Theme::Light, "");
                    for bad in ["holds the lock", "believe", "no lock", "hold it"] {
                        assert!(!svg.contains(bad), "{id} fencing {fencing} at {} ms, {width} px: \"{bad}\"", k.at);
                    }
                }
            }
        }
    }
    // The same words in a lock's diagram, to show the test can see them.
    let redis = lab::run(&builtin("redis-gc-pause").unwrap());
    let rt = Timeline::of_run(&redis);
    assert!(export::figure(&redis, &rt, 12_000, 1280.0, false, Theme::Light, "").contains("believes it holds the lock"));
}
