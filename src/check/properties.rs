//! Properties as data (docs/ARCHITECTURE.md, "Properties are data"; stateright's `always` / `sometimes` /
//! `eventually`): each has a stable id (the CLI's `--property`, a URL's), a kind, a sentence a
//! student can read, and a check over one run. The verdict's `safe`, the explorer's classes
//! (`explore::class`) and the property tests are read off them; the explorer can search any
//! of them (`Explorer::searching`).
//!
//! A check gives the run's *discovery* for its property, with the evidence where it is: for
//! an `always` property the first place it is broken, for an `eventually` one the fact that it
//! never came true, for a `sometimes` one the first place it is seen. `Property::outcome` says
//! what that means for the run: held, violated, witnessed or not witnessed.

pub use super::invariants::{CLOCKS_MOVE_AS_THE_FAULTS_SAY, EVERY_BELIEF_ENDS_AT_AN_EVENT, HANDLED_ONLY_WHEN_UP, NETWORK_OBEYS_THE_FAULTS};
use super::{FindingKind, Verdict};
use crate::protocols::{EventKind, Note, Trace};
use crate::scenario::Scenario;
use crate::sim::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// True in every run, at every moment: a run that breaks it is a counterexample.
    Always,
    /// True in some run: a run that shows it is a witness.
    Sometimes,
    /// Comes true in every run by its end: a run where it never does is a counterexample.
    Eventually,
}

impl PropertyKind {
    pub fn id(self) -> &'static str {
        match self {
            PropertyKind::Always => "always",
            PropertyKind::Sometimes => "sometimes",
            PropertyKind::Eventually => "eventually",
        }
    }

    /// How a count of runs that show a property of this kind reads: "broken in" 3 of 500.
    pub fn shown_in(self) -> &'static str {
        match self {
            PropertyKind::Always => "broken in",
            PropertyKind::Eventually => "never came true in",
            PropertyKind::Sometimes => "seen in",
        }
    }

    /// What a search that found no such run says of the runs: "it held in every one" of 500.
    pub fn none_shown(self) -> &'static str {
        match self {
            PropertyKind::Always => "it held in every one",
            PropertyKind::Eventually => "it came true in every one",
            PropertyKind::Sometimes => "it was seen in none",
        }
    }
}

/// Where a run shows what a property is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// When, in true ms; None for what never happened (it is decided at the end of the run).
    pub at_ms: Option<Time>,
    /// The trace event it points at, when there is one: an index into the trace the check
    /// read (a judged run's lean trace, `lab::judge`, has other indices than the full run's).
    pub event: Option<usize>,
    pub text: String,
}

/// What a property's check reads.
#[derive(Clone, Copy)]
pub enum Check {
    /// The verdict alone: a judged run (`lab::judge`) is enough.
    Verdict(fn(&Verdict) -> Option<Evidence>),
    /// The scenario and the whole trace, messages included (`lab::run`'s).
    Trace(fn(&Scenario, &Trace) -> Option<Evidence>),
}

/// A named property of runs.
#[derive(Clone, Copy)]
pub struct Property {
    /// Stable, kebab-case: the CLI's `--property`, a URL's.
    pub id: &'static str,
    pub kind: PropertyKind,
    /// One line a student can read, what holds when all is well ("no stale write is accepted").
    pub statement: &'static str,
    /// The run's discovery, if it has one (see the module).
    pub check: Check,
}

/// What one run says of a property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An `always` property never broken, an `eventually` one that came true.
    Held,
    Violated(Evidence),
    /// A `sometimes` property seen in this run.
    Witnessed(Evidence),
    NotWitnessed,
}

impl Outcome {
    /// "held", "violated", "witnessed", "not witnessed".
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Held => "held",
            Outcome::Violated(_) => "violated",
            Outcome::Witnessed(_) => "witnessed",
            Outcome::NotWitnessed => "not witnessed",
        }
    }

    pub fn evidence(&self) -> Option<&Evidence> {
        match self {
            Outcome::Violated(e) | Outcome::Witnessed(e) => Some(e),
            Outcome::Held | Outcome::NotWitnessed => None,
        }
    }
}

