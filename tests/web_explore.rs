//! The explorer in headless Chromium gives what it gives natively: the same counts and the
//! same counterexamples for the same (base, mix, seed, N), and the same shrunk faults. The
//! golden files are written by the native tests (tests/explore.rs: the table's rows under the
//! full mix; tests/explore_page.rs: the page's search, shrinking and a sweep), computed here
//! again under wasm by the same code (tests/explore_golden).
//!
//!   CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_PROFILE_TEST_DEBUG=0 CHROMEDRIVER=/usr/bin/chromedriver \
//!     PATH=$PWD/.tools/bin:$PATH cargo test --target wasm32-unknown-unknown --test web_explore
#![cfg(target_arch = "wasm32")]

use locklab::explore::table;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod explore_golden;

const CELLS: &str = include_str!("golden/explore.txt");
const PAGE: &str = include_str!("golden/explore-page.txt");

#[wasm_bindgen_test]
fn the_page_search_shrinking_and_sweep_match_the_native_results() {
    assert_eq!(explore_golden::page_lines(), PAGE);
}

/// Two rows of the table's golden file, fencing off and on (the whole file is 3,600 schedules:
/// too long for the runner's time limit in an unoptimised test build).
#[wasm_bindgen_test]
fn table_rows_match_the_native_golden_file() {
    for id in ["redis", "etcd"] {
        let row = table::row(id).unwrap();
        for fencing in [false, true] {
            let line = explore_golden::cell_line(&row, fencing);
            assert!(CELLS.lines().any(|l| format!("{l}\n") == line), "{line} is not in tests/golden/explore.txt");
        }
    }
}
