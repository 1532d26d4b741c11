//! Reading one entry of `faults[]` from JSON, field by field in its kind's order, each error
//! with its path (`faults[0].duration_ms: missing field ...`).

use serde_json::Value as Json;

use super::kind::{Need, Number, Place, Ty};
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
