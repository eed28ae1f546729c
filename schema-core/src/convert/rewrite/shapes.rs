//! The shape-changing rewrites of a schema, each with its inverse in the read-back plan.
//!
//! One walk over the input, depth first, decides at each schema what the target's rule table
//! needs before it walks the children (so a child knows where it ends up):
//! - **map -> entries** (`closed_objects`, unless `close_maps`): an object with arbitrary keys
//!   and no declared property becomes `[{"key": .., "value": ..}]` (`Step::Entries`);
//! - **tuple -> positional object** (no `tuples`): positions become `_0`, `_1`, ..., an
//!   explicit rest schema `_rest` (`Step::Positions`);
//! - **any value -> JSON text** (`typed_only`): a schema without a type becomes a string
//!   holding JSON text, and an array without `items` gets such items (`Step::Text`); an
//!   `enum` or `const` with arrays among its values becomes an `enum` of their JSON texts;
//! - **optional -> required and nullable** (`all_required`, done by the dialect walk): the
//!   plan records which properties' `null` reads back as absent (`Step::Object`).
//!
//! Only schemas whose shape the walk can see locally are rewritten: not one beside `$ref`, an
//! `allOf` or a union (the lowering merges those), not an `allOf` part, not a union branch
//! whose parent types it. Below a merged part, a schema no other part of the merge constrains
//! is rewritten as anywhere else (`guard.rs`). Anything else is left to the dialect walk, which refuses what the
//! dialect cannot express, as before. Every schema is visited once and unchanged subtrees are
//! not copied; `$ref`s name their target's step (a target met later is reserved first).

use super::guard::{guards, Piece, Touch};
use super::readback::{type_bit, type_name_bit, Step, ANY_TYPE, SAME};
use crate::convert::dialect::applies_to;
use crate::convert::pointer;
use crate::convert::{Change, ChangeKind, ConvertError, ConvertErrorKind, MAX_DEPTH};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// Which rewrites a conversion runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Wanted {
    pub(crate) maps: bool,
    pub(crate) tuples: bool,
    pub(crate) text: bool,
    pub(crate) nulls: bool,
}

/// The walk's state and result.
pub(crate) struct Shapes<'a> {
    root: &'a Value,
    want: Wanted,
    /// The plan's steps (`steps[0]` the identity).
    pub(crate) steps: Vec<Step>,
    /// `$ref` targets (input pointers) and their step (reserved before the target is met).
    memo: HashMap<String, usize>,
    targets: HashSet<String>,
    /// (pointer in the rewritten document, pointer in the input) of each moved schema.
    pub(crate) moves: Vec<(String, String)>,
    /// The rewrites made, at their input pointers.
    pub(crate) changes: Vec<Change>,
    text: Option<usize>,
    /// Optional properties the budget plan made required and nullable: (object pointer, name).
    made_nullable: HashSet<(String, String)>,
    /// Places the lowering merges with others (`frozen_places`).
    frozen: HashSet<String>,
    /// For a frozen place of the light rule, what the parts it merges with constrain below it.
    guards: HashMap<String, Touch>,
}

/// What the walk does at one schema.
#[derive(PartialEq)]
enum Kind {
    Plain,
    Map,
    Tuple,
    Text,
    ItemsText,
    /// Declared properties and other keys: the other keys as entries in one more property.
    MixedMap,
    /// An `enum` of values of several types: one `enum` per type.
    SplitEnum,
    /// A type array with an object or an array among its types: one schema per type, each
    /// rewritten on its own.
    SplitTypes,
    /// An `enum` or `const` with arrays among its values (here or in an `allOf` part): a
    /// string whose `enum` is the JSON text of each value the schema accepts.
    EnumText(Vec<Value>),
}

const TEXT_NOTE: &str = "Any JSON value, written as a string of JSON text.";
const ENTRIES_NOTE: &str =
    "A map written as a list of {\"key\": ..., \"value\": ...} entries, each key once.";
const EXTRA_NOTE: &str = "Keys of this object other than its declared properties.";
const TUPLE_NOTE: &str = "A tuple written as an object: position i is the property `_i`.";

impl<'a> Shapes<'a> {
    pub(crate) fn new(
        root: &'a Value,
        want: Wanted,
        made_nullable: HashSet<(String, String)>,
        full_freeze: bool,
    ) -> Self {
        let mut found = Scan::default();
        scan(root, "", &mut found, 0);
        let frozen = frozen_places(&found, full_freeze);
        let guards = if full_freeze {
            HashMap::new()
        } else {
            guards(root, &found.merges)
        };
        let targets = found.refs.into_iter().map(|(_, t)| t).collect();
        Shapes {
            frozen,
            guards,
            root,
            want,
            steps: vec![Step::Same],
            memo: HashMap::new(),
            targets,
            moves: Vec::new(),
            changes: Vec::new(),
            text: None,
            made_nullable,
        }
    }

    /// Rewrites the document: `None` where nothing changed; and the root's step.
    pub(crate) fn run(&mut self) -> Result<(Option<Value>, usize), ConvertError> {
        self.schema(self.root, "", "", true, 0)
    }

    fn add(&mut self, step: Step) -> usize {
        if step == Step::Same {
            return SAME;
        }
        self.steps.push(step);
        self.steps.len() - 1
    }

