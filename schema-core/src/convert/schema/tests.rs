//! Tests of the normalizer: the model it builds for small inputs, written by hand.

use super::*;
use crate::convert::ConvertErrorKind;
use serde_json::json;

fn object(s: &Schema) -> &Object {
    match &s.kind {
        Kind::Object(o) => o,
        other => panic!("expected an object, found {other:?}"),
    }
}

#[test]
fn references_are_definitions_normalized_once() {
    let doc = normalize(&json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"$ref": "#/$defs/P"}, "t": {"$ref": "#/$defs/Tree"}},
        "$defs": {
            "P": {"type": "string"},
            "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}
        }
    }))
    .unwrap();
    let props = &object(doc.root()).props;
    assert_eq!(props[0].schema.kind, props[1].schema.kind);
    let Kind::Ref(p) = props[0].schema.kind else {
        panic!("a reference stays a reference")
    };
    let Kind::Ref(tree) = props[2].schema.kind else {
        panic!("a reference stays a reference")
    };
    assert_eq!(doc.defs.len(), 3, "the root, P and Tree, each once");
    assert_eq!(doc.def(p).target, "#/$defs/P");
    assert!(!doc.def(p).recursive);
    assert!(doc.def(tree).recursive);
    assert!(!doc.def(0).recursive);
}

#[test]
fn all_of_objects_merge_and_other_parts_intersect() {
    let doc = normalize(&json!({
        "allOf": [{"$ref": "#/$defs/A"}, {"properties": {"b": {"type": "number"}}, "required": ["b"]}],
        "description": "outer",
        "$defs": {"A": {"type": "object", "description": "inner", "properties": {"a": {"type": "string"}}}}
    }))
    .unwrap();
    let root = doc.root();
    assert_eq!(root.desc.as_deref(), Some("outer"));
    let o = object(root);
    let names: Vec<(&str, bool)> = o
        .props
        .iter()
        .map(|p| (p.name.as_str(), p.required))
        .collect();
    assert_eq!(names, [("a", false), ("b", true)]);
    let doc = normalize(&json!({"allOf": [{"type": "string"}, {"type": "array"}]})).unwrap();
    assert!(matches!(&doc.root().kind, Kind::All(parts) if parts.len() == 2));
}

#[test]
fn type_arrays_and_nullable_become_unions() {
    for schema in [
        json!({"type": ["string", "null"]}),
        json!({"type": "string", "nullable": true}),
    ] {
        let doc = normalize(&schema).unwrap();
        let Kind::Union(members) = &doc.root().kind else {
            panic!("expected a union for {schema}")
        };
        let kinds: Vec<&Kind> = members.iter().map(|m| &m.kind).collect();
        assert_eq!(
            kinds,
            [&Kind::Scalar(Scalar::String), &Kind::Scalar(Scalar::Null)]
        );
    }
}

#[test]
fn required_clauses_and_refining_branches() {
    let doc = normalize(&json!({
        "type": "object",
        "properties": {"a": {}, "b": {}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}]
    }))
    .unwrap();
    let o = object(doc.root());
    assert_eq!(
        o.clauses,
        [Clauses {
            one_of: true,
            sets: vec![vec!["a".to_string()], vec!["b".to_string()]]
        }]
    );
    assert!(doc.root().alternatives.is_empty());
    let doc =
        normalize(&json!({"type": "string", "anyOf": [{"maxLength": 5}, {"format": "email"}]}))
            .unwrap();
    let branches = &doc.root().alternatives[0].branches;
    assert!(branches
        .iter()
        .all(|b| b.kind == Kind::Scalar(Scalar::String)));
    assert_eq!(branches[0].keywords["maxLength"], json!(5));
}

#[test]
fn constraints_are_typed_once_merged() {
    let doc = normalize(&json!({
        "type": "integer", "minimum": 1, "exclusiveMaximum": true, "maximum": 10,
        "maxLength": 5.0, "pattern": "^a", "multipleOf": 2
    }))
    .unwrap();
    let c = &doc.root().constraints;
    assert!(c.integer && !c.number);
    assert_eq!(c.minimum, Some(1.into()));
    // draft 4: the boolean makes `maximum` exclusive
    assert_eq!(
        (c.maximum.clone(), c.exclusive_maximum.clone()),
        (None, Some(10.into()))
    );
    assert_eq!(c.max_length, Some(5));
    assert_eq!(c.pattern.as_deref(), Some("^a"));
    assert_eq!(c.multiple_of, Some(2.into()));
    // object parts merged: bounds tighten (as in the dialect converter's merge)
    let doc = normalize(&json!({
        "allOf": [
            {"type": "object", "maxProperties": 3, "dependentRequired": {"a": ["b", "c"]}},
            {"type": "object", "maxProperties": 2, "minProperties": 1,
             "propertyNames": {"pattern": "^k"}}
        ]
    }))
    .unwrap();
    let c = &doc.root().constraints;
    assert_eq!((c.min_properties, c.max_properties), (Some(1), Some(2)));
    assert_eq!(c.key_pattern.as_deref(), Some("^k"));
    assert_eq!(
        c.dependent_required,
        [("a".to_string(), vec!["b".to_string(), "c".to_string()])]
    );
    let doc = normalize(&json!({"type": ["integer", "null"], "uniqueItems": true})).unwrap();
    assert!(doc.root().constraints.integer && doc.root().constraints.unique_items);
}

