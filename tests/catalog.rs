//! Every built-in scenario, run with fencing off and on, agrees with its `expect` block.

use locklab::lab;
use locklab::scenario::catalog;

#[test]
fn every_builtin_matches_its_expect_block_with_fencing_off_and_on() {
    let all = catalog::all();
    assert!(!all.is_empty());
    for s in all {
        let expect = s.expect.clone().unwrap_or_else(|| panic!("{} has no expect block", s.id));
        assert!(expect.fencing_off.is_some() && expect.fencing_on.is_some(), "{}: expect needs both settings", s.id);
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let mismatches = run.expect_mismatches().expect("expect present");
            assert!(mismatches.is_empty(), "{} fencing={fencing}: {mismatches:?}\n{:#?}", s.id, run.verdict);
            assert!(!run.trace.truncated, "{} ran into the event limit", s.id);
        }
    }
}

#[test]
fn redis_gc_pause_loses_an_update_without_fencing_and_rejects_it_with() {
    let s = catalog::get("redis-gc-pause").unwrap();
    let off = lab::run(&lab::with_fencing(&s, false)).verdict;
    assert!(!off.safe);
    assert!(off.stale_writes_accepted >= 1);
    let stale = off.writes.iter().find(|w| w.stale).unwrap();
    assert_eq!((stale.client.as_str(), stale.accepted, stale.after_takeover), ("A", true, true));
    assert_eq!(off.grants.iter().map(|g| g.token).collect::<Vec<_>>(), vec![Some(1), Some(2)]);

    let on = lab::run(&lab::with_fencing(&s, true)).verdict;
    assert!(on.safe);
    assert_eq!(on.stale_writes_accepted, 0);
    assert!(on.stale_writes_rejected >= 1);
    let rejected = on.writes.iter().find(|w| !w.accepted).unwrap();
    assert_eq!((rejected.client.as_str(), rejected.token), ("A", Some(1)));
    // The finding points at the storage event that rejected it.
    let f = &on.findings[0];
    assert_eq!(f.event, rejected.event);
}

/// The catalog is its folder: every src/scenario/catalog/ID.json is the built-in ID, and every
/// built-in has its file (the browser tests list the built-ins from the folder).
#[test]
fn every_file_in_the_catalog_folder_is_a_builtin_and_no_other() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenario/catalog");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    files.sort();
    let mut ids = catalog::ids();
    ids.sort();
    assert!(!ids.is_empty());
    assert_eq!(ids, files);
}

#[test]
fn ids_are_unique_and_listed() {
    let ids = catalog::ids();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
    assert!(ids.contains(&"redis-gc-pause".to_string()));
}
