//! A root that is not an object, wrapped in an object with one required property, for the
//! dialects whose provider takes only an object at the root (OpenAI, Anthropic).
//!
//! The definitions (`$defs`, `definitions`) and `$schema` stay at the root, so the draft and
//! every `$ref` into the definitions keep their meaning; a `$ref` to any other place of the
//! input (`#`, `#/items`) is moved below the wrapper's property.

use crate::convert::pointer;
use crate::convert::MAX_DEPTH;
use serde_json::{json, Map, Value};

/// The rewritten document `body` as the property `key` of a closed object.
pub(super) fn wrap(body: &Value, key: &str) -> Value {
    let under = pointer::push("/properties", key);
    let mut inner = body.clone();
    let mut outer = Map::new();
    outer.insert("type".into(), "object".into());
    if let Value::Object(m) = &mut inner {
        for k in ["$schema", "$defs", "definitions"] {
            if let Some(v) = m.remove(k) {
                outer.insert(k.into(), v);
            }
        }
    }
    move_refs(&mut inner, &under, 0);
    for k in ["$defs", "definitions"] {
        if let Some(defs) = outer.get_mut(k) {
            move_refs(defs, &under, 0);
        }
    }
    outer.insert("properties".into(), json!({ key: inner }));
    outer.insert("required".into(), json!([key]));
    outer.insert("additionalProperties".into(), false.into());
    Value::Object(outer)
}

/// Every local `$ref` below `v` that names a place of the body (not a definition) moved
/// below `under`.
fn move_refs(v: &mut Value, under: &str, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(r) if k == "$ref" => {
                        if let Some(p) = r.strip_prefix('#') {
                            let kept = p.starts_with("/$defs/") || p.starts_with("/definitions/");
                            if !kept && (p.is_empty() || p.starts_with('/')) {
                                *r = format!("#{under}{p}");
                            }
                        }
                    }
                    _ => move_refs(x, under, depth + 1),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| move_refs(x, under, depth + 1)),
        _ => {}
    }
}
