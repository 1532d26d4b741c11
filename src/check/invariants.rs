//! Invariants of every trace, as `always` properties (`properties::all`): the simulator keeps
//! them by construction, so a run that breaks one is a bug in the model, not a finding about
//! a lock (tests/invariants.rs and tests/properties.rs check them on every generated run):
//!
//! 1. nothing is handled by a paused or crashed node: no message received, nothing sent or
//!    noted by a node between its `Paused` and `Resumed`, or its `Crashed` and `Restarted`,
//!    but for its kernel's TCP segments (`Msg::is_kernels`), which need only its machine up;
//! 2. the network obeys the faults: nothing is delivered that was sent across a partition or a
//!    cut link, every loss has its reason, every delivery its latency (plus any delay window),
//!    every message received is one that was sent to that node and is received once, not
//!    before it arrived, and every message that arrived was handled or lost;
//! 3. clocks move as the faults say: replaying every clock jump and drift, a TTL lock's deadline
//!    is the server's wall clock plus the asked TTL, no key or row expires before its deadline
//!    by the server's clock, and a client's validity ends when its monotonic clock says so (to
//!    the millisecond when nothing froze it or changed its rate);
//! 4. every belief ends at an event that ends it: a belief starts only when none is open, and a
//!    `BeliefEnded` follows what caused it (a rejected write's reply, a reply saying the session
//!    is gone, the last write's reply or timeout) and is followed by the release.

use super::properties::{Check, Evidence, Property, PropertyKind};
use crate::protocols::{BeliefEnd, Event, EventKind, Msg, Note, Trace};
use crate::scenario::Scenario;
use crate::sim::{LocalClock, LossReason, NodeId, Time, NO_NODE};

pub const HANDLED_ONLY_WHEN_UP: Property = Property {
    id: "handled-only-when-up",
    kind: PropertyKind::Always,
    statement: "a paused or crashed node handles nothing",
    check: Check::Trace(handled_only_when_up),
};

pub const NETWORK_OBEYS_THE_FAULTS: Property = Property {
    id: "network-obeys-faults",
    kind: PropertyKind::Always,
    statement: "the network delivers only what the faults let through, on time and once",
    check: Check::Trace(network_obeys_the_faults),
};

pub const CLOCKS_MOVE_AS_THE_FAULTS_SAY: Property = Property {
    id: "clocks-follow-faults",
    kind: PropertyKind::Always,
    statement: "clocks move as the faults say: every deadline and validity is kept by its node's clock",
    check: Check::Trace(clocks_move_as_the_faults_say),
};

pub const EVERY_BELIEF_ENDS_AT_AN_EVENT: Property = Property {
    id: "beliefs-end-at-events",
    kind: PropertyKind::Always,
    statement: "every belief ends at an event that ends it, and the release follows",
    check: Check::Trace(every_belief_ends_at_an_event),
};

/// Event `i` as evidence: `text` says what is wrong, the event itself as the trace's JSON
/// (not `Debug`, which would add a formatter for every event type to the browser bundle).
fn broken(i: usize, e: &Event, text: String) -> Option<Evidence> {
    Some(Evidence { at_ms: Some(e.at_ms), event: Some(i), text: format!("event {i} at {} ms: {text}: {}", e.at_ms, json(&e.kind)) })
}

