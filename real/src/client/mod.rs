//! A client as its own OS process (`locklab-real client`), so SIGSTOP can freeze it and
//! kill -9 can end it. It does the model's job (docs/SCENARIO_FORMAT.md, "Semantics", Clients):
//! acquire (retrying after a random delay), then `writes` times wait `work_ms` and write to
//! storage, then release; its belief ends when its validity (the TTL from when it *sent* the
//! request, on its monotonic clock) runs out, a write is rejected, or it releases. It does not
//! re-check validity before writing: after a freeze, the overdue write goes out first.
//!
//! Everything it sees is printed as a JSON line stamped on the shared monotonic clock.

mod etcd;
mod pg_advisory;
mod postgres;
mod redisson;
mod redlock;
mod versioned;
mod zookeeper;
pub use etcd::first_in_queue as etcd_first_in_queue;
pub use pg_advisory::HOLDER as PG_ADVISORY_HOLDER;
pub use postgres::SCHEMA as PG_SCHEMA;
pub use redisson::owner as redisson_owner;
pub use versioned::SCHEMA as PG_OBJECT_SCHEMA;
pub use zookeeper::{queue as zk_queue, PARENT as ZK_PARENT};
pub mod redis;
pub use redis::connect as redis_connect;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::clock::{now_ns, sleep_until, TimeBase};
use crate::record::{Ended, Failure, Job, Line, Seen, Service};

/// How one lock service is taken and given back.
pub trait Agent {
    /// One attempt: the token (None where the service issues none) or why it failed.
    fn acquire(&mut self, attempt: u32) -> Result<Option<u64>, Failure>;
    /// Gives the lock back; whether the service removed a lock.
    fn release(&mut self) -> bool;
    /// Which of the service's nodes answered the last request (0: the first).
    fn server(&self) -> usize {
        0
    }
    /// The lease or session (etcd, ZooKeeper) the lock lives on: the client then believes
    /// until told otherwise, not for a TTL from its request.
    fn session(&self) -> Option<&Session> {
        None
    }
    /// How long the client may believe a grant: None until told otherwise, else the validity
    /// it reports and the time from its request's leaving to the end of its belief (scenario
    /// ms). A TTL lock: its TTL, from the request.
    fn validity(&self, job: &Job) -> Option<(i64, i64)> {
        self.session().is_none().then_some((job.ttl_ms, job.ttl_ms))
    }
    /// The nodes that said OK to the last grant, with when (Redlock); empty: `server()` alone.
    fn commits(&self) -> Vec<(usize, i64)> {
        vec![]
    }
    /// When the service told the client its lock is gone, if it has.
    fn lost_at(&self) -> Option<i64> {
        self.session().and_then(|s| Some(s.lost_at.load(Ordering::SeqCst)).filter(|&t| t > 0))
    }
}

/// A lease or session a lock lives on, as a queue-based client sees it.
#[derive(Default)]
pub struct Session {
    /// When the service said it was gone (0: not yet); set by the thread that keeps it alive.
    pub lost_at: Arc<AtomicI64>,
    /// When the queue read that found the client first left (a waiter learns of its grant
    /// from a later read than its request).
    pub read_at: Option<i64>,
}

/// Prints one observation, stamped now.
fn emit(seen: Seen) {
    let line = Line { t_ns: now_ns(), seen };
    let mut out = std::io::stdout().lock();
    // A harness that went away cannot be told anything: the process just ends with it.
    let ok = serde_json::to_writer(&mut out, &line).is_ok() && writeln!(out).is_ok() && out.flush().is_ok();
    if !ok {
        std::process::exit(1);
    }
}

/// A small seeded generator for the retry delays (SplitMix64): the model's draws are its own,
/// so only the range is shared, not the numbers.
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        lo + (z % (hi - lo + 1).max(1) as u64) as i64
    }
}

/// The connection to the harness's fencing storage: `W name attempt token` → `A` or `R`.
struct Storage {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Storage {
    fn connect(addr: &str, timeout: Duration) -> Result<Storage, String> {
        let stream = TcpStream::connect(addr).map_err(|e| format!("storage {addr}: {e}"))?;
        stream.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Storage { reader: BufReader::new(stream.try_clone().map_err(|e| e.to_string())?), writer: stream })
    }

    /// Some(accepted), or None when no answer came in time.
    fn write(&mut self, name: &str, attempt: u32, token: Option<u64>) -> Option<bool> {
        let token = token.map_or("-".to_string(), |t| t.to_string());
        writeln!(self.writer, "W {name} {attempt} {token}").ok()?;
        let mut answer = String::new();
        self.reader.read_line(&mut answer).ok()?;
        match answer.trim() {
            "A" => Some(true),
            "R" => Some(false),
            _ => None,
        }
    }
}

/// What a Redis lock value starts with: `NAME:incarnation:pid` (each acquisition appends its
/// attempt number), so the poller can tell whose key it reads and which process set it.
pub fn owner_prefix(job: &crate::record::Job) -> String {
    format!("{}:{}:{}", job.name, job.incarnation, std::process::id())
}

/// The client named in a Redis lock value (`owner_prefix`, then `:attempt`).
pub fn owner_of(value: &str) -> String {
    value.split(':').next().unwrap_or(value).to_string()
}

