//! Fault schedules (`schedules[]`): a fault that strikes again and again — every `every_ms`,
//! or at random with that mean gap — on a named node or a random one of a set, its amount (a
//! pause's length, a jump, a restart delay) drawn from a named distribution (dist.rs). Jepsen's
//! nemesis, "a pause every 5 s on a random process", is one entry.
//!
//! A schedule is expanded into ordinary faults before the run (`expand`), so the world, the
//! trace, the checker and the diagram see nothing but faults. The draws come from a stream of
//! the scenario's seed keyed by the schedule's place in the list: the same scenario and seed
//! give the same faults on every target, and adding a schedule at the end leaves the others'
//! faults as they were.

use serde::{Serialize, Serializer};

use super::dist::Dist;
use super::kind::{Need, Number, Param, Value, AT, NODE};
use super::{amount, set, FaultKind, FaultSpec};
use crate::decimal::seconds;
use crate::scenario::format::Scenario;
use crate::scenario::limits::MAX_SCHEDULED_FAULTS;
use crate::sim::rng::{schedule_key, Stream};

/// When a schedule's faults strike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Arrivals {
    /// At `from_ms + k × every_ms`, k = 1, 2, …: a nemesis that sleeps, then strikes.
    #[default]
    Periodic,
    /// Gaps drawn from an exponential with mean `every_ms` (a Poisson process): as many
    /// faults on average, at no fixed rhythm.
    Poisson,
}

impl Arrivals {
    pub fn id(self) -> &'static str {
        match self {
            Arrivals::Periodic => "periodic",
            Arrivals::Poisson => "poisson",
        }
    }
}

/// One entry of `schedules[]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The fault each strike makes but for its time, node and amount: its kind, and its other
    /// fields as written (a crash's `machine`).
    pub template: FaultSpec,
    pub every_ms: i64,
    /// The schedule starts here; its first fault strikes one gap later.
    pub from_ms: i64,
    /// No fault strikes at or after this; None: the end of the run.
    pub until_ms: Option<i64>,
    pub arrivals: Arrivals,
    /// The nodes it strikes, one drawn at each strike; None: every client.
    pub on: Option<Vec<String>>,
    /// The amount's distribution, under the amount's own name (`duration_ms`); None only where
    /// the amount may be absent (a crash that stays down).
    pub amount: Option<Dist>,
}

/// The kinds a schedule can make: those that strike one `node` and have one amount.
pub fn schedulable() -> Vec<FaultKind> {
    FaultKind::ALL.into_iter().filter(|k| k.param(NODE.name).is_some() && amount(*k).is_some()).collect()
}

/// The amount a schedule of `kind` draws: its field and bounds.
pub fn amount_of(kind: FaultKind) -> (&'static Param, Number) {
    let (_, p, n) = amount(kind).expect("a schedulable kind has an amount");
    (p, n)
}

/// Whether `p` is one of the fields a schedule sets itself on each fault it makes.
pub fn drawn(kind: FaultKind, p: &Param) -> bool {
    p.name == AT.name || p.name == NODE.name || p.name == amount_of(kind).0.name
}

impl Schedule {
    pub fn kind(&self) -> FaultKind {
        self.template.kind()
    }

    /// Where it stops, in a run of `duration_ms`.
    pub fn until(&self, duration_ms: i64) -> i64 {
        self.until_ms.unwrap_or(duration_ms)
    }

    /// How many faults it makes in a run of `duration_ms`: exactly (periodic), or on average
    /// (poisson). What the limit on scheduled faults is checked against.
    pub fn expected_strikes(&self, duration_ms: i64) -> i64 {
        let span = self.until(duration_ms) - self.from_ms;
        match self.arrivals {
            Arrivals::Periodic if span > 0 => (span - 1) / self.every_ms,
            Arrivals::Periodic => 0,
            Arrivals::Poisson => span.max(0) / self.every_ms,
        }
    }

    /// The nodes it strikes in `s`.
    pub fn targets(&self, s: &Scenario) -> Vec<String> {
        self.on.clone().unwrap_or_else(|| s.clients.iter().map(|c| c.name.clone()).collect())
    }

