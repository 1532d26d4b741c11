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
//! another. "The failure stays" means the run still shows the same target: the same class, or
//! the same property's discovery (`class::Target`).
//!
//! The page shrinks in time slices (`Job`): the shrinker's questions come in the same order
//! every time it is started on the same counterexample, so a pass cut short keeps its answers
//! (the tape) and the next pass replays them without running anything, then asks on from
//! where the last one stopped. The result is the one an uncut shrink gives.

use super::class::Target;
use crate::scenario::fault;
use crate::scenario::validate::validate;
use crate::scenario::Scenario;

/// A counterexample before and after shrinking.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    pub target: Target,
    pub before: Scenario,
    pub after: Scenario,
    /// How many runs the shrinking took.
    pub runs: usize,
}

/// At most this many rounds of the three steps (each round that changes nothing ends it).
const ROUNDS: usize = 8;

/// One answer of `Shrinker::fails`, kept on the tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// Not a valid scenario: not run.
    Invalid,
    Fails,
    Holds,
}

impl Answer {
    fn letter(self) -> char {
        match self {
            Answer::Invalid => 'I',
            Answer::Fails => 'F',
            Answer::Holds => 'H',
        }
    }

    fn of_letter(c: char) -> Option<Answer> {
        [Answer::Invalid, Answer::Fails, Answer::Holds].into_iter().find(|a| a.letter() == c)
    }
}

struct Shrinker<'a> {
    target: Target,
    /// The answers of earlier passes, in the order they were asked.
    tape: &'a mut Vec<Answer>,
    asked: usize,
    /// Whether one more run fits in this slice.
    more: &'a mut dyn FnMut() -> bool,
    /// The slice ran out: every later question is answered "holds" without running, which
    /// ends the pass quickly; its result is thrown away.
    cut: bool,
}

impl Shrinker<'_> {
    /// Whether `s` is valid and still fails as the counterexample did.
    fn fails(&mut self, s: &Scenario) -> bool {
        let k = self.asked;
        self.asked += 1;
        if let Some(&a) = self.tape.get(k) {
            return a == Answer::Fails;
        }
        if self.cut || !(self.more)() {
            self.cut = true;
            return false;
        }
        let a = if validate(s).is_err() {
            Answer::Invalid
        } else if self.target.shown_by(s) {
            Answer::Fails
        } else {
            Answer::Holds
        };
        self.tape.push(a);
        a == Answer::Fails
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

    /// Step 3: drops clients (and the faults naming them) while the failure stays. Random
    /// streams are keyed by node and link names (`sim::rng`), so a client fewer leaves every
    /// other node's draws, and every latency between the others, as they were: numbers shrunk
    /// to a boundary in step 2 survive it unless the client itself mattered.
    fn clients(&mut self, s: &mut Scenario) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < s.clients.len() && s.clients.len() > 1 {
            let name = s.clients[i].name.clone();
            let mut without = s.clone();
            without.clients.retain(|c| c.name != name);
            without.faults.retain(|f| !fault::nodes(f).contains(&name));
            if self.fails(&without) {
                *s = without;
                changed = true;
            } else {
                i += 1;
            }
        }
        changed
    }
}

/// A shrink run in slices: `step` shrinks on while its `more` says a run fits, and gives the
/// result once a pass finished uncut.
#[derive(Clone, Debug)]
pub struct Job {
    target: Target,
    before: Scenario,
    tape: Vec<Answer>,
    done: Option<Shrunk>,
}

impl Job {
    /// A shrink of `s`, a counterexample of `target` (a class or a property), not started.
    pub fn new(s: &Scenario, target: impl Into<Target>) -> Job {
        Job { target: target.into(), before: s.clone(), tape: Vec::new(), done: None }
    }

    /// Its answers so far, one letter each (`F`ails, `H`olds, `I`nvalid): what a worker that
    /// shrank it sends the page, which `replaying` finishes without running anything.
    pub fn tape(&self) -> String {
        self.tape.iter().map(|a| a.letter()).collect()
    }

    /// A shrink of `s` whose answers are `tape` (another job's `tape`); None if a letter is
    /// not one. `step` then goes through the same passes and finishes as that job did,
    /// running only the questions the tape does not answer.
    pub fn replaying(s: &Scenario, target: impl Into<Target>, tape: &str) -> Option<Job> {
        let tape = tape.chars().map(Answer::of_letter).collect::<Option<Vec<Answer>>>()?;
        Some(Job { tape, ..Job::new(s, target) })
    }

    /// How many runs it has taken so far.
    pub fn runs(&self) -> usize {
        self.tape.iter().filter(|&&a| a != Answer::Invalid).count()
    }

    pub fn result(&self) -> Option<&Shrunk> {
        self.done.as_ref()
    }

    /// Shrinks on while `more()` says one more run fits (one always does, so every step gets
    /// somewhere); the result once it is finished.
    pub fn step(&mut self, more: &mut dyn FnMut() -> bool) -> Option<&Shrunk> {
        if self.done.is_none() {
            let mut first = true;
            let mut more = || std::mem::take(&mut first) || more();
            let mut sh = Shrinker { target: self.target, tape: &mut self.tape, asked: 0, more: &mut more, cut: false };
            let after = sh.shrink(&self.before);
            if !sh.cut {
                self.done = Some(Shrunk { target: self.target, before: self.before.clone(), after, runs: 0 });
            }
        }
        let runs = self.runs();
        self.done.as_mut().map(|d| {
            d.runs = runs;
            &*d
        })
    }
}

