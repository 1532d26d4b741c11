//! The built-in lessons, one JSON file each, read with the same checks as a lecturer's own.
//! Their order here is the course's order: the lesson index lists them so.

use super::{parse, Lesson};

const SOURCES: &[&str] = &[
    include_str!("leases.json"),
    include_str!("why-fencing.json"),
    include_str!("redlock.json"),
    include_str!("consensus-locks.json"),
    include_str!("clocks.json"),
    include_str!("in-the-wild.json"),
];

/// Every built-in lesson, in course order.
pub fn all() -> Vec<Lesson> {
    // Not `expect` (Debug formatting costs bundle size; see scenario/catalog.rs).
    SOURCES.iter().map(|src| parse(src).unwrap_or_else(|e| panic!("a built-in lesson is invalid: {e}"))).collect()
}

/// The built-in lesson with this id.
pub fn get(id: &str) -> Option<Lesson> {
    all().into_iter().find(|l| l.id == id)
}

/// The built-in ids, in course order, as an error message lists them: `"a", "b"`.
pub fn ids_quoted() -> String {
    all().iter().map(|l| format!("\"{}\"", l.id)).collect::<Vec<_>>().join(", ")
}
