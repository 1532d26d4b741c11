//! The bounds every accepted scenario stays within, sized so any of them simulates in well
//! under a second in the browser. README.md ("Limits") states the same numbers.

pub const MAX_DURATION_MS: i64 = 300_000;
pub const MAX_CLIENTS: usize = 8;
pub const MAX_SERVERS: u32 = 9;
pub const MAX_FAULTS: usize = 64;
pub const MAX_WRITES_PER_CLIENT: u32 = 100;
pub const MAX_TTL_MS: i64 = 600_000;
pub const MAX_LATENCY_MS: i64 = 10_000;
pub const MAX_CLOCK_JUMP_MS: i64 = 3_600_000;
pub const MAX_DRIFT_PPM: i64 = 500_000;
pub const MAX_NAME_LEN: usize = 16;
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024;
/// A run stops (and says so) after this many trace events.
pub const MAX_TRACE_EVENTS: usize = 100_000;
/// Retry delays shorter than this could flood a run with attempts.
pub const MIN_RETRY_MS: i64 = 10;
/// ZooKeeper's tickTime (`lock.tick_ms`): sessions are expired in buckets this wide, so a tick
/// below 10 ms would only add timer work; a minute is already far beyond any real setting.
pub const MIN_TICK_MS: i64 = 10;
pub const MAX_TICK_MS: i64 = 60_000;
/// How long a client may wait for one reply (`lock.request_timeout_ms`): a minute.
pub const MAX_REQUEST_TIMEOUT_MS: i64 = 60_000;
/// Fault schedules (`schedules[]`) in one scenario.
pub const MAX_SCHEDULES: usize = 16;
/// Faults all of a scenario's schedules make together (a Poisson schedule's on average; the
/// expansion stops here): a pause every 300 ms through the longest run.
pub const MAX_SCHEDULED_FAULTS: usize = 1_000;
