//! The session model, driven as the browser drives it (actions and frame timestamps), with no
//! browser and no sleeps.

use super::*;
use crate::compare::Against;
use crate::scenario::fault::{Delay, Pause};
use crate::scenario::FaultSpec;

fn open(search: &str) -> Session {
    Session::new(&Start { search: search.into(), hash: String::new(), reduced_motion: false, prefers_dark: false })
}

fn apply_all(mut s: Session, actions: impl IntoIterator<Item = Action>) -> Session {
    for a in actions {
        s = s.apply(a);
    }
    s
}

/// Plays for `frames` animation frames of `frame_ms` each, from timestamp 0.
fn play(s: Session, frames: usize, frame_ms: f64) -> Session {
    let s = s.apply(Action::TogglePlay);
    apply_all(s, (0..=frames).map(|i| Action::Tick(i as f64 * frame_ms)))
}

#[test]
fn a_link_opens_its_scenario_switches_and_cursor() {
    let s = open("?scenario=redis-gc-pause&fencing=on&t=15502&lecture=1");
    assert_eq!(s.scenario.id, "redis-gc-pause");
    assert!(s.scenario.storage.fencing);
    assert_eq!(s.cursor_ms(), 15502);
    assert!(s.lecture);
    assert!(s.run.verdict.safe);
}

#[test]
fn a_switch_re_simulates_in_place() {
    let s = open("?scenario=redis-gc-pause&t=15502");
    assert!(!s.run.verdict.safe);
    let s = s.apply(Action::ToggleFencing);
    assert!(s.scenario.storage.fencing);
    assert!(s.run.verdict.safe, "fencing rejects A's stale write");
    assert_eq!(s.cursor_ms(), 15502, "the cursor stays where it was");
}

#[test]
fn safe_unlock_is_left_alone_where_it_does_not_apply() {
    let s = open("?scenario=zookeeper-session-expiry");
    assert!(!s.safe_unlock_applies());
    let before = s.run.trace.hash();
    let s = s.apply(Action::ToggleSafeUnlock);
    assert!(s.scenario.lock.safe_unlock, "unchanged");
    assert_eq!(s.run.trace.hash(), before);
}

#[test]
fn steps_visit_every_step_forwards_and_back() {
    let mut s = open("?scenario=redis-gc-pause");
    let steps = s.timeline.steps.clone();
    // At 0 the caption of the last step at 0 already shows: the first step goes past it.
    let shown = steps.partition_point(|st| st.at <= 0);
    for step in &steps[shown..] {
        s = s.apply(Action::Step);
        assert_eq!((s.cursor_ms(), s.caption_event()), (step.at, Some(step.event)));
    }
    s = s.apply(Action::Step);
    assert_eq!(s.cursor_ms(), s.timeline.duration_ms, "past the last step: the end");
    for step in steps[shown - 1..].iter().rev().skip(1) {
        s = s.apply(Action::StepBack);
        assert_eq!((s.cursor_ms(), s.caption_event()), (step.at, Some(step.event)));
    }
}

#[test]
fn key_moments_are_visited_in_order() {
    let mut s = open("?scenario=redis-gc-pause");
    // Every key moment, those sharing a millisecond too (an expiry and the takeover it allows).
    let keys: Vec<i64> = s.timeline.key_moments.iter().map(|k| k.at).filter(|&at| at > 0).collect();
    let mut seen = Vec::new();
    for _ in 0..keys.len() {
        s = s.apply(Action::NextKey);
        seen.push(s.cursor_ms());
    }
    assert_eq!(seen, keys);
    let end = s.clone().apply(Action::NextKey);
    assert_eq!(end.cursor_ms(), end.timeline.duration_ms, "after the last key moment: the end");
    let back = s.apply(Action::PrevKey);
    assert_eq!(back.cursor_ms(), keys[keys.len() - 2]);
}

