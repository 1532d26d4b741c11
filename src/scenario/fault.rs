//! Everything that differs by fault kind (pause, clock_jump, clock_drift, crash, partition,
//! delay, drop), in one place: how a fault is read from JSON and validated (with field paths),
//! the world fault it becomes, its words ("clock jump redis-3 by +10 s at 1.5 s"), the editor
//! form's fields, the nodes it names (what Compare carries over), and what the explorer needs:
//! drawing one at random within a mix's ranges, and the numbers a shrinker may move.
//!
//! The shape: a trait, [`Kind`], with one impl per kind, each listed once in [`FaultKind::ALL`].
//! Most of what a kind knows is data: its fields in the format's order, what each holds, its
//! bounds, the form's label, the range the explorer draws from and the way the shrinker moves
//! it ([`Param`]). The code below reads, validates, edits, draws and shrinks every kind through
//! that data, never by naming a kind. What cannot be data — its words, the world fault it
//! builds, a rule beyond one field's bounds, the form's example — is the kind's own code. A
//! trait keeps both halves of a kind in one impl block, and the compiler refuses a kind that
//! lacks its words or its world fault; a table of descriptors would carry the same functions as
//! fields, with nothing tying a kind's data to its code but their position in the table.
//!
//! `FaultSpec` (format.rs, the public format) stays the data type. `Kind::values` and
//! `Kind::make` are the only places that take one apart or put one together by field position;
//! the round-trip tests below hold them to `params`.

use serde_json::Value as Json;

use super::format::{FaultSpec, Scenario};
use super::limits::{MAX_CLOCK_JUMP_MS, MAX_DRIFT_PPM, MAX_DURATION_MS};
use super::read::{self, Object, Read};
use super::validate::{self, ScenarioError};
use crate::decimal::seconds;
use crate::sim::rng::Stream;
use crate::sim::{Fault, NodeId, Role};

/// What one field of a fault holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `at_ms`: when the fault strikes, in true ms within the run. The shrinker moves it later
    /// (the latest start that still fails).
    At,
    Number(Number),
    /// A node's name.
    Node,
    /// Disjoint groups of node names (unlisted nodes form one more group).
    Groups,
    /// Yes or no; absent means no. The shrinker tries no.
    Flag,
}

/// A whole number of `unit`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Number {
    pub need: Need,
    /// What validation accepts.
    pub lo: i64,
    pub hi: i64,
    /// "ms" or "ppm".
    pub unit: &'static str,
    /// What the explorer draws from unless its mix says otherwise.
    pub draw: (i64, i64),
    /// Which value the shrinker moves it toward: the mildest form of the fault.
    pub toward: Toward,
}

/// Whether a number must be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Required,
    /// Absent means this value.
    Default(i64),
    /// Absent is a meaning of its own, in the form's words ("stays down", "to the end").
    Optional {
        absent: &'static str,
    },
}

/// The mildest value of a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toward {
    /// Its lowest valid value (the shortest pause, the quickest restart).
    Low,
    /// Zero (the smallest clock jump or drift, either sign).
    Zero,
}

/// One field of a fault kind, named as the JSON names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
    /// The form's label when this is the row's one amount ("for", "restarts after").
    pub form: Option<&'static str>,
}

const AT: Param = Param { name: "at_ms", ty: Ty::At, form: None };
const NODE: Param = Param { name: "node", ty: Ty::Node, form: None };
const FROM: Param = Param { name: "from", ty: Ty::Node, form: None };
const TO: Param = Param { name: "to", ty: Ty::Node, form: None };

/// A number of milliseconds in `lo..=MAX_DURATION_MS`, moved toward `lo` by the shrinker.
const fn ms(name: &'static str, need: Need, lo: i64, draw: (i64, i64), form: Option<&'static str>) -> Param {
    let n = Number { need, lo, hi: MAX_DURATION_MS, unit: "ms", draw, toward: Toward::Low };
    Param { name, ty: Ty::Number(n), form }
}

/// A fault's field value, in the type its `Param` says.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A number that is always there (required, or with a default).
    Int(i64),
    /// A number that may be absent.
    Maybe(Option<i64>),
    Flag(bool),
    Name(String),
    Groups(Vec<Vec<String>>),
}

/// A fault's values in `params` order, taken one at a time by `Kind::make`.
pub struct Take(std::vec::IntoIter<Value>);

impl Take {
    pub fn new(values: Vec<Value>) -> Self {
        Take(values.into_iter())
    }

