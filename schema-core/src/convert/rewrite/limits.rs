//! A plan for a schema over a provider's limits on the whole schema (OpenAI's 10 levels of
//! object nesting and 1000 enum values), used only where the conversion is refused for one of
//! them:
//! - **nesting**: an object below the deepest level allowed goes without a grammar: it becomes
//!   a schema of any value with a note (the budget plan's form), which the shape rewrites then
//!   write as a string of JSON text read back by parsing; the validator, reading the input's
//!   schema, still checks it. A `$ref` whose target reaches too deep is first replaced by a
//!   copy of its target (the output inlines it anyway), so only the deep use loses its
//!   grammar, not every use of the definition. What is cut is the nearest property or item
//!   holding the deep object; a union or a merge reaching too deep is cut whole.
//! - **enum values**: the largest enums move into the description as an `@enum` tag (the
//!   validator enforces them) and the schema keeps the type of their values, until the total,
//!   counted as the output counts it (a `$ref` counts its target's on each use), fits.
//!
//! Both count the input, which the output follows closely but not exactly (copies into union
//! branches, a `const` union written as one `enum`), so [`super::convert`] asks for a tighter
//! plan while the output is still over, a few times at most.

use super::budget::free_schema;
use crate::convert::dialect::applies_to;
use crate::convert::pointer;
use crate::convert::MAX_DEPTH;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// A limits plan applied to a document.
pub(super) struct Plan {
    /// The document with the plan applied.
    pub(super) doc: Value,
    /// Schemas written without a grammar (their pointers in `doc`).
    pub(super) free: Vec<String>,
    /// Schemas whose `enum` moved into the description (their pointers in `doc`).
    pub(super) enums: Vec<String>,
    /// Where copies of `$ref` targets were put: (pointer in `doc`, the target's pointer).
    pub(super) moves: Vec<(String, String)>,
}

/// The plan for `doc` under at most `max_depth` levels of object nesting and `max_enums` enum
/// values; `None` where nothing can be cut or moved.
pub(super) fn plan(
    doc: &Value,
    max_depth: Option<usize>,
    max_enums: Option<usize>,
) -> Option<Plan> {
    let mut out = doc.clone();
    let mut cut = Cut {
        root: doc,
        recursive: if max_depth.is_some() {
            recursive(doc)
        } else {
            HashSet::new()
        },
        heights: HashMap::new(),
        stack: Vec::new(),
        free: Vec::new(),
        moves: Vec::new(),
        max: max_depth.unwrap_or(usize::MAX),
    };
    // (a root that is not an object is wrapped in one)
    let first = match doc.as_object().and_then(target) {
        Some(t) => pointer::get(doc, &t),
        None => Some(doc),
    };
    let wrapped = !first.and_then(Value::as_object).is_some_and(is_object);
    if max_depth.is_some() && cut.walk(&mut out, "", usize::from(wrapped), false, 0) {
        // (the root itself reaches too deep through a union or a merge: nothing to cut)
        return None;
    }
    let enums = match max_enums {
        Some(max) => move_enums(&mut out, max),
        None => Vec::new(),
    };
    if cut.free.is_empty() && enums.is_empty() {
        return None;
    }
    Some(Plan {
        doc: out,
        free: cut.free,
        enums,
        moves: cut.moves,
    })
}

/// Keywords whose values are data or definitions, not schemas of the value at hand.
fn skipped(k: &str) -> bool {
    matches!(
        k,
        "enum" | "const" | "default" | "examples" | "required" | "type" | "$defs" | "definitions"
    )
}

/// Keywords whose schemas apply to the same value (a branch adds no level of its own below an
/// object).
fn same_value(k: &str) -> bool {
    matches!(
        k,
        "anyOf" | "oneOf" | "allOf" | "not" | "if" | "then" | "else" | "dependentSchemas"
    )
}

/// Whether the schema `m` describes objects (the output writes `"type": "object"`).
fn is_object(m: &Map<String, Value>) -> bool {
    match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(a)) => a.iter().any(|t| t == "object"),
        Some(_) => false,
        None => m.keys().any(|k| applies_to(k, "object")),
    }
}

/// The levels the shape rewrites add below an object with declared properties and other
/// keys (its other keys become entries, objects one level down, in one more property) and
/// below a tuple (it becomes an object).
struct Extra {
    entries: bool,
    tuple: bool,
}

