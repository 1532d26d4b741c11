//! The Explore panel's state and what changes it, in plain Rust: a search over the
//! approaches chosen (`search`), the seed's table (a search over all of them) and a sweep
//! (`sweep`), each tab with its settings and its search once started. The panel
//! (src/ui/explore/) draws a `Page` and sends it `Action`s; `Page::apply` is the reducer.
//! It hands the page slices of time: `Page::step(now, budget_ms)` shares the slice among the
//! tabs with work. The model keeps no clock of its own; tests hand it a counter.

mod farm;
mod search;
mod sweep;

pub use farm::Hand;
pub use search::{percent, row_label, Fencing, Search, Settings, Timing, MAX_FAULTS};
pub use sweep::{Chart, Lines, Sweep, SweepSettings};

use crate::check::properties::Property;
use crate::explore::sweep::Param;
use crate::scenario::FaultKind;

/// The panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Search,
    Table,
    Sweep,
}

impl Tab {
    pub const ALL: [Tab; 3] = [Tab::Search, Tab::Table, Tab::Sweep];

    /// Its test hook: `explore-tab-{id}`.
    pub fn id(self) -> &'static str {
        match self {
            Tab::Search => "search",
            Tab::Table => "table",
            Tab::Sweep => "sweep",
        }
    }
}

/// A number field of the form, with the bounds the page keeps its value within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Faults per schedule, at most (a select of 1..=`MAX_FAULTS`).
    MaxFaults,
    /// Schedules per approach (per table cell).
    Runs,
    Seed,
    /// A sweep's range, in the param's page units (`SweepSettings::scale`).
    From,
    To,
    /// A sweep's points.
    Steps,
    /// A sweep's schedules per point.
    PointRuns,
}

impl Field {
    /// Its test hook: `explore-set-{id}`.
    pub fn id(self) -> &'static str {
        match self {
            Field::MaxFaults => "max",
            Field::Runs => "runs",
            Field::Seed => "seed",
            Field::From => "from",
            Field::To => "to",
            Field::Steps => "steps",
            Field::PointRuns => "points-runs",
        }
    }

    /// The lowest and highest value it takes.
    pub fn bounds(self) -> (i64, i64) {
        match self {
            Field::MaxFaults => (1, MAX_FAULTS as i64),
            Field::Runs => (1, 1_000_000),
            Field::Seed => (0, i64::MAX),
            Field::From | Field::To => (-3_600_000, 3_600_000),
            Field::Steps => (2, 41),
            Field::PointRuns => (1, 100_000),
        }
    }
}

/// Everything a control of the panel can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Tab(Tab),
    /// Starts the tab's search afresh with its settings.
    Start,
    /// Stops the tab's search (what it found stays).
    Stop,
    /// The search's next counterexample.
    Next,
    /// Ticks or unticks an approach (a `table::rows()` id) of the search.
    ToggleRow(String),
    ToggleKind(FaultKind),
    Fencing(Fencing),
    /// The search looks for a named property (None: what goes wrong, by class).
    Property(Option<&'static Property>),
    /// A number as typed: kept within the field's bounds; one that is no number leaves the
    /// value as it was (either way the form shows the value kept).
    Set(Field, String),
    /// The sweep varies another number: its range starts again from that number's own.
    Param(Param),
    Lines(Lines),
    /// Opens the search's counterexample on show.
    Open,
    /// Opens a table cell's smallest lost update.
    OpenCell(usize),
    /// Opens a run at a point of the sweep's chart: line, then point along it.
    OpenPoint(usize, usize),
}

/// Everything the panel holds: each tab's settings and its search, if one was started.
pub struct Page {
    pub tab: Tab,
    pub search_settings: Settings,
    pub search: Option<Search>,
    pub table_settings: Settings,
    pub table: Option<Search>,
    pub sweep_settings: SweepSettings,
    pub sweep: Option<Sweep>,
    /// Why the last Start was refused.
    pub error: Option<String>,
    /// Counts the changes after which the form must be drawn again from the page (a tab, a
    /// sweep's parameter, a value the page corrected): a value typed or ticked shows already,
    /// and the form is otherwise left alone while a search redraws the rest every frame.
    pub form_version: u64,
    /// Workers a search or the table is handed out to when it starts (`farm`); 0: the page's
    /// own slices (no workers here, or they failed).
    pub workers: usize,
    /// Searches started, to tell a late answer of an earlier one.
    started: u64,
    /// Which of the search and the table the next task comes from.
    task_turn: bool,
}

