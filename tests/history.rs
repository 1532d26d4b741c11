//! Your own trace, judged (docs/HISTORY_FORMAT.md): every generated run of every approach,
//! written as a history and read back, is judged as the model judged it, and nothing in its
//! history's trace is done by a node that is down.

mod common;

use common::{invariants, scale, scenario, shapes, FaultMix};
use locklab::history;
use locklab::lab;
use locklab::sim::rng::Stream;

#[test]
fn every_generated_run_round_trips_through_its_history_with_the_same_verdict() {
    let mut rng = Stream::new(2026, 37);
    let n = 60 * scale();
    for shape in shapes() {
        for k in 0..n {
            let mix = if k % 3 == 2 { FaultMix::Ending } else { FaultMix::Any };
            let s = scenario(&mut rng, shape, mix, k % 2 == 0);
            let run = lab::run(&s);
            if run.trace.truncated {
                continue;
            }
            let text = history::write(&run);
            let back = history::read(&text).and_then(|h| history::to_run(&h));
            let back = back.unwrap_or_else(|e| panic!("{}: {e}\n{text}\n{}", shape.name(), serde_json::to_string(&s).unwrap()));
            let (v, w) = (&run.verdict, &back.verdict);
            let same = (v.safe, v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders, v.writes.len(), v.grants.len())
                == (w.safe, w.stale_writes_accepted, w.stale_writes_rejected, w.max_concurrent_holders, w.writes.len(), w.grants.len());
            assert!(
                same,
                "{}: the history's verdict differs\n{}\nmodel: {v:?}\nhistory: {w:?}",
                shape.name(),
                serde_json::to_string(&s).unwrap()
            );
            let kinds = |v: &locklab::check::Verdict| v.findings.iter().map(|f| f.kind).collect::<Vec<_>>();
            assert_eq!(kinds(w), kinds(v), "{}: findings\n{}", shape.name(), serde_json::to_string(&s).unwrap());
            // A history has no messages, so of the invariants only this one can speak to it.
            if let Err(e) = invariants::holds(&locklab::check::properties::HANDLED_ONLY_WHEN_UP, &back) {
                panic!("{}: broken by the history's trace: {e}\n{text}", shape.name());
            }
        }
    }
}

#[path = "golden_file/mod.rs"]
mod golden_file;

/// The recordings of real servers, offered as histories in docs/histories/ (each judged as
/// its recording is: src/history/tests.rs).
#[test]
fn the_recordings_are_offered_as_histories_in_the_docs() {
    for (name, text) in locklab::recorded::FILES {
        let rec = locklab::recorded::read(text.trim_end()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let current = locklab::recorded::as_history(&rec).expect("its built-in");
        golden_file::check(&format!("docs/histories/{name}.jsonl"), &current, "UPDATE_GOLDEN=1 cargo test --test history");
    }
}

/// The variants' scenarios (tests/scenarios/variants/: Kleppmann's Redlock client, whose grant
/// is committed long before the paused client reads it, among them) round-trip too.
#[test]
fn every_variant_round_trips_through_its_history_with_the_same_verdict() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/variants");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let s = locklab::scenario::parse(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let text = history::write(&run);
            let back = history::read(&text).and_then(|h| history::to_run(&h)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let (v, w) = (&run.verdict, &back.verdict);
            assert_eq!(
                (v.safe, v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders),
                (w.safe, w.stale_writes_accepted, w.stale_writes_rejected, w.max_concurrent_holders),
                "{} fencing {fencing}\n{text}",
                path.display()
            );
        }
    }
}
