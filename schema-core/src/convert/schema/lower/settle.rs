//! What the dialect walk over the input merged, merged by the lowering: an `allOf` the model
//! keeps (an intersection with a union part, say) or one the merge of a union's keywords into
//! a branch makes (a property both beside the union and in the branch), its parts in order (a
//! reference part as its definition, lowered there), by the one `allOf` merge
//! (`dialect::merge_parts`: how parts and the schema's own keywords combine keyword by
//! keyword). A part naming a recursive definition (or the root) is that definition unfolded
//! once, its own references kept as `$ref`s; the same `allOf` met again inside its own merge is
//! a `$ref` to the merge's result, written as a definition of its own (a [`Knot`]). Where the
//! parts do not merge (a conflict, a recursive definition that reaches itself through
//! references on top of its value, a part that is not a schema object), the `allOf` is left as
//! written and the last pass over the lowered document ([`Lower::conflicts_left`]) names the
//! error where the walk meets it.

use super::{Lower, Unlowerable, R};
use crate::convert::dialect::{merge_parts, part_over_target, target_copy};
use crate::convert::{pointer, ConvertError, ConvertErrorKind, SmallMap, MAX_DEPTH};
use serde_json::{Map, Value};

/// The keywords whose values are schemas (or lists or maps of schemas) a merge can meet twice.
const SCHEMA_VALUED: [&str; 5] = [
    "properties",
    "patternProperties",
    "items",
    "additionalProperties",
    "prefixItems",
];

/// Whether the schema at `target` in `input` reaches itself through `$ref`s that apply to the
/// value itself (beside or inside `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`), not
/// below a property or an item: a recursive definition unfolded once for a merge does not close
/// there, since the merge meets the reference again at the same value. A reference that does
/// not resolve counts as reaching it.
fn cycle_on_top(input: &Value, target: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<(&Value, usize)> = match pointer::resolve(input, target) {
        Some(v) => vec![(v, 0)],
        None => return true,
    };
    while let Some((v, depth)) = stack.pop() {
        let Value::Object(m) = v else { continue };
        if depth > MAX_DEPTH || seen.len() > crate::convert::MAX_NODES {
            return true;
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            if r == target {
                return true;
            }
            if seen.insert(r) {
                match pointer::resolve(input, r) {
                    Some(next) => stack.push((next, depth + 1)),
                    None => return true,
                }
            }
        }
        for (k, x) in m {
            match (k.as_str(), x) {
                ("allOf" | "anyOf" | "oneOf", Value::Array(xs)) => {
                    stack.extend(xs.iter().map(|y| (y, depth + 1)));
                }
                ("not" | "if" | "then" | "else", y) => stack.push((y, depth + 1)),
                _ => {}
            }
        }
    }
    false
}

/// The error of an `allOf` (a part at `pat`) over the recursive type `r` that is not merged.
fn over_recursive(pat: &str, r: &str) -> Stop {
    Stop::Conflict(ConvertError::new(
        pat,
        ConvertErrorKind::Unsupported(format!(
            "`allOf` over the recursive type `{r}` cannot be merged"
        )),
    ))
}

/// Why the lowering's merge of an `allOf` stopped: the parts do not merge (the error, as the
/// walk over the input names it: the `allOf` is left as written, and the walk reports the
/// error when it reaches it, `Lowered::conflicts`), or the lowering of a reference part failed.
enum Stop {
    Conflict(ConvertError),
    Lower(Unlowerable),
}

impl From<ConvertError> for Stop {
    fn from(e: ConvertError) -> Stop {
        Stop::Conflict(e)
    }
}

/// The merge of an `allOf` by the lowering: the merged schema, or why its parts do not merge.
pub(super) type Merge = Result<Map<String, Value>, ConvertError>;

