//! The data the browser app fetches instead of carrying it in its wasm (issue 38): the built-in
//! scenarios, the course's lessons and the recorded real runs, 150 KB of text that most page
//! views never use. The build (src/bin/first-paint.rs, run by scripts/post-build.mjs) writes
//! `files()` into a folder named after their content, `data-HASH/`, and names that folder in
//! index.html's `<meta name="locklab-data">`; the page (`ui::library`) fetches each file when
//! it first needs it and reads it here. Natively nothing is fetched: the CLI and the tests read
//! the same files compiled in (`catalog::compiled`, `lesson::builtin::compiled`,
//! `recorded::FILES`).
//!
//! - `scenario/ID.json`: one built-in, its source file as written: what a page opened at that
//!   built-in needs before its app can start (the first paint asks for it, index.html).
//! - `catalog.json`: `{"outages": [ID…], "scenarios": [SCENARIO…]}`, every built-in in catalog
//!   order, fetched once the app answers (the picker, Compare, the lessons need it).
//! - `lessons.json`: `[LESSON…]` in course order, fetched once the app answers, or before it
//!   starts when the address opens a lesson.
//! - `recordings.jsonl`: the recordings, one per line as committed, fetched once the app answers.

use crate::scenario::catalog;
use crate::scenario::{validate, Scenario, ScenarioError};

/// The `<meta>` that names the data folder (`content`, ending in `/`) and the built-ins' ids in
/// catalog order (`data-ids`, space-separated; the first is the one an address without
/// `scenario=` opens), so that a page asks for no file that is not there.
pub const META: &str = "locklab-data";

/// The offline file, beside the page in a release build: the whole app and all of its data in
/// one HTML file (scripts/offline.mjs writes it; its name is also there, as `OFFLINE`).
pub const OFFLINE_FILE: &str = "lock-lab-offline.html";
pub const CATALOG: &str = "catalog.json";
pub const LESSONS: &str = "lessons.json";
pub const RECORDINGS: &str = "recordings.jsonl";

/// What a page must have fetched before its app can start, by its address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needs {
    /// `?scenario=ID`: that built-in's own file.
    Scenario(String),
    /// No built-in named, or a scenario of one's own (`#s=`, which falls back to the first
    /// built-in when it does not decode): the first built-in's file.
    First,
    /// A lesson or the lesson index (`?lesson=`, `#l=`): the catalog, then the lessons.
    Lessons,
}

/// What the address `search` + `hash` needs first (see `Needs`).
pub fn needs(search: &str, hash: &str) -> Needs {
    let query: Vec<(&str, &str)> = crate::scenario::share::pairs(search.trim_start_matches('?')).collect();
    let own_lesson = crate::scenario::share::pairs(hash.trim_start_matches('#')).any(|(k, _)| k == "l");
    if own_lesson || query.iter().any(|(k, _)| *k == "lesson") {
        return Needs::Lessons;
    }
    match query.iter().find(|(k, _)| *k == "scenario") {
        Some((_, id)) if !id.is_empty() => Needs::Scenario(id.to_string()),
        _ => Needs::First,
    }
}

/// A built-in's own file, in the data folder.
pub fn scenario_file(id: &str) -> String {
    format!("scenario/{id}.json")
}

/// Every file of the data folder, by path inside it, from the files compiled in.
pub fn files() -> Vec<(String, String)> {
    let compiled = catalog::compiled();
    let sources: Vec<&str> = catalog::sources().collect();
    let mut out: Vec<(String, String)> =
        compiled.scenarios.iter().zip(&sources).map(|(s, src)| (scenario_file(&s.id), src.to_string())).collect();
    let outages: Vec<String> = compiled.outages.iter().map(|id| format!("\"{id}\"")).collect();
    let scenarios: Vec<&str> = sources.iter().map(|s| s.trim_end()).collect();
    out.push((CATALOG.into(), format!("{{\"outages\": [{}],\n\"scenarios\": [\n{}\n]}}\n", outages.join(", "), scenarios.join(",\n"))));
    let lessons: Vec<&str> = crate::lesson::builtin::sources().map(str::trim_end).collect();
    out.push((LESSONS.into(), format!("[\n{}\n]\n", lessons.join(",\n"))));
    out.push((RECORDINGS.into(), crate::recorded::FILES.iter().map(|(_, text)| format!("{}\n", text.trim_end())).collect()));
    out
}

/// The folder's name, `data-HASH/`: FNV-1a of every path and text, so a changed file is a new
/// address and no cache serves an old one beside a new wasm.
pub fn folder(files: &[(String, String)]) -> String {
    let mut all = Vec::new();
    for (path, text) in files {
        all.extend_from_slice(path.as_bytes());
        all.push(0);
        all.extend_from_slice(text.as_bytes());
        all.push(0);
    }
    format!("data-{:016x}/", crate::sim::fnv1a(&all))
}

/// One built-in from its file.
pub fn read_scenario(text: &str) -> Result<Scenario, ScenarioError> {
    validate::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> String {
        files().into_iter().find(|(p, _)| p == name).unwrap_or_else(|| panic!("no {name}")).1
    }

    #[test]
    fn the_files_read_back_as_what_was_compiled_in() {
        assert_eq!(catalog::read_all(&file(CATALOG)).unwrap(), catalog::compiled());
        assert_eq!(crate::lesson::builtin::read_all(&file(LESSONS)).unwrap(), crate::lesson::builtin::compiled());
        for s in catalog::compiled().scenarios {
            assert_eq!(read_scenario(&file(&scenario_file(&s.id))).unwrap(), s);
        }
        let lines: Vec<&str> = crate::recorded::FILES.iter().map(|(_, t)| t.trim_end()).collect();
        assert_eq!(file(RECORDINGS).lines().collect::<Vec<_>>(), lines);
    }

    #[test]
    fn an_address_needs_its_own_built_in_or_the_lessons() {
        assert_eq!(needs("?scenario=etcd-gc-pause&t=5", ""), Needs::Scenario("etcd-gc-pause".into()));
        assert_eq!(needs("", ""), Needs::First);
        assert_eq!(needs("?fencing=on", "#s=abc"), Needs::First);
        assert_eq!(needs("?lesson=leases&step=2", ""), Needs::Lessons);
        assert_eq!(needs("?lesson=", ""), Needs::Lessons);
        assert_eq!(needs("", "#l=xyz"), Needs::Lessons);
    }

    #[test]
    fn the_folder_follows_the_content() {
        let mut f = files();
        let a = folder(&f);
        assert!(a.starts_with("data-") && a.ends_with('/') && a.len() == "data-/".len() + 16);
        f[0].1.push(' ');
        assert_ne!(folder(&f), a);
    }

    #[test]
    fn a_bad_file_is_refused_by_its_place() {
        let text = file(CATALOG).replacen("\"ttl_ms\": 10000", "\"ttl_ms\": -1", 1);
        let e = catalog::read_all(&text).unwrap_err();
        assert!(e.path.starts_with("scenarios[0].lock.ttl_ms"), "{e}");
        assert!(crate::lesson::builtin::read_all("{}").is_err());
    }
}
