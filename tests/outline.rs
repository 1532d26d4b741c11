//! The diagram's parallel document (src/text/outline.rs) against the run, for every built-in
//! with fencing off and on: every step the diagram visits is on its lane once, in time order,
//! and at every key moment the reader finds that moment's facts in words (issue 35, item 1):
//! a grant and its token, an expiry, a write with its token, accepted or rejected, stale or not.
//! The browser test (tests/e2e/specs/outline.spec.ts) reads the same words from the
//! accessibility tree.

use locklab::lab::{self, Run};
use locklab::scenario::catalog;
use locklab::text::outline::{at_cursor, outline, step, LaneOutline, OutlineKey};
use locklab::text::Story;
use locklab::timeline::{KeyKind, Timeline, WriteResult};

fn runs() -> impl Iterator<Item = (String, Run)> {
    catalog::all().into_iter().flat_map(|s| {
        [false, true].map(|fencing| {
            let mut s = s.clone();
            s.storage.fencing = fencing;
            (format!("{} fencing {}", s.id, if fencing { "on" } else { "off" }), lab::run(&s))
        })
    })
}

fn of(run: &Run) -> (Timeline, Vec<LaneOutline>) {
    let t = Timeline::of_run(run);
    let story = Story::new(&run.trace, &run.verdict, &t);
    let lanes = outline(&run.trace, run.scenario.approach, &story, &t);
    (t, lanes)
}

#[test]
fn every_step_is_on_its_own_lane_once_in_time_order() {
    for (name, run) in runs() {
        let (t, lanes) = of(&run);
        assert_eq!(
            lanes.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            t.lanes.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            "{name}"
        );
        let mut seen: Vec<usize> = lanes.iter().flat_map(|l| l.events.iter().map(|e| e.event)).collect();
        seen.sort();
        let mut steps: Vec<usize> = t.steps.iter().map(|s| s.event).collect();
        steps.sort();
        assert_eq!(seen, steps, "{name}: every step once");
        for lane in &lanes {
            assert!(lane.events.windows(2).all(|w| w[0].at <= w[1].at), "{name}: {} in time order", lane.name);
            for e in &lane.events {
                assert_eq!(run.trace.events[e.event].node, lane.node, "{name}: {} on its own lane", e.words);
            }
        }
    }
}

#[test]
fn every_key_moment_is_found_with_its_facts() {
    for (name, run) in runs() {
        let (t, lanes) = of(&run);
        let approach = run.scenario.approach;
        for km in &t.key_moments {
            let lane = lanes.iter().find(|l| l.node == km.node).unwrap_or_else(|| panic!("{name}: no lane for {km:?}"));
            let e = lane.events.iter().find(|e| e.event == km.event).unwrap_or_else(|| panic!("{name}: {km:?} is not on {}", lane.name));
            assert_eq!(e.key, Some(km.kind), "{name}: {}", e.words);
            let words = &e.words;
            assert!(words.starts_with(&format!("{}: ", locklab::decimal::seconds(km.at))), "{name}: the time first: {words}");
            match km.kind {
                KeyKind::Write(result) => {
                    let w = t.writes.iter().find(|w| w.event == km.event).expect("a write key moment is a write");
                    assert!(words.contains(t.name(w.client)), "{name}: who wrote: {words}");
                    if w.token.is_some() {
                        assert!(
                            words.contains(&approach.token_label(w.token)),
                            "{name}: its token {}: {words}",
                            approach.token_label(w.token)
                        );
                    }
                    match result {
                        WriteResult::StaleAccepted => assert!(words.contains("accepts") && words.contains("STALE"), "{name}: {words}"),
                        WriteResult::Accepted => assert!(words.contains("accepts") && !words.contains("STALE"), "{name}: {words}"),
                        WriteResult::Rejected => assert!(words.contains("rejects") || words.contains("refuses"), "{name}: {words}"),
                    }
                }
                // A grant names who gets the lock; the first belief that follows it is whose.
                KeyKind::Grant | KeyKind::Takeover => {
                    let holder = t.beliefs.iter().filter(|b| b.from >= km.at).min_by_key(|b| b.from).map(|b| t.name(b.client));
                    assert!(holder.is_some_and(|h| words.contains(h)), "{name}: the holder {holder:?}: {words}");
                }
                // k8s expires nothing: a candidate takes over a record it judges stale.
                KeyKind::LeaseExpired => assert!(
                    ["expired", "gone", "takes over", "released with its session"].iter().any(|w| words.contains(w)),
                    "{name}: {words}"
                ),
                _ => {}
            }
        }
    }
}

