//! Rates: how often a scenario loses an update (a stale write accepted) or has two believers
//! at once, over N runs that differ only in their seed, as proportions with a 95% interval;
//! and the same rate swept against one setting (the TTL, a scheduled pause's p99, a clock's
//! drift). Plain Rust: the CLI prints these cells (`locklab rate`), and a page can show the
//! same ones.
//!
//! Run `i` of a scenario with seed S has seed S + i, so `locklab run FILE --seed S+i` replays
//! any of them; the seed reaches the network's draws and every fault schedule's
//! (`scenario::fault::schedule`). Runs are folded in index order, so the cells are the same
//! on one thread or many.

use serde::Serialize;

use super::class::Class;
use crate::check::properties::Check;
use crate::check::Verdict;
use crate::lab;
use crate::scenario::fault::dist::Dist;
use crate::scenario::fault::{ClockDrift, Pause};
use crate::scenario::fault::{FaultSpec, Variant};
use crate::scenario::{validate, Scenario};

/// z for a two-sided 95% interval: Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// `hits` of `runs`: a proportion with its interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Proportion {
    pub hits: u64,
    pub runs: u64,
}

impl Proportion {
    /// hits ÷ runs (0 for no runs).
    pub fn rate(self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.hits as f64 / self.runs as f64
        }
    }

    /// The Wilson score interval at `z` (Wilson 1927, "Probable inference, the law of
    /// succession, and statistical inference", JASA 22:209–212), clamped to [0, 1].
    ///
    /// Why Wilson and not the textbook p ± z·√(p(1−p)/n) (Wald): the rates that matter here
    /// are often 0 of 1,000 or 3 of 1,000, and there Wald's interval collapses to [0, 0] or
    /// dips below 0, claiming certainty the runs do not give. Wilson's stays inside [0, 1],
    /// is never empty at 0 or n hits, and covers close to 95% even for small counts (Brown,
    /// Cai & DasGupta 2001, "Interval Estimation for a Binomial Proportion", Statist. Sci.
    /// 16:101–133, recommend it for exactly this). Only `sqrt`, which IEEE 754 rounds
    /// exactly, so the bounds are the same bits on every target.
    pub fn wilson(self, z: f64) -> (f64, f64) {
        if self.runs == 0 {
            return (0.0, 1.0);
        }
        let n = self.runs as f64;
        let p = self.rate();
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // At 0 (or n) hits the bound is 0 (or 1) exactly; rounding must not say otherwise.
        let lo = if self.hits == 0 { 0.0 } else { (centre - half).max(0.0) };
        let hi = if self.hits == self.runs { 1.0 } else { (centre + half).min(1.0) };
        (lo, hi)
    }

    /// The 95% interval.
    pub fn interval(self) -> (f64, f64) {
        self.wilson(Z_95)
    }
}

/// What N runs of one scenario showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Rate {
    pub runs: u64,
    /// Runs in which a stale write was accepted (the property `no-lost-update` violated).
    pub lost_updates: Proportion,
    /// Runs in which two clients believed they held the lock at once (`one-believer`
    /// violated), whether or not an update was lost.
    pub two_believers: Proportion,
}

/// Whether `v` violates the property of `class` (the classes' own properties: one home for
/// what "lost update" and "two believers" mean).
fn shows(class: Class, v: &Verdict) -> bool {
    class.property().is_some_and(|p| matches!(p.check, Check::Verdict(f) if f(v).is_some()))
}

/// Run `i` of `s`: the same scenario with seed `s.seed + i`.
pub fn nth(s: &Scenario, i: u64) -> Scenario {
    let mut out = s.clone();
    out.seed = s.seed.wrapping_add(i);
    out
}

/// What run `i` showed: (lost update, two believers).
fn outcome(s: &Scenario, i: u64) -> (bool, bool) {
    let v = lab::judge(&nth(s, i));
    (shows(Class::LostUpdate, &v), shows(Class::TwoBelievers, &v))
}

/// The rate of `runs` runs of `s` (valid), on every core rayon is given when `parallel`
/// (native only); the same numbers either way.
pub fn measure(s: &Scenario, runs: u64, parallel: bool) -> Rate {
    let mut search = RateSearch::new(s, runs);
    search.batch(runs, parallel);
    search.rate()
}

