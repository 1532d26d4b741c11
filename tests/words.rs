//! Issue 36, item 7, "every word in its place": the words the diagram and the captions show
//! agree with the picture, in every built-in (fencing off and on) and every lesson step. The
//! drawing's own words (marks, messages in flight, the lane column's phrasings) are checked
//! at every key moment in every geometry by tests/drawing_matrix.rs; this file holds what
//! is about the run rather than the layout: lane states after a restart, a caption's count,
//! the axis' span, and the captions' least type.

use locklab::lab::{self, Run};
use locklab::lesson::{builtin, locate};
use locklab::protocols::{Note, Trace};
use locklab::scenario::catalog;
use locklab::sim::{EventKind, Role};
use locklab::text::{caption, caption::CAPTION_MIN_PX, Story};
use locklab::timeline::draw::{lanes, Geometry};
use locklab::timeline::{self, Timeline};

/// Every built-in, fencing off and on, and every lesson step's run: (who, run).
fn runs() -> Vec<(String, Run)> {
    let mut out = Vec::new();
    for s in catalog::all() {
        for f in [false, true] {
            out.push((format!("{} fencing {f}", s.id), lab::run(&lab::with_fencing(&s, f))));
        }
    }
    for lesson in builtin::all() {
        for (i, step) in lesson.steps.iter().enumerate().filter(|(_, s)| !s.is_slide()) {
            out.push((format!("{} step {}", lesson.id, i + 1), step.run().expect("a lesson's run")));
        }
    }
    out
}

/// The fullest phrasing of `node`'s lane state once event `upto` at `at` has happened.
fn lane_words(t: &Timeline, node: usize, at: i64, upto: Option<usize>) -> String {
    let g = Geometry::new(t, 1280.0, false);
    let b = g.lane(node).expect("a lane");
    lanes::status(t, b, at, upto).0.remove(0)
}

/// The names a lock server's lane says hold the lock ("lock: A, B" → A, B).
fn holders_shown(words: &str) -> Vec<String> {
    match words.split("lock: ").nth(1) {
        Some("free") | None => vec![],
        Some(names) => names.split(", ").map(str::to_string).collect(),
    }
}

/// Item 1: a restart that loses the server's state empties its lane at the restart itself,
/// not one event later: after "redis restarts" the lane read "lock: A" (why-fencing 7).
#[test]
fn a_lane_reads_free_from_the_restart_that_lost_its_keys() {
    let mut checked = 0;
    let mut found = Vec::new();
    for (who, run) in runs() {
        let t = Timeline::of_run(&run);
        for (i, e) in run.trace.events.iter().enumerate() {
            let EventKind::Note(Note::StateLost { .. }) = e.kind else { continue };
            let restart =
                (0..i).rev().find(|&j| run.trace.events[j].node == e.node && matches!(run.trace.events[j].kind, EventKind::Restarted));
            let restart = restart.expect("a state lost at a restart");
            for upto in [restart, i] {
                checked += 1;
                let words = lane_words(&t, e.node, e.at_ms, Some(upto));
                if !holders_shown(&words).is_empty() {
                    found.push(format!("{who}: {} at event {upto} ({} ms) reads \"{words}\"", run.trace.name(e.node), e.at_ms));
                }
            }
        }
    }
    assert!(checked >= 4, "{checked} restarts that lost state");
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The step the issue saw, at its own moment.
    let lesson = builtin::get("why-fencing").unwrap();
    let step = &lesson.steps[6];
    let t = Timeline::of_run(&step.run().unwrap());
    let c = locate(step.at, &t).unwrap();
    let redis = t.lanes.iter().find(|l| l.role == Role::LockServer).unwrap().node;
    assert_eq!(lane_words(&t, redis, c.ms, c.event), "lock: free");
}

