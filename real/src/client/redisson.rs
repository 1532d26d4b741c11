//! docs/PROTOCOLS.md P10 on a real Redis: Redisson's lock is a hash `lock → {owner: count}` set by
//! a Lua script with `PEXPIRE` (here with RFencedLock's `INCR` token in the same script); a
//! watchdog **thread of the client process** re-sets the lease every third of it with an
//! owner-checked `PEXPIRE` script while the lock is held, and stops when that script finds the
//! lock no longer the owner's (nobody tells the code holding it). SIGSTOP freezes the watchdog
//! with the rest of the process. The holder keeps no timer of its own; unlock is owner-checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use redis::{Connection, Script};

use super::redis::{connect, LOCK_KEY, TOKEN_KEY};
use super::Agent;
use crate::clock::{now_ns, sleep_until};
use crate::record::{Failure, Job};

const LOCK: &str = "if redis.call('EXISTS', KEYS[1]) == 0 then \
     redis.call('HINCRBY', KEYS[1], ARGV[1], 1); redis.call('PEXPIRE', KEYS[1], ARGV[2]); \
     return redis.call('INCR', KEYS[2]) end return 0";
const RENEW: &str = "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end return 0";
const UNLOCK: &str = "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return redis.call('DEL', KEYS[1]) end return 0";

/// The owner (client name) of the lock hash at `addr`'s connection, if anyone holds it.
pub fn owner(con: &mut Connection) -> redis::RedisResult<Option<String>> {
    let fields: Vec<String> = redis::cmd("HKEYS").arg(LOCK_KEY).query(con)?;
    Ok(fields.first().map(|f| super::owner_of(f)))
}

pub struct RedissonAgent {
    addr: String,
    con: Option<Connection>,
    timeout: Duration,
    prefix: String,
    owner: String,
    ttl_wall_ms: u64,
    /// Set to stop the watchdog of the current hold.
    stop: Arc<AtomicBool>,
}

impl RedissonAgent {
    pub fn new(job: &Job, addr: &str, timeout: Duration) -> Self {
        RedissonAgent {
            addr: addr.to_string(),
            con: connect(addr, timeout).ok(),
            timeout,
            prefix: super::owner_prefix(job),
            owner: String::new(),
            ttl_wall_ms: ((job.ttl_ms as f64 * job.scale).round() as u64).max(3),
            stop: Arc::new(AtomicBool::new(true)),
        }
    }

    fn request(&mut self, script: &str, args: (&str, u64)) -> Option<i64> {
        if self.con.is_none() {
            self.con = connect(&self.addr, self.timeout).ok();
        }
        let result = self.con.as_mut().map(|con| Script::new(script).key(LOCK_KEY).key(TOKEN_KEY).arg(args.0).arg(args.1).invoke(con));
        match result {
            Some(Ok(v)) => Some(v),
            _ => {
                self.con = None;
                None
            }
        }
    }

    /// The watchdog of this hold: its own connection, a renewal every third of the lease.
    fn start_watchdog(&mut self) {
        let stop = Arc::new(AtomicBool::new(false));
        self.stop = Arc::clone(&stop);
        let (addr, timeout, owner, ttl) = (self.addr.clone(), self.timeout, self.owner.clone(), self.ttl_wall_ms);
        let every = Duration::from_millis(ttl / 3).as_nanos() as i64;
        std::thread::spawn(move || {
            let mut con = None;
            let mut next = now_ns() + every;
            loop {
                sleep_until(next);
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                if con.is_none() {
                    con = connect(&addr, timeout).ok();
                }
                let renewed: Option<i64> = con.as_mut().and_then(|c| Script::new(RENEW).key(LOCK_KEY).arg(&owner).arg(ttl).invoke(c).ok());
                match renewed {
                    // Not the owner's any more: the watchdog stops, telling nobody.
                    Some(0) => return,
                    Some(_) => {}
                    // No answer: tried again at the next period.
                    None => con = None,
                }
                next = now_ns() + every;
            }
        });
    }
}

impl Agent for RedissonAgent {
    fn acquire(&mut self, attempt: u32) -> Result<Option<u64>, Failure> {
        self.owner = format!("{}:{attempt}", self.prefix);
        let owner = self.owner.clone();
        let token = self.request(LOCK, (&owner, self.ttl_wall_ms)).ok_or(Failure::Unreachable)?;
        if token == 0 {
            return Err(Failure::Busy);
        }
        self.start_watchdog();
        Ok(Some(token as u64))
    }

    fn release(&mut self) -> bool {
        self.stop.store(true, Ordering::SeqCst);
        let owner = self.owner.clone();
        self.request(UNLOCK, (&owner, 0)).unwrap_or(0) > 0
    }

    /// Kept alive by the watchdog: the holder believes until a write is rejected or it releases.
    fn validity(&self, _job: &Job) -> Option<(i64, i64)> {
        None
    }
}
