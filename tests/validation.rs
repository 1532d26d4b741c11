//! Bad scenarios get one clear error naming the field path; none panics or half-runs.

use locklab::scenario::parse;

fn error_of(json: &str) -> String {
    parse(json).expect_err("should be rejected").to_string()
}

const BASE: &str = r#"{"version": 1, "approach": "redis", "faults": [FAULTS], "clients": [CLIENTS]}"#;

fn with(faults: &str, clients: &str) -> String {
    let clients = if clients.is_empty() { r#"{"name": "A"}, {"name": "B"}"# } else { clients };
    BASE.replace("FAULTS", faults).replace("CLIENTS", clients)
}

#[test]
fn defaults_fill_a_minimal_scenario() {
    let s = parse(r#"{"version": 1, "approach": "redis", "title": "My GC test!"}"#).unwrap();
    assert_eq!(s.id, "my-gc-test");
    assert_eq!((s.seed, s.duration_ms, s.lock.ttl_ms), (1, 30_000, 10_000));
    assert_eq!(s.clients.iter().map(|c| (c.name.as_str(), c.acquire_at_ms)).collect::<Vec<_>>(), vec![("A", 0), ("B", 2000)]);
    assert!(s.lock.safe_unlock && !s.storage.fencing);
}

#[test]
fn unknown_field_names_its_path() {
    let e = error_of(r#"{"version": 1, "approach": "redis", "lock": {"ttl": 5}}"#);
    assert!(e.starts_with("lock.ttl: unknown field `ttl`"), "{e}");
    let e = error_of(&with(r#"{"at_ms": 1, "kind": "pause", "node": "A", "duration_ms": 5, "oops": 1}"#, ""));
    assert!(e.starts_with("faults[0].oops: unknown field `oops`"), "{e}");
}

#[test]
fn a_syntax_error_is_said_in_plain_words_at_its_field() {
    // A draft cut off inside "expect" (as typed, or as the editor found it): serde_json said
    // "expect: EOF while parsing an object at line 4 column 0".
    let e = error_of("{\"version\": 1, \"approach\": \"redis\",\n \"expect\": {\n\n");
    assert_eq!(e, "expect: the text ends before this object does: a } is missing (line 4)");
    let e = error_of(r#"{"version": 1, "approach": "redis", "lock": {"ttl_ms": 1000,}}"#);
    assert_eq!(e, "lock: a comma before a closing bracket: JSON allows none there (line 1, column 61)");
    let e = error_of(r#"{"version": 1, "approach": "redis", "seed": seven}"#);
    assert!(e.starts_with("seed: this is not a JSON value (text goes in double quotes"), "{e}");
    let e = error_of(r#"{"version": 1 "approach": "redis"}"#);
    assert_eq!(e, "version: a comma or a } is missing after a value (line 1, column 15)");
}

#[test]
fn a_field_written_twice_is_refused_naming_its_object() {
    // Kept silently, the second value would run while the author reads the first.
    let e = error_of("{\"version\": 1, \"approach\": \"redis\",\n \"lock\": {\"ttl_ms\": 1000, \"ttl_ms\": 30000}}");
    assert_eq!(e, "lock: duplicate field `ttl_ms` at line 2 column 34");
    let e = error_of(&with(r#"{"at_ms": 1, "kind": "pause", "node": "A", "duration_ms": 5, "node": "B"}"#, ""));
    assert!(e.starts_with("faults[0]: duplicate field `node`"), "{e}");
    let e = error_of(r#"{"version": 1, "approach": "redis", "version": 1}"#);
    assert!(e.starts_with("duplicate field `version`"), "{e}");
}

#[test]
fn unknown_node_is_named_with_the_nodes_that_exist() {
    let e = error_of(&with(
        r#"{"at_ms": 1, "kind": "pause", "node": "A", "duration_ms": 5}, {"at_ms": 1, "kind": "pause", "node": "A", "duration_ms": 5}, {"at_ms": 1, "kind": "crash", "node": "redis-9"}"#,
        "",
    ));
    assert_eq!(e, r#"faults[2].node: no node named "redis-9" (redis has A, B, redis, storage)"#);
}

#[test]
fn wrong_types_versions_ranges_and_duplicates() {
    assert!(error_of(r#"{"version": 2, "approach": "redis"}"#).starts_with("version: unsupported version 2"));
    assert!(error_of(r#"{"version": 1, "approach": "mongo"}"#).starts_with("approach: unknown variant `mongo`"));
    assert!(error_of(r#"{"version": 1}"#).contains("missing field `approach`"));
    assert!(error_of(r#"{"version": 1, "approach": "redis", "duration_ms": -5}"#).starts_with("duration_ms: -5 ms is out of range"));
    assert!(error_of(r#"{"version": 1, "approach": "redis", "seed": "x"}"#).starts_with("seed: invalid type"));
    assert!(error_of(&with("", r#"{"name": "A"}, {"name": "A"}"#)).starts_with(r#"clients[1].name: duplicate client name "A""#));
    assert!(error_of(&with("", r#"{"name": "storage"}"#)).starts_with("clients[0].name"));
    assert!(error_of(&with(r#"{"at_ms": 99999999, "kind": "pause", "node": "A", "duration_ms": 5}"#, "")).starts_with("faults[0].at_ms"));
    assert!(
        error_of(&with(r#"{"at_ms": 1, "kind": "teleport", "node": "A"}"#, "")).starts_with("faults[0].kind: unknown variant `teleport`")
    );
    assert!(error_of(&with(r#"{"at_ms": 1, "kind": "partition", "groups": [["A"], ["A", "redis"]]}"#, ""))
        .starts_with("faults[0].groups[1][0]"));
    assert!(error_of(r#"{"version": 1, "approach": "redis", "network": {"drop_rate": 1.5}}"#).starts_with("network.drop_rate"));
    assert!(error_of(r#"not json"#).contains("not a JSON value"));
}

#[test]
fn limits_are_enforced() {
    let many: Vec<String> = (0..9).map(|i| format!(r#"{{"name": "C{i}"}}"#)).collect();
    assert!(error_of(&with("", &many.join(","))).starts_with("clients: 9 clients: must be 1..=8"));
    let faults: Vec<String> = (0..65).map(|_| r#"{"at_ms": 1, "kind": "clock_drift", "node": "A", "ppm": 5}"#.to_string()).collect();
    assert!(error_of(&with(&faults.join(","), "")).starts_with("faults: 65 faults"));
    let huge = format!(r#"{{"version": 1, "approach": "redis", "intro": "{}"}}"#, "x".repeat(70_000));
    assert!(error_of(&huge).contains("limit is"));
}

#[test]
fn tick_ms_is_read_checked_and_kept_out_of_the_json_when_default() {
    let s = parse(r#"{"version": 1, "approach": "zookeeper", "lock": {"tick_ms": 200}}"#).unwrap();
    assert_eq!(s.lock.tick_ms, 200);
    assert!(serde_json::to_string(&s).unwrap().contains(r#""tick_ms":200"#));
    let d = parse(r#"{"version": 1, "approach": "zookeeper"}"#).unwrap();
    assert_eq!(d.lock.tick_ms, 2000);
    assert!(!serde_json::to_string(&d).unwrap().contains("tick_ms"), "a default is not written out");
    assert_eq!(
        error_of(r#"{"version": 1, "approach": "zookeeper", "lock": {"tick_ms": 5}}"#),
        "lock.tick_ms: 5 ms is out of range: must be 10..=60000 ms"
    );
    assert!(error_of(r#"{"version": 1, "approach": "zookeeper", "lock": {"tick_ms": "2s"}}"#).starts_with("lock.tick_ms: invalid type"));
}

#[test]
fn a_byte_order_mark_is_ignored_and_huge_integers_are_called_too_large() {
    let s = parse("\u{feff}{\"version\": 1, \"approach\": \"redis\"}").unwrap();
    assert_eq!(s.approach, locklab::scenario::Approach::Redis);
    let e = error_of(r#"{"version": 1, "approach": "redis", "seed": 18446744073709551616}"#);
    assert_eq!(e, "seed: integer too large: must be at most 18446744073709551615");
    assert_eq!(parse(r#"{"version": 1, "approach": "redis", "seed": 18446744073709551615}"#).unwrap().seed, u64::MAX);
    assert!(error_of(r#"{"version": 1, "approach": "redis", "seed": 1.5}"#).starts_with("seed: invalid type: floating point number"));
    assert!(
        error_of(r#"{"version": 1, "approach": "redis", "seed": -99999999999999999999}"#).starts_with("seed: invalid value: a negative")
    );
    assert!(error_of(r#"{"version": 1, "approach": "redis", "duration_ms": 1e19}"#).starts_with("duration_ms: integer too large"));
}
