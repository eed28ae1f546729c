//! Each rewrite: the converted schema, its change, and its read-back (and forward) on values.

use crate::convert::{to_dialect_report, to_dialect_with, ChangeKind, DialectOptions};
use crate::Dialect;
use serde_json::{json, Value};

/// Converts `schema`, checks that `value` written forward is `shaped` and reads back to itself.
pub(super) fn round_trip(
    schema: &Value,
    d: Dialect,
    value: &Value,
    shaped: &Value,
) -> crate::convert::Converted {
    let c = to_dialect_report(schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
    let fwd = c.plan.forward(value).unwrap();
    assert_eq!(&fwd, shaped, "{d}: forward of {value}");
    assert_eq!(
        &c.read_back(&fwd).unwrap(),
        value,
        "{d}: read back of {fwd}"
    );
    c
}

#[test]
fn map_becomes_entries_where_objects_are_closed() {
    let schema = json!({"type": "object", "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "integer"}}
    }, "required": ["tags"]});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let c = round_trip(
            &schema,
            d,
            &json!({"tags": {"a": 1, "b": 2}}),
            &json!({"tags": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]}),
        );
        let tags = &c.schema["properties"]["tags"];
        assert_eq!(tags["type"], "array", "{d}");
        assert_eq!(
            tags["items"]["properties"]["value"]["type"], "integer",
            "{d}"
        );
        assert!(c
            .changes
            .iter()
            .any(|ch| ch.pointer == "/properties/tags" && ch.kind == ChangeKind::MapAsEntries));
    }
    // a key twice: an error with its path
    let c = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    let e = c
        .read_back(&json!({"tags": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}))
        .unwrap_err();
    assert_eq!(e.paths(), ["/tags/1/key"]);
    // off: the error as before
    let off = DialectOptions::new().map_entries(false);
    assert!(to_dialect_with(&schema, Dialect::OpenAi, &off).is_err());
    // dialects that express maps keep them
    let c = to_dialect_report(&schema, Dialect::Gemini).unwrap();
    assert!(c.plan.is_identity());
}

#[test]
fn errors_inside_a_map_name_the_input_pointer() {
    let schema = json!({"type": "object", "properties": {
        "m": {"type": "object", "additionalProperties": {"$ref": "#/nowhere"}}
    }});
    let e = to_dialect_report(&schema, Dialect::OpenAi).unwrap_err();
    assert!(
        e.pointer.starts_with("/properties/m/additionalProperties"),
        "{e}"
    );
}

#[test]
fn tuple_becomes_positional_object() {
    let schema = json!({"type": "object", "properties": {
        "p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "minItems": 2, "items": false}
    }, "required": ["p"]});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        round_trip(
            &schema,
            d,
            &json!({"p": [1.5, "x"]}),
            &json!({"p": {"_0": 1.5, "_1": "x"}}),
        );
    }
    // an optional position: null (OpenAI) or absent (Anthropic) ends the tuple
    let open = json!({"type": "array", "items": [{"type": "number"}, {"type": "string"}]});
    round_trip(
        &open,
        Dialect::OpenAi,
        &json!([1]),
        &json!({"_0": 1, "_1": null}),
    );
    round_trip(&open, Dialect::Anthropic, &json!([1]), &json!({"_0": 1}));
}

#[test]
fn any_value_becomes_json_text_under_openai() {
    let schema = json!({"type": "object", "properties": {
        "data": {"description": "Anything."},
        "list": {"type": "array"}
    }, "required": ["data", "list"]});
    let c = round_trip(
        &schema,
        Dialect::OpenAi,
        &json!({"data": {"k": [1, null]}, "list": [1, "a"]}),
        &json!({"data": "{\"k\":[1,null]}", "list": ["1", "\"a\""]}),
    );
    assert_eq!(c.schema["properties"]["data"]["type"], "string");
    let d = c.schema["properties"]["data"]["description"]
        .as_str()
        .unwrap();
    assert!(d.starts_with("Anything.") && d.contains("JSON text"), "{d}");
    let e = c
        .read_back(&json!({"data": "{not json", "list": []}))
        .unwrap_err();
    assert_eq!(e.paths(), ["/data"]);
    // Anthropic takes any value: nothing changes
    assert!(to_dialect_report(&schema, Dialect::Anthropic)
        .unwrap()
        .plan
        .is_identity());
}

