//! A search over the approaches chosen, and the seed's table (one over all of them): each a
//! set of explorer searches ("lanes", one per approach and fencing setting) advanced in turn,
//! one schedule each, so they fill together. `Search::step(now, budget_ms)` runs schedules
//! (and shrinks the counterexamples it shows) until the page's clock says the budget is spent,
//! then returns so the frame can be drawn. No clock of its own; tests hand it a counter.
//!
//! A slice runs whole schedules, so it ends up to one schedule past its budget.

use crate::check::properties::Property;
use crate::explore::shrink::{Job, Shrunk};
pub use crate::explore::table::percent;
use crate::explore::table::{self, CellSearch};
use crate::explore::{as_found, fitted, Class, Counts, Explorer, Found, Mix, MixError};
use crate::lab;
use crate::scenario::{FaultKind, Scenario};
use crate::timeline::draw::words::{and_list, thousands};

/// The page's clock and how far this slice may go.
pub(super) struct Slice<'a> {
    pub(super) now: &'a mut dyn FnMut() -> f64,
    pub(super) end: f64,
}

impl Slice<'_> {
    fn left(&mut self) -> bool {
        (self.now)() < self.end
    }
}

/// Which fencing settings a search covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fencing {
    Off,
    On,
    Both,
}

impl Fencing {
    pub const ALL: [Fencing; 3] = [Fencing::Off, Fencing::On, Fencing::Both];

    pub fn settings(self) -> &'static [bool] {
        match self {
            Fencing::Off => &[false],
            Fencing::On => &[true],
            Fencing::Both => &[false, true],
        }
    }

    /// Its name in the form.
    pub fn id(self) -> &'static str {
        match self {
            Fencing::Off => "off",
            Fencing::On => "on",
            Fencing::Both => "both",
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Fencing::Off => "off",
            Fencing::On => "on",
            Fencing::Both => "off and on",
        }
    }
}

/// What a search or the table is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `table::rows()` ids, in that order.
    pub rows: Vec<String>,
    pub fencing: Fencing,
    /// In `FaultKind::ALL` order.
    pub kinds: Vec<FaultKind>,
    pub max_faults: usize,
    /// Schedules per approach and fencing setting (per table cell).
    pub runs: u64,
    /// The explorer's seed.
    pub seed: u64,
    /// The named property a search looks for; None: what goes wrong, by class.
    pub property: Option<&'static Property>,
}

/// The most faults a schedule may have in the page (the shrinking budget is set for 8).
pub const MAX_FAULTS: usize = 8;

impl Settings {
    /// The search tab's start: Redis without fencing, every fault kind.
    pub fn search() -> Settings {
        let kinds = FaultKind::ALL.to_vec();
        Settings { rows: vec!["redis".into()], fencing: Fencing::Off, kinds, max_faults: 3, runs: 5_000, seed: 1, property: None }
    }

    /// The table's start: every row, fencing off and on, pauses and crashes (what the seed's
    /// claims are about: a holder that pauses, a server that restarts or fails over).
    pub fn table() -> Settings {
        let kinds = ["pause", "crash"].iter().filter_map(|id| FaultKind::by_id(id)).collect();
        Settings {
            rows: table::rows().into_iter().map(|r| r.id).collect(),
            fencing: Fencing::Both,
            kinds,
            max_faults: 3,
            runs: 1_000,
            seed: 1,
            property: None,
        }
    }

    pub fn mix(&self) -> Mix {
        let mut mix = Mix::of(&self.kinds);
        mix.max_faults = self.max_faults;
        mix
    }

    pub fn toggle_row(&mut self, id: &str) {
        let mut chosen: Vec<String> = table::rows().into_iter().map(|r| r.id).filter(|r| self.rows.contains(r) != (r == id)).collect();
        std::mem::swap(&mut self.rows, &mut chosen);
    }

    pub fn toggle_kind(&mut self, kind: FaultKind) {
        self.kinds = FaultKind::ALL.into_iter().filter(|&k| self.kinds.contains(&k) != (k == kind)).collect();
    }