impl Lower<'_> {
    /// The schema `m` (lowered at `p`) with its `allOf` merged by the `allOf` merge
    /// (`dialect::merge_parts`), or the error where its parts do not merge (a part that is not
    /// an object, a recursive definition that does not unfold, a conflict), named as the walk
    /// over the input names it. Over a recursive type, see the module docs (knots).
    pub(super) fn merge_all_of(
        &mut self,
        m: &Map<String, Value>,
        p: &str,
        depth: usize,
    ) -> R<Merge> {
        let Some(Value::Array(parts)) = m.fget("allOf") else {
            return Ok(Ok(m.clone()));
        };
        if depth > MAX_DEPTH {
            return Ok(Err(ConvertError::new(
                p,
                ConvertErrorKind::TooDeep(MAX_DEPTH),
            )));
        }
        let mut own = m.clone();
        own.remove("allOf");
        if let Some(one) = self.only_recursive_part(parts, &own) {
            return Ok(Ok(one));
        }
        // (over a recursive type: the same `allOf` met again inside its own merge, where the
        // unfolded definition holds it below a property or an item, is a reference to the
        // merge's result, which becomes a definition of its own)
        let knot = match self.knot_key(parts, m) {
            Some(key) => {
                if let Some(k) = self.knots.iter_mut().find(|k| k.key == key) {
                    k.used = true;
                    return Ok(Ok(knot_ref(&k.name)));
                }
                let name = self.knot_name();
                self.knots.push(Knot {
                    key,
                    name,
                    used: false,
                    body: None,
                    emitted: false,
                });
                Some((self.knots.len() - 1, self.origins.len()))
            }
            None => None,
        };
        let merged = self.merge_parts_of(parts, own, p, depth);
        let Some((i, origins)) = knot else {
            return merged;
        };
        match merged {
            Ok(Ok(body)) if self.knots[i].used => {
                let at = pointer::push_all("", &["$defs", &self.knots[i].name]);
                for (out, _) in &mut self.origins[origins..] {
                    if let Some(rest) = out
                        .strip_prefix(p)
                        .filter(|r| r.is_empty() || r.starts_with('/'))
                    {
                        *out = format!("{at}{rest}");
                    }
                }
                let body = self.forms(body, &at)?;
                self.knots[i].body = Some(body);
                Ok(Ok(knot_ref(&self.knots[i].name)))
            }
            Ok(Ok(body)) => {
                // (not met again: the merged schema in place, as any other)
                self.knots[i].key.clear();
                Ok(Ok(body))
            }
            other => {
                // (the merge failed: neither it nor a definition made inside it is written)
                self.knots.truncate(i);
                other
            }
        }
    }

    /// The merge of the `allOf` `parts` beside the keywords `own` (see
    /// [`Lower::merge_all_of`]).
    fn merge_parts_of(
        &mut self,
        parts: &[Value],
        own: Map<String, Value>,
        p: &str,
        depth: usize,
    ) -> R<Merge> {
        let merged = merge_parts(parts.to_vec(), own, p, |pat, mut b| {
            if let Some(Value::String(r)) = b.remove("$ref") {
                // (rare: the table searched by its references as written)
                // (a part naming a definition a merge made (a knot): its merged schema,
                // unfolded once as any recursive definition; not while it is being merged)
                if let Some(k) = self.knots.iter().find(|k| knot_target(&k.name) == r) {
                    let Some(body) = k.body.clone() else {
                        return Err(over_recursive(pat, &r));
                    };
                    if self.knot_unfolds >= self.knots.len() {
                        return Err(over_recursive(pat, &r));
                    }
                    self.knot_unfolds += 1;
                    b = part_over_target(body, b, pat)?;
                    return Ok(b);
                }
                let def = self.doc.defs.iter().find(|d| d.target == r);
                let Some(def) = def else {
                    return Err(over_recursive(pat, &r));
                };
                // (a definition met again while it is lowered for a merge: an `allOf` cycle,
                // which would not end; nesting bounded as everywhere)
                if self.inlining.len() > MAX_DEPTH {
                    let too_deep = ConvertErrorKind::TooDeep(MAX_DEPTH);
                    return Err(Stop::Conflict(ConvertError::new(pat, too_deep)));
                }
                // (the root, named by a part, is recursive)
                let recursive = self.recursive(def) || def.target == "#";
                let on_top = || recursive && cycle_on_top(self.input, &def.target);
                if self.inlining.contains(&def.target) || on_top() {
                    self.cycles_met += 1;
                    return Err(over_recursive(pat, &r));
                }
                // (the definition lowered for its value only: no place of the output)
                let start = self.origins.len();
                let cycles = self.cycles_met;
                self.inlining.push(def.target.clone());
                let lowered = self.schema(&def.schema, pat.to_string());
                self.inlining.pop();
                // (a recursive definition is unfolded once, its own references kept as
                // `$ref`s; where the unfolding meets this merge again it would not end)
                if recursive && self.cycles_met > cycles {
                    self.origins.truncate(start);
                    return Err(over_recursive(pat, &r));
                }
                let below = self.origins.split_off(start);
                // (a `$ref` merged with its siblings in place: the places below the target
                // kept, under the schema's place, `merged.rs`)
                if let Some(kept) = self.part_origins.as_mut().filter(|_| depth == 0) {
                    for (out, at) in below {
                        if let Some(rest) = out.strip_prefix(pat).filter(|r| r.starts_with('/')) {
                            kept.push((rest.to_string(), at));
                        }
                    }
                }
                let t = target_copy(&lowered.map_err(Stop::Lower)?).ok_or_else(|| {
                    Stop::Conflict(ConvertError::new(
                        pat,
                        ConvertErrorKind::Malformed(
                            "`$ref` to something that is not a schema".into(),
                        ),
                    ))
                })?;
                b = part_over_target(t, b, pat)?;
            }
            if !b.fhas("allOf") {
                return Ok(b);
            }
            match self.merge_all_of(&b, pat, depth + 1) {
                Ok(Ok(merged)) => Ok(merged),
                Ok(Err(e)) => Err(Stop::Conflict(e)),
                Err(u) => Err(Stop::Lower(u)),
            }
        });
        let mut acc = match merged {
            Ok(acc) => acc,
            Err(Stop::Conflict(e)) => return Ok(Err(e)),
            Err(Stop::Lower(u)) => return Err(u),
        };
        self.settle(&mut acc, p, depth + 1)?;
        Ok(Ok(acc))
    }

    /// The `allOf` `parts` beside the keywords `own` written as their one reference to a
    /// recursive definition, where nothing else adds a constraint to it: every other part and
    /// the own keywords are annotations, a `type` the definition has already, or a reference
    /// to a definition of only those (`{"type": "object", "anyOf": [{"$ref": "#/$defs/Node"}]}`,
    /// whose keywords the lowering merged into the branch). Such an `allOf` has the values of
    /// the reference, which every dialect keeps as a `$ref`; the own annotations stay beside it.
    fn only_recursive_part(
        &mut self,
        parts: &[Value],
        own: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        let reference = |v: &Value| match v {
            Value::Object(b) if b.keys().all(|k| k == "$ref" || k == "$comment") => {
                b.fget("$ref").and_then(Value::as_str).map(str::to_string)
            }
            _ => None,
        };
        let def_of = |l: &Self, r: &str| l.doc.defs.iter().position(|d| d.target == r);
        let mut recursive = None;
        for r in parts.iter().filter_map(reference) {
            let id = def_of(self, &r)?;
            let def = self.doc.def(id);
            if self.recursive(def) || def.target == "#" {
                if recursive.is_some() {
                    return None;
                }
                recursive = Some((r, id));
            }
        }
        let (r, id) = recursive?;
        let ty = match &self.doc.def(id).schema.kind {
            super::Kind::Object(_) => "object",
            super::Kind::Array(_) => "array",
            _ => "",
        };
        // (keywords that add nothing to the definition's values)
        let vacuous = |m: &Map<String, Value>| {
            m.iter().all(|(k, v)| {
                crate::convert::is_meta(k)
                    || k == "$comment"
                    || (k == "type" && !ty.is_empty() && v.as_str() == Some(ty))
            })
        };
        if !vacuous(own) {
            return None;
        }
        for part in parts {
            match (part, reference(part)) {
                (_, Some(p)) if p == r => {}
                (_, Some(p)) => {
                    let other = self.doc.def(def_of(self, &p)?);
                    if self.recursive(other) || other.target == "#" {
                        return None;
                    }
                    let start = self.origins.len();
                    let lowered = self.schema(&other.schema, String::new());
                    self.origins.truncate(start);
                    match lowered {
                        Ok(Value::Object(t)) if vacuous(&t) => {}
                        Ok(Value::Bool(true)) => {}
                        _ => return None,
                    }
                }
                (Value::Object(b), None) if vacuous(b) => {}
                (Value::Bool(true), None) => {}
                _ => return None,
            }
        }
        let mut one = Map::new();
        one.insert("$ref".into(), self.reference(id));
        for (k, v) in own.iter().filter(|(k, _)| *k != "type") {
            one.insert(k.clone(), v.clone());
        }
        Some(one)
    }

    /// The schemas below `m` (at `p`) that a merge wrote as an `allOf` of two (a property, the
    /// items, ...) merged, where the walk's merge would merge them.
    pub(super) fn settle(&mut self, m: &mut Map<String, Value>, p: &str, depth: usize) -> R<()> {
        for k in SCHEMA_VALUED {
            let Some(v) = m.fget_mut(k) else { continue };
            let at = pointer::push(p, k);
            let one = |l: &mut Self, x: &mut Value, at: String| -> R<()> {
                if let Value::Object(xm) = x {
                    if xm.fhas("allOf") {
                        match l.merge_all_of(xm, &at, depth + 1)? {
                            Ok(merged) => *xm = l.forms(merged, &at)?,
                            Err(_) => l.left = true,
                        }
                    }
                }
                Ok(())
            };
            match (k, v) {
                ("properties" | "patternProperties", Value::Object(props)) => {
                    for (name, x) in props.iter_mut() {
                        one(self, x, pointer::push(&at, name))?;
                    }
                }
                ("prefixItems" | "items", Value::Array(list)) => {
                    for (i, x) in list.iter_mut().enumerate() {
                        one(self, x, pointer::push_index(&at, i))?;
                    }
                }
                (_, x) => one(self, x, at)?,
            }
        }
        Ok(())
    }
}

