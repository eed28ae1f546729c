//! A `$ref` with siblings the walk over the input merged into its target, written merged:
//! OpenAPI's `nullable` beside a reference ([`Lower::nullable_target`]), an `enum` / `const`
//! of the schema's own beside a reference to an object ([`Lower::values_over_target`]), the
//! schema's own keywords over the target's ([`own_over`]); any other `$ref` beside keywords
//! where the walk inlines its target ([`Lower::ref_merged`]); a root `$ref` beside keywords
//! ([`Lower::root_ref`]).

use super::*;
use crate::convert::dialect::{part_over_target, target_copy};
use crate::convert::MAX_DEPTH;

impl<'d> Lower<'d> {
    /// OpenAPI's `nullable` beside a `$ref` (`kind`, the reference; `wrapped`: the normalizer
    /// made it nullable) with annotations only, to a non-recursive, unshared
    /// ([`Lower::shared`](super::Lower::shared)) definition of one plain shape (an object, an
    /// array, a scalar type other than null): the target written in
    /// place, the schema's own annotations over it and the flag, which is what the walk merges
    /// the input into (the reference and its siblings as an `allOf`; the model keeps the
    /// reference, which the TypeScript text prints by name or in place). `None` for any other
    /// schema.
    pub(super) fn nullable_target(
        &mut self,
        s: &'d Schema,
        kind: &Kind,
        wrapped: bool,
        p: &str,
    ) -> R<Option<Map<String, Value>>> {
        let Kind::Ref(id) = kind else {
            return Ok(None);
        };
        let def = self.doc.def(*id);
        let t = &def.schema;
        let plain = !def.recursive
            && !def.shared
            && t.alternatives.is_empty()
            && t.not.is_none()
            && !t.order.is_empty()
            && (matches!(t.kind, Kind::Object(_) | Kind::Array(_))
                || matches!(t.kind, Kind::Scalar(x) if x != Scalar::Null));
        let own = s.order.iter().any(|k| k == "nullable")
            && s.keywords.keys().all(|k| is_meta(k))
            && s.alternatives.is_empty()
            && s.not.is_none();
        if !(plain && own) {
            return Ok(None);
        }
        let Value::Object(mut m) = self.value(t, p)? else {
            return Ok(None);
        };
        own_over(&mut m, s, wrapped, None, None);
        Ok(Some(m))
    }

