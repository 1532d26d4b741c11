//! A search cut into ranges of schedules: `Explorer::partial(from, to)` runs schedules
//! `from..to` on their own and says what they showed; `Explorer::absorb` folds such a partial
//! into a search whose schedules before `from` are already folded. Absorbing the ranges of
//! `0..N` in seed order gives what one search of N gives, count for count and counterexample
//! for counterexample, however the ranges were cut and wherever they ran (the page's Web
//! Workers each run ranges in a wasm instance of their own: src/bin/explore-worker.rs).
//!
//! Why the kept counterexamples merge: a schedule the whole search keeps is one of the first
//! `KEEP` distinct signatures of its class (or of the property) in seed order, so it is one of
//! them within its own range too. A range keeps its candidates by the same rule, and
//! absorbing replays the rule over them in seed order: the same ones survive.

use serde_json::{json, Value};

use super::class::{Class, Counts};
use super::Explorer;

/// What schedules `from..to` of a search showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    pub from: u64,
    pub to: u64,
    pub counts: Counts,
    /// As `Progress::shown`.
    pub shown: u64,
    /// As `Progress::token_repeats`.
    pub token_repeats: u64,
    /// The range's own counterexamples by the search's keep rule, in seed order: each with
    /// its class (in a search for a property, every one of them showed it).
    pub kept: Vec<(u64, Class)>,
}

impl Explorer {
    /// Runs schedules `from..to` (within the search's total) on their own, leaving this search
    /// as it was.
    pub fn partial(&self, from: u64, to: u64) -> Partial {
        let to = to.min(self.total);
        let mut range = Explorer {
            base: self.base.clone(),
            names: self.names.clone(),
            nodes: self.nodes.clone(),
            window_ms: self.window_ms,
            mix: self.mix.clone(),
            seed: self.seed,
            total: to,
            next: from.min(to),
            counts: Counts::default(),
            found: Vec::new(),
            property: self.property,
            shown: 0,
            token_repeats: 0,
        };
        range.run_batch(to);
        let kept = range.found.iter().map(|f| (f.index, f.class)).collect();
        Partial { from: from.min(to), to, counts: range.counts, shown: range.shown, token_repeats: range.token_repeats, kept }
    }

    /// Folds `p` in, the range that comes next in seed order (its `from` is where this search
    /// stands); false, and nothing changes, for any other range.
    pub fn absorb(&mut self, p: &Partial) -> bool {
        if p.from != self.next || p.to > self.total {
            return false;
        }
        self.next = p.to;
        self.counts.merge(&p.counts);
        self.shown += p.shown;
        self.token_repeats += p.token_repeats;
        let shown = self.property.is_some();
        for &(i, class) in &p.kept {
            self.keep(i, class, shown);
        }
        true
    }
}

impl Partial {
    /// As JSON for a message between the page and a worker: numbers and class ids only.
    pub fn to_json(&self) -> Value {
        let counts: Vec<u64> = Class::ALL.iter().map(|&c| self.counts.get(c)).collect();
        let kept: Vec<Value> = self.kept.iter().map(|&(i, c)| json!([i, c.id()])).collect();
        json!({ "from": self.from, "to": self.to, "counts": counts, "shown": self.shown, "repeats": self.token_repeats, "kept": kept })
    }

