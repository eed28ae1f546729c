//! A plan for a schema over a provider's per-request budgets (Anthropic's 24 optional
//! properties and 16 unions): which optional properties stay optional, which become required
//! and nullable, and, only where nothing else fits, which properties go without a grammar.
//!
//! Making an optional property nullable trades one optional property for one union (`null`
//! is a union branch), so the plan first makes as many nullable as the union budget leaves
//! room for, the last ones in the document's order first (their `null` reads back as
//! absent). What is still over goes without a grammar: the properties whose schemas hold the
//! most optional properties and unions (a `$ref` counting its target's) become a schema of
//! any value with a note, which the validator, reading the input's schema, still checks.
//! Where that frees too little (plain optional properties, no union left for their `null`),
//! the first optional properties become required and of any value: such a schema takes
//! `null` without a union, and their `null` reads back as absent.
//!
//! The converter counts in its output, where an inlined definition counts once per use and
//! the walk stops where a limit is crossed; the plan counts the input the same way (a
//! `$ref` counts its target), and [`super::convert`] asks for more on each try while the
//! output is still over, a few times at most.

use crate::convert::pointer;
use crate::convert::MAX_DEPTH;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// Keywords whose values are not schemas (their objects are data), and the definitions
/// (counted where a `$ref` uses them).
const SKIPPED: &[&str] = &[
    "enum",
    "const",
    "default",
    "examples",
    "required",
    "type",
    "$defs",
    "definitions",
];

const FREE_NOTE: &str =
    "Written without a grammar to stay within the provider's budget: any JSON value of the shape described.";

/// A budget plan applied to a document.
pub(super) struct Plan {
    /// The document with the plan applied.
    pub(super) doc: Value,
    /// Optional properties made required and nullable: (object pointer, name).
    pub(super) nullable: Vec<(String, String)>,
    /// Properties written without a grammar (their schema's pointer).
    pub(super) free: Vec<String>,
    /// Where schemas moved (below the `anyOf` of a property made nullable): (new, input).
    pub(super) moves: Vec<(String, String)>,
}

/// The plan for `doc` under budgets of `max_optional` optional properties and `max_unions`
/// unions, asking `2^attempt` times more than the input's count says is needed.
pub(super) fn plan(
    doc: &Value,
    max_optional: usize,
    max_unions: usize,
    attempt: u32,
) -> Option<Plan> {
    let mut c = Count::new(doc);
    let (optional, unions) = c.walk(doc, "", 0);
    let room = max_unions.saturating_sub(unions);
    let n_null = optional.saturating_sub(max_optional).min(room);
    let over = optional.saturating_sub(n_null + max_optional)
        + (unions + n_null).saturating_sub(max_unions);
    let need = match (over << attempt, attempt) {
        (0, 0) => 0,
        (0, a) => 1 << a,
        (n, _) => n,
    };
    // the heaviest properties go without a grammar, none inside another chosen one
    let mut props = std::mem::take(&mut c.props);
    props.sort_by_key(|p| std::cmp::Reverse(p.1));
    let mut free: Vec<String> = Vec::new();
    let mut freed = 0;
    for (at, weight) in props {
        if freed >= need || weight == 0 {
            break;
        }
        if free.iter().any(|f| below(&at, f) || below(f, &at)) {
            continue;
        }
        freed += weight;
        free.push(at);
    }
    let mut nullable: Vec<(String, String)> = (c.optionals.iter())
        .filter(|(at, name)| {
            let p = pointer::push_all(at, &["properties", name]);
            !free.iter().any(|f| below(&p, f))
        })
        .cloned()
        .collect();
    // (never more than the unions left: each `null` is one more union)
    let keep = nullable.len().saturating_sub((n_null << attempt).min(room));
    let nullable_ones = nullable.split_off(keep);
    // (still over, with no union left for `null` and nothing heavy to free: the first optional
    // properties become required and of any value, which takes `null` without a union; their
    // `null` reads back as absent, and the validator checks their values)
    let mut loose = nullable;
    loose.truncate(need.saturating_sub(freed));
    let nullable = nullable_ones;
    if nullable.is_empty() && free.is_empty() && loose.is_empty() {
        return None;
    }
    let mut out = doc.clone();
    for at in &free {
        if let Some(s) = out.pointer_mut(at) {
            *s = free_schema(s);
        }
    }
    for (at, name) in &loose {
        let Some(Value::Object(o)) = out.pointer_mut(at) else {
            continue;
        };
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            if let Some(s) = props.get_mut(name) {
                *s = free_schema(s);
            }
        }
        if let Value::Array(r) = o.entry("required").or_insert_with(|| json!([])) {
            r.push(Value::String(name.clone()));
        }
        free.push(pointer::push_all(at, &["properties", name]));
    }
    let mut moves = Vec::with_capacity(nullable.len());
    for (at, name) in &nullable {
        let Some(Value::Object(o)) = out.pointer_mut(at) else {
            continue;
        };
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            if let Some(s) = props.get_mut(name) {
                let inner = std::mem::take(s);
                *s = json!({"anyOf": [inner, {"type": "null"}]});
            }
        }
        if let Value::Array(r) = o.entry("required").or_insert_with(|| json!([])) {
            r.push(Value::String(name.clone()));
        }
        let p = pointer::push_all(at, &["properties", name]);
        moves.push((pointer::push_all(&p, &["anyOf", "0"]), p));
    }
    let mut nullable = nullable;
    nullable.extend(loose);
    Some(Plan {
        doc: out,
        nullable,
        free,
        moves,
    })
}

