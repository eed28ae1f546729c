//! JSON Schema's own vocabulary, for every reader of schemas in the crate: which keywords hold
//! subschemas in each draft and in what form (one schema, a list, a map of names to schemas),
//! what each draft does with the keywords beside a `$ref`, and JSON pointer tokens.
//!
//! The converter reads a document through it before its model is built (drafts 4 to 7 ignore
//! the keywords beside a `$ref`, as the validator does); the validator's index and the
//! converter's reference scan keep their own walks for now.

use crate::validate::Draft;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// How a keyword holds its subschemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// One schema (`not`, `additionalProperties`).
    One,
    /// A list of schemas (`allOf`, `prefixItems`).
    List,
    /// One schema or a list (`items` before 2020-12).
    OneOrList,
    /// An object of names to schemas (`properties`, `$defs`).
    Map,
    /// An object of names to a schema or a list of names (draft 4 to 7 `dependencies`).
    MapOfSchemaOrNames,
}

/// How `keyword` holds subschemas in `draft`, or `None` where it holds none there.
pub(crate) fn holds(keyword: &str, draft: Draft) -> Option<Holds> {
    use Draft::*;
    let since6 = draft >= Draft6;
    let since7 = draft >= Draft7;
    let since2019 = draft >= Draft2019_09;
    Some(match keyword {
        "not" | "additionalProperties" => Holds::One,
        "contains" | "propertyNames" if since6 => Holds::One,
        "if" | "then" | "else" if since7 => Holds::One,
        "unevaluatedItems" | "unevaluatedProperties" | "contentSchema" if since2019 => Holds::One,
        "additionalItems" if draft <= Draft2019_09 => Holds::One,
        "items" if draft == Draft2020_12 => Holds::One,
        "items" => Holds::OneOrList,
        "allOf" | "anyOf" | "oneOf" => Holds::List,
        "prefixItems" if draft == Draft2020_12 => Holds::List,
        // (`$defs` in every draft: documents of drafts 4 to 7 use it too, and a `$ref` into it
        // reaches a schema all the same)
        "properties" | "patternProperties" | "definitions" | "$defs" => Holds::Map,
        "dependentSchemas" if since2019 => Holds::Map,
        "dependencies" if draft <= Draft7 => Holds::MapOfSchemaOrNames,
        _ => return None,
    })
}

/// Whether `draft` ignores every keyword beside a `$ref` (drafts 4 to 7: "All other properties
/// in a `$ref` object MUST be ignored"; 2019-09 made `$ref` an applicator among the others).
pub(crate) fn ignores_ref_siblings(draft: Draft) -> bool {
    draft <= Draft::Draft7
}

/// The draft a document's root `$schema` names, if it names one.
pub(crate) fn draft_of(doc: &Value) -> Option<Draft> {
    Draft::from_uri(doc.get("$schema")?.as_str()?)
}

/// Calls `f` with every subschema of the schema object `m` under `draft`, and the one or two
/// pointer tokens that lead to it (`["not"]`, `["properties", "a"]`, `["allOf", "0"]`).
pub(crate) fn each_subschema<'v>(
    m: &'v Map<String, Value>,
    draft: Draft,
    mut f: impl FnMut(&'v str, Option<Cow<'v, str>>, &'v Value),
) {
    for (k, v) in m {
        let Some(h) = holds(k, draft) else { continue };
        match (h, v) {
            (Holds::One, _) | (Holds::OneOrList, Value::Object(_) | Value::Bool(_)) => {
                f(k, None, v)
            }
            (Holds::List | Holds::OneOrList, Value::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    f(k, Some(Cow::Owned(i.to_string())), s);
                }
            }
            (Holds::Map, Value::Object(o)) => {
                for (name, s) in o {
                    f(k, Some(Cow::Borrowed(name.as_str())), s);
                }
            }
            (Holds::MapOfSchemaOrNames, Value::Object(o)) => {
                for (name, s) in o.iter().filter(|(_, s)| !s.is_array()) {
                    f(k, Some(Cow::Borrowed(name.as_str())), s);
                }
            }
            _ => {}
        }
    }
}

/// How many JSON values `v` holds, itself included (its size in the units the converter's
/// budgets count), without recursion.
pub(crate) fn values_in(v: &Value) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Object(m) => stack.extend(m.values()),
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    n
}

