//! Same scenario + seed ⇒ identical trace on native and wasm: every built-in's trace hash,
//! computed here in headless Chromium, equals the one tests/determinism.rs computed natively.
#![cfg(target_arch = "wasm32")]

use locklab::lab;
use locklab::scenario::{catalog, parse, Scenario};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &str = include_str!("golden/trace-hashes.txt");

#[wasm_bindgen_test]
fn browser_traces_hash_exactly_as_native_ones() {
    let in_browser: String =
        catalog::compiled().scenarios.iter().map(|s| format!("{} {:016x}\n", s.id, lab::run(s).trace.hash())).collect();
    assert_eq!(in_browser, GOLDEN);
}

const SCHEDULE_GOLDEN: &str = include_str!("golden/schedule-trace-hashes.txt");

/// The scenarios with fault schedules, their faults drawn in the browser (libm's exp, ln and
/// cos in wasm), trace for trace as tests/determinism.rs drew them natively.
#[wasm_bindgen_test]
fn scheduled_faults_are_drawn_in_the_browser_as_natively() {
    let files = [
        ("jepsen-etcd-pauses", include_str!("scenarios/jepsen-etcd-pauses.json")),
        ("redis-gc-pauses", include_str!("scenarios/redis-gc-pauses.json")),
    ];
    let mut in_browser = String::new();
    for (file, text) in files {
        let s = parse(text).unwrap();
        for seed in 1..=3 {
            in_browser += &format!("{file} {seed} {:016x}\n", lab::run(&Scenario { seed, ..s.clone() }).trace.hash());
        }
    }
    assert_eq!(in_browser, SCHEDULE_GOLDEN);
}
