//! Every caption's claim agrees with the trace and the verdict, on generated runs of every
//! approach (issue 10, item 6). The causes a Story derives are checked here against the trace
//! by other means (walking its events, reading the verdict), and the sentences that make a
//! claim ("had already expired", "Fencing stopped a stale write", "does not know") are
//! checked to appear only where their cause says so.

mod common;

use common::{scale, scenario, shapes, FaultMix};
use locklab::check::Write;
use locklab::lab::{self, Run};
use locklab::protocols::{EventKind, Note};
use locklab::scenario::Scenario;
use locklab::sim::rng::Stream;
use locklab::sim::{NodeId, Time};
use locklab::text::{caption, Belief, Cause, Gone, Story, WriteCause};

/// What `client` made of the lock just before event `i`, walking the trace forward: a belief
/// starts and ends with its notes (or the process), and each acquisition starts not holding.
fn belief(run: &Run, client: NodeId, i: usize) -> Belief {
    let mut belief = Belief::NeverHeld;
    for e in run.trace.events[..i].iter().filter(|e| e.node == client) {
        match e.kind {
            EventKind::Note(Note::BeliefStarted { .. }) => belief = Belief::Holds,
            EventKind::Note(Note::BeliefEnded { .. }) | EventKind::Crashed { .. } => belief = Belief::Stopped,
            EventKind::Note(Note::AcquireStarted { .. }) | EventKind::Restarted => belief = Belief::NeverHeld,
            _ => {}
        }
    }
    belief
}

fn believes(run: &Run, client: NodeId, i: usize) -> bool {
    belief(run, client, i) == Belief::Holds
}

/// Whether `node` is frozen at true time `t` by a pause fault (from the Paused events): one
/// that began by `t` and would last past it, unless the node crashed in between (a crash ends
/// the pause with the process).
fn paused(run: &Run, node: NodeId, t: Time) -> bool {
    let events = &run.trace.events;
    events.iter().enumerate().any(|(i, e)| {
        e.node == node
            && matches!(e.kind, EventKind::Paused { until_ms } if e.at_ms <= t && t < until_ms)
            && !events[i..].iter().any(|c| c.node == node && c.at_ms <= t && matches!(c.kind, EventKind::Crashed { .. }))
    })
}

/// The time of `client`'s latest AcquireStarted (or restart) before event `i`.
fn acquisition_start(run: &Run, client: NodeId, i: usize) -> Time {
    run.trace.events[..i]
        .iter()
        .rev()
        .find(|e| e.node == client && matches!(e.kind, EventKind::Note(Note::AcquireStarted { .. }) | EventKind::Restarted))
        .map_or(0, |e| e.at_ms)
}

/// An event at `server` (or, for a lock an ensemble shares, anywhere) at time `at` matching `f`.
fn happened(run: &Run, server: NodeId, at: Time, f: impl Fn(&Note) -> bool) -> bool {
    let shared = run.scenario.approach.spec().shared_lease();
    run.trace.events.iter().any(|e| e.at_ms == at && (shared || e.node == server) && matches!(&e.kind, EventKind::Note(n) if f(n)))
}

fn write_at(run: &Run, event: usize) -> &Write {
    run.verdict.writes.iter().find(|w| w.event == event).expect("every WriteApplied is in the verdict")
}

