//! The explorer on every core: a search (or the seed's table) handed out to Web Workers, each
//! a wasm instance of its own (src/bin/explore-worker.rs; the page spawns them in
//! src/ui/explore/workers.rs). Plain Rust: the page and the workers trade JSON text, and the
//! tests play the workers by calling `Hand::answer` themselves, in any order.
//!
//! The page asks for tasks (`Search::task`): each counterexample to shrink first, then the
//! next `CHUNK` schedules of each cell in turn, so the cells fill together as they do in
//! slices. A worker rebuilds the search from its description (`spec`: the same constructors
//! the page used, so cell `k` is the same search on both sides) and answers with a `Partial`
//! or a shrink's tape. The page folds each cell's partials in seed order, never in the order
//! they arrive (`Explorer::absorb`; a range that comes early waits for the ones before it),
//! and replays a tape without running anything (`shrink::Job::replaying`): the counts, the
//! counterexamples and the shrunk runs are the ones one search in the page, or the CLI, finds.
//!
//! Where workers cannot start (a sandboxed frame's opaque origin, a file:// page), the page
//! drops the farm and runs on in slices from the seed each cell had reached: the same result.

use serde_json::{json, Value};

use super::search::{Fencing, Search, Settings};
use crate::check::properties;
use crate::explore::shrink::Job;
use crate::explore::table::{self, CellSearch};
use crate::explore::{Class, MixError, Partial};
use crate::scenario::FaultKind;

/// Schedules per task: a few tens of ms of a worker's time, so the table fills smoothly and a
/// Stop is answered within a task or two.
pub const CHUNK: u64 = 100;

/// How a search is handed out: which schedules and shrinks went to a worker already, and the
/// partials that came back ahead of their turn.
pub struct Farm {
    /// The search's id in its tasks, so a late answer to an earlier search is dropped.
    pub id: u64,
    /// Workers the page runs.
    pub workers: usize,
    /// Per cell: the first schedule not handed out yet.
    handed: Vec<u64>,
    /// Per cell: partials waiting for the ranges before them.
    waiting: Vec<Vec<Partial>>,
    /// Counterexamples handed out to shrink: (cell, schedule).
    shrinking: Vec<(usize, u64)>,
    turn: usize,
}

impl Farm {
    pub fn new(id: u64, workers: usize, cells: usize) -> Farm {
        Farm { id, workers, handed: vec![0; cells], waiting: vec![Vec::new(); cells], shrinking: Vec::new(), turn: 0 }
    }
}

/// The search `s` as a worker rebuilds it: the table's plan (with its N per cell if given), or
/// a search's settings.
pub fn spec(settings: &Settings, table_runs: Option<Option<u64>>) -> Value {
    if let Some(runs) = table_runs {
        return json!({ "table": runs });
    }
    let kinds: Vec<&str> = settings.kinds.iter().map(|k| k.id()).collect();
    json!({
        "rows": settings.rows, "fencing": settings.fencing.id(), "kinds": kinds, "max_faults": settings.max_faults,
        "runs": settings.runs, "seed": settings.seed, "property": settings.property.map(|p| p.id),
    })
}

/// The cells `spec` describes, built as the page built them.
fn cells_of(spec: &Value) -> Result<Vec<CellSearch>, MixError> {
    let bad = || MixError { field: "spec", message: format!("not a search: {spec}") };
    if let Some(runs) = spec.get("table") {
        return table::planned_searches(&table::plan(), runs.as_u64());
    }
    let strings = |k: &str| -> Option<Vec<String>> { spec.get(k)?.as_array()?.iter().map(|v| Some(v.as_str()?.to_string())).collect() };
    let n = |k: &str| spec.get(k).and_then(Value::as_u64).ok_or_else(bad);
    let kinds = strings("kinds").ok_or_else(bad)?.iter().map(|id| FaultKind::by_id(id)).collect::<Option<Vec<_>>>().ok_or_else(bad)?;
    let fencing = spec.get("fencing").and_then(Value::as_str).and_then(|id| Fencing::ALL.into_iter().find(|f| f.id() == id));
    let property = match spec.get("property").and_then(Value::as_str) {
        Some(id) => Some(properties::by_id(id).ok_or_else(bad)?),
        None => None,
    };
    let settings = Settings {
        rows: strings("rows").ok_or_else(bad)?,
        fencing: fencing.ok_or_else(bad)?,
        kinds,
        max_faults: n("max_faults")? as usize,
        runs: n("runs")?,
        seed: n("seed")?,
        property,
    };
    settings.cells()
}

/// A worker's side: the search it was last asked about, built once for all its tasks.
#[derive(Default)]
pub struct Hand {
    spec: String,
    cells: Vec<CellSearch>,
}

