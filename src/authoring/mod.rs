//! The scenario editor's model, in plain Rust (tested natively; the browser UI in `ui::editor`
//! only draws it and talks to storage): the editor's reducer, the draft and its form, and the
//! saved scenarios.

pub mod draft;
pub mod editor;
pub mod form;
pub mod saved;
