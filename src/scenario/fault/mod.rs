//! Everything that differs by fault kind (pause, clock_jump, clock_drift, crash, partition,
//! delay, drop): one payload type per kind, each in its own file, implementing the fault trait
//! [`Kind`] (kind.rs): its fields with their bounds, its words ("clock jump redis-3 by +10 s at
//! 1.5 s"), the world fault it becomes, where pointing puts one, the explorer's sweep and the
//! toolbar's knob. [`FaultSpec`], the entry of `faults[]`, holds one of the payloads, so a
//! `match` on it is checked by the compiler and no code takes a fault apart by position.
//!
//! The generic parts work on any kind through its `Kind::fields`: reading from JSON with field
//! paths (read.rs), validation (validate.rs), the editor's and the session's edits by field name
//! (here), drawing one at random and the numbers a shrinker may move (explore.rs), faults placed
//! from a scenario alone (spot.rs). Adding a kind is its file and one name in `kinds!` below
//! (docs/ADDING.md).
//!
//! A fault schedule (schedule.rs, its distributions dist.rs) makes faults of the kinds that
//! strike one node, again and again; they are expanded into ordinary faults before a run.
//!
//! The files form layers, so nothing imports back: kind.rs imports no scenario type; the kinds
//! import kind.rs; this file (which the format's `Scenario` imports for `FaultSpec`) imports the
//! kinds; only read.rs, validate.rs, explore.rs, spot.rs and schedule.rs see a `Scenario`.

use std::marker::PhantomData;

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

mod clock_drift;
mod clock_jump;
mod crash;
mod delay;
pub mod dist;
mod drop;
pub mod explore;
mod kind;
mod partition;
mod pause;
pub(super) mod read;
pub mod schedule;
mod spot;
#[cfg(test)]
mod tests;
pub(super) mod validate;

pub use clock_drift::ClockDrift;
pub use clock_jump::ClockJump;
pub use crash::Crash;
pub use delay::Delay;
pub use drop::Drop;
pub use explore::{draw, knobs, Knob, Space};
pub use kind::{Kind, Need, Number, Param, Place, Spot, Sweep, Toward, Ty, Value};
pub use partition::Partition;
pub use pause::Pause;
pub use schedule::{expand, Arrivals, Schedule};

use crate::sim::{Fault, NodeId};

/// The one list of kinds, in the format's order: `FaultSpec`'s variants, `FaultKind::ALL`, and
/// the code that reaches a payload inside a `FaultSpec`.
macro_rules! kinds {
    ($($kind:ident),+ $(,)?) => {
        /// One entry of `faults[]`, tagged by `kind`: the payload of its kind.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum FaultSpec {
            $($kind($kind)),+
        }

        impl FaultSpec {
            fn payload(&self) -> &dyn Payload {
                match self {
                    $(FaultSpec::$kind(p) => p),+
                }
            }
            fn payload_mut(&mut self) -> &mut dyn Payload {
                match self {
                    $(FaultSpec::$kind(p) => p),+
                }
            }
        }

        $(
            impl From<$kind> for FaultSpec {
                fn from(p: $kind) -> FaultSpec {
                    FaultSpec::$kind(p)
                }
            }
            impl Variant for $kind {
                fn of(f: &FaultSpec) -> Option<&$kind> {
                    match f {
                        FaultSpec::$kind(p) => Some(p),
                        _ => None,
                    }
                }
            }
        )+

        impl FaultKind {
            /// Every kind, in the order the format lists them.
            pub const ALL: [FaultKind; [$(stringify!($kind)),+].len()] = [$(FaultKind::of::<$kind>()),+];
        }
    };
}

kinds!(Pause, ClockJump, ClockDrift, Crash, Partition, Delay, Drop);

/// A kind's payload found in a `FaultSpec` (written by `kinds!`).
pub trait Variant: Kind + Into<FaultSpec> {
    fn of(f: &FaultSpec) -> Option<&Self>;
}

