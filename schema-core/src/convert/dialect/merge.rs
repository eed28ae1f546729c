//! `allOf` merging: the branches (and `$ref`s among them) merged into one schema object.
//! `properties`, `patternProperties`, `required`, and the `items` / `prefixItems` /
//! `additionalProperties` schemas (both parts' as `allOf`) are merged here; every other keyword
//! as the normalized model merges it (`schema::merge_keyword`, and a `$ref`'s own keywords over its
//! target's by `schema::over_target`), so the two readers cannot drift there.

use super::*;
use crate::convert::schema::{merge_keyword, over_target, retain_of_type, Conflict};

/// The `allOf` merge the walk and the lowering share (`schema/lower/settle.rs`): the `parts`
/// (at `at`) in order, each as `part` gives it (called with the part's pointer: a `$ref` part
/// resolved, its own `allOf` merged, the reader's work), merged into one schema object keyword
/// by keyword ([`merge_into`], a list part's rest over another's tuple positions first), then
/// the schema's `own` keywords over them (annotations win, constraints combine), an enum of one
/// part and a type of another kept to the values of that type (as the model). A part that is
/// `true` adds nothing; `false` or a value that is not a schema is an error.
pub(crate) fn merge_parts<E: From<ConvertError>>(
    parts: Vec<Value>,
    mut own: Map<String, Value>,
    at: &str,
    mut part: impl FnMut(&str, Map<String, Value>) -> Result<Map<String, Value>, E>,
) -> Result<Map<String, Value>, E> {
    let mut acc = Map::new();
    for (i, b) in parts.into_iter().enumerate() {
        let bat = pointer::push_index(&pointer::push(at, "allOf"), i);
        let b = match b {
            Value::Bool(true) => continue,
            Value::Object(b) => b,
            Value::Bool(false) => {
                return Err(unsupported(
                    &bat,
                    "the `false` schema (no value allowed) cannot be expressed".into(),
                )
                .into())
            }
            other => {
                return Err(malformed(
                    &bat,
                    format!("expected a schema, found {}", kind_of(&other)),
                )
                .into())
            }
        };
        let mut b = part(&bat, b)?;
        rest_over_positions(&mut acc, &mut b);
        merge_into(&mut acc, b, &bat)?;
    }
    // The schema's own keywords over its parts': annotations win, constraints combine.
    rest_over_positions(&mut acc, &mut own);
    over_target(&mut acc, own, |old, k, v| merge_one(old, k, v, at))?;
    // An enum of one part and a type of another: the values of that type (as the model).
    if let Some(Value::String(t)) = acc.fget("type").cloned() {
        if let Some(Value::Array(values)) = acc.fget_mut("enum") {
            if !retain_of_type(values, &t) {
                return Err(malformed(
                    at,
                    format!("`allOf` of an enum with no value of type {t:?}"),
                )
                .into());
            }
        }
    }
    Ok(acc)
}

/// A `$ref` part's own keywords `b` (at `bat`) over a copy `t` of its target's, as the model
/// reads them (the walk's merge and the lowering's, `schema/lower/settle.rs`).
pub(crate) fn part_over_target(
    mut t: Map<String, Value>,
    mut b: Map<String, Value>,
    bat: &str,
) -> Result<Map<String, Value>, ConvertError> {
    rest_over_positions(&mut t, &mut b);
    over_target(&mut t, b, |old, k, v| merge_one(old, k, v, bat))?;
    Ok(t)
}

/// Merges schema `b` into `a` (both plain schema objects) as `allOf` would.
pub(super) fn merge_into(
    a: &mut Map<String, Value>,
    b: Map<String, Value>,
    at: &str,
) -> Result<(), ConvertError> {
    for (k, v) in b {
        match a.get_mut(&k) {
            Some(old) => merge_one(old, &k, v, at)?,
            None => {
                a.insert(k, v);
            }
        }
    }
    Ok(())
}