    fn text_step(&mut self) -> usize {
        if let Some(t) = self.text {
            return t;
        }
        let t = self.add(Step::Text);
        self.text = Some(t);
        t
    }

    /// The step of the schema at `at`, filling a reservation a `$ref` made.
    fn settle(&mut self, at: &str, step: Step) -> usize {
        if !self.targets.contains(at) {
            return self.add(step);
        }
        match self.memo.get(at) {
            Some(&r) => {
                self.steps[r] = step;
                r
            }
            None => {
                let id = self.add(step);
                self.memo.insert(at.to_string(), id);
                id
            }
        }
    }

    /// The step a `$ref` names: its target's, reserved if not met yet.
    fn ref_step(&mut self, reference: &str) -> usize {
        let Some(target) = reference
            .strip_prefix('#')
            .and_then(pointer::percent_decode)
        else {
            return SAME;
        };
        if let Some(&id) = self.memo.get(&target) {
            return id;
        }
        self.steps.push(Step::Same);
        let id = self.steps.len() - 1;
        self.memo.insert(target, id);
        id
    }

    fn schema(
        &mut self,
        v: &Value,
        at: &str,
        out_at: &str,
        local: bool,
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        self.schema_in(v, at, out_at, local, false, depth)
    }

    /// [`schema`](Self::schema), `frozen` below a place the lowering merges (an `allOf`, a
    /// `$ref` beside keywords): no schema there changes its shape, since the parts it merges
    /// with would no longer fit.
    fn schema_in(
        &mut self,
        v: &Value,
        at: &str,
        out_at: &str,
        local: bool,
        frozen: bool,
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        if depth > MAX_DEPTH {
            return Err(ConvertError::new(at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
        }
        let place = !self.frozen.is_empty() && self.frozen.contains(at);
        // (below a frozen place, what no other part of its merge constrains may still change)
        let guard = (place && !frozen)
            .then(|| self.guards.get(at).cloned())
            .flatten();
        let frozen = frozen || place;
        let m = match v {
            Value::Object(m) => m,
            Value::Bool(true) if local && !frozen && self.want.text => {
                let t = self.text_step();
                self.change(at, ChangeKind::AnyAsJsonText);
                let id = self.settle(at, self.steps[t].clone());
                return Ok((Some(text_schema(None)), id));
            }
            _ => return Ok((None, SAME)),
        };
        let kind = if local && !frozen {
            self.kind(m, at)
        } else {
            Kind::Plain
        };
        match kind {
            Kind::Text => {
                self.change(at, ChangeKind::AnyAsJsonText);
                let _ = self.text_step();
                let mut out = text_schema(m.get("description"));
                if let Value::Object(o) = &mut out {
                    self.carry(m, o, at, out_at, depth)?;
                }
                let id = self.settle(at, Step::Text);
                Ok((Some(out), id))
            }
            Kind::SplitEnum => {
                let mut out = split_enum(m);
                if let Value::Object(o) = &mut out {
                    self.carry(m, o, at, out_at, depth)?;
                }
                let id = self.settle(at, Step::Same);
                Ok((Some(out), id))
            }
            Kind::SplitTypes => self.split_types(m, at, out_at, depth),
            Kind::EnumText(texts) => {
                self.change(at, ChangeKind::AnyAsJsonText);
                let _ = self.text_step();
                let mut out = text_schema(m.get("description"));
                if let Value::Object(o) = &mut out {
                    o.insert("enum".into(), Value::Array(texts));
                    self.carry(m, o, at, out_at, depth)?;
                }
                let id = self.settle(at, Step::Text);
                Ok((Some(out), id))
            }
            Kind::Map => self.map(m, at, out_at, true, depth),
            Kind::Tuple => self.tuple(m, at, out_at, depth),
            _ => self.plain(m, at, out_at, kind, (frozen, guard), depth),
        }
    }

    fn change(&mut self, at: &str, kind: ChangeKind) {
        self.changes.push(Change {
            pointer: at.to_string(),
            kind,
        });
    }

    /// What the walk does at the schema `m` at `at`.
    fn kind(&self, m: &Map<String, Value>, at: &str) -> Kind {
        if let Some(texts) = self.want.text.then(|| enum_texts(self.root, m)).flatten() {
            return Kind::EnumText(texts);
        }
        if [
            "$ref",
            "allOf",
            "anyOf",
            "oneOf",
            "$dynamicRef",
            "$recursiveRef",
        ]
        .iter()
        .any(|k| m.contains_key(*k))
        {
            return Kind::Plain;
        }
        let ty = m.get("type");
        if let Some(Value::Array(types)) = ty {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            let non_null = named.iter().filter(|t| **t != "null").count();
            if non_null > 1 && named.iter().any(|t| matches!(*t, "object" | "array")) {
                return Kind::SplitTypes;
            }
        }
        let typed = |t: &str| match ty {
            Some(Value::String(s)) => s == t,
            Some(Value::Array(a)) => {
                a.iter().any(|x| x == t) && a.iter().all(|x| x == t || x == "null")
            }
            None => m.keys().any(|k| applies_to(k, t) && k != "format"),
            _ => false,
        };
        if self.want.tuples
            && typed("array")
            && (m.get("prefixItems").is_some_and(Value::is_array)
                || m.get("items").is_some_and(Value::is_array))
        {
            return Kind::Tuple;
        }
        if self.want.maps && typed("object") && is_map(m, at) {
            return Kind::Map;
        }
        if self.want.maps && typed("object") && is_mixed_map(m) {
            return Kind::MixedMap;
        }
        if !self.want.text {
            return Kind::Plain;
        }
        if ty.is_none() && enum_types(m) > 1 {
            return Kind::SplitEnum;
        }
        if ty.is_none() && !m.contains_key("enum") && !m.contains_key("const") {
            let implied = ["object", "array", "string", "number"].iter().any(|t| {
                m.keys().any(|k| {
                    applies_to(k, t) && !matches!(k.as_str(), "format" | "additionalItems")
                })
            });
            if !implied {
                return Kind::Text;
            }
        }
        let array = match ty {
            Some(Value::Array(a)) => a.iter().any(|t| t == "array"),
            _ => typed("array"),
        };
        if array && !m.contains_key("items") && !m.contains_key("prefixItems") {
            return Kind::ItemsText;
        }
        Kind::Plain
    }

    /// A schema that keeps its shape: its children walked, its step an object's or an
    /// array's (or a union's, or its `$ref` target's).
    fn plain(
        &mut self,
        m: &Map<String, Value>,
        at: &str,
        out_at: &str,
        kind: Kind,
        (frozen, guard): (bool, Option<Touch>),
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        let frozen_child =
            |k: &str, name: &str| frozen && !guard.as_ref().is_some_and(|g| g.frees(k, name));
        let mut out: Option<Map<String, Value>> = None;
        let mut props: Vec<(String, usize)> = Vec::new();
        let mut prefix: Vec<usize> = Vec::new();
        let mut rest_items = SAME;
        let mut rest_props = SAME;
        let mut branches: Vec<(u8, u8, usize)> = Vec::new();
        let mut parts: Vec<usize> = Vec::new();
        let mut any_branch = false;
        // (a union's branches are typed by their parent where it has more than annotations)
        let parent_types = m.keys().any(|k| {
            !matches!(
                k.as_str(),
                "anyOf"
                    | "oneOf"
                    | "description"
                    | "title"
                    | "$comment"
                    | "examples"
                    | "default"
                    | "$defs"
                    | "definitions"
                    | "$schema"
                    | "$id"
            )
        });
        for (k, x) in m {
            if kind == Kind::MixedMap
                && matches!(
                    k.as_str(),
                    "additionalProperties" | "patternProperties" | "propertyNames"
                )
            {
                continue;
            }
            let kat = pointer::push(at, k);
            let kout = pointer::push(out_at, k);
            let set = |out: &mut Option<Map<String, Value>>, new: Value| {
                out.get_or_insert_with(|| m.clone()).insert(k.clone(), new);
            };
            match k.as_str() {
                "properties" | "patternProperties" | "$defs" | "definitions"
                | "dependentSchemas" => {
                    let Value::Object(children) = x else { continue };
                    let mut changed: Option<Map<String, Value>> = None;
                    for (name, c) in children {
                        let (new, step) = self.schema_in(
                            c,
                            &pointer::push(&kat, name),
                            &pointer::push(&kout, name),
                            k != "dependentSchemas",
                            frozen_child(k, name) && !matches!(k.as_str(), "$defs" | "definitions"),
                            depth + 1,
                        )?;
                        if k == "properties" && step != SAME {
                            props.push((name.clone(), step));
                        }
                        if let Some(new) = new {
                            changed
                                .get_or_insert_with(|| children.clone())
                                .insert(name.clone(), new);
                        }
                    }
                    if let Some(c) = changed {
                        set(&mut out, Value::Object(c));
                    }
                }
                "additionalProperties" | "items" | "additionalItems" if x.is_object() => {
                    let frozen = frozen_child(k, "");
                    let (new, step) = self.schema_in(x, &kat, &kout, true, frozen, depth + 1)?;
                    if k == "additionalProperties" {
                        rest_props = step;
                    } else {
                        rest_items = step;
                    }
                    if let Some(new) = new {
                        set(&mut out, new);
                    }
                }
                "items" | "prefixItems" | "anyOf" | "oneOf" | "allOf" => {
                    let Value::Array(list) = x else { continue };
                    let mut changed: Option<Vec<Value>> = None;
                    for (i, c) in list.iter().enumerate() {
                        let local = match k.as_str() {
                            "allOf" => false,
                            "anyOf" | "oneOf" => !parent_types,
                            _ => true,
                        };
                        let (new, step) = self.schema_in(
                            c,
                            &pointer::push_index(&kat, i),
                            &pointer::push_index(&kout, i),
                            local,
                            match k.as_str() {
                                // (each part is a frozen place of its own)
                                "allOf" => {
                                    frozen || !self.frozen.contains(&pointer::push_index(&kat, i))
                                }
                                "items" | "prefixItems" => frozen_child("items", ""),
                                _ => frozen,
                            },
                            depth + 1,
                        )?;
                        match k.as_str() {
                            "allOf" => parts.push(step),
                            "anyOf" | "oneOf" => {
                                any_branch |= step != SAME;
                                let shown = new.as_ref().unwrap_or(c);
                                branches.push((self.mask(shown, 0), self.mask(c, 0), step));
                            }
                            _ => prefix.push(step),
                        }
                        if let Some(new) = new {
                            changed.get_or_insert_with(|| list.clone())[i] = new;
                        }
                    }
                    if let Some(c) = changed {
                        set(&mut out, Value::Array(c));
                    }
                }
                _ => {}
            }
        }
        if kind == Kind::ItemsText {
            self.change(at, ChangeKind::AnyAsJsonText);
            rest_items = self.text_step();
            out.get_or_insert_with(|| m.clone())
                .insert("items".into(), text_schema(None));
        }
        let mut extra = None;
        if kind == Kind::MixedMap {
            extra = Some(self.mixed(m, &mut out, at, out_at, depth)?);
        }
        let mut own = Vec::new();
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            own.push(self.ref_step(r));
        }
        let absent_if_null = self.absent_if_null(m, at);
        if !props.is_empty() || !absent_if_null.is_empty() || rest_props != SAME || extra.is_some()
        {
            own.push(self.add(Step::Object {
                props,
                absent_if_null,
                rest: rest_props,
                extra,
            }));
        }
        if prefix.iter().any(|&s| s != SAME) || rest_items != SAME {
            own.push(self.add(Step::Array {
                prefix,
                rest: rest_items,
            }));
        }
        if any_branch {
            own.push(self.add(Step::Union(branches)));
        }
        own.extend(parts.into_iter().filter(|&s| s != SAME));
        // (one step is named, not copied: a `$ref`'s may be a reservation filled later)
        let id = match own.len() {
            0 => self.settle(at, Step::Same),
            1 if !self.targets.contains(at) => own[0],
            _ => self.settle(at, Step::All(own)),
        };
        Ok((out.map(Value::Object), id))
    }

    /// The optional properties of `m` whose `null` reads back as absent, where the dialect
    /// makes every property required and the property's own schema has no `null`.
    fn absent_if_null(&self, m: &Map<String, Value>, at: &str) -> Vec<String> {
        let Some(Value::Object(props)) = m.get("properties") else {
            return Vec::new();
        };
        let budget = |k: &String| {
            !self.made_nullable.is_empty()
                && self.made_nullable.contains(&(at.to_string(), k.clone()))
        };
        if !self.want.nulls {
            return props.keys().filter(|k| budget(k)).cloned().collect();
        }
        let required: HashSet<&str> = match m.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => HashSet::new(),
        };
        props
            .iter()
            .filter(|(k, s)| {
                budget(k) || !required.contains(k.as_str()) && !accepts_null(self.root, s, 0)
            })
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// The JSON types the schema `s` admits, as a mask ([`type_bit`]).
    fn mask(&self, s: &Value, depth: usize) -> u8 {
        let Value::Object(m) = s else {
            return if s == &Value::Bool(false) {
                0
            } else {
                ANY_TYPE
            };
        };
        if let Some(t) = m.get("type") {
            return match t {
                Value::String(t) => type_name_bit(t),
                Value::Array(a) => a
                    .iter()
                    .filter_map(Value::as_str)
                    .fold(0, |acc, t| acc | type_name_bit(t)),
                _ => ANY_TYPE,
            } | u8::from(m.get("nullable") == Some(&Value::Bool(true)));
        }
        if let Some(Value::Array(e)) = m.get("enum") {
            return e.iter().fold(0, |acc, v| acc | type_bit(v));
        }
        if let Some(c) = m.get("const") {
            return type_bit(c);
        }
        if depth < 8 {
            if let Some(t) =
                (m.get("$ref").and_then(Value::as_str)).and_then(|r| pointer::resolve(self.root, r))
            {
                return self.mask(t, depth + 1);
            }
            for u in ["anyOf", "oneOf"] {
                if let Some(Value::Array(b)) = m.get(u) {
                    return b.iter().fold(0, |acc, b| acc | self.mask(b, depth + 1));
                }
            }
        }
        let implied = ["object", "array", "string", "number"]
            .iter()
            .filter(|t| {
                m.keys().any(|k| {
                    applies_to(k, t) && !matches!(k.as_str(), "format" | "additionalItems")
                })
            })
            .fold(0, |acc, t| acc | type_name_bit(t));
        if implied == 0 {
            ANY_TYPE
        } else {
            implied
        }
    }

    /// The other keys of an object with declared properties (`m`, written to `out`) as the
    /// entries of one more property (`_extra`, or a name no property has): its name, the
    /// names declared and the entries' step.
    fn mixed(
        &mut self,
        m: &Map<String, Value>,
        out: &mut Option<Map<String, Value>>,
        at: &str,
        out_at: &str,
        depth: usize,
    ) -> Result<(String, Vec<String>, usize), ConvertError> {
        let out = out.get_or_insert_with(|| m.clone());
        let declared: Vec<String> = match out.get("properties") {
            Some(Value::Object(p)) => p.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let mut name = String::from("_extra");
        while declared.contains(&name) {
            name.insert(0, '_');
        }
        let mut rest = Map::new();
        rest.insert("type".into(), "object".into());
        for k in ["additionalProperties", "patternProperties", "propertyNames"] {
            if let Some(v) = out.remove(k) {
                rest.insert(k.into(), v);
            }
        }
        rest.insert("description".into(), EXTRA_NOTE.into());
        let e_at = pointer::push_all(out_at, &["properties", &name]);
        self.moves.push((e_at.clone(), at.to_string()));
        // (the object's own step, not the entries', is the one a `$ref` to `at` names)
        let (entries, step) = self.map(&rest, at, &e_at, false, depth + 1)?;
        if let Some(Value::Object(p)) = out.get_mut("properties") {
            p.insert(name.clone(), entries.unwrap_or(Value::Object(rest)));
        }
        // (required, possibly empty: no optional property or union added to a budget)
        match out.get_mut("required") {
            Some(Value::Array(r)) => r.push(Value::String(name.clone())),
            _ => {
                out.insert("required".into(), json!([name]));
            }
        }
        Ok((name, declared, step))
    }

    /// A schema with a type array as a union of one schema per type (the keywords that apply
    /// to it), each walked as a schema of its own at the input's place.
    fn split_types(
        &mut self,
        m: &Map<String, Value>,
        at: &str,
        out_at: &str,
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        let types: Vec<&str> = (m
            .get("type")
            .and_then(Value::as_array)
            .into_iter()
            .flatten())
        .filter_map(Value::as_str)
        .collect();
        let mut branches = Vec::with_capacity(types.len());
        let mut steps = Vec::with_capacity(types.len());
        for (i, t) in types.iter().enumerate() {
            let mut b = Map::new();
            b.insert("type".into(), Value::String(t.to_string()));
            for (k, v) in m {
                let own = if matches!(*t, "integer" | "number") {
                    "number"
                } else {
                    t
                };
                if applies_to(k, own) {
                    b.insert(k.clone(), v.clone());
                }
            }
            let b = Value::Object(b);
            let b_at = pointer::push_all(out_at, &["anyOf", &i.to_string()]);
            self.moves.push((b_at.clone(), at.to_string()));
            let (new, step) = self.schema_in(&b, at, &b_at, true, false, depth + 1)?;
            let shown = new.unwrap_or(b);
            steps.push((self.mask(&shown, 0), type_name_bit(t), step));
            branches.push(shown);
        }
        let mut out = Map::new();
        for (k, v) in m {
            if is_annotation(k) || matches!(k.as_str(), "enum" | "const") {
                out.insert(k.clone(), v.clone());
            }
        }
        out.insert("anyOf".into(), Value::Array(branches));
        self.carry(m, &mut out, at, out_at, depth)?;
        let step = if steps.iter().any(|s| s.2 != SAME) {
            Step::Union(steps)
        } else {
            Step::Same
        };
        let id = self.settle(at, step);
        Ok((Some(Value::Object(out)), id))
    }

    /// The definitions and document keywords of `m`, a schema rewritten whole, kept in its
    /// rewritten form `out` (the definitions walked).
    fn carry(
        &mut self,
        m: &Map<String, Value>,
        out: &mut Map<String, Value>,
        at: &str,
        out_at: &str,
        depth: usize,
    ) -> Result<(), ConvertError> {
        for k in ["$schema", "$id", "$defs", "definitions"] {
            let Some(x) = m.get(k) else { continue };
            let mut x = x.clone();
            if let (Value::Object(defs), true) = (&mut x, matches!(k, "$defs" | "definitions")) {
                let kat = pointer::push(at, k);
                let kout = pointer::push(out_at, k);
                for (name, d) in defs.iter_mut() {
                    let (new, _) = self.schema(
                        d,
                        &pointer::push(&kat, name),
                        &pointer::push(&kout, name),
                        true,
                        depth + 1,
                    )?;
                    if let Some(new) = new {
                        *d = new;
                    }
                }
            }
            out.insert(k.into(), x);
        }
        Ok(())
    }

    /// A map as `[{"key": .., "value": ..}]`; `whole`: the schema at `at` is the map (else the
    /// other keys of an object with declared properties).
    fn map(
        &mut self,
        m: &Map<String, Value>,
        at: &str,
        out_at: &str,
        whole: bool,
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        let items_at = pointer::push_all(out_at, &["items", "properties"]);
        let value_at = pointer::push(&items_at, "value");
        // the schemas of the values: each pattern's, and the rest's
        let mut sources: Vec<(String, &Value, Option<&str>)> = Vec::new();
        if let Some(Value::Object(pp)) = m.get("patternProperties") {
            for (p, s) in pp {
                let src = pointer::push_all(at, &["patternProperties", p]);
                sources.push((src, s, Some(p.as_str())));
            }
        }
        match m.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            Some(s @ Value::Object(_)) => {
                sources.push((pointer::push(at, "additionalProperties"), s, None));
            }
            // (any value for keys no pattern matches: the patterns' values where there are
            // patterns, a value of any type otherwise)
            _ if sources.is_empty() => sources.push((
                pointer::push(at, "additionalProperties"),
                &Value::Bool(true),
                None,
            )),
            _ => {}
        }
        let (value, value_step, key_pattern) = if sources.len() == 1 {
            let (src, s, pat) = &sources[0];
            self.moves.push((value_at.clone(), src.clone()));
            let (new, step) = self.schema(s, src, &value_at, true, depth + 1)?;
            let value = new.unwrap_or_else(|| match s {
                Value::Bool(true) => json!({}),
                s => (*s).clone(),
            });
            (value, step, *pat)
        } else {
            let mut branches = Vec::new();
            let mut steps = Vec::new();
            for (i, (src, s, _)) in sources.iter().enumerate() {
                let b_at = pointer::push_all(&value_at, &["anyOf", &i.to_string()]);
                self.moves.push((b_at.clone(), src.clone()));
                let (new, step) = self.schema(s, src, &b_at, true, depth + 1)?;
                let shown = new.unwrap_or_else(|| (*s).clone());
                steps.push((self.mask(&shown, 0), self.mask(s, 0), step));
                branches.push(shown);
            }
            let step = if steps.iter().any(|s| s.2 != SAME) {
                self.add(Step::Union(steps))
            } else {
                SAME
            };
            (json!({"anyOf": branches}), step, None)
        };
        let mut key = match m.get("propertyNames") {
            Some(Value::Object(p)) => p.clone(),
            _ => Map::new(),
        };
        key.insert("type".into(), "string".into());
        if let Some(p) = key_pattern {
            key.entry("pattern").or_insert_with(|| p.into());
        }
        let mut out = reshaped(m, "array", ENTRIES_NOTE);
        out.insert(
            "items".into(),
            json!({
                "type": "object",
                "properties": {"key": Value::Object(key), "value": value},
                "required": ["key", "value"],
                "additionalProperties": false
            }),
        );
        for (from, to) in [("minProperties", "minItems"), ("maxProperties", "maxItems")] {
            if let Some(n) = m.get(from) {
                out.insert(to.into(), n.clone());
            }
        }
        self.moves.push((
            pointer::push(&items_at, "key"),
            pointer::push(at, "propertyNames"),
        ));
        self.carry(m, &mut out, at, out_at, depth)?;
        self.change(at, ChangeKind::MapAsEntries);
        let step = Step::Entries { value: value_step };
        let id = if whole {
            self.settle(at, step)
        } else {
            self.add(step)
        };
        Ok((Some(Value::Object(out)), id))
    }

    /// A tuple as `{"_0": .., "_1": .., "_rest": [..]}`.
    fn tuple(
        &mut self,
        m: &Map<String, Value>,
        at: &str,
        out_at: &str,
        depth: usize,
    ) -> Result<(Option<Value>, usize), ConvertError> {
        let (list_key, rest_key) = if m.get("prefixItems").is_some_and(Value::is_array) {
            ("prefixItems", "items")
        } else {
            ("items", "additionalItems")
        };
        let list = m
            .get(list_key)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let required = min.min(list.len());
        let mut props = Map::new();
        let mut prefix = Vec::with_capacity(list.len());
        let mut null_ends = Vec::with_capacity(list.len());
        for (i, s) in list.iter().enumerate() {
            let src = pointer::push_all(at, &[list_key, &i.to_string()]);
            let name = format!("_{i}");
            let p_at = pointer::push_all(out_at, &["properties", &name]);
            self.moves.push((p_at.clone(), src.clone()));
            let (new, step) = self.schema(s, &src, &p_at, true, depth + 1)?;
            props.insert(name, new.unwrap_or_else(|| s.clone()));
            prefix.push(step);
            null_ends.push(self.want.nulls && !accepts_null(self.root, s, 0));
        }
        let max = m.get("maxItems").and_then(Value::as_u64);
        let rest = match m.get(rest_key) {
            Some(s @ Value::Object(_)) if max.is_none_or(|n| n as usize > list.len()) => {
                let src = pointer::push(at, rest_key);
                let r_at = pointer::push_all(out_at, &["properties", "_rest", "items"]);
                self.moves.push((r_at.clone(), src.clone()));
                let (new, step) = self.schema(s, &src, &r_at, true, depth + 1)?;
                props.insert(
                    "_rest".into(),
                    json!({"type": "array", "items": new.unwrap_or_else(|| s.clone())}),
                );
                Some(step)
            }
            _ => None,
        };
        let names: Vec<Value> = (0..required)
            .map(|i| Value::String(format!("_{i}")))
            .collect();
        let mut out = reshaped(m, "object", TUPLE_NOTE);
        out.insert("properties".into(), Value::Object(props));
        if !names.is_empty() {
            out.insert("required".into(), Value::Array(names));
        }
        out.insert("additionalProperties".into(), false.into());
        self.carry(m, &mut out, at, out_at, depth)?;
        self.change(at, ChangeKind::TupleAsObject);
        let id = self.settle(
            at,
            Step::Positions {
                prefix,
                required,
                null_ends,
                rest,
            },
        );
        Ok((Some(Value::Object(out)), id))
    }
}

/// Whether the schema `s` accepts `null` (followed through a few `$ref`s; unknown: yes).
pub(super) fn accepts_null(root: &Value, s: &Value, depth: usize) -> bool {
    let Value::Object(m) = s else {
        return s != &Value::Bool(false);
    };
    if depth > 8 {
        return true;
    }
    if let Some(Value::Array(e)) = m.get("enum") {
        return e.iter().any(Value::is_null);
    }
    if let Some(c) = m.get("const") {
        return c.is_null();
    }
    if m.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    if let Some(t) = m.get("type") {
        return match t {
            Value::String(t) => t == "null",
            Value::Array(a) => a.iter().any(|t| t == "null"),
            _ => false,
        };
    }
    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
        return pointer::resolve(root, r).is_none_or(|t| accepts_null(root, t, depth + 1));
    }
    for u in ["anyOf", "oneOf"] {
        if let Some(Value::Array(b)) = m.get(u) {
            return b.iter().any(|b| accepts_null(root, b, depth + 1));
        }
    }
    if let Some(Value::Array(b)) = m.get("allOf") {
        return b.iter().all(|b| accepts_null(root, b, depth + 1));
    }
    !["object", "array", "string", "number"]
        .iter()
        .any(|t| m.keys().any(|k| applies_to(k, t)))
}

