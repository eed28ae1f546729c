//! Pass 1 (after normalizing): the model (`convert::schema`) becomes a tree of [`Node`]s.
//! References, `allOf` and type arrays were resolved by the normalizer; here each model node
//! becomes a TypeScript node, a definition reached again through an object or array is named
//! (`Fail::Restart` unwinds to where it was entered, which uses the name from there on; nothing
//! built before refers to it, so the text is what a fresh build with the name known would
//! write, without building again: linear, where a restart per recursive definition was
//! quadratic), and named aliases that only reach themselves through unions are rejected.

use super::names::{key, unique_name};
use super::node::{inter, members_of, union, Extra, Node, Obj, Prop, Ty};
use super::notes::notes;
use super::print::Printer;
use super::{TsOptions, MAX_DEPTH, MAX_NODES};
use crate::convert::schema::{self, Alternatives, DefId, Doc, Kind, Object, Scalar, Schema};
use crate::convert::{pointer, ConvertError, ConvertErrorKind};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

pub(super) enum Fail {
    Error(ConvertError),
    /// The target is recursive: unwind to where it was entered, and name it.
    Restart(DefId),
}

pub(super) type R<T> = Result<T, Fail>;

#[cfg(test)]
thread_local! {
    /// How many schemas this thread built into nodes (tests check the work grows linearly).
    pub(super) static BUILDS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The most schemas a definition used more than once is written inline with (each use a copy);
/// a longer one is declared once as a named alias.
const SHARED_INLINE_MAX: usize = 24;

impl From<ConvertError> for Fail {
    fn from(e: ConvertError) -> Fail {
        Fail::Error(e)
    }
}

pub(super) fn err<T>(pointer: &str, kind: ConvertErrorKind) -> R<T> {
    Err(Fail::Error(ConvertError::new(pointer, kind)))
}

pub(super) struct Builder<'a> {
    doc: &'a Doc,
    opts: &'a TsOptions,
    /// The input schema (its `title` names a recursive root).
    input: &'a Value,
    /// Recursive targets (`$ref` strings) and their names, in the order they were found.
    pub(super) named: Vec<(String, String)>,
    /// The definition of each entry of `named`.
    named_ids: Vec<DefId>,
    /// Target -> its entry in `named`.
    name_index: HashMap<String, usize>,
    /// The names in `named`.
    names_taken: HashSet<String>,
    /// Definitions being expanded, with the instance level they were entered at.
    stack: Vec<(DefId, usize)>,
    /// How many object/array steps into the instance we are.
    level: usize,
    nodes: usize,
}

pub(super) type Decls = Vec<(String, Node)>;

impl<'a> Builder<'a> {
    /// A builder of the text of `doc`, read from `input`.
    pub(super) fn new(doc: &'a Doc, opts: &'a TsOptions, input: &'a Value) -> Self {
        Builder {
            doc,
            opts,
            input,
            named: Vec::new(),
            named_ids: Vec::new(),
            name_index: HashMap::new(),
            names_taken: HashSet::new(),
            stack: Vec::new(),
            level: 0,
            nodes: 0,
        }
    }

    /// The root's node and the declarations of the recursive definitions (each built once; a
    /// declaration may find more of them, declared after it).
    pub(super) fn run(&mut self) -> R<(Decls, Node)> {
        self.stack.push((0, 0));
        let root = match self.build(self.doc.root(), 0) {
            Ok(root) => root,
            // the root reaches itself: declared, and named here
            Err(Fail::Restart(0)) => {
                self.stack.clear();
                self.level = 0;
                self.nodes = 0;
                Node::of(Ty::Named(self.name(0)))
            }
            Err(e) => return Err(e),
        };
        let mut decls = Vec::new();
        let mut i = 0;
        while let Some(&id) = self.named_ids.get(i) {
            self.stack.clear();
            self.level = 0;
            self.stack.push((id, 0));
            let body = self.build(&self.doc.def(id).schema, 0)?;
            decls.push((self.named[i].1.clone(), body));
            i += 1;
        }
        check_alias_cycles(&decls, &self.named)?;
        Ok((decls, root))
    }

    fn name_of(&self, target: &str) -> Option<&str> {
        let i = *self.name_index.get(target)?;
        Some(self.named[i].1.as_str())
    }

    /// Names the recursive definition `id` (its name unique among the names so far).
    fn name(&mut self, id: DefId) -> String {
        let target = self.doc.def(id).target.clone();
        let name = unique_name(&target, self.input, self.opts, &self.names_taken);
        self.name_index.insert(target.clone(), self.named.len());
        self.names_taken.insert(name.clone());
        self.named.push((target, name.clone()));
        self.named_ids.push(id);
        name
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
        #[cfg(test)]
        BUILDS.with(|c| c.set(c.get() + 1));
        self.count(&s.at, depth)?;
        let notes = notes(s, self.opts);
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
            required: o.rest_required(),
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
        let (entered, level, nodes) = (self.stack.len(), self.level, self.nodes);
        self.stack.push((id, self.level));
        match self.build(&def.schema, depth + 1) {
            Ok(node) => {
                self.stack.pop();
                // A definition more than one `$ref` names, whose text is long: named and
                // declared once, so that the text stays linear in the input (definitions that
                // each use the next twice doubled it at every step).
                if def.shared && self.nodes - nodes > SHARED_INLINE_MAX {
                    return Ok(Node::of(Ty::Named(self.name(id))));
                }
                Ok(node)
            }
            // reached again below: named from here on, as if known from the start
            Err(Fail::Restart(again)) if again == id => {
                self.stack.truncate(entered);
                self.level = level;
                self.nodes = nodes;
                Ok(Node::of(Ty::Named(self.name(id))))
            }
            Err(e) => Err(e),
        }
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

fn ref_pointer(r: &str) -> &str {
    r.strip_prefix('#').unwrap_or(r)
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
    let index: HashMap<&str, usize> = decls
        .iter()
        .enumerate()
        .map(|(i, (d, _))| (d.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = decls
        .iter()
        .map(|(_, body)| {
            let mut names = Vec::new();
            top_names(body, &mut names);
            names.iter().filter_map(|n| index.get(n).copied()).collect()
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
