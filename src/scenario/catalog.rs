//! The built-in scenarios (docs/PROTOCOLS.md (b)), one JSON file each, included at compile time and
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
    include_str!("catalog/conditional-write-race.json"),
    include_str!("catalog/happy-path-conditional-write.json"),
    include_str!("catalog/k8s-lease-gc-pause.json"),
    include_str!("catalog/k8s-lease-fast-clock.json"),
    include_str!("catalog/happy-path-k8s-lease.json"),
    include_str!("catalog/redisson-watchdog.json"),
    include_str!("catalog/redisson-watchdog-cut.json"),
    include_str!("catalog/happy-path-redisson.json"),
    include_str!("catalog/consul-lock-delay.json"),
    include_str!("catalog/happy-path-consul.json"),
    // The course's lessons (src/lesson/*.json) need these.
    include_str!("catalog/redis-long-ttl.json"),
    include_str!("catalog/redis-holder-crash.json"),
    include_str!("catalog/redlock-gc-pause.json"),
    include_str!("catalog/redlock-network-delay.json"),
    include_str!("catalog/redlock-clock-drift.json"),
    include_str!("catalog/redlock-bounded-drift.json"),
    include_str!("catalog/zookeeper-no-herd.json"),
    include_str!("catalog/etcd-recheck.json"),
    include_str!("catalog/redis-clock-jump.json"),
    include_str!("catalog/redis-clock-drift.json"),
    include_str!("catalog/etcd-clock-jump.json"),
    include_str!("catalog/dynamodb-lock-gc-pause.json"),
    include_str!("catalog/happy-path-dynamodb-lock.json"),
    include_str!("catalog/happy-path-pg-advisory.json"),
    include_str!("catalog/pg-advisory-gc-pause.json"),
    include_str!("catalog/pg-advisory-cut-off.json"),
];

/// Real outages, replayed (docs/PROTOCOLS.md (b) 10): each says what it is adapted from and what it
/// simplifies. Built-ins like the others; the picker and `locklab list` show them as a group.
const OUTAGES: &[&str] = &[
    include_str!("catalog/aws-dynamodb-dns-2025.json"),
    include_str!("catalog/k8s-two-leaders.json"),
    include_str!("catalog/hbase-gc-pause-zookeeper.json"),
    include_str!("catalog/redisson-renewals-missed.json"),
];

/// Every built-in, in catalog order (the outages last).
pub fn all() -> Vec<Scenario> {
    sources().map(read).collect()
}

/// Every built-in's file as shipped, in catalog order: the build writes each beside the
/// pre-drawn figures (src/bin/first-paint.rs), where the embeds' player reads the one it shows.
pub fn sources() -> impl Iterator<Item = &'static str> {
    SOURCES.iter().chain(OUTAGES).copied()
}

/// The real outages, in catalog order.
pub fn outages() -> Vec<Scenario> {
    OUTAGES.iter().map(|src| read(src)).collect()
}

/// Whether the built-in `id` is a real outage replayed.
pub fn is_outage(id: &str) -> bool {
    outages().iter().any(|s| s.id == id)
}

fn read(src: &str) -> Scenario {
    // Not `expect`: that would format the error with Debug, which (escaping strings) costs
    // bundle size for a panic the catalog tests rule out.
    parse(src).unwrap_or_else(|e| panic!("a built-in scenario is invalid: {e}"))
}

/// The built-in with this id.
pub fn get(id: &str) -> Option<Scenario> {
    all().into_iter().find(|s| s.id == id)
}

/// The built-in ids, in catalog order.
pub fn ids() -> Vec<String> {
    all().into_iter().map(|s| s.id).collect()
}
