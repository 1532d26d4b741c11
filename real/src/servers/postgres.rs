//! PostgreSQL 15 for the database lease row (and the advisory lock): a cluster made by `initdb`
//! in a temp dir, the postmaster on a free loopback port, stopped by PID. PostgreSQL refuses to run as root, so as
//! root the cluster belongs to (and runs as) the unprivileged `postgres` user the package
//! creates.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{free_port, kill, program, wait_for, TempDir};

const BIN: &str = "/usr/lib/postgresql/15/bin";

pub struct PostgresServer {
    pub port: u16,
    _dir: TempDir,
    child: Option<Child>,
}

/// The user to run as: ourselves, or `postgres` when we are root.
fn run_as() -> Result<Option<(u32, u32)>, String> {
    // SAFETY: geteuid cannot fail; getpwnam returns a pointer into static storage or null.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let pw = unsafe { libc::getpwnam(c"postgres".as_ptr()) };
    if pw.is_null() {
        return Err("PostgreSQL refuses to run as root and there is no `postgres` user: install Debian's postgresql".into());
    }
    // SAFETY: non-null, as checked.
    Ok(Some(unsafe { ((*pw).pw_uid, (*pw).pw_gid) }))
}

fn command(bin: &PathBuf, user: Option<(u32, u32)>) -> Command {
    let mut cmd = Command::new(bin);
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    cmd
}

impl PostgresServer {
    /// `schema`: the SQL that makes the tables of the run.
    pub fn start(schema: &str) -> Result<PostgresServer, String> {
        Self::start_with(schema, &[])
    }

    /// `start`, with server settings (`name`, `value`) given to the postmaster as `-c name=value`.
    pub fn start_with(schema: &str, settings: &[(&str, String)]) -> Result<PostgresServer, String> {
        let initdb = program(&[&format!("{BIN}/initdb"), "initdb"], "postgresql")?;
        let postgres = program(&[&format!("{BIN}/postgres"), "postgres"], "postgresql")?;
        let user = run_as()?;
        let dir = TempDir::new("postgres")?;
        let data = dir.path().join("data");
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).map_err(|e| format!("chown {}: {e}", dir.path().display()))?;
        }
        let out = command(&initdb, user)
            .args(["--auth=trust", "--username=postgres", "--no-sync", "--encoding=UTF8", "-D"])
            .arg(&data)
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        let port = free_port()?;
        let child = command(&postgres, user)
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .args(settings.iter().flat_map(|(name, value)| ["-c".to_string(), format!("{name}={value}")]))
            .arg("-k")
            .arg(dir.path())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("postgres: {e}"))?;
        let server = PostgresServer { port, _dir: dir, child: Some(child) };
        let conn = server.conn();
        wait_for(&format!("postgres on port {port}"), Duration::from_secs(15), || {
            postgres::Client::connect(&conn, postgres::NoTls).is_ok()
        })?;
        if !schema.is_empty() {
            let mut client = postgres::Client::connect(&conn, postgres::NoTls).map_err(|e| e.to_string())?;
            client.batch_execute(schema).map_err(|e| format!("creating the tables: {e}"))?;
        }
        Ok(server)
    }

    pub fn conn(&self) -> String {
        format!("host=127.0.0.1 port={} user=postgres dbname=postgres", self.port)
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        // SIGQUIT is PostgreSQL's immediate shutdown: every backend ends at once.
        if let Some(mut child) = self.child.take() {
            super::signal(child.id(), libc::SIGQUIT);
            if wait_for("postgres to stop", Duration::from_secs(5), || matches!(child.try_wait(), Ok(Some(_)))).is_err() {
                kill(&mut child);
            }
        }
    }
}
