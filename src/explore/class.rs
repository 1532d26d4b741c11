//! What a run's verdict is, as one class, and the count of each.
//!
//! A run can show several things at once (a lost update nearly always comes with two
//! believers; a token handed out again usually does too). It is counted once, in the first
//! class of `Class::ALL` it belongs to, most harmful first:
//!
//! 1. `lost_update`: a stale write was accepted: a newer holder's data is gone.
//! 2. `token_repeated`: a token was handed out again or went back (TokenRepeated,
//!    TokenRegressed): fencing itself is defeated, even if no write was lost this time.
//! 3. `two_believers`: two clients believed they held the lock at once, nothing lost.
//! 4. `never_granted`: no client ever got the lock: no harm to data, no progress either.
//! 5. `safe`: none of these.
//!
//! Each class but `safe` is a property's violation (`Class::property`): the classes are the
//! named properties the explorer counts by default.

use serde::Serialize;

use crate::check::properties::{Check, Evidence, Property, LOCK_GRANTED, NO_LOST_UPDATE, ONE_BELIEVER, TOKENS_RISE};
use crate::check::Verdict;
use crate::lab;
use crate::scenario::Scenario;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    LostUpdate,
    TokenRepeated,
    TwoBelievers,
    NeverGranted,
    Safe,
}

impl Class {
    /// In precedence order: a run is in the first that applies.
    pub const ALL: [Class; 5] = [Class::LostUpdate, Class::TokenRepeated, Class::TwoBelievers, Class::NeverGranted, Class::Safe];

    /// The run's class: the first whose property it violates (see the module's precedence).
    pub fn of(v: &Verdict) -> Class {
        let violated = |c: &Class| c.property().is_some_and(|p| matches!(p.check, Check::Verdict(f) if f(v).is_some()));
        Class::ALL.into_iter().find(violated).unwrap_or(Class::Safe)
    }

    /// The property a run of this class violates (None for `safe`); each reads the verdict alone.
    pub fn property(self) -> Option<&'static Property> {
        match self {
            Class::LostUpdate => Some(&NO_LOST_UPDATE),
            Class::TokenRepeated => Some(&TOKENS_RISE),
            Class::TwoBelievers => Some(&ONE_BELIEVER),
            Class::NeverGranted => Some(&LOCK_GRANTED),
            Class::Safe => None,
        }
    }

    /// The name the CLI's JSON uses.
    pub fn id(self) -> &'static str {
        match self {
            Class::LostUpdate => "lost_update",
            Class::TokenRepeated => "token_repeated",
            Class::TwoBelievers => "two_believers",
            Class::NeverGranted => "never_granted",
            Class::Safe => "safe",
        }
    }

    /// The class named `id` (as `id` gives it).
    pub fn by_id(id: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The class as a counter's label ("lost update").
    pub fn label(self) -> &'static str {
        match self {
            Class::LostUpdate => "lost update",
            Class::TokenRepeated => "token handed out again",
            Class::TwoBelievers => "two believers at once",
            Class::NeverGranted => "never granted",
            Class::Safe => "safe",
        }
    }

    /// What a run of this class shows, as a noun phrase ("a lost update").
    pub fn words(self) -> &'static str {
        match self {
            Class::LostUpdate => "a lost update",
            Class::TokenRepeated => "a token handed out again",
            Class::TwoBelievers => "two believers at once",
            Class::NeverGranted => "no client ever got the lock",
            Class::Safe => "nothing unsafe",
        }
    }
}

impl Class {
    /// A counterexample's heading: what it found and, when no write was lost (every class
    /// after `lost_update`, by precedence), that too, so the heading does not read as a loss.
    pub fn found_words(self) -> String {
        match self {
            Class::LostUpdate | Class::Safe => self.words().to_string(),
            _ => format!("{}, no update lost", self.words()),
        }
    }
}

/// What a counterexample shows and a shrink keeps showing: a class (the explorer's default
/// search), or any property's discovery (`Explorer::searching`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    Class(Class),
    Property(&'static Property),
}

impl From<Class> for Target {
    fn from(c: Class) -> Target {
        Target::Class(c)
    }
}

impl From<&'static Property> for Target {
    fn from(p: &'static Property) -> Target {
        Target::Property(p)
    }
}

impl Target {
    /// What a run that shows it is, as a noun phrase ("a lost update").
    pub fn words(self) -> String {
        match self {
            Target::Class(c) => c.found_words(),
            Target::Property(p) => p.found_words(),
        }
    }

    /// Runs `s` (judged only, unless the property reads the whole trace) and says whether it
    /// shows the target.
    pub fn shown_by(self, s: &Scenario) -> bool {
        match self {
            Target::Class(c) => Class::of(&lab::judge(s)) == c,
            Target::Property(p) => discovery(p, s).is_some(),
        }
    }
}

/// What the explorer keeps of one run: its class, whether it shows the property searched for,
/// and whether a token was handed out again or went back (counted apart from the class: a run
/// that lost an update is in `lost_update`, yet its repeated token is fencing's own failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    pub class: Class,
    pub shown: bool,
    pub token_repeated: bool,
}

/// Whether a token was handed out again or went back in the run judged `v` (`tokens-rise`).
pub fn token_repeated(v: &Verdict) -> bool {
    matches!(TOKENS_RISE.check, Check::Verdict(f) if f(v).is_some())
}

