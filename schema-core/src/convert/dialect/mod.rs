//! JSON Schema -> provider dialect.
//!
//! [`to_dialect`] takes any JSON Schema (an MCP tool's `input_schema`, an OpenAPI 3.0 schema, the
//! full schema of a derived type) and rewrites it into the subset a model server accepts,
//! following the provider rule table of the design notes:
//!
//! - local `$ref`s (`$defs`, `definitions`, any `#/...` pointer) are inlined; recursive types stay
//!   `$ref`s into `$defs` (an error under Anthropic, which forbids recursion);
//!   [`DialectOptions::keep_defs`] keeps shared types in `$defs` instead of inlining them;
//! - `allOf` is merged, `oneOf` becomes `anyOf`, type arrays and OpenAPI's `nullable` become an
//!   `anyOf` with `{"type": "null"}`, unions of `const`s become an `enum`;
//! - objects are closed with `additionalProperties: false` where the dialect requires it, and under
//!   OpenAI strict every property is required, optional ones made nullable;
//! - a constraint the dialect cannot carry moves into `description` as a tag the model still
//!   reads (`"Text.\n\n@maxLength 500"`); annotations (`$schema`, `$id`, `examples`,
//!   `default: null`, `x-...`) are dropped;
//! - a tagged union at the root becomes one object (the tag an `enum`, the union of the variants'
//!   properties), since no dialect accepts a root union;
//! - provider limits are checked: OpenAI's 5000 properties, 10 levels of nesting, 1000 enum
//!   values and 120,000 characters of names and values; Anthropic's 24 optional properties and
//!   16 unions. Anthropic counts those two **per request** (over every tool and the response
//!   format together); this converter can only check one schema, so stay well below them when
//!   a request carries several.
//!
//! Every change is reported ([`to_dialect_report`]); what a dialect cannot express at all (a map
//! under OpenAI strict, recursion under Anthropic, a tuple) is a [`ConvertError`] naming the JSON
//! pointer and the rule. Bad input never panics: nesting is limited to [`MAX_DEPTH`] levels.

mod limits;
mod refs;
mod rules;

use super::pointer;
use super::{ConvertError, ConvertErrorKind};
use crate::convert::{kind_of, SmallMap};
use crate::Dialect;
use rules::Action;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// The deepest nesting of schemas (and of inlined `$ref`s) the converter follows.
pub const MAX_DEPTH: usize = 128;

/// The most schema nodes a conversion may produce (inlining a `$ref` used many times can
/// multiply a schema's size).
pub const MAX_NODES: usize = 100_000;

/// A converted schema together with the list of everything the conversion changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The schema in the target dialect.
    pub schema: Value,
    /// What was changed, in the order it was done.
    pub changes: Vec<Change>,
}

/// One change a conversion made.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// JSON pointer into the input schema (for an inlined type: into its definition).
    pub pointer: String,
    /// What was done.
    pub kind: ChangeKind,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.kind)
    }
}

/// The kinds of [`Change`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A keyword the dialect does not support was moved into `description` as a tag.
    MovedToDescription {
        /// The keyword.
        keyword: String,
    },
    /// An optional property was made required and nullable (OpenAI strict).
    MadeNullable,
    /// A `$ref` was replaced by the schema it points to.
    RefInlined,
    /// A `oneOf` was rewritten as `anyOf`.
    OneOfToAnyOf,
    /// A `const` became a one-value `enum`, or a union of `const`s became one `enum`.
    ConstToEnum,
    /// A keyword was removed (an annotation, or something the dialect cannot express that is
    /// not a constraint on values).
    Dropped {
        /// The keyword.
        keyword: String,
    },
    /// An open object was closed with `additionalProperties: false`.
    Closed,
    /// An `allOf` was merged into one schema.
    AllOfMerged,
    /// A type array (`["string", "null"]`) or OpenAPI's `nullable: true` was rewritten as an
    /// `anyOf` of single-type schemas.
    TypeArraySplit,
    /// A root union of tagged objects was merged into one object (tag as an `enum`).
    UnionMerged,
    /// Keywords beside an `anyOf` were copied into each of its branches.
    DistributedIntoBranches,
    /// An object with arbitrary keys (a map) was replaced by a closed object
    /// ([`DialectOptions::close_maps`]).
    MapClosed,
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeKind::MovedToDescription { keyword } => {
                write!(f, "`{keyword}` moved into the description")
            }
            ChangeKind::MadeNullable => f.write_str("optional property made required and nullable"),
            ChangeKind::RefInlined => f.write_str("`$ref` inlined"),
            ChangeKind::OneOfToAnyOf => f.write_str("`oneOf` rewritten as `anyOf`"),
            ChangeKind::ConstToEnum => f.write_str("`const` rewritten as `enum`"),
            ChangeKind::Dropped { keyword } => write!(f, "`{keyword}` dropped"),
            ChangeKind::Closed => f.write_str("object closed (`additionalProperties: false`)"),
            ChangeKind::AllOfMerged => f.write_str("`allOf` merged"),
            ChangeKind::TypeArraySplit => {
                f.write_str("type array / `nullable` rewritten as `anyOf`")
            }
            ChangeKind::UnionMerged => f.write_str("root union merged into one object"),
            ChangeKind::DistributedIntoBranches => {
                f.write_str("keywords beside `anyOf` copied into its branches")
            }
            ChangeKind::MapClosed => f.write_str("map replaced by a closed object"),
        }
    }
}

/// Options of [`to_dialect_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DialectOptions {
    /// Keep a non-recursive type referenced more than once in `$defs` (one `$ref` per use)
    /// instead of inlining it everywhere; where the dialect allows it (not LM Studio, whose
    /// grammars break on nested references). Recursive types always stay in `$defs`.
    pub keep_defs: bool,
    /// Under OpenAI strict and Anthropic, replace an object with arbitrary keys (a map, a free
    /// `{"type": "object"}`) by a closed object with only its declared properties and a note in
    /// its description, instead of failing. The model can then no longer write extra keys.
    pub close_maps: bool,
}

impl DialectOptions {
    /// The defaults: inline every non-recursive `$ref`, fail on maps.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`keep_defs`](Self::keep_defs).
    pub fn keep_defs(mut self, yes: bool) -> Self {
        self.keep_defs = yes;
        self
    }

    /// Sets [`close_maps`](Self::close_maps).
    pub fn close_maps(mut self, yes: bool) -> Self {
        self.close_maps = yes;
        self
    }
}

