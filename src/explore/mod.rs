//! The explorer: draws fault schedules for a base scenario from one seed, runs each, sorts the
//! outcomes into classes (`class`), keeps the first counterexamples and shrinks them
//! (`shrink`); the seed's table (`table`) and sweeps (`sweep`) are built on it. `search` runs
//! the same schedules looking for any named property instead of the classes.
//!
//! Deterministic by construction: schedule `i` is drawn from a stream keyed by (explorer seed,
//! i) alone, and outcomes are folded in index order, so the same (base, mix, seed, N) gives the
//! same counts and counterexamples in one batch or many, on one thread or several, natively
//! or in the browser. Plain Rust with no threads of its own: the page drives `Explorer` in
//! time slices (`run_batch`); the CLI runs batches on all cores (`run_batch_parallel`, native
//! only).
//!
//! A schedule is the base scenario with its own faults replaced by 1..=`max_faults` faults
//! drawn from the mix (`scenario::fault::draw`) and its own network seed; its `expect` is
//! dropped (it was the author's claim about the author's faults).

pub mod class;
pub mod partial;
pub mod rate;
pub mod shrink;
pub mod sweep;
pub mod table;

use crate::check::properties::Property;
use crate::lab;
use crate::scenario::fault::{self, FaultKind, Space};
use crate::scenario::limits::MAX_FAULTS;
use crate::scenario::validate::node_names;
use crate::scenario::{Expect, Outcome, Scenario};
use crate::sim::rng::Stream;

pub use class::{Class, Counts, Judged, Target};
pub use partial::Partial;

/// Which faults the explorer draws, and from where.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    /// The kinds it draws from (each fault's kind uniformly among them).
    pub kinds: Vec<FaultKind>,
    /// Each schedule has 1..=`max_faults` faults.
    pub max_faults: usize,
    /// The nodes a fault may name; None: every node of the base scenario.
    pub nodes: Option<Vec<String>>,
    /// When faults may strike, in true ms; None: the whole run.
    pub window_ms: Option<(i64, i64)>,
    /// Ranges replacing a number's default draw range: `(kind, field, lo, hi)`.
    pub ranges: Vec<(FaultKind, &'static str, i64, i64)>,
}

impl Mix {
    /// Every kind the format has, up to three at a time, anywhere, any time.
    pub fn full() -> Mix {
        Mix::of(&FaultKind::ALL)
    }

    /// These kinds, up to three at a time, anywhere, any time.
    pub fn of(kinds: &[FaultKind]) -> Mix {
        Mix { kinds: kinds.to_vec(), max_faults: 3, nodes: None, window_ms: None, ranges: Vec::new() }
    }

    /// "up to 3 of pause, crash on A, B" — for reports.
    pub fn words(&self) -> String {
        let kinds: Vec<&str> = self.kinds.iter().map(|k| k.id()).collect();
        let nodes = self.nodes.as_ref().map_or_else(|| "any node".to_string(), |n| n.join(", "));
        let mut out = format!("up to {} of {} on {nodes}", self.max_faults, kinds.join(", "));
        if let Some((from, to)) = self.window_ms {
            out += &format!(" from {from} to {to} ms");
        }
        for (kind, field, lo, hi) in &self.ranges {
            out += &format!(", {}.{field} {lo}..{hi}", kind.id());
        }
        out
    }
}

/// A mix that cannot be explored on a base, naming the part of the mix that is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MixError {
    /// `kinds`, `max_faults`, `nodes`, `window_ms`, `ranges`, or `base` (an invalid base).
    pub field: &'static str,
    pub message: String,
}

impl std::fmt::Display for MixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// A kept counterexample: the schedule that showed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub index: u64,
    pub class: Class,
    pub scenario: Scenario,
    /// Its faults' kinds and nodes, without the numbers: two counterexamples with the same
    /// signature count as one.
    pub signature: String,
}

/// Where a search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub runs: u64,
    pub total: u64,
    pub counts: Counts,
    /// Of the runs, how many showed the property searched for (0 in a search of classes).
    pub shown: u64,
    /// Of the runs, how many handed a token out again (or back), whatever their class.
    pub token_repeats: u64,
}

impl Progress {
    pub fn done(&self) -> bool {
        self.runs >= self.total
    }
}

