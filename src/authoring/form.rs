//! The editor's form as a mapping onto the scenario's JSON. Every form input is a `Field`; it
//! names the same path the validator names (`lock.ttl_ms`, `faults[0].node`), so an error can
//! be pinned to its input. An `Edit` reads the draft, changes one thing and writes the draft
//! back: the JSON is the source of truth and the form never holds a copy of its own.

use crate::protocols::spec::Setting;
use crate::scenario::fault::{self, Need, Value};
use crate::scenario::limits::{MAX_CLIENTS, MAX_FAULTS};
use crate::scenario::validate::{self, ScenarioError};
use crate::scenario::{Approach, ClientSpec, FaultKind, FaultSpec, Scenario};

/// One input of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Title,
    Approach,
    Seed,
    DurationMs,
    TtlMs,
    Fencing,
    SafeUnlock,
    /// The approach's own `lock` setting at this index of its `settings` (k8s-lease's
    /// RenewDeadline); empty means its default.
    Setting(usize),
    ClientName(usize),
    ClientStartMs(usize),
    FaultAtMs(usize),
    FaultNode(usize),
    /// The one number that says how much (a pause's length, a jump's size, a restart delay…).
    FaultAmount(usize),
    /// A partition's groups, written `A, redis | B`.
    FaultGroups(usize),
}

/// A fault kind the form can add (those with a `Kind::EXAMPLE_ON`); the others are written in the
/// JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewFault(pub FaultKind);

impl NewFault {
    /// The kinds the form offers for `s`, in the format's order.
    pub fn offered(s: &Scenario) -> impl Iterator<Item = NewFault> + '_ {
        FaultKind::ALL.into_iter().filter(|k| k.example(s, 0).is_some()).map(NewFault)
    }

    pub fn label(self) -> &'static str {
        self.0.noun()
    }
}

/// A change the form makes to the draft.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// An input's new text (checkboxes send "true"/"false", the approach its id).
    Set(Field, String),
    AddClient,
    RemoveClient(usize),
    /// A fault of this kind at this time (the cursor's, where the run on screen is this draft).
    AddFault(NewFault, i64),
    RemoveFault(usize),
}

fn error(path: String, message: impl Into<String>) -> ScenarioError {
    ScenarioError { path, message: message.into() }
}

/// The draft as the form shows it: JSON in the scenario's shape, values not yet validated, so an
/// out-of-range TTL still shows (and can be fixed) in the form.
pub fn read(text: &str) -> Result<Scenario, ScenarioError> {
    validate::read(text)
}

/// The draft text the form writes: the scenario in the same layout as "start from the scenario
/// on screen".
pub fn write(s: &Scenario) -> String {
    serde_json::to_string_pretty(s).unwrap_or_default()
}

/// Applies a form edit to the draft text. An input that is not a value of its field (`12a` for a
/// time) is refused with the field's path, and the draft keeps its last good value.
pub fn apply(text: &str, edit: &Edit) -> Result<String, ScenarioError> {
    let mut s = read(text)?;
    match edit {
        Edit::Set(field, input) => field.set(&mut s, input)?,
        Edit::AddClient => add_client(&mut s),
        Edit::RemoveClient(i) if *i < s.clients.len() => drop(s.clients.remove(*i)),
        Edit::AddFault(NewFault(kind), at_ms) if s.faults.len() < MAX_FAULTS => {
            // A newcomer strikes at the given time, inside the run, as pointing there would.
            if let Some(f) = kind.example(&s, (*at_ms).clamp(0, s.duration_ms.max(0))) {
                s.faults.push(f)
            }
        }
        Edit::RemoveFault(i) if *i < s.faults.len() => drop(s.faults.remove(*i)),
        Edit::RemoveClient(_) | Edit::AddFault(..) | Edit::RemoveFault(_) => {}
    }
    Ok(write(&s))
}

fn whole(path: String, input: &str) -> Result<i64, ScenarioError> {
    input.trim().parse().map_err(|_| error(path, format!("\"{input}\" is not a whole number")))
}

/// An optional amount: an empty input removes it (a crash that stays down, a partition to the end).
fn optional(path: String, input: &str) -> Result<Option<i64>, ScenarioError> {
    if input.trim().is_empty() {
        Ok(None)
    } else {
        whole(path, input).map(Some)
    }
}

