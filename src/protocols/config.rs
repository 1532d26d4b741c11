//! The `lock` section of a scenario (docs/SCENARIO_FORMAT.md, "Fields"): the settings every
//! approach's nodes are built from. It lives with the protocols because they are what it
//! configures; `scenario::format` re-exports it as part of the public format.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use crate::param::{Need, Number, Param, Toward, Ty};

/// Serialized by serde's derive; read natively (for tests/error_paths.rs, as the format's other
/// types are) by `Deserialize` below, since the approaches' settings are not fixed fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LockConfig {
    pub ttl_ms: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub servers: Option<u32>,
    pub safe_unlock: bool,
    pub replica: bool,
    pub persistence: Persistence,
    pub drift_factor: f64,
    pub retry_ms: [i64; 2],
    pub request_timeout_ms: i64,
    /// ZooKeeper's tickTime: it bounds the negotiated session timeout (2–20 ticks) and the
    /// leader expires sessions on tick boundaries. Written out only when not the default, so
    /// scenarios that never set it serialize (and share) as before.
    #[serde(skip_serializing_if = "is_default_tick")]
    pub tick_ms: i64,
    /// The approach's own settings (`Spec::config.settings`: k8s-lease's `renew_deadline_ms`,
    /// consul's `lock_delay_ms`), those the scenario writes, beside the common fields in the
    /// JSON. Absent ones take their `Setting`'s default.
    #[serde(flatten)]
    pub own: Settings,
}

impl LockConfig {
    /// The defaults on `approach` (its TTL is the approach's: docs/SCENARIO_FORMAT.md, "Fields").
    pub fn for_approach(approach: super::Approach) -> LockConfig {
        LockConfig { ttl_ms: approach.spec().config.default_ttl_ms, ..LockConfig::default() }
    }

    /// The value of the approach's own setting `setting`: the scenario's, else its default.
    pub fn get(&self, setting: &Setting) -> i64 {
        self.own.get(setting.name()).unwrap_or_else(|| setting.default())
    }

    /// The value of a yes-or-no setting (`Kind::Flag`).
    pub fn flag(&self, setting: &Setting) -> bool {
        self.get(setting) != 0
    }

    /// This configuration as client `overrides` sees it: its per-client fields
    /// (`ConfigRules::per_client`, docs/SCENARIO_FORMAT.md "Per-client settings") in place of
    /// the scenario's. `ttl_ms` is the one common field a client can set; the rest are settings.
    pub fn for_client(&self, overrides: &Settings) -> LockConfig {
        let mut l = self.clone();
        for (name, v) in overrides.iter() {
            if name == TTL {
                l.ttl_ms = v;
            } else {
                l.own.set(name, Some(v));
            }
        }
        l
    }
}

/// The one common `lock` field a client may set for itself (`clients[].lock.ttl_ms`).
pub const TTL: &str = "ttl_ms";

impl Default for LockConfig {
    fn default() -> Self {
        LockConfig {
            ttl_ms: default_ttl(),
            servers: None,
            safe_unlock: true,
            replica: false,
            persistence: Persistence::default(),
            drift_factor: default_drift_factor(),
            retry_ms: default_retry(),
            request_timeout_ms: default_request_timeout(),
            tick_ms: default_tick(),
            own: Settings::default(),
        }
    }
}

fn default_ttl() -> i64 {
    10_000
}
fn default_drift_factor() -> f64 {
    0.01
}
fn default_retry() -> [i64; 2] {
    [100, 300]
}
fn default_request_timeout() -> i64 {
    50
}
/// A stock ZooKeeper's tickTime.
fn default_tick() -> i64 {
    2000
}
fn is_default_tick(v: &i64) -> bool {
    *v == default_tick()
}

/// The approach settings a scenario writes, by name (sorted, so equal settings compare and
/// serialize alike whatever order the file had).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings(Vec<(&'static str, i64)>);

