//! Permalinks: the whole view in a URL, and back.
//!
//! ```text
//! ?scenario=redis-gc-pause&seed=7&fencing=on&unlock=plain&t=15502&lecture=1&embed=1
//! #s=<base64url of the scenario's compact JSON>
//! ```
//!
//! A built-in, changed at most in what the query says (seed, fencing, unlock), is named by its
//! id; anything else (a knob turned, a pasted scenario) travels whole in `#s=`, so opening the
//! link runs the same scenario and gives the same trace. `#s=` wins over `?scenario=`; the
//! query's seed, fencing and unlock override the scenario's. A bad link never stops the app:
//! each problem is named, the bad part ignored, and a scenario that cannot be had falls back
//! (to `?scenario=`, else the first built-in).
//!
//! Plain Rust, no browser: the UI hands in `location.search` and `location.hash`.

use super::format::{Approach, Scenario};
use crate::theme::Theme;

/// What the scenario on screen is compared with: the same story on another approach, or its
/// run on real servers as recorded (`crate::recorded`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    Approach(Approach),
    Recorded,
}

impl Against {
    /// Its id in a link and in the compare select: the approach's, or `real`.
    pub fn id(self) -> &'static str {
        match self {
            Against::Approach(a) => a.id(),
            Against::Recorded => "real",
        }
    }

    pub fn by_id(id: &str) -> Option<Against> {
        if id == "real" {
            Some(Against::Recorded)
        } else {
            Approach::by_id(id).map(Against::Approach)
        }
    }
}

/// The longest `#s=` value accepted (and written), in characters of base64url text: 16 KB,
/// about 12 KB of JSON. Browsers and chat apps cope with URLs of this length; the scenario
/// format's own limit (64 KiB) is for files.
pub const MAX_ENCODED_LEN: usize = 16 * 1024;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url (RFC 4648 §5) without padding: safe in a URL fragment as it is.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = |i: usize| chunk.get(i).copied().unwrap_or(0) as u32;
        let n = b(0) << 16 | b(1) << 8 | b(2);
        // 1 byte → 2 characters, 2 → 3, 3 → 4.
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

/// Decodes base64url, with or without `=` padding. The standard alphabet's `+` and `/` are
/// taken too: a link that went through a tool that "fixed" it still opens.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.chars().enumerate() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' | '+' => 62,
            '_' | '/' => 63,
            // Display, not Debug: the lean release build prints no Debug formatting (scripts/env.sh).
            _ => return Err(format!("not base64url: '{c}' at position {}", i + 1)),
        };
        acc = (acc << 6 | v) & 0xffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    // 4n+1 characters carry 6 stray bits: the text was cut short.
    if bits >= 6 {
        return Err("not base64url: the text is cut short".into());
    }
    Ok(out)
}

/// What opening a link gives: the scenario to run (with the query's overrides applied) and
/// the view around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub scenario: Scenario,
    pub cursor_ms: Option<i64>,
    pub modes: Modes,
    /// What was wrong with the link, one entry per problem, each naming its parameter.
    pub problems: Vec<String>,
    /// The scenario the link asked for could not be had; another is on screen.
    pub fell_back: bool,
}

impl Opened {
    /// The banner's text: what was wrong and what is shown instead (None: nothing wrong).
    pub fn banner(&self) -> Option<String> {
        if self.problems.is_empty() {
            return None;
        }
        let what = self.problems.join("; ");
        Some(if self.fell_back {
            let title = if self.scenario.title.is_empty() { &self.scenario.id } else { &self.scenario.title };
            format!("This link's scenario could not be opened ({what}). Showing \u{201c}{title}\u{201d} instead.")
        } else {
            format!("Part of this link was ignored ({what}).")
        })
    }
}