impl Property {
    /// The run's discovery for this property: a violation (`always`, `eventually`) or a
    /// witness (`sometimes`), with where it is.
    pub fn discovery(&self, scenario: &Scenario, trace: &Trace, verdict: &Verdict) -> Option<Evidence> {
        match self.check {
            Check::Verdict(f) => f(verdict),
            Check::Trace(f) => f(scenario, trace),
        }
    }

    pub fn outcome(&self, scenario: &Scenario, trace: &Trace, verdict: &Verdict) -> Outcome {
        match (self.kind, self.discovery(scenario, trace, verdict)) {
            (PropertyKind::Sometimes, Some(e)) => Outcome::Witnessed(e),
            (PropertyKind::Sometimes, None) => Outcome::NotWitnessed,
            (_, Some(e)) => Outcome::Violated(e),
            (_, None) => Outcome::Held,
        }
    }

    /// What a run with this property's discovery shows, as a noun phrase (a counterexample's
    /// title, a search's result): "a run breaking “at most one client believes …”".
    pub fn found_words(&self) -> String {
        match self.kind {
            PropertyKind::Always => format!("a run breaking “{}”", self.statement),
            PropertyKind::Eventually => format!("a run where “{}” never came true", self.statement),
            PropertyKind::Sometimes => format!("a run where {}", self.statement),
        }
    }

    /// Whether the check needs the whole trace (a judged run's verdict is not enough).
    pub fn reads_trace(&self) -> bool {
        matches!(self.check, Check::Trace(_))
    }
}

impl PartialEq for Property {
    fn eq(&self, other: &Property) -> bool {
        self.id == other.id
    }
}

impl std::fmt::Debug for Property {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Property({})", self.id)
    }
}

pub const NO_LOST_UPDATE: Property = Property {
    id: "no-lost-update",
    kind: PropertyKind::Always,
    statement: "no stale write is accepted: no holder's update is lost",
    check: Check::Verdict(lost_update),
};

pub const TOKENS_RISE: Property = Property {
    id: "tokens-rise",
    kind: PropertyKind::Always,
    statement: "every grant's token is higher than the one before: a token is never handed out twice",
    check: Check::Verdict(token_not_risen),
};

pub const ONE_BELIEVER: Property = Property {
    id: "one-believer",
    kind: PropertyKind::Always,
    statement: "at most one client believes it holds the lock at any time",
    check: Check::Verdict(two_believers),
};

pub const HOLDER_WRITES_ACCEPTED: Property = Property {
    id: "holder-writes-accepted",
    kind: PropertyKind::Always,
    statement: "storage never rejects a write made under the newest grant",
    check: Check::Verdict(holder_write_rejected),
};

pub const WRITES_FENCED: Property = Property {
    id: "writes-fenced",
    kind: PropertyKind::Always,
    statement: "with fencing on, every write storage accepts carries a token to check",
    check: Check::Verdict(unfenced_write),
};

pub const LOCK_GRANTED: Property = Property {
    id: "lock-granted",
    kind: PropertyKind::Eventually,
    statement: "some client eventually gets the lock",
    check: Check::Verdict(never_granted),
};

pub const EVERY_CLIENT_GETS_THE_LOCK: Property = Property {
    id: "every-client-gets-the-lock",
    kind: PropertyKind::Eventually,
    statement: "every client eventually gets the lock and finishes its job",
    check: Check::Trace(client_never_served),
};

pub const STALE_WRITE_REJECTED: Property = Property {
    id: "stale-write-rejected",
    kind: PropertyKind::Sometimes,
    statement: "fencing rejects a stale write",
    check: Check::Verdict(stale_write_rejected),
};

pub const WRITE_AFTER_TAKEOVER: Property = Property {
    id: "write-after-takeover",
    kind: PropertyKind::Sometimes,
    statement: "a client writes after another took the lock over, before the new holder wrote",
    check: Check::Verdict(write_after_takeover),
};

/// Every property, safety first, then liveness, then what a run may show, then the trace
/// invariants the simulator keeps.
static ALL: [Property; 13] = [
    NO_LOST_UPDATE,
    TOKENS_RISE,
    ONE_BELIEVER,
    HOLDER_WRITES_ACCEPTED,
    WRITES_FENCED,
    LOCK_GRANTED,
    EVERY_CLIENT_GETS_THE_LOCK,
    STALE_WRITE_REJECTED,
    WRITE_AFTER_TAKEOVER,
    HANDLED_ONLY_WHEN_UP,
    NETWORK_OBEYS_THE_FAULTS,
    CLOCKS_MOVE_AS_THE_FAULTS_SAY,
    EVERY_BELIEF_ENDS_AT_AN_EVENT,
];

