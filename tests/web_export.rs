//! The export control in a real browser: the files it hands to the download are the figure
//! and the run, and when the page cannot read its stylesheet it says so instead of throwing.
//!
//!   CHROMEDRIVER=/usr/bin/chromedriver PATH=.tools/bin:$PATH \
//!     cargo test --target wasm32-unknown-unknown --test web_export
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

mod browser;
use browser::*;

/// Runs page JavaScript (test set-up only).
fn js(code: &str) -> JsValue {
    js_sys::eval(code).expect("test script runs")
}

/// A fresh app at `ms` on the default scenario (redis-gc-pause). Every blob the page makes is
/// kept in `window.blobs`, so a test reads what a download would have saved.
async fn mount_at(ms: i64) -> Mounted {
    js("if (!window.blobs) { window.blobs = []; const make = URL.createObjectURL; URL.createObjectURL = (b) => { window.blobs.push(b); return make.call(URL, b); }; }");
    let m = mount("").await;
    let scrub: HtmlInputElement = find(&m, "scrub").dyn_into().unwrap();
    scrub.set_value(&ms.to_string());
    scrub.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    rendered().await;
    m
}

fn status(root: &Element) -> (String, bool) {
    let s = find(root, "export-status");
    (s.text_content().unwrap_or_default(), s.get_attribute("class").unwrap_or_default().split(' ').any(|c| c == "failed"))
}

/// The text of the last blob the page made.
async fn last_blob() -> String {
    let text = js("window.blobs[window.blobs.length - 1].text()");
    JsFuture::from(text.dyn_into::<js_sys::Promise>().unwrap()).await.unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
async fn json_is_the_run_with_the_verdict_on_screen() {
    let root = mount_at(15_505).await;
    click(&root, "export-json").await;
    assert_eq!(status(&root), ("Downloading redis-gc-pause.json.".to_string(), false));
    let json: serde_json::Value = serde_json::from_str(&last_blob().await).expect("valid JSON");
    assert_eq!(json["verdict"]["safe"].to_string(), find(&root, "verdict").get_attribute("data-safe").unwrap());
    assert_eq!(json["scenario"]["id"], "redis-gc-pause");
    assert!(json["trace"]["events"].as_array().is_some_and(|e| !e.is_empty()));
    root.remove();
}

#[wasm_bindgen_test]
async fn without_the_page_stylesheet_the_figure_is_refused_in_words() {
    // The test page links no diagram.css: the app must say so, not throw or save a bare figure.
    let root = mount_at(1_000).await;
    let before = js("window.blobs.length").as_f64();
    click(&root, "export-svg").await;
    let (text, failed) = status(&root);
    assert!(failed && text.contains("cannot read its own stylesheet"), "{text}");
    assert_eq!(js("window.blobs.length").as_f64(), before, "nothing was downloaded");
    root.remove();
}

#[wasm_bindgen_test]
async fn svg_is_the_figure_at_the_cursor_with_the_page_styles() {
    // Stand in for Trunk's diagram-<hash>.css with a stylesheet of the same name.
    let loaded = js("new Promise((ok) => { const l = document.createElement('link'); l.rel = 'stylesheet';
        l.href = URL.createObjectURL(new Blob([':root { --ink: #123456 } .diagram text { fill: var(--ink) }'], { type: 'text/css' })) + '#/diagram-test.css';
        l.id = 'diagram-css'; l.onload = ok; document.head.appendChild(l); })");
    JsFuture::from(loaded.dyn_into::<js_sys::Promise>().unwrap()).await.unwrap();
    let root = mount_at(15_505).await;
    click(&root, "export-svg").await;
    assert_eq!(status(&root), ("Downloading redis-gc-pause-t15505.svg.".to_string(), false));
    let svg = last_blob().await;
    assert!(svg.starts_with("<?xml") && svg.contains(">15.505 s</text>") && svg.contains("STALE, accepted"));
    assert!(svg.contains(".diagram text { fill: #123456; }"), "the page's stylesheet, its variables resolved");
    js("document.getElementById('diagram-css').remove()");
    root.remove();
}
