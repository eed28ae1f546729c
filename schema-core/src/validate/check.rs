//! Walks a value against compiled nodes: every error with its JSON pointer (collecting mode), or
//! a yes/no answer that stops at the first failure.
//!
//! No input takes super-linear time: `anyOf` stops at the first passing branch unless its
//! annotations are needed, and the result of a subschema tried on one instance location (union
//! branches, `not`, `if`) is memoised, so nested unions of references are evaluated once per
//! (schema, location) pair.

use super::compile::{
    deref, stack_mark, Additional, Compiled, Discriminator, Node, NodeId, STACK_BUDGET, T_ARR,
    T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use super::{format, ValidationError, ValidationErrors};
use crate::keyed::Keyed;
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::collections::HashSet;
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

pub(crate) fn value_bits(v: &Value) -> u8 {
    match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOL,
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                T_INT | T_NUM
            } else {
                T_NUM
            }
        }
        Value::String(_) => T_STR,
        Value::Array(_) => T_ARR,
        Value::Object(_) => T_OBJ,
    }
}

pub(crate) fn type_names(bits: u8) -> String {
    let mut names = Vec::new();
    if bits & T_OBJ != 0 {
        names.push("object");
    }
    if bits & T_ARR != 0 {
        names.push("array");
    }
    if bits & T_STR != 0 {
        names.push("string");
    }
    if bits & T_NUM != 0 {
        names.push("number");
    } else if bits & T_INT != 0 {
        names.push("integer");
    }
    if bits & T_BOOL != 0 {
        names.push("boolean");
    }
    if bits & T_NULL != 0 {
        names.push("null");
    }
    names.join(" or ")
}

/// A short picture of a value for an error message.
pub(crate) fn preview(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("{:?}…", cut)
            } else {
                format!("{s:?}")
            }
        }
        Value::Array(a) => format!("an array of {} item{}", a.len(), plural(a.len())),
        Value::Object(o) if o.is_empty() => "an empty object".into(),
        Value::Object(_) => "an object".into(),
        other => other.to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(crate) fn list_values(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().take(12).map(|v| v.to_string()).collect();
    let mut s = shown.join(", ");
    if values.len() > 12 {
        s.push_str(&format!(", … ({} values)", values.len()));
    }
    s
}

pub(crate) fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// A JSON number as an exact decimal: sign, digits without trailing zeros, power of ten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    neg: bool,
    mant: u128,
    exp: i32,
}

/// The exact decimal value of a number as written by serde_json (integers exactly, floats by
/// their shortest round-trip text, which is the value the JSON text denoted).
pub(crate) fn decimal(n: &Number) -> Decimal {
    let text = n.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.as_str()),
    };
    let (digits, e) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (body, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let frac = frac.trim_end_matches('0');
    let mut mant: u128 = 0;
    let mut exp = e - frac.len() as i32;
    for b in int.bytes().chain(frac.bytes()) {
        mant = mant.saturating_mul(10).saturating_add(u128::from(b - b'0'));
    }
    if mant == 0 {
        return Decimal {
            neg: false,
            mant: 0,
            exp: 0,
        };
    }
    while mant % 10 == 0 {
        mant /= 10;
        exp += 1;
    }
    Decimal { neg, mant, exp }
}

fn digit_count(mut m: u128) -> i32 {
    let mut n = 0;
    while m > 0 {
        m /= 10;
        n += 1;
    }
    n
}

fn cmp_magnitude(a: Decimal, b: Decimal) -> Ordering {
    match (a.mant == 0, b.mant == 0) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let (da, db) = (digit_count(a.mant), digit_count(b.mant));
    match (da + a.exp).cmp(&(db + b.exp)) {
        Ordering::Equal => {}
        o => return o,
    }
    // Same order of magnitude: compare the digit strings padded to the same length.
    let (mut x, mut y) = (a.mant, b.mant);
    let (mut dx, mut dy) = (da, db);
    while dx < dy {
        x *= 10;
        dx += 1;
    }
    while dy < dx {
        y *= 10;
        dy += 1;
    }
    x.cmp(&y)
}

