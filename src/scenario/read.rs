//! Reads a scenario from parsed JSON (`serde_json::Value`), field by field, with the path of
//! every error: `lock.ttl_ms: invalid type: string, expected an integer`.
//!
//! Why not `#[derive(Deserialize)]`: the derived code, with serde's error messages (which print
//! floats and escape strings, pulling in the float printer and Unicode tables), was about a
//! quarter of the app's wasm beyond Yew itself, and it could not name the field inside a
//! fault (serde buffers internally tagged enums). This reader is small, names every field,
//! and is checked against the derived `Deserialize` natively (tests/error_paths.rs), which
//! is kept for that reason only.

use serde_json::Value;

use super::format::*;
pub(crate) use super::json_read::{boolean, choice, err, int, invalid, join, list, string, Object, Read};
use super::json_read::{float, uint, uint32};
use crate::protocols::config::{per_client_names, setting_by_name, setting_names, Kind, Settings, COMMON_FIELDS};

/// `[lo, hi]`: exactly two integers.
fn pair(v: &Value, path: &str) -> Read<[i64; 2]> {
    let items = list(v, path, int)?;
    <[i64; 2]>::try_from(items).or_else(|items| err(path, format!("invalid length {}, expected an array of 2 integers", items.len())))
}

fn approach(v: &Value, path: &str) -> Read<Approach> {
    let table: Vec<(&str, Approach)> = Approach::ALL.iter().map(|&a| (a.id(), a)).collect();
    choice(v, path, &table)
}

fn persistence(v: &Value, path: &str) -> Read<Persistence> {
    choice(v, path, &[("none", Persistence::None), ("aof-everysec", Persistence::AofEverysec), ("aof-always", Persistence::AofAlways)])
}

/// The `lock` section of a scenario on `approach` (its TTL's default is the approach's).
fn lock(v: &Value, path: &str, approach: Approach) -> Read<LockConfig> {
    // The common fields, then every approach's own settings (validation refuses one the
    // scenario's approach does not have, naming who has it).
    let known: Vec<&str> = COMMON_FIELDS.into_iter().chain(setting_names()).collect();
    let o = Object::new(v, path, &known)?;
    let d = LockConfig::for_approach(approach);
    Ok(LockConfig {
        ttl_ms: o.or("ttl_ms", d.ttl_ms, int)?,
        servers: o.opt("servers", uint32)?,
        safe_unlock: o.or("safe_unlock", d.safe_unlock, boolean)?,
        replica: o.or("replica", d.replica, boolean)?,
        persistence: o.or("persistence", d.persistence, persistence)?,
        drift_factor: o.or("drift_factor", d.drift_factor, float)?,
        retry_ms: o.or("retry_ms", d.retry_ms, pair)?,
        request_timeout_ms: o.or("request_timeout_ms", d.request_timeout_ms, int)?,
        tick_ms: o.or("tick_ms", d.tick_ms, int)?,
        own: settings(&o)?,
    })
}

/// The approach settings the `lock` section writes.
fn settings(o: &Object) -> Read<Settings> {
    let mut own = Settings::default();
    for name in setting_names() {
        own.set(name, o.opt(name, |v, p| setting(name, v, p))?);
    }
    Ok(own)
}

/// The value of the setting called `name`, as its kind writes it (a number, `true`/`false`, a
/// name), held as a whole number (`config::Kind`).
fn setting(name: &str, v: &Value, path: &str) -> Read<i64> {
    match setting_by_name(name).map(|x| x.kind()) {
        Some(Kind::Flag) => boolean(v, path).map(i64::from),
        Some(Kind::Named(names)) => {
            let table: Vec<(&str, i64)> = names.iter().enumerate().map(|(i, n)| (*n, i as i64)).collect();
            choice(v, path, &table)
        }
        Some(Kind::Number) | None => int(v, path),
    }
}

