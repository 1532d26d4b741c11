//! The protected resource as a small TCP server inside the harness: a register that accepts a
//! write unless fencing is on and its token is lower than the highest it has accepted
//! (highest-token-seen, checked and applied in one step under a lock), as the model's storage.
//! Each write's arrival is stamped on the shared monotonic clock.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use crate::clock::now_ns;

/// One write as storage saw it.
#[derive(Clone, Debug)]
pub struct Applied {
    pub t_ns: i64,
    pub client: String,
    pub attempt: u32,
    pub token: Option<u64>,
    pub accepted: bool,
    pub highest_before: Option<u64>,
}

#[derive(Default)]
struct Register {
    highest: Option<u64>,
    log: Vec<Applied>,
}

pub struct StorageServer {
    pub addr: String,
    register: Arc<Mutex<Register>>,
}

impl StorageServer {
    pub fn start(fencing: bool) -> Result<StorageServer, String> {
        let listener = crate::servers::bind_free().map_err(|e| format!("storage: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?.to_string();
        let register = Arc::new(Mutex::new(Register::default()));
        let shared = Arc::clone(&register);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &shared, fencing));
            }
        });
        Ok(StorageServer { addr, register })
    }

    /// Every write so far, in arrival order.
    pub fn log(&self) -> Vec<Applied> {
        self.register.lock().map(|r| r.log.clone()).unwrap_or_default()
    }
}

/// One client's connection: `W name attempt token` lines, each answered `A` or `R`.
fn serve(stream: TcpStream, register: &Mutex<Register>, fencing: bool) {
    let _ = stream.set_nodelay(true);
    let Ok(mut writer) = stream.try_clone() else { return };
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { return };
        let t_ns = now_ns();
        let parts: Vec<&str> = line.split_whitespace().collect();
        let ["W", client, attempt, token] = parts[..] else { return };
        let (Ok(attempt), token) = (attempt.parse(), token.parse().ok()) else { return };
        let accepted = {
            let Ok(mut r) = register.lock() else { return };
            let highest_before = r.highest;
            let accepted = !matches!((fencing, token, highest_before), (true, Some(t), Some(h)) if t < h);
            if let (true, Some(t)) = (accepted, token) {
                r.highest = Some(highest_before.map_or(t, |h| h.max(t)));
            }
            r.log.push(Applied { t_ns, client: client.to_string(), attempt, token, accepted, highest_before });
            accepted
        };
        if writeln!(writer, "{}", if accepted { "A" } else { "R" }).is_err() {
            return;
        }
    }
}
