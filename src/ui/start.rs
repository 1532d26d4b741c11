//! The page's address, both ways: what the app starts from (`location.search` and
//! `location.hash`, read by `scenario::share::open`), and the link written back into the
//! address bar as the view rests, so the address bar is always a permalink. Also reads the
//! reduced-motion and colour-scheme preferences.
//!
//! Embedded in `<iframe sandbox="allow-scripts">` the page has an opaque origin: storage and
//! the history API may throw there. Every call below goes through a `Result`, and embed mode
//! never writes the address bar at all.

use super::state::Start;

/// The start state of this page.
pub fn from_page() -> Start {
    let window = web_sys::window();
    let location = window.as_ref().map(|w| w.location());
    Start {
        search: location.as_ref().and_then(|l| l.search().ok()).unwrap_or_default(),
        hash: location.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default(),
        reduced_motion: matches(window.as_ref(), "(prefers-reduced-motion: reduce)"),
        prefers_dark: matches(window.as_ref(), "(prefers-color-scheme: dark)"),
    }
}

/// Whether the screen matches a media query (the user's preferences).
fn matches(window: Option<&web_sys::Window>, query: &str) -> bool {
    window.and_then(|w| w.match_media(query).ok().flatten()).is_some_and(|m| m.matches())
}

/// The app's own address without query and fragment, where a link's `?…#…` goes.
pub fn page_base() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    crate::scenario::share::base(&href).to_string()
}

/// Replaces the address bar's query and fragment with `link` (`?…#…`), without a navigation
/// or a history entry. A refusal (sandboxed, opaque origin) is ignored: the view works on.
pub fn write_back(link: &str) {
    let Some(w) = web_sys::window() else { return };
    let l = w.location();
    let now = format!("{}{}", l.search().unwrap_or_default(), l.hash().unwrap_or_default());
    if now == link {
        return;
    }
    // With an empty link, a bare "" would keep the old query: name the path itself.
    let url = format!("{}{link}", l.pathname().unwrap_or_default());
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
