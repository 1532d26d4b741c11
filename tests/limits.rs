//! A run that reaches the trace-event limit is cut, and says so: its trace ends at its last
//! event (the diagram's axis and the scrubber stop there), and its verdict names the moment.

use locklab::lab;
use locklab::scenario::{limits::MAX_TRACE_EVENTS, parse};

#[test]
fn a_run_cut_at_the_event_limit_ends_where_it_was_cut() {
    let s = parse(include_str!("scenarios/event-limit.json")).expect("valid");
    let run = lab::run(&s);
    assert!(run.trace.truncated);
    assert_eq!(run.trace.events.len(), MAX_TRACE_EVENTS);
    let last = run.trace.events.last().unwrap().at_ms;
    assert_eq!(run.verdict.truncated_at_ms, Some(last));
    assert_eq!(run.trace.duration_ms, last);
    assert!(last > 1000 && last < s.duration_ms / 10, "cut at {last} ms of {} ms", s.duration_ms);
}

#[test]
fn a_run_within_the_limit_keeps_its_whole_duration() {
    let s = parse(include_str!("../src/scenario/catalog/redis-gc-pause.json")).expect("valid");
    let run = lab::run(&s);
    assert!(!run.trace.truncated && run.verdict.truncated_at_ms.is_none());
    assert_eq!(run.trace.duration_ms, s.duration_ms);
}
