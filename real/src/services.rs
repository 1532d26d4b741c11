//! The lock service of a run, started for real: one Redis (and its replica), or PostgreSQL.
//! Its nodes carry the model's names (`redis`, `redis-replica`, `db`, `postgres`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use locklab::protocols::Note;
use locklab::sim::NodeId;

use crate::poller::{etcd_probe, pg_advisory_probe, postgres_probe, redis_probe, zookeeper_probe, Poller, Watched};
use crate::record::Service;
use crate::servers::etcd::EtcdMember;
use crate::servers::postgres::PostgresServer;
use crate::servers::redis::RedisServer;
use crate::servers::signal;
use crate::servers::zookeeper::ZkServer;

pub enum Services {
    /// `redis`, then `redis-replica` when there is one.
    Redis {
        servers: Vec<RedisServer>,
        promoted: Arc<AtomicBool>,
        /// Redisson's lock: a hash, not a string.
        hash: bool,
    },
    Postgres(PostgresServer),
    /// pg-advisory's `postgres`: session advisory locks, no tables.
    PgAdvisory(PostgresServer),
    /// `etcd-1` … `etcd-N`.
    Etcd(Vec<EtcdMember>),
    /// `zk-1` … `zk-N`.
    Zookeeper(Vec<ZkServer>),
    /// Redlock's `redis-1` … `redis-N`: independent instances.
    Redlock(Vec<RedisServer>),
    /// conditional-write: no lock service; the object row lives in PostgreSQL (`storage`).
    Versioned(PostgresServer),
}

impl Services {
    /// How clients reach the service.
    pub fn service(&self) -> Service {
        match self {
            Services::Redis { servers, hash: true, .. } => Service::Redisson { addr: servers[0].addr() },
            Services::Redis { servers, .. } => Service::Redis { addrs: servers.iter().map(|s| s.addr()).collect() },
            Services::Redlock(servers) => Service::Redlock { addrs: servers.iter().map(|s| s.addr()).collect() },
            Services::Versioned(pg) => Service::Versioned { conn: pg.conn() },
            Services::Postgres(pg) => Service::Postgres { conn: pg.conn() },
            Services::PgAdvisory(pg) => Service::PgAdvisory { conn: pg.conn() },
            Services::Etcd(members) => Service::Etcd { addr: members[0].addr() },
            Services::Zookeeper(servers) => Service::Zookeeper { addrs: servers.iter().map(|s| s.addr()).collect::<Vec<_>>().join(",") },
        }
    }

    /// What the service is, as the servers themselves say (`INFO server`, `SHOW server_version`,
    /// etcd's maintenance status, ZooKeeper's `srvr`): "Redis 7.0.15", "5 × Redis 7.0.15".
    pub fn version(&self) -> Result<String, String> {
        let times = |n: usize, one: String| if n > 1 { format!("{n} × {one}") } else { one };
        match self {
            Services::Redis { servers, .. } => Ok(times(servers.len(), redis_version(&servers[0].addr())?)),
            Services::Redlock(servers) => Ok(times(servers.len(), redis_version(&servers[0].addr())?)),
            Services::Postgres(pg) | Services::Versioned(pg) | Services::PgAdvisory(pg) => postgres_version(&pg.conn()),
            Services::Etcd(members) => {
                let status =
                    crate::http::post(&members[0].addr(), "/v3/maintenance/status", &serde_json::json!({}), Duration::from_secs(2))?;
                let v = status["version"].as_str().ok_or("etcd's status names no version")?;
                Ok(times(members.len(), format!("etcd {v}")))
            }
            Services::Zookeeper(servers) => Ok(times(servers.len(), crate::servers::zookeeper::version(&servers[0].addr())?)),
        }
    }

    fn redis_index(node: &str) -> Option<usize> {
        match node {
            "redis" => Some(0),
            "redis-replica" => Some(1),
            _ => None,
        }
    }

    /// Redlock's instance `redis-i` (1-based) as an index.
    fn redlock_index(node: &str) -> Option<usize> {
        node.strip_prefix("redis-")?.parse::<usize>().ok()?.checked_sub(1)
    }

    /// Sends a signal to a service node's process (SIGSTOP/SIGCONT).
    pub fn signal(&self, node: &str, sig: i32) -> bool {
        let pid = match self {
            Services::Redis { servers, .. } => Self::redis_index(node).and_then(|i| servers.get(i)).and_then(|s| s.pid()),
            Services::Redlock(servers) => Self::redlock_index(node).and_then(|i| servers.get(i)).and_then(|s| s.pid()),
            Services::Postgres(_) | Services::Versioned(_) | Services::PgAdvisory(_) => None,
            Services::Etcd(members) => members.iter().find(|m| m.name == node).and_then(|m| m.daemon.pid()),
            Services::Zookeeper(servers) => servers.iter().find(|s| s.name == node).and_then(|s| s.daemon.pid()),
        };
        pid.map(|p| signal(p, sig)).is_some()
    }

    /// kill -9 of a service node; the counter it held, read just before, for `StateLost`.
    pub fn crash(&mut self, node: &str) -> Option<u64> {
        match self {
            Services::Etcd(members) => members.iter_mut().filter(|m| m.name == node).for_each(|m| m.daemon.crash()),
            Services::Zookeeper(servers) => servers.iter_mut().filter(|s| s.name == node).for_each(|s| s.daemon.crash()),
            Services::Redlock(servers) => Self::redlock_index(node).and_then(|i| servers.get_mut(i)).into_iter().for_each(|s| s.crash()),
            _ => {}
        }
        let Services::Redis { servers, .. } = self else { return None };
        let server = servers.get_mut(Self::redis_index(node)?)?;
        let counter = read_counter(&server.addr());
        server.crash();
        counter
    }