#[test]
fn playback_moves_the_cursor_and_stops_at_the_end() {
    let s = play(open("?scenario=happy-path-redis"), 60, 16.0);
    assert!(s.playing);
    assert!(s.cursor > 0.0, "a second of frames moves the cursor");
    let moved = s.cursor;
    let s = apply_all(s, (61..20_000).map(|i| Action::Tick(i as f64 * 16.0)));
    assert!(!s.playing, "playback stops at the end");
    assert_eq!(s.cursor_ms(), s.timeline.duration_ms);
    assert!(s.cursor > moved);
    let again = s.apply(Action::TogglePlay);
    assert_eq!(again.cursor_ms(), 0, "play at the end starts over");
}

#[test]
fn a_long_frame_gap_does_not_leap() {
    let s = open("?scenario=redis-gc-pause").apply(Action::TogglePlay);
    let one = s.clone().apply(Action::Tick(0.0)).apply(Action::Tick(100.0));
    let gap = s.apply(Action::Tick(0.0)).apply(Action::Tick(60_000.0));
    assert!(one.cursor > 0.0);
    assert_eq!(gap.cursor, one.cursor, "a minute away (hidden tab) counts as one 100 ms frame");
}

#[test]
fn reduced_motion_plays_as_a_slideshow_of_steps() {
    let s =
        Session::new(&Start { search: "?scenario=redis-gc-pause".into(), hash: String::new(), reduced_motion: true, prefers_dark: false });
    let first = s.timeline.steps[s.timeline.steps.partition_point(|st| st.at <= 0)];
    let s = s.apply(Action::TogglePlay).apply(Action::Tick(0.0));
    let s = apply_all(s, (1..=15).map(|i| Action::Tick(i as f64 * 100.0)));
    assert_eq!(s.cursor_ms(), 0, "holds the caption for the slide time");
    let s = apply_all(s, (16..=17).map(|i| Action::Tick(i as f64 * 100.0)));
    assert_eq!((s.cursor_ms(), s.caption_event()), (first.at, Some(first.event)));
}

#[test]
fn a_refused_edit_keeps_the_run_and_says_why() {
    let s = open("?scenario=redis-gc-pause");
    let before = s.run.trace.hash();
    let s = s.apply(Action::SetTtl(0));
    assert_eq!(s.error.as_deref(), Some("lock.ttl_ms: 0 ms is out of range: must be 1..=600000 ms"));
    assert_eq!(s.run.trace.hash(), before);
    assert_eq!(s.scenario.lock.ttl_ms, 10_000);
    let s = s.apply(Action::SetTtl(20_000));
    assert_eq!(s.error, None);
    assert!(s.run.verdict.safe, "a TTL longer than the pause keeps A's lease");
}

#[test]
fn loading_json_validates_first() {
    let s = open("?scenario=redis-gc-pause");
    let s = s.apply(Action::Load("{\"version\": 1, \"approach\": \"paxos\"}".into()));
    assert!(s.load_error.as_deref().is_some_and(|e| e.starts_with("approach: unknown variant `paxos`")), "{:?}", s.load_error);
    assert_eq!(s.scenario.id, "redis-gc-pause");
    let s = s.apply(Action::Load("{\"version\": 1, \"title\": \"Mine\", \"approach\": \"etcd\"}".into()));
    assert_eq!((s.scenario.id.as_str(), s.load_error.as_deref()), ("mine", None));
}