impl Extra {
    /// The levels added above the schemas of the keyword `k`.
    fn of(&self, k: &str) -> usize {
        match k {
            "additionalProperties" | "patternProperties" if self.entries => 1,
            "prefixItems" | "items" | "additionalItems" if self.tuple => 1,
            _ => 0,
        }
    }
}

fn extra_levels(m: &Map<String, Value>) -> Extra {
    let tuple = m.get("prefixItems").is_some_and(Value::is_array)
        || m.get("items").is_some_and(Value::is_array);
    Extra {
        entries: is_object(m) && super::shapes::is_mixed_map(m),
        tuple,
    }
}

/// The local `$ref` target of `m`, decoded.
fn target(m: &Map<String, Value>) -> Option<String> {
    (m.get("$ref").and_then(Value::as_str))
        .and_then(|r| r.strip_prefix('#'))
        .and_then(pointer::percent_decode)
}

/// Whether `k` only annotates (kept on a copy of a `$ref` target).
fn annotates(k: &str) -> bool {
    matches!(k, "title" | "description" | "$comment") || k.starts_with("x-")
}

/// Whether `k` beside a `$ref` at the root leaves it a reference alone (kept on the copy).
fn root_keeps(k: &str) -> bool {
    matches!(k, "$schema" | "$id" | "id" | "definitions" | "$defs")
}

/// The local `$ref`s in `v` (not looking into a `$ref`'s target).
fn refs_in(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            out.extend(target(m));
            for (k, x) in m.iter().filter(|(k, _)| !skipped(k)) {
                if k != "$ref" {
                    refs_in(x, out, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out, depth + 1)),
        _ => {}
    }
}

/// The `$ref` targets of `doc` that reach themselves through `$ref`s: the output keeps them
/// as definitions, whose nesting counts on its own.
fn recursive(doc: &Value) -> HashSet<String> {
    let mut all = Vec::new();
    refs_in(doc, &mut all, 0);
    let mut edges: HashMap<String, Vec<String>> = HashMap::new();
    for t in all {
        if let std::collections::hash_map::Entry::Vacant(e) = edges.entry(t) {
            let mut out = Vec::new();
            if let Some(s) = pointer::get(doc, e.key()) {
                refs_in(s, &mut out, 0);
            }
            e.insert(out);
        }
    }
    let mut found = HashSet::new();
    for t in edges.keys() {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut todo: Vec<&str> = edges[t].iter().map(String::as_str).collect();
        while let Some(n) = todo.pop() {
            if n == t {
                found.insert(t.clone());
                break;
            }
            if seen.insert(n) {
                todo.extend(edges.get(n).into_iter().flatten().map(String::as_str));
            }
        }
    }
    found
}

struct Cut<'a> {
    root: &'a Value,
    /// The recursive `$ref` targets (left as `$ref`s, counted as none).
    recursive: HashSet<String>,
    /// The levels of object nesting of each `$ref` target, as a schema of its own or of the
    /// same value as an object (`None` while it is measured).
    heights: HashMap<(String, bool), Option<usize>>,
    /// The `$ref` targets being copied (a recursive one is left as a `$ref`).
    stack: Vec<String>,
    free: Vec<String>,
    moves: Vec<(String, String)>,
    max: usize,
}

