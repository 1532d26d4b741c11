//! One scenario on real servers: the service and the fencing storage started, each client its
//! own process, the faults done to real processes on a time scale, everything observed
//! recorded, then the recording turned into a trace and judged by Lock Lab's own `check`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

use locklab::check::Verdict;
use locklab::protocols::{ClientPhase, EventKind, Note, Trace};
use locklab::scenario::Scenario;

use crate::clock::{now_ns, sleep_until, TimeBase};
use crate::plan::{schedule, Action, Step};
use crate::record::{Job, Line, Seen};
use crate::services::Services;
use crate::storage::StorageServer;
use crate::trace::{Raw, Recording};

/// What a real run produced.
pub struct RealRun {
    pub trace: Trace,
    pub verdict: Verdict,
    pub scale: f64,
    /// What served it, as the servers said before the run ("Redis 7.0.15").
    pub server: String,
}

/// A running client process and what it has printed so far (lines arrive on `lines`).
struct ClientProc {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    incarnation: u32,
    /// Killed by the schedule (kill -9): its exit is the fault's, not a failure.
    killed: bool,
}

/// A line a process printed, with its node's name.
type Said = (String, Line);

/// Everything a run has going: the service, storage, the clients and what they print.
struct Harness<'a> {
    scenario: &'a Scenario,
    services: Services,
    storage: StorageServer,
    clients: Vec<ClientProc>,
    lines: (Sender<Said>, Receiver<Said>),
    seen: Vec<Said>,
    raw: Vec<Raw>,
    counters: Vec<(String, Option<u64>)>,
    scale: f64,
}

/// Runs `scenario` for real at `scale` wall ms per scenario ms.
pub fn run(scenario: &Scenario, scale: f64) -> Result<RealRun, String> {
    let steps = schedule(scenario)?;
    let services = crate::harness::start(scenario, scale)?;
    let server = services.version()?;
    let storage = StorageServer::start(scenario.storage.fencing)?;
    let mut h =
        Harness { scenario, services, storage, clients: vec![], lines: channel(), seen: vec![], raw: vec![], counters: vec![], scale };
    let result = h.go(&steps);
    // A client that ended on its own with an error (it could not reach a server, or failed)
    // makes the recording worthless: the run fails, naming it, instead of judging half a run. (A
    // client the schedule killed and did not restart ended by the fault, not on its own.)
    let failed: Vec<String> = h
        .clients
        .iter_mut()
        .filter_map(|c| (!c.killed && matches!(c.child.try_wait(), Ok(Some(status)) if !status.success())).then_some(c))
        .map(|c| c.name.clone())
        .collect();
    for c in &mut h.clients {
        crate::servers::kill(&mut c.child);
    }
    let (time, poller_seen) = result?;
    if !failed.is_empty() {
        return Err(format!("client {} failed (its error is above)", failed.join(", ")));
    }
    h.drain();
    let recording = Recording { scenario, time, lines: h.seen, storage: h.storage.log(), poller: poller_seen, raw: h.raw };
    let trace = recording.trace();
    let verdict = crate::trace::judge(scenario, &trace);
    Ok(RealRun { trace, verdict, scale, server })
}