    fn next(&mut self) -> Value {
        self.0.next().unwrap_or_else(|| unreachable!("fewer values than params"))
    }
    pub fn int(&mut self) -> i64 {
        let Value::Int(v) = self.next() else { unreachable!("not an Int") };
        v
    }
    pub fn maybe(&mut self) -> Option<i64> {
        let Value::Maybe(v) = self.next() else { unreachable!("not a Maybe") };
        v
    }
    pub fn flag(&mut self) -> bool {
        let Value::Flag(v) = self.next() else { unreachable!("not a Flag") };
        v
    }
    pub fn name(&mut self) -> String {
        let Value::Name(v) = self.next() else { unreachable!("not a Name") };
        v
    }
    pub fn groups(&mut self) -> Vec<Vec<String>> {
        let Value::Groups(v) = self.next() else { unreachable!("not Groups") };
        v
    }
}

/// One fault kind: its data (`params`) and the code that is its own.
pub trait Kind: Sync {
    /// `kind` in the JSON.
    fn id(&self) -> &'static str;
    /// What it is called in a sentence or on a button ("clock jump").
    fn noun(&self) -> &'static str;
    /// Its fields after `kind`, in the format's order (`at_ms` first).
    fn params(&self) -> &'static [Param];
    /// `f`'s values, one per param (`f` is of this kind).
    fn values(&self, f: &FaultSpec) -> Vec<Value>;
    /// The fault with these values, one per param.
    fn make(&self, v: Take) -> FaultSpec;
    /// The fault in a few words, for lists and the not-applicable notes of Compare.
    fn words(&self, f: &FaultSpec) -> String;
    /// The fault as the world applies it; `id` maps a (validated) node name to its id.
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault;
    /// The editor's name for it.
    fn label(&self, _f: &FaultSpec) -> &'static str;
    /// A rule beyond `param`'s own bounds, checked right after it: the message if broken.
    fn rule(&self, _param: &str, _f: &FaultSpec) -> Option<&'static str> {
        None
    }
    /// A new fault of this kind for the editor's "add" buttons, with values that do something
    /// visible in `s`; None for kinds the form leaves to the JSON.
    fn example(&self, _s: &Scenario, _at_ms: i64) -> Option<FaultSpec> {
        None
    }
    /// The fault a user puts at `spot` by pointing there (the diagram's fault menu), with
    /// values that tell this kind's story in that run; None where it does not apply to the node.
    fn here(&self, spot: &Spot) -> Option<FaultSpec>;
}

/// `ms` rounded up to whole tenths of a second (at least one): numbers a menu can say.
fn tenths_up(ms: i64) -> i64 {
    ((ms.max(1) + 99) / 100) * 100
}

/// Where a user pointed on the diagram: a node, a moment, and what the run there shows.
pub struct Spot<'a> {
    pub scenario: &'a Scenario,
    pub node: String,
    pub role: Role,
    pub at_ms: i64,
    /// The lease or session lifetime the service grants in this run (the verdict's
    /// `granted_ttl_ms`, else the TTL asked for).
    pub lease_ms: i64,
    /// The node `node` sends to next after `at_ms`, and when (its next message); where it
    /// sends nothing more, its usual peer and `at_ms`.
    pub next_send: (String, i64),
}

impl Spot<'_> {
    /// Long enough to outlive the lease from any moment: half a lease more, in whole tenths of
    /// a second (the classic failure: a holder stops for longer than its lease).
    pub fn past_lease_ms(&self) -> i64 {
        tenths_up(self.lease_ms * 3 / 2)
    }
    /// Whether the node keeps a clock that matters to a lock (clients and lock servers).
    fn has_clock(&self) -> bool {
        self.role != Role::Storage
    }
}

