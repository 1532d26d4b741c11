//! A golden file is either checked or written, never both in one run: without UPDATE_GOLDEN a
//! missing or stale file fails the test; with UPDATE_GOLDEN=1 the test writes it, compares
//! nothing, and says so on stderr (run again without it to check what was written).

use std::io::Write;
use std::path::Path;

/// Checks `current` against the repository-relative golden file `rel`, or writes it when the
/// run was told to (`UPDATE_GOLDEN=1`). `update` is the command that rewrites it.
pub fn check(rel: &str, current: &str, update: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    match std::env::var("UPDATE_GOLDEN").as_deref() {
        Ok("1") => {
            std::fs::write(&path, current).unwrap_or_else(|e| panic!("cannot write {rel}: {e}"));
            // Straight to stderr: libtest captures eprintln! of a passing test, and this line
            // must be seen.
            let note = format!(
                "UPDATE_GOLDEN=1: wrote {rel} ({} lines) and compared nothing; run without UPDATE_GOLDEN to check it\n",
                current.lines().count()
            );
            std::io::stderr().write_all(note.as_bytes()).unwrap();
        }
        Err(std::env::VarError::NotPresent) => compare(rel, &path, current, update),
        other => panic!("UPDATE_GOLDEN is {other:?}: set it to 1 to write {rel}, or unset it to check it"),
    }
}

fn compare(rel: &str, path: &Path, current: &str, update: &str) {
    let golden =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("golden file {rel} cannot be read ({e}); write it with `{update}`"));
    if golden == current {
        return;
    }
    let (old, new): (Vec<&str>, Vec<&str>) = (golden.lines().collect(), current.lines().collect());
    let at = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len().min(new.len()));
    panic!(
        "{rel} is stale: line {} is {:?} in the file, {:?} now ({} lines in the file, {} now). \
         If the change is intended, write it with `{update}`",
        at + 1,
        old.get(at).copied().unwrap_or("<end of file>"),
        new.get(at).copied().unwrap_or("<end of output>"),
        old.len(),
        new.len()
    );
}
