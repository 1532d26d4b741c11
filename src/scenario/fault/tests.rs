//! Every kind through the generic parts: its fields as serde writes them and the reader reads
//! them, its words, edits by name, draws and knobs.

use serde_json::Value as Json;

use super::kind::AT;
use super::*;
use crate::scenario::nodes::node_names;
use crate::scenario::{catalog, parse};
use crate::sim::rng::Stream;

use super::explore::knobs as knobs_of;

fn every_kind_once() -> Vec<FaultSpec> {
    let s = catalog::get("happy-path-redis").unwrap();
    let mut out: Vec<FaultSpec> = FaultKind::ALL.iter().filter_map(|k| k.example(&s, 700)).collect();
    out.push(ClockDrift { at_ms: 1, node: "B".into(), ppm: -300 }.into());
    out.push(Crash { at_ms: 9, node: "A".into(), restart_after_ms: None, machine: true }.into());
    out.push(Delay { at_ms: 2, from: "A".into(), to: "redis".into(), by_ms: 30, duration_ms: 400 }.into());
    out.push(Drop { at_ms: 3, from: "redis".into(), to: "B".into(), duration_ms: None }.into());
    out.push(Drop { at_ms: 4, from: "redis".into(), to: "A".into(), duration_ms: Some(6) }.into());
    out
}

#[test]
fn the_fields_of_every_kind_are_what_serde_writes_and_the_reader_reads() {
    let faults = every_kind_once();
    for k in FaultKind::ALL {
        assert!(faults.iter().any(|f| f.kind() == k), "no example of {}", k.id());
        assert_eq!(*k.params()[0], AT, "{}: at_ms comes first", k.id());
    }
    for f in faults {
        let k = f.kind();
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["kind"], k.id());
        let values = f.values();
        let names: Vec<&str> = values.iter().map(|(p, _)| p.name).collect();
        assert!(json.as_object().unwrap().keys().all(|key| key == "kind" || names.contains(&key.as_str())), "{json}");
        for (p, v) in values {
            let expected = match v {
                Value::Int(x) | Value::Maybe(Some(x)) => serde_json::json!(x),
                Value::Maybe(None) => Json::Null,
                Value::Flag(b) => serde_json::json!(b),
                Value::Name(n) => serde_json::json!(n),
                Value::Groups(g) => serde_json::json!(g),
            };
            assert_eq!(json[p.name], expected, "{}.{}", k.id(), p.name);
        }
        assert_eq!(read::fault(&json, "faults[0]").unwrap(), f);
    }
}

#[test]
fn the_words_of_each_kind() {
    let said: Vec<String> = every_kind_once().iter().map(words).collect();
    assert_eq!(
        said,
        [
            "pause A for 15 s at 700 ms",
            "clock jump redis by +10 s at 700 ms",
            "crash redis at 700 ms, restart after 5 s",
            "partition {A} at 700 ms for 15 s",
            "clock drift B -300 ppm at 1 ms",
            "machine crash A at 9 ms",
            "delay A → redis by 30 ms at 2 ms",
            "drop redis → B from 3 ms",
            "drop redis → A from 4 ms for 6 ms",
        ]
    );
    let back: FaultSpec = ClockJump { at_ms: 1500, node: "redis-3".into(), by_ms: -10_000 }.into();
    assert_eq!(words(&back), "clock jump redis-3 by -10 s at 1.5 s");
}

#[test]
fn get_and_set_by_field_name() {
    let mut f: FaultSpec = Crash { at_ms: 9, node: "A".into(), restart_after_ms: None, machine: true }.into();
    assert_eq!(get(&f, "machine"), Some(Value::Flag(true)));
    assert!(set(&mut f, "restart_after_ms", Value::Maybe(Some(40))));
    assert!(!set(&mut f, "groups", Value::Groups(Vec::new())));
    assert!(!set(&mut f, "node", Value::Int(3)), "a name is not a number");
    assert_eq!(f, Crash { at_ms: 9, node: "A".into(), restart_after_ms: Some(40), machine: true }.into());
    assert_eq!(f.at_ms(), 9);
    let p: FaultSpec = Partition { at_ms: 1, groups: vec![vec!["A".into(), "redis".into()], vec!["B".into()]], duration_ms: None }.into();
    assert_eq!(nodes(&p), ["A", "redis", "B"]);
}

#[test]
fn drawn_faults_are_valid_and_depend_only_on_the_stream() {
    let s = catalog::get("happy-path-redlock").unwrap();
    let names = node_names(&s);
    let space = Space { nodes: &names, window_ms: (0, s.duration_ms), ranges: &[] };
    for k in FaultKind::ALL {
        let mut seen = Vec::new();
        for i in 0..200 {
            let f = draw(k, &mut Stream::new(7, i), &space, &s, &names).expect("a redlock scenario has room for every kind");
            assert_eq!(draw(k, &mut Stream::new(7, i), &space, &s, &names).as_ref(), Some(&f));
            assert_eq!(f.kind(), k);
            let mut with = s.clone();
            with.faults = vec![f.clone()];
            parse(&serde_json::to_string(&with).unwrap()).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            seen.push(f);
        }
        seen.dedup();
        assert!(seen.len() > 150, "{}: only {} distinct draws", k.id(), seen.len());
    }
    // A range from the mix replaces the default one.
    let ranges = [(FaultKind::by_id("pause").unwrap(), "duration_ms", 4000, 4000)];
    let space = Space { nodes: &names[..1], window_ms: (100, 200), ranges: &ranges };
    let f = draw(FaultKind::by_id("pause").unwrap(), &mut Stream::new(1, 1), &space, &s, &names).unwrap();
    assert!(matches!(f, FaultSpec::Pause(Pause { at_ms: 100..=200, duration_ms: 4000, ref node }) if node == "A"), "{f:?}");
}

#[test]
fn knobs_move_toward_the_mildest_fault() {
    let f: FaultSpec = Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: None, machine: true }.into();
    let knobs = knobs_of(&f, 20_000);
    let summary: Vec<_> = knobs.iter().map(|k| (k.name, k.now, k.absent, k.toward)).collect();
    assert_eq!(summary, [("at_ms", 1000, false, 20_000), ("restart_after_ms", 19_000, true, 1), ("machine", 1, false, 0)]);
    assert_eq!(knobs[1].at(&f, 300), Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: Some(300), machine: true }.into());
    assert_eq!(knobs[2].at(&f, 0), Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: None, machine: false }.into());
    let jump: FaultSpec = ClockJump { at_ms: 20_000, node: "redis".into(), by_ms: -5000 }.into();
    let k = knobs_of(&jump, 20_000);
    assert_eq!(k.iter().map(|k| (k.name, k.toward)).collect::<Vec<_>>(), [("by_ms", 0)], "at_ms is already the latest");
}