    /// Restarts a crashed service node on its data dir; the notes that restart makes true (a
    /// counter that did not survive; an old primary rejoining as a replica of the promoted one).
    pub fn restart(&mut self, node: &str, counter_was: Option<u64>, id: &dyn Fn(&str) -> NodeId) -> Result<Vec<Note>, String> {
        match self {
            Services::Etcd(members) => {
                members.iter_mut().find(|m| m.name == node).ok_or_else(|| format!("{node}: not an etcd member"))?.restart()?;
                return Ok(vec![]);
            }
            Services::Zookeeper(servers) => {
                servers.iter_mut().find(|s| s.name == node).ok_or_else(|| format!("{node}: not a ZooKeeper server"))?.restart()?;
                return Ok(vec![]);
            }
            Services::Redlock(servers) => {
                let server = Self::redlock_index(node).and_then(|i| servers.get_mut(i));
                server.ok_or_else(|| format!("{node}: not a Redlock instance"))?.restart(None)?;
                return Ok(vec![]);
            }
            _ => {}
        }
        let Services::Redis { servers, promoted, .. } = self else { return Ok(vec![]) };
        let i = Self::redis_index(node).ok_or_else(|| format!("{node}: not a Redis node"))?;
        let new_primary = (promoted.load(Ordering::SeqCst) && i == 0).then(|| servers[1].port);
        servers[i].restart(new_primary)?;
        let mut notes = vec![];
        let now = read_counter(&servers[i].addr());
        if let Some(was) = counter_was.filter(|&was| now.is_none_or(|n| n < was)) {
            notes.push(Note::StateLost { token_counter_was: was });
        }
        if new_primary.is_some() {
            notes.push(Note::Demoted { epoch: 1, primary: id("redis-replica") });
        }
        Ok(notes)
    }

    /// The poller over every service node (the primary first; a replica it may promote).
    pub fn poller(&mut self, promote_after: Duration) -> Poller {
        let primary_down = match self {
            Services::Redis { servers, .. } if servers.len() > 1 => Some(crate::poller::refuses(servers[0].addr())),
            _ => None,
        };
        let watched = match self {
            Services::Redis { servers, promoted, hash } => servers
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let (addr, promoted) = (s.addr(), Arc::clone(promoted));
                    let promote: Option<Box<dyn FnMut() -> bool + Send>> = (i == 1).then(|| {
                        Box::new(move || promote(&addr) && !promoted.swap(true, Ordering::SeqCst)) as Box<dyn FnMut() -> bool + Send>
                    });
                    Watched {
                        node: if i == 0 { "redis".into() } else { "redis-replica".into() },
                        probe: redis_probe(s.addr(), *hash),
                        promote,
                    }
                })
                .collect(),
            Services::Postgres(pg) => vec![Watched { node: "db".into(), probe: postgres_probe(pg.conn()), promote: None }],
            Services::PgAdvisory(pg) => vec![Watched { node: "postgres".into(), probe: pg_advisory_probe(pg.conn()), promote: None }],
            // Each instance on its own: a key expires by that instance's clock.
            Services::Redlock(servers) => servers
                .iter()
                .enumerate()
                .map(|(i, s)| Watched { node: format!("redis-{}", i + 1), probe: redis_probe(s.addr(), false), promote: None })
                .collect(),
            // No lock to watch: the object's versions are in the clients' answers.
            Services::Versioned(_) => vec![],
            // The queue is one, replicated: read through etcd-1, noted at the service's first node.
            Services::Etcd(members) => vec![Watched { node: members[0].name.clone(), probe: etcd_probe(members[0].addr()), promote: None }],
            Services::Zookeeper(servers) => {
                vec![Watched { node: servers[0].name.clone(), probe: zookeeper_probe(servers[0].addr()), promote: None }]
            }
        };
        Poller::start(watched, primary_down, promote_after)
    }
}

fn promote(addr: &str) -> bool {
    crate::client::redis_connect(addr, Duration::from_millis(200))
        .and_then(|mut con| redis::cmd("REPLICAOF").arg("NO").arg("ONE").query::<()>(&mut con))
        .is_ok()
}

/// The INCR counter's value at `addr`, if it can be read.
fn read_counter(addr: &str) -> Option<u64> {
    let mut con = crate::client::redis_connect(addr, Duration::from_millis(200)).ok()?;
    redis::cmd("GET").arg(crate::client::redis::TOKEN_KEY).query::<Option<u64>>(&mut con).ok().flatten()
}

/// "Redis 7.0.15", from `INFO server`'s `redis_version`.
fn redis_version(addr: &str) -> Result<String, String> {
    let mut con = crate::client::redis_connect(addr, Duration::from_millis(500)).map_err(|e| e.to_string())?;
    let info: String = redis::cmd("INFO").arg("server").query(&mut con).map_err(|e| e.to_string())?;
    let v = info.lines().find_map(|l| l.strip_prefix("redis_version:")).ok_or("INFO server names no redis_version")?;
    Ok(format!("Redis {}", v.trim()))
}

/// "PostgreSQL 15.14", from `SHOW server_version` (Debian adds its package release in brackets).
fn postgres_version(conn: &str) -> Result<String, String> {
    let mut client = postgres::Client::connect(conn, postgres::NoTls).map_err(|e| e.to_string())?;
    let row = client.query_one("SHOW server_version", &[]).map_err(|e| e.to_string())?;
    let v: String = row.get(0);
    Ok(format!("PostgreSQL {}", v.split_whitespace().next().unwrap_or(&v)))
}
