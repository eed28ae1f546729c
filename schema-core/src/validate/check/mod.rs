//! Walks a value against compiled nodes: every error with its JSON pointer (collecting mode), or
//! a yes/no answer that stops at the first failure.
//!
//! No input takes super-linear time: `anyOf` stops at the first passing branch unless its
//! annotations are needed, and the result of a subschema tried on one instance location (union
//! branches, `not`, `if`) is memoised, so nested unions of references are evaluated once per
//! (schema, location) pair.
//!
//! This file holds the walk (entry points, the context, `$ref`s, the keywords every value has,
//! `allOf`/`not`/`if`); the families with a walk of their own have a file each:
//! [`array`](mod@array), [`object`], [`union`] (`anyOf`/`oneOf`). Each walk decides where a
//! keyword applies and asks [`rules`] what it means (and how its error reads); the
//! subschema keywords (`items`, `properties`, `contains`, the union branches, ...) are
//! evaluated here. [`exact`] compares numbers and values exactly, [`words`] writes the words
//! the messages share.

/// One keyword's verdict `$ok` in a walk that returns whether the value passed: a failure
/// makes `$valid` false, and ends the walk unless it collects every error and has room left.
macro_rules! check {
    ($self:ident, $valid:ident, $ok:expr) => {
        if !$ok {
            $valid = false;
            if !$self.collect || $self.full() {
                return false;
            }
        }
    };
}

mod array;
mod exact;
mod object;
mod union;
mod words;

pub(crate) use exact::{canonical, cmp_num, is_multiple, json_eq, value_bits};
pub(crate) use words::{describe, list_values, plural, preview, push_token, type_names};

use super::compile::{
    deref, stack_mark, Compiled, Discriminator, Node, NodeId, STACK_BUDGET, T_INT,
};
use super::{format, rules, ValidationError, ValidationErrors};
use crate::keyed::Keyed;
use serde_json::{Map, Number, Value};
use std::rc::Rc;

/// Schema evaluation deeper than this (a `$ref` loop that never reaches the value) is an error.
const MAX_DEPTH: usize = 512;

/// Every error (up to `max`).
pub(crate) fn run(
    c: &Compiled,
    value: &Value,
    max: usize,
    null_as_absent: bool,
) -> ValidationErrors {
    let mut cx = Ctx::new(c, max, null_as_absent, true);
    let mut path = String::new();
    cx.eval(c.root, value, &mut path, 0, None);
    // Reaching the cap stops evaluation, so more errors may exist.
    let truncated = cx.truncated || cx.errors.len() >= max;
    ValidationErrors::from_vec(cx.errors, truncated)
}

/// As [`run`], for the value at `path` checked against node `id` (the streaming reader checks
/// each scalar once it is complete).
#[cfg(feature = "stream")]
pub(crate) fn run_at(c: &Compiled, id: NodeId, value: &Value, path: &str) -> ValidationErrors {
    let mut cx = Ctx::new(c, 1, true, true);
    let mut path = path.to_string();
    cx.eval(id, value, &mut path, 0, None);
    ValidationErrors::from_vec(cx.errors, cx.truncated)
}

/// Whether `value` is valid, stopping at the first failure.
pub(crate) fn is_valid(c: &Compiled, value: &Value) -> bool {
    let mut cx = Ctx::new(c, 1, false, false);
    let mut path = String::new();
    cx.eval(c.root, value, &mut path, 0, None)
}

/// Evaluation steps (subschemas entered plus values compared) for collecting every error.
pub(crate) fn steps(c: &Compiled, value: &Value) -> u64 {
    let mut cx = Ctx::new(c, usize::MAX, false, true);
    let mut path = String::new();
    cx.eval(c.root, value, &mut path, 0, None);
    cx.steps
}

/// Which properties / items of the current instance some subschema evaluated (for
/// `unevaluatedProperties` / `unevaluatedItems`).
#[derive(Default)]
struct Ann {
    props: Vec<bool>,
    all_props: bool,
    items: Vec<bool>,
    all_items: bool,
}