/// Checks one cause against the trace; returns what is wrong.
fn check(run: &Run, i: usize, cause: &Cause) -> Result<(), String> {
    let e = &run.trace.events[i];
    match cause {
        Cause::NothingToRelease { client, gone } => {
            let client = *client;
            match *gone {
                Gone::Expired { at, .. } => (happened(run, e.node, at, |n| {
                    matches!(n, Note::LockExpired { holder } if *holder == client)
                        || matches!(n, Note::SessionExpired { client: c, .. } if *c == client)
                }) && at <= e.at_ms)
                    .then_some(())
                    .ok_or("no expiry of the client's lock there".into()),
                Gone::RemovedBy { by, at } => (by != client
                    && happened(run, e.node, at, |n| matches!(n, Note::LockReleased { holder, by: b } if *holder == client && *b == by)))
                .then_some(())
                .ok_or("no other client's unlock removed it".into()),
                Gone::LostInRestart { at } => happened(run, e.node, at, |n| matches!(n, Note::StateLost { .. }))
                    .then_some(())
                    .ok_or("no restart lost state there".into()),
                Gone::Demoted { at } => happened(run, e.node, at, |n| matches!(n, Note::Demoted { .. }))
                    .then_some(())
                    .ok_or("the server was not demoted".into()),
                Gone::Released { at } => {
                    happened(run, e.node, at, |n| matches!(n, Note::LockReleased { holder, by } if *holder == client && *by == client))
                        .then_some(())
                        .ok_or("the client did not release it".into())
                }
                Gone::NeverHeld => {
                    let since = acquisition_start(run, client, i);
                    let held = run.trace.events[..i].iter().any(|c| {
                        c.node == e.node
                            && c.at_ms >= since
                            && matches!(c.kind, EventKind::Note(Note::LockCommitted { client: h, .. }) if h == client)
                    });
                    (!held).then_some(()).ok_or("the server did commit the client's lock".into())
                }
            }
        }
        Cause::Write(w) => {
            let v = write_at(run, i);
            let EventKind::Note(Note::WriteApplied { client, .. }) = e.kind else { return Err("not a write".into()) };
            match w {
                WriteCause::Fresh => (v.accepted && !v.stale && !v.after_takeover).then_some(()).ok_or("not a plain accepted write".into()),
                WriteCause::AfterTakeover { by } => {
                    (v.accepted && !v.stale && v.after_takeover && *by != client).then_some(()).ok_or("not an after-takeover write".into())
                }
                WriteCause::Stale { accepted, newer, why, .. } => {
                    if !v.stale || v.accepted != *accepted || *newer == client {
                        return Err(format!("verdict: stale {}, accepted {}", v.stale, v.accepted));
                    }
                    // The newer holder's write was accepted before this one.
                    let name = run.trace.name(*newer);
                    if !run.verdict.writes.iter().any(|o| o.event < i && o.accepted && o.client == name) {
                        return Err("the newer holder had not written".into());
                    }
                    if !run.verdict.grants.iter().any(|g| g.client == name && g.at_ms == why.newer_granted_at) {
                        return Err("no grant to the newer holder then".into());
                    }
                    if let Some((server, Gone::Expired { at, .. })) = why.lost {
                        let expired = happened(run, server, at, |n| {
                            matches!(n, Note::LockExpired { holder } if *holder == client)
                                || matches!(n, Note::SessionExpired { client: c, .. } if *c == client)
                        });
                        if !expired || at > why.newer_granted_at {
                            return Err("the writer's lease did not expire there before the newer grant".into());
                        }
                        if why.writer_paused != paused(run, client, at) {
                            return Err("wrong about the writer being paused".into());
                        }
                    }
                    Ok(())
                }
                WriteCause::HolderBlocked { rightful, .. } => {
                    (!v.accepted && !v.stale && *rightful != v.after_takeover).then_some(()).ok_or("not a non-stale rejection".into())
                }
            }
        }
        Cause::LeaseEnded { holder, .. } => {
            if holder.belief != belief(run, holder.node, i) {
                return Err(format!("holder's belief: said {:?}, trace {:?}", holder.belief, belief(run, holder.node, i)));
            }
            (holder.paused == paused(run, holder.node, e.at_ms)).then_some(()).ok_or("wrong about the holder being paused".into())
        }
        Cause::Granted { client, believers, .. } => {
            let open = |b: NodeId| believes(run, b, i);
            (believers.iter().all(|&b| b != *client && open(b))).then_some(()).ok_or("a named believer did not believe".into())
        }
        Cause::Majority { instances, of } => {
            let servers = run.trace.nodes.iter().filter(|n| n.role == locklab::sim::Role::LockServer).count() as u32;
            (*of == servers && *instances > of / 2 && instances <= of).then_some(()).ok_or("not a majority of the instances".into())
        }
        Cause::Suspended { believes: b } => {
            let zookeeper = matches!(e.kind, EventKind::Note(Note::Disconnected { .. }));
            (zookeeper && *b == believes(run, e.node, i)).then_some(()).ok_or("wrong about the belief when disconnected".into())
        }
        Cause::Woke { believes: b, .. } => (*b == believes(run, e.node, i)).then_some(()).ok_or("wrong about the belief on waking".into()),
        Cause::Rejected { rightful } => {
            let last = run.verdict.writes.iter().rfind(|w| w.event < i && w.client == run.trace.name(e.node));
            let blocked = last.is_some_and(|w| !w.accepted && !w.stale && !w.after_takeover);
            (*rightful == blocked).then_some(()).ok_or("wrong about the rejected write".into())
        }
    }
}

