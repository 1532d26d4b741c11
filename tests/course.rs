//! The course (issue 22, item 8): the built-in lessons after `why-fencing` say only what their
//! runs show. Every step of every lesson has its claims checked here against its run, every
//! question's answer against what the run does by its reveal (and its other choices against
//! what it does not), and the lesson index lists them in course order with their length.
//! A step without a check fails (`checks`), so a new step cannot slip in unchecked.

mod common;
use common::lessons::*;
use locklab::lab::{self, Run};
use locklab::lesson::{course, locate, table, At, Moment};
use locklab::protocols::{AcquireFailure, BeliefEnd, Msg, Note};
use locklab::scenario::{catalog, Approach};
use locklab::sim::ClockKind;
use locklab::timeline::{KeyKind, Timeline};

const COURSE: &[&str] = &["leases", "why-fencing", "redlock", "consensus-locks", "clocks", "in-the-wild", "is-redlock-safe"];
/// The lessons this file checks step by step (why-fencing has its own, tests/lesson.rs).
const NEW: &[&str] = &["leases", "redlock", "consensus-locks", "clocks", "is-redlock-safe"];

// ---- the shape of the course ----

#[test]
fn the_course_lists_the_lessons_in_order_with_their_length() {
    let index = course::index();
    assert_eq!(index.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), COURSE);
    for e in &index {
        let l = lesson(&e.id);
        assert_eq!((e.title.as_str(), e.steps), (l.title.as_str(), l.steps.len()));
        assert_eq!(e.questions, l.steps.iter().filter(|s| s.question.is_some()).count());
        assert!((5..=25).contains(&e.minutes), "{}: {} min", e.id, e.minutes);
        assert_eq!(e.length(), format!("{} steps · {} questions · {} min", e.steps, e.questions, e.minutes));
    }
    // The minutes come from the lesson: more words or another question, more minutes.
    let mut l = lesson("leases");
    let before = course::minutes(&l);
    l.steps[0].text.push_str(&" word".repeat(260));
    assert_eq!(course::minutes(&l), before + 2);
    l.steps[0].question = l.steps[1].question.clone();
    assert!(course::minutes(&l) > before + 2);
    let leases = lesson("leases");
    assert_eq!(course::entry(&leases).length().split(" · ").next(), Some(format!("{} steps", leases.steps.len()).as_str()));
}

#[test]
fn each_new_lesson_has_8_to_12_steps_and_3_questions_each_landing_on_its_moment() {
    for id in NEW {
        let l = lesson(id);
        assert!((8..=12).contains(&l.steps.len()), "{id}: {} steps", l.steps.len());
        let questions = l.steps.iter().filter(|s| s.question.is_some()).count();
        assert!(questions >= 3, "{id}: {questions} questions");
        for i in 0..l.steps.len() {
            let s = Step::new(&l, i);
            if let At::Moment(Moment::Key(kind)) = l.steps[i].at {
                let c = locate(l.steps[i].at, &s.timeline).unwrap();
                assert_eq!(s.timeline.key_moments.iter().find(|k| Some(k.event) == c.event).unwrap().kind, kind, "{id} step {i}");
            }
            let Some(q) = &l.steps[i].question else { continue };
            // A reveal plays forward from the step's moment, and the step's text does not say
            // the answer before it.
            assert!(s.reveal() > s.at(), "{id} step {i}: the reveal is not after the step's moment");
            let answer = q.choices[q.answer].to_lowercase();
            assert!(!s.text().to_lowercase().contains(&answer), "{id} step {i}: the text gives the answer away");
            assert!(!q.prompt.to_lowercase().contains(&answer), "{id} step {i}: the prompt gives the answer away");
        }
    }
}

#[test]
fn every_closing_table_is_computed_from_the_runs() {
    for id in NEW {
        let l = lesson(id);
        let tables: Vec<usize> = (0..l.steps.len()).filter(|&i| !l.steps[i].table.is_empty()).collect();
        assert_eq!(tables, vec![l.steps.len() - 1], "{id}: one table, on the last step");
        let rows = table::rows(&l, l.steps.len() - 1);
        // Each step's own check of the table's rows runs over these: none may drop out.
        assert_eq!(rows.len(), l.steps[l.steps.len() - 1].table.len(), "{id}: a row for each step the table lists");
        for row in rows {
            let s = l.steps[row.step].scenario().unwrap();
            for (fencing, cell) in [(false, row.fencing_off), (true, row.fencing_on)] {
                let v = lab::run(&lab::with_fencing(&s, fencing)).verdict;
                assert_eq!(
                    (cell.safe, cell.stale_accepted, cell.stale_rejected),
                    (v.safe, v.stale_writes_accepted, v.stale_writes_rejected)
                );
            }
            // Where there is a token to check, fencing saves what the lease alone loses.
            if row.has_token {
                assert!(row.fencing_on.safe, "{id}: step {}", row.step);
            }
        }
    }
}

