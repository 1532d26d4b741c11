//! Ground truth and the verdict (docs/ARCHITECTURE.md, "Ground truth"; docs/SCENARIO_FORMAT.md, "Verdict").
//! Reads only the trace. The properties a run is judged by are data (`properties`); the trace
//! invariants the simulator keeps are among them (`invariants`).

mod invariants;
pub mod properties;

use serde::Serialize;

use crate::protocols::spec::Workload;
use crate::protocols::{EventKind, GrantRef, Msg, Note, Trace};
use crate::scenario::{Approach, Outcome};
use crate::sim::{NodeId, Time};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grant {
    pub client: String,
    pub at_ms: Time,
    pub token: Option<u64>,
    /// Trace index of the commit.
    #[serde(skip)]
    pub event: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Write {
    pub client: String,
    pub at_ms: Time,
    pub token: Option<u64>,
    pub accepted: bool,
    pub stale: bool,
    pub after_takeover: bool,
    /// Accepted with no token to check (the approach issues none).
    #[serde(skip)]
    pub unfenced: bool,
    #[serde(skip)]
    pub event: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Overlap {
    pub from_ms: Time,
    pub to_ms: Time,
    pub clients: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    StaleWriteAccepted,
    StaleWriteRejected,
    WriteAfterTakeover,
    TokenRepeated,
    TokenRegressed,
    UnfencedWrite,
    /// Storage rejected a write made under the newest grant: a token that went backwards (or a
    /// repeat of an older one) made fencing block the rightful holder.
    HolderWriteRejected,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub at_ms: Time,
    pub event: usize,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pub id: String,
    pub approach: Approach,
    pub fencing: bool,
    pub seed: u64,
    pub grants: Vec<Grant>,
    pub writes: Vec<Write>,
    pub overlaps: Vec<Overlap>,
    pub findings: Vec<Finding>,
    pub stale_writes_accepted: u32,
    pub stale_writes_rejected: u32,
    pub max_concurrent_holders: u32,
    pub safe: bool,
    /// The lease or session lifetime the service enforces, as the trace shows it: the timeout
    /// a ZooKeeper session was negotiated to or the TTL an etcd lease was granted (its
    /// `SessionOpened`), else the TTL a client asked a TTL lock for (which the server uses as
    /// asked). None when nothing was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub granted_ttl_ms: Option<i64>,
    /// Present when the run hit the trace-event limit: it was judged only up to this time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_at_ms: Option<Time>,
}

/// One field of `expect` that the run disagrees with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    pub field: &'static str,
    pub expected: String,
    pub actual: String,
}

impl Verdict {
    /// Compares the run with the author's claimed outcome; empty means it agrees.
    pub fn mismatches(&self, expected: &Outcome) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let mut cmp = |field: &'static str, want: Option<String>, got: String| {
            if let Some(want) = want {
                if want != got {
                    out.push(Mismatch { field, expected: want, actual: got });
                }
            }
        };
        cmp("safe", expected.safe.map(|v| v.to_string()), self.safe.to_string());
        cmp("stale_writes_accepted", expected.stale_writes_accepted.map(|v| v.to_string()), self.stale_writes_accepted.to_string());
        cmp("stale_writes_rejected", expected.stale_writes_rejected.map(|v| v.to_string()), self.stale_writes_rejected.to_string());
        cmp("max_concurrent_holders", expected.max_concurrent_holders.map(|v| v.to_string()), self.max_concurrent_holders.to_string());
        out
    }
}

/// A client's belief interval: from accepting a grant until it processes what ends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Belief {
    pub client: NodeId,
    pub from_ms: Time,
    /// None while it still believes at the end of the run.
    pub to_ms: Option<Time>,
}

/// Every belief interval in the trace, in start order.
pub fn beliefs(trace: &Trace) -> Vec<Belief> {
    let mut out: Vec<Belief> = Vec::new();
    for e in &trace.events {
        match &e.kind {
            EventKind::Note(Note::BeliefStarted { .. }) => out.push(Belief { client: e.node, from_ms: e.at_ms, to_ms: None }),
            EventKind::Note(Note::BeliefEnded { .. }) | EventKind::Crashed { .. } => {
                if let Some(b) = out.iter_mut().rev().find(|b| b.client == e.node && b.to_ms.is_none()) {
                    b.to_ms = Some(e.at_ms);
                }
            }
            _ => {}
        }
    }
    out
}

