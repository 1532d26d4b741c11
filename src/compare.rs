//! Side by side: the same story against another approach.
//!
//! Given a scenario and another approach, `counterpart` derives the scenario that runs the
//! same clients, storage, network, seed, duration and faults against the other lock service,
//! with its lock timing mapped by docs/SCENARIO_FORMAT.md's meaning of each field. Every place
//! where a value keeps its number but changes its meaning is written down as a note, and
//! every fault that names a node the other side does not have is listed as not applicable
//! instead of being guessed at (redis-3 is not "the same" as etcd-3). `compare` runs both and
//! says in one line how their verdicts differ.
//!
//! Plain Rust on purpose: the CLI and the browser share it, and it is tested natively.

use crate::check::{FindingKind, Verdict};
use crate::decimal::seconds;
use crate::lab::{self, Run};
use crate::protocols::spec::LeaseKind;
use crate::scenario::fault::Value;
use crate::scenario::validate::{self, ScenarioError};
use crate::scenario::{fault, Approach, FaultSpec, LockConfig, Persistence, Scenario};

/// The other side of a comparison, before it is run.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterpart {
    pub scenario: Scenario,
    /// Where a carried-over value changes meaning on the other approach, one sentence each.
    pub notes: Vec<String>,
    /// `not applicable: <fault> (no node <name> in <approach>)`, one per fault left out.
    pub not_applicable: Vec<String>,
}

/// Both runs, what was mapped, and the one-line difference.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub left: Run,
    pub right: Run,
    pub notes: Vec<String>,
    pub not_applicable: Vec<String>,
    pub summary: String,
}

/// What the scenario on screen is compared with: defined with the links that name it
/// (`compare=`), in the scenario layer below this one.
pub use crate::scenario::share::Against;

/// The short name a lecturer says out loud.
pub fn short_name(a: Approach) -> &'static str {
    a.short_name()
}

/// The approach with this scenario-format id (`"etcd"`), if any.
pub fn approach_by_id(id: &str) -> Option<Approach> {
    Approach::by_id(id)
}

/// Whether the lock lives as long as heartbeats keep a session or lease alive (ZooKeeper,
/// etcd) rather than a fixed time from the request (db-lease, Redis, Redlock).
fn kept_alive(a: Approach) -> bool {
    a.spec().lease == LeaseKind::KeptAlive
}

/// Whether `lock.servers` means anything for the approach (Redlock instances, ensemble size).
fn multi_server(a: Approach) -> bool {
    a.spec().default_servers.is_some()
}

/// The lock lifetime an approach actually grants for a requested `ttl_ms` (the rest of the
/// lock settings as in `lock`).
fn granted_ttl(a: Approach, lock: &LockConfig, ttl_ms: i64) -> i64 {
    (a.spec().granted_ttl)(&LockConfig { ttl_ms, ..lock.clone() })
}

/// What `lock.ttl_ms` is called on this approach (docs/SCENARIO_FORMAT.md, the field table).
fn ttl_name(a: Approach) -> &'static str {
    a.spec().words.ttl
}

/// Derives the scenario that tells the same story against `with`.
///
/// Errors name the field: `with` when it is the scenario's own approach, or the counterpart's
/// own field path when it cannot be a valid scenario (for example a client named `db`).
pub fn counterpart(s: &Scenario, with: Approach) -> Result<Counterpart, ScenarioError> {
    let from = s.approach;
    if with == from {
        return Err(ScenarioError {
            path: "with".into(),
            message: format!("the scenario already uses {}; pick another approach", from.id()),
        });
    }
    let mut c = s.clone();
    let mut notes = Vec::new();
    c.approach = with;
    c.id = format!("{}-on-{}", s.id, with.id());
    c.title = format!("{} — on {}", s.title, with.label());
    // The intro tells the original approach's story, and `expect` is its author's claim about
    // that approach: neither is true of the other side by construction.
    c.intro = String::new();
    c.expect = None;
    c.lock.ttl_ms = lifetime(s, with, &mut notes);
    c.lock.servers = servers(s, with, &mut notes);
    if s.lock.replica && !with.spec().replica {
        notes.push(format!("lock.replica: {} has no Redis replica; the asynchronous replica is left out.", short_name(with)));
        c.lock.replica = false;
    }
    settings_that_do_not_carry(s, with, &mut notes);
    own_settings(s, with, &mut c.lock, &mut notes);
    client_settings(with, &mut c, &mut notes);
    let not_applicable = carry_faults(s, &mut c, &mut notes);
    validate::validate(&c)
        .map_err(|e| ScenarioError { path: e.path, message: format!("{} (in the {} counterpart)", e.message, with.id()) })?;
    Ok(Counterpart { scenario: c, notes, not_applicable })
}

