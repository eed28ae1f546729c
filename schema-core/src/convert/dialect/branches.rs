//! The branches of a union being built: equal branches found by a hash of each branch (its
//! description aside), so that a union of n branches takes linear time, not n² comparisons
//! (before, each new branch was compared with a copy of every earlier one: 8,000 object
//! branches took 15 s).

use serde_json::{Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A union's branches, in order, with an index by [`bare_hash`].
#[derive(Default)]
pub(super) struct Branches {
    list: Vec<Value>,
    /// [`bare_hash`] -> the positions in `list` with that hash, ascending.
    by_hash: HashMap<u64, Vec<usize>>,
}

impl Branches {
    /// Adds `b` unless an equal branch (descriptions aside) is there already; then the
    /// descriptions are joined.
    pub(super) fn push_merging(&mut self, b: Value) {
        let h = bare_hash(&b);
        let bare = strip(&b);
        let found = self.by_hash.get(&h).and_then(|at| {
            at.iter().copied().find(|&i| {
                super::compared(1);
                strip(&self.list[i]) == bare
            })
        });
        if let Some(i) = found {
            join_description(&mut self.list[i], &b);
            return;
        }
        self.push_at(h, b);
    }

    /// Adds `b` unless an equal branch (descriptions included) is there already.
    pub(super) fn push_distinct(&mut self, b: &Value) {
        let h = bare_hash(b);
        let seen = self.by_hash.get(&h).is_some_and(|at| {
            at.iter().any(|&i| {
                super::compared(1);
                self.list[i] == *b
            })
        });
        if !seen {
            self.push_at(h, b.clone());
        }
    }

    fn push_at(&mut self, h: u64, b: Value) {
        self.by_hash.entry(h).or_default().push(self.list.len());
        self.list.push(b);
    }

    /// The branches, in order.
    pub(super) fn into_vec(self) -> Vec<Value> {
        self.list
    }
}

/// `v` without its own `description`.
fn strip(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v {
        m.remove("description");
    }
    v
}

/// The description of `b` added to `existing`'s (an equal branch) unless it is there already.
fn join_description(existing: &mut Value, b: &Value) {
    let (Some(Value::String(new)), Value::Object(em)) = (b.get("description"), existing) else {
        return;
    };
    match em.get_mut("description") {
        Some(Value::String(old)) if !old.contains(new.as_str()) => {
            old.push('\n');
            old.push_str(new);
        }
        Some(_) => {}
        None => {
            em.insert("description".into(), Value::String(new.clone()));
        }
    }
}

/// A hash of `v` without its own `description` that equal values share (an object's keys in
/// any order, as `Value`'s equality reads them).
fn bare_hash(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    match v {
        Value::Object(m) => hash_map(m, Some("description"), &mut h),
        v => hash_value(v, &mut h),
    }
    h.finish()
}

fn hash_value(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, n).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(a) => {
            (4u8, a.len()).hash(h);
            for x in a {
                hash_value(x, h);
            }
        }
        Value::Object(m) => hash_map(m, None, h),
    }
}

/// An object's entries (but `skip`), combined in an order-independent way.
fn hash_map(m: &Map<String, Value>, skip: Option<&str>, h: &mut DefaultHasher) {
    let mut sum = 0u64;
    for (k, v) in m {
        if Some(k.as_str()) == skip {
            continue;
        }
        let mut e = DefaultHasher::new();
        k.hash(&mut e);
        hash_value(v, &mut e);
        sum = sum.wrapping_add(e.finish());
    }
    (5u8, sum).hash(h);
}

#[cfg(test)]
mod tests {
    use crate::convert::dialect::COMPARED;
    use crate::convert::{to_dialect, to_dialect_with, DialectOptions};
    use crate::Dialect;
    use serde_json::{json, Map, Value};

    /// One-by-one comparisons made by `f` on this thread.
    fn compared(f: impl FnOnce()) -> u64 {
        let before = COMPARED.with(std::cell::Cell::get);
        f();
        COMPARED.with(std::cell::Cell::get) - before
    }

    /// Big unions and objects take linear work: a union's equal branches are found by hash
    /// (before, each branch was compared with every earlier one: 8,000 object branches took 15
    /// s), and so are required names (20,000 properties took 0.7 s in the object pass, 2.2 s
    /// merged from two `allOf` parts under Anthropic, in the limit check).
    #[test]
    fn big_unions_and_objects_take_linear_work() {
        for n in [1_000usize, 4_000] {
            // each branch twice: a repeat is found by one comparison, a new branch needs none
            // (quadratic work would be n² / 2 comparisons)
            let branches: Vec<Value> = (0..2 * n)
                .map(|i| json!({"type": "object", "properties": {format!("k{}", i % n): {"type": "string"}}, "required": [format!("k{}", i % n)]}))
                .collect();
            let schema = json!({"type": "object", "properties": {"u": {"anyOf": branches}}});
            let mut out = Value::Null;
            let cmp = compared(|| out = to_dialect(&schema, Dialect::Xgrammar).unwrap());
            assert_eq!(
                out["properties"]["u"]["anyOf"].as_array().map(Vec::len),
                Some(n)
            );
            // (and the object pass's required-name lookups in each branch: a few per branch)
            assert!(cmp <= 4 * n as u64, "{n}: {cmp}");

            let props: Map<String, Value> = (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            let required: Vec<String> = (0..n).step_by(2).map(|i| format!("p{i}")).collect();
            let part = json!({"type": "object", "properties": props, "required": required});
            let schema = json!({"allOf": [part.clone(), part]});
            for d in [
                Dialect::OpenAi,
                Dialect::Anthropic,
                Dialect::Gemini,
                Dialect::Xgrammar,
            ] {
                // (Anthropic rejects this many optional properties after the work is done)
                let cmp = compared(|| {
                    let _ = to_dialect_with(&schema, d, &DialectOptions::new());
                });
                assert!(cmp <= 20 * n as u64, "{d} {n}: {cmp}");
            }
        }
    }
}
