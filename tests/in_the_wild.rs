//! The second course's lesson, `in-the-wild` (issue 24, item 5): what its steps say, checked
//! against their runs the way tests/course.rs checks the first course's. Every question's
//! answer holds by its reveal and its other choices do not; every number a step says is the
//! run's; the closing table has a row for each of the nine approaches, computed from the runs.
//! A step without a check fails (`checks`), so a new step cannot slip in unchecked.

mod common;
use common::lessons::*;
use locklab::lab;
use locklab::lesson::{course, locate, table, At, Moment, StepScenario};
use locklab::protocols::{BeliefEnd, Msg, Note};
use locklab::scenario::{catalog, Approach, FaultSpec};
use locklab::sim::ClockKind;

const ID: &str = "in-the-wild";

#[test]
fn it_opens_the_second_course_before_the_redlock_debate() {
    // The second course: in-the-wild, then is-redlock-safe (issue 37), the course's last.
    let index = course::index();
    let ids: Vec<&str> = index.iter().rev().take(2).map(|e| e.id.as_str()).collect();
    assert_eq!(ids, vec!["is-redlock-safe", ID]);
    let e = &index[index.len() - 2];
    let l = lesson(ID);
    let questions = l.steps.iter().filter(|s| s.question.is_some()).count();
    assert_eq!(e.length(), format!("{} steps · {questions} questions · {} min", l.steps.len(), e.minutes));
    assert!((5..=25).contains(&e.minutes), "{} min", e.minutes);
}

#[test]
fn it_has_8_to_12_steps_and_3_questions_each_landing_on_its_moment() {
    let l = lesson(ID);
    assert!((8..=12).contains(&l.steps.len()), "{} steps", l.steps.len());
    assert!(l.steps.iter().filter(|s| s.question.is_some()).count() >= 3);
    for i in 0..l.steps.len() {
        let s = Step::new(&l, i);
        if let At::Moment(Moment::Key(kind)) = l.steps[i].at {
            let c = locate(l.steps[i].at, &s.timeline).unwrap();
            assert_eq!(s.timeline.key_moments.iter().find(|k| Some(k.event) == c.event).unwrap().kind, kind, "step {i}");
        }
        let StepScenario::Builtin(name) = &l.steps[i].scenario else { panic!("step {i}: an inline scenario") };
        assert!(catalog::get(name).is_some(), "{name}");
        let Some(q) = &l.steps[i].question else { continue };
        assert!(s.reveal() > s.at(), "step {i}: the reveal is not after the step's moment");
        let answer = q.choices[q.answer].to_lowercase();
        assert!(!s.text().to_lowercase().contains(&answer), "step {i}: the text gives the answer away");
        assert!(!q.prompt.to_lowercase().contains(&answer), "step {i}: the prompt gives the answer away");
    }
    // It opens with the outage.
    assert!(matches!(&l.steps[0].scenario, StepScenario::Builtin(n) if n == "aws-dynamodb-dns-2025"));
}

#[test]
fn in_the_wild_says_what_its_runs_show() {
    checks(ID, step);
}

/// How a step's text writes a count at the start of a sentence.
fn number_word(n: usize) -> &'static str {
    const WORDS: [&str; 13] = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"];
    WORDS.get(n).unwrap_or_else(|| panic!("{n}: no word for it here"))
}

/// The pause of `node` (its duration, ms), the `n`th (from 0) if it pauses more than once.
fn pause(s: &Step, node: &str, n: usize) -> i64 {
    let p: Vec<_> = s.faults().into_iter().filter(|f| f["kind"] == "pause" && f["node"] == node).collect();
    p[n]["duration_ms"].as_i64().unwrap()
}