impl Hand {
    /// The answer to one task (JSON text in, JSON text out); `now` is the worker's clock in
    /// ms, read only to say how long the work took (the page's schedules/s per core), never
    /// by anything a result depends on.
    pub fn answer(&mut self, task: &str, now: &mut dyn FnMut() -> f64) -> String {
        let t0 = now();
        let Ok(v) = crate::scenario::strict_json::parse(task) else { return json!({ "error": "not JSON" }).to_string() };
        let spec = v.get("spec").map(Value::to_string).unwrap_or_default();
        if spec != self.spec {
            match v.get("spec").map(cells_of) {
                Some(Ok(cells)) => (self.spec, self.cells) = (spec, cells),
                _ => return json!({ "error": "no search to run" }).to_string(),
            }
        }
        let cell = v.get("cell").and_then(Value::as_u64).map(|c| c as usize).filter(|&c| c < self.cells.len());
        let Some(cell) = cell else { return json!({ "error": "no such cell" }).to_string() };
        let explorer = &self.cells[cell].explorer;
        let mut out = json!({ "search": v.get("search"), "cell": cell });
        let shrink = (v.get("shrink").and_then(Value::as_u64), v.get("class").and_then(Value::as_str).and_then(Class::by_id));
        if let (Some(index), Some(class)) = shrink {
            let mut job = Job::new(&explorer.schedule(index), explorer.target_of(class));
            job.step(&mut || true);
            out["shrink"] = json!(index);
            out["tape"] = json!(job.tape());
        } else {
            let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
            out["partial"] = explorer.partial(n("from"), n("to")).to_json();
        }
        out["ms"] = json!(now() - t0);
        out.to_string()
    }
}

impl Search {
    /// Hands this search out to `workers` workers from here on, as search `id`.
    pub fn farm_out(&mut self, id: u64, workers: usize) {
        self.farm = Some(Farm::new(id, workers, self.cells.len()));
    }

    /// Workers could not start or failed: the page's slices run on from where each cell is
    /// (what was handed out and not folded in is run again there).
    pub fn fall_back(&mut self) {
        self.farm = None;
    }

    /// Its id in tasks and answers, while on workers.
    pub fn farm_id(&self) -> Option<u64> {
        self.farm.as_ref().map(|f| f.id)
    }

    /// How many workers run it (0: the page's own slices).
    pub fn workers(&self) -> usize {
        self.farm.as_ref().map_or(0, |f| f.workers)
    }

    /// The next task for a worker, as JSON text: a counterexample to shrink, else the next
    /// schedules of the next cell in turn; None when everything is handed out.
    pub fn task(&mut self) -> Option<String> {
        let class_of = |c: usize, i: u64| self.cells[c].explorer.found().iter().find(|f| f.index == i).map(|f| f.class);
        let wanted: Vec<(usize, u64)> = self.wanted().into_iter().filter(|&(c, i)| self.shrunk(c, i).is_none()).collect();
        let classes: Vec<Option<Class>> = wanted.iter().map(|&(c, i)| class_of(c, i)).collect();
        let totals: Vec<u64> = self.cells.iter().map(|c| c.explorer.progress().total).collect();
        let running = self.running();
        let spec = self.spec.clone();
        let farm = self.farm.as_mut()?;
        let task = |farm: &Farm, cell: usize| json!({ "search": farm.id, "spec": spec, "cell": cell });
        if let Some(k) = wanted.iter().position(|w| !farm.shrinking.contains(w)) {
            let (cell, index) = wanted[k];
            farm.shrinking.push((cell, index));
            let mut t = task(farm, cell);
            t["shrink"] = json!(index);
            t["class"] = json!(classes[k].map(Class::id));
            return Some(t.to_string());
        }
        if !running {
            return None;
        }
        for _ in 0..totals.len() {
            let cell = farm.turn % totals.len();
            farm.turn += 1;
            let from = farm.handed[cell];
            if from < totals[cell] {
                let to = totals[cell].min(from + CHUNK);
                farm.handed[cell] = to;
                let mut t = task(farm, cell);
                (t["from"], t["to"]) = (json!(from), json!(to));
                return Some(t.to_string());
            }
        }
        None
    }

    /// Takes in a worker's answer (already parsed) to one of this search's tasks: a range of
    /// schedules is folded in once every range before it is (none after a Stop: the counts
    /// stay where they stopped), a shrink's tape replayed.
    pub fn receive(&mut self, v: &Value) {
        let Some(cell) = v.get("cell").and_then(Value::as_u64).map(|c| c as usize).filter(|&c| c < self.cells.len()) else { return };
        let ms = v.get("ms").and_then(Value::as_f64).unwrap_or(0.0);
        if let (Some(index), Some(tape)) = (v.get("shrink").and_then(Value::as_u64), v.get("tape").and_then(Value::as_str)) {
            self.timing.shrink_ms += ms;
            self.replay_shrink(cell, index, tape);
            return;
        }
        let (Some(p), true) = (v.get("partial").and_then(Partial::from_json), self.running()) else { return };
        let Some(farm) = self.farm.as_mut() else { return };
        self.timing.search_ms += ms;
        let waiting = &mut farm.waiting[cell];
        waiting.push(p);
        let explorer = &mut self.cells[cell].explorer;
        while let Some(k) = waiting.iter().position(|p| p.from == explorer.progress().runs) {
            explorer.absorb(&waiting.swap_remove(k));
        }
        self.settle();
    }

