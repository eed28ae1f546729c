//! The constraint notes of one schema (`int 0-100`, `max 10 chars`, `pattern /re/`,
//! `default X`, ...), written from its typed constraints (checked by the normalizer) and its
//! `default` / `deprecated` annotations; width bounds and width formats that only restate the
//! type are left out.

use super::print::shorten;
use super::TsOptions;
use crate::convert::schema::{Constraints, Schema};
use crate::convert::SmallMap;
use serde_json::{Number, Value};

pub(super) fn notes(s: &Schema, opts: &TsOptions) -> Vec<String> {
    let mut out = Vec::new();
    if !opts.include_constraints {
        return out;
    }
    let c = &s.constraints;
    let is_int = c.integer;
    if is_int {
        out.push("int".to_string());
    }
    if let Some(n) = range(c.min_length, c.max_length, "char", "chars") {
        out.push(n);
    }
    if let Some(p) = &c.pattern {
        out.push(format!("pattern /{p}/"));
    }
    if let Some(f) = &c.format {
        // `float`/`double` on a number and `int32`/`int64` on an integer restate the type
        // (OpenAPI's width formats, like the width bounds below): noise
        let restates = match f.as_str() {
            "float" | "double" => c.number,
            "int32" | "int64" => is_int,
            _ => false,
        };
        if !restates {
            out.push(format!("format {f}"));
        }
    }
    let b = bounds(c);
    match (out.last_mut(), b.split_first()) {
        // `int 0-100`: a bound reads as part of the integer note
        (Some(int), Some((first, rest))) if int == "int" => {
            int.push(' ');
            int.push_str(first);
            out.extend(rest.iter().cloned());
        }
        _ => out.extend(b),
    }
    if let Some(n) = &c.multiple_of {
        out.push(format!("multiple of {n}"));
    }
    // (a closed tuple's counts that restate its length were dropped by the normalizer)
    if let Some(n) = range(c.min_items, c.max_items, "item", "items") {
        out.push(n);
    }
    if c.unique_items {
        out.push("unique".to_string());
    }
    if let Some(n) = range(c.min_properties, c.max_properties, "key", "keys") {
        out.push(n);
    }
    if let Some(p) = &c.key_pattern {
        out.push(format!("keys /{p}/"));
    }
    for (k, names) in &c.dependent_required {
        out.push(format!("{k} needs {}", names.join("+")));
    }
    if let Some(d) = s.keywords.fget("default") {
        // every default is kept; only a caller's cap shortens a long one
        let text = match opts.max_description_len {
            Some(max) => shorten(d.to_string(), max),
            None => d.to_string(),
        };
        out.push(format!("default {text}"));
    }
    if s.keywords.fget("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".to_string());
    }
    out
}

/// `max 5 items`, `min 1 item`, `3 items`, `1-30 chars`.
fn range(min: Option<u64>, max: Option<u64>, one: &str, many: &str) -> Option<String> {
    let unit = |n: u64| if n == 1 { one } else { many };
    match (min, max) {
        (Some(0), None) | (None, None) => None,
        (Some(a), Some(b)) if a == b => Some(format!("{a} {}", unit(a))),
        (Some(0), Some(b)) | (None, Some(b)) => Some(format!("max {b} {}", unit(b))),
        (Some(a), None) => Some(format!("min {a} {}", unit(a))),
        (Some(a), Some(b)) => Some(format!("{a}-{b} {many}")),
    }
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
fn width_limit(n: &Number) -> bool {
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

/// `>=0`, `<=100`, `0-100`, `>0`, `<1`; for an integer, a bound that only restates a wide type
/// ([`WIDTH_LIMITS`]) is left out.
fn bounds(c: &Constraints) -> Vec<String> {
    let keep = |n: &Option<Number>| -> Option<Number> {
        n.as_ref()
            .filter(|n| !(c.integer && width_limit(n)))
            .cloned()
    };
    let (mut min, mut max) = (keep(&c.minimum), keep(&c.maximum));
    let (xmin, xmax) = (keep(&c.exclusive_minimum), keep(&c.exclusive_maximum));
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (&min, &max) {
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
    out
}
