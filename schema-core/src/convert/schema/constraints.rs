//! The constraint keywords of one schema, read and checked once into typed values
//! ([`Constraints`]), after the schema's parts were merged: a reader never looks a constraint up
//! in the keyword map or checks its JSON type again.

use super::Constraints;
use crate::convert::{kind_of, pointer, ConvertError, ConvertErrorKind, SmallMap};
use serde_json::{Map, Number, Value};

type R<T> = Result<T, ConvertError>;

fn malformed<T>(at: &str, msg: impl Into<String>) -> R<T> {
    Err(ConvertError::new(
        at,
        ConvertErrorKind::Malformed(msg.into()),
    ))
}

impl Constraints {
    /// Reads the constraint keywords of `m` (the keywords of the schema at `at`). A keyword of
    /// the wrong JSON type is an error naming its pointer; the keywords are read in the order
    /// the notes of a schema list them, so the first bad one is reported.
    pub(crate) fn read(m: &Map<String, Value>, at: &str) -> R<Constraints> {
        let mut c = Constraints::default();
        // (fast path: most schemas have no constraint at all)
        if m.is_empty() {
            return Ok(c);
        }
        match m.fget("type") {
            Some(Value::String(t)) => {
                c.integer = t == "integer";
                c.number = t == "number";
            }
            Some(Value::Array(ts)) => {
                c.integer = ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number");
            }
            _ => {}
        }
        // (fast path: no keyword read below, most often `type` and annotations only)
        if !m.keys().any(|k| {
            matches!(
                k.as_str(),
                "minLength"
                    | "maxLength"
                    | "pattern"
                    | "format"
                    | "minimum"
                    | "maximum"
                    | "exclusiveMinimum"
                    | "exclusiveMaximum"
                    | "multipleOf"
                    | "minItems"
                    | "maxItems"
                    | "uniqueItems"
                    | "minProperties"
                    | "maxProperties"
                    | "propertyNames"
                    | "dependentRequired"
            )
        }) {
            return Ok(c);
        }
        c.min_length = count(m, at, "minLength")?;
        c.max_length = count(m, at, "maxLength")?;
        c.pattern = string(m, at, "pattern")?;
        c.format = string(m, at, "format")?;
        c.minimum = number(m, at, "minimum")?;
        c.maximum = number(m, at, "maximum")?;
        c.exclusive_minimum = number(m, at, "exclusiveMinimum")?;
        c.exclusive_maximum = number(m, at, "exclusiveMaximum")?;
        // draft 4: `exclusiveMinimum: true` makes `minimum` exclusive
        if m.fget("exclusiveMinimum") == Some(&Value::Bool(true)) {
            c.exclusive_minimum = c.minimum.take();
        }
        if m.fget("exclusiveMaximum") == Some(&Value::Bool(true)) {
            c.exclusive_maximum = c.maximum.take();
        }
        if let Some(n) = m.fget("multipleOf") {
            let Value::Number(n) = n else {
                return malformed(&pointer::push(at, "multipleOf"), "expected a number");
            };
            c.multiple_of = Some(n.clone());
        }
        c.min_items = count(m, at, "minItems")?;
        c.max_items = count(m, at, "maxItems")?;
        c.unique_items = m.fget("uniqueItems") == Some(&Value::Bool(true));
        c.min_properties = count(m, at, "minProperties")?;
        c.max_properties = count(m, at, "maxProperties")?;
        if let Some(Value::Object(names)) = m.fget("propertyNames") {
            if let Some(Value::String(p)) = names.fget("pattern") {
                c.key_pattern = Some(p.clone());
            }
        }
        if let Some(dr) = m.fget("dependentRequired") {
            let Value::Object(dr) = dr else {
                return malformed(
                    &pointer::push(at, "dependentRequired"),
                    "expected an object",
                );
            };
            for (k, v) in dr {
                let names: Vec<String> = match v {
                    Value::Array(a) => a
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                    _ => {
                        return malformed(
                            &pointer::push(&pointer::push(at, "dependentRequired"), k),
                            "expected an array of names",
                        )
                    }
                };
                c.dependent_required.push((k.clone(), names));
            }
        }
        Ok(c)
    }
}

/// A count keyword (`minLength`, `maxItems`, ...): a non-negative integer (`5.0` too).
fn count(m: &Map<String, Value>, at: &str, key: &str) -> R<Option<u64>> {
    match m.fget(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(u) = n.as_u64() {
                return Ok(Some(u));
            }
            match n.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => Ok(Some(f as u64)),
                _ => malformed(&pointer::push(at, key), "expected a non-negative integer"),
            }
        }
        Some(other) => malformed(
            &pointer::push(at, key),
            format!("expected a non-negative integer, found {}", kind_of(other)),
        ),
    }
}

/// A string keyword (`pattern`, `format`).
fn string(m: &Map<String, Value>, at: &str, key: &str) -> R<Option<String>> {
    match m.fget(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => malformed(&pointer::push(at, key), "expected a string"),
    }
}

/// A numeric bound; draft 4's boolean `exclusiveMinimum` / `exclusiveMaximum` read as absent
/// here (see [`Constraints::read`]).
fn number(m: &Map<String, Value>, at: &str, key: &str) -> R<Option<Number>> {
    match m.fget(key) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(n.clone())),
        Some(Value::Bool(_)) if key.starts_with("exclusive") => Ok(None),
        Some(other) => malformed(
            &pointer::push(at, key),
            format!("expected a number, found {}", kind_of(other)),
        ),
    }
}
