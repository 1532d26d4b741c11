use super::*;
use crate::lab::{self, Run};
use crate::scenario::catalog;

/// What a history must keep of a run's verdict: the judgement, its ledger and what it found.
type Judged = (bool, u32, u32, u32, Vec<(String, Option<u64>, bool, bool)>, Vec<(String, Option<u64>)>, Vec<crate::check::FindingKind>);

fn judged(run: &Run) -> Judged {
    let v = &run.verdict;
    let writes = v.writes.iter().map(|w| (w.client.clone(), w.token, w.accepted, w.stale)).collect();
    let grants = v.grants.iter().map(|g| (g.client.clone(), g.token)).collect();
    let found = v.findings.iter().map(|f| f.kind).collect();
    (v.safe, v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders, writes, grants, found)
}

fn round_trip(run: &Run) -> Run {
    let text = write(run);
    let h = read(&text).unwrap_or_else(|e| panic!("{}: its own history did not read: {e}\n{text}", run.scenario.id));
    to_run(&h).unwrap_or_else(|e| panic!("{}: its own history did not run: {e}\n{text}", run.scenario.id))
}

#[test]
fn every_builtin_run_round_trips_through_its_history_with_the_same_verdict() {
    for s in catalog::all() {
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            if run.trace.truncated {
                continue;
            }
            let back = round_trip(&run);
            assert_eq!(judged(&back), judged(&run), "{} fencing {fencing}", s.id);
            assert_eq!(back.trace.nodes, run.trace.nodes, "{}: the history's lanes are the run's", s.id);
        }
    }
}

#[test]
fn every_recording_of_real_servers_is_offered_as_a_history_with_its_verdict() {
    for (name, text) in crate::recorded::FILES {
        let rec = crate::recorded::read(text.trim_end()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = lab::with_fencing(&catalog::get(&rec.id).expect("a built-in"), rec.fencing);
        let run = lab::of_trace(&s, rec.trace.clone());
        let back = round_trip(&run);
        assert_eq!(judged(&back), judged(&run), "{name}");
    }
}

/// Kleppmann's story, as a user would write it from their logs.
const STORY: &str = r#"{"history": 1, "approach": "redis", "fencing": true, "id": "my-incident"}
{"t": 0, "process": "A", "op": "acquire"}
{"t": 2, "process": "A", "op": "grant", "token": 33, "ttl_ms": 10000}
{"t": 1000, "process": "A", "op": "pause", "ms": 15000}
{"t": 10002, "process": "A", "op": "expire"}
{"t": 11000, "process": "B", "op": "acquire"}
{"t": 11002, "process": "B", "op": "grant", "token": 34, "ttl_ms": 10000}
{"t": 12000, "process": "B", "op": "write", "token": 34, "result": "accepted"}
{"t": 16000, "process": "A", "op": "write", "token": 33, "result": "RESULT"}
"#;

#[test]
fn the_stale_write_of_a_paused_holder_is_judged_as_the_model_judges_it() {
    let lost = to_run(&read(&STORY.replace("RESULT", "accepted")).unwrap()).unwrap();
    let v = &lost.verdict;
    assert!(!v.safe);
    assert_eq!((v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders), (1, 0, 2));
    assert_eq!(v.granted_ttl_ms, Some(10_000));
    assert!(v.findings.iter().any(|f| f.kind == crate::check::FindingKind::StaleWriteAccepted && f.text.starts_with("A wrote")));
    let fenced = to_run(&read(&STORY.replace("RESULT", "rejected")).unwrap()).unwrap();
    assert!(fenced.verdict.safe);
    assert_eq!(fenced.verdict.stale_writes_rejected, 1);
    // The lanes are a Redis scenario's: A, B, redis, storage.
    let names: Vec<&str> = lost.trace.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "redis", "storage"]);
    assert_eq!(lost.scenario.id, "my-incident");
}

#[test]
fn a_history_without_a_header_is_drawn_on_db_lease_lanes_and_tokens_go_backwards_are_found() {
    let text = r#"{"t": 0, "process": "A", "op": "grant", "token": 5}
{"t": 10, "process": "A", "op": "release"}
{"t": 20, "process": "B", "op": "grant", "token": 3}
"#;
    let run = to_run(&read(text).unwrap()).unwrap();
    assert_eq!(run.scenario.approach, crate::protocols::Approach::DbLease);
    assert!(run.verdict.findings.iter().any(|f| f.kind == crate::check::FindingKind::TokenRegressed));
}

