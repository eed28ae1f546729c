//! The lowering over the fixtures, the MCP corpus and the JSON Schema Test Suite: every input
//! the normalizer accepts is lowered (but the two kinds of schema no value satisfies, which
//! the conversion reports), its side table names places of the input and of the lowered
//! document, and the walk over the lowered document, in every dialect and with every option
//! set, never meets what the lowering should have written otherwise (the walk's internal
//! error). Until the switch's last step the walk over the input was the reference here; the
//! comparison harness showed the conversion through the model writes what it wrote (see
//! `convert/mod.rs`).

use super::lower::{lower, Unlowerable};
use super::normalize;
use crate::convert::{to_dialect_with, DialectOptions};
use crate::Dialect;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// The schemas of a fixture or corpus file: its `schema` (a fixture), each item's `schema`,
/// each MCP tool's `inputSchema`, or the file itself (a corpus schema).
fn schemas_of(name: &str, v: Value, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) => match (m.get("schema"), m.get("tools")) {
            (Some(s), _) => out.push((name.to_string(), s.clone())),
            (None, Some(Value::Array(tools))) => {
                for (i, tool) in tools.iter().enumerate() {
                    if let Some(s) = tool.get("inputSchema") {
                        out.push((format!("{name}#{i}"), s.clone()));
                    }
                }
            }
            _ => out.push((name.to_string(), Value::Object(m))),
        },
        Value::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                if let Some(s) = item.get("schema") {
                    out.push((format!("{name}#{i}"), s.clone()));
                }
            }
        }
        _ => {}
    }
}

fn options() -> [DialectOptions; 4] {
    [
        DialectOptions::new(),
        DialectOptions::new().keep_defs(true),
        DialectOptions::new().close_maps(true),
        DialectOptions::new()
            .keep_defs(true)
            .close_maps(true)
            .map_entries(true)
            .tuple_objects(true),
    ]
}

/// What converting one input found.
#[derive(Default, Debug)]
struct Tally {
    inputs: usize,
    /// The normalizer rejected the input.
    rejected: usize,
    /// The model could not be written back.
    unlowerable: Vec<(String, Unlowerable)>,
    /// Conversions the dialect accepts.
    compared: usize,
    /// Conversions the dialect rejects.
    failed: usize,
    /// Conversions whose walk over the lowered document met what the lowering should have
    /// written otherwise (the walk's internal error): the input's name, the dialect, the error.
    internal: Vec<(String, Dialect, String)>,
    /// Change report lines naming a place the input does not have.
    elsewhere: usize,
}

fn compare(name: &str, input: &Value, t: &mut Tally) {
    t.inputs += 1;
    let Ok(doc) = normalize(input) else {
        t.rejected += 1;
        return;
    };
    match lower(&doc, input) {
        Ok(l) => {
            // the side table names places of the input, and of the lowered document
            for (out, at) in &l.origins {
                assert!(
                    crate::convert::pointer::resolve(input, &format!("#{at}")).is_some(),
                    "{name}: {at} is not in the input"
                );
                assert!(
                    l.json.pointer(out).is_some(),
                    "{name}: {out} is not lowered"
                );
            }
        }
        Err(u) => {
            t.unlowerable.push((name.to_string(), u));
            return;
        }
    }
    for d in Dialect::EVERY {
        if d == Dialect::JsonSchema {
            continue;
        }
        for o in options() {
            match to_dialect_with(input, d, &o) {
                Ok(c) => {
                    t.compared += 1;
                    // (a change named where the input has no schema: counted)
                    for c in &c.changes {
                        if input.pointer(&c.pointer).is_none() {
                            t.elsewhere += 1;
                        }
                    }
                }
                Err(e) if e.to_string().contains("internal:") => {
                    t.internal.push((name.to_string(), d, e.to_string()))
                }
                Err(_) => t.failed += 1,
            }
        }
    }
}

fn report(what: &str, t: &Tally) {
    eprintln!(
        "{what}: {} inputs, {} rejected by the normalizer, {} not lowered, {} conversions accepted, {} rejected, {} internal errors; {} report lines name a place the input does not have",
        t.inputs,
        t.rejected,
        t.unlowerable.len(),
        t.compared,
        t.failed,
        t.internal.len(),
        t.elsewhere,
    );
    for (n, u) in t.unlowerable.iter().take(40) {
        eprintln!("  not lowered: {n} at {:?}: {}", u.at, u.why);
    }
    for (n, d, e) in t.internal.iter().take(40) {
        eprintln!("  internal: {n} {d}: {e}");
    }
}

