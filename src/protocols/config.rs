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