impl Cut<'_> {
    /// The levels of object nesting of `v` (itself included unless `branch`: a schema of the
    /// same value as an object), its `$ref`s counting their targets'; a recursive target
    /// counts none (the output keeps it as a definition, which starts its own count).
    fn height(&mut self, v: &Value, branch: bool, depth: usize) -> usize {
        let Value::Object(m) = v else { return 0 };
        if depth > MAX_DEPTH {
            return 0;
        }
        let own = is_object(m);
        let mut inner = 0;
        if let Some(t) = target(m).filter(|t| !self.recursive.contains(t)) {
            // (a target's own level is this schema's where this one is an object too)
            let key = (t, own || branch);
            inner = match self.heights.get(&key) {
                Some(h) => h.unwrap_or(0),
                None => {
                    self.heights.insert(key.clone(), None);
                    let h = match pointer::get(self.root, &key.0) {
                        Some(s) => self.height(s, key.1, depth + 1),
                        None => 0,
                    };
                    self.heights.insert(key, Some(h));
                    h
                }
            };
        }
        let extra = extra_levels(m);
        for (k, x) in m.iter().filter(|(k, _)| !skipped(k) && *k != "$ref") {
            let b = same_value(k) && (own || branch);
            let h = extra.of(k)
                + match x {
                    Value::Object(ps)
                        if matches!(k.as_str(), "properties" | "patternProperties") =>
                    {
                        (ps.values().map(|s| self.height(s, false, depth + 1)))
                            .max()
                            .unwrap_or(0)
                    }
                    Value::Object(ps) if k == "dependentSchemas" => (ps.values())
                        .map(|s| self.height(s, b, depth + 1))
                        .max()
                        .unwrap_or(0),
                    Value::Array(a) => (a.iter().map(|s| self.height(s, b, depth + 1)))
                        .max()
                        .unwrap_or(0),
                    s => self.height(s, b, depth + 1),
                };
            inner = inner.max(h);
        }
        usize::from(own && !branch) + inner
    }

    /// Cuts what reaches below the deepest level in `v` at `at` (below `level` object levels;
    /// `branch`: a schema of the same value as an object). True where `v` must be cut whole by
    /// its holder (it is too deep itself, or a union or a merge in it reaches too deep).
    fn walk(&mut self, v: &mut Value, at: &str, level: usize, branch: bool, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let Value::Object(m) = v else { return false };
        if let Some(t) = target(m) {
            if self.stack.contains(&t) || self.recursive.contains(&t) {
                return false;
            }
            let keeps = |k: &str| annotates(k) || (at.is_empty() && root_keeps(k));
            let alone = m.keys().all(|k| k == "$ref" || keeps(k));
            let Some(found) = pointer::get(self.root, &t) else {
                return false;
            };
            if !alone {
                // (a merge: cut whole where it reaches too deep)
                return level + self.height(v, branch, depth) > self.max;
            }
            if level + self.height(found, branch, depth) <= self.max {
                return false;
            }
            // (a copy of the target in place of the `$ref`, its annotations kept)
            let Value::Object(mut copy) = found.clone() else {
                return false;
            };
            self.moves.push((at.to_string(), t.clone()));
            for (k, x) in m.iter().filter(|(k, _)| keeps(k)) {
                copy.insert(k.clone(), x.clone());
                if root_keeps(k) {
                    // (the root's definitions stay where they are)
                    let kat = pointer::push(at, k);
                    self.moves.push((kat.clone(), kat));
                }
            }
            *v = Value::Object(copy);
            self.stack.push(t);
            let whole = self.walk(v, at, level, branch, depth + 1);
            self.stack.pop();
            return whole;
        }
        let own = is_object(m) && !branch;
        let level = level + usize::from(own);
        if own && level > self.max {
            return true;
        }
        let obj = is_object(m) || branch;
        let extra = extra_levels(m);
        if extra.entries && level + 1 > self.max {
            // (the entries of other keys are objects one level down)
            return true;
        }
        for (k, x) in m.iter_mut().filter(|(k, _)| !skipped(k)) {
            let kat = pointer::push(at, k);
            let level = level + extra.of(k);
            match (k.as_str(), x) {
                ("properties" | "patternProperties", Value::Object(ps)) => {
                    for (name, s) in ps.iter_mut() {
                        let sat = pointer::push(&kat, name);
                        if self.walk(s, &sat, level, false, depth + 1) {
                            *s = free_schema(s);
                            self.free.push(sat);
                        }
                    }
                }
                ("dependentSchemas", Value::Object(ps)) => {
                    for (name, s) in ps.iter_mut() {
                        if self.walk(s, &pointer::push(&kat, name), level, obj, depth + 1) {
                            return true;
                        }
                    }
                }
                (k, Value::Array(a)) if same_value(k) => {
                    for (i, s) in a.iter_mut().enumerate() {
                        if self.walk(s, &pointer::push_index(&kat, i), level, obj, depth + 1) {
                            return true;
                        }
                    }
                }
                (k, s) if same_value(k) => {
                    let whole = self.walk(s, &kat, level, obj, depth + 1);
                    if whole {
                        return true;
                    }
                }
                ("items" | "prefixItems", Value::Array(a)) => {
                    for (i, s) in a.iter_mut().enumerate() {
                        let sat = pointer::push_index(&kat, i);
                        if self.walk(s, &sat, level, false, depth + 1) {
                            *s = free_schema(s);
                            self.free.push(sat);
                        }
                    }
                }
                (_, s @ Value::Object(_)) => {
                    let whole = self.walk(s, &kat, level, false, depth + 1);
                    if whole {
                        *s = free_schema(s);
                        self.free.push(kat);
                    }
                }
                _ => {}
            }
        }
        false
    }
}