impl Field {
    /// The field's path in the scenario, as validation errors name it.
    pub fn path(self, s: &Scenario) -> String {
        match self {
            Field::Title => "title".into(),
            Field::Approach => "approach".into(),
            Field::Seed => "seed".into(),
            Field::DurationMs => "duration_ms".into(),
            Field::TtlMs => "lock.ttl_ms".into(),
            Field::Fencing => "storage.fencing".into(),
            Field::SafeUnlock => "lock.safe_unlock".into(),
            Field::Setting(i) => format!("lock.{}", setting(s, i).map_or("", |x| x.name())),
            Field::ClientName(i) => format!("clients[{i}].name"),
            Field::ClientStartMs(i) => format!("clients[{i}].acquire_at_ms"),
            Field::FaultAtMs(i) => format!("faults[{i}].at_ms"),
            Field::FaultNode(i) => format!("faults[{i}].node"),
            Field::FaultGroups(i) => format!("faults[{i}].groups"),
            Field::FaultAmount(i) => format!("faults[{i}].{}", s.faults.get(i).map_or("duration_ms", |f| amount(f).name)),
        }
    }

    /// Whether an error at `error_path` is about this field (`faults[0].groups[1][0]` is about
    /// the groups input).
    pub fn is_at(self, s: &Scenario, error_path: &str) -> bool {
        let mine = self.path(s);
        error_path.strip_prefix(mine.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
    }

    /// The input's text for this field of `s`.
    pub fn value(self, s: &Scenario) -> String {
        let fault = |i: usize| s.faults.get(i);
        match self {
            Field::Title => s.title.clone(),
            Field::Approach => s.approach.id().into(),
            Field::Seed => s.seed.to_string(),
            Field::DurationMs => s.duration_ms.to_string(),
            Field::TtlMs => s.lock.ttl_ms.to_string(),
            Field::Fencing => s.storage.fencing.to_string(),
            Field::SafeUnlock => s.lock.safe_unlock.to_string(),
            Field::Setting(i) => setting(s, i).and_then(|x| s.lock.own.get(x.name()).map(|v| x.show(v))).unwrap_or_default(),
            Field::ClientName(i) => s.clients.get(i).map(|c| c.name.clone()).unwrap_or_default(),
            Field::ClientStartMs(i) => s.clients.get(i).map(|c| c.acquire_at_ms.to_string()).unwrap_or_default(),
            Field::FaultAtMs(i) => fault(i).map(|f| f.at_ms().to_string()).unwrap_or_default(),
            Field::FaultNode(i) => fault(i).and_then(node_of).unwrap_or_default(),
            Field::FaultAmount(i) => fault(i).and_then(|f| amount(f).value).map(|v| v.to_string()).unwrap_or_default(),
            Field::FaultGroups(i) => match fault(i).and_then(|f| fault::get(f, GROUPS)) {
                Some(Value::Groups(groups)) => groups.iter().map(|g| g.join(", ")).collect::<Vec<_>>().join(" | "),
                _ => String::new(),
            },
        }
    }

    /// Sets this field of `s` from an input's text.
    pub fn set(self, s: &mut Scenario, input: &str) -> Result<(), ScenarioError> {
        let path = self.path(s);
        match self {
            Field::Title => s.title = input.to_string(),
            Field::Approach => {
                s.approach = Approach::ALL
                    .into_iter()
                    .find(|a| a.id() == input)
                    .ok_or_else(|| error(path, format!("unknown approach \"{input}\"")))?
            }
            Field::Seed => {
                s.seed = input.trim().parse().map_err(|_| error(path, format!("\"{input}\" is not a whole number from 0 up")))?
            }
            Field::DurationMs => s.duration_ms = whole(path, input)?,
            Field::TtlMs => s.lock.ttl_ms = whole(path, input)?,
            Field::Fencing => s.storage.fencing = input == "true",
            Field::SafeUnlock => s.lock.safe_unlock = input == "true",
            Field::Setting(i) => {
                if let Some(x) = setting(s, i) {
                    // As the file writes it: a number, true or false, a name; empty is the default.
                    let v = if input.trim().is_empty() { None } else { Some(x.parse(input).map_err(|m| error(path, m))?) };
                    s.lock.own.set(x.name(), v);
                }
            }
            Field::ClientName(i) => {
                if let Some(c) = s.clients.get_mut(i) {
                    c.name = input.trim().to_string();
                }
            }
            Field::ClientStartMs(i) => {
                let v = whole(path, input)?;
                if let Some(c) = s.clients.get_mut(i) {
                    c.acquire_at_ms = v;
                }
            }
            Field::FaultAtMs(i) => {
                let v = whole(path, input)?;
                if let Some(f) = s.faults.get_mut(i) {
                    fault::set(f, "at_ms", Value::Int(v));
                }
            }
            Field::FaultNode(i) => {
                if let Some(f) = s.faults.get_mut(i) {
                    fault::set(f, NODE, Value::Name(input.to_string()));
                }
            }
            Field::FaultAmount(i) => {
                if let Some(f) = s.faults.get_mut(i) {
                    let a = amount(f);
                    let v = if a.when_empty.is_empty() { Value::Int(whole(path, input)?) } else { Value::Maybe(optional(path, input)?) };
                    fault::set(f, a.name, v);
                }
            }
            Field::FaultGroups(i) => {
                if let Some(f) = s.faults.get_mut(i) {
                    // Empty groups are kept, so the validator names them instead of the form
                    // silently dropping what was typed.
                    let groups =
                        input.split('|').map(|g| g.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()).collect();
                    fault::set(f, GROUPS, Value::Groups(groups));
                }
            }
        }
        Ok(())
    }
}

/// The approach's own setting at index `i` of its `settings`.
fn setting(s: &Scenario, i: usize) -> Option<&'static Setting> {
    s.approach.spec().config.settings.get(i)
}

