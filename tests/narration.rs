//! Every event of every built-in gets a caption a student can read.

use locklab::lab;
use locklab::scenario::catalog;
use locklab::text::{caption, Story};
use locklab::timeline::{current_event, is_captioned};

#[test]
fn every_event_of_every_builtin_has_a_plain_caption() {
    for s in catalog::all() {
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let story = Story::of_run(&run);
            for (i, e) in run.trace.events.iter().enumerate() {
                let text = caption(&run.trace, s.approach, &story, i);
                assert!(text.len() > 8, "{}: empty caption for {e:?}", s.id);
                assert!(!text.contains("node #") && !text.contains("{") && !text.contains("Some("), "{}: raw caption {text}", s.id);
            }
        }
    }
}

#[test]
fn the_gc_pause_story_reads_in_order() {
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    let causes = Story::of_run(&run);
    let story = locklab::text::caption::all(&run.trace, run.scenario.approach, &causes);
    let find = |needle: &str| story.iter().position(|c| c.contains(needle)).unwrap_or_else(|| panic!("no caption with {needle:?}"));
    let paused = find("A freezes");
    let expired = find("A's key expired at redis");
    let b_holds = find("B now holds the lock");
    let woke = find("A wakes up");
    let stale = find("Storage accepts A's STALE write (token 1): A's key expired at redis while A was paused; B got the lock at 10.102 s. B's earlier write (token 2) is lost. Fencing is off.");
    assert!(paused < expired && expired < b_holds && b_holds < woke && woke < stale);
}

#[test]
fn the_caption_at_a_cursor_is_the_latest_event_before_it() {
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    assert_eq!(current_event(&run.trace, -1), None);
    let i = current_event(&run.trace, 12_000).unwrap();
    assert!(run.trace.events[i].at_ms <= 12_000);
    assert!(run.trace.events[i + 1..].iter().all(|e| e.at_ms > 12_000 || !is_captioned(e)));
}

/// A ZooKeeper run where A holds the lock for 20 s and B, queued behind it, freezes for 15 s:
/// the leader expires B's session while B waits, so B never held the lock.
fn waiter_expires() -> lab::Run {
    let text = r#"{"version": 1, "id": "zk-waiter-expires", "approach": "zookeeper", "seed": 42, "duration_ms": 30000,
        "lock": {"ttl_ms": 6000, "servers": 3},
        "clients": [{"name": "A", "acquire_at_ms": 0, "work_ms": 20000}, {"name": "B", "acquire_at_ms": 1000, "work_ms": 500}],
        "faults": [{"at_ms": 3000, "kind": "pause", "node": "B", "duration_ms": 15000}]}"#;
    lab::run(&locklab::scenario::parse(text).unwrap())
}

/// Every caption of the run about node `name`'s events, and of the events that name it.
fn captions_of(run: &lab::Run, needle: &str) -> Vec<String> {
    let story = Story::of_run(run);
    locklab::text::caption::all(&run.trace, run.scenario.approach, &story).into_iter().filter(|c| c.contains(needle)).collect()
}

#[test]
fn a_waiter_whose_session_expires_is_not_told_it_held_the_lock() {
    let run = waiter_expires();
    let b = run.trace.node_id("B").unwrap();
    assert!(run.verdict.grants.iter().all(|g| g.client != "B" || g.at_ms > 18_000), "B got the lock only after its pause");
    let expired = captions_of(&run, "expires its session");
    assert_eq!(expired.len(), 1, "{expired:?}");
    assert!(!expired[0].contains("stopped believing") && !expired[0].contains("still believes"), "{}", expired[0]);
    assert!(expired[0].ends_with("B is paused; it had not got the lock."), "{}", expired[0]);
    // Waking, it notices the closed connection: SUSPENDED, but it believed nothing to keep.
    let story = Story::of_run(&run);
    let suspended: Vec<String> = run
        .trace
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.node == b && matches!(e.kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::Disconnected { .. }))
        })
        .map(|(i, _)| caption(&run.trace, run.scenario.approach, &story, i))
        .collect();
    assert!(!suspended.is_empty());
    for text in &suspended {
        assert!(text.contains("(Disconnected, SUSPENDED)") && !text.contains("believ"), "{text}");
    }
}

#[test]
fn the_disconnected_moment_is_a_key_moment_with_its_caption() {
    for (run, who) in [(lab::run(&catalog::get("zookeeper-session-expiry").unwrap()), "A"), (waiter_expires(), "B")] {
        let timeline = locklab::timeline::Timeline::of_run(&run);
        let story = Story::of_run(&run);
        let key = timeline
            .key_moments
            .iter()
            .find(|k| {
                matches!(run.trace.events[k.event].kind, locklab::protocols::EventKind::Note(locklab::protocols::Note::Disconnected { .. }))
            })
            .unwrap_or_else(|| panic!("{}: no Disconnected key moment", run.scenario.id));
        assert_eq!(key.text, format!("{who} is disconnected (SUSPENDED)"));
        let text = caption(&run.trace, run.scenario.approach, &story, key.event);
        assert!(text.starts_with(&format!("{who} notices its connection was closed (Disconnected, SUSPENDED)")), "{text}");
    }
    // A holder keeps believing: that is what SUSPENDED means for it.
    let run = lab::run(&catalog::get("zookeeper-session-expiry").unwrap());
    let a = captions_of(&run, "A notices its connection was closed");
    assert!(a.iter().all(|c| c.contains("keeps believing")), "{a:?}");
}