impl Lower<'_> {
    /// The schemas of the lowered document `v` (at `p`) the walk would still merge, where it
    /// meets them (after every move of the lowering: an `allOf` part merged into its schema, a
    /// union's keywords into its branches): an `allOf` merged (`Lower::merge_all_of`) or its
    /// error made the place's conflict ([`Lowered::conflicts`](super::Lowered::conflicts)); a
    /// `$ref` beside keywords likewise (`Lower::ref_merged`). A place with a conflict already
    /// is left as it is.
    pub(super) fn conflicts_left(&mut self, v: &mut Value, p: &mut String, depth: usize) -> R<()> {
        let Value::Object(m) = v else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            return Ok(());
        }
        if m.fhas("allOf") && !self.known(p) {
            match self.merge_all_of(m, p, 0)? {
                Ok(merged) => *m = self.forms(merged, p)?,
                Err(e) => self.conflicts.push((p.clone(), e)),
            }
        } else if m.fhas("$ref") && !p.is_empty() && !self.known(p) {
            if let Some(merged) = self.ref_merged(m, p)? {
                *m = self.forms(merged, p)?;
                self.merged_left += 1;
            }
        } else if m.fhas("anyOf") && !self.known(p) {
            // (a union's keywords beside it: merged into its branches, or no branch is left)
            *m = self.forms(std::mem::take(m), p)?;
        }
        let len = p.len();
        for (k, x) in m.iter_mut() {
            let (Value::Object(_) | Value::Array(_)) = x else {
                continue;
            };
            match k.as_str() {
                "properties" | "patternProperties" | "$defs" | "definitions"
                | "dependentSchemas" => {
                    let Value::Object(xs) = x else { continue };
                    for (name, y) in xs.iter_mut() {
                        p.push('/');
                        p.push_str(k);
                        p.push('/');
                        p.push_str(&name.replace('~', "~0").replace('/', "~1"));
                        self.conflicts_left(y, p, depth + 1)?;
                        p.truncate(len);
                    }
                }
                "anyOf" | "oneOf" | "allOf" | "prefixItems" | "items" => match x {
                    Value::Array(xs) => {
                        for (i, y) in xs.iter_mut().enumerate() {
                            p.push('/');
                            p.push_str(k);
                            p.push('/');
                            p.push_str(&i.to_string());
                            self.conflicts_left(y, p, depth + 1)?;
                            p.truncate(len);
                        }
                    }
                    y => {
                        p.push('/');
                        p.push_str(k);
                        self.conflicts_left(y, p, depth + 1)?;
                        p.truncate(len);
                    }
                },
                "additionalProperties"
                | "additionalItems"
                | "not"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else" => {
                    p.push('/');
                    p.push_str(k);
                    self.conflicts_left(x, p, depth + 1)?;
                    p.truncate(len);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl Lower<'_> {
    /// Whether the definition `def` is recursive as the walk reads it: in the lowered
    /// document once its references are read (`Lower::conflicts_left`), else in the input.
    pub(super) fn recursive(&self, def: &super::super::Def) -> bool {
        let target = (def.target.strip_prefix('#')).and_then(pointer::percent_decode);
        match (&self.graph, target) {
            (Some((_, recursive)), Some(t)) => recursive.contains(&t),
            _ => def.recursive,
        }
    }

    /// Whether the definition `def` is named by more than one `$ref` as the walk reads it
    /// (where a dialect keeps shared definitions, it keeps such a one): in the lowered
    /// document once its references are read, else in the input (`Def::shared`).
    pub(super) fn shared(&self, def: &super::super::Def) -> bool {
        let target = (def.target.strip_prefix('#')).and_then(pointer::percent_decode);
        match (&self.graph, target) {
            (Some((uses, _)), Some(t)) => uses.get(&t).is_some_and(|n| *n > 1),
            _ => def.shared,
        }
    }
}

impl Lower<'_> {
    /// Whether a conflict is named at `p` (the conflicts looked up by hash: the last pass asks
    /// at every schema).
    fn known(&mut self, p: &str) -> bool {
        let (index, seen) = &mut self.conflict_places;
        // (conflicts are only cut back to a length taken after this index was last brought
        // up to date; `min` keeps a slip from panicking)
        for (at, _) in &self.conflicts[(*seen).min(self.conflicts.len())..] {
            index.insert(at.clone());
        }
        *seen = self.conflicts.len();
        index.contains(p)
    }
}