/// A fault kind: a handle on its `Kind` impl, compared by id.
#[derive(Clone, Copy)]
pub struct FaultKind(&'static dyn Kind);

impl FaultKind {
    /// Every kind, in the order the format lists them.
    pub const ALL: [FaultKind; 7] = [
        FaultKind(&Pause),
        FaultKind(&ClockJump),
        FaultKind(&ClockDrift),
        FaultKind(&Crash),
        FaultKind(&Partition),
        FaultKind(&Delay),
        FaultKind(&Drop),
    ];

    /// The kind `kind` names in the JSON (`"clock_jump"`).
    pub fn by_id(id: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The param called `name`, with its position.
    pub fn param(self, name: &str) -> Option<(usize, &'static Param)> {
        self.params().iter().enumerate().find(|(_, p)| p.name == name)
    }
}

impl std::ops::Deref for FaultKind {
    type Target = dyn Kind;
    fn deref(&self) -> &(dyn Kind + 'static) {
        self.0
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

impl FaultSpec {
    /// Its kind.
    pub fn kind(&self) -> FaultKind {
        FaultKind(match self {
            FaultSpec::Pause { .. } => &Pause,
            FaultSpec::ClockJump { .. } => &ClockJump,
            FaultSpec::ClockDrift { .. } => &ClockDrift,
            FaultSpec::Crash { .. } => &Crash,
            FaultSpec::Partition { .. } => &Partition,
            FaultSpec::Delay { .. } => &Delay,
            FaultSpec::Drop { .. } => &Drop,
        })
    }

    /// When the fault strikes, in true ms.
    pub fn at_ms(&self) -> i64 {
        match get(self, AT.name) {
            Some(Value::Int(t)) => t,
            _ => unreachable!("every kind has at_ms"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The kinds.

struct Pause;

impl Kind for Pause {
    fn id(&self) -> &'static str {
        "pause"
    }
    fn noun(&self) -> &'static str {
        "pause"
    }
    fn params(&self) -> &'static [Param] {
        const P: [Param; 3] = [AT, NODE, ms("duration_ms", Need::Required, 1, (1, 20_000), Some("for"))];
        &P
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::Pause { at_ms, node, duration_ms } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(node.clone()), Value::Int(*duration_ms)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::Pause { at_ms: v.int(), node: v.name(), duration_ms: v.int() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::Pause { at_ms, node, duration_ms } = f else { unreachable!() };
        format!("pause {node} for {} at {}", seconds(*duration_ms), seconds(*at_ms))
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::Pause { node, duration_ms, .. } = f else { unreachable!() };
        Fault::Pause { node: id(node), duration_ms: *duration_ms }
    }
    /// From the moment pointed at (or the end of a pause already there), past the lease, and
    /// never into the node's next pause.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        let pauses = || {
            spot.scenario.faults.iter().filter_map(|f| match f {
                FaultSpec::Pause { at_ms, node, duration_ms } if *node == spot.node => Some((*at_ms, at_ms + duration_ms)),
                _ => None,
            })
        };
        let start = pauses().filter(|&(from, to)| from <= spot.at_ms && spot.at_ms < to).map(|(_, to)| to).max().unwrap_or(spot.at_ms);
        let room = pauses().filter(|&(from, _)| from > start).map(|(from, _)| from - start).min().unwrap_or(i64::MAX);
        let duration_ms = spot.past_lease_ms().min(room);
        (start < spot.scenario.duration_ms && duration_ms >= 1).then(|| FaultSpec::Pause {
            at_ms: start,
            node: spot.node.clone(),
            duration_ms,
        })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Pause"
    }
    /// Longer than the TTL, on the first client: the pause that bites.
    fn example(&self, s: &Scenario, at_ms: i64) -> Option<FaultSpec> {
        Some(FaultSpec::Pause { at_ms, node: first_client(s), duration_ms: s.lock.ttl_ms + 5000 })
    }
}

struct ClockJump;

impl Kind for ClockJump {
    fn id(&self) -> &'static str {
        "clock_jump"
    }
    fn noun(&self) -> &'static str {
        "clock jump"
    }
    fn params(&self) -> &'static [Param] {
        const BY: Number = Number {
            need: Need::Required,
            lo: -MAX_CLOCK_JUMP_MS,
            hi: MAX_CLOCK_JUMP_MS,
            unit: "ms",
            draw: (-20_000, 20_000),
            toward: Toward::Zero,
        };
        &[AT, NODE, Param { name: "by_ms", ty: Ty::Number(BY), form: Some("by") }]
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::ClockJump { at_ms, node, by_ms } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(node.clone()), Value::Int(*by_ms)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::ClockJump { at_ms: v.int(), node: v.name(), by_ms: v.int() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::ClockJump { at_ms, node, by_ms } = f else { unreachable!() };
        format!("clock jump {node} by {}{} at {}", if *by_ms >= 0 { "+" } else { "" }, seconds(*by_ms), seconds(*at_ms))
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::ClockJump { node, by_ms, .. } = f else { unreachable!() };
        Fault::ClockJump { node: id(node), by_ms: *by_ms }
    }
    /// Forward by one lease: a lease timed on this clock ends early.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        spot.has_clock().then(|| FaultSpec::ClockJump { at_ms: spot.at_ms, node: spot.node.clone(), by_ms: spot.lease_ms })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Clock jump"
    }
    /// A TTL forward on the first lock-service node: its key or row expires at once.
    fn example(&self, s: &Scenario, at_ms: i64) -> Option<FaultSpec> {
        Some(FaultSpec::ClockJump { at_ms, node: first_server(s), by_ms: s.lock.ttl_ms })
    }
}

struct ClockDrift;

impl Kind for ClockDrift {
    fn id(&self) -> &'static str {
        "clock_drift"
    }
    fn noun(&self) -> &'static str {
        "clock drift"
    }
    fn params(&self) -> &'static [Param] {
        const PPM: Number = Number {
            need: Need::Required,
            lo: -MAX_DRIFT_PPM,
            hi: MAX_DRIFT_PPM,
            unit: "ppm",
            draw: (-200_000, 200_000),
            toward: Toward::Zero,
        };
        &[AT, NODE, Param { name: "ppm", ty: Ty::Number(PPM), form: Some("by") }]
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::ClockDrift { at_ms, node, ppm } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(node.clone()), Value::Int(*ppm)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::ClockDrift { at_ms: v.int(), node: v.name(), ppm: v.int() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::ClockDrift { at_ms, node, ppm } = f else { unreachable!() };
        format!("clock drift {node} {ppm:+} ppm at {}", seconds(*at_ms))
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::ClockDrift { node, ppm, .. } = f else { unreachable!() };
        Fault::ClockDrift { node: id(node), ppm: *ppm }
    }
    /// A clock 20% fast from here on: leases timed on it end a fifth early.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        spot.has_clock().then(|| FaultSpec::ClockDrift { at_ms: spot.at_ms, node: spot.node.clone(), ppm: 200_000 })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Clock drift"
    }
}

