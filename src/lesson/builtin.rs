//! The built-in lessons, one JSON file each, read with the same checks as a lecturer's own.

use super::{parse, Lesson};

const SOURCES: &[&str] = &[include_str!("why-fencing.json")];

/// Every built-in lesson.
pub fn all() -> Vec<Lesson> {
    // Not `expect` (Debug formatting costs bundle size; see scenario/catalog.rs).
    SOURCES.iter().map(|src| parse(src).unwrap_or_else(|e| panic!("a built-in lesson is invalid: {e}"))).collect()
}

/// The built-in lesson with this id.
pub fn get(id: &str) -> Option<Lesson> {
    all().into_iter().find(|l| l.id == id)
}
