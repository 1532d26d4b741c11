//! JSON text to a `serde_json::Value`, refusing an object that has the same key twice.
//! serde_json's own `Value` keeps the last one silently, so `{"ttl_ms": 1000, "ttl_ms": 30000}`
//! would run with 30 s while its author reads 1 s. The format makes a misspelt field an error;
//! a field written twice is the same kind of mistake, and serde's derived readers refuse it
//! too ("duplicate field `ttl_ms`"). serde_json adds the line and column, and the caller the
//! path of the object (`json_path`).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses `text` as serde_json does, but a repeated key is an error.
pub fn parse(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            let Strict(v) = map.next_value()?;
            fields.insert(key, v);
        }
        Ok(Value::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_what_serde_json_reads() {
        let text = r#"{"a": [1, -2, 3.5, "x", null, true, {"b": {}}], "c": 18446744073709551615}"#;
        assert_eq!(parse(text).unwrap(), serde_json::from_str::<serde_json::Value>(text).unwrap());
    }

    #[test]
    fn a_repeated_key_is_an_error_with_its_position() {
        let e = parse("{\n  \"lock\": {\"ttl_ms\": 1000,\n  \"ttl_ms\": 30000}\n}").unwrap_err();
        assert_eq!(e.to_string(), "duplicate field `ttl_ms` at line 3 column 10");
        // The same key in two objects is fine.
        assert!(parse(r#"[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]"#).is_ok());
    }
}
