//! The lock services, started from Debian's packages in temp dirs on free loopback ports and
//! stopped by PID.

pub mod etcd;
pub mod postgres;
pub mod redis;
pub mod zookeeper;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Duration;

use crate::clock::now_ns;

/// A port nobody listens on now (the OS picks it; the listener is closed at once).
pub fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free loopback port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Sends `signal` to process `pid` (SIGSTOP, SIGCONT, SIGKILL, SIGTERM).
pub fn signal(pid: u32, signal: i32) {
    // SAFETY: kill(2) with a PID we started; a process that has already gone gets ESRCH, harmless.
    unsafe { libc::kill(pid as i32, signal) };
}

/// Kills a child with SIGKILL and reaps it.
pub fn kill(child: &mut Child) {
    signal(child.id(), libc::SIGCONT);
    signal(child.id(), libc::SIGKILL);
    let _ = child.wait();
}

/// A server process the harness starts, kills with -9, and starts again with the same
/// command line (so on the same data dir and ports).
pub struct Daemon {
    what: &'static str,
    program: PathBuf,
    args: Vec<std::ffi::OsString>,
    child: Option<Child>,
}

impl Daemon {
    pub fn new(what: &'static str, program: PathBuf, args: Vec<std::ffi::OsString>) -> Daemon {
        Daemon { what, program, args, child: None }
    }

    pub fn launch(&mut self) -> Result<(), String> {
        let child = std::process::Command::new(&self.program)
            .args(&self.args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", self.what))?;
        self.child = Some(child);
        Ok(())
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    /// kill -9 (and reaped).
    pub fn crash(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill(&mut child);
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.crash();
    }
}

/// A directory under the system temp dir, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(what: &str) -> Result<TempDir, String> {
        let path = std::env::temp_dir().join(format!("locklab-real-{what}-{}-{}", std::process::id(), now_ns()));
        std::fs::create_dir_all(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(TempDir(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Waits until `ready` holds, polling every 5 ms, for at most `limit`.
pub fn wait_for(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) -> Result<(), String> {
    let deadline = now_ns() + limit.as_nanos() as i64;
    while !ready() {
        if now_ns() > deadline {
            return Err(format!("{what} was not ready within {} s", limit.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

/// A program this harness needs, found on PATH or at a fixed place; the error says how to
/// install it.
pub fn program(names: &[&str], package: &str) -> Result<PathBuf, String> {
    for name in names {
        let p = Path::new(name);
        if p.is_absolute() && p.exists() {
            return Ok(p.to_path_buf());
        }
        let found = std::env::var_os("PATH").and_then(|path| std::env::split_paths(&path).map(|d| d.join(name)).find(|c| c.exists()));
        if let Some(found) = found {
            return Ok(found);
        }
    }
    Err(format!("{} not found: install Debian's {package} (scripts/install-tools.sh servers)", names[0]))
}
