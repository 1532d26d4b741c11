//! Reading one entry of `faults[]` from JSON, field by field in its kind's order, each error
//! with its path (`faults[0].duration_ms: missing field ...`).

use serde_json::Value as Json;

use super::dist::Dist;
use super::kind::{Need, Number, Place, Ty};
use super::schedule::{amount_of, drawn, schedulable, Arrivals, Schedule};
use super::{FaultKind, FaultSpec, Param};
use crate::scenario::json_read::{self, boolean, int, list, string, Object, Read};

/// Reads one entry of `faults[]` at `path`.
pub fn fault(v: &Json, path: &str) -> Read<FaultSpec> {
    // `kind` picks the fields that are allowed, so it is read first.
    let Json::Object(map) = v else { return json_read::invalid(path, v, "an object") };
    let Some(kind) = map.get("kind") else { return json_read::err(path, "missing field `kind`".into()) };
    let table: Vec<(&str, FaultKind)> = FaultKind::ALL.iter().map(|k| (k.id(), *k)).collect();
    let kind = json_read::choice(kind, &json_read::join(path, "kind"), &table)?;
    let mut f = kind.blank();
    let fields = f.fields();
    let known: Vec<&str> = std::iter::once("kind").chain(fields.iter().map(|(p, _)| p.name)).collect();
    let o = Object::new(v, path, &known)?;
    for (p, place) in fields {
        field(&o, p, place)?;
    }
    Ok(f)
}

fn field(o: &Object, p: &Param, place: Place) -> Read<()> {
    match place {
        Place::Int(x) => {
            *x = match p.ty {
                Ty::Number(Number { need: Need::Default(d), .. }) => o.or(p.name, d, int)?,
                _ => o.req(p.name, int)?,
            }
        }
        Place::Maybe(x) => *x = o.opt(p.name, int)?,
        Place::Flag(b) => *b = o.or(p.name, false, boolean)?,
        Place::Name(n) => *n = o.req(p.name, string)?,
        Place::Groups(g) => *g = o.req(p.name, |v, p| list(v, p, |v, p| list(v, p, string)))?,
    }
    Ok(())
}

/// Reads one entry of `schedules[]` at `path`: its kind (one that strikes one node), its own
/// fields, the amount's distribution under the amount's name, and the kind's other fields.
pub fn schedule(v: &Json, path: &str) -> Read<Schedule> {
    let Json::Object(map) = v else { return json_read::invalid(path, v, "an object") };
    let Some(kind) = map.get("kind") else { return json_read::err(path, "missing field `kind`".into()) };
    let table: Vec<(&str, FaultKind)> = schedulable().into_iter().map(|k| (k.id(), k)).collect();
    let kind = json_read::choice(kind, &json_read::join(path, "kind"), &table)?;
    let (amount, number) = amount_of(kind);
    let mut template = kind.blank();
    let fields: Vec<(&Param, Place)> = template.fields().into_iter().filter(|(p, _)| !drawn(kind, p)).collect();
    let own = ["kind", "every_ms", "from_ms", "until_ms", "arrivals", "on", amount.name];
    let known: Vec<&str> = own.into_iter().chain(fields.iter().map(|(p, _)| p.name)).collect();
    let o = Object::new(v, path, &known)?;
    for (p, place) in fields {
        field(&o, p, place)?;
    }
    let arrivals = |v: &Json, p: &str| json_read::choice(v, p, &[("periodic", Arrivals::Periodic), ("poisson", Arrivals::Poisson)]);
    let dist = o.opt(amount.name, dist)?;
    if dist.is_none() && !matches!(number.need, Need::Optional { .. }) {
        return json_read::err(path, format!("missing field `{}`", amount.name));
    }
    Ok(Schedule {
        every_ms: o.req("every_ms", int)?,
        from_ms: o.or("from_ms", 0, int)?,
        until_ms: o.opt("until_ms", int)?,
        arrivals: o.or("arrivals", Arrivals::Periodic, arrivals)?,
        on: o.opt("on", nodes)?,
        amount: dist,
        template,
    })
}

/// `on`: one node's name, or a list of them.
fn nodes(v: &Json, path: &str) -> Read<Vec<String>> {
    match v {
        Json::String(s) => Ok(vec![s.clone()]),
        _ => list(v, path, string),
    }
}

/// A distribution: `{"dist": "log_normal", "median": 50, "p99": 2000}`.
fn dist(v: &Json, path: &str) -> Read<Dist> {
    let Json::Object(map) = v else { return json_read::invalid(path, v, "an object with a `dist`") };
    let Some(name) = map.get("dist") else { return json_read::err(path, "missing field `dist`".into()) };
    let table = [("fixed", "fixed"), ("uniform", "uniform"), ("exponential", "exponential"), ("log_normal", "log_normal")];
    let name = json_read::choice(name, &json_read::join(path, "dist"), &table)?;
    let with = |keys: &[&str]| {
        let known: Vec<&str> = std::iter::once("dist").chain(keys.iter().copied()).collect();
        Object::new(v, path, &known)
    };
    Ok(match name {
        "fixed" => Dist::Fixed { value: with(&["value"])?.req("value", int)? },
        "uniform" => {
            let o = with(&["min", "max"])?;
            Dist::Uniform { min: o.req("min", int)?, max: o.req("max", int)? }
        }
        "exponential" => Dist::Exponential { mean: with(&["mean"])?.req("mean", int)? },
        _ => {
            let o = with(&["median", "p99"])?;
            Dist::LogNormal { median: o.req("median", int)?, p99: o.req("p99", int)? }
        }
    })
}
