//! The seed's table, measured: the same fault mix against every approach (Redis once more with
//! a replica) × fencing off and on. Each cell: schedules run, how many lost an update, and the
//! smallest counterexample found (the first few lost updates shrunk, the one with the fewest
//! faults, then the fewest clients, then the earliest).

use super::class::{Class, Counts};
use super::shrink::{shrink, Shrunk};
use super::{Explorer, Mix, MixError};
use crate::lab;
use crate::scenario::{Approach, ClientSpec, Scenario};

/// One row: an approach, as the table's base scenario for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The approach's id, `redis-replica` for Redis with a replica.
    pub id: String,
    pub label: String,
    pub base: Scenario,
}

/// The base every row shares, on `approach`: two clients, A from 0 s and B from 2 s, each
/// holding the lock for three writes a second apart; a 10 s lease for every approach (the same
/// lifetime against the same faults; an approach's own rules fitted to it, as a Kubernetes
/// RenewDeadline below it), 30 s of run (room for a pause of twice the TTL to end inside it),
/// no faults.
/// Three writes rather than one give a fault that strikes mid-hold a later write to spoil.
pub fn base(approach: Approach) -> Scenario {
    Scenario {
        version: 1,
        id: format!("explore-{}", approach.id()),
        title: format!("{}: two clients, no faults", approach.label()),
        intro: String::new(),
        approach,
        seed: 1,
        duration_ms: 30_000,
        lock: fitted(approach),
        storage: Default::default(),
        network: Default::default(),
        clients: vec![
            ClientSpec { name: "A".into(), acquire_at_ms: 0, work_ms: 1000, writes: 3 },
            ClientSpec { name: "B".into(), acquire_at_ms: 2000, work_ms: 1000, writes: 3 },
        ],
        faults: Vec::new(),
        expect: None,
    }
}

/// A 10 s lease with the other settings at their defaults, fitted to `approach`'s rules.
fn fitted(approach: Approach) -> crate::scenario::LockConfig {
    let mut lock = crate::scenario::LockConfig::default();
    (approach.spec().config.fit)(&mut lock);
    lock
}

/// The rows: every approach, and each approach that can have a replica again with one.
pub fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for approach in Approach::ALL {
        out.push(Row { id: approach.id().into(), label: approach.label().into(), base: base(approach) });
        if approach.spec().replica {
            let mut b = base(approach);
            b.lock.replica = true;
            out.push(Row { id: format!("{}-replica", approach.id()), label: format!("{} with a replica", approach.label()), base: b });
        }
    }
    out
}

/// The row called `id` (an approach id or `redis-replica`).
pub fn row(id: &str) -> Option<Row> {
    rows().into_iter().find(|r| r.id == id)
}

/// One cell of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub row: String,
    pub fencing: bool,
    pub runs: u64,
    pub counts: Counts,
    /// The smallest lost update found, before and after shrinking.
    pub smallest: Option<Shrunk>,
}

impl Cell {
    /// The share of runs that lost an update, 0..=1.
    pub fn lost_share(&self) -> f64 {
        self.counts.share(Class::LostUpdate)
    }
}

/// A cell's search, to be run in batches (the page fills the table as they come in).
pub struct CellSearch {
    pub row: String,
    pub fencing: bool,
    pub explorer: Explorer,
}

/// Every cell's search: `rows()` × fencing off, on; `n` schedules each of `mix` from `seed`.
pub fn searches(mix: &Mix, seed: u64, n: u64) -> Result<Vec<CellSearch>, MixError> {
    let mut out = Vec::new();
    for row in rows() {
        for fencing in [false, true] {
            let explorer = Explorer::new(&lab::with_fencing(&row.base, fencing), mix.clone(), seed, n)?;
            out.push(CellSearch { row: row.id.clone(), fencing, explorer });
        }
    }
    Ok(out)
}

impl CellSearch {
    /// The cell as it stands, its lost updates shrunk to the smallest.
    pub fn cell(&self) -> Cell {
        let report = self.explorer.report();
        let smallest =
            smallest(report.found.iter().filter(|f| f.class == Class::LostUpdate).map(|f| shrink(&f.scenario, Class::LostUpdate)));
        Cell { row: self.row.clone(), fencing: self.fencing, runs: report.runs, counts: report.counts, smallest }
    }
}

/// The smallest of shrunk lost updates (in the order they were found): the fewest faults, then
/// the fewest clients, then the first.
pub fn smallest<S: std::borrow::Borrow<Shrunk>>(shrunk: impl Iterator<Item = S>) -> Option<S> {
    shrunk.min_by_key(|s| (s.borrow().after.faults.len(), s.borrow().after.clients.len()))
}

/// The whole table, one schedule after another (see `searches` to run it otherwise).
pub fn table(mix: &Mix, seed: u64, n: u64) -> Result<Vec<Cell>, MixError> {
    let mut cells = Vec::new();
    for mut search in searches(mix, seed, n)? {
        search.explorer.run_batch(n);
        cells.push(search.cell());
    }
    Ok(cells)
}
