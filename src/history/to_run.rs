//! A history as a run: the lanes a scenario of its approach has (its processes as the clients,
//! the approach's lock-service nodes, storage), each operation as the trace events the
//! simulator writes for the same fact, judged by `lab::of_trace` like any run. Where the
//! operations contradict each other (a grant to a process that still holds the lock, a
//! release by one that does not, anything done while paused) the error names the line.

use serde_json::json;

use super::read::HistoryError;
use super::{History, Line, Op};
use crate::lab::{self, Run};
use crate::protocols::{AcquireFailure, BeliefEnd, EventKind, GrantRef, Note, Trace};
use crate::scenario::limits::{MAX_CLIENTS, MAX_DURATION_MS};
use crate::scenario::nodes::{node_names, quorum, service_names};
use crate::scenario::Scenario;
use crate::sim::{Event, NodeId, NodeInfo, Role, Time};

/// How long the drawing runs on past the last operation (or a pause's end).
const TAIL_MS: i64 = 1_000;

/// Where one process is, as its lines have told so far.
#[derive(Default)]
struct Process {
    /// Its acquisitions so far: the attempt its next grant or write belongs to.
    attempt: u32,
    /// An acquire is open (asked, not yet granted or refused).
    asking: bool,
    /// It holds the lock (believes so), granted at this line.
    holding: Option<usize>,
    /// The lease lifetime of its latest grant: what a renewal renews by unless it says.
    granted_ttl: Option<i64>,
    /// The acquisition of its latest grant: what its writes are made under (a write may reach
    /// storage after its writer has asked again).
    granted: u32,
    /// Its writes so far.
    writes: u32,
}

/// Down until (paused: this time; crashed: until its restart), by line.
#[derive(Clone, Copy)]
enum Down {
    /// `resumed`: the index in the events of its `Resumed`, dropped if it crashes first.
    Paused {
        until: Time,
        line: usize,
        resumed: usize,
    },
    Crashed {
        line: usize,
    },
}

