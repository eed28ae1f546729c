//! Which schemas below a merged place may still change their shape.
//!
//! The lowering merges the parts of an `allOf` with the keywords beside them, and a `$ref`
//! beside other keywords with its target. A merged part cannot change its own shape (the parts
//! it merges with would no longer fit), so `shapes.rs` freezes it; below it, a schema may still
//! change its shape where no other part of the merge constrains the same values: a property no
//! other part names, when no other part has a rule for undeclared keys; the items, when no
//! other part has one for items. [`Touch`] sums up what the other parts of a merge constrain,
//! and [`guards`] gives it for each frozen place of the light rule (`frozen_places`).

use crate::convert::pointer;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// One piece of a merge.
pub(super) enum Piece {
    /// The keywords of the schema at this pointer but its `allOf` and `$ref`.
    Own(String),
    /// The schema at this pointer, whole (its `$ref` followed).
    Whole(String),
    /// The target of a `$ref` (an input pointer).
    Target(String),
}

/// What the other parts of a merge constrain below it.
#[derive(Clone, Default, Debug)]
pub(super) struct Touch {
    /// Anything (a union, a negation, an `enum` or `const`, a `$ref` that resolves to nothing).
    all: bool,
    /// Undeclared keys (`additionalProperties`, `patternProperties`, ...).
    keys: bool,
    /// The properties it declares.
    names: HashSet<String>,
    /// The items of an array.
    items: bool,
}

impl Touch {
    /// Whether the child of a frozen schema under `keyword` (and the property `name`) is
    /// constrained by no other part, so it may change its shape.
    pub(super) fn frees(&self, keyword: &str, name: &str) -> bool {
        if self.all {
            return false;
        }
        match keyword {
            "properties" => !self.keys && !self.names.contains(name),
            "additionalProperties" | "patternProperties" => !self.keys && self.names.is_empty(),
            "items" | "prefixItems" | "additionalItems" => !self.items,
            _ => false,
        }
    }

    fn add(&mut self, other: &Touch) {
        self.all |= other.all;
        self.keys |= other.keys;
        self.items |= other.items;
        self.names.extend(other.names.iter().cloned());
    }

    /// What the schema `v` constrains (its `$ref`s and `allOf` parts followed), `skip` its
    /// keywords not counted.
    fn of(root: &Value, v: &Value, skip: &[&str], depth: usize) -> Touch {
        let mut t = Touch::default();
        let m = match v {
            Value::Object(m) if depth <= 8 => m,
            Value::Bool(true) => return t,
            _ => {
                t.all = true;
                return t;
            }
        };
        for (k, x) in m {
            if skip.contains(&k.as_str()) {
                continue;
            }
            match k.as_str() {
                "$ref" => match x.as_str().and_then(|r| pointer::resolve(root, r)) {
                    Some(target) => t.add(&Touch::of(root, target, &[], depth + 1)),
                    None => t.all = true,
                },
                "allOf" => match x {
                    Value::Array(parts) => {
                        for p in parts {
                            t.add(&Touch::of(root, p, &[], depth + 1));
                        }
                    }
                    _ => t.all = true,
                },
                "properties" => match x {
                    Value::Object(p) => t.names.extend(p.keys().cloned()),
                    _ => t.all = true,
                },
                "additionalProperties" => {
                    let open =
                        x == &Value::Bool(true) || x.as_object().is_some_and(|o| o.is_empty());
                    t.keys |= !open;
                }
                "patternProperties"
                | "unevaluatedProperties"
                | "dependentSchemas"
                | "dependencies" => t.keys = true,
                "items" | "prefixItems" | "additionalItems" | "contains" | "unevaluatedItems" => {
                    t.items = true
                }
                "anyOf" | "oneOf" | "not" | "if" | "then" | "else" | "enum" | "const"
                | "$dynamicRef" | "$recursiveRef" => t.all = true,
                _ => {}
            }
        }
        t
    }
}

/// The places each piece freezes: its own pointer, and a `$ref`'s target.
fn places(root: &Value, piece: &Piece) -> Vec<String> {
    let at = match piece {
        Piece::Own(at) => return vec![at.clone()],
        Piece::Target(t) => return vec![t.clone()],
        Piece::Whole(at) => at,
    };
    let mut out = vec![at.clone()];
    let target = (pointer::get(root, at))
        .and_then(|v| v.get("$ref"))
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(pointer::percent_decode);
    out.extend(target);
    out
}

/// What each piece constrains.
fn touch(root: &Value, piece: &Piece) -> Touch {
    let (at, skip): (&str, &[&str]) = match piece {
        Piece::Own(at) => (at, &["allOf", "$ref"]),
        Piece::Whole(at) | Piece::Target(at) => (at, &[]),
    };
    match pointer::get(root, at) {
        Some(v) => Touch::of(root, v, skip, 0),
        None => Touch {
            all: true,
            ..Touch::default()
        },
    }
}

/// For each place a piece of a merge freezes, what the other pieces of its merges constrain.
pub(super) fn guards(root: &Value, merges: &[Vec<Piece>]) -> HashMap<String, Touch> {
    let mut out: HashMap<String, Touch> = HashMap::new();
    for pieces in merges {
        let touches: Vec<Touch> = pieces.iter().map(|p| touch(root, p)).collect();
        for (i, p) in pieces.iter().enumerate() {
            let mut others = Touch::default();
            for (j, t) in touches.iter().enumerate() {
                if j != i {
                    others.add(t);
                }
            }
            for at in places(root, p) {
                out.entry(at).or_default().add(&others);
            }
        }
    }
    out
}
