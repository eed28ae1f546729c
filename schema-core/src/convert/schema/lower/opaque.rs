//! Keywords the model does not read (`if`, `then`, `else`, `dependentSchemas`,
//! `$recursiveRef`'s neighbours, ...) are written as the input has them; where one holds a
//! `$ref`, its target (and the targets of the references in that, transitively) is written
//! where the reference points, as the input has it ([`Lower::opaque_targets`]), so that the
//! dialect walk resolves the reference in the lowered document as in the input.

use super::*;

/// Why an opaque keyword's reference target cannot be written: its place is below a value
/// that is not an object.
pub(super) const OPAQUE_REF: &str = "a `$ref` inside a keyword the model does not read";

impl Lower<'_> {
    /// The targets of the `$ref`s inside keywords the model does not read
    /// ([`Lower::opaque`]), and the targets of the `$ref`s in those, each where its reference
    /// points, as the input has it, unless the lowered document has a schema there already; a
    /// reference that resolves to nothing, or is not a pointer into the document, stays as it
    /// is (the walk reports or reads it where the input has it). Each target is read once.
    pub(super) fn opaque_targets(&self, root: &mut Value, input: &Value) -> R<()> {
        let Some((first, _)) = self.opaque.first() else {
            return Ok(());
        };
        let mut refs = Vec::new();
        for (_, v) in &self.opaque {
            refs_in(v, &mut refs);
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
            let tokens: Vec<String> = (ptr.split('/').skip(1))
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
                    _ => return Err(opaque_ref(first)),
                };
            }
            match at {
                Value::Object(m) => {
                    m.insert(last.clone(), target.clone());
                }
                _ => return Err(opaque_ref(first)),
            }
        }
        Ok(())
    }
}

fn opaque_ref(at: &str) -> Unlowerable {
    Unlowerable {
        at: at.to_string(),
        why: OPAQUE_REF,
    }
}

/// The `$ref` strings anywhere in a JSON value (its nesting is bounded by the input checks).
fn refs_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.fget("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|x| refs_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out)),
        _ => {}
    }
}

/// Whether a JSON value holds a `$ref` anywhere (its nesting is bounded by the input checks).
pub(super) fn has_ref(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.fhas("$ref") || m.values().any(has_ref),
        Value::Array(a) => a.iter().any(has_ref),
        _ => false,
    }
}
