//! A consensus ensemble holding lock nodes: the part ZooKeeper, etcd and Consul share
//! (docs/PROTOCOLS.md P4, P5, P9). Requests go to the leader; a log entry commits once a majority
//! has stored it; the leader expires sessions/leases it has not heard from within their
//! timeout, by its own monotonic clock, on each system's schedule; expiring a session deletes
//! its lock node and fires the watch on it.
//!
//! Three parts: the replicated log and its terms (`log`), the lock store every server applies
//! from the committed log (`store`), and the server (`server`), the `sim::Process` that wires
//! messages and timers to the two. What differs by system (timeouts granted, the expiry
//! schedule, the token, how a gone session is reported) is the system's `Service`, written in
//! its own protocol file; the ensemble asks it for decisions and never which system it is.
//!
//! Replication is Raft-shaped (terms as epochs, the up-to-date vote rule, a new leader's no-op)
//! because that is what makes "committed state is never lost" hold under any crash of a
//! minority; Zab differs in mechanics, not in what a lock client can observe. Elections are
//! deterministic: server k waits `ELECTION_TIMEOUT_MS + k·ELECTION_STAGGER_MS`, so the
//! lowest-numbered up-to-date server that can reach a majority wins.

mod log;
mod server;
mod store;

pub use log::{ELECTION_STAGGER_MS, ELECTION_TIMEOUT_MS, HEARTBEAT_MS};
pub use server::{EnsembleConfig, EnsembleDisk, EnsembleServer};

use super::{LockDelay, Msg};

/// The counters a new lock entry's token can be taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamps {
    /// The create's zxid: `epoch << 32 | transactions so far in the epoch`.
    pub zxid: u64,
    /// The store's revision after the create.
    pub revision: u64,
    /// The key's acquisitions so far, this one included.
    pub acquisitions: u64,
}

/// An acquire the service turned away, as the client is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The holder's token, if the key is held.
    pub holder: Option<u64>,
    /// Refused only because the lock-delay is in force.
    pub lock_delay: bool,
}

/// What one system built on the ensemble decides its own way. Each system implements it in its
/// own protocol file (`zookeeper::ZooKeeper`, `etcd::Etcd`, `consul::Consul`); every method
/// returns a decision the ensemble carries out the same way for all.
pub trait Service: Sync {
    /// The timeout the server grants for a requested one (`tick_ms`: `lock.tick_ms`).
    fn granted_ttl(&self, requested_ms: i64, tick_ms: i64) -> i64;

    /// How often the leader looks for expired sessions (at multiples of it, on its monotonic clock).
    fn expiry_period(&self, tick_ms: i64) -> i64;

    /// Whether the checks run on a loop of the server process's own, started with it (etcd's
    /// lessor), so their phase within the period is drawn from the seed for each process; by
    /// default they sit on multiples of the period, where `expired` rounds deadlines too
    /// (ZooKeeper's expiry buckets).
    fn checks_from_process_start(&self) -> bool {
        false
    }

    /// The range of how long the leader waits for a silent session of timeout `ttl_ms`,
    /// drawn from the seed each time it (re)arms the session's timer (on creation, each
    /// renewal, a leader change). By default exactly `ttl_ms` (nothing is drawn).
    fn wait_range(&self, ttl_ms: i64) -> (i64, i64) {
        (ttl_ms, ttl_ms)
    }

    /// Whether a session last heard from at `heard_ms`, whose timer waits `wait_ms` (drawn from
    /// `wait_range`), is expired at `now_ms` (all on the leader's monotonic clock).
    fn expired(&self, heard_ms: i64, wait_ms: i64, now_ms: i64, tick_ms: i64) -> bool;

    /// A new lock entry's token.
    fn token(&self, stamps: Stamps) -> u64;

    /// Whether a create is admitted while `holder` (its token) holds the lock and, if
    /// `lock_delay`, a lock-delay is in force. By default every create is admitted and queues
    /// behind the entries before it, the lowest holding the lock (ZooKeeper, etcd).
    fn admit(&self, _holder: Option<u64>, _lock_delay: bool) -> Result<(), Refusal> {
        Ok(())
    }

    /// The lock-delay an invalidated session's lock is held back for, given the one the session
    /// asked for (`lock.lock_delay_ms`); None (the default): the service has none.
    fn lock_delay(&self, _asked_ms: i64) -> Option<LockDelay> {
        None
    }

    /// The answer to a request that names a session which no longer exists.
    fn session_gone(&self, session: u64) -> Msg;

    /// What the leader sends an expired session's client, if anything (by default nothing: the
    /// client learns at its next keepalive).
    fn expiry_notice(&self, _session: u64) -> Option<Msg> {
        None
    }

    /// The answer to a listing by a session that is gone or being expired. None (the default):
    /// the listing is answered from the store like any other, the session's entry absent or
    /// not yet removed.
    fn gone_listing(&self, _session: u64) -> Option<Msg> {
        None
    }
}