fn json(kind: &EventKind) -> String {
    serde_json::to_string(kind).unwrap_or_default()
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum State {
    Up,
    Paused,
    Down,
    /// The machine went down with the process: not even its kernel answers.
    MachineDown,
}

/// The previous event of `node` before index `i`, if it happened at the same instant.
fn cause(events: &[Event], i: usize, node: NodeId) -> Option<&Event> {
    events[..i].iter().rev().take_while(|e| e.at_ms == events[i].at_ms).find(|e| e.node == node)
}

/// The message `node` was handling at event `i`: its last `Received` before it, at the same instant.
fn handling(events: &[Event], i: usize, node: NodeId) -> Option<&Msg> {
    events[..i].iter().rev().take_while(|e| e.at_ms == events[i].at_ms).find_map(|e| match &e.kind {
        EventKind::Received { msg, .. } if e.node == node => Some(msg),
        _ => None,
    })
}

fn next_of(events: &[Event], i: usize, node: NodeId) -> Option<&Event> {
    events[i + 1..].iter().find(|e| e.node == node)
}

fn handled_only_when_up(_: &Scenario, trace: &Trace) -> Option<Evidence> {
    let mut state = vec![State::Up; trace.nodes.len()];
    for (i, e) in trace.events.iter().enumerate() {
        if e.node == NO_NODE {
            continue;
        }
        let s = &mut state[e.node];
        let ok = match &e.kind {
            EventKind::Paused { .. } => std::mem::replace(s, State::Paused) == State::Up,
            EventKind::Resumed => std::mem::replace(s, State::Up) == State::Paused,
            EventKind::Crashed { machine } => {
                let down = if *machine { State::MachineDown } else { State::Down };
                !matches!(std::mem::replace(s, down), State::Down | State::MachineDown)
            }
            EventKind::Restarted => matches!(std::mem::replace(s, State::Up), State::Down | State::MachineDown),
            EventKind::Received { msg, .. } | EventKind::Sent { msg, .. } if msg.is_kernels() => *s != State::MachineDown,
            EventKind::Received { .. } | EventKind::Sent { .. } | EventKind::Note(_) => *s == State::Up,
            EventKind::Lost { .. } => matches!(*s, State::Down | State::MachineDown),
            _ => true,
        };
        if !ok {
            return broken(i, e, format!("on {} while {:?}", trace.name(e.node), state[e.node]));
        }
    }
    None
}

/// A message as sent, indexed by its id: (from, to, arrival, handled). `None` for ids not yet
/// seen (ids are dense, so a vector indexed by id, never a hash map's order).
type Sent = Option<(NodeId, NodeId, Option<Time>, bool)>;

struct Window {
    from: NodeId,
    to: NodeId,
    since: Time,
    until: Time,
    by_ms: i64,
}

fn network_obeys_the_faults(s: &Scenario, trace: &Trace) -> Option<Evidence> {
    let n = trace.nodes.len();
    let (lat_lo, lat_hi) = (s.network.latency_ms[0], s.network.latency_ms[1]);
    let mut partitions: Vec<(Vec<usize>, Time, Time)> = Vec::new();
    let mut cuts: Vec<Window> = Vec::new();
    let mut delays: Vec<Window> = Vec::new();
    let mut sent: Vec<Sent> = Vec::new();
    let mut state = vec![State::Up; n];
    for (i, e) in trace.events.iter().enumerate() {
        let t = e.at_ms;
        let bad = |what: String| broken(i, e, what);
        match &e.kind {
            EventKind::PartitionStarted { groups, until_ms } => {
                let mut group_of = vec![groups.len(); n];
                for (g, members) in groups.iter().enumerate() {
                    for &m in members {
                        group_of[m] = g;
                    }
                }
                partitions.push((group_of, t, until_ms.unwrap_or(Time::MAX)));
            }
            EventKind::LinkCut { to, until_ms } => {
                cuts.push(Window { from: e.node, to: *to, since: t, until: until_ms.unwrap_or(Time::MAX), by_ms: 0 })
            }
            EventKind::LinkDelayed { to, by_ms, until_ms } => {
                delays.push(Window { from: e.node, to: *to, since: t, until: *until_ms, by_ms: *by_ms })
            }
            EventKind::Paused { .. } => state[e.node] = State::Paused,
            EventKind::Resumed | EventKind::Restarted => state[e.node] = State::Up,
            EventKind::Crashed { .. } => state[e.node] = State::Down,
            EventKind::Sent { msg_id, to, arrives_at_ms, lost, .. } => {
                let (from, to) = (e.node, *to);
                let active = |w: &&Window| w.from == from && w.to == to && w.since <= t && t < w.until;
                let partitioned = partitions.iter().any(|(g, since, until)| *since <= t && t < *until && g[from] != g[to]);
                let cut = cuts.iter().any(|w| active(&w));
                let extra: i64 = delays.iter().filter(active).map(|w| w.by_ms).sum();
                let ok = match (arrives_at_ms, lost) {
                    (Some(a), None) => !partitioned && !cut && (lat_lo + extra..=lat_hi + extra).contains(&(a - t)),
                    (None, Some(LossReason::Partitioned)) => partitioned,
                    (None, Some(LossReason::LinkCut)) => cut && !partitioned,
                    (None, Some(LossReason::RandomLoss)) => !partitioned && !cut && s.network.drop_rate > 0.0,
                    _ => false,
                };
                if !ok {
                    return bad(format!("partitioned {partitioned}, cut {cut}, extra delay {extra} ms"));
                }
                let id = *msg_id as usize;
                if sent.len() <= id {
                    sent.resize(id + 1, None);
                }
                sent[id] = Some((from, to, *arrives_at_ms, false));
            }
            EventKind::Received { msg_id, from, .. } | EventKind::Lost { msg_id, from, .. } => {
                // Received: it arrived when the send said; lost at a crashed node: on arrival, or
                // at the crash of the paused node it was waiting at.
                let arrived = match &e.kind {
                    EventKind::Received { arrived_at_ms, .. } => Some(*arrived_at_ms),
                    _ => None,
                };
                let Some(Some(m)) = sent.get_mut(*msg_id as usize) else { return bad("never sent".into()) };
                let (f, to, arrival, handled) = *m;
                let on_time = arrival.is_some_and(|a| a <= t && arrived.is_none_or(|r| r == a));
                if f != *from || to != e.node || handled || !on_time {
                    return bad(format!("sent {f}→{to} arriving {arrival:?}, handled already {handled}"));
                }
                m.3 = true;
            }
            _ => {}
        }
    }
    unhandled(trace, &sent, &state)
}

/// Whatever arrived was handled, or lost at a crashed node — unless its receiver was still
/// frozen at the end (its backlog never came due). `sent`: msg_id → (from, to, arrival, handled).
fn unhandled(trace: &Trace, sent: &[Sent], state: &[State]) -> Option<Evidence> {
    sent.iter().enumerate().find_map(|(id, m)| match m {
        Some((_, to, Some(a), false)) if *a <= trace.duration_ms && state[*to] != State::Paused => {
            let text = format!("message {id} arrived at {a} ms at {} and was neither handled nor lost", trace.name(*to));
            Some(Evidence { at_ms: Some(*a), event: None, text })
        }
        _ => None,
    })
}

/// One node's clocks, replayed from the trace's clock faults.
#[derive(Clone)]
struct Clocks {
    wall: LocalClock,
    mono: LocalClock,
    /// Pauses, crashes and rate changes so far: a timer is exact only when none came between.
    disturbances: u32,
}

fn clocks_move_as_the_faults_say(s: &Scenario, trace: &Trace) -> Option<Evidence> {
    let ttl_lock = s.approach.spec().lease == crate::protocols::spec::LeaseKind::FixedTtl;
    let strict = s.approach.spec().deadline == crate::protocols::spec::Deadline::Passed;
    let mut clocks = vec![Clocks { wall: LocalClock::exact(), mono: LocalClock::exact(), disturbances: 0 }; trace.nodes.len()];
    // (server, holder) → the deadline of the key or row the server committed.
    let mut deadlines: Vec<((NodeId, NodeId), i64)> = Vec::new();
    // client → (true time, mono reading, clocks then, validity) of its open belief.
    let mut validity: Vec<Option<(Time, i64, Clocks, i64)>> = vec![None; trace.nodes.len()];
    let events = &trace.events;
    for (i, e) in events.iter().enumerate() {
        let t = e.at_ms;
        let bad = |what: String| broken(i, e, format!("on {}: {what}", trace.name(e.node)));
        match &e.kind {
            EventKind::ClockJumped { by_ms } => clocks[e.node].wall.jump(t, *by_ms),
            EventKind::ClockDrift { ppm } => {
                let c = &mut clocks[e.node];
                c.wall.set_drift(t, *ppm);
                c.mono.set_drift(t, *ppm);
                c.disturbances += 1;
            }
            EventKind::Paused { .. } | EventKind::Crashed { .. } => clocks[e.node].disturbances += 1,
            EventKind::Note(Note::LockCommitted { client, expires_wall_ms: Some(w), .. }) => {
                let asked = match handling(events, i, e.node) {
                    Some(Msg::Acquire { ttl_ms, .. }) => Some(*ttl_ms),
                    _ => None,
                };
                let Some(ttl) = asked else { return bad("a TTL lock committed without an acquire just before".into()) };
                let wall = clocks[e.node].wall.read_ms(t);
                if *w != wall + ttl {
                    return bad(format!("deadline {w}, but the server's wall clock read {wall} and the TTL is {ttl}"));
                }
                deadlines.retain(|(k, _)| *k != (e.node, *client));
                deadlines.push(((e.node, *client), *w));
            }
            // A renewal moves the deadline of the key it extends.
            EventKind::Note(Note::LockExtended { holder, expires_wall_ms }) => {
                deadlines.retain(|(k, _)| *k != (e.node, *holder));
                deadlines.push(((e.node, *holder), *expires_wall_ms));
            }
            // A server whose state was replaced (restarted empty, demoted, promoted from
            // replicated state) holds keys whose deadlines it did not set.
            EventKind::Note(Note::StateLost { .. } | Note::Demoted { .. } | Note::Promoted { .. }) => {
                deadlines.retain(|((s, _), _)| *s != e.node)
            }
            EventKind::Note(Note::LockExpired { holder }) if ttl_lock => {
                if let Some(&(_, w)) = deadlines.iter().find(|(k, _)| *k == (e.node, *holder)) {
                    let wall = clocks[e.node].wall.read_ms(t);
                    // Postgres: `expires_at < now()`; Redis: the deadline reached.
                    if wall < w || (strict && wall == w) {
                        return bad(format!("expired at wall {wall}, before its deadline {w}"));
                    }
                }
            }
            EventKind::Note(Note::BeliefStarted { validity_ms: Some(v), .. }) => {
                let c = &clocks[e.node];
                validity[e.node] = Some((t, c.mono.read_ms(t), c.clone(), *v));
            }
            EventKind::Note(Note::BeliefEnded { reason }) => {
                if let (BeliefEnd::ValidityExpired, Some((t0, m0, then, v))) = (reason, validity[e.node].take()) {
                    let now = &clocks[e.node];
                    let read = now.mono.read_ms(t);
                    if read < m0 + v {
                        return bad(format!("validity {v} ms from mono {m0} ended at mono {read}"));
                    }
                    let due = then.mono.true_time_of(t0, m0 + v);
                    if now.disturbances == then.disturbances && t != due {
                        return bad(format!("validity ended at {t} ms, due at {due} ms"));
                    }
                }
            }
            EventKind::Restarted => validity[e.node] = None,
            _ => {}
        }
    }
    None
}

fn every_belief_ends_at_an_event(_: &Scenario, trace: &Trace) -> Option<Evidence> {
    let events = &trace.events;
    let mut open = vec![false; trace.nodes.len()];
    for (i, e) in events.iter().enumerate() {
        let bad = |what: &str| broken(i, e, format!("on {}: {what}", trace.name(e.node)));
        match &e.kind {
            EventKind::Note(Note::BeliefStarted { .. }) => {
                // Marks the belief open whatever follows: a statement, not a match guard.
                let was_open = std::mem::replace(&mut open[e.node], true);
                if was_open {
                    return bad("a belief started while another was open");
                }
            }
            EventKind::Crashed { .. } if e.node != NO_NODE => open[e.node] = false,
            EventKind::Note(Note::BeliefEnded { reason }) => {
                if !std::mem::replace(&mut open[e.node], false) {
                    return bad("a belief ended that had not started");
                }
                let why = cause(events, i, e.node).map(|c| &c.kind);
                let explained = match reason {
                    BeliefEnd::WriteRejected => {
                        matches!(why, Some(EventKind::Received { msg: Msg::WriteReply { accepted: false, .. }, .. }))
                    }
                    BeliefEnd::SessionExpired => matches!(
                        why,
                        Some(EventKind::Received {
                            msg: Msg::KeepAliveReply { alive: false, .. }
                                | Msg::ReconnectRefused { .. }
                                | Msg::ListReply { mine: None, .. }
                                | Msg::WatchFired { .. }
                                | Msg::WatchReply { exists: false, .. },
                            ..
                        })
                    ),
                    BeliefEnd::Released => matches!(
                        why,
                        Some(
                            EventKind::Received { msg: Msg::WriteReply { accepted: true, .. }, .. }
                                | EventKind::Note(Note::WriteTimedOut { .. } | Note::BeliefStarted { .. })
                        )
                    ),
                    BeliefEnd::ValidityExpired => true, // a timer: clocks_move_as_the_faults_say times it
                };
                if !explained {
                    return bad(&format!("nothing just before explains it (before it: {})", why.map_or("nothing".into(), json)));
                }
                if !matches!(next_of(events, i, e.node).map(|n| &n.kind), Some(EventKind::Note(Note::ReleaseSent))) {
                    return bad("not followed by the release");
                }
            }
            _ => {}
        }
    }
    None
}
