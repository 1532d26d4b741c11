//! ZooKeeper 3.8 (Debian's package, on the headless JRE), standalone or an ensemble of three:
//! each server in its own temp dir (zoo.cfg, myid, data) on free loopback ports, started with
//! `QuorumPeerMain`, stopped by PID. The scenario's tickTime is scaled with the rest of time,
//! so the session timeout's 2–20-tick bounds scale with it.

use std::time::Duration;

use zookeeper_client as zk;

use super::{free_port, program, wait_for, Daemon, TempDir};

const CLASSPATH: &str = "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-simple.jar";

pub struct ZkServer {
    pub name: String,
    pub client_port: u16,
    _dir: TempDir,
    pub daemon: Daemon,
}

impl ZkServer {
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.client_port)
    }

    pub fn restart(&mut self) -> Result<(), String> {
        self.daemon.launch()?;
        let addr = self.addr();
        wait_for(&format!("zookeeper on {addr}"), Duration::from_secs(20), || serving(&addr))
    }
}

/// `java … QuorumPeerMain zoo.cfg`, small and quick to start.
fn daemon(cfg: std::path::PathBuf) -> Result<Daemon, String> {
    let java = program(&["java"], "default-jre-headless")?;
    if !std::path::Path::new("/usr/share/java/zookeeper.jar").exists() {
        return Err("/usr/share/java/zookeeper.jar not found: install Debian's zookeeper (scripts/install-tools.sh servers)".into());
    }
    let mut args: Vec<std::ffi::OsString> =
        ["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", CLASSPATH].map(Into::into).to_vec();
    args.extend(["org.apache.zookeeper.server.quorum.QuorumPeerMain".into(), cfg.into()]);
    Ok(Daemon::new("zookeeper", java, args))
}

/// Starts `n` servers (1: standalone) with tickTime `tick_ms` and waits until each serves;
/// then creates the lock's parent node.
pub fn start_ensemble(n: usize, tick_ms: u64) -> Result<Vec<ZkServer>, String> {
    let ports: Vec<[u16; 3]> = (0..n).map(|_| Ok([free_port()?, free_port()?, free_port()?])).collect::<Result<_, String>>()?;
    let servers: String = if n == 1 {
        String::new()
    } else {
        ports.iter().enumerate().map(|(i, p)| format!("server.{}=127.0.0.1:{}:{}\n", i + 1, p[1], p[2])).collect()
    };
    let mut out = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let dir = TempDir::new("zookeeper")?;
        let data = dir.path().join("data");
        std::fs::create_dir_all(&data).map_err(|e| e.to_string())?;
        std::fs::write(data.join("myid"), format!("{}\n", i + 1)).map_err(|e| e.to_string())?;
        let cfg = format!(
            "tickTime={tick_ms}\ninitLimit=20\nsyncLimit=10\ndataDir={}\nclientPort={}\nclientPortAddress=127.0.0.1\nmaxClientCnxns=0\nadmin.enableServer=false\n4lw.commands.whitelist=srvr\n{servers}",
            data.display(),
            p[0]
        );
        std::fs::write(dir.path().join("zoo.cfg"), cfg).map_err(|e| e.to_string())?;
        let mut daemon = daemon(dir.path().join("zoo.cfg"))?;
        daemon.launch()?;
        out.push(ZkServer { name: format!("zk-{}", i + 1), client_port: p[0], _dir: dir, daemon });
    }
    for s in &out {
        let addr = s.addr();
        wait_for(&format!("zookeeper on {addr}"), Duration::from_secs(30), || serving(&addr))?;
    }
    make_parent(&out[0].addr())?;
    Ok(out)
}

/// A runtime for one blocking call into the async client.
fn block_on<F: std::future::Future>(f: F) -> Option<F::Output> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().ok().map(|rt| rt.block_on(f))
}

/// A server that accepts a session and answers a read.
fn serving(addr: &str) -> bool {
    let connect = zk::Client::connector()
        .with_connection_timeout(Duration::from_millis(500))
        .with_session_timeout(Duration::from_secs(4))
        .connect(addr);
    block_on(async {
        let Ok(Ok(client)) = tokio::time::timeout(Duration::from_secs(1), connect).await else { return false };
        client.check_stat("/").await.is_ok()
    })
    .unwrap_or(false)
}

fn make_parent(addr: &str) -> Result<(), String> {
    block_on(async {
        let client = zk::Client::connect(addr).await.map_err(|e| e.to_string())?;
        let options = zk::CreateMode::Persistent.with_acls(zk::Acls::anyone_all());
        client.create(crate::client::ZK_PARENT, b"", &options).await.map(|_| ()).map_err(|e| e.to_string())
    })
    .unwrap_or_else(|| Err("no runtime".into()))
    .map_err(|e| format!("creating {}: {e}", crate::client::ZK_PARENT))
}

/// "ZooKeeper 3.8.0", from the four-letter word `srvr` (the one word the servers allow).
pub fn version(addr: &str) -> Result<String, String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).map_err(|e| format!("srvr: {e}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(2))).map_err(|e| e.to_string())?;
    stream.write_all(b"srvr").map_err(|e| format!("srvr: {e}"))?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).map_err(|e| format!("srvr: {e}"))?;
    // "Zookeeper version: 3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on …"
    let v = answer.lines().find_map(|l| l.strip_prefix("Zookeeper version: ")).ok_or("srvr names no version")?;
    Ok(format!("ZooKeeper {}", v.split(['-', ',']).next().unwrap_or(v)))
}
