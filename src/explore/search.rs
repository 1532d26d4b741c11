//! Searching the explorer's schedules for any named property (`check::properties`), not only
//! the default classes: the runs that violate an `always` or `eventually` property, or witness
//! a `sometimes` one. The same schedules as `Explorer`'s for the same (base, mix, seed), the
//! same determinism, the same shrinking.

use super::class::discovery;
use super::shrink::{shrink, Shrunk};
use super::{in_order, signature, Explorer, Mix, MixError, KEEP};
use crate::check::properties::{Evidence, Property};
use crate::lab;
use crate::scenario::Scenario;

/// A search of `total` schedules for runs that show `property`, in batches (the page runs
/// them in time slices, the CLI on every core):
///
/// ```
/// use locklab::check::properties;
/// use locklab::explore::{search::Search, Mix};
/// let base = locklab::scenario::catalog::get("happy-path-redis").unwrap();
/// let property = properties::by_id("one-believer").unwrap();
/// let mut search = Search::new(&base, Mix::full(), 7, 40, property).unwrap();
/// while !search.report().done() {
///     search.run_batch(10);
/// }
/// let report = search.report();
/// if let Some(first) = report.found.first() {
///     let smallest = search.shrink(first); // the minimal schedule that still shows it
///     assert!(smallest.after.faults.len() <= first.scenario.faults.len());
/// }
/// ```
pub struct Search {
    property: &'static Property,
    /// Draws the schedules (its own counts are not used).
    schedules: Explorer,
    next: u64,
    shown: u64,
    found: Vec<Sighting>,
}

/// A kept run that shows the property.
#[derive(Clone, Debug, PartialEq)]
pub struct Sighting {
    pub index: u64,
    pub scenario: Scenario,
    /// Where: its `event` indexes the trace of `lab::run(&scenario)` (a cursor can go there).
    pub evidence: Evidence,
    /// As `Found::signature`: two sightings with the same one count as one.
    pub signature: String,
}

/// Where a search stands, or what it found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    pub property: &'static Property,
    pub runs: u64,
    pub total: u64,
    /// How many of the runs showed the property.
    pub shown: u64,
    /// The first `KEEP` distinct sightings, by schedule index.
    pub found: Vec<Sighting>,
}

impl SearchReport {
    pub fn done(&self) -> bool {
        self.runs >= self.total
    }
}

impl Search {
    /// A search of `total` schedules of `mix` on `base` from `seed` (as `Explorer::new`).
    pub fn new(base: &Scenario, mix: Mix, seed: u64, total: u64, property: &'static Property) -> Result<Search, MixError> {
        let schedules = Explorer::new(base, mix, seed, total)?;
        Ok(Search { property, schedules, next: 0, shown: 0, found: Vec::new() })
    }

    pub fn property(&self) -> &'static Property {
        self.property
    }

    /// Runs up to `n` more schedules, one after another.
    pub fn run_batch(&mut self, n: u64) -> SearchReport {
        self.batch(n, false)
    }

    /// `run_batch` on every core rayon is given (native only); the same result.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_batch_parallel(&mut self, n: u64) -> SearchReport {
        self.batch(n, true)
    }

    fn batch(&mut self, n: u64, parallel: bool) -> SearchReport {
        let range = self.next..self.schedules.total.min(self.next.saturating_add(n));
        let shown = in_order(range.clone(), parallel, |i| discovery(self.property, &self.schedules.schedule(i)).is_some());
        for (i, shown) in range.zip(shown) {
            self.next = i + 1;
            if shown {
                self.keep(i);
            }
        }
        self.report()
    }

    /// Counts schedule `i`, which showed the property, and keeps it if it is a new sighting,
    /// with its evidence from the whole run.
    fn keep(&mut self, i: u64) {
        self.shown += 1;
        if self.found.len() >= KEEP {
            return;
        }
        let scenario = self.schedules.schedule(i);
        let signature = signature(&scenario);
        if self.found.iter().any(|f| f.signature == signature) {
            return;
        }
        let run = lab::run(&scenario);
        if let Some(evidence) = self.property.discovery(&run.scenario, &run.trace, &run.verdict) {
            self.found.push(Sighting { index: i, scenario, evidence, signature });
        }
    }

    /// What it has found so far (`done` once every schedule has run).
    pub fn report(&self) -> SearchReport {
        SearchReport { property: self.property, runs: self.next, total: self.schedules.total, shown: self.shown, found: self.found.clone() }
    }

    /// `found` shrunk to the smallest schedule that still shows the property.
    pub fn shrink(&self, found: &Sighting) -> Shrunk {
        shrink(&found.scenario, self.property)
    }
}

/// Searches `n` schedules of `mix` on `base` from `seed` for `property`, one after another.
pub fn search(base: &Scenario, mix: &Mix, seed: u64, n: u64, property: &'static Property) -> Result<SearchReport, MixError> {
    let mut s = Search::new(base, mix.clone(), seed, n, property)?;
    Ok(s.run_batch(n))
}
