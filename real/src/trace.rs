//! The recording of a real run as a Lock Lab trace: the same nodes (lanes) as the model's run
//! of the scenario, the same vocabulary of events and notes, times in scenario ms. `check`
//! judges it exactly as it judges a simulated trace.
//!
//! Where each fact comes from: the clients' own lines (attempts, grants as the client received
//! them, writes sent, beliefs, releases); the fencing storage (each write's arrival, token and
//! verdict); the poller at the service (a lock that vanished: expired, or removed by someone's
//! release; a promotion); the harness (pauses, crashes, restarts).

use locklab::check::{self, Verdict};
use locklab::protocols::{AcquireFailure, BeliefEnd, EventKind, GrantRef, Note, Trace};
use locklab::scenario::Scenario;
use locklab::sim::{Event, NodeId};

use crate::clock::TimeBase;
use crate::poller::{self, Change};
use crate::record::{Ended, Failure, Line, Seen};
use crate::storage::Applied;

/// An event the harness itself caused (a pause, a crash, a restart), by node name.
#[derive(Clone, Debug)]
pub struct Raw {
    pub t_ns: i64,
    pub node: String,
    pub kind: EventKind,
}

/// Everything observed in one real run.
pub struct Recording<'a> {
    pub scenario: &'a Scenario,
    pub time: TimeBase,
    pub lines: Vec<(String, Line)>,
    pub storage: Vec<Applied>,
    pub poller: Vec<poller::Seen>,
    pub raw: Vec<Raw>,
}

/// The model's lanes for `scenario`, in node-id order.
pub fn node_names(scenario: &Scenario) -> Vec<String> {
    locklab::lab::run(scenario).trace.nodes.into_iter().map(|n| n.name).collect()
}

/// The verdict of a recorded trace, by the model's own `check`.
pub fn judge(scenario: &Scenario, trace: &Trace) -> Verdict {
    let quorum = locklab::scenario::nodes::quorum(scenario);
    check::verdict(trace, &scenario.id, scenario.approach, scenario.storage.fencing, scenario.seed, quorum)
}

