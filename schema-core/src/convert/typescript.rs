//! JSON Schema -> compressed TypeScript type text (seed 003).
//!
//! Models know TypeScript types well and the syntax costs far fewer tokens than JSON Schema, so a
//! prompt can carry `{path: string /* File path */; tail?: number}` instead of the schema, in the
//! form seed 003 and DESIGN.md write it.
//!
//! # What the text looks like
//! - `string`, `number` (`integer` too, with an `int` note), `boolean`, `null`; `unknown` for an
//!   empty or unknown schema (`{}`, `true`), `never` for `false`.
//! - arrays `T[]` (unions and commented items parenthesised: `("a"|"b")[]`), `prefixItems` tuples
//!   `[A, B]` (`[A, B, ...T[]]` when `items` allows more), objects `{a: T; b?: U}` (`?` when the
//!   property is not `required`), maps `Record<string, T>` (`additionalProperties` schema;
//!   `object` for an object schema that says nothing about its properties),
//!   `const` and `enum` as literal types, `anyOf`/`oneOf` and type arrays as unions, `allOf` as a
//!   merged object (or an intersection `A & B` when the parts are not all objects).
//! - descriptions and constraints as one `/* ... */` comment: `/* ISO 639-1 language code;
//!   max 10 chars */`. The comment follows the type (`name: string /* ... */`), or comes before
//!   it when the type is an object literal (`name: /* ... */ {...}`), so it stays next to the name.
//!   Notes: `int`, `max N chars`, `N-M chars`, `pattern /re/`, `format uri`, `min 0`, `max 9`,
//!   `0-100` (`int 0-100`), `>0`, `<1`, `max N items`, `unique`, `max N keys`, `default X`,
//!   `exactly one of: a, b` (a `oneOf` of
//!   `required`-only clauses), ... A value of a string enum keeps its own description:
//!   `"a" /* first */|"b"`.
//! - `$ref` to `$defs`/`definitions` (any local pointer) is resolved inline. A type that refers
//!   to itself through an object or array is declared once as a named alias and used by name:
//!
//!   ```text
//!   type Node = {value: number; children: Node[]};
//!   {root: Node}
//!   ```
//!   The output is then zero or more `type X = ...;` lines followed by the root type expression
//!   (after the last declaration's line). To get a complete TypeScript file (what `tsc` checks),
//!   set [`TsOptions::root_name`]: the root expression then becomes a declaration too
//!   (`type Root = ...;`). Without declarations the text is a bare type expression, valid as
//!   `type Root = <text>;`.
//!
//! # Errors
//! A `$ref` that resolves nowhere, a `$ref` cycle with no object or array in between (which
//! describes no value, and which TypeScript rejects as a circular alias), a non-schema where a
//! schema belongs or a keyword with a wrongly typed value, nesting deeper than [`MAX_DEPTH`] and
//! an expansion larger than [`MAX_NODES`] nodes all give a [`ConvertError`]; nothing panics and
//! the recursion is bounded.

use super::kind_of;
use super::SmallMap;
use super::{pointer, ConvertError, ConvertErrorKind};
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// How deep schemas may nest (counting `$ref` hops) before [`to_typescript`] gives up with
/// [`ConvertErrorKind::TooDeep`]. Bounds the recursion, so the stack cannot overflow.
pub const MAX_DEPTH: usize = 128;

/// How many schema nodes one conversion may expand (inlined `$ref`s count each time) before it
/// gives up with [`ConvertErrorKind::LimitExceeded`]: guards against exponential expansion.
pub const MAX_NODES: usize = 100_000;

/// Options of the TypeScript rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsOptions {
    /// Keep descriptions as `/* ... */` comments (default `true`).
    pub include_descriptions: bool,
    /// Cut each description to at most this many characters (Unicode scalar values, never
    /// inside one; at the end of the last whole word when that keeps at least half), marking the
    /// cut with `…`; `0` drops descriptions. Whitespace runs become one space first.
    ///
    /// Default 300, the value of seed 003's configuration (`max_description_len: 300`): the
    /// library default should keep a description whole (the longest in the seeds has 232
    /// characters), because descriptions carry instructions the model needs. Seed 003's
    /// convenience function cuts at 50 to save tokens; [`TsOptions::brief`] gives that.
    pub max_description_len: usize,
    /// Keep constraints (`maxLength`, `minimum`, `pattern`, `format`, `minItems`, ...) as short
    /// notes in the comment (default `true`), so the text says what the schema says.
    pub include_constraints: bool,
    /// One property per line, indented by two spaces (default `false`: one line, fewest tokens).
    pub multiline: bool,
    /// When set, the root is written as a declaration `type <root_name> = ...;`, so the whole
    /// text is a TypeScript file of type declarations (also when recursive types are named).
    /// Also the name of the root when the root itself is recursive (default: its `title`, else
    /// `Root`).
    pub root_name: Option<String>,
}

impl Default for TsOptions {
    fn default() -> Self {
        TsOptions {
            include_descriptions: true,
            max_description_len: 300,
            include_constraints: true,
            multiline: false,
            root_name: None,
        }
    }
}

impl TsOptions {
    /// Seed 003's convenience-function default: descriptions cut to 50 characters.
    pub fn brief() -> Self {
        TsOptions {
            max_description_len: 50,
            ..TsOptions::default()
        }
    }
}

