//! The explorer's side of every kind: drawing a fault at random within a mix's ranges, and the
//! numbers a shrinker may move toward the mildest fault. Both go through a kind's params
//! (`Number::draw`, `Number::toward`), never by naming a kind.

use super::kind::{Need, Number, Param, Toward, Ty, Value};
use super::{validate, FaultKind, FaultSpec};
use crate::scenario::format::Scenario;
use crate::sim::rng::Stream;

/// Where the explorer may draw a fault's values from.
pub struct Space<'a> {
    /// The nodes a fault may name (every node field and group member).
    pub nodes: &'a [String],
    /// When it may strike, in true ms (within the run).
    pub window_ms: (i64, i64),
    /// A range for a number that replaces its `Number::draw`: `(kind, param, lo, hi)`.
    pub ranges: &'a [(FaultKind, &'static str, i64, i64)],
}

/// How many times a draw is retried when it breaks a kind's rule (a crash of storage, a link
/// from a node to itself) before the kind is given up for this schedule.
const DRAW_TRIES: usize = 8;

/// A fault of `kind` drawn from `space` that is valid in `s` (whose nodes are `names`), or None
/// when the space has nothing valid to offer. Draws only from `rng`, a fixed number of times
/// per try, so the same stream always gives the same fault.
pub fn draw(kind: FaultKind, rng: &mut Stream, space: &Space, s: &Scenario, names: &[String]) -> Option<FaultSpec> {
    if space.nodes.is_empty() {
        return None;
    }
    (0..DRAW_TRIES).find_map(|_| {
        let mut f = kind.blank();
        for (p, place) in f.fields() {
            place.put(draw_value(kind, p, rng, space, s.duration_ms));
        }
        validate::fault(&f, 0, s, names).is_ok().then_some(f)
    })
}

fn draw_value(kind: FaultKind, p: &Param, rng: &mut Stream, space: &Space, duration_ms: i64) -> Value {
    let pick = |rng: &mut Stream| space.nodes[rng.range(0, space.nodes.len() as i64 - 1) as usize].clone();
    match p.ty {
        Ty::At => Value::Int(rng.range(space.window_ms.0.max(0), space.window_ms.1.min(duration_ms))),
        Ty::Number(n) => {
            let (lo, hi) =
                space.ranges.iter().find(|(k, name, _, _)| *k == kind && *name == p.name).map_or(n.draw, |&(_, _, lo, hi)| (lo, hi));
            let (lo, hi) = (lo.clamp(n.lo, n.hi), hi.clamp(n.lo, n.hi));
            match n.need {
                Need::Optional { .. } if rng.range(0, 2) == 0 => Value::Maybe(None),
                Need::Optional { .. } => Value::Maybe(Some(rng.range(lo, hi))),
                Need::Required | Need::Default(_) => Value::Int(rng.range(lo, hi)),
            }
        }
        Ty::Node => Value::Name(pick(rng)),
        // One group of about half the nodes: the rest form the other side.
        Ty::Groups => {
            let mut side: Vec<String> = space.nodes.iter().filter(|_| rng.range(0, 1) == 1).cloned().collect();
            if side.is_empty() {
                side.push(pick(rng));
            }
            Value::Groups(vec![side])
        }
        Ty::Flag => Value::Flag(rng.range(0, 1) == 1),
    }
}

/// A number of a fault that the shrinker may move toward its mildest value, or a flag it may
/// turn off.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    /// The field's name.
    pub name: &'static str,
    /// Where it is now. An absent number (a partition to the end, a crash that stays down)
    /// starts from a present one with about the same effect: the rest of the run.
    pub now: i64,
    /// Whether `now` stands in for an absent number (setting it is already a change).
    pub absent: bool,
    /// The mildest value: moving there makes the fault as small as it can be.
    pub toward: i64,
    holds: Holds,
}

/// What a knob's field holds, to put a number back into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    Int,
    Maybe,
    Flag,
}

impl Knob {
    /// `f` with this knob at `x`.
    pub fn at(&self, f: &FaultSpec, x: i64) -> FaultSpec {
        let value = match self.holds {
            Holds::Int => Value::Int(x),
            Holds::Maybe => Value::Maybe(Some(x)),
            Holds::Flag => Value::Flag(x != 0),
        };
        let mut f = f.clone();
        super::set(&mut f, self.name, value);
        f
    }
}

/// What the shrinker may move in `f` (in a run of `duration_ms`), in field order: the start
/// toward the end of the run (the latest start that still fails), every number toward its
/// mildest value, every flag toward no.
pub fn knobs(f: &FaultSpec, duration_ms: i64) -> Vec<Knob> {
    let at = f.at_ms();
    let knob = |name, now, absent, toward, holds| Knob { name, now, absent, toward, holds };
    let mut out = Vec::new();
    for (p, v) in f.values() {
        let mildest = |n: Number| match n.toward {
            Toward::Low => n.lo,
            Toward::Zero => 0i64.clamp(n.lo, n.hi),
        };
        let k = match (p.ty, v) {
            (Ty::At, Value::Int(t)) => knob(p.name, t, false, duration_ms, Holds::Int),
            (Ty::Number(n), Value::Int(x)) => knob(p.name, x, false, mildest(n), Holds::Int),
            (Ty::Number(n), Value::Maybe(x)) => {
                let rest = (duration_ms - at).clamp(n.lo, n.hi);
                knob(p.name, x.unwrap_or(rest), x.is_none(), mildest(n), Holds::Maybe)
            }
            (Ty::Flag, Value::Flag(true)) => knob(p.name, 1, false, 0, Holds::Flag),
            _ => continue,
        };
        if k.now != k.toward || k.absent {
            out.push(k);
        }
    }
    out
}
