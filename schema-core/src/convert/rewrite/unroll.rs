//! Recursion unrolled to a set depth, for the dialects that refuse recursive `$ref`s
//! (Anthropic).
//!
//! A definition that reaches itself through `$ref`s is written out in place of each `$ref` to
//! it, [`DialectOptions::recursion_depth`](crate::convert::DialectOptions::recursion_depth)
//! levels deep; below the deepest level a `$ref` to it becomes a schema of any value with a
//! note naming the type. The provider's grammar then leaves that deepest level free, and the
//! validator, which reads the input's schema, still checks it: the read-back is the identity.
//! A document that would grow past [`MAX_NODES`] schemas is left as it is (the dialect walk
//! refuses its recursion, as before).

use crate::convert::pointer;
use crate::convert::{MAX_DEPTH, MAX_NODES};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// The unrolled document, where its schemas moved (pointer in it, input pointer), and the
/// recursive definitions unrolled (input pointers).
pub(super) struct Unrolled {
    pub(super) doc: Value,
    pub(super) moves: Vec<(String, String)>,
    pub(super) unrolled: Vec<String>,
}

/// `doc` with its recursion unrolled `depth` levels deep; `None` where it has none, or where
/// unrolling it would grow past [`MAX_NODES`] schemas.
pub(super) fn unroll(doc: &Value, depth: usize) -> Option<Unrolled> {
    let mut refs: Vec<(String, String)> = Vec::new(); // (pointer of the `$ref`, target)
    collect(doc, "", &mut refs, 0);
    if refs.is_empty() {
        return None;
    }
    let recursive = recursive_targets(&refs);
    if recursive.is_empty() {
        return None;
    }
    let mut u = Unroll {
        root: doc,
        recursive: &recursive,
        depth: depth.max(1),
        stack: Vec::new(),
        nodes: 0,
        moves: Vec::new(),
    };
    let out = u.walk(doc, "", "", 0)?;
    let moves = u.moves;
    let mut unrolled: Vec<String> = recursive.into_iter().collect();
    unrolled.sort();
    Some(Unrolled {
        doc: out,
        moves,
        unrolled,
    })
}

/// Every local `$ref` of `v`: its pointer and its target's.
fn collect(v: &Value, at: &str, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "$ref" {
                    if let Some(t) = target(x) {
                        out.push((at.to_string(), t));
                    }
                } else {
                    collect(x, &pointer::push(at, k), out, depth + 1);
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                collect(x, &pointer::push_index(at, i), out, depth + 1);
            }
        }
        _ => {}
    }
}

fn target(r: &Value) -> Option<String> {
    r.as_str()?
        .strip_prefix('#')
        .and_then(pointer::percent_decode)
}

/// Whether `at` is `place` or below it.
fn below(at: &str, place: &str) -> bool {
    at.strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The targets that reach themselves: target `t` leads to the targets of the `$ref`s below
/// it. Each target's `$ref`s are found by one scan of the sorted list.
fn recursive_targets(refs: &[(String, String)]) -> HashSet<String> {
    let mut by_at: Vec<&(String, String)> = refs.iter().collect();
    by_at.sort();
    let targets: HashSet<&str> = refs.iter().map(|(_, t)| t.as_str()).collect();
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    for &t in &targets {
        let start = by_at.partition_point(|(at, _)| at.as_str() < t);
        let out: Vec<&str> = (by_at[start..].iter())
            .take_while(|(at, _)| below(at, t) || at.as_str() < t)
            .filter(|(at, _)| below(at, t))
            .map(|(_, to)| to.as_str())
            .collect();
        next.insert(t, out);
    }
    // a target is recursive where a walk from it comes back to it (iterative, each target's
    // walk visits each target once)
    let mut out = HashSet::new();
    for &t in &targets {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut todo: Vec<&str> = next.get(t).cloned().unwrap_or_default();
        while let Some(x) = todo.pop() {
            if x == t {
                out.insert(t.to_string());
                break;
            }
            if seen.insert(x) {
                todo.extend(next.get(x).into_iter().flatten().copied());
            }
        }
    }
    out
}

struct Unroll<'a> {
    root: &'a Value,
    recursive: &'a HashSet<String>,
    depth: usize,
    /// The recursive definitions being written out, innermost last.
    stack: Vec<String>,
    nodes: usize,
    moves: Vec<(String, String)>,
}

