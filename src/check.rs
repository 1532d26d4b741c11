//! Ground truth and the verdict (DESIGN.md, "Ground truth"; SCENARIO_FORMAT.md, "Verdict").
//! Reads only the trace.

use serde::Serialize;

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

/// Grants the clients accepted, in commit order, keyed by their `GrantRef`.
fn grants(trace: &Trace, quorum: usize) -> Vec<(GrantRef, Grant)> {
    // Commit events per (client, attempt); the grant happens at the quorum-th commit.
    let mut commits: Vec<(GrantRef, Vec<(usize, Time, Option<u64>)>)> = Vec::new();
    let mut accepted: Vec<GrantRef> = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        match &e.kind {
            EventKind::Note(Note::LockCommitted { client, attempt, token, .. }) => {
                let key = GrantRef { client: *client, attempt: *attempt };
                match commits.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => v.push((i, e.at_ms, *token)),
                    None => commits.push((key, vec![(i, e.at_ms, *token)])),
                }
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

/// Judges a trace.
pub fn verdict(trace: &Trace, id: &str, approach: Approach, fencing: bool, seed: u64, quorum: usize) -> Verdict {
    let grants = grants(trace, quorum.max(1));
    let order = |g: &GrantRef| grants.iter().position(|(k, _)| k == g);
    let mut writes = Vec::new();
    let mut findings = Vec::new();
    // Highest grant index under which storage has accepted a write so far, with that write.
    let mut newest_accepted: Option<(usize, usize)> = None;
    for (i, e) in trace.events.iter().enumerate() {
        let EventKind::Note(Note::WriteApplied { client, grant, token, accepted, highest_before }) = &e.kind else { continue };
        let mine = order(grant);
        let stale = matches!((mine, newest_accepted), (Some(m), Some((n, _))) if n > m);
        let takeover_by = mine.and_then(|m| grants[m + 1..].iter().find(|(k, g)| k.client != *client && g.at_ms <= e.at_ms));
        let after_takeover = takeover_by.is_some();
        let unfenced = token.is_none() && *accepted;
        let name = trace.name(*client).to_string();
        let tok = |t: &Option<u64>| approach.token_label(*t);
        if stale {
            let (n, w) = newest_accepted.expect("stale implies a newer accepted write");
            let newer: &Write = &writes[w];
            let newer_client = &grants[n].1.client;
            let (kind, text) = if *accepted {
                (
                    FindingKind::StaleWriteAccepted,
                    format!(
                        "{name} wrote ({}) after {newer_client}, who took the lock later, had written ({}): {newer_client}'s update is lost.",
                        tok(token),
                        tok(&newer.token)
                    ),
                )
            } else {
                (
                    FindingKind::StaleWriteRejected,
                    format!("{name}'s stale write with {} was rejected: storage had already accepted {}.", tok(token), tok(&newer.token)),
                )
            };
            findings.push(Finding { kind, at_ms: e.at_ms, event: i, text });
        } else if let Some((_, g)) = takeover_by {
            findings.push(Finding {
                kind: FindingKind::WriteAfterTakeover,
                at_ms: e.at_ms,
                event: i,
                text: format!(
                    "{name} wrote after {} took the lock but before storage had accepted any write of {}'s: no data lost yet, and highest-token-seen fencing cannot catch it.",
                    g.client, g.client
                ),
            });
        } else if let (false, Some(_), Some(h)) = (*accepted, mine, highest_before) {
            findings.push(Finding {
                kind: FindingKind::HolderWriteRejected,
                at_ms: e.at_ms,
                event: i,
                text: format!(
                    "{name}'s write ({}) was rejected though {name} held the newest grant: storage had already accepted {} under an older one. The token went backwards, so fencing blocked the rightful holder.",
                    tok(token),
                    tok(&Some(*h))
                ),
            });
        }
        if unfenced && fencing {
            findings.push(Finding {
                kind: FindingKind::UnfencedWrite,
                at_ms: e.at_ms,
                event: i,
                text: format!("{name}'s write carried no fencing token, so storage had nothing to check."),
            });
        }
        if *accepted {
            if let Some(m) = mine {
                if newest_accepted.is_none_or(|(n, _)| m >= n) {
                    newest_accepted = Some((m, writes.len()));
                }
            }
        }
        writes.push(Write { client: name, at_ms: e.at_ms, token: *token, accepted: *accepted, stale, after_takeover, unfenced, event: i });
    }
    // Tokens must rise with every grant; say where they do not.
    for pair in grants.windows(2) {
        let (a, b) = (&pair[0].1, &pair[1].1);
        if let (Some(ta), Some(tb)) = (a.token, b.token) {
            let kind = match tb.cmp(&ta) {
                std::cmp::Ordering::Equal => Some(FindingKind::TokenRepeated),
                std::cmp::Ordering::Less => Some(FindingKind::TokenRegressed),
                std::cmp::Ordering::Greater => None,
            };
            if let Some(kind) = kind {
                let (tok_a, tok_b) = (approach.token_label(Some(ta)), approach.token_label(Some(tb)));
                let text = if kind == FindingKind::TokenRepeated {
                    format!("{} was granted {tok_b}, the same as {} before it: fencing cannot tell their writes apart.", b.client, a.client)
                } else {
                    format!(
                        "{} was granted {tok_b}, lower than {}'s {tok_a} before it: highest-token-seen fencing will take {}'s writes for stale ones.",
                        b.client, a.client, b.client
                    )
                };
                findings.push(Finding { kind, at_ms: b.at_ms, event: b.event, text });
            }
        }
    }
    crate::sort::by_key(&mut findings, |f| (f.at_ms, f.event));
    let (overlaps, max_concurrent_holders) = overlaps(trace);
    let stale_writes_accepted = writes.iter().filter(|w| w.stale && w.accepted).count() as u32;
    let stale_writes_rejected = writes.iter().filter(|w| w.stale && !w.accepted).count() as u32;
    Verdict {
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
        safe: stale_writes_accepted == 0,
        granted_ttl_ms: granted_ttl(trace),
        truncated_at_ms: trace.truncated.then(|| trace.events.last().map_or(0, |e| e.at_ms)),
    }
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