/// What a finished (or stopped) search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub runs: u64,
    pub counts: Counts,
    /// As `Progress::shown`.
    pub shown: u64,
    /// As `Progress::token_repeats`.
    pub token_repeats: u64,
    /// The first `KEEP` distinct counterexamples of each class, by class then schedule index;
    /// in a search for a property, the first `KEEP` distinct runs that show it, by index.
    pub found: Vec<Found>,
}

impl Report {
    /// The first counterexample of `class`.
    pub fn first(&self, class: Class) -> Option<&Found> {
        self.found.iter().find(|f| f.class == class)
    }

    /// The first counterexample of the most harmful class found.
    pub fn worst(&self) -> Option<&Found> {
        Class::ALL.into_iter().find_map(|c| self.first(c))
    }
}

/// How many distinct counterexamples of each class a search keeps.
pub const KEEP: usize = 3;

/// A search of `total` schedules, run in batches: of the classes (every run counted by its
/// class, a few of each unsafe class kept), or, made with `searching`, of one named property
/// (every run still counted by class; the runs that show the property kept).
pub struct Explorer {
    base: Scenario,
    names: Vec<String>,
    nodes: Vec<String>,
    window_ms: (i64, i64),
    mix: Mix,
    seed: u64,
    total: u64,
    next: u64,
    counts: Counts,
    found: Vec<Found>,
    property: Option<&'static Property>,
    shown: u64,
    token_repeats: u64,
}

/// Stream keys of the schedules (any fixed tag: the explorer's streams are its own).
const SCHEDULE_KEY: u64 = 0x5343_4845_0000_0000;

impl Explorer {
    /// A search of `total` schedules of `mix` on `base` (a valid scenario), drawn from `seed`.
    pub fn new(base: &Scenario, mix: Mix, seed: u64, total: u64) -> Result<Explorer, MixError> {
        let bad = |field, message: String| Err(MixError { field, message });
        if let Err(e) = crate::scenario::validate::validate(base) {
            return bad("base", e.to_string());
        }
        let names = node_names(base);
        if mix.kinds.is_empty() {
            return bad("kinds", "no fault kinds to draw from".into());
        }
        if !(1..=MAX_FAULTS).contains(&mix.max_faults) {
            return bad("max_faults", format!("{} is out of range: must be 1..={MAX_FAULTS}", mix.max_faults));
        }
        if let Some(nodes) = &mix.nodes {
            if nodes.is_empty() {
                return bad("nodes", "no nodes to strike".into());
            }
            if let Some(n) = nodes.iter().find(|n| !names.contains(n)) {
                return bad("nodes", format!("no node named \"{n}\" ({} has {})", base.approach.id(), names.join(", ")));
            }
        }
        let window_ms = mix.window_ms.unwrap_or((0, base.duration_ms));
        if window_ms.0 < 0 || window_ms.0 > window_ms.1 || window_ms.1 > base.duration_ms {
            return bad("window_ms", format!("{}..{} ms is not within the run (0..{} ms)", window_ms.0, window_ms.1, base.duration_ms));
        }
        for (kind, field, lo, hi) in &mix.ranges {
            let number = kind.param(field).and_then(|(_, p)| match p.ty {
                fault::Ty::Number(n) => Some(n),
                _ => None,
            });
            match number {
                None => return bad("ranges", format!("{} has no number called {field}", kind.id())),
                Some(n) if lo > hi || *lo < n.lo || *hi > n.hi => {
                    return bad("ranges", format!("{}.{field}: {lo}..{hi} is not within {}..{} {}", kind.id(), n.lo, n.hi, n.unit))
                }
                Some(_) => {}
            }
        }
        let mut bare = base.clone();
        bare.faults.clear();
        bare.expect = None;
        bare.intro.clear();
        let nodes = mix.nodes.clone().unwrap_or_else(|| names.clone());
        let counts = Counts::default();
        Ok(Explorer {
            base: bare,
            names,
            nodes,
            window_ms,
            mix,
            seed,
            total,
            next: 0,
            counts,
            found: Vec::new(),
            property: None,
            shown: 0,
            token_repeats: 0,
        })
    }

