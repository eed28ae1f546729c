//! What the dialect output needs from the model to be written from it: [`Schema::order`] (the
//! input's keyword order, merged parts in the order the dialect converter writes them), every
//! keyword it keeps, and whether a tuple is closed.

use super::*;
use crate::convert::dialect::walk_input;
use crate::convert::{ConvertError, DialectOptions};

/// The walk over the input itself (not through the model whose order these tests check).
fn to_dialect(x: &Value, d: Dialect) -> Result<Value, ConvertError> {
    walk_input(x, d, &DialectOptions::new(), false).map(|c| c.schema)
}
use crate::Dialect;
use serde_json::json;

fn order(s: &Schema) -> Vec<&str> {
    s.order.iter().map(|k| k.as_ref()).collect()
}

fn prop<'s>(s: &'s Schema, name: &str) -> &'s Schema {
    match &s.kind {
        Kind::Object(o) => &o.props.iter().find(|p| p.name == name).unwrap().schema,
        other => panic!("expected an object, found {other:?}"),
    }
}

#[test]
fn a_plain_schema_keeps_its_keywords_in_order() {
    let doc = normalize(&json!({
        "title": "T", "x-unknown": 1, "type": "object", "description": "d",
        "properties": {"a": {"maxLength": 3, "type": "string", "default": "z", "description": "a"}},
        "required": ["a"], "$defs": {"U": {}}
    }))
    .unwrap();
    let root = doc.root();
    assert_eq!(
        order(root),
        [
            "title",
            "x-unknown",
            "type",
            "description",
            "properties",
            "required",
            "$defs"
        ]
    );
    // unknown keywords and annotations kept, in place
    let keys: Vec<&str> = root.keywords.keys().map(String::as_str).collect();
    assert_eq!(keys, ["title", "x-unknown", "type"]);
    assert_eq!(
        order(prop(root, "a")),
        ["maxLength", "type", "default", "description"]
    );
}

#[test]
fn merged_parts_keep_the_target_then_the_members_then_the_own_keywords() {
    let doc = normalize(&json!({
        "type": "object",
        "properties": {
            // a constrained `$ref`: its target inlined, the own keywords after the target's
            "r": {"maxLength": 9, "description": "own", "$ref": "#/$defs/S"},
            // `allOf`: the members' keywords in order, then the own ones not seen yet
            "m": {"x-own": 1, "allOf": [{"minLength": 1, "type": "string"}, {"pattern": "a", "minLength": 2}], "type": "string"},
            // a plain reference stays one: the own keywords as written
            "p": {"description": "p", "$ref": "#/$defs/S"}
        },
        "$defs": {"S": {"type": "string", "description": "target", "maxLength": 5}}
    }))
    .unwrap();
    let root = doc.root();
    assert_eq!(order(prop(root, "r")), ["type", "description", "maxLength"]);
    assert_eq!(
        order(prop(root, "m")),
        ["minLength", "type", "pattern", "x-own"]
    );
    assert_eq!(order(prop(root, "p")), ["description", "$ref"]);
}

#[test]
fn a_recursive_reference_and_an_intersection_keep_their_keywords() {
    let doc = normalize(&json!({
        "type": "object",
        "properties": {
            "next": {"description": "n", "$ref": "#"},
            "both": {"allOf": [{"type": "string"}, {"type": "array"}], "title": "b"}
        }
    }))
    .unwrap();
    let root = doc.root();
    assert_eq!(order(prop(root, "next")), ["description", "$ref"]);
    assert_eq!(order(prop(root, "both")), ["allOf", "title"]);
}

/// A closed tuple and an open one differ in the model, as they do in the dialect output
/// (`items: false` kept, or absent); before, both read as the same `Array`.
#[test]
fn a_closed_tuple_is_not_an_open_one() {
    let closed = |schema: Value| match normalize(&schema).unwrap().root().kind.clone() {
        Kind::Array(a) => {
            let out = to_dialect(&schema, Dialect::Llguidance).unwrap();
            let kept = out.get("items") == Some(&Value::Bool(false));
            assert_eq!(a.closed, kept, "{schema} -> {out}");
            a.closed
        }
        other => panic!("expected an array, found {other:?}"),
    };
    assert!(closed(
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false})
    ));
    assert!(!closed(
        json!({"type": "array", "prefixItems": [{"type": "string"}]})
    ));
    assert!(closed(
        json!({"type": "array", "items": [{"type": "string"}], "additionalItems": false})
    ));
    assert!(!closed(
        json!({"type": "array", "items": [{"type": "string"}]})
    ));
}

