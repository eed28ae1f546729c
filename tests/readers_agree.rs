//! The two readers of an input schema agree: the dialect converter (its own walk, `$ref`
//! inlining and `allOf` merge) and the normalized model behind the TypeScript text. For every
//! derived seed type, a few forms the readers once read apart, every schema of
//! `tests/fixtures/convert/` and, when `MCP_CORPUS` is set, every schema of the shared MCP
//! corpus, the TypeScript shape (no notes, no descriptions) of
//! the input equals the shape of its conversion into the engine dialects that keep the most
//! (`Llguidance`, `Xgrammar`): a property, a type, an enum value or a union branch that one
//! reader keeps and the other loses fails here.

use schema_core::convert::{to_dialect, to_typescript, TsOptions};
use schema_core::Dialect;
use serde_json::{json, Value};

fn json_files(dir: &std::path::Path) -> Vec<(String, Value)> {
    schema_suite::json_files(dir)
        .into_iter()
        .map(|(p, v)| (p.display().to_string(), v))
        .collect()
}

/// The inputs: `(name, schema)`.
fn inputs() -> Vec<(String, Value)> {
    let mut all: Vec<(String, Value)> = schema_suite::seed_schemas()
        .into_iter()
        .map(|(name, schema)| (name.to_string(), schema.clone()))
        .collect();
    // forms the two readers once read apart
    all.extend([
        (
            "root $ref beside own properties".to_string(),
            json!({
                "$ref": "#/$defs/Base",
                "properties": {"foo": {"type": "string"}},
                "required": ["foo"],
                "$defs": {"Base": {"type": "object", "properties": {"bar": {"type": "integer"}}}}
            }),
        ),
        (
            "items of two allOf parts".to_string(),
            json!({"type": "object", "properties": {"list": {"allOf": [
                {"type": "array", "items": {"type": "string"}},
                {"items": {"enum": ["a", "b", 1]}}
            ]}}}),
        ),
        (
            "additionalProperties of two allOf parts".to_string(),
            json!({"type": "object", "properties": {"map": {"allOf": [
                {"type": "object", "additionalProperties": {"enum": ["a", "b", 1]}},
                {"additionalProperties": {"type": "string"}}
            ]}}}),
        ),
    ]);
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/convert");
    all.extend(json_files(std::path::Path::new(fixtures)));
    match std::env::var("MCP_CORPUS") {
        Ok(dir) => {
            let corpus = json_files(std::path::Path::new(&dir));
            assert!(
                corpus.len() > 300,
                "MCP_CORPUS={dir}: {} files",
                corpus.len()
            );
            all.extend(corpus);
        }
        Err(_) => eprintln!("MCP_CORPUS not set: the MCP corpus is not compared"),
    }
    all
}

#[test]
fn typescript_shape_of_input_and_conversion_agree() {
    let shape = TsOptions {
        include_constraints: false,
        include_descriptions: false,
        ..TsOptions::default()
    };
    let mut compared = 0;
    let mut differ = Vec::new();
    for (name, mut schema) in inputs() {
        // (without descriptions: the dialects move a documented constant's description into
        // the enum's, and the printer writes an undocumented enum in a shorter form)
        strip_descriptions(&mut schema);
        let Ok(input) = to_typescript(&schema, &shape) else {
            continue;
        };
        for d in [Dialect::Llguidance, Dialect::Xgrammar] {
            let Ok(out) = to_dialect(&schema, d) else {
                continue;
            };
            let converted = to_typescript(&out, &shape).unwrap();
            compared += 1;
            if converted != input {
                differ.push(format!(
                    "{name} ({d}):\n  input:     {input}\n  converted: {converted}"
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(compared >= 2 * 40, "only {compared} conversions compared");
}

/// Removes every `description` annotation (a string; a property named `description` holds a
/// schema and stays).
fn strip_descriptions(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("description").is_some_and(Value::is_string) {
                m.remove("description");
            }
            m.values_mut().for_each(strip_descriptions);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}
