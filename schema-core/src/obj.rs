//! Building JSON objects with little machine code.
//!
//! `serde_json`'s `json!({...})` and `Map::insert` are inlined where they are written: in a
//! release build each object literal becomes its own copy of the map's hashing and insertion
//! (and `json!` serializes each value through `to_value`). The schema renderer writes a few
//! hundred of them, so that inlined code was a large part of what the optimizer had to compile.
//! [`obj`] and [`put`] are single, non-inlined functions: a literal costs one call.

use serde_json::{Map, Value};

/// The object of `pairs`, in order; a later duplicate key replaces an earlier one's value (as
/// with `json!`). The values are taken out of the slice (left `null`).
#[inline(never)]
pub(crate) fn obj(pairs: &mut [(&str, Value)]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert((*k).to_string(), std::mem::take(v));
    }
    Value::Object(m)
}

/// `m.insert(key.to_string(), value)`, not inlined.
#[inline(never)]
pub(crate) fn put(m: &mut Map<String, Value>, key: &str, value: Value) {
    m.insert(key.to_string(), value);
}

#[cfg(test)]
mod tests {
    use super::{obj, put};
    use serde_json::{json, Map};

    #[test]
    fn builds_what_json_builds() {
        let built = obj(&mut [
            ("type", "array".into()),
            ("items", obj(&mut [("type", "string".into())])),
            ("minItems", 2.into()),
            ("type", "object".into()),
        ]);
        let expected = json!({"type": "object", "items": {"type": "string"}, "minItems": 2});
        assert_eq!(built, expected);
        // Key order is insertion order (`preserve_order`), the replaced key keeping its place.
        let keys: Vec<_> = built.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["type", "items", "minItems"]);
        let mut m = Map::new();
        put(&mut m, "a", 1.into());
        put(&mut m, "a", 2.into());
        assert_eq!(serde_json::Value::Object(m), json!({"a": 2}));
    }
}
