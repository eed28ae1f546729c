//! The walk over the input: one schema at a time, `$ref`s inlined or kept, unions converted
//! branch by branch, nullable wrappers.

use super::branches::Branches;
use super::merge::merge_one;
use super::*;
use crate::convert::schema::over_target;

impl Conv<'_> {
    /// Converts one schema found at `at` in the input.
    pub(super) fn node(
        &mut self,
        v: &Value,
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        if depth > MAX_DEPTH {
            return Err(ConvertError::new(at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(ConvertError::new(
                at,
                ConvertErrorKind::LimitExceeded {
                    limit: "schema nodes after inlining",
                    max: MAX_NODES,
                    found: self.nodes,
                },
            ));
        }
        self.model_rewrites(at, true);
        // Borrowed until something has to change: most schemas are converted without copying.
        let m: Cow<'_, Map<String, Value>> = match v {
            Value::Bool(true) => Cow::Owned(Map::new()),
            Value::Bool(false) => {
                return Err(unsupported(
                    at,
                    "the `false` schema (no value allowed) cannot be expressed".into(),
                ))
            }
            Value::Object(m) => {
                if let Some(r) = m.fget("$ref") {
                    let r = r
                        .as_str()
                        .ok_or_else(|| malformed(at, "`$ref` must be a string".into()))?;
                    // (the model's rewrites in a schema it writes as a `$ref`: no annotation
                    // of its own is dropped here)
                    self.model_rewrites(at, false);
                    let mut siblings = m.clone();
                    siblings.remove("$ref");
                    return self.reference(r, siblings, at, cx, depth);
                }
                Cow::Borrowed(m)
            }
            other => {
                return Err(malformed(
                    at,
                    format!("expected a schema, found {}", kind_of(other)),
                ))
            }
        };
        // (`prepare` may note where a merged `allOf`'s keywords came from: forgotten after)
        let mark = self.keyword_origins.len();
        let out = self.prepared(m, at, cx, depth);
        self.keyword_origins.truncate(mark);
        self.left_out_dropped(at);
        out
    }

    /// Reports the keywords the model left out of the lowered schema at `at` dropped
    /// (`model.rs`: `FromModel::left_out`), where the input writes each.
    pub(super) fn left_out_dropped(&mut self, at: &str) {
        let left = (self.model.filter(|_| self.record)).and_then(|model| model.left_out(at));
        for (place, keyword) in left.map_or(&[][..], |l| l.drops.as_slice()) {
            let keyword = keyword.clone();
            self.record_change(place, ChangeKind::Dropped { keyword });
        }
    }

    /// Converts one schema object found at `at`: normalised, then converted.
    fn prepared(
        &mut self,
        m: Cow<'_, Map<String, Value>>,
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        let (m, nullable, mut notes, skip) = match self.prepare(m, at, depth)? {
            #[cfg(test)]
            Prepared::Ref(r, siblings) => return self.reference(&r, siblings, at, cx, depth),
            Prepared::Schema(m, nullable, notes, skip) => (m, nullable, notes, skip),
        };
        let out = if m.fhas("anyOf") {
            self.union(m.into_owned(), at, cx, depth, &mut notes)?
        } else {
            self.typed(&m, skip, at, cx, depth, &mut notes)?
        };
        Ok(if nullable { self.nullable(out) } else { out })
    }
}