    /// Cell `cell`'s counterexample `index`, shrunk by a worker whose answers were `tape`.
    fn replay_shrink(&mut self, cell: usize, index: u64, tape: &str) {
        let explorer = &self.cells[cell].explorer;
        let Some(f) = explorer.found().iter().find(|f| f.index == index) else { return };
        if self.shrunk(cell, index).is_some() {
            return;
        }
        if let Some(mut job) = Job::replaying(&f.scenario, explorer.target(f), tape) {
            job.step(&mut || false);
            self.put_shrink(cell, index, job);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::explore::tests::ticking;

    /// Plays `k` workers for `search`: tasks handed out `k` at a time and answered last first
    /// (the order they arrive in need not be the order they were asked), until it is done.
    fn run_on_workers(search: &mut Search, k: usize) {
        search.farm_out(7, k);
        let mut hands: Vec<Hand> = (0..k).map(|_| Hand::default()).collect();
        while search.busy() {
            let tasks: Vec<String> = (0..k).map_while(|_| search.task()).collect();
            assert!(!tasks.is_empty(), "a search with work has a task");
            let answers: Vec<String> = tasks.iter().zip(&mut hands).map(|(t, h)| h.answer(t, &mut ticking(1.0))).collect();
            for a in answers.iter().rev() {
                search.receive(&crate::scenario::strict_json::parse(a).unwrap());
            }
            search.step(&mut ticking(1.0), 8.0);
        }
    }

    #[test]
    fn the_table_on_k_workers_is_the_table_in_slices_and_the_clis() {
        let measured = table::measured(Some(120));
        for k in [1, 3] {
            let mut t = Search::planned(&Settings::table(), Some(120)).unwrap();
            run_on_workers(&mut t, k);
            let cells: Vec<table::Cell> = t.cells.iter().map(CellSearch::cell).collect();
            assert_eq!(cells, measured, "{k} workers");
            for (i, c) in cells.iter().enumerate() {
                assert_eq!(t.smallest(i), c.smallest.as_ref(), "{k} workers: the page's own replayed shrinks");
            }
            assert_eq!(t.workers(), k);
        }
    }

    #[test]
    fn a_search_for_a_property_on_workers_finds_and_shrinks_what_the_slices_do() {
        let mut settings = Settings::search();
        settings.runs = 400;
        settings.fencing = Fencing::Both;
        settings.property = properties::by_id("one-believer");
        let mut slices = Search::new(&settings, false).unwrap();
        while slices.busy() {
            slices.step(&mut ticking(0.001), 100.0);
        }
        let mut farmed = Search::new(&settings, false).unwrap();
        run_on_workers(&mut farmed, 2);
        assert_eq!((farmed.runs(), farmed.counts()), (slices.runs(), slices.counts()));
        assert_eq!(farmed.found(), slices.found());
        let (c, f, _, _) = slices.shown().unwrap();
        assert_eq!(farmed.shrunk(c, f.index), slices.shrunk(c, f.index));
        assert!(farmed.timing.search_ms > 0.0, "the workers' time is counted");
    }

    #[test]
    fn workers_that_fail_midway_leave_the_slices_to_finish_the_same_search() {
        let mut settings = Settings::search();
        settings.runs = 500;
        let mut whole = Search::new(&settings, false).unwrap();
        while whole.busy() {
            whole.step(&mut ticking(0.001), 100.0);
        }
        let mut s = Search::new(&settings, false).unwrap();
        s.farm_out(1, 2);
        let mut hand = Hand::default();
        // Two ranges handed out, only the second answered: it waits for the first, which never comes.
        let (_, second) = (s.task().unwrap(), s.task().unwrap());
        s.receive(&crate::scenario::strict_json::parse(&hand.answer(&second, &mut ticking(1.0))).unwrap());
        assert_eq!(s.runs(), 0, "a range is folded in seed order, never ahead of its turn");
        s.fall_back();
        assert_eq!(s.workers(), 0);
        while s.busy() {
            s.step(&mut ticking(0.001), 100.0);
        }
        assert_eq!((s.runs(), s.counts(), s.found()), (whole.runs(), whole.counts(), whole.found()));
    }

    #[test]
    fn a_stopped_search_takes_no_more_ranges_and_a_bad_task_is_answered_with_an_error() {
        let mut s = Search::new(&Settings::search(), false).unwrap();
        s.farm_out(1, 1);
        let task = s.task().unwrap();
        s.stop();
        let mut hand = Hand::default();
        s.receive(&crate::scenario::strict_json::parse(&hand.answer(&task, &mut ticking(1.0))).unwrap());
        assert_eq!(s.runs(), 0);
        assert_eq!(s.task(), None);
        assert!(hand.answer("{\"spec\": 3, \"cell\": 0}", &mut ticking(1.0)).contains("error"));
        assert!(hand.answer("nonsense", &mut ticking(1.0)).contains("error"));
    }
}
