//! The run as words, lane by lane: the diagram's parallel document for a reader who cannot see
//! it (PhET's idea, WCAG 2.1's 1.1.1 for a complex image). Each lane of the diagram, top to
//! bottom, and on it each event the diagram's stepping visits (`Timeline::steps`), in time
//! order, as its time and the caption the app shows when the cursor stands on it: who, what,
//! the token, accepted or rejected, stale or not, in the captions' own words. The app draws it
//! beside the diagram (src/ui/outline.rs) and a screen reader walks it with the arrow keys.

use crate::decimal::seconds;
use crate::protocols::Trace;
use crate::scenario::Approach;
use crate::sim::{NodeId, Time};
use crate::timeline::{KeyKind, Timeline};

use super::Story;

/// One lane's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneOutline {
    pub node: NodeId,
    pub name: String,
    pub events: Vec<OutlineEvent>,
}

/// One event as a reader hears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutlineEvent {
    /// The trace event (what the cursor lands on when the reader picks it).
    pub event: usize,
    pub at: Time,
    /// "15.505 s: A writes with token 1; storage accepts it, a stale write."
    pub words: String,
    /// One of the run's key moments (the axis's diamonds): the reader's landmarks.
    pub key: Option<KeyKind>,
}

/// The outline of a run: every lane of `t`, in the diagram's order, with its steps.
pub fn outline(trace: &Trace, approach: Approach, story: &Story, t: &Timeline) -> Vec<LaneOutline> {
    let mut lanes: Vec<LaneOutline> =
        t.lanes.iter().map(|l| LaneOutline { node: l.node, name: l.name.clone(), events: Vec::new() }).collect();
    for step in &t.steps {
        let Some(e) = trace.events.get(step.event) else { continue };
        let Some(lane) = lanes.iter_mut().find(|l| l.node == e.node) else { continue };
        let key = t.key_moments.iter().find(|k| k.event == step.event).map(|k| k.kind);
        let caption = super::caption(trace, approach, story, step.event);
        lane.events.push(OutlineEvent { event: step.event, at: step.at, words: format!("{}: {caption}", seconds(step.at)), key });
    }
    lanes
}

/// What a lane's region is called: its name and how many events it lists ("A, 7 events"; a
/// count of the events up to the cursor, so it gives nothing away either).
pub fn lane_heading(name: &str, listed: usize) -> String {
    match listed {
        0 => format!("{name}, nothing yet"),
        1 => format!("{name}, 1 event"),
        n => format!("{name}, {n} events"),
    }
}

/// The event the reader stands on when the cursor is at `cursor_ms` (and, at that millisecond,
/// on `focus` if given): the last event at or before the cursor, on any lane, as (lane, index
/// in the lane). None before the first event.
pub fn at_cursor(lanes: &[LaneOutline], cursor_ms: Time, focus: Option<usize>) -> Option<(usize, usize)> {
    if let Some(f) = focus {
        for (li, lane) in lanes.iter().enumerate() {
            if let Some(ei) = lane.events.iter().position(|e| e.event == f && e.at <= cursor_ms) {
                return Some((li, ei));
            }
        }
    }
    let mut best: Option<(usize, usize, (Time, usize))> = None;
    for (li, lane) in lanes.iter().enumerate() {
        if let Some(ei) = lane.events.iter().rposition(|e| e.at <= cursor_ms) {
            let order = (lane.events[ei].at, lane.events[ei].event);
            if best.is_none_or(|(_, _, b)| order > b) {
                best = Some((li, ei, order));
            }
        }
    }
    best.map(|(li, ei, _)| (li, ei))
}

/// Where a key moves the reader from (lane, index): ←/→ along the lane, ↑/↓ to the event of the
/// lane above or below nearest in time at or before this one (a lane with no events is passed
/// over), Home/End to the lane's first and last listed (`upto`: the events listed end there;
/// None, the whole run is). Only → goes past the list, one event: the reader steps into the
/// future as the app's → does. None: the key goes nowhere from here.
pub fn step(lanes: &[LaneOutline], from: (usize, usize), key: OutlineKey, upto: Option<Time>) -> Option<(usize, usize)> {
    let (li, ei) = from;
    let lane = lanes.get(li)?;
    match key {
        OutlineKey::Next => (ei + 1 < lane.events.len()).then_some((li, ei + 1)),
        OutlineKey::Prev => ei.checked_sub(1).map(|e| (li, e)),
        OutlineKey::First => (!lane.events.is_empty()).then_some((li, 0)),
        OutlineKey::Last => {
            let listed = upto.map_or(lane.events.len(), |u| lane.events.partition_point(|e| e.at <= u));
            listed.checked_sub(1).map(|e| (li, e.max(ei)))
        }
        OutlineKey::Up | OutlineKey::Down => {
            let at = lane.events.get(ei)?.at;
            let has_events = |o: &usize| !lanes[*o].events.is_empty();
            let other = if key == OutlineKey::Up { (0..li).rev().find(has_events) } else { (li + 1..lanes.len()).find(has_events) }?;
            let events = &lanes[other].events;
            Some((other, events.iter().rposition(|e| e.at <= at).unwrap_or(0)))
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutlineKey {
    Next,
    Prev,
    Up,
    Down,
    First,
    Last,
}

impl OutlineKey {
    /// The key a `KeyboardEvent.key` names, if the outline uses it.
    pub fn of(key: &str) -> Option<OutlineKey> {
        Some(match key {
            "ArrowRight" => OutlineKey::Next,
            "ArrowLeft" => OutlineKey::Prev,
            "ArrowUp" => OutlineKey::Up,
            "ArrowDown" => OutlineKey::Down,
            "Home" => OutlineKey::First,
            "End" => OutlineKey::Last,
            _ => return None,
        })
    }
}
