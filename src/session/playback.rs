//! Playback paced by the story, not by the clock. The cursor runs slowly around key moments
//! and fast through quiet stretches (`timeline::pacing`); at each key moment it stops for
//! `DWELL_MS` (scaled by speed) so its caption can be read, and in lecture mode it stops there
//! until the presenter presses Space. While it plays, the caption holds the latest key moment
//! (retries and keep-alives between them do not push it off), and a fast-forwarded quiet
//! stretch is summed up in one caption; the run ends on its outcome.

use super::{stepping, Session};
use crate::sim::Time;
use crate::timeline::{pacing, Timeline};

/// Real ms a key moment's caption holds at 1× (defined with the pacing, which the animated SVG
/// plays by too).
pub use crate::timeline::pacing::DWELL_MS;
/// Real ms between steps when reduced motion turns playback into a slideshow (at 1×).
const SLIDE_MS: f64 = 1600.0;
/// Longest frame gap honoured: after a hidden tab or a stall the cursor must not leap.
const MAX_FRAME_MS: f64 = 100.0;

/// What the caption shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptionView {
    /// Nothing has happened yet.
    Start,
    /// The caption of this trace event.
    Event(usize),
    /// Fast-forwarding through the quiet stretch between two key moments.
    Quiet { from: Time, to: Time },
    /// The end of the run: its outcome.
    Outcome,
}

impl Session {
    /// Starts playing towards `ms` (see `Action::PlayTo`); a target at or before the cursor
    /// is landed on at once, as it is with reduced motion (no animation).
    pub(super) fn play_to_start(mut self, ms: i64, event: Option<usize>) -> Self {
        let ms = ms.clamp(0, self.timeline.duration_ms);
        if ms as f64 <= self.cursor || self.reduced_motion {
            self = self.seek_both(Some((ms, event, None)), 0.0);
            self.playing = false;
            return self;
        }
        (self.playing, self.play_to) = (true, Some((ms, event)));
        (self.last_frame_ts, self.slide_ms, self.dwell_ms) = (None, 0.0, 0.0);
        self
    }

    pub(super) fn tick(mut self, ts: f64) -> Self {
        if !self.playing {
            return self;
        }
        let dt = self.last_frame_ts.map_or(0.0, |prev| crate::decimal::clamp(ts - prev, 0.0, MAX_FRAME_MS));
        self.last_frame_ts = Some(ts);
        self.frame += 1;
        if self.reduced_motion {
            // No motion: hold each caption, then jump to the next step.
            self.slide_ms += dt * self.speed;
            if self.slide_ms < SLIDE_MS {
                return self;
            }
            self.slide_ms = 0.0;
            // Through both runs of a comparison, as the step button goes.
            return match stepping::step(&self, true) {
                Some(to) => self.seek_both(Some(to), 0.0),
                None => self.stop_at_end(),
            };
        }
        let end = self.timeline.duration_ms as f64;
        let mut budget = dt;
        // Each pass either spends the budget or lands on a key moment (several may share a
        // millisecond), so the loop ends; the bound is a guard, not a limit anyone reaches.
        for _ in 0..256 {
            if budget <= 0.0 || !self.playing {
                break;
            }
            if self.dwell_ms > 0.0 {
                let hold = budget.min(self.dwell_ms);
                self.dwell_ms -= hold;
                budget -= hold;
                continue;
            }
            let mut next = stepping::key(&self, true);
            let mut target = false;
            if let Some((ms, event)) = self.play_to {
                if next.is_none_or(|(at, _, _)| at >= ms) {
                    (next, target) = (Some((ms, event, None)), true);
                }
            }
            let limit = next.map_or(end, |(at, _, _)| at as f64);
            let (t, used) = stepping::advance(&self, budget, limit);
            budget -= used;
            if t < limit {
                self.cursor = t;
                self.focus = None;
                self.other_focus = None;
                break;
            }
            match next {
                Some(to) if target => {
                    self = self.seek_both(Some(to), end);
                    (self.playing, self.play_to) = (false, None);
                }
                Some(to) => {
                    self = self.seek_both(Some(to), end);
                    self.dwell_ms = DWELL_MS / self.speed;
                    if self.lecture && self.stop_at_keys && self.play_to.is_none() {
                        self.playing = false;
                    }
                }
                None => return self.stop_at_end(),
            }
        }
        self
    }