#[test]
fn non_object_root_is_wrapped_only_where_needed() {
    let schema = json!({"type": "array", "items": {"type": "string"}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let c = round_trip(&schema, d, &json!(["a"]), &json!({"value": ["a"]}));
        assert_eq!(c.schema["required"], json!(["value"]));
        assert_eq!(c.plan.root_key(), Some("value"));
    }
    for d in [
        Dialect::Gemini,
        Dialect::LmStudio,
        Dialect::LlamaCpp,
        Dialect::Ollama,
        Dialect::Llguidance,
    ] {
        let c = to_dialect_report(&schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
        assert_eq!(c.schema["type"], "array", "{d}");
        assert!(c.plan.is_identity());
    }
    let named = DialectOptions::new().root_key("steps");
    let c = to_dialect_with(&schema, Dialect::OpenAi, &named).unwrap();
    assert_eq!(c.read_back(&json!({"steps": ["x"]})).unwrap(), json!(["x"]));
    assert!(c.read_back(&json!({"value": ["x"]})).is_err());
    // a string enum root, and a recursive root reached by `#`
    let e = json!({"enum": ["a", "b"]});
    round_trip(&e, Dialect::OpenAi, &json!("a"), &json!({"value": "a"}));
    let rec = json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}});
    let c = to_dialect_report(&rec, Dialect::OpenAi).unwrap();
    assert_eq!(
        c.read_back(&json!({"value": ["a", ["b"]]})).unwrap(),
        json!(["a", ["b"]])
    );
}

#[test]
fn optional_property_null_reads_back_as_absent() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": ["string", "null"]}
    }});
    let c = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    assert_eq!(
        c.read_back(&json!({"a": null, "b": null})).unwrap(),
        json!({"b": null})
    );
    assert_eq!(c.plan.forward(&json!({})).unwrap(), json!({"a": null}));
}

#[test]
fn maps_in_definitions_and_recursion_read_back() {
    let schema = json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "required": ["root"],
        "$defs": {"node": {"type": "object", "properties": {
            "attrs": {"type": "object", "additionalProperties": {"type": "string"}},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}
        }, "required": ["attrs", "kids"]}}
    });
    let value = json!({"root": {"attrs": {"x": "1"}, "kids": [{"attrs": {"y": "2"}, "kids": []}]}});
    let shaped = json!({"root": {"attrs": [{"key": "x", "value": "1"}], "kids": [
        {"attrs": [{"key": "y", "value": "2"}], "kids": []}
    ]}});
    round_trip(&schema, Dialect::OpenAi, &value, &shaped);
}

#[test]
fn over_the_optional_budget_a_plan_not_a_failure() {
    let props: serde_json::Map<String, Value> = (0..30)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let schema = json!({"type": "object", "properties": props});
    let c = to_dialect_report(&schema, Dialect::Anthropic).unwrap();
    let made: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::MadeNullable)
        .map(|ch| ch.pointer.as_str())
        .collect();
    assert_eq!(made.len(), 6, "{:?}", c.changes);
    assert!(made.contains(&"/properties/p29"));
    let required = c.schema["required"].as_array().unwrap();
    assert_eq!(required.len(), 6);
    assert_eq!(
        c.read_back(&json!({"p0": "x", "p29": null})).unwrap(),
        json!({"p0": "x"})
    );
    assert_eq!(
        c.plan.forward(&json!({"p0": "x"})).unwrap()["p29"],
        Value::Null
    );
}

#[test]
fn tool_calls_in_the_dialect_shape_read_back() {
    use crate::tools::ToolSet;
    let set = ToolSet::from_mcp_list(&json!({"tools": [{
        "name": "tag",
        "inputSchema": {"type": "object", "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "extra": {}
        }, "required": ["labels"]}
    }]}))
    .unwrap();
    let call = r#"{"labels": [{"key": "env", "value": "prod"}], "extra": "[1,2]"}"#;
    assert_eq!(
        set.check_call_text("tag", call).unwrap(),
        json!({"labels": {"env": "prod"}, "extra": [1, 2]})
    );
    // as written in the tool's own shape: unchanged
    let own = r#"{"labels": {"env": "prod"}}"#;
    assert_eq!(
        set.check_call_text("tag", own).unwrap(),
        json!({"labels": {"env": "prod"}})
    );
    // a key twice: still an error
    let twice = r#"{"labels": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}"#;
    assert!(set.check_call_text("tag", twice).is_err());
}

