//! Issue 22, item 4: at every key moment the lanes say what the checker's beliefs are. The
//! diagram's lane state (at the key moment's millisecond, up to its event) is compared with an
//! independent replay of the trace up to that event: who has started believing and not yet
//! stopped (a BeliefStarted note, then a BeliefEnded note or a crash). Property-tested on
//! generated runs: every built-in, fencing off and on, at several seeds and pause lengths.

use locklab::lab;
use locklab::protocols::{EventKind, Note};
use locklab::scenario::{catalog, fault};
use locklab::sim::Role;
use locklab::timeline::Timeline;

/// The clients believing after event `upto`, by replaying the trace.
fn believers(run: &lab::Run, upto: usize) -> Vec<usize> {
    let mut on: Vec<usize> = Vec::new();
    for e in &run.trace.events[..=upto] {
        match e.kind {
            EventKind::Note(Note::BeliefStarted { .. }) => on.push(e.node),
            EventKind::Note(Note::BeliefEnded { .. }) | EventKind::Crashed { .. } => on.retain(|&n| n != e.node),
            _ => {}
        }
    }
    on.sort();
    on.dedup();
    on
}

#[test]
fn every_client_lane_says_the_checkers_belief_at_every_key_moment() {
    let mut checked = 0;
    for base in catalog::all() {
        for fencing in [false, true] {
            for (seed, pause) in [(base.seed, None), (3, Some(8_000)), (17, Some(21_000)), (99, Some(12_500))] {
                let mut s = lab::with_fencing(&base, fencing);
                s.seed = seed;
                if let Some(ms) = pause {
                    fault::set_knob(&mut s.faults, ms);
                }
                let run = lab::run(&s);
                let t = Timeline::of_run(&run);
                for k in &t.key_moments {
                    let expected = believers(&run, k.event);
                    for lane in t.lanes.iter().filter(|l| l.role == Role::Client) {
                        let state = t.lane_state_upto(lane.node, k.at, Some(k.event));
                        assert_eq!(
                            state.believes.is_some(),
                            expected.contains(&lane.node),
                            "{} (fencing {fencing}, seed {seed}, pause {pause:?}) at {} ms, event {} ({:?}): lane {}",
                            s.id,
                            k.at,
                            k.event,
                            k.kind,
                            lane.name
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} lane states checked");
}
