//! What the dialect walk would still merge in a lowered schema, merged by the lowering: an
//! `allOf` the model keeps (an intersection with a union part, say) or one the merge of a
//! union's keywords into a branch makes (a property both beside the union and in the branch),
//! its parts in order (a reference part as its definition, lowered there), by the walk's own
//! `allOf` merge (`dialect::merge_parts`, shared: how parts and the schema's own keywords
//! combine keyword by keyword). What the walk would reject (a conflict, a
//! recursive part, a part that is not a schema object) is left as written, for the walk to
//! report.

use super::{Lower, Unlowerable, R};
use crate::convert::dialect::{merge_parts, part_over_target, target_copy};
use crate::convert::{pointer, ConvertError, SmallMap, MAX_DEPTH};
use serde_json::{Map, Value};

/// The keywords whose values are schemas (or lists or maps of schemas) a merge can meet twice.
const SCHEMA_VALUED: [&str; 5] = [
    "properties",
    "patternProperties",
    "items",
    "additionalProperties",
    "prefixItems",
];

/// Why the lowering's merge of an `allOf` stopped: the walk's merge would stop there too (the
/// `allOf` is left as written, for the walk to report), or the lowering of a reference part
/// failed.
enum Stop {
    Walk,
    Lower(Unlowerable),
}

impl From<ConvertError> for Stop {
    fn from(_: ConvertError) -> Stop {
        Stop::Walk
    }
}

impl Lower<'_> {
    /// The schema `m` (lowered at `p`) with its `allOf` merged by the walk's merge
    /// (`dialect::merge_parts`), or `None` where that merge would fail or stop (a part that is
    /// not an object, a reference to a recursive definition or to the root, a conflict).
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
        let mut own = m.clone();
        own.remove("allOf");
        let merged = merge_parts(parts.clone(), own, p, |pat, mut b| {
            if let Some(Value::String(r)) = b.remove("$ref") {
                // (rare: the table searched by its references as written)
                let def = self.doc.defs.iter().find(|d| d.target == r);
                let Some(def) = def.filter(|d| !d.recursive && d.target != "#") else {
                    return Err(Stop::Walk);
                };
                // (the definition lowered for its value only: no place of the output)
                let start = self.origins.len();
                let lowered = self.schema(&def.schema, pat.to_string());
                self.origins.truncate(start);
                let t = target_copy(&lowered.map_err(Stop::Lower)?).ok_or(Stop::Walk)?;
                b = part_over_target(t, b, pat)?;
            }
            if !b.fhas("allOf") {
                return Ok(b);
            }
            match self.merge_all_of(&b, pat, depth + 1) {
                Ok(Some(merged)) => Ok(merged),
                Ok(None) => Err(Stop::Walk),
                Err(u) => Err(Stop::Lower(u)),
            }
        });
        let mut acc = match merged {
            Ok(acc) => acc,
            Err(Stop::Walk) => return Ok(None),
            Err(Stop::Lower(u)) => return Err(u),
        };
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