#[test]
fn declared_properties_and_other_keys_keep_both() {
    let schema = json!({"type": "object", "properties": {"id": {"type": "string"}},
        "required": ["id"], "additionalProperties": {"type": "integer"}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let c = round_trip(
            &schema,
            d,
            &json!({"id": "x", "a": 1}),
            &json!({"id": "x", "_extra": [{"key": "a", "value": 1}]}),
        );
        assert_eq!(c.schema["properties"]["_extra"]["type"], "array", "{d}");
        // a declared property written again among the entries: an error
        let e = c
            .read_back(&json!({"id": "x", "_extra": [{"key": "id", "value": 1}]}))
            .unwrap_err();
        assert_eq!(e.paths(), ["/_extra"]);
    }
}

#[test]
fn recursion_is_unrolled_under_anthropic() {
    let schema = json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "required": ["tree"],
        "$defs": {"node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}
        }, "required": ["name", "kids"]}}
    });
    let c = to_dialect_report(&schema, Dialect::Anthropic).unwrap();
    let text = c.schema.to_string();
    assert!(!text.contains("$ref"), "{text}");
    // three levels written out, the fourth any value
    let l1 = &c.schema["properties"]["tree"];
    let l3 = &l1["properties"]["kids"]["items"]["properties"]["kids"]["items"];
    assert_eq!(l3["type"], "object", "{text}");
    let l4 = &l3["properties"]["kids"]["items"];
    assert!(l4.get("type").is_none(), "{l4}");
    assert!(c
        .changes
        .iter()
        .any(|ch| ch.pointer == "/$defs/node"
            && ch.kind == ChangeKind::RecursionUnrolled { depth: 3 }));
    assert!(c.plan.is_identity());
    // depth 0: refused as before
    let off = DialectOptions::new().recursion_depth(0);
    assert!(to_dialect_with(&schema, Dialect::Anthropic, &off).is_err());
    // OpenAI keeps recursion as `$ref`s
    let o = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    assert!(o.schema.to_string().contains("$ref"));
}

#[test]
fn definitions_of_a_rewritten_root_stay_and_mixed_enums_split() {
    // a root map whose values name a definition
    let schema = json!({"type": "object", "patternProperties": {"^[a-z]+$": {"$ref": "#/definitions/s"}},
        "definitions": {"s": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        round_trip(
            &schema,
            d,
            &json!({"web": {"n": 1}}),
            &json!({"value": [{"key": "web", "value": {"n": 1}}]}),
        );
    }
    // an enum of several types: one enum per type, no JSON text
    let e = json!({"type": "object", "properties": {"v": {"enum": ["a", false, 1]}}, "required": ["v"]});
    let c = to_dialect_report(&e, Dialect::OpenAi).unwrap();
    assert!(c.plan.is_identity());
    assert_eq!(
        c.schema["properties"]["v"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // an array of several types without `items`: items as JSON text
    let t = json!({"type": "object", "properties": {"p": {"type": ["array", "object"]}}, "required": ["p"]});
    let c = to_dialect_report(&t, Dialect::OpenAi);
    if let Ok(c) = c {
        assert_eq!(
            c.read_back(&json!({"p": ["1"]})).unwrap(),
            json!({"p": [1]})
        );
    }
}

#[test]
fn a_definition_merged_by_an_all_of_is_not_reshaped() {
    // `d` is typeless, but an `allOf` part: written as JSON text it would no longer merge
    let schema = json!({"type": "object", "properties": {"a": {"allOf": [{"$ref": "#/definitions/d"},
        {"type": "object", "properties": {"x": {"type": "string"}}}]}},
        "definitions": {"d": {"description": "any"}}});
    let c = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    assert_eq!(
        c.schema["properties"]["a"]["anyOf"][0]["type"], "object",
        "{}",
        c.schema
    );
}

#[test]
fn over_both_budgets_the_heaviest_properties_go_without_a_grammar() {
    // 12 sections, each with 3 optional properties and a union: 36 optional, 12 unions
    let section = json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "integer"},
        "c": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    }});
    let props: serde_json::Map<String, Value> = (0..12)
        .map(|i| (format!("s{i}"), section.clone()))
        .collect();
    let names: Vec<String> = (0..12).map(|i| format!("s{i}")).collect();
    let schema = json!({"type": "object", "properties": props, "required": names});
    let c = to_dialect_report(&schema, Dialect::Anthropic).unwrap();
    let free: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::WithoutGrammar)
        .map(|ch| ch.pointer.clone())
        .collect();
    assert!(!free.is_empty(), "{:?}", c.changes);
    let s = &c.schema["properties"][free[0].rsplit('/').next().unwrap()];
    assert!(s.get("type").is_none() && s["description"].as_str().unwrap().contains("grammar"));
    // the read-back leaves such a section as written: the validator checks it
    assert!(c.plan.is_identity() || c.read_back(&json!({"s0": {"a": "x"}})).is_ok());
}