impl<'a> Conv<'a> {
    /// A `$ref` (its sibling keywords in `siblings`): inlined, or kept for recursion and shared
    /// definitions.
    pub(super) fn reference(
        &mut self,
        r: &str,
        siblings: Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        let (target, value) = self.graph.target(r, at)?;
        let recursive = self.graph.recursive.contains(&target);
        let shared = self.options.keeps_shared(self.rules)
            && self.graph.uses.get(&target).copied().unwrap_or(0) > 1;
        if recursive || (shared && !target.is_empty()) {
            let name = self.def_name(&target, value);
            if recursive && !self.rules.recursion {
                return Err(ConvertError::new(
                    at,
                    ConvertErrorKind::RecursionNotAllowed(name),
                ));
            }
            // Gemini: a cycle must pass through an optional property (or an array, a union).
            if recursive
                && self.rules.cycles_need_exit
                && !cx.escape
                && self.current_def.as_deref() == Some(target.as_str())
            {
                return Err(unsupported(
                    at,
                    format!(
                        "the recursive type `{name}` contains itself through required properties only: Gemini allows cycles only through optional properties"
                    ),
                ));
            }
            let reference = if target.is_empty() {
                "#".to_string()
            } else {
                format!("#{}", pointer::push("/$defs", &name))
            };
            let r = json!({ "$ref": reference });
            self.refs_kept += 1;
            // No keyword may stand beside `$ref`: a description moves onto a one-branch
            // `anyOf` around it (which a nullable wrapper then extends).
            let mut wrapper = Map::new();
            for (k, v) in siblings {
                if matches!(k.as_str(), "description" | "title")
                    && v.is_string()
                    && self.rules.ref_descriptions
                {
                    wrapper.insert(k, v);
                } else {
                    self.change(at, ChangeKind::Dropped { keyword: k });
                }
            }
            // (and those the model left out there, as the walk over the input drops them)
            self.left_out_dropped(at);
            if wrapper.is_empty() {
                return Ok(r);
            }
            wrapper.insert("anyOf".into(), Value::Array(vec![r]));
            return Ok(Value::Object(wrapper));
        }
        self.change(at, ChangeKind::RefInlined);
        // (keywords the model left out beside the `$ref`: reported as the walk over the input
        // reports its merge with the target and their drop)
        let merged_at = (self.model.filter(|_| self.record))
            .and_then(|model| model.left_out(at))
            .and_then(|left| left.merged_at.as_deref());
        if let Some(merged_at) = merged_at {
            self.record_change(merged_at, ChangeKind::AllOfMerged);
        }
        let out = self.inline(target, value, siblings, at, cx, depth);
        self.left_out_dropped(at);
        out
    }

    /// Converts the target `value` of a `$ref` at `at` inline, with the `$ref`'s `siblings`.
    fn inline(
        &mut self,
        target: String,
        value: &'a Value,
        siblings: Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        let plain_target = match value {
            Value::Object(t) => !t.fhas("$defs") && !t.fhas("definitions"),
            _ => true,
        };
        if siblings.is_empty() && plain_target {
            // The target as it is: no copy needed.
            return self.node(value, &target, cx, depth + 1);
        }
        // (only with siblings and a report: the common path allocates nothing here)
        let keys: HashMap<String, String> = if self.record {
            siblings
                .keys()
                .map(|k| (k.clone(), at.to_string()))
                .collect()
        } else {
            HashMap::new()
        };
        let merged = if siblings.keys().all(|k| is_meta(k)) {
            let Some(mut t) = target_copy(value) else {
                return self.node(value, &target, cx, depth + 1);
            };
            // (annotations only: each replaces the target's)
            over_target(&mut t, siblings, |old, k, v| merge_one(old, k, v, at))?;
            Value::Object(t)
        } else {
            // (the tests' reference walk over an input: an `allOf` of the target and the
            // siblings, which it merges)
            #[cfg(test)]
            if self.reads_input() {
                let merged = input::input_ref_siblings(siblings, value);
                return self.inlined(&merged, &target, keys, cx, depth);
            }
            let what = "a `$ref` beside keywords the lowering did not merge";
            return Err(self.conflict(at, what));
        };
        self.inlined(&merged, &target, keys, cx, depth)
    }

    /// A `$ref`'s target merged with its siblings (`merged`), converted at the target's place
    /// `target`, a change to one of the siblings' keywords (`keys`, each with the `$ref`'s
    /// place) reported at the `$ref`.
    fn inlined(
        &mut self,
        merged: &Value,
        target: &str,
        keys: HashMap<String, String>,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        if keys.is_empty() {
            return self.node(merged, target, cx, depth + 1);
        }
        let mark = self.keyword_origins.len();
        self.keyword_origins.push((target.to_string(), keys));
        let out = self.node(merged, target, cx, depth + 1);
        self.keyword_origins.truncate(mark);
        out
    }