/// A JSON pointer token escaped (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(crate) fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// The keywords beside a `$ref` that a draft which ignores them still needs: the reference
/// itself, the identifiers and the definitions tables other references point into, and the
/// annotations (which change no value).
fn kept_beside_ref(k: &str) -> bool {
    matches!(
        k,
        "$ref"
            | "$schema"
            | "$id"
            | "id"
            | "definitions"
            | "$defs"
            | "title"
            | "description"
            | "$comment"
    )
}

/// `doc` with the keywords a draft 4 to 7 document's `$ref`s ignore left out (its root
/// `$schema` names the draft), and the pointer and name of each keyword left out; `None` where
/// the document is of another draft or has no such keyword. Linear in the document's size.
pub(crate) fn without_ref_siblings(doc: &Value) -> Option<(Value, Vec<(String, String)>)> {
    let draft = draft_of(doc).filter(|d| ignores_ref_siblings(*d))?;
    // The places of the schemas with a `$ref` and ignored keywords, found first: most
    // documents have none, and are not copied.
    let mut places: Vec<String> = Vec::new();
    let mut stack: Vec<(&Value, String, usize)> = vec![(doc, String::new(), 0)];
    while let Some((v, at, depth)) = stack.pop() {
        let Value::Object(m) = v else { continue };
        if depth > crate::convert::MAX_DEPTH {
            // (the converter's own depth check names it)
            return None;
        }
        if m.get("$ref").is_some_and(Value::is_string) && m.keys().any(|k| !kept_beside_ref(k)) {
            places.push(at.clone());
        }
        each_subschema(m, draft, |k, token, s| {
            let mut p = format!("{at}/{}", escape(k));
            if let Some(t) = token {
                p.push('/');
                p.push_str(&escape(&t));
            }
            stack.push((s, p, depth + 1));
        });
    }
    if places.is_empty() {
        return None;
    }
    let mut out = doc.clone();
    let mut dropped = Vec::new();
    for at in places {
        if let Some(Value::Object(m)) = out.pointer_mut(&at) {
            let gone: Vec<String> = m.keys().filter(|k| !kept_beside_ref(k)).cloned().collect();
            for k in gone {
                m.remove(&k);
                dropped.push((at.clone(), k));
            }
        }
    }
    Some((out, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn draft7_ref_siblings_are_left_out_and_named() {
        let doc = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"a": {"$ref": "#/definitions/x", "enum": [1], "description": "A"}},
            "definitions": {"x": {"$ref": "#/definitions/y", "type": "string"}, "y": {}},
            "enum": [{"$ref": "#/not/a/schema", "type": "kept: a value, not a schema"}]
        });
        let (out, dropped) = without_ref_siblings(&doc).unwrap();
        assert_eq!(
            out["properties"]["a"],
            json!({"$ref": "#/definitions/x", "description": "A"})
        );
        assert_eq!(out["definitions"]["x"], json!({"$ref": "#/definitions/y"}));
        assert_eq!(out["enum"], doc["enum"]);
        let mut dropped = dropped;
        dropped.sort();
        assert_eq!(
            dropped,
            [
                ("/definitions/x".to_string(), "type".to_string()),
                ("/properties/a".to_string(), "enum".to_string())
            ]
        );
    }

    #[test]
    fn later_drafts_and_documents_without_a_draft_keep_them() {
        for schema in [
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"$ref": "#/$defs/x", "enum": [1]}}}),
            json!({"properties": {"a": {"$ref": "#/$defs/x", "enum": [1]}}}),
        ] {
            assert!(without_ref_siblings(&schema).is_none());
        }
    }

    #[test]
    fn subschemas_follow_the_draft() {
        assert_eq!(holds("if", Draft::Draft6), None);
        assert_eq!(holds("if", Draft::Draft7), Some(Holds::One));
        assert_eq!(holds("items", Draft::Draft7), Some(Holds::OneOrList));
        assert_eq!(holds("items", Draft::Draft2020_12), Some(Holds::One));
        assert_eq!(holds("prefixItems", Draft::Draft7), None);
        assert_eq!(holds("dependentSchemas", Draft::Draft7), None);
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }
}
