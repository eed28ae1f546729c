//! JSON Schema -> compressed TypeScript type text (seed 003).
//!
//! Models know TypeScript types well and the syntax costs far fewer tokens than JSON Schema, so a
//! prompt can carry `{path: string /* File path */; tail?: number}` instead of the schema, in the
//! form seed 003 and DESIGN.md write it.
//!
//! By default nothing the schema says is lost: every property, required marker, enum and const
//! value, description (whole), default and bound is in the text. Only the options that say so in
//! their documentation ([`TsOptions`]) drop anything.
//!
//! # What the text looks like
//! - `string`, `number` (`integer` too, with an `int` note), `boolean`, `null`; `unknown` for an
//!   empty or unknown schema (`{}`, `true`), `never` for `false` and `{"not": {}}`.
//! - arrays `T[]` (unions and commented items parenthesised: `("a"|"b")[]`), `prefixItems` tuples
//!   `[A, B]` (`[A, B, ...T[]]` when `items` allows more), objects `{a: T; b?: U}` (`?` when the
//!   property is not `required`; an optional property that can only be absent, `{"not": {}}`, is
//!   left out and the object's note says `b must be absent`), maps `Record<string, T>`
//!   (`additionalProperties` schema; `object` for an object schema that says nothing about its
//!   properties), `const` and `enum` as literal types (four or more plain strings as the indexed
//!   JSON array `["a","b","c","d"][number]`, which costs a token less per value than
//!   `"a"|"b"|"c"|"d"`), `anyOf`/`oneOf` and type arrays as unions, `allOf` as a merged object (or
//!   an intersection `A & B` when the parts are not all objects).
//! - descriptions and constraints as one `/* ... */` comment: `/* ISO 639-1 language code;
//!   max 10 chars */`. The comment follows the type (`name: string /* ... */`), or comes before
//!   it when the type is an object literal (`name: /* ... */ {...}`), so it stays next to the name.
//!   Notes: `int`, `max N chars`, `N-M chars`, `pattern /re/`, `format uri`, `>=0`, `<=9`,
//!   `0-100` (`int 0-100`), `>0`, `<1`, `max N items`, `unique`, `max N keys`, `default X`,
//!   `not T`, `exactly one of: a, b` (a `oneOf` of `required`-only clauses), ... A value of a
//!   string enum keeps its own description: `"a" /* first */|"b"`. A note the schema gives
//!   twice (merged `allOf` parts) is written once.
//! - Layout: one line, properties separated by seed 003's `; ` (`{path: string /* File path */;
//!   tail?: number}`), the specification's literal form. A line break after a property that
//!   ends in a comment would save one o200k token per such property (` */;` and a line break
//!   are one token), about 2.6% on real MCP tool schemas, but changes the text the
//!   specification shows, so it is not done. ([`TsOptions::multiline`] puts every property on
//!   its own, indented line.)
//! - Noise is left out: an integer bound that only restates the width of a 32- or 64-bit type
//!   (a `u32`'s `maximum: 4294967295`, an `i32`'s ±2147483647, JavaScript's ±(2^53-1)) gives `int`
//!   or `int >=0`, while declared ranges and narrow types stay (`int 0-100`, a `u8`'s `int
//!   0-255`); `format: float`/`double` on a number and `int32`/`int64` on an integer restate the
//!   type and are left out too.
//! - `$ref` to `$defs`/`definitions` (any local pointer) is resolved inline. A type that refers
//!   to itself through an object or array is declared once as a named alias and used by name:
//!
//!   ```text
//!   type Node = {value: number, children: Node[]};
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
use super::schema::{self, Alternatives, DefId, Doc, Kind, Object, Scalar, Schema};
use super::SmallMap;
use super::{pointer, ConvertError, ConvertErrorKind};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// How deep schemas may nest (counting `$ref` hops) before [`to_typescript`] gives up with
/// [`ConvertErrorKind::TooDeep`]. Bounds the recursion, so the stack cannot overflow.
pub const MAX_DEPTH: usize = 128;

/// How many schema nodes and literal values one conversion may expand (inlined `$ref`s count
/// each time) before it gives up with [`ConvertErrorKind::LimitExceeded`]: guards against
/// exponential expansion, and leaves room for an enum of several hundred thousand values.
pub const MAX_NODES: usize = 1_000_000;