    /// The `$defs` name of a kept reference target (registering it, with its value, for
    /// conversion).
    pub(super) fn def_name(&mut self, target: &str, value: &'a Value) -> String {
        if target.is_empty() {
            return "#".into();
        }
        if let Some(n) = self.def_names.get(target) {
            return n.clone();
        }
        let base = pointer::last_token(target);
        let base = if base.is_empty() {
            "Def".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut i = 2;
        while self.names_taken.contains(&name) {
            name = format!("{base}{i}");
            i += 1;
        }
        self.names_taken.insert(name.clone());
        self.def_names.insert(target.to_string(), name.clone());
        self.pending.push((target.to_string(), value));
        name
    }
}

impl Conv<'_> {
    /// Reports the rewrites the model did in the lowered schema at `at` (but a `oneOf` read
    /// as `anyOf` and keywords merged into a union's branches, reported where the walk would
    /// report its own), as the walk reports its own.
    /// `early`: those reported before the schema's annotations are dropped; else the others.
    pub(super) fn model_rewrites(&mut self, at: &str, early: bool) {
        let Some(model) = self.model.filter(|_| self.record) else {
            return;
        };
        let (before, after) = model.rewrites_at(at);
        for (input_at, kind) in if early { before } else { after } {
            if !matches!(
                kind,
                ChangeKind::OneOfToAnyOf | ChangeKind::DistributedIntoBranches
            ) {
                self.record_change(input_at, kind.clone());
            }
        }
    }

    /// Reports the model's rewrite `kind` in the lowered schema at `at`, if it did one there.
    pub(super) fn model_rewrite(&mut self, at: &str, kind: ChangeKind) {
        let Some(model) = self.model.filter(|_| self.record) else {
            return;
        };
        let (before, after) = model.rewrites_at(at);
        for (input_at, k) in before.iter().chain(after) {
            if *k == kind {
                self.record_change(input_at, kind.clone());
            }
        }
    }

    /// Makes a converted schema nullable: `anyOf [schema, {"type": "null"}]`, the description
    /// kept on the union.
    pub(super) fn nullable(&mut self, out: Value) -> Value {
        // `{"type": "null"}`, built only when needed.
        let null = || {
            let mut n = Map::with_capacity(1);
            n.insert("type".into(), Value::String("null".into()));
            Value::Object(n)
        };
        let is_null = |v: &Value| matches!(v, Value::Object(n) if n.len() == 1 && n.fget("type").and_then(Value::as_str) == Some("null"));
        let Value::Object(mut m) = out else {
            return out;
        };
        if m.fhas("anyOf") {
            if let Some(Value::Array(branches)) = m.get_mut("anyOf") {
                if !branches.iter().any(is_null) {
                    branches.push(null());
                }
                return Value::Object(m);
            }
        }
        if m.fget("type").and_then(Value::as_str) == Some("null") {
            return Value::Object(m);
        }
        let mut wrapper = Map::with_capacity(3);
        for k in ["title", "description"] {
            if m.fhas(k) {
                if let Some(v) = m.remove(k) {
                    wrapper.insert(k.into(), v);
                }
            }
        }
        wrapper.insert("anyOf".into(), Value::Array(vec![Value::Object(m), null()]));
        Value::Object(wrapper)
    }