impl Default for Page {
    fn default() -> Page {
        Page {
            tab: Tab::Search,
            search_settings: Settings::search(),
            search: None,
            table_settings: Settings::table(),
            table: None,
            sweep_settings: SweepSettings::new(Param::default()),
            sweep: None,
            error: None,
            form_version: 0,
            workers: 0,
            started: 0,
            task_turn: false,
        }
    }
}

impl Page {
    /// Starts the current tab's search afresh with its settings.
    pub fn start(&mut self) {
        self.started += 1;
        let farmed = |mut s: Search| {
            if self.workers > 0 {
                s.farm_out(self.started, self.workers);
            }
            Some(s)
        };
        let started = match self.tab {
            Tab::Search => Search::new(&self.search_settings, false).map(|s| self.search = farmed(s)),
            Tab::Table => Search::planned(&self.table_settings, None).map(|s| self.table = farmed(s)),
            Tab::Sweep => Sweep::new(&self.sweep_settings).map(|s| self.sweep = Some(s)),
        };
        self.error = started.err().map(|e| e.message);
    }

    /// The next task for a worker (`Search::task`), from the search and the table in turn.
    pub fn task(&mut self) -> Option<String> {
        self.task_turn = !self.task_turn;
        let (first, second) = if self.task_turn { (&mut self.search, &mut self.table) } else { (&mut self.table, &mut self.search) };
        first.as_mut().and_then(Search::task).or_else(|| second.as_mut().and_then(Search::task))
    }

    /// A worker's answer, for the search it was asked for (an earlier search's is dropped).
    pub fn receive(&mut self, answer: &str) {
        let Ok(v) = crate::scenario::strict_json::parse(answer) else { return };
        let id = v.get("search").and_then(serde_json::Value::as_u64);
        for s in [self.search.as_mut(), self.table.as_mut()].into_iter().flatten() {
            if s.farm_id().is_some() && s.farm_id() == id {
                s.receive(&v);
            }
        }
    }

    /// Workers cannot run here (or failed): from now on every search runs in the page's
    /// slices, the ones under way from where they are.
    pub fn fall_back(&mut self) {
        self.workers = 0;
        for s in [self.search.as_mut(), self.table.as_mut()].into_iter().flatten() {
            s.fall_back();
        }
    }

    /// Applies `action`; the scenario file to open (JSON), if it asks to open one.
    pub fn apply(&mut self, action: Action) -> Option<String> {
        match action {
            Action::Tab(tab) => {
                self.tab = tab;
                self.error = None;
                self.form_version += 1;
            }
            Action::Start => self.start(),
            Action::Stop => self.stop(),
            Action::Next => {
                if let Some(s) = self.search.as_mut() {
                    s.next();
                }
            }
            Action::ToggleRow(id) => self.settings().toggle_row(&id),
            Action::ToggleKind(kind) => self.settings().toggle_kind(kind),
            Action::Fencing(f) => self.settings().fencing = f,
            Action::Property(p) => self.search_settings.property = p,
            Action::Set(field, text) => self.set(field, &text),
            Action::Param(p) => {
                let s = &self.sweep_settings;
                self.sweep_settings =
                    SweepSettings { lines: s.lines.clone(), steps: s.steps, runs: s.runs, seed: s.seed, ..SweepSettings::new(p) };
                self.form_version += 1;
            }
            Action::Lines(lines) => self.sweep_settings.lines = lines,
            Action::Open => {
                let s = self.search.as_ref()?;
                return s.shown().map(|(cell, f, _, _)| s.open(cell, f));
            }
            Action::OpenCell(cell) => return self.table.as_ref()?.open_smallest(cell),
            Action::OpenPoint(line, k) => return self.sweep.as_ref()?.open(line, k),
        }
        None
    }

    /// The settings the form on show edits (the sweep has its own).
    fn settings(&mut self) -> &mut Settings {
        if self.tab == Tab::Table {
            &mut self.table_settings
        } else {
            &mut self.search_settings
        }
    }

