//! Shrinking a counterexample to a minimal one, every step re-checked by running it:
//!
//! 1. the fault list, until no single fault can be removed and the failure stay;
//! 2. each number toward its mildest value (`scenario::fault::knobs`): the latest start, the
//!    shortest pause or outage, the smallest clock jump or drift, a process crash instead of a
//!    machine one. A binary search between where it is and where it would be mildest, which
//!    only ever moves to a value that was run and still failed;
//! 3. the clients: any client (with the faults that name it) whose removal keeps the failure.
//!
//! Then again from 1 while a round changed anything, since each step can make room for
//! another. "The failure stays" means the run is still of the same class.

use super::class::Class;
use crate::lab;
use crate::scenario::fault;
use crate::scenario::validate::validate;
use crate::scenario::Scenario;

/// A counterexample before and after shrinking.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    pub class: Class,
    pub before: Scenario,
    pub after: Scenario,
    /// How many runs the shrinking took.
    pub runs: usize,
}

/// At most this many rounds of the three steps (each round that changes nothing ends it).
const ROUNDS: usize = 8;

struct Shrinker {
    class: Class,
    runs: usize,
}

impl Shrinker {
    /// Whether `s` is valid and still fails as the counterexample did.
    fn fails(&mut self, s: &Scenario) -> bool {
        if validate(s).is_err() {
            return false;
        }
        self.runs += 1;
        Class::of(&lab::judge(s)) == self.class
    }

    /// Step 1: drops faults one at a time while the failure stays; passes until none can go.
    fn faults(&mut self, s: &mut Scenario) -> bool {
        let mut changed = false;
        loop {
            let removable = (0..s.faults.len()).find(|&i| {
                let mut t = s.clone();
                t.faults.remove(i);
                self.fails(&t)
            });
            match removable {
                Some(i) => {
                    s.faults.remove(i);
                    changed = true;
                }
                None => return changed,
            }
        }
    }

    /// Step 2: every knob of every fault toward its mildest value.
    fn numbers(&mut self, s: &mut Scenario) -> bool {
        let mut changed = false;
        for i in 0..s.faults.len() {
            let names: Vec<&'static str> = fault::knobs(&s.faults[i], s.duration_ms).iter().map(|k| k.name).collect();
            for name in names {
                // The knob as it is now: an earlier one may have moved what it starts from.
                let Some(knob) = fault::knobs(&s.faults[i], s.duration_ms).into_iter().find(|k| k.name == name) else { continue };
                let with = |x: i64| {
                    let mut t = s.clone();
                    t.faults[i] = knob.at(&s.faults[i], x);
                    t
                };
                if knob.absent && !self.fails(&with(knob.now)) {
                    continue;
                }
                // The distance from the mildest value at which it still fails: `hi` always
                // fails (it was run, or is where the counterexample stands).
                let step = if knob.now >= knob.toward { 1 } else { -1 };
                let (mut lo, mut hi) = (0, (knob.now - knob.toward).abs());
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if self.fails(&with(knob.toward + step * mid)) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                let x = knob.toward + step * hi;
                if x != knob.now || knob.absent {
                    *s = with(x);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Step 3: drops clients (and the faults naming them) while the failure stays. Numbers
    /// shrunk to a boundary rarely survive it (a node fewer shifts every later node's random
    /// stream, hence every latency), so a client that cannot go from `s` is tried from
    /// `roomy`, the scenario before step 2; if it can go from there, `s` becomes that and the
    /// next round shrinks its numbers again.
    fn clients(&mut self, s: &mut Scenario, roomy: &Scenario) -> bool {
        let mut roomy = roomy.clone();
        let mut changed = false;
        let mut i = 0;
        while i < s.clients.len() && s.clients.len() > 1 {
            let name = s.clients[i].name.clone();
            let without = |from: &Scenario| {
                let mut t = from.clone();
                t.clients.retain(|c| c.name != name);
                t.faults.retain(|f| !fault::nodes(f).contains(&name));
                t
            };
            let (tight, loose) = (without(s), without(&roomy));
            if self.fails(&tight) {
                *s = tight;
            } else if roomy.clients.iter().any(|c| c.name == name) && self.fails(&loose) {
                *s = loose;
            } else {
                i += 1;
                continue;
            }
            // Gone from both, so a later client tried from `roomy` does not bring it back.
            roomy = without(&roomy);
            changed = true;
        }
        changed
    }
}

/// Shrinks `s`, a counterexample of `class`. If `s` does not fail as `class` (it is not a
/// counterexample), it is returned as it is.
pub fn shrink(s: &Scenario, class: Class) -> Shrunk {
    let mut sh = Shrinker { class, runs: 0 };
    let mut after = s.clone();
    if sh.fails(s) {
        for _ in 0..ROUNDS {
            let faults = sh.faults(&mut after);
            let roomy = after.clone();
            let numbers = sh.numbers(&mut after);
            let clients = sh.clients(&mut after, &roomy);
            if !(faults || numbers || clients) {
                break;
            }
        }
    }
    Shrunk { class, before: s.clone(), after, runs: sh.runs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{catalog, FaultSpec};

    #[test]
    fn a_gc_pause_shrinks_to_the_latest_start_and_shortest_pause_that_still_lose_an_update() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.expect = None;
        // Noise around the pause that matters: a harmless drift, a short storage pause.
        s.faults.push(FaultSpec::ClockDrift { at_ms: 100, node: "B".into(), ppm: 50 });
        s.faults.push(FaultSpec::Pause { at_ms: 12_000, node: "storage".into(), duration_ms: 30 });
        let out = shrink(&s, Class::LostUpdate);
        assert_eq!(out.after.faults.len(), 1, "{:?}", out.after.faults);
        let FaultSpec::Pause { at_ms, ref node, duration_ms } = out.after.faults[0] else { panic!("{:?}", out.after.faults) };
        assert_eq!(node, "A");
        // A writes 1 s after its grant (work_ms) and B's lease comes after the 10 s TTL: the
        // pause must start before A's write and outlast B's takeover and write.
        assert!((500..1_010).contains(&at_ms), "{at_ms}");
        assert!(duration_ms < 15_000 && duration_ms > 8_000, "{duration_ms}");
        assert_eq!(Class::of(&lab::run(&out.after).verdict), Class::LostUpdate);
        // One step earlier or one millisecond shorter no longer fails: it is a boundary.
        let mut later = out.after.clone();
        later.faults[0] = FaultSpec::Pause { at_ms: at_ms + 1, node: "A".into(), duration_ms };
        let mut shorter = out.after.clone();
        shorter.faults[0] = FaultSpec::Pause { at_ms, node: "A".into(), duration_ms: duration_ms - 1 };
        assert_ne!(Class::of(&lab::run(&later).verdict), Class::LostUpdate);
        assert_ne!(Class::of(&lab::run(&shorter).verdict), Class::LostUpdate);
        assert!(out.runs > 10 && out.runs < 200, "{} runs", out.runs);
    }

    #[test]
    fn what_is_not_a_counterexample_comes_back_unchanged() {
        let s = catalog::get("happy-path-redis").unwrap();
        let out = shrink(&s, Class::LostUpdate);
        assert_eq!(out.after, s);
        assert_eq!(out.runs, 1);
    }

    #[test]
    fn clients_not_needed_are_dropped() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.clients.push(crate::scenario::ClientSpec { name: "C".into(), acquire_at_ms: 19_000, work_ms: 100, writes: 1 });
        let out = shrink(&s, Class::LostUpdate);
        assert_eq!(out.after.clients.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["A", "B"]);
    }
}