fn error(text: &str) -> String {
    match read(text).and_then(|h| to_run(&h)) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_lines_are_named_by_line_and_field() {
    let ok = r#"{"t": 0, "process": "A", "op": "acquire"}"#;
    let cases: &[(String, &str)] = &[
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grnt\"}}"), "line 2, op: unknown variant `grnt`, expected one of `acquire`"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grant\", \"token\": \"7\"}}"), "line 2, token: invalid type: string, expected an unsigned integer"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grant\", \"tokn\": 7}}"), "line 2, tokn: unknown field `tokn`"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"acquire\", \"token\": 7}}"), "line 2, token: `acquire` takes no other field"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"write\"}}"), "line 2: missing field `result`"),
        (String::from("{\"t\": 9, \"process\": \"A\", \"op\": \"acquire\"}\n{\"t\": 5, \"process\": \"A\", \"op\": \"grant\"}"), "line 2, t: 5 ms is before line 1's 9 ms"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grant\",}}"), "line 2: not a JSON object"),
        (format!("{ok}\n{{\"t\": -1, \"process\": \"A\", \"op\": \"grant\"}}"), "line 2, t: -1 ms is out of range: must be 0..=300000 ms"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grant\", \"ttl_ms\": 0}}"), "line 2, ttl_ms: 0 ms is out of range: must be 1..=600000 ms"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"release\"}}"), "line 2, op: A releases a lock it does not hold"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"grant\"}}\n{{\"t\": 6, \"process\": \"A\", \"op\": \"grant\"}}"), "line 3, op: A is granted the lock while it still holds it from line 2"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"A\", \"op\": \"pause\", \"ms\": 100}}\n{{\"t\": 50, \"process\": \"A\", \"op\": \"acquire\"}}"), "line 3, t: A is paused until 105 ms (line 2)"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"storage\", \"op\": \"grant\"}}"), "line 2, process: \"storage\" is the name of a lock-service or storage node"),
        (format!("{ok}\n{{\"t\": 5, \"process\": \"bad name\", \"op\": \"acquire\"}}"), "line 2, process: \"bad name\" is not a valid name"),
        (format!("{{\"history\": 2}}\n{ok}"), "line 1, history: format 2 is not known"),
        (format!("{{\"history\": 1, \"approach\": \"mongo\"}}\n{ok}"), "line 1, approach: unknown variant `mongo`"),
        (format!("{ok}\n{{\"history\": 1}}"), "line 2, history: the header must be the first line"),
        (String::from("\n\n"), "the history has no operations"),
    ];
    for (text, want) in cases {
        let got = error(text);
        assert!(got.starts_with(want), "{text}\n  got:  {got}\n  want: {want}…");
    }
    let nine: String = (0..9).map(|i| format!("{{\"t\": {i}, \"process\": \"P{i}\", \"op\": \"acquire\"}}\n")).collect();
    assert!(error(&nine).starts_with("line 9, process: \"P8\" would be process 9: a history has at most 8"));
}

#[test]
fn the_stated_limits_hold() {
    let line = "{\"t\": 0, \"process\": \"A\", \"op\": \"acquire\"}\n";
    let too_many = line.repeat(MAX_LINES + 1);
    assert!(error(&too_many).starts_with(&format!("line {}: a history has at most {MAX_LINES} lines", MAX_LINES + 1)));
    let too_big = " ".repeat(MAX_BYTES + 1);
    assert!(error(&too_big).contains("the limit is 10485760 (10 MB)"));
    // The most lines it takes, read and judged well inside a test's time.
    let mut most = String::new();
    for i in 0..MAX_LINES / 2 {
        let t = i as i64 * 2;
        most.push_str(&format!("{{\"t\": {t}, \"process\": \"A\", \"op\": \"write\", \"token\": 1, \"result\": \"accepted\"}}\n"));
        most.push_str(&format!("{{\"t\": {}, \"process\": \"B\", \"op\": \"write\", \"result\": \"rejected\"}}\n", t + 1));
    }
    let run = to_run(&read(&most).unwrap()).unwrap();
    assert_eq!(run.verdict.writes.len(), MAX_LINES);
}

#[test]
fn faults_may_strike_the_service_and_a_crash_ends_a_belief() {
    let text = r#"{"history": 1, "approach": "redis"}
{"t": 0, "process": "A", "op": "grant", "token": 1, "ttl_ms": 5000}
{"t": 100, "process": "redis", "op": "crash"}
{"t": 200, "process": "redis", "op": "restart"}
{"t": 300, "process": "B", "op": "grant", "token": 1, "ttl_ms": 5000}
{"t": 400, "process": "A", "op": "crash"}
{"t": 500, "process": "A", "op": "restart"}
{"t": 600, "process": "A", "op": "grant", "token": 2, "ttl_ms": 5000}
"#;
    let run = to_run(&read(text).unwrap()).unwrap();
    assert_eq!(run.verdict.max_concurrent_holders, 2, "A and B both believed from 300 to 400 ms");
    // A name that only pauses or crashes, and is none of the service's, is a process too.
    let idle = to_run(&read(&format!("{text}{{\"t\": 700, \"process\": \"C\", \"op\": \"pause\", \"ms\": 10}}\n")).unwrap()).unwrap();
    let names: Vec<&str> = idle.trace.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "redis", "storage"]);
    assert!(run.verdict.findings.iter().any(|f| f.kind == crate::check::FindingKind::TokenRepeated));
}
