//! `allOf` merging on the model: the parts of one schema (its own shape, its `$ref` target, its
//! `allOf` members) become one object when they are all objects, or stay an intersection.
//!
//! How two parts' values of one keyword combine ([`merge_keyword`]: types and enums intersect,
//! bounds tighten, ...) is written once, here; the dialect converter's `allOf` merge uses it too.

use super::normalize::Normalizer;
use super::{Extra, Kind, Object, Schema};
use crate::convert::required_names;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// Why two `allOf` parts' values of one keyword cannot be combined.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conflict {
    /// The parts allow no value in common (incompatible types, enums without a common value).
    Malformed(String),
    /// The combination exists but is not one keyword (two different unions).
    Unsupported(String),
}

/// Combines the value `new` of keyword `k` from a later `allOf` part into `old`, the value of
/// an earlier part, as `allOf` means it: types intersect (`integer` within `number`), enums
/// intersect, `additionalProperties: false` wins, a lower bound takes the larger value and an
/// upper bound the smaller, two unions of `required` clauses join (both must hold), and any
/// other keyword (annotations included) keeps the earlier value.
pub(crate) fn merge_keyword(k: &str, old: &mut Value, new: Value) -> Result<(), Conflict> {
    match k {
        "type" => {
            let set = |t: &Value| -> Vec<Value> {
                match t {
                    Value::Array(a) => a.clone(),
                    other => vec![other.clone()],
                }
            };
            let (x, y) = (set(old), set(&new));
            let both: Vec<Value> = x
                .iter()
                .filter(|t| {
                    y.contains(t) || (t.as_str() == Some("integer") && y.contains(&json!("number")))
                })
                .cloned()
                .chain(
                    y.iter()
                        .filter(|t| t.as_str() == Some("integer") && x.contains(&json!("number")))
                        .cloned(),
                )
                .collect();
            match both.len() {
                0 => {
                    return Err(Conflict::Malformed(format!(
                        "`allOf` of incompatible types {old} and {new}"
                    )))
                }
                1 => *old = both[0].clone(),
                _ => *old = Value::Array(both),
            }
        }
        "enum" => {
            if let (Value::Array(oe), Value::Array(ne)) = (&mut *old, &new) {
                // (`old` stays as it was on a conflict)
                if !oe.iter().any(|x| ne.contains(x)) {
                    return Err(Conflict::Malformed(
                        "`allOf` of enums with no value in common".into(),
                    ));
                }
                oe.retain(|x| ne.contains(x));
            }
        }
        "additionalProperties" if new == Value::Bool(false) => *old = new,
        "minimum" | "minLength" | "minItems" | "exclusiveMinimum" | "minProperties" => {
            if let (Some(x), Some(y)) = (old.as_f64(), new.as_f64()) {
                if y > x {
                    *old = new;
                }
            }
        }
        "maximum" | "maxLength" | "maxItems" | "exclusiveMaximum" | "maxProperties" => {
            if let (Some(x), Some(y)) = (old.as_f64(), new.as_f64()) {
                if y < x {
                    *old = new;
                }
            }
        }
        "anyOf" | "oneOf" => {
            let both_clauses = [&*old, &new].iter().all(|u| {
                u.as_array()
                    .is_some_and(|a| a.iter().all(|c| required_names(c).is_some()))
            });
            if both_clauses {
                // Two "exactly one of" groups: the note lists both.
                if let (Value::Array(oa), Value::Array(na)) = (&mut *old, new) {
                    oa.extend(na);
                }
            } else if *old != new {
                return Err(Conflict::Unsupported(format!(
                    "`allOf` of several `{k}` unions cannot be expressed as one schema"
                )));
            }
        }
        _ => {}
    }
    Ok(())
}