#[test]
fn the_new_scenarios_are_built_ins() {
    for id in NEW {
        for step in lesson(id).steps {
            match &step.scenario {
                locklab::lesson::StepScenario::Builtin(name) => assert!(catalog::get(name).is_some(), "{name}"),
                // is-redlock-safe runs the files its figures were measured on, inline
                // (is_redlock_safe_step checks each is the file): the Jepsen-style run, whose 60 s
                // of three etcd servers animate past a built-in's story budget (tests/story.rs),
                // and the two Redlock clients of tests/scenarios/variants/, whose history
                // (src/history) cannot yet say that A's keys were set long before A counted them.
                locklab::lesson::StepScenario::Inline(s) => {
                    assert_eq!(*id, "is-redlock-safe");
                    assert!(
                        ["jepsen-etcd-pauses", "redlock-skips-elapsed-check", "redlock-checks-elapsed"].contains(&s.id.as_str()),
                        "{}",
                        s.id
                    );
                }
            }
        }
    }
}

// ---- leases ----

#[test]
fn leases_says_what_its_runs_show() {
    checks("leases", leases_step);
}

fn leases_step(s: &Step) {
    match s.i {
        0 => {
            assert_eq!((s.s().id.as_str(), s.s().lock.ttl_ms, s.client("B").acquire_at_ms), ("happy-path-redis", 10_000, 500));
            s.says(&["10 s", "0.5 s"]);
            // B is refused while A's key lives; A writes twice and releases; then B gets it.
            let b = s.node("B");
            assert!(s.notes().any(|(at, _, n)| matches!(n, Note::LockBusy { client, .. } if *client == b) && at < s.released_at("A")));
            assert_eq!(s.run.verdict.writes.iter().filter(|w| w.client == "A").count(), 2);
            assert!(s.grant("B").at_ms > s.released_at("A"));
        }
        1 => {
            assert_eq!((s.s().lock.ttl_ms, s.client("B").acquire_at_ms), (20_000, 2000));
            let crash = fault(s, "crash");
            assert_eq!((crash["node"].as_str(), crash["at_ms"].as_i64(), crash.get("restart_after_ms")), (Some("A"), Some(500), None));
            s.says(&["20 s", "0.5 s", "2 s"]);
            // The answer: B gets the lock when A's key expires, 20 s after A took it, by the reveal.
            let (a, b) = (s.grant("A").at_ms, s.grant("B").at_ms);
            assert!(b >= a + 20_000 && b <= s.reveal(), "A {a}, B {b}");
            // "at 20 s": B's grant, to the second.
            s.says(&["at 20 s"]);
            assert_eq!((b + 500) / 1000, 20, "B {b}");
            assert!(s.expiries().iter().any(|&(at, _, holder)| holder == "A" && at <= b));
        }
        2 => {
            assert_eq!((s.s().id.as_str(), s.s().lock.ttl_ms), ("redis-gc-pause", 10_000));
            assert_eq!(fault(s, "pause")["duration_ms"], 15_000);
            s.says(&["10 s", "15 s"]);
            // Lost: B got the lock when A's key expired, and A's write (accepted) came after B's.
            let expired = s.expiries()[0].0;
            assert!(s.grant("B").at_ms >= expired && s.grant("B").at_ms - expired < 400);
            assert_eq!(s.stale_writers(), vec!["A"]);
        }
        3 => {
            assert_eq!((s.s().lock.ttl_ms, fault(s, "pause")["duration_ms"].as_i64()), (20_000, Some(15_000)));
            s.says(&["15 s", "20 s"]);
            assert!(s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
            assert!(s.grant("B").at_ms > s.released_at("A"));
        }
        4 => leases_sweep(s),
        5 => {
            assert_eq!((s.s().approach, s.s().lock.ttl_ms), (Approach::Etcd, 10_000));
            s.says(&["every third", "3.8 s", "10 s"]);
            // B's keep-alive a third of a TTL after its lease opened, answered alive.
            let opened = s.first_note("etcd-1", |n| matches!(n, Note::SessionOpened { client, .. } if *client == s.node("B")));
            let (ka, ..) = s.sent().find(|(_, from, _, m)| *from == "B" && matches!(m, Msg::KeepAlive { .. })).unwrap();
            assert!((ka - opened - 10_000 / 3).abs() < 50 && (ka + 50) / 100 == 38, "{opened} {ka}");
            assert!(s
                .sent()
                .any(|(at, from, to, m)| at > ka && from == "etcd-1" && to == "B" && matches!(m, Msg::KeepAliveReply { alive: true, .. })));
            // When the keep-alives stop (a pause), the lease ends one TTL later, and a paused
            // process sends none.
            let pause = catalog::get("etcd-gc-pause").unwrap();
            let r = lab::run(&pause);
            let st = Step { lesson: s.lesson, i: s.i, timeline: Timeline::of_run(&r), run: r };
            let a = st.node("A");
            let expired = st.first_note("etcd-1", |n| matches!(n, Note::SessionExpired { client, .. } if *client == a));
            let last_heard = st.sent().filter(|(at, from, ..)| *from == "A" && *at < expired).map(|(at, ..)| at).max().unwrap();
            assert!((10_000..10_600).contains(&(expired - last_heard)), "{last_heard} → {expired}");
            assert!(!st.sent().any(|(at, from, _, m)| from == "A" && (500..15_500).contains(&at) && matches!(m, Msg::KeepAlive { .. })));
        }
        6 => {
            assert!(!s.s().lock.safe_unlock && s.s().lock.ttl_ms == 10_000);
            assert!(fault(s, "pause")["duration_ms"].as_i64().unwrap() + 500 > 10_000);
            s.says(&["plain DEL", "10 s"]);
            s.says_secs(s.grant("B").at_ms);
            // At A's waking B still works, and A's own timer ends its belief then.
            assert!(s.believes_at("B", s.at()));
            assert_eq!(s.first_note("A", |n| matches!(n, Note::BeliefEnded { reason: BeliefEnd::ValidityExpired })), s.at());
            // The answer: the DEL removes B's key.
            let (a, b) = (s.node("A"), s.node("B"));
            let deleted = s.first_note("redis", |n| matches!(n, Note::LockReleased { holder, by } if *holder == b && *by == a));
            assert_eq!(deleted, s.reveal());
        }
        7 => {
            assert_eq!(s.client("C").acquire_at_ms, 15_000);
            s.says(&["15 s"]);
            // B still has a write to make when its key is gone.
            assert!(s.run.verdict.writes.iter().any(|w| w.client == "B" && w.at_ms > s.at()));
            // The answer: C gets the lock while B still believes, by the reveal.
            let c = s.grant("C").at_ms;
            assert!(c <= s.reveal() && s.believes_at("B", c) && s.run.verdict.max_concurrent_holders == 2);
        }
        8 => {
            assert!(s.s().lock.safe_unlock);
            s.says(&["compare-and-delete"]);
            let (a, b) = (s.node("A"), s.node("B"));
            assert!(s.notes().any(|(_, _, n)| matches!(n, Note::UnlockRefused { by, holder: Some(h) } if *by == a && *h == b)));
            assert!(!s.notes().any(|(_, _, n)| matches!(n, Note::LockReleased { holder, by } if *holder == b && *by == a)));
            assert!(s.grant("C").at_ms > s.released_at("B"));
            assert_eq!(s.stale_writers(), vec!["A"], "the late write still lands");
        }
        9 => {
            let rows = table::rows(s.lesson, s.i);
            let off = |id: &str| rows.iter().find(|r| r.title == catalog::get(id).unwrap().title).unwrap();
            assert!(off("redis-holder-crash").fencing_off.safe, "a TTL frees a dead holder's lock");
            assert!(!off("redis-gc-pause").fencing_off.safe && off("redis-gc-pause").fencing_on.safe);
            assert!(!off("redis-plain-del-unlock").fencing_off.safe && off("redis-plain-del-unlock").fencing_on.safe);
        }
        i => panic!("leases step {i} has no check"),
    }
}

/// Step 4: the sweeps its text reports, run here.
fn leases_sweep(s: &Step) {
    s.says(&["1 to 20 s", "10 s TTL", "under 10 s", "over 11 s", "2 to 30 s"]);
    let base = catalog::get("redis-gc-pause").unwrap();
    for pause_s in 1..=20 {
        let r = run_with(&base, |sc| {
            let locklab::scenario::FaultSpec::Pause(p) = &mut sc.faults[0] else { panic!("a pause") };
            p.duration_ms = pause_s * 1000;
            sc.duration_ms = 500 + pause_s * 1000 + 5000;
        });
        if pause_s < 10 {
            assert!(r.verdict.safe, "a {pause_s} s pause lost an update");
        }
        if pause_s > 11 {
            assert!(!r.verdict.safe, "a {pause_s} s pause lost nothing");
        }
    }
    let crash = catalog::get("redis-holder-crash").unwrap();
    for ttl_s in [2, 5, 10, 20, 30] {
        let r = run_with(&crash, |sc| {
            sc.lock.ttl_ms = ttl_s * 1000;
            sc.duration_ms = ttl_s * 1000 + 5000;
        });
        let at = |c: &str| r.verdict.grants.iter().find(|g| g.client == c).unwrap().at_ms;
        let waited = at("B") - at("A");
        assert!((ttl_s * 1000..ttl_s * 1000 + 400).contains(&waited), "TTL {ttl_s} s: B waited {waited} ms");
    }
}

// ---- redlock ----

#[test]
fn redlock_says_what_its_runs_show() {
    checks("redlock", redlock_step);
}

fn redlock_step(s: &Step) {
    let quorum = |s: &Step| locklab::scenario::validate::quorum(s.s()) as usize;
    match s.i {
        0 => {
            assert_eq!((s.s().approach, s.s().lock.servers, quorum(s)), (Approach::Redlock, Some(5), 3));
            s.says(&["five", "NX PX 10000"]);
            // The answer: the reveal lands where A goes ahead (its belief starts, the caption
            // saying "a majority"), its key set on at least three.
            let believed = s.first_note("A", |n| matches!(n, Note::BeliefStarted { .. }));
            assert_eq!(believed, s.reveal());
            assert!(s.committed_on("A", s.reveal()).len() >= quorum(s));
            let jump = Step::new(s.lesson, 5);
            let a = jump.first_note("A", |n| matches!(n, Note::BeliefStarted { .. }));
            assert_eq!(jump.committed_on("A", a).len(), 3, "three are enough: A goes ahead without redis-4 and redis-5");
        }
        1 => {
            assert!(2 * quorum(s) > 5 && s.s().lock.drift_factor == 0.01);
            let started = s.first_note("A", |n| matches!(n, Note::AcquireStarted { .. }));
            let (believed, _, note) = s.notes().find(|(_, n, note)| *n == "A" && matches!(note, Note::BeliefStarted { .. })).unwrap();
            let Note::BeliefStarted { validity_ms: Some(v), .. } = note else { panic!("validity") };
            let elapsed = believed - started;
            assert_eq!(*v, 10_000 - elapsed - (10_000 / 100 + 2));
            assert!(s.at() >= believed);
            s.says(&[&format!("{elapsed} ms"), "102 ms", &format!("{}.{:03} s", v / 1000, v % 1000)]);
        }
        2 => {
            assert!(s.s().clients.len() == 3 && s.s().clients.iter().all(|c| c.acquire_at_ms == 0));
            for c in ["A", "B", "C"] {
                assert!(s.committed_on(c, s.reveal()).len() < 3, "{c} got three");
                // Each unlocks all five and retries after a delay of its own.
                let releases =
                    s.sent().filter(|(at, from, _, m)| *from == c && *at <= s.reveal() && matches!(m, Msg::Release { .. })).count();
                assert_eq!(releases, 5, "{c}");
                assert!(s.notes().any(|(at, n, note)| n == c
                    && at <= s.reveal()
                    && matches!(note, Note::AcquireFailed { reason: AcquireFailure::NoQuorum { .. }, .. })));
            }
            let delays: Vec<i64> = s
                .notes()
                .filter_map(|(_, _, n)| if let Note::AcquireFailed { retry_in_ms, .. } = n { Some(*retry_in_ms) } else { None })
                .take(3)
                .collect();
            assert!(delays[0] != delays[1] && delays[1] != delays[2]);
            assert!(s.run.verdict.grants.iter().all(|g| g.at_ms > s.reveal()) && s.run.verdict.max_concurrent_holders == 1);
        }
        3 | 6 => {
            assert_eq!(
                (s.s().id.as_str(), s.s().lock.ttl_ms, fault(s, "pause")["duration_ms"].as_i64()),
                ("redlock-gc-pause", 10_000, Some(15_000))
            );
            if s.i == 3 {
                s.says(&["15 s", "10 s"]);
            }
            // Step 7 asks before A's grant (its lease would read "A · no token", the answer):
            // A holds all five when its pause starts.
            let paused = fault(s, "pause")["at_ms"].as_i64().unwrap();
            assert_eq!(s.committed_on("A", paused).len(), 5, "A holds all five");
            // The answer: B gets a majority, and A's late write is accepted after B's.
            assert!(s.committed_on("B", s.reveal()).len() >= 3);
            assert_eq!(s.stale_writers(), vec!["A"]);
            if s.i == 6 {
                // With fencing on: no token anywhere to compare.
                assert!(s.s().storage.fencing && s.run.verdict.grants.iter().all(|g| g.token.is_none()) && !s.run.verdict.safe);
            }
        }
        4 => {
            assert_eq!(s.fault_kinds(), vec!["delay"], "no pause, no clock");
            assert_eq!((fault(s, "delay")["by_ms"].as_i64(), fault(s, "delay")["to"].as_str()), (Some(14_000), Some("storage")));
            s.says(&["14 s"]);
            let timed_out = s.first_note("A", |n| matches!(n, Note::WriteTimedOut { .. }));
            assert!(timed_out <= s.released_at("A") && s.released_at("A") < s.grant("B").at_ms);
            assert_eq!(s.stale_writers(), vec!["A"]);
        }
        5 => {
            let drops: Vec<_> =
                s.faults().into_iter().filter(|f| f["kind"] == "drop").map(|f| f["to"].as_str().unwrap().to_string()).collect();
            assert_eq!(drops, vec!["redis-4", "redis-5"]);
            // The text names the set; the order the OKs came in is the latencies' draw.
            let mut held = s.committed_on("A", s.at());
            held.sort_unstable();
            assert_eq!(held, vec!["redis-1", "redis-2", "redis-3"]);
            let jump = fault(s, "clock_jump");
            assert_eq!((jump["node"].as_str(), jump["by_ms"].as_i64(), s.client("B").acquire_at_ms), (Some("redis-3"), Some(10_000), 2000));
            s.says(&["10 s", "2 s"]);
            // The answer: redis-3 expired A's key at the jump; B gets 3, 4 and 5 while A believes.
            assert!(s.expiries().contains(&(1500, "redis-3", "A")));
            let mut b = s.committed_on("B", s.reveal());
            b.sort();
            assert_eq!(b, vec!["redis-3", "redis-4", "redis-5"]);
            assert!(s.believes_at("A", s.reveal()) && s.has_moment(KeyKind::Takeover));
        }
        7 => {
            assert_eq!((s.s().approach, fault(s, "pause")["duration_ms"].as_i64()), (Approach::Redis, Some(15_000)));
            assert_eq!(s.stale_writers(), vec!["A"]);
        }
        8 => {
            let fast: Vec<_> = s.faults().iter().filter(|f| f["ppm"] == 500_000).map(|f| f["node"].as_str().unwrap().to_string()).collect();
            assert_eq!(fast, vec!["redis-1", "redis-2", "redis-3"]);
            s.says(&["50% fast", "6.7 s", "1%"]);
            let early: Vec<i64> = s.expiries().iter().filter(|e| e.2 == "A").map(|e| e.0).collect();
            assert!(early.len() >= 3 && early.iter().all(|&t| (t + 50) / 100 == 67), "{early:?}");
            assert!(s.believes_at("A", s.grant("B").at_ms) && s.run.verdict.max_concurrent_holders == 2);
        }
        9 => {
            assert!(s.faults().iter().filter(|f| f["ppm"] == 10_000).count() == 3 && s.client("A").work_ms == 9800);
            s.says(&["1% fast", "9.8 s", "9.89 s"]);
            let Some(Note::BeliefStarted { validity_ms: Some(v), .. }) =
                s.notes().find(|(_, n, note)| *n == "A" && matches!(note, Note::BeliefStarted { .. })).map(|x| x.2)
            else {
                panic!()
            };
            assert_eq!((v + 5) / 10, 989);
            assert!(s.grant("B").at_ms > s.released_at("A") && s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
        }
        10 => {
            for r in table::rows(s.lesson, s.i) {
                let redlock = r.approach == Approach::Redlock;
                assert_eq!(r.has_token, !redlock);
                if redlock && !r.fencing_off.safe {
                    assert!(!r.fencing_on.safe, "no token to refuse the late write");
                }
            }
            let rows = table::rows(s.lesson, s.i);
            assert!(rows.iter().any(|r| r.approach == Approach::Redis && !r.fencing_off.safe), "a single Redis has the same pause problem");
            assert!(
                rows.iter().any(|r| r.approach == Approach::Redlock && r.fencing_off.safe),
                "inside its clock bounds Redlock keeps one holder"
            );
        }
        i => panic!("redlock step {i} has no check"),
    }
}

// ---- consensus-locks ----

#[test]
fn consensus_locks_says_what_its_runs_show() {
    checks("consensus-locks", consensus_step);
}

fn watch_fired_to<'a>(s: &'a Step, from: i64, to: i64) -> Vec<&'a str> {
    s.sent().filter(|(at, _, _, m)| (from..=to).contains(at) && matches!(m, Msg::WatchFired { .. })).map(|(_, _, to, _)| to).collect()
}

