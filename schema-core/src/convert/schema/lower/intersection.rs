//! An intersection the normalizer kept ([`Kind::All`]) read back into the parts the input
//! wrote, and a reference or an intersection the normalizer made nullable taken apart
//! ([`core()`]).

use super::*;

/// The parts of an intersection the normalizer kept ([`Kind::All`]: it could not merge them) as
/// the input wrote them: the schema's own shape (the part of its own keywords, which the
/// structural keywords are read from), the definition of its own `$ref`, and the parts of
/// its `allOf`, so that the schema is written back with its own keywords, its `$ref` and
/// its `allOf` as they were (the dialect walk reads those as it reads the input: a
/// recursive target's siblings dropped, the others merged into one schema). For any other
/// schema: its shape, no reference and no parts. A part the input did not write (an
/// intersection without an `allOf` left with more parts) is an error, never a part dropped.
pub(super) fn intersection<'s>(
    s: &'s Schema,
    kind: &'s Kind,
) -> R<(&'s Kind, Option<&'s usize>, &'s [Schema])> {
    let Kind::All(all) = kind else {
        return Ok((&s.kind, None, &[]));
    };
    let has = |k: &str| s.order.iter().any(|x| x == k);
    let mut rest = all.as_slice();
    let mut shape = &Kind::Any;
    // (the own shape: first, with no keyword order of its own, read at the schema's place)
    if let [own, tail @ ..] = rest {
        let own_shape = own.order.is_empty()
            && own.at == s.at
            && !matches!(
                own.kind,
                Kind::Ref(_) | Kind::All(_) | Kind::Any | Kind::Never
            )
            && own.alternatives.is_empty()
            && own.not.is_none();
        if own_shape {
            shape = &own.kind;
            rest = tail;
        }
    }
    let mut own_ref = None;
    if has("$ref") {
        if let [r, tail @ ..] = rest {
            if let Kind::Ref(id) = &r.kind {
                if r.order.is_empty() && r.at == s.at {
                    own_ref = Some(id);
                    rest = tail;
                }
            }
        }
    }
    if !rest.is_empty() && !has("allOf") {
        return fail(s, UNMERGED);
    }
    Ok((shape, own_ref, rest))
}

/// The schema's shape without the `nullable: true` the normalizer puts around a reference or
/// an intersection (`nullable::nullable_beside_ref`: a union of it, read at the schema's
/// place, and null; or read at the place of a definition the schema's own `$ref` names and
/// merged in, `{"$ref": C, "minimum": 0}` with `C` `{"$ref": A, "nullable": true}`: before,
/// the lowering wrote that without a reference, `{"nullable": true, "minimum": 0}`, and so lost
/// `A`; a type array or a `nullable` type never has a reference or an intersection as a
/// member).
pub(super) fn core(s: &Schema) -> &Kind {
    match &s.kind {
        Kind::Union(members)
            if members.len() == 2
                && members[1].kind == Kind::Scalar(Scalar::Null)
                && members[0].order.is_empty()
                && (members[0].at == s.at || s.order.iter().any(|k| k == "$ref"))
                && matches!(members[0].kind, Kind::Ref(_) | Kind::All(_)) =>
        {
            &members[0].kind
        }
        k => k,
    }
}

/// A reference or an intersection made nullable at another place (a definition the schema's
/// `$ref` names) and merged into the schema.
pub(super) const NULLABLE_ELSEWHERE: &str =
    "a nullable reference or intersection merged from another place";

/// An intersection the normalizer kept with a part the input's keywords do not write.
const UNMERGED: &str = "an intersection with a part the input did not write";
