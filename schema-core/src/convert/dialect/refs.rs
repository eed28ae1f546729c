//! The `$ref` graph of a schema: which local references resolve (each reference as written
//! resolved once, to its final target: the table both readers take targets from), which types
//! are recursive, and which cycles have no object in between (and so describe no value).

use super::super::pointer;
use super::{Path, MAX_DEPTH};
use crate::convert::{ConvertError, ConvertErrorKind, SmallMap};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// The most `$ref -> $ref` aliases followed before giving up.
const MAX_ALIAS_CHAIN: usize = 64;

/// What the scan of every reachable `$ref` found.
#[derive(Debug)]
pub(crate) struct RefGraph<'a> {
    /// Targets (JSON pointers, `""` for the root) that reach themselves.
    pub recursive: HashSet<String>,
    /// How many `$ref`s point at each target.
    pub uses: HashMap<String, usize>,
    /// The document.
    root: &'a Value,
    /// Every reference the scan met, as written -> its final target (alias chains followed):
    /// pointer and value.
    targets: HashMap<String, (String, &'a Value)>,
}

impl<'a> RefGraph<'a> {
    /// The final target of the reference `r` (met at `at`): its JSON pointer and value, from
    /// the table the scan filled (a reference the scan did not meet, in a place it does not
    /// look, is resolved here the same way).
    pub(crate) fn target(&self, r: &str, at: &str) -> Result<(String, &'a Value), ConvertError> {
        match self.targets.get(r) {
            Some((to, value)) => Ok((to.clone(), *value)),
            None => follow(self.root, r, at),
        }
    }
}

/// Resolves `reference` (found at `at`) and follows alias chains (`{"$ref": ...}` alone) to the
/// final target: its JSON pointer and value.
pub(crate) fn follow<'a>(
    root: &'a Value,
    reference: &str,
    at: &str,
) -> Result<(String, &'a Value), ConvertError> {
    let mut current = reference.to_string();
    let mut seen = HashSet::new();
    for _ in 0..MAX_ALIAS_CHAIN {
        if !seen.insert(current.clone()) {
            return Err(ConvertError::new(at, ConvertErrorKind::RefCycle(current)));
        }
        let target = pointer::resolve(root, &current).ok_or_else(|| {
            ConvertError::new(at, ConvertErrorKind::UnresolvableRef(current.clone()))
        })?;
        match target.as_object() {
            Some(m) if m.len() == 1 && m.contains_key("$ref") => match m.get("$ref") {
                Some(Value::String(next)) => current = next.clone(),
                _ => {
                    return Err(ConvertError::new(
                        at,
                        ConvertErrorKind::Malformed("`$ref` must be a string".into()),
                    ))
                }
            },
            _ => {
                let ptr = decode(&current);
                return Ok((ptr, target));
            }
        }
    }
    Err(ConvertError::new(
        at,
        ConvertErrorKind::TooDeep(MAX_ALIAS_CHAIN),
    ))
}

/// The JSON pointer of a local reference (`#/a/b` -> `/a/b`).
fn decode(reference: &str) -> String {
    reference.strip_prefix('#').unwrap_or(reference).to_string()
}

/// The subschemas of a schema object: (keyword path tokens, value, whether the step descends
/// into a value: a property, an item; `false` for applicators like `anyOf` that describe the
/// same value).
pub(crate) fn subschemas(map: &serde_json::Map<String, Value>) -> Vec<(Vec<String>, &Value, bool)> {
    let mut out = Vec::new();
    for (k, v) in map {
        match k.as_str() {
            "properties" | "patternProperties" | "dependentSchemas" => {
                if let Value::Object(props) = v {
                    for (name, s) in props {
                        out.push((vec![k.clone(), name.clone()], s, true));
                    }
                }
            }
            "items" | "prefixItems" => match v {
                Value::Array(a) => {
                    for (i, s) in a.iter().enumerate() {
                        out.push((vec![k.clone(), i.to_string()], s, true));
                    }
                }
                s => out.push((vec![k.clone()], s, true)),
            },
            "additionalProperties"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems" => {
                out.push((vec![k.clone()], v, true));
            }
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(a) = v {
                    for (i, s) in a.iter().enumerate() {
                        out.push((vec![k.clone(), i.to_string()], s, false));
                    }
                }
            }
            "not" | "if" | "then" | "else" => out.push((vec![k.clone()], v, false)),
            _ => {}
        }
    }
    out
}

/// An edge of the graph: from a target to the target of a `$ref` inside it.
struct Edge {
    to: String,
    /// Whether the path to the `$ref` goes through a property or an item.
    structural: bool,
}