    /// Reads `to_json`'s JSON back; None when it is not one.
    pub fn from_json(v: &Value) -> Option<Partial> {
        let n = |k: &str| v.get(k)?.as_u64();
        let mut counts = Counts::default();
        let listed = v.get("counts")?.as_array()?;
        if listed.len() != Class::ALL.len() {
            return None;
        }
        for (&c, n) in Class::ALL.iter().zip(listed) {
            counts.add_n(c, n.as_u64()?);
        }
        let kept = v.get("kept")?.as_array()?.iter().map(|k| Some((k.get(0)?.as_u64()?, Class::by_id(k.get(1)?.as_str()?)?)));
        Some(Partial {
            from: n("from")?,
            to: n("to")?,
            counts,
            shown: n("shown")?,
            token_repeats: n("repeats")?,
            kept: kept.collect::<Option<_>>()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::properties::by_id;
    use crate::explore::{table, Mix};
    use crate::lab;
    use crate::scenario::FaultKind;

    /// `0..total` cut into `k` ranges of about equal size (the last takes what is left).
    fn ranges(total: u64, k: u64) -> Vec<(u64, u64)> {
        let size = total.div_ceil(k).max(1);
        (0..total).step_by(size as usize).map(|a| (a, (a + size).min(total))).collect()
    }

    /// The search as one run and as `k` ranges run apart (in reverse, as workers may answer),
    /// absorbed in seed order: the same progress and the same report.
    fn split_and_merged_is_one_run(one: &mut Explorer, pieces: &mut Explorer, k: u64) {
        let total = one.progress().total;
        one.run_batch(total);
        let mut parts: Vec<Partial> = ranges(total, k).into_iter().rev().map(|(a, b)| pieces.partial(a, b)).collect();
        parts.reverse();
        for p in &parts {
            let again = Partial::from_json(&serde_json::from_str(&p.to_json().to_string()).unwrap()).unwrap();
            assert_eq!(&again, p, "a partial survives its message");
            assert!(pieces.absorb(&again), "{}..{} in its turn", p.from, p.to);
        }
        assert_eq!(pieces.progress(), one.progress(), "k = {k}");
        assert_eq!(pieces.report(), one.report(), "k = {k}");
    }

    #[test]
    fn a_search_split_into_k_ranges_and_merged_is_the_search_run_whole() {
        let base = lab::with_fencing(&table::base(crate::scenario::Approach::Redis), false);
        for k in [1, 2, 3, 7, 16, 600] {
            let mut one = Explorer::new(&base, Mix::full(), 1, 600).unwrap();
            let mut pieces = Explorer::new(&base, Mix::full(), 1, 600).unwrap();
            split_and_merged_is_one_run(&mut one, &mut pieces, k);
        }
        // A search for a property keeps its runs by another rule, merged the same way.
        let one_believer = by_id("one-believer").unwrap();
        let pauses = Mix::of(&[FaultKind::by_id("pause").unwrap()]);
        for k in [2, 5] {
            let mut one = Explorer::new(&base, pauses.clone(), 3, 300).unwrap().searching(one_believer);
            let mut pieces = Explorer::new(&base, pauses.clone(), 3, 300).unwrap().searching(one_believer);
            split_and_merged_is_one_run(&mut one, &mut pieces, k);
        }
    }

    #[test]
    fn every_planned_table_cell_split_and_merged_is_the_cell_the_cli_measures() {
        let whole = table::measured(Some(150));
        let mut searches = table::planned_searches(&table::plan(), Some(150)).unwrap();
        for (k, s) in searches.iter_mut().enumerate() {
            for (a, b) in ranges(150, 2 + k as u64 % 4) {
                let p = s.explorer.partial(a, b);
                assert!(s.explorer.absorb(&p));
            }
        }
        let merged: Vec<table::Cell> = searches.iter().map(table::CellSearch::cell).collect();
        assert_eq!(merged, whole);
    }

    #[test]
    fn a_range_out_of_turn_is_refused_and_changes_nothing() {
        let base = table::base(crate::scenario::Approach::Etcd);
        let mut e = Explorer::new(&base, Mix::full(), 1, 100).unwrap();
        let later = e.partial(50, 100);
        assert!(!e.absorb(&later));
        assert_eq!(e.progress().runs, 0);
        assert!(e.absorb(&e.partial(0, 50)) && e.absorb(&later));
        assert!(e.progress().done());
        assert!(!e.absorb(&e.partial(0, 50)), "a range already folded in");
        assert_eq!(Partial::from_json(&json!({ "from": 0 })), None);
    }
}
