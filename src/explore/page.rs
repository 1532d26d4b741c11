//! The Explore panel's model in plain Rust: a search over the approaches chosen, the seed's
//! table and a sweep, each as a set of explorer searches ("lanes") advanced in turn, one
//! schedule each, so they fill together. The page (src/ui/explore.rs) only draws this and hands
//! it slices of time: `Page::step(now, budget_ms)` runs schedules (and shrinks the
//! counterexamples it shows) until the page's clock says the budget is spent, then returns so
//! the frame can be drawn. The model keeps no clock of its own; tests hand it a counter.
//!
//! A slice runs whole schedules, so it ends up to one schedule past its budget.

use super::shrink::{Job, Shrunk};
use super::sweep::{self, Param, PointSearch, Series};
use super::table::{self, CellSearch};
use super::{as_found, Class, Counts, Explorer, Found, Mix, MixError};
use crate::decimal::{Fixed, Short};
use crate::lab;
use crate::scenario::validate::slug;
use crate::scenario::{FaultKind, Scenario};
use crate::timeline::draw::words::{and_list, thousands};

/// The page's clock and how far this slice may go.
pub struct Slice<'a> {
    now: &'a mut dyn FnMut() -> f64,
    end: f64,
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
}

/// The most faults a schedule may have in the page (the shrinking budget is set for 8).
pub const MAX_FAULTS: usize = 8;

impl Settings {
    /// The search tab's start: Redis without fencing, every fault kind.
    pub fn search() -> Settings {
        Settings { rows: vec!["redis".into()], fencing: Fencing::Off, kinds: FaultKind::ALL.to_vec(), max_faults: 3, runs: 5_000, seed: 1 }
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
        let nouns: Vec<&str> = self.kinds.iter().map(|k| k.noun()).collect();
        format!("up to {} fault{} of {}, on any node", self.max_faults, if self.max_faults == 1 { "" } else { "s" }, and_list(&nouns))
    }

