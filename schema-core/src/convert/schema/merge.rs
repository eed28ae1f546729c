//! `allOf` merging on the model: the parts of one schema (its own shape, its `$ref` target, its
//! `allOf` members) become one schema (objects combined, scalar types and enums intersected,
//! keyword-only parts added, as the dialect converter merges them), or stay an intersection
//! when a part has a union or `not` of its own, is recursive, or no value fits every part.
//!
//! How two parts' values of one keyword combine ([`merge_keyword`]: types and enums intersect,
//! bounds tighten, ...) is written once, in `combine.rs`; the lowering's `allOf` merge
//! (`dialect::merge_parts`) uses it too.

pub(crate) use super::combine::{merge_keyword, Conflict};
use super::normalize::read_constraints;
use super::normalize::Normalizer;
use super::order::{join_order, join_own};
use super::{Array, Extra, Kind, Object, Scalar, Schema};
use crate::convert::{is_meta, SmallMap};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

impl Normalizer<'_> {
    /// Merges `parts` into `s` (which has no shape yet); `own_last`: the last part is the
    /// schema's own shape (written first in an intersection that stays).
    pub(super) fn merge(&mut self, s: &mut Schema, mut parts: Vec<Schema>, own_last: bool) {
        if parts.len() <= 1 {
            if let Some(part) = parts.pop() {
                // a `$ref` with constraints of its own: its non-recursive target inlined, so
                // that both constraints combine (`maxLength` 5 in the target, 10 beside: 5)
                let constrained = s.keywords.keys().any(|k| !is_meta(k));
                // (`nullable` beside a reference to a union: the union, null one more branch of
                // it; a shared union definition, which a dialect may keep and then drop the
                // keywords beside its reference, stays a reference, constrained or not)
                let nullable = s.order.iter().any(|k| k == "nullable");
                if let (true, Kind::Ref(id)) = (nullable || constrained, &part.kind) {
                    if let Some(union) = self.distribute(s, std::slice::from_ref(&part)) {
                        *s = union;
                        return;
                    }
                    // (read in the table, not copied)
                    let union = self
                        .defs
                        .get(*id)
                        .and_then(Option::as_ref)
                        .is_some_and(|d| {
                            let v = &d.schema;
                            v.kind == Kind::Any && v.not.is_none() && v.alternatives.len() == 1
                        });
                    if union && self.shared(*id) {
                        return absorb(s, part);
                    }
                }
                match self.plain_view(&part).filter(|_| constrained) {
                    Some(view) if matches!(part.kind, Kind::Ref(_)) => absorb(s, view.into_owned()),
                    _ => absorb(s, part),
                }
            }
            return;
        }
        if let Some(merged) = self.one_type_fits(&parts, own_last, &s.at) {
            return absorb(s, merged);
        }
        match self.merged(&parts, &s.at) {
            Some(merged) => absorb(s, merged),
            None => {
                if let Some(union) = self.distribute(s, &parts) {
                    *s = union;
                    return;
                }
                if own_last {
                    parts.rotate_right(1);
                }
                s.kind = Kind::All(parts)
            }
        }
    }

    /// The parts merged into one schema: objects combined ([`Self::combine`]), else as
    /// [`Self::meet_all`] merges them; `None` where they stay an intersection.
    fn merged(&self, parts: &[Schema], at: &str) -> Option<Schema> {
        let objects: Option<Vec<Schema>> = parts.iter().map(|p| self.object_view(p)).collect();
        match objects {
            Some(objects) => Some(self.combine(objects, at)),
            None => self.meet_all(parts, at),
        }
    }

    /// The schema's own type array (or a type made nullable: a union of one shape per type,
    /// the last part) beside other parts: each type merged with them, as the dialects
    /// intersect the types (`["object", "null"]` beside a `$ref` to an object: the object);
    /// the merge where exactly one type fits (`nullable` is applied after the merge, as the
    /// dialects apply it: `nullable_beside_ref`), else `None` (merged as before).
    fn one_type_fits(&self, parts: &[Schema], own_last: bool, at: &str) -> Option<Schema> {
        let (own, rest) = parts.split_last()?;
        let Kind::Union(members) = &own.kind else {
            return None;
        };
        let plain = |m: &Schema| m.order.is_empty() && m.alternatives.is_empty() && m.not.is_none();
        // (a definition more than one `$ref` names: the walk decides, `Def::shared`)
        let shared = |p: &Schema| matches!(p.kind, Kind::Ref(id) if self.shared(id));
        if !own_last
            || rest.is_empty()
            || !own.alternatives.is_empty()
            || !members.iter().all(plain)
            || rest.iter().any(shared)
        {
            return None;
        }
        let mut fits = None;
        for m in members {
            let mut trial = rest.to_vec();
            trial.push(Schema::of(m.kind.clone(), &own.at));
            if let Some(merged) = self.merged(&trial, at) {
                if fits.replace(merged).is_some() {
                    return None;
                }
            }
        }
        fits
    }

    /// Parts that are not all objects merged into one schema, as the dialect converter's `allOf`
    /// merge does: a part with keywords only (`{"maxLength": 5}`) adds them, scalar types
    /// intersect (`integer` within `number`), enums and constants keep the values every part
    /// allows, objects merge as [`Self::combine`] does. `None` (an intersection stays) when a part has
    /// a union or `not` of its own, is recursive, or when no value fits every part.
    pub(super) fn meet_all(&self, parts: &[Schema], at: &str) -> Option<Schema> {
        // (borrowed: only an inlined definition and the object parts are copied)
        let mut views: Vec<Cow<'_, Schema>> = Vec::with_capacity(parts.len());
        for p in parts {
            let v = self.plain_view(p)?;
            if !v.alternatives.is_empty() || v.not.is_some() {
                return None;
            }
            views.push(v);
        }
        let mut kind = Kind::Any;
        let mut objects = Vec::new();
        for v in &views {
            match &v.kind {
                Kind::Object(_) => objects.push(v.as_ref().clone()),
                Kind::Array(y) if matches!(kind, Kind::Array(_)) => {
                    let Kind::Array(x) = &kind else { return None };
                    kind = Kind::Array(self.both_arrays(x, y));
                }
                k => kind = meet(&kind, k)?,
            }
        }
        let mut out = if objects.is_empty() {
            Schema::of(kind, at)
        } else if kind == Kind::Any {
            self.combine(objects, at)
        } else {
            // an object and a value of another shape: no value fits both
            return None;
        };
        // the first description, and the keywords in the parts' order
        let mut keywords = Map::new();
        out.desc = None;
        out.order = Vec::new();
        for v in views {
            if out.desc.is_none() {
                out.desc.clone_from(&v.desc);
            }
            merge_keywords(&mut keywords, v.keywords.clone());
            join_order(&mut out.order, &v.order);
        }
        out.keywords = keywords;
        // an enum of one part and a type of another: the values of that type (as the dialects)
        if let Some(Value::String(t)) = out.keywords.fget("type") {
            let fits = match &mut out.kind {
                Kind::Enum(values) => retain_of_type(values, t),
                Kind::Const(c) => has_type(c, t),
                _ => true,
            };
            if !fits {
                return None;
            }
        }
        Some(out)
    }

    /// Object schemas merged as `allOf` of them: properties in first-seen order (a property two
    /// parts give different schemas is the intersection of both), required if any part requires it,
    /// closed if any part is closed, the first description.
    fn combine(&self, parts: Vec<Schema>, at: &str) -> Schema {
        let mut out = Schema::of(Kind::Any, at);
        let mut o = Object::default();
        // property name -> index in `o.props` (linear time for many properties)
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut pattern_index: HashMap<String, usize> = HashMap::new();
        let mut listed: Vec<String> = Vec::new();
        for part in parts {
            if out.desc.is_none() {
                out.desc = part.desc;
            }
            merge_keywords(&mut out.keywords, part.keywords);
            join_order(&mut out.order, &part.order);
            let Kind::Object(p) = part.kind else { continue };
            for prop in p.props {
                if let Some(&i) = index.get(&prop.name) {
                    let existing = &mut o.props[i];
                    existing.required |= prop.required;
                    if existing.schema != prop.schema {
                        let old =
                            std::mem::replace(&mut *existing.schema, Schema::of(Kind::Any, at));
                        *existing.schema = self.both(old, *prop.schema);
                    }
                } else {
                    index.insert(prop.name.clone(), o.props.len());
                    o.props.push(prop);
                }
            }
            listed.extend(p.listed);
            o.extra = match (std::mem::take(&mut o.extra), p.extra) {
                // `false` in any part closes the object (as `merge_keyword` says)
                (Extra::Closed, _) | (_, Extra::Closed) => Extra::Closed,
                // two schemas for the other keys: both apply (as in the dialects)
                (Extra::Schema(a), Extra::Schema(b)) => Extra::Schema(Box::new(self.both(*a, *b))),
                (Extra::Schema(s), _) | (_, Extra::Schema(s)) => Extra::Schema(s),
                _ => Extra::Open,
            };
            // a pattern two parts give: both schemas apply to its keys
            for (re, schema) in p.patterns {
                match pattern_index.get(&re) {
                    Some(&i) => {
                        let old =
                            std::mem::replace(&mut o.patterns[i].1, Schema::of(Kind::Any, at));
                        o.patterns[i].1 = self.both(old, schema);
                    }
                    None => {
                        pattern_index.insert(re.clone(), o.patterns.len());
                        o.patterns.push((re, schema));
                    }
                }
            }
            o.clauses.extend(p.clauses);
        }
        // (a name one part lists and another gives a property: required there too)
        let mut seen = HashSet::new();
        o.listed = listed
            .into_iter()
            .filter(|r| seen.insert(r.clone()))
            .collect();
        for r in &o.listed {
            if let Some(&i) = index.get(r) {
                o.props[i].required = true;
            }
        }
        out.kind = Kind::Object(o);
        out
    }
    /// What two schemas of one place (a property in two parts, the items or the other keys of
    /// two parts) both allow: one schema where they merge (as [`Self::meet_all`]), else their
    /// intersection. The dialects write `allOf` of the two there and merge it the same way.
    fn both(&self, a: Schema, b: Schema) -> Schema {
        if a == b || b.everything {
            return a;
        }
        if a.everything {
            return b;
        }
        let at = a.at.clone();
        let met = self
            .meet_all(&[a.clone(), b.clone()], &at)
            .and_then(|mut m| {
                m.constraints
                    .set(read_constraints(&m.keywords, &m.kind, &at).ok()?);
                Some(m)
            });
        met.unwrap_or_else(|| Schema::of(Kind::All(vec![a, b]), &at))
    }

    /// What two arrays both allow: position by position, each the merge (as [`Self::both`]) of
    /// what the two allow there (a tuple's own item, or else its rest), the rest merged the
    /// same way (`None`: any item).
    fn both_arrays(&self, x: &Array, y: &Array) -> Array {
        if x == y {
            return x.clone();
        }
        let at = |a: &Array, i: usize| -> Option<Schema> {
            match &a.prefix {
                Some(p) if i < p.len() => Some(p[i].clone()),
                _ => a.items.as_deref().cloned(),
            }
        };
        let both = |p: Option<Schema>, q: Option<Schema>| match (p, q) {
            (Some(p), Some(q)) => Some(self.both(p, q)),
            (p, q) => p.or(q),
        };
        let len = |a: &Array| a.prefix.as_ref().map(Vec::len);
        let prefix = match (len(x), len(y)) {
            (None, None) => None,
            (n, m) => Some(
                (0..n.unwrap_or(0).max(m.unwrap_or(0)))
                    .map(|i| {
                        let here = Schema::of(Kind::Any, "");
                        both(at(x, i), at(y, i)).unwrap_or(here)
                    })
                    .collect(),
            ),
        };
        let items = both(x.items.as_deref().cloned(), y.items.as_deref().cloned()).map(Box::new);
        Array {
            prefix,
            items,
            // (closed if either part is; the positions past a closed part's end are not cut
            // yet, in the dialects' merge either: an approximation noted in `convert/mod.rs`)
            closed: x.closed || y.closed,
        }
    }

    /// `p` with a non-recursive definition inlined (the reference's own keywords over the
    /// target's as [`over_target`] says), or `p` itself; `None` for a recursive definition.
    pub(super) fn plain_view<'s>(&'s self, p: &'s Schema) -> Option<Cow<'s, Schema>> {
        match &p.kind {
            Kind::Ref(id) if p.alternatives.is_empty() && p.not.is_none() => {
                let def = self.defs.get(*id)?.as_ref()?;
                if def.recursive {
                    return None;
                }
                let mut view = self.plain_view(&def.schema)?.into_owned();
                join_order(&mut view.order, &p.order);
                view.desc = p.desc.clone().or(view.desc);
                // (a conflict keeps the target's value: the model reads what it can)
                let _ = over_target(&mut view.keywords, p.keywords.clone(), |old, k, v| {
                    let _ = merge_keyword(k, old, v);
                    Ok::<(), ()>(())
                });
                Some(Cow::Owned(view))
            }
            Kind::Ref(_) => None,
            _ => Some(Cow::Borrowed(p)),
        }
    }

    /// Whether no object fits the part `p` ([`Kind::allows_no_object`], a reference looked up
    /// in the table; a definition still being normalized: no).
    pub(super) fn allows_no_object(&self, p: &Schema) -> bool {
        match &p.kind {
            Kind::Ref(id) => self
                .defs
                .get(*id)
                .and_then(Option::as_ref)
                .is_some_and(|d| d.schema.kind.allows_no_object()),
            k => k.allows_no_object(),
        }
    }

    /// A reference to a non-recursive object definition replaced by the definition (so that a
    /// union of `required` clauses beside it can be read as the object's).
    pub(super) fn inline_object(&mut self, s: &mut Schema) {
        if let Kind::Ref(_) = s.kind {
            let at = s.at.clone();
            if let Some(view) = self.object_view(&Schema::of(s.kind.clone(), &at)) {
                absorb(s, view);
            }
        }
    }

    /// `p` as a plain object schema (a non-recursive definition inlined), if it is one.
    fn object_view(&self, p: &Schema) -> Option<Schema> {
        self.plain_view(p)
            .filter(|v| {
                matches!(v.kind, Kind::Object(_)) && v.alternatives.is_empty() && v.not.is_none()
            })
            .map(Cow::into_owned)
    }
}