/// How the view is shown, as a link carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modes {
    /// `lecture=1`: big type, high contrast, stops at key moments.
    pub lecture: bool,
    /// `embed=1`: the diagram, caption and transport alone, fitted to an iframe.
    pub embed: bool,
    /// `outcome=1`: the verdict and findings of the whole run show from the start (for
    /// documentation pages); otherwise they build up as the cursor passes them.
    pub outcome: bool,
    /// `compare=<approach id>`: side by side with that approach; `compare=real`: with the
    /// scenario's recorded run on real servers.
    pub compare: Option<Against>,
    /// `theme=light|dark|projector`: chosen; absent, the lecture and the screen decide
    /// (`Theme::shown`).
    pub theme: Option<Theme>,
}

fn flag(v: &str) -> Option<bool> {
    match v {
        "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// `key=value` pairs of a query or fragment; a bare `key` reads as `key=1`.
pub(crate) fn pairs(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, "1")))
}

/// Reads a link (`location.search`, `location.hash`) against the built-ins. Never fails: what
/// is wrong lands in `problems`, and the rest of the link still counts.
pub fn open(search: &str, hash: &str, catalog: &[Scenario]) -> Opened {
    let mut problems = Vec::new();
    let mut bad = |key: &str, v: &str, want: &str| problems.push(format!("{key}={v}: {want}; ignored"));
    let (mut id, mut seed, mut fencing, mut safe_unlock, mut cursor_ms) = (None, None, None, None, None);
    let mut modes = Modes::default();
    for (k, v) in pairs(search.trim_start_matches('?')) {
        match k {
            "scenario" => id = Some(v),
            "seed" => match v.parse::<u64>() {
                Ok(n) => seed = Some(n),
                Err(_) => bad(k, v, "expected a whole number ≥ 0"),
            },
            "fencing" => match flag(v) {
                Some(f) => fencing = Some(f),
                None => bad(k, v, "expected on or off"),
            },
            "unlock" => match v {
                "safe" => safe_unlock = Some(true),
                "plain" => safe_unlock = Some(false),
                _ => bad(k, v, "expected safe or plain"),
            },
            // The first permalinks wrote safe_unlock=on|off; those links still open.
            "safe_unlock" => match flag(v) {
                Some(u) => safe_unlock = Some(u),
                None => bad(k, v, "expected on or off"),
            },
            "t" => match v.parse::<i64>() {
                Ok(ms) if ms >= 0 => cursor_ms = Some(ms),
                _ => bad(k, v, "expected a time in whole milliseconds ≥ 0"),
            },
            "lecture" | "embed" | "outcome" => match flag(v) {
                Some(on) if k == "lecture" => modes.lecture = on,
                Some(on) if k == "embed" => modes.embed = on,
                Some(on) => modes.outcome = on,
                None => bad(k, v, "expected 1 or 0"),
            },
            "compare" => match Against::by_id(v) {
                Some(a) => modes.compare = Some(a),
                None if v == "none" => {}
                None => {
                    let ids: Vec<&str> = Approach::ALL.iter().map(|a| a.id()).collect();
                    bad(k, v, &format!("expected an approach id ({}) or real", ids.join(", ")))
                }
            },
            "theme" => match Theme::by_id(v) {
                Some(t) => modes.theme = Some(t),
                None => bad(k, v, "expected light, dark or projector"),
            },
            // Other tools add their own parameters (utm_source, …): not ours to refuse.
            _ => {}
        }
    }
    let encoded = pairs(hash.trim_start_matches('#')).find(|(k, _)| *k == "s").map(|(_, v)| v);
    let mut fell_back = false;
    let custom = encoded.and_then(|text| match decode_scenario(text) {
        Ok(s) => Some(s),
        Err(e) => {
            problems.push(format!("#s=: {e}"));
            fell_back = true;
            None
        }
    });
    let scenario = custom.or_else(|| {
        let id = id?;
        let found = catalog.iter().find(|s| s.id == id).cloned();
        if found.is_none() {
            problems.push(format!("scenario={id}: no built-in scenario has this id"));
            fell_back = true;
        }
        found
    });
    let mut scenario = scenario.or_else(|| catalog.first().cloned()).unwrap_or_else(fallback_scenario);
    if let Some(n) = seed {
        scenario.seed = n;
    }
    if let Some(f) = fencing {
        scenario.storage.fencing = f;
    }
    if let Some(u) = safe_unlock {
        scenario.lock.safe_unlock = u;
    }
    Opened { scenario, cursor_ms, modes, problems, fell_back }
}