#[test]
fn a_history_is_drawn_and_judged_and_takes_no_edit_until_a_scenario_comes_back() {
    let s = open("?scenario=etcd-gc-pause");
    let bad = s.apply(Action::JudgeHistory("{\"t\": 0, \"process\": \"A\", \"op\": \"grnt\"}".into()));
    assert!(bad.history_error.as_deref().is_some_and(|e| e.starts_with("line 1, op: unknown variant `grnt`")), "{:?}", bad.history_error);
    assert_eq!((bad.scenario.id.as_str(), bad.history), ("etcd-gc-pause", false), "the run on screen stays");
    let text = crate::history::write(&lab::run(&catalog::get("redis-gc-pause").unwrap()));
    let s = bad.apply(Action::JudgeHistory(text));
    assert!(s.history && s.history_error.is_none());
    assert_eq!(s.scenario.approach, Approach::Redis);
    assert!(!s.run.verdict.safe, "A's stale write was accepted, as in the run it was written from");
    let (events, safe) = (s.run.trace.events.len(), s.run.verdict.safe);
    // The switch and the knobs would re-run a simulation: refused, the history stays.
    let s =
        s.apply(Action::ToggleFencing).apply(Action::SetTtl(20_000)).apply(Action::CompareWith(Some(Against::Approach(Approach::Etcd))));
    assert_eq!((s.history, s.run.trace.events.len(), s.run.verdict.safe), (true, events, safe));
    assert_eq!(s.error.as_deref(), Some(HISTORY_IS_FIXED));
    assert!(s.other.is_none());
    // Undo brings back the scenario before it, simulated again.
    let s = s.apply(Action::Undo);
    assert_eq!((s.scenario.id.as_str(), s.history), ("etcd-gc-pause", false));
    let s = s.apply(Action::JudgeHistory(crate::history::write(&lab::run(&catalog::get("redis-gc-pause").unwrap()))));
    let s = s.apply(Action::Pick("db-lease-gc-pause".into()));
    assert!(!s.history && s.apply(Action::ToggleFencing).error.is_none());
}

#[test]
fn side_by_side_steps_through_both_runs_under_one_cursor() {
    let s = open("?scenario=redis-gc-pause").apply(Action::CompareWith(Some(Against::Approach(Approach::Etcd))));
    let other = s.other.clone().expect("compare mode");
    let right = other.timeline().expect("the etcd side runs");
    let mut all: Vec<i64> = s.timeline.steps.iter().chain(&right.steps).map(|st| st.at).filter(|&at| at > 0).collect();
    all.sort();
    all.dedup();
    let mut s = s;
    let mut visited = Vec::new();
    for _ in 0..20 {
        s = s.apply(Action::Step);
        visited.push(s.cursor_ms());
    }
    assert!(visited.windows(2).all(|w| w[0] <= w[1]), "forward in time: {visited:?}");
    visited.dedup();
    assert_eq!(visited, all[..visited.len()], "every step of either run, in time order");
    let s = s.apply(Action::ToggleFencing);
    assert!(
        s.other.as_ref().is_some_and(|o| o.run.as_ref().is_some_and(|(r, _, _)| r.scenario.storage.fencing)),
        "switches edit both sides"
    );
    let s = s.apply(Action::CompareWith(None));
    assert!(s.other.is_none());
    assert_eq!(s.cursor_ms(), *visited.last().unwrap(), "the cursor stays");
}

#[test]
fn a_recorded_real_run_is_offered_only_for_the_scenario_it_recorded() {
    let s = open("?scenario=redis-gc-pause");
    let r = s.recording.clone().expect("redis-gc-pause is recorded with fencing off");
    assert!(!r.fencing);
    let s = s.apply(Action::CompareWith(Some(Against::Recorded)));
    let o = s.other.clone().expect("compare mode");
    let (run, _, _) = o.run.clone().expect("the recording is drawn");
    assert_eq!(run.trace, r.trace, "the recorded trace, as recorded");
    assert_eq!(run.trace.nodes, s.run.trace.nodes, "the simulation's lanes");
    assert!(o.summary.starts_with("The real run agrees with the model"), "{}", o.summary);
    assert_eq!(o.name, format!("real {}", r.server));
    // Fencing on: the recording of that run takes its place, found by its own fingerprint.
    let s = s.apply(Action::ToggleFencing);
    let o = s.other.clone().unwrap();
    assert!(o.recording.as_ref().is_some_and(|r| r.fencing) && o.run.as_ref().is_some_and(|(r, _, _)| r.verdict.safe));
    // Any other change: no recording is drawn against a scenario it did not record; the side says why.
    let s = s.apply(Action::SetTtl(9_000));
    assert!(s.recording.is_none());
    let o = s.other.clone().unwrap();
    assert!(o.run.is_none() && o.error.as_deref().is_some_and(|e| e.contains("changed")), "{:?}", o.error);
    // Undo: the scenario as recorded again, and its recording with it.
    let s = s.apply(Action::Undo);
    assert!(s.other.as_ref().is_some_and(|o| o.run.is_some()));
    assert_eq!(open("?scenario=redis-gc-pause&compare=real").permalink(), "?scenario=redis-gc-pause&compare=real");
}