fn step(s: &Step) {
    match s.i {
        0 => {
            assert_eq!(
                (s.s().id.as_str(), s.s().approach, s.s().storage.fencing),
                ("aws-dynamodb-dns-2025", Approach::ConditionalWrite, false)
            );
            s.says(&["two newer plans"]);
            assert!(s.s().title.contains("October 2025"));
            // Enactor1 reads (its check) first, then is delayed; Enactor2 applies two plans meanwhile.
            let read = |c: &str| {
                let id = s.node(c);
                s.notes().find_map(|(at, _, n)| matches!(n, Note::VersionRead { client, .. } if *client == id).then_some(at)).unwrap()
            };
            assert!(read("Enactor1") < read("Enactor2"));
            assert!(s.notes().any(|(_, _, n)| matches!(n, Note::VersionRead { version: 1, client, .. } if *client == s.node("Enactor1"))));
            let pause_at = fault(s, "pause")["at_ms"].as_i64().unwrap();
            assert!(read("Enactor1") < pause_at && fault(s, "pause")["node"] == "Enactor1");
            let e1 = s.run.verdict.writes.iter().find(|w| w.client == "Enactor1").unwrap().at_ms;
            let e2: Vec<_> = s.run.verdict.writes.iter().filter(|w| w.client == "Enactor2" && w.accepted && w.at_ms < e1).collect();
            assert_eq!(e2.len(), 2);
            // The answer: the older plan lands over the newer ones, at the reveal.
            assert_eq!(s.stale_writers(), vec!["Enactor1"]);
            assert_eq!(s.reveal(), e1);
            assert!(!s.run.verdict.safe);
        }
        1 => {
            assert_eq!((s.s().approach, s.s().lock.ttl_ms, pause(s, "A", 0)), (Approach::DbLease, 10_000, 15_000));
            s.says(&["10 s", "15 s"]);
            let expired = s.expiries()[0];
            assert_eq!(expired.2, "A");
            assert!(s.grant("B").at_ms >= expired.0 && s.believes_at("A", s.grant("B").at_ms));
            assert_eq!(s.stale_writers(), vec!["A"]);
            let b = s.run.verdict.writes.iter().find(|w| w.client == "B").unwrap().at_ms;
            assert!(b < s.at(), "A's write lands after B's");
        }
        2 => {
            assert_eq!((s.s().id.as_str(), s.s().storage.fencing), ("aws-dynamodb-dns-2025", true));
            s.says(&["still version 1", "version 3", "412", "If-Match"]);
            let w = s.run.verdict.writes.iter().find(|w| w.client == "Enactor1").unwrap();
            assert!(!w.accepted && w.token == Some(1) && w.at_ms == s.at());
            let e = s
                .run
                .trace
                .events
                .iter()
                .find(|e| e.at_ms == s.at() && matches!(e.kind, locklab::sim::EventKind::Sent { .. }) && s.name(e.node) == "storage");
            assert!(e.is_some_and(|e| matches!(&e.kind, locklab::sim::EventKind::Sent { msg, .. } if locklab::protocols::words::message_label(Approach::ConditionalWrite, msg).starts_with("412"))));
            // Enactor1 reads again and finds version 3.
            let e1 = s.node("Enactor1");
            let again = s
                .notes()
                .find_map(|(at, _, n)| matches!(n, Note::VersionRead { client, version, .. } if *client == e1 && at > s.at()).then_some(n));
            assert!(matches!(again, Some(Note::VersionRead { version: 3, .. })));
            assert!(s.run.verdict.safe && s.run.verdict.stale_writes_rejected == 1);
            // No lock service: storage is the only server.
            assert!(s.s().approach.spec().default_servers.is_none() && s.run.verdict.grants.iter().all(|g| g.token.is_some()));
        }
        3 => {
            assert_eq!((s.s().approach, s.s().lock.ttl_ms, pause(s, "A", 0)), (Approach::K8sLease, 15_000, 20_000));
            assert!(s.s().storage.fencing);
            s.says(&["20 s", "15 s", "leaseTransitions 0 to 1", "A's 0"]);
            assert_eq!((s.grant("A").token, s.grant("B").token), (Some(0), Some(1)));
            assert!(s.grant("B").at_ms - s.grant("A").at_ms >= 15_000);
            let w = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
            assert!(!w.accepted && w.token == Some(0) && w.at_ms == s.at() && s.run.verdict.safe);
            // Fencing off, the same run loses B's update: the Lease alone does not stop A.
            let off = lab::run(&lab::with_fencing(s.s(), false));
            assert!(!off.verdict.safe && off.verdict.max_concurrent_holders == 2);
        }
        4 => {
            let jump = fault(s, "clock_jump");
            assert_eq!(
                (jump["node"].as_str(), jump["by_ms"].as_i64(), jump["at_ms"].as_i64()),
                (Some("redis-3"), Some(10_000), Some(1500))
            );
            assert_eq!(s.s().approach.spec().expiry_clock, ClockKind::Wall);
            s.says(&["1.5 s", "redis-3", "10 s"]);
            assert!(s.expiries().contains(&(s.at(), "redis-3", "A")));
            let mut b = s.committed_on("B", s.s().duration_ms);
            b.sort();
            assert_eq!(b, vec!["redis-3", "redis-4", "redis-5"]);
            assert!(s.believes_at("A", s.grant("B").at_ms));
        }
        5 => {
            let jump = fault(s, "clock_jump");
            assert_eq!((jump["node"].as_str(), jump["by_ms"].as_i64()), (Some("etcd-1"), Some(15_000)));
            s.says(&["15 s", "monotonic"]);
            for a in [Approach::Etcd, Approach::K8sLease] {
                assert_eq!(a.spec().expiry_clock, ClockKind::Mono, "{a:?}");
            }
            assert!(!s.notes().any(|(_, _, n)| matches!(n, Note::SessionExpired { .. })));
            assert!(s.run.verdict.safe && s.run.verdict.max_concurrent_holders == 1);
            // A Kubernetes candidate's clock set 60 s ahead, while the leader is cut off (step 6's
            // run with an offset in place of the rate): B still waits until A has stopped leading.
            let offset = run_with(&catalog::get("k8s-lease-fast-clock").unwrap(), |sc| {
                let jump = serde_json::json!({"at_ms": 1000, "kind": "clock_jump", "node": "B", "by_ms": 60000});
                sc.faults.retain(|f| !matches!(f, FaultSpec::ClockDrift(_)));
                sc.faults.push(serde_json::from_value(jump).unwrap());
            });
            assert!(offset.verdict.safe && offset.verdict.max_concurrent_holders == 1);
            assert!(offset.verdict.grants.iter().any(|g| g.client == "B"), "B does take over, after A stops");
        }
        6 => {
            let drift = fault(s, "clock_drift");
            assert_eq!((drift["node"].as_str(), drift["ppm"].as_i64()), (Some("B"), Some(250_000)));
            let drop = fault(s, "drop");
            assert_eq!((drop["from"].as_str(), drop["to"].as_str(), drop["at_ms"].as_i64()), (Some("A"), Some("apiserver"), Some(3000)));
            assert!(!s.fault_kinds().contains(&"pause".to_string()));
            s.says(&["3 s", "25% fast", "15 s", "12 s of true time"]);
            assert_eq!(s.s().lock.ttl_ms * 1_000_000 / (1_000_000 + 250_000), 12_000);
            // B takes the Lease while A still leads; A's renew round gives up only later.
            assert_eq!(s.grant("B").at_ms, s.at());
            assert!(s.believes_at("A", s.at()));
            let gave_up = s.first_note("A", |n| matches!(n, Note::BeliefEnded { reason: BeliefEnd::ValidityExpired }));
            assert!(gave_up > s.at());
            // Without the drift B waits until A has stopped leading: the rate did it.
            let steady = run_with(s.s(), |sc| sc.faults.retain(|f| !matches!(f, FaultSpec::ClockDrift(_))));
            assert!(steady.verdict.safe && steady.verdict.max_concurrent_holders == 1);
        }
        7 => consul(s),
        8 => {
            assert_eq!((s.s().id.as_str(), s.s().lock.ttl_ms, pause(s, "A", 0)), ("redis-gc-pause", 10_000, 15_000));
            s.says(&["10 s", "15 s"]);
            assert!(s.expiries()[0].0 <= s.grant("B").at_ms);
            assert_eq!(s.stale_writers(), vec!["A"]);
        }
        9 => redisson(s),
        10 => {
            assert_eq!((s.s().approach, s.run.verdict.granted_ttl_ms), (Approach::Zookeeper, Some(6000)));
            assert!(pause(s, "RS1", 0) > 6000);
            s.says(&["6 s", "czxid", "RS1", "RS2"]);
            assert_eq!(s.stale_writers(), vec!["RS1"]);
            // RS1 writes once, and only then learns its session is gone.
            let learned = s.first_note("RS1", |n| matches!(n, Note::BeliefEnded { reason: BeliefEnd::SessionExpired }));
            let writes: Vec<_> = s.run.verdict.writes.iter().filter(|w| w.client == "RS1").collect();
            assert!(writes.len() == 1 && writes[0].at_ms >= s.first_note("RS1", |n| matches!(n, Note::BeliefStarted { .. })));
            assert!(learned >= s.at() - 10, "learned at {learned}");
            let on = lab::run(&lab::with_fencing(s.s(), true));
            assert!(on.verdict.safe && on.verdict.stale_writes_rejected == 1);
            // The watchdog hides pauses shorter than its lease, not longer ones: its 40 s pause.
            let w = catalog::get("redisson-watchdog").unwrap();
            let r = lab::run(&w);
            let long = w.faults.iter().filter_map(|f| if let FaultSpec::Pause(p) = f { Some(p.duration_ms) } else { None }).max();
            assert!(long.unwrap() > w.lock.ttl_ms && !r.verdict.safe);
        }
        11 => closing_table(s),
        i => panic!("in-the-wild step {i} has no check"),
    }
}

