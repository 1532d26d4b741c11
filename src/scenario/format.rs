//! The public scenario format, version 1 (docs/SCENARIO_FORMAT.md). Unknown fields are
//! errors: a typo must not silently change a lecture.

use serde::Serialize;
// Scenarios are read by scenario::read on every target. The derived Deserialize exists natively
// only, as the reference the reader is tested against (tests/error_paths.rs); in the browser it
// would be dead weight in the bundle.
#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;

pub use super::fault::{FaultSpec, Schedule};
pub use crate::protocols::config::{LockConfig, Persistence, Settings};
pub use crate::protocols::registry::Approach;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub version: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub intro: String,
    pub approach: Approach,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default = "default_duration")]
    pub duration_ms: i64,
    #[serde(default)]
    pub lock: LockConfig,
    #[serde(default)]
    pub storage: StorageConfig,
    #[serde(default)]
    pub network: NetworkConfig,
    #[serde(default = "default_clients")]
    pub clients: Vec<ClientSpec>,
    #[serde(default)]
    pub faults: Vec<FaultSpec>,
    /// Faults that strike again and again (docs/SCENARIO_FORMAT.md, "Fault schedules"),
    /// expanded into ordinary faults before the run (`fault::expand`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedules: Vec<Schedule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct StorageConfig {
    #[serde(default)]
    pub fencing: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    #[serde(default = "default_latency")]
    pub latency_ms: [i64; 2],
    #[serde(default)]
    pub drop_rate: f64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig { latency_ms: default_latency(), drop_rate: 0.0 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ClientSpec {
    pub name: String,
    #[serde(default)]
    pub acquire_at_ms: i64,
    #[serde(default = "default_work")]
    pub work_ms: i64,
    #[serde(default = "default_writes")]
    pub writes: u32,
    /// This client's own `lock` fields, where its approach lets each process set them
    /// (`ConfigRules::per_client`: a Kubernetes candidate's LeaseDuration, a Redlock client's
    /// `check_elapsed`); absent ones are the scenario's `lock`.
    #[serde(default, skip_serializing_if = "Settings::is_empty")]
    pub lock: Settings,
}

impl ClientSpec {
    /// A client with the scenario's `lock` settings.
    pub fn new(name: &str, acquire_at_ms: i64, work_ms: i64, writes: u32) -> ClientSpec {
        ClientSpec { name: name.into(), acquire_at_ms, work_ms, writes, lock: Settings::default() }
    }
}

/// The outcome a scenario's author claims, per fencing setting.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fencing_off: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fencing_on: Option<Outcome>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale_writes_accepted: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale_writes_rejected: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrent_holders: Option<u32>,
}

pub(super) fn default_seed() -> u64 {
    1
}
pub(super) fn default_duration() -> i64 {
    30_000
}
fn default_latency() -> [i64; 2] {
    [1, 5]
}
pub(super) fn default_work() -> i64 {
    1000
}
pub(super) fn default_writes() -> u32 {
    1
}
pub(super) fn default_clients() -> Vec<ClientSpec> {
    vec![ClientSpec::new("A", 0, 1000, 1), ClientSpec::new("B", 2000, 500, 1)]
}
