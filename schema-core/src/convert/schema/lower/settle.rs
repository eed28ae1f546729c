//! What the dialect walk would still merge in a lowered schema, merged by the lowering: an
//! `allOf` the model keeps (an intersection with a union part, say) or one the merge of a
//! union's keywords into a branch makes (a property both beside the union and in the branch),
//! its parts in order (a reference part as its definition, lowered there), as the walk's
//! `allOf` merge reads them (`dialect::merge_into`, `merge_one`, `rest_over_positions`: how
//! two schema objects combine keyword by keyword). What the walk would reject (a conflict, a
//! recursive part, a part that is not a schema object) is left as written, for the walk to
//! report.

use super::{Lower, R};
use crate::convert::dialect::{merge_into, merge_one, rest_over_positions, target_copy};
use crate::convert::schema::{over_target, retain_of_type};
use crate::convert::{pointer, SmallMap, MAX_DEPTH};
use serde_json::{Map, Value};

/// The keywords whose values are schemas (or lists or maps of schemas) a merge can meet twice.
const SCHEMA_VALUED: [&str; 5] = [
    "properties",
    "patternProperties",
    "items",
    "additionalProperties",
    "prefixItems",
];

impl Lower<'_> {
    /// The schema `m` (lowered at `p`) with its `allOf` merged, or `None` where the walk's
    /// merge would fail or stop (a part that is not an object, a reference to a recursive
    /// definition or to the root, a conflict).
    pub(super) fn merge_all_of(
        &mut self,
        m: &Map<String, Value>,
        p: &str,
        depth: usize,
    ) -> R<Option<Map<String, Value>>> {
        let Some(Value::Array(parts)) = m.fget("allOf") else {
            return Ok(None);
        };
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        let mut acc = Map::new();
        for (i, part) in parts.iter().enumerate() {
            let pat = pointer::push_index(&pointer::push(p, "allOf"), i);
            let mut b = match part {
                Value::Bool(true) => continue,
                Value::Object(b) => b.clone(),
                _ => return Ok(None),
            };
            if let Some(Value::String(r)) = b.remove("$ref") {
                // (rare: the table searched by its references as written)
                let Some(def) = self.doc.defs.iter().find(|d| d.target == r) else {
                    return Ok(None);
                };
                if def.recursive || def.target == "#" {
                    return Ok(None);
                }
                // (the definition lowered for its value only: no place of the output)
                let start = self.origins.len();
                let lowered = self.schema(&def.schema, pat.clone())?;
                self.origins.truncate(start);
                let Some(mut t) = target_copy(&lowered) else {
                    return Ok(None);
                };
                rest_over_positions(&mut t, &mut b);
                if over_target(&mut t, b, |old, k, v| merge_one(old, k, v, &pat)).is_err() {
                    return Ok(None);
                }
                b = t;
            }
            if b.fhas("allOf") {
                match self.merge_all_of(&b, &pat, depth + 1)? {
                    Some(merged) => b = merged,
                    None => return Ok(None),
                }
            }
            rest_over_positions(&mut acc, &mut b);
            if merge_into(&mut acc, b, &pat).is_err() {
                return Ok(None);
            }
        }
        let mut own = m.clone();
        own.remove("allOf");
        rest_over_positions(&mut acc, &mut own);
        if over_target(&mut acc, own, |old, k, v| merge_one(old, k, v, p)).is_err() {
            return Ok(None);
        }
        if let Some(Value::String(t)) = acc.fget("type").cloned() {
            if let Some(Value::Array(values)) = acc.fget_mut("enum") {
                if !retain_of_type(values, &t) {
                    return Ok(None);
                }
            }
        }
        self.settle(&mut acc, p, depth + 1)?;
        Ok(Some(acc))
    }

    /// The schemas below `m` (at `p`) that a merge wrote as an `allOf` of two (a property, the
    /// items, ...) merged, where the walk's merge would merge them.
    pub(super) fn settle(&mut self, m: &mut Map<String, Value>, p: &str, depth: usize) -> R<()> {
        for k in SCHEMA_VALUED {
            let Some(v) = m.fget_mut(k) else { continue };
            let at = pointer::push(p, k);
            let one = |l: &mut Self, x: &mut Value, at: String| -> R<()> {
                if let Value::Object(xm) = x {
                    if xm.fhas("allOf") {
                        if let Some(merged) = l.merge_all_of(xm, &at, depth + 1)? {
                            *xm = merged;
                        }
                    }
                }
                Ok(())
            };
            match (k, v) {
                ("properties" | "patternProperties", Value::Object(props)) => {
                    for (name, x) in props.iter_mut() {
                        one(self, x, pointer::push(&at, name))?;
                    }
                }
                ("prefixItems" | "items", Value::Array(list)) => {
                    for (i, x) in list.iter_mut().enumerate() {
                        one(self, x, pointer::push_index(&at, i))?;
                    }
                }
                (_, x) => one(self, x, at)?,
            }
        }
        Ok(())
    }
}
