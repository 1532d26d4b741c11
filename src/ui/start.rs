//! Where the app starts: `?scenario=redis-gc-pause&fencing=on&t=15502&lecture=1`, so a link
//! can open a lecture at the right moment. Also reads the reduced-motion preference.

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
            "t" => s.cursor_ms = v.parse().ok(),
            "lecture" => s.lecture = flag(v).unwrap_or(false),
            _ => {}
        }
    }
    s
}

/// The start state of this page.
pub fn from_page() -> Start {
    let window = web_sys::window();
    let query = window.as_ref().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let mut s = parse(&query);
    s.reduced_motion = window.and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches());
    s
}