    /// The mix in words: "up to 3 faults of pause, clock jump and crash, on any node".
    pub fn mix_words(&self) -> String {
        let nouns: Vec<&str> = self.kinds.iter().map(|&k| k.noun()).collect();
        format!("up to {} fault{} of {}, on any node", self.max_faults, if self.max_faults == 1 { "" } else { "s" }, and_list(&nouns))
    }

    /// One search per chosen row and fencing setting.
    pub(super) fn cells(&self) -> Result<Vec<CellSearch>, MixError> {
        let rows: Vec<table::Row> = table::rows().into_iter().filter(|r| self.rows.contains(&r.id)).collect();
        if rows.is_empty() {
            return Err(MixError { field: "approaches", message: "choose at least one approach".into() });
        }
        let mut out = Vec::new();
        for row in rows {
            for &fencing in self.fencing.settings() {
                let mut explorer = Explorer::new(&lab::with_fencing(&row.base, fencing), self.mix(), self.seed, self.runs)?;
                if let Some(p) = self.property {
                    explorer = explorer.searching(p);
                }
                out.push(CellSearch { row: row.id.clone(), fencing, explorer });
            }
        }
        Ok(out)
    }
}

/// The label of a table row ("Redis SET NX PX with a replica").
pub fn row_label(id: &str) -> String {
    table::row(id).map_or_else(|| id.to_string(), |r| r.label)
}

/// Runs the lanes in turn, one schedule each, while the slice lasts; how many it ran.
pub(super) fn turns<T>(lanes: &mut [T], turn: &mut usize, explorer: fn(&mut T) -> &mut Explorer, slice: &mut Slice) -> u64 {
    let n = lanes.len();
    let (mut ran, mut idle) = (0, 0);
    while n > 0 && idle < n && slice.left() {
        let e = explorer(&mut lanes[*turn % n]);
        *turn = (*turn + 1) % n;
        if e.progress().done() {
            idle += 1;
            continue;
        }
        idle = 0;
        e.run_batch(1);
        ran += 1;
    }
    ran
}

/// Real time a run of slices took, from the page's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    started: Option<f64>,
    /// From the first slice's start to the last one's end.
    pub wall_ms: f64,
    /// Of which running schedules.
    pub search_ms: f64,
    /// Of which shrinking.
    pub shrink_ms: f64,
}

impl Timing {
    pub(super) fn begin(&mut self, t: f64) {
        self.started.get_or_insert(t);
    }

    pub(super) fn end(&mut self, t: f64) {
        self.wall_ms = t - self.started.unwrap_or(t);
    }

    /// Schedules per second of `runs`: as the page saw them (wall) and while computing.
    pub fn rates(&self, runs: u64) -> (u64, u64) {
        let per_s = |ms: f64| if ms > 0.0 { (runs as f64 * 1000.0 / ms) as u64 } else { 0 };
        (per_s(self.wall_ms), per_s(self.search_ms))
    }
}

/// A shrink of one kept counterexample: of cell `cell`, schedule `index`.
struct Shrinking {
    cell: usize,
    index: u64,
    job: Job,
}

/// A search over several (approach, fencing) cells; the table is one over all of them.
pub struct Search {
    pub settings: Settings,
    pub cells: Vec<CellSearch>,
    /// The seed's table: each row's plan (`table::plan()`), which its cells run; empty in a
    /// search, whose cells all run the settings' mix.
    pub plans: Vec<table::Plan>,
    turn: usize,
    running: bool,
    /// Shrink every lost update found (the table's smallest per cell), not only the one shown.
    shrink_all: bool,
    shrinks: Vec<Shrinking>,
    shown: usize,
    pub timing: Timing,
    /// How a worker rebuilds it (`farm::spec`).
    pub(super) spec: serde_json::Value,
    /// Handed out to workers (`farm`); None: run in the page's slices.
    pub(super) farm: Option<super::farm::Farm>,
}