/// How an approach setting's input reads: its label, unit and what leaving it empty means.
pub struct SettingRow {
    pub field: Field,
    /// The setting's own name for it ("RenewDeadline").
    pub label: &'static str,
    pub unit: &'static str,
    /// Shown in the empty input: the default it then takes ("10000").
    pub when_empty: String,
    /// Why the setting exists and what it does, with its source (the input's tooltip).
    pub why: &'static str,
}

/// The inputs for the approach's own settings, in its order (none for most approaches).
pub fn settings(s: &Scenario) -> Vec<SettingRow> {
    s.approach
        .spec()
        .config
        .settings
        .iter()
        .enumerate()
        .map(|(i, x)| SettingRow {
            field: Field::Setting(i),
            label: x.param().form.unwrap_or(x.name()),
            unit: x.number().unit,
            when_empty: x.show(x.default()),
            why: x.why(),
        })
        .collect()
}

/// The field of a fault row's node menu, and of its groups input.
const NODE: &str = "node";
const GROUPS: &str = "groups";

/// The node a fault is about, for kinds that name one.
pub fn node_of(f: &FaultSpec) -> Option<String> {
    match fault::get(f, NODE) {
        Some(Value::Name(n)) => Some(n),
        _ => None,
    }
}

/// Whether the fault's row has a groups input (a partition).
pub fn has_groups(f: &FaultSpec) -> bool {
    f.kind().param(GROUPS).is_some()
}

/// How a fault row reads in the form: its kind, then its one amount with a label that says what
/// the number means.
pub struct Amount {
    /// The JSON field name.
    pub name: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub value: Option<i64>,
    /// Shown in an empty optional input: what leaving it out means (empty: it cannot be left out).
    pub when_empty: &'static str,
}

/// The fault's one amount (the param its kind gives a form label).
pub fn amount(f: &FaultSpec) -> Amount {
    let Some((_, p, n)) = fault::amount(f.kind()) else {
        return Amount { name: "duration_ms", label: "", unit: "", value: None, when_empty: "" };
    };
    let value = match fault::get(f, p.name) {
        Some(Value::Int(v)) => Some(v),
        Some(Value::Maybe(v)) => v,
        _ => None,
    };
    let when_empty = match n.need {
        Need::Optional { absent } => absent,
        Need::Required | Need::Default(_) => "",
    };
    Amount { name: p.name, label: p.form.unwrap_or_default(), unit: n.unit, value, when_empty }
}

/// The fault's kind in words.
pub fn kind_label(f: &FaultSpec) -> &'static str {
    f.label()
}

/// For the kinds that name a link rather than a node: `A → redis`.
pub fn link_of(f: &FaultSpec) -> Option<String> {
    match (fault::get(f, "from"), fault::get(f, "to")) {
        (Some(Value::Name(from)), Some(Value::Name(to))) => Some(format!("{from} → {to}")),
        _ => None,
    }
}

/// The next unused one-letter client name.
fn free_name(s: &Scenario) -> String {
    ('A'..='Z').map(String::from).find(|n| s.clients.iter().all(|c| &c.name != n)).unwrap_or_else(|| "client".into())
}