fn cmp_decimal(a: Decimal, b: Decimal) -> Ordering {
    match (a.neg, b.neg) {
        (false, false) => cmp_magnitude(a, b),
        (true, true) => cmp_magnitude(b, a),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// Compares two JSON numbers exactly.
pub(crate) fn cmp_num(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    Some(cmp_decimal(decimal(a), decimal(b)))
}

/// Whether `v` is an exact multiple of `m` (decimal arithmetic, no float tolerance).
pub(crate) fn is_multiple(v: &Number, m: &Number) -> bool {
    if let (Some(x), Some(y)) = (v.as_i64(), m.as_i64()) {
        return y != 0 && x % y == 0;
    }
    let (x, y) = (decimal(v), decimal(m));
    if y.mant == 0 {
        return false;
    }
    if x.mant == 0 {
        return true;
    }
    if x.exp >= y.exp {
        // x = xm * 10^(xe - ye) in units of 10^ye: reduce modulo ym step by step.
        let mut r = x.mant % y.mant;
        for _ in 0..(x.exp - y.exp) {
            r = (r * 10) % y.mant;
        }
        r == 0
    } else {
        // m = ym * 10^(ye - xe) in units of 10^xe; x is smaller than m unless it has more digits.
        let shift = y.exp - x.exp;
        if digit_count(y.mant) + shift > digit_count(x.mant) {
            return false;
        }
        let ym = y.mant * 10u128.pow(shift as u32);
        x.mant % ym == 0
    }
}

/// Equality as JSON Schema defines it (1 and 1.0 are equal).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_num(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A canonical text of a value (sorted keys, numbers by exact value), for uniqueness in linear
/// time.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Number(n) => {
            let d = decimal(n);
            out.push_str(&format!(
                "{}{}e{}",
                if d.neg { "-" } else { "" },
                d.mant,
                d.exp
            ));
        }
        Value::Array(a) => {
            out.push('[');
            for x in a {
                canonical(x, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(o) => {
            // `&str` and unstable (keys are distinct): the sort the guided path already
            // instantiates, so no second copy of the sorting code.
            let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
            keys.sort_unstable();
            out.push('{');
            for k in keys {
                out.push_str(&format!("{k:?}:"));
                canonical(&o[k], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
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
        if n.falsy {
            self.fail(
                path,
                "false",
                || "nothing (no value is allowed here)".into(),
                || preview(v),
            );
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
        macro_rules! check {
            ($ok:expr) => {
                if !$ok {
                    valid = false;
                    if !self.collect || self.full() {
                        return false;
                    }
                }
            };
        }
        if let Some(r) = n.reference {
            check!(self.eval(r, v, path, depth + 1, ann.as_deref_mut()));
        }
        if let Some(d) = &n.dynamic_ref {
            let target = self.dynamic_target(d);
            check!(self.eval(target, v, path, depth + 1, ann.as_deref_mut()));
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
        if n.types != 0 && n.types & bits == 0 {
            self.fail(path, "type", || type_names(n.types), || preview(v));
            return false;
        }
        if let Some(c) = &n.const_value {
            if !json_eq(c, v) {
                check!(self.fail(path, "const", || c.to_string(), || preview(v)));
            }
        }
        if let Some(e) = &n.enum_values {
            let pos = e.iter().position(|x| json_eq(x, v));
            self.steps += pos.map_or(e.len(), |p| p + 1) as u64;
            if pos.is_none() {
                check!(self.fail(
                    path,
                    "enum",
                    || format!("one of {}", list_values(e)),
                    || preview(v)
                ));
            }
        }
        let ok = match v {
            Value::String(s) => self.string(n, s, v, path),
            Value::Number(num) => self.number(n, num, path),
            Value::Array(a) => self.array(n, a, path, depth, ann.as_deref_mut()),
            Value::Object(o) => self.object(n, v, o, path, depth, ann.as_deref_mut()),
            _ => true,
        };
        check!(ok);
        for &a in &n.all_of {
            check!(self.eval(a, v, path, depth + 1, ann.as_deref_mut()));
        }
        if !n.any_of.is_empty() {
            let d = n.discriminator.as_ref();
            check!(self.union(&n.any_of, d, false, v, path, depth, ann.as_deref_mut()));
        }
        if !n.one_of.is_empty() {
            let d = n.one_of_discriminator.as_ref();
            check!(self.union(&n.one_of, d, true, v, path, depth, ann.as_deref_mut()));
        }
        if let Some(not) = n.not {
            if self.quiet(not, v, path, depth + 1, None) {
                check!(self.fail(
                    path,
                    "not",
                    || "a value that does not match the `not` schema".into(),
                    || preview(v)
                ));
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
                check!(self.eval(b, v, path, depth + 1, ann.as_deref_mut()));
            }
        }
        if valid {
            // Last: they see what every other keyword evaluated.
            match v {
                Value::Array(a) => {
                    if let Some(u) = n.unevaluated_items {
                        check!(self.unevaluated_items(u, a, path, depth, ann.as_deref_mut()));
                    }
                }
                Value::Object(o) => {
                    if let Some(u) = n.unevaluated_properties {
                        check!(self.unevaluated_props(u, o, path, depth, ann));
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

    fn unevaluated_items(
        &mut self,
        u: NodeId,
        a: &[Value],
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        let Some(ann) = ann else { return true };
        let base = path.len();
        let mut valid = true;
        for (i, item) in a.iter().enumerate() {
            if ann.has_item(i) {
                continue;
            }
            path.push('/');
            path.push_str(&i.to_string());
            let ok = self.eval(u, item, path, depth + 1, None);
            path.truncate(base);
            if !ok {
                valid = false;
                if !self.collect || self.full() {
                    return false;
                }
            }
        }
        if valid {
            ann.all_items = true;
        }
        valid
    }

    fn unevaluated_props(
        &mut self,
        u: NodeId,
        o: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        let Some(ann) = ann else { return true };
        let base = path.len();
        let mut valid = true;
        for (i, (key, value)) in o.iter().enumerate() {
            if ann.has_prop(i) {
                continue;
            }
            push_token(path, key);
            let ok = self.eval(u, value, path, depth + 1, None);
            path.truncate(base);
            if !ok {
                valid = false;
                if !self.collect || self.full() {
                    return false;
                }
            }
        }
        if valid {
            ann.all_props = true;
        }
        valid
    }

    fn string(&mut self, n: &Node, s: &str, v: &Value, path: &str) -> bool {
        let mut valid = true;
        if n.min_length.is_some() || n.max_length.is_some() {
            let len = s.chars().count() as u64;
            if let Some(min) = n.min_length.filter(|&m| len < m) {
                valid = false;
                if !self.fail(
                    path,
                    "minLength",
                    || format!("at least {min} character{}", plural(min as usize)),
                    || format!("{len} character{}", plural(len as usize)),
                ) {
                    return false;
                }
            }
            if let Some(max) = n.max_length.filter(|&m| len > m) {
                valid = false;
                if !self.fail(
                    path,
                    "maxLength",
                    || format!("at most {max} character{}", plural(max as usize)),
                    || format!("{len} character{}", plural(len as usize)),
                ) {
                    return false;
                }
            }
        }
        if let Some((src, re)) = &n.pattern {
            if !re.is_match(s) {
                valid = false;
                if !self.fail(
                    path,
                    "pattern",
                    || format!("a string matching /{src}/"),
                    || preview(v),
                ) {
                    return false;
                }
            }
        }
        if let Some(f) = &n.format {
            if !format::check(f, s) {
                valid = false;
                if !self.fail(path, "format", || format!("a valid {f}"), || preview(v)) {
                    return false;
                }
            }
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

    fn number(&mut self, n: &Node, num: &Number, path: &str) -> bool {
        use Ordering::*;
        let found = || num.to_string();
        let mut valid = true;
        let mut go = |cx: &mut Self, failed: bool, kw: &'static str, exp: &dyn Fn() -> String| {
            if failed {
                valid = false;
                cx.fail(path, kw, exp, found)
            } else {
                true
            }
        };
        if let Some(m) = &n.minimum {
            if !go(self, cmp_num(num, m) == Some(Less), "minimum", &|| {
                format!("a number >= {m}")
            }) {
                return false;
            }
        }
        if let Some(m) = &n.maximum {
            if !go(self, cmp_num(num, m) == Some(Greater), "maximum", &|| {
                format!("a number <= {m}")
            }) {
                return false;
            }
        }
        if let Some(m) = &n.exclusive_minimum {
            if !go(
                self,
                cmp_num(num, m) != Some(Greater),
                "exclusiveMinimum",
                &|| format!("a number > {m}"),
            ) {
                return false;
            }
        }
        if let Some(m) = &n.exclusive_maximum {
            if !go(
                self,
                cmp_num(num, m) != Some(Less),
                "exclusiveMaximum",
                &|| format!("a number < {m}"),
            ) {
                return false;
            }
        }
        if let Some(m) = &n.multiple_of {
            if !go(self, !is_multiple(num, m), "multipleOf", &|| {
                format!("a multiple of {m}")
            }) {
                return false;
            }
        }
        valid
    }

    fn array(
        &mut self,
        n: &Node,
        a: &[Value],
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let len = a.len() as u64;
        let mut valid = true;
        macro_rules! check {
            ($ok:expr) => {
                if !$ok {
                    valid = false;
                    if !self.collect || self.full() {
                        return false;
                    }
                }
            };
        }
        if let Some(min) = n.min_items.filter(|&m| len < m) {
            check!(self.fail(
                path,
                "minItems",
                || format!("at least {min} item{}", plural(min as usize)),
                || format!("{len} item{}", plural(len as usize)),
            ));
        }
        if let Some(max) = n.max_items.filter(|&m| len > m) {
            check!(self.fail(
                path,
                "maxItems",
                || format!("at most {max} item{}", plural(max as usize)),
                || format!("{len} item{}", plural(len as usize)),
            ));
        }
        let base = path.len();
        for (i, item) in a.iter().enumerate() {
            let node = n.prefix_items.get(i).copied().or(n.items);
            if let Some(node) = node {
                if let Some(ann) = ann.as_deref_mut() {
                    ann.item(i, a.len());
                }
                path.push('/');
                path.push_str(&i.to_string());
                let ok = self.eval(node, item, path, depth + 1, None);
                path.truncate(base);
                check!(ok);
            }
        }
        if let Some(c) = n.contains {
            let mut count = 0u64;
            for (i, item) in a.iter().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                let ok = self.quiet(c, item, path, depth + 1, None);
                path.truncate(base);
                if ok {
                    count += 1;
                    if let Some(ann) = ann.as_deref_mut() {
                        ann.item(i, a.len());
                    }
                }
            }
            let min = n.min_contains.unwrap_or(1);
            if count < min {
                check!(self.fail(
                    path,
                    if n.min_contains.is_some() {
                        "minContains"
                    } else {
                        "contains"
                    },
                    || format!(
                        "at least {min} item{} matching the `contains` schema",
                        plural(min as usize)
                    ),
                    || format!("{count}"),
                ));
            }
            if let Some(max) = n.max_contains.filter(|&m| count > m) {
                check!(self.fail(
                    path,
                    "maxContains",
                    || format!(
                        "at most {max} item{} matching the `contains` schema",
                        plural(max as usize)
                    ),
                    || format!("{count}"),
                ));
            }
        }
        if n.unique_items {
            let mut seen = HashSet::new();
            for (i, item) in a.iter().enumerate() {
                let mut key = String::new();
                canonical(item, &mut key);
                if !seen.insert(key) {
                    path.push('/');
                    path.push_str(&i.to_string());
                    let ok = self.fail(
                        path,
                        "uniqueItems",
                        || "unique items".into(),
                        || format!("a repeat of an earlier item: {}", preview(item)),
                    );
                    path.truncate(base);
                    check!(ok);
                }
            }
        }
        valid
    }

    #[allow(clippy::too_many_arguments)]
    fn object(
        &mut self,
        n: &Node,
        v: &Value,
        o: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let base = path.len();
        let len = o.len() as u64;
        let mut valid = true;
        macro_rules! check {
            ($ok:expr) => {
                if !$ok {
                    valid = false;
                    if !self.collect || self.full() {
                        return false;
                    }
                }
            };
        }
        if let Some(min) = n.min_properties.filter(|&m| len < m) {
            check!(self.fail(
                path,
                "minProperties",
                || format!("at least {min} properties"),
                || format!("{len}"),
            ));
        }
        if let Some(max) = n.max_properties.filter(|&m| len > m) {
            check!(self.fail(
                path,
                "maxProperties",
                || format!("at most {max} properties"),
                || format!("{len}"),
            ));
        }
        let applies =
            !n.properties.is_empty() || !n.pattern_properties.is_empty() || n.additional_written;
        if applies || self.null_as_absent {
            for (i, (key, value)) in o.iter().enumerate() {
                if self.null_as_absent && value.is_null() && !n.required.contains(key) {
                    let accepts_null = n
                        .property(key)
                        .is_some_and(|p| self.quiet(p, value, path, depth + 1, None));
                    if !accepts_null {
                        if let Some(ann) = ann.as_deref_mut() {
                            ann.prop(i, o.len());
                        }
                        continue;
                    }
                }
                if !applies {
                    continue;
                }
                push_token(path, key);
                let mut matched = false;
                let mut ok = true;
                if let Some(node) = n.property(key) {
                    matched = true;
                    ok &= self.eval(node, value, path, depth + 1, None);
                }
                for (re, node) in &n.pattern_properties {
                    if (ok || self.collect) && re.is_match(key) {
                        matched = true;
                        ok &= self.eval(*node, value, path, depth + 1, None);
                    }
                }
                if !matched {
                    match n.additional {
                        Additional::Allowed => matched = n.additional_written,
                        Additional::Forbidden => {
                            ok = false;
                            let names: Vec<&str> =
                                n.properties.iter().map(|(k, _)| k.as_str()).collect();
                            let p = path.clone();
                            self.fail(
                                &p,
                                "additionalProperties",
                                || {
                                    let allowed = if names.is_empty() {
                                        "no properties".to_string()
                                    } else if names.len() > 12 {
                                        format!(
                                            "allowed: {}, … ({} properties)",
                                            names[..12].join(", "),
                                            names.len()
                                        )
                                    } else {
                                        format!("allowed: {}", names.join(", "))
                                    };
                                    format!("no property {key:?} ({allowed})")
                                },
                                || preview(value),
                            );
                        }
                        Additional::Schema(node) => {
                            matched = true;
                            ok &= self.eval(node, value, path, depth + 1, None)
                        }
                    }
                }
                path.truncate(base);
                if matched {
                    if let Some(ann) = ann.as_deref_mut() {
                        ann.prop(i, o.len());
                    }
                }
                check!(ok);
            }
        }
        for name in &n.required {
            if !o.contains_key(name) {
                push_token(path, name);
                let p = path.clone();
                path.truncate(base);
                check!(self.fail(
                    &p,
                    "required",
                    || n.property(name)
                        .map(|p| describe(self.nodes, p))
                        .filter(|d| !d.is_empty())
                        .map(|d| format!("required property ({d})"))
                        .unwrap_or_else(|| "required property".to_string()),
                    || "nothing".into(),
                ));
            }
        }
        for (name, deps) in &n.dependent_required {
            if !o.contains_key(name) {
                continue;
            }
            for dep in deps {
                if !o.contains_key(dep) {
                    push_token(path, dep);
                    let p = path.clone();
                    path.truncate(base);
                    check!(self.fail(
                        &p,
                        "dependentRequired",
                        || format!("required property (because {name:?} is present)"),
                        || "nothing".into(),
                    ));
                }
            }
        }
        for (name, dep) in &n.dependent_schemas {
            if o.contains_key(name) {
                check!(self.eval(*dep, v, path, depth + 1, ann.as_deref_mut()));
            }
        }
        if let Some(pn) = n.property_names {
            self.no_memo += 1;
            for key in o.keys() {
                let k = Value::String(key.clone());
                push_token(path, key);
                let ok = self.eval(pn, &k, path, depth + 1, None);
                path.truncate(base);
                if !ok {
                    valid = false;
                    if !self.collect || self.full() {
                        self.no_memo -= 1;
                        return false;
                    }
                }
            }
            self.no_memo -= 1;
        }
        valid
    }

    /// The one-object form of a tagged union lets a model write any payload property, or
    /// `null` for it: the errors of the branch the tag chose say that the tag needs them.
    fn name_the_tag(&mut self, first: usize, base: usize, tag: &str, value: &str) {
        for e in &mut self.errors[first..] {
            let direct = e.path.len() > base + 1 && !e.path[base + 1..].contains('/');
            if direct && (e.keyword == "required" || e.found == "null") {
                e.expected = format!("{} (needed when {tag:?} is {value:?})", e.expected);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn union(
        &mut self,
        branches: &[NodeId],
        disc: Option<&Discriminator>,
        exactly_one: bool,
        v: &Value,
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let keyword = if exactly_one { "oneOf" } else { "anyOf" };
        // Branches that each require a tag property pinned to a different string: an object
        // can only match the branch its tag names, so only that one is evaluated.
        if let (Some(d), Value::Object(o)) = (disc, v) {
            if d.branches.len() == branches.len() {
                let tags = || {
                    let t: Vec<Value> = d
                        .branches
                        .iter()
                        .map(|(t, _)| Value::from(t.as_str()))
                        .collect();
                    list_values(&t)
                };
                let base = path.len();
                match o.get(&d.property) {
                    None => {
                        push_token(path, &d.property);
                        let p = path.clone();
                        path.truncate(base);
                        self.fail(
                            &p,
                            "required",
                            || format!("required property (one of {})", tags()),
                            || "nothing".into(),
                        );
                        return false;
                    }
                    Some(tag) => {
                        match d
                            .branches
                            .iter()
                            .find(|(t, _)| Some(t.as_str()) == tag.as_str())
                        {
                            Some((t, b)) => {
                                let first = self.errors.len();
                                let ok = self.eval(*b, v, path, depth + 1, ann);
                                self.name_the_tag(first, base, &d.property, t);
                                return ok;
                            }
                            None => {
                                push_token(path, &d.property);
                                let p = path.clone();
                                path.truncate(base);
                                self.fail(
                                    &p,
                                    keyword,
                                    || format!("one of {}", tags()),
                                    || preview(tag),
                                );
                                return false;
                            }
                        }
                    }
                }
            }
        }
        let mut passing = Vec::new();
        for (i, &b) in branches.iter().enumerate() {
            let ok = match ann.as_deref_mut() {
                Some(parent) => {
                    let mut a = Ann::default();
                    let ok = self.quiet(b, v, path, depth + 1, Some(&mut a));
                    if ok {
                        parent.merge(&a);
                    }
                    ok
                }
                None => self.quiet(b, v, path, depth + 1, None),
            };
            if ok {
                passing.push(i);
                if (!exactly_one && ann.is_none()) || passing.len() > 1 && exactly_one {
                    break;
                }
            }
        }
        if passing.len() == 1 || (!passing.is_empty() && !exactly_one) {
            return true;
        }
        if !self.collect {
            return false;
        }
        if passing.len() > 1 {
            let which: Vec<String> = passing.iter().map(|i| i.to_string()).collect();
            self.fail(
                path,
                keyword,
                || "a value matching exactly one alternative".into(),
                || format!("a value matching alternatives {}", which.join(" and ")),
            );
            return false;
        }
        // No branch passes: report the errors of the one branch the value was evidently meant for.
        let results: Vec<Rc<Vec<ValidationError>>> = branches
            .iter()
            .map(|&b| self.errors_of(b, v, path, depth + 1))
            .collect();
        let fits: Vec<usize> = (0..results.len())
            .filter(|&i| {
                !results[i]
                    .iter()
                    .any(|e| e.keyword == "type" && e.path == *path)
            })
            .collect();
        let best = match fits.len() {
            1 => Some(fits[0]),
            0 => None,
            _ => {
                let min = fits.iter().map(|&i| results[i].len()).min().unwrap_or(0);
                let with_min: Vec<usize> = fits
                    .iter()
                    .copied()
                    .filter(|&i| results[i].len() == min)
                    .collect();
                (with_min.len() == 1).then(|| with_min[0])
            }
        };
        match best {
            Some(i) if !results[i].is_empty() => {
                for e in results[i].iter() {
                    if self.full() {
                        self.truncated = true;
                        break;
                    }
                    self.errors.push(e.clone());
                }
            }
            _ => {
                // A documented string enum (`oneOf` of `const`s) reads like any other enum.
                let consts: Option<Vec<Value>> = branches
                    .iter()
                    .map(|&b| self.nodes[deref(self.nodes, b)].const_value.clone())
                    .collect();
                if let Some(values) = consts {
                    self.fail(
                        path,
                        "enum",
                        || format!("one of {}", list_values(&values)),
                        || preview(v),
                    );
                    return false;
                }
                let options: Vec<String> =
                    branches.iter().map(|&b| describe(self.nodes, b)).collect();
                let expected = if options.iter().all(|o| !o.is_empty()) {
                    format!(
                        "{}{}",
                        if exactly_one { "exactly one of: " } else { "" },
                        options.join(" | ")
                    )
                } else {
                    format!(
                        "a value matching {} of the {} alternatives",
                        if exactly_one { "exactly one" } else { "one" },
                        branches.len()
                    )
                };
                self.fail(path, keyword, || expected, || preview(v));
            }
        }
        false
    }
}

/// A few words on what a schema accepts (`string`, `"a" or "b"`, `an object with property "x"`).
pub(crate) fn describe(nodes: &[Node], id: NodeId) -> String {
    let n = &nodes[deref(nodes, id)];
    if let Some(c) = &n.const_value {
        return c.to_string();
    }
    if let Some(e) = &n.enum_values {
        return format!("one of {}", list_values(e));
    }
    if n.types != 0 {
        return type_names(n.types);
    }
    if !n.required.is_empty() && n.properties.is_empty() {
        let names: Vec<String> = n.required.iter().map(|r| format!("{r:?}")).collect();
        return format!("an object with property {}", names.join(", "));
    }
    if !n.any_of.is_empty() || !n.one_of.is_empty() {
        let list = if n.any_of.is_empty() {
            &n.one_of
        } else {
            &n.any_of
        };
        let parts: Vec<String> = list
            .iter()
            .take(6)
            .map(|&b| describe_shallow(nodes, b))
            .collect();
        if parts.iter().all(|p| !p.is_empty()) {
            return parts.join(" or ");
        }
    }
    String::new()
}

fn describe_shallow(nodes: &[Node], id: NodeId) -> String {
    let n = &nodes[deref(nodes, id)];
    if let Some(c) = &n.const_value {
        return c.to_string();
    }
    if n.types != 0 {
        return type_names(n.types);
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn multiple_of_is_exact() {
        assert!(!is_multiple(&n("10000000.005"), &n("0.01")));
        assert!(is_multiple(&n("10000000.05"), &n("0.01")));
        assert!(!is_multiple(&n("3000000001.0"), &n("2")));
        assert!(is_multiple(&n("3000000002.0"), &n("2")));
        assert!(is_multiple(&n("12391239123"), &n("1e-8")));
        assert!(!is_multiple(&n("1e308"), &n("0.123456789")));
        assert!(is_multiple(&n("0.0075"), &n("0.0001")));
        assert!(!is_multiple(&n("0.00751"), &n("0.0001")));
        assert!(is_multiple(&n("19.99"), &n("0.01")));
        assert!(!is_multiple(&n("1"), &n("30")));
    }

    #[test]
    fn numbers_compare_exactly() {
        assert_eq!(
            cmp_num(&n("10000000000000000"), &n("1e16")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            cmp_num(&n("10000000000000001"), &n("1e16")),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp_num(&n("-1.5"), &n("-1")), Some(Ordering::Less));
        assert_eq!(cmp_num(&n("0.1"), &n("0.09")), Some(Ordering::Greater));
        assert_eq!(cmp_num(&n("-0.0"), &n("0")), Some(Ordering::Equal));
    }
}
