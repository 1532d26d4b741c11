//! The trace invariants as the suites check them on every generated run: the library's
//! `check::properties::invariants()`, the four `always` properties the simulator keeps
//! (src/check/invariants.rs says what each checks).

use locklab::check::properties::{invariants, Property};
use locklab::lab::Run;

pub type Check = Result<(), String>;

/// Whether `p` has no discovery on `run` (an `always` property held, a `sometimes` one was not
/// seen); else its statement and evidence.
pub fn holds(p: &Property, run: &Run) -> Check {
    match p.discovery(&run.scenario, &run.trace, &run.verdict) {
        None => Ok(()),
        Some(e) => Err(format!("{} ({}): {}", p.statement, p.id, e.text)),
    }
}

/// Every invariant on `run`; the first broken one, named.
pub fn check(run: &Run) -> Check {
    invariants().iter().try_for_each(|p| holds(p, run))
}
