//! The model written back as one canonical JSON Schema: each [`Schema`] as a JSON object with its
//! keywords in [`Schema::order`], every value taken from the model (merged `allOf`s and inlined
//! constrained `$ref`s as the one schema the normalizer made of them, the `required` list in
//! its merged order, unions, `not`, tuples with their closing `false`), references as `$ref`s
//! into definitions the lowered document holds, and a side table from each lowered schema to
//! the input pointer it was read from ([`Schema::at`]).
//!
//! A type array is written as the dialect walk reads it (`split_types`: one type and
//! `nullable: true`, or an `anyOf` of one branch per type), and so is a `oneOf` union (as
//! `anyOf`, after the other keywords) and an enum with `null` among its values (`null_in_enum`:
//! the flag); `nullable: true` stays the flag the walk reads (the `null` branch the normalizer
//! adds to a union for it too: the walk applies the flag after the union, as for the input).
//! What the model keeps in the input's own form is written so: a union of `required` clauses
//! (the walk makes it a note in the dialect's words), a `oneOf` beside an `anyOf` or a type
//! array (which the walk rejects), an intersection the normalizer could not merge
//! ([`Kind::All`]) as `allOf` where its parts do not merge (a recursive part, a conflict).
//!
//! The dialect walk merges nothing itself: what it would merge is merged here, by the one
//! `allOf` merge (`dialect::merge_parts`), in this order for each schema:
//! 1. an intersection the model keeps, and the `allOf` the merge of a union's keywords into
//!    a branch makes (`lower/settle.rs`);
//! 2. a `$ref` beside keywords where the walk inlines its target (`lower/merged.rs`:
//!    [`Lower::ref_merged`]; not a recursive target, nor one a dialect keeps shared);
//! 3. the forms the walk reads (`lower/forms.rs`): a type array split, an enum's `null` as the
//!    flag, a union's reference branches written as their definitions and its keywords merged
//!    into its branches (those of another type narrowed away);
//!
//! then, for the document: a root `$ref` beside keywords, merged as the root pass reads it
//! (`Lower::root_ref`), and, where a schema was left as written, a last pass
//! (`Lower::conflicts_left`) that reads recursion and sharing from the lowered document as the
//! walk does, merges what can be merged now and names each conflict (the error as the walk
//! over the input names it) at the place the walk meets the schema ([`Lowered::conflicts`]).
//! A `$ref` inside a keyword the model does not read is written as it is, with its target
//! (`lower/opaque.rs`). A schema the model cannot write back exactly is reported as
//! [`Unlowerable`] with the reason ([`NO_VALUE`] and [`UNMERGED_PARTS`]: the input's own
//! defect, which the conversion reports as an error); `schema/lower_tests.rs` holds the dialect
//! output of the lowered document to the dialect output of its input.

use super::merge::has_type;
use super::{merge_keyword, Array, Doc, Extra, Kind, Object, Scalar, Schema};
use crate::convert::dialect::{refs, with_beside};
use crate::convert::{is_meta, pointer, type_branches, ConvertError, SmallMap};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

mod forms;
#[cfg(test)]
pub(crate) use forms::ORIGINS_MOVED;
mod intersection;
mod merged;
mod opaque;
mod settle;
mod shapes;
use forms::{added_null, from_nullable, null_in_enum, split_types};
use intersection::{core, intersection, NULLABLE_ELSEWHERE};
use opaque::has_ref;
use shapes::{array_of, object_of, other_shape, values_of};
pub(crate) use shapes::{NO_VALUE, UNMERGED_PARTS};

/// Why a document could not be lowered: the input pointer of the schema, and what the model
/// does not hold.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unlowerable {
    /// The input pointer ([`Schema::at`]) of the schema.
    pub at: String,
    /// What is missing.
    pub why: &'static str,
}

