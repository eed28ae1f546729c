//! A `$ref` to a union beside other parts (keywords, a type, `nullable`, an `enum`): the union
//! with the other parts merged into each of its branches, as the dialect converter merges the
//! parts and then copies the keywords beside the union into its branches, and the keyword order
//! the merged union is written in. Called by [`Normalizer::merge`] (`merge.rs`).

use super::merge::{merge_keyword, merge_keywords, over_target, retain_of_type};
use super::normalize::{read_constraints, Normalizer, OBJECT_ONLY};
use super::nullable::null_schema;
use super::order::{join_order, join_own};
use super::{Alternatives, Kind, Scalar, Schema};
use crate::convert::dialect::applies_to;
use crate::convert::{is_meta, SmallMap};
use serde_json::{Map, Value};
use std::borrow::Cow;

impl Normalizer<'_> {
    /// The parts of `s` where one is a union (a reference to a definition that is only an
    /// `anyOf`, annotations aside) and the others (with the schema's own keywords) are plain:
    /// the union with the other parts merged into each branch, as the dialects merge the parts
    /// and then copy the keywords beside the union into its branches (`dialect::with_beside`).
    /// As there, a branch of another `type` than the one beside is narrowed away, and the
    /// schema's annotations stay beside the union; object keywords without a `type` of their
    /// own (`required`, `properties`, `minProperties`, ...) are left out of a branch that is
    /// not an object (JSON Schema applies them to objects only; no dialect writes them on
    /// another type), and so are the keywords of another type than a branch's own (`maxLength`
    /// in an `integer` branch); `nullable: true` beside a type makes null one more branch, as the
    /// dialects apply the flag after the union. `None` (the intersection stays) where the
    /// dialects' merge would give another union: two unions, a union or `not` of the schema's
    /// own, a branch with a reference, an intersection or a union of its own, an enum whose
    /// values the other side would narrow (the dialects keep them all; except an enum without
    /// a `type` beside a branch of a scalar type: each such branch keeps its own type's values,
    /// one with none left out, which allows what the dialects' copies allow), a merge that fails,
    /// no branch left, a definition more than one `$ref` names, a union at the root with a
    /// branch that may be an object.
    pub(super) fn distribute(&self, s: &Schema, parts: &[Schema]) -> Option<Schema> {
        if s.order
            .iter()
            .any(|k| matches!(k.as_ref(), "anyOf" | "oneOf" | "not"))
        {
            return None;
        }
        let views: Vec<Cow<'_, Schema>> = parts
            .iter()
            .map(|p| self.plain_view(p))
            .collect::<Option<_>>()?;
        let pure = |v: &Schema| {
            v.kind == Kind::Any
                && v.not.is_none()
                && matches!(v.alternatives.as_slice(), [a] if !a.one_of)
                && v.keywords.keys().all(|k| is_meta(k))
        };
        let mut union = None;
        for (i, v) in views.iter().enumerate() {
            if pure(v) && union.is_none() {
                union = Some(i);
            } else if !v.alternatives.is_empty() || v.not.is_some() {
                return None;
            }
        }
        let u = union?;
        // (a definition more than one `$ref` names: with `keep_defs` a dialect keeps it shared
        // and drops the keywords beside the reference, else merges them; the model, which does
        // not see the option, keeps the intersection for the walk to decide)
        if let Kind::Ref(id) = parts[u].kind {
            if self.shared(id) {
                return None;
            }
        }
        let rest: Vec<Schema> = (views.iter().enumerate())
            .filter(|(i, _)| *i != u)
            .map(|(_, v)| v.as_ref().clone())
            .collect();
        let other = match rest.len() {
            0 => Schema::of(Kind::Any, &s.at),
            1 => rest.into_iter().next()?,
            _ => self.meet_all(&rest, &s.at)?,
        };
        // the keywords: the union's annotations, the other parts', the schema's own over them
        // (an own annotation wins, a constraint combines, the parts' value first: `absorb`)
        let mut keywords = views[u].keywords.clone();
        merge_keywords(&mut keywords, other.keywords.clone());
        // (a conflict keeps the parts' value, as the model reads it)
        let _ = over_target(&mut keywords, s.keywords.clone(), |old, k, v| {
            let _ = merge_keyword(k, old, v);
            Ok::<(), ()>(())
        });
        // (`nullable: true` beside a type: that type, and null after the union)
        let (kind, null) = match &other.kind {
            Kind::Union(members) => match members.as_slice() {
                [one, n]
                    if n.kind == Kind::Scalar(Scalar::Null)
                        && !keywords.fget("type").is_some_and(Value::is_array) =>
                {
                    (one.kind.clone(), true)
                }
                _ => return None,
            },
            k => (k.clone(), false),
        };
        // (a null of a part's own `nullable`: the dialects apply it as the schema's)
        if null && !s.order.iter().any(|k| k == "nullable") {
            return None;
        }
        let outer_type = keywords.fget("type").and_then(Value::as_str);
        // (an enum beside a type: the values of that type, as the dialects' `allOf` merge keeps
        // them; their root pass keeps them all, and there the intersection stays, below)
        let mut kind = kind;
        if let (Some(t), Kind::Enum(values), false) = (outer_type, &mut kind, s.at.is_empty()) {
            if !retain_of_type(values, t) {
                return None;
            }
        }
        let implied_object = matches!(kind, Kind::Object(_)) && outer_type.is_none();
        let mut order = Vec::new();
        for (_, v) in views.iter().enumerate().filter(|(i, _)| *i != u) {
            join_order(&mut order, &v.order);
        }
        join_order(&mut order, &s.order);
        let skip = ["$defs", "definitions", "nullable", "anyOf", "oneOf", "not"];
        order.retain(|k| !is_meta(k) && !skip.contains(&k.as_ref()));
        // (at the root, the dialects' root pass reads a union of objects before the keywords
        // beside it go into its branches: merged into one object or not, by what each branch
        // requires; there a branch that may be an object keeps the intersection)
        let root_objects = s.at.is_empty()
            && views[u].alternatives[0].branches.iter().any(|b| {
                !matches!(
                    b.kind,
                    Kind::Scalar(_) | Kind::Enum(_) | Kind::Const(_) | Kind::Array(_)
                )
            });
        if root_objects {
            return None;
        }
        // (keywords of an object beside an array read, or the other way round: the model kept
        // no value for them, and a branch of that kind would take them)
        let lost = |keys: &[&str]| order.iter().any(|k| keys.contains(&k.as_ref()));
        match kind {
            Kind::Object(_) if lost(&["items", "prefixItems", "additionalItems"]) => return None,
            Kind::Array(_) if lost(&OBJECT_ONLY[..4]) => return None,
            _ => {}
        }
        let mut branches = Vec::new();
        for b in &views[u].alternatives[0].branches {
            let plain = b.alternatives.is_empty()
                && b.not.is_none()
                && !b.order.is_empty()
                && !matches!(b.kind, Kind::Ref(_) | Kind::All(_));
            if !plain {
                return None;
            }
            // (a `type` beside narrows a branch of another type away, as in the dialects)
            if let (Some(outer), Some(Value::String(inner))) = (outer_type, b.keywords.fget("type"))
            {
                if outer != inner && !(outer == "number" && inner == "integer") {
                    continue;
                }
            }
            let vacuous = implied_object && !matches!(b.kind, Kind::Object(_) | Kind::Any);
            // (a keyword of another type than the branch's constrains none of its values:
            // `maxLength` beside a union of a string and an integer, in the integer)
            let typed = match (&b.kind, b.keywords.fget("type")) {
                (Kind::Scalar(_), Some(Value::String(t))) => Some(t.as_str()),
                _ => None,
            };
            let other_type = |k: &str| {
                typed.is_some_and(|t| {
                    !applies_to(k, t)
                        && ["string", "number", "array", "object"]
                            .iter()
                            .any(|x| applies_to(k, x))
                })
            };
            let object_only = |k: &str| (vacuous && OBJECT_ONLY.contains(&k)) || other_type(k);
            let mut beside = Schema::of(if vacuous { Kind::Any } else { kind.clone() }, &b.at);
            beside.keywords = (keywords.iter())
                .filter(|(k, _)| !is_meta(k) && !object_only(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            beside.order = order.iter().filter(|k| !object_only(k)).cloned().collect();
            let values = |k: &Kind| matches!(k, Kind::Enum(_) | Kind::Const(_));
            let (x, y) = (beside.kind.clone(), b.kind.clone());
            // (an enum without a `type` beside a branch of a scalar type: both apply to the
            // instance (JSON Schema validation 6.1.1, 6.1.2), so the branch keeps the values
            // of its type, and a branch with none allows no instance: left out, as a union
            // allows what one of its branches does. The dialects copy every value into every
            // branch, which allows the same instances)
            let m = match (&x, typed) {
                (Kind::Enum(all), Some(t)) if !keywords.fhas("type") => {
                    let mut kept = all.clone();
                    if !retain_of_type(&mut kept, t) {
                        continue;
                    }
                    beside.kind = Kind::Any;
                    let mut m = self.meet_all(&[b.clone(), beside], &b.at)?;
                    m.kind = Kind::Enum(kept);
                    m
                }
                _ => {
                    let m = self.meet_all(&[beside, b.clone()], &b.at)?;
                    // (the dialects keep the values of an enum beside a type of a branch, and
                    // the other way round: where the model would narrow them, the
                    // intersection stays)
                    match (&x, &y) {
                        (Kind::Enum(_), Kind::Enum(_)) => {}
                        (x, y) if values(x) && values(y) => return None,
                        (x, _) if values(x) && m.kind != *x => return None,
                        (_, y) if values(y) && m.kind != *y => return None,
                        _ => {}
                    }
                    m
                }
            };
            let mut m = m;
            if !matches!(m.kind, Kind::Object(_) | Kind::Any) {
                // (`required` or `properties` beside a `type` of another kind: the model keeps
                // no value for them, and they constrain no value of that type)
                m.order.retain(|k| !OBJECT_ONLY[..4].contains(&k.as_ref()));
            }
            *m.constraints = read_constraints(&m.keywords, &m.kind, &m.at).ok()?;
            branches.push(m);
        }
        // (a union of constants the walk reads as one enum: before the keywords go into the
        // branches for the input, after for the merged union)
        let constants = |bs: &[Schema]| bs.iter().all(|b| matches!(b.kind, Kind::Const(_)));
        if constants(&branches) || constants(&views[u].alternatives[0].branches) {
            return None;
        }
        // (no branch left: the dialects report it)
        if branches.is_empty() {
            return None;
        }
        if null
            && !branches
                .iter()
                .any(|b| b.kind == Kind::Scalar(Scalar::Null))
        {
            branches.push(null_schema(&s.at));
        }
        let mut out = Schema::of(Kind::Any, &s.at);
        out.desc = (s.desc.clone()).or_else(|| views.iter().find_map(|v| v.desc.clone()));
        out.keywords = keywords.into_iter().filter(|(k, _)| is_meta(k)).collect();
        out.alternatives = vec![Alternatives {
            one_of: false,
            branches,
        }];
        out.order = self.union_order(s, &views, &out.keywords)?;
        Some(out)
    }

    /// The keyword order of a union [`Self::distribute`] made: first the annotations the
    /// dialects write beside a union (`title`, `description`, `default`), in the order the
    /// walk meets them in the merged schema after its own removals (serde_json's
    /// `Map::remove` moves the last key into the removed one's place: the annotations it
    /// drops, then `nullable`, then the union), then the union, `nullable` and the rest, whose
    /// removal in the lowered document leaves those first ones in place. `None` where the
    /// walk drops an annotation of the schema's own before merging (its order then depends on
    /// both removals) beside two of those annotations.
    fn union_order(
        &self,
        s: &Schema,
        views: &[Cow<'_, Schema>],
        keywords: &Map<String, Value>,
    ) -> Option<Vec<super::Key>> {
        let mut walk = Vec::new();
        for v in views {
            join_order(&mut walk, &v.order);
        }
        join_own(&mut walk, &s.order);
        let dropped = |k: &str| {
            (is_meta(k) && !matches!(k, "description" | "title" | "default"))
                || matches!(k, "$defs" | "definitions")
                || (k == "default" && keywords.fget(k) == Some(&Value::Null))
        };
        let written = |k: &str| matches!(k, "description" | "title" | "default") && !dropped(k);
        let own_dropped = s
            .order
            .iter()
            .any(|k| dropped(k) && !matches!(k.as_ref(), "$defs" | "definitions"));
        if own_dropped && walk.iter().filter(|k| written(k)).count() > 1 {
            return None;
        }
        let mut left = walk.clone();
        let mut out_of = |k: &str| {
            if let Some(i) = left.iter().position(|x| x == k) {
                left.swap_remove(i);
            }
        };
        for k in walk.iter().filter(|k| dropped(k)) {
            out_of(k);
        }
        out_of("nullable");
        out_of("anyOf");
        let mut order: Vec<super::Key> = left.into_iter().filter(|k| written(k)).collect();
        order.push(super::key("anyOf"));
        let rest = |k: &&super::Key| {
            !written(k)
                && (is_meta(k) || matches!(k.as_ref(), "nullable" | "$defs" | "definitions"))
        };
        order.extend(walk.iter().filter(rest).cloned());
        Some(order)
    }
}
