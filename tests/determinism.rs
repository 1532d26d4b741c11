//! Same scenario + seed ⇒ identical trace, across processes and targets: the golden file was
//! written by an earlier run (and tests/web_determinism.rs compares the browser's hashes with
//! it). Running a scenario twice in one process proves nothing of the kind, so no test does.
//! A different seed changes the trace.

use locklab::lab;
use locklab::scenario::catalog;

mod golden_file;

#[test]
fn the_seed_drives_latency() {
    let mut s = catalog::get("redis-gc-pause").unwrap();
    let a = lab::run(&s).trace.hash();
    s.seed += 1;
    let b = lab::run(&s).trace.hash();
    assert_ne!(a, b);
}

/// The trace hash of every built-in, as computed natively. The browser test (tests/web.rs)
/// computes the same hashes under wasm and compares them with this file, which is how
/// native = wasm is proven. After an intended model change: `UPDATE_GOLDEN=1 cargo test`.
const GOLDEN: &str = "tests/golden/trace-hashes.txt";

#[test]
fn builtin_trace_hashes_match_the_golden_file() {
    let current: String = catalog::all().iter().map(|s| format!("{} {:016x}\n", s.id, lab::run(s).trace.hash())).collect();
    golden_file::check(GOLDEN, &current, "UPDATE_GOLDEN=1 cargo test --test determinism");
}