impl Unroll<'_> {
    /// `v` (at `at` in the input, `out_at` in the output) with its recursive `$ref`s unrolled.
    fn walk(&mut self, v: &Value, at: &str, out_at: &str, depth: usize) -> Option<Value> {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH * 4 {
            return None;
        }
        let entered = self.recursive.contains(at);
        if entered {
            self.stack.push(at.to_string());
        }
        let out = match v {
            Value::Object(m) => match m.get("$ref").and_then(target) {
                Some(t) if self.recursive.contains(&t) => self.reference(m, &t, at, out_at, depth),
                _ => {
                    let mut o = Map::with_capacity(m.len());
                    let defs = at.ends_with("/$defs") || at.ends_with("/definitions");
                    for (k, x) in m {
                        // (a recursive definition is written out where it is used: its
                        // entry, which nothing names any more, is left out)
                        if defs && self.recursive.contains(&pointer::push(at, k)) {
                            continue;
                        }
                        let x = self.walk(
                            x,
                            &pointer::push(at, k),
                            &pointer::push(out_at, k),
                            depth + 1,
                        )?;
                        o.insert(k.clone(), x);
                    }
                    Some(Value::Object(o))
                }
            },
            Value::Array(a) => (a.iter().enumerate())
                .map(|(i, x)| {
                    self.walk(
                        x,
                        &pointer::push_index(at, i),
                        &pointer::push_index(out_at, i),
                        depth + 1,
                    )
                })
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            v => Some(v.clone()),
        };
        if entered {
            self.stack.pop();
        }
        out
    }

    /// A `$ref` to the recursive definition `t`: the definition written out, or below the
    /// deepest level a schema of any value.
    fn reference(
        &mut self,
        m: &Map<String, Value>,
        t: &str,
        at: &str,
        out_at: &str,
        depth: usize,
    ) -> Option<Value> {
        let mut siblings = Map::new();
        for (k, x) in m.iter().filter(|(k, _)| k.as_str() != "$ref") {
            let x = self.walk(
                x,
                &pointer::push(at, k),
                &pointer::push(out_at, k),
                depth + 1,
            )?;
            siblings.insert(k.clone(), x);
        }
        let levels = self.stack.iter().filter(|s| s.as_str() == t).count();
        if levels >= self.depth {
            let name = pointer::last_token(t);
            let name = if name.is_empty() { "the root" } else { &name };
            let note = format!(
                "A value of the type {name} (the same shape as its level above; deeper levels are not spelled out)."
            );
            let text = match siblings.get("description").and_then(Value::as_str) {
                Some(d) if !d.is_empty() => format!("{d}\n\n{note}"),
                _ => note,
            };
            siblings.insert("description".into(), Value::String(text));
            return Some(Value::Object(siblings));
        }
        let body = pointer::get(self.root, t)?;
        // (the definition walked at its own input pointer, so its `$ref`s count its level)
        let written = if siblings.keys().all(|k| is_annotation(k)) {
            let inner = self.walk(body, t, out_at, depth + 1)?;
            self.moves.push((out_at.to_string(), t.to_string()));
            match inner {
                Value::Object(mut o) => {
                    for (k, x) in siblings {
                        o.insert(k, x);
                    }
                    Value::Object(o)
                }
                other if siblings.is_empty() => other,
                other => {
                    siblings.insert("allOf".into(), Value::Array(vec![other]));
                    Value::Object(siblings)
                }
            }
        } else {
            let part = pointer::push_all(out_at, &["allOf", "0"]);
            let inner = self.walk(body, t, &part, depth + 1)?;
            self.moves.push((part, t.to_string()));
            let mut all = vec![inner];
            if let Some(Value::Array(more)) = siblings.remove("allOf") {
                all.extend(more);
            }
            siblings.insert("allOf".into(), Value::Array(all));
            Value::Object(siblings)
        };
        Some(written)
    }
}

fn is_annotation(k: &str) -> bool {
    matches!(
        k,
        "description" | "title" | "$comment" | "examples" | "default"
    )
}