impl Ann {
    fn prop(&mut self, i: usize, len: usize) {
        if self.props.len() < len {
            self.props.resize(len, false);
        }
        self.props[i] = true;
    }
    fn item(&mut self, i: usize, len: usize) {
        if self.items.len() < len {
            self.items.resize(len, false);
        }
        self.items[i] = true;
    }
    fn merge(&mut self, other: &Ann) {
        self.all_props |= other.all_props;
        self.all_items |= other.all_items;
        if self.props.len() < other.props.len() {
            self.props.resize(other.props.len(), false);
        }
        for (a, b) in self.props.iter_mut().zip(&other.props) {
            *a |= *b;
        }
        if self.items.len() < other.items.len() {
            self.items.resize(other.items.len(), false);
        }
        for (a, b) in self.items.iter_mut().zip(&other.items) {
            *a |= *b;
        }
    }
    fn has_prop(&self, i: usize) -> bool {
        self.all_props || self.props.get(i).copied().unwrap_or(false)
    }
    fn has_item(&self, i: usize) -> bool {
        self.all_items || self.items.get(i).copied().unwrap_or(false)
    }
}

type MemoKey = (NodeId, *const Value);

struct Ctx<'a> {
    c: &'a Compiled,
    nodes: &'a [Node],
    errors: Vec<ValidationError>,
    max: usize,
    truncated: bool,
    /// Parsing mode: a `null` property the schema does not accept is read as absent (strict
    /// dialects make models write `null` for an absent optional value).
    null_as_absent: bool,
    /// Collect errors (false: stop at the first failure, report nothing).
    collect: bool,
    /// The dynamic scope: resources entered, outermost first (only kept when some reference
    /// depends on it).
    scope: Vec<usize>,
    // `Keyed`, not `HashMap`: both memo tables share one hash-table instantiation (see
    // `crate::keyed`).
    memo_valid: Keyed<MemoKey, bool>,
    memo_errors: Keyed<MemoKey, Rc<Vec<ValidationError>>>,
    /// Values evaluated here are temporaries (property names): their addresses are no key.
    no_memo: usize,
    steps: u64,
    stack_base: usize,
}

