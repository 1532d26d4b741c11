//! Time shared by every process of a run, and the scale between scenario time and wall time.
//!
//! Every process (the harness, each client) reads the same CLOCK_MONOTONIC, so a time stamped in
//! a client and one stamped in the harness are on one axis. A run starts at `t0` (monotonic ns,
//! chosen by the harness once every client is ready); scenario time `ms` happens at
//! `t0 + ms × scale` wall milliseconds.

use std::time::Duration;

/// Nanoseconds on CLOCK_MONOTONIC (the same clock in every process of this machine).
pub fn now_ns() -> i64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// Sleeps until monotonic time `at_ns`. In short steps, so that a process frozen by SIGSTOP
/// past its deadline wakes at once on SIGCONT (as a paused node handles its overdue timers).
pub fn sleep_until(at_ns: i64) {
    loop {
        let left = at_ns - now_ns();
        if left <= 0 {
            return;
        }
        std::thread::sleep(Duration::from_nanos(left.min(20_000_000) as u64));
    }
}

/// Scenario time against wall time: `scale` wall ms per scenario ms, from `t0_ns`.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct TimeBase {
    pub t0_ns: i64,
    pub scale: f64,
}

impl TimeBase {
    /// The monotonic instant of scenario time `ms`.
    pub fn at(&self, ms: i64) -> i64 {
        self.t0_ns + (ms as f64 * self.scale * 1e6) as i64
    }

    /// A scenario duration as wall time.
    pub fn wall(&self, ms: i64) -> Duration {
        Duration::from_nanos((ms.max(0) as f64 * self.scale * 1e6) as u64)
    }

    /// The scenario time of monotonic instant `ns` (rounded to the millisecond).
    pub fn scenario_ms(&self, ns: i64) -> i64 {
        ((ns - self.t0_ns) as f64 / 1e6 / self.scale).round() as i64
    }
}