#[test]
fn compared_on_the_stage_the_one_caption_speaks_for_the_run_whose_key_moment_it_is() {
    let mut seen = (0, 0);
    for id in open("").catalog.iter().map(|c| c.id.clone()) {
        let left = open(&format!("?scenario={id}&lecture=1"));
        let with = if left.scenario.approach == Approach::Etcd { Approach::Redis } else { Approach::Etcd };
        let mut s = left.apply(Action::CompareWith(Some(Against::Approach(with))));
        assert_eq!(s.stage_speaker(), Speaker::Left, "{id}: the picked run speaks first");
        for _ in 0..80 {
            let before = (s.cursor, s.focus, s.other_focus);
            s = s.apply(Action::NextKey);
            if (s.cursor, s.focus, s.other_focus) == before || s.cursor_ms() >= s.timeline.duration_ms {
                break;
            }
            let ms = s.cursor_ms();
            let key = |t: &crate::timeline::Timeline| t.key_moments.iter().any(|k| k.at == ms);
            let (l, r) = (key(&s.timeline), key(s.other.as_ref().unwrap().timeline().unwrap()));
            let speaker = s.stage_speaker();
            if l != r {
                let want = if l { Speaker::Left } else { Speaker::Other };
                assert_eq!(speaker, want, "{id} vs {with:?} at {ms} ms: the run with the key moment speaks");
            }
            match speaker {
                Speaker::Left => seen.0 += 1,
                Speaker::Other => seen.1 += 1,
            }
        }
    }
    assert!(seen.0 > 20 && seen.1 > 20, "both runs speak somewhere: {seen:?}");
}

#[test]
fn picking_shows_another_scenario_from_its_start() {
    let s = open("?scenario=redis-gc-pause&t=9000").apply(Action::Pick("etcd-gc-pause".into()));
    assert_eq!((s.scenario.id.as_str(), s.cursor_ms()), ("etcd-gc-pause", 0));
    let s = s.apply(Action::Pick("no-such-id".into()));
    assert_eq!(s.scenario.id, "etcd-gc-pause");
}

/// Plays `s` to the end in 16 ms frames at `speed`, pressing Space whenever lecture mode
/// stopped it at a key moment; returns each frame's caption with its real start time.
fn watch(s: Session, speed: f64) -> (Session, Vec<(f64, CaptionView)>) {
    let mut s = s.apply(Action::SetSpeed(speed)).apply(Action::TogglePlay);
    let mut shown = Vec::new();
    let mut now = 0.0;
    for _ in 0..200_000 {
        if !s.playing {
            if s.cursor_ms() >= s.timeline.duration_ms {
                break;
            }
            s = s.apply(Action::TogglePlay);
        }
        s = s.apply(Action::Tick(now));
        shown.push((now, s.caption_view()));
        now += 16.0;
    }
    (s, shown)
}

/// Real ms each caption was on screen, in the order they appeared.
fn dwell(shown: &[(f64, CaptionView)]) -> Vec<(CaptionView, f64)> {
    let mut out: Vec<(CaptionView, f64)> = Vec::new();
    for w in shown.windows(2) {
        match out.last_mut() {
            Some((c, ms)) if *c == w[0].1 => *ms += w[1].0 - w[0].0,
            _ => out.push((w[0].1.clone(), w[1].0 - w[0].0)),
        }
    }
    out
}