/// Combines the value `v` of keyword `k` of a later part into `old`, an earlier part's:
/// `properties`, `patternProperties` and `required` merged here, every other keyword as
/// [`merge_keyword`] says.
pub(super) fn merge_one(old: &mut Value, k: &str, v: Value, at: &str) -> Result<(), ConvertError> {
    match k {
        // (each part's pattern applies too: merged like the properties, as the model does)
        "properties" | "patternProperties" => {
            let (Value::Object(op), Value::Object(np)) = (old, v) else {
                return Err(malformed(at, format!("`{k}` must be an object")));
            };
            for (name, s) in np {
                match op.get_mut(&name) {
                    Some(existing) if *existing == s => {}
                    Some(existing) => {
                        *existing = json!({ "allOf": [existing.clone(), s] });
                    }
                    None => {
                        op.insert(name, s);
                    }
                }
            }
        }
        // (each part's item and extra-key schema applies too: `allOf` of both, as the model
        // reads them; before, the later part's was dropped without a report)
        "items" | "prefixItems" | "additionalProperties"
            if (old.is_object() && v.is_object()) || (old.is_array() && v.is_array()) =>
        {
            *old = both(std::mem::take(old), v);
        }
        "required" => {
            let (Value::Array(or), Value::Array(nr)) = (old, v) else {
                return Err(malformed(at, "`required` must be an array".into()));
            };
            // (many new names looked up by hash: 20,000 required names on each side took
            // seconds; a few, in the list)
            if nr.len() <= crate::convert::SMALL {
                for n in nr {
                    super::compared(or.len());
                    if !or.contains(&n) {
                        or.push(n);
                    }
                }
                return Ok(());
            }
            let mut seen: HashSet<String> = or
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
            for n in nr {
                let new = match n.as_str() {
                    Some(name) => seen.insert(name.to_string()),
                    None => !or.contains(&n),
                };
                if new {
                    or.push(n);
                }
            }
        }
        _ => merge_keyword(k, old, v).map_err(|c| match c {
            Conflict::Malformed(msg) => malformed(at, msg),
            Conflict::Unsupported(msg) => unsupported(at, msg),
        })?,
    }
    Ok(())
}

/// Before two schema objects merge keyword by keyword: each tuple position (`prefixItems`) of
/// one that the other's tuple does not cover (all of them where the other has no tuple) takes
/// the other's rest (an `items` schema) too, as the model merges arrays position by position
/// (`both_arrays`). (A rest of `false` is not applied: the positions past a closed tuple's end
/// stay, as in the model.)
pub(super) fn rest_over_positions(a: &mut Map<String, Value>, b: &mut Map<String, Value>) {
    fn one(x: &mut Map<String, Value>, y: &Map<String, Value>) {
        let Some(rest) = y.fget("items").filter(|r| r.is_object()) else {
            return;
        };
        let Some(Value::Array(positions)) = x.fget_mut("prefixItems") else {
            return;
        };
        let covered = match y.fget("prefixItems") {
            Some(Value::Array(q)) => q.len(),
            _ => 0,
        };
        for p in positions.iter_mut().skip(covered) {
            *p = both(std::mem::take(p), rest.clone());
        }
    }
    one(a, b);
    one(b, a);
}

/// What two `allOf` parts' schemas of one keyword (`items`, `additionalProperties`) both
/// allow: one of them when they are equal or the other allows everything, else `allOf` of the
/// two; two lists of positions (`prefixItems`) position by position, the longer list's tail
/// kept (the shorter part's `items` applies to that tail: [`rest_over_positions`], before).
fn both(old: Value, new: Value) -> Value {
    let anything = |v: &Value| v == &Value::Bool(true) || v.as_object().is_some_and(Map::is_empty);
    match (old, new) {
        (Value::Array(a), Value::Array(b)) => {
            let n = a.len().max(b.len());
            let (mut a, mut b) = (a.into_iter(), b.into_iter());
            let list = (0..n)
                .filter_map(|_| match (a.next(), b.next()) {
                    (Some(x), Some(y)) => Some(both(x, y)),
                    (x, y) => x.or(y),
                })
                .collect();
            Value::Array(list)
        }
        (a, b) if a == b || anything(&b) => a,
        (a, b) if anything(&a) => b,
        (a, b) => json!({ "allOf": [a, b] }),
    }
}