/// Whether `doc` has more optional properties or unions than the budgets (counted as
/// [`plan`] counts them): its conversion may carry a budget plan.
#[cfg(feature = "view")]
pub(crate) fn over(doc: &Value, max_optional: usize, max_unions: usize) -> bool {
    let mut c = Count::new(doc);
    let (optional, unions) = c.walk(doc, "", 0);
    optional > max_optional || unions > max_unions
}

/// A schema of any value in place of `s`, its annotations kept and a note added.
pub(super) fn free_schema(s: &Value) -> Value {
    let mut out = Map::new();
    if let Value::Object(m) = s {
        for k in ["title", "description"] {
            if let Some(v) = m.get(k) {
                out.insert(k.into(), v.clone());
            }
        }
    }
    let text = match out.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d}\n\n{FREE_NOTE}"),
        _ => FREE_NOTE.to_string(),
    };
    out.insert("description".into(), Value::String(text));
    Value::Object(out)
}

/// Whether `at` is `place` or below it.
fn below(at: &str, place: &str) -> bool {
    at.strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

struct Count<'a> {
    root: &'a Value,
    /// Optional properties that do not take `null`, in document order, each once.
    optionals: Vec<(String, String)>,
    seen: HashSet<(String, String)>,
    /// Each property's schema and the optional properties and unions it holds.
    props: Vec<(String, usize)>,
    /// A `$ref` target's counts (`None` while it is being counted: a cycle counts 0).
    memo: HashMap<String, Option<(usize, usize)>>,
}

impl<'a> Count<'a> {
    fn new(root: &'a Value) -> Self {
        Count {
            root,
            optionals: Vec::new(),
            seen: HashSet::new(),
            props: Vec::new(),
            memo: HashMap::new(),
        }
    }

    /// The optional properties and unions of `v`, a `$ref` counting its target's.
    fn walk(&mut self, v: &Value, at: &str, depth: usize) -> (usize, usize) {
        let Value::Object(m) = v else {
            return match v {
                Value::Array(a) if depth <= MAX_DEPTH => {
                    a.iter().enumerate().fold((0, 0), |acc, (i, x)| {
                        let c = self.walk(x, &pointer::push_index(at, i), depth + 1);
                        (acc.0 + c.0, acc.1 + c.1)
                    })
                }
                _ => (0, 0),
            };
        };
        if depth > MAX_DEPTH {
            return (0, 0);
        }
        let mut opt = 0;
        let mut uni = usize::from(
            m.contains_key("anyOf")
                || m.contains_key("oneOf")
                || m.get("nullable") == Some(&Value::Bool(true))
                || m.get("type")
                    .and_then(Value::as_array)
                    .is_some_and(|t| t.len() > 1),
        );
        if let Some(t) = (m.get("$ref").and_then(Value::as_str))
            .and_then(|r| r.strip_prefix('#'))
            .and_then(pointer::percent_decode)
        {
            let counted = match self.memo.get(&t) {
                Some(c) => c.unwrap_or((0, 0)),
                None => {
                    self.memo.insert(t.clone(), None);
                    let c = match self.root.pointer(&t) {
                        Some(target) => self.walk(target, &t, depth + 1),
                        None => (0, 0),
                    };
                    self.memo.insert(t, Some(c));
                    c
                }
            };
            opt += counted.0;
            uni += counted.1;
        }
        if let Some(Value::Object(props)) = m.get("properties") {
            let required: Vec<&str> = match m.get("required") {
                Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            for (name, s) in props {
                let p = pointer::push_all(at, &["properties", name]);
                let c = self.walk(s, &p, depth + 1);
                self.props.push((p, c.0 + c.1));
                opt += c.0;
                uni += c.1;
                if required.contains(&name.as_str()) {
                    continue;
                }
                opt += 1;
                let key = (at.to_string(), name.clone());
                if !super::shapes::accepts_null(self.root, s, 0) && self.seen.insert(key.clone()) {
                    self.optionals.push(key);
                }
            }
        }
        for (k, x) in m {
            if k == "properties" || k == "$ref" || SKIPPED.contains(&k.as_str()) {
                continue;
            }
            let c = self.walk(x, &pointer::push(at, k), depth + 1);
            opt += c.0;
            uni += c.1;
        }
        (opt, uni)
    }
}