/// Reads the job from stdin's first line, then (first processes) the start from the second.
pub fn main() -> Result<(), String> {
    let mut stdin = BufReader::new(std::io::stdin());
    let mut line = String::new();
    stdin.read_line(&mut line).map_err(|e| e.to_string())?;
    let job: Job = serde_json::from_str(&line).map_err(|e| format!("client job: {e}"))?;
    let timeout = Duration::from_millis(((job.request_timeout_ms as f64 * job.scale) as u64).max(job.timeout_floor_ms));
    let mut agent: Box<dyn Agent> = match &job.service {
        Service::Redis { addrs } => Box::new(redis::RedisAgent::new(&job, addrs, timeout)),
        Service::Postgres { conn } => Box::new(postgres::PgAgent::connect(&job, conn, timeout)?),
        Service::PgAdvisory { conn } => Box::new(pg_advisory::PgAdvisoryAgent::connect(&job, conn, timeout)?),
        Service::Etcd { addr } => Box::new(etcd::EtcdAgent::new(&job, addr, timeout)),
        Service::Zookeeper { addrs } => Box::new(zookeeper::ZkAgent::connect(&job, addrs, timeout)?),
        Service::Redlock { addrs } => Box::new(redlock::RedlockAgent::new(&job, addrs, timeout)),
        Service::Redisson { addr } => Box::new(redisson::RedissonAgent::new(&job, addr, timeout)),
        Service::Versioned { conn } => {
            let mut object = versioned::Object::connect(&job, conn, timeout)?;
            let time = start(&job, &mut stdin, &mut line)?;
            versioned::work(&job, time, &mut object);
            return Ok(());
        }
    };
    let mut storage = Storage::connect(&job.storage, timeout)?;
    let time = start(&job, &mut stdin, &mut line)?;
    work(&job, time, agent.as_mut(), &mut storage);
    Ok(())
}

/// The run's time base: known to a restarted process; the first processes say Ready and wait
/// for it on stdin.
fn start(job: &Job, stdin: &mut impl BufRead, line: &mut String) -> Result<TimeBase, String> {
    if let Some(t) = job.time {
        return Ok(t);
    }
    emit(Seen::Ready);
    line.clear();
    stdin.read_line(line).map_err(|e| e.to_string())?;
    serde_json::from_str(line).map_err(|e| format!("client start: {e}"))
}

/// The client's retry generator: seeded by the scenario, the client and its process.
fn rng(job: &Job) -> Rng {
    Rng(job.seed ^ (job.incarnation as u64) << 40 ^ job.name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)))
}

/// The job itself: acquire, write, release.
fn work(job: &Job, time: TimeBase, agent: &mut dyn Agent, storage: &mut Storage) {
    let mut rng = rng(job);
    sleep_until(time.at(job.acquire_at_ms));
    let mut attempt = job.attempts_before;
    let (attempt, token, validity_at) = loop {
        attempt += 1;
        emit(Seen::AcquireStarted { attempt });
        let sent_ns = now_ns();
        let failure = match agent.acquire(attempt) {
            Ok(token) => {
                let validity = agent.validity(job);
                let validity_at = validity.map_or(i64::MAX, |(_, v)| sent_ns + time.wall(v).as_nanos() as i64);
                let asked_ns = agent.session().and_then(|s| s.read_at).unwrap_or(sent_ns);
                let (validity_ms, server, commits) = (validity.map(|(v, _)| v), agent.server(), agent.commits());
                emit(Seen::Granted { attempt, token, sent_ns: asked_ns, validity_ms, server, commits });
                break (attempt, token, validity_at);
            }
            Err(f) => f,
        };
        let retry_in_ms = rng.range(job.retry_ms[0], job.retry_ms[1]);
        emit(Seen::AcquireFailed { attempt, failure, retry_in_ms });
        sleep_until(now_ns() + time.wall(retry_in_ms).as_nanos() as i64);
    };
    let reason = hold(job, time, &*agent, storage, (attempt, token), validity_at);
    emit(Seen::BeliefEnded { reason });
    emit(Seen::ReleaseSent);
    let removed = agent.release();
    emit(Seen::ReleaseAnswered { removed });
    emit(Seen::Finished);
}

/// Sleeps until `at_ns` unless the service says the lock is gone first: then when it did. A
/// loss learned after `at_ns` (a frozen process that wakes with both overdue) waits its turn,
/// as the model handles overdue events in the order they became due.
fn sleep_unless_lost(agent: &dyn Agent, at_ns: i64) -> Option<i64> {
    loop {
        if let Some(lost) = agent.lost_at().filter(|&t| t < at_ns) {
            return Some(lost);
        }
        if now_ns() >= at_ns {
            return None;
        }
        sleep_until(at_ns.min(now_ns() + 5_000_000));
    }
}

/// Holding: the writes, each after `work_ms`, until done, rejected, out of validity or told
/// the lease is gone.
fn hold(
    job: &Job,
    time: TimeBase,
    agent: &dyn Agent,
    storage: &mut Storage,
    (attempt, token): (u32, Option<u64>),
    validity_at: i64,
) -> Ended {
    let mut work_at = now_ns() + time.wall(job.work_ms).as_nanos() as i64;
    for n in 1..=job.writes {
        if work_at > validity_at {
            return match sleep_unless_lost(agent, validity_at) {
                Some(_) => Ended::SessionExpired,
                None => Ended::ValidityExpired,
            };
        }
        if sleep_unless_lost(agent, work_at).is_some() {
            return Ended::SessionExpired;
        }
        emit(Seen::WriteSent { attempt, n, token });
        let answer = storage.write(&job.name, attempt, token);
        // The validity deadline passed before the answer came: as in the model, its timer is
        // handled before the reply.
        if now_ns() >= validity_at {
            return Ended::ValidityExpired;
        }
        match answer {
            Some(true) => emit(Seen::WriteAnswered { n, accepted: true }),
            Some(false) => {
                emit(Seen::WriteAnswered { n, accepted: false });
                return Ended::WriteRejected;
            }
            None => emit(Seen::WriteTimedOut { n }),
        }
        work_at = now_ns() + time.wall(job.work_ms).as_nanos() as i64;
    }
    Ended::Released
}