#[test]
fn a_map_below_a_merged_part_is_reshaped_where_no_other_part_names_it() {
    // `command` is merged with the part beside it, which constrains `command` itself but not
    // its property `options`: `options` becomes entries
    let schema = json!({"type": "object", "properties": {"run": {"allOf": [
            {"$ref": "#/definitions/command"},
            {"type": "object", "required": ["name"]}]}},
        "required": ["run"],
        "definitions": {"command": {"type": "object", "properties": {
            "name": {"type": "string"},
            "options": {"type": "object", "additionalProperties": {"type": "string"}}},
            "required": ["name", "options"]}}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        round_trip(
            &schema,
            d,
            &json!({"run": {"name": "x", "options": {"a": "b"}}}),
            &json!({"run": {"name": "x", "options": [{"key": "a", "value": "b"}]}}),
        );
    }
    // a part that names `options` too keeps it frozen: the merge is left to the dialect walk,
    // which refuses the map
    let mut named = schema.clone();
    named["properties"]["run"]["allOf"][1]["properties"] =
        json!({"options": {"type": "object", "minProperties": 1}});
    assert!(to_dialect_report(&named, Dialect::OpenAi).is_err());
    // as does a part with a rule for undeclared keys
    let mut keys = schema.clone();
    keys["properties"]["run"]["allOf"][1]["additionalProperties"] = json!({"type": "object"});
    assert!(to_dialect_report(&keys, Dialect::OpenAi).is_err());
}

#[test]
fn a_map_below_a_ref_beside_a_sibling_keyword_is_reshaped() {
    // (draft 7: `type` beside the root `$ref`; `definitions` beside it merge nothing)
    let schema = json!({"$ref": "#/definitions/el", "type": "object",
        "definitions": {"el": {"type": "object", "properties": {
            "props": {"type": "object", "additionalProperties": true}},
            "required": ["props"], "additionalProperties": false}}});
    round_trip(
        &schema,
        Dialect::OpenAi,
        &json!({"props": {"a": [1]}}),
        &json!({"props": [{"key": "a", "value": "[1]"}]}),
    );
}

#[test]
fn an_object_with_other_keys_named_by_a_ref_reads_back() {
    // the object's step, not its entries', is the one the `$ref` names (the plan had a loop)
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "$ref": "#/definitions/o",
        "definitions": {"o": {"type": "object", "properties": {"r": {"type": "string"}},
            "required": ["r"], "additionalProperties": {"type": "number"}}}});
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        round_trip(
            &schema,
            d,
            &json!({"r": "x", "n": 1}),
            &json!({"r": "x", "_extra": [{"key": "n", "value": 1}]}),
        );
    }
    // an explicit `additionalProperties: {}` beside declared properties: other keys of any value
    let open = json!({"type": "object", "properties": {"id": {"type": "string"}},
        "required": ["id"], "additionalProperties": {}});
    round_trip(
        &open,
        Dialect::OpenAi,
        &json!({"id": "x", "k": {"a": 1}}),
        &json!({"id": "x", "_extra": [{"key": "k", "value": "{\"a\":1}"}]}),
    );
}