/// A lowered document.
#[derive(Debug, Clone)]
pub(crate) struct Lowered<'d> {
    /// The canonical JSON Schema.
    pub json: Value,
    /// Each lowered schema's pointer in [`Lowered::json`] and the input pointer it was read from
    /// ([`Schema::at`], borrowed from the model), children before their parent.
    pub origins: Vec<(String, &'d str)>,
    /// The lowered pointers of the unions the lowering merged the keywords beside into the
    /// branches of, and those keywords.
    pub distributed: Vec<(String, Vec<String>)>,
    /// The lowered pointers of the schemas whose `allOf` (or whose `$ref` and the keywords
    /// beside it) do not merge, left as written, and the error, as the walk over the input
    /// names it (its pointer in the lowered document): the dialect walk reports it when it
    /// reaches the schema, so that an error before it in the walk's order still comes first.
    pub conflicts: Vec<(String, ConvertError)>,
    /// The lowered pointers of the unions the lowering merged keywords into whose branches
    /// are all constants now and were not before: the walk over the input met such a union
    /// before the keywords went into its branches, and did not read it as one `enum`.
    pub plain_unions: std::collections::HashSet<String>,
    /// Whether a definition was moved into the root's `$defs` (its place in the input merged
    /// away), with its references.
    pub moved: bool,
}

type R<T> = Result<T, Unlowerable>;

fn fail<T>(s: &Schema, why: &'static str) -> R<T> {
    Err(Unlowerable {
        at: s.at.clone(),
        why,
    })
}

