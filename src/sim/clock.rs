//! Per-node local clocks. True time is the simulation's integer milliseconds; each node reads
//! time only through its own clocks, which is how clock jumps and drift reach protocols that
//! trust wall clocks (docs/SCENARIO_FORMAT.md, "Semantics": `clock_jump` moves the wall clock only,
//! `clock_drift` moves both).

use serde::Serialize;

use super::Time;

/// Which of a node's two clocks a timer or a reading uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// Wall clock: NTP can step it (`clock_jump`); Redis and the database expire by it.
    Wall,
    /// Monotonic clock: only drift moves it; client timers and ensemble leases use it.
    Mono,
}

/// A clock that is piecewise linear in true time. It keeps microseconds internally so a drift
/// of a few ppm accumulates instead of rounding away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalClock {
    anchor_true: Time,
    anchor_local_us: i64,
    ppm: i64,
}

impl LocalClock {
    /// A clock that reads true time exactly.
    pub fn exact() -> Self {
        LocalClock { anchor_true: 0, anchor_local_us: 0, ppm: 0 }
    }

    /// The local reading in microseconds at true time `t` (t ≥ the last anchor).
    pub fn read_us(&self, t: Time) -> i64 {
        let dt = t - self.anchor_true;
        self.anchor_local_us + dt * 1000 + dt * self.ppm / 1000
    }

    /// The local reading in whole milliseconds at true time `t`.
    pub fn read_ms(&self, t: Time) -> i64 {
        self.read_us(t).div_euclid(1000)
    }

    /// Steps the clock by `by_ms` at true time `t` (an NTP step; may be negative).
    pub fn jump(&mut self, t: Time, by_ms: i64) {
        self.anchor_local_us = self.read_us(t) + by_ms * 1000;
        self.anchor_true = t;
    }

    /// From true time `t` on, the clock runs fast (+) or slow (−) by `ppm`.
    pub fn set_drift(&mut self, t: Time, ppm: i64) {
        self.anchor_local_us = self.read_us(t);
        self.anchor_true = t;
        self.ppm = ppm;
    }

    /// Current drift in ppm.
    pub fn ppm(&self) -> i64 {
        self.ppm
    }

    /// The earliest true time ≥ `now` at which this clock reads at least `deadline_ms`.
    pub fn true_time_of(&self, now: Time, deadline_ms: i64) -> Time {
        let target_us = deadline_ms * 1000;
        let have = self.read_us(now);
        if have >= target_us {
            return now;
        }
        let rate_us_per_ms = 1000 + self.ppm / 1000; // validated: |ppm| ≤ 500_000
        let rate = rate_us_per_ms.max(1);
        let mut t = now + (target_us - have + rate - 1) / rate;
        // Integer rounding of ppm/1000 can leave us a step short or long; settle exactly.
        while self.read_us(t) < target_us {
            t += 1;
        }
        while t > now && self.read_us(t - 1) >= target_us {
            t -= 1;
        }
        t
    }
}

/// A node's two clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClocks {
    pub wall: LocalClock,
    pub mono: LocalClock,
}

impl NodeClocks {
    pub fn exact() -> Self {
        NodeClocks { wall: LocalClock::exact(), mono: LocalClock::exact() }
    }

    pub fn get(&self, kind: ClockKind) -> &LocalClock {
        match kind {
            ClockKind::Wall => &self.wall,
            ClockKind::Mono => &self.mono,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_clock_reads_true_time() {
        let c = LocalClock::exact();
        assert_eq!(c.read_ms(1234), 1234);
        assert_eq!(c.true_time_of(100, 250), 250);
        assert_eq!(c.true_time_of(300, 250), 300);
    }

    #[test]
    fn jump_moves_reading_and_deadlines() {
        let mut c = LocalClock::exact();
        c.jump(1000, 10_000);
        assert_eq!(c.read_ms(1000), 11_000);
        // A deadline at local 10 000 has already passed after the step.
        assert_eq!(c.true_time_of(1000, 10_000), 1000);
        c.jump(2000, -500);
        assert_eq!(c.read_ms(2000), 11_500);
    }

    #[test]
    fn drift_accumulates_and_inverts() {
        let mut c = LocalClock::exact();
        c.set_drift(0, 100_000); // 10 % fast
        assert_eq!(c.read_ms(10_000), 11_000);
        let t = c.true_time_of(0, 11_000);
        assert_eq!(t, 10_000);
        let mut slow = LocalClock::exact();
        slow.set_drift(0, -200_000);
        assert_eq!(slow.read_ms(10_000), 8_000);
        assert_eq!(slow.true_time_of(0, 8_000), 10_000);
    }
}
