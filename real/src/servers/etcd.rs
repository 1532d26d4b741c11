//! etcd 3.4, one or three members: each in its own temp dir with free loopback client and peer
//! ports, started together as a new cluster, stopped by PID. Clients use the JSON gateway of
//! `etcd-1` (any member forwards to the leader).

use std::time::Duration;

use super::{free_port, program, wait_for, Daemon, TempDir};

pub struct EtcdMember {
    pub name: String,
    pub client_port: u16,
    _dir: TempDir,
    pub daemon: Daemon,
}

/// The election timeout the members run with (ms): etcd's minimum lease TTL is
/// ceil(1.5 × election timeout), so 500 ms lets a lease be as short as 1 s when the time scale
/// shrinks the scenario's (the default, 1000 ms, makes it 2 s).
pub const ELECTION_MS: u64 = 500;

impl EtcdMember {
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.client_port)
    }

    /// Starts again on the same data dir (it rejoins its cluster).
    pub fn restart(&mut self) -> Result<(), String> {
        self.daemon.launch()?;
        let addr = self.addr();
        wait_for(&format!("etcd on {addr}"), Duration::from_secs(10), || healthy(&addr))
    }
}

/// Starts `n` members as one new cluster and waits until each answers.
pub fn start_cluster(n: usize) -> Result<Vec<EtcdMember>, String> {
    let ports: Vec<(u16, u16)> = (0..n).map(|_| Ok((free_port()?, free_port()?))).collect::<Result<_, String>>()?;
    let cluster: Vec<String> = ports.iter().enumerate().map(|(i, (_, peer))| format!("etcd-{}=http://127.0.0.1:{peer}", i + 1)).collect();
    let mut members = Vec::new();
    for (i, (client, peer)) in ports.iter().enumerate() {
        let name = format!("etcd-{}", i + 1);
        let client_url = format!("http://127.0.0.1:{client}");
        let peer_url = format!("http://127.0.0.1:{peer}");
        let dir = TempDir::new("etcd")?;
        let mut args: Vec<std::ffi::OsString> = [
            "--name",
            &name,
            "--listen-client-urls",
            &client_url,
            "--advertise-client-urls",
            &client_url,
            "--listen-peer-urls",
            &peer_url,
            "--initial-advertise-peer-urls",
            &peer_url,
            "--initial-cluster",
            &cluster.join(","),
            "--initial-cluster-state",
            "new",
            "--heartbeat-interval",
            "100",
            "--election-timeout",
            &ELECTION_MS.to_string(),
        ]
        .map(Into::into)
        .to_vec();
        args.extend(["--data-dir".into(), dir.path().join("data").into()]);
        let mut daemon = Daemon::new("etcd", program(&["etcd"], "etcd-server")?, args);
        daemon.launch()?;
        members.push(EtcdMember { name, client_port: *client, _dir: dir, daemon });
    }
    for m in &members {
        let addr = m.addr();
        wait_for(&format!("etcd on {addr}"), Duration::from_secs(15), || healthy(&addr))?;
    }
    Ok(members)
}

/// A member that answers a read through the gateway (so the cluster has a leader).
fn healthy(addr: &str) -> bool {
    let body = serde_json::json!({ "key": crate::http::base64(b"health") });
    crate::http::post(addr, "/v3/kv/range", &body, Duration::from_millis(300)).is_ok()
}