/// Sentences that make a claim, and whether the cause at that event allows it.
fn claims_hold(run: &Run, story: &Story, i: usize, text: &str) -> Result<(), String> {
    let cause = story.cause(i);
    let write = || run.verdict.writes.iter().find(|w| w.event == i);
    let claim = |phrase: &str, ok: bool| if text.contains(phrase) && !ok { Err(format!("claims {phrase:?}")) } else { Ok(()) };
    claim("had already expired", matches!(cause, Some(Cause::NothingToRelease { gone: Gone::Expired { .. }, .. })))?;
    claim("Fencing stopped a stale write", write().is_some_and(|w| w.stale && !w.accepted))?;
    claim("STALE write", write().is_some_and(|w| w.stale && w.accepted))?;
    claim("blocked the rightful holder", write().is_some_and(|w| !w.stale && !w.accepted && !w.after_takeover))?;
    let ended = |b: Belief| matches!(cause, Some(Cause::LeaseEnded { holder, .. }) if holder.belief == b);
    claim("does not know", ended(Belief::Holds) || matches!(cause, Some(Cause::Woke { believes: true, service_holds: false })))?;
    claim(
        "still believes it holds the lock",
        matches!(cause, Some(Cause::Granted { believers, .. }) if !believers.is_empty()) || ended(Belief::Holds),
    )?;
    claim("had already stopped believing", ended(Belief::Stopped))?;
    claim("had not got the lock", ended(Belief::NeverHeld))?;
    claim("keeps believing", matches!(cause, Some(Cause::Suspended { believes: true })))?;
    claim("instances said OK, a majority", matches!(cause, Some(Cause::Majority { .. })))?;
    Ok(())
}

/// What one run's captions were checked for: causes, and waiters that never held the lock (a
/// session or lease that ended while its client, never granted it, was paused; a ZooKeeper
/// client disconnected while it was only waiting).
#[derive(Default)]
struct Checked {
    causes: usize,
    waiters_ended: usize,
    waiters_suspended: usize,
}

/// Checks every cause and every caption's claims of `s`'s run; panics naming what is wrong.
fn check_run(s: &Scenario, label: &str, tally: &mut Checked) {
    let run = lab::run(s);
    let story = Story::of_run(&run);
    for (i, cause) in story.causes() {
        tally.causes += 1;
        match cause {
            Cause::LeaseEnded { holder, .. } if holder.belief == Belief::NeverHeld && holder.paused => tally.waiters_ended += 1,
            Cause::Suspended { believes: false } => tally.waiters_suspended += 1,
            _ => {}
        }
        if let Err(why) = check(&run, i, cause) {
            panic!("{label}: event {i} {:?}: {cause:?}: {why}\n{}", run.trace.events[i], serde_json::to_string(s).unwrap());
        }
    }
    for i in 0..run.trace.events.len() {
        let text = caption(&run.trace, s.approach, &story, i);
        if let Err(why) = claims_hold(&run, &story, i, &text) {
            panic!("{label}: event {i}: {text}\n{why}\n{}", serde_json::to_string(s).unwrap());
        }
    }
}

#[test]
fn every_caption_claim_agrees_with_the_trace_and_the_verdict() {
    let mut rng = Stream::new(2026, 10);
    let n = 200 * scale();
    for shape in shapes() {
        let mut tally = Checked::default();
        for k in 0..n {
            let mix = if k % 3 == 2 { FaultMix::Ending } else { FaultMix::Any };
            check_run(&scenario(&mut rng, shape, mix, k % 2 == 0), &shape.name(), &mut tally);
        }
        println!("captions, {}: {n} runs, {} causes checked", shape.name(), tally.causes);
    }
}