/// The lock lifetime to ask `with` for. Carry what the source really granted (ZooKeeper
/// negotiates, etcd rounds), so both sides hold the lock for the same time when nothing goes
/// wrong; a note where the number keeps its value but not its meaning.
fn lifetime(s: &Scenario, with: Approach, notes: &mut Vec<String>) -> i64 {
    let from = s.approach;
    let (src, dst) = (short_name(from), short_name(with));
    let had = granted_ttl(from, &s.lock, s.lock.ttl_ms);
    if had != s.lock.ttl_ms {
        notes.push(format!(
            "lock.ttl_ms: {src} granted {} for the {} asked for; {dst} is asked for {}.",
            seconds(had),
            seconds(s.lock.ttl_ms),
            seconds(had)
        ));
    }
    match (kept_alive(from), kept_alive(with)) {
        (false, true) => notes.push(format!(
            "lock.ttl_ms: {src}'s {} lease TTL becomes {dst}'s {}, renewed by heartbeats: the lock ends when a holder stops heartbeating for {}, not {} after it was taken.",
            seconds(had),
            ttl_name(with),
            seconds(had),
            seconds(had)
        )),
        (true, false) => notes.push(format!(
            "lock.ttl_ms: {src}'s {} {} (renewed by heartbeats) becomes a fixed {} lease TTL: clients do not extend it, so a holder whose work outlasts it loses the lock even with no fault.",
            seconds(had),
            ttl_name(from),
            seconds(had)
        )),
        _ => {}
    }
    let gets = granted_ttl(with, &s.lock, had);
    if gets != had {
        let why = with.spec().grant_rule.map_or_else(|| "grants another lifetime".to_string(), |rule| rule(&s.lock));
        notes.push(format!("lock.ttl_ms: {dst} {why}, so {} becomes {}.", seconds(had), seconds(gets)));
    }
    if with.spec().drift_factor && !from.spec().drift_factor {
        notes.push(format!(
            "lock.drift_factor: a Redlock client holds the lock only while ttl − elapsed − (drift_factor·ttl + 2 ms) > 0, measured on its own clock; {src} has no such allowance."
        ));
    }
    had
}

/// `lock.servers` on `with`: the same number of lock servers between Redlock and the
/// ensembles (a majority of N either way, so both tolerate the same number of failed servers);
/// the approach's own shape where the other side has one server.
fn servers(s: &Scenario, with: Approach, notes: &mut Vec<String>) -> Option<u32> {
    let from = s.approach;
    let (src, dst) = (short_name(from), short_name(with));
    let n = validate::servers(s);
    match (multi_server(from), multi_server(with)) {
        (true, true) => {
            // Independent instances and a replicated ensemble share a number, not a meaning.
            if from.spec().holding != with.spec().holding {
                notes.push(format!(
                    "lock.servers: {n} {src} servers become {n} {dst} servers (a majority of {n} either way), but Redlock's instances are independent while an ensemble replicates one log."
                ));
            }
            Some(n)
        }
        (false, true) => {
            let c_n = with.spec().default_servers.unwrap_or(1);
            notes.push(format!("lock.servers: {dst} runs its default {c_n} servers; {src} has one."));
            None
        }
        (true, false) => {
            notes.push(format!("lock.servers: {dst} has one server where {src} had {n}."));
            None
        }
        (false, false) => None,
    }
}

/// Notes for the settings that are carried over but mean nothing (or something else) on `with`.
fn settings_that_do_not_carry(s: &Scenario, with: Approach, notes: &mut Vec<String>) {
    let from = s.approach;
    let (src, dst) = (short_name(from), short_name(with));
    let uses_persistence = |a: Approach| a.spec().persistence;
    if uses_persistence(from) && !uses_persistence(with) && s.lock.persistence != Persistence::default() {
        notes.push(format!("lock.persistence: {dst} keeps every acknowledged change durably; the {src} setting does not apply."));
    }
    if from.spec().drift_factor && !with.spec().drift_factor && s.lock.drift_factor != LockConfig::default().drift_factor {
        notes.push(format!("lock.drift_factor: only {src} uses it here; {dst} ignores it."));
    }
    if !s.lock.safe_unlock {
        if kept_alive(with) {
            notes.push(format!("lock.safe_unlock: false has no effect on {dst}: its release deletes only the client's own node."));
        } else if kept_alive(from) {
            notes.push(format!("lock.safe_unlock: false had no effect on {src}; on {dst} it unlocks with a plain DEL that can delete another holder's lock."));
        }
    }
}

