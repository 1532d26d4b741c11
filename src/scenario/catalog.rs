//! The built-in scenarios (docs/PROTOCOLS.md (b)), one JSON file each, parsed with the same
//! validation as any user's file. Natively they are included at compile time; the browser app
//! fetches them (`crate::library`, `ui::library`) and reads them from `install`'s shelf.

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

/// The built-ins: every scenario in catalog order (the outages last), and which of them
/// replay a real outage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Catalog {
    pub scenarios: Vec<Scenario>,
    pub outages: Vec<String>,
}

/// The catalog compiled in from its files: the CLI's and the tests', and what the build writes
/// out for the browser (`crate::library`). The browser app never calls it, so its wasm carries
/// none of the text; it reads the catalog it fetched (`install`).
pub fn compiled() -> Catalog {
    let outages = OUTAGES.iter().map(|src| read(src).id).collect();
    Catalog { scenarios: SOURCES.iter().chain(OUTAGES).map(|src| read(src)).collect(), outages }
}

#[cfg(target_arch = "wasm32")]
thread_local!(static SHELF: crate::shelf::Shelf<Catalog> = const { crate::shelf::Shelf::new() });

/// The browser's catalog, as far as it has arrived: at first the address's own built-in, then
/// all of them (`ui::library`).
#[cfg(target_arch = "wasm32")]
pub fn install(catalog: Catalog) {
    SHELF.with(|s| s.put(catalog));
}

/// The catalog this program has: compiled in natively, installed in the browser (empty until then).
pub fn current() -> std::rc::Rc<Catalog> {
    #[cfg(target_arch = "wasm32")]
    return SHELF.with(|s| s.get()).unwrap_or_default();
    #[cfg(not(target_arch = "wasm32"))]
    std::rc::Rc::new(compiled())
}

/// Every built-in, in catalog order (the outages last).
pub fn all() -> Vec<Scenario> {
    current().scenarios.clone()
}

/// The real outages, in catalog order.
pub fn outages() -> Vec<Scenario> {
    let c = current();
    c.scenarios.iter().filter(|s| c.outages.contains(&s.id)).cloned().collect()
}

/// Whether the built-in `id` is a real outage replayed.
pub fn is_outage(id: &str) -> bool {
    current().outages.iter().any(|o| o == id)
}

fn read(src: &str) -> Scenario {
    // Not `expect`: that would format the error with Debug, which (escaping strings) costs
    // bundle size for a panic the catalog tests rule out.
    parse(src).unwrap_or_else(|e| panic!("a built-in scenario is invalid: {e}"))
}

/// The built-in with this id.
pub fn get(id: &str) -> Option<Scenario> {
    current().scenarios.iter().find(|s| s.id == id).cloned()
}

/// The built-in ids, in catalog order.
pub fn ids() -> Vec<String> {
    current().scenarios.iter().map(|s| s.id.clone()).collect()
}

/// The catalog from the build's `catalog.json` (`crate::library`): `{"outages": [ID…],
/// "scenarios": [SCENARIO…]}`; an error names its place (`scenarios[3].lock.ttl_ms`).
pub fn read_all(text: &str) -> Result<Catalog, super::ScenarioError> {
    use super::json_read::{list, string, under, Object};
    let v = super::strict_json::parse(text).map_err(|e| super::ScenarioError { path: String::new(), message: e.to_string() })?;
    let o = Object::new(&v, "", &["outages", "scenarios"])?;
    let scenarios = o.req("scenarios", |v, p| list(v, p, |v, p| super::validate::parse_value(v).map_err(|e| under(p, e))))?;
    Ok(Catalog { scenarios, outages: o.req("outages", |v, p| list(v, p, string))? })
}

/// The source files as written, in catalog order, outages last: the build copies them out
/// for the browser (`crate::library`).
pub fn sources() -> impl Iterator<Item = &'static str> {
    SOURCES.iter().chain(OUTAGES).copied()
}