/// Where `m` (or one of its `allOf` parts) has an `enum` or `const` with an array among its
/// values and no `$ref`: the JSON text of each of those values `m` accepts (an `enum` of
/// strings a grammar can hold; read back by parsing). `None` where none is accepted.
fn enum_texts(root: &Value, m: &Map<String, Value>) -> Option<Vec<Value>> {
    // (looked at without a copy: most schemas have no such value)
    fn values_of(s: &Map<String, Value>) -> Option<&[Value]> {
        let values = match (s.get("enum"), s.get("const")) {
            (Some(Value::Array(e)), _) => e.as_slice(),
            (None, Some(c)) => std::slice::from_ref(c),
            _ => return None,
        };
        values.iter().any(Value::is_array).then_some(values)
    }
    let values = values_of(m).or_else(|| {
        (m.get("allOf").and_then(Value::as_array)?.iter())
            .filter_map(Value::as_object)
            .find_map(values_of)
    })?;
    let text = Value::Object(m.clone()).to_string();
    if text.contains("\"$ref\"") || text.contains("Ref\"") {
        return None;
    }
    // (the values the whole schema accepts, by the validator, under the document's draft)
    let mut own = m.clone();
    if let (false, Some(d)) = (own.contains_key("$schema"), root.get("$schema")) {
        own.insert("$schema".into(), d.clone());
    }
    let v = crate::validate::Validator::new(&Value::Object(own)).ok()?;
    let mut seen = HashSet::new();
    let texts: Vec<Value> = (values.iter().filter(|x| v.is_valid(x)))
        .map(Value::to_string)
        .filter(|t| seen.insert(t.clone()))
        .map(Value::String)
        .collect();
    (!texts.is_empty()).then_some(texts)
}