/// Options of the TypeScript rendering.
///
/// The default keeps everything the schema says: every description whole, every default, every
/// constraint. The options that drop information say so: [`include_descriptions`],
/// [`max_description_len`] and [`include_constraints`] (and [`TsOptions::brief`], which sets a
/// cap). [`multiline`] and [`root_name`] change only the layout.
///
/// [`include_descriptions`]: TsOptions::include_descriptions
/// [`max_description_len`]: TsOptions::max_description_len
/// [`include_constraints`]: TsOptions::include_constraints
/// [`multiline`]: TsOptions::multiline
/// [`root_name`]: TsOptions::root_name
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsOptions {
    /// Keep descriptions as `/* ... */` comments (default `true`).
    ///
    /// **Drops information** when `false`: every description is left out.
    pub include_descriptions: bool,
    /// An opt-in cap on the length of each description and each default: `None` (the default)
    /// cuts nothing. With `Some(n)`, a description longer than `n` characters (Unicode scalar
    /// values, never inside one; at the end of the last whole word when that keeps at least half)
    /// is cut and the cut marked with `…`; so is the JSON text of a `default` longer than `n`.
    /// `Some(0)` leaves descriptions out and writes a default as `default …`. Whitespace runs in
    /// a description become one space, capped or not.
    ///
    /// **Drops information** when set: the cut-off text is lost (the `…` says where). Seed 003's
    /// convenience function cuts at 50 characters to save tokens; [`TsOptions::brief`] gives that.
    pub max_description_len: Option<usize>,
    /// Keep constraints (`maxLength`, `minimum`, `pattern`, `format`, `minItems`, `default`, ...)
    /// as short notes in the comment (default `true`), so the text says what the schema says.
    ///
    /// **Drops information** when `false`: every constraint note (bounds, lengths, patterns,
    /// formats, defaults, the `int` of an integer, ...) is left out.
    pub include_constraints: bool,
    /// One property per line, indented by two spaces (default `false`: one line, fewest tokens).
    /// Layout only; nothing is dropped.
    pub multiline: bool,
    /// When set, the root is written as a declaration `type <root_name> = ...;`, so the whole
    /// text is a TypeScript file of type declarations (also when recursive types are named).
    /// Also the name of the root when the root itself is recursive (default: its `title`, else
    /// `Root`). Layout only; nothing is dropped.
    pub root_name: Option<String>,
}

impl Default for TsOptions {
    /// Everything kept: descriptions whole, constraints and defaults as notes, one line.
    fn default() -> Self {
        TsOptions {
            include_descriptions: true,
            max_description_len: None,
            include_constraints: true,
            multiline: false,
            root_name: None,
        }
    }
}