    /// Whether playback is running through a quiet stretch faster than anyone could follow
    /// (the screen shows a fast-forward mark).
    pub fn fast_forward(&self) -> bool {
        let other = self.other.as_ref().and_then(|o| o.timeline());
        self.playing
            && self.dwell_ms <= 0.0
            && !self.reduced_motion
            && stepping::rate(self, other, self.cursor) >= pacing::FAST_FORWARD_MS_PER_S
    }

    /// What the caption of this run shows.
    pub fn caption_view(&self) -> CaptionView {
        view(&self.timeline, self.cursor, self.focus, self.caption_event(), self.playing && !self.reduced_motion, self.dwell_ms > 0.0)
    }

    /// What the caption of the comparison's other run shows.
    pub fn other_caption_view(&self) -> Option<CaptionView> {
        let t = self.other.as_ref()?.timeline()?;
        let event = event_at(&self.other.as_ref()?.run.as_ref()?.0.trace, self.cursor_ms(), self.other_focus);
        Some(view(t, self.cursor, self.other_focus, event, self.playing && !self.reduced_motion, self.dwell_ms > 0.0))
    }
}

/// The run a comparison's one caption speaks for on the lecture stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speaker {
    Left,
    Other,
}

impl Session {
    /// Which run's caption a comparison on the lecture stage shows. The stage has room for one
    /// caption at its full size (two half-width boxes could not hold a key moment's words in
    /// 28 px type at 1280×720, issue 11), so it speaks for the run whose moment is the later
    /// one: at the same ms, the one a step landed on, then a key moment before a routine
    /// event, then the left run. Alone, the left run.
    pub fn stage_speaker(&self) -> Speaker {
        let (Some(other), Some(view)) = (self.other.as_ref(), self.other_caption_view()) else { return Speaker::Left };
        let Some((run, timeline, _)) = other.run.as_ref() else { return Speaker::Left };
        let left = rank(&self.timeline, &self.run.trace, &self.caption_view(), self.focus);
        let right = rank(timeline, &run.trace, &view, self.other_focus);
        if right > left {
            Speaker::Other
        } else {
            Speaker::Left
        }
    }
}

/// How late and how pointed a caption's moment is: (ms, landed on by a step, key moment).
fn rank(t: &Timeline, trace: &crate::protocols::Trace, view: &CaptionView, focus: Option<usize>) -> (i64, bool, bool) {
    match view {
        CaptionView::Start => (-1, false, false),
        CaptionView::Event(i) => {
            let at = trace.events.get(*i).map_or(-1, |e| e.at_ms);
            (at, focus == Some(*i), t.key_moments.iter().any(|k| k.event == *i))
        }
        CaptionView::Quiet { from, .. } => (*from, false, false),
        CaptionView::Outcome => (t.duration_ms, false, true),
    }
}

/// The caption of one run: while playing, the latest key moment holds, or, past its dwell,
/// the quiet stretch to the next one when that stretch is long enough to be fast-forwarded;
/// stopped, the event at the cursor; at the end, the outcome.
/// The event whose caption shows with the cursor at `ms`: the focused event if it happens at
/// that millisecond (a step landed on it), else the last captioned event up to `ms`.
pub fn event_at(trace: &crate::protocols::Trace, ms: i64, focus: Option<usize>) -> Option<usize> {
    match focus {
        Some(f) if trace.events.get(f).is_some_and(|e| e.at_ms == ms) => Some(f),
        _ => crate::timeline::current_event(trace, ms),
    }
}

/// What the caption shows with the cursor stopped at `ms`, focused on `focus`: a lesson's
/// asking screen, as its spoiler check reads it (`lesson::fair`).
pub fn still_view(t: &Timeline, trace: &crate::protocols::Trace, ms: i64, focus: Option<usize>) -> CaptionView {
    view(t, ms as f64, focus, event_at(trace, ms, focus), false, false)
}

fn view(t: &Timeline, cursor: f64, focus: Option<usize>, event: Option<usize>, playing: bool, dwelling: bool) -> CaptionView {
    if cursor >= t.duration_ms as f64 {
        return CaptionView::Outcome;
    }
    if playing {
        let key = t.key_before(cursor, focus);
        let (from, to) = (key.map_or(0, |k| k.at), t.next_key(cursor, focus).map_or(t.duration_ms, |k| k.at));
        let mid = (from + to) as f64 / 2.0;
        if !dwelling && cursor > from as f64 && t.rate_at(mid) >= pacing::FAST_FORWARD_MS_PER_S {
            return CaptionView::Quiet { from, to };
        }
        if let Some(k) = key {
            return CaptionView::Event(k.event);
        }
    }
    event.map_or(CaptionView::Start, CaptionView::Event)
}
