//! The root pass: a root `$ref` followed (the root's own keywords combined with its target's),
//! a root union of tagged objects merged into one object (where the dialect's table says so),
//! and the kept definitions converted and attached as `$defs`.

use super::merge::{merge_one, rest_over_positions};
use super::*;
use crate::convert::schema::over_target;
use table::RootUnion;

impl Conv<'_> {
    /// The root: a union of tagged objects is merged into one object first.
    pub(super) fn root_schema(&mut self) -> Result<Value, ConvertError> {
        let mut root: Cow<'_, Value> = Cow::Borrowed(self.root);
        let mut at = String::new();
        // A root that is only a reference: convert its target as the root.
        // (on a lowered document, such a root with keywords beside its `$ref` that are not
        // annotations is written merged, or named a conflict; left as it is, its target was
        // itself a `$ref` beside keywords to a definition the walk keeps: read as any such
        // `$ref`, after the merge the lowering did)
        let own_keywords = (self.root.as_object()).is_some_and(|m| {
            m.keys()
                .any(|k| !matches!(k.as_str(), "$ref" | "$defs" | "definitions") && !is_meta(k))
        });
        if !self.reads_input() && own_keywords && self.root.fhas("$ref") {
            if self.conflicts().iter().any(|(p, _)| p.is_empty()) {
                return Err(self.conflict("", ""));
            }
        } else if let Some(Value::String(r)) = self.root.fget("$ref") {
            if !self.graph.recursive.contains("") {
                let (to, target) = self.graph.target(r, "")?;
                let mut merged = target.clone();
                if let (Value::Object(m), Value::Object(own)) = (&mut merged, self.root) {
                    // the root's own keywords over the target's, as beside any `$ref` (before,
                    // all but annotations were dropped without a report)
                    let own: Map<String, Value> = own
                        .iter()
                        .filter(|(k, _)| !matches!(k.as_str(), "$ref" | "$defs" | "definitions"))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    let mut own = own;
                    if self.record && self.model.is_some() {
                        // (the root's own keywords reported at the root, not at the target)
                        let keys = own.keys().map(|k| (k.clone(), String::new())).collect();
                        self.keyword_origins.push((to.clone(), keys));
                    }
                    rest_over_positions(m, &mut own);
                    over_target(m, own, |old, k, v| merge_one(old, k, v, ""))?;
                }
                self.model_rewrites("", true);
                self.model_rewrites("", false);
                self.change("", ChangeKind::RefInlined);
                root = Cow::Owned(merged);
                at = to;
            }
        }
        let merge = self.rules.root_union == RootUnion::OneObject;
        if let Some(merged) = self.merge_root_union(&root, &at)?.filter(|_| merge) {
            self.change("", ChangeKind::UnionMerged);
            root = Cow::Owned(merged);
        }
        let out = self.node(&root, &at, Cx::default(), 0)?;
        if !at.is_empty() {
            // (the root's own keywords the model left out, beside its `$ref`)
            self.left_out_dropped("");
        }
        let object = |v: &Value| v.fget("type").and_then(Value::as_str) == Some("object");
        // A union of objects stands at the root where the dialect keeps root unions.
        let union_of_objects = self.rules.root_union == RootUnion::AnyOf
            && matches!(out.fget("anyOf"), Some(Value::Array(b)) if b.iter().all(object));
        if self.rules.root_object && !object(&out) && !union_of_objects {
            return Err(ConvertError::new("", ConvertErrorKind::RootNotObject));
        }
        Ok(out)
    }

    /// Converts the pending definitions and attaches `$defs` to the root.
    pub(super) fn finish(&mut self, mut root: Value) -> Result<Value, ConvertError> {
        while let Some((target, value)) = self.pending.pop() {
            self.current_def = Some(target.clone());
            let converted = self.node(value, &target, Cx::default(), 1)?;
            let name = self.def_names.get(&target).cloned().unwrap_or_default();
            self.defs.push((name, converted));
        }
        if !self.defs.is_empty() {
            let mut defs: Vec<_> = std::mem::take(&mut self.defs);
            defs.sort_by(|a, b| a.0.cmp(&b.0));
            if let Value::Object(m) = &mut root {
                m.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
            }
        }
        Ok(root)
    }

    /// If `root` is an `anyOf` / `oneOf` of objects that share a tag property (a `const` in each),
    /// the one object that covers every branch.
    pub(super) fn merge_root_union(
        &mut self,
        root: &Value,
        root_at: &str,
    ) -> Result<Option<Value>, ConvertError> {
        let Some(map) = root.as_object() else {
            return Ok(None);
        };
        let (key, branches) = match (map.fget("anyOf"), map.fget("oneOf")) {
            (Some(Value::Array(b)), None) => ("anyOf", b),
            (None, Some(Value::Array(b))) => ("oneOf", b),
            _ => return Ok(None),
        };
        if map.fhas("properties") || branches.is_empty() {
            return Ok(None);
        }
        // Resolve each branch (a `$ref` to a variant type, an `allOf`).
        let mut objs = Vec::new();
        for (i, b) in branches.iter().enumerate() {
            let at = pointer::push(&pointer::push("", key), &i.to_string());
            let mut b = b.clone();
            if let Some(Value::String(r)) = b.fget("$ref") {
                b = self.graph.target(r, &at)?.1.clone();
            }
            if b.fget("allOf").is_some() && !self.reads_input() {
                // (an `allOf` the lowering left as written: its parts do not merge)
                // (where the walk meets the branch's `allOf`: at its target, or in the root's)
                let at = match branches[i].fget("$ref") {
                    Some(Value::String(r)) => self.graph.target(r, &at)?.0,
                    _ => pointer::push_index(&pointer::push(root_at, key), i),
                };
                return Err(self.conflict(&at, "an `allOf` the lowering did not merge"));
            }
            #[cfg(test)]
            if b.fget("allOf").is_some() {
                if let Value::Object(m) = b {
                    b = Value::Object(self.merge_all_of(m, &at, 1)?);
                }
            }
            match b {
                Value::Object(m) if m.fget("properties").is_some_and(Value::is_object) => {
                    objs.push(m)
                }
                _ => return Ok(None),
            }
        }
        // (a conflict the lowering named inside a branch: the walk of the merged object would
        // meet it elsewhere, its schema moved; the first, at once)
        if !self.reads_input() && self.rules.root_union == RootUnion::OneObject {
            for (i, b) in branches.iter().enumerate() {
                let place = match b.fget("$ref") {
                    Some(Value::String(r)) => self.graph.target(r, "")?.0,
                    _ => pointer::push_index(&pointer::push(root_at, key), i),
                };
                let under = |p: &str| {
                    p.strip_prefix(place.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                };
                if let Some((_, e)) = self.conflicts().iter().find(|(p, _)| under(p)) {
                    return Err(e.clone());
                }
            }
        }
        let required_of = |m: &Map<String, Value>| -> Vec<String> {
            m.fget("required")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let tag_value = |p: &Value| -> Option<Value> {
            if let Some(c) = p.fget("const") {
                return Some(c.clone());
            }
            match p.fget("enum") {
                Some(Value::Array(e)) if e.len() == 1 => Some(e[0].clone()),
                _ => None,
            }
        };
        let first_props = objs[0]["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let tag = first_props.keys().find(|name| {
            objs.iter().all(|o| {
                required_of(o).contains(name)
                    && o["properties"]
                        .get(name.as_str())
                        .and_then(tag_value)
                        .is_some_and(|v| v.is_string())
            })
        });
        let Some(tag) = tag.cloned() else {
            return Ok(None);
        };
        let mut props: Vec<(String, Value)> = Vec::new();
        let mut tags = Vec::new();
        let mut tag_docs = Vec::new();
        let mut tag_desc: Option<Value> = None;
        for o in &objs {
            let p = &o["properties"][&tag];
            let value = tag_value(p).unwrap_or_default();
            if tag_desc.is_none() {
                tag_desc = p.fget("description").cloned();
            }
            if let Some(Value::String(d)) = o.fget("description") {
                tag_docs.push(format!("- {}: {}", tag_text(&value), d));
            }
            tags.push(value);
        }
        let mut tag_schema = Map::new();
        tag_schema.insert("type".into(), "string".into());
        tag_schema.insert("enum".into(), Value::Array(tags.clone()));
        let mut desc = tag_desc
            .and_then(|d| d.as_str().map(str::to_string))
            .unwrap_or_default();
        if !tag_docs.is_empty() {
            if !desc.is_empty() {
                desc.push_str("\n\n");
            }
            desc.push_str(&tag_docs.join("\n"));
        }
        if !desc.is_empty() {
            tag_schema.insert("description".into(), desc.into());
        }
        props.push((tag.clone(), Value::Object(tag_schema)));
        // (each property found by name, and its owners and requirers counted on the way: a
        // lookup in the list per property was quadratic in the number of variants)
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut owners: Vec<Vec<usize>> = vec![Vec::new()];
        for (i, o) in objs.iter().enumerate() {
            for (name, schema) in o["properties"].as_object().into_iter().flatten() {
                if *name == tag {
                    continue;
                }
                match index.get(name) {
                    Some(&at) => {
                        owners[at].push(i);
                        let existing = &mut props[at].1;
                        if existing == schema {
                            continue;
                        }
                        let mut alts = match existing.fget("anyOf") {
                            Some(Value::Array(a))
                                if existing.as_object().is_some_and(|m| m.len() == 1) =>
                            {
                                a.clone()
                            }
                            _ => vec![existing.clone()],
                        };
                        if !alts.contains(schema) {
                            alts.push(schema.clone());
                        }
                        *existing = json!({ "anyOf": alts });
                    }
                    None => {
                        index.insert(name.clone(), props.len());
                        owners.push(vec![i]);
                        props.push((name.clone(), schema.clone()));
                    }
                }
            }
        }
        // A payload property says which tag value it belongs to: the one object lets the model
        // write any property beside any tag.
        for ((_, schema), owned) in props.iter_mut().zip(&owners).skip(1) {
            if owned.len() < objs.len() {
                let owners: Vec<&Value> = owned.iter().map(|&i| &tags[i]).collect();
                owner_note(schema, &tag, &owners);
            }
        }
        // (how many variants require each property, each variant counted once)
        let mut requirers = vec![0usize; props.len()];
        let mut last = vec![usize::MAX; props.len()];
        for (i, o) in objs.iter().enumerate() {
            for name in required_of(o) {
                if let Some(&at) = index.get(&name) {
                    if last[at] != i {
                        last[at] = i;
                        requirers[at] += 1;
                    }
                }
            }
        }
        let mut required = vec![Value::String(tag.clone())];
        for (at, (name, _)) in props.iter().enumerate().skip(1) {
            if requirers[at] == objs.len() {
                required.push(Value::String(name.clone()));
            }
        }
        let closed = objs
            .iter()
            .all(|o| o.fget("additionalProperties") == Some(&Value::Bool(false)));
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        for k in ["title", "description"] {
            if let Some(v) = map.get(k) {
                out.insert(k.into(), v.clone());
            }
        }
        out.insert(
            "properties".into(),
            Value::Object(props.into_iter().collect()),
        );
        out.insert("required".into(), Value::Array(required));
        if closed {
            out.insert("additionalProperties".into(), false.into());
        }
        Ok(Some(Value::Object(out)))
    }
}

