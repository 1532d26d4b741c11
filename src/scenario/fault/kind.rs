//! The fault trait, [`Kind`], and what a kind's impl is made of: its fields as [`Param`]s (the
//! data every generic part reads: bounds, the form's label, the explorer's range, the
//! shrinker's direction), each with the [`Place`] in the payload that holds it, and the
//! [`Spot`] a kind places itself at. Nothing here names a kind: each kind's file does that.

pub use crate::param::{Need, Number, Param, Toward, Ty};
use crate::scenario::limits::MAX_DURATION_MS;
use crate::sim::{Fault, NodeId, Role};

/// One fault kind: a payload type with the fields of one entry of `faults[]`.
///
/// What is data (the consts, each field's `Param`) is read by the generic parts of `fault/`:
/// reading, validation, editing, drawing and shrinking never name a kind. What cannot be data
/// — its words, the world fault it builds, a rule beyond one field's bounds, where pointing
/// puts one — is the kind's own code, and the compiler refuses a kind without it.
pub trait Kind: Clone + Default + 'static {
    /// `kind` in the JSON.
    const ID: &'static str;
    /// What it is called in a sentence or on a button ("clock jump").
    const NOUN: &'static str;
    /// The role of the node the editor's "add" button puts one on (the scenario's first node
    /// of that role), as pointing there would; None for kinds the form leaves to the JSON.
    const EXAMPLE_ON: Option<Role> = None;
    /// The number the explorer's sweep varies, if it varies one of this kind.
    const SWEEP: Option<&'static Sweep> = None;
    /// Whether the toolbar's length knob sets this kind's amount (`Param::form`) in the first
    /// fault of the kind: the pause knob.
    const KNOB: bool = false;

    /// When it strikes, in true ms.
    fn at_ms(&self) -> i64;
    /// Its fields after `kind`, in the format's order (`at_ms` first), each with where this
    /// payload keeps it. Every generic part goes through this list.
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)>;
    /// The fault in a few words, for lists and the not-applicable notes of Compare.
    fn words(&self) -> String;
    /// The fault as the world applies it; `id` maps a (validated) node name to its id.
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault;
    /// The editor's name for it.
    fn label(&self) -> &'static str;
    /// A rule beyond `param`'s own bounds, checked right after it: the message if broken.
    fn rule(&self, _param: &str) -> Option<&'static str> {
        None
    }
    /// The fault a user puts at `spot` by pointing there (the diagram's fault menu), with
    /// values that tell this kind's story in that run; `same` are the scenario's faults of
    /// this kind already there. None where it does not apply to the node.
    fn here(spot: &Spot, same: &[&Self]) -> Option<Self>;
}

pub const AT: Param = Param { name: "at_ms", ty: Ty::At, form: None };
pub const NODE: Param = Param { name: "node", ty: Ty::Node, form: None };
pub const FROM: Param = Param { name: "from", ty: Ty::Node, form: None };
pub const TO: Param = Param { name: "to", ty: Ty::Node, form: None };

/// A number of milliseconds in `lo..=MAX_DURATION_MS`, moved toward `lo` by the shrinker.
pub const fn ms(name: &'static str, need: Need, lo: i64, draw: (i64, i64), form: Option<&'static str>) -> Param {
    let n = Number { need, lo, hi: MAX_DURATION_MS, unit: "ms", draw, toward: Toward::Low };
    Param { name, ty: Ty::Number(n), form }
}

/// A required number in `-limit..=limit` of `unit`s, moved toward zero by the shrinker (a
/// clock's jump or drift, either sign).
pub const fn signed(name: &'static str, limit: i64, unit: &'static str, draw: (i64, i64), form: Option<&'static str>) -> Param {
    let n = Number { need: Need::Required, lo: -limit, hi: limit, unit, draw, toward: Toward::Zero };
    Param { name, ty: Ty::Number(n), form }
}

/// Where a payload keeps one field: its type is the field's own, so a kind's `fields` cannot
/// hand out a field as what it is not.
pub enum Place<'a> {
    /// A number that is always there (required, or with a default), or `at_ms`.
    Int(&'a mut i64),
    /// A number that may be absent.
    Maybe(&'a mut Option<i64>),
    Flag(&'a mut bool),
    Name(&'a mut String),
    Groups(&'a mut Vec<Vec<String>>),
}

/// A field's value, owned: what `Place` holds, to read or to put back.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Maybe(Option<i64>),
    Flag(bool),
    Name(String),
    Groups(Vec<Vec<String>>),
}

impl Place<'_> {
    pub fn value(&self) -> Value {
        match self {
            Place::Int(x) => Value::Int(**x),
            Place::Maybe(x) => Value::Maybe(**x),
            Place::Flag(b) => Value::Flag(**b),
            Place::Name(n) => Value::Name((*n).clone()),
            Place::Groups(g) => Value::Groups((*g).clone()),
        }
    }

    /// Puts `value` here; false, and nothing changed, if it is not of this field's type.
    pub fn put(self, value: Value) -> bool {
        match (self, value) {
            (Place::Int(x), Value::Int(v)) => *x = v,
            (Place::Maybe(x), Value::Maybe(v)) => *x = v,
            (Place::Flag(b), Value::Flag(v)) => *b = v,
            (Place::Name(n), Value::Name(v)) => *n = v,
            (Place::Groups(g), Value::Groups(v)) => *g = v,
            _ => return false,
        }
        true
    }
}

/// A number the explorer's sweep varies: one fault of its kind per schedule with this field
/// fixed at each point, everything else drawn.
#[derive(Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The name `--sweep` takes ("pause_ttl").
    pub id: &'static str,
    /// What the page calls it, with its unit ("pause ÷ TTL").
    pub words: &'static str,
    /// The field it fixes.
    pub param: &'static Param,
    /// Whether a point is a multiple of the lock's TTL (swept from nothing to twice the TTL)
    /// rather than a number of the field's unit (swept over the kind's own draw range).
    pub per_ttl: bool,
    /// Whether it strikes clients only (a holder) rather than any node.
    pub on_clients: bool,
}

/// `ms` rounded up to whole tenths of a second (at least one): numbers a menu can say.
pub fn tenths_up(ms: i64) -> i64 {
    ((ms.max(1) + 99) / 100) * 100
}

/// Where a user pointed on the diagram: a node, a moment, and what the run there shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub node: String,
    pub role: Role,
    pub at_ms: i64,
    /// How long the run lasts.
    pub duration_ms: i64,
    /// The lease or session lifetime the service grants in this run (the verdict's
    /// `granted_ttl_ms`, else the TTL asked for).
    pub lease_ms: i64,
    /// The node `node` sends to next after `at_ms`, and when (its next message); where it
    /// sends nothing more, its usual peer and `at_ms`.
    pub next_send: (String, i64),
}

impl Spot {
    /// Long enough to outlive the lease from any moment: half a lease more, in whole tenths of
    /// a second (the classic failure: a holder stops for longer than its lease).
    pub fn past_lease_ms(&self) -> i64 {
        tenths_up(self.lease_ms * 3 / 2)
    }
    /// Whether the node keeps a clock that matters to a lock (clients and lock servers).
    pub fn has_clock(&self) -> bool {
        self.role != Role::Storage
    }
}

/// A link's two ends must differ (checked on `to`): the rule of the kinds that name a link.
pub fn same_link_end(param: &str, from: &str, to: &str) -> Option<&'static str> {
    (param == TO.name && from == to).then_some("from and to are the same node")
}