/// A closed tuple's counts that restate its length stay in the keywords (the dialect output
/// keeps them; before, the model dropped them) and out of the constraints (the TypeScript text
/// has no note for them).
#[test]
fn a_closed_tuple_keeps_its_counts_as_keywords() {
    let schema = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}],
        "items": false, "minItems": 2, "maxItems": 2});
    let doc = normalize(&schema).unwrap();
    let root = doc.root();
    assert_eq!(root.keywords.get("minItems"), Some(&json!(2)));
    assert_eq!(root.keywords.get("maxItems"), Some(&json!(2)));
    assert_eq!(
        (root.constraints.min_items, root.constraints.max_items),
        (None, None)
    );
    let out = to_dialect(&schema, Dialect::Llguidance).unwrap();
    assert_eq!((&out["minItems"], &out["maxItems"]), (&json!(2), &json!(2)));
    let ts = crate::convert::to_typescript(&schema, &Default::default()).unwrap();
    assert_eq!(ts, "[string, number]");
    // an open tuple's counts say something: kept in both
    let open = json!({"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1});
    assert_eq!(
        normalize(&open).unwrap().root().constraints.min_items,
        Some(1)
    );
}

/// The keywords the dialect output has in common with the model follow the model's order, for
/// every schema along the properties of every fixture (and, with `MCP_CORPUS` set, every corpus
/// schema) converted to `Llguidance` (the dialect that keeps the most keywords).
#[test]
fn the_dialect_output_follows_the_model_order() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("tests/fixtures/convert")];
    match std::env::var("MCP_CORPUS") {
        Ok(dir) => dirs.push(dir.into()),
        Err(_) => eprintln!("MCP_CORPUS not set: the MCP corpus is not compared"),
    }
    let (mut files, mut compared) = (0, 0);
    for dir in dirs {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        for p in paths {
            let input: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let (Ok(doc), Ok(out)) = (normalize(&input), to_dialect(&input, Dialect::Llguidance))
            else {
                continue;
            };
            files += 1;
            compared += same_order(&doc, doc.root(), &out, &p.display().to_string());
        }
    }
    // merges, each written so that another order shows
    let defs = json!({
        "S": {"type": "string", "description": "target", "maxLength": 5},
        "O": {"description": "o", "type": "object", "properties": {"a": {"type": "string"}}, "x-o": 1},
        "R": {"title": "r", "$ref": "#/$defs/O", "minProperties": 1}
    });
    for k in [
        json!({"maxLength": 9, "description": "own", "$ref": "#/$defs/S"}),
        json!({"x-own": 1, "allOf": [{"minLength": 1, "type": "string"}, {"pattern": "a", "minLength": 2}], "type": "string"}),
        json!({"title": "t", "allOf": [{"$ref": "#/$defs/O"}, {"maxProperties": 3, "properties": {"b": {"type": "number"}}}]}),
        json!({"maxProperties": 4, "$ref": "#/$defs/R", "title": "own"}),
        json!({"allOf": [{"$ref": "#/$defs/R"}, {"$ref": "#/$defs/S"}]}),
        json!({"allOf": [{"format": "date", "allOf": [{"$ref": "#/$defs/S"}]}, {"title": "t"}]}),
    ] {
        let input =
            json!({"type": "object", "properties": {"k": k}, "required": ["k"], "$defs": defs});
        let (Ok(doc), Ok(out)) = (normalize(&input), to_dialect(&input, Dialect::Llguidance))
        else {
            continue;
        };
        compared += same_order(&doc, doc.root(), &out, &k.to_string());
        files += 1;
    }
    eprintln!("{files} files, {compared} schemas compared");
    assert!(
        files > 30 && compared > 40,
        "{files} files, {compared} schemas"
    );
}

/// Checks `s` against `out` (and their properties, recursively); how many were compared.
fn same_order(doc: &Doc, s: &Schema, out: &Value, at: &str) -> usize {
    let Value::Object(m) = out else { return 0 };
    let s = match s.kind {
        Kind::Ref(id) if !doc.def(id).recursive && !m.contains_key("$ref") => &doc.def(id).schema,
        _ => s,
    };
    // (a union's keywords the dialect writes in an order of its own: annotations, `anyOf`)
    if s.order.is_empty() || m.contains_key("anyOf") {
        return 0;
    }
    // (the keywords of both, in each one's order; the dialect writes `type` first and an
    // object's keywords as one block where the first of them is)
    const BLOCK: [&str; 4] = [
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
    ];
    let order: Vec<&str> = s.order.iter().map(|k| k.as_ref()).collect();
    let mut emitted: Vec<&str> = order.iter().copied().filter(|k| *k == "type").collect();
    for &k in &order {
        if BLOCK.contains(&k) {
            if !emitted.iter().any(|e| BLOCK.contains(e)) {
                emitted.extend(BLOCK.iter().filter(|b| order.contains(b)));
            }
        } else if k != "type" {
            emitted.push(k);
        }
    }
    let model: Vec<&str> = emitted.into_iter().filter(|k| m.contains_key(*k)).collect();
    let output: Vec<&str> = m
        .keys()
        .map(String::as_str)
        .filter(|k| model.contains(k))
        .collect();
    assert_eq!(
        model,
        output,
        "{at}: model {:?}, output {:?}",
        s.order,
        m.keys()
    );
    let mut n = 1;
    if let (Kind::Object(o), Some(Value::Object(props))) = (&s.kind, m.get("properties")) {
        for p in &o.props {
            if let Some(v) = props.get(&p.name) {
                n += same_order(doc, &p.schema, v, &format!("{at}/{}", p.name));
            }
        }
    }
    n
}
