//! The JSON Schema vocabulary the passes share (which keyword applies to which type, which only
//! annotates) and the text written into descriptions (tags, notes, the clause note).

use super::table;
use crate::convert::SmallMap;
use crate::Dialect;
use serde_json::{Map, Value};

/// Keywords that only annotate: dropped (`default` is handled separately).
pub(super) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
    "xml",
    "externalDocs",
];

/// Keywords that describe without constraining; kept beside an `anyOf` and a `$ref` overlay.
pub(crate) fn is_meta(k: &str) -> bool {
    matches!(k, "description" | "title" | "default")
        || ANNOTATIONS.contains(&k)
        || k.starts_with("x-")
}

/// The keywords that apply to one JSON type (used to split type arrays).
pub(crate) fn applies_to(keyword: &str, ty: &str) -> bool {
    match ty {
        "string" => matches!(
            keyword,
            "minLength"
                | "maxLength"
                | "pattern"
                | "format"
                | "contentEncoding"
                | "contentMediaType"
        ),
        "number" | "integer" => matches!(
            keyword,
            "minimum"
                | "maximum"
                | "exclusiveMinimum"
                | "exclusiveMaximum"
                | "multipleOf"
                | "format"
        ),
        "array" => matches!(
            keyword,
            "items"
                | "prefixItems"
                | "minItems"
                | "maxItems"
                | "uniqueItems"
                | "contains"
                | "minContains"
                | "maxContains"
                | "additionalItems"
                | "unevaluatedItems"
        ),
        "object" => matches!(
            keyword,
            "properties"
                | "required"
                | "additionalProperties"
                | "patternProperties"
                | "propertyNames"
                | "minProperties"
                | "maxProperties"
                | "dependentRequired"
                | "dependentSchemas"
                | "unevaluatedProperties"
        ),
        _ => false,
    }
}

/// Whether a keyword constrains some JSON type (as opposed to any value).
pub(super) fn is_typed_keyword(keyword: &str) -> bool {
    ["string", "number", "array", "object"]
        .iter()
        .any(|t| applies_to(keyword, t))
}

/// `{"required": [...]}` alone: a clause of a union that says which properties must be present.
pub(crate) fn required_clause(v: &Value) -> Option<Vec<String>> {
    required_names(v).map(|names| names.into_iter().map(str::to_string).collect())
}

/// [`required_clause`], borrowed.
pub(crate) fn required_names(v: &Value) -> Option<Vec<&str>> {
    let m = v.as_object()?;
    if !m
        .keys()
        .all(|k| matches!(k.as_str(), "required" | "description" | "title"))
    {
        return None;
    }
    let req = m.fget("required")?.as_array()?;
    req.iter().map(Value::as_str).collect()
}