struct Crash;

impl Kind for Crash {
    fn id(&self) -> &'static str {
        "crash"
    }
    fn noun(&self) -> &'static str {
        "crash"
    }
    fn params(&self) -> &'static [Param] {
        const RESTART: Param = ms("restart_after_ms", Need::Optional { absent: "stays down" }, 1, (1, 10_000), Some("restarts after"));
        const P: [Param; 4] = [AT, NODE, RESTART, Param { name: "machine", ty: Ty::Flag, form: None }];
        &P
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::Crash { at_ms, node, restart_after_ms, machine } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(node.clone()), Value::Maybe(*restart_after_ms), Value::Flag(*machine)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::Crash { at_ms: v.int(), node: v.name(), restart_after_ms: v.maybe(), machine: v.flag() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::Crash { at_ms, node, restart_after_ms, machine } = f else { unreachable!() };
        let what = if *machine { "machine crash" } else { "crash" };
        match restart_after_ms {
            Some(r) => format!("{what} {node} at {}, restart after {}", seconds(*at_ms), seconds(*r)),
            None => format!("{what} {node} at {}", seconds(*at_ms)),
        }
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::Crash { node, restart_after_ms, machine, .. } = f else { unreachable!() };
        Fault::Crash { node: id(node), machine: *machine, restart_after_ms: *restart_after_ms }
    }
    /// Back after half a lease, as a new process (what it held stays until it expires).
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        let restart = tenths_up(spot.lease_ms / 2);
        (spot.role != Role::Storage).then(|| FaultSpec::Crash {
            at_ms: spot.at_ms,
            node: spot.node.clone(),
            restart_after_ms: Some(restart),
            machine: false,
        })
    }
    fn label(&self, f: &FaultSpec) -> &'static str {
        match f {
            FaultSpec::Crash { machine: true, .. } => "Machine crash",
            _ => "Crash",
        }
    }
    fn rule(&self, param: &str, f: &FaultSpec) -> Option<&'static str> {
        let crashes_storage = matches!(f, FaultSpec::Crash { node, .. } if node == "storage");
        (param == NODE.name && crashes_storage)
            .then_some("storage is durable and does not crash in this model; crash a client or a lock-service node")
    }
    /// The first lock-service node, back after 5 s.
    fn example(&self, s: &Scenario, at_ms: i64) -> Option<FaultSpec> {
        Some(FaultSpec::Crash { at_ms, node: first_server(s), restart_after_ms: Some(5000), machine: false })
    }
}

struct Partition;

impl Kind for Partition {
    fn id(&self) -> &'static str {
        "partition"
    }
    fn noun(&self) -> &'static str {
        "partition"
    }
    fn params(&self) -> &'static [Param] {
        const FOR: Param = ms("duration_ms", Need::Optional { absent: "to the end" }, 1, (1, 10_000), Some("for"));
        const P: [Param; 3] = [AT, Param { name: "groups", ty: Ty::Groups, form: None }, FOR];
        &P
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::Partition { at_ms, groups, duration_ms } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Groups(groups.clone()), Value::Maybe(*duration_ms)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::Partition { at_ms: v.int(), groups: v.groups(), duration_ms: v.maybe() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::Partition { at_ms, groups, duration_ms } = f else { unreachable!() };
        let groups: Vec<String> = groups.iter().map(|g| format!("{{{}}}", g.join(", "))).collect();
        let until = duration_ms.map(|d| format!(" for {}", seconds(d))).unwrap_or_default();
        format!("partition {} at {}{until}", groups.join(" | "), seconds(*at_ms))
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::Partition { groups, duration_ms, .. } = f else { unreachable!() };
        Fault::Partition { groups: groups.iter().map(|g| g.iter().map(|n| id(n)).collect()).collect(), duration_ms: *duration_ms }
    }
    /// The node cut off from every other, past the lease.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        Some(FaultSpec::Partition { at_ms: spot.at_ms, groups: vec![vec![spot.node.clone()]], duration_ms: Some(spot.past_lease_ms()) })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Partition"
    }
    /// The first client cut off from everyone for 5 s.
    fn example(&self, s: &Scenario, at_ms: i64) -> Option<FaultSpec> {
        Some(FaultSpec::Partition { at_ms, groups: vec![vec![first_client(s)]], duration_ms: Some(5000) })
    }
}

