//! docs/PROTOCOLS.md P2 on a real Redis: `SET lock v NX PX ttl` and `INCR lock:token` in one Lua
//! script (so a retry burns no number), released by compare-and-delete (or a plain `DEL` when
//! `safe_unlock` is off). With a replica, a request that fails moves the client to the other
//! instance for its next request (the model's clients follow the promoted replica).

use std::time::Duration;

use redis::{Connection, Script};

use super::Agent;
use crate::record::{Failure, Job};

pub const LOCK_KEY: &str = "lock";
pub const TOKEN_KEY: &str = "lock:token";

const ACQUIRE: &str =
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) else return 0 end";
const SAFE_RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/// Opens a connection whose every request gives up after `timeout`.
pub fn connect(addr: &str, timeout: Duration) -> redis::RedisResult<Connection> {
    let client = redis::Client::open(format!("redis://{addr}/"))?;
    let con = client.get_connection_with_timeout(timeout)?;
    con.set_read_timeout(Some(timeout))?;
    con.set_write_timeout(Some(timeout))?;
    Ok(con)
}

pub struct RedisAgent {
    addrs: Vec<String>,
    /// Which of `addrs` the next request goes to.
    current: usize,
    con: Option<Connection>,
    timeout: Duration,
    /// The key's value: unique per client, process and attempt, so compare-and-delete can tell.
    value: String,
    prefix: String,
    ttl_wall_ms: u64,
    safe_unlock: bool,
}

impl RedisAgent {
    pub fn new(job: &Job, addrs: &[String], timeout: Duration) -> Self {
        let mut agent = RedisAgent {
            addrs: addrs.to_vec(),
            current: 0,
            con: None,
            timeout,
            value: String::new(),
            prefix: super::owner_prefix(job),
            ttl_wall_ms: ((job.ttl_ms as f64 * job.scale).round() as u64).max(1),
            safe_unlock: job.safe_unlock,
        };
        // Connected before the start, so the first request costs no handshake.
        agent.con = connect(&agent.addrs[0], timeout).ok();
        agent
    }

    /// Runs one request on the current instance; a failure drops the connection and moves on.
    fn request<T>(&mut self, f: impl FnOnce(&mut Connection) -> redis::RedisResult<T>) -> Option<T> {
        if self.con.is_none() {
            self.con = connect(&self.addrs[self.current], self.timeout).ok();
        }
        let result = self.con.as_mut().map(f);
        match result {
            Some(Ok(v)) => Some(v),
            _ => {
                self.con = None;
                self.current = (self.current + 1) % self.addrs.len();
                None
            }
        }
    }
}

impl Agent for RedisAgent {
    fn acquire(&mut self, attempt: u32) -> Result<Option<u64>, Failure> {
        self.value = format!("{}:{attempt}", self.prefix);
        let (value, ttl) = (self.value.clone(), self.ttl_wall_ms);
        let token: i64 = self
            .request(|con| Script::new(ACQUIRE).key(LOCK_KEY).key(TOKEN_KEY).arg(&value).arg(ttl).invoke(con))
            .ok_or(Failure::Unreachable)?;
        if token == 0 {
            return Err(Failure::Busy);
        }
        Ok(Some(token as u64))
    }

    /// With a replica, a release that fails (the instance died, or was demoted and answers
    /// READONLY) is sent once more to the other instance, as a client that follows the
    /// promotion would.
    fn release(&mut self) -> bool {
        let value = self.value.clone();
        let (safe, tries) = (self.safe_unlock, self.addrs.len().min(2));
        let mut once = || -> Option<i64> {
            if safe {
                self.request(|con| Script::new(SAFE_RELEASE).key(LOCK_KEY).arg(&value).invoke(con))
            } else {
                self.request(|con| redis::cmd("DEL").arg(LOCK_KEY).query(con))
            }
        };
        let removed = (0..tries).find_map(|_| once());
        removed.unwrap_or(0) > 0
    }

    fn server(&self) -> usize {
        self.current
    }
}
