//! Same scenario + seed ⇒ identical trace on native and wasm: every built-in's trace hash,
//! computed here in headless Chromium, equals the one tests/determinism.rs computed natively.
#![cfg(target_arch = "wasm32")]

use locklab::lab;
use locklab::scenario::catalog;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &str = include_str!("golden/trace-hashes.txt");

#[wasm_bindgen_test]
fn browser_traces_hash_exactly_as_native_ones() {
    let in_browser: String =
        catalog::compiled().scenarios.iter().map(|s| format!("{} {:016x}\n", s.id, lab::run(s).trace.hash())).collect();
    assert_eq!(in_browser, GOLDEN);
}
