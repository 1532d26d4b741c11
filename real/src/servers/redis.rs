//! redis-server 7, one instance: in its own temp dir on a free port, with the scenario's
//! persistence; kill -9 and restarted on the same dir and port, as a replica of another when
//! told.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use locklab::scenario::Persistence;

use super::{free_port, kill, program, wait_for, TempDir};

pub struct RedisServer {
    pub port: u16,
    dir: TempDir,
    persistence: Persistence,
    replica_of: Option<u16>,
    child: Option<Child>,
}

impl RedisServer {
    pub fn start(persistence: Persistence, replica_of: Option<u16>) -> Result<RedisServer, String> {
        let mut server = RedisServer { port: free_port()?, dir: TempDir::new("redis")?, persistence, replica_of, child: None };
        server.launch()?;
        Ok(server)
    }

    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    fn launch(&mut self) -> Result<(), String> {
        let bin = program(&["redis-server"], "redis-server")?;
        let (aof, fsync) = match self.persistence {
            Persistence::None => ("no", "everysec"),
            Persistence::AofEverysec => ("yes", "everysec"),
            Persistence::AofAlways => ("yes", "always"),
        };
        let mut cmd = Command::new(bin);
        cmd.args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", aof])
            .args(["--appendfsync", fsync, "--daemonize", "no", "--protected-mode", "no"])
            // A replica's first sync starts at once (the default waits 5 s for more replicas).
            .args(["--repl-diskless-sync-delay", "0"])
            .arg("--dir")
            .arg(self.dir.path());
        if let Some(primary) = self.replica_of {
            cmd.args(["--replicaof", "127.0.0.1", &primary.to_string()]);
        }
        let child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().map_err(|e| format!("redis-server: {e}"))?;
        self.child = Some(child);
        let addr = self.addr();
        wait_for(&format!("redis-server on {addr}"), Duration::from_secs(5), || ping(&addr))?;
        if let Some(primary) = self.replica_of {
            // The run starts with the replica in sync, as the model's does: its first sync done
            // *and* the primary streaming to it. After a diskless sync the primary holds the
            // stream back until the replica's first REPLCONF ACK (sent once a second), while
            // INFO already says "online"; a write in that second is lost in a failover. So
            // the run waits for the replica to acknowledge a write.
            wait_streaming(&format!("127.0.0.1:{primary}"), &addr)?;
        }
        Ok(())
    }

    /// kill -9: the process dies with whatever it had not written to the OS.
    pub fn crash(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill(&mut child);
        }
    }

    /// Starts again on the same dir and port (it reloads its AOF, if it kept one).
    pub fn restart(&mut self, replica_of: Option<u16>) -> Result<(), String> {
        self.replica_of = replica_of;
        self.launch()
    }
}

fn ping(addr: &str) -> bool {
    crate::client::redis_connect(addr, Duration::from_millis(200)).and_then(|mut con| redis::cmd("PING").query::<String>(&mut con)).is_ok()
}

/// The replication offsets in a primary's `INFO replication`: its own, and what its replica
/// has acknowledged (`slave0:…,state=online,offset=N`; None before the replica is online).
fn offsets(primary: &str, write_first: bool) -> Option<(u64, Option<u64>)> {
    let mut con = crate::client::redis_connect(primary, Duration::from_millis(200)).ok()?;
    if write_first {
        redis::cmd("SET").arg("locklab:replication-marker").arg(1).query::<()>(&mut con).ok()?;
    }
    let info: String = redis::cmd("INFO").arg("replication").query(&mut con).ok()?;
    let number = |v: &str| v.trim().parse::<u64>().ok();
    let master = info.lines().find_map(|l| l.strip_prefix("master_repl_offset:")).and_then(number)?;
    let replica = info
        .lines()
        .find(|l| l.starts_with("slave0:") && l.contains("state=online"))
        .and_then(|l| l.split(',').find_map(|kv| kv.strip_prefix("offset=")).and_then(number));
    Some((master, replica))
}

/// Waits until the replica has acknowledged a write made to the primary now. Reading a marker
/// on the replica is not proof: a marker written before the sync's snapshot arrives with the
/// snapshot, while the stream is still held back.
fn wait_streaming(primary: &str, replica: &str) -> Result<(), String> {
    let what = format!("the replica on {replica} to stream");
    let mut written = None;
    wait_for(&what, Duration::from_secs(10), || {
        if written.is_none() {
            written = offsets(primary, true).filter(|(_, r)| r.is_some()).map(|(m, _)| m);
        }
        written.is_some_and(|m| offsets(primary, false).and_then(|(_, r)| r).is_some_and(|r| r >= m))
    })
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.crash();
    }
}