/// One commit of an acquisition: (event index, time, token).
type Commit = (usize, Time, Option<u64>);

/// Grants the clients accepted, in commit order, keyed by their `GrantRef`.
fn grants(trace: &Trace, quorum: usize) -> Vec<(GrantRef, Grant)> {
    // Commit events per (client, attempt); the grant happens at the quorum-th commit.
    let mut commits: Vec<(GrantRef, Vec<Commit>)> = Vec::new();
    let mut accepted: Vec<GrantRef> = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        match &e.kind {
            EventKind::Note(Note::LockCommitted { client, attempt, token, .. }) => {
                commit(&mut commits, *client, *attempt, (i, e.at_ms, *token))
            }
            // A conditional write's "grant" is its read (docs/SCENARIO_FORMAT.md, "Beyond the seed").
            EventKind::Note(Note::VersionRead { client, attempt, version }) => {
                commit(&mut commits, *client, *attempt, (i, e.at_ms, Some(*version)))
            }
            EventKind::Note(Note::BeliefStarted { attempt, .. }) => accepted.push(GrantRef { client: e.node, attempt: *attempt }),
            _ => {}
        }
    }
    let mut out: Vec<(GrantRef, Grant)> = commits
        .into_iter()
        .filter(|(key, v)| accepted.contains(key) && v.len() >= quorum)
        .map(|(key, v)| {
            let (event, at_ms, token) = v[quorum - 1];
            (key, Grant { client: trace.name(key.client).to_string(), at_ms, token, event })
        })
        .collect();
    crate::sort::by_key(&mut out, |(_, g)| (g.at_ms, g.event));
    out
}

/// One commit of `client`'s acquisition `attempt`.
fn commit(commits: &mut Vec<(GrantRef, Vec<Commit>)>, client: NodeId, attempt: u32, at: Commit) {
    let key = GrantRef { client, attempt };
    match commits.iter_mut().find(|(k, _)| *k == key) {
        Some((_, v)) => v.push(at),
        None => commits.push((key, vec![at])),
    }
}

/// Judges a trace: the ledger of grants and writes with what each shows (`judge_writes`,
/// `token_findings`), the overlapping believers, and `safe` as the property `no-lost-update`
/// reads it off them.
pub fn verdict(trace: &Trace, id: &str, approach: Approach, fencing: bool, seed: u64, quorum: usize) -> Verdict {
    let grants = grants(trace, quorum.max(1));
    let (writes, mut findings) = judge_writes(trace, &grants, approach, fencing);
    if approach.spec().workload == Workload::UnderLock {
        // Versions read are no lock's tokens: two clients reading the same one is the race the
        // precondition is for, not a token handed out twice.
        findings.extend(token_findings(&grants, approach));
    }
    crate::sort::by_key(&mut findings, |f| (f.at_ms, f.event));
    let (overlaps, max_concurrent_holders) = overlaps(trace);
    let stale_writes_accepted = writes.iter().filter(|w| w.stale && w.accepted).count() as u32;
    let stale_writes_rejected = writes.iter().filter(|w| w.stale && !w.accepted).count() as u32;
    let mut v = Verdict {
        id: id.to_string(),
        approach,
        fencing,
        seed,
        grants: grants.into_iter().map(|(_, g)| g).collect(),
        writes,
        overlaps,
        findings,
        stale_writes_accepted,
        stale_writes_rejected,
        max_concurrent_holders,
        safe: false,
        granted_ttl_ms: granted_ttl(trace),
        truncated_at_ms: trace.truncated.then(|| trace.events.last().map_or(0, |e| e.at_ms)),
    };
    v.safe = properties::lost_update(&v).is_none();
    v
}

