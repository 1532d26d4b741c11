//! Real runs, recorded: what `locklab-real record` observed of a built-in on real servers
//! (Redis, PostgreSQL, etcd, ZooKeeper), as a Lock Lab trace with when and on what it was
//! recorded. `scripts/record-real.sh` writes them to `src/recorded/recordings/` (run by hand; the
//! files are committed); the app carries them in its wasm and offers one beside the
//! simulation when the scenario on screen is exactly the one recorded: its fingerprint (a hash
//! of the scenario's JSON, switches included) must match. Drawn and judged as a simulated run
//! is (`lab::of_trace`): one code path.

mod read;

use serde::Serialize;

use crate::check::Verdict;
use crate::protocols::Trace;
use crate::scenario::Scenario;

pub use read::read;

/// The recordings' format (`format` in each file).
pub const FORMAT: u32 = 1;

/// One recorded run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recording {
    pub format: u32,
    /// The built-in's id.
    pub id: String,
    pub fencing: bool,
    /// `fingerprint` of the scenario as it ran.
    pub fingerprint: String,
    /// When, in UTC: "2026-12-06 05:01 UTC".
    pub recorded: String,
    /// What served it, as the servers said: "Redis 7.0.15", "5 × Redis 7.0.15".
    pub server: String,
    /// The machine: its OS (`/etc/os-release`) and cores.
    pub os: String,
    pub cores: u32,
    /// Wall ms per scenario ms; the trace's times are scenario ms (wall time ÷ scale).
    pub scale: f64,
    pub trace: Trace,
}

/// The committed recordings, by file name (`src/recorded/recordings/NAME.json`); scripts/record-real.sh
/// records exactly these. One story per real service, fencing off and on. Issue 23 set them a
/// budget of 10 KB brotli in the app's first load (measured then: the first ten 2.5 KB as one
/// stream, the reader and the rest of the feature 6.6 KB; every built-in of the fidelity suite,
/// 32 files, would be 7.3 KB of recordings alone); pg-advisory-gc-pause is carried with fencing
/// off only, its built-in's own setting (its fencing-on run would have passed that budget, and
/// without a token the two tell the same story). Since issue 38 the browser fetches them after it
/// answers (`crate::library`), so they are no longer in the first load at all.
macro_rules! recordings {
    ($($name:literal),* $(,)?) => { &[$(($name, include_str!(concat!("recordings/", $name, ".json")))),*] };
}

pub const FILES: &[(&str, &str)] = recordings!(
    "redis-gc-pause-fencing-off",
    "redis-gc-pause-fencing-on",
    "db-lease-gc-pause-fencing-off",
    "db-lease-gc-pause-fencing-on",
    "conditional-write-race-fencing-off",
    "conditional-write-race-fencing-on",
    "etcd-gc-pause-fencing-off",
    "etcd-gc-pause-fencing-on",
    "zookeeper-session-expiry-fencing-off",
    "zookeeper-session-expiry-fencing-on",
    "pg-advisory-gc-pause-fencing-off",
);

/// The scenario's fingerprint: FNV-1a (64 bits, hex) of its JSON as serde's pretty writer
/// writes it (the writer the app already has for scenarios: the compact one would be more
/// code in the wasm). Any change to the scenario (a switch, a knob, a built-in's text)
/// changes it.
pub fn fingerprint(s: &Scenario) -> String {
    let text = serde_json::to_string_pretty(s).unwrap_or_else(|e| panic!("a scenario did not serialize: {e}"));
    format!("{:016x}", crate::sim::fnv1a(text.as_bytes()))
}

/// The recordings, one JSON text per line (each file is one line): compiled in natively; in
/// the browser fetched after the app answers (`crate::library`), none until then.
fn texts() -> std::rc::Rc<Vec<String>> {
    #[cfg(target_arch = "wasm32")]
    return SHELF.with(|s| s.get()).unwrap_or_default();
    #[cfg(not(target_arch = "wasm32"))]
    std::rc::Rc::new(FILES.iter().map(|(_, text)| text.trim_end().to_owned()).collect())
}

#[cfg(target_arch = "wasm32")]
thread_local!(static SHELF: crate::shelf::Shelf<Vec<String>> = const { crate::shelf::Shelf::new() });

/// The browser's recordings, as fetched (`crate::library::RECORDINGS`: one recording per
/// line), split into lines once here rather than on every lookup.
#[cfg(target_arch = "wasm32")]
pub fn install(lines: String) {
    SHELF.with(|s| s.put(lines.lines().map(str::to_owned).collect()));
}

/// The recording of exactly this scenario, if there is one.
pub fn find(s: &Scenario) -> Option<Recording> {
    let key = format!("\"fingerprint\":\"{}\"", fingerprint(s));
    texts().iter().filter(|text| has(text, &key)).find_map(|text| read(text).ok())
}

