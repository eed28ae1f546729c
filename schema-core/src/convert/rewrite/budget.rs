//! A plan for a schema over a provider's per-request budget of optional properties
//! (Anthropic's 24): optional properties made required and nullable, the last ones in the
//! document's order first, until the count fits; their `null` reads back as absent.
//!
//! The converter counts optional properties in its output (an inlined definition once per
//! use), so [`super::convert`] asks for as many as the output has too many, converts again,
//! and asks for more while the count is still over, a few times at most. A property that
//! takes `null` already stays optional (its `null` would not read back as absent).

use crate::convert::pointer;
use crate::convert::MAX_DEPTH;
use serde_json::{json, Map, Value};

/// Keywords whose values are not schemas (their objects are data).
const DATA: &[&str] = &["enum", "const", "default", "examples", "required", "type"];

/// `doc` with the last `n` optional properties (that do not take `null`) required and
/// nullable; the places moved (the property's schema below its new `anyOf`) and the
/// properties, as (object pointer, name).
pub(super) fn nullable_optionals(
    doc: &Value,
    n: usize,
) -> (Value, Vec<(String, String)>, Vec<(String, String)>) {
    let mut found = Vec::new();
    optionals(doc, doc, "", &mut found, 0);
    let chosen: Vec<(String, String)> = found.split_off(found.len().saturating_sub(n));
    let mut out = doc.clone();
    let mut moves = Vec::with_capacity(chosen.len());
    for (at, name) in &chosen {
        let Some(Value::Object(o)) = out.pointer_mut(at) else {
            continue;
        };
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            if let Some(s) = props.get_mut(name) {
                let inner = std::mem::take(s);
                *s = json!({"anyOf": [inner, {"type": "null"}]});
            }
        }
        let req = o.entry("required").or_insert_with(|| json!([]));
        if let Value::Array(r) = req {
            r.push(Value::String(name.clone()));
        }
        let p = pointer::push_all(at, &["properties", name]);
        moves.push((pointer::push_all(&p, &["anyOf", "0"]), p));
    }
    (out, chosen, moves)
}

/// How many optional properties (that do not take `null`) `doc` writes.
pub(super) fn count(doc: &Value) -> usize {
    let mut found = Vec::new();
    optionals(doc, doc, "", &mut found, 0);
    found.len()
}

/// The optional properties below `v`, in document order.
fn optionals(root: &Value, v: &Value, at: &str, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                let required = required(m);
                for (name, s) in props {
                    if !required.contains(&name.as_str())
                        && !super::shapes::accepts_null(root, s, 0)
                    {
                        out.push((at.to_string(), name.clone()));
                    }
                }
            }
            for (k, x) in m {
                if !DATA.contains(&k.as_str()) {
                    optionals(root, x, &pointer::push(at, k), out, depth + 1);
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                optionals(root, x, &pointer::push_index(at, i), out, depth + 1);
            }
        }
        _ => {}
    }
}

fn required(m: &Map<String, Value>) -> Vec<&str> {
    match m.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