/// Appends "(Only when `tag` is "a" or "b".)" to a payload property's description.
fn owner_note(schema: &mut Value, tag: &str, owners: &[&Value]) {
    let Value::Object(m) = schema else {
        return;
    };
    let values: Vec<String> = owners.iter().map(|v| v.to_string()).collect();
    let note = format!("(Only when `{tag}` is {}.)", values.join(" or "));
    match m.get_mut("description") {
        Some(Value::String(d)) if !d.is_empty() => {
            d.push_str("\n\n");
            d.push_str(&note);
        }
        _ => {
            m.insert("description".into(), Value::String(note));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::convert::{to_dialect, to_typescript};
    use crate::Dialect;
    use serde_json::json;

    /// A root `$ref`'s own keywords combine with its target's, as beside any other `$ref` and
    /// as the model reads them: before, the root's own `properties` and `required` were
    /// dropped without a report (the output had no `foo`, and OpenAI's closed object forbade
    /// it).
    #[test]
    fn root_ref_keeps_its_own_keywords() {
        let schema = json!({
            "$ref": "#/$defs/Base",
            "properties": {"foo": {"type": "string", "maxLength": 3}},
            "required": ["foo"],
            "description": "own",
            "$defs": {"Base": {"type": "object", "properties": {"bar": {"type": "integer"}}, "required": ["bar"]}}
        });
        for d in [Dialect::Xgrammar, Dialect::OpenAi, Dialect::Gemini] {
            let out = to_dialect(&schema, d).unwrap();
            let keys: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
            assert_eq!(keys, ["bar", "foo"], "{d} {out}");
            assert_eq!(out["required"], json!(["bar", "foo"]), "{d} {out}");
            assert_eq!(out["description"], json!("own"), "{d} {out}");
        }
        let text = to_typescript(&schema, &Default::default()).unwrap();
        assert_eq!(
            text,
            "/* own */ {bar: number /* int */; foo: string /* max 3 chars */}"
        );
    }
}
