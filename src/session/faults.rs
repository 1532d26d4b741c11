//! Faults where the user points (issue: hands on): the diagram's fault menu offers, for a lane
//! and the cursor, every kind whose `Kind::here` applies to that node; choosing one edits the
//! scenario at once. Moving, resizing and removing an injected fault are scenario edits too,
//! so the editor, Copy link, Export and undo all see them.

use super::Session;
use crate::scenario::fault::{self, FaultKind, Spot, Value};
use crate::scenario::validate::node_names;
use crate::scenario::FaultSpec;
use crate::sim::trace::EventKind;

/// An open fault menu: the lane it was opened on, and where on the screen (CSS px from the
/// viewport's top left) it was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultMenu {
    pub node: String,
    pub x: f64,
    pub y: f64,
}

/// One item of the fault menu: the kind, and the fault choosing it would add.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub kind: FaultKind,
    pub fault: FaultSpec,
}

impl Offer {
    /// The menu's words for it: "Pause A for 15 s" (the menu's heading says when).
    pub fn words(&self) -> String {
        let at = crate::decimal::seconds(self.fault.at_ms());
        let w = fault::words(&self.fault).replacen(&format!(" at {at}"), "", 1);
        let mut chars = w.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    }
}

impl Session {
    /// What the run shows at the cursor for `node` (None for a name the scenario lacks).
    fn spot(&self, node: &str) -> Option<Spot> {
        let s = &*self.scenario;
        let planned = Spot::planned(s, node, self.cursor_ms())?;
        let names = node_names(s);
        let id = names.iter().position(|n| n == node)?;
        // What the run shows: the node's next message after the cursor, the lease granted.
        let next = self.run.trace.events.iter().find_map(|e| match &e.kind {
            EventKind::Sent { to, .. } if e.node == id && e.at_ms >= planned.at_ms => Some((names[*to].clone(), e.at_ms)),
            _ => None,
        });
        let lease_ms = self.run.verdict.granted_ttl_ms.unwrap_or(planned.lease_ms);
        Some(Spot { lease_ms, next_send: next.unwrap_or(planned.next_send.clone()), ..planned })
    }

    /// The fault menu for `node` at the cursor: one offer per kind that applies there.
    pub fn fault_menu(&self, node: &str) -> Vec<Offer> {
        let Some(spot) = self.spot(node) else { return Vec::new() };
        FaultKind::ALL.into_iter().filter_map(|kind| kind.here(&spot, &self.scenario.faults).map(|fault| Offer { kind, fault })).collect()
    }

    /// Adds the fault of `kind` the menu offers for `node` at the cursor, and selects it.
    pub(super) fn inject(self, kind: &str, node: &str) -> Session {
        let offer = self.fault_menu(node).into_iter().find(|o| o.kind.id() == kind);
        let Some(Offer { fault, .. }) = offer else { return self };
        let mut lab = self.edit(|s| {
            s.duration_ms = s.duration_ms.max(story_end(s, &fault));
            s.faults.push(fault);
        });
        if lab.error.is_none() {
            lab.selected = Some(lab.scenario.faults.len() - 1);
        }
        lab.menu = None;
        lab
    }

    /// Moves fault `index` to strike at `at_ms` (kept within the run).
    pub(super) fn move_fault(self, index: usize, at_ms: i64) -> Session {
        let at = at_ms.clamp(0, self.scenario.duration_ms);
        self.edit_fault(index, "at_ms", Value::Int(at))
    }

    /// Sets fault `index`'s length (its form's amount in ms: a pause's duration, a crash's
    /// restart delay, a partition's or drop's span, a delay's extra latency).
    pub(super) fn resize_fault(self, index: usize, length_ms: i64) -> Session {
        let Some(f) = self.scenario.faults.get(index) else { return self };
        let Some((_, param, number)) = fault::amount(f.kind()) else { return self };
        if number.unit != "ms" {
            return self;
        }
        let value = match fault::get(f, param.name) {
            Some(Value::Maybe(_)) => Value::Maybe(Some(length_ms.max(number.lo))),
            _ => Value::Int(length_ms.max(number.lo)),
        };
        self.edit_fault(index, param.name, value)
    }

    fn edit_fault(self, index: usize, field: &str, value: Value) -> Session {
        if index >= self.scenario.faults.len() {
            return self;
        }
        let field = field.to_string();
        let mut lab = self.edit(|s| {
            fault::set(&mut s.faults[index], &field, value);
        });
        if lab.error.is_none() {
            lab.selected = Some(index);
        }
        lab
    }

    pub(super) fn remove_fault(self, index: usize) -> Session {
        if index >= self.scenario.faults.len() {
            return self;
        }
        let mut lab = self.edit(|s| {
            s.faults.remove(index);
        });
        lab.selected = None;
        lab
    }
}

/// When a run that has `f` must last to, to show what follows it: the fault's own span (its
/// time and every length it has in ms: a pause's, a restart's, a delay's window and extra
/// latency), then one more round of the slowest client's work and a second for the messages
/// (a paused holder wakes, finishes its work, writes). A built-in that ends early (a happy
/// path of 8 s) would otherwise end before a 15 s pause does, and show nothing.
fn story_end(s: &crate::scenario::Scenario, f: &FaultSpec) -> i64 {
    let span: i64 = f
        .values()
        .into_iter()
        .filter_map(|(p, v)| match (p.ty, v) {
            (fault::Ty::Number(n), Value::Int(x) | Value::Maybe(Some(x))) if n.unit == "ms" => Some(x.abs()),
            _ => None,
        })
        .sum();
    let work = s.clients.iter().map(|c| c.work_ms).max().unwrap_or(0);
    (f.at_ms() + span + work + 1000).min(crate::scenario::limits::MAX_DURATION_MS)
}