/// The history drawn and judged: its scenario (the lanes), trace and verdict.
pub fn to_run(h: &History) -> Result<Run, HistoryError> {
    let clients = processes(h)?;
    let last = h.ops.iter().map(|l| l.t + if let Op::Pause { ms } = l.op { ms } else { 0 }).max().unwrap_or(0);
    let duration_ms = (last + TAIL_MS).min(MAX_DURATION_MS);
    let scenario = lanes(h, &clients, duration_ms)?;
    let names = node_names(&scenario);
    let id = |name: &str| names.iter().position(|n| n == name);
    let service: Vec<NodeId> = service_names(&scenario).iter().filter_map(|n| id(n)).collect();
    let committers: Vec<NodeId> = service.iter().copied().take(quorum(&scenario)).collect();
    let storage = names.len() - 1;
    let mut procs: Vec<Process> = clients.iter().map(|_| Process::default()).collect();
    let mut down: Vec<Option<Down>> = vec![None; names.len()];
    // Every node's time down so far, from and until (None: not back yet): where a grant
    // committed before its line (`committed_at`) was committed.
    let mut was_down: Vec<Vec<(Time, Option<Time>)>> = vec![Vec::new(); names.len()];
    let mut highest: Option<u64> = None;
    // Events taken back (a pause's resumption that a crash came before).
    let mut dropped: Vec<usize> = Vec::new();
    // (time, node, event); sorted stably at the end, so a pause's resumption finds its place.
    let mut out: Vec<(Time, NodeId, EventKind)> = Vec::new();
    for l in &h.ops {
        let Some(node) = id(&l.process) else {
            return Err(HistoryError::at(l.line, "process", format!("no node named \"{}\" ({})", l.process, names.join(", "))));
        };
        settle(&mut down[node], l.t);
        if let Some(d) = down[node] {
            // What another node sees of it (a write arriving, the service renewing or expiring
            // its lease) may happen while it is down; what it does itself may not.
            let seen_elsewhere = matches!(l.op, Op::Write { .. } | Op::Renew { .. } | Op::Expire);
            // A crash ends a pause; a restart ends a crash.
            let ends_it = matches!((d, &l.op), (Down::Crashed { .. }, Op::Restart) | (Down::Paused { .. }, Op::Crash));
            if !seen_elsewhere && !ends_it {
                return Err(at(
                    l,
                    "t",
                    match d {
                        Down::Paused { until, line, .. } => {
                            format!("{} is paused until {until} ms (line {line}) and does nothing before", l.process)
                        }
                        Down::Crashed { line } => format!("{} crashed at line {line} and does nothing before its `restart`", l.process),
                    },
                ));
            }
        }
        let t = l.t;
        // The lock-service nodes up now: where the service's side of a grant, renewal, release
        // or expiry happens (a release while the service is down reaches no one).
        let serving: Vec<NodeId> = service.iter().copied().filter(|&s| up(&mut down[s], t)).collect();
        match &l.op {
            Op::Acquire => {
                let p = &mut procs[node];
                p.attempt += 1;
                p.asking = true;
                note(&mut out, t, node, Note::AcquireStarted { attempt: p.attempt });
            }
            Op::Denied => {
                let p = &mut procs[node];
                if !p.asking {
                    return Err(at(l, "op", format!("{} was denied the lock without asking for it: an `acquire` comes first", l.process)));
                }
                p.asking = false;
                note(&mut out, t, node, Note::AcquireFailed { attempt: p.attempt, reason: AcquireFailure::Busy, retry_in_ms: 0 });
            }
            Op::Grant { token, ttl_ms, committed_at, committed } => {
                let p = &mut procs[node];
                if let Some(since) = p.holding {
                    return Err(at(l, "op", format!(
                        "{} is granted the lock while it still holds it from line {since}: write `renew` for a renewal, or `release` or `lost` first",
                        l.process
                    )));
                }
                if !p.asking {
                    p.attempt += 1; // a grant without its `acquire` line: an attempt of its own
                }
                p.asking = false;
                p.holding = Some(l.line);
                p.granted_ttl = *ttl_ms;
                p.granted = p.attempt;
                let attempt = p.attempt;
                // Committed before the process heard (a late reply): then, on the nodes that
                // commit a grant; otherwise now, on those of them that are up.
                let c = committed_at.unwrap_or(t);
                let up_then = |s: &NodeId| !was_down[*s].iter().any(|&(from, until)| from <= c && until.is_none_or(|u| c < u));
                let on: Vec<NodeId> = service.iter().copied().filter(up_then).collect();
                if *committed && on.len() < committers.len() {
                    return Err(at(
                        l,
                        "op",
                        format!(
                            "{} is granted the lock while the lock service is down: {} of its {} nodes are up at {c} ms, and a grant needs {}",
                            l.process,
                            on.len(),
                            service.len(),
                            committers.len()
                        ),
                    ));
                }
                if !committed {
                    // Told it holds a lock the service never granted: a belief alone.
                } else if committers.is_empty() {
                    // No lock service (conditional writes): the "grant" is the version read.
                    note(&mut out, c, storage, Note::VersionRead { client: node, attempt, version: token.unwrap_or(0) });
                }
                for &s in on.iter().take(if *committed { committers.len() } else { 0 }) {
                    note(
                        &mut out,
                        c,
                        s,
                        Note::LockCommitted { client: node, attempt, token: *token, expires_wall_ms: ttl_ms.map(|ttl| c + ttl) },
                    );
                }
                note(&mut out, t, node, Note::BeliefStarted { attempt, token: *token, validity_ms: *ttl_ms });
            }
            Op::Renew { ttl_ms } => {
                // The service's fact: a renewal sent before a belief ended may land after it.
                let Some(ttl) = ttl_ms.or(procs[node].granted_ttl) else {
                    return Err(at(l, "ttl_ms", format!("missing: {} has no grant with a `ttl_ms` to renew by", l.process)));
                };
                for &s in serving.iter().take(1) {
                    note(&mut out, t, s, Note::LockExtended { holder: node, expires_wall_ms: l.t + ttl });
                }
            }
            Op::Expire => {
                for &s in serving.iter().take(1) {
                    note(&mut out, t, s, Note::LockExpired { holder: node });
                }
            }
            Op::Lost { reason } => {
                if procs[node].holding.take().is_none() {
                    return Err(at(l, "op", format!("{} loses a lock it does not hold: a `grant` comes first", l.process)));
                }
                note(&mut out, t, node, Note::BeliefEnded { reason: *reason });
            }
            Op::Release => {
                if procs[node].holding.take().is_none() {
                    return Err(at(l, "op", format!("{} releases a lock it does not hold: a `grant` comes first", l.process)));
                }
                note(&mut out, t, node, Note::BeliefEnded { reason: BeliefEnd::Released });
                note(&mut out, t, node, Note::ReleaseSent);
                for &s in serving.iter().take(1) {
                    note(&mut out, t, s, Note::LockReleased { holder: node, by: node });
                }
            }
            Op::Write { token, accepted } => {
                let p = &mut procs[node];
                p.writes += 1;
                let grant = GrantRef { client: node, attempt: p.granted };
                // The process sent it, unless the line is its arrival while the writer is down.
                if down[node].is_none() {
                    note(&mut out, t, node, Note::WriteSent { n: p.writes, token: *token });
                }
                note(
                    &mut out,
                    t,
                    storage,
                    Note::WriteApplied { client: node, grant, token: *token, accepted: *accepted, highest_before: highest },
                );
                if *accepted {
                    highest = highest.max(*token);
                }
            }
            Op::Pause { ms } => {
                let until = l.t + ms;
                out.push((t, node, EventKind::Paused { until_ms: until }));
                down[node] = Some(Down::Paused { until, line: l.line, resumed: out.len() });
                was_down[node].push((t, Some(until)));
                out.push((until, node, EventKind::Resumed));
            }
            Op::Crash => {
                if let Some(Down::Paused { resumed, .. }) = down[node] {
                    dropped.push(resumed); // it never resumes: it crashed first
                }
                down[node] = Some(Down::Crashed { line: l.line });
                // A crash ends a pause: what follows is the crash's time down.
                if let Some((_, Some(until))) = was_down[node].last_mut().filter(|(_, u)| u.is_some_and(|u| u > t)) {
                    *until = t;
                }
                was_down[node].push((t, None));
                if node < clients.len() {
                    procs[node].holding = None; // a crash ends a belief (`check::beliefs`)
                    procs[node].asking = false;
                }
                out.push((t, node, EventKind::Crashed { machine: false }));
            }
            Op::Restart => {
                if !matches!(down[node], Some(Down::Crashed { .. })) {
                    return Err(at(l, "op", format!("{} restarts without having crashed: a `crash` comes first", l.process)));
                }
                down[node] = None;
                if let Some(open) = was_down[node].iter_mut().rev().find(|(_, until)| until.is_none()) {
                    open.1 = Some(t);
                }
                out.push((t, node, EventKind::Restarted));
            }
        }
    }
    let mut out: Vec<_> = out.into_iter().enumerate().filter(|(i, _)| !dropped.contains(i)).map(|(_, e)| e).collect();
    out.sort_by_key(|(t, _, _)| *t);
    let nodes = names.iter().enumerate().map(|(i, name)| NodeInfo { name: name.clone(), role: role(i, clients.len(), storage) }).collect();
    let events = out.into_iter().filter(|(t, _, _)| *t <= duration_ms).map(|(at_ms, node, kind)| Event { at_ms, node, kind }).collect();
    let trace = Trace { nodes, duration_ms, events, truncated: false };
    let mut run = lab::of_trace(&scenario, trace);
    run.verdict.granted_ttl_ms = one_ttl(h);
    Ok(run)
}

