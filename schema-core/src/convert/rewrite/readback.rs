//! The read-back plan: the map from a value a converted schema accepts to the value of the
//! input schema's shape, and its forward side.
//!
//! Each shape-changing rewrite (`super::shapes`, `super::root`) adds its inverse here at the
//! place of the value it changed: entries read back into an object, a positional object into a
//! tuple, JSON text parsed, `null` of a property made required and nullable read as absent,
//! the wrapper object around a non-object root removed. Places no rewrite touched share the
//! identity step, so a plan of a schema no rewrite changed is empty and reading back copies the
//! value. A plan is a graph (a `$ref` names its target's step), so recursion costs one step;
//! reading back follows the value, and stops with an error below [`MAX_DEPTH`] levels.

use crate::validate::{ValidationError, ValidationErrors};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Deeper than any value `serde_json` parses (128 levels).
const MAX_DEPTH: usize = 256;

/// Index of the identity step in [`ReadBack::steps`].
pub(crate) const SAME: usize = 0;

/// One value's inverse rewrite (children by index into the plan's steps).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Nothing below this place changed shape.
    Same,
    /// An object: each property's step, the properties whose `null` means absent (optional
    /// properties made required and nullable), the step of every other property, and where
    /// the keys other than the declared ones were written as entries: the property holding
    /// them, the declared names and the entries' step.
    Object {
        props: Vec<(String, usize)>,
        absent_if_null: Vec<String>,
        rest: usize,
        extra: Option<(String, Vec<String>, usize)>,
    },
    /// An array: each position's step, then the step of the items after them.
    Array { prefix: Vec<usize>, rest: usize },
    /// A map written as `[{"key": k, "value": v}]`: the value's step.
    Entries { value: usize },
    /// A tuple written as `{"_0": .., "_1": .., "_rest": [..]}`: each position's step, how
    /// many positions are required, whether `null` at an optional position ends the tuple,
    /// and the step of the items after them.
    Positions {
        prefix: Vec<usize>,
        required: usize,
        null_ends: Vec<bool>,
        rest: Option<usize>,
    },
    /// Any value written as a string of JSON text.
    Text,
    /// A union: per branch, the JSON types its values have in the converted schema and in
    /// the input (bit masks, [`type_bit`]), and its step.
    Union(Vec<(u8, u8, usize)>),
    /// Several steps applied to one value in turn (the parts of an `allOf`).
    All(Vec<usize>),
}

/// The read-back plan of a conversion: maps a reply valid for the converted schema back to
/// the shape of the input schema (see [`Converted::read_back`](crate::convert::Converted::read_back)).
///
/// ```
/// use schema_core::{convert::to_dialect_report, Dialect};
/// use serde_json::json;
///
/// // OpenAI strict needs an object root and cannot express a map.
/// let input = json!({"type": "object", "additionalProperties": {"type": "integer"}});
/// let converted = to_dialect_report(&input, Dialect::OpenAi).unwrap();
/// let reply = json!({"value": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]});
/// assert_eq!(converted.read_back(&reply).unwrap(), json!({"a": 1, "b": 2}));
/// // and back again: the input's value in the dialect's shape
/// assert_eq!(converted.plan.forward(&json!({"a": 1, "b": 2})).unwrap(), reply);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ReadBack {
    /// The steps; `steps[0]` is the identity.
    pub(crate) steps: Vec<Step>,
    /// The root value's step.
    pub(crate) root: usize,
    /// The property the root value is wrapped in, where the dialect needs an object root.
    pub(crate) wrap: Option<String>,
}

impl Default for ReadBack {
    fn default() -> Self {
        ReadBack {
            steps: vec![Step::Same],
            root: SAME,
            wrap: None,
        }
    }
}

/// The bit of a value's JSON type in a union branch's mask (an integer is a number).
pub(crate) fn type_bit(v: &Value) -> u8 {
    match v {
        Value::Null => 1,
        Value::Bool(_) => 2,
        Value::Number(_) => 4,
        Value::String(_) => 8,
        Value::Array(_) => 16,
        Value::Object(_) => 32,
    }
}

/// Every JSON type.
pub(crate) const ANY_TYPE: u8 = 63;

/// The mask of a JSON Schema type name.
pub(crate) fn type_name_bit(name: &str) -> u8 {
    match name {
        "null" => 1,
        "boolean" => 2,
        "number" | "integer" => 4,
        "string" => 8,
        "array" => 16,
        "object" => 32,
        _ => 0,
    }
}

impl ReadBack {
    /// Whether reading back changes nothing (no rewrite changed the shape of values).
    pub fn is_identity(&self) -> bool {
        self.root == SAME && self.wrap.is_none()
    }

    /// The property a non-object root is wrapped in, if the conversion wrapped it.
    pub fn root_key(&self) -> Option<&str> {
        self.wrap.as_deref()
    }

