//! Same scenario + seed ⇒ identical trace, across processes and targets: the golden file was
//! written by an earlier run (and tests/web_determinism.rs compares the browser's hashes with
//! it). Running a scenario twice in one process proves nothing of the kind, so no test does
//! that alone. A different seed changes the trace; a run in steps is the run in one go; and a
//! client removed leaves every other node's and link's random draws as they were.

use locklab::lab;
use locklab::protocols::{EventKind, Msg, Note, Trace};
use locklab::scenario::validate::node_names;
use locklab::scenario::{build, catalog, fault, ClientSpec, FaultSpec, Scenario};
use locklab::sim::rng::Stream;
use locklab::sim::LossReason;

mod golden_file;

#[test]
fn the_seed_drives_latency() {
    let mut s = catalog::get("redis-gc-pause").unwrap();
    let a = lab::run(&s).trace.hash();
    s.seed += 1;
    let b = lab::run(&s).trace.hash();
    assert_ne!(a, b);
}

/// The trace hash of every built-in, as computed natively. The browser test (tests/web.rs)
/// computes the same hashes under wasm and compares them with this file, which is how
/// native = wasm is proven. After an intended model change: `UPDATE_GOLDEN=1 cargo test`.
const GOLDEN: &str = "tests/golden/trace-hashes.txt";

#[test]
fn builtin_trace_hashes_match_the_golden_file() {
    let current: String = catalog::all().iter().map(|s| format!("{} {:016x}\n", s.id, lab::run(s).trace.hash())).collect();
    golden_file::check(GOLDEN, &current, "UPDATE_GOLDEN=1 cargo test --test determinism");
}

/// The scenario files with fault schedules, whose faults are drawn through libm
/// (src/scenario/fault/dist.rs: exp, ln and cos for the log-normal and Poisson draws), each at
/// seeds 1 to 3, hashed natively; tests/web_determinism.rs hashes the same in the browser and
/// compares with this file, so the drawn faults are proven the same on both targets.
const SCHEDULE_GOLDEN: &str = "tests/golden/schedule-trace-hashes.txt";

#[test]
fn scenarios_with_schedules_hash_as_the_golden_file_says() {
    let files = ["jepsen-etcd-pauses", "redis-gc-pauses"];
    let texts: Vec<(&str, String)> =
        files.iter().map(|f| (*f, std::fs::read_to_string(format!("tests/scenarios/{f}.json")).unwrap())).collect();
    let current: String = texts.iter().flat_map(|(f, t)| schedule_hashes(f, t)).collect();
    golden_file::check(SCHEDULE_GOLDEN, &current, "UPDATE_GOLDEN=1 cargo test --test determinism");
}

/// `file seed hash` for seeds 1 to 3 of the scenario in `text`: the lines both targets write.
fn schedule_hashes(file: &str, text: &str) -> Vec<String> {
    let s = locklab::scenario::parse(text).unwrap();
    (1..=3).map(|seed| format!("{file} {seed} {:016x}\n", lab::run(&Scenario { seed, ..s.clone() }).trace.hash())).collect()
}

/// Every built-in, run in random splits of `run_until` calls (some to a time already passed)
/// and bursts of single steps, then finished by `run`, gives the trace of one `run`, byte for
/// byte; so does one stepped to its end.
#[test]
fn a_run_in_any_split_of_steps_is_the_run_in_one_go() {
    let json = |t: &Trace| serde_json::to_string(t).unwrap();
    let mut rng = Stream::new(2026, 34);
    for s in catalog::all() {
        let whole = json(&build::world(&s).run());
        for _ in 0..3 {
            let mut w = build::world(&s);
            let mut t = 0;
            while t <= s.duration_ms {
                t += rng.range(0, s.duration_ms / 4);
                w.run_until(t);
                w.run_until(t - rng.range(0, 2_000));
                for _ in 0..rng.range(0, 30) {
                    w.step();
                }
            }
            assert_eq!(json(&w.run()), whole, "{} in a split", s.id);
        }
        let mut w = build::world(&s);
        let steps = std::iter::from_fn(|| w.step()).count();
        assert!(steps > 0);
        assert_eq!(json(&w.run()), whole, "{} in single steps", s.id);
    }
}

