//! The built-in lessons, one JSON file each, read with the same checks as a lecturer's own.
//! Their order here is the course's order: the lesson index lists them so. Natively they are
//! compiled in; the browser app fetches them when it first needs them (`crate::library`) and
//! reads them from `install`'s shelf, as the catalog (`scenario::catalog`).

use super::{parse, Lesson};
use crate::scenario::json_read::{list, under};
use crate::scenario::ScenarioError;

const SOURCES: &[&str] = &[
    include_str!("leases.json"),
    include_str!("why-fencing.json"),
    include_str!("redlock.json"),
    include_str!("consensus-locks.json"),
    include_str!("clocks.json"),
    include_str!("in-the-wild.json"),
    include_str!("is-redlock-safe.json"),
];

/// The lessons compiled in, in course order (the CLI's, the tests', and what the build writes
/// out for the browser). The browser app never calls it.
pub fn compiled() -> Vec<Lesson> {
    // Not `expect` (Debug formatting costs bundle size; see scenario/catalog.rs).
    SOURCES.iter().map(|src| parse(src).unwrap_or_else(|e| panic!("a built-in lesson is invalid: {e}"))).collect()
}

/// The source files as written, in course order.
pub fn sources() -> impl Iterator<Item = &'static str> {
    SOURCES.iter().copied()
}

/// The lessons from the build's `lessons.json` (`crate::library`), `[LESSON…]` in course
/// order; an error names its place (`[2].steps[0].text`). They name built-ins: the catalog
/// must be there.
pub fn read_all(text: &str) -> Result<Vec<Lesson>, ScenarioError> {
    let v = crate::scenario::strict_json::parse(text).map_err(|e| ScenarioError { path: String::new(), message: e.to_string() })?;
    list(&v, "", |v, p| super::parse_value(v).map_err(|e| under(p, e)))
}

// The browser's lessons: the text of `lessons.json` once fetched, read when first asked for
// (reading runs every step's scenario: 75 ms natively for the six, so not while the page starts).
#[cfg(target_arch = "wasm32")]
thread_local! {
    static TEXT: crate::shelf::Shelf<String> = const { crate::shelf::Shelf::new() };
    static READ: crate::shelf::Shelf<Vec<Lesson>> = const { crate::shelf::Shelf::new() };
}

/// The browser's lessons as fetched (`ui::library`), read when first asked for.
#[cfg(target_arch = "wasm32")]
pub fn install(text: String) {
    TEXT.with(|s| s.put(text));
}

/// Whether the lessons are here: always natively; in the browser once fetched.
pub fn arrived() -> bool {
    #[cfg(target_arch = "wasm32")]
    return TEXT.with(|s| s.get()).is_some();
    #[cfg(not(target_arch = "wasm32"))]
    true
}

/// Every built-in lesson, in course order (in the browser: none until they arrive, and none
/// if their file does not read, which the native tests of the build's files rule out).
pub fn all() -> Vec<Lesson> {
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(read) = READ.with(|s| s.get()) {
            return (*read).clone();
        }
        let read = TEXT.with(|s| s.get()).map(|text| read_all(&text).unwrap_or_default()).unwrap_or_default();
        if arrived() {
            READ.with(|s| s.put(read.clone()));
        }
        read
    }
    #[cfg(not(target_arch = "wasm32"))]
    compiled()
}

/// The built-in lesson with this id.
pub fn get(id: &str) -> Option<Lesson> {
    all().into_iter().find(|l| l.id == id)
}

/// The built-in ids, in course order, as an error message lists them: `"a", "b"`.
pub fn ids_quoted() -> String {
    all().iter().map(|l| format!("\"{}\"", l.id)).collect::<Vec<_>>().join(", ")
}
