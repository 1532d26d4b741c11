//! Each approach's model on small scenarios: what its lock service does with grants, expiry,
//! release, crashes and its tokens (docs/PROTOCOLS.md (a), docs/SCENARIO_FORMAT.md "Semantics").

use locklab::check::FindingKind;
mod common;

use common::run;
use locklab::lab::Run;
use locklab::protocols::{AcquireFailure, BeliefEnd, EventKind, Note};

fn tokens(r: &Run) -> Vec<(&str, Option<u64>)> {
    r.verdict.grants.iter().map(|g| (g.client.as_str(), g.token)).collect()
}

fn notes<'a>(r: &'a Run, node: &str) -> Vec<(i64, &'a Note)> {
    let n = r.trace.node_id(node).unwrap();
    r.trace
        .events
        .iter()
        .filter(|e| e.node == n)
        .filter_map(|e| if let EventKind::Note(x) = &e.kind { Some((e.at_ms, x)) } else { None })
        .collect()
}

fn has_finding(r: &Run, kind: FindingKind) -> bool {
    r.verdict.findings.iter().any(|f| f.kind == kind)
}

/// A then B, one after the other, on `approach` with the given lock settings.
fn in_turn(approach: &str, lock: &str) -> Run {
    run(&format!(
        r#"{{"version": 1, "approach": "{approach}", "seed": 3, "duration_ms": 8000, "lock": {lock},
        "clients": [{{"name": "A", "work_ms": 500, "writes": 2}}, {{"name": "B", "acquire_at_ms": 300, "work_ms": 500}}]}}"#
    ))
}

// --- db-lease ---------------------------------------------------------------------------------

#[test]
fn db_lease_release_expires_the_row_and_the_token_keeps_rising() {
    let r = in_turn("db-lease", r#"{"ttl_ms": 10000}"#);
    assert_eq!(tokens(&r), [("A", Some(1)), ("B", Some(2))]);
    assert!(notes(&r, "db").iter().any(|(_, n)| matches!(n, Note::LockReleased { .. })));
    assert!(!notes(&r, "db").iter().any(|(_, n)| matches!(n, Note::RowDeleted { .. })));
    assert!(r.verdict.safe && r.verdict.max_concurrent_holders == 1);
}

#[test]
fn db_lease_plain_release_deletes_the_row_so_the_next_grant_is_token_1_again() {
    let r = in_turn("db-lease", r#"{"ttl_ms": 10000, "safe_unlock": false}"#);
    assert_eq!(tokens(&r), [("A", Some(1)), ("B", Some(1))]);
    let deleted = notes(&r, "db").into_iter().find_map(|(_, n)| match n {
        Note::RowDeleted { token_was, .. } => Some(*token_was),
        _ => None,
    });
    assert_eq!(deleted, Some(1));
    assert!(has_finding(&r, FindingKind::TokenRepeated), "{:#?}", r.verdict.findings);
}

#[test]
fn db_lease_expires_by_the_database_clock() {
    // The database's clock steps 6 s ahead at 1 s: A's 10 s row is free at ~4 s of true time.
    let r = run(r#"{"version": 1, "approach": "db-lease", "seed": 1, "duration_ms": 12000, "lock": {"ttl_ms": 10000},
        "clients": [{"name": "A", "work_ms": 8000}, {"name": "B", "acquire_at_ms": 500, "work_ms": 100}],
        "faults": [{"at_ms": 1000, "kind": "clock_jump", "node": "db", "by_ms": 6000}]}"#);
    let b = r.verdict.grants.iter().find(|g| g.client == "B").expect("B takes the row over");
    assert!((4000..4400).contains(&b.at_ms), "B granted at {} ms", b.at_ms);
    assert_eq!(b.token, Some(2));
    assert!(notes(&r, "B").iter().filter(|(_, n)| matches!(n, Note::AcquireFailed { reason: AcquireFailure::Busy, .. })).count() > 5);
}

// --- redis ------------------------------------------------------------------------------------

/// A takes the lock; redis crashes at `crash_at` (and restarts 100 ms later); B keeps trying.
fn redis_crash(persistence: &str, machine: bool, crash_at: i64) -> Run {
    run(&format!(
        r#"{{"version": 1, "approach": "redis", "seed": 2, "duration_ms": 15000, "lock": {{"ttl_ms": 5000, "persistence": "{persistence}"}},
        "clients": [{{"name": "A", "work_ms": 7000}}, {{"name": "B", "acquire_at_ms": 100, "work_ms": 100}}],
        "faults": [{{"at_ms": {crash_at}, "kind": "crash", "node": "redis", "machine": {machine}, "restart_after_ms": 100}}]}}"#
    ))
}