/// Renders any JSON Schema (2020-12, or draft 4-7 `definitions` / tuple `items`) as TypeScript
/// type text. See the module documentation of `schema_core::convert` for the form of the text.
///
/// ```
/// use schema_core::convert::{to_typescript, TsOptions};
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string", "description": "File path"},
///         "tail": {"type": "integer", "minimum": 1}
///     },
///     "required": ["path"]
/// });
/// let text = to_typescript(&schema, &TsOptions::default()).unwrap();
/// assert_eq!(text, "{path: string /* File path */; tail?: number /* int min 1 */}");
/// ```
pub fn to_typescript(schema: &Value, options: &TsOptions) -> Result<String, ConvertError> {
    // Recursive targets are discovered while building; each discovery restarts the build with
    // one more named target, so every reference to it (the first included) uses the name.
    let mut named: Vec<(String, String)> = Vec::new();
    loop {
        let mut b = Builder {
            root: schema,
            opts: options,
            named: &named,
            stack: Vec::new(),
            level: 0,
            nodes: 0,
        };
        match b.run() {
            Ok((decls, root)) => return Ok(print_all(&decls, &root, &named, options)),
            Err(Fail::Error(e)) => return Err(e),
            Err(Fail::Restart(target)) => {
                let name = unique_name(&target, schema, options, &named);
                named.push((target, name));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The intermediate form: a tree of TypeScript types with their comments.

#[derive(Debug, Clone, PartialEq)]
struct Node {
    ty: Ty,
    desc: Option<String>,
    notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// `string`, `number`, `boolean`, `null`, `unknown`, `never`.
    Kw(&'static str),
    /// A literal type, already written (`"a"`, `1`, `true`).
    Lit(String),
    Array(Box<Node>),
    Tuple(Vec<Node>, Option<Box<Node>>),
    Object(Obj),
    Union(Vec<Node>),
    Inter(Vec<Node>),
    Named(String),
}

#[derive(Debug, Clone, PartialEq)]
struct Obj {
    props: Vec<Prop>,
    /// Required names without a property schema (`name: unknown`).
    required: Vec<String>,
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq)]
enum Extra {
    /// `additionalProperties` absent or `true`.
    Open,
    /// `additionalProperties: false`.
    Closed,
    /// A schema for the other properties.
    Schema(Box<Node>),
}

#[derive(Debug, Clone, PartialEq)]
struct Prop {
    name: String,
    optional: bool,
    node: Node,
}

impl Node {
    fn of(ty: Ty) -> Node {
        Node {
            ty,
            desc: None,
            notes: Vec::new(),
        }
    }
    fn bare(&self) -> bool {
        self.desc.is_none() && self.notes.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// Building the tree from the schema.

enum Fail {
    Error(ConvertError),
    /// The target is recursive: name it and start again.
    Restart(String),
}

type R<T> = Result<T, Fail>;

fn err<T>(pointer: &str, kind: ConvertErrorKind) -> R<T> {
    Err(Fail::Error(ConvertError::new(pointer, kind)))
}

fn malformed<T>(pointer: &str, msg: impl Into<String>) -> R<T> {
    err(pointer, ConvertErrorKind::Malformed(msg.into()))
}

/// Keywords that give a schema a shape of its own (a schema without any of them, inside an
/// `anyOf`/`oneOf` beside a `type`, refines that type).
const SHAPE_KEYWORDS: &[&str] = &[
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

const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyNames",
];

const ARRAY_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
];

struct Builder<'a> {
    root: &'a Value,
    opts: &'a TsOptions,
    /// Recursive targets (`$ref` strings) and their names.
    named: &'a [(String, String)],
    /// `$ref` targets being expanded, with the instance level they were entered at.
    stack: Vec<(String, usize)>,
    /// How many object/array steps into the instance we are.
    level: usize,
    nodes: usize,
}

type Decls = Vec<(String, Node)>;

impl Builder<'_> {
    fn run(&mut self) -> R<(Decls, Node)> {
        let root = if let Some(name) = self.name_of("#") {
            Node::of(Ty::Named(name.to_string()))
        } else {
            self.stack.push(("#".into(), 0));
            self.build(self.root, "", 0)?
        };
        let mut decls = Vec::new();
        let named = self.named;
        for (target, name) in named {
            let schema = match pointer::resolve(self.root, target) {
                Some(s) => s,
                None => return err("", ConvertErrorKind::UnresolvableRef(target.clone())),
            };
            self.stack.clear();
            self.level = 0;
            self.stack.push((target.clone(), 0));
            let body = self.build(schema, ref_pointer(target), 0)?;
            decls.push((name.clone(), body));
        }
        check_alias_cycles(&decls, self.named)?;
        Ok((decls, root))
    }

    fn name_of(&self, target: &str) -> Option<&str> {
        self.named
            .iter()
            .find(|(t, _)| t == target)
            .map(|(_, n)| n.as_str())
    }

    fn count(&mut self, ptr: &str, depth: usize) -> R<()> {
        if depth > MAX_DEPTH {
            return err(ptr, ConvertErrorKind::TooDeep(MAX_DEPTH));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return err(
                ptr,
                ConvertErrorKind::LimitExceeded {
                    limit: "typescript nodes",
                    max: MAX_NODES,
                    found: self.nodes,
                },
            );
        }
        Ok(())
    }

    fn build(&mut self, s: &Value, ptr: &str, depth: usize) -> R<Node> {
        self.count(ptr, depth)?;
        let m = match s {
            Value::Bool(true) => return Ok(Node::of(Ty::Kw("unknown"))),
            Value::Bool(false) => return Ok(Node::of(Ty::Kw("never"))),
            Value::Object(m) => m,
            other => {
                return malformed(
                    ptr,
                    format!(
                        "expected a schema (an object or a boolean), found {}",
                        kind_of(other)
                    ),
                )
            }
        };
        let desc = match m.fget("description") {
            None => None,
            Some(Value::String(d)) => Some(d.clone()),
            Some(other) => {
                return malformed(
                    &pointer::push(ptr, "description"),
                    format!("expected a string, found {}", kind_of(other)),
                )
            }
        };
        let notes = notes(m, ptr, self.opts)?;

        let mut parts = Vec::new();
        if let Some(local) = self.local(m, ptr, depth)? {
            parts.push(local);
        }
        if let Some(r) = m.fget("$ref") {
            parts.push(self.reference(r, ptr, depth)?);
        }
        if let Some(all) = m.fget("allOf") {
            let p = pointer::push(ptr, "allOf");
            for (i, sub) in array(all, &p)?.iter().enumerate() {
                parts.push(self.build(sub, &pointer::push(&p, &i.to_string()), depth + 1)?);
            }
        }
        let mut node = combine(parts);
        for kw in ["anyOf", "oneOf"] {
            if let Some(v) = m.fget(kw) {
                node = Some(self.alternatives(kw, v, node, ptr, depth)?);
            }
        }
        let mut node = node.unwrap_or_else(|| Node::of(Ty::Kw("unknown")));
        if desc.is_some() {
            node.desc = desc;
        }
        node.notes.extend(notes);
        Ok(node)
    }

    /// The shape given by the schema's own keywords (`const`, `enum`, `type`, or implied by
    /// object / array keywords), without `$ref`, `allOf`, `anyOf`, `oneOf`.
    fn local(&mut self, m: &Map<String, Value>, ptr: &str, depth: usize) -> R<Option<Node>> {
        if let Some(c) = m.fget("const") {
            return Ok(Some(Node::of(self.literal(c, ptr, depth)?)));
        }
        if let Some(e) = m.fget("enum") {
            let p = pointer::push(ptr, "enum");
            let mut members = Vec::new();
            for v in array(e, &p)? {
                let lit = Node::of(self.literal(v, &p, depth)?);
                if !members.contains(&lit) {
                    members.push(lit);
                }
            }
            return Ok(Some(union(members)));
        }
        match m.fget("type") {
            Some(Value::String(t)) => return self.of_type(t, m, ptr, depth).map(Some),
            Some(Value::Array(ts)) => {
                let p = pointer::push(ptr, "type");
                let mut members = Vec::new();
                for t in ts {
                    let Value::String(t) = t else {
                        return malformed(&p, format!("expected type names, found {}", kind_of(t)));
                    };
                    let n = self.of_type(t, m, ptr, depth)?;
                    if !members.contains(&n) {
                        members.push(n);
                    }
                }
                return Ok(Some(union(members)));
            }
            Some(other) => {
                return malformed(
                    &pointer::push(ptr, "type"),
                    format!("expected a string or an array, found {}", kind_of(other)),
                )
            }
            None => {}
        }
        if OBJECT_KEYWORDS.iter().any(|k| m.fhas(k)) {
            return self.object(m, ptr, depth).map(Some);
        }
        if ARRAY_KEYWORDS.iter().any(|k| m.fhas(k)) {
            return self.array(m, ptr, depth).map(Some);
        }
        Ok(None)
    }

    fn of_type(&mut self, t: &str, m: &Map<String, Value>, ptr: &str, depth: usize) -> R<Node> {
        Ok(Node::of(match t {
            "string" => Ty::Kw("string"),
            "number" | "integer" => Ty::Kw("number"),
            "boolean" => Ty::Kw("boolean"),
            "null" => Ty::Kw("null"),
            "object" => return self.object(m, ptr, depth),
            "array" => return self.array(m, ptr, depth),
            other => {
                return malformed(
                    &pointer::push(ptr, "type"),
                    format!("unknown type {other:?}"),
                )
            }
        }))
    }

    fn object(&mut self, m: &Map<String, Value>, ptr: &str, depth: usize) -> R<Node> {
        self.level += 1;
        let mut required: Vec<String> = Vec::new();
        if let Some(r) = m.fget("required") {
            let p = pointer::push(ptr, "required");
            for name in array(r, &p)? {
                let Value::String(name) = name else {
                    return malformed(&p, format!("expected names, found {}", kind_of(name)));
                };
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
        let mut props = Vec::new();
        if let Some(ps) = m.fget("properties") {
            let p = pointer::push(ptr, "properties");
            let Value::Object(ps) = ps else {
                return malformed(&p, format!("expected an object, found {}", kind_of(ps)));
            };
            for (name, sub) in ps {
                let node = self.build(sub, &pointer::push(&p, name), depth + 1)?;
                props.push(Prop {
                    optional: !required.contains(name),
                    name: name.clone(),
                    node,
                });
            }
        }
        required.retain(|r| !props.iter().any(|p| &p.name == r));
        let mut extra = match m.fget("additionalProperties") {
            None | Some(Value::Bool(true)) => Extra::Open,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(s) => Extra::Schema(Box::new(self.build(
                s,
                &pointer::push(ptr, "additionalProperties"),
                depth + 1,
            )?)),
        };
        if let Some(pp) = m.fget("patternProperties") {
            let p = pointer::push(ptr, "patternProperties");
            let Value::Object(pp) = pp else {
                return malformed(&p, format!("expected an object, found {}", kind_of(pp)));
            };
            let mut members = Vec::new();
            match std::mem::replace(&mut extra, Extra::Open) {
                Extra::Schema(s) => members.push(*s),
                other => extra = other,
            }
            for (re, sub) in pp {
                let mut n = self.build(sub, &pointer::push(&p, re), depth + 1)?;
                if self.opts.include_constraints {
                    n.notes.insert(0, format!("keys /{re}/"));
                }
                members.push(n);
            }
            if !members.is_empty() {
                extra = Extra::Schema(Box::new(union(members)));
            }
        }
        self.level -= 1;
        Ok(Node::of(Ty::Object(Obj {
            props,
            required,
            extra,
        })))
    }

    fn array(&mut self, m: &Map<String, Value>, ptr: &str, depth: usize) -> R<Node> {
        self.level += 1;
        let rest = |b: &mut Self, key: &str| -> R<Option<Box<Node>>> {
            Ok(match m.fget(key) {
                None | Some(Value::Bool(false)) => None,
                Some(s) => Some(Box::new(b.build(s, &pointer::push(ptr, key), depth + 1)?)),
            })
        };
        let ty = if let Some(prefix) = m.fget("prefixItems") {
            let p = pointer::push(ptr, "prefixItems");
            let mut items = Vec::new();
            for (i, s) in array(prefix, &p)?.iter().enumerate() {
                items.push(self.build(s, &pointer::push(&p, &i.to_string()), depth + 1)?);
            }
            Ty::Tuple(items, rest(self, "items")?)
        } else {
            match m.fget("items") {
                Some(Value::Array(list)) => {
                    // draft 4-2019: `items` as an array is a tuple, `additionalItems` the rest.
                    let p = pointer::push(ptr, "items");
                    let mut items = Vec::new();
                    for (i, s) in list.iter().enumerate() {
                        items.push(self.build(s, &pointer::push(&p, &i.to_string()), depth + 1)?);
                    }
                    Ty::Tuple(items, rest(self, "additionalItems")?)
                }
                Some(s) => Ty::Array(Box::new(self.build(
                    s,
                    &pointer::push(ptr, "items"),
                    depth + 1,
                )?)),
                None => Ty::Array(Box::new(Node::of(Ty::Kw("unknown")))),
            }
        };
        self.level -= 1;
        Ok(Node::of(ty))
    }

    fn reference(&mut self, r: &Value, ptr: &str, depth: usize) -> R<Node> {
        let p = pointer::push(ptr, "$ref");
        let Value::String(r) = r else {
            return malformed(&p, format!("expected a string, found {}", kind_of(r)));
        };
        if let Some(name) = self.name_of(r) {
            return Ok(Node::of(Ty::Named(name.to_string())));
        }
        let Some(target) = pointer::resolve(self.root, r) else {
            return err(&p, ConvertErrorKind::UnresolvableRef(r.clone()));
        };
        if let Some((_, level)) = self.stack.iter().find(|(t, _)| t == r) {
            return if *level == self.level {
                err(&p, ConvertErrorKind::RefCycle(r.clone()))
            } else {
                Err(Fail::Restart(r.clone()))
            };
        }
        self.stack.push((r.clone(), self.level));
        let node = self.build(target, ref_pointer(r), depth + 1)?;
        self.stack.pop();
        Ok(node)
    }

    fn alternatives(
        &mut self,
        kw: &str,
        v: &Value,
        base: Option<Node>,
        ptr: &str,
        depth: usize,
    ) -> R<Node> {
        let p = pointer::push(ptr, kw);
        let list = array(v, &p)?;
        // `oneOf: [{required: [a]}, {required: [b]}]` beside properties: a note, not a type.
        if let Some(mut b) = base.clone().filter(|b| matches!(b.ty, Ty::Object(_))) {
            if !list.is_empty() && list.iter().all(required_only) {
                if self.opts.include_constraints {
                    let clauses: Vec<String> = list
                        .iter()
                        .map(|c| {
                            let names: Vec<&str> = c["required"]
                                .as_array()
                                .map(|a| a.iter().filter_map(Value::as_str).collect())
                                .unwrap_or_default();
                            names.join("+")
                        })
                        .collect();
                    let how = if kw == "oneOf" {
                        "exactly one of"
                    } else {
                        "at least one of"
                    };
                    b.notes.push(format!("{how}: {}", clauses.join(", ")));
                }
                return Ok(b);
            }
        }
        let mut members = Vec::new();
        for (i, sub) in list.iter().enumerate() {
            let mut n = self.build(sub, &pointer::push(&p, &i.to_string()), depth + 1)?;
            if let (Some(b), true) = (&base, shapeless(sub)) {
                n.ty = b.ty.clone();
            }
            members.push(n);
        }
        let alts = union(members);
        Ok(match base {
            None => alts,
            Some(b) => {
                let refines = matches!(b.ty, Ty::Kw(_))
                    && members_of(&alts)
                        .iter()
                        .all(|m| matches!(m.ty, Ty::Kw(_) | Ty::Lit(_)));
                if refines && b.bare() {
                    alts
                } else if refines {
                    // keep the base's comment on the union
                    Node {
                        ty: alts_ty_with_comment(alts),
                        desc: b.desc,
                        notes: b.notes,
                    }
                } else {
                    inter(vec![b, alts])
                }
            }
        })
    }

    /// A JSON value as a literal type (`const`, `enum` members).
    fn literal(&mut self, v: &Value, ptr: &str, depth: usize) -> R<Ty> {
        self.count(ptr, depth)?;
        Ok(match v {
            Value::Array(items) => {
                let mut out = Vec::new();
                for i in items {
                    out.push(Node::of(self.literal(i, ptr, depth + 1)?));
                }
                Ty::Tuple(out, None)
            }
            Value::Object(m) => {
                let mut props = Vec::new();
                for (k, i) in m {
                    props.push(Prop {
                        name: k.clone(),
                        optional: false,
                        node: Node::of(self.literal(i, ptr, depth + 1)?),
                    });
                }
                Ty::Object(Obj {
                    props,
                    required: Vec::new(),
                    extra: Extra::Closed,
                })
            }
            scalar => Ty::Lit(scalar.to_string()),
        })
    }
}

/// When a union replaces its base, a one-member union keeps its own comment; nothing to do but
/// return the type.
fn alts_ty_with_comment(alts: Node) -> Ty {
    if alts.bare() {
        alts.ty
    } else {
        Ty::Union(vec![alts])
    }
}

fn members_of(n: &Node) -> Vec<&Node> {
    match &n.ty {
        Ty::Union(ms) if n.bare() => ms.iter().collect(),
        _ => vec![n],
    }
}

fn ref_pointer(r: &str) -> &str {
    r.strip_prefix('#').unwrap_or(r)
}

fn array<'v>(v: &'v Value, ptr: &str) -> R<&'v Vec<Value>> {
    match v {
        Value::Array(a) => Ok(a),
        other => malformed(ptr, format!("expected an array, found {}", kind_of(other))),
    }
}

fn required_only(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            matches!(m.fget("required"), Some(Value::Array(_)))
                && m.keys()
                    .all(|k| k == "required" || k == "description" || k == "title")
        }
        _ => false,
    }
}

fn shapeless(v: &Value) -> bool {
    match v {
        Value::Object(m) => !SHAPE_KEYWORDS.iter().any(|k| m.fhas(k)),
        _ => false,
    }
}

/// A union of members, flattening bare nested unions and dropping duplicates; one member is
/// itself, none is `never`.
fn union(members: Vec<Node>) -> Node {
    let mut out: Vec<Node> = Vec::new();
    for m in members {
        match m.ty {
            Ty::Union(inner) if m.desc.is_none() && m.notes.is_empty() => {
                for i in inner {
                    if !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
            _ => {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
    }
    match out.len() {
        0 => Node::of(Ty::Kw("never")),
        1 => out.pop().unwrap_or_else(|| Node::of(Ty::Kw("never"))),
        _ => Node::of(Ty::Union(out)),
    }
}

/// An intersection, flattening bare nested intersections and dropping bare `unknown`.
fn inter(members: Vec<Node>) -> Node {
    let mut out: Vec<Node> = Vec::new();
    for m in members {
        match m.ty {
            Ty::Inter(inner) if m.bare() => out.extend(inner),
            Ty::Kw("unknown") if m.bare() => {}
            _ => out.push(m),
        }
    }
    match out.len() {
        0 => Node::of(Ty::Kw("unknown")),
        1 => out.pop().unwrap_or_else(|| Node::of(Ty::Kw("unknown"))),
        _ => Node::of(Ty::Inter(out)),
    }
}

/// Combines the parts of one schema (own shape, `$ref` target, `allOf` members): objects merge
/// into one object, anything else intersects.
fn combine(parts: Vec<Node>) -> Option<Node> {
    if parts.len() <= 1 {
        return parts.into_iter().next();
    }
    if !parts.iter().all(|p| matches!(p.ty, Ty::Object(_))) {
        return Some(inter(parts));
    }
    let mut desc = None;
    let mut notes = Vec::new();
    let mut props: Vec<Prop> = Vec::new();
    let mut required: Vec<String> = Vec::new();
    let mut extra = Extra::Open;
    for part in parts {
        if desc.is_none() {
            desc = part.desc;
        }
        notes.extend(part.notes);
        let Ty::Object(o) = part.ty else { continue };
        for p in o.props {
            if let Some(existing) = props.iter_mut().find(|e| e.name == p.name) {
                existing.optional &= p.optional;
                if existing.node != p.node {
                    let old = std::mem::replace(&mut existing.node, Node::of(Ty::Kw("unknown")));
                    existing.node = inter(vec![old, p.node]);
                }
            } else {
                props.push(p);
            }
        }
        required.extend(o.required);
        extra = match (extra, o.extra) {
            (Extra::Schema(s), _) | (_, Extra::Schema(s)) => Extra::Schema(s),
            (Extra::Closed, _) | (_, Extra::Closed) => Extra::Closed,
            _ => Extra::Open,
        };
    }
    let mut rest = Vec::new();
    for r in required {
        if let Some(p) = props.iter_mut().find(|p| p.name == r) {
            p.optional = false;
        } else if !rest.contains(&r) {
            rest.push(r);
        }
    }
    Some(Node {
        ty: Ty::Object(Obj {
            props,
            required: rest,
            extra,
        }),
        desc,
        notes,
    })
}

/// Named aliases that reach themselves through unions and intersections only (`type A = A | B`)
/// describe no value and are rejected by TypeScript: a `$ref` cycle with no object in between.
fn check_alias_cycles(decls: &Decls, named: &[(String, String)]) -> R<()> {
    fn top_names<'n>(n: &'n Node, out: &mut Vec<&'n str>) {
        match &n.ty {
            Ty::Named(name) => out.push(name),
            Ty::Union(ms) | Ty::Inter(ms) => ms.iter().for_each(|m| top_names(m, out)),
            _ => {}
        }
    }
    let edges: Vec<Vec<usize>> = decls
        .iter()
        .map(|(_, body)| {
            let mut names = Vec::new();
            top_names(body, &mut names);
            names
                .iter()
                .filter_map(|n| decls.iter().position(|(d, _)| d == n))
                .collect()
        })
        .collect();
    // Iterative depth-first search for a cycle.
    let mut state = vec![0u8; decls.len()]; // 0 new, 1 on the path, 2 done
    for start in 0..decls.len() {
        if state[start] != 0 {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            if let Some(&to) = edges[node].get(*next) {
                *next += 1;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        path.push((to, 0));
                    }
                    1 => {
                        let target = named
                            .iter()
                            .find(|(_, n)| *n == decls[to].0)
                            .map(|(t, _)| t.clone())
                            .unwrap_or_default();
                        return err(
                            ref_pointer(&target),
                            ConvertErrorKind::RefCycle(target.clone()),
                        );
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                path.pop();
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Constraint notes.

fn notes(m: &Map<String, Value>, ptr: &str, opts: &TsOptions) -> R<Vec<String>> {
    let mut out = Vec::new();
    if !opts.include_constraints {
        return Ok(out);
    }
    let is_int = match m.fget("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number")
        }
        _ => false,
    };
    if is_int {
        out.push("int".to_string());
    }
    if let Some(n) = range(m, ptr, "minLength", "maxLength", "char", "chars")? {
        out.push(n);
    }
    if let Some(p) = m.fget("pattern") {
        let Value::String(p) = p else {
            return malformed(&pointer::push(ptr, "pattern"), "expected a string");
        };
        out.push(format!("pattern /{p}/"));
    }
    if let Some(f) = m.fget("format") {
        let Value::String(f) = f else {
            return malformed(&pointer::push(ptr, "format"), "expected a string");
        };
        out.push(format!("format {f}"));
    }
    let b = bounds(m, ptr)?;
    match (out.last_mut(), b.split_first()) {
        // `int 0-100`: a bound reads as part of the integer note
        (Some(int), Some((first, rest))) if int == "int" => {
            int.push(' ');
            int.push_str(first);
            out.extend(rest.iter().cloned());
        }
        _ => out.extend(b),
    }
    if let Some(n) = m.fget("multipleOf") {
        let Value::Number(n) = n else {
            return malformed(&pointer::push(ptr, "multipleOf"), "expected a number");
        };
        out.push(format!("multiple of {n}"));
    }
    // A closed tuple of exactly its items says its length already (`[A, B]`).
    let exact_tuple = m.fget("items") == Some(&Value::Bool(false))
        && m.fget("prefixItems")
            .and_then(Value::as_array)
            .is_some_and(|p| {
                let n = Some(p.len() as u64);
                m.fget("minItems").and_then(Value::as_u64) == n
                    && m.fget("maxItems").is_none_or(|v| v.as_u64() == n)
            });
    if !exact_tuple {
        if let Some(n) = range(m, ptr, "minItems", "maxItems", "item", "items")? {
            out.push(n);
        }
    }
    if m.fget("uniqueItems") == Some(&Value::Bool(true)) {
        out.push("unique".to_string());
    }
    if let Some(n) = range(m, ptr, "minProperties", "maxProperties", "key", "keys")? {
        out.push(n);
    }
    if let Some(Value::Object(names)) = m.fget("propertyNames") {
        if let Some(Value::String(p)) = names.fget("pattern") {
            out.push(format!("keys /{p}/"));
        }
    }
    if let Some(dr) = m.fget("dependentRequired") {
        let Value::Object(dr) = dr else {
            return malformed(
                &pointer::push(ptr, "dependentRequired"),
                "expected an object",
            );
        };
        for (k, v) in dr {
            let names: Vec<&str> = match v {
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => {
                    return malformed(
                        &pointer::push(&pointer::push(ptr, "dependentRequired"), k),
                        "expected an array of names",
                    )
                }
            };
            out.push(format!("{k} needs {}", names.join("+")));
        }
    }
    if let Some(d) = m.fget("default") {
        let text = d.to_string();
        if text.chars().count() <= 60 {
            out.push(format!("default {text}"));
        }
    }
    if m.fget("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".to_string());
    }
    Ok(out)
}

fn count(m: &Map<String, Value>, ptr: &str, key: &str) -> R<Option<u64>> {
    match m.fget(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(u) = n.as_u64() {
                return Ok(Some(u));
            }
            match n.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => Ok(Some(f as u64)),
                _ => malformed(&pointer::push(ptr, key), "expected a non-negative integer"),
            }
        }
        Some(other) => malformed(
            &pointer::push(ptr, key),
            format!("expected a non-negative integer, found {}", kind_of(other)),
        ),
    }
}

/// `max 5 items`, `min 1 item`, `3 items`, `1-30 chars`.
fn range(
    m: &Map<String, Value>,
    ptr: &str,
    min_key: &str,
    max_key: &str,
    one: &str,
    many: &str,
) -> R<Option<String>> {
    let unit = |n: u64| if n == 1 { one } else { many };
    let (min, max) = (count(m, ptr, min_key)?, count(m, ptr, max_key)?);
    Ok(match (min, max) {
        (Some(0), None) | (None, None) => None,
        (Some(a), Some(b)) if a == b => Some(format!("{a} {}", unit(a))),
        (Some(0), Some(b)) | (None, Some(b)) => Some(format!("max {b} {}", unit(b))),
        (Some(a), None) => Some(format!("min {a} {}", unit(a))),
        (Some(a), Some(b)) => Some(format!("{a}-{b} {many}")),
    })
}

/// `min 0`, `max 100`, `0-100`, `>0`, `<1`.
fn bounds(m: &Map<String, Value>, ptr: &str) -> R<Vec<String>> {
    let num = |key: &str| -> R<Option<&serde_json::Number>> {
        match m.fget(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(Some(n)),
            // draft 4: exclusiveMinimum / exclusiveMaximum are booleans
            Some(Value::Bool(_)) if key.starts_with("exclusive") => Ok(None),
            Some(other) => malformed(
                &pointer::push(ptr, key),
                format!("expected a number, found {}", kind_of(other)),
            ),
        }
    };
    let draft4 = |key: &str| m.fget(key) == Some(&Value::Bool(true));
    let (mut min, mut max) = (num("minimum")?, num("maximum")?);
    let (mut xmin, mut xmax) = (num("exclusiveMinimum")?, num("exclusiveMaximum")?);
    if draft4("exclusiveMinimum") {
        xmin = min.take();
    }
    if draft4("exclusiveMaximum") {
        xmax = max.take();
    }
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (min, max) {
        if a.as_f64().is_some_and(|a| a >= 0.0) {
            out.push(format!("{a}-{b}"));
            min = None;
            max = None;
        }
    }
    if let Some(a) = min {
        out.push(format!("min {a}"));
    }
    if let Some(a) = xmin {
        out.push(format!(">{a}"));
    }
    if let Some(b) = max {
        out.push(format!("max {b}"));
    }
    if let Some(b) = xmax {
        out.push(format!("<{b}"));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Printing.

/// How tightly a printed type binds: unions need parentheses inside intersections and arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Union,
    Inter,
    Atom,
}

const UNION_SEP: &str = "|";
const INTER_SEP: &str = " & ";

fn print_all(decls: &Decls, root: &Node, named: &[(String, String)], opts: &TsOptions) -> String {
    let p = Printer { opts };
    let mut out = String::new();
    for (name, body) in decls {
        let _ = write!(out, "type {name} = ");
        p.full(body, 0, &mut out);
        out.push_str(";\n");
    }
    let root_is_named = named.iter().any(|(t, _)| t == "#");
    match (&opts.root_name, root_is_named) {
        (Some(_), true) => {
            // the root's declaration is already written
            out.pop();
        }
        (Some(name), false) => {
            let _ = write!(out, "type {} = ", ident(name));
            p.full(root, 0, &mut out);
            out.push(';');
        }
        (None, _) => {
            p.full(root, 0, &mut out);
        }
    }
    out
}

struct Printer<'o> {
    opts: &'o TsOptions,
}

impl Printer<'_> {
    /// The comment of a node (`description; notes`), already escaped, if any.
    fn comment(&self, n: &Node) -> Option<String> {
        let mut text = String::new();
        if let Some(d) = &n.desc {
            if self.opts.include_descriptions && self.opts.max_description_len > 0 {
                text = cut(d, self.opts.max_description_len);
            }
        }
        if !n.notes.is_empty() {
            if !text.is_empty() {
                text.push_str("; ");
            }
            text.push_str(&n.notes.join(", "));
        }
        if text.contains("*/") {
            text = text.replace("*/", "*\\/");
        }
        (!text.is_empty()).then_some(text)
    }

    /// The type with its comment: after the type, or before it when the type is an object
    /// literal (so the comment stays next to the property name).
    fn full(&self, n: &Node, lvl: usize, out: &mut String) -> Prec {
        // The type is written in place; a comment that goes before it is inserted after.
        let start = out.len();
        let prec = self.ty(n, lvl, out);
        if let Some(c) = self.comment(n) {
            let t = &out[start..];
            if t.contains('{') || t.contains("/*") {
                out.insert_str(start, &format!("/* {c} */ "));
            } else {
                let _ = write!(out, " /* {c} */");
            }
        }
        prec
    }

    /// `full` wrapped in parentheses when it binds looser than `need` (or, for array items,
    /// when it carries a comment).
    fn operand(&self, n: &Node, lvl: usize, need: Prec, out: &mut String) {
        let start = out.len();
        let prec = self.full(n, lvl, out);
        if prec < need || (need == Prec::Atom && !n.bare()) {
            out.insert(start, '(');
            out.push(')');
        }
    }

    fn ty(&self, n: &Node, lvl: usize, out: &mut String) -> Prec {
        match &n.ty {
            Ty::Kw(k) => out.push_str(k),
            Ty::Lit(l) => out.push_str(l),
            Ty::Named(name) => out.push_str(name),
            Ty::Array(item) => {
                self.operand(item, lvl, Prec::Atom, out);
                out.push_str("[]");
            }
            Ty::Tuple(items, rest) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.full(item, lvl, out);
                }
                if let Some(r) = rest {
                    if !items.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                    self.operand(r, lvl, Prec::Atom, out);
                    out.push_str("[]");
                }
                out.push(']');
            }
            Ty::Union(ms) => {
                for (i, m) in ms.iter().enumerate() {
                    if i > 0 {
                        out.push_str(UNION_SEP);
                    }
                    self.operand(m, lvl, Prec::Inter, out);
                }
                return Prec::Union;
            }
            Ty::Inter(ms) => {
                for (i, m) in ms.iter().enumerate() {
                    if i > 0 {
                        out.push_str(INTER_SEP);
                    }
                    self.operand(m, lvl, Prec::Atom, out);
                }
                return Prec::Inter;
            }
            Ty::Object(o) => return self.object(o, lvl, out),
        }
        Prec::Atom
    }

    fn object(&self, o: &Obj, lvl: usize, out: &mut String) -> Prec {
        let map = |out: &mut String, value: &Node| {
            if has_named(value) {
                // `Record<string, A>` inside `type A` is a circular alias for tsc
                out.push_str("{[key: string]: ");
                self.full(value, lvl, out);
                out.push('}');
            } else {
                out.push_str("Record<string, ");
                self.full(value, lvl, out);
                out.push('>');
            }
        };
        if o.props.is_empty() && o.required.is_empty() {
            match &o.extra {
                Extra::Schema(v) => map(out, v),
                Extra::Open => out.push_str("object"),
                Extra::Closed => out.push_str("{}"),
            }
            return Prec::Atom;
        }
        let ml = self.opts.multiline;
        out.push('{');
        let mut first = true;
        let mut sep = |out: &mut String| {
            if ml {
                out.push('\n');
                indent(out, lvl + 1);
            } else if !first {
                out.push_str("; ");
            }
            first = false;
        };
        for p in &o.props {
            sep(out);
            if is_ident(&p.name) {
                out.push_str(&p.name);
            } else {
                out.push_str(&key(&p.name));
            }
            if p.optional {
                out.push('?');
            }
            // `name: type`, as seed 003 and DESIGN.md write it.
            out.push_str(": ");
            self.full(&p.node, lvl + 1, out);
            if ml {
                out.push(';');
            }
        }
        for r in &o.required {
            sep(out);
            let _ = write!(out, "{}: unknown", key(r));
            if ml {
                out.push(';');
            }
        }
        if ml {
            out.push('\n');
            indent(out, lvl);
        }
        out.push('}');
        if let Extra::Schema(v) = &o.extra {
            out.push_str(INTER_SEP);
            map(out, v);
            return Prec::Inter;
        }
        Prec::Atom
    }
}

