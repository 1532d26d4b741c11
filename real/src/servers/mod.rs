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

/// The loopback ports the harness's servers may use (other programs on this machine use
/// theirs outside it; the OS's ephemeral range, 32768 and up, is left to outgoing connections).
pub const PORTS: std::ops::RangeInclusive<u16> = 20000..=31999;

/// The next port to try: shared by every run of this process, so cases run side by side
/// (`suite --jobs`) never pick the same one; each process starts at its own offset.
static NEXT_PORT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// A port of `PORTS` nobody listens on now and no run of this process has been given.
pub fn free_port() -> Result<u16, String> {
    use std::sync::atomic::Ordering;
    let (lo, n) = (*PORTS.start() as u32, PORTS.len() as u32);
    let _ = NEXT_PORT.compare_exchange(u32::MAX, (std::process::id() * 97) % n, Ordering::SeqCst, Ordering::SeqCst);
    for _ in 0..n {
        let port = (lo + NEXT_PORT.fetch_add(1, Ordering::SeqCst) % n) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return Ok(port);
        }
    }
    Err(format!("no free loopback port in {}-{}", PORTS.start(), PORTS.end()))
}

/// A listener of this process on a port of `PORTS`, bound here and kept: no window between
/// probing a port and binding it again in which another process can take it (the fidelity
/// suite once failed with "storage: Address already in use" that way, 2026-12-07).
pub fn bind_free() -> Result<TcpListener, String> {
    let mut last = String::new();
    for _ in 0..64 {
        match TcpListener::bind(("127.0.0.1", free_port()?)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = e.to_string(),
        }
    }
    Err(format!("no loopback port in {}-{} stayed free to bind: {last}", PORTS.start(), PORTS.end()))
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