fn add_client(s: &mut Scenario) {
    if s.clients.len() >= MAX_CLIENTS {
        return;
    }
    // A newcomer starts 2 s after the last one, inside the run.
    let start = s.clients.last().map_or(0, |c| c.acquire_at_ms + 2000).min(s.duration_ms.max(0));
    let name = free_name(s);
    s.clients.push(ClientSpec::new(&name, start, 1000, 1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::catalog;
    use crate::scenario::fault::Crash;

    fn new(kind: &str) -> NewFault {
        NewFault(FaultKind::by_id(kind).unwrap())
    }

    fn gc_pause() -> String {
        write(&catalog::get("redis-gc-pause").unwrap())
    }

    fn set(text: &str, field: Field, input: &str) -> Result<String, ScenarioError> {
        apply(text, &Edit::Set(field, input.into()))
    }

    #[test]
    fn each_field_edits_its_own_json_path() {
        let text = gc_pause();
        let cases = [
            (Field::Title, "Mine", "title"),
            (Field::Seed, "7", "seed"),
            (Field::DurationMs, "25000", "duration_ms"),
            (Field::TtlMs, "4000", "lock.ttl_ms"),
            (Field::Fencing, "true", "storage.fencing"),
            (Field::SafeUnlock, "false", "lock.safe_unlock"),
            (Field::ClientStartMs(1), "3000", "clients[1].acquire_at_ms"),
            (Field::FaultAtMs(0), "700", "faults[0].at_ms"),
            (Field::FaultAmount(0), "12000", "faults[0].duration_ms"),
        ];
        for (field, input, path) in cases {
            let edited = read(&set(&text, field, input).unwrap()).unwrap();
            assert_eq!(field.value(&edited), input, "{path}");
            assert_eq!(field.path(&edited), path);
        }
    }

    #[test]
    fn an_edit_keeps_every_other_field() {
        let text = gc_pause();
        let mut expected = read(&text).unwrap();
        expected.lock.ttl_ms = 4000;
        assert_eq!(read(&set(&text, Field::TtlMs, "4000").unwrap()).unwrap(), expected);
    }

    #[test]
    fn a_value_that_is_not_a_number_is_refused_with_its_path() {
        let e = set(&gc_pause(), Field::TtlMs, "10s").unwrap_err();
        assert_eq!(e.to_string(), "lock.ttl_ms: \"10s\" is not a whole number");
        let e = set(&gc_pause(), Field::Seed, "-1").unwrap_err();
        assert_eq!(e.path, "seed");
    }

    #[test]
    fn an_out_of_range_value_is_written_and_left_to_the_validator() {
        let text = set(&gc_pause(), Field::TtlMs, "0").unwrap();
        assert_eq!(read(&text).unwrap().lock.ttl_ms, 0);
        let e = crate::scenario::parse(&text).unwrap_err();
        assert!(Field::TtlMs.is_at(&read(&text).unwrap(), &e.path), "{e}");
    }

    #[test]
    fn the_approach_is_set_by_its_id() {
        let s = read(&set(&gc_pause(), Field::Approach, "etcd").unwrap()).unwrap();
        assert_eq!(s.approach, Approach::Etcd);
        assert_eq!(set(&gc_pause(), Field::Approach, "paxos").unwrap_err().path, "approach");
    }

    #[test]
    fn an_unreadable_draft_cannot_be_edited_by_the_form() {
        let e = set("{\"version\": 1, \"approach\": \"redis\", \"lock\": {\"ttl\": 5}}", Field::TtlMs, "5").unwrap_err();
        assert_eq!(e.path, "lock.ttl");
        assert!(set("not json", Field::TtlMs, "5").is_err());
    }

    #[test]
    fn clients_are_added_with_a_free_name_and_removed() {
        let text = apply(&gc_pause(), &Edit::AddClient).unwrap();
        let s = read(&text).unwrap();
        assert_eq!(s.clients.len(), 3);
        assert_eq!((s.clients[2].name.as_str(), s.clients[2].acquire_at_ms), ("C", 4000));
        crate::scenario::parse(&text).unwrap();
        let s = read(&apply(&text, &Edit::RemoveClient(0)).unwrap()).unwrap();
        assert_eq!(s.clients.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["B", "C"]);
    }

    #[test]
    fn added_faults_are_valid_and_read_back() {
        let mut text = gc_pause();
        for kind in NewFault::offered(&read(&text).unwrap()).collect::<Vec<_>>() {
            text = apply(&text, &Edit::AddFault(kind, 1000)).unwrap();
        }
        let s = crate::scenario::parse(&text).unwrap();
        let kinds: Vec<&str> = s.faults.iter().map(kind_label).collect();
        assert_eq!(kinds, ["Pause", "Pause", "Clock jump", "Crash", "Partition"]);
        assert_eq!(Field::FaultNode(3).value(&s), "redis");
        assert_eq!(Field::FaultAmount(3).path(&s), "faults[3].restart_after_ms");
        assert_eq!(Field::FaultGroups(4).value(&s), "A");
        let s = read(&apply(&text, &Edit::RemoveFault(0)).unwrap()).unwrap();
        assert_eq!(s.faults.len(), 4);
    }

    #[test]
    fn partition_groups_are_written_as_text() {
        let text = apply(&gc_pause(), &Edit::AddFault(new("partition"), 1000)).unwrap();
        let text = set(&text, Field::FaultGroups(1), " A , redis | B ").unwrap();
        let s = read(&text).unwrap();
        assert_eq!(Field::FaultGroups(1).value(&s), "A, redis | B");
        // An empty group is kept so the validator can name it.
        let text = set(&text, Field::FaultGroups(1), "A |").unwrap();
        let e = crate::scenario::parse(&text).unwrap_err();
        assert_eq!(e.path, "faults[1].groups[1]");
        assert!(Field::FaultGroups(1).is_at(&read(&text).unwrap(), &e.path));
        assert!(!Field::FaultAtMs(1).is_at(&read(&text).unwrap(), &e.path));
    }

    #[test]
    fn an_approach_setting_is_edited_by_its_param_and_validated_at_its_path() {
        let k8s = r#"{"version": 1, "approach": "k8s-lease"}"#;
        let rows = settings(&read(k8s).unwrap());
        let names: Vec<String> = rows.iter().map(|r| r.field.path(&read(k8s).unwrap())).collect();
        assert_eq!(names, ["lock.renew_deadline_ms", "lock.retry_period_ms", "lock.reads_record_duration"]);
        assert_eq!((rows[0].label, rows[0].unit, rows[0].when_empty.as_str()), ("RenewDeadline", "ms", "10000"));
        let text = set(k8s, Field::Setting(0), "20000").unwrap();
        assert_eq!(read(&text).unwrap().lock.own.get("renew_deadline_ms"), Some(20_000));
        assert_eq!(Field::Setting(0).value(&read(&text).unwrap()), "20000");
        // Validation names the same path: a RenewDeadline at or above the LeaseDuration (15 s).
        let e = validate::parse(&text).unwrap_err();
        assert!(Field::Setting(0).is_at(&read(&text).unwrap(), &e.path), "{e}");
        // Empty: back to the default, and out of the JSON.
        let text = set(&text, Field::Setting(0), "").unwrap();
        assert!(!text.contains("renew_deadline_ms"), "{text}");
        assert!(settings(&read(r#"{"version": 1, "approach": "db-lease"}"#).unwrap()).is_empty());
    }

    #[test]
    fn a_yes_or_no_setting_is_edited_as_true_or_false() {
        let redlock = r#"{"version": 1, "approach": "redlock"}"#;
        let rows = settings(&read(redlock).unwrap());
        assert_eq!((rows[0].field.path(&read(redlock).unwrap()), rows[0].when_empty.as_str()), ("lock.check_elapsed".into(), "true"));
        let text = set(redlock, Field::Setting(0), "false").unwrap();
        assert!(text.contains("\"check_elapsed\": false"), "{text}");
        assert_eq!(Field::Setting(0).value(&read(&text).unwrap()), "false");
        let e = set(redlock, Field::Setting(0), "yes").unwrap_err();
        assert_eq!(e.to_string(), "lock.check_elapsed: \"yes\" is not true or false");
    }

    #[test]
    fn an_empty_optional_amount_means_absent() {
        let text = apply(&gc_pause(), &Edit::AddFault(new("crash"), 1000)).unwrap();
        let s = read(&set(&text, Field::FaultAmount(1), "").unwrap()).unwrap();
        assert!(matches!(s.faults[1], FaultSpec::Crash(Crash { restart_after_ms: None, .. })));
        assert_eq!(amount(&s.faults[1]).when_empty, "stays down");
    }

    #[test]
    fn error_paths_match_only_their_own_field() {
        let s = read(&gc_pause()).unwrap();
        assert!(Field::ClientName(1).is_at(&s, "clients[1].name"));
        assert!(!Field::ClientName(1).is_at(&s, "clients[10].name"));
        assert!(!Field::FaultAtMs(1).is_at(&s, "faults[1].at_ms_x"));
    }
}