impl Settings {
    /// The value written for the setting called `name`, if any.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// Writes (`Some`) or removes (`None`) the setting called `name`.
    pub fn set(&mut self, name: &'static str, value: Option<i64>) {
        self.0.retain(|(n, _)| *n != name);
        if let Some(v) = value {
            let at = self.0.partition_point(|(n, _)| *n < name);
            self.0.insert(at, (name, v));
        }
    }

    /// Every written setting, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, i64)> + '_ {
        self.0.iter().copied()
    }
}

impl Settings {
    /// Whether it writes nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One written value as the JSON writes it: a number, `true`/`false`, or a name (the setting's
/// `Kind` says which; `ttl_ms` in a client's overrides is a number).
struct Written(&'static str, i64);

impl Serialize for Written {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match setting_by_name(self.0).map(|x| x.kind) {
            Some(Kind::Flag) => s.serialize_bool(self.1 != 0),
            Some(Kind::Named(names)) => s.serialize_str(names.get(self.1 as usize).copied().unwrap_or("")),
            Some(Kind::Number) | None => s.serialize_i64(self.1),
        }
    }
}

impl Serialize for Settings {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|&(n, v)| (n, Written(n, v))))
    }
}

/// Every approach's own setting names: what the `lock` section may hold beyond the common
/// fields (validation then refuses a setting the scenario's approach does not have). A name
/// two approaches share is listed once.
pub fn setting_names() -> impl Iterator<Item = &'static str> {
    let mut names: Vec<&'static str> =
        super::Approach::ALL.into_iter().flat_map(|a| a.spec().config.settings.iter().map(Setting::name)).collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter()
}

/// The setting called `name` (the first approach's that has it: a name two approaches share
/// has one kind, which a test holds them to).
pub fn setting_by_name(name: &str) -> Option<&'static Setting> {
    super::Approach::ALL.into_iter().flat_map(|a| a.spec().config.settings.iter()).find(|x| x.name() == name)
}

/// Every field any approach lets a client set for itself (`clients[].lock`): what the reader
/// accepts there (validation then refuses those the scenario's approach does not allow).
pub fn per_client_names() -> impl Iterator<Item = &'static str> {
    let mut names: Vec<&'static str> = super::Approach::ALL.into_iter().flat_map(|a| a.spec().config.per_client.iter().copied()).collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter()
}

/// The common fields of `lock`, in the format's order.
pub const COMMON_FIELDS: [&str; 9] =
    ["ttl_ms", "servers", "safe_unlock", "replica", "persistence", "drift_factor", "retry_ms", "request_timeout_ms", "tick_ms"];

