//! The named properties (`check::properties`) as data: stable ids, a line each for the CLI's
//! list; each evaluated on every built-in (fencing off and on) and on generated runs, where every
//! property that describes locks is both discovered in some run and not in another, and every
//! trace invariant holds — while a trace doctored to break it is caught, at the doctored
//! event. The verdict and the explorer's classes agree with the properties they are read off,
//! and the explorer's search finds and shrinks a run for a property it does not count by default.

mod common;

use common::{invariants, scale, scenario, shapes, with_long_client_pause, FaultMix};
use locklab::check::properties::{self, Check, Outcome, Property, PropertyKind};
use locklab::check::FindingKind;
use locklab::explore::class::discovery;
use locklab::explore::shrink::shrink;
use locklab::explore::{Class, Explorer, Mix, Report};
use locklab::lab::{self, Run};
use locklab::protocols::{EventKind, Note};
use locklab::scenario::{catalog, FaultKind, FaultSpec, Scenario};
use locklab::sim::rng::Stream;

fn built_in_runs() -> Vec<Run> {
    catalog::ids()
        .iter()
        .flat_map(|id| {
            let s = catalog::get(id).unwrap();
            [false, true].map(|fencing| lab::run(&lab::with_fencing(&s, fencing)))
        })
        .collect()
}

fn generated_runs() -> Vec<Run> {
    let mut rng = Stream::new(2026, 21);
    let mut out = Vec::new();
    for shape in shapes() {
        for k in 0..30 * scale() {
            let mix = if k % 3 == 2 { FaultMix::Ending } else { FaultMix::Any };
            let s = scenario(&mut rng, shape, mix, k % 2 == 0);
            let s = if k % 4 == 1 { with_long_client_pause(&mut rng, s) } else { s };
            out.push(lab::run(&s));
        }
    }
    out
}

fn discovered(p: &Property, run: &Run) -> bool {
    p.discovery(&run.scenario, &run.trace, &run.verdict).is_some()
}