#[test]
fn redis_without_persistence_restarts_empty_and_hands_out_token_1_again() {
    let r = redis_crash("none", false, 2000);
    assert!(notes(&r, "redis").iter().any(|(_, n)| matches!(n, Note::StateLost { token_counter_was: 1 })));
    assert_eq!(tokens(&r), [("A", Some(1)), ("B", Some(1))]);
    let b = &r.verdict.grants[1];
    assert!(b.at_ms < 2500, "B gets the lock right after the restart, at {}", b.at_ms);
    assert_eq!(r.verdict.max_concurrent_holders, 2);
}

#[test]
fn redis_aof_keeps_the_key_and_its_deadline_across_a_process_crash() {
    for persistence in ["aof-everysec", "aof-always"] {
        let r = redis_crash(persistence, false, 2000);
        assert_eq!(tokens(&r), [("A", Some(1)), ("B", Some(2))], "{persistence}");
        assert!(r.verdict.grants[1].at_ms >= 5000, "{persistence}: A's key kept its 5 s deadline");
    }
}

#[test]
fn a_machine_crash_loses_what_aof_everysec_had_not_fsynced() {
    // Within the first second nothing was fsynced yet: the key and counter are gone.
    let early = redis_crash("aof-everysec", true, 500);
    assert_eq!(tokens(&early), [("A", Some(1)), ("B", Some(1))]);
    // After the fsync at 1 s both survive.
    let late = redis_crash("aof-everysec", true, 2000);
    assert_eq!(tokens(&late), [("A", Some(1)), ("B", Some(2))]);
    // aof-always fsyncs before replying.
    assert_eq!(tokens(&redis_crash("aof-always", true, 500)), [("A", Some(1)), ("B", Some(2))]);
}

#[test]
fn a_redis_replica_promotes_itself_after_a_second_without_its_primary_and_the_old_primary_rejoins() {
    let r = run(r#"{"version": 1, "approach": "redis", "seed": 4, "duration_ms": 8000, "lock": {"ttl_ms": 10000, "replica": true},
        "clients": [{"name": "A", "acquire_at_ms": 3000, "work_ms": 300}],
        "faults": [{"at_ms": 500, "kind": "pause", "node": "redis", "duration_ms": 2000}]}"#);
    let promoted = notes(&r, "redis-replica").into_iter().find_map(|(t, n)| matches!(n, Note::Promoted { epoch: 1 }).then_some(t));
    let promoted = promoted.expect("promoted");
    assert!((1400..1500).contains(&promoted), "promoted at {promoted}: 1 s after the last heartbeat (at 400 ms) before the pause");
    assert!(notes(&r, "redis").iter().any(|(_, n)| matches!(n, Note::Demoted { epoch: 1, .. })), "the old primary follows the new one");
    // A, told of the failover, takes the lock on the new primary.
    let a = r.trace.node_id("A").unwrap();
    assert!(notes(&r, "redis-replica").iter().any(|(_, n)| matches!(n, Note::LockCommitted { client, .. } if *client == a)));
}

#[test]
fn redis_safe_unlock_leaves_another_clients_key_alone() {
    let s = r#"{"version": 1, "approach": "redis", "seed": 7, "duration_ms": 20000, "lock": {"ttl_ms": 10000, "safe_unlock": SAFE},
        "clients": [{"name": "A", "work_ms": 1000}, {"name": "B", "acquire_at_ms": 2000, "work_ms": 3000, "writes": 2}],
        "faults": [{"at_ms": 500, "kind": "pause", "node": "A", "duration_ms": 14500}]}"#;
    let b = |r: &Run| r.trace.node_id("B").unwrap();
    let plain = run(&s.replace("SAFE", "false"));
    assert!(notes(&plain, "redis")
        .iter()
        .any(|(_, n)| matches!(n, Note::LockReleased { holder, by } if *holder == b(&plain) && holder != by)));
    let safe = run(&s.replace("SAFE", "true"));
    assert!(notes(&safe, "redis").iter().any(|(_, n)| matches!(n, Note::UnlockRefused { holder: Some(h), .. } if *h == b(&safe))));
}