#[test]
fn every_key_moment_is_readable_for_its_dwell_and_the_run_ends_on_its_outcome() {
    for id in ["redis-gc-pause", "zookeeper-session-expiry", "redlock-clock-jump", "redis-failover", "db-lease-gc-pause", "etcd-gc-pause"] {
        for speed in [1.0, 4.0] {
            let s = open(&format!("?scenario={id}"));
            let keys: Vec<usize> = s.timeline.key_moments.iter().map(|k| k.event).collect();
            let (end, shown) = watch(s, speed);
            let spans = dwell(&shown);
            for key in &keys {
                let on: f64 = spans.iter().filter(|(c, _)| *c == CaptionView::Event(*key)).map(|(_, ms)| ms).sum();
                assert!(on >= DWELL_MS / speed - 16.0, "{id} at {speed}×: key moment event {key} shown {on} ms");
            }
            assert_eq!(shown.last().map(|(_, c)| c.clone()), Some(CaptionView::Outcome), "{id}: ends on its outcome");
            assert!(!end.playing);
            // Routine events do not churn the caption: it changes at key moments and quiet
            // stretches only (each key moment once, each stretch once, the start and the end).
            assert!(spans.len() <= 2 * keys.len() + 3, "{id}: {} caption changes for {} key moments: {spans:?}", spans.len(), keys.len());
        }
    }
}

#[test]
fn a_quiet_stretch_passes_quickly_with_a_fast_forward_mark() {
    let s = open("?scenario=redis-gc-pause");
    let pause = s.timeline.key_moments.iter().position(|k| k.kind == crate::timeline::KeyKind::Paused).unwrap();
    let (from, to) = (s.timeline.key_moments[pause].at, s.timeline.key_moments[pause + 1].at);
    let (_, shown) = watch(s, 1.0);
    let quiet: f64 = dwell(&shown).iter().filter(|(c, _)| *c == CaptionView::Quiet { from, to }).map(|(_, ms)| ms).sum();
    assert!(quiet > 0.0, "the 9.5 s of retries are summed up in one caption");
    assert!(quiet < 2_500.0, "and pass in under 2.5 s ({quiet} ms)");
}

#[test]
fn lecture_mode_stops_at_every_key_moment_until_space() {
    let s = open("?scenario=redis-gc-pause&lecture=1");
    let keys = s.timeline.key_moments.clone();
    let mut s = s.apply(Action::TogglePlay);
    let mut stops = Vec::new();
    let mut now = 0.0;
    for _ in 0..100_000 {
        s = s.apply(Action::Tick(now));
        now += 16.0;
        if !s.playing {
            if s.cursor_ms() >= s.timeline.duration_ms {
                break;
            }
            stops.push((s.cursor_ms(), s.focus));
            s = s.apply(Action::TogglePlay);
        }
    }
    let expected: Vec<(i64, Option<usize>)> = keys.iter().map(|k| (k.at, Some(k.event))).collect();
    assert_eq!(stops, expected, "one stop per key moment, on its event");
    let off = open("?scenario=redis-gc-pause&lecture=1").apply(Action::ToggleStopAtKeys);
    let (_, shown) = watch(off, 1.0);
    assert_eq!(shown.last().map(|(_, c)| c.clone()), Some(CaptionView::Outcome));
}

#[test]
fn an_edited_built_in_is_judged_against_the_one_as_shipped() {
    let s = open("?scenario=redis-gc-pause");
    assert!(s.as_shipped().is_some() && s.edited_from().is_none() && s.original.is_none());
    let s = s.apply(Action::ToggleFencing);
    assert!(s.as_shipped().is_some(), "fencing is a switch its expect covers");
    let s = s.apply(Action::ToggleFencing).apply(Action::SetTtl(20_000));
    assert!(s.as_shipped().is_none());
    assert_eq!(s.edited_from().map(|b| b.id.as_str()), Some("redis-gc-pause"));
    let original = s.original.clone().expect("the run before the change");
    assert!(!original.safe && s.run.verdict.safe);
}

