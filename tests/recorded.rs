//! The committed recordings of real runs (src/recorded/recordings/, written by
//! scripts/record-real.sh): each is of a built-in as it stands (its fingerprint), reads back as
//! written, and its verdict by `check` agrees with the model's on the fields the fidelity suite
//! asserts (safe, stale writes accepted and rejected, most holders at once, token order). No
//! servers needed.

use locklab::lab;
use locklab::recorded::{self, Recording, FILES};
use locklab::scenario::{catalog, Scenario};

fn each() -> impl Iterator<Item = (&'static str, Recording)> {
    FILES.iter().map(|(name, text)| (*name, recorded::read(text).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

fn scenario(r: &Recording) -> Scenario {
    let b = catalog::get(&r.id).unwrap_or_else(|| panic!("{}: no built-in {}", r.id, r.id));
    lab::with_fencing(&b, r.fencing)
}

#[test]
fn every_recording_in_the_folder_is_in_the_app_and_back() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/recorded/recordings");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".json").map(String::from))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk, "src/recorded/mod.rs lists every file of src/recorded/recordings/, and no other");
    assert!(!FILES.is_empty(), "the tests below check every recording: there must be one");
}

#[test]
fn a_recording_reads_back_exactly_as_it_was_written() {
    for (name, r) in each() {
        let text = FILES.iter().find(|(n, _)| *n == name).unwrap().1;
        assert_eq!(serde_json::to_string(&r).unwrap() + "\n", text, "{name}: the reader and serde's writer agree, byte for byte");
        assert_eq!(name, format!("{}-fencing-{}", r.id, if r.fencing { "on" } else { "off" }), "{name}: named after what it is");
    }
}

#[test]
fn every_recording_is_of_its_built_in_as_it_stands() {
    for (name, r) in each() {
        let s = scenario(&r);
        assert_eq!(
            recorded::fingerprint(&s),
            r.fingerprint,
            "{name}: built-in {} changed since it was recorded ({}): re-run `scripts/record-real.sh {}` and commit the new file",
            r.id,
            r.recorded,
            r.id
        );
        assert_eq!(recorded::find(&s).as_ref(), Some(&r), "{name}: the app finds it for its scenario");
    }
}

#[test]
fn a_recording_agrees_with_the_model_on_what_the_suite_asserts() {
    for (name, r) in each() {
        let s = scenario(&r);
        let model = lab::run(&s);
        let real = lab::of_trace(&s, r.trace.clone());
        assert_eq!(real.trace.nodes, model.trace.nodes, "{name}: the model's lanes");
        assert!(real.trace.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms), "{name}: in time order");
        assert!(real.trace.events.iter().all(|e| (0..=s.duration_ms).contains(&e.at_ms)), "{name}: within the run");
        let differ: Vec<_> = recorded::fields(&model.verdict, &real.verdict).into_iter().filter(|(_, m, r)| m != r).collect();
        assert!(differ.is_empty(), "{name}: the real run differs from the model: {differ:?}");
        let line = recorded::agreement(&model.verdict, &real.verdict);
        assert!(line.starts_with("The real run agrees with the model"), "{name}: {line}");
    }
}

#[test]
fn the_recordings_cover_each_real_service_and_both_fencing_settings() {
    let servers: Vec<String> = each().map(|(_, r)| r.server).collect();
    for service in ["Redis 7", "PostgreSQL 15", "etcd 3.4", "ZooKeeper 3.8"] {
        assert!(servers.iter().any(|s| s.contains(service)), "a recording on {service}: {servers:?}");
    }
    let gc = |fencing: bool| each().any(|(_, r)| r.id == "redis-gc-pause" && r.fencing == fencing);
    assert!(gc(false) && gc(true), "the stale write accepted, and refused");
}

#[test]
fn a_changed_scenario_has_no_recording() {
    let mut s = catalog::get("redis-gc-pause").unwrap();
    assert!(recorded::find(&s).is_some());
    s.lock.ttl_ms += 1;
    assert!(recorded::find(&s).is_none(), "one ms of TTL is another scenario");
    let text = FILES[0].1.replacen("\"format\":1", "\"format\":2", 1);
    assert_eq!(recorded::read(&text).unwrap_err().to_string(), "format: recording format 2, this app reads 1");
}