/// Step 7: lock-delay, safe below it, not above it.
fn consul(s: &Step) {
    assert_eq!((s.s().approach, s.s().lock.ttl_ms, s.s().lock.own.get("lock_delay_ms")), (Approach::Consul, 10_000, Some(15_000)));
    assert_eq!((pause(s, "A", 0), pause(s, "B", 0)), (20_000, 40_000));
    // The sums (20 s < 10 s + 15 s, 40 s > 20 s + 15 s) are the room's to work out: the right
    // choice no longer spells them.
    s.says(&["TTL (10 s)", "2 × TTL (20 s)", "15 s", "20 s", "40 s", "stale"]);
    // The session ends between TTL and 2 × TTL after the last renewal (its opening, A froze
    // before its first renewal), within A's pause (±its sweep).
    let a = s.node("A");
    let expired = s.first_note("consul-1", |n| matches!(n, Note::SessionExpired { client, .. } if *client == a));
    assert!((10_000..20_200).contains(&expired), "{expired}");
    assert_eq!(s.at(), 500 + 20_000);
    // B's grant waits out the lock-delay; between them, B's acquires are refused for it.
    assert!(s.grant("B").at_ms >= expired + 15_000);
    assert!(s.sent().any(|(at, _, to, m)| to == "B" && at > expired && matches!(m, Msg::AcquireRefused { lock_delay: true, .. })));
    // The answer: only B's late write loses an update; A's lands while nobody holds the lock.
    let a_write = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
    assert!(a_write.accepted && !a_write.stale && a_write.at_ms < s.grant("B").at_ms);
    assert_eq!(s.stale_writers(), vec!["B"]);
    assert_eq!(s.reveal(), s.run.verdict.writes.iter().find(|w| w.client == "B" && w.stale).unwrap().at_ms);
    // A is silent (from its session's opening to its wake) for less than the earliest
    // invalidation plus the lock-delay, B's pause outlasts the latest one plus it: from the
    // scenario's own settings, so an edit to either pause or either setting is caught here.
    let (ttl, delay) = (s.s().lock.ttl_ms, s.s().lock.get(&locklab::protocols::consul::LOCK_DELAY));
    assert!(500 + pause(s, "A", 0) < ttl + delay && pause(s, "B", 0) > 2 * ttl + delay, "TTL {ttl} ms, lock-delay {delay} ms");
    // Safe below TTL + lock-delay, not above 2 × TTL + lock-delay (35 s): A alone pausing, with
    // B waiting for the lock.
    for (pause_s, safe) in [(15, true), (20, true), (24, true), (38, false), (45, false)] {
        let r = run_with(s.s(), |sc| {
            sc.clients.retain(|c| c.name != "C");
            sc.faults.retain(|f| !matches!(f, FaultSpec::Pause(p) if p.node == "B"));
            let Some(FaultSpec::Pause(p)) = sc.faults.iter_mut().find(|f| matches!(f, FaultSpec::Pause(_))) else { panic!() };
            p.duration_ms = pause_s * 1000;
        });
        assert_eq!(r.verdict.safe, safe, "a {pause_s} s pause");
    }
}