/// `from` and `to` must differ (checked on `to`).
fn same_link_end(param: &str, from: &str, to: &str) -> Option<&'static str> {
    (param == TO.name && from == to).then_some("from and to are the same node")
}

struct Delay;

impl Kind for Delay {
    fn id(&self) -> &'static str {
        "delay"
    }
    fn noun(&self) -> &'static str {
        "delay"
    }
    fn params(&self) -> &'static [Param] {
        const P: [Param; 5] = [
            AT,
            FROM,
            TO,
            ms("by_ms", Need::Required, 0, (0, 5_000), Some("delayed by")),
            ms("duration_ms", Need::Default(super::format::one_ms()), 1, (1, 10_000), None),
        ];
        &P
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::Delay { at_ms, from, to, by_ms, duration_ms } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(from.clone()), Value::Name(to.clone()), Value::Int(*by_ms), Value::Int(*duration_ms)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::Delay { at_ms: v.int(), from: v.name(), to: v.name(), by_ms: v.int(), duration_ms: v.int() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::Delay { at_ms, from, to, by_ms, .. } = f else { unreachable!() };
        format!("delay {from} → {to} by {} at {}", seconds(*by_ms), seconds(*at_ms))
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::Delay { from, to, by_ms, duration_ms, .. } = f else { unreachable!() };
        Fault::Delay { from: id(from), to: id(to), by_ms: *by_ms, duration_ms: *duration_ms }
    }
    /// Its next message held back past the lease: it arrives after the lease it was sent under.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        let (to, next_ms) = &spot.next_send;
        Some(FaultSpec::Delay {
            at_ms: spot.at_ms,
            from: spot.node.clone(),
            to: to.clone(),
            by_ms: spot.past_lease_ms(),
            duration_ms: next_ms - spot.at_ms + 1,
        })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Delay"
    }
    fn rule(&self, param: &str, f: &FaultSpec) -> Option<&'static str> {
        let FaultSpec::Delay { from, to, .. } = f else { unreachable!() };
        same_link_end(param, from, to)
    }
}

struct Drop;

impl Kind for Drop {
    fn id(&self) -> &'static str {
        "drop"
    }
    fn noun(&self) -> &'static str {
        "drop"
    }
    fn params(&self) -> &'static [Param] {
        const P: [Param; 4] = [AT, FROM, TO, ms("duration_ms", Need::Optional { absent: "to the end" }, 1, (1, 10_000), Some("for"))];
        &P
    }
    fn values(&self, f: &FaultSpec) -> Vec<Value> {
        let FaultSpec::Drop { at_ms, from, to, duration_ms } = f else { unreachable!() };
        vec![Value::Int(*at_ms), Value::Name(from.clone()), Value::Name(to.clone()), Value::Maybe(*duration_ms)]
    }
    fn make(&self, mut v: Take) -> FaultSpec {
        FaultSpec::Drop { at_ms: v.int(), from: v.name(), to: v.name(), duration_ms: v.maybe() }
    }
    fn words(&self, f: &FaultSpec) -> String {
        let FaultSpec::Drop { at_ms, from, to, duration_ms } = f else { unreachable!() };
        let at = seconds(*at_ms);
        match duration_ms {
            None => format!("drop {from} → {to} from {at}"),
            Some(d) => format!("drop {from} → {to} from {at} for {}", seconds(*d)),
        }
    }
    fn build(&self, f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
        let FaultSpec::Drop { from, to, duration_ms, .. } = f else { unreachable!() };
        Fault::Drop { from: id(from), to: id(to), duration_ms: *duration_ms }
    }
    /// Its messages to its next peer lost for longer than the lease.
    fn here(&self, spot: &Spot) -> Option<FaultSpec> {
        let (to, _) = &spot.next_send;
        Some(FaultSpec::Drop { at_ms: spot.at_ms, from: spot.node.clone(), to: to.clone(), duration_ms: Some(spot.past_lease_ms()) })
    }
    fn label(&self, _: &FaultSpec) -> &'static str {
        "Drop"
    }
    fn rule(&self, param: &str, f: &FaultSpec) -> Option<&'static str> {
        let FaultSpec::Drop { from, to, .. } = f else { unreachable!() };
        same_link_end(param, from, to)
    }
}