    /// An `enum` (or a `const`) of the schema's own beside its `$ref` to a non-recursive,
    /// unshared object definition (`shape`, `own_ref` and no other `parts`: an intersection the
    /// model keeps, as
    /// it has no object with values; `wrapped`: made nullable): the target written in place,
    /// the own keywords over it (an annotation of its own wins, a constraint combines, `type`
    /// intersects) and the values of the merged type, as the walk merges the input. `None`
    /// for any other schema, and where the types do not meet or no value is left (the walk
    /// reports it; the intersection is written as the input had it).
    pub(super) fn values_over_target(
        &mut self,
        s: &'d Schema,
        shape: &Kind,
        own_ref: Option<&usize>,
        parts: &[Schema],
        wrapped: bool,
        p: &str,
    ) -> R<Option<Map<String, Value>>> {
        if !matches!(shape, Kind::Enum(_) | Kind::Const(_)) {
            return Ok(None);
        }
        // (the own `$ref`, or an `allOf` of one bare reference)
        let id = match (own_ref, parts) {
            (Some(&id), []) => id,
            (None, [part])
                if part.order.len() == 1
                    && part.order[0] == "$ref"
                    && part.alternatives.is_empty()
                    && part.not.is_none() =>
            {
                match part.kind {
                    Kind::Ref(id) => id,
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let def = self.doc.def(id);
        let t = &def.schema;
        let structural = |k: &str| {
            matches!(
                k,
                "properties"
                    | "required"
                    | "additionalProperties"
                    | "patternProperties"
                    | "items"
                    | "prefixItems"
                    | "additionalItems"
                    | "anyOf"
                    | "oneOf"
                    | "not"
            )
        };
        let plain = !def.recursive
            && !def.shared
            && matches!(t.kind, Kind::Object(_))
            && t.alternatives.is_empty()
            && t.not.is_none()
            && !t.order.is_empty()
            && s.alternatives.is_empty()
            && s.not.is_none()
            && !s.order.iter().any(|k| structural(k));
        if !plain {
            return Ok(None);
        }
        // the merged type, and the values of it (of any type where none is named)
        let mut ty = t.keywords.fget("type").cloned();
        if let Some(own) = s.keywords.fget("type") {
            match &mut ty {
                Some(old) => {
                    if merge_keyword("type", old, own.clone()).is_err() {
                        return Ok(None);
                    }
                }
                None => ty = Some(own.clone()),
            }
        }
        let fits = |v: &Value| match &ty {
            Some(Value::String(t)) => has_type(v, t),
            _ => true,
        };
        let values = match shape {
            Kind::Enum(values) => {
                let kept: Vec<Value> = values.iter().filter(|v| fits(v)).cloned().collect();
                if kept.is_empty() {
                    return Ok(None);
                }
                Value::Array(kept)
            }
            Kind::Const(c) if fits(c) => c.clone(),
            _ => return Ok(None),
        };
        let Value::Object(mut m) = self.value(t, p)? else {
            return Ok(None);
        };
        own_over(&mut m, s, wrapped, Some(&values), ty.as_ref());
        Ok(Some(m))
    }
}

/// The keywords of `s` written over `m`, its `$ref` target's lowered keywords, as the walk
/// merges a `$ref`'s siblings into its target: each after the target's (one both have in the
/// target's place), an annotation of its own winning, a constraint combining
/// ([`merge_keyword`]; a conflict keeps the target's value, as the model reads it); `$ref`
/// and `allOf` left out, `nullable` as `wrapped` says, `enum` / `const` and `type` the merged
/// `values` and `ty` given (left out without).
fn own_over(
    m: &mut Map<String, Value>,
    s: &Schema,
    wrapped: bool,
    values: Option<&Value>,
    ty: Option<&Value>,
) {
    for k in &s.order {
        let given = |x: Option<&Value>| x.cloned();
        let v = match k.as_ref() {
            "$ref" | "allOf" => None,
            "enum" | "const" => given(values),
            "type" => given(ty),
            "nullable" => Some(Value::Bool(wrapped)),
            "description" => s.desc.clone().map(Value::String),
            // (the root's table, filled by `lower`)
            "$defs" | "definitions" => Some(Value::Object(Map::new())),
            other => given(s.keywords.fget(other)),
        };
        let Some(v) = v else { continue };
        let merged = !is_meta(k) && !matches!(k.as_ref(), "type" | "enum" | "const" | "nullable");
        match m.fget_mut(k) {
            Some(old) if merged => {
                let _ = merge_keyword(k, old, v);
            }
            Some(old) => *old = v,
            None => {
                m.insert(k.to_string(), v);
            }
        }
    }
}

impl Lower<'_> {
    /// The lowered schema `m` (at `p`), a `$ref` beside keywords that are not annotations,
    /// merged with its target where the walk would inline the target (not recursive, not the
    /// root, not a definition a dialect keeps shared: [`Lower::keep_shared`]), as the walk
    /// merges them: an `allOf` of the target at the target's place, the keywords over it
    /// (`settle.rs`). Where they do not merge, the error (at the target's place, as the walk
    /// names it) is the schema's conflict and the schema is written as it is; `None` then,
    /// and for any other schema.
    /// [`Lower::ref_merged`] again while it merges (a target that is itself a `$ref` beside
    /// keywords, as the walk inlines one after the other, at most [`MAX_DEPTH`] times): the
    /// schema, and whether anything was merged.
    pub(super) fn refs_merged(
        &mut self,
        mut m: Map<String, Value>,
        p: &str,
    ) -> R<(Map<String, Value>, bool)> {
        let mut rounds = 0;
        while rounds <= MAX_DEPTH {
            let Some(merged) = self.ref_merged(&m, p)? else {
                break;
            };
            m = merged;
            rounds += 1;
        }
        Ok((m, rounds > 0))
    }

    pub(super) fn ref_merged(
        &mut self,
        m: &Map<String, Value>,
        p: &str,
    ) -> R<Option<Map<String, Value>>> {
        let Some(Value::String(r)) = m.fget("$ref") else {
            return Ok(None);
        };
        if m.fhas("allOf") || m.keys().all(|k| k == "$ref" || is_meta(k)) {
            return Ok(None);
        }
        let Some(def) = self.doc.defs.iter().find(|d| d.target == *r) else {
            return Ok(None);
        };
        if def.target == "#" {
            return Ok(None);
        }
        let Some(t) = (def.target.strip_prefix('#')).and_then(pointer::percent_decode) else {
            return Ok(None);
        };
        // (recursive, and shared: as the input's references say, until the lowered document's
        // are read, `settle.rs`; the walk reads those)
        if self.recursive(def) || (self.keep_shared && self.shared(def)) {
            self.left = true;
            return Ok(None);
        }
        let mut trial = m.clone();
        trial.remove("$ref");
        let mut one = Map::new();
        one.insert("$ref".into(), Value::String(r.clone()));
        trial.insert("allOf".into(), Value::Array(vec![Value::Object(one)]));
        let mark = self.conflicts.len();
        self.part_origins = Some(Vec::new());
        let merged = self.merge_all_of(&trial, &t, 0);
        let kept = self.part_origins.take().unwrap_or_default();
        match merged? {
            Ok(all) => {
                for (rest, at) in kept {
                    self.origins.push((format!("{p}{rest}"), at));
                }
                // (the conflicts below the merged schema: where the walk meets them, at `p`;
                // the target's, lowered as the merge's part, too)
                let part = pointer::push(&pointer::push(&t, "allOf"), "0");
                for (at, _) in &mut self.conflicts[mark..] {
                    let rest = (at.strip_prefix(part.as_str()))
                        .or_else(|| at.strip_prefix(t.as_str()))
                        .filter(|r| r.is_empty() || r.starts_with('/'));
                    if let Some(rest) = rest {
                        *at = format!("{p}{rest}");
                    }
                }
                Ok(Some(all))
            }
            Err(e) => {
                self.conflicts.truncate(mark);
                self.conflicts.push((p.to_string(), e));
                self.left = true;
                Ok(None)
            }
        }
    }
}

impl Lower<'_> {
    /// A root `$ref` beside keywords that are not annotations (the root not recursive),
    /// written as the walk's root pass reads it: the root's own keywords over a copy of its
    /// target's (`dialect::part_over_target`), in the forms the walk reads (a type array split,
    /// a union's keywords in its branches), beside the root's definitions; the side table's
    /// and the conflicts' places below the target also under the root. Where the keywords do
    /// not combine, the error is the root's conflict and the root stays as it is.
    pub(super) fn root_ref(&mut self, root: &mut Value) -> R<()> {
        let Value::Object(m) = &*root else {
            return Ok(());
        };
        let Some(Value::String(r)) = m.fget("$ref") else {
            return Ok(());
        };
        let tables = |k: &str| matches!(k, "$ref" | "$defs" | "definitions");
        if m.keys().all(|k| tables(k) || is_meta(k))
            || self.doc.defs.iter().any(|d| d.target == "#" && d.recursive)
        {
            return Ok(());
        }
        let Some(t) = (r.strip_prefix('#')).and_then(pointer::percent_decode) else {
            return Ok(());
        };
        let Some(target) = root.pointer(&t).and_then(target_copy) else {
            return Ok(());
        };
        let own: Map<String, Value> = (m.iter())
            .filter(|(k, _)| !tables(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let merged = match part_over_target(target, own, "") {
            Ok(merged) => merged,
            Err(e) => {
                self.conflicts.push((String::new(), e));
                return Ok(());
            }
        };
        // (what is below the target is also below the root now)
        fn below<'o>(out: &'o str, t: &str) -> Option<&'o str> {
            out.strip_prefix(t).filter(|r| r.starts_with('/'))
        }
        let origins: Vec<(String, &str)> = (self.origins.iter())
            .filter_map(|(out, at)| below(out, &t).map(|rest| (rest.to_string(), *at)))
            .collect();
        self.origins.extend(origins);
        let conflicts: Vec<(String, ConvertError)> = (self.conflicts.iter())
            .filter_map(|(out, e)| below(out, &t).map(|rest| (rest.to_string(), e.clone())))
            .collect();
        self.conflicts.extend(conflicts);
        // (a target that is a `$ref` beside keywords itself: merged as the walk merges it
        // next, where it inlines that target)
        let (mut merged, _) = self.refs_merged(merged, "")?;
        self.settle(&mut merged, "", 0)?;
        let mut merged = self.forms(merged, "")?;
        for k in ["$defs", "definitions"] {
            if let Some(table) = m.fget(k) {
                merged.insert(k.into(), table.clone());
            }
        }
        *root = Value::Object(merged);
        Ok(())
    }
}
