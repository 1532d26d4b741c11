//! Component tests of compare mode in headless Chromium: the URL opens it, stepping moves both
//! diagrams, stepping back returns through both runs' events, and leaving it keeps the cursor.
//!
//!   CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_PROFILE_TEST_DEBUG=0 CHROMEDRIVER=/usr/bin/chromedriver \
//!     PATH=$PWD/.tools/bin:$PATH cargo test --target wasm32-unknown-unknown --test web_compare
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

mod browser;
use browser::*;

/// `data-cursor-ms` of every diagram on the page.
fn cursors(root: &Element) -> Vec<i64> {
    let list = root.query_selector_all("[data-testid=\"diagram\"]").unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap().get_attribute("data-cursor-ms").unwrap().parse().unwrap())
        .collect()
}

async fn choose(root: &Element, value: &str) {
    let s: HtmlSelectElement = find(root, "compare-with").dyn_into().unwrap();
    s.set_value(value);
    s.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    rendered().await;
}

#[wasm_bindgen_test]
async fn the_url_opens_compare_mode_and_steps_move_both_diagrams() {
    // `outcome=1`: the summary of both runs shows from the start (otherwise it waits for the end).
    let root = mount("?scenario=redis-gc-pause&compare=etcd&outcome=1").await;
    assert_eq!(cursors(&root), [0, 0]);
    let summary = find(&root, "compare-summary").text_content().unwrap();
    assert!(summary.starts_with("Redis: 2 holders at 10.104 s, stale write accepted at 15.505 s; etcd: "), "{summary}");
    let mut seen = Vec::new();
    for _ in 0..6 {
        click(&root, "step").await;
        let c = cursors(&root);
        assert_eq!(c[0], c[1]);
        seen.push(c[0]);
    }
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "steps go forward in time: {seen:?}");
    for _ in 0..6 {
        click(&root, "step-back").await;
    }
    assert_eq!(cursors(&root), [0, 0], "stepping back through both runs returns to the start");
    root.remove();
}

#[wasm_bindgen_test]
async fn leaving_compare_mode_keeps_the_cursor() {
    let root = mount("?scenario=redlock-clock-jump&t=4000").await;
    assert_eq!(cursors(&root), [4000]);
    choose(&root, "zookeeper").await;
    assert_eq!(cursors(&root), [4000, 4000]);
    let na = find(&root, "compare-not-applicable").text_content().unwrap();
    assert!(na.is_empty(), "Redlock's faults are carried to the ensemble's servers by role: {na}");
    choose(&root, "none").await;
    assert_eq!(cursors(&root), [4000]);
    assert!(root.query_selector("[data-testid=\"compare-summary\"]").unwrap().is_none());
    root.remove();
}