#[test]
fn ids_are_stable_kebab_case_unique_and_listed_one_a_line() {
    let all = properties::all();
    for (i, p) in all.iter().enumerate() {
        assert!(p.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", p.id);
        assert!(all[..i].iter().all(|q| q.id != p.id), "{} twice", p.id);
        assert_eq!(properties::by_id(p.id), Some(p));
        let line = properties::describe_line(p);
        assert!(!line.contains('\n') && line.starts_with(p.id) && line.ends_with(p.statement), "{line}");
        assert!(line.contains(&format!("  {}  ", p.kind.id())), "{line}");
    }
    assert_eq!(properties::by_id("no-such-property"), None);
    // Ids the CLI and URLs already use: renaming one breaks them.
    for id in ["no-lost-update", "tokens-rise", "one-believer", "lock-granted", "every-client-gets-the-lock"] {
        assert!(properties::by_id(id).is_some(), "{id}");
    }
    let kinds = [PropertyKind::Always, PropertyKind::Sometimes, PropertyKind::Eventually];
    assert!(kinds.iter().all(|k| all.iter().any(|p| p.kind == *k)));
    // The invariants are exactly the `always` properties that read the trace (`invariants()` is
    // a tail of `all()`, so one put elsewhere in the list would slip out of it).
    let trace_always: Vec<_> = all.iter().filter(|p| p.kind == PropertyKind::Always && p.reads_trace()).collect();
    assert!(!trace_always.is_empty());
    assert_eq!(properties::invariants().iter().collect::<Vec<_>>(), trace_always);
}

#[test]
fn every_property_is_discovered_in_some_run_and_not_in_another_and_the_invariants_always_hold() {
    let runs: Vec<Run> = built_in_runs().into_iter().chain(generated_runs()).collect();
    for p in properties::all() {
        let mut found = 0;
        for run in &runs {
            let outcome = p.outcome(&run.scenario, &run.trace, &run.verdict);
            let expected = match (p.kind, discovered(p, run)) {
                (PropertyKind::Sometimes, true) => "witnessed",
                (PropertyKind::Sometimes, false) => "not witnessed",
                (_, true) => "violated",
                (_, false) => "held",
            };
            assert_eq!(outcome.word(), expected, "{}", p.id);
            if let Some(e) = outcome.evidence() {
                found += 1;
                // The evidence points into this run's trace, at its own moment.
                if let Some(i) = e.event {
                    assert_eq!(Some(run.trace.events[i].at_ms), e.at_ms, "{}: {e:?}", p.id);
                }
                assert!(!e.text.is_empty());
            }
        }
        println!("{}: discovered in {found} of {} runs", p.id, runs.len());
        if properties::invariants().contains(p) {
            assert_eq!(found, 0, "{} broken by the simulator", p.id);
        } else {
            assert!(found > 0 && found < runs.len(), "{}: discovered in {found} of {} runs", p.id, runs.len());
        }
    }
}

#[test]
fn the_verdict_and_the_classes_are_read_off_the_properties() {
    let with = |kind: FindingKind, run: &Run| run.verdict.findings.iter().any(|f| f.kind == kind);
    for run in built_in_runs().iter().chain(&generated_runs()) {
        let v = &run.verdict;
        assert_eq!(v.safe, !discovered(&properties::NO_LOST_UPDATE, run));
        // Clients between a read and their conditional write claim no lock (not a finding).
        let locked = v.approach.spec().workload == locklab::protocols::spec::Workload::UnderLock;
        assert_eq!(discovered(&properties::ONE_BELIEVER, run), locked && v.max_concurrent_holders >= 2);
        assert_eq!(discovered(&properties::LOCK_GRANTED, run), v.grants.is_empty());
        assert_eq!(discovered(&properties::STALE_WRITE_REJECTED, run), v.stale_writes_rejected > 0);
        assert_eq!(discovered(&properties::HOLDER_WRITES_ACCEPTED, run), with(FindingKind::HolderWriteRejected, run));
        assert_eq!(discovered(&properties::WRITES_FENCED, run), with(FindingKind::UnfencedWrite, run));
        assert_eq!(discovered(&properties::WRITE_AFTER_TAKEOVER, run), with(FindingKind::WriteAfterTakeover, run));
        // A run's class is the first class whose property it violates.
        let class = Class::of(v);
        let first = Class::ALL.into_iter().find(|c| c.property().is_some_and(|p| discovered(p, run)));
        assert_eq!(class, first.unwrap_or(Class::Safe), "{}", run.scenario.id);
        assert!(Class::ALL.iter().filter_map(|c| c.property()).all(|p| matches!(p.check, Check::Verdict(_))));
    }
}

/// `run` with its trace changed by `doctor`, and the invariant `id`'s evidence on it.
fn doctored(id: &str, catalog_id: &str, doctor: impl Fn(&mut Vec<locklab::protocols::Event>) -> usize) -> (usize, Outcome) {
    let mut run = lab::run(&catalog::get(catalog_id).unwrap());
    let p = properties::by_id(id).unwrap();
    assert_eq!(p.outcome(&run.scenario, &run.trace, &run.verdict), Outcome::Held, "{id} on {catalog_id}");
    let at = doctor(&mut run.trace.events);
    (at, p.outcome(&run.scenario, &run.trace, &run.verdict))
}

fn position(events: &[locklab::protocols::Event], what: impl Fn(&EventKind) -> bool) -> usize {
    events.iter().position(|e| what(&e.kind)).expect("the built-in has such an event")
}

#[test]
fn each_trace_invariant_catches_a_trace_doctored_to_break_it() {
    // A node that never resumes from its pause, yet acts: the first thing it does after.
    let (at, o) = doctored("handled-only-when-up", "redis-gc-pause", |events| {
        let i = position(events, |k| matches!(k, EventKind::Resumed));
        let node = events.remove(i).node;
        i + events[i..].iter().position(|e| e.node == node).unwrap()
    });
    assert!(matches!(&o, Outcome::Violated(e) if e.event == Some(at)), "{o:?}");
    // A message delivered a second late.
    let (at, o) = doctored("network-obeys-faults", "happy-path-redis", |events| {
        let i = position(events, |k| matches!(k, EventKind::Sent { arrives_at_ms: Some(_), .. }));
        if let EventKind::Sent { arrives_at_ms: Some(a), .. } = &mut events[i].kind {
            *a += 1_000;
        }
        i
    });
    assert!(matches!(&o, Outcome::Violated(e) if e.event == Some(at)), "{o:?}");
    // A message that arrived and was never handled: the evidence is its arrival.
    let (_, o) = doctored("network-obeys-faults", "happy-path-redis", |events| {
        let i = position(events, |k| matches!(k, EventKind::Received { .. }));
        events.remove(i);
        i
    });
    assert!(matches!(&o, Outcome::Violated(e) if e.event.is_none() && e.text.contains("neither handled nor lost")), "{o:?}");
    // A TTL lock whose deadline is a millisecond off the server's clock plus the TTL.
    let (at, o) = doctored("clocks-follow-faults", "happy-path-redis", |events| {
        let i = position(events, |k| matches!(k, EventKind::Note(Note::LockCommitted { expires_wall_ms: Some(_), .. })));
        if let EventKind::Note(Note::LockCommitted { expires_wall_ms: Some(w), .. }) = &mut events[i].kind {
            *w += 1;
        }
        i
    });
    assert!(matches!(&o, Outcome::Violated(e) if e.event == Some(at)), "{o:?}");
    // A belief that starts twice.
    let (at, o) = doctored("beliefs-end-at-events", "happy-path-redis", |events| {
        let i = position(events, |k| matches!(k, EventKind::Note(Note::BeliefStarted { .. })));
        events.insert(i + 1, events[i].clone());
        i + 1
    });
    assert!(matches!(&o, Outcome::Violated(e) if e.event == Some(at)), "{o:?}");
    // The suites' wrapper fails with the property named.
    let mut run = lab::run(&catalog::get("happy-path-redis").unwrap());
    run.trace.events.retain(|e| !matches!(e.kind, EventKind::Note(Note::ReleaseSent)));
    let err = invariants::check(&run).unwrap_err();
    assert!(err.contains("beliefs-end-at-events") && err.contains("release"), "{err}");
}

fn kinds(ids: &[&str]) -> Vec<FaultKind> {
    ids.iter().map(|id| FaultKind::by_id(id).unwrap()).collect()
}

#[test]
fn the_search_finds_and_shrinks_a_run_for_a_property_the_classes_do_not_count() {
    // Fencing rejecting a stale write: a `sometimes` property, a witness the classes file as
    // "two believers" at most.
    let mut base = catalog::get("redis-gc-pause").unwrap();
    base.storage.fencing = true;
    let p = properties::by_id("stale-write-rejected").unwrap();
    let mix = Mix::of(&kinds(&["pause", "clock_jump"]));
    let report = search(&base, &mix, 11, 60, p);
    assert!(report.runs == 60 && report.shown > 0, "{report:?}");
    assert!(report.found.len() <= 3 && !report.found.is_empty());
    let first = &report.found[0];
    assert!(discovery(p, &first.scenario).is_some(), "kept runs show it");
    let shrunk = shrink(&first.scenario, p);
    assert!(shrunk.after.faults.len() <= first.scenario.faults.len());
    assert_eq!(shrunk.after.faults.len(), 1, "{:?}", shrunk.after.faults);
    let after = lab::run(&shrunk.after);
    assert!(discovered(p, &after), "the shrunk run no longer shows {}", p.id);
    // In batches, in parallel, in one go: the same report.
    let mut batched = Explorer::new(&base, mix.clone(), 11, 60).unwrap().searching(p);
    while !batched.progress().done() {
        batched.run_batch(7);
    }
    assert_eq!(batched.report(), report);
    let mut parallel = Explorer::new(&base, mix, 11, 60).unwrap().searching(p);
    parallel.run_batch_parallel(60);
    assert_eq!(parallel.report(), report);
    // The classes are counted as in a search without a property.
    let mut classes = Explorer::new(&base, Mix::of(&kinds(&["pause", "clock_jump"])), 11, 60).unwrap();
    classes.run_batch(60);
    assert_eq!(classes.report().counts, report.counts);
}

/// A search of `n` schedules for `p`, in one go.
fn search(base: &Scenario, mix: &Mix, seed: u64, n: u64, p: &'static Property) -> Report {
    let mut e = Explorer::new(base, mix.clone(), seed, n).unwrap().searching(p);
    e.run_batch(n);
    e.report()
}

#[test]
fn the_search_for_a_property_of_the_whole_trace_shrinks_to_the_fault_that_starves_a_client() {
    // Liveness, read off the whole trace: a crash that never restarts the only lock server
    // leaves every client waiting.
    let base = catalog::get("happy-path-redis").unwrap();
    let p = &properties::EVERY_CLIENT_GETS_THE_LOCK;
    let mix = Mix::of(&kinds(&["crash", "delay"]));
    let report = search(&base, &mix, 5, 40, p);
    let first = report.found.first().unwrap_or_else(|| panic!("{report:?}"));
    let evidence = discovery(p, &first.scenario).expect("kept runs show it");
    assert!(evidence.at_ms.is_none(), "what never happened has no moment: {evidence:?}");
    let shrunk = shrink(&first.scenario, p);
    assert!(discovered(p, &lab::run(&shrunk.after)));
    assert!(shrunk.after.faults.len() <= first.scenario.faults.len());
    assert!(
        shrunk.after.faults.iter().any(|f| matches!(f, FaultSpec::Crash { .. } | FaultSpec::Delay { .. })),
        "{:?}",
        shrunk.after.faults
    );
}