/// Item 4: Redlock's caption for an instance's grant counts the instances whose lanes show
/// the client's key, this one included ("one instance of 5" was said while two more lanes
/// already read "lock: B").
#[test]
fn a_grant_caption_counts_the_lanes_that_show_it() {
    let mut checked = 0;
    let mut found = Vec::new();
    for (who, run) in runs() {
        let t = Timeline::of_run(&run);
        let story = Story::of_run(&run);
        let servers: Vec<usize> = t.lanes.iter().filter(|l| l.role == Role::LockServer).map(|l| l.node).collect();
        for (i, e) in run.trace.events.iter().enumerate() {
            let EventKind::Note(Note::LockCommitted { client, .. }) = e.kind else { continue };
            let words = caption(&run.trace, run.scenario.approach, &story, i);
            let Some(said) = words.split(" of ").next().and_then(|h| h.rsplit(": ").next()).and_then(|n| n.parse::<usize>().ok()) else {
                continue;
            };
            checked += 1;
            let name = run.trace.name(client);
            let shown = servers.iter().filter(|&&s| holders_shown(&lane_words(&t, s, e.at_ms, Some(i))).iter().any(|h| h == name)).count();
            if said != shown {
                found.push(format!("{who}, event {i}: \"{words}\" while {shown} lanes show {name}'s lock"));
            }
        }
    }
    assert!(checked >= 20, "{checked} Redlock grants");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The latest instant the story draws: its steps and key moments, its writes, the story's
/// messages' arrivals, and every bar, band and partition that ends before the run does.
fn story_end(t: &Timeline) -> i64 {
    let steps = t.steps.iter().map(|s| s.at).chain(t.key_moments.iter().map(|k| k.at)).chain(t.writes.iter().map(|w| w.at));
    let arrows = t.arrows.iter().filter(|a| !a.quiet && a.client.is_some()).map(|a| a.end());
    let bars = t.beliefs.iter().filter(|b| !b.open).map(|b| b.to).chain(t.bands.iter().map(|b| b.to));
    steps.chain(arrows).chain(bars).chain(t.partitions.iter().map(|p| p.to)).max().unwrap_or(0)
}

/// Item 7: the axis spans the story with a margin, not the scenario's whole `duration_ms`: a
/// story of 4 s was squeezed into the first 100 px of a 20 s axis (why-fencing 7).
#[test]
fn the_axis_fits_the_storys_span() {
    let mut found = Vec::new();
    for (who, run) in runs() {
        let t = Timeline::of_run(&run);
        let (end, span) = (story_end(&t), t.duration_ms);
        assert_eq!(span, timeline::span(&run.trace), "{who}: the timeline's span is `span`'s");
        // All of it on the axis, and no more than a margin and a second's rounding after it.
        let margin = (end / 10).max(1_000);
        if end > span || (span > end + margin + 1_000 && span < run.trace.duration_ms) {
            found.push(format!("{who}: the story ends at {end} ms, the axis at {span} ms"));
        }
        if span > run.trace.duration_ms {
            found.push(format!("{who}: the axis ({span} ms) is longer than the run ({} ms)", run.trace.duration_ms));
        }
        // The story fills the plot: its end is in the axis' last part, not its first fifth.
        let g = Geometry::new(&t, 1280.0, true);
        let filled = (g.xt(end) - g.x0) / (g.x1 - g.x0);
        if filled < 0.5 {
            found.push(format!("{who}: the story ends {:.0}% along the axis", filled * 100.0));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    let step = &builtin::get("why-fencing").unwrap().steps[6];
    let t = Timeline::of_run(&step.run().unwrap());
    assert!(t.duration_ms <= 6_000, "why-fencing 7's 4 s story on a {} ms axis", t.duration_ms);
}

/// Item 8: a caption keeps its least size in any box; what does not fit scrolls. Every size
/// the fitting scales (`--fit`) is floored at `CAPTION_MIN_PX` (a 320×240 embed's caption
/// went down to 9.9 px).
#[test]
fn a_fitted_caption_never_goes_under_its_least_size() {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/styles/app.css")).unwrap();
    let floor = format!("font-size: max({CAPTION_MIN_PX}px, calc(");
    let fitted: Vec<&str> = css.lines().filter(|l| l.contains("var(--fit")).collect();
    assert!(fitted.len() >= 3, "the fitted captions' rules: {fitted:?}");
    for l in fitted {
        assert!(l.contains(&floor), "not floored at {CAPTION_MIN_PX} px: {l}");
    }
    const { assert!(CAPTION_MIN_PX >= 12.0) };
}

/// `span` counts what happens, not the chatter that goes on all the time: a consensus run's
/// heartbeats alone do not stretch its axis to the run's end.
#[test]
fn heartbeats_alone_do_not_stretch_the_axis() {
    let run = lab::run(&catalog::get("happy-path-zookeeper").unwrap());
    let trace: &Trace = &run.trace;
    let t = Timeline::of_run(&run);
    assert!(t.duration_ms <= trace.duration_ms);
    assert!(t.arrows.iter().all(|a| a.sent <= t.duration_ms));
    assert!(t.steps.iter().all(|s| s.at <= t.duration_ms));
}
