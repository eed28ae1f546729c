//! OpenAPI 3.0's `nullable: true` in the model: beside a type (that type or null), and
//! beside a `$ref`, an `allOf` or a union of the schema's own, where it applies to the merged
//! shape as every dialect applies the flag after merging (the shape or null; a union gets one
//! more branch, [`null_schema`]).

use super::{Kind, Scalar, Schema};
use crate::convert::SmallMap;
use serde_json::{Map, Value};

/// OpenAPI 3.0: `nullable: true` beside a type is that type or null.
#[inline(never)]
pub(super) fn nullable_kind(kind: Kind, m: &Map<String, Value>, at: &str) -> Kind {
    if m.fget("nullable") == Some(&Value::Bool(true)) && kind != Kind::Scalar(Scalar::Null) {
        Kind::Union(vec![
            Schema::of(kind, at),
            Schema::of(Kind::Scalar(Scalar::Null), at),
        ])
    } else {
        kind
    }
}

/// OpenAPI 3.0: `nullable: true` beside a `$ref` or an `allOf` (with a `type`, an `enum` or a
/// `const` of its own or not: their own shape is read without the flag, and a type array's
/// `null` may merge away with the parts) is the merged shape or null, as the
/// dialects read it (they merge the parts, then apply the flag). Left alone beside a union or
/// a `not` of the schema's own (the flag would apply to all of it), and where the shape
/// allows null already; beside the one union of a target that is only a union (no shape,
/// no union of the schema's own), `{"type": "null"}` is one more branch of it.
#[inline(never)]
pub(super) fn nullable_beside_ref(s: &mut Schema, m: &Map<String, Value>, at: &str) {
    // (each case below needs the flag: looked up once, most schemas have none)
    if m.fget("nullable") != Some(&Value::Bool(true)) {
        return;
    }
    let applies =
        (m.fhas("$ref") || m.fhas("allOf")) && s.alternatives.is_empty() && s.not.is_none();
    let allows_null = match &s.kind {
        Kind::Any | Kind::Never | Kind::Scalar(Scalar::Null) => true,
        Kind::Union(members) => members.iter().any(|x| x.kind == Kind::Scalar(Scalar::Null)),
        Kind::Enum(values) => values.contains(&Value::Null),
        Kind::Const(c) => c.is_null(),
        _ => false,
    };
    // (beside the one union of a target that is only a union: null one more branch; a `type`,
    // `enum` or `const` of the schema's own no longer carries the flag, `parts` reads it
    // without: a merge that leaves the one union with them gets the branch too)
    let base = (m.fhas("$ref") || m.fhas("allOf"))
        && !["anyOf", "oneOf"].iter().any(|k| m.fhas(k))
        && s.not.is_none()
        && s.kind == Kind::Any;
    // (likewise beside the one union of the schema's own, `anyOf` or `oneOf`, with no type,
    // `enum`, `const`, `$ref` or `allOf`: `{"anyOf": [...], "nullable": true}` is the union
    // or null in every dialect)
    let own_union = m.fhas("anyOf") != m.fhas("oneOf")
        && !["$ref", "allOf"].iter().any(|k| m.fhas(k))
        && s.not.is_none()
        && s.kind == Kind::Any;
    if let ([union], true) = (s.alternatives.as_mut_slice(), base || own_union) {
        let null_branch = union.branches.iter().any(|b| {
            matches!(&b.kind, Kind::Any | Kind::Scalar(Scalar::Null))
                || matches!(&b.kind, Kind::Union(ms) if ms.iter().any(|x| x.kind == Kind::Scalar(Scalar::Null)))
        });
        if !null_branch {
            union.branches.push(null_schema(at));
        }
        return;
    }
    if applies && !allows_null {
        let kind = std::mem::replace(&mut s.kind, Kind::Any);
        s.kind = Kind::Union(vec![
            Schema::of(kind, at),
            Schema::of(Kind::Scalar(Scalar::Null), at),
        ]);
    }
}

/// `{"type": "null"}` at `at`: the branch the dialects add to a union made nullable.
pub(super) fn null_schema(at: &str) -> Schema {
    let mut null = Schema::of(Kind::Scalar(Scalar::Null), at);
    null.keywords
        .insert("type".into(), Value::String("null".into()));
    null.order.push(super::key("type"));
    null
}
