//! Every approach the harness runs for real, in one table: how its service starts, whether its
//! servers are processes a fault can signal, and why its timings differ from the model's. The
//! rest of the harness looks an approach up here (`of`) and never matches on it; an approach
//! with no row is refused by name. Adding one is its row, its `start` (servers/, a
//! `Services` variant) and its client (client/, a `Service` variant).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use locklab::scenario::nodes::servers;
use locklab::scenario::{Approach, Scenario};

use crate::servers::etcd::start_cluster;
use crate::servers::postgres::PostgresServer;
use crate::servers::redis::RedisServer;
use crate::servers::zookeeper::start_ensemble;
use crate::services::Services;

/// One approach's harness.
pub struct Harness {
    pub approach: Approach,
    /// Starts its service for `scenario` at time scale `scale`.
    pub start: fn(&Scenario, f64) -> Result<Services, String>,
    /// Whether its lock-service nodes are processes the harness can pause and kill (PostgreSQL
    /// is a family of processes: freezing or killing only its postmaster is not a pause or a
    /// crash of the database).
    pub signals_servers: bool,
    /// Why its timings differ from the model's (the verdicts do not), for docs/FIDELITY.md.
    pub why: &'static str,
}

/// The harnesses, in the order docs/FIDELITY.md lists them (Redis's family first: Redlock and
/// Redisson refer to it).
pub const HARNESSES: [Harness; 8] = [
    Harness {
        approach: Approach::Redis,
        start: start_redis,
        signals_servers: true,
        why: "**Redis.** A key set with PX expires at its deadline, but Redis removes it lazily, when a command touches it (B's `SET NX`, the poller's `GET` every 5 ms) or in its sampling cycle; the model expires it exactly. B's takeover after an expiry waits for its next retry, drawn by the client's own generator from the same range as the model's (100–300 ms), so takeovers differ by up to that range. In the failover case the harness plays Sentinel: it promotes the replica once the primary's port has refused connections for 1 s (scenario time), and the model's replica promotes itself after 1 s without its primary; after a diskless first sync Redis streams to a replica only after the replica's first acknowledgement (up to 1 s), so the harness starts a run only once a marker written to the primary reads on the replica.",
    },
    Harness {
        approach: Approach::Redlock,
        start: start_redlock,
        signals_servers: true,
        why: "**Redlock.** Five independent `redis-server` processes; the client asks them in turn (as redlock-py does), each request giving up after the request timeout (scaled, at least 300 ms of wall time), and counts the validity on its monotonic clock from before the first request. An instance that is down refuses the connection at once, where the model's request waits for its timeout: a grant with a dead instance comes earlier here (the grant's time is the majority's third OK in both). The harness cannot cut one client's link to one instance, so the built-in `redlock-restart-without-persistence`, whose A is kept from redis-4 and redis-5 by `drop` faults, is played as `redlock-restart-crashed-pair`: redis-4 and redis-5 are down (kill -9) while A asks and come back empty; redis-3 then restarts without persistence and B gets redis-3..5, as in the built-in. A connection broken by a restart is opened again once, as a client's pool would.",
    },
    Harness {
        approach: Approach::Redisson,
        start: start_redis,
        signals_servers: true,
        why: "**Redisson.** The lock is a hash set by Lua with `PEXPIRE` and RFencedLock's `INCR` token in the same script; a watchdog *thread of the client process* re-sets the lease every third of it with an owner-checked `PEXPIRE` script, and stops when that finds the hash no longer the owner's. SIGSTOP freezes it with the process: on SIGCONT the worker's overdue write and the watchdog's overdue renewal race, where the model handles the write first; with the key still there (the short pause) either order keeps the lock. B's takeover after the long pause waits for its next retry (1–2 s, drawn by the client's own generator), so it differs from the model's by up to that range.",
    },
    Harness {
        approach: Approach::DbLease,
        start: start_db_lease,
        signals_servers: false,
        why: "**PostgreSQL.** The row's `expires_at` is compared with `now()` only when someone tries to take the lock: the takeover is B's first retry after the deadline (the same 100–300 ms retry range, drawn by another generator). A grant's time is the midpoint between the request leaving the client and its answer; the model stamps the commit at the server.",
    },
    Harness {
        approach: Approach::ConditionalWrite,
        start: start_versioned,
        signals_servers: false,
        why: "**Conditional write on PostgreSQL.** There is no lock service: the object is a row with a `version`, read with `SELECT version`, and written with `UPDATE object SET value = $1, version = version + 1 WHERE id = 1 AND version = $2` (zero rows is the 412; the version it was checked against comes from the same statement), or with fencing off a plain `UPDATE` without the precondition. The database is the storage: a read's and a write's time is the midpoint between the request and its answer, where the model stamps them at storage.",
    },
    Harness {
        approach: Approach::PgAdvisory,
        start: start_pg_advisory,
        signals_servers: false,
        why: "**PostgreSQL advisory lock.** Each client process holds one connection (one backend) and sends `SELECT pg_try_advisory_lock(1)` and `SELECT pg_advisory_unlock(1)` on it, as in the model, but connects before the run's clock starts where the model's client connects at its first attempt. B's grant after A's unlock is B's first retry after it (the same retry range, drawn by another generator), and a grant's time is the midpoint between the statement leaving the client and its answer, where the model stamps it at the server. The holder is read from `pg_locks` (joined with `pg_stat_activity` for the session's `application_name`) every 5 ms. The server runs with `tcp_keepalives_idle`, `tcp_keepalives_interval` and `tcp_keepalives_count` set from the scenario's `lock.ttl_ms`, `keepalive_interval_ms` and `keepalive_count`, scaled; PostgreSQL hands the first two to Linux in whole seconds, so they are rounded up (at least 1 s). That is why the pause case runs at scale 1: its 15 s pause then outlasts the 13 s after which unanswered probes would end A's session, so it is A's kernel answering them (the process is stopped, its socket is not) that keeps the lock, as in the model.",
    },
    Harness {
        approach: Approach::Etcd,
        start: start_etcd,
        signals_servers: true,
        why: "**etcd.** The lessor looks for expired leases every 500 ms of wall time, which is not scaled: a lease ends 0–500 ms late, that is up to 500 ÷ scale ms of scenario time (the model draws the same 0–500 ms, unscaled). A waiter reads the queue every 5 ms where the recipe watches the next-lower key. Leases are whole seconds: the scaled TTL is rounded up (10 s at scale 0.4 is 4 s). The members run with a 500 ms election timeout so that a 1 s lease is allowed.",
    },
    Harness {
        approach: Approach::Zookeeper,
        start: start_zookeeper,
        signals_servers: true,
        why: "**ZooKeeper.** The session is opened when the client process connects, before the run's clock starts, and the library pings every third of the timeout; the server expires sessions in tick-sized buckets. So the moment A's session ends depends on A's last ping before the pause, which the model schedules differently: the takeover time differs by up to a tick plus a ping interval. A waiter lists the children every 5 ms where the recipe watches the next-lower node.",
    },
];