/// Only reached with an empty catalog (never in the app; keeps `open` total).
fn fallback_scenario() -> Scenario {
    // Not `expect`: its Debug formatting of the error would cost bundle size (see catalog.rs).
    super::parse(r#"{"version": 1, "approach": "redis"}"#).unwrap_or_else(|e| panic!("the minimal scenario is invalid: {e}"))
}

/// A `#s=` value → a validated scenario, or why not (with the CLI's field-path errors).
pub fn decode_scenario(text: &str) -> Result<Scenario, String> {
    if text.len() > MAX_ENCODED_LEN {
        return Err(format!("the encoded scenario is {} characters; a link carries at most {MAX_ENCODED_LEN} (16 KB)", text.len()));
    }
    let bytes = decode(text)?;
    let json = String::from_utf8(bytes).map_err(|_| "the decoded scenario is not UTF-8 text".to_string())?;
    super::parse(&json).map_err(|e| format!("invalid scenario: {e}"))
}

/// The part of a link that names the scenario, made once per scenario (the cursor and modes
/// are added per view by `link`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// `scenario=ID` and the overrides that differ from the built-in (empty for `#s=`).
    pub query: String,
    /// `#s=…` (empty for a built-in).
    pub hash: String,
    /// Set when the scenario is too large to travel in a link: its encoded length. The link
    /// then names only the built-in it came from, if any.
    pub too_large: Option<usize>,
}

impl Named {
    /// Whether the scenario is not a built-in (as it is, switches and seed aside).
    pub fn is_custom(&self) -> bool {
        !self.hash.is_empty() || self.too_large.is_some()
    }
}

/// How a link names `s`: by its built-in id when the built-in with that id, given the seed,
/// fencing and unlock the query can carry, is exactly `s`; else by the scenario itself.
pub fn name(s: &Scenario, catalog: &[Scenario]) -> Named {
    if let Some(named) = name_built_in(s, catalog) {
        return named;
    }
    let built_in = catalog.iter().find(|b| b.id == s.id);
    // Scenario serializes every field (defaults included), so the link does not depend on
    // today's defaults. Pretty, then squeezed: the app already serializes pretty for its
    // editor, and a second (compact) serializer would add ~10 KB to the wasm.
    let encoded = encode(squeeze(&serde_json::to_string_pretty(s).unwrap_or_default()).as_bytes());
    if encoded.len() > MAX_ENCODED_LEN {
        let query = built_in.map(|b| format!("scenario={}", b.id)).unwrap_or_default();
        return Named { query, hash: String::new(), too_large: Some(encoded.len()) };
    }
    Named { query: String::new(), hash: format!("#s={encoded}"), too_large: None }
}

/// `scenario=ID` and the switches that differ, when `s` is a built-in of `catalog` as the
/// query can carry it (`name`'s first half).
fn name_built_in(s: &Scenario, catalog: &[Scenario]) -> Option<Named> {
    let b = catalog.iter().find(|b| b.id == s.id)?;
    let mut same = b.clone();
    (same.seed, same.storage.fencing, same.lock.safe_unlock) = (s.seed, s.storage.fencing, s.lock.safe_unlock);
    (same == *s).then(|| Named { query: format!("scenario={}{}", s.id, overrides(s, b)), hash: String::new(), too_large: None })
}

/// The query's overrides (`&seed=…&fencing=…&unlock=…`) that make `base` into `s`.
fn overrides(s: &Scenario, base: &Scenario) -> String {
    let mut query = String::new();
    if s.seed != base.seed {
        query += &format!("&seed={}", s.seed);
    }
    if s.storage.fencing != base.storage.fencing {
        query += if s.storage.fencing { "&fencing=on" } else { "&fencing=off" };
    }
    if s.lock.safe_unlock != base.lock.safe_unlock {
        query += if s.lock.safe_unlock { "&unlock=safe" } else { "&unlock=plain" };
    }
    query
}