/// Step 9: the watchdog and a 15 s pause.
fn redisson(s: &Step) {
    assert_eq!((s.s().approach, s.s().lock.ttl_ms, pause(s, "A", 0)), (Approach::Redisson, 30_000, 15_000));
    s.says(&["30 s", "10 s", "15 s"]);
    // The watchdog renews every 10 s (a holder that never pauses).
    let steady = run_with(s.s(), |sc| {
        sc.faults.clear();
        sc.clients.retain(|c| c.name == "A");
        sc.clients[0].work_ms = 35_000;
        sc.clients[0].writes = 1;
    });
    let extends: Vec<i64> = steady
        .trace
        .events
        .iter()
        .filter(|e| matches!(e.kind, locklab::sim::EventKind::Sent { msg: Msg::Extend { .. }, .. }))
        .map(|e| e.at_ms)
        .collect();
    assert!(extends.len() >= 3 && extends.windows(2).all(|w| (w[1] - w[0] - 10_000).abs() < 50), "{extends:?}");
    // The answer, by the reveal: no expiry, no grant to B, and A's key renewed as A wakes.
    let woke = 500 + 15_000;
    assert!(s.reveal() > woke);
    assert!(!s.expiries().iter().any(|e| e.0 <= s.reveal()));
    assert!(s.run.verdict.grants.iter().all(|g| g.client == "A" || g.at_ms > s.reveal()));
    let a = s.node("A");
    let renewed = s.first_note("redis", |n| matches!(n, Note::LockExtended { holder, .. } if *holder == a));
    assert!((woke..=s.reveal()).contains(&renewed));
    // The watchdog did freeze with A: nothing was sent during the pause.
    assert!(!s.sent().any(|(at, from, ..)| from == "A" && (501..woke).contains(&at)));
    let w = s.run.verdict.writes.iter().find(|w| w.client == "A").unwrap();
    assert!(w.accepted && !w.stale && w.at_ms <= s.reveal());
}