#[test]
fn a_change_is_judged_against_the_run_before_it() {
    // Issue 25: an edited run that is unsafe, then saved by fencing, was judged against the
    // built-in with fencing on (safe) and read "Still safe after your change".
    let s = open("?scenario=redis-gc-pause").apply(Action::SetTtl(12_000));
    assert!(!s.run.verdict.safe, "a 15 s pause still outlives a 12 s lease");
    let s = s.apply(Action::ToggleFencing);
    assert!(s.run.verdict.safe);
    let before = s.original.clone().expect("the run before the change");
    assert!(!before.safe && !before.fencing, "judged against the unsafe run it changed");
    assert!(crate::text::verdict::change(&before, &s.run.verdict).starts_with("Your change made it safe"));
    // Back to the built-in as shipped: its author's expectation judges it again.
    let s = s.apply(Action::ToggleFencing).apply(Action::SetTtl(10_000));
    assert!(s.as_shipped().is_some() && s.original.is_none());
}

#[test]
fn the_outcome_shows_at_the_end_or_when_asked_for() {
    let s = open("?scenario=redis-gc-pause&t=9000");
    assert!(!s.outcome_shown());
    assert!(s.clone().apply(Action::Seek(f64::MAX)).outcome_shown());
    let up_front = open("?scenario=redis-gc-pause&t=9000&outcome=1");
    assert!(up_front.outcome_shown());
    assert!(up_front.permalink().contains("outcome=1"));
    assert!(s.apply(Action::ToggleOutcome).outcome_shown());
}

// ---------------------------------------------------------------------------------------------
// Faults where the user points.

/// Half a second before `client`'s first write: the holder at work, knowing it holds the lock.
fn at_work(s: &Session, client: &str) -> i64 {
    s.run.verdict.writes.iter().find(|w| w.client == client).expect("a write").at_ms - 500
}

#[test]
fn a_pause_where_you_point_breaks_a_happy_path_in_two_actions() {
    let s = open("?scenario=happy-path-redis");
    assert!(s.run.verdict.safe && s.scenario.faults.is_empty());
    let t = at_work(&s, "A");
    // The two actions: point at A's lane at t (the menu), choose "pause".
    let s = s.apply(Action::Seek(t as f64));
    let menu = s.fault_menu("A");
    let pause = menu.iter().find(|o| o.kind.id() == "pause").expect("a pause offer");
    assert_eq!(pause.words(), format!("Pause A for {}", crate::decimal::seconds(s.scenario.lock.ttl_ms * 3 / 2)));
    let s = s.apply(Action::Inject { kind: "pause".into(), node: "A".into() });
    assert_eq!(s.scenario.faults.len(), 1);
    let FaultSpec::Pause(Pause { at_ms, duration_ms, .. }) = s.scenario.faults[0] else { panic!("a pause") };
    assert_eq!(at_ms, t, "it starts at the cursor");
    assert!(duration_ms > s.scenario.lock.ttl_ms, "a client's pause outlives its lease ({duration_ms} ms)");
    assert!(!s.run.verdict.safe && s.run.verdict.stale_writes_accepted == 1, "the classic lost update");
    assert_eq!(s.cursor_ms(), t, "the cursor stays");
    assert_eq!(s.selected, Some(0));

    // Dragged shorter than the lease, it is harmless again; undo brings the long one back.
    let s = s.apply(Action::ResizeFault { index: 0, length_ms: 500 });
    assert!(s.run.verdict.safe, "a 500 ms pause is well within the lease");
    let s = s.apply(Action::Undo);
    assert!(!s.run.verdict.safe);
    let s = s.apply(Action::Undo);
    assert!(s.scenario.faults.is_empty() && s.run.verdict.safe, "back to the scenario as shipped");
    assert!(s.as_shipped().is_some());
    let s = s.apply(Action::Redo).apply(Action::Redo);
    assert!(s.run.verdict.safe);
    let FaultSpec::Pause(Pause { duration_ms, .. }) = s.scenario.faults[0] else { panic!("a pause") };
    assert_eq!(duration_ms, 500);
    assert_eq!(s.can_undo(), (true, false));
}