/// Takes `part`'s shape into `s`: its description and keywords where `s` has none.
fn absorb(s: &mut Schema, part: Schema) {
    if part.not.is_some() {
        s.kind = Kind::All(vec![part]);
        return;
    }
    // (the schema's own reference kept: its keywords as written, `$ref` among them; so is an
    // `allOf` of a bare reference, `allOf` in its place)
    let bare_ref = matches!(part.kind, Kind::Ref(_))
        && part.order.len() == 1
        && part.order[0] == "$ref"
        && part.at != s.at
        && s.order.iter().any(|k| k == "allOf")
        && !s.order.iter().any(|k| k == "$ref");
    let own_kept = part.order.is_empty() && matches!(part.kind, Kind::Ref(_) | Kind::All(_));
    if !(own_kept || bare_ref) {
        let own = std::mem::replace(&mut s.order, part.order);
        join_own(&mut s.order, &own);
    }
    s.kind = part.kind;
    if s.desc.is_none() {
        s.desc = part.desc;
    }
    // (the own keywords over the part's, as `over_target` says: an own annotation wins, a
    // keyword both have otherwise combines, the part's value first, as the dialects merge)
    for (k, v) in part.keywords {
        match s.keywords.fget_mut(&k) {
            Some(_) if is_meta(&k) => {}
            Some(own) => {
                let mut merged = v;
                let _ = merge_keyword(&k, &mut merged, own.clone());
                *own = merged;
            }
            None => {
                s.keywords.insert(k, v);
            }
        }
    }
    let own = std::mem::take(&mut s.alternatives);
    s.alternatives = part.alternatives;
    s.alternatives.extend(own);
}