/// One rate measured in batches: a page runs a few runs in each frame (it has one thread),
/// the CLI all of them at once on every core; the numbers are the same however it is cut,
/// as runs are counted in seed order.
#[derive(Clone, Debug)]
pub struct RateSearch {
    scenario: Scenario,
    total: u64,
    next: u64,
    lost_updates: u64,
    two_believers: u64,
}

impl RateSearch {
    /// `runs` runs of `s` (a valid scenario), none run yet.
    pub fn new(s: &Scenario, runs: u64) -> RateSearch {
        RateSearch { scenario: s.clone(), total: runs, next: 0, lost_updates: 0, two_believers: 0 }
    }

    /// Runs up to `n` more, one after another.
    pub fn run_batch(&mut self, n: u64) -> Rate {
        self.batch(n, false)
    }

    /// `run_batch` on every core rayon is given (native only); the same result.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_batch_parallel(&mut self, n: u64) -> Rate {
        self.batch(n, true)
    }

    fn batch(&mut self, n: u64, parallel: bool) -> Rate {
        let range = self.next..self.total.min(self.next.saturating_add(n));
        let outcomes = super::in_order(range.clone(), parallel, |i| outcome(&self.scenario, i));
        for (lost, two) in outcomes {
            self.lost_updates += lost as u64;
            self.two_believers += two as u64;
        }
        self.next = range.end;
        self.rate()
    }

    pub fn done(&self) -> bool {
        self.next >= self.total
    }

    /// The rate of the runs so far.
    pub fn rate(&self) -> Rate {
        let of = |hits| Proportion { hits, runs: self.next };
        Rate { runs: self.next, lost_updates: of(self.lost_updates), two_believers: of(self.two_believers) }
    }
}

/// A setting a rate can be swept against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `lock.ttl_ms`.
    TtlMs,
    /// The p99 of every log-normal pause schedule (its median kept).
    PauseP99Ms,
    /// The `ppm` of every clock drift, fault or schedule (a schedule's drawn as fixed).
    DriftPpm,
}

impl Setting {
    pub const ALL: [Setting; 3] = [Setting::TtlMs, Setting::PauseP99Ms, Setting::DriftPpm];

    /// The name `--sweep` takes.
    pub fn id(self) -> &'static str {
        match self {
            Setting::TtlMs => "ttl_ms",
            Setting::PauseP99Ms => "pause_p99_ms",
            Setting::DriftPpm => "drift_ppm",
        }
    }

    pub fn by_id(id: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.id() == id)
    }

    /// `s` with the setting at `value`, validated; the error says what is missing or wrong.
    pub fn apply(self, s: &Scenario, value: i64) -> Result<Scenario, String> {
        let mut out = s.clone();
        // What a scenario must have for the setting to set, when it has none of it.
        let missing = match self {
            Setting::TtlMs => {
                out.lock.ttl_ms = value;
                None
            }
            Setting::PauseP99Ms => {
                let mut found = false;
                for sch in out.schedules.iter_mut().filter(|x| Pause::of(&x.template).is_some()) {
                    if let Some(Dist::LogNormal { p99, .. }) = &mut sch.amount {
                        *p99 = value;
                        found = true;
                    }
                }
                (!found).then_some("pause schedule with a log_normal duration to set the p99 of")
            }
            Setting::DriftPpm => {
                let mut found = false;
                for f in &mut out.faults {
                    if let FaultSpec::ClockDrift(d) = f {
                        d.ppm = value;
                        found = true;
                    }
                }
                for sch in out.schedules.iter_mut().filter(|x| ClockDrift::of(&x.template).is_some()) {
                    sch.amount = Some(Dist::Fixed { value });
                    found = true;
                }
                (!found).then_some("clock_drift fault or schedule to set")
            }
        };
        if let Some(what) = missing {
            return Err(format!("the scenario has no {what}"));
        }
        validate::validate(&out).map_err(|e| format!("at {value}: {e}"))?;
        Ok(out)
    }
}

/// One row of a sweep: the setting's value and the rate there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Row {
    pub value: i64,
    #[serde(flatten)]
    pub rate: Rate,
}