// --- redlock ----------------------------------------------------------------------------------

#[test]
fn redlock_without_a_majority_fails_and_unlocks_everywhere() {
    let r = run(r#"{"version": 1, "approach": "redlock", "seed": 1, "duration_ms": 2000, "lock": {"ttl_ms": 5000, "servers": 5},
        "clients": [{"name": "A"}],
        "faults": [{"at_ms": 0, "kind": "drop", "from": "A", "to": "redis-3"}, {"at_ms": 0, "kind": "drop", "from": "A", "to": "redis-4"},
                   {"at_ms": 0, "kind": "drop", "from": "A", "to": "redis-5"}]}"#);
    assert!(r.verdict.grants.is_empty());
    let failures: Vec<_> = notes(&r, "A")
        .into_iter()
        .filter_map(|(_, n)| if let Note::AcquireFailed { reason, .. } = n { Some(*reason) } else { None })
        .collect();
    assert!(failures.len() > 3 && failures.iter().all(|f| *f == AcquireFailure::NoQuorum { granted: 2, needed: 3 }), "{failures:?}");
    // Each failure unlocks the instances it reached.
    assert!(notes(&r, "redis-1").iter().filter(|(_, n)| matches!(n, Note::LockReleased { .. })).count() >= failures.len());
}

#[test]
fn redlock_discards_a_majority_that_came_too_late() {
    // Replies take 600 ms more: 1 s TTL − 1.2 s elapsed − drift < 0.
    let mut faults = Vec::new();
    for i in 1..=5 {
        faults.push(format!(r#"{{"at_ms": 0, "kind": "delay", "from": "redis-{i}", "to": "A", "by_ms": 600, "duration_ms": 100}}"#));
    }
    let r = run(&format!(
        r#"{{"version": 1, "approach": "redlock", "seed": 1, "duration_ms": 3000, "lock": {{"ttl_ms": 1000, "servers": 5, "request_timeout_ms": 2000}},
        "network": {{"latency_ms": [600, 600]}}, "clients": [{{"name": "A"}}], "faults": [{}]}}"#,
        faults.join(",")
    ));
    let first = notes(&r, "A").into_iter().find_map(|(_, n)| if let Note::AcquireFailed { reason, .. } = n { Some(*reason) } else { None });
    assert!(matches!(first, Some(AcquireFailure::ValidityExhausted { validity_ms }) if validity_ms <= 0), "{first:?}");
    assert!(r.verdict.grants.is_empty(), "a late majority is no grant: {:?}", r.verdict.grants);
}

#[test]
fn redlock_is_granted_at_the_quorum_th_set_and_has_no_token() {
    let r = in_turn("redlock", r#"{"ttl_ms": 10000, "servers": 5}"#);
    let a = r.trace.node_id("A").unwrap();
    let commits: Vec<i64> = r
        .trace
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Note(Note::LockCommitted { client, attempt: 1, .. }) if client == a))
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(commits.len(), 5);
    assert_eq!(r.verdict.grants[0].at_ms, commits[2]);
    assert!(r.verdict.grants.iter().all(|g| g.token.is_none()));
}

#[test]
fn a_single_server_grant_that_arrives_with_no_validity_left_is_validity_exhausted() {
    let r = run(
        r#"{"version": 1, "approach": "redis", "seed": 1, "duration_ms": 3000, "lock": {"ttl_ms": 500, "request_timeout_ms": 2000},
        "clients": [{"name": "A"}], "faults": [{"at_ms": 0, "kind": "delay", "from": "redis", "to": "A", "by_ms": 700, "duration_ms": 50}]}"#,
    );
    let first = notes(&r, "A").into_iter().find_map(|(_, n)| if let Note::AcquireFailed { reason, .. } = n { Some(*reason) } else { None });
    assert!(matches!(first, Some(AcquireFailure::ValidityExhausted { validity_ms }) if validity_ms <= 0), "{first:?}");
}

