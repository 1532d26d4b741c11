//! Moving the cursor through the run on screen, or through both runs of a comparison at once:
//! a step, a key moment, and the playback clock (which runs at the slower of the two runs'
//! rates). One path for one run and for two, so single and compare mode cannot drift apart.

use super::Session;
use crate::sim::Time;
use crate::timeline::{Step, Timeline};

/// The earlier (forward) or later (back) of two candidate steps; both when they share a
/// millisecond, so each side captions its own event there.
fn pick(a: Option<Step>, b: Option<Step>, forward: bool) -> (Option<Step>, Option<Step>) {
    match (a, b) {
        (Some(x), Some(y)) if x.at == y.at => (Some(x), Some(y)),
        (Some(x), Some(y)) if (x.at < y.at) == forward => (Some(x), None),
        (Some(_), Some(y)) => (None, Some(y)),
        other => other,
    }
}

/// One step through the events of the run on screen, or of both runs of a comparison in time
/// order (a comparison whose other side could not be run steps through this one). None: no
/// step left that way.
pub fn step(lab: &Session, forward: bool) -> Option<(Time, Option<usize>, Option<usize>)> {
    let get = |t: &Timeline, focus| if forward { t.next_step(lab.cursor, focus) } else { t.prev_step(lab.cursor, focus) };
    let other = lab.other.as_ref().and_then(|o| o.timeline());
    let (a, b) = pick(get(&lab.timeline, lab.focus), other.and_then(|o| get(o, lab.other_focus)), forward);
    let at = a.or(b)?.at;
    Some((at, a.map(|s| s.event), b.map(|s| s.event)))
}

/// The next (or previous) key moment of the run on screen, or of either run of a comparison.
pub fn key(lab: &Session, forward: bool) -> Option<(Time, Option<usize>, Option<usize>)> {
    let other = lab.other.as_ref().and_then(|o| o.timeline());
    let get = |t: &Timeline| {
        if forward {
            t.next_key(lab.cursor).map(|k| Step { at: k.at, event: k.event })
        } else {
            t.prev_key(lab.cursor).map(|k| Step { at: k.at, event: k.event })
        }
    };
    let (a, b) = pick(get(&lab.timeline), other.and_then(get), forward);
    let at = a.or(b)?.at;
    Some((at, a.map(|s| s.event), b.map(|s| s.event)))
}

/// Playback from `cursor` for `real_ms`: as slow as either run needs near its key moments.
pub fn advance(lab: &Session, real_ms: f64) -> f64 {
    let Some(other) = lab.other.as_ref().and_then(|o| o.timeline()) else {
        return lab.timeline.advance(lab.cursor, real_ms, lab.speed);
    };
    let rate = |t: f64| lab.timeline.rate_at(t).min(other.rate_at(t));
    crate::timeline::pacing::advance(rate, lab.timeline.duration_ms as f64, lab.cursor, real_ms, lab.speed)
}