/// What a `FaultSpec` does through its payload, whatever its kind.
trait Payload {
    fn kind(&self) -> FaultKind;
    fn at_ms(&self) -> i64;
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)>;
    fn words(&self) -> String;
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault;
    fn label(&self) -> &'static str;
    fn rule(&self, param: &str) -> Option<&'static str>;
}

impl<K: Variant> Payload for K {
    fn kind(&self) -> FaultKind {
        FaultKind::of::<K>()
    }
    fn at_ms(&self) -> i64 {
        Kind::at_ms(self)
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        Kind::fields(self)
    }
    fn words(&self) -> String {
        Kind::words(self)
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Kind::build(self, id)
    }
    fn label(&self) -> &'static str {
        Kind::label(self)
    }
    fn rule(&self, param: &str) -> Option<&'static str> {
        Kind::rule(self, param)
    }
}

impl FaultSpec {
    /// Its kind.
    pub fn kind(&self) -> FaultKind {
        self.payload().kind()
    }
    /// When the fault strikes, in true ms.
    pub fn at_ms(&self) -> i64 {
        self.payload().at_ms()
    }
    /// The editor's name for it ("Machine crash").
    pub fn label(&self) -> &'static str {
        self.payload().label()
    }
    /// The payload if it is of kind `K`.
    pub fn get<K: Variant>(&self) -> Option<&K> {
        K::of(self)
    }
    /// Its fields with their values, in the format's order.
    pub fn values(&self) -> Vec<(&'static Param, Value)> {
        let mut copy = self.clone();
        let out = copy.payload_mut().fields().into_iter().map(|(p, place)| (p, place.value())).collect();
        out
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        self.payload_mut().fields()
    }
    fn rule(&self, param: &str) -> Option<&'static str> {
        self.payload().rule(param)
    }
}

/// What a `FaultKind` knows of its kind without a fault of it.
trait About: Sync {
    fn id(&self) -> &'static str;
    fn noun(&self) -> &'static str;
    fn blank(&self) -> FaultSpec;
    fn example_on(&self) -> Option<crate::sim::Role>;
    fn sweep(&self) -> Option<&'static Sweep>;
    fn knob(&self) -> bool;
    fn here(&self, spot: &Spot, faults: &[FaultSpec]) -> Option<FaultSpec>;
}

struct Of<K>(PhantomData<fn() -> K>);

impl<K: Variant> Of<K> {
    const ABOUT: &'static dyn About = &Of::<K>(PhantomData);
}

impl<K: Variant> About for Of<K> {
    fn id(&self) -> &'static str {
        K::ID
    }
    fn noun(&self) -> &'static str {
        K::NOUN
    }
    fn blank(&self) -> FaultSpec {
        K::default().into()
    }
    fn example_on(&self) -> Option<crate::sim::Role> {
        K::EXAMPLE_ON
    }
    fn sweep(&self) -> Option<&'static Sweep> {
        K::SWEEP
    }
    fn knob(&self) -> bool {
        K::KNOB
    }
    fn here(&self, spot: &Spot, faults: &[FaultSpec]) -> Option<FaultSpec> {
        let same: Vec<&K> = faults.iter().filter_map(K::of).collect();
        K::here(spot, &same).map(Into::into)
    }
}

