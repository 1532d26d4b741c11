//! Playback pacing. Lock stories span three orders of magnitude: a message takes 1–5 ms, a
//! lease 10 s. Played at one fixed rate, either the messages are invisible or the pause takes
//! forever, so playback runs fast through quiet stretches and slows to a crawl around key
//! moments (grant, expiry, takeover, stale write), easing between the two so nothing jerks.
//! A long quiet stretch runs faster still, so that it passes in about `QUIET_S` whatever its
//! length. The axis stays true time; only the cursor's speed varies. (The session holds the
//! cursor still at each key moment for a while: see `session::playback`.)

use super::Timeline;

/// Simulated ms per real second at 1× in quiet stretches (at least).
pub const FAST_MS_PER_S: f64 = 3000.0;
/// Simulated ms per real second at 1× right at a key moment: a 3 ms message takes 0.15 s.
pub const SLOW_MS_PER_S: f64 = 20.0;
/// Real seconds at 1× a quiet stretch between two key moments takes, at most (plus the ease).
pub const QUIET_S: f64 = 1.0;
/// A rate at or above this is fast-forwarding (the screen says so).
pub const FAST_FORWARD_MS_PER_S: f64 = 1000.0;
/// Half-width of the slow zone around a key moment, in simulated ms.
const NEAR_MS: f64 = 6.0;
/// Real ms playback holds the cursor at a key moment at 1× (at 2×, half) so that its caption
/// can be read: the session's playback and the animated SVG's (`draw::story`).
pub const DWELL_MS: f64 = 2500.0;
/// Length of the ease between slow and fast, in simulated ms.
const RAMP_MS: f64 = 40.0;
/// Real ms per integration step (rates change within a frame near key moments).
const SUBSTEP_MS: f64 = 2.0;

impl Timeline {
    /// Simulated ms per real second at 1× when the cursor is at `t`.
    pub fn rate_at(&self, t: f64) -> f64 {
        let i = self.key_moments.partition_point(|k| (k.at as f64) < t);
        let at = |j: usize| self.key_moments.get(j).map(|k| k.at as f64);
        let (before, after) = (i.checked_sub(1).and_then(at).unwrap_or(0.0), at(i).unwrap_or(self.duration_ms as f64));
        let d = (t - before).abs().min((after - t).abs());
        let d = if i == 0 && self.key_moments.is_empty() { f64::INFINITY } else { d };
        // The stretch's own top speed: long quiet stretches go faster.
        let quiet = (after - before - 2.0 * (NEAR_MS + RAMP_MS)).max(0.0);
        let fast = FAST_MS_PER_S.max(quiet / QUIET_S);
        if d <= NEAR_MS {
            SLOW_MS_PER_S
        } else if d >= NEAR_MS + RAMP_MS {
            fast
        } else {
            SLOW_MS_PER_S * (fast / SLOW_MS_PER_S).powf((d - NEAR_MS) / RAMP_MS)
        }
    }

    /// Where the cursor is after `real_ms` of playback at `speed`× from `cursor` (clamped to
    /// the run).
    pub fn advance(&self, cursor: f64, real_ms: f64, speed: f64) -> f64 {
        advance(|t| self.rate_at(t), self.duration_ms as f64, cursor, real_ms, speed).0
    }
}

/// Playback at a `rate` (simulated ms per real second at 1×, by cursor position) for at most
/// `real_ms` at `speed`× from `cursor`, in small steps so the rate can change along the way,
/// stopping at `limit`. Returns the cursor and the real ms used (less than `real_ms` when it
/// reached `limit`). Side by side, the rate is the slower of two runs'.
pub fn advance(rate: impl Fn(f64) -> f64, limit: f64, cursor: f64, real_ms: f64, speed: f64) -> (f64, f64) {
    let (mut t, mut used) = (cursor, 0.0);
    let budget = real_ms.max(0.0);
    while used < budget && t < limit {
        let dt = (budget - used).min(SUBSTEP_MS);
        let step = rate(t) * speed * dt / 1000.0;
        if t + step >= limit {
            // The share of this substep that reaches the limit.
            used += dt * (limit - t) / step;
            return (limit, used);
        }
        t += step;
        used += dt;
    }
    (t.min(limit), used)
}
