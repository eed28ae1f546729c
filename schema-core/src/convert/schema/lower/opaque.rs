//! The targets of `$ref`s inside keywords the model does not read (`if`, `then`, `else`, ...),
//! which the lowering writes as the input has them: each written where its reference points.

use super::forms::{refs_in, OPAQUE_REF};
use super::{fail, Lower, R};
use crate::convert::pointer;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

impl Lower<'_> {
    /// The targets of the `$ref`s inside keywords the model does not read (`if`, `then`,
    /// `dependentSchemas`, ...: written as the input has them), and the targets of the
    /// `$ref`s in those, each where its reference points, as the input has it, unless the
    /// lowered document has a schema there already; a reference that resolves to nothing stays
    /// as it is (the walk reports it where the input has it).
    pub(super) fn opaque_targets(&self, root: &mut Value, input: &Value) -> R<()> {
        let mut refs = Vec::new();
        for s in &self.opaque {
            for v in s.keywords.values() {
                refs_in(v, &mut refs);
            }
        }
        let mut done = BTreeSet::new();
        while let Some(r) = refs.pop() {
            let Some(ptr) = r.strip_prefix('#').and_then(pointer::percent_decode) else {
                continue;
            };
            if !done.insert(ptr.clone()) || pointer::get(root, &ptr).is_some() {
                continue;
            }
            let Some(target) = pointer::get(input, &ptr) else {
                continue;
            };
            refs_in(target, &mut refs);
            let tokens: Vec<String> = ptr
                .split('/')
                .skip(1)
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .collect();
            let Some((last, path)) = tokens.split_last() else {
                continue;
            };
            let mut at = &mut *root;
            for token in path {
                at = match at {
                    Value::Object(m) => m
                        .entry(token.clone())
                        .or_insert_with(|| Value::Object(Map::new())),
                    _ => return fail(self.opaque[0], OPAQUE_REF),
                };
            }
            match at {
                Value::Object(m) => {
                    m.insert(last.clone(), target.clone());
                }
                _ => return fail(self.opaque[0], OPAQUE_REF),
            }
        }
        Ok(())
    }
}