    /// A union: each branch converted; keywords beside it are copied into the branches.
    pub(super) fn union(
        &mut self,
        mut m: Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
        notes: &mut Vec<String>,
    ) -> Result<Value, ConvertError> {
        let Some(Value::Array(branches)) = m.remove("anyOf") else {
            return Err(malformed(at, "`anyOf` must be an array".into()));
        };
        let beside: Map<String, Value> = m
            .iter()
            .filter(|(k, _)| !is_meta(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !beside.is_empty() {
            if !self.reads_input() {
                let what = "keywords beside a union the lowering did not merge into its branches";
                return Err(self.conflict(at, what));
            }
            #[cfg(test)]
            UNION_DISTRIBUTIONS.with(|c| c.set(c.get() + 1));
            self.change(at, ChangeKind::DistributedIntoBranches);
        } else {
            self.model_rewrite(at, ChangeKind::DistributedIntoBranches);
        }
        let mut out_branches = Branches::default();
        for (i, b) in branches.into_iter().enumerate() {
            let bat = pointer::push(&pointer::push(at, "anyOf"), &i.to_string());
            #[cfg(test)]
            let Some(b) = self.input_beside(&beside, b, &bat)?
            else {
                continue;
            };
            let bcx = Cx { escape: true, ..cx };
            let converted = self.node(&b, &bat, bcx, depth + 1)?;
            // Flatten a nested plain union.
            match converted {
                Value::Object(cm) if cm.len() == 1 && cm.fhas("anyOf") => {
                    if let Some(Value::Array(inner)) = cm.fget("anyOf") {
                        for x in inner {
                            out_branches.push_distinct(x);
                        }
                    }
                }
                other => out_branches.push_merging(other),
            }
        }
        let mut out_branches = out_branches.into_vec();
        if out_branches.is_empty() {
            return Err(malformed(
                at,
                "no branch of the union matches the type beside it".into(),
            ));
        }
        let mut out = Map::new();
        let mut tags = Vec::new();
        for (k, v) in m {
            match k.as_str() {
                "title" | "description" => {
                    if !v.is_string() {
                        return Err(malformed(
                            &pointer::push(at, &k),
                            format!("`{k}` must be a string"),
                        ));
                    }
                    out.insert(k, v);
                }
                "default" => {
                    tags.push(tag_line(&k, &v));
                    self.change(at, ChangeKind::MovedToDescription { keyword: k });
                }
                _ => {}
            }
        }
        if out_branches.len() == 1 {
            // A one-branch union is the branch.
            if let Value::Object(mut single) = out_branches.pop().unwrap_or_default() {
                for (k, v) in out {
                    single.entry(k).or_insert(v);
                }
                apply_notes(&mut single, notes, &tags);
                return Ok(Value::Object(single));
            }
        }
        out.insert("anyOf".into(), Value::Array(out_branches));
        apply_notes(&mut out, notes, &tags);
        Ok(Value::Object(out))
    }
}

/// The union branch `b` (at `bat`) with the keywords `beside` the union merged into it, as the
/// union pass reads it (the lowering writes the same, `schema/lower.rs`): `None` for a branch
/// of another `type` than the one beside (narrowed away); a branch with a `$ref` becomes an
/// `allOf` of the keywords and the branch.
pub(crate) fn with_beside(
    beside: &Map<String, Value>,
    b: Value,
    bat: &str,
) -> Result<Option<Value>, ConvertError> {
    let mut base = beside.clone();
    Ok(Some(match b {
        Value::Object(bm) => {
            // A `type` beside the union only narrows branches of another type away.
            if let (Some(Value::String(outer)), Some(Value::String(inner))) =
                (base.fget("type"), bm.fget("type"))
            {
                if outer != inner && !(outer == "number" && inner == "integer") {
                    return Ok(None);
                }
            }
            if bm.fhas("$ref") {
                let mut m2 = Map::new();
                m2.insert(
                    "allOf".into(),
                    json!([Value::Object(base), Value::Object(bm)]),
                );
                Value::Object(m2)
            } else {
                merge_into(&mut base, bm, bat)?;
                Value::Object(base)
            }
        }
        Value::Bool(true) => Value::Object(base),
        other => other,
    }))
}

/// A copy of a `$ref`'s target to merge its sibling keywords into, without the target's own
/// definitions (which are not part of the value); `None` when the target is not an object or
/// `true`.
pub(crate) fn target_copy(value: &Value) -> Option<Map<String, Value>> {
    let mut t = match value {
        Value::Object(t) => t.clone(),
        Value::Bool(true) => Map::new(),
        _ => return None,
    };
    t.remove("$defs");
    t.remove("definitions");
    Some(t)
}