// --- zookeeper and etcd -----------------------------------------------------------------------

#[test]
fn ensemble_tokens_rise_zookeeper_as_czxids_etcd_as_revisions() {
    let zk = in_turn("zookeeper", r#"{"ttl_ms": 6000}"#);
    let t: Vec<u64> = zk.verdict.grants.iter().map(|g| g.token.unwrap()).collect();
    assert!(t.len() == 2 && t[0] < t[1] && t.iter().all(|t| t >> 32 == 1), "epoch 1 czxids: {t:x?}");
    let etcd = in_turn("etcd", r#"{"ttl_ms": 6000}"#);
    let t: Vec<u64> = etcd.verdict.grants.iter().map(|g| g.token.unwrap()).collect();
    assert!(t.len() == 2 && t[0] < t[1] && t[1] < 100, "revisions: {t:?}");
}

#[test]
fn a_leader_crash_keeps_the_holders_session_a_lost_watch_is_set_again_and_the_new_epoch_shows_in_the_czxid() {
    let r = run(r#"{"version": 1, "approach": "zookeeper", "seed": 6, "duration_ms": 12000, "lock": {"ttl_ms": 6000},
        "clients": [{"name": "A", "work_ms": 1000, "writes": 4}, {"name": "B", "acquire_at_ms": 500, "work_ms": 200},
                    {"name": "C", "acquire_at_ms": 3000, "work_ms": 200}],
        "faults": [{"at_ms": 1500, "kind": "crash", "node": "zk-1", "restart_after_ms": 500}]}"#);
    assert!(notes(&r, "zk-2").iter().any(|(_, n)| matches!(n, Note::LeaderElected { epoch: 2 })), "zk-2 leads epoch 2");
    assert_eq!(r.verdict.max_concurrent_holders, 1, "{:#?}", r.verdict);
    let a_end = notes(&r, "A").into_iter().find_map(|(_, n)| if let Note::BeliefEnded { reason } = n { Some(*reason) } else { None });
    assert_eq!(a_end, Some(BeliefEnd::Released), "A's session survived the leader change");
    // B queued in epoch 1, and its watch was lost with the old leader: it queues up again and
    // still gets the lock. C queued under the new leader: its czxid carries epoch 2.
    let token =
        |c: &str| r.verdict.grants.iter().find(|g| g.client == c).and_then(|g| g.token).unwrap_or_else(|| panic!("{c} gets the lock"));
    assert_eq!((token("A") >> 32, token("B") >> 32, token("C") >> 32), (1, 1, 2));
    assert!(token("A") < token("B") && token("B") < token("C"));
}

#[test]
fn a_paused_etcd_client_writes_what_came_due_in_its_pause_and_then_gives_its_lease_up_itself() {
    // A freezes past its lease's TTL. On waking, its overdue timers run in the order they came
    // due: the write (due at 1 s) goes out first, then clientv3's deadline check (due after
    // the TTL) finds no keepalive answer for a TTL and Done() fires, before any keepalive answer.
    let r = run(r#"{"version": 1, "approach": "etcd", "seed": 42, "duration_ms": 20000, "lock": {"ttl_ms": 10000},
        "clients": [{"name": "A", "work_ms": 1000, "writes": 2}, {"name": "B", "acquire_at_ms": 2000, "work_ms": 500}],
        "faults": [{"at_ms": 500, "kind": "pause", "node": "A", "duration_ms": 15000}]}"#);
    let a = notes(&r, "A");
    let wrote = a.iter().position(|(_, n)| matches!(n, Note::WriteSent { n: 1, .. })).expect("A's first write");
    let gave_up = a.iter().position(|(_, n)| matches!(n, Note::BeliefEnded { reason: BeliefEnd::ValidityExpired })).expect("A gives up");
    assert!(wrote < gave_up && a[gave_up].0 == 15_500, "{a:?}");
    assert!(!a.iter().any(|(_, n)| matches!(n, Note::WriteSent { n: 2, .. })), "no write after Done: {a:?}");
    assert!(!a.iter().any(|(_, n)| matches!(n, Note::Disconnected { .. })), "etcd has no connection to close");
}

#[test]
fn an_etcd_client_cut_off_from_etcd_stops_believing_a_ttl_after_its_last_keepalive_answer() {
    // A holds the lock and writes every second; at 3 s it is cut off from every etcd server
    // (storage still answers). clientv3's deadline loop closes the lease's keep-alive channel
    // once no answer came for the TTL (checked every second): Done() fires and A stops
    // believing, and writing, instead of believing forever.
    let r = run(r#"{"version": 1, "approach": "etcd", "seed": 7, "duration_ms": 30000, "lock": {"ttl_ms": 5000},
        "clients": [{"name": "A", "work_ms": 1000, "writes": 25}],
        "faults": [{"at_ms": 3000, "kind": "partition", "groups": [["A", "storage"], ["etcd-1", "etcd-2", "etcd-3"]]}]}"#);
    let a = notes(&r, "A");
    let end = a.iter().find(|(_, n)| matches!(n, Note::BeliefEnded { .. })).expect("A's belief ends");
    assert_eq!(end.1, &Note::BeliefEnded { reason: BeliefEnd::ValidityExpired });
    // Its last keepalive answer came before 3 s; the TTL and at most one loop period later it gives up.
    assert!((5_000..9_000).contains(&end.0), "A gives up at {} ms", end.0);
    let last_write = a.iter().rev().find(|(_, n)| matches!(n, Note::WriteSent { .. })).unwrap().0;
    assert!(last_write < end.0, "no write after Done fired: {a:?}");
    let at = r.trace.events.iter().position(|e| matches!(e.kind, EventKind::Note(Note::BeliefEnded { .. }))).unwrap();
    let caption = locklab::text::caption(&r.trace, r.scenario.approach, &locklab::text::Story::of_run(&r), at);
    assert!(caption.starts_with("A has had no keepalive answer for its lease's TTL (5 s)"), "{caption}");
}

#[test]
fn a_redlock_client_whose_validity_runs_out_mid_work_stops_and_gives_the_lock_back_as_the_format_and_caption_say() {
    // A's validity (2 s − elapsed − drift) ends before its first write is due (3 s of work):
    // it stops believing, writes nothing, unlocks every instance and is done.
    let r = run(r#"{"version": 1, "approach": "redlock", "seed": 3, "duration_ms": 10000, "lock": {"ttl_ms": 2000},
        "clients": [{"name": "A", "work_ms": 3000, "writes": 2}]}"#);
    let a = notes(&r, "A");
    let ended = a.iter().position(|(_, n)| matches!(n, Note::BeliefEnded { reason: BeliefEnd::ValidityExpired })).expect("validity ends");
    assert!(a[ended].0 < 2_000, "{a:?}");
    assert!(matches!(a[ended + 1].1, Note::ReleaseSent) && matches!(a.last().unwrap().1, Note::Finished), "{a:?}");
    assert!(!a.iter().any(|(_, n)| matches!(n, Note::WriteSent { .. })), "no write after its validity: {a:?}");
    let a_id = r.trace.node_id("A").unwrap();
    let unlocks = r
        .trace
        .events
        .iter()
        .filter(|e| e.node == a_id && matches!(&e.kind, EventKind::Sent { msg: locklab::protocols::Msg::Release { .. }, .. }))
        .count();
    assert_eq!(unlocks, 5, "an unlock to every instance");
    // The caption and the format say the same.
    let at = r.trace.events.iter().position(|e| matches!(e.kind, EventKind::Note(Note::BeliefEnded { .. }))).unwrap();
    let caption = locklab::text::caption(&r.trace, r.scenario.approach, &locklab::text::Story::of_run(&r), at);
    assert!(caption.contains("its lease has run out") && caption.contains("gives it back"), "{caption}");
    let format = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SCENARIO_FORMAT.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(format.contains("So does the end of a client's own validity (db-lease, redis and Redlock"), "the format says it");
    assert!(
        format.contains("sends no more writes") && format.contains("gives the lock back at once (Redlock: an unlock to every instance")
    );
}
