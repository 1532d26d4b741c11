//! Component tests of the scenario editor in headless Chromium: live validation with field
//! paths, the form writing the JSON, the draft kept in local storage, and an editor that keeps
//! working (and says so) when local storage throws as it does in a sandboxed iframe.
//!
//!   CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_PROFILE_TEST_DEBUG=0 CHROMEDRIVER=/usr/bin/chromedriver \
//!     PATH=.tools/bin:$PATH cargo test --target wasm32-unknown-unknown --test web_editor
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

mod browser;
use browser::{exists, find, frames, open_at, rendered, until, until_eq, Mounted};

// The editor checks a draft 300 ms after the last keystroke: each test waits for what that
// check shows (an error, its absence, the JSON the form wrote), not for the delay.

fn local_storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// A fresh app opened plainly, with the editor open.
async fn mount() -> Mounted {
    open_at("");
    mount_as_is().await
}

/// A fresh app from the address as it is, with the editor open.
async fn mount_as_is() -> Mounted {
    let m = browser::mount_as_is().await;
    find(&m, "scenario-json").set_attribute("open", "").unwrap();
    // The editor renders its form and JSON once open (<details> says so with an event).
    until("the editor's form and JSON", || exists(&m, "editor-form") && exists(&m, "scenario-json-input")).await;
    m
}

fn clear_storage() {
    let s = local_storage();
    s.remove_item("locklab.draft").unwrap();
    s.remove_item("locklab.saved").unwrap();
}

fn json(root: &Element) -> HtmlTextAreaElement {
    find(root, "scenario-json-input").dyn_into().unwrap()
}

async fn type_json(root: &Element, text: &str) {
    let area = json(root);
    area.set_value(text);
    area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    rendered().await;
}

fn field(root: &Element, path: &str) -> HtmlInputElement {
    root.query_selector(&format!("[data-path=\"{path}\"]")).unwrap().unwrap_or_else(|| panic!("no field {path}")).dyn_into().unwrap()
}

async fn type_field(root: &Element, path: &str, value: &str) {
    let input = field(root, path);
    input.set_value(value);
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    rendered().await;
}

fn run_blocked(root: &Element) -> bool {
    find(root, "scenario-json-run").has_attribute("disabled")
}

fn verdict_safe(root: &Element) -> String {
    find(root, "verdict").get_attribute("data-safe").unwrap_or_default()
}

fn error_text(root: &Element) -> Option<String> {
    exists(root, "scenario-error").then(|| find(root, "scenario-error").text_content().unwrap_or_default())
}

/// Clicks Run and waits for the verdict it brings.
async fn run_until_safe(root: &Element) {
    find(root, "scenario-json-run").dyn_into::<HtmlElement>().unwrap().click();
    until_eq("the verdict of the run", || verdict_safe(root), "true".to_string()).await;
}

