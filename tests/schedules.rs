//! Fault schedules (`schedules[]`, docs/SCENARIO_FORMAT.md "Fault schedules"): the same
//! scenario and seed give the same faults; they run as ordinary faults; bad values are refused
//! with their field path.

mod common;

use locklab::lab;
use locklab::protocols::EventKind;
use locklab::scenario::fault::{expand, FaultSpec, Pause};
use locklab::scenario::limits::MAX_SCHEDULED_FAULTS;
use locklab::scenario::{parse, Scenario};
use locklab::timeline::{BandKind, Timeline};

const JEPSEN: &str = "tests/scenarios/jepsen-etcd-pauses.json";

fn jepsen() -> Scenario {
    parse(&std::fs::read_to_string(JEPSEN).unwrap()).unwrap()
}

fn pauses(faults: &[FaultSpec]) -> Vec<(i64, String, i64)> {
    faults.iter().filter_map(|f| f.get::<Pause>()).map(|p| (p.at_ms, p.node.clone(), p.duration_ms)).collect()
}

#[test]
fn a_schedule_expands_to_the_same_faults_for_the_same_seed_and_others_for_another() {
    let s = jepsen();
    let faults = pauses(&expand(&s));
    // Every 5 s from 5 s to 55 s of a 60 s run: 11 pauses, each on one of the six processes,
    // 1-5 s long.
    assert_eq!(faults.iter().map(|f| f.0).collect::<Vec<_>>(), (1..=11).map(|k| k * 5_000).collect::<Vec<_>>());
    let on = ["A", "B", "C", "etcd-1", "etcd-2", "etcd-3"];
    assert!(faults.iter().all(|(_, node, d)| on.contains(&node.as_str()) && (1_000..=5_000).contains(d)));
    assert_eq!(faults, pauses(&expand(&jepsen())), "same scenario, same seed: same faults");
    let other = Scenario { seed: 2, ..s.clone() };
    assert_ne!(faults, pauses(&expand(&other)), "another seed draws other nodes and lengths");
    // Fixed values: a change to the draws shows here (the draws use libm, the same code on
    // every target: src/scenario/fault/dist.rs).
    assert_eq!(faults[0], (5_000, "etcd-2".to_string(), 4_602), "{faults:?}");
    assert_eq!(faults[10], (55_000, "A".to_string(), 3_636), "{faults:?}");
}

#[test]
fn a_schedule_added_after_another_leaves_its_faults_as_they_were() {
    let s = jepsen();
    let mut more = s.clone();
    let mut second = s.schedules[0].clone();
    second.on = Some(vec!["A".into()]);
    more.schedules.push(second);
    let first = pauses(&expand(&s));
    let both = pauses(&expand(&more));
    assert_eq!(&both[..first.len()], &first[..]);
    assert_eq!(both.len(), first.len() * 2);
}

#[test]
fn scheduled_faults_are_ordinary_faults_in_the_trace() {
    let s = jepsen();
    let run = lab::run(&s);
    let paused = run.trace.events.iter().filter(|e| matches!(e.kind, EventKind::Paused { .. })).count();
    // A pause that strikes a node still paused is not applied (as for any fault).
    assert!((8..=11).contains(&paused), "{paused} pauses in the trace");
    // And the diagram draws each as any pause: a band on its node's lane.
    let t = Timeline::of_run(&run);
    assert_eq!(t.bands.iter().filter(|b| b.kind == BandKind::Paused).count(), paused);
    // The JSON round trip keeps the schedule (a link or an export carries it whole).
    let text = serde_json::to_string(&s).unwrap();
    assert!(text.contains("\"schedules\""));
    assert_eq!(parse(&text).unwrap(), s);
}

fn error_of(edit: impl Fn(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(JEPSEN).unwrap()).unwrap();
    edit(&mut v);
    parse(&v.to_string()).expect_err("refused").to_string()
}

/// A change to the Jepsen scenario's JSON.
type Edit<'a> = Box<dyn Fn(&mut serde_json::Value) + 'a>;