#[test]
fn the_lowered_model_converts_as_its_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut inputs = Vec::new();
    let mut paths = Vec::new();
    files(&root.join("tests/fixtures"), &mut paths);
    match std::env::var("MCP_CORPUS") {
        Ok(dir) => files(Path::new(&dir), &mut paths),
        Err(_) => eprintln!("MCP_CORPUS not set: the MCP corpus is not compared"),
    }
    paths.sort();
    for p in paths {
        let Ok(v) = serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap()) else {
            continue;
        };
        schemas_of(&p.display().to_string(), v, &mut inputs);
    }
    let mut t = Tally::default();
    for (name, v) in &inputs {
        compare(name, v, &mut t);
    }
    report("fixtures and corpus", &t);
    let mut suite = Tally::default();
    match std::env::var("JSON_SCHEMA_TEST_SUITE") {
        Ok(dir) => {
            let mut paths = Vec::new();
            files(&Path::new(&dir).join("tests"), &mut paths);
            assert!(!paths.is_empty(), "JSON_SCHEMA_TEST_SUITE={dir}: no tests");
            paths.sort();
            for p in paths {
                let Ok(Value::Array(groups)) =
                    serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap())
                else {
                    continue;
                };
                for (i, g) in groups.iter().enumerate() {
                    compare(&format!("{}#{i}", p.display()), &g["schema"], &mut suite);
                }
            }
            report("JSON Schema Test Suite", &suite);
        }
        Err(_) => eprintln!("JSON_SCHEMA_TEST_SUITE not set: the suite is not compared"),
    }
    // (the walk over a lowered document never meets what the lowering should have written
    // otherwise: no `allOf` left to merge, no union with keywords beside it, no type array,
    // no `oneOf` union, no enum with `null`)
    assert!(
        t.internal.is_empty() && suite.internal.is_empty(),
        "{:?} {:?}",
        t.internal,
        suite.internal
    );
    assert!(t.compared > 1000, "{t:?}");
    // (the corpus: one BFCL tool's `enum` of strings beside `type: array` and `items`, which
    // no value satisfies: not lowered, the conversion's error)
    assert!(
        t.unlowerable
            .iter()
            .all(|(_, u)| u.why == super::lower::NO_VALUE && u.at == "/properties/metrics")
            && t.unlowerable.len() <= 1,
        "{:?}",
        t.unlowerable
    );
    // (the suite: a tuple position two parts give a string and a boolean schema, in 3, and an
    // `allOf: [false, false]`, in 3: not lowered, the conversion's error)
    assert!(
        suite.unlowerable.len() <= 6
            && suite
                .unlowerable
                .iter()
                .all(|(_, u)| u.why == super::lower::UNMERGED
                    || u.error
                        .as_ref()
                        .is_some_and(|e| e.to_string().contains("`false` schema"))),
        "{:?}",
        suite.unlowerable
    );
}

/// What the lowering writes, by hand: an `allOf` merged (the target's keywords, then the
/// members', then the own ones), the `required` list in its merged order, `nullable` as
/// written, a type array as one type and `nullable` or as a union of one branch per type (its
/// keywords and enum values split by type, annotations beside), a recursive reference kept with its definition in the root's table
/// (an inlined one's definition left out), a union and `not` as written.
#[test]
fn the_lowering_writes_the_model_back() {
    let input = json!({
        "$defs": {
            "Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
        },
        "description": "root",
        "allOf": [
            {"$ref": "#/$defs/Base"},
            {"properties": {"name": {"type": ["string", "null"], "maxLength": 3}}, "required": ["name"]}
        ],
        "required": ["node", "id"],
        "properties": {
            "node": {"$ref": "#/$defs/Node"},
            "kind": {"enum": ["a", "b"], "nullable": true, "type": "string"},
            "either": {"anyOf": [{"type": "integer"}, {"not": {"type": "string"}}]},
            "multi": {"type": ["string", "integer", "null"], "maxLength": 3, "minimum": 1,
                      "description": "m", "enum": ["a", 1, null]}
        }
    });
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
    // (merged parts first: the target's keywords, the members' new ones, then the schema's
    // own new ones, its definitions table among them)
    let want = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string", "maxLength": 3, "nullable": true},
            "node": {"$ref": "#/$defs/Node"},
            "kind": {"enum": ["a", "b"], "nullable": true, "type": "string"},
            "either": {"anyOf": [{"type": "integer"}, {"not": {"type": "string"}}]},
            "multi": {"description": "m", "anyOf": [
                {"type": "string", "maxLength": 3, "enum": ["a"]},
                {"type": "integer", "minimum": 1, "enum": [1]}
            ], "nullable": true}
        },
        "required": ["id", "name", "node"],
        "$defs": {
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}
        },
        "description": "root"
    });
    assert_eq!(lowered, want);
    // (the keyword order too, which `==` on maps does not check)
    assert_eq!(lowered.to_string(), want.to_string());
}

/// `nullable: true` beside an `enum` allows null in the model too, as in every dialect's
/// output (before, the model read the enum alone: the TypeScript text had no `|null`, and the
/// lowered document lost the flag).
#[test]
fn a_nullable_enum_allows_null() {
    let input = json!({"type": "object", "properties": {
        "s": {"type": "string", "enum": ["a", "b"], "nullable": true}
    }, "required": ["s"]});
    let ts = crate::convert::to_typescript(&input, &Default::default()).unwrap();
    assert_eq!(ts, "{s: \"a\"|\"b\"|null}");
    let out = crate::convert::to_dialect(&input, Dialect::Xgrammar).unwrap();
    assert_eq!(out["properties"]["s"]["anyOf"][1], json!({"type": "null"}));
}