fn consensus_step(s: &Step) {
    match s.i {
        0 => {
            assert_eq!(s.s().approach, Approach::Zookeeper);
            assert!(s.grant("B").token > s.grant("A").token);
        }
        1 => {
            // At the step's moment A holds, and B and C each watch the node just below.
            assert!(s.believes_at("A", s.at()));
            let tokens: Vec<u64> = ["A", "B", "C"]
                .iter()
                .map(|c| {
                    let id = s.node(c);
                    s.notes()
                        .find_map(|(_, _, n)| match n {
                            Note::LockQueued { client, token } if *client == id => Some(*token),
                            _ => None,
                        })
                        .unwrap()
                })
                .collect();
            for (w, c) in ["B", "C"].iter().enumerate() {
                let watched = s.sent().find_map(|(at, from, _, m)| match m {
                    Msg::WatchNode { token, .. } if from == *c && at < s.at() => Some(*token),
                    _ => None,
                });
                assert_eq!(watched, Some(tokens[w]), "{c} watches the node below its own");
            }
            // The answer: one watch fires, to B, which then holds the lock.
            assert_eq!(s.s().clients.len(), 3);
            s.says(&["Three clients", "Both"]);
            assert_eq!(watch_fired_to(s, s.at(), s.reveal()), vec!["B"]);
            assert!(s.grant("B").at_ms <= s.reveal());
        }
        2 => {
            s.says(&["Two releases, two watch events"]);
            assert_eq!(watch_fired_to(s, 0, s.s().duration_ms), vec!["B", "C"]);
            let order: Vec<&str> = s.run.verdict.grants.iter().map(|g| g.client.as_str()).collect();
            assert_eq!(order, vec!["A", "B", "C"]);
        }
        3 | 4 => {
            assert_eq!((s.s().id.as_str(), s.run.verdict.granted_ttl_ms), ("zookeeper-session-expiry", Some(6000)));
            assert_eq!(fault(s, "pause")["duration_ms"], 15_000);
            if s.i == 3 {
                s.says(&["6 s", "15 s"]);
            }
            let a = s.node("A");
            let expired = s.notes().find(|(_, _, n)| matches!(n, Note::SessionExpired { client, .. } if *client == a)).unwrap().0;
            assert!(expired <= s.grant("B").at_ms && s.grant("B").token > s.grant("A").token);
            if s.i == 3 {
                assert_eq!(s.stale_writers(), vec!["A"]);
            } else {
                let w = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
                assert!(!w.accepted && s.run.verdict.safe);
            }
        }
        5 => {
            assert_eq!(s.s().approach, Approach::Etcd);
            for c in ["A", "B"] {
                let id = s.node(c);
                let lease = s.first_note("etcd-1", |n| matches!(n, Note::SessionOpened { client, .. } if *client == id));
                assert!(lease < s.grant(c).at_ms);
            }
            assert_eq!((s.grant("A").token, s.grant("B").token), (Some(2), Some(3)));
            assert!(s.sent().any(|(_, from, _, m)| from == "A" && matches!(m, Msg::CreateLockNode { .. })));
        }
        6 => {
            let pause = fault(s, "pause");
            assert_eq!(
                (s.run.verdict.granted_ttl_ms, pause["node"].as_str(), pause["duration_ms"].as_i64()),
                (Some(4000), Some("B"), Some(10_000))
            );
            s.says(&["4 s", "10 s"]);
            let b = s.node("B");
            let expired = s.first_note("etcd-1", |n| matches!(n, Note::SessionExpired { client, .. } if *client == b));
            assert!(expired <= s.grant("C").at_ms && s.grant("C").at_ms < s.at());
            assert!(watch_fired_to(s, 1500, s.at()).contains(&"B"), "the watch fired while B slept");
            // The answer: B lists again, finds its key gone and starts over; it does not believe.
            let gone = s
                .sent()
                .any(|(at, _, to, m)| to == "B" && (s.at()..=s.reveal()).contains(&at) && matches!(m, Msg::ListReply { mine: None, .. }));
            assert!(gone && !s.beliefs("B").iter().any(|&(from, _)| from <= s.reveal()));
            assert!(s.notes().any(|(at, n, note)| n == "B"
                && (s.at()..=s.reveal()).contains(&at)
                && matches!(note, Note::AcquireFailed { reason: AcquireFailure::SessionExpired, .. })));
            assert_eq!(s.run.verdict.max_concurrent_holders, 1);
        }
        7 | 8 => {
            assert_eq!((s.s().id.as_str(), s.s().lock.ttl_ms), ("etcd-gc-pause", 10_000));
            assert_eq!(s.s().approach.spec().expiry_clock, ClockKind::Mono);
            if s.i == 7 {
                s.says(&["10 s", "15 s", "monotonic"]);
                assert_eq!(s.stale_writers(), vec!["A"]);
            } else {
                let a = s.node("A");
                let expired = s.first_note("etcd-1", |n| matches!(n, Note::SessionExpired { client, .. } if *client == a));
                assert!(expired <= s.grant("B").at_ms && s.grants("B").len() == 1);
                assert_eq!((s.grant("A").token, s.grant("B").token), (Some(2), Some(3)));
                assert!(s.run.verdict.max_concurrent_holders == 2 && s.run.verdict.safe && s.run.verdict.stale_writes_rejected == 1);
                s.says(&["revision 2 to 3", "revision 2"]);
            }
        }
        9 => {
            for r in table::rows(s.lesson, s.i) {
                assert!(r.has_token && r.fencing_on.safe, "step {}", r.step);
            }
        }
        i => panic!("consensus-locks step {i} has no check"),
    }
}