/// A fault kind without a fault of it (the explorer's mix, the editor's "add" buttons, the
/// fault menu), compared by id.
#[derive(Clone, Copy)]
pub struct FaultKind(&'static dyn About);

impl FaultKind {
    /// The kind whose payload is `K`.
    pub const fn of<K: Variant>() -> FaultKind {
        FaultKind(Of::<K>::ABOUT)
    }

    /// The kind `kind` names in the JSON (`"clock_jump"`).
    pub fn by_id(id: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// `kind` in the JSON.
    pub fn id(self) -> &'static str {
        self.0.id()
    }
    /// What it is called in a sentence or on a button ("clock jump").
    pub fn noun(self) -> &'static str {
        self.0.noun()
    }
    /// Its fields after `kind`, in the format's order (`at_ms` first).
    pub fn params(self) -> Vec<&'static Param> {
        self.blank().fields().into_iter().map(|(p, _)| p).collect()
    }
    /// The param called `name`, with its position.
    pub fn param(self, name: &str) -> Option<(usize, &'static Param)> {
        self.params().into_iter().enumerate().find(|(_, p)| p.name == name)
    }
    /// The number the explorer's sweep varies, if it varies one of this kind.
    pub fn sweep(self) -> Option<&'static Sweep> {
        self.0.sweep()
    }
    /// The fault a user puts at `spot` by pointing there, in a scenario with `faults`; None
    /// where it does not apply to the node.
    pub fn here(self, spot: &Spot, faults: &[FaultSpec]) -> Option<FaultSpec> {
        self.0.here(spot, faults)
    }
    /// A fault of this kind with every field empty or zero, for the reader and the explorer
    /// to fill in field by field.
    fn blank(self) -> FaultSpec {
        self.0.blank()
    }
}

impl PartialEq for FaultKind {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}
impl Eq for FaultKind {}

impl std::fmt::Debug for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

// ---------------------------------------------------------------------------------------------
// Edits and questions by field name, for any kind.

/// The value of `f`'s field `name`, if its kind has one.
pub fn get(f: &FaultSpec, name: &str) -> Option<Value> {
    f.values().into_iter().find(|(p, _)| p.name == name).map(|(_, v)| v)
}

/// `f` with its field `name` set to `value`; false, and `f` unchanged, if its kind has no such
/// field or the field does not hold a value of that type.
pub fn set(f: &mut FaultSpec, name: &str, value: Value) -> bool {
    f.fields().into_iter().find(|(p, _)| p.name == name).is_some_and(|(_, place)| place.put(value))
}

/// The fault as the world applies it (`f` validated; `id` maps its node names to ids).
pub fn build(f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
    f.payload().build(id)
}

/// A fault in a few words: "clock jump redis-3 by +10 s at 1.5 s".
pub fn words(f: &FaultSpec) -> String {
    f.payload().words()
}

/// Every node name a fault mentions, in field order (what must exist for Compare to carry it
/// over to another approach).
pub fn nodes(f: &FaultSpec) -> Vec<String> {
    f.values()
        .into_iter()
        .flat_map(|(_, v)| match v {
            Value::Name(n) => vec![n],
            Value::Groups(g) => g.into_iter().flatten().collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The editor's row for a fault: the one amount with its label (`Param::form`).
pub fn amount(kind: FaultKind) -> Option<(usize, &'static Param, Number)> {
    kind.params().into_iter().enumerate().find_map(|(i, p)| match (p.form, p.ty) {
        (Some(_), Ty::Number(n)) => Some((i, p, n)),
        _ => None,
    })
}

/// The fault the toolbar's knob sets: the first whose kind has the knob (`Kind::KNOB`).
fn knob_fault(faults: &[FaultSpec]) -> Option<usize> {
    faults.iter().position(|f| f.kind().0.knob())
}

/// What the toolbar's knob shows: the amount of the fault it sets (a pause's length).
pub fn knob(faults: &[FaultSpec]) -> Option<i64> {
    let f = &faults[knob_fault(faults)?];
    let (_, p, _) = amount(f.kind())?;
    match get(f, p.name)? {
        Value::Int(x) | Value::Maybe(Some(x)) => Some(x),
        _ => None,
    }
}

/// Sets the amount of the fault the toolbar's knob sets to `value`, if there is one.
pub fn set_knob(faults: &mut [FaultSpec], value: i64) {
    let Some(i) = knob_fault(faults) else { return };
    let Some((_, p, _)) = amount(faults[i].kind()) else { return };
    let value = match get(&faults[i], p.name) {
        Some(Value::Maybe(_)) => Value::Maybe(Some(value)),
        _ => Value::Int(value),
    };
    set(&mut faults[i], p.name, value);
}
