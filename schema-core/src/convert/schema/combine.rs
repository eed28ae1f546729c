//! How two `allOf` parts' values of one keyword combine ([`merge_keyword`]), written once: the
//! model's merge (`merge.rs`) and the lowering's (`dialect::merge_parts`) both use it.

use crate::convert::required_names;
use serde_json::{json, Value};

/// The branches of `m` where it is an `anyOf` alone (a `not` of either, made by an earlier merge).
fn either(m: &mut serde_json::Map<String, Value>) -> Option<&mut Vec<Value>> {
    if m.len() != 1 {
        return None;
    }
    match m.get_mut("anyOf") {
        Some(Value::Array(list)) => Some(list),
        _ => None,
    }
}

/// Why two `allOf` parts' values of one keyword cannot be combined.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conflict {
    /// The parts allow no value in common (incompatible types, enums without a common value).
    Malformed(String),
    /// The combination exists but is not one keyword (two different unions).
    Unsupported(String),
}

/// Combines the value `new` of keyword `k` from a later `allOf` part into `old`, the value of
/// an earlier part, as `allOf` means it: types intersect (`integer` within `number`), enums
/// intersect, two different `const`s conflict, `additionalProperties: false` and
/// `uniqueItems: true` win, two `not`s become one `not` of either, two patterns one pattern of
/// two lookaheads,
/// `dependentRequired` joins the names each property needs, a lower
/// bound takes the larger value and an
/// upper bound the smaller, two unions of `required` clauses join (both must hold), and any
/// other keyword (annotations included) keeps the earlier value.
pub(crate) fn merge_keyword(k: &str, old: &mut Value, new: Value) -> Result<(), Conflict> {
    match k {
        "type" => {
            let set = |t: &Value| -> Vec<Value> {
                match t {
                    Value::Array(a) => a.clone(),
                    other => vec![other.clone()],
                }
            };
            let (x, y) = (set(old), set(&new));
            let both: Vec<Value> = x
                .iter()
                .filter(|t| {
                    y.contains(t) || (t.as_str() == Some("integer") && y.contains(&json!("number")))
                })
                .cloned()
                .chain(
                    y.iter()
                        .filter(|t| t.as_str() == Some("integer") && x.contains(&json!("number")))
                        .cloned(),
                )
                .collect();
            match both.len() {
                0 => {
                    return Err(Conflict::Malformed(format!(
                        "`allOf` of incompatible types {old} and {new}"
                    )))
                }
                1 => *old = both[0].clone(),
                _ => *old = Value::Array(both),
            }
        }
        "enum" => {
            if let (Value::Array(oe), Value::Array(ne)) = (&mut *old, &new) {
                // (`old` stays as it was on a conflict)
                if !oe.iter().any(|x| ne.contains(x)) {
                    return Err(Conflict::Malformed(
                        "`allOf` of enums with no value in common".into(),
                    ));
                }
                oe.retain(|x| ne.contains(x));
            }
        }
        "const" if *old != new => {
            return Err(Conflict::Malformed(format!(
                "`allOf` of different constants {old} and {new}"
            )))
        }
        "additionalProperties" if new == Value::Bool(false) => *old = new,
        // (neither part's value may pass: not (a or b))
        "not" if *old != new => match old.as_object_mut().and_then(either) {
            Some(list) => list.push(new),
            None => *old = json!({"anyOf": [old.take(), new]}),
        },
        "uniqueItems" if new == Value::Bool(true) => *old = new,
        // (both patterns must match somewhere: one pattern of two lookaheads from the start,
        // which the dialects that cannot compile a lookaround move into the description)
        "pattern" if *old != new => {
            let (Some(a), Some(b)) = (old.as_str(), new.as_str()) else {
                return Err(Conflict::Malformed("`pattern` that is not a string".into()));
            };
            // (a backreference would name the other pattern's group once they are one)
            let backreference = |p: &str| {
                (p.as_bytes().windows(2))
                    .any(|w| w[0] == b'\\' && matches!(w[1], b'1'..=b'9' | b'k'))
            };
            if backreference(a) || backreference(b) {
                return Err(Conflict::Unsupported(
                    "`allOf` of two patterns with backreferences cannot be one pattern".into(),
                ));
            }
            *old = Value::String(format!("^(?=[\\s\\S]*?(?:{a}))(?=[\\s\\S]*?(?:{b}))"));
        }
        "dependentRequired" => {
            // both parts' dependencies hold: the names each property needs joined
            if let (Value::Object(o), Value::Object(n)) = (&mut *old, new) {
                for (k, names) in n {
                    match (o.get_mut(&k), names) {
                        (Some(Value::Array(have)), Value::Array(names)) => {
                            for x in names {
                                if !have.contains(&x) {
                                    have.push(x);
                                }
                            }
                        }
                        (Some(_), _) => {}
                        (None, names) => {
                            o.insert(k, names);
                        }
                    }
                }
            }
        }
        "minimum" | "minLength" | "minItems" | "exclusiveMinimum" | "minProperties" => {
            if let (Some(x), Some(y)) = (old.as_f64(), new.as_f64()) {
                if y > x {
                    *old = new;
                }
            }
        }
        "maximum" | "maxLength" | "maxItems" | "exclusiveMaximum" | "maxProperties" => {
            if let (Some(x), Some(y)) = (old.as_f64(), new.as_f64()) {
                if y < x {
                    *old = new;
                }
            }
        }
        "anyOf" | "oneOf" => {
            let both_clauses = [&*old, &new].iter().all(|u| {
                u.as_array()
                    .is_some_and(|a| a.iter().all(|c| required_names(c).is_some()))
            });
            if both_clauses {
                // Two "exactly one of" groups: the note lists both.
                if let (Value::Array(oa), Value::Array(na)) = (&mut *old, new) {
                    oa.extend(na);
                }
            } else if *old != new {
                return Err(Conflict::Unsupported(format!(
                    "`allOf` of several `{k}` unions cannot be expressed as one schema"
                )));
            }
        }
        _ => {}
    }
    Ok(())
}
