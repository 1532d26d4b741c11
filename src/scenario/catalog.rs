//! The built-in scenarios (PROTOCOLS.md (b)), one JSON file each, included at compile time and
//! parsed with the same validation as any user's file.

use super::format::Scenario;
use super::validate::parse;

const SOURCES: &[&str] = &[
    include_str!("catalog/redis-gc-pause.json"),
    include_str!("catalog/db-lease-gc-pause.json"),
    include_str!("catalog/etcd-gc-pause.json"),
    include_str!("catalog/zookeeper-session-expiry.json"),
    include_str!("catalog/redis-plain-del-unlock.json"),
    include_str!("catalog/db-lease-plain-delete.json"),
    include_str!("catalog/redis-failover.json"),
    include_str!("catalog/redlock-clock-jump.json"),
    include_str!("catalog/redlock-restart-without-persistence.json"),
    include_str!("catalog/redlock-split-vote.json"),
    include_str!("catalog/happy-path-redis.json"),
    include_str!("catalog/happy-path-db-lease.json"),
    include_str!("catalog/happy-path-redlock.json"),
    include_str!("catalog/happy-path-zookeeper.json"),
    include_str!("catalog/happy-path-etcd.json"),
];

/// Every built-in, in catalog order.
pub fn all() -> Vec<Scenario> {
    // Not `expect`: that would format the error with Debug, which (escaping strings) costs
    // bundle size for a panic the catalog tests rule out.
    SOURCES.iter().map(|src| parse(src).unwrap_or_else(|e| panic!("a built-in scenario is invalid: {e}"))).collect()
}

/// The built-in with this id.
pub fn get(id: &str) -> Option<Scenario> {
    all().into_iter().find(|s| s.id == id)
}

/// The built-in ids, in catalog order.
pub fn ids() -> Vec<String> {
    all().into_iter().map(|s| s.id).collect()
}