/// How many JSON types but `null` the values of `m`'s `enum` have (an integer is a number); 0 where
/// one is an array or an object (such an enum is left to the dialect walk).
fn enum_types(m: &Map<String, Value>) -> u32 {
    match m.get("enum") {
        Some(Value::Array(e)) if !e.iter().any(|v| v.is_array() || v.is_object()) => {
            // (`null` beside one type is that type made nullable, which the walk writes)
            (e.iter().fold(0u8, |acc, v| acc | type_bit(v)) & !1).count_ones()
        }
        _ => 0,
    }
}

/// `m`, an `enum` of values of several types, as a union of one typed `enum` per type (its
/// annotations kept beside the union).
fn split_enum(m: &Map<String, Value>) -> Value {
    let values = m
        .get("enum")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut branches: Vec<(u8, Vec<Value>)> = Vec::new();
    for v in values {
        let bit = type_bit(v);
        match branches.iter_mut().find(|(b, _)| *b == bit) {
            Some((_, vs)) => vs.push(v.clone()),
            None => branches.push((bit, vec![v.clone()])),
        }
    }
    let any_of: Vec<Value> = branches
        .into_iter()
        .map(|(_, vs)| {
            let ty = match &vs[0] {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            if ty == "null" {
                json!({"type": "null"})
            } else {
                json!({"type": ty, "enum": vs})
            }
        })
        .collect();
    let mut out = Map::new();
    for (k, v) in m {
        if is_annotation(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out.insert("anyOf".into(), Value::Array(any_of));
    Value::Object(out)
}

/// Whether the keyword `k` constrains values (one of a draft's assertions or applicators).
fn asserts(k: &str) -> bool {
    ["object", "array", "string", "number"]
        .iter()
        .any(|t| applies_to(k, t))
        || matches!(
            k,
            "type"
                | "enum"
                | "const"
                | "allOf"
                | "anyOf"
                | "oneOf"
                | "not"
                | "if"
                | "then"
                | "else"
                | "dependencies"
                | "nullable"
                | "$ref"
                | "$dynamicRef"
                | "$recursiveRef"
        )
}

/// Whether `k` only annotates (the lowering keeps it beside a `$ref`).
fn is_annotation(k: &str) -> bool {
    matches!(
        k,
        "description"
            | "title"
            | "$comment"
            | "examples"
            | "default"
            | "$schema"
            | "$id"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) || k.starts_with("x-")
}

/// `ty`, or `[ty, "null"]` where the schema `m`'s type has `null` too.
fn nullable_type(m: &Map<String, Value>, ty: &str) -> Value {
    match m.get("type") {
        Some(Value::Array(a)) if a.iter().any(|t| t == "null") => json!([ty, "null"]),
        _ => Value::String(ty.into()),
    }
}

/// The start of a schema rewritten as `ty`: its type (nullable where `m`'s is), `m`'s title
/// and description, and `note` added to the description.
fn reshaped(m: &Map<String, Value>, ty: &str, note: &str) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), nullable_type(m, ty));
    for k in ["title", "description"] {
        if let Some(v) = m.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    append_note(&mut out, note);
    out
}

/// The string of JSON text that stands for a value of any type.
fn text_schema(description: Option<&Value>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), "string".into());
    if let Some(d) = description {
        out.insert("description".into(), d.clone());
    }
    append_note(&mut out, TEXT_NOTE);
    Value::Object(out)
}

