//! The `lock` section of a scenario (SCENARIO_FORMAT.md, "Fields"): the settings every
//! approach's nodes are built from. It lives with the protocols because they are what it
//! configures; `scenario::format` re-exports it as part of the public format.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))] // see scenario::format
#[serde(deny_unknown_fields)]
pub struct LockConfig {
    #[serde(default = "default_ttl")]
    pub ttl_ms: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<u32>,
    #[serde(default = "yes")]
    pub safe_unlock: bool,
    #[serde(default)]
    pub replica: bool,
    #[serde(default)]
    pub persistence: Persistence,
    #[serde(default = "default_drift_factor")]
    pub drift_factor: f64,
    #[serde(default = "default_retry")]
    pub retry_ms: [i64; 2],
    #[serde(default = "default_request_timeout")]
    pub request_timeout_ms: i64,
    /// ZooKeeper's tickTime: it bounds the negotiated session timeout (2–20 ticks) and the
    /// leader expires sessions on tick boundaries. Written out only when not the default, so
    /// scenarios that never set it serialize (and share) as before.
    #[serde(default = "default_tick", skip_serializing_if = "is_default_tick")]
    pub tick_ms: i64,
    /// k8s-lease: client-go's RenewDeadline and RetryPeriod (`ttl_ms` is its LeaseDuration);
    /// None: client-go's defaults (`renew_deadline`, `retry_period`). Accepted only by an
    /// approach that names them (`Spec::fields`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renew_deadline_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_period_ms: Option<i64>,
    /// consul: the session's lock-delay; None: Consul's default (`lock_delay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_delay_ms: Option<i64>,
}

impl LockConfig {
    /// The defaults on `approach` (its TTL is the approach's: SCENARIO_FORMAT.md, "Fields").
    pub fn for_approach(approach: super::Approach) -> LockConfig {
        LockConfig { ttl_ms: approach.spec().config.default_ttl_ms, ..LockConfig::default() }
    }

    /// client-go's RenewDeadline (default 10 s).
    pub fn renew_deadline(&self) -> i64 {
        self.renew_deadline_ms.unwrap_or(10_000)
    }

    /// client-go's RetryPeriod (default 2 s).
    pub fn retry_period(&self) -> i64 {
        self.retry_period_ms.unwrap_or(2_000)
    }

    /// Consul's lock-delay (default 15 s).
    pub fn lock_delay(&self) -> i64 {
        self.lock_delay_ms.unwrap_or(15_000)
    }
}

impl Default for LockConfig {
    fn default() -> Self {
        LockConfig {
            ttl_ms: default_ttl(),
            servers: None,
            safe_unlock: true,
            replica: false,
            persistence: Persistence::default(),
            drift_factor: default_drift_factor(),
            retry_ms: default_retry(),
            request_timeout_ms: default_request_timeout(),
            tick_ms: default_tick(),
            renew_deadline_ms: None,
            retry_period_ms: None,
            lock_delay_ms: None,
        }
    }
}

fn default_ttl() -> i64 {
    10_000
}
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // only serde (native) uses it
fn yes() -> bool {
    true
}
fn default_drift_factor() -> f64 {
    0.01
}
fn default_retry() -> [i64; 2] {
    [100, 300]
}
fn default_request_timeout() -> i64 {
    50
}
/// A stock ZooKeeper's tickTime.
fn default_tick() -> i64 {
    2000
}
fn is_default_tick(v: &i64) -> bool {
    *v == default_tick()
}

/// What a Redis server writes to disk (SCENARIO_FORMAT.md, "Semantics", Crashes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))] // see scenario::format
#[serde(rename_all = "kebab-case")]
pub enum Persistence {
    /// Nothing survives a restart.
    None,
    /// AOF, fsync once a second: a process crash keeps everything acknowledged, a machine
    /// crash loses what was written since the last fsync.
    #[default]
    AofEverysec,
    /// AOF, fsync before every reply: everything survives.
    AofAlways,
}
