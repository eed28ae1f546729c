//! Provider limits on a converted schema.

use super::Path;
use crate::convert::{ConvertError, ConvertErrorKind};
use crate::Dialect;
use serde_json::Value;

/// OpenAI: total object properties.
pub const OPENAI_MAX_PROPERTIES: usize = 5000;
/// OpenAI: levels of object nesting (the root object is level 1).
pub const OPENAI_MAX_DEPTH: usize = 10;
/// OpenAI: total enum values.
pub const OPENAI_MAX_ENUM_VALUES: usize = 1000;
/// OpenAI: total characters of property names, enum values and const values.
pub const OPENAI_MAX_CHARS: usize = 120_000;
/// Anthropic: optional properties (per request).
pub const ANTHROPIC_MAX_OPTIONAL: usize = 24;
/// Anthropic: unions (`anyOf`, and type arrays) (per request).
pub const ANTHROPIC_MAX_UNIONS: usize = 16;

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
pub(crate) fn check(root: &Value, dialect: Dialect) -> Result<(), ConvertError> {
    if !matches!(dialect, Dialect::OpenAi | Dialect::Anthropic) {
        return Ok(());
    }
    let mut c = Counts::default();
    walk(root, &Path::At(""), 0, 0, dialect, &mut c)
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
    d: Dialect,
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
    if d == Dialect::OpenAi {
        over(at, "object nesting depth", OPENAI_MAX_DEPTH, objects)?;
    }
    if let Some(Value::Array(e)) = en {
        c.enum_values += e.len();
        c.chars += e.iter().map(text_len).sum::<usize>();
        if d == Dialect::OpenAi {
            over(at, "enum values", OPENAI_MAX_ENUM_VALUES, c.enum_values)?;
        }
    }
    if let Some(k) = konst {
        c.chars += text_len(k);
    }
    if any_of {
        c.unions += 1;
        if d == Dialect::Anthropic {
            over(
                at,
                "unions (anyOf), per request",
                ANTHROPIC_MAX_UNIONS,
                c.unions,
            )?;
        }
    }
    if let Some(Value::Object(props)) = properties {
        c.properties += props.len();
        c.chars += props.keys().map(|k| k.chars().count()).sum::<usize>();
        let required: &[Value] = req.and_then(Value::as_array).map_or(&[], Vec::as_slice);
        c.optional += props
            .keys()
            .filter(|k| !required.iter().any(|r| r.as_str() == Some(k.as_str())))
            .count();
        if d == Dialect::OpenAi {
            over(at, "properties", OPENAI_MAX_PROPERTIES, c.properties)?;
        } else {
            over(
                at,
                "optional properties, per request",
                ANTHROPIC_MAX_OPTIONAL,
                c.optional,
            )?;
        }
    }
    if d == Dialect::OpenAi {
        over(
            at,
            "characters of names and enum values",
            OPENAI_MAX_CHARS,
            c.chars,
        )?;
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