#[cfg(test)]
mod tests {
    use crate::convert::to_dialect;
    use crate::Dialect;
    use serde_json::json;

    /// Each `allOf` part's `patternProperties` is kept, merged like `properties` (before, the
    /// later part's patterns were dropped without a report; the model kept them all).
    #[test]
    fn pattern_properties_of_every_part_are_kept() {
        let schema = json!({"allOf": [
            {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
            {"type": "object", "patternProperties": {"^b": {"type": "number"}, "^a": {"maxLength": 3}}}
        ]});
        let out = to_dialect(&schema, Dialect::Xgrammar).unwrap();
        let pp = &out["patternProperties"];
        assert_eq!(pp["^b"], json!({"type": "number"}), "{out}");
        assert_eq!(pp["^a"], json!({"type": "string", "maxLength": 3}), "{out}");
    }

    /// Two `allOf` parts with different constants allow no value: an error, as incompatible
    /// types and enums without a common value are (before, the first constant was kept, and the
    /// output accepted a value the input rejects).
    #[test]
    fn different_constants_conflict() {
        let schema = json!({"type": "object", "properties": {"k": {"allOf": [{"const": "a"}, {"const": "b"}]}}});
        // (every dialect but `JsonSchema`, which returns its input unchanged)
        for d in Dialect::EVERY
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            let e = to_dialect(&schema, d).unwrap_err();
            assert_eq!(e.pointer, "/properties/k/allOf/1", "{d}");
            assert!(
                matches!(e.kind, crate::convert::ConvertErrorKind::Malformed(_)),
                "{d}"
            );
        }
        let same = json!({"type": "object", "properties": {"k": {"allOf": [{"const": "a"}, {"const": "a", "description": "K"}]}}});
        let out = to_dialect(&same, Dialect::Xgrammar).unwrap();
        assert_eq!(out["properties"]["k"]["const"], json!("a"), "{out}");
    }

