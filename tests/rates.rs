//! Rates over seeds (src/explore/rate.rs, `locklab rate`, docs/CLI.md): the same numbers, and
//! the same table bytes, on any number of threads; a sweep of a setting the scenario lacks is
//! refused with what is missing. (The Wilson interval's own values: the module's unit tests.)

use std::process::Command;

use locklab::explore::rate::{self, Setting};
use locklab::scenario::{parse, Scenario};

const JEPSEN: &str = "tests/scenarios/jepsen-etcd-pauses.json";

fn jepsen() -> Scenario {
    parse(&std::fs::read_to_string(JEPSEN).unwrap()).unwrap()
}

#[test]
fn a_rate_is_the_same_on_one_thread_or_several() {
    let s = jepsen();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| rate::measure(&s, 60, true));
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap().install(|| rate::measure(&s, 60, true));
    assert_eq!(one, four);
    assert_eq!(one, rate::measure(&s, 60, false));
    let rows = |t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap()
            .install(|| rate::sweep(&s, Setting::TtlMs, &[2_000, 6_000], 30, true).unwrap())
    };
    assert_eq!(rate::table(Some(Setting::TtlMs), &rows(1)), rate::table(Some(Setting::TtlMs), &rows(3)));
}

#[test]
fn sweeping_a_setting_the_scenario_lacks_says_so() {
    let s = jepsen();
    let e = rate::sweep(&s, Setting::DriftPpm, &[0, 100], 2, false).unwrap_err();
    assert!(e.contains("no clock_drift"), "{e}");
    let e = rate::sweep(&s, Setting::PauseP99Ms, &[1_000], 2, false).unwrap_err();
    assert!(e.contains("log_normal"), "{e}");
    let e = rate::sweep(&s, Setting::TtlMs, &[0], 2, false).unwrap_err();
    assert!(e.starts_with("at 0: lock.ttl_ms"), "{e}");
}

fn locklab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_locklab")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn locklab_rate_prints_the_table_the_same_on_any_thread_count() {
    let (code, out, err) = locklab(&["rate", JEPSEN, "--runs", "40", "--threads", "1"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].ends_with("40 runs a row, seeds 1..=40"), "{out}");
    assert!(lines[1].starts_with("schedule: pause a random one of A, B, C, etcd-1, etcd-2, etcd-3 every 5 s"), "{out}");
    assert_eq!(lines[2].split_whitespace().collect::<Vec<_>>()[..4], ["scenario", "runs", "lost", "updates"]);
    // The numbers are the core's, printed as it prints them.
    let r = rate::measure(&jepsen(), 40, false);
    assert!(lines[3].contains(&rate::interval_words(r.lost_updates)), "{out}");
    let (_, again, _) = locklab(&["rate", JEPSEN, "--runs", "40", "--threads", "3"]);
    assert_eq!(out, again);

    let (code, sweep, _) = locklab(&["rate", JEPSEN, "--runs", "10", "--sweep", "ttl_ms=2000..10000", "--steps", "3", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&sweep).unwrap();
    assert_eq!(v["setting"], "ttl_ms");
    let values: Vec<i64> = v["rows"].as_array().unwrap().iter().map(|r| r["value"].as_i64().unwrap()).collect();
    assert_eq!(values, [2_000, 6_000, 10_000]);
    assert_eq!(v["rows"][0]["runs"], 10);

    let (code, _, err) = locklab(&["rate", JEPSEN, "--sweep", "drift_ppm=0..100"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("locklab: --sweep: the scenario has no clock_drift"), "{err}");
    let (code, _, err) = locklab(&["rate", JEPSEN, "--runs", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--runs"), "{err}");
}

#[test]
fn each_setting_sets_what_it_names() {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("tests/scenarios/redis-gc-pauses.json").unwrap()).unwrap();
    v["faults"] = serde_json::json!([{ "at_ms": 0, "kind": "clock_drift", "node": "redis", "ppm": 0 }]);
    v["schedules"][1] =
        serde_json::json!({ "kind": "clock_drift", "every_ms": 10000, "on": "A", "ppm": { "dist": "uniform", "min": -10, "max": 10 } });
    let s = parse(&v.to_string()).unwrap();
    let drift = Setting::DriftPpm.apply(&s, 200_000).unwrap();
    assert!(matches!(&drift.faults[0], locklab::scenario::FaultSpec::ClockDrift(d) if d.ppm == 200_000));
    assert_eq!(drift.schedules[1].amount, Some(locklab::scenario::fault::dist::Dist::Fixed { value: 200_000 }));
    let p99 = Setting::PauseP99Ms.apply(&s, 9_000).unwrap();
    assert_eq!(p99.schedules[0].amount, Some(locklab::scenario::fault::dist::Dist::LogNormal { median: 50, p99: 9_000 }));
    // A p99 at or below the median is the format's own error, with its path.
    let e = Setting::PauseP99Ms.apply(&s, 50).unwrap_err();
    assert!(e.starts_with("at 50: schedules[0].duration_ms.p99: 50 must be above the median (50)"), "{e}");
    assert_eq!(Setting::TtlMs.apply(&s, 4_000).unwrap().lock.ttl_ms, 4_000);
}