/// Adds `from` to `into`: a key both have combines as [`merge_keyword`] says (keeping `into`'s
/// value where the two conflict: the model reads the intersection of what it can).
pub(super) fn merge_keywords(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (k, v) in from {
        match into.fget_mut(&k) {
            Some(old) => {
                let _ = merge_keyword(&k, old, v);
            }
            None => {
                into.insert(k, v);
            }
        }
    }
}

/// Adds the keywords `own` of a schema beside a `$ref` (or an `allOf`) to `target`, the
/// keywords of what it refers to, the same way in the model and the dialect converter: an
/// annotation of its own wins (`description`, `title`, `default`: [`is_meta`]); a keyword both
/// have otherwise combines through `combine(old, key, new)` (both constraints apply); a keyword
/// only `own` has is added.
pub(crate) fn over_target<E>(
    target: &mut Map<String, Value>,
    own: Map<String, Value>,
    mut combine: impl FnMut(&mut Value, &str, Value) -> Result<(), E>,
) -> Result<(), E> {
    for (k, v) in own {
        match target.fget_mut(&k) {
            Some(old) if !is_meta(&k) => combine(old, &k, v)?,
            Some(old) => *old = v,
            None => {
                target.insert(k, v);
            }
        }
    }
    Ok(())
}

/// The values two shapes (neither an object) both allow, as one shape; `None` when that is not
/// one shape (two different arrays, unions, intersections) or no value fits both.
fn meet(a: &Kind, b: &Kind) -> Option<Kind> {
    let kept = |values: &[Value], keep: &dyn Fn(&Value) -> bool| {
        let kept: Vec<Value> = values.iter().filter(|v| keep(v)).cloned().collect();
        (!kept.is_empty()).then_some(Kind::Enum(kept))
    };
    match (a, b) {
        (Kind::Any, k) | (k, Kind::Any) => Some(k.clone()),
        (Kind::Scalar(x), Kind::Scalar(y)) => match (*x, *y) {
            (x, y) if x == y => Some(Kind::Scalar(x)),
            (Scalar::Integer, Scalar::Number) | (Scalar::Number, Scalar::Integer) => {
                Some(Kind::Scalar(Scalar::Integer))
            }
            _ => None,
        },
        (Kind::Scalar(t), Kind::Enum(values)) | (Kind::Enum(values), Kind::Scalar(t)) => {
            kept(values, &|v| is_of(v, *t))
        }
        (Kind::Enum(x), Kind::Enum(y)) => kept(x, &|v| y.contains(v)),
        (Kind::Scalar(t), Kind::Const(c)) | (Kind::Const(c), Kind::Scalar(t)) => {
            is_of(c, *t).then(|| Kind::Const(c.clone()))
        }
        (Kind::Const(c), Kind::Enum(values)) | (Kind::Enum(values), Kind::Const(c)) => {
            values.contains(c).then(|| Kind::Const(c.clone()))
        }
        (Kind::Const(x), Kind::Const(y)) if x == y => Some(a.clone()),
        (Kind::Array(x), Kind::Array(y)) if x == y => Some(a.clone()),
        _ => None,
    }
}

/// Whether the JSON value `v` is of the scalar type `t`.
fn is_of(v: &Value, t: Scalar) -> bool {
    has_type(
        v,
        match t {
            Scalar::String => "string",
            Scalar::Number => "number",
            Scalar::Integer => "integer",
            Scalar::Boolean => "boolean",
            Scalar::Null => "null",
        },
    )
}

/// Whether the JSON value `v` is of the JSON Schema type named `t` (an unknown name: yes).
pub(crate) fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        _ => true,
    }
}

/// Keeps the values of `values` of the JSON Schema type `t`; whether any is left. How `allOf`
/// parts with an enum in one part and a type in another merge, in the model and the dialects.
pub(crate) fn retain_of_type(values: &mut Vec<Value>, t: &str) -> bool {
    values.retain(|v| has_type(v, t));
    !values.is_empty()
}