    /// An enum of one `allOf` part and a type of another keep the values of that type, as the
    /// model (and so the TypeScript text) reads them; none left is an error (before, the
    /// output said `{"type": "string", "enum": ["a", 1]}`).
    #[test]
    fn enum_values_of_another_type_are_dropped() {
        let schema = json!({"type": "object", "properties": {
            "k": {"allOf": [{"type": "string"}, {"enum": ["a", 1, "b"]}]}
        }, "required": ["k"]});
        for d in Dialect::EVERY
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            let out = to_dialect(&schema, d).unwrap();
            assert_eq!(out["properties"]["k"]["enum"], json!(["a", "b"]), "{d}");
        }
        let ts = crate::convert::to_typescript(&schema, &Default::default()).unwrap();
        assert_eq!(ts, "{k: \"a\"|\"b\"}");
        let none = json!({"allOf": [{"type": "integer"}, {"enum": ["a", 1.5]}]});
        let e = to_dialect(
            &json!({"type": "object", "properties": {"k": none}}),
            Dialect::OpenAi,
        )
        .unwrap_err();
        assert_eq!(e.pointer, "/properties/k");
    }

    /// A `$ref`'s own keywords over its target's read alike in the dialects (those that keep
    /// lengths) and the model (and so the TypeScript text): its own description wins,
    /// constraints of both apply. Before, the dialects kept the target's description for a
    /// `$ref` inside an `allOf` part (and the own one for a `$ref` elsewhere), and the model let
    /// the part's `maxLength` 10 replace the target's 5 (`1-10 chars`) or printed both (`max 5
    /// chars, max 10 chars`).
    #[test]
    fn ref_siblings_read_alike_in_dialects_and_model() {
        let defs = json!({"S": {"type": "string", "maxLength": 5, "description": "target"}});
        for (k, description, min, ts) in [
            (
                json!({"allOf": [{"$ref": "#/$defs/S", "description": "own"}, {"minLength": 1}]}),
                "own",
                Some(1),
                "{k: string /* own; 1-5 chars */}",
            ),
            (
                json!({"allOf": [{"$ref": "#/$defs/S", "maxLength": 10}, {"minLength": 1}]}),
                "target",
                Some(1),
                "{k: string /* target; 1-5 chars */}",
            ),
            (
                json!({"$ref": "#/$defs/S", "description": "own", "maxLength": 10}),
                "own",
                None,
                "{k: string /* own; max 5 chars */}",
            ),
        ] {
            let schema =
                json!({"type": "object", "properties": {"k": k}, "required": ["k"], "$defs": defs});
            for d in [Dialect::Xgrammar, Dialect::Llguidance, Dialect::LlamaCpp] {
                let out = to_dialect(&schema, d).unwrap();
                let k = &out["properties"]["k"];
                assert_eq!(k["description"], json!(description), "{d} {k}");
                assert_eq!(k["maxLength"], json!(5), "{d} {k}");
                assert_eq!(k["minLength"], json!(min), "{d} {k}");
            }
            let text = crate::convert::to_typescript(&schema, &Default::default()).unwrap();
            assert_eq!(text, ts);
        }
    }

    /// Each `allOf` part's `items`, `prefixItems` positions, `additionalProperties` schema and
    /// `dependentRequired` apply, in the dialects and in the model: before, the dialects kept
    /// only the first part's (the output accepted `["toolong"]` and `[5]` here) and the model
    /// kept the first `additionalProperties` schema and `dependentRequired`.
    #[test]
    fn item_and_extra_key_schemas_of_every_part_apply() {
        let schema = json!({"type": "object", "properties": {
            "list": {"allOf": [{"type": "array", "items": {"type": "string"}}, {"items": {"maxLength": 3}}]},
            "tuple": {"allOf": [
                {"type": "array", "prefixItems": [{"type": "string"}]},
                {"prefixItems": [{"maxLength": 3}, {"type": "number"}]}
            ]},
            "map": {"allOf": [
                {"type": "object", "additionalProperties": {"type": "string"}},
                {"additionalProperties": {"maxLength": 3}}
            ]},
            "deps": {"allOf": [
                {"type": "object", "dependentRequired": {"a": ["b"]}},
                {"dependentRequired": {"a": ["c"], "d": ["a"]}}
            ]}
        }, "required": ["list", "tuple", "map", "deps"]});
        let short = json!({"type": "string", "maxLength": 3});
        for d in [Dialect::Llguidance, Dialect::Xgrammar] {
            let out = to_dialect(&schema, d).unwrap();
            let p = &out["properties"];
            assert_eq!(p["list"]["items"], short, "{d}");
            assert_eq!(
                p["tuple"]["prefixItems"],
                json!([short, {"type": "number"}]),
                "{d}"
            );
            assert_eq!(p["map"]["additionalProperties"], short, "{d}");
            let deps = p["deps"]["description"].as_str().unwrap();
            assert!(deps.contains(r#"{"a":["b","c"],"d":["a"]}"#), "{d} {deps}");
        }
        let text = crate::convert::to_typescript(&schema, &Default::default()).unwrap();
        assert_eq!(
            text,
            "{list: (string /* max 3 chars */)[]; tuple: [string /* max 3 chars */, number]; \
             map: Record<string, string /* max 3 chars */>; deps: object /* a needs b+c, d \
             needs a */}"
        );
    }

    /// A list's `items` in one part applies to the tuple positions of another (`prefixItems`)
    /// that its own tuple does not cover, as the model reads it: before, the dialects kept the
    /// position's schema alone (the output accepted `[4]` here, the input and the TypeScript
    /// text `[number /* >=5 */, ...]` do not).
    #[test]
    fn a_list_part_applies_to_the_positions_of_a_tuple_part() {
        let shape = crate::convert::TsOptions {
            include_constraints: false,
            include_descriptions: false,
            ..Default::default()
        };
        for list in [
            json!({"allOf": [{"prefixItems": [{"minimum": 3}]}], "items": {"type": "number", "minimum": 5}}),
            json!({"allOf": [
                {"type": "array", "items": {"type": "number", "minimum": 5}},
                {"prefixItems": [{"type": "number", "minimum": 3}, {"type": "integer"}]}
            ]}),
        ] {
            let schema = json!({"type": "object", "properties": {"l": list}, "required": ["l"]});
            for d in [Dialect::Llguidance, Dialect::Xgrammar] {
                let out = to_dialect(&schema, d).unwrap();
                let l = &out["properties"]["l"];
                assert_eq!(l["prefixItems"][0]["minimum"], json!(5), "{d} {l}");
                assert_eq!(l["items"]["minimum"], json!(5), "{d} {l}");
                let ts = |v| crate::convert::to_typescript(v, &shape).unwrap();
                assert_eq!(ts(&out), ts(&schema), "{d}");
            }
        }
    }

    /// The changes to a merged schema's keywords name where each keyword was written: a
    /// `$ref`'s sibling at the `$ref` (before, at its target), an `allOf` part's keyword at
    /// that part, and a `$ref` target's keyword at the target (before, both at the schema).
    #[test]
    fn merged_keywords_are_reported_where_written() {
        use crate::convert::{to_dialect_report, ChangeKind};
        use serde_json::Value;
        let defs = json!({"S": {"type": "string", "format": "email"}});
        let moved = |schema: &Value| -> Vec<(String, String)> {
            to_dialect_report(schema, Dialect::Gemini)
                .unwrap()
                .changes
                .into_iter()
                .filter_map(|c| match c.kind {
                    ChangeKind::MovedToDescription { keyword } => Some((keyword, c.pointer)),
                    _ => None,
                })
                .collect()
        };
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(k, at)| (k.to_string(), at.to_string()))
                .collect()
        };
        let sibling = json!({"type": "object", "properties": {
            "a": {"$ref": "#/$defs/S", "maxLength": 3}
        }, "required": ["a"], "$defs": defs});
        assert_eq!(
            moved(&sibling),
            pairs(&[("format", "/$defs/S"), ("maxLength", "/properties/a")])
        );
        let parts = json!({"type": "object", "properties": {
            "a": {"allOf": [{"$ref": "#/$defs/S"}, {"maxLength": 3}]}
        }, "required": ["a"], "$defs": defs});
        assert_eq!(
            moved(&parts),
            pairs(&[
                ("format", "/$defs/S"),
                ("maxLength", "/properties/a/allOf/1")
            ])
        );
        // a part's own keyword beside its `$ref` at the part; the schema's own at the schema
        let own = json!({"type": "object", "properties": {
            "a": {"allOf": [{"$ref": "#/$defs/S", "minLength": 1}, {"maxLength": 3}], "pattern": "^a"}
        }, "required": ["a"], "$defs": defs});
        assert_eq!(
            moved(&own),
            pairs(&[
                ("format", "/$defs/S"),
                ("minLength", "/properties/a/allOf/0"),
                ("maxLength", "/properties/a/allOf/1"),
                ("pattern", "/properties/a"),
            ])
        );
        // the schema itself is unchanged by where its changes are reported
        let plain = to_dialect(&sibling, Dialect::Gemini).unwrap();
        assert_eq!(
            to_dialect_report(&sibling, Dialect::Gemini).unwrap().schema,
            plain
        );
    }
}
