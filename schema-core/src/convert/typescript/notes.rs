//! The constraint notes of one schema's keywords (`int 0-100`, `max 10 chars`, `pattern /re/`,
//! `default X`, ...), read while building each node; width bounds and width formats that only
//! restate the type are left out.

use super::build::{malformed, R};
use super::print::shorten;
use super::TsOptions;
use crate::convert::{kind_of, pointer, SmallMap};
use serde_json::{Map, Value};

pub(super) fn notes(m: &Map<String, Value>, ptr: &str, opts: &TsOptions) -> R<Vec<String>> {
    let mut out = Vec::new();
    if !opts.include_constraints {
        return Ok(out);
    }
    let is_int = match m.fget("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number")
        }
        _ => false,
    };
    if is_int {
        out.push("int".to_string());
    }
    if let Some(n) = range(m, ptr, "minLength", "maxLength", "char", "chars")? {
        out.push(n);
    }
    if let Some(p) = m.fget("pattern") {
        let Value::String(p) = p else {
            return malformed(&pointer::push(ptr, "pattern"), "expected a string");
        };
        out.push(format!("pattern /{p}/"));
    }
    if let Some(f) = m.fget("format") {
        let Value::String(f) = f else {
            return malformed(&pointer::push(ptr, "format"), "expected a string");
        };
        // `float`/`double` on a number and `int32`/`int64` on an integer restate the type
        // (OpenAPI's width formats, like the width bounds below): noise
        let restates = match f.as_str() {
            "float" | "double" => is_type(m, "number"),
            "int32" | "int64" => is_int,
            _ => false,
        };
        if !restates {
            out.push(format!("format {f}"));
        }
    }
    let b = bounds(m, ptr, is_int)?;
    match (out.last_mut(), b.split_first()) {
        // `int 0-100`: a bound reads as part of the integer note
        (Some(int), Some((first, rest))) if int == "int" => {
            int.push(' ');
            int.push_str(first);
            out.extend(rest.iter().cloned());
        }
        _ => out.extend(b),
    }
    if let Some(n) = m.fget("multipleOf") {
        let Value::Number(n) = n else {
            return malformed(&pointer::push(ptr, "multipleOf"), "expected a number");
        };
        out.push(format!("multiple of {n}"));
    }
    // (a closed tuple's counts that restate its length were dropped by the normalizer)
    if let Some(n) = range(m, ptr, "minItems", "maxItems", "item", "items")? {
        out.push(n);
    }
    if m.fget("uniqueItems") == Some(&Value::Bool(true)) {
        out.push("unique".to_string());
    }
    if let Some(n) = range(m, ptr, "minProperties", "maxProperties", "key", "keys")? {
        out.push(n);
    }
    if let Some(Value::Object(names)) = m.fget("propertyNames") {
        if let Some(Value::String(p)) = names.fget("pattern") {
            out.push(format!("keys /{p}/"));
        }
    }
    if let Some(dr) = m.fget("dependentRequired") {
        let Value::Object(dr) = dr else {
            return malformed(
                &pointer::push(ptr, "dependentRequired"),
                "expected an object",
            );
        };
        for (k, v) in dr {
            let names: Vec<&str> = match v {
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => {
                    return malformed(
                        &pointer::push(&pointer::push(ptr, "dependentRequired"), k),
                        "expected an array of names",
                    )
                }
            };
            out.push(format!("{k} needs {}", names.join("+")));
        }
    }
    if let Some(d) = m.fget("default") {
        // every default is kept; only a caller's cap shortens a long one
        let text = match opts.max_description_len {
            Some(max) => shorten(d.to_string(), max),
            None => d.to_string(),
        };
        out.push(format!("default {text}"));
    }
    if m.fget("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".to_string());
    }
    Ok(out)
}

/// Whether the schema's `type` is `t` (alone).
fn is_type(m: &Map<String, Value>, t: &str) -> bool {
    matches!(m.fget("type"), Some(Value::String(s)) if s == t)
}

