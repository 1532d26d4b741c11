//! What the browser test files (tests/web*.rs) share: mount the app as a page opened at some
//! address, find elements by `data-testid`, click them, and wait for conditions, never for a
//! fixed time: `rendered` (Yew has rendered what an event queued), `until` / `until_eq` (the
//! page reached a state, within a bound, or the test fails saying which), `frames` (the page
//! drew n frames: how a test shows that something stands still).
#![allow(dead_code)] // each test file uses its own part of it

use std::fmt::Debug;

use locklab::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement};

/// How long `until` waits for the page to reach a state before failing: far above what any
/// change takes (the editor's check delay is 300 ms), far below the runner's own timeout.
const PATIENCE_MS: f64 = 10_000.0;

/// A mounted app; `remove` unmounts it and removes its element.
pub struct Mounted {
    pub root: Element,
    app: Option<yew::AppHandle<App>>,
}

impl std::ops::Deref for Mounted {
    type Target = Element;
    fn deref(&self) -> &Element {
        &self.root
    }
}

impl Mounted {
    pub fn remove(mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.root.remove();
    }
}

/// Puts `query` ("?scenario=…", or "" for a plain start) in the address bar, as if the page had
/// been opened there. The app writes its permalink into the address bar, so every test sets it.
pub fn open_at(query: &str) {
    let window = web_sys::window().unwrap();
    let path = format!("{}{query}", window.location().pathname().unwrap());
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path)).unwrap();
}

/// A fresh app in its own element, started from the address as it is, after its first render.
pub async fn mount_as_is() -> Mounted {
    let doc = gloo::utils::document();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    // No data folder here: the catalog, lessons and recordings from what is compiled in.
    locklab::ui::library::install_compiled();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    // The diagram is drawn on the pass after it measured its width, and what is below the fold
    // (panels, knobs, the editor) on the pass after the first paint.
    until("the diagram and the editor to be drawn", || exists(&root, "diagram") && exists(&root, "scenario-json")).await;
    rendered().await;
    Mounted { root, app: Some(app) }
}

/// A fresh app opened at `query`.
pub async fn mount(query: &str) -> Mounted {
    open_at(query);
    mount_as_is().await
}

/// Resolves when Yew has rendered everything queued so far (what an event changed included).
pub async fn rendered() {
    yew::scheduler::flush().await;
}

/// Resolves at the page's next animation frame.
async fn next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().request_animation_frame(&resolve).unwrap();
    });
    JsFuture::from(frame).await.unwrap();
}

/// Lets the page draw `n` frames. Playback advances once a frame, so this is how a test shows
/// that the cursor stands still.
pub async fn frames(n: u32) {
    for _ in 0..n {
        next_frame().await;
    }
}

/// Waits until `cond` holds, looking again at every frame (after Yew has rendered); fails
/// naming `what` when it does not within `PATIENCE_MS`.
pub async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = js_sys::Date::now() + PATIENCE_MS;
    loop {
        rendered().await;
        if cond() {
            return;
        }
        assert!(js_sys::Date::now() < deadline, "waited {PATIENCE_MS} ms for {what}");
        next_frame().await;
    }
}

/// Waits until `get()` gives `want`; fails naming `what` and the last value it gave.
pub async fn until_eq<T: PartialEq + Debug>(what: &str, mut get: impl FnMut() -> T, want: T) {
    let deadline = js_sys::Date::now() + PATIENCE_MS;
    loop {
        rendered().await;
        let got = get();
        if got == want {
            return;
        }
        assert!(js_sys::Date::now() < deadline, "waited {PATIENCE_MS} ms for {what} to be {want:?}; it is {got:?}");
        next_frame().await;
    }
}

pub fn find(root: &Element, testid: &str) -> Element {
    root.query_selector(&format!("[data-testid=\"{testid}\"]")).unwrap().unwrap_or_else(|| panic!("no {testid}"))
}

pub fn exists(root: &Element, testid: &str) -> bool {
    root.query_selector(&format!("[data-testid=\"{testid}\"]")).unwrap().is_some()
}

pub fn attr(root: &Element, testid: &str, name: &str) -> String {
    find(root, testid).get_attribute(name).unwrap_or_default()
}

pub async fn click(root: &Element, testid: &str) {
    find(root, testid).dyn_into::<HtmlElement>().unwrap().click();
    rendered().await;
}