/// How the embeds' player names `s`, which it opened from a link whose `#s=` text was
/// `opened_from` (empty: none) and has changed since only by its switches: a built-in as
/// `name` names it; a scenario of one's own by that same `#s=` text, with the switches it now
/// differs by in the query (which `open` applies over it). The same view as `name`'s link
/// opens, with no serializer in the player's wasm (12 KB of it).
pub fn name_as_opened(s: &Scenario, catalog: &[Scenario], opened_from: &str) -> Named {
    if let Some(named) = name_built_in(s, catalog) {
        return named;
    }
    let query = decode_scenario(opened_from).map(|o| overrides(s, &o)).unwrap_or_default();
    let hash = if opened_from.is_empty() { String::new() } else { format!("#s={opened_from}") };
    Named { query: query.trim_start_matches('&').to_string(), hash, too_large: None }
}

/// JSON without the whitespace between tokens (strings kept as they are).
fn squeeze(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            (escaped, in_string) = (!escaped && c == '\\', escaped || c != '"');
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii_whitespace() {
            continue;
        }
        out.push(c);
    }
    out
}

/// The link to a view: `?query#hash`, to be put after the app's path. Cursor and modes are
/// written only when they are not the defaults, so a plain link stays plain.
pub fn link(named: &Named, cursor_ms: i64, modes: &Modes) -> String {
    let mut q = named.query.clone();
    let mut add = |p: &str| {
        if !q.is_empty() {
            q.push('&');
        }
        q += p;
    };
    if cursor_ms > 0 {
        add(&format!("t={cursor_ms}"));
    }
    if modes.lecture {
        add("lecture=1");
    }
    if modes.embed {
        add("embed=1");
    }
    if modes.outcome {
        add("outcome=1");
    }
    if let Some(a) = modes.compare {
        add(&format!("compare={}", a.id()));
    }
    if let Some(t) = modes.theme {
        add(&format!("theme={t}"));
    }
    let q = if q.is_empty() { q } else { format!("?{q}") };
    q + &named.hash
}