/// Converts `schema` into `dialect`.
///
/// Takes any JSON Schema (an MCP tool's `input_schema`, an OpenAPI 3.0 schema, the
/// full schema of a derived type) and rewrites it into the subset a model server accepts,
/// following the provider rule table of the design notes:
///
/// - local `$ref`s (`$defs`, `definitions`, any `#/...` pointer) are inlined; recursive types stay
///   `$ref`s into `$defs` (an error under Anthropic, which forbids recursion);
///   [`DialectOptions::keep_defs`] keeps shared types in `$defs` instead of inlining them;
/// - `allOf` is merged, `oneOf` becomes `anyOf`, type arrays and OpenAPI's `nullable` become an
///   `anyOf` with `{"type": "null"}`, unions of `const`s become an `enum`;
/// - objects are closed with `additionalProperties: false` where the dialect requires it, and under
///   OpenAI strict every property is required, optional ones made nullable;
/// - a constraint the dialect cannot carry moves into `description` as a tag the model still
///   reads (`"Text.\n\n@maxLength 500"`); annotations (`$schema`, `$id`, `examples`,
///   `default: null`, `x-...`) are dropped;
/// - a tagged union at the root becomes one object (the tag an `enum`, the union of the variants'
///   properties), since no dialect accepts a root union;
/// - provider limits are checked: OpenAI's 5000 properties, 10 levels of nesting, 1000 enum
///   values and 120,000 characters of names and values; Anthropic's 24 optional properties and
///   16 unions. Anthropic counts those two **per request** (over every tool and the response
///   format together); this converter can only check one schema, so stay well below them when
///   a request carries several.
///
/// Every change is reported ([`to_dialect_report`]); what a dialect cannot express at all (a map
/// under OpenAI strict, recursion under Anthropic, a tuple) is a [`ConvertError`] naming the JSON
/// pointer and the rule. Bad input never panics: nesting is limited to [`MAX_DEPTH`] levels.
///
/// ```
/// use schema_core::{convert::to_dialect, Dialect};
/// use serde_json::json;
///
/// let input = json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string", "description": "File path", "maxLength": 200},
///         "tail": {"type": "integer"}
///     },
///     "required": ["path"]
/// });
/// let out = to_dialect(&input, Dialect::OpenAi).unwrap();
/// assert_eq!(out["required"], json!(["path", "tail"]));
/// assert_eq!(out["additionalProperties"], json!(false));
/// assert_eq!(out["properties"]["path"]["description"], "File path\n\n@maxLength 200");
/// assert_eq!(out["properties"]["tail"]["anyOf"][1], json!({"type": "null"}));
/// ```
pub fn to_dialect(schema: &Value, dialect: Dialect) -> Result<Value, ConvertError> {
    // The list of changes is not wanted: not recorded.
    convert(schema, dialect, &DialectOptions::default(), false).map(|c| c.schema)
}

/// Converts `schema` into `dialect` and reports every change.
pub fn to_dialect_report(schema: &Value, dialect: Dialect) -> Result<Converted, ConvertError> {
    to_dialect_with(schema, dialect, &DialectOptions::default())
}

/// Converts `schema` into `dialect` with `options`, and reports every change.
///
/// With [`Dialect::JsonSchema`] the schema is only checked (every subschema a schema, every
/// `$ref` resolvable, nesting within [`MAX_DEPTH`]) and returned unchanged.
pub fn to_dialect_with(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
) -> Result<Converted, ConvertError> {
    convert(schema, dialect, options, true)
}

/// [`to_dialect_with`], recording the changes only if `record`.
fn convert(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    // Bounded JSON nesting first: everything after may clone or recurse.
    check_json_depth(schema)?;
    if dialect == Dialect::JsonSchema {
        check_structure(schema, schema, "", 0)?;
        return Ok(Converted {
            schema: schema.clone(),
            changes: Vec::new(),
        });
    }
    if !schema.is_object() {
        check_structure(schema, schema, "", 0)?;
        return Err(ConvertError::new("", ConvertErrorKind::RootNotObject));
    }
    let graph = refs::scan(schema)?;
    let mut conv = Conv {
        root: schema,
        dialect,
        options,
        graph,
        changes: Vec::new(),
        def_names: HashMap::new(),
        defs: Vec::new(),
        pending: Vec::new(),
        nodes: 0,
        current_def: Some(String::new()),
        seen_changes: HashSet::default(),
        record,
    };
    let root = conv.root_schema()?;
    let root = conv.finish(root)?;
    limits::check(&root, dialect)?;
    Ok(Converted {
        schema: root,
        changes: conv.changes,
    })
}

/// The deepest JSON nesting accepted (a schema level takes two or three JSON levels).
const MAX_JSON_DEPTH: usize = 4 * MAX_DEPTH;

