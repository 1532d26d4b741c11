//! What the browser test files (tests/web*.rs) share: mount the app as a page opened at some
//! address, find elements by `data-testid`, click them, and wait for Yew to render.
#![allow(dead_code)] // each test file uses its own part of it

use std::time::Duration;

use locklab::ui::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

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
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    // The diagram is drawn on the pass after it measured its width, and what is below the fold
    // (panels, knobs, the editor) on the pass after the first paint; on a loaded machine that
    // can take longer than one settle. Wait for both (up to 4 s), then let that pass finish.
    let drawn = |id: &str| root.query_selector(&format!("[data-testid=\"{id}\"]")).ok().flatten().is_some();
    for _ in 0..50 {
        if drawn("diagram") && drawn("scenario-json") {
            break;
        }
        sleep(80).await;
    }
    settle().await;
    Mounted { root, app: Some(app) }
}

/// A fresh app opened at `query`.
pub async fn mount(query: &str) -> Mounted {
    open_at(query);
    mount_as_is().await
}

pub async fn sleep(ms: u64) {
    yew::platform::time::sleep(Duration::from_millis(ms)).await;
}

/// Long enough for Yew to render what an event changed.
pub async fn settle() {
    sleep(80).await;
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
    settle().await;
}
