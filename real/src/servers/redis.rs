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
            // INFO already says "online"; a write in that second is lost in a failover. So a
            // marker written to the primary must show on the replica.
            let primary = format!("127.0.0.1:{primary}");
            wait_for(&format!("the replica on {addr} to stream"), Duration::from_secs(10), || streaming(&primary, &addr))?;
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

/// A primary streaming to its replica: a marker set on the primary is read on the replica.
fn streaming(primary: &str, replica: &str) -> bool {
    const MARKER: &str = "locklab:replication-marker";
    let timeout = Duration::from_millis(200);
    let set = crate::client::redis_connect(primary, timeout).and_then(|mut con| redis::cmd("SET").arg(MARKER).arg(1).query::<()>(&mut con));
    set.is_ok()
        && crate::client::redis_connect(replica, timeout)
            .and_then(|mut con| redis::cmd("EXISTS").arg(MARKER).query::<bool>(&mut con))
            .unwrap_or(false)
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.crash();
    }
}