/// Writes `doc`, the model of `input`, back as one JSON Schema (see the module docs).
pub(crate) fn lower<'d>(doc: &'d Doc, input: &'d Value, keep_shared: bool) -> R<Lowered<'d>> {
    let mut l = Lower {
        doc,
        keep_shared,
        refs: BTreeSet::new(),
        origins: Vec::new(),
        moved: None,
        distributed: Vec::new(),
        opaque: Vec::new(),
        conflicts: Vec::new(),
        plain_unions: Vec::new(),
        inlining: Vec::new(),
        cycles_met: 0,
        knots: Vec::new(),
        knot_unfolds: 0,
        input,
        conflict_places: Default::default(),
        part_origins: None,
        left: false,
        graph: None,
        merged_left: 0,
        copied: 0,
        copy_budget: 4 * crate::vocab::values_in(input) + COPY_ALLOWANCE,
    };
    let mut root = l.schema(doc.root(), String::new())?;
    // The referenced definitions, each where its reference points (a reference into the
    // document's own schemas must find the same schema there).
    let mut done = BTreeSet::new();
    let mut defs: Vec<(Vec<String>, Value)> = Vec::new();
    // The targets of references moved into the root's `$defs`, and where they now point.
    let mut moved: std::collections::HashMap<String, String> = Default::default();
    while let Some(id) = l.refs.iter().copied().find(|id| !done.contains(id)) {
        done.insert(id);
        let def = doc.def(id);
        if def.target == "#" {
            continue;
        }
        let fragment = def.target.strip_prefix('#').unwrap_or(&def.target);
        let Some(ptr) = pointer::percent_decode(fragment) else {
            return fail(&def.schema, "a reference that is not a JSON pointer");
        };
        let mark = (l.origins.len(), l.distributed.len(), l.conflicts.len());
        let lowered = l.schema(&def.schema, ptr.clone())?;
        let tokens: Vec<&str> = ptr.split('/').skip(1).collect();
        // (a definition in a definitions table, at any depth of tables: `#/definitions/a`,
        // `#/definitions/a/definitions/b`)
        let tables = !tokens.is_empty()
            && tokens.len() % 2 == 0
            && (tokens.iter().step_by(2)).all(|h| matches!(*h, "$defs" | "definitions"));
        match tokens.as_slice() {
            _ if tables => {
                let path: Vec<String> = (tokens.iter())
                    .map(|t| t.replace("~1", "/").replace("~0", "~"))
                    .collect();
                defs.push((path, lowered));
            }
            _ => {
                // (a reference into the document: the schema there must be this one; where
                // the lowering merged that place away (into an `allOf` part's `then`, say),
                // the definition moves to the root's `$defs` and its references follow it)
                if pointer::resolve(&root, &def.target) != Some(&lowered) {
                    l.origins.truncate(mark.0);
                    l.distributed.truncate(mark.1);
                    l.conflicts.truncate(mark.2);
                    let name = moved_name(input, &root, moved.len());
                    let lowered =
                        l.schema(&def.schema, pointer::push_all("", &["$defs", &name]))?;
                    moved.insert(def.target.clone(), format!("#/$defs/{name}"));
                    defs.push((vec!["$defs".into(), name], lowered));
                }
            }
        }
    }
    if !defs.is_empty() {
        let Value::Object(m) = &mut root else {
            return fail(doc.root(), "definitions beside a boolean root");
        };
        // (a table's own definition before those in its nested tables: stable, so the
        // definitions of one depth keep their order)
        defs.sort_by_key(|(path, _)| path.len());
        for (path, value) in defs {
            let Some((name, holders)) = path.split_last() else {
                continue;
            };
            let mut at = &mut *m;
            for k in holders {
                at = match at
                    .entry(k.clone())
                    .or_insert_with(|| Value::Object(Map::new()))
                {
                    Value::Object(next) => next,
                    _ => return fail(doc.root(), "a definition inside a boolean definition"),
                };
            }
            at.insert(name.clone(), value);
        }
    }
    l.emit_knots(&mut root)?;
    if !moved.is_empty() {
        retarget(&mut root, &moved);
    }
    l.opaque_targets(&mut root, input, &mut moved)?;
    l.root_ref(&mut root)?;
    if l.left {
        // (whether a definition is recursive, and shared where shared definitions are kept,
        // read as the walk reads it, from the lowered document: again after a reference
        // merged in place)
        for _ in 0..4 {
            l.graph = refs::scan(&root).ok().map(|g| (g.uses, g.recursive));
            l.merged_left = 0;
            l.conflicts_left(&mut root, &mut String::new(), 0)?;
            l.emit_knots(&mut root)?;
            if l.merged_left == 0 {
                break;
            }
        }
    }
    // (a conflict named at a place a later merge moved away: named again where the schema
    // ends up, `settle.rs`)
    l.conflicts
        .retain(|(p, _)| pointer::get(&root, p).is_some());
    l.plain_unions
        .retain(|p| pointer::get(&root, p).is_some_and(|u| u.fhas("anyOf")));
    Ok(Lowered {
        json: root,
        origins: l.origins,
        distributed: l.distributed,
        conflicts: l.conflicts,
        plain_unions: l.plain_unions.into_iter().collect(),
        moved: !moved.is_empty(),
    })
}