impl Harness<'_> {
    /// Starts the clients, then the clock, then plays the fault schedule to the end.
    fn go(&mut self, steps: &[Step]) -> Result<(TimeBase, Vec<crate::poller::Seen>), String> {
        let names: Vec<String> = self.scenario.clients.iter().map(|c| c.name.clone()).collect();
        for name in &names {
            self.spawn(name, 0, 0, None)?;
        }
        self.wait_ready(names.len())?;
        let poller = self.services.poller(Duration::from_millis((1000.0 * self.scale) as u64));
        let time = TimeBase { t0_ns: now_ns() + 50_000_000, scale: self.scale };
        let go = serde_json::to_string(&time).map_err(|e| e.to_string())?;
        for c in &mut self.clients {
            let stdin = c.stdin.as_mut().ok_or("client stdin gone")?;
            writeln!(stdin, "{go}").map_err(|e| format!("client {}: {e}", c.name))?;
        }
        for step in steps {
            sleep_until(time.at(step.at_ms));
            if let Err(e) = self.apply(step, time) {
                poller.finish();
                return Err(e);
            }
        }
        sleep_until(time.at(self.scenario.duration_ms));
        Ok((time, poller.finish()))
    }

    /// Starts one client process: the job on its stdin, its stdout read into `lines`.
    fn spawn(&mut self, name: &str, incarnation: u32, attempts_before: u32, time: Option<TimeBase>) -> Result<(), String> {
        let spec = self.scenario.clients.iter().find(|c| c.name == name).ok_or_else(|| format!("no client {name}"))?;
        let lock = &self.scenario.lock;
        let job = Job {
            name: name.to_string(),
            incarnation,
            attempts_before,
            acquire_at_ms: spec.acquire_at_ms,
            work_ms: spec.work_ms,
            writes: spec.writes,
            ttl_ms: lock.ttl_ms,
            scale: self.scale,
            retry_ms: lock.retry_ms,
            timeout_floor_ms: 300,
            request_timeout_ms: lock.request_timeout_ms,
            safe_unlock: lock.safe_unlock,
            drift_factor: lock.drift_factor,
            fencing: self.scenario.storage.fencing,
            seed: self.scenario.seed,
            service: self.services.service(),
            storage: self.storage.addr.clone(),
            time,
        };
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .arg("client")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("client {name}: {e}"))?;
        let mut stdin = child.stdin.take().ok_or("client stdin")?;
        let mut first = serde_json::to_string(&job).map_err(|e| e.to_string())?;
        first.push('\n');
        stdin.write_all(first.as_bytes()).map_err(|e| format!("client {name}: {e}"))?;
        let stdout = child.stdout.take().ok_or("client stdout")?;
        let (tx, who) = (self.lines.0.clone(), name.to_string());
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(l) = serde_json::from_str::<Line>(&line) {
                    if tx.send((who.clone(), l)).is_err() {
                        return;
                    }
                }
            }
        });
        self.clients.retain(|c| c.name != name);
        self.clients.push(ClientProc { name: name.to_string(), child, stdin: Some(stdin), incarnation, killed: false });
        Ok(())
    }

    /// Waits until `n` clients have said Ready (connected to the service and to storage).
    fn wait_ready(&mut self, n: usize) -> Result<(), String> {
        let mut ready = 0;
        while ready < n {
            let (who, line) =
                self.lines.1.recv_timeout(Duration::from_secs(15)).map_err(|_| "the clients did not start within 15 s".to_string())?;
            if matches!(line.seen, Seen::Ready) {
                ready += 1;
            } else {
                self.seen.push((who, line));
            }
        }
        Ok(())
    }

    /// Collects every line the clients printed so far.
    fn drain(&mut self) {
        while let Ok(item) = self.lines.1.try_recv() {
            self.seen.push(item);
        }
    }

    /// Does one step of the fault schedule to a real process, and records it.
    fn apply(&mut self, step: &Step, time: TimeBase) -> Result<(), String> {
        let t_ns = now_ns();
        let node = step.node.as_str();
        let kind = match &step.action {
            Action::Freeze { until_ms } => {
                self.signal(node, libc::SIGSTOP);
                EventKind::Paused { until_ms: *until_ms }
            }
            Action::Thaw => {
                self.signal(node, libc::SIGCONT);
                EventKind::Resumed
            }
            Action::Kill => {
                if let Some(c) = self.clients.iter_mut().find(|c| c.name == node) {
                    crate::servers::kill(&mut c.child);
                    c.killed = true;
                } else {
                    let counter = self.services.crash(node);
                    self.counters.retain(|(n, _)| n != node);
                    self.counters.push((node.to_string(), counter));
                }
                EventKind::Crashed { machine: false }
            }
            Action::Restart => return self.restart(node, time),
        };
        self.raw.push(Raw { t_ns, node: node.to_string(), kind });
        Ok(())
    }

    fn signal(&mut self, node: &str, sig: i32) {
        match self.clients.iter().find(|c| c.name == node) {
            Some(c) => crate::servers::signal(c.child.id(), sig),
            None => {
                self.services.signal(node, sig);
            }
        }
    }

    /// A client comes back as a new process; a server on its data dir.
    fn restart(&mut self, node: &str, time: TimeBase) -> Result<(), String> {
        let t_ns = now_ns();
        self.drain();
        let Some(incarnation) = self.clients.iter().find(|c| c.name == node).map(|c| c.incarnation + 1) else {
            let was = self.counters.iter().find(|(n, _)| n == node).and_then(|(_, c)| *c);
            let names = crate::trace::node_names(self.scenario);
            let id = |n: &str| names.iter().position(|x| x == n).unwrap_or(0);
            let notes = self.services.restart(node, was, &id)?;
            self.raw.push(Raw { t_ns, node: node.to_string(), kind: EventKind::Restarted });
            self.raw.extend(notes.into_iter().map(|n| Raw { t_ns: now_ns(), node: node.to_string(), kind: EventKind::Note(n) }));
            return Ok(());
        };
        let mine = || self.seen.iter().filter(|(w, _)| w == node);
        let attempts = mine().filter(|(_, l)| matches!(l.seen, Seen::AcquireStarted { .. })).count() as u32;
        let predecessor = mine().rev().find_map(|(_, l)| phase_after(&l.seen)).unwrap_or(ClientPhase::Waiting);
        self.raw.push(Raw { t_ns, node: node.to_string(), kind: EventKind::Restarted });
        self.raw.push(Raw { t_ns, node: node.to_string(), kind: EventKind::Note(Note::StartedOver { incarnation, predecessor }) });
        self.spawn(node, incarnation, attempts, Some(time))
    }
}

/// Where a client is in its job after it printed `seen` (None: it does not move it).
fn phase_after(seen: &Seen) -> Option<ClientPhase> {
    Some(match seen {
        Seen::AcquireStarted { .. } => ClientPhase::Acquiring,
        Seen::AcquireFailed { .. } => ClientPhase::Waiting,
        Seen::Granted { .. } => ClientPhase::Holding,
        Seen::BeliefEnded { .. } | Seen::ReleaseSent => ClientPhase::Releasing,
        Seen::Finished => ClientPhase::Done,
        _ => return None,
    })
}
