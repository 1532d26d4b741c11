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
    let get = |t: &Timeline, focus: Option<usize>| {
        if forward {
            t.next_key(lab.cursor, focus).map(|k| Step { at: k.at, event: k.event })
        } else {
            t.prev_key(lab.cursor, focus).map(|k| Step { at: k.at, event: k.event })
        }
    };
    let (a, b) = pick(get(&lab.timeline, lab.focus), other.and_then(|o| get(o, lab.other_focus)), forward);
    let at = a.or(b)?.at;
    Some((at, a.map(|s| s.event), b.map(|s| s.event)))
}

/// Playback from the cursor for at most `real_ms`, stopping at `limit`: as slow as either run
/// needs near its key moments. Returns the new cursor and the real ms it took.
pub fn advance(lab: &Session, real_ms: f64, limit: f64) -> (f64, f64) {
    let other = lab.other.as_ref().and_then(|o| o.timeline());
    crate::timeline::pacing::advance(|t| rate(lab, other, t), limit, lab.cursor, real_ms, lab.speed)
}

/// Simulated ms per real second at 1× at `t`: the slower of the two runs' rates.
pub fn rate(lab: &Session, other: Option<&Timeline>, t: f64) -> f64 {
    let here = lab.timeline.rate_at(t);
    other.map_or(here, |o| here.min(o.rate_at(t)))
}