impl Search {
    pub fn new(settings: &Settings, shrink_all: bool) -> Result<Search, MixError> {
        let cells = settings.cells()?;
        Ok(Search::of(settings, cells, Vec::new(), shrink_all, super::farm::spec(settings, None)))
    }

    /// The seed's table at its plan (`table::plan()`, the CLI's `explore --table` too), every
    /// cell's lost updates shrunk; `runs` for every cell instead of the plan's N when given.
    pub fn planned(settings: &Settings, runs: Option<u64>) -> Result<Search, MixError> {
        let plans = table::plan();
        let cells = table::planned_searches(&plans, runs)?;
        Ok(Search::of(settings, cells, plans, true, super::farm::spec(settings, Some(runs))))
    }

    fn of(settings: &Settings, cells: Vec<CellSearch>, plans: Vec<table::Plan>, shrink_all: bool, spec: serde_json::Value) -> Search {
        Search {
            settings: settings.clone(),
            cells,
            plans,
            turn: 0,
            running: true,
            shrink_all,
            shrinks: Vec::new(),
            shown: 0,
            timing: Timing::default(),
            spec,
            farm: None,
        }
    }

    /// Cell `cell`'s plan, in the seed's table.
    pub fn plan(&self, cell: usize) -> Option<&table::Plan> {
        self.plans.iter().find(|p| p.row.id == self.cells[cell].row)
    }

