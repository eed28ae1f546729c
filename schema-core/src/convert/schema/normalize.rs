//! The normalizer: a JSON Schema document into a [`Doc`] (the passes are listed in the module
//! documentation of `convert::schema`).

use super::keywords::{head, Has};
use super::merge::has_type;
use super::nullable::{nullable_beside_ref, nullable_kind};
use super::object::{build_object, required_of};
use super::{
    Alternatives, Array, Clauses, Constraints, Def, DefId, Doc, Extra, Kind, Prop, Scalar, Schema,
};
use crate::convert::dialect::{check_json_depth, refs};
use crate::convert::{
    kind_of, pointer, required_names, ConvertError, ConvertErrorKind, SmallMap, MAX_DEPTH,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Keywords that give a schema a shape of its own (a branch without any of them, inside an
/// `anyOf`/`oneOf` beside a shape, refines that shape).
pub(super) const SHAPE_KEYWORDS: &[&str] = &[
    "type",
    "const",
    "enum",
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "items",
    "prefixItems",
];

/// The keywords that apply to objects only (the first four are the structural ones, read into
/// [`Kind::Object`]).
pub(crate) const OBJECT_ONLY: &[&str] = &[
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
];

/// Keywords that make a schema without `type` an object: those, `dependentRequired` aside.
pub(super) const OBJECT_KEYWORDS: &[&str] = OBJECT_ONLY.split_at(7).0;

type R<T> = Result<T, ConvertError>;

mod values;
pub(super) use values::read_constraints;
use values::{array, bad_type, boolean_schema, const_or_enum, shapeless};

pub(super) fn malformed<T>(at: &str, msg: impl Into<String>) -> R<T> {
    Err(ConvertError::new(
        at,
        ConvertErrorKind::Malformed(msg.into()),
    ))
}

/// Normalizes the JSON Schema document `root` into a [`Doc`].
pub(crate) fn normalize(root: &Value) -> R<Doc> {
    // Bounded JSON nesting first: the model owns copies of values (`const`, `default`).
    check_json_depth(root)?;
    let mut n = Normalizer {
        root,
        ids: HashMap::new(),
        defs: vec![None],
        graph: None,
    };
    let schema = n.schema(root, String::new(), 0)?;
    n.defs[0] = Some(Def {
        target: "#".into(),
        // (a document without references has no recursion: no scan)
        recursive: n.defs.len() > 1 && n.is_recursive("#"),
        // (the root is never written in place of a reference to it)
        shared: false,
        schema,
    });
    // (exactly as many as there are: a collected list would hold 4 at least, a 1,344-byte
    // block for the usual one definition, which costs glibc's malloc a consolidation of its
    // free lists)
    let mut defs = Vec::with_capacity(n.defs.len());
    defs.extend(n.defs.into_iter().flatten());
    Ok(Doc { defs })
}

pub(super) struct Normalizer<'a> {
    root: &'a Value,
    /// Reference as written -> its definition (`#`, the root, is 0 and not in the map: most
    /// documents have no other reference, and then no map is built).
    ids: HashMap<String, DefId>,
    /// The table; `None` while a definition is being normalized.
    pub(super) defs: Vec<Option<Def>>,
    /// The reference table (which targets are recursive), once the first reference asked
    /// (`Some(None)`: the scan failed, all of them).
    graph: Option<Option<refs::RefGraph<'a>>>,
}

impl Normalizer<'_> {
    fn is_recursive(&mut self, reference: &str) -> bool {
        // A graph the scan rejects (a cycle with no property or item in between) describes no
        // value; the readers report it in their own terms, and here every target then counts
        // as recursive (none is inlined).
        let root = self.root;
        let graph = self.graph.get_or_insert_with(|| refs::scan(root).ok());
        let Some(graph) = graph else {
            return true;
        };
        match graph.target(reference, "") {
            Ok((ptr, _)) => graph.recursive.contains(&ptr),
            Err(_) => true,
        }
    }

    /// Whether more than one `$ref` of the document names the definition `id` (a dialect may
    /// keep such a definition shared, dropping the keywords beside each reference: an option
    /// the model does not see).
    pub(super) fn shared(&self, id: DefId) -> bool {
        let (Some(Some(def)), Some(Some(graph))) = (self.defs.get(id), &self.graph) else {
            return true;
        };
        match graph.target(&def.target, "") {
            Ok((ptr, _)) => graph.uses.get(&ptr).copied().unwrap_or(0) > 1,
            Err(_) => true,
        }
    }

    /// One schema found at `at`.
    ///
    /// The recursion runs through this function and the ones it calls for subschemas; each step
    /// that does not recurse is a function of its own, so that every frame on the recursion path
    /// stays small also in a debug build (`MAX_DEPTH` levels must fit a 2 MB thread stack).
    pub(super) fn schema(&mut self, v: &Value, mut at: String, depth: usize) -> R<Schema> {
        if depth > MAX_DEPTH {
            return Err(ConvertError::new(&at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
        }
        let m = match v {
            Value::Object(m) => m,
            other => return boolean_schema(other, &at),
        };
        // (`at` moves into the schema at the end: one string per schema; the merge reads it
        // from the schema)
        let mut s = Schema::of(Kind::Any, "");
        let has = head(&mut s, m, &at)?;
        let has_base = if has.any(Has::REF | Has::ALL_OF) {
            let (parts, own_last, vacuous) = self.parts(m, has, &at, depth)?;
            if vacuous {
                // (the object constraints too: `minProperties` beside a string)
                s.keywords
                    .retain(|k, _| !OBJECT_KEYWORDS.contains(&k.as_str()));
            }
            let has_base = !parts.is_empty();
            s.at = at;
            self.merge(&mut s, parts, own_last);
            at = std::mem::take(&mut s.at);
            has_base
        } else {
            // (the own shape alone: what merging the one part would make of it, without
            // building the part)
            match self.local(m, has, &at, depth, true)? {
                Some(kind) => {
                    s.kind = kind;
                    true
                }
                None => false,
            }
        };
        if has.any(Has::ANY_OF | Has::ONE_OF | Has::NOT) {
            self.beside(&mut s, m, has_base, &at, depth)?;
        }
        if has.any(Has::NULLABLE) {
            nullable_beside_ref(&mut s, m, &at);
        }
        // last: the keywords are merged from every part by now
        s.constraints
            .set(read_constraints(&s.keywords, &s.kind, &at)?);
        s.at = at;
        Ok(s)
    }

    /// The parts of a schema that are merged into one: its `$ref`'s target, its `allOf` members
    /// and its own shape, in the order the dialects merge them (so that the merged properties
    /// are in their order); whether the last part is the own shape; whether the own shape was
    /// left out as vacuous (object keywords beside a part no object fits).
    fn parts(
        &mut self,
        m: &Map<String, Value>,
        has: Has,
        at: &str,
        depth: usize,
    ) -> R<(Vec<Schema>, bool, bool)> {
        let mut parts = Vec::new();
        // (`nullable` applies to the merged shape: `nullable_beside_ref`)
        let local = self.local(m, has, at, depth, false)?;
        // (an object only implied by object keywords: no `type`, `enum` or `const`)
        let implied =
            matches!(local, Some(Kind::Object(_))) && !has.any(Has::TYPE | Has::ENUM | Has::CONST);
        if let Some(r) = m.fget("$ref") {
            let p = pointer::push(at, "$ref");
            let Value::String(r) = r else {
                return malformed(&p, format!("expected a string, found {}", kind_of(r)));
            };
            let id = self.reference(r, &p, depth)?;
            parts.push(Schema::of(Kind::Ref(id), at));
        }
        if let Some(all) = m.fget("allOf") {
            let p = pointer::push(at, "allOf");
            for (i, sub) in array(all, &p)?.iter().enumerate() {
                parts.push(self.schema(sub, pointer::push_index(&p, i), depth + 1)?);
            }
        }
        // Object keywords beside a part no object fits (a `$ref` to a string definition) are
        // vacuous: they apply to objects only (JSON Schema validation 6.5, core 10.3.2), so
        // `{"required": ["a"], "$ref": <string>}` is the string (the dialects drop them too).
        let vacuous = implied && parts.iter().any(|p| self.allows_no_object(p));
        let local = local.filter(|_| !vacuous);
        let own_last = local.is_some();
        if let Some(kind) = local {
            parts.push(Schema::of(kind, at));
        }
        Ok((parts, own_last, vacuous))
    }

    /// What applies beside the merged shape: `anyOf`, `oneOf` and `not`.
    fn beside(
        &mut self,
        s: &mut Schema,
        m: &Map<String, Value>,
        has_base: bool,
        at: &str,
        depth: usize,
    ) -> R<()> {
        for (kw, one_of) in [("anyOf", false), ("oneOf", true)] {
            if let Some(list) = m.fget(kw) {
                let p = pointer::push(at, kw);
                self.alternatives(s, array(list, &p)?, one_of, has_base, &p, depth)?;
            }
        }
        if let Some(not) = m.fget("not") {
            let not = self.schema(not, pointer::push(at, "not"), depth + 1)?;
            s.not = Some(Box::new(not));
        }
        Ok(())
    }

    /// The shape given by the schema's own keywords (`const`, `enum`, `type`, or implied by
    /// object / array keywords); with `nullable`, OpenAPI's `nullable: true` beside an enum or
    /// a type name applied to it (else the caller applies it after merging).
    fn local(
        &mut self,
        m: &Map<String, Value>,
        has: Has,
        at: &str,
        depth: usize,
        nullable: bool,
    ) -> R<Option<Kind>> {
        let flag = |kind: Kind| {
            if nullable && has.any(Has::NULLABLE) {
                nullable_kind(kind, m, at)
            } else {
                kind
            }
        };
        if has.any(Has::CONST | Has::ENUM) {
            if let Some(kind) = const_or_enum(m, at)? {
                // (`nullable: true` beside an enum allows null too, as the dialects read it)
                return Ok(Some(flag(kind)));
            }
        }
        if !has.any(Has::TYPE | Has::OBJECT_KEYWORD | Has::ARRAY_KEYWORD) {
            return Ok(None);
        }
        match m.fget("type") {
            Some(Value::String(t)) => {
                let kind = self.of_type(t, m, at, depth)?;
                return Ok(Some(flag(kind)));
            }
            Some(Value::Array(ts)) => {
                let mut kind = self.type_array(ts, m, at, depth)?;
                // (`nullable: true` beside a type array: one more type, null, as the dialects
                // read it; before, the model read the array alone)
                if let (Kind::Union(members), true) = (&mut kind, nullable) {
                    let null = Kind::Scalar(Scalar::Null);
                    if m.fget("nullable") == Some(&Value::Bool(true))
                        && !members.iter().any(|x| x.kind == null)
                    {
                        members.push(Schema::of(null, at));
                    }
                }
                return Ok(Some(kind));
            }
            Some(other) => return bad_type(other, at),
            None => {}
        }
        if has.any(Has::OBJECT_KEYWORD) {
            return self.object(m, at, depth).map(Some);
        }
        if has.any(Has::ARRAY_KEYWORD) {
            return self.array(m, at, depth).map(Some);
        }
        Ok(None)
    }

    /// `type` as an array: a union of one schema per type.
    fn type_array(
        &mut self,
        ts: &[Value],
        m: &Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> R<Kind> {
        let mut members = Vec::new();
        for t in ts {
            let Value::String(t) = t else {
                let p = pointer::push(at, "type");
                return malformed(&p, format!("expected type names, found {}", kind_of(t)));
            };
            let kind = self.of_type(t, m, at, depth)?;
            members.push(Schema::of(kind, at));
        }
        Ok(Kind::Union(members))
    }

    fn of_type(&mut self, t: &str, m: &Map<String, Value>, at: &str, depth: usize) -> R<Kind> {
        Ok(Kind::Scalar(match t {
            "string" => Scalar::String,
            "number" => Scalar::Number,
            "integer" => Scalar::Integer,
            "boolean" => Scalar::Boolean,
            "null" => Scalar::Null,
            "object" => return self.object(m, at, depth),
            "array" => return self.array(m, at, depth),
            other => {
                return malformed(
                    &pointer::push(at, "type"),
                    format!("unknown type {other:?}"),
                )
            }
        }))
    }

    fn object(&mut self, m: &Map<String, Value>, at: &str, depth: usize) -> R<Kind> {
        let required = required_of(m, at)?;
        // (each property built in place, marked required as it is read: no second list)
        let props = self.schemas_by_key(m, "properties", at, depth, |name, schema| Prop {
            required: required.contains(name),
            name: name.clone(),
            schema: Box::new(schema),
        })?;
        let extra = match m.fget("additionalProperties") {
            None | Some(Value::Bool(true)) => Extra::Open,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(s) => {
                let s = self.schema(s, pointer::push(at, "additionalProperties"), depth + 1)?;
                Extra::Schema(Box::new(s))
            }
        };
        let patterns = self.schemas_by_key(m, "patternProperties", at, depth, |re, schema| {
            (re.clone(), schema)
        })?;
        Ok(Kind::Object(build_object(
            &required, props, extra, patterns,
        )))
    }

    /// The schemas of a keyword that maps keys to schemas (`properties`, `patternProperties`),
    /// each with its key made into an entry by `entry`.
    fn schemas_by_key<T>(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        at: &str,
        depth: usize,
        entry: impl Fn(&String, Schema) -> T,
    ) -> R<Vec<T>> {
        let Some(map) = m.fget(key) else {
            return Ok(Vec::new());
        };
        let Value::Object(map) = map else {
            return malformed(
                &pointer::push(at, key),
                format!("expected an object, found {}", kind_of(map)),
            );
        };
        let mut out = Vec::with_capacity(map.len());
        for (k, sub) in map {
            // (the child's pointer in one allocation, no pointer of the keyword's own)
            let p = pointer::push_all(at, &[key, k]);
            out.push(entry(k, self.schema(sub, p, depth + 1)?));
        }
        Ok(out)
    }

    fn array(&mut self, m: &Map<String, Value>, at: &str, depth: usize) -> R<Kind> {
        let rest = |n: &mut Self, key: &str| -> R<Option<Box<Schema>>> {
            Ok(match m.fget(key) {
                None | Some(Value::Bool(false)) => None,
                Some(s) => Some(Box::new(n.schema(s, pointer::push(at, key), depth + 1)?)),
            })
        };
        let list = |n: &mut Self, key: &str, items: &Vec<Value>| -> R<Vec<Schema>> {
            let p = pointer::push(at, key);
            let mut out = Vec::with_capacity(items.len());
            for (i, s) in items.iter().enumerate() {
                out.push(n.schema(s, pointer::push_index(&p, i), depth + 1)?);
            }
            Ok(out)
        };
        Ok(Kind::Array(if let Some(prefix) = m.fget("prefixItems") {
            let items = array(prefix, &pointer::push(at, "prefixItems"))?;
            Array {
                prefix: Some(list(self, "prefixItems", items)?),
                items: rest(self, "items")?,
                closed: m.fget("items") == Some(&Value::Bool(false)),
            }
        } else {
            match m.fget("items") {
                // draft 4-2019: `items` as an array is a tuple, `additionalItems` the rest.
                Some(Value::Array(items)) => Array {
                    prefix: Some(list(self, "items", items)?),
                    items: rest(self, "additionalItems")?,
                    closed: m.fget("additionalItems") == Some(&Value::Bool(false)),
                },
                Some(s) => Array {
                    closed: false,
                    prefix: None,
                    items: Some(Box::new(self.schema(
                        s,
                        pointer::push(at, "items"),
                        depth + 1,
                    )?)),
                },
                None => Array::default(),
            }
        }))
    }

    /// The definition of the reference `r` (found at `at`, the pointer of the `$ref`),
    /// normalized the first time it is met.
    fn reference(&mut self, r: &str, at: &str, depth: usize) -> R<DefId> {
        if r == "#" {
            return Ok(0);
        }
        if let Some(&id) = self.ids.get(r) {
            return Ok(id);
        }
        let Some(target) = pointer::resolve(self.root, r) else {
            return Err(ConvertError::new(
                at,
                ConvertErrorKind::UnresolvableRef(r.to_string()),
            ));
        };
        let id = self.defs.len();
        self.defs.push(None);
        self.ids.insert(r.to_string(), id);
        let schema = self.schema(
            target,
            r.strip_prefix('#').unwrap_or(r).to_string(),
            depth + 1,
        )?;
        self.defs[id] = Some(Def {
            target: r.to_string(),
            recursive: self.is_recursive(r),
            shared: false,
            schema,
        });
        let shared = self.shared(id);
        if let Some(Some(def)) = self.defs.get_mut(id) {
            def.shared = shared;
        }
        Ok(id)
    }

    /// `anyOf` / `oneOf` beside the (merged) shape of `s`.
    fn alternatives(
        &mut self,
        s: &mut Schema,
        list: &[Value],
        one_of: bool,
        has_base: bool,
        at: &str,
        depth: usize,
    ) -> R<()> {
        // `oneOf: [{required: [a]}, {required: [b]}]` beside properties: which must be present.
        // (a clause as the dialect converter reads one: `required_names`)
        let clauses: Option<Vec<Vec<&str>>> = list.iter().map(required_names).collect();
        if let Some(clauses) = clauses.filter(|c| s.alternatives.is_empty() && !c.is_empty()) {
            self.inline_object(s);
            if let Kind::Object(o) = &mut s.kind {
                let sets = clauses
                    .into_iter()
                    .map(|names| names.into_iter().map(str::to_string).collect())
                    .collect();
                o.clauses.push(Clauses { one_of, sets });
                return Ok(());
            }
        }
        let mut branches = Vec::with_capacity(list.len());
        for (i, sub) in list.iter().enumerate() {
            let mut b = self.schema(sub, pointer::push_index(at, i), depth + 1)?;
            if has_base && shapeless(sub) {
                // A branch without a shape of its own refines the shape beside the union.
                b.kind = s.kind.clone();
            }
            branches.push(b);
        }
        s.alternatives.push(Alternatives { one_of, branches });
        Ok(())
    }
}