/// Every write storage applied, stale or not, with the findings each shows: a stale write
/// accepted or rejected, a rightful write rejected, a write after a takeover, a write with
/// no token under fencing.
fn judge_writes(trace: &Trace, grants: &[(GrantRef, Grant)], approach: Approach, fencing: bool) -> (Vec<Write>, Vec<Finding>) {
    let rmw = approach.spec().workload == Workload::ReadModifyWrite;
    let order = |g: &GrantRef| grants.iter().position(|(k, _)| k == g);
    let mut writes: Vec<Write> = Vec::new();
    let mut findings = Vec::new();
    // Highest grant index under which storage has accepted a write so far, with that write.
    let mut newest_accepted: Option<(usize, usize)> = None;
    for (i, e) in trace.events.iter().enumerate() {
        let EventKind::Note(Note::WriteApplied { client, grant, token, accepted, highest_before }) = &e.kind else { continue };
        let mine = order(grant);
        // A belief the service never granted (etcd 3.4.3's waiter whose key was gone): its
        // write is older than every grant, so stale once any write has been accepted.
        let ungranted = mine.is_none() && !rmw;
        let newer = stale_against(&writes, grants, mine, newest_accepted, rmw);
        // Read-modify-write has no takeover: every write is checked against its own read.
        let takeover_by =
            mine.filter(|_| !rmw).and_then(|m| grants[m + 1..].iter().find(|(k, g)| k.client != *client && g.at_ms <= e.at_ms));
        let after_takeover = takeover_by.is_some();
        let unfenced = token.is_none() && *accepted;
        let name = trace.name(*client).to_string();
        let tok = |t: &Option<u64>| approach.token_label(*t);
        let finding = |kind, text| Finding { kind, at_ms: e.at_ms, event: i, text };
        if let Some((w, newer_client)) = &newer {
            let (kind, text) = stale_finding(&name, newer_client, &tok(token), &tok(&writes[*w].token), *accepted, rmw, ungranted);
            findings.push(finding(kind, text));
        } else if !*accepted {
            // Not stale, yet rejected: the higher token storage had seen came from an earlier
            // grant (no write under a later one was accepted), so the token went back.
            let whom = if after_takeover { "a holder whose lock had meanwhile been taken over" } else { "the rightful holder" };
            findings.push(finding(
                FindingKind::HolderWriteRejected,
                format!(
                    "{name}'s write with {} was rejected though it was not stale: storage had accepted {} from an earlier holder (the token went back), so fencing blocked {whom}.",
                    tok(token),
                    tok(highest_before)
                ),
            ));
        } else if let Some((_, g)) = takeover_by {
            findings.push(finding(
                FindingKind::WriteAfterTakeover,
                format!(
                    "{name} wrote after {} took the lock but before storage had accepted any write of {}'s: no data lost yet, and highest-token-seen fencing cannot catch it.",
                    g.client, g.client
                ),
            ));
        }
        if unfenced && fencing {
            findings.push(finding(
                FindingKind::UnfencedWrite,
                format!("{name}'s write carried no fencing token, so storage had nothing to check."),
            ));
        }
        if let (true, Some(m)) = (*accepted, mine) {
            if newest_accepted.is_none_or(|(n, _)| m >= n) {
                newest_accepted = Some((m, writes.len()));
            }
        }
        let stale = newer.is_some();
        writes.push(Write { client: name, at_ms: e.at_ms, token: *token, accepted: *accepted, stale, after_takeover, unfenced, event: i });
    }
    (writes, findings)
}

/// The accepted write (its index in `writes`, its writer) that makes a write under grant
/// `mine` stale, if any. Under a lock: the newest accepted under a later grant (`newest`).
/// Read-modify-write (`rmw`): the first accepted after the read the write is based on.
fn stale_against(
    writes: &[Write],
    grants: &[(GrantRef, Grant)],
    mine: Option<usize>,
    newest: Option<(usize, usize)>,
    rmw: bool,
) -> Option<(usize, String)> {
    if rmw {
        let read = grants[mine?].1.event;
        let w = writes.iter().position(|w| w.accepted && w.event > read)?;
        return Some((w, writes[w].client.clone()));
    }
    match (mine, newest) {
        (Some(m), Some((n, w))) if n > m => Some((w, grants[n].1.client.clone())),
        // Under no grant at all: any accepted write under one is newer.
        (None, Some((n, w))) => Some((w, grants[n].1.client.clone())),
        _ => None,
    }
}

