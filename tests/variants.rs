//! Variants as data (docs/SCENARIO_FORMAT.md, "Variants and per-client settings"): every file in
//! tests/scenarios/variants/ runs as its `expect` block says, with fencing off and on, and each
//! pair of variants of one published case comes out differently, as its source says.

use locklab::lab;
use locklab::scenario::{parse, Scenario};

/// The variant scenarios, by file name.
const FILES: &[(&str, &str)] = &[
    ("redlock-checks-elapsed", include_str!("scenarios/variants/redlock-checks-elapsed.json")),
    ("redlock-skips-elapsed-check", include_str!("scenarios/variants/redlock-skips-elapsed-check.json")),
];

fn scenario(name: &str) -> Scenario {
    let (_, text) = FILES.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no variant file {name}"));
    parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_variant_file_matches_its_expect_block_with_fencing_off_and_on() {
    for (name, _) in FILES {
        let s = scenario(name);
        assert!(s.expect.as_ref().is_some_and(|e| e.fencing_off.is_some() && e.fencing_on.is_some()), "{name}: expect needs both");
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let mismatches = run.expect_mismatches().expect("expect present");
            assert!(mismatches.is_empty(), "{name} fencing={fencing}: {mismatches:?}\n{:#?}", run.verdict);
        }
    }
}

/// Both files are one scenario but for the setting: the verdict's difference is the setting's.
fn differ_only_in(a: &Scenario, b: &Scenario, field: &'static str) {
    let strip = |s: &Scenario| {
        let mut s = s.clone();
        (s.id, s.title, s.intro, s.expect) = (String::new(), String::new(), String::new(), None);
        s.lock.own.set(field, None);
        for c in &mut s.clients {
            c.lock.set(field, None);
        }
        s
    };
    assert_eq!(strip(a), strip(b), "the two files should differ only in {field}");
}

#[test]
fn a_redlock_client_that_skips_the_elapsed_check_believes_with_expired_keys_and_loses_b_s_update() {
    let (checks, skips) = (scenario("redlock-checks-elapsed"), scenario("redlock-skips-elapsed-check"));
    differ_only_in(&checks, &skips, "check_elapsed");
    // The default is antirez's step 3.
    let mut default = skips.clone();
    default.lock.own.set("check_elapsed", None);
    default.id = checks.id.clone();
    assert_eq!(lab::judge(&default), lab::judge(&checks));

    let v = lab::judge(&skips);
    assert!(!v.safe);
    let stale = v.writes.iter().find(|w| w.stale).expect("a stale write");
    assert_eq!((stale.client.as_str(), stale.accepted), ("A", true));
    // A's grant is the one the instances made before the pause: it believed with keys that
    // had expired (and been taken by B) while it slept.
    let a = v.grants.iter().find(|g| g.client == "A").unwrap();
    let b = v.grants.iter().find(|g| g.client == "B").unwrap();
    assert!(a.at_ms < 10 && b.at_ms > 10_000 && stale.at_ms > 15_000, "{v:#?}");

    let v = lab::judge(&checks);
    assert!(v.safe && v.stale_writes_accepted == 0);
    // It counted, saw no validity left, and took the lock again only after B.
    let a = v.grants.iter().find(|g| g.client == "A").unwrap();
    assert!(a.at_ms > 15_000, "{v:#?}");
}

#[test]
fn a_bad_variant_value_is_refused_with_its_field_path() {
    let text = include_str!("scenarios/variants/redlock-skips-elapsed-check.json");
    let e = parse(&text.replace("\"check_elapsed\": false", "\"check_elapsed\": \"yes\"")).unwrap_err();
    assert_eq!(e.to_string(), "lock.check_elapsed: invalid type: string, expected a boolean");
    let on_redis = text.replace("\"approach\": \"redlock\"", "\"approach\": \"redis\"");
    let e = parse(&on_redis).unwrap_err();
    assert_eq!(e.to_string(), "lock.check_elapsed: only redlock has this field (this scenario is redis)");
}

#[test]
fn a_variant_survives_the_round_trip_through_json_as_the_file_writes_it() {
    for (name, _) in FILES {
        let s = scenario(name);
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(parse(&text).unwrap(), s, "{name}: {text}");
    }
    let text = serde_json::to_string(&scenario("redlock-skips-elapsed-check")).unwrap();
    assert!(text.contains("\"check_elapsed\":false"), "{text}");
}
