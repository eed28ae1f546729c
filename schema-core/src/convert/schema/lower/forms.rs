//! The forms the dialect walk reads an input in, which the lowering writes: a union's keywords
//! copied into its branches ([`Lower::beside_into_branches`], a reference branch written as
//! its definition for it: [`Lower::inline_ref_branches`]), a type array split ([`split_types`]),
//! an enum's `null` as the `nullable` flag ([`null_in_enum`]), the `null` branch the
//! normalizer added for `nullable: true` as the flag ([`added_null`], [`from_nullable`]).

use super::*;
use crate::convert::dialect::const_branch;
use crate::convert::ConvertErrorKind;
use serde_json::json;

/// A schema with a union's keywords merged into its branches, and those keywords (`None`: left
/// as written).
type Distributed = (Map<String, Value>, Option<Vec<String>>);

impl Lower<'_> {
    /// A union with keywords beside it in the form the dialect walk reads: the keywords that
    /// are not annotations merged into each branch (`dialect::with_beside`, the walk's own
    /// merge), the annotations staying beside the union; in each branch, what that merge wrote
    /// as an `allOf` of two merged ([`Lower::settle`]) and a union's keywords merged into its
    /// branches likewise. Left as written where the walk reads it otherwise or would fail:
    /// beside an `allOf`, a `$ref` or a `oneOf`, with a branch that has a `$ref` (one to a
    /// recursive definition: [`Lower::inline_ref_branches`] writes the others in place), or
    /// where the merge fails or no branch is left (the walk reports it).
    /// Returns the keywords merged into the branches, if any.
    pub(super) fn beside_into_branches(
        &mut self,
        m: Map<String, Value>,
        p: &str,
    ) -> R<Distributed> {
        if !m.fhas("anyOf") || ["allOf", "$ref", "oneOf"].iter().any(|k| m.fhas(k)) {
            return Ok((m, None));
        }
        // (the keywords in the walk's order: its `nullable` taken out first, which moves the
        // last keyword into its place)
        let mut keys: Vec<&String> = m.keys().collect();
        if let Some(i) = keys.iter().position(|k| *k == "nullable") {
            keys.swap_remove(i);
        }
        // (a definitions table is no keyword of the value: the walk drops it before the union)
        keys.retain(|k| !matches!(k.as_str(), "anyOf" | "$defs" | "definitions") && !is_meta(k));
        if keys.is_empty() {
            return Ok((m, None));
        }
        let beside: Map<String, Value> = keys
            .into_iter()
            .filter_map(|k| m.fget(k).map(|v| (k.clone(), v.clone())))
            .collect();
        let Some(Value::Array(branches)) = m.fget("anyOf") else {
            return Ok((m, None));
        };
        if beside.is_empty() {
            return Ok((m, None));
        }
        // (every branch gets a copy of the keywords: their total is bounded by the input's
        // size, so that `n` branches beside `n` properties cost no `n²` work)
        let values: usize = beside.values().map(crate::vocab::values_in).sum();
        self.copied += values.saturating_mul(branches.len());
        if self.copied > self.copy_budget {
            return Err(super::Unlowerable {
                at: p.to_string(),
                why: super::TOO_MANY_COPIES,
            });
        }
        // (each branch where the walk meets it: a branch of another type than the one beside
        // is narrowed away, and the later ones move up)
        let mut out = Vec::with_capacity(branches.len());
        let mut from = Vec::with_capacity(branches.len());
        let mark = self.conflicts.len();
        for (i, b) in branches.iter().enumerate() {
            let bat = pointer::push_index(&pointer::push(p, "anyOf"), out.len());
            let b = match with_beside(&beside, b.clone(), &bat) {
                // (a reference branch: an `allOf` of the keywords and the reference, merged)
                Ok(Some(Value::Object(all))) if all.fhas("allOf") => {
                    match self.merge_all_of(&all, &bat, 0)? {
                        Ok(merged) => Value::Object(self.forms(merged, &bat)?),
                        // (the error named where the walk meets it, `settle.rs`)
                        Err(_) => {
                            self.left = true;
                            Value::Object(all)
                        }
                    }
                }
                Ok(Some(Value::Object(mut b))) => {
                    // (what the merge wrote as an `allOf` of two, merged; a union in the
                    // branch with keywords beside it now, those merged into its branches)
                    self.settle(&mut b, &bat, 0)?;
                    Value::Object(self.forms(b, &bat)?)
                }
                Ok(Some(b)) => b,
                Ok(None) => continue,
                // (the keywords and the branch do not merge: the branch as the walk makes
                // it, an `allOf` of both, and the error where the walk meets it)
                Err(e) => {
                    let all = json!({"allOf": [Value::Object(beside.clone()), b.clone()]});
                    self.conflicts.push((bat, e));
                    all
                }
            };
            out.push(b);
            from.push(i);
        }
        if out.is_empty() {
            // (no branch left: the union's error, where the walk meets it)
            self.conflicts.truncate(mark);
            let e = ConvertError::new(
                p,
                ConvertErrorKind::Malformed(
                    "no branch of the union matches the type beside it".into(),
                ),
            );
            self.conflicts.push((p.to_string(), e));
            // (named again where the schema ends up, should a merge move it)
            self.left = true;
            return Ok((m, None));
        }
        if from.len() < branches.len() {
            self.branches_moved(p, &from);
        }
        let constants = |bs: &[Value]| bs.iter().all(|b| const_branch(b).is_some());
        if constants(&out) && !constants(branches) {
            self.plain_unions.push(p.to_string());
        }
        let mut m = m;
        m.retain(|k, _| !beside.contains_key(k));
        if let Some(union) = m.fget_mut("anyOf") {
            *union = Value::Array(out);
        }
        Ok((m, Some(beside.keys().cloned().collect())))
    }

    /// A schema (at `p`) a merge wrote, in the forms the walk reads: a `$ref` beside keywords
    /// merged with its target, a type array split, an enum's `null` as the flag, a union's
    /// keywords merged into its branches.
    pub(super) fn forms(&mut self, mut m: Map<String, Value>, p: &str) -> R<Map<String, Value>> {
        // (a `$ref` the merge kept beside keywords: merged with its target, `merged.rs`)
        if !p.is_empty() {
            m = self.refs_merged(m, p)?.0;
        }
        let mut m = null_in_enum(split_types(m));
        self.inline_ref_branches(&mut m, p)?;
        let (m, moved) = self.beside_into_branches(m, p)?;
        if let Some(keys) = moved {
            self.distributed.push((p.to_string(), keys));
        }
        Ok(m)
    }

    /// The side table's entries under the keywords `keys` of the schema at `p`, which were
    /// merged into its union's branches: each where it is in every branch of `v` (the
    /// entries from `start` on are the schema's); a branch's own entry whose schema the merge
    /// combined with a keyword's is left out.
    pub(super) fn rehome(&mut self, v: &Value, p: &str, keys: &[String], start: usize) {
        let prefixes: Vec<String> = keys.iter().map(|k| pointer::push(p, k)).collect();
        let under = |out: &str| {
            prefixes.iter().any(|pre| {
                out.strip_prefix(pre.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        };
        let mine = self.origins.split_off(start);
        let union = v.fget("anyOf").and_then(Value::as_array);
        let branches = pointer::push(p, "anyOf");
        for (out, at) in mine {
            if !under(&out) {
                // (a branch's own schema where a keyword merged into it combined with its own
                // is not in the output as it was: left out)
                let gone =
                    out.starts_with(branches.as_str()) && v.pointer(&out[p.len()..]).is_none();
                if !gone {
                    self.origins.push((out, at));
                }
                continue;
            }
            let rest = &out[p.len()..];
            for (j, b) in union.into_iter().flatten().enumerate() {
                if b.pointer(rest).is_some() {
                    let bat = pointer::push_index(&pointer::push(p, "anyOf"), j);
                    self.origins.push((format!("{bat}{rest}"), at));
                }
            }
        }
    }

    /// The side table's entries under the branches of the union at `p` moved where the
    /// branches are after some were narrowed away: the branch at `from[j]` is now at `j`, the
    /// others' entries left out.
    fn branches_moved(&mut self, p: &str, from: &[usize]) {
        let union = pointer::push(p, "anyOf");
        let index = |out: &str| -> Option<(usize, usize)> {
            let rest = out.strip_prefix(union.as_str())?.strip_prefix('/')?;
            let end = rest.find('/').unwrap_or(rest.len());
            Some((rest[..end].parse().ok()?, union.len() + 1 + end))
        };
        // (the union's own entries are the last ones, pushed as its branches were lowered: only
        // the run of entries under `p` at the end is read, so that many unions take linear
        // work; a union a merge moved keeps its branches' entries where they were)
        let under = |out: &str| out.strip_prefix(p).is_some_and(|r| r.starts_with('/'));
        let run = (self.origins.iter().rev())
            .take_while(|(out, _)| under(out))
            .count();
        let tail = self.origins.split_off(self.origins.len() - run);
        #[cfg(test)]
        ORIGINS_MOVED.with(|c| c.set(c.get() + run as u64));
        let mut moved = Vec::with_capacity(run);
        for (out, at) in tail {
            match index(&out) {
                Some((i, cut)) => {
                    if let Some(j) = from.iter().position(|x| *x == i) {
                        let at_j = pointer::push_index(&union, j);
                        moved.push((format!("{at_j}{}", &out[cut..]), at));
                    }
                }
                None => moved.push((out, at)),
            }
        }
        self.origins.extend(moved);
    }

    /// A union with keywords beside it whose branches include a reference to a non-recursive
    /// definition other than the root (`{"$ref": ..}` alone): each such branch written as the
    /// definition, lowered at the branch, so that the keywords merge into it as into any
    /// branch ([`Lower::beside_into_branches`]; the walk would make an `allOf` of the keywords
    /// and the reference and merge it).
    pub(super) fn inline_ref_branches(&mut self, m: &mut Map<String, Value>, p: &str) -> R<()> {
        if !m.fhas("anyOf") || ["allOf", "$ref", "oneOf"].iter().any(|k| m.fhas(k)) {
            return Ok(());
        }
        let beside = |k: &String| {
            !matches!(k.as_str(), "anyOf" | "nullable" | "$defs" | "definitions") && !is_meta(k)
        };
        if !m.keys().any(beside) {
            return Ok(());
        }
        let Some(Value::Array(branches)) = m.fget_mut("anyOf") else {
            return Ok(());
        };
        for (i, b) in branches.iter_mut().enumerate() {
            let Some(Value::String(r)) = b
                .fget("$ref")
                .filter(|_| b.as_object().map(Map::len) == Some(1))
            else {
                continue;
            };
            // (rare: the table searched by its references as written)
            let Some(def) = self.doc.defs.iter().find(|d| d.target == *r) else {
                continue;
            };
            if def.recursive || def.target == "#" {
                continue;
            }
            let bat = pointer::push_index(&pointer::push(p, "anyOf"), i);
            *b = self.schema(&def.schema, bat)?;
        }
        Ok(())
    }
}

/// A type array in the form the dialect walk reads: one type alone (`["string", "null"]`: the
/// type and `nullable: true`), or an `anyOf` of one branch per type, each with the keywords
/// that apply to it and the enum values of its type (a type no value of the enum has left out),
/// the annotations staying beside the union; a `nullable` beside the array (`true`: null one
/// more type) written as the flag after the split. Unknown type names stay as written (the
/// walk reports them).
pub(super) fn split_types(mut m: Map<String, Value>) -> Map<String, Value> {
    const NAMES: [&str; 7] = [
        "string", "number", "integer", "boolean", "object", "array", "null",
    ];
    let Some(Value::Array(types)) = m.fget("type") else {
        return m;
    };
    let mut names: Vec<&'static str> = Vec::with_capacity(types.len());
    for t in types {
        let Some(name) = NAMES.iter().copied().find(|n| t.as_str() == Some(*n)) else {
            return m;
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    // (`nullable` beside the array: null one more type where it is `true`, as the walk reads
    // it; the flag written after the split)
    let flag = m.remove("nullable");
    let own = flag == Some(Value::Bool(true)) && names != ["null"];
    let nullable = own || (names.len() > 1 && names.contains(&"null"));
    names.retain(|n| !(nullable && *n == "null"));
    if let [one] = names.as_slice() {
        if let Some(t) = m.fget_mut("type") {
            *t = Value::String(one.to_string());
        }
    } else {
        let branches = type_branches(&m, &names);
        m.retain(|k, _| is_meta(k));
        m.insert("anyOf".into(), Value::Array(branches));
    }
    if nullable {
        m.insert("nullable".into(), Value::Bool(true));
    }
    m
}

/// `null` among an enum's values (with others) as the dialect walk reads it: the values without
/// it, and the `nullable` flag.
pub(super) fn null_in_enum(mut m: Map<String, Value>) -> Map<String, Value> {
    let Some(Value::Array(values)) = m.fget_mut("enum") else {
        return m;
    };
    if values.len() < 2 || !values.contains(&Value::Null) {
        return m;
    }
    values.retain(|v| !v.is_null());
    match m.fget_mut("nullable") {
        Some(flag) => *flag = Value::Bool(true),
        None => {
            m.insert("nullable".into(), Value::Bool(true));
        }
    }
    m
}

/// Whether the last branch of the schema's first `anyOf` union is the `{"type": "null"}` the
/// normalizer added for the schema's own `nullable: true` (read at the schema's own place, not
/// at a branch of the input; `nullable::null_schema`).
pub(super) fn added_null(s: &Schema) -> bool {
    let nullable = s.order.iter().any(|k| k == "nullable");
    // (the first `anyOf`; a `oneOf` alone, which the lowering writes as `anyOf`, likewise)
    let first = match s.alternatives.as_slice() {
        [only] => Some(only),
        all => all.iter().find(|a| !a.one_of),
    };
    nullable
        && first.and_then(|a| a.branches.last()).is_some_and(|b| {
            b.kind == Kind::Scalar(Scalar::Null) && b.at == s.at && b.order.len() == 1
        })
}

/// Whether the schema's shape `kind` is a type, or the types of a type array without `null`,
/// or null because of `nullable: true`.
pub(super) fn from_nullable(kind: &Kind, s: &Schema) -> bool {
    let types = s.keywords.fget("type").and_then(Value::as_array);
    let last_null = |ms: &[Schema]| {
        ms.last()
            .is_some_and(|x| x.kind == Kind::Scalar(Scalar::Null))
    };
    match (kind, types) {
        (Kind::Union(members), None) => members.len() == 2 && last_null(members),
        // (a type array without `null`, the null the flag added one more member)
        (Kind::Union(members), Some(types)) => {
            !types.iter().any(|t| t == "null") && last_null(members)
        }
        _ => false,
    }
}

#[cfg(test)]
thread_local! {
    /// How many side-table entries this thread's lowering read to move the branches of
    /// unions that lost some (tests hold it linear in the input).
    pub(crate) static ORIGINS_MOVED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