/// The finding of a stale write by `name` (its token `tok`), accepted or rejected, given the
/// newer write's client and token that make it stale; `ungranted`: the writer believed under a
/// lock the service never granted it.
fn stale_finding(name: &str, newer: &str, tok: &str, newer_tok: &str, accepted: bool, rmw: bool, ungranted: bool) -> (FindingKind, String) {
    match (accepted, rmw) {
        (true, false) if ungranted => (
            FindingKind::StaleWriteAccepted,
            format!("{name} wrote ({tok}) under a lock the service never granted it, after {newer} had written ({newer_tok}): {newer}'s update is lost."),
        ),
        (false, false) if ungranted => (
            FindingKind::StaleWriteRejected,
            format!("{name}'s write with {tok}, under a lock the service never granted it, was rejected: storage had already accepted {newer_tok}."),
        ),
        (true, false) => (
            FindingKind::StaleWriteAccepted,
            format!("{name} wrote ({tok}) after {newer}, who took the lock later, had written ({newer_tok}): {newer}'s update is lost."),
        ),
        (true, true) => (
            FindingKind::StaleWriteAccepted,
            format!("{name} wrote (based on {tok}) after {newer}'s write, accepted since {name}'s read: {newer}'s update is lost."),
        ),
        (false, false) => (
            FindingKind::StaleWriteRejected,
            format!("{name}'s stale write with {tok} was rejected: storage had already accepted {newer_tok}."),
        ),
        (false, true) => (
            FindingKind::StaleWriteRejected,
            format!("{name}'s write based on {tok} was refused (412): {newer}'s write was accepted after {name}'s read."),
        ),
    }
}

/// Tokens must rise with every grant; says where they do not (repeated or gone back).
fn token_findings(grants: &[(GrantRef, Grant)], approach: Approach) -> Vec<Finding> {
    let mut findings = Vec::new();
    for pair in grants.windows(2) {
        let (a, b) = (&pair[0].1, &pair[1].1);
        let (Some(ta), Some(tb)) = (a.token, b.token) else { continue };
        let (tok_a, tok_b) = (approach.token_label(Some(ta)), approach.token_label(Some(tb)));
        let (kind, text) = match tb.cmp(&ta) {
            std::cmp::Ordering::Greater => continue,
            std::cmp::Ordering::Equal => (
                FindingKind::TokenRepeated,
                format!("{} was granted {tok_b}, the same as {} before it: fencing cannot tell their writes apart.", b.client, a.client),
            ),
            std::cmp::Ordering::Less => (
                FindingKind::TokenRegressed,
                format!(
                    "{} was granted {tok_b}, lower than {}'s {tok_a} before it: highest-token-seen fencing will take {}'s writes for stale ones.",
                    b.client, a.client, b.client
                ),
            ),
        };
        findings.push(Finding { kind, at_ms: b.at_ms, event: b.event, text });
    }
    findings
}

/// What the service granted: a session's or lease's timeout where one was opened, else the TTL
/// of the first acquire request.
fn granted_ttl(trace: &Trace) -> Option<i64> {
    let opened = trace.events.iter().find_map(|e| match &e.kind {
        EventKind::Note(Note::SessionOpened { ttl_ms, .. }) => Some(*ttl_ms),
        _ => None,
    });
    opened.or_else(|| {
        trace.events.iter().find_map(|e| match &e.kind {
            EventKind::Sent { msg: Msg::Acquire { ttl_ms, .. }, .. } => Some(*ttl_ms),
            _ => None,
        })
    })
}

