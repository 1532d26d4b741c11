//! docs/PROTOCOLS.md P5 on a real etcd, through its JSON gateway: a lease (`Grant(TTL)`) kept alive
//! by a thread of the client's process every third of its TTL (frozen with the process by
//! SIGSTOP, like the model's keepalive timer); the mutex key `lock/<lease>` put with a Txn
//! `If CreateRevision == 0`; the owner is the key with the lowest create revision, which is the
//! token. A waiter reads the queue every 5 ms until its key is first (the model watches the
//! next-lower key instead: the grant can come up to 5 ms later here). The holder learns its
//! lease is gone only when a keepalive is answered with no TTL (TTL 0). Release deletes the key
//! and revokes the lease.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::{Agent, Session};
use crate::clock::now_ns;
use crate::http::{base64, int, post, unbase64};
use crate::record::{Failure, Job};

pub const PREFIX: &str = "lock/";
/// The end of the `lock/` range ('/' + 1 = '0').
pub const PREFIX_END: &str = "lock0";

/// The key with the lowest create revision under `lock/`: (its value, its create revision).
pub fn first_in_queue(addr: &str, timeout: Duration) -> Result<Option<(String, i64)>, String> {
    let body = json!({ "key": base64(PREFIX.as_bytes()), "range_end": base64(PREFIX_END.as_bytes()),
        "sort_order": "ASCEND", "sort_target": "CREATE", "limit": 1 });
    let answer = post(addr, "/v3/kv/range", &body, timeout)?;
    let Some(kv) = answer["kvs"].as_array().and_then(|kvs| kvs.first()) else { return Ok(None) };
    let value = String::from_utf8_lossy(&unbase64(kv["value"].as_str().unwrap_or(""))).to_string();
    Ok(Some((value, int(&kv["create_revision"]).unwrap_or(0))))
}

pub struct EtcdAgent {
    addr: String,
    timeout: Duration,
    ttl_s: i64,
    name: String,
    lease: Option<i64>,
    key: Option<String>,
    session: Session,
    stop: Arc<AtomicBool>,
}

impl EtcdAgent {
    pub fn new(job: &Job, addr: &str, timeout: Duration) -> Self {
        // etcd grants whole seconds: the scaled TTL, rounded up.
        let ttl_s = ((job.ttl_ms as f64 * job.scale / 1000.0).ceil() as i64).max(1);
        EtcdAgent {
            addr: addr.to_string(),
            timeout,
            ttl_s,
            name: job.name.clone(),
            lease: None,
            key: None,
            session: Session::default(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    fn grant(&mut self) -> Result<i64, Failure> {
        let answer = post(&self.addr, "/v3/lease/grant", &json!({ "TTL": self.ttl_s }), self.timeout).map_err(|_| Failure::Unreachable)?;
        let lease = int(&answer["ID"]).ok_or(Failure::Unreachable)?;
        self.lease = Some(lease);
        let (addr, timeout, lost_at, stop) = (self.addr.clone(), self.timeout, Arc::clone(&self.session.lost_at), Arc::clone(&self.stop));
        let every = Duration::from_millis((self.ttl_s * 1000 / 3) as u64);
        std::thread::spawn(move || keep_alive(&addr, lease, every, timeout, &lost_at, &stop));
        Ok(lease)
    }

    /// Puts our key if it does not exist; its create revision.
    fn enqueue(&mut self, lease: i64) -> Result<i64, Failure> {
        let key = base64(format!("{PREFIX}{lease:x}").as_bytes());
        let body = json!({
            "compare": [{ "key": key, "result": "EQUAL", "target": "CREATE", "create_revision": "0" }],
            "success": [{ "request_put": { "key": key, "value": base64(self.name.as_bytes()), "lease": lease.to_string() } }],
        });
        let answer = post(&self.addr, "/v3/kv/txn", &body, self.timeout).map_err(|_| Failure::Unreachable)?;
        self.key = Some(key);
        int(&answer["header"]["revision"]).ok_or(Failure::Unreachable)
    }
}

/// The keepalive loop: every `every`, renew; an answer without a TTL means the lease is gone.
fn keep_alive(addr: &str, lease: i64, every: Duration, timeout: Duration, lost_at: &AtomicI64, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(every);
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(answer) = post(addr, "/v3/lease/keepalive", &json!({ "ID": lease.to_string() }), timeout) else { continue };
        if int(&answer["result"]["TTL"]).unwrap_or(0) <= 0 {
            lost_at.store(now_ns(), Ordering::SeqCst);
            return;
        }
    }
}

impl Agent for EtcdAgent {
    fn acquire(&mut self, _attempt: u32) -> Result<Option<u64>, Failure> {
        let lease = self.grant()?;
        let mine = self.enqueue(lease)?;
        loop {
            if self.lost_at().is_some() {
                return Err(Failure::SessionExpired);
            }
            let read_at = now_ns();
            match first_in_queue(&self.addr, self.timeout) {
                Ok(Some((_, rev))) if rev == mine => {
                    self.session.read_at = Some(read_at);
                    return Ok(Some(mine as u64));
                }
                Ok(Some((_, rev))) if rev > mine => return Err(Failure::SessionExpired),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    fn release(&mut self) -> bool {
        self.stop.store(true, Ordering::SeqCst);
        let Some(key) = self.key.take() else { return false };
        let deleted =
            post(&self.addr, "/v3/kv/deleterange", &json!({ "key": key }), self.timeout).ok().and_then(|a| int(&a["deleted"])).unwrap_or(0);
        if let Some(lease) = self.lease.take() {
            let _ = post(&self.addr, "/v3/lease/revoke", &json!({ "ID": lease.to_string() }), self.timeout);
        }
        deleted > 0
    }

    fn session(&self) -> Option<&Session> {
        Some(&self.session)
    }
}
