//! docs/PROTOCOLS.md P13 on a real PostgreSQL: a session advisory lock on one connection (one
//! backend), taken with `SELECT pg_try_advisory_lock(1)` (true at once, or false: someone else
//! holds it and the client retries after its delay) and given back with
//! `SELECT pg_advisory_unlock(1)`. No TTL and no token: the lock is the session's, so the client
//! believes until it releases (`validity` is None); nothing ends its belief earlier, because
//! libpq learns of a closed connection only at its next statement. The connection's
//! `application_name` is the owner (`NAME:incarnation`), so the poller can name the holder.

use std::time::Duration;

use postgres::{Client, NoTls};

use super::Agent;
use crate::record::{Failure, Job};

/// The statements, as the model's messages name them.
const TRY_LOCK: &str = "SELECT pg_try_advisory_lock(1)";
const UNLOCK: &str = "SELECT pg_advisory_unlock(1)";
/// Who holds the lock at the server: the `application_name` of the session whose granted
/// advisory lock is key 1 (a one-`bigint` key shows in pg_locks as objid 1, objsubid 1).
pub const HOLDER: &str = "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
     WHERE l.locktype = 'advisory' AND l.objid = 1 AND l.objsubid = 1 AND l.granted";

pub struct PgAdvisoryAgent {
    client: Client,
}

impl PgAdvisoryAgent {
    pub fn connect(job: &Job, conn: &str, timeout: Duration) -> Result<PgAdvisoryAgent, String> {
        let mut config: postgres::Config = conn.parse().map_err(|e| format!("postgres {conn}: {e}"))?;
        config.connect_timeout(timeout.max(Duration::from_secs(2)));
        config.application_name(&format!("{}:{}", job.name, job.incarnation));
        let client = config.connect(NoTls).map_err(|e| format!("postgres {conn}: {e}"))?;
        Ok(PgAdvisoryAgent { client })
    }
}

impl Agent for PgAdvisoryAgent {
    fn acquire(&mut self, _attempt: u32) -> Result<Option<u64>, Failure> {
        let row = self.client.query_one(TRY_LOCK, &[]).map_err(|_| Failure::Unreachable)?;
        if row.get::<_, bool>(0) {
            Ok(None)
        } else {
            Err(Failure::Busy)
        }
    }

    fn release(&mut self) -> bool {
        self.client.query_one(UNLOCK, &[]).is_ok_and(|row| row.get::<_, bool>(0))
    }

    /// A session lock: believed until released, not for a TTL from the request.
    fn validity(&self, _: &Job) -> Option<(i64, i64)> {
        None
    }
}