/// A protocol fact at `t` on `node`.
fn note(out: &mut Vec<(Time, NodeId, EventKind)>, t: Time, node: NodeId, n: Note) {
    out.push((t, node, EventKind::Note(n)));
}

/// Whether a node is up at `t` (a pause that has ended by then is over).
fn up(d: &mut Option<Down>, t: Time) -> bool {
    settle(d, t);
    d.is_none()
}

/// A pause that has ended by `t` is over.
fn settle(d: &mut Option<Down>, t: Time) {
    if matches!(*d, Some(Down::Paused { until, .. }) if until <= t) {
        *d = None;
    }
}

fn at(l: &Line, path: &str, message: String) -> HistoryError {
    HistoryError::at(l.line, path, message)
}

/// The client processes, in the order they first appear: every name that does a client's op,
/// and any other name that is not one of the lock service's nodes or storage (a process that
/// only paused or crashed). Which names the service has depends on the header alone, so a
/// first scenario with a stand-in client tells them.
fn processes(h: &History) -> Result<Vec<String>, HistoryError> {
    // A stand-in client: the service's names do not depend on the clients'.
    let service = service_names(&lanes(h, &["_".to_string()], MAX_DURATION_MS)?);
    let mut out: Vec<&Line> = Vec::new();
    for l in &h.ops {
        let node = l.process == "storage" || service.contains(&l.process);
        if (l.op.any_node() && node) || out.iter().any(|o| o.process == l.process) {
            continue;
        }
        if out.len() == MAX_CLIENTS {
            return Err(at(
                l,
                "process",
                format!("\"{}\" would be process {}: a history has at most {MAX_CLIENTS} (one lane each)", l.process, MAX_CLIENTS + 1),
            ));
        }
        out.push(l);
    }
    if out.is_empty() {
        return Err(at(
            &h.ops[0],
            "process",
            "no process does anything: a history needs a line of a process, such as an `acquire`".to_string(),
        ));
    }
    Ok(out.into_iter().map(|l| l.process.clone()).collect())
}

