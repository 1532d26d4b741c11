//! A sweep: one number of the fault mix fixed at each of a range of values, and the share of
//! runs that lose an update at each, one line per base scenario (per approach, or per fencing
//! setting). Each point explores one fault of the swept kind, everything but that number drawn
//! at random, so the step where a pause outlives the lease shows as a jump in the line.

use super::class::{Class, Counts};
use super::{Explorer, Mix, MixError};
use crate::scenario::{FaultKind, Scenario};

/// The number a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// A client's pause, as a multiple of the lock's TTL.
    PauseTtl,
    /// A clock jump on any node, in ms (negative: back).
    JumpMs,
    /// A clock drift on any node, in ppm.
    DriftPpm,
    /// A delay on any link, in ms.
    DelayMs,
}

impl Param {
    pub const ALL: [Param; 4] = [Param::PauseTtl, Param::JumpMs, Param::DriftPpm, Param::DelayMs];

    /// The name `--sweep` takes.
    pub fn id(self) -> &'static str {
        match self {
            Param::PauseTtl => "pause_ttl",
            Param::JumpMs => "jump_ms",
            Param::DriftPpm => "drift_ppm",
            Param::DelayMs => "delay_ms",
        }
    }

    pub fn by_id(id: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.id() == id)
    }

    /// What the page calls it, with its unit.
    pub fn words(self) -> &'static str {
        match self {
            Param::PauseTtl => "pause ÷ TTL",
            Param::JumpMs => "clock jump (ms)",
            Param::DriftPpm => "clock drift (ppm)",
            Param::DelayMs => "network delay (ms)",
        }
    }

    /// The range a sweep of it starts from: a pause from nothing to twice the TTL, the others
    /// over the range the explorer draws them from (the fault kind's own `draw`).
    pub fn range(self) -> (f64, f64) {
        if self == Param::PauseTtl {
            return (0.0, 2.0);
        }
        let (kind, field) = self.field();
        let number = FaultKind::by_id(kind).and_then(|k| k.param(field)).and_then(|(_, p)| match p.ty {
            crate::scenario::fault::Ty::Number(n) => Some(n),
            _ => None,
        });
        number.map_or((0.0, 1.0), |n| (n.draw.0 as f64, n.draw.1 as f64))
    }

    /// The fault kind it varies and the field it fixes.
    fn field(self) -> (&'static str, &'static str) {
        match self {
            Param::PauseTtl => ("pause", "duration_ms"),
            Param::JumpMs => ("clock_jump", "by_ms"),
            Param::DriftPpm => ("clock_drift", "ppm"),
            Param::DelayMs => ("delay", "by_ms"),
        }
    }

    /// The mix of one point: a single fault of the swept kind with its number at `x`; a pause
    /// strikes a client (a holder), the others any node.
    pub fn mix(self, x: f64, base: &Scenario) -> Mix {
        let (kind, field) = self.field();
        let kind = FaultKind::by_id(kind).unwrap_or_else(|| unreachable!("a fault kind"));
        let value = match self {
            Param::PauseTtl => ((x * base.lock.ttl_ms as f64).round() as i64).max(1),
            _ => x.round() as i64,
        };
        let mut mix = Mix::of(&[kind]);
        mix.max_faults = 1;
        mix.ranges = vec![(kind, field, value, value)];
        if self == Param::PauseTtl {
            mix.nodes = Some(base.clients.iter().map(|c| c.name.clone()).collect());
        }
        mix
    }
}

/// `steps` evenly spaced values from `from` to `to` (both included; one value if `steps` ≤ 1).
pub fn points(from: f64, to: f64, steps: usize) -> Vec<f64> {
    if steps <= 1 {
        return vec![from];
    }
    (0..steps).map(|k| from + (to - from) * k as f64 / (steps - 1) as f64).collect()
}

/// One point of one line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub runs: u64,
    pub counts: Counts,
}

impl Point {
    /// The share of runs that lost an update, 0..=1.
    pub fn lost_share(&self) -> f64 {
        self.counts.share(Class::LostUpdate)
    }
}

/// One line: a base scenario's points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<Point>,
}

/// One point's search, to be run in batches.
pub struct PointSearch {
    pub line: usize,
    pub x: f64,
    pub explorer: Explorer,
}

/// Every point's search: each line (label, base) at each `x`, `n` schedules from `seed`.
pub fn searches(param: Param, xs: &[f64], lines: &[(String, Scenario)], seed: u64, n: u64) -> Result<Vec<PointSearch>, MixError> {
    let mut out = Vec::new();
    for (line, (_, base)) in lines.iter().enumerate() {
        for &x in xs {
            out.push(PointSearch { line, x, explorer: Explorer::new(base, param.mix(x, base), seed, n)? });
        }
    }
    Ok(out)
}

/// The lines of finished point searches.
pub fn series(lines: &[(String, Scenario)], done: &[PointSearch]) -> Vec<Series> {
    lines
        .iter()
        .enumerate()
        .map(|(i, (label, _))| Series {
            label: label.clone(),
            points: done
                .iter()
                .filter(|p| p.line == i)
                .map(|p| {
                    let progress = p.explorer.progress();
                    Point { x: p.x, runs: progress.runs, counts: progress.counts }
                })
                .collect(),
        })
        .collect()
}

/// A whole sweep, one schedule after another.
pub fn sweep(param: Param, xs: &[f64], lines: &[(String, Scenario)], seed: u64, n: u64) -> Result<Vec<Series>, MixError> {
    let mut all = searches(param, xs, lines, seed, n)?;
    for p in &mut all {
        p.explorer.run_batch(n);
    }
    Ok(series(lines, &all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::table::base;
    use crate::lab;
    use crate::scenario::Approach;

    #[test]
    fn every_param_has_a_range_its_mix_accepts() {
        let b = base(Approach::Redis);
        for p in Param::ALL {
            let (from, to) = p.range();
            assert!(from < to, "{}", p.id());
            for x in points(from, to, 5) {
                Explorer::new(&b, p.mix(x, &b), 1, 1).unwrap_or_else(|e| panic!("{} at {x}: {e}", p.id()));
            }
        }
        assert_eq!(Param::JumpMs.range(), (-20_000.0, 20_000.0));
    }

    #[test]
    fn a_pause_shorter_than_the_ttl_loses_nothing_and_a_longer_one_does() {
        let b = base(Approach::Redis);
        let lines = vec![("redis".to_string(), b.clone()), ("redis + fencing".to_string(), lab::with_fencing(&b, true))];
        let xs = points(0.5, 1.5, 3);
        assert_eq!(xs, [0.5, 1.0, 1.5]);
        let s = sweep(Param::PauseTtl, &xs, &lines, 1, 300).unwrap();
        let share = |line: usize, k: usize| s[line].points[k].lost_share();
        assert_eq!(share(0, 0), 0.0, "half a TTL of pause: the lease outlives it");
        assert!(share(0, 2) > 0.02, "1.5 TTLs: {}", share(0, 2));
        assert!((0..3).all(|k| share(1, k) == 0.0), "fencing stops them all");
        assert!(s.iter().all(|l| l.points.iter().all(|p| p.runs == 300)));
    }
}
