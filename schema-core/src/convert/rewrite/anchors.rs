//! References by plain-name fragment (`"$ref": "#node"`) written as JSON pointers: the schema
//! that names itself so (`"id": "#node"` in draft 4, `"$id": "#node"` in drafts 6 and 7,
//! `"$anchor": "node"` from 2019-09) is found by a walk over the document, and each such
//! reference names its pointer instead. The conversion's resolvers read JSON pointers only;
//! this runs where one of them met a plain-name reference, so a document without them is not
//! walked.

use crate::convert::pointer;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Keywords whose values are data, not schemas: an `id` there names nothing.
const DATA: [&str; 4] = ["enum", "const", "default", "examples"];

/// `schema` with every `$ref` to a plain-name fragment that one schema of the document
/// declares written as that schema's JSON pointer, or `None` where no reference changed.
pub(super) fn resolved(schema: &Value) -> Option<Value> {
    let mut names: HashMap<String, Option<String>> = HashMap::new();
    let mut stack = vec![(schema, String::new())];
    while let Some((v, at)) = stack.pop() {
        match v {
            Value::Object(m) => {
                for name in declared(m) {
                    // (a name declared twice names neither)
                    names
                        .entry(name)
                        .and_modify(|p| *p = None)
                        .or_insert_with(|| Some(at.clone()));
                }
                for (k, x) in m.iter().filter(|(k, _)| !DATA.contains(&k.as_str())) {
                    stack.push((x, pointer::push(&at, k)));
                }
            }
            Value::Array(xs) => {
                for (i, x) in xs.iter().enumerate() {
                    stack.push((x, pointer::push_index(&at, i)));
                }
            }
            _ => {}
        }
    }
    let mut out = schema.clone();
    let mut changed = false;
    let mut stack = vec![&mut out];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get_mut("$ref") {
                    let target = plain_name(r).and_then(|n| names.get(n)).cloned().flatten();
                    if let Some(p) = target {
                        *r = format!("#{}", fragment(&p));
                        changed = true;
                    }
                }
                stack.extend(
                    (m.iter_mut())
                        .filter(|(k, _)| !DATA.contains(&k.as_str()))
                        .map(|(_, x)| x),
                );
            }
            Value::Array(xs) => stack.extend(xs.iter_mut()),
            _ => {}
        }
    }
    changed.then_some(out)
}

/// The JSON pointer `p` as a URI fragment: bytes outside the fragment's characters
/// percent-encoded.
fn fragment(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The plain names the schema object `m` declares for itself.
fn declared(m: &Map<String, Value>) -> impl Iterator<Item = String> + '_ {
    let ids = ["id", "$id"].into_iter().filter_map(|k| match m.get(k) {
        Some(Value::String(s)) => plain_name(s).map(str::to_string),
        _ => None,
    });
    let anchor = match m.get("$anchor") {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    ids.chain(anchor)
}

/// The name of a plain-name fragment (`#node`): not empty and not a JSON pointer.
fn plain_name(r: &str) -> Option<&str> {
    r.strip_prefix('#')
        .filter(|n| !n.is_empty() && !n.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::resolved;
    use serde_json::json;

    #[test]
    fn plain_names_become_pointers() {
        let s = json!({
            "definitions": {
                "a": {"id": "#gate", "type": "object"},
                "b": {"$anchor": "drive", "type": "string"},
                "c": {"$id": "#twice"}, "d": {"$id": "#twice"}
            },
            "properties": {
                "x": {"$ref": "#gate"}, "y": {"$ref": "#drive"}, "z": {"$ref": "#twice"},
                "w": {"$ref": "#/definitions/a"}, "v": {"const": {"id": "#gate"}}
            }
        });
        let out = resolved(&s).unwrap();
        assert_eq!(out["properties"]["x"]["$ref"], "#/definitions/a");
        assert_eq!(out["properties"]["y"]["$ref"], "#/definitions/b");
        // (declared twice: left as it is, the conversion's error names it)
        assert_eq!(out["properties"]["z"]["$ref"], "#twice");
        assert_eq!(out["properties"]["w"]["$ref"], "#/definitions/a");
        assert!(resolved(&json!({"properties": {"x": {"$ref": "#/a"}}})).is_none());
        let odd = json!({"definitions": {"a b%": {"$anchor": "n"}}, "items": {"$ref": "#n"}});
        assert_eq!(
            resolved(&odd).unwrap()["items"]["$ref"],
            "#/definitions/a%20b%25"
        );
    }
}