#[wasm_bindgen_test]
async fn an_invalid_value_is_named_as_it_is_typed_and_cannot_run_while_the_run_stays() {
    clear_storage();
    let root = mount().await;
    assert!(!exists(&root.root, "scenario-error"));
    type_field(&root.root, "lock.ttl_ms", "0").await;
    let out_of_range = "lock.ttl_ms: 0 ms is out of range: must be 1..=600000 ms";
    until_eq("the error", || error_text(&root.root), Some(out_of_range.to_string())).await;
    assert_eq!(field(&root.root, "lock.ttl_ms").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(run_blocked(&root.root));
    assert_eq!(verdict_safe(&root.root), "false", "the gc-pause run stays on screen");
    // The invalid draft is kept, in the JSON and in storage.
    assert!(json(&root.root).value().contains("\"ttl_ms\": 0"));
    assert!(local_storage().get_item("locklab.draft").unwrap().unwrap().contains("\"ttl_ms\": 0"));

    type_field(&root.root, "lock.ttl_ms", "10000").await;
    until_eq("the error", || error_text(&root.root), None).await;
    assert!(!run_blocked(&root.root));
    root.remove();
}

#[wasm_bindgen_test]
async fn text_a_field_cannot_take_is_refused_with_its_path_and_the_draft_keeps_its_value() {
    clear_storage();
    let root = mount().await;
    type_field(&root.root, "faults[0].duration_ms", "15s").await;
    let not_whole = "faults[0].duration_ms: \"15s\" is not a whole number";
    until_eq("the error", || error_text(&root.root), Some(not_whole.to_string())).await;
    assert!(json(&root.root).value().contains("\"duration_ms\": 15000"));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_form_writes_the_json_and_a_run_shows_it() {
    clear_storage();
    let root = mount().await;
    let fencing = field(&root.root, "storage.fencing");
    fencing.click();
    until("the form to write fencing into the JSON", || json(&root.root).value().contains("\"fencing\": true")).await;
    run_until_safe(&root.root).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn an_approach_setting_has_its_input_with_its_default_and_its_rule_named_at_its_path() {
    clear_storage();
    open_at("?scenario=k8s-lease-gc-pause");
    let root = mount_as_is().await;
    // client-go's RenewDeadline, drawn from its Param: empty, its default as the placeholder.
    let deadline = field(&root.root, "lock.renew_deadline_ms");
    assert_eq!(deadline.placeholder(), "10000");
    assert!(find(&root.root, "approach-settings").text_content().unwrap().contains("RenewDeadline"));
    // A value against client-go's rule (LeaseDuration > RenewDeadline) is named at its path.
    type_field(&root.root, "lock.renew_deadline_ms", "60000").await;
    until("the rule's error", || {
        error_text(&root.root).is_some_and(|e| e.starts_with("lock.renew_deadline_ms: 60000 ms must be below the LeaseDuration"))
    })
    .await;
    assert!(run_blocked(&root.root));
    assert!(json(&root.root).value().contains("\"renew_deadline_ms\": 60000"));
    type_field(&root.root, "lock.renew_deadline_ms", "").await;
    until_eq("the error", || error_text(&root.root), None).await;
    root.remove();
    // A database lease row has no settings of its own: no row. (Redis has one since its
    // delayed restart, `lock.restart_delay_ms`.)
    clear_storage();
    open_at("?scenario=db-lease-gc-pause");
    let plain = mount_as_is().await;
    assert!(!exists(&plain.root, "approach-settings"), "db-lease-gc-pause has no settings of its own");
    plain.remove();
}

#[wasm_bindgen_test]
async fn json_the_form_cannot_read_disables_the_form_and_names_the_field() {
    clear_storage();
    let root = mount().await;
    type_json(&root.root, r#"{"version": 1, "approach": "redis", "lock": {"ttl": 5}}"#).await;
    until("the error", || exists(&root.root, "scenario-error")).await;
    let error = find(&root.root, "scenario-error").text_content().unwrap();
    assert!(error.starts_with("lock.ttl: unknown field `ttl`"), "{error}");
    assert!(find(&root.root, "editor-form").has_attribute("disabled"));
    assert!(run_blocked(&root.root));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_draft_comes_back_in_a_new_app() {
    clear_storage();
    let root = mount().await;
    type_field(&root.root, "title", "Mine, half done").await;
    let draft = || local_storage().get_item("locklab.draft").unwrap().unwrap_or_default();
    until("the draft to be saved", || draft().contains("\"title\": \"Mine, half done\"")).await;
    root.remove();
    let again = mount().await;
    assert!(json(&again.root).value().contains("\"title\": \"Mine, half done\""));
    assert_eq!(field(&again.root, "title").value(), "Mine, half done");
    again.remove();
}

#[wasm_bindgen_test]
async fn without_local_storage_the_editor_says_saving_is_off_and_still_runs() {
    clear_storage();
    // What a sandboxed iframe without allow-same-origin does: reading localStorage throws.
    // (Window's attributes live on the window itself: keep the real one to put it back.)
    js_sys::eval(
        "window.realLocalStorage = Object.getOwnPropertyDescriptor(window, 'localStorage');
         Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('denied', 'SecurityError'); } })",
    )
    .unwrap();
    let root = mount().await;
    let off = find(&root.root, "storage-off").text_content().unwrap();
    assert!(off.starts_with("Saving is off: this page may not store anything here"), "{off}");
    assert!(!exists(&root.root, "save-scenario"));
    field(&root.root, "storage.fencing").click();
    until("the form to write fencing into the JSON", || json(&root.root).value().contains("\"fencing\": true")).await;
    run_until_safe(&root.root).await;
    root.remove();
    js_sys::eval(
        "if (window.realLocalStorage) Object.defineProperty(window, 'localStorage', window.realLocalStorage); else delete window.localStorage",
    )
    .unwrap();
    assert!(local_storage().get_item("locklab.draft").is_ok(), "local storage is back for the other tests");
}

#[wasm_bindgen_test]
async fn space_in_the_editor_is_for_the_editor_not_for_playback() {
    clear_storage();
    let root = mount().await;
    js_sys::eval(
        "document.querySelector('[data-path=\"storage.fencing\"]').dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }))",
    )
    .unwrap();
    rendered().await;
    frames(10).await; // playing would have moved the cursor in any one of them
    assert_eq!(find(&root.root, "play").get_attribute("aria-pressed").as_deref(), Some("false"), "Space did not start playing");
    assert_eq!(find(&root.root, "diagram").get_attribute("data-cursor-ms").as_deref(), Some("0"), "Space did not start playing");
    root.remove();
}