/// Three Redis clients on lossy links of random latency, with a delay and a cut: `A` (paused
/// at 500 ms), `B` and `C`.
fn lossy() -> Scenario {
    let mut s = catalog::get("redis-gc-pause").unwrap();
    s.expect = None;
    s.network.latency_ms = [5, 80];
    s.network.drop_rate = 0.1;
    s.clients.push(ClientSpec::new("C", 3_000, 500, 2));
    let server = node_names(&s)[s.clients.len()].clone();
    s.faults.push(FaultSpec::Delay(fault::Delay { at_ms: 1_000, from: server.clone(), to: "B".into(), by_ms: 300, duration_ms: 5_000 }));
    s.faults.push(FaultSpec::Drop(fault::Drop { at_ms: 3_000, from: "C".into(), to: server, duration_ms: Some(1_000) }));
    s
}

/// What the network drew for each message on the link `from → to`, in sending order: the
/// latency (less the scenario's delay faults) or a random loss; `None` where a cut or a
/// partition hid the draw.
fn link_draws(s: &Scenario, t: &Trace, from: &str, to: &str) -> Vec<Option<Result<i64, LossReason>>> {
    let (f, d) = (t.node_id(from).unwrap(), t.node_id(to).unwrap());
    let extra = |at: i64| -> i64 {
        s.faults
            .iter()
            .filter_map(|x| match x {
                FaultSpec::Delay(x) if x.from == from && x.to == to && x.at_ms <= at && at < x.at_ms + x.duration_ms => Some(x.by_ms),
                _ => None,
            })
            .sum()
    };
    t.events
        .iter()
        .filter(|e| e.node == f)
        .filter_map(|e| match &e.kind {
            EventKind::Sent { to, arrives_at_ms, lost, .. } if *to == d => Some(match (arrives_at_ms, lost) {
                (Some(arrives), _) => Some(Ok(arrives - e.at_ms - extra(e.at_ms))),
                (None, Some(LossReason::RandomLoss)) => Some(Err(LossReason::RandomLoss)),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// One draw of a client's own stream, as the trace shows it.
#[derive(Debug, PartialEq)]
enum Draw {
    /// The random value of an acquire attempt.
    Value(u64),
    /// The wait before the next attempt.
    Retry(i64),
}

/// A Redis client's draws in the order it made them.
fn node_draws(t: &Trace, name: &str) -> Vec<Draw> {
    let n = t.node_id(name).unwrap();
    let mut draws = Vec::new();
    let mut attempt = None;
    for e in t.events.iter().filter(|e| e.node == n) {
        match e.kind {
            // An attempt draws its value once, however often its request is sent.
            EventKind::Sent { msg: Msg::Acquire { attempt: a, value, .. }, .. } if attempt != Some(a) => {
                attempt = Some(a);
                draws.push(Draw::Value(value));
            }
            EventKind::Note(Note::AcquireFailed { retry_in_ms, .. }) => draws.push(Draw::Retry(retry_in_ms)),
            _ => {}
        }
    }
    draws
}

#[test]
fn removing_a_client_leaves_every_other_nodes_and_links_draws_alone() {
    let with = lossy();
    let mut without = with.clone();
    without.clients.retain(|c| c.name != "A");
    without.faults.retain(|f| !fault::nodes(f).contains(&"A".to_string()));
    let (full, less) = (lab::run(&with).trace, lab::run(&without).trace);

    // A client's draws match as far as both runs used them alike (a client that had to retry
    // in one run drew a retry where the other drew its next value).
    for name in ["B", "C"] {
        let (a, b) = (node_draws(&full, name), node_draws(&less, name));
        let alike = a.iter().zip(&b).take_while(|(x, y)| std::mem::discriminant(*x) == std::mem::discriminant(*y)).count();
        assert!(alike > 0, "{name}: {a:?} / {b:?}");
        assert_eq!(a[..alike], b[..alike], "{name}'s own draws");
    }

    // Every link between the nodes left: the k-th message drew the same latency and loss.
    let names: Vec<String> = less.nodes.iter().map(|n| n.name.clone()).collect();
    let (mut compared, mut losses) = (0, 0);
    for from in &names {
        for to in names.iter().filter(|to| *to != from) {
            let (a, b) = (link_draws(&with, &full, from, to), link_draws(&without, &less, from, to));
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                if let (Some(x), Some(y)) = (x, y) {
                    assert_eq!(x, y, "message {k} on {from} → {to}");
                    compared += 1;
                    losses += usize::from(x.is_err());
                }
            }
        }
    }
    // The comparison saw enough draws to mean something, random losses among them.
    assert!(compared >= 20 && losses > 0, "{compared} draws compared, {losses} losses");
}