/// An `allOf` over a recursive type being merged, or merged into a definition of its own: the
/// `allOf` (its JSON text) met again inside its own merge is a `$ref` to that definition.
pub(super) struct Knot {
    /// The `allOf` schema's JSON text (empty once merged in place).
    key: String,
    /// The definition's name in the root's `$defs`.
    name: String,
    /// Whether the merge met the `allOf` again (a `$ref` to the definition was written).
    used: bool,
    /// The merged schema, once merged.
    body: Option<Map<String, Value>>,
    /// Whether the definition is in the lowered document.
    emitted: bool,
}

fn knot_target(name: &str) -> String {
    format!("#/$defs/{name}")
}

fn knot_ref(name: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("$ref".into(), Value::String(knot_target(name)));
    m
}

impl Lower<'_> {
    /// The key of the `allOf` schema `m` whose `parts` name a recursive definition, or none.
    fn knot_key(&self, parts: &[Value], m: &Map<String, Value>) -> Option<String> {
        let recursive = parts.iter().any(|part| {
            let r = part.get("$ref").and_then(Value::as_str);
            r.and_then(|r| self.doc.defs.iter().find(|d| d.target == r))
                .is_some_and(|d| d.target == "#" || self.recursive(d))
        });
        recursive.then(|| serde_json::to_string(m).unwrap_or_default())
    }

    /// A name for the next knot's definition that no definition of the input's `$defs` has.
    fn knot_name(&self) -> String {
        let taken = |name: &str| (self.input.get("$defs")).is_some_and(|t| t.get(name).is_some());
        let mut name = format!("allOf{}", self.knots.len());
        while taken(&name) || self.knots.iter().any(|k| k.name == name) {
            name.push('_');
        }
        name
    }

    /// Writes the definitions of the knots merged since the last call into the root's `$defs`.
    pub(super) fn emit_knots(&mut self, root: &mut Value) -> R<()> {
        for k in &mut self.knots {
            let Some(body) = k.body.as_ref().filter(|_| k.used && !k.emitted) else {
                continue;
            };
            let Value::Object(m) = root else {
                return Err(Unlowerable {
                    at: String::new(),
                    why: "definitions beside a boolean root",
                });
            };
            let defs = m
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(defs) = defs else {
                return Err(Unlowerable {
                    at: String::new(),
                    why: "a definition inside a boolean definition",
                });
            };
            defs.insert(k.name.clone(), Value::Object(body.clone()));
            k.emitted = true;
        }
        Ok(())
    }
}
