//! Pass 2: the tree of [`Node`]s becomes text: declarations first, then the root; comments
//! placed after a type or before an object literal, parentheses where precedence needs them,
//! descriptions on one line and cut only when the options ask for it.

use super::build::Decls;
use super::names::{ident, is_ident, key};
use super::node::{Extra, Node, Obj, Ty};
use super::TsOptions;
use std::collections::HashSet;
use std::fmt::Write as _;

/// How tightly a printed type binds: unions need parentheses inside intersections and arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
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

pub(super) fn print_all(
    decls: &Decls,
    root: &Node,
    named: &[(String, String)],
    opts: &TsOptions,
) -> String {
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

pub(super) struct Printer<'o> {
    pub(super) opts: &'o TsOptions,
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
    pub(super) fn full(&self, n: &Node, lvl: usize, out: &mut String) -> Prec {
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
pub(super) fn cut(d: &str, max: Option<usize>) -> String {
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
pub(super) fn shorten(text: String, max: usize) -> String {
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
