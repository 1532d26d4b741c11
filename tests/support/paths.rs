//! Repository paths as the doc pages name them, shared by the tests that read pages
//! (tests/docs_links.rs, tests/gallery.rs).

use std::path::{Component, Path, PathBuf};

/// `a/b/../c` → `a/c`: a docs page's `../src/x.rs` names the file README's `src/x.rs` does.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