/// Every property, in a fixed order.
pub fn all() -> &'static [Property] {
    &ALL
}

/// The trace invariants: every run of the simulator keeps them.
pub fn invariants() -> &'static [Property] {
    &ALL[ALL.len() - 4..]
}

pub fn by_id(id: &str) -> Option<&'static Property> {
    ALL.iter().find(|p| p.id == id)
}

/// One line for a list of properties: id, kind and statement, the ids padded to line up.
pub fn describe_line(p: &Property) -> String {
    let width = ALL.iter().map(|p| p.id.len()).max().unwrap_or(0);
    format!("{:<width$}  {:<10}  {}", p.id, p.kind.id(), p.statement)
}

/// The first finding of one of `kinds`, as evidence.
fn first(v: &Verdict, kinds: &[FindingKind]) -> Option<Evidence> {
    let f = v.findings.iter().find(|f| kinds.contains(&f.kind))?;
    Some(Evidence { at_ms: Some(f.at_ms), event: Some(f.event), text: f.text.clone() })
}

/// Evidence with no place in the trace (a verdict edited by hand, or what never happened).
fn nowhere(text: String) -> Evidence {
    Evidence { at_ms: None, event: None, text }
}

/// Counted, as `Verdict::safe` counts it, and shown at its first finding.
pub(super) fn lost_update(v: &Verdict) -> Option<Evidence> {
    (v.stale_writes_accepted > 0).then(|| {
        first(v, &[FindingKind::StaleWriteAccepted])
            .unwrap_or_else(|| nowhere(format!("{} stale writes accepted", v.stale_writes_accepted)))
    })
}

fn token_not_risen(v: &Verdict) -> Option<Evidence> {
    first(v, &[FindingKind::TokenRepeated, FindingKind::TokenRegressed])
}

fn two_believers(v: &Verdict) -> Option<Evidence> {
    // Clients between a read and their conditional write claim no lock: not a finding.
    let locked = v.approach.spec().workload == crate::protocols::spec::Workload::UnderLock;
    (locked && v.max_concurrent_holders >= 2).then(|| match v.overlaps.first() {
        Some(o) => Evidence {
            at_ms: Some(o.from_ms),
            event: None,
            text: format!("{} believed they held the lock at once, from {} to {} ms.", o.clients.join(" and "), o.from_ms, o.to_ms),
        },
        None => nowhere(format!("{} clients believed they held the lock at once", v.max_concurrent_holders)),
    })
}

fn holder_write_rejected(v: &Verdict) -> Option<Evidence> {
    first(v, &[FindingKind::HolderWriteRejected])
}

fn unfenced_write(v: &Verdict) -> Option<Evidence> {
    first(v, &[FindingKind::UnfencedWrite])
}

fn never_granted(v: &Verdict) -> Option<Evidence> {
    v.grants.is_empty().then(|| nowhere("No client ever got the lock.".into()))
}

fn stale_write_rejected(v: &Verdict) -> Option<Evidence> {
    first(v, &[FindingKind::StaleWriteRejected])
}

fn write_after_takeover(v: &Verdict) -> Option<Evidence> {
    first(v, &[FindingKind::WriteAfterTakeover])
}

/// The first client whose last process (since its last restart) did not both get the lock and
/// then finish its job.
fn client_never_served(s: &Scenario, trace: &Trace) -> Option<Evidence> {
    let events = &trace.events;
    s.clients.iter().enumerate().find_map(|(i, c)| {
        let since = events.iter().rposition(|e| e.node == i && matches!(e.kind, EventKind::Restarted)).unwrap_or(0);
        let mine = || events[since..].iter().filter(|e| e.node == i);
        let held = mine().position(|e| matches!(e.kind, EventKind::Note(Note::BeliefStarted { .. })));
        let done = mine().position(|e| matches!(e.kind, EventKind::Note(Note::Finished)));
        match (held, done) {
            (Some(h), Some(d)) if h < d => None,
            _ => Some(nowhere(format!("{} (its last process since event {since}) held {held:?}, finished {done:?}", c.name))),
        }
    })
}
