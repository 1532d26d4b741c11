//! docs/PROTOCOLS.md P11 on a real PostgreSQL, with no lock service: the object is a row with a
//! version. A client reads the version, works, and writes with the version it read as the
//! precondition: `UPDATE … SET …, version = version + 1 WHERE id = $id AND version = $v`; zero
//! rows is the 412, and the client reads again and redoes its work. With fencing off the write
//! is a plain `UPDATE` (check, then act). Each write is made under a read of its own, as the
//! model's read-modify-write client does (`Workload::ReadModifyWrite`); the database itself
//! is the storage, so each write's verdict comes from the client's answer.

use std::time::Duration;

use postgres::{Client, NoTls};

use super::{emit, rng};
use crate::clock::{now_ns, sleep_until, TimeBase};
use crate::record::{Ended, Failure, Job, Seen};

pub const SCHEMA: &str = "CREATE TABLE object (id int PRIMARY KEY, version bigint NOT NULL, value text NOT NULL); \
     INSERT INTO object VALUES (1, 1, '')";
const READ: &str = "SELECT version FROM object WHERE id = 1";
/// The conditional write; the version it was checked against comes from the same statement.
const WRITE_IF_MATCH: &str = "WITH before AS (SELECT version FROM object WHERE id = 1), \
     w AS (UPDATE object SET value = $1, version = version + 1 WHERE id = 1 AND version = $2 RETURNING version) \
     SELECT (SELECT version FROM before), (SELECT version FROM w)";
/// The plain write (fencing off): no precondition.
const WRITE_PLAIN: &str = "WITH before AS (SELECT version FROM object WHERE id = 1), \
     w AS (UPDATE object SET value = $1, version = version + 1 WHERE id = 1 RETURNING version) \
     SELECT (SELECT version FROM before), (SELECT version FROM w)";

pub struct Object {
    client: Client,
    fencing: bool,
}

impl Object {
    pub fn connect(job: &Job, conn: &str, timeout: Duration) -> Result<Object, String> {
        let mut config: postgres::Config = conn.parse().map_err(|e| format!("postgres {conn}: {e}"))?;
        config.connect_timeout(timeout.max(Duration::from_secs(2)));
        let client = config.connect(NoTls).map_err(|e| format!("postgres {conn}: {e}"))?;
        Ok(Object { client, fencing: job.fencing })
    }

    fn read(&mut self) -> Option<u64> {
        self.client.query_one(READ, &[]).ok().map(|r| r.get::<_, i64>(0) as u64)
    }

    /// The write based on `version`: (accepted, the version it was checked against).
    fn write(&mut self, value: &str, version: u64) -> Option<(bool, u64)> {
        let row = if self.fencing {
            self.client.query_one(WRITE_IF_MATCH, &[&value, &(version as i64)])
        } else {
            self.client.query_one(WRITE_PLAIN, &[&value])
        };
        let row = row.ok()?;
        Some((row.get::<_, Option<i64>>(1).is_some(), row.get::<_, i64>(0) as u64))
    }
}

/// Read, work, write with the precondition; after each write (or a refusal) read again, until
/// `writes` writes were accepted.
pub fn work(job: &Job, time: TimeBase, object: &mut Object) {
    let mut rng = rng(job);
    sleep_until(time.at(job.acquire_at_ms));
    let (mut attempt, mut done) = (job.attempts_before, 0);
    while done < job.writes {
        attempt += 1;
        emit(Seen::AcquireStarted { attempt });
        let sent_ns = now_ns();
        let Some(version) = object.read() else {
            let retry_in_ms = rng.range(job.retry_ms[0], job.retry_ms[1]);
            emit(Seen::AcquireFailed { attempt, failure: Failure::Unreachable, retry_in_ms });
            sleep_until(now_ns() + time.wall(retry_in_ms).as_nanos() as i64);
            continue;
        };
        emit(Seen::Granted { attempt, token: Some(version), sent_ns, validity_ms: None, server: 0, commits: vec![] });
        sleep_until(now_ns() + time.wall(job.work_ms).as_nanos() as i64);
        let n = done + 1;
        emit(Seen::WriteSent { attempt, n, token: Some(version) });
        let sent_ns = now_ns();
        let reason = match object.write(&format!("{} {attempt}", job.name), version) {
            Some((accepted, before)) => {
                let at = sent_ns + (now_ns() - sent_ns) / 2;
                emit(Seen::Applied { attempt, token: Some(version), accepted, version_before: Some(before), at_ns: at });
                emit(Seen::WriteAnswered { n, accepted });
                done += u32::from(accepted);
                if accepted {
                    Ended::Released
                } else {
                    Ended::WriteRejected
                }
            }
            None => {
                emit(Seen::WriteTimedOut { n });
                Ended::Released
            }
        };
        emit(Seen::BeliefEnded { reason });
        emit(Seen::ReleaseSent);
        emit(Seen::ReleaseAnswered { removed: false });
    }
    emit(Seen::Finished);
}
