//! Variants as data (docs/SCENARIO_FORMAT.md, "Variants and per-client settings"): every file in
//! tests/scenarios/variants/ runs as its `expect` block says, with fencing off and on, and each
//! pair of variants of one published case comes out differently, as its source says.

use locklab::lab;
use locklab::scenario::{parse, Scenario};

/// The variant scenarios, by file name.
const FILES: &[(&str, &str)] = &[
    ("redlock-checks-elapsed", include_str!("scenarios/variants/redlock-checks-elapsed.json")),
    ("redlock-skips-elapsed-check", include_str!("scenarios/variants/redlock-skips-elapsed-check.json")),
    ("k8s-record-duration", include_str!("scenarios/variants/k8s-record-duration.json")),
    ("k8s-own-duration", include_str!("scenarios/variants/k8s-own-duration.json")),
    ("etcd-holder-20s-waiter-5s", include_str!("scenarios/variants/etcd-holder-20s-waiter-5s.json")),
    ("etcd-holder-5s-waiter-20s", include_str!("scenarios/variants/etcd-holder-5s-waiter-20s.json")),
    ("redisson-watchdog", include_str!("scenarios/variants/redisson-watchdog.json")),
    ("redisson-lease-time", include_str!("scenarios/variants/redisson-lease-time.json")),
    ("redlock-restart-at-once", include_str!("scenarios/variants/redlock-restart-at-once.json")),
    ("redlock-delayed-restart", include_str!("scenarios/variants/redlock-delayed-restart.json")),
    ("etcd-fixed-waiter", include_str!("scenarios/variants/etcd-fixed-waiter.json")),
    ("etcd-3.4.3-waiter", include_str!("scenarios/variants/etcd-3.4.3-waiter.json")),
];

fn scenario(name: &str) -> Scenario {
    let (_, text) = FILES.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no variant file {name}"));
    parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_variant_file_matches_its_expect_block_with_fencing_off_and_on() {
    for (name, _) in FILES {
        let s = scenario(name);
        assert!(s.expect.as_ref().is_some_and(|e| e.fencing_off.is_some() && e.fencing_on.is_some()), "{name}: expect needs both");
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let mismatches = run.expect_mismatches().expect("expect present");
            assert!(mismatches.is_empty(), "{name} fencing={fencing}: {mismatches:?}\n{:#?}", run.verdict);
        }
    }
}

/// Both files are one scenario but for the setting: the verdict's difference is the setting's.
fn differ_only_in(a: &Scenario, b: &Scenario, field: &'static str) {
    let strip = |s: &Scenario| {
        let mut s = s.clone();
        (s.id, s.title, s.intro, s.expect) = (String::new(), String::new(), String::new(), None);
        s.lock.own.set(field, None);
        for c in &mut s.clients {
            c.lock.set(field, None);
        }
        s
    };
    assert_eq!(strip(a), strip(b), "the two files should differ only in {field}");
}

#[test]
fn a_redlock_client_that_skips_the_elapsed_check_believes_with_expired_keys_and_loses_b_s_update() {
    let (checks, skips) = (scenario("redlock-checks-elapsed"), scenario("redlock-skips-elapsed-check"));
    differ_only_in(&checks, &skips, "check_elapsed");
    // The default is antirez's step 3.
    let mut default = skips.clone();
    default.lock.own.set("check_elapsed", None);
    default.id = checks.id.clone();
    assert_eq!(lab::judge(&default), lab::judge(&checks));

    let v = lab::judge(&skips);
    assert!(!v.safe);
    let stale = v.writes.iter().find(|w| w.stale).expect("a stale write");
    assert_eq!((stale.client.as_str(), stale.accepted), ("A", true));
    // A's grant is the one the instances made before the pause: it believed with keys that
    // had expired (and been taken by B) while it slept.
    let a = v.grants.iter().find(|g| g.client == "A").unwrap();
    let b = v.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(a.at_ms < 10 && b.at_ms > 10_000 && stale.at_ms > 15_000, "{v:#?}");

    // The caption says what the client skipped, from the trace.
    let run = lab::run(&skips);
    let a = run.trace.node_id("A").unwrap();
    let i = run
        .trace
        .events
        .iter()
        .position(|e| e.node == a && matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::BeliefStarted { .. })))
        .unwrap();
    assert_eq!(
        locklab::text::caption(&run.trace, skips.approach, &locklab::text::Story::of_run(&run), i),
        "A counts a majority of OKs and believes it holds the lock for the next 9.898 s by its own clock. It does not subtract the 15.001 s the round took (lock.check_elapsed: false), longer than the 10 s TTL its keys were set with: they have expired."
    );

    let v = lab::judge(&checks);
    assert!(v.safe && v.stale_writes_accepted == 0);
    // It counted, saw no validity left, and took the lock again only after B.
    let a = v.grants.iter().find(|g| g.client == "A").unwrap();
    assert!(a.at_ms > 15_000, "{v:#?}");
}

