//! docs/PROTOCOLS.md P3 on N independent real Redis instances: record t1, `SET lock v NX PX ttl` on
//! every instance in turn (as redlock-py does; each request gives up after the request
//! timeout, and a dead instance refuses at once), then `validity = ttl − (t2 − t1) − drift`
//! with drift = drift_factor·ttl + 2 ms. Held only with a majority of OKs and validity > 0;
//! otherwise, and on release, compare-and-delete on **every** instance. The value is random
//! per attempt: there is no fencing token.

use std::time::Duration;

use redis::{Connection, Script};

use super::redis::{connect, LOCK_KEY};
use super::Agent;
use crate::clock::now_ns;
use crate::record::{Failure, Job};

const SET_NX: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 else return 0 end";
const SAFE_RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

pub struct RedlockAgent {
    addrs: Vec<String>,
    cons: Vec<Option<Connection>>,
    timeout: Duration,
    prefix: String,
    value: String,
    /// Scenario ms per wall ms is 1 / scale.
    scale: f64,
    ttl_ms: i64,
    drift_ms: i64,
    safe_unlock: bool,
    /// The last grant: its validity (reported, from the request) and who said OK, when.
    validity: (i64, i64),
    commits: Vec<(usize, i64)>,
}

impl RedlockAgent {
    pub fn new(job: &Job, addrs: &[String], timeout: Duration) -> Self {
        // Connected before the start, so the first round costs no handshakes.
        let cons = addrs.iter().map(|a| connect(a, timeout).ok()).collect();
        RedlockAgent {
            addrs: addrs.to_vec(),
            cons,
            timeout,
            prefix: super::owner_prefix(job),
            value: String::new(),
            scale: job.scale,
            ttl_ms: job.ttl_ms,
            drift_ms: (job.drift_factor * job.ttl_ms as f64).round() as i64 + 2,
            safe_unlock: job.safe_unlock,
            validity: (0, 0),
            commits: vec![],
        }
    }

    /// One request to instance `i`; None: no answer. A connection that broke since the last
    /// request (the instance restarted) is opened again and the request sent once more, as a
    /// client's connection pool would.
    fn request(&mut self, i: usize, f: impl Fn(&mut Connection) -> redis::RedisResult<i64>) -> Option<i64> {
        for _ in 0..2 {
            let had = self.cons[i].is_some();
            if !had {
                self.cons[i] = connect(&self.addrs[i], self.timeout).ok();
            }
            match self.cons[i].as_mut().map(&f) {
                Some(Ok(v)) => return Some(v),
                _ => self.cons[i] = None,
            }
            if !had {
                return None;
            }
        }
        None
    }

    /// Compare-and-delete (or a plain DEL) on every instance; how many removed a key.
    fn unlock_all(&mut self) -> usize {
        let (value, safe) = (self.value.clone(), self.safe_unlock);
        (0..self.addrs.len())
            .filter(|&i| {
                let removed = if safe {
                    self.request(i, |con| Script::new(SAFE_RELEASE).key(LOCK_KEY).arg(&value).invoke(con))
                } else {
                    self.request(i, |con| redis::cmd("DEL").arg(LOCK_KEY).query(con))
                };
                removed.unwrap_or(0) > 0
            })
            .count()
    }
}

impl Agent for RedlockAgent {
    fn acquire(&mut self, attempt: u32) -> Result<Option<u64>, Failure> {
        self.value = format!("{}:{attempt}", self.prefix);
        let (value, ttl_wall) = (self.value.clone(), ((self.ttl_ms as f64 * self.scale).round() as u64).max(1));
        let t1 = now_ns();
        self.commits.clear();
        for i in 0..self.addrs.len() {
            let sent = now_ns();
            let ok = self.request(i, |con| Script::new(SET_NX).key(LOCK_KEY).arg(&value).arg(ttl_wall).invoke(con));
            if ok == Some(1) {
                let answered = now_ns();
                self.commits.push((i, sent + (answered - sent) / 2));
            }
        }
        let elapsed_ms = ((now_ns() - t1) as f64 / 1e6 / self.scale).round() as i64;
        let validity_ms = self.ttl_ms - elapsed_ms - self.drift_ms;
        let (granted, needed) = (self.commits.len() as u32, self.addrs.len() as u32 / 2 + 1);
        if granted >= needed && validity_ms > 0 {
            self.validity = (validity_ms, self.ttl_ms - self.drift_ms);
            return Ok(None);
        }
        self.unlock_all();
        Err(if granted < needed { Failure::NoQuorum { granted, needed } } else { Failure::ValidityExhausted { validity_ms } })
    }

    fn release(&mut self) -> bool {
        self.unlock_all() > 0
    }

    fn validity(&self, _job: &Job) -> Option<(i64, i64)> {
        Some(self.validity)
    }

    fn commits(&self) -> Vec<(usize, i64)> {
        self.commits.clone()
    }
}
