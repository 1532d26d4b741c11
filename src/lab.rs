//! The one entry point every front end uses: a scenario in, its trace and verdict out.

use crate::check::{self, Mismatch, Verdict};
use crate::protocols::Trace;
use crate::scenario::{build, Outcome, Scenario};

/// A finished run.
#[derive(Clone, Debug)]
pub struct Run {
    pub scenario: Scenario,
    pub trace: Trace,
    pub verdict: Verdict,
}

impl Run {
    /// The author's expected outcome for this run's fencing setting, if any.
    pub fn expected(&self) -> Option<&Outcome> {
        let e = self.scenario.expect.as_ref()?;
        if self.scenario.storage.fencing {
            e.fencing_on.as_ref()
        } else {
            e.fencing_off.as_ref()
        }
    }

    /// Where the run disagrees with `expect` (None when there is nothing to compare).
    pub fn expect_mismatches(&self) -> Option<Vec<Mismatch>> {
        self.expected().map(|o| self.verdict.mismatches(o))
    }

    /// The whole run as one JSON document: `{"scenario", "verdict", "trace"}`, each part
    /// exactly as serde writes it on its own (the verdict is `locklab run --json`'s). Written
    /// by hand rather than through a wrapper type: a new derive would be more code in the
    /// browser bundle, and the pretty writer is the one the app already uses for scenarios.
    pub fn to_json(&self) -> String {
        // Serializing plain data cannot fail; not `expect`, whose Debug formatting of the error
        // would cost bundle size (see scenario/catalog.rs).
        let part = |json: serde_json::Result<String>| json.unwrap_or_else(|e| panic!("a run did not serialize: {e}")).replace('\n', "\n  ");
        format!(
            "{{\n  \"scenario\": {},\n  \"verdict\": {},\n  \"trace\": {}\n}}\n",
            part(serde_json::to_string_pretty(&self.scenario)),
            part(serde_json::to_string_pretty(&self.verdict)),
            part(serde_json::to_string_pretty(&self.trace))
        )
    }
}

/// Simulates a validated scenario and judges it. Pure: same scenario ⇒ same run.
pub fn run(scenario: &Scenario) -> Run {
    of_trace(scenario, build::world(scenario).run())
}

/// A run of `scenario` whose trace was made elsewhere (a real run, `crate::recorded`), judged
/// exactly as a simulated one.
pub fn of_trace(scenario: &Scenario, trace: Trace) -> Run {
    let verdict = judge_trace(scenario, &trace);
    Run { scenario: scenario.clone(), trace, verdict }
}

/// The verdict of `run(scenario)` without its trace, for runs that are only judged (the
/// explorer's): the world keeps no message events, which only the diagram draws. The
/// findings' `event` indices point into that lean trace, so they are not the full run's.
pub fn judge(scenario: &Scenario) -> Verdict {
    let trace = build::world(scenario).without_messages().run();
    let mut verdict = judge_trace(scenario, &trace);
    // A TTL lock's granted lifetime is read off its acquire requests, which a judged run does
    // not keep; every one of them asks for `lock.ttl_ms` (kept-alive leases are read off the
    // SessionOpened notes, which it does keep). A lock its server expires by its wall clock is
    // one set by an acquire carrying its TTL.
    let asked =
        trace.events.iter().any(|e| matches!(e.kind, crate::protocols::EventKind::Note(crate::protocols::Note::AcquireStarted { .. })));
    let ttl_in_acquire = scenario.approach.spec().expiry_clock == crate::sim::ClockKind::Wall;
    if verdict.granted_ttl_ms.is_none() && asked && ttl_in_acquire && one_lifetime(scenario) {
        verdict.granted_ttl_ms = Some(scenario.lock.ttl_ms);
    }
    verdict
}

fn judge_trace(scenario: &Scenario, trace: &Trace) -> Verdict {
    let quorum = crate::scenario::validate::quorum(scenario);
    let mut verdict = check::verdict(trace, &scenario.id, scenario.approach, scenario.storage.fencing, scenario.seed, quorum);
    if !one_lifetime(scenario) {
        verdict.granted_ttl_ms = None;
    }
    verdict
}

/// Whether every client asks for the lifetime `lock` says: not when a client sets its own lock
/// fields (`clients[].lock`: its own TTL, an explicit leaseTime), where no one `granted_ttl_ms`
/// speaks for the run (the verdict leaves it out; docs/SCENARIO_FORMAT.md, "Per-client settings").
fn one_lifetime(scenario: &Scenario) -> bool {
    scenario.clients.iter().all(|c| c.lock.is_empty())
}

/// The same scenario with fencing set as given.
pub fn with_fencing(scenario: &Scenario, fencing: bool) -> Scenario {
    let mut s = scenario.clone();
    s.storage.fencing = fencing;
    s
}