#[test]
fn a_bad_variant_value_is_refused_with_its_field_path() {
    let text = include_str!("scenarios/variants/redlock-skips-elapsed-check.json");
    let e = parse(&text.replace("\"check_elapsed\": false", "\"check_elapsed\": \"yes\"")).unwrap_err();
    assert_eq!(e.to_string(), "lock.check_elapsed: invalid type: string, expected a boolean");
    let on_redis = text.replace("\"approach\": \"redlock\"", "\"approach\": \"redis\"");
    let e = parse(&on_redis).unwrap_err();
    assert_eq!(e.to_string(), "lock.check_elapsed: only redlock has this field (this scenario is redis)");
}

#[test]
fn a_variant_survives_the_round_trip_through_json_as_the_file_writes_it() {
    for (name, _) in FILES {
        let s = scenario(name);
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(parse(&text).unwrap(), s, "{name}: {text}");
    }
    let text = serde_json::to_string(&scenario("redlock-skips-elapsed-check")).unwrap();
    assert!(text.contains("\"check_elapsed\":false"), "{text}");
}

#[test]
fn a_10_s_candidate_that_judges_by_its_own_duration_takes_a_30_s_leader_s_lease() {
    let (record, own) = (scenario("k8s-record-duration"), scenario("k8s-own-duration"));
    differ_only_in(&record, &own, "reads_record_duration");
    // The default is today's client-go (and what the model did before the setting).
    let mut default = own.clone();
    default.lock.own.set("reads_record_duration", None);
    default.id = record.id.clone();
    assert_eq!(lab::judge(&default), lab::judge(&record));

    // No fault at all: B (10 s) takes the Lease while A (30 s, renewing every 15 s) leads.
    assert!(own.faults.is_empty());
    let v = lab::judge(&own);
    let b = v.grants.iter().find(|g| g.client == "B").unwrap();
    assert!((10_000..15_000).contains(&b.at_ms), "B takes over after its own 10 s, before A's renewal at 15 s: {v:#?}");
    assert!(!v.safe && v.max_concurrent_holders == 2);
    assert!(v.writes.iter().any(|w| w.client == "A" && w.stale && w.accepted));

    let run = lab::run(&own);
    let i = run
        .trace
        .events
        .iter()
        .position(|e| matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::LockExpired { .. })))
        .unwrap();
    let caption = locklab::text::caption(&run.trace, own.approach, &locklab::text::Story::of_run(&run), i);
    assert!(caption.starts_with("B takes over A's Lease: by B's own clock the record had not changed for B's own LeaseDuration (10 s), though the record says 30 s"), "{caption}");

    // Judged by the record's 30 s, B waits for A's release.
    let v = lab::judge(&record);
    let b = v.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(v.safe && v.max_concurrent_holders == 1 && b.at_ms > 28_000, "{v:#?}");
}

#[test]
fn an_etcd_lease_is_judged_by_its_holder_s_own_ttl_whatever_the_waiter_s() {
    let (long, short) = (scenario("etcd-holder-20s-waiter-5s"), scenario("etcd-holder-5s-waiter-20s"));
    let ttl = |s: &Scenario, i: usize| s.clients[i].lock.get("ttl_ms");
    assert_eq!((ttl(&long, 0), ttl(&long, 1), ttl(&short, 0), ttl(&short, 1)), (Some(20_000), Some(5_000), Some(5_000), Some(20_000)));
    let run = lab::run(&long);
    // Each client's lease has its own TTL.
    let opened: Vec<i64> = run
        .trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            locklab::protocols::EventKind::Note(locklab::protocols::Note::SessionOpened { ttl_ms, .. }) => Some(ttl_ms),
            _ => None,
        })
        .collect();
    assert_eq!(opened, [20_000, 5_000]);
    // With TTLs of its own per client, no one lifetime speaks for the run.
    assert_eq!(run.verdict.granted_ttl_ms, None);
    assert!(run.verdict.safe);
    let v = lab::judge(&short);
    assert!(!v.safe && v.writes.iter().any(|w| w.client == "A" && w.stale && w.accepted), "{v:#?}");
}