    /// The same schedules, searched for the runs that show `property`:
    ///
    /// ```
    /// use locklab::check::properties;
    /// use locklab::explore::{Explorer, Mix};
    /// let base = locklab::scenario::catalog::get("happy-path-redis").unwrap();
    /// let property = properties::by_id("one-believer").unwrap();
    /// let mut search = Explorer::new(&base, Mix::full(), 7, 40).unwrap().searching(property);
    /// let report = { search.run_batch(40); search.report() };
    /// if let Some(first) = report.found.first() {
    ///     let smallest = locklab::explore::shrink::shrink(&first.scenario, property);
    ///     assert!(smallest.after.faults.len() <= first.scenario.faults.len());
    /// }
    /// ```
    pub fn searching(mut self, property: &'static Property) -> Explorer {
        self.property = Some(property);
        self
    }

    /// What its counterexamples show: the property searched for, else each one's class.
    pub fn target(&self, f: &Found) -> Target {
        self.target_of(f.class)
    }

    /// What a counterexample of `class` shows: the property searched for, else its class.
    pub fn target_of(&self, class: Class) -> Target {
        self.property.map_or(Target::Class(class), Target::Property)
    }

    pub fn mix(&self) -> &Mix {
        &self.mix
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Schedule `i`: the base with faults drawn from the stream of (seed, i) only.
    pub fn schedule(&self, i: u64) -> Scenario {
        let mut rng = Stream::new(self.seed, SCHEDULE_KEY.wrapping_add(i));
        let mut s = self.base.clone();
        // Its own network latencies; a seed a person can read out ("seed 48213").
        s.seed = rng.range(1, 999_999) as u64;
        s.id = format!("explored-{}-{i}", self.seed);
        let space = Space { nodes: &self.nodes, window_ms: self.window_ms, ranges: &self.mix.ranges };
        let count = rng.range(1, self.mix.max_faults as i64);
        for _ in 0..count {
            let kind = self.mix.kinds[rng.range(0, self.mix.kinds.len() as i64 - 1) as usize];
            if let Some(f) = fault::draw(kind, &mut rng, &space, &s, &self.names) {
                s.faults.push(f);
            }
        }
        crate::sort::by_key(&mut s.faults, |f| f.at_ms());
        s
    }

    /// Runs schedule `i` (judged only, unless the property reads the whole trace): its class,
    /// whether it shows the property searched for, and whether a token was handed out again.
    pub fn outcome(&self, i: u64) -> Judged {
        class::judged(&self.schedule(i), self.property)
    }

    /// Counts schedule `i` (the next in order) and keeps it if it is a new counterexample.
    fn fold(&mut self, i: u64, Judged { class, shown, token_repeated }: Judged) {
        debug_assert_eq!(i, self.next);
        self.next += 1;
        self.counts.add(class);
        self.shown += shown as u64;
        self.token_repeats += token_repeated as u64;
        self.keep(i, class, shown);
    }

    /// Keeps schedule `i` (of `class`; `shown`: it showed the property searched for) if it is
    /// one of the first `KEEP` distinct counterexamples: the one rule a batch and an absorbed
    /// partial (`partial.rs`) both keep by.
    fn keep(&mut self, i: u64, class: Class, shown: bool) {
        let kept = match self.property {
            Some(_) if !shown => return,
            Some(_) => self.found.len(),
            None if class == Class::Safe => return,
            None => self.found.iter().filter(|f| f.class == class).count(),
        };
        if kept >= KEEP {
            return;
        }
        let scenario = self.schedule(i);
        let signature = signature(&scenario);
        let same = |f: &Found| f.signature == signature && (self.property.is_some() || f.class == class);
        if !self.found.iter().any(same) {
            self.found.push(Found { index: i, class, scenario, signature });
        }
    }

    /// Runs up to `n` more schedules, one after another (the page calls this in time slices).
    pub fn run_batch(&mut self, n: u64) -> Progress {
        self.batch(n, false)
    }

    /// `run_batch` on every core rayon is given (native only); the same result.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_batch_parallel(&mut self, n: u64) -> Progress {
        self.batch(n, true)
    }

    fn batch(&mut self, n: u64, parallel: bool) -> Progress {
        let range = self.next..self.total.min(self.next.saturating_add(n));
        let classes = in_order(range.clone(), parallel, |i| self.outcome(i));
        for (i, class) in range.zip(classes) {
            self.fold(i, class);
        }
        self.progress()
    }

    /// The counterexamples kept so far, in the order they were found.
    pub fn found(&self) -> &[Found] {
        &self.found
    }

    pub fn progress(&self) -> Progress {
        Progress { runs: self.next, total: self.total, counts: self.counts, shown: self.shown, token_repeats: self.token_repeats }
    }