/// A keyword that does not combine (`unevaluatedItems` here) in an `allOf` part and beside it:
/// the model keeps the part's value, as the dialects' merge does (`over_target`: the part's
/// value first; an own annotation would win). Before, the model kept the own value, and the
/// lowered document then converted to another description.
#[test]
fn a_keyword_that_does_not_combine_keeps_the_parts_value() {
    let input = json!({
        "allOf": [{"prefixItems": [{"type": "string"}]}, {"unevaluatedItems": true}],
        "unevaluatedItems": false
    });
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
    assert_eq!(lowered["unevaluatedItems"], json!(true), "{lowered}");
    let out = crate::convert::to_dialect(&input, Dialect::Llguidance).unwrap();
    assert_eq!(out["description"], json!("@unevaluatedItems true"), "{out}");
    assert_eq!(
        crate::convert::to_dialect(&lowered, Dialect::Llguidance).unwrap(),
        out
    );
}

/// A `$ref` inside a keyword the model does not read (`else` here) is written as the input
/// has it, and so is its target (and the target's own references), where the reference
/// points: the walk over the lowered document writes what the walk over the input writes, in
/// every dialect, and a reference that resolves to nothing is the same error at the same place.
#[test]
fn a_ref_inside_an_unread_keyword_keeps_its_target() {
    let input = json!({
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "definitions": {
            "a": {"type": "object", "properties": {"b": {"$ref": "#/definitions/b"}}},
            "b": {"const": 1}
        },
        "if": {"required": ["n"]},
        "then": true,
        "else": {"$ref": "#/definitions/a"}
    });
    let lowered = lower(&normalize(&input).unwrap(), &input).unwrap().json;
    assert_eq!(lowered["definitions"], input["definitions"]);
    // (expected: what the walk over the input, the path before the model, wrote)
    let llguidance = r##"{"type":"object","properties":{"n":{"type":"integer"}},"description":"@else {\"$ref\":\"#/definitions/a\"}\n@if {\"required\":[\"n\"]}\n@then true"}"##;
    let out = to_dialect_with(&input, Dialect::Llguidance, &DialectOptions::new()).unwrap();
    assert_eq!(out.schema.to_string(), llguidance);
    let openai = r##"{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["n"],"additionalProperties":false,"description":"@else {\"$ref\":\"#/definitions/a\"}\n@if {\"required\":[\"n\"]}\n@then true"}"##;
    let out = to_dialect_with(&input, Dialect::OpenAi, &DialectOptions::new()).unwrap();
    assert_eq!(out.schema.to_string(), openai);
    let dangling = json!({"type": "object", "then": {"$ref": "elsewhere.json"}});
    assert!(lower(&normalize(&dangling).unwrap(), &dangling).is_ok());
    let e = to_dialect_with(&dangling, Dialect::OpenAi, &DialectOptions::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        r##"at /then: `$ref` "elsewhere.json" resolves to nothing"##
    );
}

/// What the walk would merge in a lowered document is merged by the lowering: a property both
/// beside a union and in its branch, a `$ref` branch beside keywords (nested union inside),
/// an `allOf` with a union part. The lowered document has no `allOf` left, and the conversion
/// writes what the walk over the input (the path before the model) wrote; no dialect meets an
/// internal error.
#[test]
fn the_lowering_merges_what_the_walk_would() {
    let cases = [
        (
            json!({"properties": {"foo": {"properties": {"bar": {"type": "string"}}}},
                   "anyOf": [{"properties": {"foo": {"properties": {"faz": {"type": "string"}}}}}]}),
            r##"{"type":"object","properties":{"foo":{"type":"object","properties":{"bar":{"type":"string"},"faz":{"type":"string"}}}}}"##,
        ),
        (
            json!({"$defs": {"o": {"minLength": 1, "anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": false}]}},
                   "maxLength": 9, "anyOf": [{"type": "integer"}, {"$ref": "#/$defs/o"}]}),
            r##"{"anyOf":[{"type":"integer"},{"type":"string","maxLength":9,"minLength":1},{"type":"object","additionalProperties":false}]}"##,
        ),
        (
            json!({"$defs": {"one": {"properties": {"a": {"type": "string"}}}},
                   "allOf": [{"$ref": "#/$defs/one"}, {"properties": {"b": {"type": "integer"}}},
                             {"oneOf": [{"required": ["a"]}, {"properties": {"y": {"type": "string"}}}]}]}),
            r##"{"anyOf":[{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]},{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"y":{"type":"string"}}}]}"##,
        ),
    ];
    for (input, want) in &cases {
        let lowered = lower(&normalize(input).unwrap(), input).unwrap().json;
        assert!(!lowered.to_string().contains("allOf"), "{lowered}");
        let out = to_dialect_with(input, Dialect::Llguidance, &DialectOptions::new()).unwrap();
        assert_eq!(out.schema.to_string(), *want);
        for d in Dialect::EVERY {
            for o in options() {
                if let Err(e) = to_dialect_with(input, d, &o) {
                    assert!(!e.to_string().contains("internal:"), "{d}: {e}");
                }
            }
        }
    }
}
