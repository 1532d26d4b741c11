//! A poller reads the lock's state at the service every few milliseconds and records each
//! change: who holds it, or nobody. That is how a key's expiry (or a row's) enters the trace,
//! "as a poller saw it". Reading a Redis key also triggers Redis's lazy expiry, so the key
//! disappears within a poll of its deadline (measured 3–6 ms after PX).
//!
//! With a Redis replica the poller is also the failover monitor: when the primary's port has
//! refused connections for `promote_after`, it promotes the replica (`REPLICAOF NO ONE`), as
//! the model's replica promotes itself after 1 s without its primary. Refused, not slow: on a
//! loaded machine a live primary can miss a short read timeout, and promoting it away would be
//! a failover the scenario never asked for (a frozen primary is therefore not failed over).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::clock::now_ns;

/// Whether a node is down now.
pub type Down = Box<dyn FnMut() -> bool + Send>;

/// What one read returned: unreachable (None), or the holder's client name if any.
pub type Probe = Box<dyn FnMut() -> Option<Option<String>> + Send>;

/// One change the poller saw at one service node.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The live holder changed (None: nobody holds it now). `last_seen_ns`: the poll before.
    Holder { holder: Option<String>, was: Option<String>, last_seen_ns: i64 },
    /// The failover monitor promoted this node.
    Promoted,
}

#[derive(Clone, Debug)]
pub struct Seen {
    pub t_ns: i64,
    pub node: String,
    pub change: Change,
}

/// A node watched: its name, its probe, and (a replica) how to promote it.
pub struct Watched {
    pub node: String,
    pub probe: Probe,
    pub promote: Option<Box<dyn FnMut() -> bool + Send>>,
}

pub struct Poller {
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<Seen>>>,
    thread: Option<JoinHandle<()>>,
}

const EVERY: Duration = Duration::from_millis(5);

impl Poller {
    /// Polls `watched` until stopped; the first node is the primary the monitor watches.
    /// `primary_down`: whether the primary is down now (only with a replica to promote).
    pub fn start(mut watched: Vec<Watched>, mut primary_down: Option<Down>, promote_after: Duration) -> Poller {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (stop2, seen2) = (Arc::clone(&stop), Arc::clone(&seen));
        let thread = std::thread::spawn(move || {
            let mut holders: Vec<(Option<String>, i64)> = vec![(None, now_ns()); watched.len()];
            let mut down_since: Option<i64> = None;
            while !stop2.load(Ordering::Relaxed) {
                for (i, w) in watched.iter_mut().enumerate() {
                    let result = (w.probe)();
                    let t_ns = now_ns();
                    let Some(holder) = result else { continue };
                    let (was, last_seen_ns) = std::mem::replace(&mut holders[i], (holder.clone(), t_ns));
                    if holder != was {
                        let change = Change::Holder { holder, was, last_seen_ns };
                        seen2.lock().unwrap().push(Seen { t_ns, node: w.node.clone(), change });
                    }
                }
                if let Some(down) = primary_down.as_mut() {
                    down_since = if down() { down_since.or(Some(now_ns())) } else { None };
                }
                if down_since.is_some_and(|d| now_ns() - d >= promote_after.as_nanos() as i64) {
                    for w in watched.iter_mut().skip(1) {
                        if let Some(promote) = w.promote.as_mut() {
                            if promote() {
                                seen2.lock().unwrap().push(Seen { t_ns: now_ns(), node: w.node.clone(), change: Change::Promoted });
                                w.promote = None;
                            }
                        }
                    }
                }
                std::thread::sleep(EVERY);
            }
        });
        Poller { stop, seen, thread: Some(thread) }
    }

    /// Stops polling and returns what it saw, in order.
    pub fn finish(mut self) -> Vec<Seen> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

/// A port that refuses connections: nothing listens there (the process is gone).
pub fn refuses(addr: String) -> Down {
    Box::new(move || {
        let Ok(addr) = addr.parse() else { return false };
        matches!(std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200)), Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused)
    })
}

/// Reads the Redis lock key at `addr` (its own connection, reopened after a failure); `hash`:
/// Redisson's lock, a hash whose field is the owner.
pub fn redis_probe(addr: String, hash: bool) -> Probe {
    let mut con = None;
    Box::new(move || {
        if con.is_none() {
            con = crate::client::redis_connect(&addr, Duration::from_millis(100)).ok();
        }
        let con_ref = con.as_mut()?;
        let read = if hash {
            crate::client::redisson_owner(con_ref)
        } else {
            redis::cmd("GET")
                .arg(crate::client::redis::LOCK_KEY)
                .query::<Option<String>>(con_ref)
                .map(|v| v.map(|v| crate::client::owner_of(&v)))
        };
        match read {
            Ok(owner) => Some(owner),
            Err(_) => {
                con = None;
                None
            }
        }
    })
}

/// Reads the lease row: its owner while `expires_at` is still ahead of the server's clock.
pub fn postgres_probe(conn: String) -> Probe {
    let mut client: Option<postgres::Client> = None;
    Box::new(move || {
        if client.is_none() {
            client = postgres::Client::connect(&conn, postgres::NoTls).ok();
        }
        let rows = match client.as_mut()?.query("SELECT owner FROM locks WHERE name = 'lock' AND expires_at > clock_timestamp()", &[]) {
            Ok(rows) => rows,
            Err(_) => {
                client = None;
                return None;
            }
        };
        Some(rows.first().map(|r| crate::client::owner_of(r.get::<_, &str>(0))))
    })
}

/// Reads who holds the advisory lock: the owner named by its session's `application_name`.
pub fn pg_advisory_probe(conn: String) -> Probe {
    let mut client: Option<postgres::Client> = None;
    Box::new(move || {
        if client.is_none() {
            client = postgres::Client::connect(&conn, postgres::NoTls).ok();
        }
        let rows = match client.as_mut()?.query(crate::client::PG_ADVISORY_HOLDER, &[]) {
            Ok(rows) => rows,
            Err(_) => {
                client = None;
                return None;
            }
        };
        Some(rows.first().map(|r| crate::client::owner_of(r.get::<_, &str>(0))))
    })
}

/// Reads the etcd mutex queue: the owner of its first key (the lowest create revision).
pub fn etcd_probe(addr: String) -> Probe {
    Box::new(move || crate::client::etcd_first_in_queue(&addr, Duration::from_millis(100)).ok().map(|first| first.map(|(owner, _)| owner)))
}

/// Reads the ZooKeeper lock queue: the owner (its data) of the lowest sequential node.
pub fn zookeeper_probe(addr: String) -> Probe {
    use zookeeper_client as zk;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().ok();
    let mut client: Option<zk::Client> = None;
    Box::new(move || {
        let rt = rt.as_ref()?;
        let read = async {
            if client.is_none() {
                let connect = zk::Client::connector().with_session_timeout(Duration::from_secs(30)).connect(&addr);
                client = tokio::time::timeout(Duration::from_millis(500), connect).await.ok()?.ok();
            }
            let c = client.as_ref()?;
            let first = crate::client::zk_queue(c).await.ok()?.into_iter().next();
            let Some(first) = first else { return Some(None) };
            let (data, _) = c.get_data(&format!("{}/{first}", crate::client::ZK_PARENT)).await.ok()?;
            Some(Some(String::from_utf8_lossy(&data).to_string()))
        };
        let result = rt.block_on(async { tokio::time::timeout(Duration::from_millis(200), read).await.ok().flatten() });
        if result.is_none() {
            client = None;
        }
        result
    })
}
