//! Provider limits on a converted schema.

use super::table::Limits;
use super::Path;
use crate::convert::{ConvertError, ConvertErrorKind};
use serde_json::Value;

#[derive(Default)]
struct Counts {
    properties: usize,
    enum_values: usize,
    chars: usize,
    optional: usize,
    unions: usize,
}

/// Checks the limits of `dialect` on the converted schema `root`; the error's pointer is where
/// (in the converted schema) the limit was crossed.
pub(crate) fn check(root: &Value, limits: &Limits) -> Result<(), ConvertError> {
    if !limits.any() {
        return Ok(());
    }
    let mut c = Counts::default();
    walk(root, &Path::At(""), 0, 0, limits, &mut c)
}

fn over(at: &Path<'_>, limit: &'static str, max: usize, found: usize) -> Result<(), ConvertError> {
    if found > max {
        Err(ConvertError::new(
            at.pointer(),
            ConvertErrorKind::LimitExceeded { limit, max, found },
        ))
    } else {
        Ok(())
    }
}

fn text_len(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        other => other.to_string().len(),
    }
}

fn walk(
    v: &Value,
    at: &Path<'_>,
    objects: usize,
    depth: usize,
    d: &Limits,
    c: &mut Counts,
) -> Result<(), ConvertError> {
    if depth > 4 * super::MAX_DEPTH {
        return Err(ConvertError::new(
            at.pointer(),
            ConvertErrorKind::TooDeep(super::MAX_DEPTH),
        ));
    }
    let Value::Object(m) = v else {
        return Ok(());
    };
    // The keywords looked at, found in one pass.
    let (mut ty, mut en, mut konst, mut any_of, mut properties, mut req) =
        (None, None, None, false, None, None);
    for (k, v) in m {
        match k.as_str() {
            "type" => ty = Some(v),
            "enum" => en = Some(v),
            "const" => konst = Some(v),
            "anyOf" => any_of = true,
            "properties" => properties = Some(v),
            "required" => req = Some(v),
            _ => {}
        }
    }
    let is_object = ty.and_then(Value::as_str) == Some("object");
    let objects = objects + usize::from(is_object);
    if let Some(max) = d.object_depth {
        over(at, "object nesting depth", max, objects)?;
    }
    if let Some(Value::Array(e)) = en {
        c.enum_values += e.len();
        c.chars += e.iter().map(text_len).sum::<usize>();
        if let Some(max) = d.enum_values {
            over(at, "enum values", max, c.enum_values)?;
        }
    }
    if let Some(k) = konst {
        c.chars += text_len(k);
    }
    if any_of {
        c.unions += 1;
        if let Some(max) = d.unions {
            over(at, "unions (anyOf), per request", max, c.unions)?;
        }
    }
    if let Some(Value::Object(props)) = properties {
        c.properties += props.len();
        c.chars += props.keys().map(|k| k.chars().count()).sum::<usize>();
        let required: &[Value] = req.and_then(Value::as_array).map_or(&[], Vec::as_slice);
        // (the required names looked up by hash: one list scan per property was quadratic)
        let mut names = super::object::Names::default();
        for r in required.iter().filter_map(Value::as_str) {
            names.insert(r);
        }
        c.optional += props.keys().filter(|k| !names.contains(k)).count();
        if let Some(max) = d.properties {
            over(at, "properties", max, c.properties)?;
        }
        if let Some(max) = d.optional_properties {
            over(at, "optional properties, per request", max, c.optional)?;
        }
    }
    if let Some(max) = d.chars {
        over(at, "characters of names and enum values", max, c.chars)?;
    }
    for (k, child) in m {
        let kat = Path::Key(at, k);
        match (k.as_str(), child) {
            ("properties" | "$defs" | "patternProperties", Value::Object(ps)) => {
                for (name, s) in ps {
                    // `$defs` entries start a new nesting count.
                    let o = if k == "$defs" { 0 } else { objects };
                    walk(s, &Path::Key(&kat, name), o, depth + 1, d, c)?;
                }
            }
            ("anyOf" | "prefixItems", Value::Array(a)) => {
                for (i, s) in a.iter().enumerate() {
                    walk(s, &Path::Index(&kat, i), objects, depth + 1, d, c)?;
                }
            }
            ("items" | "additionalProperties", s) => walk(s, &kat, objects, depth + 1, d, c)?,
            _ => {}
        }
    }
    Ok(())
}