/// The scenario whose lanes the history is drawn on: its processes as the clients (validated
/// as any scenario's are: a bad name is named at the first line that uses it).
fn lanes(h: &History, clients: &[String], duration_ms: i64) -> Result<Scenario, HistoryError> {
    let mut v = json!({
        "version": 1,
        "id": h.header.id,
        "title": if h.header.title.is_empty() { "Your history".to_string() } else { h.header.title.clone() },
        "intro": format!(
            "A history of your own: {} operations, drawn on the lanes of {} and judged as a run is. Storage answered its writes as the history says, so the switches do not change them.",
            h.ops.len(),
            h.header.approach.label()
        ),
        "seed": 0,
        "approach": h.header.approach.id(),
        "duration_ms": duration_ms,
        "storage": { "fencing": h.header.fencing },
        "clients": clients.iter().map(|c| json!({ "name": c })).collect::<Vec<_>>(),
    });
    if let Some(lock) = &h.header.lock {
        v["lock"] = lock.clone();
    }
    crate::scenario::validate::parse_value(&v).map_err(|e| {
        let named = e.path.strip_prefix("clients[").and_then(|r| r.split(']').next()).and_then(|i| i.parse::<usize>().ok());
        match named.and_then(|i| h.ops.iter().find(|l| l.process == clients[i])) {
            Some(l) => at(l, "process", e.message),
            None => HistoryError::at(1, &e.path, e.message),
        }
    })
}

fn role(i: NodeId, clients: usize, storage: NodeId) -> Role {
    if i < clients {
        Role::Client
    } else if i == storage {
        Role::Storage
    } else {
        Role::LockServer
    }
}

/// The lease lifetime every grant gave, when they all gave the same one (the verdict's
/// `granted_ttl_ms`).
fn one_ttl(h: &History) -> Option<i64> {
    let mut ttls = h.ops.iter().filter_map(|l| match l.op {
        Op::Grant { ttl_ms, .. } => Some(ttl_ms),
        _ => None,
    });
    let first = ttls.next()??;
    ttls.all(|t| t == Some(first)).then_some(first)
}
