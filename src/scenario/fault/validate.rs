//! Validating one fault of a scenario against its kind's params: every field within its
//! bounds, every node named existing, a partition's groups disjoint, then the kind's own rule.

use super::kind::{Ty, Value, NODE};
use super::schedule::{amount_of, drawn, schedulable, Schedule};
use super::FaultSpec;
use crate::scenario::error::{err, range, ScenarioError};
use crate::scenario::format::Scenario;
use crate::scenario::limits::MAX_DURATION_MS;
use crate::scenario::nodes::unknown_node;

/// Validates `faults[index]` of `s`, whose nodes are `names`. Paths and messages are written
/// only for an error: the explorer validates every fault it draws.
pub fn fault(f: &FaultSpec, index: usize, s: &Scenario, names: &[String]) -> Result<(), ScenarioError> {
    let path = |field: &str| format!("faults[{index}].{field}");
    let node = |name: &str, path: &dyn Fn() -> String| {
        if names.iter().any(|n| n == name) {
            Ok(())
        } else {
            Err(unknown_node(s, path(), name))
        }
    };
    for (p, v) in f.values() {
        let within = |x: i64, lo: i64, hi: i64, unit: &str| {
            if (lo..=hi).contains(&x) {
                Ok(())
            } else {
                range(&path(p.name), x, lo, hi, &format!(" {unit}"))
            }
        };
        match (p.ty, v) {
            (Ty::At, Value::Int(t)) => within(t, 0, s.duration_ms, "ms")?,
            (Ty::Number(n), Value::Int(x) | Value::Maybe(Some(x))) => within(x, n.lo, n.hi, n.unit)?,
            (Ty::Node, Value::Name(name)) => node(&name, &|| path(p.name))?,
            (Ty::Groups, Value::Groups(groups)) => disjoint_groups(&groups, &path(p.name), &node)?,
            _ => {}
        }
        if let Some(message) = f.rule(p.name) {
            return Err(err(path(p.name), message));
        }
    }
    Ok(())
}

/// Checks that a name is one of the scenario's nodes; the path is written only for an error.
type NodeCheck<'a> = dyn Fn(&str, &dyn Fn() -> String) -> Result<(), ScenarioError> + 'a;

/// At least one group, none empty, every member a node (`node`) in one group only.
fn disjoint_groups(groups: &[Vec<String>], path: &str, node: &NodeCheck<'_>) -> Result<(), ScenarioError> {
    if groups.is_empty() {
        return Err(err(path, "needs at least one group of node names"));
    }
    let group = |g: usize| format!("{path}[{g}]");
    let mut seen: Vec<&str> = Vec::new();
    for (g, members) in groups.iter().enumerate() {
        if members.is_empty() {
            return Err(err(group(g), "an empty group"));
        }
        for (m, name) in members.iter().enumerate() {
            let at = || format!("{}[{m}]", group(g));
            node(name, &at)?;
            if seen.contains(&name.as_str()) {
                return Err(err(at(), format!("\"{name}\" is in more than one group (groups must be disjoint)")));
            }
            seen.push(name);
        }
    }
    Ok(())
}

/// Validates `schedules[index]` of `s`, whose nodes are `names`: its times within the run,
/// every node it strikes existing (and one its kind may strike), its distribution's
/// parameters within the amount's own range, and the kind's other fields within theirs.
pub fn schedule(sch: &Schedule, index: usize, s: &Scenario, names: &[String]) -> Result<(), ScenarioError> {
    let path = |field: &str| format!("schedules[{index}].{field}");
    // The reader makes only these; a schedule built in code is held to the same.
    let kinds = schedulable();
    if !kinds.contains(&sch.kind()) {
        let ids: Vec<&str> = kinds.iter().map(|k| k.id()).collect();
        return Err(err(path("kind"), format!("a schedule cannot make {} faults (it makes {})", sch.kind().id(), ids.join(", "))));
    }
    range(&path("every_ms"), sch.every_ms, 1, MAX_DURATION_MS, " ms")?;
    range(&path("from_ms"), sch.from_ms, 0, s.duration_ms, " ms")?;
    if let Some(u) = sch.until_ms {
        range(&path("until_ms"), u, sch.from_ms, s.duration_ms, " ms")?;
    }
    if sch.on.as_ref().is_some_and(|on| on.is_empty()) {
        return Err(err(path("on"), "names no node: give one node's name or a list of them"));
    }
    for (i, name) in sch.targets(s).iter().enumerate() {
        let at = || if sch.on.is_some() { format!("{}[{i}]", path("on")) } else { path("on") };
        if !names.contains(name) {
            return Err(unknown_node(s, at(), name));
        }
        if sch.on.as_ref().is_some_and(|on| on[..i].contains(name)) {
            return Err(err(at(), format!("\"{name}\" is listed twice (each fault strikes one of the names, drawn uniformly)")));
        }
        let mut f = sch.template.clone();
        super::set(&mut f, NODE.name, Value::Name(name.clone()));
        if let Some(message) = f.rule(NODE.name) {
            return Err(err(at(), message));
        }
    }
    let kind = sch.kind();
    let (p, n) = amount_of(kind);
    if let Some(d) = sch.amount {
        for (param, v) in d.params() {
            // A log-normal's or an exponential's numbers are sizes, the field's own range
            // above zero; a fixed or uniform value is any value the field takes.
            let lo = if matches!(param, "mean" | "median" | "p99") { n.lo.max(1) } else { n.lo };
            range(&format!("{}.{param}", path(p.name)), v, lo, n.hi, &format!(" {}", n.unit))?;
        }
        if let Some((param, message)) = d.rule() {
            return Err(err(format!("{}.{param}", path(p.name)), message));
        }
    }
    for (q, v) in sch.template.values().into_iter().filter(|(q, _)| !drawn(kind, q)) {
        if let (Ty::Number(m), Value::Int(x) | Value::Maybe(Some(x))) = (q.ty, v) {
            range(&path(q.name), x, m.lo, m.hi, &format!(" {}", m.unit))?;
        }
    }
    Ok(())
}
