//! Where the app starts: `?scenario=redis-gc-pause&fencing=on&t=15502&lecture=1&embed=1`, so
//! a link can open a lecture (or an embedded figure) at the right moment; and the same query
//! written back as the view changes, so the address bar is always a permalink. Also reads the
//! reduced-motion preference.

use super::state::Start;

fn flag(v: &str) -> Option<bool> {
    match v {
        "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// Parses a query string ("?a=1&b=2"); unknown keys are ignored.
pub fn parse(query: &str) -> Start {
    let mut s = Start::default();
    for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, "1"));
        match k {
            "scenario" => s.scenario = Some(v.to_string()),
            "fencing" => s.fencing = flag(v),
            "safe_unlock" => s.safe_unlock = flag(v),
            "embed" => s.embed = flag(v).unwrap_or(false),
            "t" => s.cursor_ms = v.parse().ok(),
            "lecture" => s.lecture = flag(v).unwrap_or(false),
            "compare" => s.compare = Some(v.to_string()),
            _ => {}
        }
    }
    s
}

/// The query that reopens this view. Only what differs from the scenario as built in is
/// written, so a plain link stays plain.
pub fn query(id: &str, fencing: Option<bool>, safe_unlock: Option<bool>, cursor_ms: i64, lecture: bool, embed: bool) -> String {
    let mut q = format!("?scenario={id}");
    let on = |b: bool| if b { "on" } else { "off" };
    if let Some(f) = fencing {
        q += &format!("&fencing={}", on(f));
    }
    if let Some(u) = safe_unlock {
        q += &format!("&safe_unlock={}", on(u));
    }
    if cursor_ms > 0 {
        q += &format!("&t={cursor_ms}");
    }
    if lecture {
        q += "&lecture=1";
    }
    if embed {
        q += "&embed=1";
    }
    q
}

/// Replaces the address bar's query without a navigation or a history entry.
pub fn write_back(query: &str) {
    let Some(w) = web_sys::window() else { return };
    if w.location().search().ok().as_deref() == Some(query) {
        return;
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query));
    }
}

/// The start state of this page.
pub fn from_page() -> Start {
    let window = web_sys::window();
    let query = window.as_ref().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let mut s = parse(&query);
    s.reduced_motion = window.and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches());
    s
}
