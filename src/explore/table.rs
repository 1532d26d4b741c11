//! The seed's table, measured: every approach (Redis and Redisson once more with a replica) ×
//! fencing off and on. Each cell: schedules run, how many lost an update, how many handed a
//! token out again, and the smallest counterexample found (the first few lost updates shrunk,
//! the one with the fewest faults, then the fewest clients, then the earliest).
//!
//! `plan()` is how each row is measured, from each approach's `Spec::table` (its own file
//! says it; `mix_of` turns its `TableMix` into a `Mix`): the mix that reveals what the
//! contract says of the approach (docs/SCENARIO_FORMAT.md, "Fencing tokens, per approach": where it
//! can go wrong), its N and seed, each chosen by measurement (docs/MODEL.md, "The seed's table,
//! measured"). The CLI's `explore --table`, the app's table and the lessons' closing table all
//! read it. `table(mix, …)` is the older question, one mix against every row alike.

use super::class::{Class, Counts};
use super::shrink::{shrink, Shrunk};
use super::{Explorer, Mix, MixError};
use crate::lab;
use crate::protocols::spec::TableMix;
use crate::scenario::{Approach, ClientSpec, FaultKind, Scenario};

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
        clients: vec![ClientSpec::new("A", 0, 1000, 3), ClientSpec::new("B", 2000, 1000, 3)],
        faults: Vec::new(),
        schedules: Vec::new(),
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

/// How one row of the table is measured: its base (a row's base adjusted only through the
/// scenario's own fields, and its label says so), the mix that reveals its claim, N and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub row: Row,
    pub mix: Mix,
    /// The mix in words, named for what it is ("default mix: …", "crashes without persistence
    /// and pauses: …").
    pub mix_words: String,
    /// Schedules per cell.
    pub runs: u64,
    pub seed: u64,
    /// What the contract says the row shows, as the table's footnote says it.
    pub claim: &'static str,
}

/// Schedules per cell of the default mix.
pub const RUNS: u64 = 2_000;

/// The default mix: up to 3 faults of every kind, on any node, at any time.
pub fn default_mix() -> (Mix, String) {
    (Mix::full(), "default mix: up to 3 faults of every kind, on any node".into())
}

fn kinds(ids: &[&str]) -> Vec<FaultKind> {
    ids.iter().filter_map(|id| FaultKind::by_id(id)).collect()
}

/// The explorer's mix for a row's `TableMix`, with its words.
fn mix_of(mix: &TableMix) -> (Mix, String) {
    match *mix {
        TableMix::Default => default_mix(),
        // While A and B hold the lock (their first 6 s): pauses of the clients and crashes of
        // `server` (the primary), which restarts or stays down.
        TableMix::CrashesAndPauses { server, words } => {
            let mut m = Mix::of(&kinds(&["pause", "crash"]));
            m.nodes = Some(vec!["A".into(), "B".into(), server.into()]);
            m.window_ms = Some((0, 6_000));
            (m, words.into())
        }
        TableMix::OnePause { from_ms, to_ms, words } => {
            let pause = kinds(&["pause"])[0];
            let mut m = Mix::of(&[pause]);
            m.nodes = Some(vec!["A".into(), "B".into()]);
            m.max_faults = 1;
            m.ranges = vec![(pause, "duration_ms", from_ms, to_ms)];
            (m, words.into())
        }
    }
}

/// The plan of row `row`: its approach's `TablePlan` (the replica row's, for a replica row).
fn planned(mut row: Row) -> Plan {
    let spec = row.base.approach.spec();
    let t = match (&spec.replica_table, row.base.lock.replica) {
        (Some(replica), true) => replica,
        _ => &spec.table,
    };
    (t.lock)(&mut row.base.lock);
    if let Some(ms) = t.duration_ms {
        row.base.duration_ms = ms;
    }
    row.label += t.label_suffix;
    let (mix, mix_words) = mix_of(&t.mix);
    Plan { row, mix, mix_words, runs: t.runs.unwrap_or(RUNS), seed: 1, claim: t.claim }
}

/// Every row's plan, in `rows()` order.
pub fn plan() -> Vec<Plan> {
    rows().into_iter().map(planned).collect()
}

/// Every planned cell's search: each row fencing off and on, at its plan (`runs` for every
/// cell instead of the plan's N when given: a quicker look at the same schedules' first N).
pub fn planned_searches(plans: &[Plan], runs: Option<u64>) -> Result<Vec<CellSearch>, MixError> {
    let mut out = Vec::new();
    for p in plans {
        for fencing in [false, true] {
            let n = runs.unwrap_or(p.runs);
            let explorer = Explorer::new(&lab::with_fencing(&p.row.base, fencing), p.mix.clone(), p.seed, n)?;
            out.push(CellSearch { row: p.row.id.clone(), fencing, explorer });
        }
    }
    Ok(out)
}

/// The planned table, one schedule after another (the CLI runs `planned_searches` on every
/// core; the page in slices).
pub fn measured(runs: Option<u64>) -> Vec<Cell> {
    let mut cells = Vec::new();
    for mut search in planned_searches(&plan(), runs).expect("the plan's mixes are valid") {
        search.explorer.run_batch(u64::MAX);
        cells.push(search.cell());
    }
    cells
}

/// "4.2%": `n` of `runs` as a share, one decimal. A count too rare to show at one decimal is
/// "under 0.1%", never "0.0%": one lost update in 10,000 runs is still one (issue 25).
pub fn percent(n: u64, runs: u64) -> String {
    let share = if runs == 0 { 0.0 } else { 100.0 * n as f64 / runs as f64 };
    if n > 0 && share < 0.05 {
        return "under 0.1%".to_string();
    }
    format!("{}%", crate::decimal::Fixed(share, 1))
}

/// "3 of 2,000 (0.2%)": a count of N with its share beside it, never a share alone.
pub fn count_of(n: u64, runs: u64) -> String {
    use crate::timeline::draw::words::thousands;
    format!("{} of {} ({})", thousands(n as usize), thousands(runs as usize), percent(n, runs))
}

/// One cell of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub row: String,
    pub fencing: bool,
    pub runs: u64,
    pub counts: Counts,
    /// Runs that handed a token out again (or back), whatever their class.
    pub token_repeats: u64,
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
        Cell {
            row: self.row.clone(),
            fencing: self.fencing,
            runs: report.runs,
            counts: report.counts,
            token_repeats: report.token_repeats,
            smallest,
        }
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
