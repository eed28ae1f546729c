//! What the lowering reads a schema's shape by (its object, array or values, also as the
//! member of a type array's union), and why a structural keyword beside another shape cannot
//! be written ([`other_shape`]).

use super::*;

/// Why a structural keyword cannot be written: the model read the schema as another shape
/// (an `enum` beside `items`, say) and kept no value for it.
const OTHER_SHAPE: &str = "a structural keyword beside a shape of another kind";

/// Why a schema cannot be converted at all: an `enum` or a `const` none of whose values is of
/// the schema's `type`, beside a structural keyword of that type (`{"type": "array", "items":
/// .., "enum": ["a", "b"]}`): no value satisfies it. The conversion reports it as an error
/// (`dialect/model.rs`).
pub(crate) const NO_VALUE: &str = "no value of the `enum` or `const` is of the schema's `type`";

/// Why a schema cannot be converted at all: two `allOf` parts give one place (a tuple position
/// and the rest of another part's list, say) schemas the normalizer could not merge into one
/// (no value fits both, or one is a union, a `not` or recursive), and the input writes no
/// `allOf` there to keep. The conversion reports it as an error (`dialect/model.rs`).
pub(crate) const UNMERGED_PARTS: &str =
    "an intersection the normalizer made of two parts' schemas and could not merge";

/// [`OTHER_SHAPE`] for the schema `s` of shape `shape`, or [`NO_VALUE`] where it has an `enum`
/// or a `const` none of whose values (as the model keeps them) is of the schema's `type`.
pub(super) fn other_shape<T>(s: &Schema, shape: &Kind) -> R<T> {
    let values: &[Value] = match values_of(shape) {
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

/// The object of a shape (an object, or the object member of a type array's union).
pub(super) fn object_of(kind: &Kind) -> Option<&Object> {
    shape_of(kind, |k| match k {
        Kind::Object(o) => Some(o),
        _ => None,
    })
}

/// What `pick` finds in a shape, or in the first member of a type array's union it finds it in.
fn shape_of<'k, T>(kind: &'k Kind, pick: impl Fn(&'k Kind) -> Option<&'k T>) -> Option<&'k T> {
    match kind {
        Kind::Union(members) => members.iter().find_map(|m| pick(&m.kind)),
        k => pick(k),
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
    shape_of(kind, |k| match k {
        Kind::Array(a) => Some(a),
        _ => None,
    })
}