/// What serde's derive would write for `LockConfig` with `deny_unknown_fields` if its settings
/// were fields: the same errors at the same paths, so tests/error_paths.rs keeps checking the
/// hand-written reader (scenario/read.rs) against serde.
#[cfg(not(target_arch = "wasm32"))]
mod de {
    use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, Visitor};
    use serde::Deserialize;

    use super::{setting_names, LockConfig, COMMON_FIELDS};

    /// A key of `lock`: one of its fields, as a static name.
    struct Key;

    impl<'de> DeserializeSeed<'de> for Key {
        type Value = &'static str;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'static str, D::Error> {
            d.deserialize_identifier(self)
        }
    }

    impl Visitor<'_> for Key {
        type Value = &'static str;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("field identifier")
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<&'static str, E> {
            COMMON_FIELDS.into_iter().chain(setting_names()).find(|n| *n == v).ok_or_else(|| E::custom(format!("unknown field `{v}`")))
        }
    }

    struct Lock;

    impl<'de> Visitor<'de> for Lock {
        type Value = LockConfig;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("struct LockConfig")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LockConfig, A::Error> {
            let mut c = LockConfig::default();
            let mut seen: Vec<&str> = Vec::new();
            while let Some(key) = map.next_key_seed(Key)? {
                if seen.contains(&key) {
                    return Err(A::Error::custom(format!("duplicate field `{key}`")));
                }
                seen.push(key);
                match key {
                    "ttl_ms" => c.ttl_ms = map.next_value()?,
                    "servers" => c.servers = map.next_value()?,
                    "safe_unlock" => c.safe_unlock = map.next_value()?,
                    "replica" => c.replica = map.next_value()?,
                    "persistence" => c.persistence = map.next_value()?,
                    "drift_factor" => c.drift_factor = map.next_value()?,
                    "retry_ms" => c.retry_ms = map.next_value()?,
                    "request_timeout_ms" => c.request_timeout_ms = map.next_value()?,
                    "tick_ms" => c.tick_ms = map.next_value()?,
                    setting => {
                        let value = map.next_value_seed(super::Typed(setting))?;
                        c.own.set(setting, value);
                    }
                }
            }
            Ok(c)
        }
    }

    impl<'de> Deserialize<'de> for LockConfig {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LockConfig, D::Error> {
            d.deserialize_map(Lock)
        }
    }

    impl<'de> DeserializeSeed<'de> for super::Typed {
        type Value = Option<i64>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<i64>, D::Error> {
            match super::setting_by_name(self.0).map(|x| x.kind) {
                Some(super::Kind::Flag) => Ok(Option::<bool>::deserialize(d)?.map(i64::from)),
                Some(super::Kind::Named(names)) => match Option::<String>::deserialize(d)? {
                    None => Ok(None),
                    Some(v) => names.iter().position(|n| *n == v).map(|i| Some(i as i64)).ok_or_else(|| {
                        let all: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                        D::Error::custom(format!("unknown variant `{v}`, expected one of {}", all.join(", ")))
                    }),
                },
                Some(super::Kind::Number) | None => Option::<i64>::deserialize(d),
            }
        }
    }

    /// A client's `lock` overrides, as serde's derive would read a map of them.
    struct Overrides;

    impl<'de> Visitor<'de> for Overrides {
        type Value = super::Settings;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("struct ClientLock")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<super::Settings, A::Error> {
            let mut out = super::Settings::default();
            let mut seen: Vec<&str> = Vec::new();
            while let Some(key) = map.next_key_seed(ClientKey)? {
                if seen.contains(&key) {
                    return Err(A::Error::custom(format!("duplicate field `{key}`")));
                }
                seen.push(key);
                let value = map.next_value_seed(super::Typed(key))?;
                out.set(key, value);
            }
            Ok(out)
        }
    }

    /// A key of a client's `lock`: `ttl_ms` or a per-client setting.
    struct ClientKey;

    impl<'de> DeserializeSeed<'de> for ClientKey {
        type Value = &'static str;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'static str, D::Error> {
            d.deserialize_identifier(self)
        }
    }

    impl Visitor<'_> for ClientKey {
        type Value = &'static str;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("field identifier")
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<&'static str, E> {
            super::per_client_names().find(|n| *n == v).ok_or_else(|| E::custom(format!("unknown field `{v}`")))
        }
    }

    impl<'de> Deserialize<'de> for super::Settings {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<super::Settings, D::Error> {
            d.deserialize_map(Overrides)
        }
    }
}

/// Reads the value of the setting called `.0` as its `Kind` writes it (serde's side: `de`).
#[cfg(not(target_arch = "wasm32"))]
struct Typed(&'static str);

/// What a Redis server writes to disk (docs/SCENARIO_FORMAT.md, "Semantics", Crashes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))] // see scenario::format
#[serde(rename_all = "kebab-case")]
pub enum Persistence {
    /// Nothing survives a restart.
    None,
    /// AOF, fsync once a second: a process crash keeps everything acknowledged, a machine
    /// crash loses what was written since the last fsync.
    #[default]
    AofEverysec,
    /// AOF, fsync before every reply: everything survives.
    AofAlways,
}

/// One `lock` setting of an approach's own (k8s-lease's `renew_deadline_ms`): a number field
/// described with the very `Param` the fault kinds use (its name, unit, bounds, and its value
/// when absent as `Need::Default`), and why it is there, in a sentence for the docs' table.
pub struct Setting {
    param: Param,
    why: &'static str,
    kind: Kind,
}

/// How a setting is written in the JSON. Every setting is held as a whole number (its `Param`'s
/// `Ty::Number`, so bounds, defaults and the form work alike); a flag is 0 or 1 and a named
/// value is its index, but the file writes `true`/`false` or the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Number,
    /// `true` or `false`.
    Flag,
    /// One of these names (a server version: `"3.4.3"`).
    Named(&'static [&'static str]),
}