impl Normalizer<'_> {
    /// Merges `parts` into `s` (which has no shape yet).
    pub(super) fn merge(&mut self, s: &mut Schema, mut parts: Vec<Schema>) {
        if parts.len() <= 1 {
            if let Some(part) = parts.pop() {
                absorb(s, part);
            }
            return;
        }
        let objects: Option<Vec<Schema>> = parts.iter().map(|p| self.object_view(p)).collect();
        match objects {
            Some(objects) => absorb(s, combine(objects, &s.at)),
            None => s.kind = Kind::All(parts),
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
        if p.not.is_some() || !p.alternatives.is_empty() {
            return None;
        }
        match &p.kind {
            Kind::Object(_) => Some(p.clone()),
            Kind::Ref(id) => {
                let def = self.defs.get(*id)?.as_ref()?;
                if def.recursive {
                    return None;
                }
                let mut view = self.object_view(&def.schema)?;
                // The reference's own annotations win over the target's.
                view.desc = p.desc.clone().or(view.desc);
                merge_keywords(&mut view.keywords, p.keywords.clone(), true);
                Some(view)
            }
            _ => None,
        }
    }
}

/// Takes `part`'s shape into `s`: its description and keywords where `s` has none.
fn absorb(s: &mut Schema, part: Schema) {
    if part.not.is_some() {
        s.kind = Kind::All(vec![part]);
        return;
    }
    s.kind = part.kind;
    if s.desc.is_none() {
        s.desc = part.desc;
    }
    merge_keywords(&mut s.keywords, part.keywords, false);
    let own = std::mem::take(&mut s.alternatives);
    s.alternatives = part.alternatives;
    s.alternatives.extend(own);
}

/// Adds `from` to `into`: with `overwrite` (a `$ref`'s own keywords over its target's), every
/// key takes `from`'s value; else a key both have combines as [`merge_keyword`] says (keeping
/// `into`'s value where the two conflict: the model reads the intersection of what it can).
fn merge_keywords(into: &mut Map<String, Value>, from: Map<String, Value>, overwrite: bool) {
    for (k, v) in from {
        match into.get_mut(&k) {
            Some(old) if !overwrite => {
                let _ = merge_keyword(&k, old, v);
            }
            _ => {
                into.insert(k, v);
            }
        }
    }
}

/// Object schemas merged as `allOf` of them: properties in first-seen order (a property two
/// parts give different schemas is the intersection of both), required if any part requires it,
/// closed if any part is closed, the first description.
fn combine(parts: Vec<Schema>, at: &str) -> Schema {
    let mut out = Schema::of(Kind::Any, at);
    let mut o = Object::default();
    // property name -> index in `o.props` (linear time for many properties)
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut required: Vec<String> = Vec::new();
    for part in parts {
        if out.desc.is_none() {
            out.desc = part.desc;
        }
        merge_keywords(&mut out.keywords, part.keywords, false);
        let Kind::Object(p) = part.kind else { continue };
        for prop in p.props {
            if let Some(&i) = index.get(&prop.name) {
                let existing = &mut o.props[i];
                existing.required |= prop.required;
                if existing.schema != prop.schema {
                    let old = std::mem::replace(&mut existing.schema, Schema::of(Kind::Any, at));
                    let pat = old.at.clone();
                    existing.schema = Schema::of(Kind::All(vec![old, prop.schema]), &pat);
                }
            } else {
                index.insert(prop.name.clone(), o.props.len());
                o.props.push(prop);
            }
        }
        required.extend(p.required);
        o.extra = match (std::mem::take(&mut o.extra), p.extra) {
            // `false` in any part closes the object (as `merge_keyword` says)
            (Extra::Closed, _) | (_, Extra::Closed) => Extra::Closed,
            (Extra::Schema(s), _) | (_, Extra::Schema(s)) => Extra::Schema(s),
            _ => Extra::Open,
        };
        o.patterns.extend(p.patterns);
        o.clauses.extend(p.clauses);
    }
    let mut in_rest = HashSet::new();
    for r in required {
        if let Some(&i) = index.get(&r) {
            o.props[i].required = true;
        } else if in_rest.insert(r.clone()) {
            o.required.push(r);
        }
    }
    out.kind = Kind::Object(o);
    out
}