#[test]
fn redisson_runs_no_watchdog_for_a_lock_taken_with_an_explicit_lease_time() {
    let (watchdog, lease) = (scenario("redisson-watchdog"), scenario("redisson-lease-time"));
    assert!(watchdog.faults.is_empty() && lease.faults.is_empty());
    let extends = |s: &Scenario| {
        let run = lab::run(s);
        run.trace
            .events
            .iter()
            .filter(|e| matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::LockExtended { .. })))
            .count()
    };
    assert!(extends(&watchdog) > 0);
    assert_eq!(extends(&lease), 0);
    assert!(lab::judge(&watchdog).safe);
    let v = lab::judge(&lease);
    let b = v.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(!v.safe && (30_000..31_000).contains(&b.at_ms), "B takes the key when A's 30 s lease ends: {v:#?}");
    // The caption says why no watchdog runs, from the trace.
    let run = lab::run(&lease);
    let i = run
        .trace
        .events
        .iter()
        .position(|e| matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::BeliefStarted { .. })))
        .unwrap();
    let caption = (lease.approach.spec().words.caption)(&run.trace, i, "A").unwrap_or_default();
    assert!(caption.contains("explicit leaseTime, so no watchdog renews it: the key expires 30 s after it was set"), "{caption}");
    let i = run
        .trace
        .events
        .iter()
        .position(|e| matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::FixedLease { .. })))
        .unwrap();
    let caption = locklab::text::caption(&run.trace, lease.approach, &locklab::text::Story::of_run(&run), i);
    assert_eq!(caption, "A asks for the lock with an explicit leaseTime of 30 s: Redisson starts no watchdog for it, so the key expires 30 s after it is set, whatever A is doing.");
}