/// Scans every `$ref` reachable from the root (following references, never into unreferenced
/// `$defs`).
pub(crate) fn scan(root: &Value) -> Result<RefGraph<'_>, ConvertError> {
    let mut edges: HashMap<String, Vec<Edge>> = HashMap::new();
    let mut graph = RefGraph {
        recursive: HashSet::new(),
        uses: HashMap::new(),
        root,
        targets: HashMap::new(),
    };
    // The root first: a document without a `$ref` (most) needs no queue, no set and no table.
    let mut found = Vec::new();
    walk(root, root, &Path::At(""), false, 0, &mut found)?;
    if found.is_empty() {
        return Ok(graph);
    }
    let mut root_found = Some(found);
    let mut queue: Vec<(String, &Value)> = vec![(String::new(), root)];
    let mut scanned: HashSet<String> = HashSet::new();
    scanned.insert(String::new());
    while let Some((from, value)) = queue.pop() {
        let found = match root_found.take() {
            // (the root's, found above: the first entry of the queue is the root)
            Some(found) => found,
            None => {
                let mut found = Vec::new();
                walk(root, value, &Path::At(&from), false, 0, &mut found)?;
                found
            }
        };
        for (r, to, target, structural) in found {
            *graph.uses.entry(to.clone()).or_default() += 1;
            if !graph.targets.contains_key(r) {
                graph.targets.insert(r.clone(), (to.clone(), target));
            }
            if scanned.insert(to.clone()) {
                queue.push((to.clone(), target));
            }
            edges
                .entry(from.clone())
                .or_default()
                .push(Edge { to, structural });
        }
    }
    // A target is recursive when it is on a cycle; a cycle made only of applicator steps (no
    // property or item in between) describes no value.
    if edges.is_empty() {
        // No `$ref` reachable: nothing is recursive.
        return Ok(graph);
    }
    let mut targets: Vec<&String> = scanned.iter().collect();
    targets.sort();
    for t in cyclic(&targets, &edges, false) {
        graph.recursive.insert(t.clone());
    }
    if let Some(t) = cyclic(&targets, &edges, true).into_iter().min() {
        return Err(ConvertError::new(
            t.clone(),
            ConvertErrorKind::RefCycle(format!("#{t}")),
        ));
    }
    Ok(graph)
}

/// The nodes that lie on a cycle (through non-structural edges only if `direct_only`), by
/// Tarjan's strongly connected components, iteratively (a long chain must not overflow).
fn cyclic<'a>(
    nodes: &[&'a String],
    edges: &'a HashMap<String, Vec<Edge>>,
    direct_only: bool,
) -> Vec<&'a String> {
    let index_of: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(n.as_str())
                .map(|es| {
                    es.iter()
                        .filter(|e| !(direct_only && e.structural))
                        .filter_map(|e| index_of.get(e.to.as_str()).copied())
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < succ[v].len() {
                let w = succ[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 || succ[v].contains(&v) {
                        out.extend(component.into_iter().map(|w| nodes[w]));
                    }
                }
            }
        }
    }
    out
}

/// Collects the `$ref`s inside `value` (not following them). `at` is the place of `value`
/// (its pointer is only built for a `$ref` or an error).
fn walk<'a>(
    root: &'a Value,
    value: &'a Value,
    at: &Path<'_>,
    structural: bool,
    depth: usize,
    found: &mut Vec<(&'a String, String, &'a Value, bool)>,
) -> Result<(), ConvertError> {
    if depth > MAX_DEPTH {
        return Err(ConvertError::new(
            at.pointer(),
            ConvertErrorKind::TooDeep(MAX_DEPTH),
        ));
    }
    let Value::Object(map) = value else {
        return Ok(());
    };
    // (searched, not hashed: a schema object has a few keys)
    if let Some(r) = map.fget("$ref") {
        let Value::String(r) = r else {
            return Err(ConvertError::new(
                at.pointer(),
                ConvertErrorKind::Malformed("`$ref` must be a string".into()),
            ));
        };
        let (to, target) = follow(root, r, &at.pointer())?;
        found.push((r, to, target, structural));
    }
    // The same subschemas, in the same order, as [`subschemas`].
    for (k, v) in map {
        let kat = Path::Key(at, k);
        match k.as_str() {
            "properties" | "patternProperties" | "dependentSchemas" => {
                if let Value::Object(props) = v {
                    for (name, s) in props {
                        walk(root, s, &Path::Key(&kat, name), true, depth + 1, found)?;
                    }
                }
            }
            "items" | "prefixItems" => match v {
                Value::Array(a) => {
                    for (i, s) in a.iter().enumerate() {
                        walk(root, s, &Path::Index(&kat, i), true, depth + 1, found)?;
                    }
                }
                s => walk(root, s, &kat, true, depth + 1, found)?,
            },
            "additionalProperties"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems" => walk(root, v, &kat, true, depth + 1, found)?,
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(a) = v {
                    for (i, s) in a.iter().enumerate() {
                        walk(root, s, &Path::Index(&kat, i), structural, depth + 1, found)?;
                    }
                }
            }
            "not" | "if" | "then" | "else" => walk(root, v, &kat, structural, depth + 1, found)?,
            _ => {}
        }
    }
    Ok(())
}