/// The JSON type of an enum's values, where they share one (`null` beside it allowed):
/// `"string"`, or `["string", "null"]`.
fn values_type(values: &[Value]) -> Option<Value> {
    let mut ty: Option<&str> = None;
    let mut null = false;
    for v in values {
        let t = match v {
            Value::Null => {
                null = true;
                continue;
            }
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            _ => return None,
        };
        ty = match (ty, t) {
            (None, t) => Some(t),
            (Some(a), b) if a == b => Some(a),
            (Some("integer" | "number"), "integer" | "number") => Some("number"),
            _ => return None,
        };
    }
    let ty = Value::String(ty?.to_string());
    Some(if null {
        Value::Array(vec![ty, Value::String("null".into())])
    } else {
        ty
    })
}

/// How many schema nodes the count of enum uses visits at most (the output, which inlines
/// every `$ref`, is refused over 100,000 nodes).
const MAX_VISITS: usize = 1 << 20;

/// Moves the enums of `doc` that weigh most (values times uses) into their descriptions until
/// its enum values, a `$ref` counting its target's on each use, are at most `max`; their
/// pointers.
fn move_enums(doc: &mut Value, max: usize) -> Vec<String> {
    let mut uses = Uses {
        root: doc,
        stack: Vec::new(),
        places: HashMap::new(),
        visits: 0,
    };
    uses.walk(doc, "", 0);
    if uses.visits > MAX_VISITS {
        return Vec::new();
    }
    let mut places: Vec<(String, usize, bool)> = uses
        .places
        .into_iter()
        .map(|(at, (n, movable))| (at, n, movable))
        .collect();
    let mut total: usize = places.iter().map(|p| p.1).sum();
    // (the heaviest first; of one weight, the first in the document)
    places.retain(|p| p.2);
    places.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut moved = Vec::new();
    for (at, weight, _) in places {
        if total <= max {
            break;
        }
        let Some(Value::Object(m)) = doc.pointer_mut(&at) else {
            continue;
        };
        let Some(Value::Array(values)) = m.remove("enum") else {
            continue;
        };
        if !m.contains_key("type") {
            if let Some(t) = values_type(&values) {
                m.insert("type".into(), t);
            }
        }
        let tag = format!("@enum {}", Value::Array(values));
        let text = match m.get("description").and_then(Value::as_str) {
            Some(d) if !d.is_empty() => format!("{d}\n\n{tag}"),
            _ => tag,
        };
        m.insert("description".into(), Value::String(text));
        total -= weight;
        moved.push(at);
    }
    moved
}

/// The enum values of a document as the output has them, each `$ref` followed on each use (a
/// recursive one once).
struct Uses<'a> {
    root: &'a Value,
    stack: Vec<String>,
    /// Each `enum` or `const`: its values times its uses, and whether it may move (an `enum`
    /// whose values share one type).
    places: HashMap<String, (usize, bool)>,
    visits: usize,
}

impl Uses<'_> {
    fn walk(&mut self, v: &Value, at: &str, depth: usize) {
        self.visits += 1;
        if depth > MAX_DEPTH || self.visits > MAX_VISITS {
            return;
        }
        match v {
            Value::Object(m) => {
                // (a `const` is a one-value `enum` in the output)
                let found = match (m.get("enum"), m.get("const")) {
                    (Some(Value::Array(e)), _) => {
                        let typed = m.contains_key("type") || values_type(e).is_some();
                        Some((
                            e.len(),
                            typed && !e.iter().any(|x| x.is_array() || x.is_object()),
                        ))
                    }
                    (None, Some(_)) => Some((1, false)),
                    _ => None,
                };
                if let Some((n, movable)) = found {
                    self.places.entry(at.to_string()).or_insert((0, movable)).0 += n;
                }
                if let Some(t) = target(m) {
                    if !self.stack.contains(&t) {
                        if let Some(s) = pointer::get(self.root, &t) {
                            self.stack.push(t.clone());
                            self.walk(s, &t, depth + 1);
                            self.stack.pop();
                        }
                    }
                }
                for (k, x) in m.iter().filter(|(k, _)| !skipped(k) && *k != "$ref") {
                    self.walk(x, &pointer::push(at, k), depth + 1);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    self.walk(x, &pointer::push_index(at, i), depth + 1);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