impl TsOptions {
    /// Seed 003's convenience-function default: descriptions (and long defaults) cut to 50
    /// characters, the cut marked with `…`.
    ///
    /// **Drops information**: the rest of every longer description is lost.
    pub fn brief() -> Self {
        TsOptions {
            max_description_len: Some(50),
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
/// assert_eq!(text, "{path: string /* File path */; tail?: number /* int >=1 */}");
/// ```
pub fn to_typescript(schema: &Value, options: &TsOptions) -> Result<String, ConvertError> {
    // Recursive targets are discovered while building; each discovery restarts the build with
    // one more named target, so every reference to it (the first included) uses the name.
    let doc = schema::normalize(schema)?;
    let mut named: Vec<(String, String)> = Vec::new();
    loop {
        let mut b = Builder {
            doc: &doc,
            opts: options,
            named: &named,
            stack: Vec::new(),
            level: 0,
            nodes: 0,
        };
        match b.run() {
            Ok((decls, root)) => return Ok(print_all(&decls, &root, &named, options)),
            Err(Fail::Error(e)) => return Err(e),
            Err(Fail::Restart(id)) => {
                let target = doc.def(id).target.clone();
                let name = unique_name(&target, schema, options, &named);
                named.push((target, name));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The intermediate form: a tree of TypeScript types with their comments.

#[derive(Debug, Clone)]
struct Node {
    ty: Ty,
    desc: Option<String>,
    notes: Vec<String>,
}

thread_local! {
    /// How many `Node` comparisons this thread has made (tests check the work grows linearly).
    static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        COMPARISONS.with(|c| c.set(c.get() + 1));
        self.ty == other.ty && self.desc == other.desc && self.notes == other.notes
    }
}

impl Eq for Node {}

impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.ty.hash(h);
        self.desc.hash(h);
        self.notes.hash(h);
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Obj {
    props: Vec<Prop>,
    /// Required names without a property schema (`name: unknown`).
    required: Vec<String>,
    extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Extra {
    /// `additionalProperties` absent or `true`.
    Open,
    /// `additionalProperties: false`.
    Closed,
    /// A schema for the other properties.
    Schema(Box<Node>),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Prop {
    name: String,
    optional: bool,
    node: Node,
}

/// Members without duplicates, in first-seen order: each new member is hashed once and compared
/// only with the members of equal hash, so adding `n` members takes linear time.
#[derive(Default)]
struct Distinct {
    items: Vec<Node>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl Distinct {
    fn push(&mut self, n: Node) {
        use std::hash::BuildHasher;
        let slot = self
            .by_hash
            .entry(HashState::default().hash_one(&n))
            .or_default();
        if slot.iter().all(|&i| self.items[i] != n) {
            slot.push(self.items.len());
            self.items.push(n);
        }
    }
}

/// A fixed hash state: the text must not depend on a random seed (it does not: equal hashes are
/// compared, and order is first-seen), and a fixed state is cheaper to build.
type HashState = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

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
// Building the tree from the normalized model (`convert::schema`): references, `allOf` and
// type arrays were resolved there; here each model node becomes a TypeScript node.

enum Fail {
    Error(ConvertError),
    /// The target is recursive: name it and start again.
    Restart(DefId),
}

type R<T> = Result<T, Fail>;

impl From<ConvertError> for Fail {
    fn from(e: ConvertError) -> Fail {
        Fail::Error(e)
    }
}

fn err<T>(pointer: &str, kind: ConvertErrorKind) -> R<T> {
    Err(Fail::Error(ConvertError::new(pointer, kind)))
}

fn malformed<T>(pointer: &str, msg: impl Into<String>) -> R<T> {
    err(pointer, ConvertErrorKind::Malformed(msg.into()))
}

struct Builder<'a> {
    doc: &'a Doc,
    opts: &'a TsOptions,
    /// Recursive targets (`$ref` strings) and their names.
    named: &'a [(String, String)],
    /// Definitions being expanded, with the instance level they were entered at.
    stack: Vec<(DefId, usize)>,
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
            self.stack.push((0, 0));
            self.build(self.doc.root(), 0)?
        };
        let mut decls = Vec::new();
        let named = self.named;
        for (target, name) in named {
            let Some(id) = self.doc.defs.iter().position(|d| d.target == *target) else {
                return err("", ConvertErrorKind::UnresolvableRef(target.clone()));
            };
            self.stack.clear();
            self.level = 0;
            self.stack.push((id, 0));
            let body = self.build(&self.doc.def(id).schema, 0)?;
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

    fn build(&mut self, s: &Schema, depth: usize) -> R<Node> {
        self.count(&s.at, depth)?;
        let notes = notes(&s.keywords, &s.at, self.opts)?;
        let mut node = self.shape(s, depth)?;
        for alts in &s.alternatives {
            node = Some(self.alternatives(alts, node, depth)?);
        }
        let mut node = node.unwrap_or_else(|| Node::of(Ty::Kw("unknown")));
        let mut notes = notes;
        if let Some(not) = &s.not {
            self.negation(not, depth, &mut node, &mut notes)?;
        }
        if s.desc.is_some() {
            node.desc.clone_from(&s.desc);
        }
        node.notes.extend(notes);
        Ok(node)
    }

    /// The node of a schema's shape (without its unions, `not` and comment); `None` when the
    /// schema has no shape of its own.
    fn shape(&mut self, s: &Schema, depth: usize) -> R<Option<Node>> {
        Ok(Some(match &s.kind {
            Kind::Any => return Ok(None),
            Kind::Never => Node::of(Ty::Kw("never")),
            Kind::Const(c) => Node::of(self.literal(c, &s.at, depth)?),
            Kind::Enum(values) => {
                let p = pointer::push(&s.at, "enum");
                let mut members = Vec::new();
                for v in values {
                    members.push(Node::of(self.literal(v, &p, depth)?));
                }
                union(members)
            }
            Kind::Scalar(t) => Node::of(Ty::Kw(match t {
                Scalar::String => "string",
                Scalar::Number | Scalar::Integer => "number",
                Scalar::Boolean => "boolean",
                Scalar::Null => "null",
            })),
            Kind::Object(o) => self.object(o, depth)?,
            Kind::Array(a) => self.array(a, depth)?,
            Kind::Union(members) => {
                // one shape per type of a type array, all at the schema's own depth
                let mut out = Vec::new();
                for m in members {
                    if let Some(n) = self.shape(m, depth)? {
                        out.push(n);
                    }
                }
                union(out)
            }
            Kind::All(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.push(self.build(p, depth + 1)?);
                }
                inter(out)
            }
            Kind::Ref(id) => self.reference(*id, &s.at, depth)?,
        }))
    }

    /// `not`: `{"not": {}}` makes the node `never`; any other `not` schema becomes a note
    /// `not T`. (A function of its own, so that `build`'s stack frame stays small.)
    #[inline(never)]
    fn negation(
        &mut self,
        not: &Schema,
        depth: usize,
        node: &mut Node,
        notes: &mut Vec<String>,
    ) -> R<()> {
        let n = self.build(not, depth + 1)?;
        if not.everything {
            // no value at all
            *node = Node::of(Ty::Kw("never"));
        } else if self.opts.include_constraints {
            let mut text = String::from("not ");
            Printer { opts: self.opts }.full(&n, 0, &mut text);
            notes.push(text);
        }
        Ok(())
    }

    fn object(&mut self, o: &Object, depth: usize) -> R<Node> {
        self.level += 1;
        let mut props = Vec::new();
        let mut absent = Vec::new();
        for p in &o.props {
            let node = self.build(&p.schema, depth + 1)?;
            if !p.required && node.ty == Ty::Kw("never") {
                // it can only be absent: left out, and the note says so
                absent.push(key(&p.name));
                continue;
            }
            props.push(Prop {
                optional: !p.required,
                name: p.name.clone(),
                node,
            });
        }
        let mut extra = match &o.extra {
            schema::Extra::Open => Extra::Open,
            schema::Extra::Closed => Extra::Closed,
            schema::Extra::Schema(s) => Extra::Schema(Box::new(self.build(s, depth + 1)?)),
        };
        if !o.patterns.is_empty() {
            let mut members = Vec::new();
            if let Extra::Schema(s) = std::mem::replace(&mut extra, Extra::Open) {
                members.push(*s);
            }
            for (re, sub) in &o.patterns {
                let mut n = self.build(sub, depth + 1)?;
                if self.opts.include_constraints {
                    n.notes.insert(0, format!("keys /{re}/"));
                }
                members.push(n);
            }
            extra = Extra::Schema(Box::new(union(members)));
        }
        self.level -= 1;
        let mut node = Node::of(Ty::Object(Obj {
            props,
            required: o.required.clone(),
            extra,
        }));
        if !absent.is_empty() {
            node.notes
                .push(format!("{} must be absent", absent.join(", ")));
        }
        if self.opts.include_constraints {
            for c in &o.clauses {
                let sets: Vec<String> = c.sets.iter().map(|s| s.join("+")).collect();
                let how = if c.one_of {
                    "exactly one of"
                } else {
                    "at least one of"
                };
                node.notes.push(format!("{how}: {}", sets.join(", ")));
            }
        }
        Ok(node)
    }

    fn array(&mut self, a: &schema::Array, depth: usize) -> R<Node> {
        self.level += 1;
        let ty = match &a.prefix {
            Some(prefix) => {
                let mut items = Vec::new();
                for s in prefix {
                    items.push(self.build(s, depth + 1)?);
                }
                let rest = match &a.items {
                    Some(s) => Some(Box::new(self.build(s, depth + 1)?)),
                    None => None,
                };
                Ty::Tuple(items, rest)
            }
            None => Ty::Array(Box::new(match &a.items {
                Some(s) => self.build(s, depth + 1)?,
                None => Node::of(Ty::Kw("unknown")),
            })),
        };
        self.level -= 1;
        Ok(Node::of(ty))
    }

    /// A definition: its alias name when it is named, else its node inline.
    fn reference(&mut self, id: DefId, at: &str, depth: usize) -> R<Node> {
        let def = self.doc.def(id);
        if let Some(name) = self.name_of(&def.target) {
            return Ok(Node::of(Ty::Named(name.to_string())));
        }
        if let Some((_, level)) = self.stack.iter().find(|(t, _)| *t == id) {
            return if *level == self.level {
                err(
                    &pointer::push(at, "$ref"),
                    ConvertErrorKind::RefCycle(def.target.clone()),
                )
            } else {
                Err(Fail::Restart(id))
            };
        }
        self.stack.push((id, self.level));
        let node = self.build(&def.schema, depth + 1)?;
        self.stack.pop();
        Ok(node)
    }

    /// A union beside a base node: the union alone, the union refining the base's type, or
    /// their intersection.
    fn alternatives(&mut self, alts: &Alternatives, base: Option<Node>, depth: usize) -> R<Node> {
        let mut members = Vec::new();
        for sub in &alts.branches {
            members.push(self.build(sub, depth + 1)?);
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

/// A union of members, flattening bare nested unions and dropping duplicates (in linear time:
/// a 100,000-value enum is one hash per value); one member is itself, none is `never`.
fn union(members: Vec<Node>) -> Node {
    let mut out = Distinct::default();
    for m in members {
        match m.ty {
            Ty::Union(inner) if m.desc.is_none() && m.notes.is_empty() => {
                for i in inner {
                    out.push(i);
                }
            }
            _ => out.push(m),
        }
    }
    let mut out = out.items;
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
        // `float`/`double` on a number and `int32`/`int64` on an integer restate the type
        // (OpenAPI's width formats, like the width bounds below): noise
        let restates = match f.as_str() {
            "float" | "double" => is_type(m, "number"),
            "int32" | "int64" => is_int,
            _ => false,
        };
        if !restates {
            out.push(format!("format {f}"));
        }
    }
    let b = bounds(m, ptr, is_int)?;
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
    // (a closed tuple's counts that restate its length were dropped by the normalizer)
    if let Some(n) = range(m, ptr, "minItems", "maxItems", "item", "items")? {
        out.push(n);
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
        // every default is kept; only a caller's cap shortens a long one
        let text = match opts.max_description_len {
            Some(max) => shorten(d.to_string(), max),
            None => d.to_string(),
        };
        out.push(format!("default {text}"));
    }
    if m.fget("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".to_string());
    }
    Ok(out)
}

/// Whether the schema's `type` is `t` (alone).
fn is_type(m: &Map<String, Value>, t: &str) -> bool {
    matches!(m.fget("type"), Some(Value::String(s)) if s == t)
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

/// The limits of the integer types of 32 bits and more (and JavaScript's exact-integer range):
/// a bound equal to one of them only restates the width of the type a schema was written from
/// (a Rust `u32` gives `maximum: 4294967295`), so an integer's note leaves it out.
const WIDTH_LIMITS: [i128; 10] = [
    i32::MIN as i128,
    i32::MAX as i128,
    u32::MAX as i128,
    i64::MIN as i128,
    i64::MAX as i128,
    u64::MAX as i128,
    -(1 << 53),
    -(1 << 53) + 1,
    (1 << 53) - 1,
    1 << 53,
];

/// Whether `n` is one of the [`WIDTH_LIMITS`].
fn width_limit(n: &serde_json::Number) -> bool {
    let v = if let Some(i) = n.as_i64() {
        i128::from(i)
    } else if let Some(u) = n.as_u64() {
        i128::from(u)
    } else {
        match n.as_f64() {
            // (the f64 of u64::MAX is 2^64, which is what a float schema would say)
            Some(f) if f.fract() == 0.0 && f.abs() < 1e20 => f as i128,
            _ => return false,
        }
    };
    WIDTH_LIMITS.contains(&v) || (v == 1 << 64 && n.is_f64())
}

/// `>=0`, `<=100`, `0-100`, `>0`, `<1`; for an integer (`is_int`), a bound that only restates
/// a wide type ([`WIDTH_LIMITS`]) is left out.
fn bounds(m: &Map<String, Value>, ptr: &str, is_int: bool) -> R<Vec<String>> {
    let num = |key: &str| -> R<Option<&serde_json::Number>> {
        match m.fget(key) {
            None => Ok(None),
            Some(Value::Number(n)) if is_int && width_limit(n) => Ok(None),
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
        out.push(format!(">={a}"));
    }
    if let Some(a) = xmin {
        out.push(format!(">{a}"));
    }
    if let Some(b) = max {
        out.push(format!("<={b}"));
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
/// From this many values on, a union of plain string literals is written as an indexed tuple.
const TUPLE_ENUM_MIN: usize = 4;
/// Between the properties of a one-line object: `;`, seed 003's form (`{path: string /* 文件路径
/// */; tail?: number}`). TypeScript also takes `,`, one token cheaper after a comment (`*/,`), but
/// the separator the specification shows is kept.
const PROP_SEP: &str = "; ";
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
            if self.opts.include_descriptions && self.opts.max_description_len != Some(0) {
                text = cut(d, self.opts.max_description_len);
            }
        }
        if !n.notes.is_empty() {
            if !text.is_empty() {
                text.push_str("; ");
            }
            // each note once (merged `allOf` parts and a `$ref` beside its target's own
            // keywords can repeat one)
            let mut seen = HashSet::new();
            for (i, note) in n.notes.iter().filter(|x| seen.insert(*x)).enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(note);
            }
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
            Ty::Union(ms) if ms.len() >= TUPLE_ENUM_MIN && ms.iter().all(bare_string) => {
                // `["a","b","c","d"][number]`: the JSON array of the values, indexed; `","` is
                // one token where `"|"` is two, so from four values on this is shorter
                out.push('[');
                for (i, m) in ms.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.ty(m, lvl, out);
                }
                out.push_str("][number]");
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
                // `object & ({a: A}|{b: B})`: the object literals say `object` already
                let kept: Vec<&Node> = if ms.iter().any(any_object)
                    && ms.iter().all(|m| any_object(m) || object_literal(m))
                    && ms.iter().any(object_literal)
                {
                    ms.iter().filter(|m| !any_object(m)).collect()
                } else {
                    ms.iter().collect()
                };
                if let [only] = kept[..] {
                    return self.full(only, lvl, out);
                }
                for (i, m) in kept.into_iter().enumerate() {
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
                out.push_str(PROP_SEP);
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

/// `object` without a comment: an object schema that says nothing about its properties.
fn any_object(n: &Node) -> bool {
    n.bare()
        && matches!(&n.ty, Ty::Object(o)
            if o.props.is_empty() && o.required.is_empty() && o.extra == Extra::Open)
}

/// An object literal type `{...}` (not `object`, not a map), or a union of them.
fn object_literal(n: &Node) -> bool {
    match &n.ty {
        Ty::Object(o) => !(o.props.is_empty() && o.required.is_empty()),
        Ty::Union(ms) => ms.iter().all(object_literal),
        _ => false,
    }
}

/// A string literal type without a comment.
fn bare_string(n: &Node) -> bool {
    n.bare() && matches!(&n.ty, Ty::Lit(l) if l.starts_with('"'))
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
/// characters when a cap is given (then ending in `…`, which is not counted).
fn cut(d: &str, max: Option<usize>) -> String {
    let mut words = String::with_capacity(d.len());
    for w in d.split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(w);
    }
    match max {
        Some(max) => shorten(words, max),
        None => words,
    }
}

/// `text` cut to at most `max` characters (Unicode scalar values), ending on a whole word when
/// one ends in the second half, and marked with `…` (not counted); unchanged when it fits.
fn shorten(text: String, max: usize) -> String {
    // (A string of at most `max` bytes has at most `max` characters.)
    if text.len() <= max || text.chars().count() <= max {
        return text;
    }
    let mut short: String = text.chars().take(max).collect();
    // End on a whole word when one ends in the second half: a broken word costs tokens and
    // says nothing.
    let next_is_space = text[short.len()..].starts_with(' ');
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
        assert_eq!(cut("文件路径很长", Some(4)), "文件路径…");
        assert_eq!(cut("a  b\n\nc", Some(10)), "a b c");
        assert_eq!(cut("a  b\n\nc", None), "a b c");
        assert_eq!(cut("abc def", Some(4)), "abc…");
        assert_eq!(cut("abcdef ghij", Some(9)), "abcdef…");
        assert_eq!(cut("ab cdefghij", Some(9)), "ab cdefgh…");
        assert_eq!(cut(&"long ".repeat(500), None).len(), 2499);
        assert_eq!(shorten("\"abc\"".into(), 0), "…");
    }

    #[test]
    fn idents() {
        assert_eq!(key("a_b$1"), "a_b$1");
        assert_eq!(key("a-b"), "\"a-b\"");
        assert_eq!(key("1a"), "\"1a\"");
        assert_eq!(ident("string"), "string_");
        assert_eq!(ident("my node"), "my_node");
    }

    /// `Node` comparisons made by one conversion on this thread.
    fn comparisons(schema: &Value) -> (String, u64) {
        let before = COMPARISONS.with(std::cell::Cell::get);
        let text = ts(schema.clone());
        (text, COMPARISONS.with(std::cell::Cell::get) - before)
    }

    /// Issue 15: 10,000 enum values took 6.8 s (every value compared with every earlier one).
    /// Counted in node comparisons, not seconds: the work per value stays flat from 1k to 100k
    /// values, with distinct values and with every value repeated.
    #[test]
    fn enum_dedup_is_linear() {
        let mut per_value = Vec::new();
        for n in [1_000usize, 10_000, 100_000] {
            let distinct: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
            let (text, distinct_cmp) = comparisons(&json!({"enum": distinct}));
            assert!(
                text.starts_with(r#"["v0","v1","#)
                    && text.ends_with(&format!(r#""v{}"][number]"#, n - 1))
            );
            // each value twice, and numbers beside strings
            let repeated: Vec<Value> = (0..2 * n)
                .map(|i| {
                    if i % 3 == 0 {
                        json!(i % n)
                    } else {
                        json!(format!("v{}", i % n))
                    }
                })
                .collect();
            let (_, repeated_cmp) = comparisons(&json!({"type": "string", "enum": repeated}));
            // a duplicate is found by one comparison; distinct values need none (barring a
            // 64-bit hash collision)
            assert!(distinct_cmp <= n as u64 / 100, "{n}: {distinct_cmp}");
            assert!(repeated_cmp <= 2 * n as u64, "{n}: {repeated_cmp}");
            per_value.push((distinct_cmp + repeated_cmp) as f64 / n as f64);
        }
        // flat per value (quadratic work would grow 10x per step)
        assert!(
            per_value.windows(2).all(|w| w[1] <= w[0] * 1.1 + 0.01),
            "{per_value:?}"
        );
        // the same for a type array and a union of branches with duplicates
        let branches: Vec<Value> = (0..20_000).map(|i| json!({"const": i % 10_000})).collect();
        let (text, cmp) = comparisons(&json!({"anyOf": branches}));
        assert!(text.ends_with("|9999"));
        assert!(cmp <= 10_000, "{cmp}");
    }

    /// 100,000 properties, all required, merged from two `allOf` parts: linear too (the
    /// required names and the merge are looked up by hash).
    #[test]
    fn many_properties_are_linear() {
        let n = 100_000;
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let required: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let schema = json!({"allOf": [
            {"type": "object", "properties": props.clone()},
            {"type": "object", "properties": props, "required": required}
        ]});
        let (text, cmp) = comparisons(&schema);
        assert!(
            text.starts_with("{p0: string; p1: string"),
            "{}",
            &text[..40]
        );
        assert!(!text.contains('?'));
        // one comparison per property of the second part (equal to the first one's)
        assert!(cmp <= 2 * n as u64, "{cmp}");
    }

    #[test]
    fn seed003_example() {
        let s = json!({"type":"object","properties":{"path":{"type":"string","description":"文件路径"},"tail":{"type":"number"}},"required":["path"]});
        // seed 003's text, exactly
        assert_eq!(ts(s), "{path: string /* 文件路径 */; tail?: number}");
        let plain = json!({"type":"object","properties":{"path":{"type":"string"},"optional":{"type":"number"}},"required":["path"]});
        // seed 003's §3.2, exactly
        assert_eq!(ts(plain), "{path: string; optional?: number}");
    }
}