fn has_named(n: &Node) -> bool {
    match &n.ty {
        Ty::Named(_) => true,
        Ty::Kw(_) | Ty::Lit(_) => false,
        Ty::Array(i) => has_named(i),
        Ty::Tuple(items, rest) => {
            items.iter().any(has_named) || rest.as_deref().is_some_and(has_named)
        }
        Ty::Union(ms) | Ty::Inter(ms) => ms.iter().any(has_named),
        Ty::Object(o) => {
            o.props.iter().any(|p| has_named(&p.node))
                || matches!(&o.extra, Extra::Schema(s) if has_named(s))
        }
    }
}

fn indent(out: &mut String, lvl: usize) {
    for _ in 0..lvl {
        out.push_str("  ");
    }
}

/// A description on one line (whitespace runs become one space), cut to at most `max`
/// characters (then ending in `…`, which is not counted).
fn cut(d: &str, max: usize) -> String {
    let mut words = String::with_capacity(d.len());
    for w in d.split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(w);
    }
    // (A string of at most `max` bytes has at most `max` characters.)
    if words.len() <= max || words.chars().count() <= max {
        return words;
    }
    let mut short: String = words.chars().take(max).collect();
    // End on a whole word when one ends in the second half: a broken word costs tokens and
    // says nothing.
    let next_is_space = words[short.len()..].starts_with(' ');
    if !next_is_space {
        if let Some(space) = short.rfind(' ') {
            if short[..space].chars().count() * 2 >= max {
                short.truncate(space);
            }
        }
    }
    short.truncate(short.trim_end().len());
    short.push('…');
    short
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: bare when it is an identifier, else a quoted string.
fn key(name: &str) -> String {
    if is_ident(name) {
        name.to_string()
    } else {
        Value::String(name.to_string()).to_string()
    }
}