/// Rejects values nested deeper than [`MAX_JSON_DEPTH`], without recursion.
fn check_json_depth(root: &Value) -> Result<(), ConvertError> {
    let mut stack: Vec<(&Value, usize)> = vec![(root, 0)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_JSON_DEPTH {
            // Rebuild the pointer of this place: walk down again along the first deep path.
            return Err(ConvertError::new(
                deep_pointer(root),
                ConvertErrorKind::TooDeep(MAX_DEPTH),
            ));
        }
        match v {
            Value::Object(m) => stack.extend(m.values().map(|c| (c, depth + 1))),
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// The pointer of the place where nesting first exceeds the schema limit, following the deepest
/// branch (for the error message only).
fn deep_pointer(root: &Value) -> String {
    let mut at = String::new();
    let mut v = root;
    for _ in 0..MAX_JSON_DEPTH {
        let next = match v {
            Value::Object(m) => m
                .iter()
                .find(|(_, c)| c.is_object() || c.is_array())
                .map(|(k, c)| (k.clone(), c)),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .find(|(_, c)| c.is_object() || c.is_array())
                .map(|(i, c)| (i.to_string(), c)),
            _ => None,
        };
        match next {
            Some((k, c)) => {
                at = pointer::push(&at, &k);
                v = c;
            }
            None => break,
        }
    }
    at
}

/// Checks that `value` is a well-formed schema: subschemas are objects or booleans, `$ref`s
/// resolve, nesting is bounded.
fn check_structure(
    root: &Value,
    value: &Value,
    at: &str,
    depth: usize,
) -> Result<(), ConvertError> {
    if depth > MAX_DEPTH {
        return Err(ConvertError::new(at, ConvertErrorKind::TooDeep(MAX_DEPTH)));
    }
    let map = match value {
        Value::Bool(_) => return Ok(()),
        Value::Object(m) => m,
        other => {
            return Err(malformed(
                at,
                format!("expected a schema, found {}", kind_of(other)),
            ))
        }
    };
    if let Some(r) = map.fget("$ref") {
        let r = r
            .as_str()
            .ok_or_else(|| malformed(at, "`$ref` must be a string".into()))?;
        refs::follow(root, r, at)?;
    }
    for (path, child, _) in refs::subschemas(map) {
        let mut p = at.to_string();
        for t in &path {
            p = pointer::push(&p, t);
        }
        check_structure(root, child, &p, depth + 1)?;
    }
    Ok(())
}

/// Where the walk is, as a chain of tokens on the stack: the pointer string is only built for
/// an error.
pub(crate) enum Path<'a> {
    /// A place given by its pointer.
    At(&'a str),
    /// A key below a place.
    Key(&'a Path<'a>, &'a str),
    /// An index below a place.
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub(crate) fn pointer(&self) -> String {
        match self {
            Path::At(at) => at.to_string(),
            Path::Key(parent, k) => pointer::push(&parent.pointer(), k),
            Path::Index(parent, i) => pointer::push(&parent.pointer(), &i.to_string()),
        }
    }
}

/// `pointer::push(&pointer::push(at, a), b)` with one allocation.
fn push2(at: &str, a: &str, b: &str) -> String {
    let mut out = String::with_capacity(at.len() + a.len() + b.len() + 2);
    out.push_str(at);
    for token in [a, b] {
        out.push('/');
        for c in token.chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    }
    out
}

fn malformed(at: &str, msg: String) -> ConvertError {
    ConvertError::new(at, ConvertErrorKind::Malformed(msg))
}

fn unsupported(at: &str, msg: String) -> ConvertError {
    ConvertError::new(at, ConvertErrorKind::Unsupported(msg))
}

/// Keywords that only annotate: dropped (`default` is handled separately).
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
    "xml",
    "externalDocs",
];

/// Keywords that describe without constraining; kept beside an `anyOf` and a `$ref` overlay.
fn is_meta(k: &str) -> bool {
    matches!(k, "description" | "title" | "default")
        || ANNOTATIONS.contains(&k)
        || k.starts_with("x-")
}

/// The keywords that apply to one JSON type (used to split type arrays).
fn applies_to(keyword: &str, ty: &str) -> bool {
    match ty {
        "string" => matches!(
            keyword,
            "minLength"
                | "maxLength"
                | "pattern"
                | "format"
                | "contentEncoding"
                | "contentMediaType"
        ),
        "number" | "integer" => matches!(
            keyword,
            "minimum"
                | "maximum"
                | "exclusiveMinimum"
                | "exclusiveMaximum"
                | "multipleOf"
                | "format"
        ),
        "array" => matches!(
            keyword,
            "items"
                | "prefixItems"
                | "minItems"
                | "maxItems"
                | "uniqueItems"
                | "contains"
                | "minContains"
                | "maxContains"
                | "additionalItems"
                | "unevaluatedItems"
        ),
        "object" => matches!(
            keyword,
            "properties"
                | "required"
                | "additionalProperties"
                | "patternProperties"
                | "propertyNames"
                | "minProperties"
                | "maxProperties"
                | "dependentRequired"
                | "dependentSchemas"
                | "unevaluatedProperties"
        ),
        _ => false,
    }
}

/// Whether a keyword constrains some JSON type (as opposed to any value).
fn is_typed_keyword(keyword: &str) -> bool {
    ["string", "number", "array", "object"]
        .iter()
        .any(|t| applies_to(keyword, t))
}

/// `{"required": [...]}` alone: a clause of a union that says which properties must be present.
pub(crate) fn required_clause(v: &Value) -> Option<Vec<String>> {
    required_names(v).map(|names| names.into_iter().map(str::to_string).collect())
}

/// [`required_clause`], borrowed.
pub(crate) fn required_names(v: &Value) -> Option<Vec<&str>> {
    let m = v.as_object()?;
    if !m
        .keys()
        .all(|k| matches!(k.as_str(), "required" | "description" | "title"))
    {
        return None;
    }
    let req = m.fget("required")?.as_array()?;
    req.iter().map(Value::as_str).collect()
}

/// `{"const": "x"}` (with optional `type: string`, `description`, `title`): a branch of a
/// documented string enum.
fn const_branch(v: &Value) -> Option<(Value, Option<String>)> {
    let m = v.as_object()?;
    if !m
        .keys()
        .all(|k| matches!(k.as_str(), "const" | "type" | "description" | "title"))
    {
        return None;
    }
    let c = m.fget("const")?;
    match m.fget("type") {
        None => {}
        Some(Value::String(t)) if type_of_value(c) == Some(t.as_str()) => {}
        Some(Value::String(t)) if t == "number" && c.is_number() => {}
        _ => return None,
    }
    let doc = m
        .fget("description")
        .or_else(|| m.fget("title"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Some((c.clone(), doc))
}

/// The JSON type of a value (`integer` for whole numbers).
fn type_of_value(v: &Value) -> Option<&'static str> {
    Some(match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

/// `@keyword value` (the value as [`tag_text`] writes it).
fn tag_line(k: &str, v: &Value) -> String {
    use std::fmt::Write as _;
    let mut t = String::with_capacity(k.len() + 8);
    t.push('@');
    t.push_str(k);
    t.push(' ');
    match v {
        Value::String(s) => t.push_str(s),
        other => {
            let _ = write!(t, "{other}");
        }
    }
    t
}

/// The text of a tag value: strings and numbers raw, anything else as JSON.
fn tag_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A schema object after [`Conv::prepare`].
enum Prepared<'v> {
    /// A `$ref` (found after merging `allOf`) with its sibling keywords.
    Ref(String, Map<String, Value>),
    /// The normalised schema, whether it is nullable, notes for its description, and a keyword
    /// of the schema to ignore (removed without copying the schema).
    Schema(
        Cow<'v, Map<String, Value>>,
        bool,
        Vec<String>,
        Option<&'static str>,
    ),
}

/// Walk state that is inherited downwards.
#[derive(Debug, Clone, Copy, Default)]
struct Cx {
    /// Inside the `items` of an array (LM Studio: no `pattern` there).
    in_items: bool,
    /// Below an optional property, an array or a union since the current definition began
    /// (a cycle through here can end; Gemini needs that).
    escape: bool,
}

struct Conv<'a> {
    root: &'a Value,
    dialect: Dialect,
    options: &'a DialectOptions,
    graph: refs::RefGraph,
    changes: Vec<Change>,
    /// Target pointer -> name in the output `$defs`.
    def_names: HashMap<String, String>,
    /// Converted definitions, in the order they were first referenced.
    defs: Vec<(String, Value)>,
    /// Definitions referenced but not converted yet.
    pending: Vec<String>,
    nodes: usize,
    /// The definition being converted (`""` for the root).
    current_def: Option<String>,
    /// [`change_key`]s of the changes recorded so far.
    seen_changes: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// Whether changes are recorded at all.
    record: bool,
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// FNV-1a of a change: its pointer, kind and keyword.
fn change_key(at: &str, kind: &ChangeKind) -> u64 {
    let (tag, word): (u8, &str) = match kind {
        ChangeKind::MovedToDescription { keyword } => (0, keyword),
        ChangeKind::MadeNullable => (1, ""),
        ChangeKind::RefInlined => (2, ""),
        ChangeKind::OneOfToAnyOf => (3, ""),
        ChangeKind::ConstToEnum => (4, ""),
        ChangeKind::Dropped { keyword } => (5, keyword),
        ChangeKind::Closed => (6, ""),
        ChangeKind::AllOfMerged => (7, ""),
        ChangeKind::TypeArraySplit => (8, ""),
        ChangeKind::UnionMerged => (9, ""),
        ChangeKind::DistributedIntoBranches => (10, ""),
        ChangeKind::MapClosed => (11, ""),
    };
    let mut h = KeyHasher(0xcbf2_9ce4_8422_2325);
    h.write(at.as_bytes());
    h.write(&[0xff, tag]);
    h.write(word.as_bytes());
    h.0
}

impl<'a> Conv<'a> {
    fn change(&mut self, at: &str, kind: ChangeKind) {
        if !self.record {
            return;
        }
        // An inlined type reports its changes once, not once per use: a hash of the change
        // finds the (rare) candidates for a repeat without comparing against every change.
        let key = change_key(at, &kind);
        if !self.seen_changes.insert(key)
            && self
                .changes
                .iter()
                .any(|c| c.pointer == at && c.kind == kind)
        {
            return;
        }
        self.changes.push(Change {
            pointer: at.to_string(),
            kind,
        });
    }

    /// The root: a union of tagged objects is merged into one object first.
    fn root_schema(&mut self) -> Result<Value, ConvertError> {
        let mut root: Cow<'_, Value> = Cow::Borrowed(self.root);
        let mut at = String::new();
        // A root that is only a reference: convert its target as the root.
        if let Some(Value::String(r)) = self.root.fget("$ref") {
            if !self.graph.recursive.contains("") {
                let (to, target) = refs::follow(self.root, r, "")?;
                let mut merged = target.clone();
                if let (Value::Object(m), Value::Object(own)) = (&mut merged, self.root) {
                    for (k, v) in own {
                        if is_meta(k) {
                            m.insert(k.clone(), v.clone());
                        }
                    }
                }
                self.change("", ChangeKind::RefInlined);
                root = Cow::Owned(merged);
                at = to;
            }
        }
        if let Some(merged) = self.merge_root_union(&root)? {
            self.change("", ChangeKind::UnionMerged);
            root = Cow::Owned(merged);
        }
        let out = self.node(&root, &at, Cx::default(), 0)?;
        let is_object = out.fget("type").and_then(Value::as_str) == Some("object");
        if !is_object {
            return Err(ConvertError::new("", ConvertErrorKind::RootNotObject));
        }
        Ok(out)
    }

    /// Converts the pending definitions and attaches `$defs` to the root.
    fn finish(&mut self, mut root: Value) -> Result<Value, ConvertError> {
        while let Some(target) = self.pending.pop() {
            let value = crate::convert::pointer::resolve(self.root, &format!("#{target}"))
                .ok_or_else(|| {
                    ConvertError::new(
                        &target,
                        ConvertErrorKind::UnresolvableRef(format!("#{target}")),
                    )
                })?;
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
    fn merge_root_union(&mut self, root: &Value) -> Result<Option<Value>, ConvertError> {
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
                b = refs::follow(self.root, r, &at)?.1.clone();
            }
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
        tag_schema.insert("enum".into(), Value::Array(tags));
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
        for o in &objs {
            for (name, schema) in o["properties"].as_object().into_iter().flatten() {
                if *name == tag {
                    continue;
                }
                match props.iter_mut().find(|(n, _)| n == name) {
                    Some((_, existing)) if existing == schema => {}
                    Some((_, existing)) => {
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
                    None => props.push((name.clone(), schema.clone())),
                }
            }
        }
        let mut required = vec![Value::String(tag.clone())];
        for (name, _) in &props[1..] {
            if objs.iter().all(|o| required_of(o).contains(name)) {
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

    /// Converts one schema found at `at` in the input.
    fn node(&mut self, v: &Value, at: &str, cx: Cx, depth: usize) -> Result<Value, ConvertError> {
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
        let (m, nullable, mut notes, skip) = match self.prepare(m, at, depth)? {
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

    /// Normalises one schema object before conversion: annotations dropped, `allOf` merged,
    /// `nullable` / type arrays / `oneOf` / clause and `const` unions rewritten.
    #[inline(never)]
    fn prepare<'v>(
        &mut self,
        mut m: Cow<'v, Map<String, Value>>,
        at: &str,
        depth: usize,
    ) -> Result<Prepared<'v>, ConvertError> {
        self.strip_annotations(&mut m, at);
        if m.fhas("allOf") {
            let mut merged = self.merge_all_of(m.into_owned(), at, depth)?;
            self.change(at, ChangeKind::AllOfMerged);
            if let Some(r) = merged.remove("$ref") {
                let r = r
                    .as_str()
                    .ok_or_else(|| malformed(at, "`$ref` must be a string".into()))?;
                return Ok(Prepared::Ref(r.to_string(), merged));
            }
            m = Cow::Owned(merged);
            self.strip_annotations(&mut m, at);
        }
        let mut notes: Vec<String> = Vec::new();
        let mut nullable = false;
        let found = match m.fget("nullable") {
            Some(_) => m.to_mut().remove("nullable"),
            None => None,
        };
        match found {
            Some(Value::Bool(true)) => {
                nullable = true;
                self.change(at, ChangeKind::TypeArraySplit);
            }
            Some(Value::Bool(false)) | None => {}
            Some(_) => return Err(malformed(at, "`nullable` must be a boolean".into())),
        }
        // Type arrays.
        if let Some(Value::Array(types)) = m.fget("type").filter(|t| t.is_array()).cloned() {
            let mut names = Vec::new();
            for t in &types {
                match t.as_str() {
                    Some(
                        s @ ("string" | "number" | "integer" | "boolean" | "object" | "array"
                        | "null"),
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
            if names.contains(&"null") && names.len() > 1 {
                nullable = true;
                names.retain(|n| *n != "null");
            }
            self.change(at, ChangeKind::TypeArraySplit);
            let m = m.to_mut();
            if names.len() == 1 {
                m.insert("type".into(), names[0].into());
            } else {
                // One branch per type, each with the keywords that apply to it.
                let mut branches = Vec::new();
                for t in &names {
                    let mut b = Map::new();
                    b.insert("type".into(), (*t).into());
                    for (k, v) in m.iter() {
                        if applies_to(k, t) {
                            b.insert(k.clone(), v.clone());
                        }
                    }
                    if let Some(Value::Array(e)) = m.fget("enum") {
                        let vals: Vec<Value> = e
                            .iter()
                            .filter(|x| {
                                let vt = type_of_value(x);
                                vt == Some(*t) || (*t == "number" && vt == Some("integer"))
                            })
                            .cloned()
                            .collect();
                        if vals.is_empty() {
                            continue;
                        }
                        b.insert("enum".into(), Value::Array(vals));
                    }
                    branches.push(Value::Object(b));
                }
                m.retain(|k, _| is_meta(k));
                m.insert("anyOf".into(), Value::Array(branches));
            }
        } else if let Some(t) = m.fget("type") {
            if !t.is_string() {
                return Err(malformed(
                    &pointer::push(at, "type"),
                    "`type` must be a string or an array".into(),
                ));
            }
        }
        // `null` inside an enum: a nullable enum.
        let null_in_enum = matches!(m.fget("enum"), Some(Value::Array(e)) if e.len() > 1 && e.contains(&Value::Null));
        if null_in_enum {
            if let Some(Value::Array(e)) = m.to_mut().get_mut("enum") {
                e.retain(|x| !x.is_null());
                nullable = true;
                self.change(at, ChangeKind::TypeArraySplit);
            }
        }
        // `oneOf` -> `anyOf`.
        let was_one_of = m.fhas("oneOf");
        // A union of `required` clauses as the last keyword of a borrowed schema (seed 000 §9):
        // skipped in place of removing it, which would copy the whole schema.
        if was_one_of && matches!(m, Cow::Borrowed(_)) && !m.fhas("anyOf") {
            let clauses = match m.iter().next_back() {
                Some((k, Value::Array(b))) if k == "oneOf" && !b.is_empty() => b
                    .iter()
                    .map(required_clause)
                    .collect::<Option<Vec<Vec<String>>>>(),
                _ => None,
            };
            if let Some(clauses) = clauses {
                self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "oneOf".into(),
                    },
                );
                notes.push(self.clause_note(&clauses));
                return Ok(Prepared::Schema(m, nullable, notes, Some("oneOf")));
            }
        }
        if was_one_of {
            let m = m.to_mut();
            let one = m.remove("oneOf").unwrap_or_default();
            match m.get_mut("anyOf") {
                None => {
                    m.insert("anyOf".into(), one);
                }
                Some(_) => {
                    return Err(unsupported(
                        at,
                        "`anyOf` and `oneOf` on the same schema cannot be expressed as one union"
                            .into(),
                    ))
                }
            }
        }
        if let Some(any) = m.fget("anyOf") {
            let Value::Array(branches) = any else {
                return Err(malformed(at, "`anyOf` / `oneOf` must be an array".into()));
            };
            if branches.is_empty() {
                return Err(malformed(at, "empty `anyOf` / `oneOf`".into()));
            }
            // A union of `{"required": [...]}` clauses (which property must be present): no
            // dialect keeps it beside `properties`; it becomes a note.
            let clauses: Option<Vec<Vec<String>>> = branches.iter().map(required_clause).collect();
            if let Some(clauses) = clauses {
                m.to_mut().remove("anyOf");
                self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "oneOf".into(),
                    },
                );
                notes.push(self.clause_note(&clauses));
            } else if let Some(consts) = branches
                .iter()
                .map(const_branch)
                .collect::<Option<Vec<_>>>()
            {
                // A union of documented constants: one `enum`, the docs in the description.
                let m = m.to_mut();
                m.remove("anyOf");
                self.change(at, ChangeKind::ConstToEnum);
                let ty = consts
                    .iter()
                    .map(|(c, _)| type_of_value(c))
                    .collect::<Option<Vec<_>>>();
                if let Some(ty) = ty {
                    if ty.iter().all(|t| *t == ty[0]) && !m.fhas("type") {
                        m.insert("type".into(), ty[0].into());
                    }
                }
                let docs: Vec<String> = consts
                    .iter()
                    .filter_map(|(c, d)| d.as_ref().map(|d| format!("- {}: {}", tag_text(c), d)))
                    .collect();
                if !docs.is_empty() {
                    notes.push(docs.join("\n"));
                }
                m.insert(
                    "enum".into(),
                    Value::Array(consts.into_iter().map(|(c, _)| c).collect()),
                );
            }
        }
        if was_one_of && m.fhas("anyOf") {
            self.change(at, ChangeKind::OneOfToAnyOf);
        }
        Ok(Prepared::Schema(m, nullable, notes, None))
    }

    /// The note that replaces a union of `required` clauses.
    fn clause_note(&self, clauses: &[Vec<String>]) -> String {
        clause_note(self.dialect, clauses)
    }

    /// Removes annotation keywords (reported as dropped).
    fn strip_annotations(&mut self, m: &mut Cow<'_, Map<String, Value>>, at: &str) {
        let strip = |k: &String| {
            ANNOTATIONS.contains(&k.as_str())
                || k.starts_with("x-")
                || *k == "$defs"
                || *k == "definitions"
        };
        if !m.keys().any(strip) && m.fget("default") != Some(&Value::Null) {
            return;
        }
        let m = m.to_mut();
        let keys: Vec<String> = m
            .keys()
            .filter(|k| {
                ANNOTATIONS.contains(&k.as_str())
                    || k.starts_with("x-")
                    || *k == "$defs"
                    || *k == "definitions"
            })
            .cloned()
            .collect();
        for k in keys {
            m.remove(&k);
            if k != "$defs" && k != "definitions" {
                self.change(at, ChangeKind::Dropped { keyword: k });
            }
        }
        if m.fget("default") == Some(&Value::Null) {
            m.remove("default");
            self.change(
                at,
                ChangeKind::Dropped {
                    keyword: "default".into(),
                },
            );
        }
    }

    /// A `$ref` (its sibling keywords in `siblings`): inlined, or kept for recursion and shared
    /// definitions.
    fn reference(
        &mut self,
        r: &str,
        siblings: Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Value, ConvertError> {
        let (target, value) = refs::follow(self.root, r, at)?;
        let recursive = self.graph.recursive.contains(&target);
        let shared = self.options.keep_defs
            && rules::allows_shared_defs(self.dialect)
            && self.graph.uses.get(&target).copied().unwrap_or(0) > 1;
        if recursive || (shared && !target.is_empty()) {
            let name = self.def_name(&target);
            if recursive && !rules::allows_recursion(self.dialect) {
                return Err(ConvertError::new(
                    at,
                    ConvertErrorKind::RecursionNotAllowed(name),
                ));
            }
            // Gemini: a cycle must pass through an optional property (or an array, a union).
            if recursive
                && self.dialect == Dialect::Gemini
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
            // No keyword may stand beside `$ref`: a description moves onto a one-branch
            // `anyOf` around it (which a nullable wrapper then extends).
            let mut wrapper = Map::new();
            for (k, v) in siblings {
                if matches!(k.as_str(), "description" | "title")
                    && v.is_string()
                    && self.dialect != Dialect::Anthropic
                {
                    wrapper.insert(k, v);
                } else {
                    self.change(at, ChangeKind::Dropped { keyword: k });
                }
            }
            if wrapper.is_empty() {
                return Ok(r);
            }
            wrapper.insert("anyOf".into(), Value::Array(vec![r]));
            return Ok(Value::Object(wrapper));
        }
        self.change(at, ChangeKind::RefInlined);
        let plain_target = match value {
            Value::Object(t) => !t.fhas("$defs") && !t.fhas("definitions"),
            _ => true,
        };
        if siblings.is_empty() && plain_target {
            // The target as it is: no copy needed.
            return self.node(value, &target, cx, depth + 1);
        }
        let merged = if siblings.keys().all(|k| is_meta(k)) {
            let mut t = match value {
                Value::Object(t) => t.clone(),
                Value::Bool(true) => Map::new(),
                other => return self.node(other, &target, cx, depth + 1),
            };
            // The referenced type's own definitions are not part of the value.
            t.remove("$defs");
            t.remove("definitions");
            for (k, v) in siblings {
                t.insert(k, v);
            }
            Value::Object(t)
        } else {
            let mut m = siblings;
            let mut all = vec![value.clone()];
            if let Some(Value::Array(a)) = m.remove("allOf") {
                all.extend(a);
            }
            m.insert("allOf".into(), Value::Array(all));
            Value::Object(m)
        };
        self.node(&merged, &target, cx, depth + 1)
    }

    /// The `$defs` name of a kept reference target (registering it for conversion).
    fn def_name(&mut self, target: &str) -> String {
        if target.is_empty() {
            return "#".into();
        }
        if let Some(n) = self.def_names.get(target) {
            return n.clone();
        }
        let last = target.rsplit('/').next().unwrap_or("Def");
        let base = last.replace("~1", "/").replace("~0", "~");
        let base = if base.is_empty() {
            "Def".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut i = 2;
        while self.def_names.values().any(|n| *n == name) {
            name = format!("{base}{i}");
            i += 1;
        }
        self.def_names.insert(target.to_string(), name.clone());
        self.pending.push(target.to_string());
        name
    }

    /// Merges `allOf` (and resolves `$ref` branches) into one schema object.
    fn merge_all_of(
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
        let Value::Array(branches) = all else {
            return Err(malformed(at, "`allOf` must be an array".into()));
        };
        let mut acc = Map::new();
        for (i, b) in branches.into_iter().enumerate() {
            let bat = pointer::push(&pointer::push(at, "allOf"), &i.to_string());
            let mut b = match b {
                Value::Bool(true) => continue,
                Value::Object(b) => b,
                Value::Bool(false) => {
                    return Err(unsupported(
                        &bat,
                        "the `false` schema (no value allowed) cannot be expressed".into(),
                    ))
                }
                other => {
                    return Err(malformed(
                        &bat,
                        format!("expected a schema, found {}", kind_of(&other)),
                    ))
                }
            };
            if let Some(r) = b.remove("$ref") {
                let r = r
                    .as_str()
                    .ok_or_else(|| malformed(&bat, "`$ref` must be a string".into()))?;
                let (target, value) = refs::follow(self.root, r, &bat)?;
                if self.graph.recursive.contains(&target) {
                    return Err(unsupported(
                        &bat,
                        format!("`allOf` over the recursive type `{r}` cannot be merged"),
                    ));
                }
                self.change(&bat, ChangeKind::RefInlined);
                let mut t = match value {
                    Value::Object(t) => t.clone(),
                    Value::Bool(true) => Map::new(),
                    _ => {
                        return Err(malformed(
                            &bat,
                            "`$ref` to something that is not a schema".into(),
                        ))
                    }
                };
                t.remove("$defs");
                t.remove("definitions");
                merge_into(&mut t, b, &bat)?;
                b = t;
            }
            let b = self.merge_all_of(b, &bat, depth + 1)?;
            merge_into(&mut acc, b, &bat)?;
        }
        // The schema's own keywords win for annotations.
        let own_meta: Vec<(String, Value)> = m
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "description" | "title" | "default"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        merge_into(&mut acc, m, at)?;
        for (k, v) in own_meta {
            acc.insert(k, v);
        }
        Ok(acc)
    }

    /// Makes a converted schema nullable: `anyOf [schema, {"type": "null"}]`, the description
    /// kept on the union.
    fn nullable(&mut self, out: Value) -> Value {
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
    fn union(
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
            self.change(at, ChangeKind::DistributedIntoBranches);
        }
        let mut out_branches: Vec<Value> = Vec::new();
        for (i, b) in branches.into_iter().enumerate() {
            let bat = pointer::push(&pointer::push(at, "anyOf"), &i.to_string());
            let b = if beside.is_empty() {
                b
            } else {
                let mut base = beside.clone();
                match b {
                    Value::Object(bm) => {
                        // A `type` beside the union only narrows branches of another type away.
                        if let (Some(Value::String(outer)), Some(Value::String(inner))) =
                            (base.fget("type"), bm.fget("type"))
                        {
                            if outer != inner && !(outer == "number" && inner == "integer") {
                                continue;
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
                            merge_into(&mut base, bm, &bat)?;
                            Value::Object(base)
                        }
                    }
                    Value::Bool(true) => Value::Object(base),
                    other => other,
                }
            };
            let bcx = Cx { escape: true, ..cx };
            let converted = self.node(&b, &bat, bcx, depth + 1)?;
            // Flatten a nested plain union.
            match converted {
                Value::Object(cm) if cm.len() == 1 && cm.fhas("anyOf") => {
                    if let Some(Value::Array(inner)) = cm.fget("anyOf") {
                        for x in inner {
                            if !out_branches.contains(x) {
                                out_branches.push(x.clone());
                            }
                        }
                    }
                }
                other => push_branch(&mut out_branches, other),
            }
        }
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
                    tags.push(format!("@default {}", tag_text(&v)));
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

    /// A schema of one type (or none): keywords kept, tagged or dropped per the dialect.
    #[allow(clippy::too_many_arguments)]
    fn typed(
        &mut self,
        m: &Map<String, Value>,
        skip: Option<&str>,
        at: &str,
        cx: Cx,
        depth: usize,
        notes: &mut Vec<String>,
    ) -> Result<Value, ConvertError> {
        let d = self.dialect;
        let ty: Option<&str> = match m.fget("type") {
            Some(Value::String(t)) => Some(t.as_str()),
            _ => infer_type(m),
        };
        if let Some(t) = ty {
            if !matches!(
                t,
                "string" | "number" | "integer" | "boolean" | "object" | "array" | "null"
            ) {
                return Err(malformed(
                    &pointer::push(at, "type"),
                    format!("unknown type {t:?}"),
                ));
            }
        }
        let Some(ty) = ty else {
            if d == Dialect::OpenAi {
                return Err(unsupported(
                    at,
                    "a schema without a type (any value) cannot be expressed: OpenAI strict needs a `type` on every schema".into(),
                ));
            }
            // Any value: keep the annotations.
            let mut out = Map::new();
            let mut tags = Vec::new();
            for (k, v) in m.iter().filter(|(k, _)| Some(k.as_str()) != skip) {
                match k.as_str() {
                    "title" | "description" => {
                        out.insert(k.clone(), v.clone());
                    }
                    "default" => {
                        tags.push(format!("@default {}", tag_text(v)));
                        self.change(at, ChangeKind::MovedToDescription { keyword: k.clone() });
                    }
                    _ => self.change(at, ChangeKind::Dropped { keyword: k.clone() }),
                }
            }
            apply_notes(&mut out, notes, &tags);
            return Ok(Value::Object(out));
        };
        let mut out = Map::with_capacity(m.len() + 2);
        out.insert("type".into(), Value::String(ty.to_string()));
        let mut tags: Vec<String> = Vec::new();
        let mut object_seen = false;
        for (k, v) in m.iter().filter(|(k, _)| Some(k.as_str()) != skip) {
            match k.as_str() {
                "items" | "prefixItems" | "additionalItems" if applies_to(k, ty) => {
                    self.items(k, v, &mut out, at, depth)?;
                }
                "properties" | "required" | "additionalProperties" | "patternProperties"
                    if applies_to(k, ty) =>
                {
                    if !object_seen {
                        object_seen = true;
                        self.object(m, &mut out, at, cx, depth, notes)?;
                    }
                }
                _ => self.keyword(k, v, ty, &mut out, &mut tags, at, cx)?,
            }
        }
        if ty == "object" && !object_seen {
            self.object(m, &mut out, at, cx, depth, notes)?;
        }
        if ty == "array" && !out.fhas("items") && !out.fhas("prefixItems") && d == Dialect::OpenAi {
            return Err(unsupported(
                at,
                "an array without `items` (items of any type) cannot be expressed: OpenAI strict needs a schema for the items".into(),
            ));
        }
        apply_notes(&mut out, notes, &tags);
        Ok(Value::Object(out))
    }

    /// `items` / `prefixItems` / `additionalItems` (recursion: kept out of the big keyword frame).
    #[inline(never)]
    fn items(
        &mut self,
        k: &String,
        v: &Value,
        out: &mut Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<(), ConvertError> {
        let d = self.dialect;
        let kat = pointer::push(at, k);

        let tuple = k == "prefixItems" || v.is_array();
        if tuple && !rules::allows_tuples(d) {
            return Err(unsupported(
                &kat,
                format!("a tuple (`{k}` with positional schemas) cannot be expressed in {d}"),
            ));
        }
        let icx = Cx {
            in_items: true,
            escape: true,
        };
        match v {
            Value::Array(list) => {
                let mut items = Vec::new();
                for (i, s) in list.iter().enumerate() {
                    items.push(self.node(
                        s,
                        &pointer::push(&kat, &i.to_string()),
                        icx,
                        depth + 1,
                    )?);
                }
                let key = if k == "additionalItems" {
                    "items"
                } else {
                    "prefixItems"
                };
                out.insert(key.into(), Value::Array(items));
            }
            Value::Bool(false) => {
                out.insert(k.clone(), v.clone());
            }
            s => {
                let key = if k == "additionalItems" {
                    "items"
                } else {
                    k.as_str()
                };
                let item = self.node(s, &kat, icx, depth + 1)?;
                out.insert(key.into(), item);
            }
        }
        Ok(())
    }

    /// One keyword of a typed schema that holds no subschema: kept, tagged or dropped.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn keyword(
        &mut self,
        k: &String,
        v: &Value,
        ty: &str,
        out: &mut Map<String, Value>,
        tags: &mut Vec<String>,
        at: &str,
        cx: Cx,
    ) -> Result<(), ConvertError> {
        let d = self.dialect;
        let integer = ty == "integer";
        let kat = || pointer::push(at, k);
        let mut tag =
            |this: &mut Self, out: &mut Map<String, Value>, k: &str, v: &Value, action: Action| {
                match action {
                    Action::Keep => {
                        out.insert(k.to_string(), v.clone());
                    }
                    Action::Tag => {
                        tags.push(tag_line(k, v));
                        this.change(
                            at,
                            ChangeKind::MovedToDescription {
                                keyword: k.to_string(),
                            },
                        );
                    }
                }
            };
        match k.as_str() {
            "type" => {}
            "title" | "description" => {
                if !v.is_string() {
                    return Err(malformed(&kat(), format!("`{k}` must be a string")));
                }
                out.insert(k.clone(), v.clone());
            }
            "default" => tag(self, out, k, v, Action::Tag),
            "enum" => {
                let Value::Array(e) = v else {
                    return Err(malformed(&kat(), "`enum` must be an array".into()));
                };
                if e.is_empty() {
                    return Err(malformed(&kat(), "`enum` must not be empty".into()));
                }
                out.insert(k.clone(), v.clone());
            }
            "const" => {
                if rules::keeps_const(d) {
                    out.insert(k.clone(), v.clone());
                } else {
                    out.insert("enum".into(), json!([v]));
                    self.change(at, ChangeKind::ConstToEnum);
                }
            }
            _ if !applies_to(k, ty) => {
                // Another type's keyword, or one no dialect here expresses.
                if ty != "null"
                    && !is_typed_keyword(k)
                    && matches!(k.as_str(), "not" | "if" | "then" | "else" | "dependencies")
                {
                    tag(self, out, k, v, Action::Tag);
                } else {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                }
            }
            "minLength" | "maxLength" => {
                if !v.is_u64() {
                    return Err(malformed(
                        &kat(),
                        format!("`{k}` must be a non-negative integer"),
                    ));
                }
                tag(self, out, k, v, rules::length(d, v));
            }
            "pattern" => {
                let p = v
                    .as_str()
                    .ok_or_else(|| malformed(&kat(), "`pattern` must be a string".into()))?;
                tag(self, out, k, v, rules::pattern(d, p, cx.in_items));
            }
            "format" => {
                let f = v
                    .as_str()
                    .ok_or_else(|| malformed(&kat(), "`format` must be a string".into()))?;
                if ty != "string" || rules::is_numeric_format(f) {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else if rules::formats(d).contains(&f) {
                    out.insert(k.clone(), v.clone());
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                if !v.is_number() {
                    // Draft 4's boolean exclusive bounds: keep the meaning for the model.
                    tag(self, out, k, v, Action::Tag);
                    return Ok(());
                }
                let plain = matches!(k.as_str(), "minimum" | "maximum");
                tag(self, out, k, v, rules::numeric(d, integer, plain));
            }
            "minItems" => {
                let n = v.as_u64();
                if n.is_none() {
                    return Err(malformed(
                        &kat(),
                        "`minItems` must be a non-negative integer".into(),
                    ));
                }
                let action = rules::min_items(d, n);
                if action == Action::Tag {
                    // Anthropic: keep "not empty", say the rest.
                    out.insert(k.clone(), json!(1));
                }
                tag(self, out, k, v, action);
            }
            "maxItems" => {
                if !v.is_u64() {
                    return Err(malformed(
                        &kat(),
                        "`maxItems` must be a non-negative integer".into(),
                    ));
                }
                tag(self, out, k, v, rules::max_items(d));
            }
            "uniqueItems" | "contains" | "minContains" | "maxContains" | "unevaluatedItems" => {
                if v.is_object() {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            "minProperties" | "maxProperties" | "dependentRequired" | "propertyNames" => {
                if v.is_object() && k == "propertyNames" {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            _ => self.change(at, ChangeKind::Dropped { keyword: k.clone() }),
        }
        Ok(())
    }

    /// The object keywords: properties converted in order, `required`, closing, nullable
    /// optional properties, `propertyOrdering`.
    fn object(
        &mut self,
        m: &Map<String, Value>,
        out: &mut Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
        notes: &mut Vec<String>,
    ) -> Result<(), ConvertError> {
        let d = self.dialect;
        let empty = Map::new();
        let props = match m.fget("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "properties"),
                    "`properties` must be an object".into(),
                ))
            }
        };
        let mut required: Vec<&str> = Vec::new();
        match m.fget("required") {
            None => {}
            Some(Value::Array(r)) => {
                for name in r {
                    let name = name.as_str().ok_or_else(|| {
                        malformed(
                            &pointer::push(at, "required"),
                            "`required` must list property names".into(),
                        )
                    })?;
                    if !props.contains_key(name) {
                        // A name with no schema: the strict dialects reject it.
                        self.change(
                            at,
                            ChangeKind::Dropped {
                                keyword: format!("required/{name}"),
                            },
                        );
                        continue;
                    }
                    if !required.contains(&name) {
                        required.push(name);
                    }
                }
            }
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "required"),
                    "`required` must be an array".into(),
                ))
            }
        }
        let pat = m
            .fget("patternProperties")
            .filter(|p| p.as_object().is_some_and(|p| !p.is_empty()));
        let additional = m.fget("additionalProperties");
        // What extra keys the input allows: none, any, or values of a schema.
        let is_map = match additional {
            Some(Value::Bool(false)) => pat.is_some(),
            Some(Value::Object(a)) => !a.is_empty() || props.is_empty() || pat.is_some(),
            Some(Value::Bool(true)) => props.is_empty() || pat.is_some(),
            // `"properties": {}` declared and nothing else: a tool without arguments, not a map.
            None => (props.is_empty() && !m.fhas("properties")) || pat.is_some(),
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "additionalProperties"),
                    "`additionalProperties` must be a schema".into(),
                ))
            }
        };
        let mut out_props = Map::with_capacity(props.len());
        for (name, schema) in props {
            let pat_at = push2(at, "properties", name);
            let pcx = Cx {
                escape: cx.escape || !required.contains(&name.as_str()),
                ..cx
            };
            let mut converted = self.node(schema, &pat_at, pcx, depth + 1)?;
            if !required.contains(&name.as_str()) && rules::all_required(d) {
                converted = self.nullable(converted);
                self.change(&pat_at, ChangeKind::MadeNullable);
            }
            out_props.insert(name.clone(), converted);
        }
        if rules::all_required(d) {
            required = props.keys().map(String::as_str).collect();
        }
        let names: Vec<Value> = if d == Dialect::Gemini {
            out_props.keys().cloned().map(Value::String).collect()
        } else {
            Vec::new()
        };
        if m.fhas("properties") || rules::must_close(d) {
            out.insert("properties".into(), Value::Object(out_props));
        }
        if !required.is_empty() {
            out.insert(
                "required".into(),
                Value::Array(
                    required
                        .into_iter()
                        .map(|n| Value::String(n.to_string()))
                        .collect(),
                ),
            );
        }
        if rules::must_close(d) {
            if is_map {
                if !self.options.close_maps {
                    return Err(unsupported(
                        at,
                        format!(
                            "an object with arbitrary keys (a map) cannot be expressed: {d} requires `additionalProperties: false` on every object"
                        ),
                    ));
                }
                self.change(at, ChangeKind::MapClosed);
                notes.push("(Free-form object: no extra keys can be written here.)".into());
            } else if additional != Some(&Value::Bool(false)) {
                self.change(at, ChangeKind::Closed);
            }
            out.insert("additionalProperties".into(), false.into());
        } else {
            match additional {
                Some(av @ Value::Object(a)) if !a.is_empty() => {
                    let a = self.node(
                        av,
                        &pointer::push(at, "additionalProperties"),
                        cx,
                        depth + 1,
                    )?;
                    out.insert("additionalProperties".into(), a);
                }
                Some(v) => {
                    out.insert(
                        "additionalProperties".into(),
                        if v == &json!({}) {
                            Value::Bool(true)
                        } else {
                            v.clone()
                        },
                    );
                }
                None => {}
            }
            if let Some(Value::Object(pp)) = pat {
                if d == Dialect::LmStudio {
                    let mut outp = Map::new();
                    for (re, s) in pp {
                        let pat_at = pointer::push(&pointer::push(at, "patternProperties"), re);
                        outp.insert(re.clone(), self.node(s, &pat_at, cx, depth + 1)?);
                    }
                    out.insert("patternProperties".into(), Value::Object(outp));
                } else {
                    self.change(
                        at,
                        ChangeKind::Dropped {
                            keyword: "patternProperties".into(),
                        },
                    );
                }
            }
        }
        if d == Dialect::Gemini && !names.is_empty() {
            out.insert("propertyOrdering".into(), Value::Array(names));
        }
        Ok(())
    }
}

/// Adds a union branch unless an equal one (descriptions aside) is there already; then the
/// descriptions are joined.
fn push_branch(branches: &mut Vec<Value>, b: Value) {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Value::Object(m) = &mut v {
            m.remove("description");
        }
        v
    };
    let bare = strip(&b);
    if let Some(existing) = branches.iter_mut().find(|x| strip(x) == bare) {
        if let (Some(Value::String(new)), Value::Object(em)) = (b.fget("description"), existing) {
            match em.get_mut("description") {
                Some(Value::String(old)) if !old.contains(new.as_str()) => {
                    old.push('\n');
                    old.push_str(new);
                }
                Some(_) => {}
                None => {
                    em.insert("description".into(), Value::String(new.clone()));
                }
            }
        }
        return;
    }
    branches.push(b);
}

/// Appends notes and tags to a schema's description: `"Text.\n\nnote\n\n@tag 1\n@tag 2"`.
fn apply_notes(out: &mut Map<String, Value>, notes: &mut Vec<String>, tags: &[String]) {
    if notes.is_empty() && tags.is_empty() {
        return;
    }
    // The parts joined with blank lines: the description (unless empty), the notes, the tags
    // (one per line).
    let mut text = match out.get_mut("description") {
        Some(Value::String(d)) => std::mem::take(d),
        _ => String::new(),
    };
    let mut first = text.is_empty();
    for part in notes.drain(..) {
        if !first {
            text.push_str("\n\n");
        }
        first = false;
        text.push_str(&part);
    }
    if !tags.is_empty() {
        if !first {
            text.push_str("\n\n");
        }
        for (i, t) in tags.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(t);
        }
    }
    // Keep `description` right after `type` / `title` for readability.
    out.insert("description".into(), Value::String(text));
}

/// The type a schema without `type` describes, from its keywords.
fn infer_type(m: &Map<String, Value>) -> Option<&'static str> {
    if let Some(c) = m.fget("const") {
        return type_of_value(c);
    }
    if let Some(Value::Array(e)) = m.fget("enum") {
        let types: Vec<&str> = e.iter().filter_map(type_of_value).collect();
        if let Some(first) = types.first() {
            if types.iter().all(|t| t == first) {
                return Some(first);
            }
            if types.iter().all(|t| matches!(*t, "integer" | "number")) {
                return Some("number");
            }
        }
        return None;
    }
    ["object", "array", "string", "number"]
        .into_iter()
        .find(|t| m.keys().any(|k| applies_to(k, t) && k != "format"))
}

/// Merges schema `b` into `a` (both plain schema objects) as `allOf` would.
fn merge_into(
    a: &mut Map<String, Value>,
    b: Map<String, Value>,
    at: &str,
) -> Result<(), ConvertError> {
    for (k, v) in b {
        let Some(old) = a.get_mut(&k) else {
            a.insert(k, v);
            continue;
        };
        match k.as_str() {
            "properties" => {
                let (Value::Object(op), Value::Object(np)) = (old, v) else {
                    return Err(malformed(at, "`properties` must be an object".into()));
                };
                for (name, s) in np {
                    match op.get_mut(&name) {
                        Some(existing) if *existing == s => {}
                        Some(existing) => {
                            *existing = json!({ "allOf": [existing.clone(), s] });
                        }
                        None => {
                            op.insert(name, s);
                        }
                    }
                }
            }
            "required" => {
                let (Value::Array(or), Value::Array(nr)) = (old, v) else {
                    return Err(malformed(at, "`required` must be an array".into()));
                };
                for n in nr {
                    if !or.contains(&n) {
                        or.push(n);
                    }
                }
            }
            "type" => {
                let set = |t: &Value| -> Vec<Value> {
                    match t {
                        Value::Array(a) => a.clone(),
                        other => vec![other.clone()],
                    }
                };
                let (x, y) = (set(old), set(&v));
                let both: Vec<Value> = x
                    .iter()
                    .filter(|t| {
                        y.contains(t)
                            || (t.as_str() == Some("integer") && y.contains(&json!("number")))
                    })
                    .cloned()
                    .chain(
                        y.iter()
                            .filter(|t| {
                                t.as_str() == Some("integer") && x.contains(&json!("number"))
                            })
                            .cloned(),
                    )
                    .collect();
                match both.len() {
                    0 => {
                        return Err(malformed(
                            at,
                            format!("`allOf` of incompatible types {old} and {v}"),
                        ))
                    }
                    1 => *old = both[0].clone(),
                    _ => *old = Value::Array(both),
                }
            }
            "enum" => {
                if let (Value::Array(oe), Value::Array(ne)) = (&mut *old, &v) {
                    oe.retain(|x| ne.contains(x));
                    if oe.is_empty() {
                        return Err(malformed(
                            at,
                            "`allOf` of enums with no value in common".into(),
                        ));
                    }
                }
            }
            "additionalProperties" if v == Value::Bool(false) => *old = v,
            "minimum" | "minLength" | "minItems" | "exclusiveMinimum" | "minProperties" => {
                if let (Some(x), Some(y)) = (old.as_f64(), v.as_f64()) {
                    if y > x {
                        *old = v;
                    }
                }
            }
            "maximum" | "maxLength" | "maxItems" | "exclusiveMaximum" | "maxProperties" => {
                if let (Some(x), Some(y)) = (old.as_f64(), v.as_f64()) {
                    if y < x {
                        *old = v;
                    }
                }
            }
            "anyOf" | "oneOf" => {
                let both_clauses = [&*old, &v].iter().all(|u| {
                    u.as_array()
                        .is_some_and(|a| a.iter().all(|c| required_clause(c).is_some()))
                });
                if both_clauses {
                    // Two "exactly one of" groups: the note lists both.
                    if let (Value::Array(oa), Value::Array(na)) = (&mut *old, v) {
                        oa.extend(na);
                    }
                } else if *old != v {
                    return Err(unsupported(
                        at,
                        format!(
                            "`allOf` of several `{k}` unions cannot be expressed as one schema"
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The note that replaces a union of `required` clauses in `dialect` (also used by
/// [`crate::view`] to narrow a converted schema in place).
pub(crate) fn clause_note<S: AsRef<str>>(dialect: Dialect, clauses: &[Vec<S>]) -> String {
    let others = if rules::all_required(dialect) {
        "; set the others to null"
    } else {
        "; leave the others out"
    };
    let names: usize = clauses.iter().flatten().map(|n| n.as_ref().len() + 4).sum();
    let mut out = String::with_capacity(48 + names);
    out.push_str("Fill exactly one of ");
    for (i, c) in clauses.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for (j, n) in c.iter().enumerate() {
            if j > 0 {
                out.push_str(" + ");
            }
            out.push('`');
            out.push_str(n.as_ref());
            out.push('`');
        }
    }
    out.push_str(others);
    out.push('.');
    out
}
