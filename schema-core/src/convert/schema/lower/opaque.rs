//! Keywords the model does not read (`if`, `then`, `else`, `dependentSchemas`,
//! `$recursiveRef`'s neighbours, ...) are written as the input has them; where one holds a
//! `$ref`, its target (and the targets of the references in that, transitively) is written
//! where the reference points, as the input has it ([`Lower::opaque_targets`]), so that the
//! dialect walk resolves the reference in the lowered document as in the input. Where that
//! place is gone from the lowered document (inside an `allOf` part the lowering merged away),
//! the target moves to the root's `$defs` and the references follow it, as the model's own
//! references do (`lower.rs`): written in place, it would add the keywords of its path (an
//! `allOf` object) to a lowered schema.

use super::*;
use std::collections::HashMap;

/// Why an opaque keyword's reference target cannot be written: its place is below a value
/// that is not an object.
pub(super) const OPAQUE_REF: &str = "a `$ref` inside a keyword the model does not read";

impl Lower<'_> {
    /// The targets of the `$ref`s inside keywords the model does not read
    /// ([`Lower::opaque`]), and the targets of the `$ref`s in those, each where its reference
    /// points, as the input has it, unless the lowered document has a schema there already; a
    /// reference that resolves to nothing, or is not a pointer into the document, stays as it
    /// is (the walk reports or reads it where the input has it). A target whose place would
    /// need keywords other than definitions tables added to the lowered document moves to the
    /// root's `$defs`, its references retargeted. `moved` holds the targets the model's own
    /// references moved there (their `$ref`s retargeted already). Each target is read once.
    pub(super) fn opaque_targets(
        &self,
        root: &mut Value,
        input: &Value,
        moved: &mut HashMap<String, String>,
    ) -> R<()> {
        let Some((first, _)) = self.opaque.first() else {
            return Ok(());
        };
        let mut refs = Vec::new();
        for (_, v) in &self.opaque {
            refs_in(v, &mut refs);
        }
        let mut done = BTreeSet::new();
        let mut moved_here = HashMap::new();
        while let Some(r) = refs.pop() {
            let Some(ptr) = r.strip_prefix('#').and_then(pointer::percent_decode) else {
                continue;
            };
            if moved.contains_key(&r)
                || !done.insert(ptr.clone())
                || pointer::get(root, &ptr).is_some()
            {
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
            if !in_tables(root, path) {
                let name = moved_name(input, root, moved.len());
                let Value::Object(m) = &mut *root else {
                    return Err(opaque_ref(first));
                };
                let defs = m
                    .entry("$defs")
                    .or_insert_with(|| Value::Object(Map::new()));
                let Value::Object(defs) = defs else {
                    return Err(opaque_ref(first));
                };
                defs.insert(name.clone(), target.clone());
                let to = format!("#/$defs/{name}");
                moved.insert(r.clone(), to.clone());
                moved_here.insert(r, to);
                continue;
            }
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
        if !moved_here.is_empty() {
            retarget(root, &moved_here);
        }
        Ok(())
    }
}

/// Whether the target named by `path` and a last token can be written in the lowered
/// document `root`: each schema of `path` is there as an object, or is added only as a
/// definitions table (`$defs`, `definitions`) or a definition's name in one, the last token a
/// name too.
fn in_tables(root: &Value, path: &[String]) -> bool {
    let table = |t: &str| matches!(t, "$defs" | "definitions");
    let mut at = Some(root);
    let (mut added, mut after_table) = (false, false);
    for token in path {
        at = at
            .and_then(|v| v.as_object())
            .and_then(|m| m.get(token.as_str()));
        match at {
            Some(Value::Object(_)) => {}
            Some(_) => return false,
            None if after_table || table(token) => added = true,
            None => return false,
        }
        after_table = !after_table && table(token);
    }
    !added || after_table
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
