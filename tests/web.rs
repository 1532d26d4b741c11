//! Component tests in a real browser (headless Chromium via wasm-bindgen-test-runner):
//! the app mounts, the switches re-simulate in place, the transport moves the cursor.
//!
//!   CHROMEDRIVER=/usr/bin/chromedriver PATH=.tools/bin:$PATH \
//!     cargo test --target wasm32-unknown-unknown --test web
#![cfg(target_arch = "wasm32")]

use locklab::scenario::catalog;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

mod browser;
use browser::*;

fn cursor(root: &Element) -> i64 {
    attr(root, "diagram", "data-cursor-ms").parse().unwrap()
}

async fn scrub(root: &Element, ms: i64) {
    let input: HtmlInputElement = find(root, "scrub").dyn_into().unwrap();
    input.set_value(&ms.to_string());
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    rendered().await;
}

fn rows(root: &Element, result: &str) -> u32 {
    find(root, "ledger").query_selector_all(&format!("[data-testid=\"ledger-row\"][data-result=\"{result}\"]")).unwrap().length()
}

#[wasm_bindgen_test]
async fn mounts_with_the_gc_pause_story_unsafe() {
    let root = mount("").await;
    assert_eq!(find(&root, "scenario-picker").dyn_into::<HtmlSelectElement>().unwrap().value(), "redis-gc-pause");
    assert_eq!(attr(&root, "verdict", "data-safe"), "false");
    assert_eq!(attr(&root, "verdict", "data-stale-accepted"), "1");
    // No spoilers: at t=0 the ledger has no write yet and the verdict speaks of the run so far.
    assert_eq!(rows(&root, "stale-accepted"), 0);
    assert!(find(&root, "verdict-so-far").text_content().unwrap().contains("So far"));
    assert_eq!(cursor(&root), 0);
    assert!(!find(&root, "caption").text_content().unwrap().is_empty());
    click(&root, "show-outcome").await;
    until_eq("the stale writes the outcome lists (every write, shown up front)", || rows(&root, "stale-accepted"), 1).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn fencing_switch_flips_the_verdict_and_keeps_the_cursor() {
    let root = mount("").await;
    scrub(&root, 12_345).await;
    assert_eq!(cursor(&root), 12_345);
    click(&root, "fencing-toggle").await;
    assert!(find(&root, "fencing-toggle").dyn_into::<HtmlInputElement>().unwrap().checked());
    until_eq("the verdict with fencing on", || attr(&root, "verdict", "data-safe"), "true".to_string()).await;
    assert_eq!(attr(&root, "verdict", "data-stale-accepted"), "0");
    assert_eq!(cursor(&root), 12_345, "re-simulating keeps the cursor");
    click(&root, "show-outcome").await;
    until_eq("the rejected writes", || rows(&root, "rejected"), 1).await;
    assert_eq!(rows(&root, "stale-accepted"), 0);
    click(&root, "show-outcome").await;
    click(&root, "fencing-toggle").await;
    until_eq("the verdict with fencing off again", || attr(&root, "verdict", "data-safe"), "false".to_string()).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn step_and_step_back_move_between_events() {
    let root = mount("").await;
    let first_caption = find(&root, "caption").text_content().unwrap();
    click(&root, "step").await;
    click(&root, "step").await;
    let after_two = cursor(&root);
    assert!(after_two > 0);
    assert_ne!(find(&root, "caption").text_content().unwrap(), first_caption);
    click(&root, "step-back").await;
    assert!(cursor(&root) <= after_two);
    click(&root, "step-back").await;
    assert_eq!(find(&root, "caption").text_content().unwrap(), first_caption);
    root.remove();
}

#[wasm_bindgen_test]
async fn play_advances_and_pause_stops() {
    let root = mount("").await;
    click(&root, "play").await;
    assert_eq!(attr(&root, "play", "aria-pressed"), "true");
    until("playing to move the cursor", || cursor(&root) > 0).await;
    click(&root, "play").await;
    until_eq("the play button once paused", || attr(&root, "play", "aria-pressed"), "false".to_string()).await;
    let stopped = cursor(&root);
    frames(10).await;
    assert_eq!(cursor(&root), stopped, "paused means no frames");
    root.remove();
}

#[wasm_bindgen_test]
async fn picker_lists_every_builtin_grouped_by_approach() {
    let root = mount("").await;
    let picker = find(&root, "scenario-picker");
    let options = picker.query_selector_all("optgroup > option").unwrap();
    assert_eq!(options.length() as usize, catalog::all().len());
    // A group per approach (each has built-ins of its own) and one for the real outages.
    let groups = picker.query_selector_all("optgroup").unwrap().length() as usize;
    assert_eq!(groups, locklab::scenario::Approach::ALL.len() + usize::from(!catalog::outages().is_empty()));
    let select: HtmlSelectElement = picker.dyn_into().unwrap();
    select.set_value("redis-plain-del-unlock");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    rendered().await;
    assert!(find(&root, "diagram").text_content().unwrap().contains('C'), "a third client lane");
    assert_eq!(cursor(&root), 0);
    root.remove();
}

#[wasm_bindgen_test]
async fn safe_unlock_switch_re_simulates_the_plain_del_story() {
    let root = mount("").await;
    let select: HtmlSelectElement = find(&root, "scenario-picker").dyn_into().unwrap();
    select.set_value("redis-plain-del-unlock");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    rendered().await;
    let toggle: HtmlInputElement = find(&root, "safe-unlock-toggle").dyn_into().unwrap();
    assert!(!toggle.checked());
    let figure = |root: &Element| find(root, "diagram").parent_element().unwrap().inner_html();
    let before = figure(&root);
    assert!(before.contains("deleted by A"));
    click(&root, "safe-unlock-toggle").await;
    assert!(find(&root, "safe-unlock-toggle").dyn_into::<HtmlInputElement>().unwrap().checked());
    assert!(!figure(&root).contains("deleted by A"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_longer_ttl_outlasts_the_pause_and_the_run_is_safe() {
    let root = mount("").await;
    scrub(&root, 9_000).await;
    let ttl: HtmlInputElement = find(&root, "ttl").dyn_into().unwrap();
    ttl.set_value("20000");
    ttl.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    rendered().await;
    until_eq("the verdict with a 20 s TTL", || attr(&root, "verdict", "data-safe"), "true".to_string()).await;
    assert_eq!(cursor(&root), 9_000);
    // An invalid value is refused with its field path; the last good run stays.
    ttl.set_value("0");
    ttl.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    rendered().await;
    until("the TTL's field path in an error", || root.text_content().unwrap().contains("lock.ttl_ms")).await;
    assert_eq!(attr(&root, "verdict", "data-safe"), "true");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_address_bar_is_a_permalink() {
    let root = mount("").await;
    click(&root, "fencing-toggle").await;
    scrub(&root, 4_321).await;
    // The address is written back after a short delay.
    let search = || web_sys::window().unwrap().location().search().unwrap();
    until_eq("the address bar", search, "?scenario=redis-gc-pause&fencing=on&t=4321".to_string()).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn key_moments_jump_and_findings_link_to_their_event() {
    let root = mount("").await;
    click(&root, "key-next").await;
    let first = cursor(&root);
    assert!(first > 0);
    click(&root, "key-next").await;
    assert!(cursor(&root) > first);
    click(&root, "key-prev").await;
    assert_eq!(cursor(&root), first);
    // The stale-write finding moves the cursor to the write (findings show once the outcome does).
    click(&root, "show-outcome").await;
    let link: HtmlElement = find(&root, "verdict").query_selector(".finding button").unwrap().unwrap().dyn_into().unwrap();
    link.click();
    rendered().await;
    let stale_at: i64 = locklab::lab::run(&catalog::get("redis-gc-pause").unwrap()).verdict.findings[0].at_ms;
    assert_eq!(cursor(&root), stale_at);
    root.remove();
}

/// Types `text` into the scenario editor (opened first) and runs it.
async fn load_json(root: &Element, text: &str) {
    find(root, "scenario-json").set_attribute("open", "").unwrap();
    // <details> announces its opening with an event of its own, after this turn.
    until("the editor to open", || exists(root, "scenario-json-input")).await;
    let area: web_sys::HtmlTextAreaElement = find(root, "scenario-json-input").dyn_into().unwrap();
    area.set_value(text);
    area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    rendered().await;
    click(root, "scenario-json-run").await;
}

#[wasm_bindgen_test]
async fn a_bad_scenario_is_refused_with_its_field_path_and_nothing_is_lost() {
    let root = mount("").await;
    let bad = r#"{"version": 1, "approach": "redis", "faults": [{"at_ms": 1, "kind": "pause", "node": "redis-9", "duration_ms": 5}]}"#;
    load_json(&root, bad).await;
    until("the error", || exists(&root, "scenario-error")).await;
    let error = find(&root, "scenario-error").text_content().unwrap();
    assert_eq!(error, r#"faults[0].node: no node named "redis-9" (redis has A, B, redis, storage)"#);
    // The draft and the run on screen are untouched.
    let area: web_sys::HtmlTextAreaElement = find(&root, "scenario-json-input").dyn_into().unwrap();
    assert_eq!(area.value(), bad);
    assert_eq!(attr(&root, "verdict", "data-safe"), "false");

    let good = r#"{"version": 1, "approach": "etcd", "storage": {"fencing": true},
        "faults": [{"at_ms": 500, "kind": "pause", "node": "A", "duration_ms": 15000}]}"#;
    load_json(&root, good).await;
    until("the error to go", || !exists(&root, "scenario-error")).await;
    until_eq("the verdict of the etcd run", || attr(&root, "verdict", "data-safe"), "true".to_string()).await;
    click(&root, "show-outcome").await;
    until_eq("the rejected writes", || rows(&root, "rejected"), 1).await;
    root.remove();
}