/// The class of the run of `s`, and whether it shows `property` (if one is asked about), from
/// as little of a run as they need: a judged run, or the whole run for a property of the trace.
pub fn judged(s: &Scenario, property: Option<&Property>) -> Judged {
    let of = |v: &Verdict, shown: bool| Judged { class: Class::of(v), shown, token_repeated: token_repeated(v) };
    match property.map(|p| (p, p.check)) {
        Some((p, Check::Trace(_))) => {
            let run = lab::run(s);
            of(&run.verdict, p.discovery(&run.scenario, &run.trace, &run.verdict).is_some())
        }
        Some((_, Check::Verdict(f))) => {
            let v = lab::judge(s);
            of(&v, f(&v).is_some())
        }
        None => of(&lab::judge(s), false),
    }
}

/// `p`'s discovery in the run of `s`, from as little of a run as it needs: a judged run for a
/// property of the verdict, the whole run for one of the trace.
pub fn discovery(p: &Property, s: &Scenario) -> Option<Evidence> {
    match p.check {
        Check::Verdict(f) => f(&lab::judge(s)),
        Check::Trace(_) => {
            let run = lab::run(s);
            p.discovery(&run.scenario, &run.trace, &run.verdict)
        }
    }
}

/// How many runs fell in each class (serialized as the CLI's `classes` object).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub lost_update: u64,
    pub two_believers: u64,
    pub token_repeated: u64,
    pub never_granted: u64,
    pub safe: u64,
}

impl Counts {
    fn slot(&mut self, c: Class) -> &mut u64 {
        match c {
            Class::LostUpdate => &mut self.lost_update,
            Class::TokenRepeated => &mut self.token_repeated,
            Class::TwoBelievers => &mut self.two_believers,
            Class::NeverGranted => &mut self.never_granted,
            Class::Safe => &mut self.safe,
        }
    }

    pub fn add(&mut self, c: Class) {
        self.add_n(c, 1);
    }

    /// Counts `n` more runs of class `c`.
    pub fn add_n(&mut self, c: Class, n: u64) {
        *self.slot(c) += n;
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Counts) {
        for c in Class::ALL {
            *self.slot(c) += other.get(c);
        }
    }

    pub fn get(&self, c: Class) -> u64 {
        let mut copy = *self;
        *copy.slot(c)
    }

    pub fn total(&self) -> u64 {
        Class::ALL.iter().map(|&c| self.get(c)).sum()
    }

    /// The share of all counted runs in `c`, 0..=1 (0 when none were counted).
    pub fn share(&self, c: Class) -> f64 {
        match self.total() {
            0 => 0.0,
            total => self.get(c) as f64 / total as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::FindingKind;
    use crate::scenario::catalog;

    fn class(id: &str, fencing: bool) -> Class {
        Class::of(&lab::run(&lab::with_fencing(&catalog::get(id).unwrap(), fencing)).verdict)
    }

    #[test]
    fn a_heading_says_when_nothing_was_lost() {
        assert_eq!(Class::LostUpdate.found_words(), "a lost update");
        assert_eq!(class("redis-gc-pause", true).found_words(), "two believers at once, no update lost");
        assert_eq!(Class::TokenRepeated.found_words(), "a token handed out again, no update lost");
    }

    #[test]
    fn built_ins_fall_in_the_class_their_story_tells() {
        assert_eq!(class("redis-gc-pause", false), Class::LostUpdate);
        // Fencing rejects A's stale write; A and B still both believed for a while.
        assert_eq!(class("redis-gc-pause", true), Class::TwoBelievers);
        assert_eq!(class("redlock-clock-jump", true), Class::LostUpdate, "no token to fence with");
        assert_eq!(class("happy-path-etcd", false), Class::Safe);
        let mut s = catalog::get("happy-path-redis").unwrap();
        s.faults = vec![crate::scenario::FaultSpec::Crash(crate::scenario::fault::Crash {
            at_ms: 0,
            node: "redis".into(),
            restart_after_ms: None,
            machine: false,
        })];
        assert_eq!(Class::of(&lab::run(&s).verdict), Class::NeverGranted);
    }

    #[test]
    fn a_repeated_token_outranks_two_believers_but_not_a_lost_update() {
        let v = lab::run(&catalog::get("redis-failover").unwrap()).verdict;
        assert!(v.findings.iter().any(|f| f.kind == FindingKind::TokenRepeated), "{:?}", v.findings);
        assert!(v.max_concurrent_holders >= 2);
        let expected = if v.stale_writes_accepted > 0 { Class::LostUpdate } else { Class::TokenRepeated };
        assert_eq!(Class::of(&v), expected);
        let mut no_loss = v.clone();
        no_loss.stale_writes_accepted = 0;
        assert_eq!(Class::of(&no_loss), Class::TokenRepeated);
    }

    #[test]
    fn counts_add_up() {
        let mut c = Counts::default();
        for (i, class) in Class::ALL.into_iter().enumerate() {
            for _ in 0..=i {
                c.add(class);
            }
        }
        assert_eq!(Class::ALL.map(|k| c.get(k)), [1, 2, 3, 4, 5]);
        assert_eq!(c.total(), 15);
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json["token_repeated"], 2);
        assert_eq!(json["safe"], 5);
    }
}
