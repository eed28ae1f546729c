//! The forms the dialect walk reads, written by the lowering: a type array split, `null` in an
//! enum as the flag; why a schema cannot be written ([`NO_VALUE`], [`UNMERGED`], ...); and the
//! model's accessors the lowering shares.

use super::super::merge::has_type;
use super::super::{Array, Kind, Object, Scalar, Schema};
use super::{fail, R};
use crate::convert::{is_meta, type_branches, SmallMap};
use serde_json::Map;
use serde_json::Value;

/// A type array in the form the dialect walk reads: one type alone (`["string", "null"]`: the
/// type and `nullable: true`), or an `anyOf` of one branch per type, each with the keywords
/// that apply to it and the enum values of its type (a type no value of the enum has left out),
/// the annotations staying beside the union; a `nullable: true` of its own kept as the flag.
/// Unknown type names stay as written (the walk reports them).
pub(super) fn split_types(mut m: Map<String, Value>) -> Map<String, Value> {
    const NAMES: [&str; 7] = [
        "string", "number", "integer", "boolean", "object", "array", "null",
    ];
    let Some(Value::Array(types)) = m.fget("type") else {
        return m;
    };
    let mut names: Vec<&'static str> = Vec::with_capacity(types.len());
    for t in types {
        let Some(name) = NAMES.iter().copied().find(|n| t.as_str() == Some(*n)) else {
            return m;
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    // (a `nullable` of its own: read first, as the walk read it)
    let own = match m.fget("nullable") {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        // (not a flag: the walk reports it)
        Some(_) => return m,
    };
    if m.fhas("nullable") {
        m.remove("nullable");
    }
    let drop_null = names.len() > 1 && names.contains(&"null");
    names.retain(|n| !(drop_null && *n == "null"));
    let nullable = own || drop_null;
    if let [one] = names.as_slice() {
        if let Some(t) = m.fget_mut("type") {
            *t = Value::String(one.to_string());
        }
    } else {
        let branches = type_branches(&m, &names);
        m.retain(|k, _| is_meta(k));
        m.insert("anyOf".into(), Value::Array(branches));
    }
    if nullable {
        m.insert("nullable".into(), Value::Bool(true));
    }
    m
}

/// `null` among an enum's values (with others) as the dialect walk reads it: the values without
/// it, and the `nullable` flag.
pub(super) fn null_in_enum(mut m: Map<String, Value>) -> Map<String, Value> {
    let Some(Value::Array(values)) = m.fget_mut("enum") else {
        return m;
    };
    if values.len() < 2 || !values.contains(&Value::Null) {
        return m;
    }
    values.retain(|v| !v.is_null());
    match m.fget_mut("nullable") {
        Some(flag) => *flag = Value::Bool(true),
        None => {
            m.insert("nullable".into(), Value::Bool(true));
        }
    }
    m
}

/// Why a schema cannot be converted at all: an `enum` or a `const` none of whose values is of
/// the schema's `type`, beside a structural keyword of that type (`{"type": "array", "items":
/// .., "enum": ["a", "b"]}`): no value satisfies it. The conversion reports it as an error
/// (`dialect/model.rs`).
pub(crate) const NO_VALUE: &str = "no value of the `enum` or `const` is of the schema's `type`";

/// Why a schema cannot be converted at all: two `allOf` parts give one place (a tuple position
/// and the rest of another part's list, say) schemas the normalizer could not merge into one
/// (no value fits both, or one is a union, a `not` or recursive), and the input writes no
/// `allOf` there to keep. The conversion reports it as an error (`dialect/model.rs`).
pub(crate) const UNMERGED: &str = "an intersection the normalizer made and could not merge";

/// [`OTHER_SHAPE`], or [`NO_VALUE`] where no value of the shape's `enum` or `const` is of the
/// schema's `type`.
pub(super) fn other_shape<T>(s: &Schema) -> R<T> {
    let values: &[Value] = match values_of(&s.kind) {
        Some(Kind::Enum(values)) => values,
        Some(Kind::Const(c)) => std::slice::from_ref(c),
        _ => return fail(s, OTHER_SHAPE),
    };
    let types: Vec<&str> = match s.keywords.fget("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let typed = |v: &Value| types.iter().any(|t| has_type(v, t));
    if !types.is_empty() && !values.iter().any(typed) {
        return fail(s, NO_VALUE);
    }
    fail(s, OTHER_SHAPE)
}

/// Why a structural keyword cannot be written: the model read the schema as another shape
/// (an `enum` beside `items`, say) and kept no value for it.
pub(super) const OTHER_SHAPE: &str = "a structural keyword beside a shape of another kind";

/// Whether the schema's shape is a type or null because of `nullable: true` (not a type array).
pub(super) fn from_nullable(s: &Schema) -> bool {
    matches!(&s.kind, Kind::Union(members)
        if members.len() == 2
            && members[1].kind == Kind::Scalar(Scalar::Null)
            && !s.keywords.fget("type").is_some_and(Value::is_array))
}

/// Why an opaque keyword's reference target cannot be written: its place is below a value
/// that is not an object.
pub(super) const OPAQUE_REF: &str = "a `$ref` inside a keyword the model does not read";

/// The `$ref` strings anywhere in a JSON value (its nesting is bounded by the input checks).
pub(super) fn refs_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.fget("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|x| refs_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out)),
        _ => {}
    }
}

/// Whether a JSON value holds a `$ref` anywhere (its nesting is bounded by the input checks).
pub(super) fn has_ref(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.fhas("$ref") || m.values().any(has_ref),
        Value::Array(a) => a.iter().any(has_ref),
        _ => false,
    }
}

/// The object of a shape (an object, or the object member of a type array's union).
pub(super) fn object_of(kind: &Kind) -> Option<&Object> {
    match kind {
        Kind::Object(o) => Some(o),
        Kind::Union(members) => members.iter().find_map(|m| match &m.kind {
            Kind::Object(o) => Some(o),
            _ => None,
        }),
        _ => None,
    }
}

/// The values of a shape (an `enum` or a `const`, or one made nullable).
pub(super) fn values_of(kind: &Kind) -> Option<&Kind> {
    match kind {
        Kind::Enum(_) | Kind::Const(_) => Some(kind),
        Kind::Union(members) => members
            .iter()
            .map(|m| &m.kind)
            .find(|k| matches!(k, Kind::Enum(_) | Kind::Const(_))),
        _ => None,
    }
}

/// The array of a shape (an array, or the array member of a type array's union).
pub(super) fn array_of(kind: &Kind) -> Option<&Array> {
    match kind {
        Kind::Array(a) => Some(a),
        Kind::Union(members) => members.iter().find_map(|m| match &m.kind {
            Kind::Array(a) => Some(a),
            _ => None,
        }),
        _ => None,
    }
}
