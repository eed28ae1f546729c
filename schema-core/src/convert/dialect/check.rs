//! Checks on the input before any conversion: bounded JSON nesting, well-formed subschemas,
//! resolvable `$ref`s.

use super::{malformed, pointer, refs, MAX_DEPTH};
use crate::convert::{kind_of, ConvertError, ConvertErrorKind, SmallMap};
use serde_json::Value;

/// The deepest JSON nesting accepted (a schema level takes two or three JSON levels).
pub(super) const MAX_JSON_DEPTH: usize = 4 * MAX_DEPTH;

/// Rejects values nested deeper than [`MAX_JSON_DEPTH`], without recursion.
pub(crate) fn check_json_depth(root: &Value) -> Result<(), ConvertError> {
    // (only containers go on the stack; a container's scalars are as deep as its children,
    // so a non-empty container at the limit is too deep already)
    let container = |c: &&Value| c.is_object() || c.is_array();
    let mut stack: Vec<(&Value, usize)> = Vec::with_capacity(16);
    if container(&root) {
        stack.push((root, 0));
    }
    while let Some((v, depth)) = stack.pop() {
        let children = match v {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if depth > MAX_JSON_DEPTH || (depth == MAX_JSON_DEPTH && children > 0) {
            // Rebuild the pointer of this place: walk down again along the first deep path.
            return Err(ConvertError::new(
                deep_pointer(root),
                ConvertErrorKind::TooDeep(MAX_DEPTH),
            ));
        }
        match v {
            Value::Object(m) => stack.extend(m.values().filter(container).map(|c| (c, depth + 1))),
            Value::Array(a) => stack.extend(a.iter().filter(container).map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// The pointer of the place where nesting first exceeds the schema limit, following the deepest
/// branch (for the error message only).
pub(super) fn deep_pointer(root: &Value) -> String {
    let mut at = String::new();
    let mut v = root;
    for _ in 0..MAX_JSON_DEPTH {
        let next = match v {
            Value::Object(m) => m
                .iter()
                .find(|(_, c)| c.is_object() || c.is_array())
                .map(|(k, c)| (k.clone(), c)),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .find(|(_, c)| c.is_object() || c.is_array())
                .map(|(i, c)| (i.to_string(), c)),
            _ => None,
        };
        match next {
            Some((k, c)) => {
                at = pointer::push(&at, &k);
                v = c;
            }
            None => break,
        }
    }
    at
}

/// Checks that `value` is a well-formed schema: subschemas are objects or booleans, `$ref`s
/// resolve, nesting is bounded.
pub(super) fn check_structure(
    root: &Value,
    value: &Value,
    at: &str,
    depth: usize,
) -> Result<(), ConvertError> {
    if depth > MAX_DEPTH {
        return Err(ConvertError::new(at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
    }
    let map = match value {
        Value::Bool(_) => return Ok(()),
        Value::Object(m) => m,
        other => {
            return Err(malformed(
                at,
                format!("expected a schema, found {}", kind_of(other)),
            ))
        }
    };
    if let Some(r) = map.fget("$ref") {
        let r = r
            .as_str()
            .ok_or_else(|| malformed(at, "`$ref` must be a string".into()))?;
        refs::follow(root, r, at)?;
    }
    for (path, child, _) in refs::subschemas(map) {
        let mut p = at.to_string();
        for t in &path {
            p = pointer::push(&p, t);
        }
        check_structure(root, child, &p, depth + 1)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `leaf` inside `k` arrays: the leaf is at depth `k`.
    fn nest(k: usize, leaf: Value) -> Value {
        (0..k).fold(leaf, |v, _| Value::Array(vec![v]))
    }

    /// A value deeper than the limit is an error wherever it is, a scalar too; an empty
    /// container at the limit is not.
    #[test]
    fn json_depth_is_the_depth_of_every_value() {
        let max = MAX_JSON_DEPTH;
        assert!(check_json_depth(&nest(max, json!(1))).is_ok());
        assert!(check_json_depth(&nest(max + 1, json!(1))).is_err());
        assert!(check_json_depth(&nest(max, json!([]))).is_ok());
        assert!(check_json_depth(&nest(max, json!({}))).is_ok());
        assert!(check_json_depth(&nest(max, json!([1]))).is_err());
        assert!(check_json_depth(&nest(max, json!({"a": "b"}))).is_err());
        assert!(check_json_depth(&nest(max - 1, json!({"a": "b"}))).is_ok());
        assert!(check_json_depth(&json!("scalar")).is_ok());
    }
}