/// Intervals where two or more clients believed at once, and the most at any instant.
fn overlaps(trace: &Trace) -> (Vec<Overlap>, u32) {
    let beliefs = beliefs(trace);
    let end = trace.duration_ms;
    let mut cuts: Vec<Time> = beliefs.iter().flat_map(|b| [b.from_ms, b.to_ms.unwrap_or(end)]).collect();
    crate::sort::unique(&mut cuts);
    let mut out: Vec<Overlap> = Vec::new();
    let mut max = 0u32;
    for w in cuts.windows(2) {
        let (from, to) = (w[0], w[1]);
        let mut who: Vec<NodeId> = beliefs.iter().filter(|b| b.from_ms <= from && b.to_ms.unwrap_or(end) >= to).map(|b| b.client).collect();
        crate::sort::unique(&mut who);
        max = max.max(who.len() as u32);
        if who.len() < 2 {
            continue;
        }
        let names: Vec<String> = who.iter().map(|&c| trace.name(c).to_string()).collect();
        match out.last_mut() {
            Some(last) if last.to_ms == from && last.clients == names => last.to_ms = to,
            _ => out.push(Overlap { from_ms: from, to_ms: to, clients: names }),
        }
    }
    if max == 0 && !beliefs.is_empty() {
        max = 1; // instantaneous beliefs still count one holder
    }
    (out, max)
}

#[cfg(test)]
mod tests {
    //! The referee on hand-made traces: each finding kind, stale vs. after takeover, equal
    //! tokens, overlaps. Nodes: A 0, B 1, C 2, the lock server 3, storage 4.

    use super::*;
    use crate::protocols::{BeliefEnd, Event};
    use crate::sim::{NodeInfo, Role};

    const A: NodeId = 0;
    const B: NodeId = 1;
    const C: NodeId = 2;
    const SERVER: NodeId = 3;
    const STORAGE: NodeId = 4;

    fn trace(events: Vec<(Time, NodeId, EventKind)>) -> Trace {
        let node = |name: &str, role| NodeInfo { name: name.into(), role };
        Trace {
            nodes: vec![
                node("A", Role::Client),
                node("B", Role::Client),
                node("C", Role::Client),
                node("lock", Role::LockServer),
                node("storage", Role::Storage),
            ],
            duration_ms: 1000,
            events: events.into_iter().map(|(at_ms, node, kind)| Event { at_ms, node, kind }).collect(),
            truncated: false,
        }
    }

    /// The service commits `client`'s attempt and the client accepts it.
    fn granted(at: Time, client: NodeId, attempt: u32, token: Option<u64>) -> Vec<(Time, NodeId, EventKind)> {
        vec![
            (at, SERVER, EventKind::Note(Note::LockCommitted { client, attempt, token, expires_wall_ms: None })),
            (at + 1, client, EventKind::Note(Note::BeliefStarted { attempt, token, validity_ms: None })),
        ]
    }

    fn ended(at: Time, client: NodeId) -> (Time, NodeId, EventKind) {
        (at, client, EventKind::Note(Note::BeliefEnded { reason: BeliefEnd::Released }))
    }

    fn wrote(
        at: Time,
        client: NodeId,
        attempt: u32,
        token: Option<u64>,
        accepted: bool,
        highest_before: Option<u64>,
    ) -> (Time, NodeId, EventKind) {
        let grant = GrantRef { client, attempt };
        (at, STORAGE, EventKind::Note(Note::WriteApplied { client, grant, token, accepted, highest_before }))
    }

    fn judge(events: Vec<(Time, NodeId, EventKind)>, fencing: bool) -> Verdict {
        verdict(&trace(events), "t", Approach::Redis, fencing, 1, 1)
    }

    fn kinds(v: &Verdict) -> Vec<FindingKind> {
        v.findings.iter().map(|f| f.kind).collect()
    }

    /// A holds token 1, B takes over with 2 and writes; then A's write arrives.
    fn takeover_then_old_write(a_accepted: bool) -> Vec<(Time, NodeId, EventKind)> {
        let mut e = granted(10, A, 1, Some(1));
        e.extend(granted(100, B, 1, Some(2)));
        e.push(wrote(120, B, 1, Some(2), true, None));
        e.push(wrote(150, A, 1, Some(1), a_accepted, Some(2)));
        e
    }

    #[test]
    fn a_write_under_an_older_grant_after_a_newer_accepted_write_is_stale() {
        let v = judge(takeover_then_old_write(true), false);
        assert_eq!(kinds(&v), [FindingKind::StaleWriteAccepted]);
        let w = &v.writes[1];
        assert!(w.stale && w.accepted && w.after_takeover && w.client == "A");
        assert_eq!((v.stale_writes_accepted, v.stale_writes_rejected, v.safe), (1, 0, false));
        assert_eq!(v.findings[0].event, 5, "the finding points at the storage event");
        assert!(v.findings[0].text.starts_with("A wrote (token 1) after B"), "{}", v.findings[0].text);
    }