#[test]
fn bad_schedules_are_refused_with_their_field_path() {
    let sch = |v: &mut serde_json::Value| v["schedules"][0].take();
    let set = |field: &'static str, value: serde_json::Value| {
        move |v: &mut serde_json::Value| {
            let mut s = sch(v);
            s[field] = value.clone();
            v["schedules"][0] = s;
        }
    };
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(set("every_ms", 0.into())), "schedules[0].every_ms: 0 ms is out of range: must be 1..=300000 ms"),
        (
            Box::new(set("duration_ms", serde_json::json!({"dist": "log_normal", "median": 500, "p99": 200}))),
            "schedules[0].duration_ms.p99: 200 must be above the median (500); for a constant, use \"dist\": \"fixed\"",
        ),
        (
            Box::new(set("duration_ms", serde_json::json!({"dist": "uniform", "min": 0, "max": 10}))),
            "schedules[0].duration_ms.min: 0 ms is out of range: must be 1..=300000 ms",
        ),
        (
            Box::new(set("duration_ms", serde_json::json!({"dist": "normal", "mean": 3}))),
            "schedules[0].duration_ms.dist: unknown variant `normal`, expected one of `fixed`, `uniform`, `exponential`, `log_normal`",
        ),
        (
            Box::new(set("duration_ms", serde_json::json!({"dist": "exponential", "median": 3}))),
            "schedules[0].duration_ms.median: unknown field `median`, expected one of `dist`, `mean`",
        ),
        (Box::new(set("on", serde_json::json!(["A", "etcd-9"]))), "schedules[0].on[1]: no node named \"etcd-9\""),
        (Box::new(set("on", serde_json::json!([]))), "schedules[0].on: names no node"),
        (Box::new(set("on", serde_json::json!(["A", "B", "A"]))), "schedules[0].on[2]: \"A\" is listed twice"),
        (
            Box::new(set("kind", "delay".into())),
            "schedules[0].kind: unknown variant `delay`, expected one of `pause`, `clock_jump`, `clock_drift`, `crash`",
        ),
        (Box::new(set("until_ms", 99_000.into())), "schedules[0].until_ms: 99000 ms is out of range: must be 0..=60000 ms"),
        (
            Box::new(set("every_ms", 50.into())),
            "schedules[0].every_ms: 50 ms makes the schedules strike 1199 times in this run; the limit is 1000",
        ),
        (
            Box::new(|v: &mut serde_json::Value| {
                let mut s = sch(v);
                s.as_object_mut().unwrap().remove("duration_ms");
                v["schedules"][0] = s;
            }),
            "schedules[0]: missing field `duration_ms`",
        ),
        (
            Box::new(|v: &mut serde_json::Value| {
                v["schedules"][0] = serde_json::json!({"kind": "crash", "every_ms": 5000, "on": "storage"});
            }),
            "schedules[0].on[0]: storage is durable",
        ),
    ];
    for (edit, want) in cases {
        let got = error_of(edit);
        assert!(got.starts_with(want), "got: {got}\nwant: {want}");
    }
    assert_eq!(MAX_SCHEDULED_FAULTS, 1_000, "the message above names it");
}

#[test]
fn a_crash_schedule_without_a_restart_stays_down_and_a_clock_schedule_draws_signed_jumps() {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(JEPSEN).unwrap()).unwrap();
    v["schedules"] = serde_json::json!([
        {"kind": "crash", "every_ms": 20000, "on": "etcd-2", "machine": true},
        {"kind": "clock_jump", "every_ms": 7000, "arrivals": "poisson", "by_ms": {"dist": "uniform", "min": -3000, "max": 3000}}
    ]);
    let s = parse(&v.to_string()).unwrap();
    let faults = expand(&s);
    let crashes: Vec<_> = faults.iter().filter_map(|f| f.get::<locklab::scenario::fault::Crash>()).collect();
    assert_eq!(crashes.len(), 2);
    assert!(crashes.iter().all(|c| c.machine && c.restart_after_ms.is_none() && c.node == "etcd-2"));
    let jumps: Vec<_> = faults.iter().filter_map(|f| f.get::<locklab::scenario::fault::ClockJump>()).collect();
    assert!(!jumps.is_empty() && jumps.iter().all(|j| (-3_000..=3_000).contains(&j.by_ms)));
    assert_eq!(parse(&serde_json::to_string(&s).unwrap()).unwrap(), s);
}

#[test]
fn runs_with_schedules_keep_the_trace_invariants() {
    // The network obeys the faults, clocks follow them, …: replayed from the trace, so scheduled
    // faults are held to them as written ones are.
    for file in [JEPSEN, "tests/scenarios/redis-gc-pauses.json"] {
        let s = parse(&std::fs::read_to_string(file).unwrap()).unwrap();
        for seed in 1..=12 {
            for fencing in [false, true] {
                let run = lab::run(&lab::with_fencing(&Scenario { seed, ..s.clone() }, fencing));
                if let Err(e) = common::invariants::check(&run) {
                    panic!("{file}, seed {seed}, fencing {fencing}: {e}");
                }
            }
        }
    }
}

#[test]
fn a_link_carries_the_schedules_and_reopens_to_the_same_faults() {
    use locklab::scenario::{catalog, share};
    let s = jepsen();
    let all = catalog::all();
    let link = share::link(&share::name(&s, &all), 0, &share::Modes::default());
    let (search, hash) = link.split_once('#').unwrap();
    let opened = share::open(search, hash, &all);
    assert_eq!(opened.problems, Vec::<String>::new());
    assert_eq!(opened.scenario, s);
    assert_eq!(expand(&opened.scenario), expand(&s));
    assert!(link.len() < 2_000, "a Jepsen-style scenario is a short link: {} characters", link.len());
}

#[test]
fn a_schedule_built_in_code_of_a_kind_that_strikes_no_one_node_is_refused() {
    let mut s = jepsen();
    s.schedules[0].template = FaultSpec::Delay(locklab::scenario::fault::Delay::default());
    let e = locklab::scenario::validate::validate(&s).unwrap_err().to_string();
    assert!(
        e.starts_with("schedules[0].kind: a schedule cannot make delay faults (it makes pause, clock_jump, clock_drift, crash)"),
        "{e}"
    );
}
