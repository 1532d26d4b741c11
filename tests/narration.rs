//! Every event of every built-in gets a caption a student can read.

use locklab::lab;
use locklab::scenario::catalog;
use locklab::text::{caption, Story};
use locklab::timeline::{current_event, is_captioned};

#[test]
fn every_event_of_every_builtin_has_a_plain_caption() {
    for s in catalog::all() {
        for fencing in [false, true] {
            let run = lab::run(&lab::with_fencing(&s, fencing));
            let story = Story::of_run(&run);
            for (i, e) in run.trace.events.iter().enumerate() {
                let text = caption(&run.trace, s.approach, &story, i);
                assert!(text.len() > 8, "{}: empty caption for {e:?}", s.id);
                assert!(!text.contains("node #") && !text.contains("{") && !text.contains("Some("), "{}: raw caption {text}", s.id);
            }
        }
    }
}

#[test]
fn the_gc_pause_story_reads_in_order() {
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    let causes = Story::of_run(&run);
    let story = locklab::text::caption::all(&run.trace, run.scenario.approach, &causes);
    let find = |needle: &str| story.iter().position(|c| c.contains(needle)).unwrap_or_else(|| panic!("no caption with {needle:?}"));
    let paused = find("A freezes");
    let expired = find("A's key expired at redis");
    let b_holds = find("B now holds the lock");
    let woke = find("A wakes up");
    let stale = find("Storage accepts A's STALE write (token 1): A's key expired at redis while A was paused; B got the lock at 10.129 s. B's write (token 2) came first and is lost. Fencing is off");
    assert!(paused < expired && expired < b_holds && b_holds < woke && woke < stale);
}

#[test]
fn the_caption_at_a_cursor_is_the_latest_event_before_it() {
    let run = lab::run(&catalog::get("redis-gc-pause").unwrap());
    assert_eq!(current_event(&run.trace, -1), None);
    let i = current_event(&run.trace, 12_000).unwrap();
    assert!(run.trace.events[i].at_ms <= 12_000);
    assert!(run.trace.events[i + 1..].iter().all(|e| e.at_ms > 12_000 || !is_captioned(e)));
}
