//! `allOf` merging on the model: the parts of one schema (its own shape, its `$ref` target, its
//! `allOf` members) become one object when they are all objects, or stay an intersection.

use super::normalize::Normalizer;
use super::{Extra, Kind, Object, Schema};
use serde_json::Map;
use std::collections::{HashMap, HashSet};

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

/// Adds `from` to `into`: keys `into` has keep its value unless `overwrite`.
fn merge_keywords(
    into: &mut Map<String, serde_json::Value>,
    from: Map<String, serde_json::Value>,
    overwrite: bool,
) {
    for (k, v) in from {
        if overwrite || !into.contains_key(&k) {
            into.insert(k, v);
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
            (Extra::Schema(s), _) | (_, Extra::Schema(s)) => Extra::Schema(s),
            (Extra::Closed, _) | (_, Extra::Closed) => Extra::Closed,
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