#[test]
fn moving_and_removing_a_fault_are_edits_undo_sees() {
    let s = open("?scenario=redis-gc-pause");
    let before = s.scenario.faults.clone();
    let s = s.apply(Action::MoveFault { index: 0, at_ms: 40_000 });
    assert_eq!(s.scenario.faults[0].at_ms(), s.scenario.duration_ms.min(40_000), "kept within the run");
    let s = s.apply(Action::SelectFault(Some(0))).apply(Action::RemoveSelected);
    assert!(s.scenario.faults.len() + 1 == before.len() && s.selected.is_none());
    assert!(s.run.verdict.safe, "no pause, no lost update");
    let s = s.apply(Action::Undo).apply(Action::Undo);
    assert_eq!(s.scenario.faults, before);
    // An edit after an undo starts a new branch: nothing left to redo.
    let s = s.apply(Action::ToggleFencing);
    assert_eq!(s.can_undo(), (true, false));
    // Picking another scenario is undone too.
    let s = s.apply(Action::Pick("happy-path-etcd".into())).apply(Action::Undo);
    assert_eq!(s.scenario.id, "redis-gc-pause");
    assert!(s.scenario.storage.fencing);
}

#[test]
fn a_new_pause_does_not_overlap_one_on_the_same_node() {
    // redis-gc-pause pauses A from 500 ms for 15 s; pointing inside it starts after it ends.
    let s = open("?scenario=redis-gc-pause&t=3000");
    let FaultSpec::Pause(Pause { at_ms, duration_ms, .. }) = s.scenario.faults[0] else { panic!("a pause") };
    let s = s.apply(Action::Inject { kind: "pause".into(), node: "A".into() });
    let FaultSpec::Pause(Pause { at_ms: new_at, .. }) = s.scenario.faults[1] else { panic!("a pause") };
    assert_eq!(new_at, at_ms + duration_ms);
    // And pointing just before it, the new pause stops where the old one starts.
    let s = open("?scenario=redis-gc-pause&t=200").apply(Action::Inject { kind: "pause".into(), node: "A".into() });
    let FaultSpec::Pause(Pause { at_ms: new_at, duration_ms: new_len, .. }) = s.scenario.faults[1] else { panic!("a pause") };
    assert_eq!((new_at, new_at + new_len), (200, at_ms));
}

#[test]
fn the_menu_offers_what_applies_to_the_node() {
    let s = open("?scenario=redis-gc-pause&t=1000");
    let kinds = |node: &str| s.fault_menu(node).iter().map(|o| o.kind.id()).collect::<Vec<_>>();
    assert_eq!(kinds("A"), ["pause", "clock_jump", "clock_drift", "crash", "partition", "delay", "drop"]);
    assert_eq!(kinds("storage"), ["pause", "partition", "delay", "drop"], "storage keeps no lock clock and does not crash");
    assert!(kinds("nobody").is_empty());
    // "Delay its next messages": the link its next message takes.
    let delay = s.fault_menu("B").into_iter().find(|o| o.kind.id() == "delay").unwrap();
    let FaultSpec::Delay(Delay { to, .. }) = &delay.fault else { panic!("a delay") };
    assert_eq!(to, "redis");
}