#[test]
fn the_reader_stands_where_the_cursor_is_and_the_keys_move_as_they_say() {
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    let (t, lanes) = of(&run);
    let stale = t.writes.iter().find(|w| w.result == WriteResult::StaleAccepted).unwrap();
    let (li, ei) = at_cursor(&lanes, stale.at, Some(stale.event)).unwrap();
    assert_eq!(lanes[li].events[ei].event, stale.event);
    assert_eq!(lanes[li].name, "storage");
    assert_eq!(at_cursor(&lanes, -1, None), None, "before the first event, nowhere");
    // ← and → along the lane, Home and End to its ends, and no further.
    assert_eq!(step(&lanes, (li, ei), OutlineKey::Prev, None), Some((li, ei - 1)));
    assert_eq!(step(&lanes, (li, 0), OutlineKey::Prev, None), None);
    let last = lanes[li].events.len() - 1;
    assert_eq!(step(&lanes, (li, ei), OutlineKey::Last, None), Some((li, last)));
    assert_eq!(step(&lanes, (li, last), OutlineKey::Next, None), None);
    assert_eq!(step(&lanes, (li, ei), OutlineKey::First, None), Some((li, 0)));
    // ↑ from the stale write: B's lane (above storage), its last event at or before 15.505 s.
    let (up, ue) = step(&lanes, (li, ei), OutlineKey::Up, None).unwrap();
    assert_eq!(lanes[up].name, "B");
    assert!(lanes[up].events[ue].at <= stale.at);
    assert!(lanes[up].events.get(ue + 1).is_none_or(|n| n.at > stale.at));
    assert_eq!(step(&lanes, (li, ei), OutlineKey::Down, None), None, "storage is the bottom lane");
    // Listed up to B's write (10.607 s): End stops at the last listed, → steps one past it.
    let b_write = t.writes.iter().find(|w| w.result == WriteResult::Accepted).unwrap();
    let (si, sw) = at_cursor(&lanes, b_write.at, Some(b_write.event)).unwrap();
    assert_eq!(step(&lanes, (si, 0), OutlineKey::Last, Some(b_write.at)), Some((si, sw)));
    assert_eq!(step(&lanes, (si, sw), OutlineKey::Next, Some(b_write.at)), Some((si, sw + 1)));
}

#[test]
fn the_accessibility_page_quotes_the_app_s_own_words_in_time_order() {
    let page = include_str!("../docs/ACCESSIBILITY.md");
    let section = page.split("## What a screen-reader user hears: redis-gc-pause").nth(1).unwrap().split("\n## ").next().unwrap();
    let quoted: Vec<&str> = section.lines().filter_map(|l| l.strip_prefix("- \"")?.strip_suffix('"')).collect();
    assert!(quoted.len() >= 6, "{quoted:?}");
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    let (_, lanes) = of(&run);
    let mut said: Vec<(i64, &str)> = lanes.iter().flat_map(|l| l.events.iter().map(|e| (e.at, e.words.as_str()))).collect();
    said.sort();
    let mut from = 0;
    for q in quoted {
        let at = said[from..].iter().position(|(_, w)| *w == q).unwrap_or_else(|| panic!("not the app's words, or out of order: {q}"));
        from += at + 1;
    }
}
