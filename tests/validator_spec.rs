//! Regression tests for the validator bugs of issue 15 (inputs quoted from the issue), the
//! keywords it used to ignore, and scaling by operation count rather than by the clock.

use schema_core::__private::evaluation_steps;
use schema_core::validate::{Draft, Validator};
use serde_json::{json, Value};

fn v(schema: Value) -> Validator {
    Validator::new(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// Both modes (first error, every error) must agree.
fn valid(schema: &Validator, value: Value) -> bool {
    let quick = schema.is_valid(&value);
    assert_eq!(quick, schema.validate(&value).is_ok(), "{value}");
    quick
}

#[test]
fn multiple_of_has_no_float_tolerance() {
    let cents = v(json!({"multipleOf": 0.01}));
    assert!(!valid(&cents, json!(10000000.005)));
    assert!(valid(&cents, json!(10000000.05)));
    assert!(valid(&cents, json!(19.99)));
    let even = v(json!({"multipleOf": 2}));
    assert!(!valid(&even, json!(3000000001.0)));
    assert!(valid(&even, json!(3000000002.0)));
}

#[test]
fn unique_items_compares_numbers_by_value() {
    let u = v(json!({"uniqueItems": true}));
    let same: Value = serde_json::from_str("[10000000000000000, 1e16]").unwrap();
    assert!(!valid(&u, same));
    let different: Value = serde_json::from_str("[10000000000000001, 1e16]").unwrap();
    assert!(valid(&u, different));
    assert!(!valid(&u, json!([1, 1.0])));
}

#[test]
fn tagged_union_shortcut_keeps_the_semantics() {
    let branches = json!([
        {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        {"properties": {"kind": {"const": "b"}, "n": {"type": "integer"}}, "required": ["kind"]}
    ]);
    let any = v(json!({"anyOf": branches}));
    // Branches without `type` accept every non-object.
    assert!(valid(&any, json!(5)));
    assert!(valid(&any, json!("text")));
    assert!(valid(&any, json!({"kind": "b", "n": 1})));
    assert!(!valid(&any, json!({"kind": "b", "n": "1"})));
    assert!(!valid(&any, json!({"kind": "c"})));
    assert!(!valid(&any, json!({})));
    // A `oneOf` beside the tagged `anyOf` is checked too.
    let both = v(json!({
        "anyOf": branches,
        "oneOf": [{"required": ["x"]}, {"required": ["y"]}]
    }));
    assert!(valid(&both, json!({"kind": "a", "x": 1})));
    assert!(!valid(&both, json!({"kind": "a"})));
    assert!(!valid(&both, json!({"kind": "a", "x": 1, "y": 2})));
    let errors = both.validate(&json!({"kind": "a"})).unwrap_err();
    assert_eq!(errors.errors()[0].keyword, "oneOf", "{errors}");
}

#[test]
fn ref_under_embedded_id_uses_that_base() {
    let schema = json!({
        "$id": "https://example.com/root.json",
        "$defs": {
            "a": {"$id": "https://example.com/nested/a.json", "$ref": "b.json"},
            "b": {"$id": "https://example.com/nested/b.json", "type": "integer"},
            "rootB": {"$id": "https://example.com/b.json", "type": "string"}
        },
        "$ref": "https://example.com/nested/a.json"
    });
    let val = v(schema);
    assert!(valid(&val, json!(1)));
    assert!(!valid(&val, json!("one")));
}

#[test]
fn not_of_a_keyword_once_ignored() {
    let val = v(json!({"not": {"contains": {"const": 1}}}));
    assert!(valid(&val, json!([2, 3])));
    assert!(!valid(&val, json!([1, 2])));
}

#[test]
fn pattern_is_ecma_262() {
    let digit = v(json!({"pattern": "^\\d$"}));
    assert!(valid(&digit, json!("3")));
    assert!(
        !valid(&digit, json!("\u{0663}")),
        "ARABIC-INDIC DIGIT THREE"
    );
    let not_tmp = v(json!({"pattern": "^(?!tmp_).+$"}));
    assert!(valid(&not_tmp, json!("report")));
    assert!(!valid(&not_tmp, json!("tmp_report")));
    let pp = v(json!({"patternProperties": {"^(?!x-)": {"type": "integer"}}}));
    assert!(valid(&pp, json!({"a": 1, "x-b": "free"})));
    assert!(!valid(&pp, json!({"a": "1"})));
    let bad = Validator::new(&json!({"properties": {"p": {"pattern": "(?P<n>a)"}}})).unwrap_err();
    assert!(bad.to_string().contains("/properties/p/pattern"), "{bad}");
}

#[test]
fn openapi_nullable_only_when_asked() {
    let schema = json!({"type": "string", "nullable": true});
    assert!(!valid(&v(schema.clone()), json!(null)));
    let openapi = Validator::builder()
        .openapi_nullable(true)
        .build(&schema)
        .unwrap();
    assert!(valid(&openapi, json!(null)));
    assert!(valid(&openapi, json!("s")));
    assert!(!valid(&openapi, json!(1)));
}

#[test]
fn keywords_once_ignored_are_enforced() {
    let cases: Vec<(Value, Value, Value)> = vec![
        (
            json!({"if": {"minimum": 10}, "then": {"multipleOf": 2}, "else": {"maximum": 5}}),
            json!(12),
            json!(11),
        ),
        (
            json!({"if": {"minimum": 10}, "then": {"multipleOf": 2}, "else": {"maximum": 5}}),
            json!(4),
            json!(7),
        ),
        (
            json!({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}),
            json!(["a", "b", 1]),
            json!(["a", 1]),
        ),
        (
            json!({"contains": {"type": "string"}, "maxContains": 1}),
            json!(["a", 1]),
            json!(["a", "b"]),
        ),
        (
            json!({"dependentRequired": {"card": ["billing"]}}),
            json!({"card": 1, "billing": 2}),
            json!({"card": 1}),
        ),
        (
            json!({"dependentSchemas": {"card": {"required": ["billing"]}}}),
            json!({"billing": 2}),
            json!({"card": 1}),
        ),
        (
            json!({"propertyNames": {"maxLength": 3}}),
            json!({"abc": 1}),
            json!({"abcd": 1}),
        ),
        (
            json!({"properties": {"a": {}}, "unevaluatedProperties": false}),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
        ),
        (
            json!({"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
        ),
        (
            json!({"prefixItems": [{"type": "integer"}], "unevaluatedItems": false}),
            json!([1]),
            json!([1, 2]),
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#",
                   "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
            json!({"a": 1, "b": 2, "c": 3, "d": 4}),
            json!({"c": 3}),
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#",
                   "items": [{"type": "integer"}], "additionalItems": false}),
            json!([1]),
            json!([1, 2]),
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#",
                   "items": [{"type": "integer"}, {"type": "string"}]}),
            json!([1, "a", null]),
            json!(["a", 1]),
        ),
    ];
    for (schema, good, bad) in cases {
        let val = v(schema.clone());
        assert!(valid(&val, good.clone()), "{schema} should accept {good}");
        assert!(!valid(&val, bad.clone()), "{schema} should reject {bad}");
    }
}

#[test]
fn references_anchors_dynamic_refs_and_documents() {
    let anchors = v(json!({
        "$defs": {"name": {"$anchor": "name", "type": "string"}},
        "properties": {"n": {"$ref": "#name"}}
    }));
    assert!(valid(&anchors, json!({"n": "a"})));
    assert!(!valid(&anchors, json!({"n": 1})));

    let urn = v(json!({
        "$id": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed",
        "$defs": {"bar": {"type": "string"}},
        "properties": {"foo": {"$ref": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed#/$defs/bar"}}
    }));
    assert!(!valid(&urn, json!({"foo": 12})));

    // A generic list whose items a caller narrows through `$dynamicAnchor`.
    let list = json!({
        "$id": "https://example.com/list",
        "type": "array",
        "items": {"$dynamicRef": "#item"},
        "$defs": {"item": {"$dynamicAnchor": "item"}}
    });
    let ints = Validator::builder()
        .with_document("https://example.com/list", list)
        .build(&json!({
            "$id": "https://example.com/ints",
            "$ref": "list",
            "$defs": {"int": {"$dynamicAnchor": "item", "type": "integer"}}
        }))
        .unwrap();
    assert!(valid(&ints, json!([1, 2])));
    assert!(!valid(&ints, json!([1, "2"])));

    // The meta-schemas are built in: no network.
    let meta = v(json!({"$ref": "https://json-schema.org/draft/2020-12/schema"}));
    assert!(valid(&meta, json!({"type": "string"})));
    assert!(!valid(&meta, json!({"type": 12})));

    let missing = Validator::new(&json!({"$ref": "https://example.com/nowhere.json"}));
    assert!(missing.is_err());
}

#[test]
fn annotations_are_not_errors_and_unknown_dialects_are() {
    let val = v(json!({
        "title": "T", "x-foo": {"anything": true}, "examples": [1], "deprecated": true,
        "contentMediaType": "application/json", "type": "integer"
    }));
    assert!(valid(&val, json!(1)));
    let e = Validator::new(
        &json!({"properties": {"a": {"$schema": "https://example.com/my-dialect"}}}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("/properties/a/$schema"), "{e}");
    let vocab = Validator::builder()
        .with_document(
            "https://example.com/meta",
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$vocabulary": {"https://example.com/vocab/unknown": true}
            }),
        )
        .build(&json!({"$schema": "https://example.com/meta"}))
        .unwrap_err();
    assert!(vocab.to_string().contains("vocab/unknown"), "{vocab}");
}

#[test]
fn drafts_by_schema_and_default() {
    // Draft 4: boolean exclusiveMaximum; draft 7: `$ref` overrides its siblings.
    let d4 = v(json!({"$schema": "http://json-schema.org/draft-04/schema#",
                      "maximum": 5, "exclusiveMaximum": true}));
    assert!(!valid(&d4, json!(5)));
    let d7 = json!({"definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 1});
    let old = Validator::builder()
        .default_draft(Draft::Draft7)
        .build(&d7)
        .unwrap();
    assert!(valid(&old, json!("long")));
    assert!(!valid(&v(d7), json!("long")));
}

#[test]
fn formats_assert_by_default_and_can_be_annotations() {
    let schema = json!({"format": "time"});
    assert!(!valid(&v(schema.clone()), json!("22:59:60Z")));
    assert!(!valid(
        &v(json!({"format": "uri"})),
        json!("https://example.com/{}")
    ));
    assert!(valid(
        &v(json!({"format": "email"})),
        json!("\"joe bloggs\"@example.com")
    ));
    let lax = Validator::builder()
        .assert_formats(false)
        .build(&schema)
        .unwrap();
    assert!(valid(&lax, json!("22:59:60Z")));
}

fn nested_any_of(depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    defs.insert("l0".into(), json!({"type": "string"}));
    for i in 1..=depth {
        let prev = format!("#/$defs/l{}", i - 1);
        defs.insert(
            format!("l{i}"),
            json!({"anyOf": [{"$ref": prev}, {"$ref": prev}]}),
        );
    }
    json!({"$defs": defs, "$ref": format!("#/$defs/l{depth}")})
}

/// Runs `f` with a stack large enough for 80 nested schema levels in a debug build (the
/// compiler turns deeper nesting than its stack budget into an error).
fn with_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn nested_any_of_is_linear() {
    with_big_stack(nested_any_of_counts);
}

#[test]
fn too_deep_is_an_error_not_a_crash() {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut s = json!({"type": "string"});
            // Built by moving (`json!` would deep-copy `s` recursively).
            for _ in 0..1000 {
                let mut m = serde_json::Map::new();
                m.insert(
                    "anyOf".into(),
                    Value::Array(vec![s, json!({"type": "null"})]),
                );
                s = Value::Object(m);
            }
            assert!(Validator::new(&s).is_err());
            std::mem::forget(s); // dropping 1000 nested maps recurses too
            let chain = v(
                json!({"$defs": {"n": {"properties": {"a": {"$ref": "#/$defs/n"}}}},
                                 "$ref": "#/$defs/n"}),
            );
            let mut val = json!({});
            for _ in 0..2000 {
                let mut m = serde_json::Map::new();
                m.insert("a".into(), val);
                val = Value::Object(m);
            }
            assert!(chain.validate(&val).is_err());
            std::mem::forget(val); // dropping 2000 nested maps recurses too
        })
        .unwrap()
        .join()
        .unwrap();
}

fn nested_any_of_counts() {
    // The case: 22 levels took 14.8 s when every branch was tried.
    let v22 = v(nested_any_of(22));
    assert!(valid(&v22, json!("x")));
    assert!(!valid(&v22, json!(5)));
    for value in [json!("x"), json!(5)] {
        let steps: Vec<u64> = [10, 20, 40]
            .iter()
            .map(|&d| evaluation_steps(&v(nested_any_of(d)), &value))
            .collect();
        println!("nested anyOf depth 10/20/40 on {value}: {steps:?} steps");
        for w in steps.windows(2) {
            let ratio = w[1] as f64 / w[0] as f64;
            assert!(
                ratio < 2.5,
                "doubling the depth multiplied the work by {ratio}: {steps:?}"
            );
        }
    }
}

#[test]
fn enum_size_is_linear() {
    let steps: Vec<u64> = [1_000, 10_000, 100_000]
        .iter()
        .map(|&n| {
            let values: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
            let val = v(json!({"enum": values}));
            assert!(valid(&val, json!("v7")));
            evaluation_steps(&val, &json!("absent"))
        })
        .collect();
    println!("enum of 1k/10k/100k values: {steps:?} steps");
    for w in steps.windows(2) {
        let ratio = w[1] as f64 / w[0] as f64;
        assert!(
            (8.0..12.5).contains(&ratio),
            "10x values cost {ratio}x: {steps:?}"
        );
    }
}