    pub fn report(&self) -> Report {
        let mut found = self.found.clone();
        if self.property.is_none() {
            crate::sort::by_key(&mut found, |f| (f.class, f.index));
        }
        Report { runs: self.next, counts: self.counts, shown: self.shown, token_repeats: self.token_repeats, found }
    }
}

/// `f` of each schedule index in `range`, in index order: computed on every core rayon is given
/// when `parallel` (native only; the browser has one thread), else one after another.
fn in_order<T: Send>(range: std::ops::Range<u64>, parallel: bool, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    #[cfg(not(target_arch = "wasm32"))]
    if parallel {
        use rayon::prelude::*;
        return range.into_par_iter().map(&f).collect();
    }
    let _ = parallel;
    range.map(f).collect()
}

/// The kinds and nodes of a schedule's faults, in order, without their numbers.
fn signature(s: &Scenario) -> String {
    s.faults.iter().map(|f| format!("{} {}", f.kind().id(), fault::nodes(f).join(","))).collect::<Vec<_>>().join("; ")
}

/// Explores `n` schedules of `mix` on `base` from `seed`, one after another.
pub fn explore(base: &Scenario, mix: &Mix, seed: u64, n: u64) -> Result<Report, MixError> {
    let mut explorer = Explorer::new(base, mix.clone(), seed, n)?;
    explorer.run_batch(n);
    Ok(explorer.report())
}

/// `s` with its duration cut to where its story ends: the last write, belief, lease, pause,
/// partition or key moment, plus a second, up to whole seconds (server chatter such as
/// heartbeats goes on to the end and does not count). A counterexample the explorer ran for
/// 30 s whose story is over by 6.2 s opens on an 8 s axis (issue 25). Kept whole when the
/// cut changes what the run shows (its class, stale writes or believers at once).
pub fn fitted(s: &Scenario) -> Scenario {
    let whole = lab::run(s);
    let t = crate::timeline::Timeline::of_run(&whole);
    let ends = t.beliefs.iter().map(|b| b.to).chain(t.leases.iter().map(|l| l.to)).chain(t.bands.iter().map(|b| b.to));
    let ends = ends.chain(t.partitions.iter().map(|p| p.to)).chain(t.writes.iter().map(|w| w.at)).chain(t.key_moments.iter().map(|k| k.at));
    let story_end = ends.chain(t.marks.iter().map(|m| m.at)).max().unwrap_or(0);
    let cut = ((story_end + 1_000 + 999) / 1_000 * 1_000).max(1_000);
    if cut >= s.duration_ms {
        return s.clone();
    }
    let mut out = s.clone();
    out.duration_ms = cut;
    let (a, b) = (&whole.verdict, &lab::run(&out).verdict);
    let same = Class::of(a) == Class::of(b)
        && (a.safe, a.stale_writes_accepted, a.stale_writes_rejected, a.max_concurrent_holders)
            == (b.safe, b.stale_writes_accepted, b.stale_writes_rejected, b.max_concurrent_holders);
    if same {
        out
    } else {
        s.clone()
    }
}

/// `s` (a run that shows `shows`: a class or a property) as a scenario file of its own: titled "Found by the
/// explorer: …", its faults in words as the intro, and as its `expect` what the run showed
/// for its fencing setting, so the app can say whether a replay agrees.
pub fn as_found(s: &Scenario, shows: impl Into<Target>, how: &str) -> Scenario {
    let mut out = s.clone();
    let v = lab::run(s).verdict;
    out.title = format!("Found by the explorer: {} with {}", shows.into().words(), s.approach.label());
    out.id = crate::scenario::validate::slug(&out.title);
    let faults: Vec<String> = s.faults.iter().map(fault::words).collect();
    let faults = if faults.is_empty() { "no faults".to_string() } else { faults.join("; ") };
    out.intro = format!("{how}. Faults: {faults}.");
    let outcome = Outcome {
        safe: Some(v.safe),
        stale_writes_accepted: Some(v.stale_writes_accepted),
        stale_writes_rejected: Some(v.stale_writes_rejected),
        max_concurrent_holders: Some(v.max_concurrent_holders),
    };
    out.expect = Some(if s.storage.fencing {
        Expect { fencing_off: None, fencing_on: Some(outcome) }
    } else {
        Expect { fencing_off: Some(outcome), fencing_on: None }
    });
    out
}
