//! Typed values out of parsed JSON, each error with its field path: an object with only its
//! known keys, whole numbers, strings, lists, one of a table's names. The scenario's reader
//! (read.rs), each fault kind's fields (fault/read.rs) and the lesson reader are built from these.

use serde_json::{Map, Value};

use super::error::ScenarioError;

pub(crate) type Read<T> = Result<T, ScenarioError>;

pub(crate) fn err<T>(path: &str, message: String) -> Read<T> {
    Err(ScenarioError { path: path.to_string(), message })
}

/// `path.key`, or `key` at the top.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A whole reader's error (`e.path` from the item's top) placed at `path`, where the item is.
pub(crate) fn under(path: &str, e: ScenarioError) -> ScenarioError {
    ScenarioError { path: if e.path.is_empty() { path.to_string() } else { join(path, &e.path) }, message: e.message }
}

/// What a JSON value is, for "invalid type" errors (never the value itself: no float printing).
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "floating point number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

pub(crate) fn invalid<T>(path: &str, v: &Value, expected: &str) -> Read<T> {
    err(path, format!("invalid type: {}, expected {expected}", kind(v)))
}

/// "`a`, `b` or `c`"
fn one_of(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// An object with only the `known` keys.
pub(crate) struct Object<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Object<'a> {
    pub(crate) fn new(v: &'a Value, path: &str, known: &[&str]) -> Read<Object<'a>> {
        let Value::Object(map) = v else { return invalid(path, v, "an object") };
        if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return err(&join(path, k), format!("unknown field `{k}`, expected one of {}", one_of(known)));
        }
        Ok(Object { map, path: path.to_string() })
    }

    /// A field that may be missing (and, like an optional field, may be null).
    pub(crate) fn opt<T>(&self, key: &str, read: impl Fn(&Value, &str) -> Read<T>) -> Read<Option<T>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => read(v, &join(&self.path, key)).map(Some),
        }
    }

    /// A field with a default when missing.
    pub(crate) fn or<T>(&self, key: &str, default: T, read: impl Fn(&Value, &str) -> Read<T>) -> Read<T> {
        match self.map.get(key) {
            None => Ok(default),
            Some(v) => read(v, &join(&self.path, key)),
        }
    }

    /// A field that must be there.
    pub(crate) fn req<T>(&self, key: &str, read: impl Fn(&Value, &str) -> Read<T>) -> Read<T> {
        match self.map.get(key) {
            None => err(&self.path, format!("missing field `{key}`")),
            Some(v) => read(v, &join(&self.path, key)),
        }
    }
}

/// A whole number written beyond what 64 bits hold (`99999999999999999999`): serde_json keeps it
/// as a float, but its author wrote an integer and should hear that it is out of range, not
/// that it is "a floating point number". `Some(true)`: too large; `Some(false)`: too small.
fn whole_beyond(v: &Value, lo: f64, hi: f64) -> Option<bool> {
    let f = v.as_f64().filter(|f| f.fract() == 0.0)?;
    (f >= hi || f < lo).then_some(f >= hi)
}

pub(crate) fn int(v: &Value, path: &str) -> Read<i64> {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    match (v.as_i64(), whole_beyond(v, -TWO_POW_63, TWO_POW_63)) {
        (Some(n), _) => Ok(n),
        (None, Some(true)) => err(path, "integer too large: must be at most 2^63 - 1".into()),
        (None, Some(false)) => err(path, "integer too small: must be at least -2^63".into()),
        (None, None) if v.is_u64() => err(path, "integer too large: must be at most 2^63 - 1".into()),
        (None, None) => invalid(path, v, "an integer"),
    }
}

pub(crate) fn uint(v: &Value, path: &str) -> Read<u64> {
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    match (v.as_u64(), whole_beyond(v, 0.0, TWO_POW_64)) {
        (Some(n), _) => Ok(n),
        (None, Some(true)) => err(path, format!("integer too large: must be at most {}", u64::MAX)),
        (None, _) if v.is_i64() || v.as_f64().is_some_and(|f| f.fract() == 0.0 && f < 0.0) => {
            err(path, "invalid value: a negative integer, expected an unsigned integer".into())
        }
        (None, _) => invalid(path, v, "an unsigned integer"),
    }
}

pub(crate) fn uint32(v: &Value, path: &str) -> Read<u32> {
    let n = uint(v, path)?;
    u32::try_from(n).or_else(|_| err(path, format!("{n} is too large: must be at most {}", u32::MAX)))
}

pub(crate) fn float(v: &Value, path: &str) -> Read<f64> {
    v.as_f64().map_or_else(|| invalid(path, v, "a number"), Ok)
}

pub(crate) fn boolean(v: &Value, path: &str) -> Read<bool> {
    v.as_bool().map_or_else(|| invalid(path, v, "a boolean"), Ok)
}

pub(crate) fn string(v: &Value, path: &str) -> Read<String> {
    v.as_str().map_or_else(|| invalid(path, v, "a string"), |s| Ok(s.to_string()))
}

pub(crate) fn list<T>(v: &Value, path: &str, read: impl Fn(&Value, &str) -> Read<T>) -> Read<Vec<T>> {
    let Value::Array(items) = v else { return invalid(path, v, "an array") };
    items.iter().enumerate().map(|(i, item)| read(item, &format!("{path}[{i}]"))).collect()
}

/// One of the names in `table`.
pub(crate) fn choice<T: Copy>(v: &Value, path: &str, table: &[(&str, T)]) -> Read<T> {
    let name = string(v, path)?;
    match table.iter().find(|(n, _)| *n == name) {
        Some(&(_, t)) => Ok(t),
        None => {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            err(path, format!("unknown variant `{name}`, expected one of {}", one_of(&names)))
        }
    }
}