    /// "pause a random one of A, B every 5 s, duration_ms log_normal(median 50, p99 2000) ms".
    pub fn words(&self, s: &Scenario) -> String {
        let targets = self.targets(s);
        let on = if targets.len() == 1 { targets[0].clone() } else { format!("a random one of {}", targets.join(", ")) };
        let (p, n) = amount_of(self.kind());
        let amount = self.amount.map_or_else(String::new, |d| {
            let params: Vec<String> = d.params().iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!(", {} {}({}) {}", p.name, d.id(), params.join(", "), n.unit)
        });
        let from = if self.from_ms == 0 { String::new() } else { format!(" from {}", seconds(self.from_ms)) };
        let until = self.until_ms.map_or_else(String::new, |u| format!(" until {}", seconds(u)));
        let arrivals = match self.arrivals {
            Arrivals::Periodic => "",
            Arrivals::Poisson => " on average (Poisson)",
        };
        format!("{} {on} every {}{arrivals}{from}{until}{amount}", self.kind().noun(), seconds(self.every_ms))
    }

    /// The faults of schedule `index` in `s` (validated), in time order, at most `room` of them.
    fn strikes(&self, index: usize, s: &Scenario, room: usize) -> Vec<FaultSpec> {
        let mut rng = Stream::new(s.seed, schedule_key(index));
        let targets = self.targets(s);
        let (p, n) = amount_of(self.kind());
        let until = self.until(s.duration_ms);
        let mut out = Vec::new();
        let mut at = self.from_ms;
        while out.len() < room {
            // Each strike draws in one fixed order (its gap, its node, its amount), so the
            // same scenario and seed read the same numbers of the stream for the same things.
            at += match self.arrivals {
                Arrivals::Periodic => self.every_ms,
                Arrivals::Poisson => Dist::Exponential { mean: self.every_ms }.draw(&mut rng).max(1),
            };
            if at >= until {
                break;
            }
            let node = &targets[rng.range(0, targets.len() as i64 - 1) as usize];
            let mut f = self.template.clone();
            set(&mut f, AT.name, Value::Int(at));
            set(&mut f, NODE.name, Value::Name(node.clone()));
            if let Some(d) = self.amount {
                // A draw beyond the field's range (a far tail) is the nearest value it allows.
                let x = d.draw(&mut rng).clamp(n.lo, n.hi);
                let value = match n.need {
                    Need::Optional { .. } => Value::Maybe(Some(x)),
                    _ => Value::Int(x),
                };
                set(&mut f, p.name, value);
            }
            out.push(f);
        }
        out
    }
}

/// The faults `s` (validated) runs with: its own as written, then each schedule's in time
/// order (not merged by time: the world orders faults by when they strike, and a scenario
/// without schedules keeps its faults, and so its trace, exactly as before). At most
/// `MAX_SCHEDULED_FAULTS` come from schedules (a Poisson schedule may draw more than its
/// average; the rest are not made).
pub fn expand(s: &Scenario) -> Vec<FaultSpec> {
    let mut out = s.faults.clone();
    let mut room = MAX_SCHEDULED_FAULTS;
    for (i, schedule) in s.schedules.iter().enumerate() {
        let made = schedule.strikes(i, s, room);
        room -= made.len();
        out.extend(made);
    }
    out
}

impl Serialize for Schedule {
    /// As the reader reads it: `kind`, the schedule's own fields, the amount under its
    /// field's name, then the kind's other fields.
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let kind = self.kind();
        let mut map = ser.serialize_map(None)?;
        map.serialize_entry("kind", kind.id())?;
        map.serialize_entry("every_ms", &self.every_ms)?;
        map.serialize_entry("from_ms", &self.from_ms)?;
        if let Some(u) = self.until_ms {
            map.serialize_entry("until_ms", &u)?;
        }
        map.serialize_entry("arrivals", self.arrivals.id())?;
        if let Some(on) = &self.on {
            map.serialize_entry("on", on)?;
        }
        if let Some(d) = &self.amount {
            map.serialize_entry(amount_of(kind).0.name, d)?;
        }
        for (p, v) in self.template.values().into_iter().filter(|(p, _)| !drawn(kind, p)) {
            match v {
                Value::Int(x) => map.serialize_entry(p.name, &x)?,
                Value::Maybe(Some(x)) => map.serialize_entry(p.name, &x)?,
                Value::Maybe(None) => {}
                Value::Flag(b) => map.serialize_entry(p.name, &b)?,
                Value::Name(n) => map.serialize_entry(p.name, &n)?,
                Value::Groups(g) => map.serialize_entry(p.name, &g)?,
            }
        }
        map.end()
    }
}

/// Natively only, for the reference reader of tests/error_paths.rs: the JSON through the
/// reader of `schedules[]` (there is one reader; this only carries its errors).
#[cfg(not(target_arch = "wasm32"))]
impl<'de> serde::Deserialize<'de> for Schedule {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(de)?;
        super::read::schedule(&v, "").map_err(serde::de::Error::custom)
    }
}