    /// The mix cell `cell` ran, in words; its seed and N.
    pub fn cell_mix(&self, cell: usize) -> (String, u64, u64) {
        let total = self.cells[cell].explorer.progress().total;
        self.plan(cell).map_or_else(|| (self.settings.mix_words(), self.settings.seed, total), |p| (p.mix_words.clone(), p.seed, total))
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn stop(&mut self) {
        self.running = false;
    }

    /// Whether a slice would do anything: schedules to run or a counterexample to shrink.
    pub fn busy(&self) -> bool {
        self.running || self.wanted().iter().any(|&(c, i)| self.shrunk(c, i).is_none())
    }

    pub fn runs(&self) -> u64 {
        self.cells.iter().map(|c| c.explorer.progress().runs).sum()
    }

    pub fn total(&self) -> u64 {
        self.cells.iter().map(|c| c.explorer.progress().total).sum()
    }

    pub fn counts(&self) -> Counts {
        let mut sum = Counts::default();
        for c in &self.cells {
            sum.merge(&c.explorer.progress().counts);
        }
        sum
    }

    /// Every kept counterexample with its cell: by class (most harmful first), then schedule,
    /// then cell.
    pub fn found(&self) -> Vec<(usize, &Found)> {
        let mut all: Vec<(usize, &Found)> =
            self.cells.iter().enumerate().flat_map(|(i, c)| c.explorer.found().iter().map(move |f| (i, f))).collect();
        crate::sort::by_key(&mut all, |(i, f)| (f.class, f.index, *i));
        all
    }

    /// The counterexample on show ("next" moves on), and which of how many it is.
    pub fn shown(&self) -> Option<(usize, &Found, usize, usize)> {
        let all = self.found();
        let k = self.shown.min(all.len().saturating_sub(1));
        all.get(k).map(|&(c, f)| (c, f, k, all.len()))
    }

    pub fn next(&mut self) {
        let n = self.found().len();
        if n > 0 {
            self.shown = (self.shown.min(n - 1) + 1) % n;
        }
    }

    pub fn shrunk(&self, cell: usize, index: u64) -> Option<&Shrunk> {
        self.shrinks.iter().find(|s| s.cell == cell && s.index == index).and_then(|s| s.job.result())
    }

    /// The counterexamples to shrink: the one shown; in the table every lost update.
    pub(super) fn wanted(&self) -> Vec<(usize, u64)> {
        if self.shrink_all {
            self.found().into_iter().filter(|(_, f)| f.class == Class::LostUpdate).map(|(c, f)| (c, f.index)).collect()
        } else {
            self.shown().map(|(c, f, _, _)| vec![(c, f.index)]).unwrap_or_default()
        }
    }

    /// Cell `cell`'s smallest lost update as shrunk so far (`table::smallest` of those done).
    pub fn smallest(&self, cell: usize) -> Option<&Shrunk> {
        let done =
            self.cells[cell].explorer.found().iter().filter(|f| f.class == Class::LostUpdate).filter_map(|f| self.shrunk(cell, f.index));
        table::smallest(done)
    }

    /// Whether cell `cell` has lost updates still being shrunk.
    pub fn shrinking(&self, cell: usize) -> bool {
        self.cells[cell].explorer.found().iter().any(|f| f.class == Class::LostUpdate && self.shrunk(cell, f.index).is_none())
    }

    /// A finished shrink of cell `cell`'s counterexample `index` (a worker's, replayed).
    pub(super) fn put_shrink(&mut self, cell: usize, index: u64, job: Job) {
        self.shrinks.retain(|s| s.cell != cell || s.index != index);
        self.shrinks.push(Shrinking { cell, index, job });
    }

    /// Whether schedules are left to fold in, once some were.
    pub(super) fn settle(&mut self) {
        self.running = self.running && self.runs() < self.total();
    }

    /// One slice: shrinks first (up to half of it while the search runs), then schedules; on
    /// workers (`farm`) they do both, and a slice only keeps the page's clock.
    pub fn step(&mut self, now: &mut dyn FnMut() -> f64, budget_ms: f64) {
        let t0 = now();
        self.timing.begin(t0);
        if self.farm.is_some() {
            self.timing.end(t0);
            return;
        }
        let shrink_end = if self.running { t0 + budget_ms / 2.0 } else { t0 + budget_ms };
        for (cell, index) in self.wanted() {
            if now() >= shrink_end {
                break;
            }
            let at = match self.shrinks.iter().position(|s| s.cell == cell && s.index == index) {
                Some(at) => at,
                None => {
                    let f = self.cells[cell].explorer.found().iter().find(|f| f.index == index).unwrap_or_else(|| unreachable!("kept"));
                    let job = Job::new(&f.scenario, self.cells[cell].explorer.target(f));
                    self.shrinks.push(Shrinking { cell, index, job });
                    self.shrinks.len() - 1
                }
            };
            self.shrinks[at].job.step(&mut || now() < shrink_end);
        }
        let t1 = now();
        self.timing.shrink_ms += t1 - t0;
        if self.running {
            let mut slice = Slice { now: &mut *now, end: t0 + budget_ms };
            turns(&mut self.cells, &mut self.turn, |c| &mut c.explorer, &mut slice);
            self.settle();
        }
        let t2 = now();
        self.timing.search_ms += t2 - t1;
        self.timing.end(t2);
    }

    /// What counterexample `f` of cell `cell` shows, as a noun phrase ("a lost update").
    pub fn shows(&self, cell: usize, f: &Found) -> String {
        self.cells[cell].explorer.target(f).words()
    }

    /// How many runs showed the property searched for, in words ("broken in 3 of 500
    /// schedules"); None in a search of classes.
    pub fn shown_words(&self) -> Option<String> {
        let p = self.settings.property?;
        let shown: u64 = self.cells.iter().map(|c| c.explorer.progress().shown).sum();
        Some(format!("{} {} of {} schedules", p.kind.shown_in(), thousands(shown as usize), thousands(self.runs() as usize)))
    }

    /// "Redis SET NX PX, fencing off" (in the table, the row's label as planned).
    pub fn cell_words(&self, cell: usize) -> String {
        let c = &self.cells[cell];
        let label = self.plan(cell).map_or_else(|| row_label(&c.row), |p| p.row.label.clone());
        format!("{label}, fencing {}", if c.fencing { "on" } else { "off" })
    }

    /// Cell `cell`'s counterexample `f` (shrunk, once it is) as a scenario file in JSON.
    pub fn open(&self, cell: usize, f: &Found) -> String {
        let shrunk = self.shrunk(cell, f.index);
        let (mix, seed, runs) = self.cell_mix(cell);
        let how = format!(
            "Explorer seed {seed}, schedule {} of {} on {} ({mix}){}",
            f.index,
            thousands(runs as usize),
            self.cell_words(cell),
            shrunk.map_or_else(|| ", not shrunk".to_string(), |s| format!(", shrunk in {} runs", s.runs))
        );
        json(&fitted(&as_found(shrunk.map_or(&f.scenario, |s| &s.after), self.cells[cell].explorer.target(f), &how)))
    }

    /// Cell `cell`'s smallest lost update as a scenario file in JSON.
    pub fn open_smallest(&self, cell: usize) -> Option<String> {
        let s = self.smallest(cell)?;
        let (mix, seed, runs) = self.cell_mix(cell);
        let how = format!(
            "The smallest lost update of the seed's table for {}: explorer seed {seed}, {} schedules of {mix}, shrunk in {} runs",
            self.cell_words(cell),
            thousands(runs as usize),
            s.runs
        );
        Some(json(&fitted(&as_found(&s.after, Class::LostUpdate, &how))))
    }

    /// What a search that found nothing says: how many schedules, of which mix, on what.
    pub fn nothing_found(&self) -> String {
        let cells: Vec<String> = (0..self.cells.len()).map(|c| self.cell_words(c)).collect();
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        if let Some(p) = self.settings.property {
            let runs = thousands(self.runs() as usize);
            let on = format!("{}; {}", self.settings.mix_words(), and_list(&cells));
            return format!("Nothing found: {} of the {runs} schedules ({on}): {}.", p.kind.none_shown(), p.statement);
        }
        format!(
            "Nothing found: all {} schedules ({}; {}) were safe — no lost update, no token handed out again, never two believers at once.",
            thousands(self.runs() as usize),
            self.settings.mix_words(),
            and_list(&cells)
        )
    }
}

pub(super) fn json(s: &Scenario) -> String {
    serde_json::to_string_pretty(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::explore::tests::ticking;

    fn pause_only() -> Settings {
        let mut s = Settings::search();
        s.kinds = vec![FaultKind::by_id("pause").unwrap()];
        s.runs = 400;
        s
    }

    #[test]
    fn a_rare_count_is_never_shown_as_zero_percent() {
        assert_eq!(percent(1, 10_000), "under 0.1%");
        assert_eq!(percent(4, 10_000), "under 0.1%");
        assert_eq!(percent(5, 10_000), "0.1%");
        assert_eq!(percent(0, 10_000), "0.0%");
        assert_eq!(percent(84, 2_000), "4.2%");
        assert_eq!(percent(0, 0), "0.0%");
    }

    #[test]
    fn a_search_in_slices_counts_and_keeps_what_one_batch_does() {
        let settings = pause_only();
        let mut search = Search::new(&settings, false).unwrap();
        let mut clock = ticking(1.0);
        let mut slices = 0;
        while search.busy() {
            search.step(&mut clock, 8.0);
            slices += 1;
            assert!(slices < 10_000);
        }
        let whole =
            crate::explore::explore(&lab::with_fencing(&table::base(crate::scenario::Approach::Redis), false), &settings.mix(), 1, 400)
                .unwrap();
        assert_eq!(search.runs(), 400);
        assert_eq!(search.counts(), whole.counts);
        let found: Vec<&Found> = search.found().into_iter().map(|(_, f)| f).collect();
        assert_eq!(found, whole.found.iter().collect::<Vec<_>>());
        // About 8 looks at the clock per slice: a few schedules each, never the whole search.
        assert!(slices > 20, "{slices} slices");
        // The shown counterexample was shrunk in the slices too, to what shrink gives.
        let (cell, f, k, n) = search.shown().unwrap();
        assert_eq!((cell, k), (0, 0));
        assert!(n >= 1);
        assert_eq!(search.shrunk(cell, f.index), Some(&crate::explore::shrink::shrink(&f.scenario, f.class)));
        assert!(search.timing.wall_ms > 0.0 && search.timing.search_ms > 0.0);
    }

    #[test]
    fn next_walks_through_the_distinct_counterexamples_and_open_gives_a_found_scenario() {
        let mut settings = Settings::search();
        settings.runs = 600;
        settings.fencing = Fencing::Both;
        let mut search = Search::new(&settings, false).unwrap();
        search.step(&mut ticking(0.0001), 1.0e9);
        assert!(!search.running());
        let n = search.found().len();
        assert!(n >= 2, "{:?}", search.counts());
        let mut seen = Vec::new();
        for _ in 0..n {
            let (c, f, _, _) = search.shown().unwrap();
            seen.push((c, f.index, f.class));
            search.next();
        }
        seen.dedup();
        assert_eq!(seen.len(), n);
        assert_eq!(search.shown().map(|(_, _, k, _)| k), Some(0), "it wraps around");
        while search.busy() {
            search.step(&mut ticking(0.0001), 1.0e9);
        }
        let (c, f, _, _) = search.shown().unwrap();
        let text = search.open(c, f);
        let s = crate::scenario::parse(&text).unwrap();
        assert!(s.title.starts_with("Found by the explorer: "), "{}", s.title);
        assert!(s.intro.contains("shrunk in"), "{}", s.intro);
        assert_eq!(Class::of(&lab::run(&s).verdict), f.class);
    }

    #[test]
    fn an_opened_counterexample_ends_when_its_story_does() {
        // etcd with fencing: a paused holder makes two believers early on, and the explorer's
        // 30 s run has nothing but server heartbeats after that.
        let mut settings = pause_only();
        settings.rows = vec!["etcd".into()];
        settings.fencing = Fencing::On;
        settings.runs = 200;
        let mut search = Search::new(&settings, false).unwrap();
        while search.busy() {
            search.step(&mut ticking(0.0001), 1.0e9);
        }
        let (c, f, _, _) = search.shown().expect("two believers at once");
        let opened = crate::scenario::parse(&search.open(c, f)).unwrap();
        assert!(opened.duration_ms < f.scenario.duration_ms, "{} ms", opened.duration_ms);
        assert_eq!(opened.duration_ms % 1_000, 0);
        let run = lab::run(&opened);
        assert_eq!(Class::of(&run.verdict), f.class);
        let t = crate::timeline::Timeline::of_run(&run);
        let last_write = t.writes.iter().map(|w| w.at).max().unwrap_or(0);
        let last_belief = t.beliefs.iter().map(|b| b.to).max().unwrap_or(0);
        assert!(last_write.max(last_belief) + 1_000 <= opened.duration_ms, "the story fits, with a second to spare");
    }

    #[test]
    fn a_stopped_search_keeps_its_counts_and_nothing_found_says_of_what() {
        let mut settings = pause_only();
        settings.rows = vec!["etcd".into()];
        settings.fencing = Fencing::On;
        settings.runs = 50;
        let mut search = Search::new(&settings, false).unwrap();
        search.step(&mut ticking(1.0), 10.0);
        let runs = search.runs();
        assert!(runs > 0 && runs < 50);
        search.stop();
        search.step(&mut ticking(1.0), 10.0);
        assert_eq!(search.runs(), runs);
        assert!(!search.busy());
        // A drifting clock does not shorten an etcd lease: the server times it.
        settings.kinds = vec![FaultKind::by_id("clock_drift").unwrap()];
        let mut done = Search::new(&settings, false).unwrap();
        done.step(&mut ticking(0.0), 1.0);
        assert!(done.step_until_done());
        assert!(done.found().is_empty(), "{:?}", done.counts());
        assert_eq!(
            done.nothing_found(),
            "Nothing found: all 50 schedules (up to 3 faults of clock drift, on any node; etcd mutex, fencing on) were safe — no lost update, no token handed out again, never two believers at once."
        );
    }

    #[test]
    fn a_search_for_a_named_property_keeps_the_runs_that_show_it_and_says_so() {
        use crate::check::properties::by_id;
        use crate::session::explore::{Action, Page};
        let one_believer = by_id("one-believer").unwrap();
        let mut page = Page::default();
        page.apply(Action::Property(Some(one_believer)));
        let mut settings = pause_only();
        assert_eq!(page.search_settings.property, Some(one_believer));
        settings.property = page.search_settings.property;
        let mut search = Search::new(&settings, false).unwrap();
        search.step_until_done();
        let (cell, f, _, n) = search.shown().expect("a holder's pause on Redis makes two believers");
        assert!(n >= 1 && crate::explore::class::discovery(one_believer, &f.scenario).is_some());
        let words = search.shown_words().unwrap();
        assert!(words.starts_with("broken in ") && words.ends_with(" of 400 schedules"), "{words}");
        assert_eq!(search.shows(cell, f), one_believer.found_words());
        // What opens is the shrunk run, titled by the property, and it still breaks it.
        let opened = crate::scenario::parse(&search.open(cell, f)).unwrap();
        assert!(opened.title.contains(one_believer.statement), "{}", opened.title);
        assert!(crate::explore::class::discovery(one_believer, &opened).is_some());
        // A property no run breaks here: nothing found, said in its own words.
        settings.property = by_id("lock-granted");
        settings.runs = 30;
        let mut none = Search::new(&settings, false).unwrap();
        none.step_until_done();
        assert!(none.shown().is_none());
        let text = none.nothing_found();
        assert!(text.starts_with("Nothing found: it came true in every one of the 30 schedules ("), "{text}");
        assert!(text.ends_with(": some client eventually gets the lock."), "{text}");
    }

    impl Search {
        fn step_until_done(&mut self) -> bool {
            while self.busy() {
                self.step(&mut ticking(0.001), 100.0);
            }
            true
        }
    }

    #[test]
    fn the_table_fills_every_cell_and_its_smallest_is_the_table_modules() {
        let mut t = Search::planned(&Settings::table(), Some(60)).unwrap();
        assert_eq!(t.cells.len(), 2 * table::rows().len());
        // The first slices reach every cell: they fill together.
        t.step(&mut ticking(1.0), 30.0);
        assert!(t.cells.iter().all(|c| c.explorer.progress().runs > 0));
        t.step_until_done();
        for (i, c) in t.cells.iter().enumerate() {
            let cell = c.cell();
            assert_eq!(cell.counts, c.explorer.progress().counts);
            assert_eq!(t.smallest(i), cell.smallest.as_ref(), "{}", t.cell_words(i));
        }
        // The page's cells are the table module's, cell for cell (the CLI runs the same).
        let measured = table::measured(Some(60));
        let page: Vec<table::Cell> = t.cells.iter().map(CellSearch::cell).collect();
        assert_eq!(page, measured);
        assert!(t.cells.iter().enumerate().any(|(i, _)| t.open_smallest(i).is_some()), "some cell lost an update");
    }

    #[test]
    fn settings_toggle_in_their_lists_order_and_an_empty_choice_is_refused() {
        let mut s = Settings::search();
        s.toggle_row("etcd");
        s.toggle_row("db-lease");
        assert_eq!(s.rows, ["db-lease", "redis", "etcd"]);
        s.toggle_row("redis");
        assert_eq!(s.rows, ["db-lease", "etcd"]);
        s.toggle_kind(FaultKind::by_id("pause").unwrap());
        assert_eq!(s.kinds.len(), FaultKind::ALL.len() - 1);
        s.rows.clear();
        assert_eq!(Search::new(&s, false).err().unwrap().field, "approaches");
        s.rows = vec!["redis".into()];
        s.kinds.clear();
        assert_eq!(Search::new(&s, false).err().unwrap().field, "kinds");
    }
}