fn append_note(out: &mut Map<String, Value>, note: &str) {
    let text = match out.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d}\n\n{note}"),
        _ => note.to_string(),
    };
    out.insert("description".into(), Value::String(text));
}

/// Whether the object schema `m` at `at` allows arbitrary keys and declares no property:
/// the maps the dialect walk refuses where every object is closed.
fn is_map(m: &Map<String, Value>, at: &str) -> bool {
    let props_empty = match m.get("properties") {
        Some(Value::Object(p)) => p.is_empty(),
        Some(_) => return false,
        None => true,
    };
    if !props_empty {
        return false;
    }
    let pat = m
        .get("patternProperties")
        .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()));
    match m.get("additionalProperties") {
        Some(Value::Bool(false)) => pat,
        Some(Value::Object(_) | Value::Bool(true)) => true,
        None => (!m.contains_key("properties") && !at.is_empty()) || pat,
        Some(_) => false,
    }
}

/// Whether the object schema `m` declares properties and allows other keys by an explicit
/// `additionalProperties` or by `patternProperties`: the other maps the dialect walk refuses
/// where every object is closed.
pub(super) fn is_mixed_map(m: &Map<String, Value>) -> bool {
    let props = m
        .get("properties")
        .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()));
    let pat = m
        .get("patternProperties")
        .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()));
    // (an explicit `true` or `{}`: keys of any name with values of any type)
    let schema = m
        .get("additionalProperties")
        .is_some_and(|a| a.is_object() || a == &Value::Bool(true));
    props && (pat || schema)
}

