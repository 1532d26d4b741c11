//! A sweep run in slices: one number of a single fault varied over a range, a search per
//! point and line, advanced in turn like a search's cells; and its chart's geometry.

use super::search::{json, row_label, turns, Slice, Timing};
use crate::decimal::Short;
use crate::explore::sweep::{self, Param, PointSearch, Series};
use crate::explore::{as_found, table, Class, MixError};
use crate::lab;
use crate::scenario::validate::slug;
use crate::scenario::Scenario;
use crate::timeline::draw::words::thousands;

/// How a sweep draws its lines.
#[derive(Clone, Debug, PartialEq)]
pub enum Lines {
    /// One line per table row, all with this fencing setting.
    Approaches { fencing: bool },
    /// One row, a line for fencing off and one for on.
    Fencing { row: String },
}

impl Lines {
    /// Every choice the form offers, with its words: each row's fencing off and on, then every
    /// approach with fencing off, and on.
    pub fn choices() -> Vec<(Lines, String)> {
        let mut out: Vec<(Lines, String)> =
            table::rows().into_iter().map(|r| (Lines::Fencing { row: r.id }, format!("{}: fencing off and on", r.label))).collect();
        out.push((Lines::Approaches { fencing: false }, "every approach, fencing off".into()));
        out.push((Lines::Approaches { fencing: true }, "every approach, fencing on".into()));
        out
    }

    /// Its value in the form's select: "row:redis", "all:on".
    pub fn id(&self) -> String {
        match self {
            Lines::Approaches { fencing } => format!("all:{}", if *fencing { "on" } else { "off" }),
            Lines::Fencing { row } => format!("row:{row}"),
        }
    }

    pub fn by_id(id: &str) -> Option<Lines> {
        Lines::choices().into_iter().map(|(l, _)| l).find(|l| l.id() == id)
    }
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
            lines: Lines::Fencing { row: start_row() },
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
                let row = table::row(row).or_else(|| table::row(&start_row())).expect("the explorer starts on a row of the table");
                let base = row.base;
                [false, true].iter().map(|&f| (format!("fencing {}", if f { "on" } else { "off" }), lab::with_fencing(&base, f))).collect()
            }
        }
    }
}

/// The row a sweep starts on (and falls back to for an unknown id): the search tab's first,
/// so the explorer's start is decided in one place.
fn start_row() -> String {
    super::search::Settings::search().rows.swap_remove(0)
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

/// One point of a chart's line: its (x, y) on screen, lost updates and runs.
pub type ChartPoint = (f64, f64, u64, u64);

/// The sweep chart's geometry, in SVG user units: the plot area and where each point goes.
pub struct Chart {
    pub width: f64,
    pub height: f64,
    /// Plot area: left, top, right, bottom.
    pub area: (f64, f64, f64, f64),
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// Per line: its label and its points.
    pub lines: Vec<(String, Vec<ChartPoint>)>,
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
        let top = ((top * 10.0).ceil() / 10.0).clamp(0.1, 1.0);
        let py = |share: f64| area.3 - (area.3 - area.1) * share / top;
        let x_ticks =
            points_every(&sweep.xs, if width < Self::WIDE.0 { 4 } else { 6 }).into_iter().map(|x| (px(x), sweep.x_words(x))).collect();
        let y_ticks = (0..=4).map(|k| top * k as f64 / 4.0).map(|v| (py(v), format!("{}%", Short(100.0 * v, 1)))).collect();
        let lines = series
            .iter()
            .map(|s| {
                let pts =
                    s.points.iter().filter(|p| p.runs > 0).map(|p| (px(p.x), py(p.lost_share()), p.counts.lost_update, p.runs)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::explore::tests::ticking;

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