fn first_client(s: &Scenario) -> String {
    s.clients.first().map_or_else(|| "A".to_string(), |c| c.name.clone())
}

fn first_server(s: &Scenario) -> String {
    validate::service_names(s).into_iter().next().unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Everything below works on any kind through its params.

/// The value of `f`'s field `name`, if its kind has one.
pub fn get(f: &FaultSpec, name: &str) -> Option<Value> {
    let kind = f.kind();
    let (i, _) = kind.param(name)?;
    kind.values(f).into_iter().nth(i)
}

/// `f` with its field `name` set to `value` (which must be of the field's type); false, and `f`
/// unchanged, if its kind has no such field.
pub fn set(f: &mut FaultSpec, name: &str, value: Value) -> bool {
    let kind = f.kind();
    let Some((i, _)) = kind.param(name) else { return false };
    let mut values = kind.values(f);
    values[i] = value;
    *f = kind.make(Take::new(values));
    true
}

/// Reads one entry of `faults[]` at `path`.
pub(super) fn read(v: &Json, path: &str) -> Read<FaultSpec> {
    // `kind` picks the fields that are allowed, so it is read first.
    let Json::Object(map) = v else { return read::invalid(path, v, "an object") };
    let Some(kind) = map.get("kind") else { return read::err(path, "missing field `kind`".into()) };
    let table: Vec<(&str, FaultKind)> = FaultKind::ALL.iter().map(|k| (k.id(), *k)).collect();
    let kind = read::choice(kind, &read::join(path, "kind"), &table)?;
    let known: Vec<&str> = std::iter::once("kind").chain(kind.params().iter().map(|p| p.name)).collect();
    let o = Object::new(v, path, &known)?;
    let values = kind.params().iter().map(|p| read_field(&o, p)).collect::<Read<Vec<Value>>>()?;
    Ok(kind.make(Take::new(values)))
}

fn read_field(o: &Object, p: &Param) -> Read<Value> {
    match p.ty {
        Ty::At | Ty::Number(Number { need: Need::Required, .. }) => o.req(p.name, read::int).map(Value::Int),
        Ty::Number(Number { need: Need::Default(d), .. }) => o.or(p.name, d, read::int).map(Value::Int),
        Ty::Number(Number { need: Need::Optional { .. }, .. }) => o.opt(p.name, read::int).map(Value::Maybe),
        Ty::Node => o.req(p.name, read::string).map(Value::Name),
        Ty::Groups => o.req(p.name, |v, p| read::list(v, p, |v, p| read::list(v, p, read::string))).map(Value::Groups),
        Ty::Flag => o.or(p.name, false, read::boolean).map(Value::Flag),
    }
}

fn error(path: String, message: impl Into<String>) -> ScenarioError {
    ScenarioError { path, message: message.into() }
}

/// Validates `faults[index]` of `s`, whose nodes are `names`. Paths and messages are written
/// only for an error: the explorer validates every fault it draws.
pub(super) fn validate(f: &FaultSpec, index: usize, s: &Scenario, names: &[String]) -> Result<(), ScenarioError> {
    let kind = f.kind();
    let path = |field: &str| format!("faults[{index}].{field}");
    let node = |name: &str, path: &dyn Fn() -> String| {
        if names.iter().any(|n| n == name) {
            Ok(())
        } else {
            Err(validate::unknown_node(s, path(), name))
        }
    };
    for (p, v) in kind.params().iter().zip(kind.values(f)) {
        let within = |x: i64, lo: i64, hi: i64, unit: &str| {
            if (lo..=hi).contains(&x) {
                Ok(())
            } else {
                validate::range(&path(p.name), x, lo, hi, &format!(" {unit}"))
            }
        };
        match (p.ty, v) {
            (Ty::At, Value::Int(t)) => within(t, 0, s.duration_ms, "ms")?,
            (Ty::Number(n), Value::Int(x) | Value::Maybe(Some(x))) => within(x, n.lo, n.hi, n.unit)?,
            (Ty::Node, Value::Name(name)) => node(&name, &|| path(p.name))?,
            (Ty::Groups, Value::Groups(groups)) => {
                if groups.is_empty() {
                    return Err(error(path(p.name), "needs at least one group of node names"));
                }
                let group = |g: usize| format!("{}[{g}]", path(p.name));
                let mut seen: Vec<&str> = Vec::new();
                for (g, members) in groups.iter().enumerate() {
                    if members.is_empty() {
                        return Err(error(group(g), "an empty group"));
                    }
                    for (m, name) in members.iter().enumerate() {
                        let at = || format!("{}[{m}]", group(g));
                        node(name, &at)?;
                        if seen.contains(&name.as_str()) {
                            return Err(error(at(), format!("\"{name}\" is in more than one group (groups must be disjoint)")));
                        }
                        seen.push(name);
                    }
                }
            }
            _ => {}
        }
        if let Some(message) = kind.rule(p.name, f) {
            return Err(error(path(p.name), message));
        }
    }
    Ok(())
}

/// The fault as the world applies it (`f` validated; `id` maps its node names to ids).
pub fn build(f: &FaultSpec, id: &dyn Fn(&str) -> NodeId) -> Fault {
    f.kind().build(f, id)
}

/// A fault in a few words: "clock jump redis-3 by +10 s at 1.5 s".
pub fn words(f: &FaultSpec) -> String {
    f.kind().words(f)
}

/// Every node name a fault mentions, in field order (what must exist for Compare to carry it
/// over to another approach).
pub fn nodes(f: &FaultSpec) -> Vec<String> {
    let kind = f.kind();
    kind.values(f)
        .into_iter()
        .flat_map(|v| match v {
            Value::Name(n) => vec![n],
            Value::Groups(g) => g.into_iter().flatten().collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The editor's row for a fault: the one amount with its label (`Param::form`).
pub fn amount(kind: FaultKind) -> Option<(usize, &'static Param, Number)> {
    kind.params().iter().enumerate().find_map(|(i, p)| match (p.form, p.ty) {
        (Some(_), Ty::Number(n)) => Some((i, p, n)),
        _ => None,
    })
}

// ---------------------------------------------------------------------------------------------
// The explorer's side: drawing a fault at random, and the numbers a shrinker may move.

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
        let values = kind.params().iter().map(|p| draw_value(kind, p, rng, space, s.duration_ms)).collect();
        let f = kind.make(Take::new(values));
        validate(&f, 0, s, names).is_ok().then_some(f)
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
        set(&mut f, self.name, value);
        f
    }
}

/// What the shrinker may move in `f` (in a run of `duration_ms`), in field order: the start
/// toward the end of the run (the latest start that still fails), every number toward its
/// mildest value, every flag toward no.
pub fn knobs(f: &FaultSpec, duration_ms: i64) -> Vec<Knob> {
    let kind = f.kind();
    let at = f.at_ms();
    let knob = |name, now, absent, toward, holds| Knob { name, now, absent, toward, holds };
    let mut out = Vec::new();
    for (p, v) in kind.params().iter().zip(kind.values(f)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{catalog, parse};

    fn every_kind_once() -> Vec<FaultSpec> {
        let s = catalog::get("happy-path-redis").unwrap();
        let mut out: Vec<FaultSpec> = FaultKind::ALL.iter().filter_map(|k| k.example(&s, 700)).collect();
        out.push(FaultSpec::ClockDrift { at_ms: 1, node: "B".into(), ppm: -300 });
        out.push(FaultSpec::Crash { at_ms: 9, node: "A".into(), restart_after_ms: None, machine: true });
        out.push(FaultSpec::Delay { at_ms: 2, from: "A".into(), to: "redis".into(), by_ms: 30, duration_ms: 400 });
        out.push(FaultSpec::Drop { at_ms: 3, from: "redis".into(), to: "B".into(), duration_ms: None });
        out.push(FaultSpec::Drop { at_ms: 4, from: "redis".into(), to: "A".into(), duration_ms: Some(6) });
        out
    }

    #[test]
    fn values_and_make_follow_the_params_of_every_kind() {
        let faults = every_kind_once();
        for k in FaultKind::ALL {
            assert!(faults.iter().any(|f| f.kind() == k), "no example of {}", k.id());
            assert_eq!(k.params()[0], AT, "{}: at_ms comes first", k.id());
        }
        for f in faults {
            let k = f.kind();
            let values = k.values(&f);
            assert_eq!(values.len(), k.params().len(), "{f:?}");
            assert_eq!(k.make(Take::new(values)), f);
            // What serde writes under each param's name is what `values` says it holds.
            let json = serde_json::to_value(&f).unwrap();
            assert_eq!(json["kind"], k.id());
            for (p, v) in k.params().iter().zip(k.values(&f)) {
                let written = &json[p.name];
                let expected = match v {
                    Value::Int(x) | Value::Maybe(Some(x)) => serde_json::json!(x),
                    Value::Maybe(None) => Json::Null,
                    Value::Flag(b) => serde_json::json!(b),
                    Value::Name(n) => serde_json::json!(n),
                    Value::Groups(g) => serde_json::json!(g),
                };
                assert_eq!(written, &expected, "{}.{}", k.id(), p.name);
            }
        }
    }

    #[test]
    fn the_words_of_each_kind() {
        let words: Vec<String> = every_kind_once().iter().map(words).collect();
        assert_eq!(
            words,
            [
                "pause A for 15 s at 700 ms",
                "clock jump redis by +10 s at 700 ms",
                "crash redis at 700 ms, restart after 5 s",
                "partition {A} at 700 ms for 5 s",
                "clock drift B -300 ppm at 1 ms",
                "machine crash A at 9 ms",
                "delay A → redis by 30 ms at 2 ms",
                "drop redis → B from 3 ms",
                "drop redis → A from 4 ms for 6 ms",
            ]
        );
        let back = FaultSpec::ClockJump { at_ms: 1500, node: "redis-3".into(), by_ms: -10_000 };
        assert_eq!(super::words(&back), "clock jump redis-3 by -10 s at 1.5 s");
    }

    #[test]
    fn get_and_set_by_field_name() {
        let mut f = FaultSpec::Crash { at_ms: 9, node: "A".into(), restart_after_ms: None, machine: true };
        assert_eq!(get(&f, "machine"), Some(Value::Flag(true)));
        assert!(set(&mut f, "restart_after_ms", Value::Maybe(Some(40))));
        assert!(!set(&mut f, "groups", Value::Groups(Vec::new())));
        assert_eq!(f, FaultSpec::Crash { at_ms: 9, node: "A".into(), restart_after_ms: Some(40), machine: true });
        assert_eq!(f.at_ms(), 9);
        let p = FaultSpec::Partition { at_ms: 1, groups: vec![vec!["A".into(), "redis".into()], vec!["B".into()]], duration_ms: None };
        assert_eq!(nodes(&p), ["A", "redis", "B"]);
    }

    #[test]
    fn drawn_faults_are_valid_and_depend_only_on_the_stream() {
        let s = catalog::get("happy-path-redlock").unwrap();
        let names = validate::node_names(&s);
        let space = Space { nodes: &names, window_ms: (0, s.duration_ms), ranges: &[] };
        for k in FaultKind::ALL {
            let mut seen = Vec::new();
            for i in 0..200 {
                let f = draw(k, &mut Stream::new(7, i), &space, &s, &names).expect("a redlock scenario has room for every kind");
                assert_eq!(draw(k, &mut Stream::new(7, i), &space, &s, &names).as_ref(), Some(&f));
                assert_eq!(f.kind(), k);
                let mut with = s.clone();
                with.faults = vec![f.clone()];
                parse(&serde_json::to_string(&with).unwrap()).unwrap_or_else(|e| panic!("{f:?}: {e}"));
                seen.push(f);
            }
            seen.dedup();
            assert!(seen.len() > 150, "{}: only {} distinct draws", k.id(), seen.len());
        }
        // A range from the mix replaces the default one.
        let ranges = [(FaultKind::by_id("pause").unwrap(), "duration_ms", 4000, 4000)];
        let space = Space { nodes: &names[..1], window_ms: (100, 200), ranges: &ranges };
        let f = draw(FaultKind::by_id("pause").unwrap(), &mut Stream::new(1, 1), &space, &s, &names).unwrap();
        assert!(matches!(f, FaultSpec::Pause { at_ms: 100..=200, duration_ms: 4000, ref node } if node == "A"), "{f:?}");
    }

    #[test]
    fn knobs_move_toward_the_mildest_fault() {
        let f = FaultSpec::Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: None, machine: true };
        let knobs = knobs(&f, 20_000);
        let summary: Vec<_> = knobs.iter().map(|k| (k.name, k.now, k.absent, k.toward)).collect();
        assert_eq!(summary, [("at_ms", 1000, false, 20_000), ("restart_after_ms", 19_000, true, 1), ("machine", 1, false, 0)]);
        assert_eq!(
            knobs[1].at(&f, 300),
            FaultSpec::Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: Some(300), machine: true }
        );
        assert_eq!(knobs[2].at(&f, 0), FaultSpec::Crash { at_ms: 1000, node: "redis".into(), restart_after_ms: None, machine: false });
        let jump = FaultSpec::ClockJump { at_ms: 20_000, node: "redis".into(), by_ms: -5000 };
        let k = super::knobs(&jump, 20_000);
        assert_eq!(k.iter().map(|k| (k.name, k.toward)).collect::<Vec<_>>(), [("by_ms", 0)], "at_ms is already the latest");
    }
}
