//! A sweep: one number of the fault mix fixed at each of a range of values, and the share of
//! runs that lose an update at each, one line per base scenario (per approach, or per fencing
//! setting). Each point explores one fault of the swept kind, everything but that number drawn
//! at random, so the step where a pause outlives the lease shows as a jump in the line.

use super::class::{Class, Counts};
use super::{Explorer, Mix, MixError};
use crate::scenario::fault::{Pause, Sweep, Variant};
use crate::scenario::{FaultKind, Scenario};

/// The number a sweep varies: the one its fault kind names (`Kind::SWEEP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    kind: FaultKind,
    sweep: &'static Sweep,
}

impl Param {
    /// One per kind that has a sweep, in the format's order of kinds.
    pub fn all() -> Vec<Param> {
        FaultKind::ALL.into_iter().filter_map(|kind| Some(Param { kind, sweep: kind.sweep()? })).collect()
    }

    /// The sweep of kind `K`; a kind without one does not compile.
    pub const fn of<K: Variant>() -> Param {
        match K::SWEEP {
            Some(sweep) => Param { kind: FaultKind::of::<K>(), sweep },
            None => panic!("this fault kind has no sweep"),
        }
    }

    /// The name `--sweep` takes.
    pub fn id(self) -> &'static str {
        self.sweep.id
    }

    pub fn by_id(id: &str) -> Option<Param> {
        Param::all().into_iter().find(|p| p.id() == id)
    }

    /// What the page calls it, with its unit.
    pub fn words(self) -> &'static str {
        self.sweep.words
    }

    /// The fault kind it varies.
    pub fn kind(self) -> FaultKind {
        self.kind
    }

    /// Whether a point is a multiple of the lock's TTL (else a number of `unit`).
    pub fn per_ttl(self) -> bool {
        self.sweep.per_ttl
    }

    /// The unit of the field it fixes ("ms", "ppm").
    pub fn unit(self) -> &'static str {
        self.sweep.param.number().map_or("", |n| n.unit)
    }

    /// The range a sweep of it starts from: a multiple of the TTL from nothing to twice the
    /// TTL, the others over the range the explorer draws them from (the field's own `draw`).
    pub fn range(self) -> (f64, f64) {
        if self.per_ttl() {
            return (0.0, 2.0);
        }
        self.sweep.param.number().map_or((0.0, 1.0), |n| (n.draw.0 as f64, n.draw.1 as f64))
    }

    /// The mix of one point: a single fault of the swept kind with its number at `x`, on
    /// clients only (a holder) where the kind says so, else on any node.
    pub fn mix(self, x: f64, base: &Scenario) -> Mix {
        let value = if self.per_ttl() { ((x * base.lock.ttl_ms as f64).round() as i64).max(1) } else { x.round() as i64 };
        let mut mix = Mix::of(&[self.kind]);
        mix.max_faults = 1;
        mix.ranges = vec![(self.kind, self.sweep.param.name, value, value)];
        if self.sweep.on_clients {
            mix.nodes = Some(base.clients.iter().map(|c| c.name.clone()).collect());
        }
        mix
    }
}

/// The sweep a page opens with: a holder's pause against the TTL, the classic.
impl Default for Param {
    fn default() -> Param {
        Param::of::<Pause>()
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
        let all = Param::all();
        assert_eq!(all.iter().map(|p| p.id()).collect::<Vec<_>>(), ["pause_ttl", "jump_ms", "drift_ppm", "delay_ms"]);
        for p in all {
            let (from, to) = p.range();
            assert!(from < to, "{}", p.id());
            for x in points(from, to, 5) {
                Explorer::new(&b, p.mix(x, &b), 1, 1).unwrap_or_else(|e| panic!("{} at {x}: {e}", p.id()));
            }
        }
        assert_eq!(Param::by_id("jump_ms").map(|p| p.range()), Some((-20_000.0, 20_000.0)));
        assert_eq!(Param::default().range(), (0.0, 2.0));
    }

    #[test]
    fn a_pause_shorter_than_the_ttl_loses_nothing_and_a_longer_one_does() {
        let b = base(Approach::Redis);
        let lines = vec![("redis".to_string(), b.clone()), ("redis + fencing".to_string(), lab::with_fencing(&b, true))];
        let xs = points(0.5, 1.5, 3);
        assert_eq!(xs, [0.5, 1.0, 1.5]);
        let s = sweep(Param::default(), &xs, &lines, 1, 300).unwrap();
        let share = |line: usize, k: usize| s[line].points[k].lost_share();
        assert_eq!(share(0, 0), 0.0, "half a TTL of pause: the lease outlives it");
        assert!(share(0, 2) > 0.02, "1.5 TTLs: {}", share(0, 2));
        assert!((0..3).all(|k| share(1, k) == 0.0), "fencing stops them all");
        assert!(s.iter().all(|l| l.points.iter().all(|p| p.runs == 300)));
    }
}