#[test]
fn a_client_s_own_field_is_refused_where_its_approach_does_not_let_a_client_set_it() {
    let e =
        parse(r#"{"version": 1, "approach": "consul", "clients": [{"name": "A"}, {"name": "B", "lock": {"ttl_ms": 20000}}]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "clients[1].lock.ttl_ms: only redlock, etcd, k8s-lease, redisson let a client set it (this scenario is consul)"
    );
    let e = parse(r#"{"version": 1, "approach": "k8s-lease", "clients": [{"name": "A", "lock": {"ttl_ms": 10000}}]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "lock.renew_deadline_ms: 10000 ms must be below the LeaseDuration (10000 ms): client-go requires LeaseDuration > RenewDeadline > 1.2 × RetryPeriod (client A's settings)"
    );
    let e = parse(
        r#"{"version": 1, "approach": "k8s-lease", "clients": [{"name": "A", "lock": {"ttl_ms": 10000, "renew_deadline_ms": 12000}}]}"#,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("clients[0].lock.renew_deadline_ms: 12000 ms must be below"), "{e}");
    let e = parse(r#"{"version": 1, "approach": "redisson", "clients": [{"name": "A", "lock": {"lease_time_ms": -1}}]}"#).unwrap_err();
    assert_eq!(e.to_string(), "clients[0].lock.lease_time_ms: -1 ms is out of range: must be 0..=600000 ms");
    let e = parse(r#"{"version": 1, "approach": "redlock", "clients": [{"name": "A", "lock": {"check_elapsed": "yes"}}]}"#).unwrap_err();
    assert_eq!(e.to_string(), "clients[0].lock.check_elapsed: invalid type: string, expected a boolean");
    let e = parse(r#"{"version": 1, "approach": "redlock", "clients": [{"name": "A", "lock": {"servers": 3}}]}"#).unwrap_err();
    assert!(e.to_string().starts_with("clients[0].lock.servers: unknown field `servers`, expected one of"), "{e}");
}

#[test]
fn a_redis_instance_that_serves_nothing_for_a_ttl_after_restarting_forgets_no_lock_in_use() {
    let (at_once, delayed) = (scenario("redlock-restart-at-once"), scenario("redlock-delayed-restart"));
    differ_only_in(&at_once, &delayed, "restart_delay_ms");
    // Serving at once is the default (what every restart did before the setting).
    let mut default = delayed.clone();
    default.lock.own.set("restart_delay_ms", None);
    default.id = at_once.id.clone();
    assert_eq!(lab::judge(&default), lab::judge(&at_once));

    let v = lab::judge(&at_once);
    assert!(!v.safe && v.max_concurrent_holders == 2, "B gets a second majority through the emptied redis-3: {v:#?}");
    let run = lab::run(&delayed);
    assert!(run.verdict.safe && run.verdict.max_concurrent_holders == 1);
    let b = run.verdict.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(b.at_ms > 11_500, "B gets redis-3 only once it serves again, 10 s after its restart at 1.5 s: {:#?}", run.verdict);
    // The trace says so, and the caption reads it off the note.
    let i = run
        .trace
        .events
        .iter()
        .position(|e| matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::RestartDelayed { for_ms: 10_000 })))
        .expect("a RestartDelayed note");
    assert_eq!(run.trace.name(run.trace.events[i].node), "redis-3");
    let story = locklab::text::Story::of_run(&run);
    let caption = locklab::text::caption(&run.trace, delayed.approach, &story, i);
    assert_eq!(caption, "redis-3 is back but serves nothing for 10 s (a delayed restart): it answers no request until then, and only then hands out what it forgot.");
}

#[test]
fn etcd_3_4_3_tells_a_waiter_whose_lease_expired_that_it_holds_the_lock() {
    let (fixed, old) = (scenario("etcd-fixed-waiter"), scenario("etcd-3.4.3-waiter"));
    differ_only_in(&fixed, &old, "etcd_version");
    // The fixed server is the default, and what the model did before the setting.
    let mut named = fixed.clone();
    named.lock.own.set("etcd_version", Some(0));
    assert_eq!(lab::judge(&named), lab::judge(&fixed));

    let v = lab::judge(&old);
    // B believes while C holds the lock the service granted it: B's own key was deleted with
    // its lease during its pause, so no grant of B's is in the ledger.
    assert!(!v.safe && v.max_concurrent_holders == 2, "{v:#?}");
    assert!(v.grants.iter().all(|g| g.client != "B"), "{v:#?}");
    let stale = v.writes.iter().find(|w| w.stale).unwrap();
    assert_eq!((stale.client.as_str(), stale.token, stale.accepted), ("B", Some(3), true));
    assert_eq!(
        v.findings[0].text,
        "B wrote (revision 3) under a lock the service never granted it, after C had written (revision 4): C's update is lost."
    );
    // The captions say what happened, from the trace: B's belief has no key behind it.
    let run = lab::run(&old);
    let story = locklab::text::Story::of_run(&run);
    let b = run.trace.node_id("B").unwrap();
    let at = |pick: &dyn Fn(&locklab::protocols::EventKind) -> bool| run.trace.events.iter().position(|e| pick(&e.kind)).unwrap();
    let belief = at(&|k| matches!(k, locklab::protocols::EventKind::Note(locklab::protocols::Note::BeliefStarted { token: Some(3), .. })));
    assert_eq!(run.trace.events[belief].node, b);
    assert_eq!(
        locklab::text::caption(&run.trace, old.approach, &story, belief),
        "B now believes it holds the lock (revision 3): no key is left before its revision, and etcd 3.4.3's Lock returns without looking whether B's own key still exists. It does not: etcd deleted it with B's lease."
    );
    let stale = run.verdict.writes.iter().find(|w| w.stale).unwrap().event;
    let caption = locklab::text::caption(&run.trace, old.approach, &story, stale);
    assert!(caption.contains("the service never granted B the lock it believed it held; C got the lock at 9.047 s"), "{caption}");
    // Fencing on: C's revision is higher, and storage refuses B's write.
    let v = lab::judge(&lab::with_fencing(&old, true));
    assert!(v.safe && v.stale_writes_rejected == 1);

    // Fixed: B finds its key gone, starts over and gets the lock after C.
    let v = lab::judge(&fixed);
    assert!(v.safe && v.max_concurrent_holders == 1);
    let (b, c) = (v.grants.iter().find(|g| g.client == "B").unwrap(), v.grants.iter().find(|g| g.client == "C").unwrap());
    assert!(b.at_ms > c.at_ms && b.token > c.token, "{v:#?}");
    let e = parse(&include_str!("scenarios/variants/etcd-3.4.3-waiter.json").replace("\"3.4.3\" }", "\"3.4.2\" }")).unwrap_err();
    assert_eq!(e.to_string(), "lock.etcd_version: unknown variant `3.4.2`, expected one of `fixed`, `3.4.3`");
}

#[test]
fn the_two_redlock_clients_side_by_side_read_as_the_format_page_says() {
    let c = locklab::compare::variant(&scenario("redlock-checks-elapsed"), "lock.check_elapsed", "false").unwrap();
    let mut skips = lab::run(&scenario("redlock-skips-elapsed-check")).verdict;
    skips.id = c.right.verdict.id.clone();
    assert_eq!(c.right.verdict, skips, "the variant is the other file's run");
    let line = "Redlock (check_elapsed true): one holder at a time; Redlock\n(check_elapsed false): stale write accepted at 16.003 s";
    assert_eq!(c.summary, line.replace('\n', " "));
    assert!(include_str!("../docs/SCENARIO_FORMAT.md").contains(line), "docs/SCENARIO_FORMAT.md should quote: {line}");
}