impl<'a> Ctx<'a> {
    fn new(c: &'a Compiled, max: usize, null_as_absent: bool, collect: bool) -> Ctx<'a> {
        Ctx {
            c,
            nodes: &c.nodes,
            errors: Vec::new(),
            max,
            truncated: false,
            null_as_absent,
            collect,
            scope: Vec::new(),
            memo_valid: Keyed::new(),
            memo_errors: Keyed::new(),
            no_memo: 0,
            steps: 0,
            stack_base: stack_mark(),
        }
    }

    fn full(&self) -> bool {
        self.errors.len() >= self.max
    }

    /// Records a failure; returns whether evaluation should go on looking for more.
    fn fail(
        &mut self,
        path: &str,
        keyword: &'static str,
        expected: impl FnOnce() -> String,
        found: impl FnOnce() -> String,
    ) -> bool {
        // The generic shell stays small (28 call sites each instantiate it with their own
        // closures); the bookkeeping lives in the two non-generic helpers below.
        if !self.wants_error() {
            return false;
        }
        self.push_error(path, keyword, expected(), found())
    }

    /// Records the failed rule `b` of `v` (as [`fail`](Ctx::fail)).
    fn broken(&mut self, path: &str, b: &rules::Broken<'_>, v: &Value) -> bool {
        self.fail(
            path,
            b.keyword(),
            || b.expected(),
            || b.found(|| preview(v)),
        )
    }

    /// Records the failed rule `b`, whose message does not show the value (as
    /// [`fail`](Ctx::fail)).
    fn broken_of(&mut self, path: &str, b: &rules::Broken<'_>) -> bool {
        self.fail(path, b.keyword(), || b.expected(), || b.found(String::new))
    }

    /// Whether an error is recorded at all (`collect` on and the cap not reached); marks the
    /// result truncated when the cap is reached.
    fn wants_error(&mut self) -> bool {
        if !self.collect {
            return false;
        }
        if self.full() {
            self.truncated = true;
            return false;
        }
        true
    }

    /// Records one error; whether evaluation should go on collecting.
    fn push_error(
        &mut self,
        path: &str,
        keyword: &'static str,
        expected: String,
        found: String,
    ) -> bool {
        self.errors.push(ValidationError {
            path: path.to_string(),
            keyword,
            expected,
            found,
        });
        !self.full()
    }

    fn memo_ok(&self) -> bool {
        !self.c.dynamic && self.no_memo == 0
    }

    /// Whether `id` accepts `v`, without reporting (memoised per location).
    fn quiet(
        &mut self,
        id: NodeId,
        v: &Value,
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        let key = (id, v as *const Value);
        let memo = ann.is_none() && self.memo_ok();
        if memo {
            if let Some(&r) = self.memo_valid.get(&key) {
                return r;
            }
        }
        let saved = (
            std::mem::take(&mut self.errors),
            self.collect,
            self.max,
            self.truncated,
        );
        self.collect = false;
        self.max = 1;
        let ok = self.eval(id, v, path, depth, ann);
        (self.errors, self.collect, self.max, self.truncated) = saved;
        if memo {
            self.memo_valid.insert(key, ok);
        }
        ok
    }

    /// The errors `id` reports for `v` (memoised per location).
    fn errors_of(
        &mut self,
        id: NodeId,
        v: &Value,
        path: &mut String,
        depth: usize,
    ) -> Rc<Vec<ValidationError>> {
        let key = (id, v as *const Value);
        let memo = self.memo_ok();
        if memo {
            if let Some(r) = self.memo_errors.get(&key) {
                return r.clone();
            }
        }
        let saved = (
            std::mem::take(&mut self.errors),
            self.collect,
            self.max,
            self.truncated,
        );
        self.collect = true;
        self.max = saved.2.clamp(8, 64);
        self.eval(id, v, path, depth, None);
        let errors = Rc::new(std::mem::take(&mut self.errors));
        (self.errors, self.collect, self.max, self.truncated) = saved;
        if memo {
            self.memo_errors.insert(key, errors.clone());
        }
        errors
    }

    fn eval(
        &mut self,
        id: NodeId,
        v: &Value,
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        self.steps += 1;
        if self.collect && self.full() {
            self.truncated = true;
            return false;
        }
        if depth > MAX_DEPTH || self.stack_base.abs_diff(stack_mark()) > STACK_BUDGET {
            self.fail(
                path,
                "$ref",
                || "a schema that reaches a value".into(),
                || format!("schema evaluation nested deeper than this validator follows ({depth} levels)"),
            );
            return false;
        }
        let nodes = self.nodes;
        let n = &nodes[id];
        if let Err(b) = rules::falsy(n) {
            self.broken(path, &b, v);
            return false;
        }
        let pushed = self.c.dynamic && self.scope.last() != Some(&n.res);
        if pushed {
            self.scope.push(n.res);
        }
        let needs_ann = n.unevaluated_items.is_some() || n.unevaluated_properties.is_some();
        let mut local = (ann.is_some() || needs_ann).then(Ann::default);
        let ok = self.keywords(n, v, path, depth, local.as_mut());
        if pushed {
            self.scope.pop();
        }
        if ok {
            if let (Some(parent), Some(mine)) = (ann, local.as_ref()) {
                parent.merge(mine);
            }
        }
        ok
    }

    fn keywords(
        &mut self,
        n: &Node,
        v: &Value,
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let mut valid = true;
        if let Some(r) = n.reference {
            check!(
                self,
                valid,
                self.eval(r, v, path, depth + 1, ann.as_deref_mut())
            );
        }
        if let Some(d) = &n.dynamic_ref {
            let target = self.dynamic_target(d);
            check!(
                self,
                valid,
                self.eval(target, v, path, depth + 1, ann.as_deref_mut())
            );
        }
        let mut bits = value_bits(v);
        // Without arbitrary precision, only a small float tells that the text had a fraction
        // part (`1.0`): an integer that small would have parsed as one.
        if n.strict_integer
            && v.as_number()
                .and_then(Number::as_f64)
                .is_some_and(|f| v.as_number().is_some_and(Number::is_f64) && f.abs() < 1e15)
        {
            bits &= !T_INT;
        }
        if let Err(b) = rules::type_of(n, bits) {
            self.broken(path, &b, v);
            return false;
        }
        if let Err(b) = rules::const_value(n, v) {
            check!(self, valid, self.broken(path, &b, v));
        }
        if let Err(b) = rules::enum_values(n, v, &mut self.steps) {
            check!(self, valid, self.broken(path, &b, v));
        }
        let ok = match v {
            Value::String(s) => self.string(n, s, v, path),
            Value::Number(num) => self.number(n, num, v, path),
            Value::Array(a) => self.array(n, a, path, depth, ann.as_deref_mut()),
            Value::Object(o) => self.object(n, v, o, path, depth, ann.as_deref_mut()),
            _ => true,
        };
        check!(self, valid, ok);
        for &a in &n.all_of {
            check!(
                self,
                valid,
                self.eval(a, v, path, depth + 1, ann.as_deref_mut())
            );
        }
        if !n.any_of.is_empty() {
            let d = n.discriminator.as_ref();
            check!(
                self,
                valid,
                self.union(&n.any_of, d, false, v, path, depth, ann.as_deref_mut())
            );
        }
        if !n.one_of.is_empty() {
            let d = n.one_of_discriminator.as_ref();
            check!(
                self,
                valid,
                self.union(&n.one_of, d, true, v, path, depth, ann.as_deref_mut())
            );
        }
        if let Some(not) = n.not {
            if self.quiet(not, v, path, depth + 1, None) {
                check!(
                    self,
                    valid,
                    self.fail(
                        path,
                        "not",
                        || "a value that does not match the `not` schema".into(),
                        || preview(v)
                    )
                );
            }
        }
        if let Some(cond) = n.if_ {
            let mut a = ann.is_some().then(Ann::default);
            let branch = if self.quiet(cond, v, path, depth + 1, a.as_mut()) {
                if let (Some(parent), Some(a)) = (ann.as_deref_mut(), a.as_ref()) {
                    parent.merge(a);
                }
                n.then_
            } else {
                n.else_
            };
            if let Some(b) = branch {
                check!(
                    self,
                    valid,
                    self.eval(b, v, path, depth + 1, ann.as_deref_mut())
                );
            }
        }
        if valid {
            // Last: they see what every other keyword evaluated.
            match v {
                Value::Array(a) => {
                    if let Some(u) = n.unevaluated_items {
                        check!(
                            self,
                            valid,
                            self.unevaluated_items(u, a, path, depth, ann.as_deref_mut())
                        );
                    }
                }
                Value::Object(o) => {
                    if let Some(u) = n.unevaluated_properties {
                        check!(self, valid, self.unevaluated_props(u, o, path, depth, ann));
                    }
                }
                _ => {}
            }
        }
        valid
    }

    fn dynamic_target(&self, d: &super::compile::DynamicRef) -> NodeId {
        for &r in &self.scope {
            let res = &self.c.resources[r];
            if d.name.is_empty() {
                if let Some(id) = res.recursive_anchor {
                    return id;
                }
            } else if let Some((_, id)) = res.dynamic.iter().find(|(n, _)| *n == d.name) {
                return *id;
            }
        }
        d.fallback
    }

    fn string(&mut self, n: &Node, s: &str, v: &Value, path: &str) -> bool {
        let mut valid = true;
        let mut report = |cx: &mut Self, r: Result<(), rules::Broken<'_>>| match r {
            Ok(()) => true,
            Err(b) => {
                valid = false;
                cx.broken(path, &b, v)
            }
        };
        if n.min_length.is_some() || n.max_length.is_some() {
            let len = s.chars().count() as u64;
            if !report(self, rules::min_length(n, len)) || !report(self, rules::max_length(n, len))
            {
                return false;
            }
        }
        let r = rules::pattern(n, s, &mut self.steps);
        if !report(self, r) || !report(self, rules::format(n, s)) {
            return false;
        }
        if n.content_base64 || n.content_json {
            let decoded = if n.content_base64 {
                format::base64_decode(s)
            } else {
                Some(s.as_bytes().to_vec())
            };
            match decoded {
                None => {
                    valid = false;
                    self.fail(
                        path,
                        "contentEncoding",
                        || "base64 text".into(),
                        || preview(v),
                    );
                }
                Some(bytes) if n.content_json => {
                    if serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_err() {
                        valid = false;
                        self.fail(
                            path,
                            "contentMediaType",
                            || "text holding a JSON document".into(),
                            || preview(v),
                        );
                    }
                }
                Some(_) => {}
            }
        }
        valid
    }

    fn number(&mut self, n: &Node, num: &Number, v: &Value, path: &str) -> bool {
        let mut valid = true;
        for rule in rules::NUMBER_RULES {
            if let Err(b) = rule(n, num) {
                valid = false;
                if !self.broken(path, &b, v) {
                    return false;
                }
            }
        }
        valid
    }
}
