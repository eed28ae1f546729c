//! What the dialect walk would still merge in a lowered schema, merged by the lowering: an
//! `allOf` the model keeps (an intersection with a union part, say) or one the merge of a
//! union's keywords into a branch makes (a property both beside the union and in the branch),
//! its parts in order (a reference part as its definition, lowered there), as the walk's
//! `allOf` merge reads them (`dialect::merge_into`, `merge_one`, `rest_over_positions`: how
//! two schema objects combine keyword by keyword); and keywords beside a union nested in a
//! branch merged into its branches. What the walk would reject (a conflict, a recursive part)
//! is left as written.

use super::{Lower, Unlowerable, R};
use crate::convert::dialect::{merge_one, merge_parts, rest_over_positions, target_copy};
use crate::convert::schema::over_target;
use crate::convert::{pointer, ConvertError, ConvertErrorKind, SmallMap, MAX_DEPTH};
use serde_json::{Map, Value};

/// The keywords whose values are schemas (or lists or maps of schemas) a merge can meet twice.
const SCHEMA_VALUED: [&str; 5] = [
    "properties",
    "patternProperties",
    "items",
    "additionalProperties",
    "prefixItems",
];

/// Why a schema cannot be lowered: an `allOf` whose parts do not merge (the error says why).
const MERGE_FAILS: &str = "an `allOf` whose parts do not merge";

/// The lowering's failure for a merge's error (its pointer the lowered document's until
/// `Lower::schema` maps it).
fn merge_failed(e: ConvertError) -> Unlowerable {
    Unlowerable {
        at: String::new(),
        why: MERGE_FAILS,
        error: Some(e),
    }
}

impl Lower<'_> {
    /// The schema `m` (lowered at `p`) with its `allOf` merged (`None`: it has none); a merge
    /// that fails (a `false` part, a reference to a recursive definition, a conflict) is the
    /// conversion's error, as the walk's merge reported it.
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
            let e = ConvertError::new(p, ConvertErrorKind::TooDeep(MAX_DEPTH));
            return Err(merge_failed(e));
        }
        let mut own = m.clone();
        own.remove("allOf");
        // (a failure of the lowering itself, kept for after the merge)
        let mut failed = None;
        let merged = merge_parts(parts.clone(), own, p, |pat, mut b| {
            if let Some(Value::String(r)) = b.remove("$ref") {
                let Some(def) = self.doc.defs.iter().find(|d| d.target == r) else {
                    let kind = ConvertErrorKind::UnresolvableRef(r);
                    return Err(ConvertError::new(&pat, kind));
                };
                if def.recursive || def.target == "#" {
                    let msg = format!("`allOf` over the recursive type `{r}` cannot be merged");
                    return Err(ConvertError::new(&pat, ConvertErrorKind::Unsupported(msg)));
                }
                // (the definition lowered for its value only: no place of the output)
                let start = self.origins.len();
                let lowered = self.schema(&def.schema, pat.clone());
                self.origins.truncate(start);
                let lowered = match lowered {
                    Ok(lowered) => lowered,
                    Err(u) => {
                        let e = u.error.clone();
                        failed = Some(u);
                        let kind = ConvertErrorKind::TooDeep(0);
                        return Err(e.unwrap_or_else(|| ConvertError::new(&pat, kind)));
                    }
                };
                let Some(mut t) = target_copy(&lowered) else {
                    let msg = "`$ref` to something that is not a schema".to_string();
                    return Err(ConvertError::new(&pat, ConvertErrorKind::Malformed(msg)));
                };
                rest_over_positions(&mut t, &mut b);
                over_target(&mut t, b, |old, k, v| merge_one(old, k, v, &pat))?;
                b = t;
            }
            match self.merge_all_of(&b, &pat, depth + 1) {
                Ok(Some(merged)) => Ok(merged),
                Ok(None) => Ok(b),
                Err(u) => {
                    let e = u.error.clone();
                    failed = Some(u);
                    let kind = ConvertErrorKind::TooDeep(0);
                    Err(e.unwrap_or_else(|| ConvertError::new(&pat, kind)))
                }
            }
        });
        if let Some(u) = failed {
            return Err(u);
        }
        // (a merge the walk would fail: the conversion's error)
        let mut acc = merged.map_err(merge_failed)?;
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
                ("prefixItems", Value::Array(list)) | ("items", Value::Array(list)) => {
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