#[test]
fn a_union_branch_that_is_a_ref_to_a_map_reads_back_as_the_map() {
    // both branches are arrays in OpenAI's shape: the entries are read back first
    let schema = json!({"type": "object", "properties": {"langs": {"anyOf": [
            {"type": "array", "items": {"type": "string"}},
            {"$ref": "#/definitions/m"}]}},
        "required": ["langs"],
        "definitions": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}});
    let c = to_dialect_report(&schema, Dialect::OpenAi).unwrap();
    let reply = json!({"langs": [{"key": "en", "value": 1}]});
    assert_eq!(c.read_back(&reply).unwrap(), json!({"langs": {"en": 1}}));
    let plain = json!({"langs": ["en"]});
    assert_eq!(c.read_back(&plain).unwrap(), plain);
}

#[test]
fn over_both_budgets_with_only_plain_properties_some_become_required_of_any_value() {
    // 45 optional strings: 16 can take a `null` union, nothing is heavy enough to free, so
    // the first ones become required and of any value (their `null` reads back as absent)
    let props: serde_json::Map<String, Value> = (0..45)
        .map(|i| (format!("p{i:02}"), json!({"type": "string"})))
        .collect();
    let schema = json!({"type": "object", "properties": props});
    let c = to_dialect_report(&schema, Dialect::Anthropic).unwrap_or_else(|e| panic!("{e}"));
    let free: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::WithoutGrammar)
        .map(|ch| ch.pointer.as_str())
        .collect();
    assert!(
        !free.is_empty() && free.contains(&"/properties/p00"),
        "{free:?}"
    );
    let p00 = &c.schema["properties"]["p00"];
    assert!(
        p00.get("type").is_none() && p00.get("anyOf").is_none(),
        "{p00}"
    );
    let required = c.schema["required"].as_array().unwrap();
    assert!(required.contains(&json!("p00")));
    let optional = 45 - required.len();
    assert!(optional <= 24, "{optional} optional properties left");
    // absent reads as `null` forward and back as absent; a value stays
    let fwd = c.plan.forward(&json!({"p01": "x"})).unwrap();
    assert_eq!(fwd["p00"], Value::Null);
    assert_eq!(c.read_back(&fwd).unwrap(), json!({"p01": "x"}));
}

#[test]
fn an_enum_of_arrays_is_an_enum_of_json_texts_under_openai() {
    let schema = json!({"type": "object", "properties": {
        "pair": {"enum": [[1, 2], [3, 4], "x"]},
        "one": {"const": [{"foo": "bar"}]}
    }, "required": ["pair", "one"]});
    let value = json!({"pair": [3, 4], "one": [{"foo": "bar"}]});
    let shaped = json!({"pair": "[3,4]", "one": "[{\"foo\":\"bar\"}]"});
    let c = round_trip(&schema, Dialect::OpenAi, &value, &shaped);
    assert_eq!(
        c.schema["properties"]["pair"]["enum"],
        json!(["[1,2]", "[3,4]", "\"x\""])
    );
    assert_eq!(c.schema["properties"]["pair"]["type"], "string");
    assert!(c
        .changes
        .iter()
        .any(|ch| ch.pointer == "/properties/one" && ch.kind == ChangeKind::AnyAsJsonText));
    // an `allOf` part's values, only those the whole schema accepts
    let merged = json!({"allOf": [{"enum": [[1], [1, 2, 3]]}, {"maxItems": 2}]});
    let c = to_dialect_report(&merged, Dialect::OpenAi).unwrap();
    assert_eq!(
        c.schema["properties"]["value"]["enum"],
        json!(["[1]"]),
        "{}",
        c.schema
    );
    assert_eq!(c.read_back(&json!({"value": "[1]"})).unwrap(), json!([1]));
}

#[test]
fn a_draft7_ref_beside_ignored_keywords_is_reshaped_as_a_ref_alone() {
    // (draft 7 ignores `type` beside `$ref`: the map the `$ref` names becomes entries)
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"m": {"type": "object", "$ref": "#/definitions/m"}}, "required": ["m"],
        "definitions": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}});
    let c = round_trip(
        &schema,
        Dialect::OpenAi,
        &json!({"m": {"a": 1}}),
        &json!({"m": [{"key": "a", "value": 1}]}),
    );
    let dropped = (c.changes.iter()).filter(|ch| {
        ch.pointer == "/properties/m"
            && matches!(&ch.kind, ChangeKind::Dropped { keyword } if keyword == "type")
    });
    assert_eq!(dropped.count(), 1, "{:?}", c.changes);
}
