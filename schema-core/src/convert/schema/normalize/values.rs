//! The helpers the normalizer reads one schema's values with: a list of subschemas, whether a
//! schema has a shape keyword, its `const` / `enum` (the values of its own type), a boolean
//! schema, its constraints.

use super::*;

pub(super) fn array<'v>(v: &'v Value, at: &str) -> R<&'v Vec<Value>> {
    match v {
        Value::Array(a) => Ok(a),
        other => malformed(at, format!("expected an array, found {}", kind_of(other))),
    }
}

/// A schema object with no shape keyword.
pub(super) fn shapeless(v: &Value) -> bool {
    match v {
        Value::Object(m) => !SHAPE_KEYWORDS.iter().any(|k| m.fhas(k)),
        _ => false,
    }
}

/// `const` or `enum`: the schema's shape is its values.
#[inline(never)]
pub(super) fn const_or_enum(m: &Map<String, Value>, at: &str) -> R<Option<Kind>> {
    if let Some(c) = m.fget("const") {
        return Ok(Some(Kind::Const(c.clone())));
    }
    if let Some(e) = m.fget("enum") {
        let Value::Array(values) = e else {
            return malformed(
                &pointer::push(at, "enum"),
                format!("expected an array, found {}", kind_of(e)),
            );
        };
        let mut values = values.clone();
        of_own_type(&mut values, m.fget("type"));
        return Ok(Some(Kind::Enum(values)));
    }
    Ok(None)
}

/// Keeps the values of an enum that are of the `type` beside it in the same schema (a name, or
/// any name of a type array): both keywords apply to the instance (JSON Schema validation,
/// 6.1.1 and 6.1.2), so `{"type": "object", "enum": ["a", {...}]}` allows the object only.
/// Left as written when no value is of the type (the schema then allows no value; how that is
/// written is left to the readers, as before) or when the type is not a name or a list of
/// names (the caller reports it).
fn of_own_type(values: &mut Vec<Value>, t: Option<&Value>) {
    match t {
        Some(Value::String(_)) => {}
        Some(Value::Array(ts)) if ts.iter().all(Value::is_string) => {}
        _ => return,
    }
    // (the names read in place: no list of them built)
    let fits = |v: &Value| match t {
        Some(Value::String(t)) => has_type(v, t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(|t| has_type(v, t)),
        _ => true,
    };
    if values.iter().any(fits) {
        values.retain(fits);
    }
}

/// A `type` that is neither a name nor a list of names.
#[inline(never)]
pub(super) fn bad_type<T>(t: &Value, at: &str) -> R<T> {
    malformed(
        &pointer::push(at, "type"),
        format!("expected a string or an array, found {}", kind_of(t)),
    )
}

/// A schema written as a boolean (`true` accepts everything, `false` nothing); anything else
/// that is not an object is malformed.
#[inline(never)]
pub(super) fn boolean_schema(v: &Value, at: &str) -> R<Schema> {
    match v {
        Value::Bool(true) => {
            let mut s = Schema::of(Kind::Any, at);
            s.everything = true;
            s.boolean = true;
            Ok(s)
        }
        Value::Bool(false) => Ok(Schema::of(Kind::Never, at)),
        other => malformed(
            at,
            format!(
                "expected a schema (an object or a boolean), found {}",
                kind_of(other)
            ),
        ),
    }
}

/// [`Constraints::read`] for a schema of shape `kind`. The counts of a
/// closed tuple that restate its length are left out (they stay in [`Schema::keywords`], which
/// the dialect output keeps).
#[inline(never)]
pub(crate) fn read_constraints(
    keywords: &Map<String, Value>,
    kind: &Kind,
    at: &str,
) -> R<Constraints> {
    let mut c = Constraints::read(keywords, at)?;
    // (a type array's members share the schema's keywords: `["array", "null"]`)
    let tuple = match kind {
        Kind::Union(members) => members.iter().find_map(|m| closed_tuple(&m.kind)),
        k => closed_tuple(k),
    };
    if let Some(n) = tuple {
        if c.min_items == Some(n) && c.max_items.is_none_or(|m| m == n) {
            c.min_items = None;
            c.max_items = None;
        }
    }
    Ok(c)
}

/// The length of a closed tuple.
pub(super) fn closed_tuple(kind: &Kind) -> Option<u64> {
    match kind {
        Kind::Array(Array {
            prefix: Some(p),
            closed: true,
            ..
        }) => Some(p.len() as u64),
        _ => None,
    }
}