/// Every recording the page has (none in the browser until they arrive: `crate::library`).
pub fn all() -> Vec<Recording> {
    texts().iter().filter_map(|text| read(text).ok()).collect()
}

/// A recording as a history of one's own (docs/HISTORY_FORMAT.md), titled with what served it:
/// where a user starts from a real run. None when its built-in is not in the catalog.
pub fn as_history(rec: &Recording) -> Option<String> {
    let s = crate::lab::with_fencing(&crate::scenario::catalog::get(&rec.id)?, rec.fencing);
    let mut run = crate::lab::of_trace(&s, rec.trace.clone());
    run.scenario.title = format!("{} — {}", run.scenario.title, rec.label());
    Some(crate::history::write(&run))
}

/// Whether any recording is of this built-in id (with another fingerprint or fencing).
pub fn of_id(id: &str) -> bool {
    let key = format!("\"id\":\"{id}\"");
    texts().iter().any(|text| has(text, &key))
}

/// Whether `key` is in a recording's first line of fields (before its trace). A plain window
/// compare: `str::contains` with a string pattern brings its own searcher into the wasm.
fn has(text: &str, key: &str) -> bool {
    let head = &text.as_bytes()[..text.len().min(400)];
    head.windows(key.len()).any(|w| w == key.as_bytes())
}

impl Recording {
    /// How the compare select offers it: "real Redis 7.0.15 (recorded)".
    pub fn label(&self) -> String {
        format!("real {} (recorded)", self.server)
    }

    /// When and on what: "Recorded 2026-12-06 05:01 UTC on Redis 7.0.15 (Debian GNU/Linux 12
    /// (bookworm), 2 cores); its 25 s ran in 10 s (time scale 0.4)".
    pub fn provenance(&self) -> String {
        let wall = (self.trace.duration_ms as f64 * self.scale).round() as i64;
        format!(
            "Recorded {} on {} ({}, {} cores); its {} ran in {} (time scale {})",
            self.recorded,
            self.server,
            self.os,
            self.cores,
            crate::decimal::seconds(self.trace.duration_ms),
            crate::decimal::seconds(wall),
            crate::decimal::Short(self.scale, 3)
        )
    }
}

/// The fields the fidelity suite asserts, model against real: (field, model, real).
pub fn fields(model: &Verdict, real: &Verdict) -> [(&'static str, String, String); 5] {
    let both = |f: &dyn Fn(&Verdict) -> String| (f(model), f(real));
    let pick = |name, (m, r): (String, String)| (name, m, r);
    [
        pick("safe", both(&|v| v.safe.to_string())),
        pick("stale_writes_accepted", both(&|v| v.stale_writes_accepted.to_string())),
        pick("stale_writes_rejected", both(&|v| v.stale_writes_rejected.to_string())),
        pick("max_concurrent_holders", both(&|v| v.max_concurrent_holders.to_string())),
        pick("token_order", both(&token_order)),
    ]
}

/// The token order of a run: each grant's client with its token's rank among the run's tokens
/// (equal tokens share a rank), so Redis's 1, 2 and etcd's 7, 9 both read "A#1 B#2".
pub fn token_order(v: &Verdict) -> String {
    let mut tokens: Vec<u64> = Vec::new();
    for t in v.grants.iter().filter_map(|g| g.token) {
        if !tokens.contains(&t) {
            tokens.push(t);
        }
    }
    // A token's rank: how many distinct tokens are below it, plus one (no sort: std's sorts
    // cost the wasm about 3 KB each, see crate::sort).
    let rank = |t: Option<u64>| t.map_or("-".to_string(), |t| (tokens.iter().filter(|&&x| x < t).count() + 1).to_string());
    v.grants.iter().map(|g| format!("{}#{}", g.client, rank(g.token))).collect::<Vec<_>>().join(" ")
}

/// The one line under a recording beside its simulation: "The real run agrees with the model:
/// …" with the asserted fields, or what differs.
pub fn agreement(model: &Verdict, real: &Verdict) -> String {
    let all = fields(model, real);
    let words = |f: &str| f.replace('_', " ");
    let differ: Vec<String> =
        all.iter().filter(|(_, m, r)| m != r).map(|(f, m, r)| format!("{}: {m} in the model, {r} on the servers", words(f))).collect();
    if differ.is_empty() {
        let agreed: Vec<String> = all.iter().map(|(f, m, _)| format!("{} {m}", words(f))).collect();
        format!("The real run agrees with the model: {}.", agreed.join(", "))
    } else {
        format!("The real run differs from the model: {}.", differ.join("; "))
    }
}