/// Step 11: every approach, one row each, computed from the runs.
fn closing_table(s: &Step) {
    let l = s.lesson;
    let tables: Vec<usize> = (0..l.steps.len()).filter(|&i| !l.steps[i].table.is_empty()).collect();
    assert_eq!(tables, vec![l.steps.len() - 1], "one table, on the last step");
    let rows = table::rows(l, s.i);
    // The text counts the rows it shows (a lesson has at most 12 steps, so it may show fewer
    // approaches than the registry holds).
    s.says(&[&format!("{} approaches", number_word(rows.len()))]);
    // One row per approach the course's steps show, in the registry's order (a lesson has at
    // most 12 steps, so not every approach in the registry has one).
    let shown: Vec<Approach> = rows.iter().map(|r| r.approach).collect();
    assert!(shown.windows(2).all(|w| w[0] < w[1]), "each approach once, in the registry's order: {shown:?}");
    for row in &rows {
        let sc = l.steps[row.step].scenario().unwrap();
        for (fencing, cell) in [(false, row.fencing_off), (true, row.fencing_on)] {
            let v = lab::run(&lab::with_fencing(&sc, fencing)).verdict;
            assert_eq!((cell.safe, cell.stale_accepted, cell.stale_rejected), (v.safe, v.stale_writes_accepted, v.stale_writes_rejected));
        }
        // A lease alone loses the update to a stale writer; where a number comes with it and
        // the resource checks it, the late write is refused.
        if !row.fencing_off.safe {
            assert!(row.fencing_off.stale_accepted > 0, "step {}", row.step);
            assert_eq!(row.fencing_on.safe, row.has_token, "step {}", row.step);
            if row.has_token {
                assert!(row.fencing_on.stale_rejected > 0, "step {}", row.step);
            }
        }
    }
    // A row's cells are its whole run's. The Redisson row's "update lost" comes from a second,
    // 40 s pause that its step (which stops as the watchdog saves A from the first) never
    // showed: the slide says so under the table, in words computed from the run's faults, and
    // no other row needs a note.
    let notes: Vec<(Approach, String)> = rows.iter().filter_map(|r| r.note().map(|n| (r.approach, n))).collect();
    let redisson = rows.iter().find(|r| r.approach == Approach::Redisson).unwrap();
    assert!(!redisson.fencing_off.safe && s.lesson.steps[redisson.step].question.is_some());
    assert_eq!(
        notes,
        vec![(
            Approach::Redisson,
            format!(
                "Redisson watchdog lock, step {}: the row's run goes on past what the step showed, to pause A for 40 s at 16 s.",
                redisson.step + 1
            )
        )]
    );
    // Every row loses an update without a check but etcd's: its leases do not read the clock
    // that jumps in its step.
    let safe_unfenced: Vec<Approach> = rows.iter().filter(|r| r.fencing_off.safe).map(|r| r.approach).collect();
    assert_eq!(safe_unfenced, vec![Approach::Etcd]);
    // Measured over many runs, the table's cells are the seed's table's (the CLI's and the
    // Explore panel's): each approach's planned row, count for count.
    let mut m = table::Measured::new(&rows, Some(40));
    assert_eq!(m.plans.len(), rows.len());
    m.step(&mut || true);
    assert!(m.done());
    let seeds = locklab::explore::table::measured(Some(40));
    for row in &rows {
        for fencing in [false, true] {
            let (plan, p) = m.cell(row.approach, fencing).unwrap();
            let c = seeds.iter().find(|c| c.row == plan.row.id && c.fencing == fencing).unwrap();
            assert_eq!((p.runs, p.counts, p.token_repeats), (c.runs, c.counts, c.token_repeats), "{}", plan.row.id);
        }
    }
    let (_, redis) = m.cell(Approach::Redis, true).unwrap();
    assert_eq!(table::Measured::words(&redis), format!("{} of 40 lost · {} tokens again", redis.counts.lost_update, redis.token_repeats));
}