/// A schema without constraints holds none (no box) and reads as empty; one with any holds
/// them; a write through `DerefMut` boxes them.
#[test]
fn constraints_are_held_only_where_there_are_any() {
    use std::ops::DerefMut;
    let doc = normalize(&json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string", "maxLength": 3}}
    }))
    .unwrap();
    let Kind::Object(o) = &doc.root().kind else {
        panic!("an object")
    };
    let (a, b) = (&o.props[0].schema, &o.props[1].schema);
    assert!(a.constraints.0.is_none() && doc.root().constraints.0.is_none());
    assert_eq!(*a.constraints, Constraints::default());
    assert!(b.constraints.0.is_some());
    assert_eq!(b.constraints.max_length, Some(3));
    let mut held = Held::default();
    held.deref_mut().max_items = Some(2);
    assert_eq!(held.max_items, Some(2));
    held.set(Constraints::default());
    assert!(held.0.is_none());
}

#[test]
fn keyword_merge_is_the_intersection() {
    let merged = |k: &str, a: Value, b: Value| {
        let mut a = a;
        merge_keyword(k, &mut a, b).map(|()| a)
    };
    assert_eq!(merged("maximum", json!(10), json!(5)), Ok(json!(5)));
    assert_eq!(merged("minLength", json!(1), json!(3)), Ok(json!(3)));
    assert_eq!(merged("maxItems", json!(2), json!(9)), Ok(json!(2)));
    assert_eq!(
        merged("type", json!(["number", "null"]), json!("integer")),
        Ok(json!("integer"))
    );
    assert_eq!(
        merged("enum", json!(["a", "b"]), json!(["b", "c"])),
        Ok(json!(["b"]))
    );
    assert_eq!(
        merged("title", json!("first"), json!("second")),
        Ok(json!("first"))
    );
    assert_eq!(
        merged("not", json!({"const": 1}), json!({"const": 2})),
        Ok(json!({"anyOf": [{"const": 1}, {"const": 2}]}))
    );
    assert_eq!(
        merged("uniqueItems", json!(false), json!(true)),
        Ok(json!(true))
    );
    assert_eq!(
        merged("pattern", json!("^a"), json!("b$")),
        Ok(json!("^(?=[\\s\\S]*?(?:^a))(?=[\\s\\S]*?(?:b$))"))
    );
    assert!(matches!(
        merged("type", json!("string"), json!("number")),
        Err(Conflict::Malformed(_))
    ));
    // a conflict leaves the earlier value as it was
    let mut e = json!(["a"]);
    assert!(merge_keyword("enum", &mut e, json!(["b"])).is_err());
    assert_eq!(e, json!(["a"]));
    assert!(matches!(
        merged(
            "anyOf",
            json!([{"type": "string"}]),
            json!([{"type": "number"}])
        ),
        Err(Conflict::Unsupported(_))
    ));
    assert_eq!(
        merged(
            "oneOf",
            json!([{"required": ["a"]}]),
            json!([{"required": ["b"]}])
        ),
        Ok(json!([{"required": ["a"]}, {"required": ["b"]}]))
    );
}

/// Arrays of several `allOf` parts merge position by position: each position takes what
/// every part allows there (its own item, else its rest). Before, two tuples stayed an
/// intersection that TypeScript reads as no value at all (`[string] & [unknown, number]`:
/// tuples of two lengths).
#[test]
fn arrays_merge_position_by_position() {
    let ts = |schema: Value| crate::convert::to_typescript(&schema, &Default::default()).unwrap();
    assert_eq!(
        ts(json!({"allOf": [
            {"prefixItems": [{"type": "string"}]},
            {"prefixItems": [true, {"type": "number"}]}
        ]})),
        "[string, number]"
    );
    // the list's items apply to the tuple's position too
    assert_eq!(
        ts(json!({"allOf": [
            {"type": "array", "items": {"type": "integer", "minimum": 5}},
            {"prefixItems": [{"type": "number", "minimum": 3}]}
        ]})),
        "[number /* int >=5 */, ...(number /* int >=5 */)[]]"
    );
}

#[test]
fn a_bad_constraint_is_an_error_at_its_own_keyword() {
    for (schema, at) in [
        (json!({"type": "string", "maxLength": "ten"}), "/maxLength"),
        (json!({"type": "string", "maxLength": -1}), "/maxLength"),
        (json!({"type": "number", "minimum": "0"}), "/minimum"),
        (json!({"multipleOf": null}), "/multipleOf"),
        (
            json!({"dependentRequired": {"a~b": "b"}}),
            "/dependentRequired/a~0b",
        ),
        // inside an `allOf` part: the part's own keyword, not the merged schema's
        (
            json!({"allOf": [{"type": "string", "pattern": 5}]}),
            "/allOf/0/pattern",
        ),
        (
            json!({"properties": {"p": {"format": ["uri"]}}}),
            "/properties/p/format",
        ),
    ] {
        let e = normalize(&schema).unwrap_err();
        assert_eq!(e.pointer, at, "{schema}");
        assert!(matches!(e.kind, ConvertErrorKind::Malformed(_)), "{schema}");
    }
}

#[test]
fn bad_input_names_the_place() {
    let e = normalize(&json!({"properties": {"a": {"$ref": "#/$defs/Nope"}}})).unwrap_err();
    assert_eq!(e.pointer, "/properties/a/$ref");
    assert!(matches!(e.kind, ConvertErrorKind::UnresolvableRef(_)));
    let e = normalize(&json!({"type": "object", "properties": {"a": 5}})).unwrap_err();
    assert_eq!(e.pointer, "/properties/a");
    let mut deep = json!({"type": "string"});
    // (600 levels: deeper than the limit, shallow enough to drop without a deep stack)
    for _ in 0..600 {
        deep = json!({"type": "array", "items": deep});
    }
    assert!(matches!(
        normalize(&deep).unwrap_err().kind,
        ConvertErrorKind::TooDeep(_)
    ));
}