impl Recording<'_> {
    pub fn trace(&self) -> Trace {
        let nodes = locklab::lab::run(self.scenario).trace.nodes;
        let id = |name: &str| nodes.iter().position(|n| n.name == name).unwrap_or_else(|| panic!("no node named {name}"));
        let service: Vec<NodeId> = locklab::scenario::nodes::service_names(self.scenario).iter().map(|n| id(n)).collect();
        let mut raw: Vec<(i64, NodeId, EventKind)> = Vec::new();
        for (who, line) in &self.lines {
            raw.extend(client_events(id(who), line, &service, id("storage")));
        }
        for w in &self.storage {
            let client = id(&w.client);
            let grant = GrantRef { client, attempt: w.attempt };
            let note = Note::WriteApplied { client, grant, token: w.token, accepted: w.accepted, highest_before: w.highest_before };
            raw.push((w.t_ns, id("storage"), EventKind::Note(note)));
        }
        for seen in &self.poller {
            if let Some(note) = self.service_note(seen, &id) {
                raw.push((seen.t_ns, id(&seen.node), EventKind::Note(note)));
            }
        }
        raw.extend(self.raw.iter().map(|r| (r.t_ns, id(&r.node), r.kind.clone())));
        // Stable: events stamped alike keep the order they were recorded in.
        raw.sort_by_key(|(t, _, _)| *t);
        let duration_ms = self.scenario.duration_ms;
        let events = raw
            .into_iter()
            .map(|(t, node, kind)| Event { at_ms: self.time.scenario_ms(t).max(0), node, kind })
            .filter(|e| e.at_ms <= duration_ms)
            .collect();
        Trace { nodes, duration_ms, events, truncated: false }
    }

    /// What a change at the service means: a lock gone by someone's release, or expired.
    fn service_note(&self, seen: &poller::Seen, id: &dyn Fn(&str) -> NodeId) -> Option<Note> {
        match &seen.change {
            Change::Promoted => Some(Note::Promoted { epoch: 1 }),
            Change::Holder { was: Some(was), last_seen_ns, .. } => {
                let holder = id(was);
                Some(match self.releaser(*last_seen_ns, seen.t_ns) {
                    Some(by) => Note::LockReleased { holder, by: id(by) },
                    None => Note::LockExpired { holder },
                })
            }
            Change::Holder { was: None, .. } => None,
        }
    }

    /// The client whose release removed a lock between `from_ns` and `to_ns` (its request was
    /// out, and its answer said it removed one).
    fn releaser(&self, from_ns: i64, to_ns: i64) -> Option<&str> {
        let mut sent: Vec<(&str, i64)> = Vec::new();
        for (who, line) in &self.lines {
            match line.seen {
                Seen::ReleaseSent => sent.push((who, line.t_ns)),
                Seen::ReleaseAnswered { removed: true } => {
                    let out = sent.iter().rev().find(|(w, _)| w == who).map(|(_, t)| *t)?;
                    if out <= to_ns && line.t_ns >= from_ns {
                        return Some(who);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// A client's line as trace events: its own notes, and for a grant the service's commit
/// (stamped midway between request and answer: when the service did it is not observed): each
/// Redlock instance's that said OK, or with no lock service (conditional-write) the read of
/// the version at storage. A conditional write's verdict, as the database answered it, is
/// storage's.
fn client_events(me: NodeId, line: &Line, service: &[NodeId], storage: NodeId) -> Vec<(i64, NodeId, EventKind)> {
    let t = line.t_ns;
    let note = |n: Note| vec![(t, me, EventKind::Note(n))];
    match line.seen {
        Seen::Ready | Seen::ReleaseAnswered { .. } => vec![],
        Seen::AcquireStarted { attempt } => note(Note::AcquireStarted { attempt }),
        Seen::Granted { attempt, token, sent_ns, validity_ms, server, ref commits } => {
            let committed = |at: i64, node: NodeId| {
                (at, node, EventKind::Note(Note::LockCommitted { client: me, attempt, token, expires_wall_ms: None }))
            };
            let midway = sent_ns + (t - sent_ns) / 2;
            let mut out: Vec<_> = match (service.is_empty(), commits.is_empty()) {
                (true, _) => {
                    vec![(midway, storage, EventKind::Note(Note::VersionRead { client: me, attempt, version: token.unwrap_or(0) }))]
                }
                (false, true) => vec![committed(midway, service[server.min(service.len() - 1)])],
                (false, false) => commits.iter().map(|&(i, at)| committed(at, service[i.min(service.len() - 1)])).collect(),
            };
            out.push((t, me, EventKind::Note(Note::BeliefStarted { attempt, token, validity_ms })));
            out
        }
        Seen::Applied { attempt, token, accepted, version_before, at_ns } => {
            let grant = GrantRef { client: me, attempt };
            vec![(
                at_ns,
                storage,
                EventKind::Note(Note::WriteApplied { client: me, grant, token, accepted, highest_before: version_before }),
            )]
        }
        Seen::AcquireFailed { attempt, failure, retry_in_ms } => {
            let reason = match failure {
                Failure::Busy => AcquireFailure::Busy,
                Failure::Unreachable => AcquireFailure::Timeout,
                Failure::SessionExpired => AcquireFailure::SessionExpired,
                Failure::NoQuorum { granted, needed } => AcquireFailure::NoQuorum { granted, needed },
                Failure::ValidityExhausted { validity_ms } => AcquireFailure::ValidityExhausted { validity_ms },
            };
            note(Note::AcquireFailed { attempt, reason, retry_in_ms })
        }
        Seen::WriteSent { n, token, .. } => note(Note::WriteSent { n, token }),
        Seen::WriteAnswered { .. } => vec![],
        Seen::WriteTimedOut { n } => note(Note::WriteTimedOut { n }),
        Seen::BeliefEnded { reason } => note(Note::BeliefEnded {
            reason: match reason {
                Ended::ValidityExpired => BeliefEnd::ValidityExpired,
                Ended::Released => BeliefEnd::Released,
                Ended::WriteRejected => BeliefEnd::WriteRejected,
                Ended::SessionExpired => BeliefEnd::SessionExpired,
            },
        }),
        Seen::ReleaseSent => note(Note::ReleaseSent),
        Seen::Finished => note(Note::Finished),
    }
}

#[cfg(test)]
mod tests {
    //! A hand-made recording of redis-gc-pause (A paused past its lease, B takes over, A's
    //! late write) judged as the model's run is.

    use super::*;
    use crate::record::Seen;

    const MS: i64 = 1_000_000;

    fn line(who: &str, ms: i64, seen: Seen) -> (String, Line) {
        (who.into(), Line { t_ns: ms * MS, seen })
    }

    fn recording(s: &Scenario, a_releases_at: Option<i64>) -> Recording<'_> {
        let mut lines = vec![
            line("A", 1, Seen::AcquireStarted { attempt: 1 }),
            line("A", 2, Seen::Granted { attempt: 1, token: Some(1), sent_ns: MS, validity_ms: Some(10_000), server: 0, commits: vec![] }),
            line("B", 2000, Seen::AcquireStarted { attempt: 1 }),
            line(
                "B",
                10_010,
                Seen::Granted { attempt: 1, token: Some(2), sent_ns: 10_009 * MS, validity_ms: Some(10_000), server: 0, commits: vec![] },
            ),
            line("A", 15_500, Seen::BeliefEnded { reason: Ended::ValidityExpired }),
        ];
        if let Some(at) = a_releases_at {
            lines.push(line("A", at, Seen::ReleaseSent));
            lines.push(line("A", at + 1, Seen::ReleaseAnswered { removed: true }));
        }
        let applied = |ms: i64, client: &str, token, highest_before| Applied {
            t_ns: ms * MS,
            client: client.into(),
            attempt: 1,
            token: Some(token),
            accepted: true,
            highest_before,
        };
        let gone = |ms: i64, last: i64| poller::Seen {
            t_ns: ms * MS,
            node: "redis".into(),
            change: Change::Holder { holder: None, was: Some("A".into()), last_seen_ns: last * MS },
        };
        Recording {
            scenario: s,
            time: TimeBase { t0_ns: 0, scale: 1.0 },
            lines,
            storage: vec![applied(10_500, "B", 2, None), applied(15_501, "A", 1, Some(2))],
            poller: vec![gone(10_004, 9_999)],
            raw: vec![Raw { t_ns: 500 * MS, node: "A".into(), kind: EventKind::Paused { until_ms: 15_500 } }],
        }
    }

    #[test]
    fn a_recording_is_judged_like_a_simulated_run() {
        let s = locklab::scenario::catalog::get("redis-gc-pause").unwrap();
        let trace = recording(&s, None).trace();
        let v = judge(&s, &trace);
        assert_eq!((v.safe, v.stale_writes_accepted, v.max_concurrent_holders), (false, 1, 2));
        assert_eq!(v.grants.iter().map(|g| (g.client.as_str(), g.token)).collect::<Vec<_>>(), vec![("A", Some(1)), ("B", Some(2))]);
        assert_eq!(trace.nodes, locklab::lab::run(&s).trace.nodes, "the model's lanes");
        assert!(trace.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    }

    #[test]
    fn a_vanished_key_is_expired_unless_a_release_removed_it_then() {
        let s = locklab::scenario::catalog::get("redis-gc-pause").unwrap();
        let notes = |r: Recording| -> Vec<Note> {
            r.trace()
                .events
                .into_iter()
                .filter_map(|e| match e.kind {
                    EventKind::Note(n @ (Note::LockExpired { .. } | Note::LockReleased { .. })) => Some(n),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(notes(recording(&s, None)), vec![Note::LockExpired { holder: 0 }]);
        assert_eq!(notes(recording(&s, Some(10_000))), vec![Note::LockReleased { holder: 0, by: 0 }]);
    }
}
