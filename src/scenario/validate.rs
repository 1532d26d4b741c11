//! Parsing and validation. Every error names the field path and what is wrong with it, e.g.
//! `faults[2].node: no node named "redis-9" (redis has A, B, redis, storage)`. A scenario that
//! fails here is never run.

use super::format::{Approach, Scenario};
use super::limits::*;
use super::lock_settings;
use crate::param::Param;
use crate::protocols::config::{setting_by_name, TTL};

pub use super::error::ScenarioError;
use super::error::{err, range};
pub use super::nodes::{node_names, quorum, servers, service_names};

/// Parses and validates a scenario from JSON text.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    checked(read(text)?)
}

/// Reads and validates a scenario already parsed as JSON (one of a file of several).
pub fn parse_value(value: &serde_json::Value) -> Result<Scenario, ScenarioError> {
    checked(super::read::scenario(value)?)
}

/// A scenario as read, with its id from its title when it has none, validated.
fn checked(mut scenario: Scenario) -> Result<Scenario, ScenarioError> {
    if scenario.id.is_empty() {
        scenario.id = slug(&scenario.title);
    }
    validate(&scenario)?;
    Ok(scenario)
}

/// Reads JSON text in the scenario's shape without validating its values, so the editor's form
/// can show (and fix) a draft whose TTL is out of range. Errors name the field path as `parse`
/// does; `parse` is this plus validation.
pub fn read(text: &str) -> Result<Scenario, ScenarioError> {
    // Editors on Windows start UTF-8 files with a byte-order mark; it is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(err("", format!("scenario is {} bytes; the limit is {MAX_SCENARIO_BYTES}", text.len())));
    }
    let value = super::strict_json::parse(text).map_err(|e| {
        // A syntax error (or a key written twice), in plain words with its line: it helps in a big file.
        err(super::json_path::of_error(text, &e), super::json_path::words(&e))
    })?;
    super::read::scenario(&value)
}

/// `"GC pause after acquire"` → `"gc-pause-after-acquire"`; empty → `"custom"`.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "custom".into()
    } else {
        out
    }
}

/// A number from the file, as the error repeats it (up to six decimals; see `decimal`).
fn number(v: f64) -> String {
    if v.abs() < 1e12 {
        crate::decimal::Short(v, 6).to_string()
    } else {
        "a number beyond ±10^12".into()
    }
}

/// The approach's own `lock` settings (each within its `Param`'s bounds; another approach's
/// refused, naming who has it), and the approach's own rules.
fn own_lock_fields(s: &Scenario) -> Result<(), ScenarioError> {
    let l = &s.lock;
    let spec = s.approach.spec();
    for (name, v) in l.own.iter() {
        let path = format!("lock.{name}");
        let Some(setting) = spec.config.settings.iter().find(|x| x.name() == name) else {
            let with: Vec<&str> =
                Approach::ALL.iter().filter(|a| a.spec().config.settings.iter().any(|x| x.name() == name)).map(|a| a.id()).collect();
            return Err(err(path, format!("only {} has this field (this scenario is {})", with.join(", "), s.approach.id())));
        };
        let n = setting.number();
        range(&path, v, n.lo, n.hi, &format!(" {}", n.unit))?;
    }
    (spec.config.check)(l).map_err(|(path, message)| err(path, message))
}

/// Client `i`'s own `lock` fields: only those its approach lets a process set
/// (`ConfigRules::per_client`), each within its bounds, and the approach's rules met by the
/// configuration the client runs with (an error there names the client's field when it wrote
/// it, else the scenario's).
fn client_lock_fields(s: &Scenario, i: usize) -> Result<(), ScenarioError> {
    let c = &s.clients[i];
    let spec = s.approach.spec();
    let at = |name: &str| format!("clients[{i}].lock.{name}");
    for (name, v) in c.lock.iter() {
        if !spec.config.per_client.contains(&name) {
            let with: Vec<&str> = Approach::ALL.iter().filter(|a| a.spec().config.per_client.contains(&name)).map(|a| a.id()).collect();
            let who = if with.is_empty() {
                "no approach lets a client set it".to_string()
            } else {
                format!("only {} {} a client set it", with.join(", "), if with.len() == 1 { "lets" } else { "let" })
            };
            return Err(err(at(name), format!("{who} (this scenario is {})", s.approach.id())));
        }
        let p = if name == TTL { lock_settings::ttl() } else { *setting_by_name(name).expect("a per-client field is a setting").param() };
        let n = p.number().expect("a lock number");
        let unit = if n.unit.is_empty() { String::new() } else { format!(" {}", n.unit) };
        range(&at(name), v, n.lo, n.hi, &unit)?;
    }
    if c.lock.is_empty() {
        return Ok(());
    }
    (spec.config.check)(&s.lock.for_client(&c.lock)).map_err(|(path, message)| {
        let field = path.strip_prefix("lock.").unwrap_or(path);
        let path = if c.lock.get(field).is_some() { at(field) } else { path.to_string() };
        err(path, format!("{message} (client {}'s settings)", c.name))
    })
}

pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    if s.version != 1 {
        return Err(err("version", format!("unsupported version {} (only version 1 exists)", s.version)));
    }
    range("duration_ms", s.duration_ms, 1, MAX_DURATION_MS, " ms")?;
    let l = &s.lock;
    // The common numbers' bounds are declared once, in `lock_settings` (the docs' table too).
    let within = |path: &str, v: i64, p: &Param, lo: Option<i64>| {
        let n = p.number().expect("a lock number");
        let unit = if n.unit.is_empty() { String::new() } else { format!(" {}", n.unit) };
        range(path, v, lo.unwrap_or(n.lo), n.hi, &unit)
    };
    within("lock.ttl_ms", l.ttl_ms, &lock_settings::ttl(), None)?;
    if let Some(n) = l.servers {
        within("lock.servers", n as i64, &lock_settings::SERVERS, None)?;
    }
    if !(0.0..lock_settings::DRIFT_FACTOR_BELOW).contains(&l.drift_factor) {
        return Err(err(
            "lock.drift_factor",
            format!("{} is out of range: must be at least 0 and below {}", number(l.drift_factor), lock_settings::DRIFT_FACTOR_BELOW),
        ));
    }
    let retry = lock_settings::retry();
    within("lock.retry_ms[0]", l.retry_ms[0], &retry, None)?;
    within("lock.retry_ms[1]", l.retry_ms[1], &retry, Some(l.retry_ms[0]))?;
    within("lock.request_timeout_ms", l.request_timeout_ms, &lock_settings::request_timeout(), None)?;
    within("lock.tick_ms", l.tick_ms, &lock_settings::tick(), None)?;
    own_lock_fields(s)?;
    if l.replica && !s.approach.spec().replica {
        let with: Vec<&str> = Approach::ALL.iter().filter(|a| a.spec().replica).map(|a| a.id()).collect();
        return Err(err(
            "lock.replica",
            format!("only the {} approach has a replica (this scenario is {})", with.join(", "), s.approach.id()),
        ));
    }
    let net = &s.network;
    range("network.latency_ms[0]", net.latency_ms[0], 0, MAX_LATENCY_MS, " ms")?;
    range("network.latency_ms[1]", net.latency_ms[1], net.latency_ms[0], MAX_LATENCY_MS, " ms")?;
    if !(0.0..=1.0).contains(&net.drop_rate) || net.drop_rate.is_nan() {
        return Err(err("network.drop_rate", format!("{} is out of range: must be between 0 and 1", number(net.drop_rate))));
    }
    if s.clients.is_empty() || s.clients.len() > MAX_CLIENTS {
        return Err(err("clients", format!("{} clients: must be 1..={MAX_CLIENTS}", s.clients.len())));
    }
    let service = service_names(s);
    for (i, c) in s.clients.iter().enumerate() {
        let p = |f: &str| format!("clients[{i}].{f}");
        let valid = !c.name.is_empty()
            && c.name.len() <= MAX_NAME_LEN
            && c.name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        if !valid {
            return Err(err(p("name"), format!("\"{}\" is not a valid name: use 1..={MAX_NAME_LEN} letters, digits, '-' or '_'", c.name)));
        }
        if s.clients[..i].iter().any(|o| o.name == c.name) {
            return Err(err(p("name"), format!("duplicate client name \"{}\"", c.name)));
        }
        if c.name == "storage" || service.contains(&c.name) {
            return Err(err(p("name"), format!("\"{}\" is the name of a lock-service or storage node", c.name)));
        }
        range(&p("acquire_at_ms"), c.acquire_at_ms, 0, s.duration_ms, " ms")?;
        range(&p("work_ms"), c.work_ms, 0, MAX_DURATION_MS, " ms")?;
        range(&p("writes"), c.writes as i64, 0, MAX_WRITES_PER_CLIENT as i64, "")?;
        client_lock_fields(s, i)?;
    }
    if s.faults.len() > MAX_FAULTS {
        return Err(err("faults", format!("{} faults: the limit is {MAX_FAULTS}", s.faults.len())));
    }
    let names = node_names(s);
    for (i, f) in s.faults.iter().enumerate() {
        super::fault::validate::fault(f, i, s, &names)?;
    }
    if s.schedules.len() > MAX_SCHEDULES {
        return Err(err("schedules", format!("{} schedules: the limit is {MAX_SCHEDULES}", s.schedules.len())));
    }
    let mut strikes = 0;
    for (i, sch) in s.schedules.iter().enumerate() {
        super::fault::validate::schedule(sch, i, s, &names)?;
        strikes += sch.expected_strikes(s.duration_ms);
        if strikes > MAX_SCHEDULED_FAULTS as i64 {
            return Err(err(
                format!("schedules[{i}].every_ms"),
                format!(
                    "{} ms makes the schedules strike {strikes} times in this run; the limit is {MAX_SCHEDULED_FAULTS} for all of them",
                    sch.every_ms
                ),
            ));
        }
    }
    Ok(())
}