    #[test]
    fn a_stale_write_that_storage_rejects_is_counted_as_rejected_and_safe() {
        let v = judge(takeover_then_old_write(false), true);
        assert_eq!(kinds(&v), [FindingKind::StaleWriteRejected]);
        assert_eq!((v.stale_writes_accepted, v.stale_writes_rejected, v.safe), (0, 1, true));
    }

    #[test]
    fn a_write_after_a_takeover_but_before_the_new_holder_wrote_is_not_stale() {
        let mut e = granted(10, A, 1, Some(1));
        e.extend(granted(100, B, 1, Some(2)));
        e.push(wrote(110, A, 1, Some(1), true, None));
        e.push(wrote(120, B, 1, Some(2), true, Some(1)));
        let v = judge(e, false);
        assert_eq!(kinds(&v), [FindingKind::WriteAfterTakeover]);
        assert!(!v.writes[0].stale && v.writes[0].after_takeover);
        assert!(!v.writes[1].stale && !v.writes[1].after_takeover);
        assert!(v.safe);
    }

    #[test]
    fn a_write_before_any_takeover_is_neither() {
        let mut e = granted(10, A, 1, Some(1));
        e.push(wrote(20, A, 1, Some(1), true, None));
        e.push(ended(30, A));
        e.extend(granted(100, B, 1, Some(2)));
        e.push(wrote(120, B, 1, Some(2), true, Some(1)));
        let v = judge(e, true);
        assert!(v.findings.is_empty() && v.writes.iter().all(|w| !w.stale && !w.after_takeover), "{v:#?}");
        assert_eq!(
            v.grants.iter().map(|g| (g.client.as_str(), g.at_ms, g.token)).collect::<Vec<_>>(),
            [("A", 10, Some(1)), ("B", 100, Some(2))]
        );
    }

    #[test]
    fn equal_tokens_are_repeated_and_the_stale_write_with_one_is_accepted() {
        // A failover or a restart without persistence: B is handed A's number again.
        let mut e = granted(10, A, 1, Some(1));
        e.extend(granted(100, B, 1, Some(1)));
        e.push(wrote(120, B, 1, Some(1), true, None));
        e.push(wrote(150, A, 1, Some(1), true, Some(1)));
        let v = judge(e, true);
        assert_eq!(kinds(&v), [FindingKind::TokenRepeated, FindingKind::StaleWriteAccepted]);
        assert_eq!(v.findings[0].event, 2, "at B's grant");
        assert_eq!(v.findings[0].text, "B was granted token 1, the same as A before it: fencing cannot tell their writes apart.");
        assert!(!v.safe);
    }

    #[test]
    fn a_lower_token_for_the_newest_holder_makes_fencing_reject_it() {
        // db-lease with a plain DELETE: C's fresh row starts again at 1 after B's 2.
        let mut e = granted(10, B, 1, Some(2));
        e.push(wrote(20, B, 1, Some(2), true, None));
        e.extend(granted(100, C, 1, Some(1)));
        e.push(wrote(120, C, 1, Some(1), false, Some(2)));
        let v = judge(e, true);
        assert_eq!(kinds(&v), [FindingKind::TokenRegressed, FindingKind::HolderWriteRejected]);
        assert!(!v.writes[1].stale, "the newest holder's write is not stale");
        assert!(v.findings[0].text.starts_with("C was granted token 1, lower than B's token 2"), "{}", v.findings[0].text);
        assert!(v.findings[1].text.contains("blocked the rightful holder"));
        assert_eq!((v.stale_writes_rejected, v.safe), (0, true));
    }

    #[test]
    fn a_write_without_a_token_is_unfenced_only_when_fencing_is_on() {
        let mut e = granted(10, A, 1, None);
        e.push(wrote(20, A, 1, None, true, None));
        assert_eq!(kinds(&judge(e.clone(), true)), [FindingKind::UnfencedWrite]);
        assert!(judge(e, false).findings.is_empty());
    }

