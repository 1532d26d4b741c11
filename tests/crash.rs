//! A client that crashes and restarts is a new process (docs/SCENARIO_FORMAT.md, "Semantics",
//! Clients): it does not write under its old grant, it takes the lock afresh only once what
//! its old process left at the lock service has expired, and a reply meant for the old process
//! is ignored.

mod common;

use common::run;
use locklab::lab::Run;
use locklab::protocols::{EventKind, Msg, Note};

fn at(run: &Run, pred: impl Fn(&EventKind) -> bool, node: &str) -> Vec<(usize, i64)> {
    let n = run.trace.node_id(node).unwrap();
    run.trace.events.iter().enumerate().filter(|(_, e)| e.node == n && pred(&e.kind)).map(|(i, e)| (i, e.at_ms)).collect()
}

fn first(run: &Run, pred: impl Fn(&EventKind) -> bool, node: &str) -> (usize, i64) {
    *at(run, pred, node).first().unwrap_or_else(|| panic!("no such event at {node}"))
}

/// The attempt numbers under which `client` wrote, with the trace index of each write.
fn writes_of(run: &Run, client: &str) -> Vec<(usize, u32)> {
    let c = run.trace.node_id(client).unwrap();
    run.trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Note(Note::WriteApplied { client, grant, .. }) if *client == c => Some((i, grant.attempt)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_reply_to_the_dead_process_write_is_ignored_and_it_does_not_write_under_its_old_grant() {
    // A's first write is answered late (storage → A delayed); A crashes before the reply
    // arrives and is back before it does. The old process would have gone on to write #2.
    let r = run(r#"{"version": 1, "approach": "redis", "seed": 3, "duration_ms": 15000, "lock": {"ttl_ms": 5000},
        "clients": [{"name": "A", "work_ms": 1000, "writes": 2}, {"name": "B", "acquire_at_ms": 100, "work_ms": 200}],
        "faults": [{"at_ms": 900, "kind": "delay", "from": "storage", "to": "A", "by_ms": 300, "duration_ms": 200},
                   {"at_ms": 1020, "kind": "crash", "node": "A", "restart_after_ms": 30}]}"#);
    let (crash, _) = first(&r, |k| matches!(k, EventKind::Crashed { .. }), "A");
    let (restart, _) = first(&r, |k| matches!(k, EventKind::Restarted), "A");
    let (late_reply, _) = first(&r, |k| matches!(k, EventKind::Received { msg: Msg::WriteReply { .. }, .. }), "A");
    assert!(late_reply > restart, "the case needs the reply to reach the new process");
    let before: Vec<_> = r.verdict.grants.iter().filter(|g| g.event < crash).collect();
    assert_eq!(before.len(), 1, "A's old process held the lock when it died: {before:?}");
    // Nothing A's new process did answered the old reply: the next note after it is not a write.
    let next = &r.trace.events[late_reply + 1];
    assert!(!matches!(next.kind, EventKind::Note(Note::WriteSent { .. } | Note::BeliefEnded { .. })), "{next:?}");
    // Every write under attempt 1 (the old grant) arrived before the crash.
    let old = writes_of(&r, "A").into_iter().filter(|&(_, a)| a == 1).collect::<Vec<_>>();
    assert_eq!(old.len(), 1);
    assert!(old[0].0 < crash);
    // The new process started over and took the lock only after A's old key expired.
    assert!(at(&r, |k| matches!(k, EventKind::Note(Note::StartedOver { incarnation: 1, .. })), "A").len() == 1);
    let (expired, expired_at) = first(&r, |k| matches!(k, EventKind::Note(Note::LockExpired { .. })), "redis");
    let later: Vec<_> = r.verdict.grants.iter().filter(|g| g.event > crash).collect();
    assert!(!later.is_empty() && later.iter().all(|g| g.event > expired && g.at_ms >= expired_at), "{later:?}");
}

#[test]
fn a_grant_meant_for_the_dead_process_is_not_taken_by_the_new_one() {
    // redis → A is slow for the first 50 ms: A's grant is still on its way when A crashes and
    // comes back. It reaches the new process, which must not believe it holds the lock.
    let r = run(r#"{"version": 1, "approach": "redis", "seed": 5, "duration_ms": 15000, "lock": {"ttl_ms": 4000},
        "clients": [{"name": "A", "work_ms": 100}],
        "faults": [{"at_ms": 0, "kind": "delay", "from": "redis", "to": "A", "by_ms": 200, "duration_ms": 50},
                   {"at_ms": 10, "kind": "crash", "node": "A", "restart_after_ms": 10}]}"#);
    let (restart, _) = first(&r, |k| matches!(k, EventKind::Restarted), "A");
    let (old_grant, _) = first(&r, |k| matches!(k, EventKind::Received { msg: Msg::AcquireReply { granted: true, .. }, .. }), "A");
    assert!(old_grant > restart, "the case needs the old grant to reach the new process");
    let (belief, belief_at) = first(&r, |k| matches!(k, EventKind::Note(Note::BeliefStarted { .. })), "A");
    let (_, expired_at) = first(&r, |k| matches!(k, EventKind::Note(Note::LockExpired { .. })), "redis");
    assert!(belief > old_grant && belief_at >= expired_at, "A believed at {belief_at} ms, its old key expired at {expired_at} ms");
    // The lock it left behind kept it (and would keep anyone) out: refused while it lasted.
    let busy = at(&r, |k| matches!(k, EventKind::Note(Note::LockBusy { .. })), "redis");
    assert!(busy.iter().any(|&(_, t)| t < expired_at));
    assert_eq!(r.verdict.grants.len(), 1, "one grant the client accepted: the new process's");
}

#[test]
fn a_zookeeper_holder_that_restarts_opens_a_new_session_and_waits_for_its_old_one_to_expire() {
    let r = run(r#"{"version": 1, "approach": "zookeeper", "seed": 9, "duration_ms": 30000, "lock": {"ttl_ms": 6000},
        "clients": [{"name": "A", "work_ms": 3000, "writes": 2}, {"name": "B", "acquire_at_ms": 500, "work_ms": 300}],
        "faults": [{"at_ms": 1500, "kind": "crash", "node": "A", "restart_after_ms": 100}]}"#);
    let a = r.trace.node_id("A").unwrap();
    let sessions: Vec<(u64, i64)> = r
        .trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Note(Note::SessionOpened { client, session, .. }) if client == a => Some((session, e.at_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(sessions.len(), 2, "the new process opens its own session: {sessions:?}");
    let old = sessions[0].0;
    let expired_at = r
        .trace
        .events
        .iter()
        .find_map(|e| matches!(e.kind, EventKind::Note(Note::SessionExpired { session, .. }) if session == old).then_some(e.at_ms))
        .expect("the old session expires");
    // Its session timeout (6 s) from when A was last heard (the session's opening: it died before
    // its first ping), rounded up to the next 2 s tick, plus the commit of the expiry.
    assert!((8000..8050).contains(&expired_at), "expired at {expired_at} ms, not on the 8 s tick");
    let a_grants: Vec<_> = r.verdict.grants.iter().filter(|g| g.client == "A").collect();
    assert_eq!(a_grants.len(), 2);
    assert!(a_grants[1].at_ms >= expired_at && a_grants[1].token > a_grants[0].token, "{a_grants:?}");
    // B, queued behind A's old node, waited for the old session too.
    let b = r.verdict.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(b.at_ms >= expired_at);
    assert_eq!(r.verdict.max_concurrent_holders, 1);
}