/// The local `$ref`s of a document (pointer, target) and the places the lowering merges (a
/// schema with `allOf`, a `$ref` beside keywords).
#[derive(Default)]
struct Scan {
    refs: Vec<(String, String)>,
    merged: Vec<String>,
    /// The parts of each `allOf`, and each `$ref` beside keywords (its target merges there).
    parts: Vec<String>,
    /// The pieces each merge puts together.
    merges: Vec<Vec<Piece>>,
}

fn scan(v: &Value, at: &str, out: &mut Scan, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            // (definitions and words no draft defines, beside a `$ref`, constrain nothing its
            // target merges with)
            let beside = m.contains_key("$ref") && m.keys().any(|k| k != "$ref" && asserts(k));
            let target = (m.get("$ref").and_then(Value::as_str))
                .and_then(|r| r.strip_prefix('#'))
                .and_then(pointer::percent_decode);
            let mut pieces = vec![Piece::Own(at.to_string())];
            if m.contains_key("allOf") || beside {
                out.merged.push(at.to_string());
            }
            if beside {
                out.parts.push(at.to_string());
                pieces.extend(target.map(Piece::Target));
            }
            if let Some(Value::Array(parts)) = m.get("allOf") {
                let all = pointer::push(at, "allOf");
                let parts: Vec<String> = (0..parts.len())
                    .map(|i| pointer::push_index(&all, i))
                    .collect();
                pieces.extend(parts.iter().cloned().map(Piece::Whole));
                out.parts.extend(parts);
            }
            if pieces.len() > 1 {
                out.merges.push(pieces);
            }
            for (k, x) in m {
                if k == "$ref" {
                    if let Some(t) = x
                        .as_str()
                        .and_then(|r| r.strip_prefix('#'))
                        .and_then(pointer::percent_decode)
                    {
                        out.refs.push((at.to_string(), t));
                    }
                } else {
                    scan(x, &pointer::push(at, k), out, depth + 1);
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                scan(x, &pointer::push_index(at, i), out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The places no shape rewrite may change. `full`: below a place the lowering merges, and
/// below the target of a `$ref` met there (the merge inlines it), to a fixpoint; else (the
/// first try, which most schemas pass) only the parts merged and the targets they name.
fn frozen_places(scan: &Scan, full: bool) -> HashSet<String> {
    if !full {
        // (the light rule: only the parts themselves, and the targets they name)
        let mut frozen: HashSet<String> = scan.parts.iter().cloned().collect();
        for (at, t) in &scan.refs {
            if frozen.contains(at) {
                frozen.insert(t.clone());
            }
        }
        let targets: Vec<String> = (scan.refs.iter())
            .filter(|(at, _)| scan.parts.contains(at))
            .map(|(_, t)| t.clone())
            .collect();
        frozen.extend(targets);
        return frozen;
    }
    let mut frozen: HashSet<String> = scan.merged.iter().cloned().collect();
    let below_frozen = |at: &str, frozen: &HashSet<String>| {
        let mut p = at;
        loop {
            if frozen.contains(p) {
                return true;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return false,
            }
        }
    };
    loop {
        let mut grew = false;
        for (at, t) in &scan.refs {
            if !frozen.contains(t) && below_frozen(at, &frozen) {
                frozen.insert(t.clone());
                grew = true;
            }
        }
        if !grew {
            return frozen;
        }
    }
}