fn count(m: &Map<String, Value>, ptr: &str, key: &str) -> R<Option<u64>> {
    match m.fget(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(u) = n.as_u64() {
                return Ok(Some(u));
            }
            match n.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => Ok(Some(f as u64)),
                _ => malformed(&pointer::push(ptr, key), "expected a non-negative integer"),
            }
        }
        Some(other) => malformed(
            &pointer::push(ptr, key),
            format!("expected a non-negative integer, found {}", kind_of(other)),
        ),
    }
}

/// `max 5 items`, `min 1 item`, `3 items`, `1-30 chars`.
fn range(
    m: &Map<String, Value>,
    ptr: &str,
    min_key: &str,
    max_key: &str,
    one: &str,
    many: &str,
) -> R<Option<String>> {
    let unit = |n: u64| if n == 1 { one } else { many };
    let (min, max) = (count(m, ptr, min_key)?, count(m, ptr, max_key)?);
    Ok(match (min, max) {
        (Some(0), None) | (None, None) => None,
        (Some(a), Some(b)) if a == b => Some(format!("{a} {}", unit(a))),
        (Some(0), Some(b)) | (None, Some(b)) => Some(format!("max {b} {}", unit(b))),
        (Some(a), None) => Some(format!("min {a} {}", unit(a))),
        (Some(a), Some(b)) => Some(format!("{a}-{b} {many}")),
    })
}

/// The limits of the integer types of 32 bits and more (and JavaScript's exact-integer range):
/// a bound equal to one of them only restates the width of the type a schema was written from
/// (a Rust `u32` gives `maximum: 4294967295`), so an integer's note leaves it out.
const WIDTH_LIMITS: [i128; 10] = [
    i32::MIN as i128,
    i32::MAX as i128,
    u32::MAX as i128,
    i64::MIN as i128,
    i64::MAX as i128,
    u64::MAX as i128,
    -(1 << 53),
    -(1 << 53) + 1,
    (1 << 53) - 1,
    1 << 53,
];

/// Whether `n` is one of the [`WIDTH_LIMITS`].
fn width_limit(n: &serde_json::Number) -> bool {
    let v = if let Some(i) = n.as_i64() {
        i128::from(i)
    } else if let Some(u) = n.as_u64() {
        i128::from(u)
    } else {
        match n.as_f64() {
            // (the f64 of u64::MAX is 2^64, which is what a float schema would say)
            Some(f) if f.fract() == 0.0 && f.abs() < 1e20 => f as i128,
            _ => return false,
        }
    };
    WIDTH_LIMITS.contains(&v) || (v == 1 << 64 && n.is_f64())
}

/// `>=0`, `<=100`, `0-100`, `>0`, `<1`; for an integer (`is_int`), a bound that only restates
/// a wide type ([`WIDTH_LIMITS`]) is left out.
fn bounds(m: &Map<String, Value>, ptr: &str, is_int: bool) -> R<Vec<String>> {
    let num = |key: &str| -> R<Option<&serde_json::Number>> {
        match m.fget(key) {
            None => Ok(None),
            Some(Value::Number(n)) if is_int && width_limit(n) => Ok(None),
            Some(Value::Number(n)) => Ok(Some(n)),
            // draft 4: exclusiveMinimum / exclusiveMaximum are booleans
            Some(Value::Bool(_)) if key.starts_with("exclusive") => Ok(None),
            Some(other) => malformed(
                &pointer::push(ptr, key),
                format!("expected a number, found {}", kind_of(other)),
            ),
        }
    };
    let draft4 = |key: &str| m.fget(key) == Some(&Value::Bool(true));
    let (mut min, mut max) = (num("minimum")?, num("maximum")?);
    let (mut xmin, mut xmax) = (num("exclusiveMinimum")?, num("exclusiveMaximum")?);
    if draft4("exclusiveMinimum") {
        xmin = min.take();
    }
    if draft4("exclusiveMaximum") {
        xmax = max.take();
    }
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (min, max) {
        if a.as_f64().is_some_and(|a| a >= 0.0) {
            out.push(format!("{a}-{b}"));
            min = None;
            max = None;
        }
    }
    if let Some(a) = min {
        out.push(format!(">={a}"));
    }
    if let Some(a) = xmin {
        out.push(format!(">{a}"));
    }
    if let Some(b) = max {
        out.push(format!("<={b}"));
    }
    if let Some(b) = xmax {
        out.push(format!("<{b}"));
    }
    Ok(out)
}