/// A client's own `lock` fields (`clients[].lock`): `ttl_ms` and any approach's per-client
/// settings (validation refuses those the scenario's approach does not let a client set).
fn client_lock(v: &Value, path: &str) -> Read<Settings> {
    let known: Vec<&str> = per_client_names().collect();
    let o = Object::new(v, path, &known)?;
    let mut out = Settings::default();
    for name in per_client_names() {
        // `ttl_ms` is no approach's setting: `setting` reads it as the number it is.
        out.set(name, o.opt(name, |v, p| setting(name, v, p))?);
    }
    Ok(out)
}

fn storage(v: &Value, path: &str) -> Read<StorageConfig> {
    let o = Object::new(v, path, &["fencing"])?;
    Ok(StorageConfig { fencing: o.or("fencing", false, boolean)? })
}

fn network(v: &Value, path: &str) -> Read<NetworkConfig> {
    let o = Object::new(v, path, &["latency_ms", "drop_rate"])?;
    let d = NetworkConfig::default();
    Ok(NetworkConfig { latency_ms: o.or("latency_ms", d.latency_ms, pair)?, drop_rate: o.or("drop_rate", d.drop_rate, float)? })
}

fn client(v: &Value, path: &str) -> Read<ClientSpec> {
    let o = Object::new(v, path, &["name", "acquire_at_ms", "work_ms", "writes", "lock"])?;
    Ok(ClientSpec {
        name: o.req("name", string)?,
        acquire_at_ms: o.or("acquire_at_ms", 0, int)?,
        work_ms: o.or("work_ms", default_work(), int)?,
        writes: o.or("writes", default_writes(), uint32)?,
        lock: o.or("lock", Settings::default(), client_lock)?,
    })
}

fn outcome(v: &Value, path: &str) -> Read<Outcome> {
    let o = Object::new(v, path, &["safe", "stale_writes_accepted", "stale_writes_rejected", "max_concurrent_holders"])?;
    Ok(Outcome {
        safe: o.opt("safe", boolean)?,
        stale_writes_accepted: o.opt("stale_writes_accepted", uint32)?,
        stale_writes_rejected: o.opt("stale_writes_rejected", uint32)?,
        max_concurrent_holders: o.opt("max_concurrent_holders", uint32)?,
    })
}

fn expect(v: &Value, path: &str) -> Read<Expect> {
    let o = Object::new(v, path, &["fencing_off", "fencing_on"])?;
    Ok(Expect { fencing_off: o.opt("fencing_off", outcome)?, fencing_on: o.opt("fencing_on", outcome)? })
}

/// The scenario in a parsed JSON document (not yet validated: see `validate`).
pub fn scenario(v: &Value) -> Read<Scenario> {
    let known = [
        "version",
        "id",
        "title",
        "intro",
        "approach",
        "seed",
        "duration_ms",
        "lock",
        "storage",
        "network",
        "clients",
        "faults",
        "schedules",
        "expect",
    ];
    let o = Object::new(v, "", &known)?;
    let approach = o.req("approach", approach)?;
    Ok(Scenario {
        version: o.req("version", uint32)?,
        id: o.or("id", String::new(), string)?,
        title: o.or("title", String::new(), string)?,
        intro: o.or("intro", String::new(), string)?,
        approach,
        seed: o.or("seed", default_seed(), uint)?,
        duration_ms: o.or("duration_ms", default_duration(), int)?,
        lock: o.or("lock", LockConfig::for_approach(approach), |v, p| lock(v, p, approach))?,
        storage: o.or("storage", StorageConfig::default(), storage)?,
        network: o.or("network", NetworkConfig::default(), network)?,
        clients: o.or("clients", default_clients(), |v, p| list(v, p, client))?,
        faults: o.or("faults", Vec::new(), |v, p| list(v, p, super::fault::read::fault))?,
        schedules: o.or("schedules", Vec::new(), |v, p| list(v, p, super::fault::read::schedule))?,
        expect: o.opt("expect", expect)?,
    })
}