/// The `lock` fields only some approaches have: those `with` does not accept are left out,
/// and its own rules are met (a Kubernetes RenewDeadline below the LeaseDuration), each with a
/// note.
fn own_settings(s: &Scenario, with: Approach, lock: &mut LockConfig, notes: &mut Vec<String>) {
    let dst = short_name(with);
    let own = with.spec().config.settings;
    for (name, _) in s.lock.own.iter() {
        if !own.iter().any(|x| x.name() == name) {
            lock.own.set(name, None);
            notes.push(format!("lock.{name}: {} only; {dst} has no such setting.", short_name(s.approach)));
        }
    }
    let before = lock.clone();
    (with.spec().config.fit)(lock);
    if *lock != before {
        notes.push(format!(
            "lock: {dst}'s own rules need other timing here: {}.",
            [("lock.ttl_ms".to_string(), before.ttl_ms, lock.ttl_ms)]
                .into_iter()
                .chain(own.iter().map(|x| (format!("lock.{}", x.name()), before.get(x), lock.get(x))))
                .filter(|(_, a, b)| a != b)
                .map(|(f, a, b)| format!("{f} {} → {}", seconds(a), seconds(b)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
}

/// A client's own `lock` fields that `with` does not let a client set are left out, a note each.
fn client_settings(with: Approach, c: &mut Scenario, notes: &mut Vec<String>) {
    let dst = short_name(with);
    for client in &mut c.clients {
        let names: Vec<&'static str> = client.lock.iter().map(|(n, _)| n).collect();
        for name in names.into_iter().filter(|n| !with.spec().config.per_client.contains(n)) {
            client.lock.set(name, None);
            notes.push(format!("clients: {}'s own lock.{name} is left out: {dst} does not let a client set it.", client.name));
        }
    }
}

/// The node of `c` that plays `name`'s part in `s`: itself where `c` has it (clients,
/// storage), else the lock server at the same position (Redlock's instance i is the ensemble's
/// server i, a single Redis or database the first server); None where `c` has no such server.
fn by_role(name: &str, s: &Scenario, c: &Scenario, names: &[String]) -> Option<String> {
    if names.iter().any(|n| n == name) {
        return Some(name.to_string());
    }
    let i = validate::service_names(s).iter().position(|n| n == name)?;
    validate::service_names(c).into_iter().nth(i)
}

/// `f` with every node it names replaced by its part's node in `c` (see `by_role`); Err with
/// the first name that has none.
fn carried(f: &FaultSpec, s: &Scenario, c: &Scenario, names: &[String]) -> Result<FaultSpec, String> {
    let mut out = f.clone();
    for (param, value) in f.values() {
        let map = |n: &String| by_role(n, s, c, names).ok_or_else(|| n.clone());
        let mapped = match value {
            Value::Name(n) => Value::Name(map(&n)?),
            Value::Groups(g) => Value::Groups(g.iter().map(|grp| grp.iter().map(map).collect()).collect::<Result<_, _>>()?),
            _ => continue,
        };
        fault::set(&mut out, param.name, mapped);
    }
    Ok(out)
}

/// Carries the faults of `s` into `c` by role (`carried`): a clock jump on Redlock's redis-3 is
/// the same jump on the ensemble's third server, so both sides meet the same trouble. Each
/// renamed fault gets a note; a fault whose node has no counterpart is listed (the return
/// value), and the side's heading says how many it ran without.
fn carry_faults(s: &Scenario, c: &mut Scenario, notes: &mut Vec<String>) -> Vec<String> {
    let names = validate::node_names(c);
    let mut not_applicable = Vec::new();
    let mut faults = Vec::new();
    for f in &s.faults {
        match carried(f, s, c, &names) {
            Ok(g) => {
                if g != *f {
                    notes.push(format!("{}: carried as {} (the lock server in the same place)", fault::words(f), fault::words(&g)));
                }
                faults.push(g);
            }
            Err(missing) => not_applicable.push(format!("not applicable: {} (no node {missing} in {})", fault::words(f), c.approach.id())),
        }
    }
    c.faults = faults;
    not_applicable.extend(carry_schedules(s, c, notes));
    not_applicable
}

/// Carries the fault schedules of `s` into `c`, each node it strikes by role (`by_role`): a
/// node with no counterpart leaves the set (a note says so), and a schedule left with no node
/// is listed as not applicable. A schedule on every client (no `on`) carries as it is.
fn carry_schedules(s: &Scenario, c: &mut Scenario, notes: &mut Vec<String>) -> Vec<String> {
    let names = validate::node_names(c);
    let mut not_applicable = Vec::new();
    let mut schedules = Vec::new();
    for sch in &s.schedules {
        let Some(on) = &sch.on else {
            schedules.push(sch.clone());
            continue;
        };
        let mut kept: Vec<String> = Vec::new();
        let mut missing: Vec<&str> = Vec::new();
        for n in on {
            match by_role(n, s, c, &names) {
                Some(m) if !kept.contains(&m) => kept.push(m),
                Some(_) => {}
                None => missing.push(n),
            }
        }
        let words = sch.words(s);
        if kept.is_empty() {
            not_applicable.push(format!("not applicable: {words} (no node of it in {})", c.approach.id()));
            continue;
        }
        if kept != *on {
            let dropped = if missing.is_empty() { String::new() } else { format!("; no {} in {}", missing.join(", "), c.approach.id()) };
            notes.push(format!("{words}: carried on {}{dropped}", kept.join(", ")));
        }
        schedules.push(crate::scenario::Schedule { on: Some(kept), ..sch.clone() });
    }
    c.schedules = schedules;
    not_applicable
}

/// One side in a few words: the approach, fencing, then the first unsafe thing with its time
/// or what protected the write. "Redis: 2 holders at 10.134 s, stale write accepted at 15.502 s".
pub fn side(v: &Verdict) -> String {
    side_as(short_name(v.approach), v)
}

/// `side`, the run called `name` ("real Redis 7.0.15").
pub fn side_as(name: &str, v: &Verdict) -> String {
    let first = |k: FindingKind| v.findings.iter().find(|f| f.kind == k);
    let mut parts: Vec<String> = Vec::new();
    if let Some(o) = v.overlaps.first() {
        parts.push(format!("{} holders at {}", o.clients.len(), seconds(o.from_ms)));
    }
    if let Some(f) = first(FindingKind::TokenRepeated) {
        parts.push(format!("token repeated at {}", seconds(f.at_ms)));
    } else if let Some(f) = first(FindingKind::TokenRegressed) {
        parts.push(format!("token went back at {}", seconds(f.at_ms)));
    }
    if let Some(f) = first(FindingKind::StaleWriteAccepted) {
        let unfenced = v.fencing && v.writes.iter().any(|w| w.event == f.event && w.unfenced);
        parts.push(format!("stale write accepted at {}{}", seconds(f.at_ms), if unfenced { " (no token to check)" } else { "" }));
    } else if let Some(f) = first(FindingKind::StaleWriteRejected) {
        parts.push(format!("stale write rejected at {}", seconds(f.at_ms)));
    } else if !parts.is_empty() {
        parts.push("no update lost".into());
    }
    if parts.is_empty() {
        parts.push("one holder at a time".into());
    }
    if let Some(t) = v.truncated_at_ms {
        parts.push(format!("run cut at {}", seconds(t)));
    }
    format!("{name}{}: {}", if v.fencing { " + fencing" } else { "" }, parts.join(", "))
}

/// The one-line difference of two verdicts: both sides, left first.
pub fn difference(left: &Verdict, right: &Verdict) -> String {
    format!("{}; {}", side(left), side(right))
}

/// Runs `s` and its counterpart on `with`.
pub fn compare(s: &Scenario, with: Approach) -> Result<Comparison, ScenarioError> {
    let cp = counterpart(s, with)?;
    let left = lab::run(s);
    let right = lab::run(&cp.scenario);
    let summary = difference(&left.verdict, &right.verdict);
    Ok(Comparison { left, right, notes: cp.notes, not_applicable: cp.not_applicable, summary })
}

/// Runs `s` and the same scenario with one of its approach's `lock` settings set otherwise
/// (`field` as the file names it, `lock.check_elapsed`; `value` as the file writes it): two
/// variants of one approach side by side, each side named by the setting's value ("Redlock
/// (check_elapsed true)"). Errors name `field` or `value`, or the variant's own field path.
pub fn variant(s: &Scenario, field: &str, value: &str) -> Result<Comparison, ScenarioError> {
    let spec = s.approach.spec();
    let error = |path: &str, message: String| ScenarioError { path: path.into(), message };
    let name = field.strip_prefix("lock.").unwrap_or(field);
    let Some(setting) = spec.config.settings.iter().find(|x| x.name() == name) else {
        let own: Vec<String> = spec.config.settings.iter().map(|x| format!("lock.{}", x.name())).collect();
        let has = if own.is_empty() { "none".to_string() } else { own.join(", ") };
        return Err(error("field", format!("{} has no setting {field} (its own: {has})", s.approach.id())));
    };
    let v = setting.parse(value).map_err(|m| error("value", m))?;
    let mut other = s.clone();
    other.lock.own.set(setting.name(), Some(v));
    other.id = format!("{}-{}-{}", s.id, setting.name(), setting.show(v));
    (other.intro, other.expect) = (String::new(), None);
    validate::validate(&other).map_err(|e| ScenarioError { path: e.path, message: format!("{} (in the variant)", e.message) })?;
    let (left, right) = (lab::run(s), lab::run(&other));
    let named = |l: &LockConfig| format!("{} ({} {})", short_name(s.approach), setting.name(), setting.show(l.get(setting)));
    let summary = format!("{}; {}", side_as(&named(&s.lock), &left.verdict), side_as(&named(&other.lock), &right.verdict));
    Ok(Comparison { left, right, notes: Vec::new(), not_applicable: Vec::new(), summary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::fault::Partition;
    use crate::scenario::{catalog, FaultSpec};

    fn builtin(id: &str) -> Scenario {
        catalog::get(id).expect("built-in")
    }

    #[test]
    fn every_builtin_against_every_other_approach_builds_and_runs_deterministically() {
        for s in catalog::all() {
            for with in Approach::ALL.into_iter().filter(|&a| a != s.approach) {
                for fencing in [false, true] {
                    let s = lab::with_fencing(&s, fencing);
                    let a = compare(&s, with).unwrap_or_else(|e| panic!("{} vs {}: {e}", s.id, with.id()));
                    let b = compare(&s, with).unwrap();
                    assert_eq!(a.right.trace.events, b.right.trace.events, "{} vs {}", s.id, with.id());
                    assert_eq!(a.summary, b.summary);
                    assert_eq!(a.right.scenario.approach, with);
                    assert_eq!(a.right.scenario.storage.fencing, fencing);
                    assert!(a.summary.contains(short_name(s.approach)) && a.summary.contains(short_name(with)), "{}", a.summary);
                    // The left side is exactly the scenario as given.
                    assert_eq!(a.left.verdict, lab::run(&s).verdict);
                }
            }
        }
    }

    #[test]
    fn two_variants_of_one_approach_side_by_side() {
        // Kleppmann's Redlock beside antirez's: the built-in with a pause in the acquire round.
        let mut s = builtin("redis-gc-pause");
        s.approach = Approach::Redlock;
        s.faults = vec![FaultSpec::Pause(crate::scenario::fault::Pause { at_ms: 1, node: "A".into(), duration_ms: 15_000 })];
        let c = variant(&s, "lock.check_elapsed", "false").unwrap();
        assert_eq!(c.left.scenario.lock.own.get("check_elapsed"), None);
        assert_eq!(c.right.scenario.lock.own.get("check_elapsed"), Some(0));
        assert!(c.left.verdict.safe && !c.right.verdict.safe, "{}", c.summary);
        assert!(
            c.summary
                .starts_with("Redlock (check_elapsed true): one holder at a time; Redlock (check_elapsed false): stale write accepted at"),
            "{}",
            c.summary
        );
        let e = variant(&s, "lock.check_elapsed", "yes").unwrap_err();
        assert_eq!(e.to_string(), "value: \"yes\" is not true or false");
        let e = variant(&s, "lock.renew_deadline_ms", "1000").unwrap_err();
        assert_eq!(
            e.to_string(),
            "field: redlock has no setting lock.renew_deadline_ms (its own: lock.check_elapsed, lock.restart_delay_ms)"
        );
    }

    #[test]
    fn same_clients_storage_network_seed_and_duration() {
        let s = builtin("redlock-clock-jump");
        let c = counterpart(&s, Approach::Etcd).unwrap().scenario;
        assert_eq!((c.clients, c.storage, c.network, c.seed, c.duration_ms), (s.clients, s.storage, s.network, s.seed, s.duration_ms));
        assert_eq!(c.lock.ttl_ms, s.lock.ttl_ms);
        assert_eq!(c.lock.servers, Some(5), "5 Redlock instances become a 5-server ensemble");
        assert_eq!(c.expect, None);
    }

    #[test]
    fn lock_service_faults_are_carried_by_role() {
        // Redlock's instances are the ensemble's servers, one for one: the same links cut, the
        // same clock jump, on the server in the same place.
        let s = builtin("redlock-clock-jump");
        let c = counterpart(&s, Approach::Etcd).unwrap();
        assert!(c.not_applicable.is_empty(), "{:?}", c.not_applicable);
        let words: Vec<String> = c.scenario.faults.iter().map(fault::words).collect();
        assert_eq!(words, ["drop A → etcd-4 from 0 s", "drop A → etcd-5 from 0 s", "clock jump etcd-3 by +10 s at 1.5 s"]);
        assert!(c.notes.iter().any(|n| n
            == "clock jump redis-3 by +10 s at 1.5 s: carried as clock jump etcd-3 by +10 s at 1.5 s (the lock server in the same place)"));
        // A single Redis with its replica: the primary is the first server, the replica the second.
        let f = counterpart(&builtin("redis-failover"), Approach::Zookeeper).unwrap();
        assert!(f.not_applicable.is_empty());
        let words: Vec<String> = f.scenario.faults.iter().map(fault::words).collect();
        assert_eq!(words, ["drop zk-1 → zk-2 from 0 s for 1 s", "crash zk-1 at 40 ms, restart after 3 s"]);
        assert!(f.notes.iter().any(|n| n.starts_with("lock.replica")));
        // A server with no counterpart (etcd's third against a single Redis) is left out, named.
        let mut e = builtin("etcd-gc-pause");
        e.faults.push(FaultSpec::ClockJump(crate::scenario::fault::ClockJump { at_ms: 1000, node: "etcd-3".into(), by_ms: 5000 }));
        let r = counterpart(&e, Approach::Redis).unwrap();
        assert_eq!(r.not_applicable, ["not applicable: clock jump etcd-3 by +5 s at 1 s (no node etcd-3 in redis)"]);
    }

    #[test]
    fn a_schedule_carries_its_nodes_by_role_and_drops_those_with_none() {
        let s = crate::scenario::parse(&std::fs::read_to_string("tests/scenarios/jepsen-etcd-pauses.json").unwrap()).unwrap();
        let r = counterpart(&s, Approach::Redis).unwrap();
        assert_eq!(r.scenario.schedules[0].on.as_deref(), Some(&["A", "B", "C", "redis"].map(String::from)[..]));
        assert!(r.notes.iter().any(|n| n.ends_with("carried on A, B, C, redis; no etcd-2, etcd-3 in redis")), "{:?}", r.notes);
        assert!(r.not_applicable.is_empty());
        crate::scenario::validate::validate(&r.scenario).unwrap();
        let mut only_servers = s.clone();
        only_servers.schedules[0].on = Some(vec!["etcd-2".into()]);
        let r = counterpart(&only_servers, Approach::Redis).unwrap();
        assert!(r.scenario.schedules.is_empty());
        assert_eq!(r.not_applicable.len(), 1);
        assert!(r.not_applicable[0].starts_with("not applicable: pause etcd-2 every 5 s"), "{:?}", r.not_applicable);
    }

    #[test]
    fn a_client_pause_applies_to_both() {
        let s = builtin("redis-gc-pause");
        for with in [Approach::DbLease, Approach::Redlock, Approach::Zookeeper, Approach::Etcd] {
            let c = counterpart(&s, with).unwrap();
            assert_eq!(c.scenario.faults, s.faults, "{}", with.id());
            assert!(c.not_applicable.is_empty());
        }
    }

    #[test]
    fn partitions_carry_their_members_by_role() {
        let mut s = builtin("happy-path-redis");
        s.faults = vec![
            FaultSpec::Partition(Partition {
                at_ms: 100,
                groups: vec![vec!["A".into()], vec!["B".into(), "storage".into()]],
                duration_ms: Some(500),
            }),
            FaultSpec::Partition(Partition { at_ms: 900, groups: vec![vec!["A".into(), "redis".into()]], duration_ms: None }),
        ];
        let c = counterpart(&s, Approach::Etcd).unwrap();
        // The Redis server's part is the ensemble's first server's.
        assert_eq!(c.scenario.faults[0], s.faults[0]);
        assert_eq!(fault::words(&c.scenario.faults[1]), "partition {A, etcd-1} at 900 ms");
        assert!(c.not_applicable.is_empty());
    }

    #[test]
    fn lock_timing_is_mapped_by_meaning_with_notes() {
        // ZooKeeper negotiated 3 s up to 4 s: the other side gets the 4 s that really applied.
        let mut z = builtin("zookeeper-session-expiry");
        z.lock.ttl_ms = 3000;
        let c = counterpart(&z, Approach::Redis).unwrap();
        assert_eq!(c.scenario.lock.ttl_ms, 4000);
        assert_eq!(c.scenario.lock.servers, None);
        assert!(c.notes.iter().any(|n| n.contains("ZooKeeper granted 4 s for the 3 s asked for")), "{:?}", c.notes);
        assert!(c.notes.iter().any(|n| n.contains("fixed 4 s lease TTL")), "{:?}", c.notes);
        // etcd rounds a 2.5 s TTL up to whole seconds; say so.
        let mut r = builtin("redis-gc-pause");
        r.lock.ttl_ms = 2500;
        let c = counterpart(&r, Approach::Etcd).unwrap();
        assert_eq!(c.scenario.lock.ttl_ms, 2500);
        assert!(c.notes.iter().any(|n| n.contains("2.5 s becomes 3 s")), "{:?}", c.notes);
        assert!(c.notes.iter().any(|n| n.contains("renewed by heartbeats")), "{:?}", c.notes);
        // One server to an ensemble: the ensemble's own default size.
        assert_eq!(c.scenario.lock.servers, None);
        assert_eq!(validate::servers(&c.scenario), 3);
    }

    #[test]
    fn an_impossible_counterpart_names_the_field() {
        let mut s = builtin("happy-path-redis");
        s.clients[0].name = "db".into();
        let e = counterpart(&s, Approach::DbLease).unwrap_err();
        assert_eq!(e.path, "clients[0].name");
        assert!(e.message.contains("db-lease"), "{e}");
        let e = counterpart(&s, Approach::Redis).unwrap_err();
        assert_eq!(e.path, "with");
    }

    #[test]
    fn the_one_liner_for_hand_checked_pairs() {
        // Redis GC pause: with fencing off both sides lose B's update (etcd expires A's lease
        // while A is paused, just as Redis expires its key); with fencing on both reject it.
        let s = builtin("redis-gc-pause");
        let off = compare(&s, Approach::Etcd).unwrap().summary;
        assert!(off.starts_with("Redis: 2 holders at 10.104 s, stale write accepted at 15.505 s; etcd: 2 holders at "), "{off}");
        assert!(off.ends_with(", stale write accepted at 15.505 s"), "{off}");
        let on = compare(&lab::with_fencing(&s, true), Approach::Etcd).unwrap().summary;
        assert!(
            on.starts_with("Redis + fencing: 2 holders at 10.104 s, stale write rejected at 15.505 s; etcd + fencing: 2 holders at "),
            "{on}"
        );
        assert!(on.ends_with(", stale write rejected at 15.505 s"), "{on}");
        // Redlock's clock jump does not exist on etcd: one holder at a time there.
        let r = compare(&lab::with_fencing(&builtin("redlock-clock-jump"), true), Approach::Etcd).unwrap().summary;
        assert!(r.starts_with("Redlock + fencing: 2 holders at "), "{r}");
        assert!(r.contains("(no token to check); etcd + fencing: one holder at a time"), "{r}");
        // A happy path stays happy on every approach.
        let h = compare(&builtin("happy-path-db-lease"), Approach::Zookeeper).unwrap().summary;
        assert_eq!(h, "Database lease: one holder at a time; ZooKeeper: one holder at a time");
    }
}
