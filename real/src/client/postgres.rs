//! docs/PROTOCOLS.md P1 on a real PostgreSQL: the lease row `locks(name, owner, token, expires_at)`,
//! taken by the guarded insert-or-update (a returned row means held), released by setting
//! `expires_at = now()` guarded by the token, or by a plain `DELETE` (which takes the token
//! column with it) when `safe_unlock` is off. Expiry is the server's clock, evaluated lazily.

use std::time::Duration;

use postgres::{Client, NoTls};

use super::Agent;
use crate::record::{Failure, Job};

pub const SCHEMA: &str =
    "CREATE TABLE locks (name text PRIMARY KEY, owner text NOT NULL, token bigint NOT NULL, expires_at timestamptz NOT NULL)";

const ACQUIRE: &str = "INSERT INTO locks (name, owner, token, expires_at) \
     VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond') \
     ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, token = locks.token + 1, expires_at = EXCLUDED.expires_at \
     WHERE locks.expires_at < now() RETURNING token";
const SAFE_RELEASE: &str = "UPDATE locks SET expires_at = now() WHERE name = $1 AND token = $2";
const PLAIN_RELEASE: &str = "DELETE FROM locks WHERE name = $1";

pub struct PgAgent {
    client: Client,
    owner: String,
    ttl_wall_ms: f64,
    token: Option<i64>,
    safe_unlock: bool,
}

impl PgAgent {
    pub fn connect(job: &Job, conn: &str, timeout: Duration) -> Result<PgAgent, String> {
        let mut config: postgres::Config = conn.parse().map_err(|e| format!("postgres {conn}: {e}"))?;
        config.connect_timeout(timeout.max(Duration::from_secs(2)));
        let client = config.connect(NoTls).map_err(|e| format!("postgres {conn}: {e}"))?;
        Ok(PgAgent {
            client,
            owner: format!("{}:{}", job.name, job.incarnation),
            ttl_wall_ms: job.ttl_ms as f64 * job.scale,
            token: None,
            safe_unlock: job.safe_unlock,
        })
    }
}

impl Agent for PgAgent {
    fn acquire(&mut self, _attempt: u32) -> Result<Option<u64>, Failure> {
        let rows = self.client.query(ACQUIRE, &[&"lock", &self.owner, &self.ttl_wall_ms]).map_err(|_| Failure::Unreachable)?;
        let token: i64 = rows.first().ok_or(Failure::Busy)?.get(0);
        self.token = Some(token);
        Ok(Some(token as u64))
    }

    fn release(&mut self) -> bool {
        let removed = if self.safe_unlock {
            self.client.execute(SAFE_RELEASE, &[&"lock", &self.token.unwrap_or(0)])
        } else {
            self.client.execute(PLAIN_RELEASE, &[&"lock"])
        };
        removed.is_ok_and(|n| n > 0)
    }
}