struct Lower<'d> {
    doc: &'d Doc,
    /// Whether the dialect keeps a definition more than one `$ref` names as a definition
    /// (`keep_defs`, where the dialect allows definitions): the walk then drops the keywords
    /// beside each reference to it ([`Def::shared`](super::Def::shared)), which the lowering
    /// leaves to it.
    keep_shared: bool,
    /// The definitions a lowered `$ref` names.
    refs: BTreeSet<usize>,
    origins: Vec<(String, &'d str)>,
    /// The keywords the last schema lowered merged into its union's branches.
    moved: Option<Vec<String>>,
    /// See [`Lowered::distributed`].
    distributed: Vec<(String, Vec<String>)>,
    /// The values of keywords the model does not read that hold a `$ref` (written as the input
    /// has them), with the input pointer of their schema (`opaque.rs`).
    opaque: Vec<(&'d str, &'d Value)>,
    /// See [`Lowered::conflicts`].
    conflicts: Vec<(String, ConvertError)>,
    /// See [`Lowered::plain_unions`].
    plain_unions: Vec<String>,
    /// The definitions being lowered for a merge's value (`settle.rs`), innermost last.
    inlining: Vec<String>,
    /// How many merges met a definition already being lowered for a merge (`settle.rs`): an
    /// `allOf` over a recursive type whose definition holds that `allOf` again, which one
    /// unfolding does not close.
    cycles_met: usize,
    /// The `allOf`s over recursive types merged into definitions of their own (`settle.rs`).
    knots: Vec<settle::Knot>,
    /// How many times a merge unfolded a knot's definition (at most once per knot in all).
    knot_unfolds: usize,
    /// The input, for the names of those definitions.
    input: &'d Value,
    /// The places of [`Lower::conflicts`], and how many of them are in the set
    /// (`Lower::known`).
    conflict_places: (std::collections::HashSet<String>, usize),
    /// While a `$ref` and its siblings are merged in place (`merged.rs`): the side table's
    /// entries below its target, each relative to the target.
    part_origins: Option<Vec<(String, &'d str)>>,
    /// Whether an `allOf` or a `$ref` beside keywords is left as written for the walk to meet
    /// (`settle.rs`: [`Lower::conflicts_left`]).
    left: bool,
    /// In [`Lower::conflicts_left`]: how many `$ref`s of the lowered document name each
    /// definition and which are recursive (`dialect::refs`, as the walk reads them), and how
    /// many schemas it merged.
    graph: Option<(
        std::collections::HashMap<String, usize>,
        std::collections::HashSet<String>,
    )>,
    merged_left: usize,
    /// How many JSON values the keywords copied into unions' branches hold, all copies
    /// counted, and the most allowed (`forms.rs`: [`Lower::beside_into_branches`]).
    copied: usize,
    copy_budget: usize,
}

/// The values the copies of a union's keywords into its branches may hold beyond four times
/// the input's.
const COPY_ALLOWANCE: usize = 20_000;

/// Why a document is not lowered when the keywords beside its unions, copied into every
/// branch, would hold more than four times the input's values (`n` branches beside `n`
/// properties: `n²`).
pub(crate) const TOO_MANY_COPIES: &str = "the keywords beside a union, copied into each of its branches, would make the schema more than four times the input's size";

impl<'d> Lower<'d> {
    /// One schema, lowered at the pointer `p` of the output.
    fn schema(&mut self, s: &'d Schema, p: String) -> R<Value> {
        let start = self.origins.len();
        let v = self.value(s, &p)?;
        if let Some(keys) = self.moved.take() {
            self.rehome(&v, &p, &keys, start);
            self.distributed.push((p.clone(), keys));
        }
        self.origins.push((p, &s.at));
        Ok(v)
    }

    /// [`Lower::schema`] without its entry in the side table.
    fn value(&mut self, s: &'d Schema, p: &str) -> R<Value> {
        if s.kind == Kind::Never {
            // (no value: a `false` part merged in, or `false` itself)
            return Ok(Value::Bool(false));
        }
        if s.order.is_empty() {
            return match &s.kind {
                Kind::Any if s.boolean => Ok(Value::Bool(true)),
                Kind::Any if s.everything => Ok(Value::Object(Map::new())),
                Kind::Never => Ok(Value::Bool(false)),
                // (every value, with nothing beside: an `allOf` of `{}` / `true` parts merged,
                // which the walk merges into `{}` too)
                Kind::Any
                    if s.keywords.is_empty()
                        && s.alternatives.is_empty()
                        && s.not.is_none()
                        && s.desc.is_none() =>
                {
                    Ok(Value::Object(Map::new()))
                }
                // (a union's branch without a shape of its own that took the scalar type
                // beside the union: `{"type": "string", "oneOf": [{}]}`)
                Kind::Scalar(t)
                    if s.keywords.is_empty() && s.alternatives.is_empty() && s.not.is_none() =>
                {
                    let name = match t {
                        Scalar::String => "string",
                        Scalar::Number => "number",
                        Scalar::Integer => "integer",
                        Scalar::Boolean => "boolean",
                        Scalar::Null => "null",
                    };
                    let mut m = Map::with_capacity(2);
                    m.insert("type".into(), Value::String(name.into()));
                    if let Some(d) = &s.desc {
                        m.insert("description".into(), Value::String(d.clone()));
                    }
                    Ok(Value::Object(m))
                }
                // (an intersection the normalizer made and could not merge: two `allOf` parts'
                // schemas of one tuple position, say)
                Kind::All(_) => fail(s, UNMERGED_PARTS),
                _ => fail(s, "a schema the normalizer made (no keyword order)"),
            };
        }
        // (`nullable: true` the normalizer put around a reference or an intersection: the
        // flag, written as the input had it, beside them)
        let kind = core(s);
        let wrapped = !std::ptr::eq(kind, &s.kind);
        // (a reference or an intersection made nullable at another place and merged in, which
        // `core` does not take apart: none of the schema's keywords writes it, and without it
        // the schema would allow what the input does not; the walk reads the input)
        if let Kind::Union(members) = kind {
            if from_nullable(kind, s) && matches!(members[0].kind, Kind::Ref(_) | Kind::All(_)) {
                return fail(s, NULLABLE_ELSEWHERE);
            }
        }
        if let Some(m) = self.nullable_target(s, kind, wrapped, p)? {
            return Ok(Value::Object(m));
        }
        let (shape, own_ref, parts) = intersection(s, kind)?;
        if let Some(m) = self.values_over_target(s, shape, own_ref, parts, wrapped, p)? {
            return Ok(Value::Object(m));
        }
        // (`null` the normalizer made the last branch of the schema's union for its own
        // `nullable: true`: the flag, which the walk applies after the union, as for the input)
        let null_branch = added_null(s);
        let mut m = Map::with_capacity(s.order.len());
        // (which of the schema's unions and clause unions are written already)
        // (how many unions of each keyword, `anyOf` and `oneOf`, are written already)
        let mut unions = [0, 0];
        let mut clauses_done = false;
        let mut any_of = None;
        for k in &s.order {
            let k = k.as_ref();
            let at = |m: &str| pointer::push(p, m);
            let v = match k {
                "description" => match &s.desc {
                    Some(d) => Value::String(d.clone()),
                    None => continue,
                },
                "$ref" => match (kind, own_ref) {
                    (Kind::Ref(id), _) | (_, Some(id)) => self.reference(*id),
                    _ => continue,
                },
                "allOf" => match kind {
                    Kind::All(_) => {
                        let pat = at("allOf");
                        let mut out = Vec::with_capacity(parts.len());
                        for (i, part) in parts.iter().enumerate() {
                            out.push(self.schema(part, pointer::push_index(&pat, i))?);
                        }
                        Value::Array(out)
                    }
                    Kind::Ref(id)
                        if self.doc.def(*id).recursive && !s.order.iter().any(|k| k == "$ref") =>
                    {
                        // (an `allOf` of a recursive reference: as the input had it, which
                        // the walk cannot merge)
                        let mut one = Map::new();
                        one.insert("$ref".into(), self.reference(*id));
                        Value::Array(vec![Value::Object(one)])
                    }
                    Kind::Ref(id) if !s.order.iter().any(|k| k == "$ref") => {
                        // (an `allOf` of one reference: the reference)
                        m.insert("$ref".into(), self.reference(*id));
                        continue;
                    }
                    _ => continue,
                },
                "nullable" => Value::Bool(wrapped || from_nullable(shape, s) || null_branch),
                "enum" => match values_of(shape) {
                    Some(Kind::Enum(values)) => Value::Array(values.clone()),
                    _ => continue,
                },
                "const" => match values_of(shape) {
                    Some(Kind::Const(c)) => c.clone(),
                    _ => continue,
                },
                "properties" => match object_of(shape) {
                    Some(o) => {
                        let pat = at("properties");
                        let mut props = Map::with_capacity(o.props.len());
                        for prop in &o.props {
                            // (a property no value fits and not required must be absent: left
                            // out, reported by the conversion, `dialect/model.rs`; required, no
                            // object fits and the walk refuses it)
                            if prop.schema.kind == Kind::Never && !o.listed.contains(&prop.name) {
                                continue;
                            }
                            let v = self.schema(&prop.schema, pointer::push(&pat, &prop.name))?;
                            props.insert(prop.name.clone(), v);
                        }
                        Value::Object(props)
                    }
                    // (vacuous beside a shape no object fits: left out)
                    None if self.vacuous(shape, kind) => continue,
                    None => return other_shape(s, shape),
                },
                "required" => match object_of(shape) {
                    Some(o) => Value::Array(o.listed.iter().cloned().map(Value::String).collect()),
                    // (vacuous beside a shape no object fits: left out)
                    None if self.vacuous(shape, kind) => continue,
                    None => return other_shape(s, shape),
                },
                "additionalProperties" => match object_of(shape).map(|o| &o.extra) {
                    Some(Extra::Open) => Value::Bool(true),
                    Some(Extra::Closed) => Value::Bool(false),
                    Some(Extra::Schema(x)) => self.schema(x, at("additionalProperties"))?,
                    // (vacuous beside a shape no object fits: left out)
                    None if self.vacuous(shape, kind) => continue,
                    None => return other_shape(s, shape),
                },
                "patternProperties" => match object_of(shape) {
                    Some(o) => {
                        let pat = at("patternProperties");
                        let mut out = Map::with_capacity(o.patterns.len());
                        for (re, x) in &o.patterns {
                            out.insert(re.clone(), self.schema(x, pointer::push(&pat, re))?);
                        }
                        Value::Object(out)
                    }
                    // (vacuous beside a shape no object fits: left out)
                    None if self.vacuous(shape, kind) => continue,
                    None => return other_shape(s, shape),
                },
                "prefixItems" => match array_of(shape).and_then(|a| a.prefix.as_ref()) {
                    Some(prefix) => self.list(prefix, &at("prefixItems"))?,
                    // (vacuous beside a shape no array fits: left out)
                    None if self.vacuous_items(shape, kind) => continue,
                    None => return other_shape(s, shape),
                },
                "items" => {
                    let Some(a) = array_of(shape) else {
                        // (vacuous beside a shape no array fits, `"type": "object"` say:
                        // left out)
                        if self.vacuous_items(shape, kind) {
                            continue;
                        }
                        return other_shape(s, shape);
                    };
                    let tuple_first = s.order.iter().any(|k| k == "prefixItems");
                    match (&a.prefix, &a.items) {
                        (Some(prefix), _) if !tuple_first => self.list(prefix, &at("items"))?,
                        (_, Some(x)) => self.schema(x, at("items"))?,
                        (Some(_), None) if a.closed => Value::Bool(false),
                        (Some(_), None) => continue,
                        // (a list whose `items` is `false`: the model reads no rest)
                        (None, None) => Value::Bool(false),
                    }
                }
                "additionalItems" => {
                    let Some(a) = array_of(shape) else { continue };
                    if s.order.iter().any(|k| k == "prefixItems") || a.prefix.is_none() {
                        // (no effect without an `items` list: ignored, draft 2019-09 core
                        // 9.3.1.2; the model does not keep it, and the walk drops it)
                        continue;
                    }
                    match &a.items {
                        Some(x) => self.schema(x, at("additionalItems"))?,
                        None if a.closed => Value::Bool(false),
                        None => continue,
                    }
                }
                "anyOf" | "oneOf" => {
                    let one_of = k == "oneOf";
                    // the next union of this keyword, else the unions of `required` clauses
                    // the model read into the object (several parts' joined, as merged)
                    let mut unions_of = s.alternatives.iter().filter(|a| a.one_of == one_of);
                    let written = &mut unions[one_of as usize];
                    if let Some(a) = unions_of.nth(*written) {
                        *written += 1;
                        // (`oneOf` read as `anyOf`, as the walk reads it: after the other
                        // keywords; not beside an `anyOf` or a type array, which the walk
                        // reports or splits into one)
                        let alone = !s.order.iter().any(|k| k == "anyOf")
                            && !s.keywords.fget("type").is_some_and(splits_into_union);
                        if one_of && alone {
                            // (the null branch of the schema's own `nullable`: the flag)
                            let lone = s.alternatives.len() == 1;
                            let n = a.branches.len() - usize::from(lone && null_branch);
                            any_of = Some(self.list(&a.branches[..n], &at("anyOf"))?);
                            continue;
                        }
                        let first = !one_of && *written == 1;
                        let n = a.branches.len() - usize::from(first && null_branch);
                        self.list(&a.branches[..n], &at(k))?
                    } else if !clauses_done {
                        clauses_done = true;
                        let sets: Vec<Value> = object_of(shape)
                            .into_iter()
                            .flat_map(|o| o.clauses.iter().filter(|c| c.one_of == one_of))
                            .flat_map(|c| c.sets.iter())
                            .map(|names| {
                                let mut one = Map::new();
                                let names = names.iter().cloned().map(Value::String).collect();
                                one.insert("required".into(), Value::Array(names));
                                Value::Object(one)
                            })
                            .collect();
                        if sets.is_empty() {
                            return fail(s, "a union the model merged into the schema");
                        }
                        Value::Array(sets)
                    } else {
                        return fail(s, "a union the model merged into the schema");
                    }
                }
                "not" => match &s.not {
                    Some(n) => self.schema(n, at("not"))?,
                    None => continue,
                },
                // (where the input had its definitions table: the root's holds the lowered
                // definitions, filled below; elsewhere it stays empty, every definition is
                // in the root's)
                "$defs" | "definitions" => Value::Object(Map::new()),
                other => match s.keywords.fget(other) {
                    // (a reference inside a keyword the model does not read: its target is
                    // not in the model's table, and is written from the input, `opaque.rs`)
                    Some(v) if has_ref(v) => {
                        self.opaque.push((&s.at, v));
                        v.clone()
                    }
                    Some(v) => v.clone(),
                    None => continue,
                },
            };
            m.insert(k.to_string(), v);
        }
        if let Some(union) = any_of {
            m.insert("anyOf".into(), union);
        }
        // (an `allOf` the model keeps: merged as the walk would merge it, `settle.rs`; the side
        // table's entries for its parts, no place of the output, left out)
        let mut merged = false;
        if m.fhas("allOf") {
            match self.merge_all_of(&m, p, 0)? {
                Ok(all) => {
                    let parts = pointer::push(p, "allOf");
                    self.origins.retain(|(out, _)| {
                        !(out.strip_prefix(parts.as_str()))
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                    });
                    m = all;
                    merged = true;
                }
                // (its parts do not merge: the error named where the walk meets it, `settle.rs`)
                Err(_) => self.left = true,
            }
        }
        // (a `$ref` beside keywords the model keeps as an intersection: merged with its
        // target where the walk inlines it, `merged.rs`)
        if !p.is_empty() {
            let any;
            (m, any) = self.refs_merged(m, p)?;
            merged |= any;
        }
        // (an intersection left as written keeps its type array or `null` in its enum: the
        // walk merges the parts first and splits what is left, as for the input)
        let mut m = match kind {
            Kind::All(_) if !merged => m,
            _ => null_in_enum(split_types(m)),
        };
        self.inline_ref_branches(&mut m, p)?;
        let (m, moved) = self.beside_into_branches(m, p)?;
        self.moved = moved;
        Ok(Value::Object(m))
    }

    /// Whether object keywords are vacuous beside the shape `shape` of a schema of kind `kind`
    /// ([`Lower::no_object`]), and left out. Not yet in an intersection with a reference to a
    /// union: the walk distributes the schema's own keywords into the union's branches, which
    /// the lowering does not write yet (reported as before).
    fn vacuous(&self, shape: &Kind, kind: &Kind) -> bool {
        let union_part = |p: &Schema| match p.kind {
            Kind::Ref(id) => !self.doc.def(id).schema.alternatives.is_empty(),
            _ => !p.alternatives.is_empty(),
        };
        self.no_object(shape) && !matches!(kind, Kind::All(parts) if parts.iter().any(union_part))
    }

    /// Whether the array keywords `items` and `prefixItems` are vacuous beside the shape
    /// `shape` of a schema of kind `kind`: no array fits it (an object, a scalar type, values
    /// none of which is an array), so they apply to no value (JSON Schema core 10.3.1) and are
    /// left out, as object keywords are ([`Lower::vacuous`]); the conversion reports each
    /// dropped (`dialect/model.rs`).
    fn vacuous_items(&self, shape: &Kind, kind: &Kind) -> bool {
        fn no_array(k: &Kind) -> bool {
            match k {
                Kind::Scalar(_) | Kind::Object(_) => true,
                Kind::Const(c) => !c.is_array(),
                Kind::Enum(values) => !values.iter().any(Value::is_array),
                Kind::Union(members) => members.iter().all(|m| no_array(&m.kind)),
                _ => false,
            }
        }
        no_array(shape) && matches!(kind, Kind::Scalar(_) | Kind::Object(_) | Kind::Union(_))
    }

    /// Whether no object fits the shape `kind` (a reference: its definition's,
    /// [`Kind::allows_no_object`]): object keywords beside it are vacuous (they apply to
    /// objects only), and the dialect walk drops them too.
    fn no_object(&self, kind: &Kind) -> bool {
        match kind {
            Kind::Ref(id) => self.doc.def(*id).schema.kind.allows_no_object(),
            Kind::Union(members) => members.iter().all(|m| self.no_object(&m.kind)),
            k => k.allows_no_object(),
        }
    }

    fn list(&mut self, schemas: &'d [Schema], p: &str) -> R<Value> {
        let mut out = Vec::with_capacity(schemas.len());
        for (i, x) in schemas.iter().enumerate() {
            out.push(self.schema(x, pointer::push_index(p, i))?);
        }
        Ok(Value::Array(out))
    }

    /// A `$ref` to the definition `id`, as written in the input.
    fn reference(&mut self, id: usize) -> Value {
        self.refs.insert(id);
        Value::String(self.doc.def(id).target.clone())
    }
}

/// Whether a type array is written as an `anyOf` of one branch per type (`forms::split_types`):
/// two types or more besides `null` (`["string"]` and `["string", "null"]` stay one type).
fn splits_into_union(types: &Value) -> bool {
    let Some(types) = types.as_array() else {
        return false;
    };
    let mut names: Vec<&str> = types
        .iter()
        .map(|t| t.as_str().unwrap_or(""))
        .filter(|t| *t != "null")
        .collect();
    names.sort_unstable();
    names.dedup();
    names.len() > 1
}

/// A name for the `n`th definition moved into the root's `$defs`, used by neither the input's
/// nor the lowered root's table.
fn moved_name(input: &Value, root: &Value, n: usize) -> String {
    let taken = |name: &str| {
        [input, root]
            .iter()
            .any(|d| d.get("$defs").and_then(|t| t.get(name)).is_some())
    };
    let mut name = format!("moved{n}");
    while taken(&name) {
        name.push('_');
    }
    name
}

/// Every `$ref` of `doc` naming a key of `moved` made to name its value (one pass, without
/// recursion).
fn retarget(doc: &mut Value, moved: &std::collections::HashMap<String, String>) {
    let mut stack = vec![doc];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    match x {
                        Value::String(r) if k == "$ref" => {
                            if let Some(to) = moved.get(r.as_str()) {
                                *r = to.clone();
                            }
                        }
                        Value::Object(_) | Value::Array(_) => stack.push(x),
                        _ => {}
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}