/// Names TypeScript reserves or predeclares, which an alias must not take.
const RESERVED: &[&str] = &[
    "any",
    "bigint",
    "boolean",
    "never",
    "null",
    "number",
    "object",
    "string",
    "symbol",
    "undefined",
    "unknown",
    "void",
    "this",
    "true",
    "false",
    "type",
    "interface",
    "Record",
    "Array",
    "Partial",
    "Readonly",
    "Required",
    "Pick",
    "Omit",
    "Object",
    "String",
    "Number",
    "Boolean",
    "Date",
    "Function",
    "Promise",
    "Map",
    "Set",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "return",
    "super",
    "switch",
    "throw",
    "try",
    "typeof",
    "var",
    "while",
    "with",
    "let",
    "yield",
    "keyof",
    "infer",
    "is",
    "asserts",
    "readonly",
    "unique",
    "as",
    "implements",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "await",
];

/// A valid alias name from any text.
fn ident(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if RESERVED.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

/// The alias name of a recursive target: its `$defs` key, or for the root the configured root
/// name, its `title` or `Root`; made unique.
fn unique_name(target: &str, root: &Value, opts: &TsOptions, taken: &[(String, String)]) -> String {
    let base = if target == "#" {
        opts.root_name
            .clone()
            .or_else(|| {
                root.fget("title")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "Root".to_string())
    } else {
        let last = target.rsplit('/').next().unwrap_or(target);
        last.replace("~1", "/").replace("~0", "~")
    };
    let base = ident(&base);
    let clash = |n: &str| {
        taken.iter().any(|(_, t)| t == n) || (target != "#" && opts.root_name.as_deref() == Some(n))
    };
    if !clash(&base) {
        return base;
    }
    (2..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !clash(n))
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ts(v: Value) -> String {
        to_typescript(&v, &TsOptions::default()).unwrap()
    }

    #[test]
    fn cut_on_char_boundary() {
        assert_eq!(cut("文件路径很长", 4), "文件路径…");
        assert_eq!(cut("a  b\n\nc", 10), "a b c");
        assert_eq!(cut("abc def", 4), "abc…");
        assert_eq!(cut("abcdef ghij", 9), "abcdef…");
        assert_eq!(cut("ab cdefghij", 9), "ab cdefgh…");
    }

    #[test]
    fn idents() {
        assert_eq!(key("a_b$1"), "a_b$1");
        assert_eq!(key("a-b"), "\"a-b\"");
        assert_eq!(key("1a"), "\"1a\"");
        assert_eq!(ident("string"), "string_");
        assert_eq!(ident("my node"), "my_node");
    }

    #[test]
    fn seed003_example() {
        let s = json!({"type":"object","properties":{"path":{"type":"string","description":"文件路径"},"tail":{"type":"number"}},"required":["path"]});
        assert_eq!(ts(s), "{path: string /* 文件路径 */; tail?: number}");
    }
}
