//! Playback pacing. Lock stories span three orders of magnitude: a message takes 1–5 ms, a
//! lease 10 s. Played at one fixed rate, either the messages are invisible or the pause takes
//! forever, so playback runs fast through quiet stretches and slows to a crawl around key
//! moments (grant, expiry, takeover, stale write), easing between the two so nothing jerks.
//! The axis stays true time; only the cursor's speed varies.

use super::Timeline;

/// Simulated ms per real second at 1× in quiet stretches.
pub const FAST_MS_PER_S: f64 = 3000.0;
/// Simulated ms per real second at 1× right at a key moment: a 3 ms message takes 0.15 s.
pub const SLOW_MS_PER_S: f64 = 20.0;
/// Half-width of the slow zone around a key moment, in simulated ms.
const NEAR_MS: f64 = 6.0;
/// Length of the ease between slow and fast, in simulated ms.
const RAMP_MS: f64 = 40.0;
/// Real ms per integration step (rates change within a frame near key moments).
const SUBSTEP_MS: f64 = 2.0;

impl Timeline {
    /// Simulated ms per real second at 1× when the cursor is at `t`.
    pub fn rate_at(&self, t: f64) -> f64 {
        let i = self.key_moments.partition_point(|k| (k.at as f64) < t);
        let dist = |j: usize| self.key_moments.get(j).map_or(f64::INFINITY, |k| (k.at as f64 - t).abs());
        let d = dist(i).min(if i > 0 { dist(i - 1) } else { f64::INFINITY });
        if d <= NEAR_MS {
            SLOW_MS_PER_S
        } else if d >= NEAR_MS + RAMP_MS {
            FAST_MS_PER_S
        } else {
            SLOW_MS_PER_S * (FAST_MS_PER_S / SLOW_MS_PER_S).powf((d - NEAR_MS) / RAMP_MS)
        }
    }

    /// Where the cursor is after `real_ms` of playback at `speed`× from `cursor` (clamped to
    /// the run).
    pub fn advance(&self, cursor: f64, real_ms: f64, speed: f64) -> f64 {
        advance(|t| self.rate_at(t), self.duration_ms as f64, cursor, real_ms, speed)
    }
}

/// Playback at a `rate` (simulated ms per real second at 1×, by cursor position) for `real_ms`
/// at `speed`× from `cursor`, in small steps so the rate can change along the way; clamped to
/// `end`. Side by side, the rate is the slower of two runs'.
pub fn advance(rate: impl Fn(f64) -> f64, end: f64, cursor: f64, real_ms: f64, speed: f64) -> f64 {
    let (mut t, mut left) = (cursor, real_ms.max(0.0));
    while left > 0.0 && t < end {
        let dt = left.min(SUBSTEP_MS);
        t += rate(t) * speed * dt / 1000.0;
        left -= dt;
    }
    t.min(end)
}