    #[test]
    fn a_commit_the_client_never_accepted_is_no_grant_and_redlock_grants_at_the_quorum_th_commit() {
        let commit = |at, client, attempt| {
            (at, SERVER, EventKind::Note(Note::LockCommitted { client, attempt, token: None, expires_wall_ms: None }))
        };
        let e = vec![
            commit(5, A, 1), // attempt 1: refused by the client (no validity left)
            commit(10, A, 2),
            commit(12, A, 2),
            commit(15, A, 2),
            (20, A, EventKind::Note(Note::BeliefStarted { attempt: 2, token: None, validity_ms: Some(900) })),
        ];
        let v = verdict(&trace(e.clone()), "t", Approach::Redlock, false, 1, 3);
        assert_eq!(v.grants.iter().map(|g| (g.at_ms, g.event)).collect::<Vec<_>>(), [(15, 3)]);
        let short = verdict(&trace(e[..3].iter().cloned().chain([e[4].clone()]).collect()), "t", Approach::Redlock, false, 1, 3);
        assert!(short.grants.is_empty(), "two commits are not a majority of five");
    }

    #[test]
    fn overlaps_are_the_intervals_with_two_or_more_believers() {
        let mut e = granted(10, A, 1, Some(1)); // A believes from 11
        e.extend(granted(29, B, 1, Some(2))); // B from 30
        e.extend(granted(39, C, 1, Some(3))); // C from 40
        e.push((45, C, EventKind::Crashed { machine: false })); // a crash ends a belief
        e.push(ended(50, A));
        // B still believes when the run ends (1000).
        let v = judge(e, false);
        let spans: Vec<(Time, Time, Vec<&str>)> =
            v.overlaps.iter().map(|o| (o.from_ms, o.to_ms, o.clients.iter().map(String::as_str).collect())).collect();
        assert_eq!(spans, [(30, 40, vec!["A", "B"]), (40, 45, vec!["A", "B", "C"]), (45, 50, vec!["A", "B"])]);
        assert_eq!(v.max_concurrent_holders, 3);
        let b = beliefs(&trace(granted(29, B, 1, None)));
        assert_eq!(b, [Belief { client: B, from_ms: 30, to_ms: None }]);
    }

    #[test]
    fn one_holder_at_a_time_is_no_overlap() {
        let mut e = granted(10, A, 1, Some(1));
        e.push(ended(20, A));
        e.extend(granted(20, B, 1, Some(2)));
        let v = judge(e, false);
        assert!(v.overlaps.is_empty());
        assert_eq!(v.max_concurrent_holders, 1);
        assert_eq!(judge(Vec::new(), false).max_concurrent_holders, 0);
    }

    #[test]
    fn the_granted_ttl_is_the_sessions_else_the_asked_one() {
        let asked = (
            0,
            A,
            EventKind::Sent {
                msg_id: 1,
                to: SERVER,
                msg: Msg::Acquire { req: 1, attempt: 1, value: 7, ttl_ms: 2000 },
                arrives_at_ms: Some(2),
                lost: None,
            },
        );
        assert_eq!(judge(vec![asked.clone()], false).granted_ttl_ms, Some(2000));
        let opened = (3, SERVER, EventKind::Note(Note::SessionOpened { client: A, session: 1, ttl_ms: 4000 }));
        assert_eq!(judge(vec![asked, opened], false).granted_ttl_ms, Some(4000));
        assert_eq!(judge(Vec::new(), false).granted_ttl_ms, None);
    }

    #[test]
    fn expect_mismatches_name_each_field_that_differs() {
        let v = judge(takeover_then_old_write(true), false);
        let claim =
            Outcome { safe: Some(true), stale_writes_accepted: Some(1), stale_writes_rejected: None, max_concurrent_holders: Some(1) };
        let m = v.mismatches(&claim);
        let fields: Vec<(&str, &str, &str)> = m.iter().map(|m| (m.field, m.expected.as_str(), m.actual.as_str())).collect();
        assert_eq!(fields, [("safe", "true", "false"), ("max_concurrent_holders", "1", "2")]);
    }
}