/// The service of `scenario`'s approach, started by its harness.
pub fn start(scenario: &Scenario, scale: f64) -> Result<Services, String> {
    (of(scenario.approach)?.start)(scenario, scale)
}

/// The harness of `approach`, or why it has none.
pub fn of(approach: Approach) -> Result<&'static Harness, String> {
    HARNESSES.iter().find(|h| h.approach == approach).ok_or_else(|| {
        let ids: Vec<&str> = HARNESSES.iter().map(|h| h.approach.id()).collect();
        let (last, rest) = ids.split_last().expect("the table has rows");
        format!("approach: {} is not run on real servers yet (locklab-real runs {} and {last})", approach.id(), rest.join(", "))
    })
}

/// A single Redis, and its replica when the scenario has one; Redisson's lock is a hash.
fn start_redis(scenario: &Scenario, _scale: f64) -> Result<Services, String> {
    let persistence = scenario.lock.persistence;
    let mut servers = vec![RedisServer::start(persistence, None)?];
    if scenario.lock.replica {
        let replica = RedisServer::start(persistence, Some(servers[0].port))?;
        servers.push(replica);
    }
    let hash = scenario.approach == Approach::Redisson;
    Ok(Services::Redis { servers, promoted: Arc::new(AtomicBool::new(false)), hash })
}

fn start_redlock(scenario: &Scenario, _scale: f64) -> Result<Services, String> {
    let n = servers(scenario) as usize;
    Ok(Services::Redlock((0..n).map(|_| RedisServer::start(scenario.lock.persistence, None)).collect::<Result<_, _>>()?))
}

fn start_db_lease(_: &Scenario, _scale: f64) -> Result<Services, String> {
    Ok(Services::Postgres(PostgresServer::start(crate::client::PG_SCHEMA)?))
}

fn start_versioned(_: &Scenario, _scale: f64) -> Result<Services, String> {
    Ok(Services::Versioned(PostgresServer::start(crate::client::PG_OBJECT_SCHEMA)?))
}

/// Session advisory locks need no tables; the server's TCP keepalive is the scenario's, scaled
/// and rounded up to whole seconds (PostgreSQL's unit for the first two; at least 1).
fn start_pg_advisory(scenario: &Scenario, scale: f64) -> Result<Services, String> {
    use locklab::protocols::pg_advisory::{KEEPALIVE_COUNT, KEEPALIVE_INTERVAL};
    let seconds = |ms: i64| ((ms as f64 * scale / 1000.0).ceil() as i64).max(1).to_string();
    let lock = &scenario.lock;
    let settings = [
        ("tcp_keepalives_idle", seconds(lock.ttl_ms)),
        ("tcp_keepalives_interval", seconds(lock.get(&KEEPALIVE_INTERVAL))),
        ("tcp_keepalives_count", lock.get(&KEEPALIVE_COUNT).to_string()),
    ];
    Ok(Services::PgAdvisory(PostgresServer::start_with("", &settings)?))
}

fn start_etcd(scenario: &Scenario, _scale: f64) -> Result<Services, String> {
    Ok(Services::Etcd(start_cluster(servers(scenario) as usize)?))
}

/// tickTime is scaled with the run, at least 1 ms.
fn start_zookeeper(scenario: &Scenario, scale: f64) -> Result<Services, String> {
    let tick_ms = ((scenario.lock.tick_ms as f64 * scale).round() as u64).max(1);
    Ok(Services::Zookeeper(start_ensemble(servers(scenario) as usize, tick_ms)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_approach_has_at_most_one_harness_and_one_without_is_refused_by_name() {
        for h in &HARNESSES {
            assert_eq!(HARNESSES.iter().filter(|o| o.approach == h.approach).count(), 1, "{}", h.approach.id());
            assert!(!h.why.is_empty());
        }
        for a in Approach::ALL.into_iter().filter(|a| HARNESSES.iter().all(|h| h.approach != *a)) {
            let e = of(a).err().expect("no harness");
            assert!(e.starts_with(&format!("approach: {} is not run on real servers yet", a.id())), "{e}");
            assert!(
                e.ends_with("(locklab-real runs redis, redlock, redisson, db-lease, conditional-write, pg-advisory, etcd and zookeeper)"),
                "{e}"
            );
        }
    }
}