impl Shrinker<'_> {
    /// One pass of the whole shrink from `s`.
    fn shrink(&mut self, s: &Scenario) -> Scenario {
        let mut after = s.clone();
        if self.fails(s) {
            for _ in 0..ROUNDS {
                let faults = self.faults(&mut after);
                let numbers = self.numbers(&mut after);
                let clients = self.clients(&mut after);
                if !(faults || numbers || clients) {
                    break;
                }
            }
        }
        after
    }
}

/// Shrinks `s`, a counterexample of `target` (a class or a property), in one go. If `s` does
/// not show `target` (it is not a counterexample), it is returned as it is.
pub fn shrink(s: &Scenario, target: impl Into<Target>) -> Shrunk {
    let mut job = Job::new(s, target);
    job.step(&mut || true).cloned().unwrap_or_else(|| unreachable!("an uncut pass finishes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Class;
    use crate::lab;
    use crate::scenario::fault::{ClockDrift, Crash, Pause};
    use crate::scenario::{catalog, FaultSpec};

    #[test]
    fn a_gc_pause_shrinks_to_the_latest_start_and_shortest_pause_that_still_lose_an_update() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.expect = None;
        // Noise around the pause that matters: a harmless drift, a short storage pause.
        s.faults.push(FaultSpec::ClockDrift(ClockDrift { at_ms: 100, node: "B".into(), ppm: 50 }));
        s.faults.push(FaultSpec::Pause(Pause { at_ms: 12_000, node: "storage".into(), duration_ms: 30 }));
        let out = shrink(&s, Class::LostUpdate);
        assert_eq!(out.after.faults.len(), 1, "{:?}", out.after.faults);
        let FaultSpec::Pause(Pause { at_ms, ref node, duration_ms }) = out.after.faults[0] else { panic!("{:?}", out.after.faults) };
        assert_eq!(node, "A");
        // A writes 1 s after its grant (work_ms) and B's lease comes after the 10 s TTL: the
        // pause must start before A's write and outlast B's takeover and write.
        assert!((500..1_010).contains(&at_ms), "{at_ms}");
        assert!(duration_ms < 15_000 && duration_ms > 8_000, "{duration_ms}");
        assert_eq!(Class::of(&lab::run(&out.after).verdict), Class::LostUpdate);
        // One step earlier or one millisecond shorter no longer fails: it is a boundary.
        let mut later = out.after.clone();
        later.faults[0] = FaultSpec::Pause(Pause { at_ms: at_ms + 1, node: "A".into(), duration_ms });
        let mut shorter = out.after.clone();
        shorter.faults[0] = FaultSpec::Pause(Pause { at_ms, node: "A".into(), duration_ms: duration_ms - 1 });
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
    fn a_shrink_in_slices_gives_the_shrink_in_one_go() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.expect = None;
        s.faults.push(FaultSpec::ClockDrift(ClockDrift { at_ms: 100, node: "B".into(), ppm: 50 }));
        s.faults.push(FaultSpec::Crash(Crash { at_ms: 15_000, node: "B".into(), restart_after_ms: Some(300), machine: false }));
        let whole = shrink(&s, Class::LostUpdate);
        let mut job = Job::new(&s, Class::LostUpdate);
        let mut slices = 0;
        // Three runs a slice (the first is always granted).
        while job.result().is_none() {
            let mut left = 2;
            job.step(&mut || {
                left -= 1;
                left >= 0
            });
            slices += 1;
            assert!(job.runs() <= 3 * slices, "{} runs in {slices} slices", job.runs());
        }
        assert_eq!(job.result(), Some(&whole));
        assert!(slices > whole.runs / 3, "{slices} slices for {} runs", whole.runs);
        // A budget of nothing still moves: one run a step.
        let mut job = Job::new(&s, Class::LostUpdate);
        job.step(&mut || false);
        assert_eq!(job.runs(), 1);
    }

    #[test]
    fn a_shrink_replayed_from_its_tape_finishes_without_running_and_gives_the_same() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.expect = None;
        s.faults.push(FaultSpec::ClockDrift(ClockDrift { at_ms: 100, node: "B".into(), ppm: 50 }));
        let mut worker = Job::new(&s, Class::LostUpdate);
        let whole = worker.step(&mut || true).cloned().unwrap();
        let mut page = Job::replaying(&s, Class::LostUpdate, &worker.tape()).unwrap();
        let mut asked = 0;
        let replayed = page.step(&mut || {
            asked += 1;
            true
        });
        assert_eq!(replayed, Some(&whole));
        assert_eq!(asked, 0, "every question answered by the tape");
        assert!(Job::replaying(&s, Class::LostUpdate, "FHx").is_none());
    }

    #[test]
    fn clients_not_needed_are_dropped() {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.clients.push(crate::scenario::ClientSpec::new("C", 19_000, 100, 1));
        let out = shrink(&s, Class::LostUpdate);
        assert_eq!(out.after.clients.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["A", "B"]);
    }
}