/// The app's address without its query and fragment (where a link's `?…#…` goes).
pub fn base(href: &str) -> &str {
    let end = href.find(['?', '#']).unwrap_or(href.len());
    &href[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::fault::Pause;
    use crate::scenario::{catalog, FaultSpec};

    fn open_link(link: &str) -> Opened {
        let (search, hash) = link.split_once('#').map_or((link, ""), |(s, h)| (s, h));
        open(search, hash, &catalog::all())
    }

    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        // RFC 4648 §10, without padding.
        for (plain, coded) in
            [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        // The URL-safe characters, and padding tolerated on the way in.
        assert_eq!(encode(&[0xfb, 0xff, 0xbf]), "-_-_");
        assert_eq!(decode("-_-_").unwrap(), [0xfb, 0xff, 0xbf]);
        assert_eq!(decode("+/+/").unwrap(), [0xfb, 0xff, 0xbf]);
        assert_eq!(decode("Zm8=").unwrap(), b"fo");
    }

    #[test]
    fn base64url_round_trips_every_byte_and_non_ascii_text() {
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for n in 0..bytes.len() {
            assert_eq!(decode(&encode(&bytes[..n])).unwrap(), &bytes[..n], "length {n}");
        }
        let text = "Zürich — 東京 — 🔒 lease";
        assert_eq!(String::from_utf8(decode(&encode(text.as_bytes())).unwrap()).unwrap(), text);
    }

    #[test]
    fn bad_base64url_names_the_character_or_the_cut() {
        assert_eq!(decode("Zm9v!x").unwrap_err(), "not base64url: '!' at position 5");
        assert_eq!(decode("Zm=9").unwrap_err(), "not base64url: '=' at position 3");
        assert_eq!(decode("Zm9vY").unwrap_err(), "not base64url: the text is cut short");
    }

    #[test]
    fn a_plain_built_in_link_stays_plain() {
        let all = catalog::all();
        let s = catalog::get("redis-gc-pause").unwrap();
        let named = name(&s, &all);
        assert_eq!(link(&named, 0, &Modes::default()), "?scenario=redis-gc-pause");
        assert_eq!(
            link(&named, 15_502, &Modes { lecture: true, embed: true, ..Modes::default() }),
            "?scenario=redis-gc-pause&t=15502&lecture=1&embed=1"
        );
        let etcd = Some(Against::Approach(Approach::Etcd));
        assert_eq!(link(&named, 0, &Modes { compare: etcd, ..Modes::default() }), "?scenario=redis-gc-pause&compare=etcd");
        assert_eq!(open_link("?scenario=redis-gc-pause&compare=etcd").modes.compare, etcd);
        assert_eq!(
            link(&named, 0, &Modes { compare: Some(Against::Recorded), ..Modes::default() }),
            "?scenario=redis-gc-pause&compare=real"
        );
        assert_eq!(open_link("?scenario=redis-gc-pause&compare=real").modes.compare, Some(Against::Recorded));
        assert_eq!(open_link("?scenario=redis-gc-pause&compare=none").modes.compare, None);
        assert_eq!(open_link("?compare=chubby").problems.len(), 1);
    }

    #[test]
    fn switches_and_seed_of_a_built_in_travel_in_the_query() {
        let all = catalog::all();
        let mut s = catalog::get("redis-gc-pause").unwrap();
        (s.seed, s.storage.fencing, s.lock.safe_unlock) = (7, true, false);
        let l = link(&name(&s, &all), 4321, &Modes::default());
        assert_eq!(l, "?scenario=redis-gc-pause&seed=7&fencing=on&unlock=plain&t=4321");
        let o = open_link(&l);
        assert_eq!((o.scenario, o.cursor_ms, o.problems.len()), (s, Some(4321), 0));
    }

    #[test]
    fn an_edited_scenario_travels_whole_and_reopens_to_the_same_trace() {
        let all = catalog::all();
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.lock.ttl_ms = 9000;
        s.storage.fencing = true;
        s.intro = "Ein Prozess pausiert — und schreibt trotzdem. 🔒".into();
        let l = link(&name(&s, &all), 15_502, &Modes { embed: true, ..Modes::default() });
        assert!(l.starts_with("?t=15502&embed=1#s="), "{l}");
        let o = open_link(&l);
        assert_eq!(o.problems, Vec::<String>::new());
        assert_eq!((o.cursor_ms, o.modes.embed, o.modes.lecture), (Some(15_502), true, false));
        assert_eq!(o.scenario, s);
        // The same scenario simulates to the same trace (built here, in this layer: the verdict
        // is a pure function of scenario and trace, `lab` above).
        let (a, b) = (crate::scenario::build::world(&s).run(), crate::scenario::build::world(&o.scenario).run());
        assert_eq!(a.events.len(), b.events.len());
        assert_eq!(format!("{:?}", a.events), format!("{:?}", b.events));
    }

    #[test]
    fn the_players_link_reopens_what_it_shows() {
        let all = catalog::all();
        // A built-in, its switches flipped: the app's link exactly.
        let mut b = all[0].clone();
        b.storage.fencing = !b.storage.fencing;
        assert_eq!(name_as_opened(&b, &all[..1], ""), name(&b, &all));
        // A scenario of one's own, opened from its #s= with a seed override, then fencing and
        // unlock flipped: the same #s= text, the changes in the query, the same scenario.
        let mut own = all[1].clone();
        own.id = "mine".into();
        own.lock.ttl_ms += 500;
        let text = name(&own, &all).hash.trim_start_matches("#s=").to_string();
        let opened = open_link(&format!("?seed=7#s={text}")).scenario;
        let mut shown = opened.clone();
        (shown.storage.fencing, shown.lock.safe_unlock) = (!shown.storage.fencing, !shown.lock.safe_unlock);
        let named = name_as_opened(&shown, &[], &text);
        assert_eq!(named.hash, format!("#s={text}"));
        assert!(named.query.starts_with("seed=7&fencing="), "{}", named.query);
        let again = open_link(&link(&named, 0, &Modes::default()));
        assert_eq!(again.problems, Vec::<String>::new());
        assert_eq!(again.scenario, shown);
    }

    #[test]
    fn every_built_in_with_a_turned_knob_round_trips() {
        let all = catalog::all();
        for b in &all {
            let mut s = b.clone();
            s.lock.ttl_ms += 500;
            if let Some(FaultSpec::Pause(Pause { duration_ms, .. })) = s.faults.iter_mut().find(|f| matches!(f, FaultSpec::Pause(_))) {
                *duration_ms += 250;
            }
            let named = name(&s, &all);
            assert!(named.query.is_empty() && named.hash.starts_with("#s="), "{}", b.id);
            assert_eq!(open_link(&link(&named, 0, &Modes::default())).scenario, s, "{}", b.id);
            // Unchanged, it is named by id.
            assert_eq!(name(b, &all).query, format!("scenario={}", b.id));
        }
    }

    #[test]
    fn the_hash_wins_and_the_query_overrides_it() {
        let all = catalog::all();
        let s = catalog::get("etcd-gc-pause").unwrap();
        let hash = format!("#s={}", encode(serde_json::to_string(&s).unwrap().as_bytes()));
        let o = open("?scenario=redis-gc-pause&seed=9&fencing=on&unlock=plain", &hash, &all);
        assert_eq!(o.scenario.id, "etcd-gc-pause");
        assert_eq!((o.scenario.seed, o.scenario.storage.fencing, o.scenario.lock.safe_unlock), (9, true, false));
        assert!(o.problems.is_empty());
    }

    #[test]
    fn old_safe_unlock_links_still_open() {
        let o = open_link("?scenario=redis-gc-pause&safe_unlock=off&fencing=on&t=100&lecture=1");
        assert!(!o.scenario.lock.safe_unlock && o.scenario.storage.fencing && o.modes.lecture);
        assert_eq!(o.banner(), None);
    }

    #[test]
    fn a_malformed_hash_falls_back_and_says_why() {
        let first = catalog::all()[0].clone();
        let o = open_link("#s=not*base64");
        assert_eq!(o.scenario, first);
        assert!(o.fell_back);
        assert_eq!(o.problems, ["#s=: not base64url: '*' at position 4"]);
        let banner = o.banner().unwrap();
        assert!(banner.contains("could not be opened (#s=: not base64url") && banner.contains(&first.title), "{banner}");

        // Valid base64url, not JSON.
        let o = open_link(&format!("#s={}", encode(b"{\"version\": 1,")));
        assert!(
            o.problems[0].starts_with("#s=: invalid scenario: ") && o.problems[0].contains("the text ends where a value should be"),
            "{:?}",
            o.problems
        );
        // Valid JSON, invalid scenario: the CLI's field-path error.
        let o = open_link(&format!("#s={}", encode(br#"{"version": 1, "approach": "redis", "lock": {"ttl_ms": 0}}"#)));
        assert_eq!(o.problems.len(), 1);
        assert!(o.problems[0].starts_with("#s=: invalid scenario: lock.ttl_ms: "), "{:?}", o.problems);
        // Not UTF-8.
        assert_eq!(open_link(&format!("#s={}", encode(&[0xff, 0xfe]))).problems, ["#s=: the decoded scenario is not UTF-8 text"]);
    }

    #[test]
    fn a_broken_hash_falls_back_to_the_query_scenario_if_any() {
        let o = open_link("?scenario=etcd-gc-pause#s=%%%");
        assert_eq!(o.scenario.id, "etcd-gc-pause");
        assert!(o.fell_back && o.problems.len() == 1);
    }

    #[test]
    fn an_oversized_hash_is_refused_before_decoding() {
        let text = "A".repeat(MAX_ENCODED_LEN + 4);
        let o = open_link(&format!("#s={text}"));
        assert_eq!(
            o.problems,
            [format!("#s=: the encoded scenario is {} characters; a link carries at most 16384 (16 KB)", MAX_ENCODED_LEN + 4)]
        );
        assert!(o.fell_back);
    }

    #[test]
    fn an_oversized_scenario_is_not_put_in_a_link() {
        let all = catalog::all();
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.intro = "x".repeat(MAX_ENCODED_LEN);
        let named = name(&s, &all);
        assert_eq!(named.hash, "");
        assert_eq!(named.query, "scenario=redis-gc-pause");
        assert!(named.too_large.unwrap() > MAX_ENCODED_LEN);
    }

    #[test]
    fn an_unknown_id_falls_back_to_the_first_built_in() {
        let o = open_link("?scenario=no-such-thing&fencing=on");
        assert_eq!(o.scenario.id, catalog::all()[0].id);
        // The rest of the link still counts.
        assert!(o.scenario.storage.fencing);
        assert_eq!(o.problems, ["scenario=no-such-thing: no built-in scenario has this id"]);
    }

    #[test]
    fn bad_parameter_values_are_named_and_only_they_are_ignored() {
        let o = open_link("?scenario=etcd-gc-pause&t=abc&fencing=maybe&unlock=sometimes&seed=-1&lecture=2&utm_source=x");
        assert_eq!(o.scenario, catalog::get("etcd-gc-pause").unwrap());
        assert!(!o.fell_back);
        assert_eq!(
            o.problems,
            [
                "t=abc: expected a time in whole milliseconds ≥ 0; ignored",
                "fencing=maybe: expected on or off; ignored",
                "unlock=sometimes: expected safe or plain; ignored",
                "seed=-1: expected a whole number ≥ 0; ignored",
                "lecture=2: expected 1 or 0; ignored",
            ]
        );
        assert!(o.banner().unwrap().starts_with("Part of this link was ignored (t=abc: "));
        assert_eq!(open_link("?t=-5").problems.len(), 1);
    }

    #[test]
    fn a_theme_is_read_kept_in_the_link_and_a_bad_one_named() {
        let o = open_link("?scenario=redis-gc-pause&theme=dark");
        assert_eq!(o.modes.theme, Some(Theme::Dark));
        let named = Named { query: "scenario=redis-gc-pause".into(), hash: String::new(), too_large: None };
        assert_eq!(link(&named, 0, &o.modes), "?scenario=redis-gc-pause&theme=dark");
        assert_eq!(open_link("?theme=projector").modes.theme, Some(Theme::Projector));
        let bad = open_link("?theme=blue");
        assert_eq!((bad.modes.theme, bad.problems), (None, vec!["theme=blue: expected light, dark or projector; ignored".to_string()]));
    }

    #[test]
    fn no_link_opens_the_first_built_in() {
        let o = open("", "", &catalog::all());
        assert_eq!(
            (o.scenario.id.as_str(), o.cursor_ms, o.modes.lecture, o.modes.embed, o.banner()),
            (catalog::all()[0].id.as_str(), None, false, false, None)
        );
    }

    #[test]
    fn squeezed_json_is_the_compact_json() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.intro = "quotes \" and \\ backslashes \\\" and  spaces, tabs\t, lines\n — kept".into();
        assert_eq!(squeeze(&serde_json::to_string_pretty(&s).unwrap()), serde_json::to_string(&s).unwrap());
    }

    #[test]
    fn base_drops_query_and_fragment() {
        assert_eq!(base("http://h:8080/app/?scenario=x#s=y"), "http://h:8080/app/");
        assert_eq!(base("http://h/#s=y"), "http://h/");
        assert_eq!(base("http://h/"), "http://h/");
    }
}