/// The rate of `s` at each of `values` of `setting`, `runs` runs each (the same seeds at
/// every value, so a row differs from the next by the setting alone).
pub fn sweep(s: &Scenario, setting: Setting, values: &[i64], runs: u64, parallel: bool) -> Result<Vec<Row>, String> {
    let scenarios: Vec<Scenario> = values.iter().map(|&v| setting.apply(s, v)).collect::<Result<_, _>>()?;
    Ok(values.iter().zip(&scenarios).map(|(&value, s)| Row { value, rate: measure(s, runs, parallel) }).collect())
}

/// `steps` whole values evenly spaced from `from` to `to`, both included, without repeats.
pub fn values(from: i64, to: i64, steps: usize) -> Vec<i64> {
    let mut out: Vec<i64> = super::sweep::points(from as f64, to as f64, steps).into_iter().map(|x| x.round() as i64).collect();
    out.dedup();
    out
}

/// A proportion as the table prints it: "12.3%".
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A proportion's 95% interval as the table prints it: "[9.8%, 15.2%]".
pub fn interval_words(p: Proportion) -> String {
    let (lo, hi) = p.interval();
    format!("[{}, {}]", percent(lo), percent(hi))
}

/// The table of a sweep (or of one rate, with `setting` None): one row per value with runs,
/// lost updates, their rate and 95% interval, then the same for two believers.
pub fn table(setting: Option<Setting>, rows: &[Row]) -> String {
    let head = setting.map_or("scenario", |s| s.id());
    let mut cells: Vec<[String; 8]> = vec![[
        head.to_string(),
        "runs".into(),
        "lost updates".into(),
        "rate".into(),
        "95% interval".into(),
        "two believers".into(),
        "rate".into(),
        "95% interval".into(),
    ]];
    for r in rows {
        let (l, b) = (r.rate.lost_updates, r.rate.two_believers);
        let value = if setting.is_some() { r.value.to_string() } else { "as written".into() };
        cells.push([
            value,
            r.rate.runs.to_string(),
            l.hits.to_string(),
            percent(l.rate()),
            interval_words(l),
            b.hits.to_string(),
            percent(b.rate()),
            interval_words(b),
        ]);
    }
    let widths: Vec<usize> = (0..8).map(|c| cells.iter().map(|row| row[c].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in &cells {
        let line: Vec<String> = row.iter().zip(&widths).map(|(cell, w)| format!("{cell:>w$}")).collect();
        out += line.join("  ").trim_end();
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5
    }

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // Newcombe 1998 ("Two-sided confidence intervals for the single proportion", Statist.
        // Med. 17:857–872), table I, method 3 (Wilson score, no continuity correction):
        // 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
        assert!(close(Proportion { hits: 81, runs: 263 }.interval(), (0.2553, 0.3662)));
        assert!(close(Proportion { hits: 15, runs: 148 }.interval(), (0.0624, 0.1605)));
        assert!(close(Proportion { hits: 0, runs: 20 }.interval(), (0.0, 0.1611)));
        assert!(close(Proportion { hits: 1, runs: 29 }.interval(), (0.0061, 0.1718)));
        // All hits: the mirror image of none.
        let (lo, hi) = Proportion { hits: 20, runs: 20 }.interval();
        assert!((lo - (1.0 - 0.1611)).abs() < 5e-5 && hi == 1.0);
        assert_eq!(Proportion::default().interval(), (0.0, 1.0), "no runs: nothing known");
    }

    #[test]
    fn a_rate_run_in_batches_is_the_rate_run_at_once() {
        let s = crate::explore::table::base(crate::scenario::Approach::Redis);
        let mut gc = s.clone();
        gc.faults.push(FaultSpec::Pause(Pause { at_ms: 2_500, node: "A".into(), duration_ms: 9_000 }));
        let whole = measure(&gc, 25, false);
        let mut cut = RateSearch::new(&gc, 25);
        while !cut.done() {
            cut.run_batch(7);
        }
        assert_eq!(cut.rate(), whole);
        assert_eq!(whole.runs, 25);
        assert_eq!(cut.run_batch(5), whole, "nothing runs past the total");
    }

    #[test]
    fn values_are_whole_and_distinct() {
        assert_eq!(values(1_000, 3_000, 3), [1_000, 2_000, 3_000]);
        assert_eq!(values(1, 2, 5), [1, 2]);
    }
}