    /// Maps `reply`, a value the converted schema accepts, to the input schema's shape. Where
    /// it cannot (entries with a key twice, text that is not JSON, a missing wrapper), every
    /// error is returned with its path in `reply`.
    pub fn read_back(&self, reply: &Value) -> Result<Value, ValidationErrors> {
        let mut errors = Vec::new();
        let mut path = String::new();
        let value = match &self.wrap {
            Some(key) => match reply.as_object().and_then(|o| o.get(key)) {
                Some(inner) if reply.as_object().is_some_and(|o| o.len() == 1) => {
                    path.push('/');
                    push_token(&mut path, key);
                    inner
                }
                _ => {
                    return Err(one_error(
                        "",
                        "required",
                        format!("an object with the one property {key:?}"),
                        describe(reply),
                    ))
                }
            },
            None => reply,
        };
        if self.root == SAME {
            return Ok(value.clone());
        }
        let out = self.back(self.root, value, &mut path, 0, &mut errors);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(ValidationErrors::from_vec(errors, false))
        }
    }

    /// The forward side: `value`, of the input schema's shape, written as the converted schema
    /// has it (a map as entries, a tuple as a positional object, any value as JSON text, the
    /// root wrapped). Used to check a plan (the value read back is `value` again) and to
    /// write examples in the dialect's shape.
    pub fn forward(&self, value: &Value) -> Result<Value, ValidationErrors> {
        let mut errors = Vec::new();
        let mut path = String::new();
        let out = self.fwd(self.root, value, &mut path, 0, &mut errors);
        if !errors.is_empty() {
            return Err(ValidationErrors::from_vec(errors, false));
        }
        Ok(match &self.wrap {
            Some(key) => {
                let mut o = Map::new();
                o.insert(key.clone(), out);
                Value::Object(o)
            }
            None => out,
        })
    }

    /// The order a union's branches are tried in: rewritten shapes, plain, JSON text.
    /// The types a union branch of step `step` takes in the dialect's shape: the rewritten
    /// shape's where the step is one (a branch that is a `$ref` was typed by its target's
    /// input shape), else `mask`.
    fn out_mask(&self, step: usize, mask: u8) -> u8 {
        let null = mask & type_name_bit("null");
        match &self.steps[step] {
            Step::Entries { .. } => type_name_bit("array") | null,
            Step::Positions { .. } => type_name_bit("object") | null,
            Step::Text => type_name_bit("string") | null,
            _ => mask,
        }
    }

    fn rank(&self, step: usize) -> u8 {
        match &self.steps[step] {
            Step::Text => 2,
            _ if step == SAME => 1,
            _ => 0,
        }
    }

    fn back(
        &self,
        step: usize,
        v: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) -> Value {
        if step == SAME || too_deep(path, depth, errors) {
            return v.clone();
        }
        match (&self.steps[step], v) {
            (
                Step::Object {
                    props,
                    absent_if_null,
                    rest,
                    extra,
                },
                Value::Object(o),
            ) => {
                let mut out = Map::with_capacity(o.len());
                let mut others = None;
                for (k, x) in o {
                    if x.is_null() && absent_if_null.iter().any(|n| n == k) {
                        continue;
                    }
                    let s = props.iter().find(|(n, _)| n == k).map_or(*rest, |p| p.1);
                    let len = enter(path, k);
                    match extra {
                        Some((name, _, step)) if name == k => {
                            others = Some(self.back(*step, x, path, depth + 1, errors));
                        }
                        _ => {
                            out.insert(k.clone(), self.back(s, x, path, depth + 1, errors));
                        }
                    }
                    path.truncate(len);
                }
                if let (Some(Value::Object(others)), Some((name, declared, _))) = (others, extra) {
                    for (k, x) in others {
                        if declared.contains(&k) {
                            let len = enter(path, name);
                            errors.push(error(
                                path,
                                "entries",
                                "a key that is not a declared property".into(),
                                format!("{k:?}"),
                            ));
                            path.truncate(len);
                        } else {
                            out.insert(k, x);
                        }
                    }
                }
                Value::Object(out)
            }
            (Step::Array { prefix, rest }, Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    let s = prefix.get(i).copied().unwrap_or(*rest);
                    let len = enter(path, &i.to_string());
                    out.push(self.back(s, x, path, depth + 1, errors));
                    path.truncate(len);
                }
                Value::Array(out)
            }
            (Step::Entries { value }, Value::Array(items)) => {
                let mut out = Map::with_capacity(items.len());
                let mut seen: HashSet<&str> = HashSet::with_capacity(items.len());
                for (i, entry) in items.iter().enumerate() {
                    let len = enter(path, &i.to_string());
                    let parts = entry.as_object().and_then(|e| {
                        let k = e.get("key")?.as_str()?;
                        (e.len() == 2).then_some(())?;
                        Some((k, e.get("value")?))
                    });
                    match parts {
                        None => errors.push(error(
                            path,
                            "entries",
                            "an entry {\"key\": string, \"value\": ...}".into(),
                            describe(entry),
                        )),
                        Some((k, _)) if !seen.insert(k) => {
                            path.push_str("/key");
                            errors.push(error(
                                path,
                                "entries",
                                "each key once".into(),
                                format!("{k:?} again"),
                            ));
                        }
                        Some((k, x)) => {
                            let l2 = enter(path, "value");
                            let x = self.back(*value, x, path, depth + 1, errors);
                            path.truncate(l2);
                            out.insert(k.to_string(), x);
                        }
                    }
                    path.truncate(len);
                }
                Value::Object(out)
            }
            (
                Step::Positions {
                    prefix,
                    required,
                    null_ends,
                    rest,
                },
                Value::Object(o),
            ) => {
                let mut out = Vec::with_capacity(prefix.len());
                let mut ended = false;
                for (i, s) in prefix.iter().enumerate() {
                    let key = format!("_{i}");
                    let x = o.get(&key);
                    let absent = match x {
                        None => true,
                        Some(Value::Null) => i >= *required && null_ends[i],
                        Some(_) => false,
                    };
                    if absent {
                        if i < *required {
                            errors.push(error(path, "required", key, "nothing".into()));
                        }
                        ended = true;
                        continue;
                    }
                    let len = enter(path, &key);
                    let x = x.unwrap_or(&Value::Null);
                    if ended {
                        errors.push(error(
                            path,
                            "positions",
                            "no position after an absent one".into(),
                            describe(x),
                        ));
                    } else {
                        out.push(self.back(*s, x, path, depth + 1, errors));
                    }
                    path.truncate(len);
                }
                if let (Some(r), Some(Value::Array(more))) = (rest, o.get("_rest")) {
                    let len = enter(path, "_rest");
                    if ended && !more.is_empty() {
                        errors.push(error(
                            path,
                            "positions",
                            "no items after an absent position".into(),
                            describe(&o["_rest"]),
                        ));
                    }
                    for (i, x) in more.iter().enumerate() {
                        let l2 = enter(path, &i.to_string());
                        out.push(self.back(*r, x, path, depth + 1, errors));
                        path.truncate(l2);
                    }
                    path.truncate(len);
                }
                Value::Array(out)
            }
            (Step::Text, Value::String(text)) => match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => {
                    errors.push(error(path, "json", "JSON text".into(), e.to_string()));
                    v.clone()
                }
            },
            (Step::Text, _) => {
                errors.push(error(
                    path,
                    "type",
                    "a string of JSON text".into(),
                    describe(v),
                ));
                v.clone()
            }
            (Step::Union(branches), _) => {
                // (the rewritten shapes first, which a plain branch of the same JSON type
                // could also read (entries are an array too), JSON text last, since any
                // string of a plain branch could be JSON text)
                let bit = type_bit(v);
                for r in 0..3 {
                    for (out_mask, _, s) in branches {
                        if self.out_mask(*s, *out_mask) & bit == 0 || self.rank(*s) != r {
                            continue;
                        }
                        let mut tried = Vec::new();
                        let x = self.back(*s, v, path, depth + 1, &mut tried);
                        if tried.is_empty() {
                            return x;
                        }
                    }
                }
                v.clone()
            }
            (Step::All(parts), _) => {
                let mut x = v.clone();
                for s in parts {
                    x = self.back(*s, &x, path, depth + 1, errors);
                }
                x
            }
            // A value of another shape than the step's: left to the validator.
            _ => v.clone(),
        }
    }

    fn fwd(
        &self,
        step: usize,
        v: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) -> Value {
        if step == SAME || too_deep(path, depth, errors) {
            return v.clone();
        }
        match (&self.steps[step], v) {
            (
                Step::Object {
                    props,
                    absent_if_null,
                    rest,
                    extra,
                },
                Value::Object(o),
            ) => {
                // (the value's own key order: a grammar enforces the schema's order, which
                // the value has)
                let mut out = Map::with_capacity(o.len());
                let mut others = Map::new();
                for (k, x) in o {
                    match extra {
                        Some((_, declared, _)) if !declared.contains(k) => {
                            others.insert(k.clone(), x.clone());
                        }
                        _ => {
                            let s = props.iter().find(|(n, _)| n == k).map_or(*rest, |p| p.1);
                            let len = enter(path, k);
                            out.insert(k.clone(), self.fwd(s, x, path, depth + 1, errors));
                            path.truncate(len);
                        }
                    }
                }
                for k in absent_if_null {
                    if !o.contains_key(k) {
                        out.insert(k.clone(), Value::Null);
                    }
                }
                if let Some((name, _, step)) = extra {
                    let len = enter(path, name);
                    let x = self.fwd(*step, &Value::Object(others), path, depth + 1, errors);
                    path.truncate(len);
                    out.insert(name.clone(), x);
                }
                Value::Object(out)
            }
            (Step::Array { prefix, rest }, Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    let s = prefix.get(i).copied().unwrap_or(*rest);
                    let len = enter(path, &i.to_string());
                    out.push(self.fwd(s, x, path, depth + 1, errors));
                    path.truncate(len);
                }
                Value::Array(out)
            }
            (Step::Entries { value }, Value::Object(o)) => Value::Array(
                o.iter()
                    .map(|(k, x)| {
                        let len = enter(path, k);
                        let x = self.fwd(*value, x, path, depth + 1, errors);
                        path.truncate(len);
                        let mut e = Map::with_capacity(2);
                        e.insert("key".into(), Value::String(k.clone()));
                        e.insert("value".into(), x);
                        Value::Object(e)
                    })
                    .collect(),
            ),
            (
                Step::Positions {
                    prefix,
                    null_ends,
                    rest,
                    ..
                },
                Value::Array(items),
            ) => {
                let mut out = Map::new();
                for (i, s) in prefix.iter().enumerate() {
                    let len = enter(path, &i.to_string());
                    match items.get(i) {
                        Some(x) => {
                            let x = self.fwd(*s, x, path, depth + 1, errors);
                            out.insert(format!("_{i}"), x);
                        }
                        // (an absent position: `null` where the dialect made it nullable)
                        None if null_ends[i] => {
                            out.insert(format!("_{i}"), Value::Null);
                        }
                        None => {}
                    }
                    path.truncate(len);
                }
                if let Some(r) = rest {
                    let more: Vec<Value> = (items.iter().enumerate().skip(prefix.len()))
                        .map(|(i, x)| {
                            let len = enter(path, &i.to_string());
                            let x = self.fwd(*r, x, path, depth + 1, errors);
                            path.truncate(len);
                            x
                        })
                        .collect();
                    out.insert("_rest".into(), Value::Array(more));
                }
                Value::Object(out)
            }
            (Step::Text, _) => Value::String(v.to_string()),
            (Step::Union(branches), _) => {
                // (an object: first a branch whose rewritten properties the value has, so a
                // variant is written by its own steps; then in the order the read-back tries
                // them, so that what it reads first is what was written)
                let bit = type_bit(v);
                if let Value::Object(o) = v {
                    for (_, in_mask, s) in branches {
                        let named = match &self.steps[*s] {
                            Step::Object { props, .. } => {
                                props.iter().any(|(n, _)| o.contains_key(n))
                            }
                            _ => false,
                        };
                        if in_mask & bit != 0 && named {
                            let mut tried = Vec::new();
                            let x = self.fwd(*s, v, path, depth + 1, &mut tried);
                            if tried.is_empty() {
                                return x;
                            }
                        }
                    }
                }
                for r in 0..3 {
                    for (_, in_mask, s) in branches {
                        if in_mask & bit == 0 || self.rank(*s) != r {
                            continue;
                        }
                        let mut tried = Vec::new();
                        let x = self.fwd(*s, v, path, depth + 1, &mut tried);
                        if tried.is_empty() {
                            return x;
                        }
                    }
                }
                v.clone()
            }
            (Step::All(parts), _) => {
                let mut x = v.clone();
                for s in parts {
                    x = self.fwd(*s, &x, path, depth + 1, errors);
                }
                x
            }
            _ => v.clone(),
        }
    }
}

/// Whether `depth` is past [`MAX_DEPTH`] (an error at `path` then).
fn too_deep(path: &str, depth: usize, errors: &mut Vec<ValidationError>) -> bool {
    if depth <= MAX_DEPTH {
        return false;
    }
    errors.push(error(
        path,
        "depth",
        "a shallower value".into(),
        "deeper".into(),
    ));
    true
}

fn push_token(path: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Appends `/token` to `path`; the length before, to truncate back to.
fn enter(path: &mut String, token: &str) -> usize {
    let len = path.len();
    path.push('/');
    push_token(path, token);
    len
}

fn error(path: &str, keyword: &'static str, expected: String, found: String) -> ValidationError {
    ValidationError {
        path: path.to_string(),
        keyword,
        expected,
        found,
    }
}

fn one_error(
    path: &str,
    keyword: &'static str,
    expected: String,
    found: String,
) -> ValidationErrors {
    ValidationErrors::from_vec(vec![error(path, keyword, expected, found)], false)
}

/// A short description of a value for an error's `found`.
fn describe(v: &Value) -> String {
    match v {
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        Value::String(s) if s.len() > 40 => "a string".into(),
        v => v.to_string(),
    }
}
