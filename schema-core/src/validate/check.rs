//! Walks a value against compiled nodes and collects every error.

use super::compile::{
    deref, Additional, Compiled, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use super::{format, ValidationError, ValidationErrors};
use serde_json::{Number, Value};
use std::collections::HashSet;

/// Schema evaluation deeper than this (a `$ref` loop that never reaches the value) is an error.
const MAX_DEPTH: usize = 512;

pub(crate) fn run(
    c: &Compiled,
    value: &Value,
    max: usize,
    null_as_absent: bool,
) -> ValidationErrors {
    let mut cx = Ctx {
        nodes: &c.nodes,
        errors: Vec::new(),
        max,
        truncated: false,
        null_as_absent,
    };
    let mut path = String::new();
    cx.check(c.root, value, &mut path, 0);
    ValidationErrors::from_vec(cx.errors, cx.truncated)
}

/// As [`run`], for the value at `path` checked against node `id` (the streaming reader checks
/// each scalar once it is complete).
pub(crate) fn run_at(c: &Compiled, id: NodeId, value: &Value, path: &str) -> ValidationErrors {
    let mut cx = Ctx {
        nodes: &c.nodes,
        errors: Vec::new(),
        max: 1,
        truncated: false,
        null_as_absent: true,
    };
    let mut path = path.to_string();
    cx.check(id, value, &mut path, 0);
    ValidationErrors::from_vec(cx.errors, cx.truncated)
}

struct Ctx<'a> {
    nodes: &'a [Node],
    errors: Vec<ValidationError>,
    max: usize,
    truncated: bool,
    /// Parsing mode: a `null` property the schema does not accept is read as absent (strict
    /// dialects make models write `null` for an absent optional value).
    null_as_absent: bool,
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

/// Compares two JSON numbers exactly when both are integers.
pub(crate) fn cmp_num(a: &Number, b: &Number) -> Option<std::cmp::Ordering> {
    let int = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (int(a), int(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

pub(crate) fn is_multiple(v: &Number, m: &Number) -> bool {
    if let (Some(x), Some(y)) = (v.as_i64(), m.as_i64()) {
        return y != 0 && x % y == 0;
    }
    let (Some(x), Some(y)) = (v.as_f64(), m.as_f64()) else {
        return false;
    };
    let q = x / y;
    if !q.is_finite() {
        return false;
    }
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// Equality as JSON Schema defines it (1 and 1.0 are equal).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_num(x, y) == Some(std::cmp::Ordering::Equal),
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

/// A canonical text of a value (sorted keys, numbers by value), for uniqueness in linear time.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                out.push_str(&(f as i64).to_string())
            }
            _ => out.push_str(&n.to_string()),
        },
        Value::Array(a) => {
            out.push('[');
            for x in a {
                canonical(x, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            out.push('{');
            for k in keys {
                out.push_str(&format!("{k:?}:"));
                canonical(&o[k.as_str()], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

impl Ctx<'_> {
    fn full(&self) -> bool {
        self.errors.len() >= self.max
    }

    fn error(&mut self, path: &str, keyword: &'static str, expected: String, found: String) {
        if self.full() {
            self.truncated = true;
            return;
        }
        self.errors.push(ValidationError {
            path: path.to_string(),
            keyword,
            expected,
            found,
        });
    }

    /// Runs `id` on `v` in a scratch context: the errors it would report.
    fn trial(
        &self,
        id: NodeId,
        v: &Value,
        path: &mut String,
        depth: usize,
    ) -> Vec<ValidationError> {
        let mut sub = Ctx {
            nodes: self.nodes,
            errors: Vec::new(),
            max: self.max.max(8),
            truncated: false,
            null_as_absent: self.null_as_absent,
        };
        sub.check(id, v, path, depth);
        sub.errors
    }

    fn check(&mut self, id: NodeId, v: &Value, path: &mut String, depth: usize) {
        if self.full() {
            self.truncated = true;
            return;
        }
        if depth > MAX_DEPTH {
            self.error(
                path,
                "$ref",
                "a schema that reaches a value".into(),
                "a `$ref` loop deeper than 512 levels".into(),
            );
            return;
        }
        let nodes = self.nodes;
        let n = &nodes[id];
        if n.falsy {
            self.error(
                path,
                "false",
                "nothing (no value is allowed here)".into(),
                preview(v),
            );
            return;
        }
        if let Some(r) = n.reference {
            self.check(r, v, path, depth + 1);
        }
        if n.types != 0 && n.types & value_bits(v) == 0 {
            self.error(path, "type", type_names(n.types), preview(v));
            return;
        }
        if let Some(c) = &n.const_value {
            if !json_eq(c, v) {
                self.error(path, "const", c.to_string(), preview(v));
            }
        }
        if let Some(e) = &n.enum_values {
            if !e.iter().any(|x| json_eq(x, v)) {
                self.error(
                    path,
                    "enum",
                    format!("one of {}", list_values(e)),
                    preview(v),
                );
            }
        }
        match v {
            Value::String(s) => self.string(n, s, v, path),
            Value::Number(num) => self.number(n, num, path),
            Value::Array(a) => self.array(n, a, path, depth),
            Value::Object(o) => self.object(n, o, path, depth),
            _ => {}
        }
        for &a in &n.all_of {
            self.check(a, v, path, depth + 1);
        }
        if !n.any_of.is_empty() {
            self.union(n, &n.any_of, false, v, path, depth);
        }
        if !n.one_of.is_empty() {
            self.union(n, &n.one_of, true, v, path, depth);
        }
        if let Some(not) = n.not {
            if self.trial(not, v, path, depth + 1).is_empty() {
                self.error(
                    path,
                    "not",
                    "a value that does not match the `not` schema".into(),
                    preview(v),
                );
            }
        }
    }

    fn string(&mut self, n: &Node, s: &str, v: &Value, path: &str) {
        if n.min_length.is_some() || n.max_length.is_some() {
            let len = s.chars().count() as u64;
            if let Some(min) = n.min_length.filter(|&m| len < m) {
                self.error(
                    path,
                    "minLength",
                    format!("at least {min} character{}", plural(min as usize)),
                    format!("{len} character{}", plural(len as usize)),
                );
            }
            if let Some(max) = n.max_length.filter(|&m| len > m) {
                self.error(
                    path,
                    "maxLength",
                    format!("at most {max} character{}", plural(max as usize)),
                    format!("{len} character{}", plural(len as usize)),
                );
            }
        }
        if let Some((src, re)) = &n.pattern {
            if !re.is_match(s) {
                self.error(
                    path,
                    "pattern",
                    format!("a string matching /{src}/"),
                    preview(v),
                );
            }
        }
        if let Some(f) = &n.format {
            if !format::check(f, s) {
                self.error(path, "format", format!("a valid {f}"), preview(v));
            }
        }
    }

    fn number(&mut self, n: &Node, num: &Number, path: &str) {
        use std::cmp::Ordering::*;
        let found = |x: &Number| x.to_string();
        if let Some(m) = &n.minimum {
            if cmp_num(num, m) == Some(Less) {
                self.error(path, "minimum", format!("a number >= {m}"), found(num));
            }
        }
        if let Some(m) = &n.maximum {
            if cmp_num(num, m) == Some(Greater) {
                self.error(path, "maximum", format!("a number <= {m}"), found(num));
            }
        }
        if let Some(m) = &n.exclusive_minimum {
            if cmp_num(num, m) != Some(Greater) {
                self.error(
                    path,
                    "exclusiveMinimum",
                    format!("a number > {m}"),
                    found(num),
                );
            }
        }
        if let Some(m) = &n.exclusive_maximum {
            if cmp_num(num, m) != Some(Less) {
                self.error(
                    path,
                    "exclusiveMaximum",
                    format!("a number < {m}"),
                    found(num),
                );
            }
        }
        if let Some(m) = &n.multiple_of {
            if !is_multiple(num, m) {
                self.error(path, "multipleOf", format!("a multiple of {m}"), found(num));
            }
        }
    }

    fn array(&mut self, n: &Node, a: &[Value], path: &mut String, depth: usize) {
        let len = a.len() as u64;
        if let Some(min) = n.min_items.filter(|&m| len < m) {
            self.error(
                path,
                "minItems",
                format!("at least {min} item{}", plural(min as usize)),
                format!("{len} item{}", plural(len as usize)),
            );
        }
        if let Some(max) = n.max_items.filter(|&m| len > m) {
            self.error(
                path,
                "maxItems",
                format!("at most {max} item{}", plural(max as usize)),
                format!("{len} item{}", plural(len as usize)),
            );
        }
        let base = path.len();
        for (i, item) in a.iter().enumerate() {
            let node = n.prefix_items.get(i).copied().or(n.items);
            if let Some(node) = node {
                path.push('/');
                path.push_str(&i.to_string());
                self.check(node, item, path, depth + 1);
                path.truncate(base);
            }
            if self.full() {
                self.truncated = true;
                return;
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
                    self.error(
                        path,
                        "uniqueItems",
                        "unique items".into(),
                        format!("a repeat of an earlier item: {}", preview(item)),
                    );
                    path.truncate(base);
                }
            }
        }
    }

    fn object(
        &mut self,
        n: &Node,
        o: &serde_json::Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) {
        let base = path.len();
        let len = o.len() as u64;
        if let Some(min) = n.min_properties.filter(|&m| len < m) {
            self.error(
                path,
                "minProperties",
                format!("at least {min} properties"),
                format!("{len}"),
            );
        }
        if let Some(max) = n.max_properties.filter(|&m| len > m) {
            self.error(
                path,
                "maxProperties",
                format!("at most {max} properties"),
                format!("{len}"),
            );
        }
        for (key, value) in o {
            if self.null_as_absent && value.is_null() && !n.required.contains(key) {
                let accepts_null = n
                    .property(key)
                    .is_some_and(|p| self.trial(p, value, path, depth + 1).is_empty());
                if !accepts_null {
                    continue;
                }
            }
            push_token(path, key);
            let mut matched = false;
            if let Some(node) = n.property(key) {
                matched = true;
                self.check(node, value, path, depth + 1);
            }
            for (re, node) in &n.pattern_properties {
                if re.is_match(key) {
                    matched = true;
                    self.check(*node, value, path, depth + 1);
                }
            }
            if !matched {
                match n.additional {
                    Additional::Allowed => {}
                    Additional::Forbidden => {
                        let names: Vec<&str> =
                            n.properties.iter().map(|(k, _)| k.as_str()).collect();
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
                        self.error(
                            path,
                            "additionalProperties",
                            format!("no property {key:?} ({allowed})"),
                            preview(value),
                        );
                    }
                    Additional::Schema(node) => self.check(node, value, path, depth + 1),
                }
            }
            path.truncate(base);
            if self.full() {
                self.truncated = true;
                return;
            }
        }
        for name in &n.required {
            if !o.contains_key(name) {
                push_token(path, name);
                let what = n
                    .property(name)
                    .map(|p| describe(self.nodes, p))
                    .filter(|d| !d.is_empty())
                    .map(|d| format!("required property ({d})"))
                    .unwrap_or_else(|| "required property".to_string());
                self.error(path, "required", what, "nothing".into());
                path.truncate(base);
            }
        }
    }

    fn union(
        &mut self,
        n: &Node,
        branches: &[NodeId],
        exactly_one: bool,
        v: &Value,
        path: &mut String,
        depth: usize,
    ) {
        if let Some(d) = &n.discriminator {
            let Value::Object(o) = v else {
                self.error(path, "type", "object".into(), preview(v));
                return;
            };
            let tags: Vec<Value> = d
                .branches
                .iter()
                .map(|(t, _)| Value::from(t.as_str()))
                .collect();
            let base = path.len();
            push_token(path, &d.property);
            match o.get(&d.property) {
                None => self.error(
                    path,
                    "required",
                    format!("required property (one of {})", list_values(&tags)),
                    "nothing".into(),
                ),
                Some(tag) => match d
                    .branches
                    .iter()
                    .find(|(t, _)| Some(t.as_str()) == tag.as_str())
                {
                    None => self.error(
                        path,
                        if exactly_one { "oneOf" } else { "anyOf" },
                        format!("one of {}", list_values(&tags)),
                        preview(tag),
                    ),
                    Some((_, branch)) => {
                        path.truncate(base);
                        self.check(*branch, v, path, depth + 1);
                    }
                },
            }
            path.truncate(base);
            return;
        }
        let mut results = Vec::with_capacity(branches.len());
        for &b in branches {
            results.push(self.trial(b, v, path, depth + 1));
        }
        let passing = results.iter().filter(|r| r.is_empty()).count();
        let keyword = if exactly_one { "oneOf" } else { "anyOf" };
        if passing == 1 || (passing > 1 && !exactly_one) {
            return;
        }
        if passing > 1 {
            let which: Vec<String> = results
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_empty())
                .map(|(i, _)| i.to_string())
                .collect();
            self.error(
                path,
                keyword,
                "a value matching exactly one alternative".into(),
                format!("a value matching alternatives {}", which.join(" and ")),
            );
            return;
        }
        // No branch passes: report the errors of the one branch the value was evidently meant for.
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
            Some(i) => {
                for e in std::mem::take(&mut results[i]) {
                    if self.full() {
                        self.truncated = true;
                        break;
                    }
                    self.errors.push(e);
                }
            }
            None => {
                // A documented string enum (`oneOf` of `const`s) reads like any other enum.
                let consts: Option<Vec<Value>> = branches
                    .iter()
                    .map(|&b| self.nodes[deref(self.nodes, b)].const_value.clone())
                    .collect();
                if let Some(values) = consts {
                    self.error(
                        path,
                        "enum",
                        format!("one of {}", list_values(&values)),
                        preview(v),
                    );
                    return;
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
                self.error(path, keyword, expected, preview(v));
            }
        }
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