/// `{"const": "x"}` (with optional `type: string`, `description`, `title`): a branch of a
/// documented string enum.
pub(crate) fn const_branch(v: &Value) -> Option<(Value, Option<String>)> {
    let m = v.as_object()?;
    if !m
        .keys()
        .all(|k| matches!(k.as_str(), "const" | "type" | "description" | "title"))
    {
        return None;
    }
    let c = m.fget("const")?;
    match m.fget("type") {
        None => {}
        Some(Value::String(t)) if type_of_value(c) == Some(t.as_str()) => {}
        Some(Value::String(t)) if t == "number" && c.is_number() => {}
        _ => return None,
    }
    let doc = m
        .fget("description")
        .or_else(|| m.fget("title"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Some((c.clone(), doc))
}

/// A type array's union: one branch per type in `names`, each with the keywords of `m` that
/// apply to that type and, where `m` has an `enum`, the values of that type (a type none of
/// the values has is left out). Shared by the dialect walk's type-array split and the model's
/// lowering, which writes the same split.
pub(crate) fn type_branches(m: &Map<String, Value>, names: &[&str]) -> Vec<Value> {
    let mut branches = Vec::with_capacity(names.len());
    for t in names {
        let mut b = Map::new();
        b.insert("type".into(), Value::String((*t).to_string()));
        for (k, v) in m {
            if applies_to(k, t) {
                b.insert(k.clone(), v.clone());
            }
        }
        if let Some(Value::Array(e)) = m.fget("enum") {
            let values: Vec<Value> = e
                .iter()
                .filter(|x| {
                    let vt = type_of_value(x);
                    vt == Some(*t) || (*t == "number" && vt == Some("integer"))
                })
                .cloned()
                .collect();
            if values.is_empty() {
                continue;
            }
            b.insert("enum".into(), Value::Array(values));
        }
        branches.push(Value::Object(b));
    }
    branches
}

/// The JSON type of a value (`integer` for whole numbers).
pub(crate) fn type_of_value(v: &Value) -> Option<&'static str> {
    Some(match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

/// `@keyword value` (the value as [`tag_text`] writes it).
pub(super) fn tag_line(k: &str, v: &Value) -> String {
    use std::fmt::Write as _;
    let mut t = String::with_capacity(k.len() + 8);
    t.push('@');
    t.push_str(k);
    t.push(' ');
    match v {
        // An empty (or blank) string written raw would read as no value at all.
        Value::String(s) if s.trim().is_empty() => {
            let _ = write!(t, "{v}");
        }
        Value::String(s) => t.push_str(s),
        other => {
            let _ = write!(t, "{other}");
        }
    }
    t
}

/// The text of a tag value: strings and numbers raw, anything else as JSON.
pub(super) fn tag_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Appends notes and tags to a schema's description: `"Text.\n\nnote\n\n@tag 1\n@tag 2"`.
pub(super) fn apply_notes(out: &mut Map<String, Value>, notes: &mut Vec<String>, tags: &[String]) {
    if notes.is_empty() && tags.is_empty() {
        return;
    }
    // The parts joined with blank lines: the description (unless empty), the notes, the tags
    // (one per line).
    let mut text = match out.get_mut("description") {
        Some(Value::String(d)) => std::mem::take(d),
        _ => String::new(),
    };
    let mut first = text.is_empty();
    for part in notes.drain(..) {
        if !first {
            text.push_str("\n\n");
        }
        first = false;
        text.push_str(&part);
    }
    if !tags.is_empty() {
        if !first {
            text.push_str("\n\n");
        }
        for (i, t) in tags.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(t);
        }
    }
    // Keep `description` right after `type` / `title` for readability.
    out.insert("description".into(), Value::String(text));
}

/// The type a schema without `type` describes, from its keywords.
pub(super) fn infer_type(m: &Map<String, Value>) -> Option<&'static str> {
    if let Some(c) = m.fget("const") {
        return type_of_value(c);
    }
    if let Some(Value::Array(e)) = m.fget("enum") {
        let types: Vec<&str> = e.iter().filter_map(type_of_value).collect();
        if let Some(first) = types.first() {
            if types.iter().all(|t| t == first) {
                return Some(first);
            }
            if types.iter().all(|t| matches!(*t, "integer" | "number")) {
                return Some("number");
            }
        }
        return None;
    }
    ["object", "array", "string", "number"]
        .into_iter()
        // (`additionalItems` only continues an `items` list, which types the schema itself:
        // alone it has no effect)
        .find(|t| {
            m.keys()
                .any(|k| applies_to(k, t) && !matches!(k.as_str(), "format" | "additionalItems"))
        })
}

/// The note that replaces a union of `required` clauses in `dialect` (also used by
/// [`crate::view`] to narrow a converted schema in place).
pub(crate) fn clause_note<S: AsRef<str>>(dialect: Dialect, clauses: &[Vec<S>]) -> String {
    let others = if table::rules(dialect).all_required {
        "; set the others to null"
    } else {
        "; leave the others out"
    };
    let names: usize = clauses.iter().flatten().map(|n| n.as_ref().len() + 4).sum();
    let mut out = String::with_capacity(48 + names);
    out.push_str("Fill exactly one of ");
    for (i, c) in clauses.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for (j, n) in c.iter().enumerate() {
            if j > 0 {
                out.push_str(" + ");
            }
            out.push('`');
            out.push_str(n.as_ref());
            out.push('`');
        }
    }
    out.push_str(others);
    out.push('.');
    out
}