/// ZooKeeper and etcd runs where A holds the lock and B (and C) wait in the queue, and a waiter
/// freezes past its session or lease: each is told what it made of the lock, not what a
/// holder would have (issue 21).
#[test]
fn waiters_that_never_held_the_lock_are_captioned_as_waiters() {
    let mut rng = Stream::new(2026, 21);
    let n = 100 * scale();
    let mut tally = Checked::default();
    for k in 0..n {
        let approach = if k % 2 == 0 { "zookeeper" } else { "etcd" };
        let ttl = rng.range(2_000, 8_000);
        let work = rng.range(ttl * 2, 20_000);
        let b_at = rng.range(1, 3_000);
        let pause_at = rng.range(b_at + 100, b_at + 3_000);
        let pause = rng.range(ttl + 1_000, 3 * ttl);
        let c = if k % 3 == 0 {
            format!(r#", {{"name": "C", "acquire_at_ms": {}, "work_ms": 300}}"#, rng.range(1, 5_000))
        } else {
            String::new()
        };
        let text = format!(
            r#"{{"version": 1, "approach": "{approach}", "seed": {}, "duration_ms": 30000, "lock": {{"ttl_ms": {ttl}, "servers": 3}},
            "storage": {{"fencing": {}}},
            "clients": [{{"name": "A", "acquire_at_ms": 0, "work_ms": {work}}}, {{"name": "B", "acquire_at_ms": {b_at}, "work_ms": 500}}{c}],
            "faults": [{{"at_ms": {pause_at}, "kind": "pause", "node": "B", "duration_ms": {pause}}}]}}"#,
            rng.range(0, 1_000_000),
            k % 4 < 2
        );
        let s = locklab::scenario::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        check_run(&s, approach, &mut tally);
    }
    println!("waiters: {n} runs, {} never-held paused past their expiry, {} disconnected", tally.waiters_ended, tally.waiters_suspended);
    assert!(tally.waiters_ended >= n / 2, "{} of {n} runs had a waiter expire while paused", tally.waiters_ended);
    assert!(tally.waiters_suspended >= n / 4, "{} ZooKeeper waiters disconnected", tally.waiters_suspended);
}

/// The four cases issue 10 found wrong by hand, each on the run that shows it.
#[test]
fn the_hand_found_caption_errors_stay_fixed() {
    let cap = |id: &str, fencing: bool, needle: &str| -> Vec<String> {
        let run = lab::run(&lab::with_fencing(&locklab::scenario::catalog::get(id).unwrap(), fencing));
        let story = Story::of_run(&run);
        (0..run.trace.events.len()).map(|i| caption(&run.trace, run.scenario.approach, &story, i)).filter(|c| c.contains(needle)).collect()
    };
    // A release that finds nothing says why: another client's DELETE, not an expiry.
    let b = cap("db-lease-plain-delete", true, "B's release found nothing");
    assert!(b.iter().all(|c| c.contains("A's plain unlock had already deleted B's lease row")), "{b:?}");
    // Redlock: an instance the client never locked, or one that lost it in a restart.
    let r = cap("redlock-restart-without-persistence", false, "release found nothing");
    assert!(r.iter().any(|c| c.contains("lost A's key when it restarted")), "{r:?}");
    assert!(r.iter().all(|c| !c.contains("had already expired")), "{r:?}");
    // A lower token after a DELETE: the rightful holder's write is blocked, not stale.
    let c = cap("db-lease-plain-delete", true, "Storage rejects C's write");
    assert!(c.iter().all(|c| c.contains("fencing blocked the rightful holder") && !c.contains("Fencing stopped a stale write")), "{c:?}");
    // An equal token: a stale write, captioned as one.
    let f = cap("redis-failover", true, "Storage accepts A's");
    assert!(f.iter().any(|c| c.contains("STALE write") && c.contains("both carry token 1")), "{f:?}");
}