    /// The value of `field` as the page keeps it.
    pub fn value(&self, field: Field) -> i64 {
        let s = if self.tab == Tab::Table { &self.table_settings } else { &self.search_settings };
        let sw = &self.sweep_settings;
        match field {
            Field::MaxFaults => s.max_faults as i64,
            Field::Runs => s.runs as i64,
            Field::Seed => s.seed as i64,
            Field::From => sw.from,
            Field::To => sw.to,
            Field::Steps => sw.steps as i64,
            Field::PointRuns => sw.runs as i64,
        }
    }

    /// `text` typed into `field`: within its bounds it is kept; a number outside them is
    /// clamped, and no number leaves the value as it was. Either correction writes the form
    /// again, so that it shows the value kept.
    fn set(&mut self, field: Field, text: &str) {
        let (lo, hi) = field.bounds();
        let typed = text.trim().parse::<i64>().ok();
        let v = typed.map(|v| v.clamp(lo, hi));
        if v != typed || v.is_none() {
            self.form_version += 1;
        }
        let Some(v) = v else { return };
        match field {
            Field::MaxFaults => self.settings().max_faults = v as usize,
            Field::Runs => self.settings().runs = v as u64,
            Field::Seed => self.settings().seed = v as u64,
            Field::From => self.sweep_settings.from = v,
            Field::To => self.sweep_settings.to = v,
            Field::Steps => self.sweep_settings.steps = v as usize,
            Field::PointRuns => self.sweep_settings.runs = v as u64,
        }
    }

    /// Stops the current tab's search (what it found stays).
    pub fn stop(&mut self) {
        match self.tab {
            Tab::Search => self.search.as_mut().map(Search::stop),
            Tab::Table => self.table.as_mut().map(Search::stop),
            Tab::Sweep => self.sweep.as_mut().map(Sweep::stop),
        };
    }

    /// Whether the current tab's search is running.
    pub fn running(&self) -> bool {
        match self.tab {
            Tab::Search => self.search.as_ref().is_some_and(Search::running),
            Tab::Table => self.table.as_ref().is_some_and(Search::running),
            Tab::Sweep => self.sweep.as_ref().is_some_and(Sweep::running),
        }
    }

    /// Whether any tab has work for a slice.
    pub fn busy(&self) -> bool {
        self.search.as_ref().is_some_and(Search::busy)
            || self.table.as_ref().is_some_and(Search::busy)
            || self.sweep.as_ref().is_some_and(Sweep::running)
    }

    /// Whether all the work there is runs on workers: the page then has nothing to compute,
    /// only what they found to draw.
    pub fn all_on_workers(&self) -> bool {
        let searches = [self.search.as_ref(), self.table.as_ref()];
        !self.sweep.as_ref().is_some_and(Sweep::running) && searches.into_iter().flatten().filter(|s| s.busy()).all(|s| s.workers() > 0)
    }