// ---- clocks ----

#[test]
fn clocks_says_what_its_runs_show() {
    checks("clocks", clocks_step);
}

fn clocks_step(s: &Step) {
    match s.i {
        0 => assert!(s.faults().is_empty(), "every clock agrees with true time"),
        1 | 2 => {
            let jump = fault(s, "clock_jump");
            assert_eq!(
                (jump["node"].as_str(), jump["by_ms"].as_i64(), jump["at_ms"].as_i64(), s.s().lock.ttl_ms),
                (Some("redis"), Some(15_000), Some(1000), 10_000)
            );
            assert_eq!(s.s().approach.spec().expiry_clock, ClockKind::Wall);
            if s.i == 1 {
                s.says(&["10 s", "15 s", "1 s"]);
                // The answer: A's key expires at the very moment of the clock step (asked before
                // it, at A's grant: at the step the caption says so); the reveal plays on to B's
                // grant, which shows it.
                assert!(s.at() < 1000 && s.expiries().contains(&(1000, "redis", "A")));
                assert!(s.reveal() == s.grant("B").at_ms && s.believes_at("A", s.reveal()));
            } else {
                s.says(&["2 s", "8 more seconds", "4 s"]);
                let b = s.grant("B").at_ms;
                assert!((2000..2100).contains(&b) && s.believes_at("A", b));
                let Some(Note::BeliefStarted { validity_ms: Some(v), .. }) =
                    s.notes().find(|(_, n, note)| *n == "A" && matches!(note, Note::BeliefStarted { .. })).map(|x| x.2)
                else {
                    panic!()
                };
                assert_eq!((s.grant("A").at_ms + v - b + 500) / 1000, 8);
                let w = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
                assert!(w.stale && (w.at_ms + 500) / 1000 == 4);
            }
        }
        3 => {
            let jump = fault(s, "clock_jump");
            assert_eq!((jump["node"].as_str(), jump["by_ms"].as_i64()), (Some("etcd-1"), Some(15_000)));
            // etcd-1 leads throughout.
            assert!(s.notes().all(|(_, node, n)| !matches!(n, Note::LeaderElected { .. }) || node == "etcd-1"));
            // The answer: no lease expires; B gets the lock after A releases.
            assert!(!s.notes().any(|(_, _, n)| matches!(n, Note::SessionExpired { .. })));
            assert!(s.grant("B").at_ms > s.released_at("A") && s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
        }
        4 => {
            use Approach::*;
            for (a, clock) in [
                (DbLease, ClockKind::Wall),
                (Redis, ClockKind::Wall),
                (Redlock, ClockKind::Wall),
                (Zookeeper, ClockKind::Mono),
                (Etcd, ClockKind::Mono),
            ] {
                assert_eq!(a.spec().expiry_clock, clock, "{a:?}");
            }
            // A Redlock client's validity is on its monotonic clock: a step of its wall clock
            // changes nothing.
            let base = catalog::get("happy-path-redlock").unwrap();
            let mut json = serde_json::to_value(&base).unwrap();
            json["faults"] = serde_json::json!([{"at_ms": 100, "kind": "clock_jump", "node": "A", "by_ms": 60000}]);
            let stepped = lab::run(&locklab::scenario::validate::parse(&json.to_string()).unwrap());
            let plain = lab::run(&base);
            let grants = |r: &Run| r.verdict.grants.iter().map(|g| (g.client.clone(), g.at_ms)).collect::<Vec<_>>();
            assert_eq!(grants(&stepped), grants(&plain));
            assert_eq!(
                stepped.verdict.writes.iter().map(|w| w.at_ms).collect::<Vec<_>>(),
                plain.verdict.writes.iter().map(|w| w.at_ms).collect::<Vec<_>>()
            );
        }
        5 => {
            assert_eq!((fault(s, "clock_drift")["node"].as_str(), fault(s, "clock_drift")["ppm"].as_i64()), (Some("redis"), Some(500_000)));
            assert_eq!((s.s().lock.ttl_ms, s.client("A").work_ms), (10_000, 8000));
            s.says(&["50% fast", "10 s", "8 s"]);
            assert!(s.grant("B").at_ms < 8000 && s.stale_writers() == vec!["A"]);
        }
        6 => {
            assert_eq!(s.faults().iter().filter(|f| f["ppm"] == 500_000).count(), 3);
            assert_eq!(s.s().lock.drift_factor, 0.01);
            s.says(&["1%", "50% fast"]);
            assert!(s.has_moment(KeyKind::Takeover) && s.run.verdict.max_concurrent_holders == 2);
            assert!(s.committed_on("B", s.reveal()).len() >= 3 && s.believes_at("A", s.reveal()));
        }
        7 => {
            assert!(s.faults().iter().filter(|f| f["ppm"] == 10_000).count() == 3 && s.client("A").work_ms == 9800);
            s.says(&["1% fast", "9.8 s", "9.89 s"]);
            let w = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
            assert!((w.at_ms + 50) / 100 == 98 && s.grant("B").at_ms > s.released_at("A") && s.run.verdict.safe);
        }
        8 => {
            for r in table::rows(s.lesson, s.i) {
                assert_eq!(r.fencing_on.safe, r.has_token, "step {}: the token is timed on no clock", r.step);
            }
        }
        i => panic!("clocks step {i} has no check"),
    }
}

// ---- is-redlock-safe (issue 37, item 7) ----

#[test]
fn is_redlock_safe_says_what_its_runs_show() {
    checks("is-redlock-safe", is_redlock_safe_step);
}

/// A Redlock client's `check_elapsed`, as the scenario sets it (absent: the default, true).
fn checks_elapsed(s: &Step) -> bool {
    serde_json::to_value(s.s()).unwrap()["lock"]["check_elapsed"].as_bool().unwrap_or(true)
}

fn is_redlock_safe_step(s: &Step) {
    match s.i {
        0 => {
            // The sources, cited on the slide.
            s.says(&["Kleppmann", "antirez", "Jepsen-style etcd"]);
            let list = &s.lesson.steps[0].blocks.list;
            for source in [
                "Kleppmann, \"How to do distributed locking\" (2016)",
                "antirez, \"Is Redlock safe?\" (2016)",
                "Jepsen, \"etcd 3.4.3\" (2020)",
            ] {
                assert!(list.iter().any(|item| item == source), "{source}");
            }
        }
        1 | 2 => {
            // The same pause before the count; only the elapsed-time check differs.
            assert_eq!((s.s().lock.ttl_ms, fault(s, "pause")["duration_ms"].as_i64()), (10_000, Some(15_000)));
            assert!(fault(s, "pause")["at_ms"].as_i64().unwrap() < s.grant("A").at_ms.min(s.grant("B").at_ms));
            s.says(&["15 s", "10 s", "five"]);
            assert_eq!(checks_elapsed(s), s.i == 2);
            let file = ["redlock-skips-elapsed-check", "redlock-checks-elapsed"][s.i - 1];
            let text = std::fs::read_to_string(format!("tests/scenarios/variants/{file}.json")).unwrap();
            assert_eq!(s.s(), &locklab::scenario::parse(&text).unwrap(), "step {}: the variant's own file", s.i);
            if s.i == 1 {
                // The answer: A believes with its expired keys and writes after B.
                assert_eq!(s.stale_writers(), vec!["A"]);
                assert!(s.grant("A").at_ms < s.grant("B").at_ms);
            } else {
                // The answer: A unlocks all five and gets the lock only after B.
                let releases =
                    s.sent().filter(|(at, from, _, m)| *from == "A" && *at <= s.reveal() && matches!(m, Msg::Release { .. })).count();
                assert!(releases >= 5, "{releases}");
                assert!(s.grant("A").at_ms > s.released_at("B") && s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
            }
        }
        3 => {
            assert_eq!(s.s().id, "redlock-clock-jump");
            let jump = fault(s, "clock_jump");
            assert_eq!((jump["node"].as_str(), jump["by_ms"].as_i64()), (Some("redis-3"), Some(10_000)));
            let mut a = s.committed_on("A", s.at());
            a.sort_unstable();
            assert_eq!(a, vec!["redis-1", "redis-2", "redis-3"]);
            let mut b = s.committed_on("B", s.at());
            b.sort_unstable();
            assert_eq!(b, vec!["redis-3", "redis-4", "redis-5"]);
            assert!(s.believes_at("A", s.at()) && s.believes_at("B", s.at()));
            // A's key on redis-3 expired early, after the jump and before B asked.
            assert!(s.expiries().iter().any(|&(at, node, holder)| (node, holder) == ("redis-3", "A") && at < s.grant("B").at_ms));
        }
        4 => {
            assert_eq!(s.s().id, "redlock-bounded-drift");
            assert!(s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
        }
        5 => {
            assert_eq!(s.s().id, "redlock-gc-pause");
            assert!(checks_elapsed(s));
            // The check passed before the pause: A believed when it paused.
            let paused = fault(s, "pause")["at_ms"].as_i64().unwrap();
            assert!(s.believes_at("A", paused) && s.grant("A").at_ms < paused);
            assert_eq!(fault(s, "pause")["duration_ms"].as_i64(), Some(15_000));
            s.says(&["15 s"]);
            assert!(s.s().storage.fencing && s.run.verdict.grants.iter().all(|g| g.token.is_none()));
            assert_eq!(s.stale_writers(), vec!["A"]);
        }
        6 | 7 => {
            let sc = serde_json::to_value(s.s()).unwrap();
            assert_eq!((s.s().approach, s.s().lock.ttl_ms, s.s().clients.len()), (Approach::Etcd, 2_000, 3));
            let schedule = &sc["schedules"][0];
            assert_eq!((schedule["kind"].as_str(), schedule["every_ms"].as_i64()), (Some("pause"), Some(5_000)));
            let d = &schedule["duration_ms"];
            assert_eq!((d["min"].as_i64(), d["max"].as_i64()), (Some(1_000), Some(5_000)));
            if s.i == 6 {
                s.says(&["2 s", "every 5 s", "1 to 5 s", "60 s", "three"]);
                assert!(!s.stale_writers().is_empty());
            }
            if s.i == 7 {
                // This seed: A's lease expires while A is paused, C is granted, and A's write lands after C's.
                assert_eq!(s.stale_writers(), vec!["A"]);
                let expired = s.expiries().into_iter().find(|&(_, _, holder)| holder == "A").unwrap().0;
                let a = s.node("A");
                assert!(
                    s.run.trace.events.iter().any(|e| e.node == a
                        && e.at_ms < expired
                        && matches!(e.kind, locklab::sim::EventKind::Paused { until_ms } if until_ms > expired)),
                    "A is paused when its lease expires"
                );
                assert!(s.grant("C").at_ms >= expired && s.at() > s.grant("C").at_ms);
                // The rate is the one measured for tests/scenarios/jepsen-etcd-pauses.json over
                // seeds 1 to 1,000: the built-in is that scenario with another seed shown.
                let measured: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string("docs/measured/rates.json").unwrap()).unwrap();
                let figure = |k: &str, f: &str| measured["figures"][k]["lost_updates"][f].clone();
                assert_eq!(measured["figures"]["jepsen"]["runs"].as_i64(), Some(1000));
                s.says(&[
                    &format!("{}%", figure("jepsen", "percent")),
                    &format!("{}–{}%", figure("jepsen", "low"), figure("jepsen", "high")),
                    &format!("{} of 1,000", figure("jepsen_fencing_on", "hits")),
                    "seeds 1 to 1,000",
                ]);
                let file: locklab::scenario::Scenario =
                    locklab::scenario::parse(&std::fs::read_to_string("tests/scenarios/jepsen-etcd-pauses.json").unwrap()).unwrap();
                let strip = |mut v: serde_json::Value| {
                    for k in ["id", "title", "intro", "seed", "expect"] {
                        v.as_object_mut().unwrap().remove(k);
                    }
                    v
                };
                assert_eq!(strip(serde_json::to_value(&file).unwrap()), strip(sc.clone()), "the built-in is the measured scenario");
                assert_eq!(file.seed, 1);
            }
        }
        8 => {
            // The closing table: the Redlock rows lose the update with fencing on too (no
            // token), except the elapsed-check's; the etcd row is saved by its revision.
            let rows = table::rows(s.lesson, s.i);
            let verdict =
                |step: usize, fencing: bool| lab::run(&lab::with_fencing(&s.lesson.steps[step].scenario().unwrap(), fencing)).verdict.safe;
            assert_eq!(rows.iter().map(|r| r.step).collect::<Vec<_>>(), vec![1, 2, 3, 5, 7]);
            assert_eq!(
                [1, 2, 3, 5, 7].map(|i| (verdict(i, false), verdict(i, true))),
                [(false, false), (true, true), (false, false), (false, false), (false, true)]
            );
            s.says(&["elapsed-time check", "no token", "revision"]);
        }
        i => panic!("is-redlock-safe step {i} has no check"),
    }
}
