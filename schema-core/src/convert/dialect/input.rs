//! The rewrites only the tests' reference walk over an input as it is (`walk_input`) does
//! itself: an `allOf` merged (and a `$ref` beside keywords, as an `allOf` of its target and
//! them), a type array split, an enum's `null` as the `nullable` flag, a union's keywords
//! merged into its branches. The conversion walks the lowered document, where the lowering
//! did each of them or named the conflict (`schema::lower`: `Lowered::conflicts`), and
//! never runs them (`Conv::reads_input`); this file is compiled for the tests only.

use super::merge::{merge_parts, part_over_target};
use super::*;

impl Conv<'_> {
    /// Merges `allOf` (and resolves `$ref` branches) into one schema object.
    pub(super) fn merge_all_of(
        &mut self,
        mut m: Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<Map<String, Value>, ConvertError> {
        if depth > MAX_DEPTH {
            return Err(ConvertError::new(at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
        }
        let Some(all) = m.remove("allOf") else {
            return Ok(m);
        };
        #[cfg(test)]
        ALL_OF_MERGES.with(|c| c.set(c.get() + 1));
        let Value::Array(branches) = all else {
            return Err(malformed(at, "`allOf` must be an array".into()));
        };
        // Where each keyword came from (only for a report, and not for the `allOf` a `$ref`'s
        // siblings make with its target, whose origins `Conv::reference` notes): the first
        // part that wrote it.
        // An `allOf` this pass made (of an object's property met twice, of keywords copied
        // into a union's branches) is not in the input: its parts have no pointer there.
        let note = self.record
            && !self.keyword_origins.iter().any(|(w, _)| w == at)
            && matches!(
                self.root.pointer(at).and_then(|v| v.get("allOf")),
                Some(Value::Array(a)) if a.len() == branches.len()
            );
        let own: Vec<String> = if note {
            m.keys().cloned().collect()
        } else {
            Vec::new()
        };
        let mut origins: HashMap<String, String> = HashMap::new();
        let acc = merge_parts(branches, m, at, |bat, mut b| {
            if note {
                // (the part's own keywords at the part; a `$ref` target's, below, at the target)
                for k in b.keys().filter(|k| *k != "$ref") {
                    note_origin(&mut origins, k, bat);
                }
            }
            if let Some(r) = b.remove("$ref") {
                let r = r
                    .as_str()
                    .ok_or_else(|| malformed(bat, "`$ref` must be a string".into()))?;
                let (target, value) = self.graph.target(r, bat)?;
                if self.graph.recursive.contains(&target) {
                    return Err(unsupported(
                        bat,
                        format!("`allOf` over the recursive type `{r}` cannot be merged"),
                    ));
                }
                self.change(bat, ChangeKind::RefInlined);
                let t = walk::target_copy(value).ok_or_else(|| {
                    malformed(bat, "`$ref` to something that is not a schema".into())
                })?;
                if note {
                    for k in t.keys() {
                        note_origin(&mut origins, k, &target);
                    }
                }
                b = part_over_target(t, b, bat)?;
            }
            self.merge_all_of(b, bat, depth + 1)
        })?;
        if !origins.is_empty() {
            // (the schema's own keywords stay at the schema)
            origins.retain(|k, _| !own.contains(k));
            self.keyword_origins.push((at.to_string(), origins));
        }
        Ok(acc)
    }
}

impl Conv<'_> {
    /// The schema `m`'s `allOf` merged (`prepare`): the merged schema, or a `$ref` the merge
    /// kept, with the keywords beside it.
    pub(super) fn input_all_of<'v>(
        &mut self,
        m: Cow<'v, Map<String, Value>>,
        at: &str,
        depth: usize,
    ) -> Result<Result<Cow<'v, Map<String, Value>>, Prepared<'v>>, ConvertError> {
        let mut merged = self.merge_all_of(m.into_owned(), at, depth)?;
        self.change(at, ChangeKind::AllOfMerged);
        if let Some(r) = merged.remove("$ref") {
            let r = r
                .as_str()
                .ok_or_else(|| malformed(at, "`$ref` must be a string".into()))?;
            return Ok(Err(Prepared::Ref(r.to_string(), merged)));
        }
        let mut m = Cow::Owned(merged);
        self.strip_annotations(&mut m, at);
        Ok(Ok(m))
    }

    /// The schema `m`'s type array split (`prepare`): one type, or an `anyOf` of one branch
    /// per type; `null` among them made `nullable`.
    pub(super) fn input_type_array(
        &mut self,
        m: &mut Cow<'_, Map<String, Value>>,
        at: &str,
        nullable: &mut bool,
    ) -> Result<(), ConvertError> {
        let Some(Value::Array(types)) = m.fget("type").cloned() else {
            return Ok(());
        };
        let mut names = Vec::new();
        for t in &types {
            match t.as_str() {
                Some(
                    s @ ("string" | "number" | "integer" | "boolean" | "object" | "array" | "null"),
                ) => {
                    if !names.contains(&s) {
                        names.push(s)
                    }
                }
                _ => {
                    return Err(malformed(
                        &pointer::push(at, "type"),
                        format!("unknown type {t}"),
                    ))
                }
            }
        }
        TYPE_ARRAYS_SPLIT.with(|c| c.set(c.get() + 1));
        if names.contains(&"null") && names.len() > 1 {
            *nullable = true;
            names.retain(|n| *n != "null");
        }
        self.change(at, ChangeKind::TypeArraySplit);
        let m = m.to_mut();
        if names.len() == 1 {
            m.insert("type".into(), names[0].into());
        } else {
            // One branch per type, each with the keywords that apply to it.
            let branches = type_branches(m, &names);
            m.retain(|k, _| is_meta(k));
            m.insert("anyOf".into(), Value::Array(branches));
        }
        Ok(())
    }

    /// The `null` in the schema `m`'s enum made `nullable` (`prepare`).
    pub(super) fn input_null_in_enum(
        &mut self,
        m: &mut Cow<'_, Map<String, Value>>,
        at: &str,
        nullable: &mut bool,
    ) {
        if let Some(Value::Array(e)) = m.to_mut().get_mut("enum") {
            NULLS_IN_ENUMS.with(|c| c.set(c.get() + 1));
            e.retain(|x| !x.is_null());
            *nullable = true;
            self.change(at, ChangeKind::TypeArraySplit);
        }
    }

    /// The union branch `b` (at `bat`) with the keywords `beside` the union merged into it
    /// (`union`; `None`: narrowed away).
    pub(super) fn input_beside(
        &self,
        beside: &Map<String, Value>,
        b: Value,
        bat: &str,
    ) -> Result<Option<Value>, ConvertError> {
        if beside.is_empty() {
            return Ok(Some(b));
        }
        with_beside(beside, b, bat)
    }
}

/// A `$ref`'s target `value` and its `siblings` (keywords that are not annotations) as the
/// walk merges them: an `allOf` of the target and the siblings' own parts, the siblings
/// beside it (`inline`).
pub(super) fn input_ref_siblings(mut siblings: Map<String, Value>, value: &Value) -> Value {
    let mut all = vec![value.clone()];
    if let Some(Value::Array(a)) = siblings.remove("allOf") {
        all.extend(a);
    }
    siblings.insert("allOf".into(), Value::Array(all));
    Value::Object(siblings)
}

/// Notes that keyword `k` of a merged `allOf` came from the schema at `from`, unless an
/// earlier part wrote it.
fn note_origin(origins: &mut HashMap<String, String>, k: &str, from: &str) {
    if !origins.contains_key(k) {
        origins.insert(k.to_string(), from.to_string());
    }
}
