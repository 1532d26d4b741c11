//! The simulation benchmark in headless Chromium (run by scripts/bench-sim.sh, not by the test
//! suite: it is #[ignore]d and asserts nothing about speed).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
#[ignore]
fn simulate_every_builtin() {
    let performance = web_sys::window().expect("a window").performance().expect("performance");
    let now = move || performance.now();
    let iterations = 200;
    locklab::bench::catalog(20, &now); // let the JIT tier up first
    let figures = [locklab::bench::catalog(iterations, &now), locklab::bench::inject(iterations, &now)].concat();
    console_log!("{}", locklab::bench::report(&figures));
}