impl Setting {
    /// A number of milliseconds in `lo..=hi`, `default` when absent.
    pub const fn ms(name: &'static str, lo: i64, hi: i64, default: i64, label: &'static str, why: &'static str) -> Setting {
        Setting::count(name, lo, hi, default, "ms", label, why)
    }

    /// A count of `unit` (say "probes") in `lo..=hi`, `default` when absent.
    pub const fn count(
        name: &'static str,
        lo: i64,
        hi: i64,
        default: i64,
        unit: &'static str,
        label: &'static str,
        why: &'static str,
    ) -> Setting {
        let n = Number { need: Need::Default(default), lo, hi, unit, draw: (lo, hi), toward: Toward::Low };
        Setting { param: Param { name, ty: Ty::Number(n), form: Some(label) }, why, kind: Kind::Number }
    }

    /// A yes-or-no setting, `default` when absent (held as 0 or 1).
    pub const fn flag(name: &'static str, default: bool, label: &'static str, why: &'static str) -> Setting {
        let mut x = Setting::count(name, 0, 1, default as i64, "", label, why);
        x.kind = Kind::Flag;
        x
    }

    /// One of `names`, `names[default]` when absent (held as its index).
    pub const fn named(
        name: &'static str,
        names: &'static [&'static str],
        default: usize,
        label: &'static str,
        why: &'static str,
    ) -> Setting {
        let mut x = Setting::count(name, 0, names.len() as i64 - 1, default as i64, "", label, why);
        x.kind = Kind::Named(names);
        x
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// A value as the file writes it: `12000`, `true`, `"3.4.3"` (for the docs and the form).
    pub fn show(&self, v: i64) -> String {
        match self.kind {
            Kind::Number => v.to_string(),
            Kind::Flag => (v != 0).to_string(),
            Kind::Named(names) => names.get(v as usize).copied().unwrap_or("?").to_string(),
        }
    }

    /// A value from the form's text (`"true"`, `"3.4.3"`, `"12000"`), or what is wrong with it.
    pub fn parse(&self, text: &str) -> Result<i64, String> {
        let t = text.trim();
        match self.kind {
            Kind::Number => t.parse().map_err(|_| format!("\"{text}\" is not a whole number")),
            Kind::Flag => match t {
                "true" => Ok(1),
                "false" => Ok(0),
                _ => Err(format!("\"{text}\" is not true or false")),
            },
            Kind::Named(names) => {
                names.iter().position(|n| *n == t).map(|i| i as i64).ok_or_else(|| format!("\"{text}\" is not one of {}", names.join(", ")))
            }
        }
    }

    pub fn name(&self) -> &'static str {
        self.param.name
    }

    pub fn param(&self) -> &Param {
        &self.param
    }

    /// Why the approach has it, for the docs' table.
    pub fn why(&self) -> &'static str {
        self.why
    }

    /// Its number's description (every setting is a number).
    pub fn number(&self) -> Number {
        self.param.number().expect("an approach's setting is a number")
    }

    /// Its value when the scenario does not write it.
    pub fn default(&self) -> i64 {
        match self.number().need {
            Need::Default(v) => v,
            Need::Required | Need::Optional { .. } => unreachable!("`Setting::ms` gives every setting a default"),
        }
    }
}