    /// One search per chosen row and fencing setting.
    fn cells(&self) -> Result<Vec<CellSearch>, MixError> {
        let rows: Vec<table::Row> = table::rows().into_iter().filter(|r| self.rows.contains(&r.id)).collect();
        if rows.is_empty() {
            return Err(MixError { field: "approaches", message: "choose at least one approach".into() });
        }
        let mut out = Vec::new();
        for row in rows {
            for &fencing in self.fencing.settings() {
                let explorer = Explorer::new(&lab::with_fencing(&row.base, fencing), self.mix(), self.seed, self.runs)?;
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

/// "4.2%": a share of runs, one decimal.
pub fn percent(share: f64) -> String {
    format!("{}%", Fixed(100.0 * share, 1))
}

/// Runs the lanes in turn, one schedule each, while the slice lasts; how many it ran.
fn turns<T>(lanes: &mut [T], turn: &mut usize, explorer: fn(&mut T) -> &mut Explorer, slice: &mut Slice) -> u64 {
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
    fn begin(&mut self, t: f64) {
        self.started.get_or_insert(t);
    }

    fn end(&mut self, t: f64) {
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
    turn: usize,
    running: bool,
    /// Shrink every lost update found (the table's smallest per cell), not only the one shown.
    shrink_all: bool,
    shrinks: Vec<Shrinking>,
    shown: usize,
    pub timing: Timing,
}

impl Search {
    pub fn new(settings: &Settings, shrink_all: bool) -> Result<Search, MixError> {
        let cells = settings.cells()?;
        Ok(Search {
            settings: settings.clone(),
            cells,
            turn: 0,
            running: true,
            shrink_all,
            shrinks: Vec::new(),
            shown: 0,
            timing: Timing::default(),
        })
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
    fn wanted(&self) -> Vec<(usize, u64)> {
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

    /// One slice: shrinks first (up to half of it while the search runs), then schedules.
    pub fn step(&mut self, now: &mut dyn FnMut() -> f64, budget_ms: f64) {
        let t0 = now();
        self.timing.begin(t0);
        let shrink_end = if self.running { t0 + budget_ms / 2.0 } else { t0 + budget_ms };
        for (cell, index) in self.wanted() {
            if now() >= shrink_end {
                break;
            }
            let at = match self.shrinks.iter().position(|s| s.cell == cell && s.index == index) {
                Some(at) => at,
                None => {
                    let f = self.cells[cell].explorer.found().iter().find(|f| f.index == index).unwrap_or_else(|| unreachable!("kept"));
                    self.shrinks.push(Shrinking { cell, index, job: Job::new(&f.scenario, f.class) });
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
            self.running = self.runs() < self.total();
        }
        let t2 = now();
        self.timing.search_ms += t2 - t1;
        self.timing.end(t2);
    }

    /// "Redis SET NX PX, fencing off".
    pub fn cell_words(&self, cell: usize) -> String {
        let c = &self.cells[cell];
        format!("{}, fencing {}", row_label(&c.row), if c.fencing { "on" } else { "off" })
    }

    /// Cell `cell`'s counterexample `f` (shrunk, once it is) as a scenario file in JSON.
    pub fn open(&self, cell: usize, f: &Found) -> String {
        let shrunk = self.shrunk(cell, f.index);
        let how = format!(
            "Explorer seed {}, schedule {} of {} on {} ({}){}",
            self.settings.seed,
            f.index,
            thousands(self.settings.runs as usize),
            self.cell_words(cell),
            self.settings.mix_words(),
            shrunk.map_or_else(|| ", not shrunk".to_string(), |s| format!(", shrunk in {} runs", s.runs))
        );
        json(&as_found(shrunk.map_or(&f.scenario, |s| &s.after), f.class, &how))
    }

    /// Cell `cell`'s smallest lost update as a scenario file in JSON.
    pub fn open_smallest(&self, cell: usize) -> Option<String> {
        let s = self.smallest(cell)?;
        let how = format!(
            "The smallest lost update of the seed's table for {}: explorer seed {}, {} schedules of {}, shrunk in {} runs",
            self.cell_words(cell),
            self.settings.seed,
            thousands(self.settings.runs as usize),
            self.settings.mix_words(),
            s.runs
        );
        Some(json(&as_found(&s.after, Class::LostUpdate, &how)))
    }

    /// What a search that found nothing says: how many schedules, of which mix, on what.
    pub fn nothing_found(&self) -> String {
        let cells: Vec<String> = (0..self.cells.len()).map(|c| self.cell_words(c)).collect();
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        format!(
            "Nothing found: all {} schedules ({}; {}) were safe — no lost update, no token handed out again, never two believers at once.",
            thousands(self.runs() as usize),
            self.settings.mix_words(),
            and_list(&cells)
        )
    }
}

fn json(s: &Scenario) -> String {
    serde_json::to_string_pretty(s).unwrap_or_default()
}

/// How a sweep draws its lines.
#[derive(Clone, Debug, PartialEq)]
pub enum Lines {
    /// One line per table row, all with this fencing setting.
    Approaches { fencing: bool },
    /// One row, a line for fencing off and one for on.
    Fencing { row: String },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SweepSettings {
    pub param: Param,
    /// The range in the param's units; a pause in percent of the TTL (the page reads whole
    /// numbers only).
    pub from: i64,
    pub to: i64,
    pub steps: usize,
    pub runs: u64,
    pub lines: Lines,
    pub seed: u64,
}

impl SweepSettings {
    pub fn new(param: Param) -> SweepSettings {
        let (from, to) = param.range();
        let scale = Self::scale(param);
        SweepSettings {
            param,
            from: (from * scale) as i64,
            to: (to * scale) as i64,
            steps: 11,
            runs: 200,
            lines: Lines::Fencing { row: "redis".into() },
            seed: 1,
        }
    }

    /// Page units per param unit: a pause ÷ TTL is typed in percent.
    pub fn scale(param: Param) -> f64 {
        if param.per_ttl() {
            100.0
        } else {
            1.0
        }
    }

    fn lines(&self) -> Vec<(String, Scenario)> {
        match &self.lines {
            Lines::Approaches { fencing } => {
                table::rows().into_iter().map(|r| (r.label.clone(), lab::with_fencing(&r.base, *fencing))).collect()
            }
            Lines::Fencing { row } => {
                let base = table::row(row).map_or_else(|| table::base(crate::scenario::Approach::Redis), |r| r.base);
                [false, true].iter().map(|&f| (format!("fencing {}", if f { "on" } else { "off" }), lab::with_fencing(&base, f))).collect()
            }
        }
    }
}

/// A sweep run in slices.
pub struct Sweep {
    pub settings: SweepSettings,
    pub xs: Vec<f64>,
    pub lines: Vec<(String, Scenario)>,
    points: Vec<PointSearch>,
    turn: usize,
    running: bool,
    pub timing: Timing,
}

impl Sweep {
    pub fn new(settings: &SweepSettings) -> Result<Sweep, MixError> {
        let scale = SweepSettings::scale(settings.param);
        if settings.from > settings.to {
            return Err(MixError { field: "range", message: "the range must run from low to high".into() });
        }
        let xs = sweep::points(settings.from as f64 / scale, settings.to as f64 / scale, settings.steps);
        let lines = settings.lines();
        let points = sweep::searches(settings.param, &xs, &lines, settings.seed, settings.runs)?;
        Ok(Sweep { settings: settings.clone(), xs, lines, points, turn: 0, running: true, timing: Timing::default() })
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn stop(&mut self) {
        self.running = false;
    }

    pub fn runs(&self) -> u64 {
        self.points.iter().map(|p| p.explorer.progress().runs).sum()
    }

    pub fn total(&self) -> u64 {
        self.points.iter().map(|p| p.explorer.progress().total).sum()
    }

    pub fn step(&mut self, now: &mut dyn FnMut() -> f64, budget_ms: f64) {
        let t0 = now();
        self.timing.begin(t0);
        let mut slice = Slice { now: &mut *now, end: t0 + budget_ms };
        turns(&mut self.points, &mut self.turn, |p| &mut p.explorer, &mut slice);
        self.running = self.running && self.runs() < self.total();
        let t1 = now();
        self.timing.search_ms += t1 - t0;
        self.timing.end(t1);
    }

    pub fn series(&self) -> Vec<Series> {
        sweep::series(&self.lines, &self.points)
    }

    /// "1.2 × TTL", "-5000 ms".
    pub fn x_words(&self, x: f64) -> String {
        match self.settings.param {
            p if p.per_ttl() => format!("{} × TTL", Short(x, 2)),
            p => format!("{} {}", Short(x, 0), p.unit()),
        }
    }

    /// A run at point `k` of line `line`: its first lost update (as drawn, not shrunk: shrinking
    /// would move the very number swept), or else its first schedule; as a scenario file.
    pub fn open(&self, line: usize, k: usize) -> Option<String> {
        let p = self.points.iter().filter(|p| p.line == line).nth(k)?;
        let (index, scenario) = match p.explorer.found().iter().find(|f| f.class == Class::LostUpdate) {
            Some(f) => (f.index, f.scenario.clone()),
            None => (0, p.explorer.schedule(0)),
        };
        let class = Class::of(&lab::judge(&scenario));
        let label = &self.lines[line].0;
        let how = format!(
            "A sweep of {} on {label}: at {}, {} of {} schedules lost an update; this is schedule {index}",
            self.settings.param.words(),
            self.x_words(p.x),
            thousands(p.explorer.progress().counts.lost_update as usize),
            thousands(p.explorer.progress().runs as usize),
        );
        let what = match &self.settings.lines {
            Lines::Approaches { .. } => label.clone(),
            Lines::Fencing { row } => row_label(row),
        };
        let fencing = if scenario.storage.fencing { "on" } else { "off" };
        let mut s = as_found(&scenario, class, &how);
        let head = if class == Class::Safe {
            "A sweep's run: nothing unsafe".to_string()
        } else {
            format!("Found by the explorer: {}", class.words())
        };
        s.title = format!("{head} at {} ({what}, fencing {fencing})", self.x_words(p.x));
        s.id = slug(&s.title);
        Some(json(&s))
    }
}

/// The sweep chart's geometry, in SVG user units: the plot area and where each point goes.
pub struct Chart {
    pub width: f64,
    pub height: f64,
    /// Plot area: left, top, right, bottom.
    pub area: (f64, f64, f64, f64),
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// Per line: its label, and each point's (x, y, share, runs) on screen.
    pub lines: Vec<(String, Vec<(f64, f64, f64, u64)>)>,
    /// Where a pause as long as the TTL is drawn, if the range holds it: the step's cause.
    pub ttl_x: Option<f64>,
}

impl Chart {
    /// The chart for a wide screen, and for a phone: fewer units across so that its text,
    /// scaled down to the screen with the rest, stays readable.
    pub const WIDE: (f64, f64) = (760.0, 300.0);
    pub const NARROW: (f64, f64) = (400.0, 260.0);

    pub fn new(sweep: &Sweep, (width, height): (f64, f64)) -> Chart {
        // The right margin holds half the last x label ("2 × TTL", "10000 ms") under its point.
        let area = (56.0, 14.0, width - 48.0, height - 38.0);
        let (x0, x1) = (sweep.xs.first().copied().unwrap_or(0.0), sweep.xs.last().copied().unwrap_or(1.0));
        let span = if x1 > x0 { x1 - x0 } else { 1.0 };
        let px = |x: f64| area.0 + (area.2 - area.0) * (x - x0) / span;
        // The y axis reaches the highest share, rounded up to a tenth (at least 10%).
        let series = sweep.series();
        let top = series.iter().flat_map(|s| &s.points).map(|p| p.lost_share()).fold(0.0, f64::max);
        let top = ((top * 10.0).ceil() / 10.0).max(0.1).min(1.0);
        let py = |share: f64| area.3 - (area.3 - area.1) * share / top;
        let x_ticks =
            points_every(&sweep.xs, if width < Self::WIDE.0 { 4 } else { 6 }).into_iter().map(|x| (px(x), sweep.x_words(x))).collect();
        let y_ticks = (0..=4).map(|k| top * k as f64 / 4.0).map(|v| (py(v), format!("{}%", Short(100.0 * v, 1)))).collect();
        let lines = series
            .iter()
            .map(|s| {
                let pts = s.points.iter().filter(|p| p.runs > 0).map(|p| (px(p.x), py(p.lost_share()), p.lost_share(), p.runs)).collect();
                (s.label.clone(), pts)
            })
            .collect();
        let ttl_x = (sweep.settings.param.per_ttl() && x0 < 1.0 && 1.0 < x1).then(|| px(1.0));
        Chart { width, height, area, x_ticks, y_ticks, lines, ttl_x }
    }
}

/// At most about `n` of `xs`, evenly picked, the first and last always: a step that divides
/// the range when one is near, else the last in place of a pick less than a step from it
/// (their labels would overlap).
fn points_every(xs: &[f64], n: usize) -> Vec<f64> {
    let Some(end) = xs.len().checked_sub(1) else { return Vec::new() };
    let least = end.div_ceil(n.saturating_sub(1).max(1)).max(1);
    let every = (least..=(2 * least).min(end.max(1))).find(|d| end % d == 0).unwrap_or(least);
    let mut picks: Vec<usize> = (0..=end).step_by(every).collect();
    if picks.last() != Some(&end) {
        if picks.len() > 1 && end - picks[picks.len() - 1] < every {
            picks.pop();
        }
        picks.push(end);
    }
    picks.into_iter().map(|i| xs[i]).collect()
}

/// The panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Search,
    Table,
    Sweep,
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
    /// Counts the changes after which the form must be written again (a tab, a sweep's
    /// parameter, a value the page corrected); a value typed or ticked shows already.
    pub form_version: u64,
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
        }
    }
}

impl Page {
    /// Starts the current tab's search afresh with its settings.
    pub fn start(&mut self) {
        let started = match self.tab {
            Tab::Search => Search::new(&self.search_settings, false).map(|s| self.search = Some(s)),
            Tab::Table => Search::new(&self.table_settings, true).map(|s| self.table = Some(s)),
            Tab::Sweep => Sweep::new(&self.sweep_settings).map(|s| self.sweep = Some(s)),
        };
        self.error = started.err().map(|e| e.message);
    }

    /// What a control of the panel asks for (view.rs: its `data-do`, `data-arg`, and a field's
    /// value); the scenario file to open (JSON), if it asks to open one.
    pub fn input(&mut self, what: &str, arg: &str, value: &str) -> Option<String> {
        let typed = value.trim().parse::<i64>().ok();
        // A number within its bounds; one typed outside them, or no number, is corrected on
        // the form.
        let mut corrected = false;
        let mut int = |lo: i64, hi: i64| {
            let v = typed.map(|v| v.clamp(lo, hi));
            corrected = v != typed || v.is_none();
            v
        };
        let settings = if self.tab == Tab::Table { &mut self.table_settings } else { &mut self.search_settings };
        let sweep = &mut self.sweep_settings;
        match what {
            "tab" => {
                self.tab = match arg {
                    "table" => Tab::Table,
                    "sweep" => Tab::Sweep,
                    _ => Tab::Search,
                };
                self.error = None;
                self.form_version += 1;
            }
            "start" => self.start(),
            "stop" => self.stop(),
            "next" => {
                if let Some(s) = self.search.as_mut() {
                    s.next();
                }
            }
            "row" => settings.toggle_row(arg),
            "kind" => {
                if let Some(k) = FaultKind::by_id(arg) {
                    settings.toggle_kind(k);
                }
            }
            "fencing" => settings.fencing = Fencing::ALL.into_iter().find(|f| f.id() == arg).unwrap_or(Fencing::Off),
            "max" => settings.max_faults = int(1, MAX_FAULTS as i64).map_or(settings.max_faults, |v| v as usize),
            "runs" => settings.runs = int(1, 1_000_000).map_or(settings.runs, |v| v as u64),
            "seed" => settings.seed = int(0, i64::MAX).map_or(settings.seed, |v| v as u64),
            "param" => {
                if let Some(p) = Param::by_id(value) {
                    *sweep = SweepSettings {
                        lines: sweep.lines.clone(),
                        steps: sweep.steps,
                        runs: sweep.runs,
                        seed: sweep.seed,
                        ..SweepSettings::new(p)
                    };
                    self.form_version += 1;
                }
            }
            "from" => sweep.from = int(-3_600_000, 3_600_000).unwrap_or(sweep.from),
            "to" => sweep.to = int(-3_600_000, 3_600_000).unwrap_or(sweep.to),
            "steps" => sweep.steps = int(2, 41).map_or(sweep.steps, |v| v as usize),
            "points-runs" => sweep.runs = int(1, 100_000).map_or(sweep.runs, |v| v as u64),
            "lines" => {
                sweep.lines = match value.split_once(':') {
                    Some(("all", f)) => Lines::Approaches { fencing: f == "on" },
                    Some((_, row)) => Lines::Fencing { row: row.to_string() },
                    None => sweep.lines.clone(),
                }
            }
            "open" => {
                let s = self.search.as_ref()?;
                return s.shown().map(|(cell, f, _, _)| s.open(cell, f));
            }
            "open-cell" => return self.table.as_ref()?.open_smallest(arg.parse().ok()?),
            "open-point" => {
                let (line, k) = arg.split_once(':')?;
                return self.sweep.as_ref()?.open(line.parse().ok()?, k.parse().ok()?);
            }
            _ => {}
        }
        if corrected {
            self.form_version += 1;
        }
        None
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
mod tests {
    use super::*;

    /// A clock that moves `ms` at every look.
    fn ticking(ms: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += ms;
            t
        }
    }

    fn pause_only() -> Settings {
        let mut s = Settings::search();
        s.kinds = vec![FaultKind::by_id("pause").unwrap()];
        s.runs = 400;
        s
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
            super::super::explore(&lab::with_fencing(&table::base(crate::scenario::Approach::Redis), false), &settings.mix(), 1, 400)
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
        assert_eq!(search.shrunk(cell, f.index), Some(&super::super::shrink::shrink(&f.scenario, f.class)));
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
        let mut settings = Settings::table();
        settings.runs = 60;
        let mut t = Search::new(&settings, true).unwrap();
        assert_eq!(t.cells.len(), 12);
        // The first slices reach every cell: they fill together.
        t.step(&mut ticking(1.0), 30.0);
        assert!(t.cells.iter().all(|c| c.explorer.progress().runs > 0));
        t.step_until_done();
        for (i, c) in t.cells.iter().enumerate() {
            let cell = c.cell();
            assert_eq!(cell.counts, c.explorer.progress().counts);
            assert_eq!(t.smallest(i), cell.smallest.as_ref(), "{}", t.cell_words(i));
        }
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
        let mut page = Page::default();
        page.search_settings.kinds.clear();
        page.start();
        assert_eq!(page.error.as_deref(), Some("no fault kinds to draw from"));
    }

    #[test]
    fn a_sweep_steps_up_where_the_pause_outlives_the_lease_and_its_points_open() {
        let mut settings = SweepSettings::new(Param::default());
        assert_eq!((settings.from, settings.to), (0, 200));
        settings.steps = 5;
        settings.runs = 100;
        let mut sw = Sweep::new(&settings).unwrap();
        assert_eq!(sw.xs, [0.0, 0.5, 1.0, 1.5, 2.0]);
        while sw.running() {
            sw.step(&mut ticking(0.01), 8.0);
        }
        let series = sw.series();
        assert_eq!(series.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), ["fencing off", "fencing on"]);
        let off: Vec<f64> = series[0].points.iter().map(|p| p.lost_share()).collect();
        assert_eq!(off[1], 0.0, "half a TTL");
        assert!(off[4] > 0.0, "{off:?}");
        assert!(series[1].points.iter().all(|p| p.lost_share() == 0.0));
        let chart = Chart::new(&sw, Chart::WIDE);
        assert_eq!(chart.lines.len(), 2);
        let pts = &chart.lines[0].1;
        assert!(pts[4].1 < pts[1].1, "a higher share is drawn higher");
        assert_eq!(chart.x_ticks.first().map(|t| t.1.as_str()), Some("0 × TTL"));
        // Half of "2 × TTL" (12 px text, about 7 px a character) fits right of the last point.
        let last = chart.lines[0].1.last().unwrap().0;
        assert!(last + 3.5 * 7.0 <= chart.width, "the last x label is cut off: {last} of {}", chart.width);
        assert_eq!(chart.ttl_x, Some((chart.area.0 + chart.area.2) / 2.0), "1 × TTL, halfway along 0..2");
        let narrow = Chart::new(&sw, Chart::NARROW);
        assert!(narrow.width < chart.width && narrow.x_ticks.len() <= chart.x_ticks.len());
        let text = sw.open(0, 4).unwrap();
        let s = crate::scenario::parse(&text).unwrap();
        assert_eq!(s.title, "Found by the explorer: a lost update at 2 × TTL (Redis SET NX PX, fencing off)");
        let safe = crate::scenario::parse(&sw.open(1, 0).unwrap()).unwrap();
        assert_eq!(safe.title, "A sweep's run: nothing unsafe at 0 × TTL (Redis SET NX PX, fencing on)");
    }

    #[test]
    fn axis_labels_are_spread_evenly_and_never_crowd_the_last() {
        let xs: Vec<f64> = (0..=10).map(f64::from).collect();
        assert_eq!(points_every(&xs, 6), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(points_every(&xs, 4), [0.0, 5.0, 10.0], "a step that divides the range");
        assert_eq!(points_every(&xs[..10], 4), [0.0, 3.0, 6.0, 9.0]);
        assert_eq!(points_every(&xs[..8], 4), [0.0, 3.0, 7.0], "6 is one point from the end: the end takes its place");
        assert_eq!(points_every(&xs[..2], 6), [0.0, 1.0]);
        assert_eq!(points_every(&xs[..1], 6), [0.0]);
        assert!(points_every(&[], 6).is_empty());
    }
}