    /// One slice of `budget_ms`, shared by the tabs with work.
    pub fn step(&mut self, now: &mut dyn FnMut() -> f64, budget_ms: f64) {
        let busy = [
            self.search.as_ref().is_some_and(Search::busy),
            self.table.as_ref().is_some_and(Search::busy),
            self.sweep.as_ref().is_some_and(Sweep::running),
        ];
        let share = budget_ms / busy.iter().filter(|&&b| b).count().max(1) as f64;
        if let (true, Some(s)) = (busy[0], self.search.as_mut()) {
            s.step(now, share);
        }
        if let (true, Some(s)) = (busy[1], self.table.as_mut()) {
            s.step(now, share);
        }
        if let (true, Some(s)) = (busy[2], self.sweep.as_mut()) {
            s.step(now, share);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::scenario::fault::Delay;

    /// A clock that moves `ms` at every look.
    pub(crate) fn ticking(ms: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += ms;
            t
        }
    }

    fn kind(id: &str) -> FaultKind {
        FaultKind::by_id(id).unwrap()
    }

    #[test]
    fn a_start_with_no_kind_is_refused_with_why() {
        let mut page = Page::default();
        for k in page.search_settings.kinds.clone() {
            page.apply(Action::ToggleKind(k));
        }
        page.apply(Action::Start);
        assert_eq!(page.error.as_deref(), Some("no fault kinds to draw from"));
        assert!(!page.running());
        page.apply(Action::Tab(Tab::Table));
        assert_eq!(page.error, None, "a tab starts without the last refusal");
    }

    #[test]
    fn numbers_are_kept_within_bounds_and_a_correction_redraws_the_form() {
        let mut page = Page::default();
        let v = page.form_version;
        assert_eq!(page.apply(Action::Set(Field::Runs, "300".into())), None);
        assert_eq!((page.search_settings.runs, page.form_version), (300, v), "kept as typed: the form shows it already");
        page.apply(Action::Set(Field::Runs, "many".into()));
        assert_eq!(page.search_settings.runs, 300, "not a number: unchanged");
        assert_eq!(page.form_version, v + 1, "and the form shows 300 again");
        page.apply(Action::Set(Field::Runs, " 99999999 ".into()));
        assert_eq!(page.search_settings.runs, 1_000_000, "clamped");
        assert_eq!(page.value(Field::Runs), 1_000_000);
        page.apply(Action::Set(Field::MaxFaults, "5".into()));
        assert_eq!(page.search_settings.max_faults, 5);
        // The table's settings are the table tab's own.
        page.apply(Action::Tab(Tab::Table));
        page.apply(Action::Set(Field::Runs, "40".into()));
        assert_eq!((page.table_settings.runs, page.search_settings.runs), (40, 1_000_000));
        assert_eq!(page.value(Field::MaxFaults), 3);
        page.apply(Action::Set(Field::Steps, "1".into()));
        assert_eq!(page.sweep_settings.steps, 2);
    }

    #[test]
    fn toggles_fencing_and_lines_change_the_tab_on_show() {
        let mut page = Page::default();
        page.apply(Action::ToggleKind(kind("pause")));
        assert!(!page.search_settings.kinds.contains(&kind("pause")));
        page.apply(Action::ToggleKind(kind("pause")));
        assert_eq!(page.search_settings.kinds, FaultKind::ALL, "back in its place in the list");
        page.apply(Action::ToggleRow("etcd".into()));
        page.apply(Action::Fencing(Fencing::Both));
        assert_eq!(
            (page.search_settings.rows.as_slice(), page.search_settings.fencing),
            (&["redis".to_string(), "etcd".into()][..], Fencing::Both)
        );
        page.apply(Action::Tab(Tab::Table));
        page.apply(Action::ToggleKind(kind("crash")));
        assert_eq!(page.table_settings.kinds, [kind("pause")]);
        assert_eq!(page.search_settings.kinds, FaultKind::ALL);
        let lines = Lines::Approaches { fencing: true };
        assert_eq!(Lines::by_id(&lines.id()), Some(lines.clone()));
        assert_eq!(Lines::choices().len(), crate::explore::table::rows().len() + 2);
        page.apply(Action::Lines(lines.clone()));
        assert_eq!(page.sweep_settings.lines, lines);
    }

    #[test]
    fn a_page_with_workers_hands_out_both_searches_and_routes_each_answer_to_its_own() {
        let mut alone = Page::default();
        let mut farmed = Page { workers: 2, ..Page::default() };
        let mut hands = [crate::session::explore::Hand::default(), crate::session::explore::Hand::default()];
        for page in [&mut alone, &mut farmed] {
            page.apply(Action::Set(Field::Runs, "300".into()));
            page.apply(Action::Start);
            page.apply(Action::Tab(Tab::Table));
            page.apply(Action::Set(Field::Runs, "40".into()));
        }
        // The table at its full plan is the CLI's business: here its start alone, then a stop.
        farmed.apply(Action::Start);
        assert!(farmed.all_on_workers() && !alone.all_on_workers());
        farmed.apply(Action::Stop);
        let mut answers = Vec::new();
        while farmed.busy() {
            let tasks: Vec<String> = (0..2).map_while(|_| farmed.task()).collect();
            for (t, h) in tasks.iter().zip(&mut hands).rev() {
                answers.push(h.answer(t, &mut ticking(1.0)));
                farmed.receive(answers.last().unwrap());
            }
            farmed.step(&mut ticking(1.0), 8.0);
        }
        while alone.busy() {
            alone.step(&mut ticking(0.01), 100.0);
        }
        let (a, f) = (alone.search.as_ref().unwrap(), farmed.search.as_ref().unwrap());
        assert_eq!((f.runs(), f.counts(), f.found()), (a.runs(), a.counts(), a.found()));
        // An answer to a search started since is dropped; workers failing leave the page alone.
        farmed.apply(Action::Tab(Tab::Search));
        farmed.apply(Action::Start);
        for a in &answers {
            farmed.receive(a);
        }
        assert_eq!(farmed.search.as_ref().unwrap().runs(), 0);
        farmed.fall_back();
        assert_eq!((farmed.workers, farmed.search.as_ref().unwrap().workers()), (0, 0));
    }

    #[test]
    fn a_search_runs_in_slices_and_opens_its_shrunk_counterexample() {
        let mut page = Page::default();
        page.apply(Action::Set(Field::Runs, "300".into()));
        assert_eq!(page.apply(Action::Open), None, "nothing to open yet");
        page.apply(Action::Start);
        assert!(page.running());
        while page.busy() {
            page.step(&mut ticking(0.01), 8.0);
        }
        let s = page.search.as_ref().unwrap();
        assert_eq!(s.runs(), 300);
        let (cell, f, k, _) = s.shown().expect("a counterexample");
        assert_eq!(k, 0);
        assert!(s.shrunk(cell, f.index).is_some(), "shrunk in the slices");
        let json = page.apply(Action::Open).expect("a counterexample to open");
        assert!(json.contains("Found by the explorer"), "{json}");
        page.apply(Action::Next);
        assert_eq!(page.search.as_ref().unwrap().shown().map(|s| s.2), Some(1 % page.search.as_ref().unwrap().found().len()));
        page.apply(Action::Tab(Tab::Table));
        assert!(page.table.is_none() && !page.running(), "the table has not started");
        page.apply(Action::Tab(Tab::Sweep));
        page.apply(Action::Param(Param::of::<Delay>()));
        assert_eq!((page.sweep_settings.param, page.sweep_settings.from, page.sweep_settings.to), (Param::of::<Delay>(), 0, 5_000));
    }

    #[test]
    fn the_table_fills_every_cell_and_a_stopped_tab_keeps_its_counts() {
        let mut page = Page::default();
        page.apply(Action::Tab(Tab::Table));
        page.apply(Action::Set(Field::Runs, "40".into()));
        page.apply(Action::Start);
        page.step(&mut ticking(0.01), 50.0);
        let t = page.table.as_ref().unwrap();
        assert_eq!(t.cells.len(), 2 * crate::explore::table::rows().len());
        assert!(t.cells.iter().all(|c| c.explorer.progress().runs > 0), "every cell ran some");
        page.apply(Action::Stop);
        let runs = page.table.as_ref().unwrap().runs();
        assert!(!page.running());
        page.step(&mut ticking(0.01), 50.0);
        assert_eq!(page.table.as_ref().unwrap().runs(), runs);
    }

    #[test]
    fn a_sweep_draws_its_points_marks_the_ttl_and_opens_a_point() {
        let mut page = Page::default();
        page.apply(Action::Tab(Tab::Sweep));
        page.apply(Action::Set(Field::Steps, "3".into()));
        page.apply(Action::Set(Field::PointRuns, "20".into()));
        page.apply(Action::Start);
        while page.busy() {
            page.step(&mut ticking(0.01), 8.0);
        }
        let chart = Chart::new(page.sweep.as_ref().unwrap(), Chart::WIDE);
        assert_eq!(chart.lines.iter().map(|l| l.1.len()).collect::<Vec<_>>(), [3, 3]);
        assert!(chart.ttl_x.is_some(), "the lease's end marked on a pause sweep");
        let json = page.apply(Action::OpenPoint(0, 2)).unwrap();
        assert!(json.contains("2 × TTL"), "{json}");
        assert!(page.apply(Action::OpenPoint(1, 2)).is_some());
        assert_eq!(page.apply(Action::OpenPoint(0, 3)), None, "no such point");
    }
}