/// Faults injected at the cursor leave the run before the cursor as it was, on generated runs
/// of every approach (the per-node random streams make the past independent of the future).
#[test]
fn a_fault_injected_at_the_cursor_leaves_the_past_unchanged() {
    let mut checked = 0;
    for base in catalog::all() {
        let explorer = crate::explore::Explorer::new(&base, crate::explore::Mix::full(), 11, 6).unwrap();
        for i in 0..6u64 {
            let scenario = explorer.schedule(i);
            let json = serde_json::to_string(&scenario).unwrap();
            let s = open("").apply(Action::Load(json));
            assert!(s.load_error.is_none(), "{:?}", s.load_error);
            // A moment and a node drawn from the schedule's number (deterministic).
            let t = (scenario.seed as i64 * 7919) % scenario.duration_ms.max(1);
            let names = crate::scenario::validate::node_names(&scenario);
            let node = &names[scenario.seed as usize % names.len()];
            let s = s.apply(Action::Seek(t as f64));
            for offer in s.fault_menu(node) {
                let after = s.clone().apply(Action::Inject { kind: offer.kind.id().into(), node: node.clone() });
                if after.error.is_some() {
                    continue; // e.g. too many faults: nothing was changed
                }
                let at = offer.fault.at_ms();
                let past = |r: &crate::lab::Run| r.trace.events.iter().take_while(|e| e.at_ms < at).cloned().collect::<Vec<_>>();
                assert_eq!(past(&after.run), past(&s.run), "{} {node} at {at} ms changed the past of {}", offer.kind.id(), scenario.id);
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked} injections checked");
}

#[test]
fn play_to_passes_key_moments_in_lecture_mode_and_stops_on_its_target() {
    let s = open("?scenario=redis-gc-pause&lecture=1&t=500");
    let stale = s
        .timeline
        .key_moments
        .iter()
        .find(|k| k.kind == crate::timeline::KeyKind::Write(crate::timeline::WriteResult::StaleAccepted))
        .unwrap()
        .clone();
    let passed = s.timeline.key_moments.iter().filter(|k| k.at > 500 && k.at < stale.at).count();
    assert!(passed >= 2, "the reveal passes key moments on its way");
    let mut s = s.apply(Action::PlayTo { ms: stale.at, event: Some(stale.event) });
    let mut now = 0.0;
    let mut frames = 0;
    while s.playing && frames < 100_000 {
        s = s.apply(Action::Tick(now));
        assert!(s.cursor_ms() <= stale.at, "never past the target");
        now += 16.0;
        frames += 1;
    }
    assert_eq!((s.cursor_ms(), s.focus, s.playing), (stale.at, Some(stale.event), false));
    // Dwelling at each key moment passed (2.5 s each at 1×), not stopping there.
    assert!(frames as f64 * 16.0 >= passed as f64 * DWELL_MS, "{frames}");
    // A target behind the cursor is landed on at once; any other move cancels a play-to.
    let back = s.clone().apply(Action::PlayTo { ms: 100, event: None });
    assert_eq!((back.cursor_ms(), back.playing), (100, false));
    let s = back.apply(Action::PlayTo { ms: 15_000, event: None }).apply(Action::Tick(0.0)).apply(Action::Stop);
    assert!(!s.playing);
    let first = s.timeline.key_moments.iter().find(|k| k.at as f64 > s.cursor).unwrap().at;
    let s = apply_all(s.apply(Action::TogglePlay), (1..5000).map(|i| Action::Tick(i as f64 * 16.0)));
    assert_eq!((s.cursor_ms(), s.playing), (first, false), "plain play stops at the next key moment again (lecture)");
}

#[test]
fn the_theme_follows_the_lecture_and_the_screen_until_one_is_chosen_and_a_link_keeps_it() {
    let s =
        Session::new(&Start { search: "?scenario=redis-gc-pause".into(), hash: String::new(), reduced_motion: false, prefers_dark: true });
    assert_eq!(s.theme_shown(), Theme::Dark);
    let s = s.apply(Action::ToggleLecture);
    assert_eq!(s.theme_shown(), Theme::Projector, "a lecture's room gets the projector's");
    let s = s.apply(Action::NextTheme);
    assert_eq!((s.theme, s.theme_shown()), (Some(Theme::Light), Theme::Light), "after projector comes light, chosen");
    let s = s.apply(Action::ToggleLecture);
    assert_eq!(s.theme_shown(), Theme::Light, "a chosen theme outlasts lecture mode");
    assert_eq!(s.modes().theme, Some(Theme::Light));
    assert_eq!(open("?theme=projector").theme_shown(), Theme::Projector);
    assert_eq!(open("").theme_shown(), Theme::Light);
}
