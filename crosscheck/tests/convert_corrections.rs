//! The wrong outputs of the converter found on JSONSchemaBench, each held by its input and by
//! oracles we did not write: llguidance compiles the output (and accepts the values the input
//! accepts), the `jsonschema` crate accepts under the output what it accepts under the input.

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities, TokEnv};
use llguidance::{Matcher, ParserFactory};
use schema_core::convert::{
    to_dialect, to_dialect_report, to_dialect_with, to_typescript, ChangeKind, Converted,
    DialectOptions, TsOptions,
};
use schema_core::Dialect;
use serde_json::{json, Map, Value};

mod common;
use common::LLGUIDANCE_COMPILED as COMPILED;

fn env() -> TokEnv {
    ApproximateTokEnv::single_byte_env()
}

/// Compiles `schema` into a grammar matcher, or the compile error.
fn matcher(schema: &Value) -> Result<Matcher, String> {
    let env = env();
    let mut factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[])
        .map_err(|e| e.to_string())?;
    factory.quiet();
    let m = Matcher::new(factory.create_parser(TopLevelGrammar::from_json_schema(schema.clone())));
    match m.get_error() {
        Some(e) => Err(e),
        None => Ok(m),
    }
}

/// Whether llguidance's grammar of `schema` accepts exactly `text`.
fn grammar_accepts(schema: &Value, text: &str) -> bool {
    let mut m = matcher(schema).unwrap_or_else(|e| panic!("{schema} does not compile: {e}"));
    let tokens = env().tokenize_bytes(text.as_bytes());
    match m.validate_tokens(&tokens) {
        Ok(n) if n == tokens.len() => {}
        _ => return false,
    }
    m.consume_tokens(&tokens).is_ok() && m.is_accepting().unwrap_or(false)
}

/// Whether `d` keeps every value the input accepts (no property made required, no object
/// closed): the dialects whose outputs must accept the input's valid instances as they are.
fn keeps_values(d: Dialect) -> bool {
    !d.rules().all_required && !d.rules().closed_objects
}

/// In every dialect `schema` converts or is refused by a rule, llguidance compiles its output, and where the dialect
/// keeps values, the output accepts each of `valid` (which the input accepts).
fn holds(schema: &Value, valid: &[Value]) {
    let input = jsonschema::validator_for(schema).unwrap();
    for v in valid {
        assert!(input.is_valid(v), "the input does not accept {v}");
    }
    for d in Dialect::EVERY {
        let out = match to_dialect(schema, d) {
            Ok(out) => out,
            // a rule of the dialect, named (a map where objects are closed, ...)
            Err(e) => {
                assert!(!e.to_string().contains("please report"), "{d}: {e}");
                continue;
            }
        };
        if COMPILED.contains(&d) {
            matcher(&out).unwrap_or_else(|e| panic!("{d}: {out} does not compile: {e}"));
        }
        if keeps_values(d) {
            let theirs = jsonschema::validator_for(&out).unwrap();
            for v in valid {
                assert!(theirs.is_valid(v), "{d}: {out} rejects {v}");
            }
        }
    }
}

/// Wrong output 1: An `enum` of objects under the dialects that close every object: the closed object
/// allowed none of the enum's values ("Unsatisfiable schema").
#[test]
fn enum_of_objects_stays_satisfiable_where_objects_are_closed() {
    for schema in [
        json!({"enum": [{"foo": "bar"}]}),
        json!({"type": "object", "properties": {"k": {"enum": [{"foo": "bar"}, {"foo": "baz", "n": 1}]}}, "required": ["k"]}),
        json!({"type": "object", "properties": {"k": {"const": {"foo": [1, 2]}}}, "required": ["k"]}),
    ] {
        for d in [Dialect::OpenAi, Dialect::Anthropic] {
            let out = to_dialect(&schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
            let values: Vec<Value> = match schema.get("enum") {
                Some(Value::Array(e)) => e.clone(),
                _ => {
                    let k = &schema["properties"]["k"];
                    let e = k.get("enum").and_then(Value::as_array).cloned();
                    e.unwrap_or_else(|| vec![k["const"].clone()])
                        .into_iter()
                        .map(|v| json!({ "k": v }))
                        .collect()
                }
            };
            for v in values {
                assert!(
                    grammar_accepts(&out, &v.to_string()),
                    "{d}: {out} rejects {v}"
                );
            }
        }
    }
}

/// Wrong output 2: No `type` written that the input does not imply: a schema with `properties` but no `type`
/// accepts any value that is not an object; a dialect that needs a type reports the one it adds.
#[test]
fn no_type_is_added_that_the_input_does_not_imply() {
    let schema =
        json!({"type": "object", "properties": {"a": {"properties": {"x": {"type": "string"}}}}});
    holds(&schema, &[json!({"a": "text"}), json!({"a": {"x": "y"}})]);
    for d in Dialect::EVERY {
        if !d.rules().typed_only {
            continue;
        }
        let c = to_dialect_with(&schema, d, &DialectOptions::default()).unwrap();
        assert!(
            c.changes.iter().any(|c| c.pointer == "/properties/a"
                && c.kind
                    == ChangeKind::Added {
                        keyword: "type".into()
                    }),
            "{d}: the type added at /properties/a is not reported: {:?}",
            c.changes
        );
    }
    let schema = json!({"type": "object", "properties": {"l": {"items": {"type": "string"}}}});
    holds(&schema, &[json!({"l": 3}), json!({"l": ["x"]})]);
    let schema = json!({
        "type": "object", "properties": {"version": {"type": "number"}}, "required": ["version"],
        "patternProperties": {"^.+$": {"properties": {"init": {"type": "object"}}}},
        "additionalProperties": false
    });
    holds(&schema, &[json!({"version": 0.1, "dev": {"init": {}}})]);
}

/// Wrong output 3: Drafts 4 to 7 ignore the keywords beside a `$ref`; 2019-09 and later apply them.
#[test]
fn keywords_beside_a_ref_follow_the_draft() {
    let draft7 = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"$ref": "#/definitions/any", "enum": ["x", "y"]}},
        "definitions": {"any": {"description": "anything"}}
    });
    holds(&draft7, &[json!({"a": {"k": 1}}), json!({"a": 3})]);
    let draft2020 = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/any", "enum": ["x", "y"]}},
        "$defs": {"any": {"description": "anything"}}
    });
    holds(&draft2020, &[json!({"a": "x"})]);
    for d in Dialect::EVERY {
        if d == Dialect::JsonSchema {
            continue;
        }
        let out = to_dialect(&draft2020, d).unwrap();
        let theirs = jsonschema::validator_for(&out).unwrap();
        assert!(!theirs.is_valid(&json!({"a": "z"})), "{d}: {out}");
    }
}

/// Wrong output 4: Inputs that gave internal errors ("please report this schema").
#[test]
fn former_internal_errors_convert() {
    holds(
        &json!({"type": "object", "properties": {"a": {"type": ["string"], "oneOf": [{"minLength": 1}]}}}),
        &[json!({"a": "x"})],
    );
    holds(
        &json!({"type": "object", "properties": {"editor": {"type": "string", "oneOf": [{}]}}}),
        &[json!({"editor": "vim"})],
    );
    holds(
        &json!({
            "type": "object",
            "allOf": [{"if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "string"}}}}],
            "properties": {"c": {"$ref": "#/allOf/0/then/properties/b"}}
        }),
        &[json!({"c": "x"})],
    );
}

/// Wrong output 6: Patterns llguidance cannot compile, and full-range `i64` bounds, are tagged into the
/// description in the Llguidance dialect.
#[test]
fn llguidance_dialect_compiles_what_llguidance_cannot() {
    for s in [
        json!({"type": "string", "pattern": "^(a|b)(,|$)"}),
        json!({"type": "string", "pattern": "^\\<[a-z]+\\>$"}),
        json!({"type": "integer", "minimum": -9223372036854775808i64, "maximum": 9223372036854775807i64}),
    ] {
        let schema = json!({"type": "object", "properties": {"v": s}, "required": ["v"]});
        let out = to_dialect(&schema, Dialect::Llguidance).unwrap();
        matcher(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
    }
}

/// `d0` ... `d{n-1}`, each an object whose two properties refer to the next.
fn doubling(n: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        let next = if i + 1 < n {
            json!({"$ref": format!("#/$defs/d{}", i + 1)})
        } else {
            json!({"type": "string"})
        };
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"l": next.clone(), "r": next}, "required": ["l", "r"]}),
        );
    }
    json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "required": ["root"], "$defs": defs})
}

/// Wrong output 5: the engines that compile a `$ref` once keep the shared definitions whose
/// copies would blow the output up: its size is linear in the input's (it was `2^n`).
/// (llama.cpp's grammars stay inlined: its table says nested references break them.)
#[test]
fn engines_keep_shared_definitions() {
    let schema = doubling(20);
    let size = schema.to_string().len();
    for d in [Dialect::Llguidance, Dialect::Xgrammar, Dialect::Vllm] {
        let out = to_dialect(&schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
        let n = out.to_string().len();
        assert!(n < 4 * size, "{d}: {n} bytes out of {size}");
        matcher(&out).unwrap_or_else(|e| panic!("{d}: {e}"));
    }
}

/// Wrong output 7: The TypeScript text names a shared definition once and refers to it: its size is linear
/// in the input's (16 definitions each using the next twice gave 1.18 million characters).
#[test]
fn typescript_names_shared_definitions() {
    let schema = doubling(16);
    let size = schema.to_string().len();
    let ts = to_typescript(&schema, &TsOptions::default()).unwrap();
    assert!(ts.len() < 4 * size, "{} characters out of {size}", ts.len());
    assert!(ts.contains("type d"), "{ts}");
}

/// Wrong output 8: keywords beside a union are not copied into every branch at `n * k` cost: a
/// union of `n` branches beside an object of `n` properties converts to an output linear in the
/// input, or is refused by a rule that names it.
#[test]
fn keywords_beside_a_union_cost_linear_output() {
    let n = 200;
    let mut props = Map::new();
    for i in 0..n {
        props.insert(
            format!("p{i}"),
            json!({"type": "string", "description": "a property of the object"}),
        );
    }
    let branches: Vec<Value> = (0..n)
        .map(|i| json!({"properties": {format!("p{i}"): {"minLength": 1}}, "required": [format!("p{i}")]}))
        .collect();
    let schema = json!({"type": "object", "properties": {"u": {
        "type": "object", "properties": props, "anyOf": branches, "description": "one of many"
    }}});
    let size = schema.to_string().len();
    for d in Dialect::EVERY {
        match to_dialect(&schema, d) {
            Ok(out) => {
                let k = out.to_string().len();
                assert!(k < 4 * size, "{d}: {k} bytes out of {size}");
            }
            Err(e) => assert!(
                e.to_string().contains("copied into each of its branches"),
                "{d}: {e}"
            ),
        }
    }
}

/// An `allOf` of a reference to a recursive definition and parts that constrain it (the class
/// JSONSchemaBench refused as "`allOf` over the recursive type", e.g. `Github_easy---o78062`):
/// the definition is unfolded once and merged with the parts, its own references kept as
/// `$ref`s. Held by the `jsonschema` crate (the output accepts the input's valid instances and
/// rejects its invalid ones, at the root and below the recursion) and by llguidance's grammar.
#[test]
fn all_of_over_a_recursive_type_is_unfolded_once() {
    let schema = json!({
        "definitions": {
            "named": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]},
            "competency": {"allOf": [
                {"$ref": "#/definitions/named"},
                {"properties": {"competencies": {"type": "array", "items": {"$ref": "#/definitions/competency"}}}}
            ]}
        },
        "allOf": [
            {"$ref": "#/definitions/competency"},
            {"properties": {"scale": {"type": "integer", "maximum": 5}}, "required": ["scale"]}
        ]
    });
    let valid = [
        json!({"name": "a", "scale": 1}),
        // (in the properties' order: llguidance's grammar writes them in that order)
        json!({"name": "a", "competencies": [{"name": "b", "competencies": [{"name": "c"}]}], "scale": 2}),
    ];
    let invalid = [
        json!({"name": "a"}),
        json!({"scale": 1}),
        json!({"name": "a", "scale": 9}),
        json!({"name": "a", "scale": 1, "competencies": [{"name": "b", "competencies": [{"nom": "c"}]}]}),
    ];
    converts_and_rejects(&schema, &valid, &invalid);
}

/// An `allOf` over a recursive type that the unfolded definition holds again below an item:
/// the merge becomes a definition of its own, and the `allOf` met inside it a `$ref` to it, so
/// the constraint the part adds holds at every depth.
#[test]
fn all_of_met_again_inside_its_recursive_merge_is_a_reference() {
    let schema = json!({
        "type": "object",
        "definitions": {"Node": {"type": "object", "properties": {
            "v": {"type": "integer"},
            "kids": {"type": "array", "items": {"allOf": [{"$ref": "#/definitions/Node"}, {"required": ["v"]}]}}
        }}},
        "properties": {"root": {"$ref": "#/definitions/Node"}},
        "required": ["root"]
    });
    let valid = [
        json!({"root": {}}),
        json!({"root": {"kids": [{"v": 1, "kids": [{"v": 2}]}]}}),
    ];
    let invalid = [
        json!({"root": {"kids": [{"kids": []}]}}),
        json!({"root": {"kids": [{"v": 1, "kids": [{"w": 2}]}]}}),
    ];
    converts_and_rejects(&schema, &valid, &invalid);
}

/// [`holds`], and: the input rejects each of `invalid`, every dialect that takes recursion
/// converts it, its output rejects each of `invalid`, and where the dialect keeps values,
/// llguidance's grammar accepts each of `valid`.
fn converts_and_rejects(schema: &Value, valid: &[Value], invalid: &[Value]) {
    holds(schema, valid);
    let input = jsonschema::validator_for(schema).unwrap();
    for v in invalid {
        assert!(!input.is_valid(v), "the input accepts {v}");
    }
    for d in [
        Dialect::Llguidance,
        Dialect::Xgrammar,
        Dialect::Gemini,
        Dialect::OpenAi,
    ] {
        let out = to_dialect(schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
        let theirs = jsonschema::validator_for(&out).unwrap();
        for v in invalid {
            assert!(!theirs.is_valid(v), "{d}: {out} accepts {v}");
        }
        if keeps_values(d) {
            for v in valid {
                assert!(theirs.is_valid(v), "{d}: {out} rejects {v}");
                assert!(grammar_accepts(&out, &v.to_string()), "{d}: {out} {v}");
            }
        }
    }
}

// Every output of the engine dialects compiles in llguidance (oracle 1): one small input per
// class of schema llguidance refused on JSONSchemaBench. Where the converter keeps a constraint,
// llguidance's grammar is shown to enforce it; where it cannot, the change is reported (the
// validator still enforces it).

/// The engine dialects (LM Studio and Ollama share llama.cpp's table).
const ENGINES: [Dialect; 4] = [
    Dialect::Llguidance,
    Dialect::Xgrammar,
    Dialect::LlamaCpp,
    Dialect::Vllm,
];

/// `schema` converted into `d`; llguidance compiles the output.
fn compiled(schema: &Value, d: Dialect) -> Converted {
    let c = to_dialect_report(schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
    if let Err(e) = matcher(&c.schema) {
        panic!("{d}: llguidance cannot compile {}: {e}", c.schema);
    }
    c
}

/// Whether `c` reports `kind` at `pointer`.
fn reports(c: &Converted, pointer: &str, kind: &ChangeKind) -> bool {
    c.changes
        .iter()
        .any(|ch| ch.pointer == pointer && &ch.kind == kind)
}

fn dropped(keyword: &str) -> ChangeKind {
    ChangeKind::Dropped {
        keyword: keyword.into(),
    }
}

fn tagged(keyword: &str) -> ChangeKind {
    ChangeKind::MovedToDescription {
        keyword: keyword.into(),
    }
}

/// Every format an engine dialect keeps compiles in llguidance; one it does not know
/// (`uri-reference`, which xgrammar knows and llguidance refuses with "Unknown format") moves
/// into the description, reported. Before, the xgrammar and vLLM outputs kept it.
#[test]
fn formats_an_engine_keeps_compile_and_others_are_tagged() {
    for d in ENGINES {
        for f in d.rules().formats {
            compiled(&json!({"type": "string", "format": f}), d);
        }
        let schema = json!({"type": "object", "properties": {"u": {"type": "string", "format": "uri-reference"}}});
        let c = compiled(&schema, d);
        let u = &c.schema["properties"]["u"];
        assert!(u.get("format").is_none(), "{d}: {u}");
        assert!(u["description"].as_str().unwrap().contains("uri-reference"));
        assert!(reports(&c, "/properties/u", &tagged("format")), "{d}");
    }
}

/// `patternProperties` whose patterns overlap (llguidance: "patternProperty regexes /a/ and
/// /b/ are not disjoint") or use lookaround ("look-around ... is not supported") are dropped in
/// the dialects that keep patternProperties, with `additionalProperties` (which would
/// otherwise apply to the keys the patterns admit), both reported.
#[test]
fn pattern_properties_llguidance_refuses_are_dropped_and_reported() {
    for pp in [
        json!({"a": {"type": "string"}, "b": {"type": "integer"}}),
        json!({".*": {"type": "string"}, "^MD5$": {"type": "string"}}),
        json!({"^(?!@@)[a-z]+$": {"type": "string"}}),
        json!({"^$[a-z]*$": {"type": "string"}}),
    ] {
        let schema =
            json!({"type": "object", "patternProperties": pp, "additionalProperties": false});
        for d in [Dialect::Xgrammar, Dialect::LlamaCpp] {
            let c = compiled(&schema, d);
            assert!(c.schema.get("patternProperties").is_none(), "{d}: {pp}");
            assert!(c.schema.get("additionalProperties").is_none(), "{d}: {pp}");
            assert!(reports(&c, "", &dropped("patternProperties")), "{d}");
            assert!(reports(&c, "", &dropped("additionalProperties")), "{d}");
        }
    }
}

/// Disjoint patterns (distinct literal starts) stay, and llguidance's grammar enforces them:
/// a key of one pattern with the other's value type is refused, as is a key no pattern admits.
#[test]
fn disjoint_pattern_properties_stay_enforced() {
    let schema = json!({
        "type": "object",
        "patternProperties": {"^x-": {"type": "string"}, "^y-": {"type": "integer"}},
        "additionalProperties": false
    });
    for d in [Dialect::Xgrammar, Dialect::LlamaCpp] {
        let c = compiled(&schema, d);
        assert_eq!(
            c.schema["patternProperties"], schema["patternProperties"],
            "{d}"
        );
        assert!(grammar_accepts(&c.schema, r#"{"x-a":"s","y-b":1}"#), "{d}");
        assert!(!grammar_accepts(&c.schema, r#"{"x-a":1}"#), "{d}");
        assert!(!grammar_accepts(&c.schema, r#"{"z":"s"}"#), "{d}");
    }
}

/// A named property that a pattern may match, where either schema refers to a recursive
/// definition: llguidance intersects the two and cannot while that definition is compiled
/// ("circular references with sibling keys are not supported", on 24 Washington Post schemas
/// per dialect). The patterns are dropped, reported; a named property no pattern matches keeps
/// them.
#[test]
fn pattern_properties_beside_a_recursive_property_they_match_are_dropped() {
    let node = |pattern: &str| {
        json!({
            "$ref": "#/$defs/node",
            "$defs": {"node": {
                "type": "object",
                "properties": {"child": {"$ref": "#/$defs/node"}},
                "patternProperties": {pattern: {"$ref": "#/$defs/node"}}
            }}
        })
    };
    for d in [Dialect::Xgrammar, Dialect::LlamaCpp] {
        let c = compiled(&node(".*"), d);
        let out = serde_json::to_string(&c.schema).unwrap();
        assert!(!out.contains("patternProperties"), "{d}: {out}");
        assert!(
            c.changes
                .iter()
                .any(|ch| ch.kind == dropped("patternProperties")),
            "{d}"
        );
        // (`^x-` cannot match `child`: kept)
        let c = compiled(&node("^x-"), d);
        let out = serde_json::to_string(&c.schema).unwrap();
        assert!(out.contains("patternProperties"), "{d}: {out}");
    }
}

/// A length beside a `pattern` or `format` moves into the description where llguidance
/// compiles the output: it intersects the two as regular expressions and gives up ("Unable to
/// determine if regex is empty" for `minLength: 100` beside `^([a-z][0-9])+$`). The pattern
/// stays, and a length alone stays.
#[test]
fn lengths_beside_a_pattern_are_tagged() {
    let schema = json!({"type": "object", "properties": {
        "p": {"type": "string", "pattern": "^([a-z][0-9])+$", "minLength": 100},
        "l": {"type": "string", "minLength": 2}
    }});
    for d in ENGINES {
        let c = compiled(&schema, d);
        let p = &c.schema["properties"]["p"];
        assert_eq!(p["pattern"], "^([a-z][0-9])+$", "{d}");
        assert!(p.get("minLength").is_none(), "{d}: {p}");
        assert!(reports(&c, "/properties/p", &tagged("minLength")), "{d}");
        assert_eq!(c.schema["properties"]["l"]["minLength"], 2, "{d}");
    }
}

/// Full-range `i64` and `f64` bounds (llguidance: "Failed to generate regex for integer range")
/// move into the description; bounds within 2^62 stay and are enforced.
#[test]
fn full_range_bounds_are_tagged() {
    let schema = json!({"type": "object", "properties": {
        "i": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
        "f": {"type": "number", "minimum": 0.0, "maximum": f64::MAX},
        "small": {"type": "integer", "minimum": 0, "maximum": 9}
    }, "required": ["small"]});
    for d in ENGINES {
        let c = compiled(&schema, d);
        assert!(c.schema["properties"]["i"].get("minimum").is_none(), "{d}");
        assert!(c.schema["properties"]["f"].get("maximum").is_none(), "{d}");
        assert!(reports(&c, "/properties/i", &tagged("minimum")), "{d}");
        assert!(grammar_accepts(&c.schema, r#"{"small":9}"#), "{d}");
        assert!(!grammar_accepts(&c.schema, r#"{"small":10}"#), "{d}");
    }
}

/// Definitions that each use the next twice: inlined, the output grows as 2^n ("schema too
/// large" in llguidance for llama.cpp's output of 10 JSONSchemaBench schemas). The engines
/// that compile a `$ref` once keep them shared, llama.cpp's included.
#[test]
fn doubling_definitions_stay_shared() {
    let n = 14;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        let next = if i + 1 == n {
            json!({"type": "string"})
        } else {
            json!({"$ref": format!("#/$defs/d{}", i + 1)})
        };
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": next, "b": next}}),
        );
    }
    let schema = json!({"$ref": "#/$defs/d0", "$defs": defs});
    let input = schema.to_string().len();
    for d in ENGINES {
        let c = compiled(&schema, d);
        let out = c.schema.to_string().len();
        assert!(out < 4 * input, "{d}: {out} bytes from {input}");
    }
}

/// An `allOf` over the root (`{"$ref": "#"}`, JSONSchemaBench's `Github_medium---o11667`) merges
/// as over any recursive definition.
#[test]
fn all_of_over_the_root_is_unfolded_once() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "child": {"allOf": [{"$ref": "#"}, {"required": ["name"]}]}
    }});
    let valid = [
        json!({}),
        json!({"name": "a", "child": {"name": "b", "child": {"name": "c"}}}),
    ];
    let invalid = [
        json!({"child": {}}),
        json!({"child": {"name": "b", "child": {"name": 1}}}),
    ];
    converts_and_rejects(&schema, &valid, &invalid);
}

/// A `patternProperties` value of `false` (keys matching the pattern forbidden; JSONSchemaBench's
/// `Handwritten---object7`): written as it is where the dialect keeps the patterns, not refused
/// as a `false` schema.
#[test]
fn forbidden_pattern_properties_are_kept() {
    let schema = json!({"type": "object", "patternProperties": {"^b": false}});
    holds(&schema, &[json!({"a": 1})]);
    // (the dialects that keep `patternProperties` whose keys compile; Llguidance and vLLM drop
    // them, reported)
    for d in [Dialect::Xgrammar, Dialect::LlamaCpp] {
        let out = to_dialect(&schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
        assert_eq!(out["patternProperties"]["^b"], json!(false), "{d}: {out}");
        let theirs = jsonschema::validator_for(&out).unwrap();
        assert!(!theirs.is_valid(&json!({"bc": 1})), "{d}: {out}");
        assert!(grammar_accepts(&out, r#"{"a":1}"#), "{d}: {out}");
    }
}

/// A reference by plain name (`"$ref": "#gate"` to a schema declaring `"id": "#gate"`, draft
/// 4; JSONSchemaBench's `Github_easy---o35904`) converts as a reference by JSON pointer.
#[test]
fn references_by_plain_name_resolve() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "definitions": {"gate": {"id": "#gate", "type": "object",
            "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
        "properties": {"g": {"$ref": "#gate"}}
    });
    holds(&schema, &[json!({"g": {"n": 1}}), json!({})]);
    let input = jsonschema::validator_for(&schema).unwrap();
    let bad = json!({"g": {"n": "x"}});
    assert!(!input.is_valid(&bad));
    for d in Dialect::EVERY {
        let out = to_dialect(&schema, d).unwrap_or_else(|e| panic!("{d}: {e}"));
        assert!(
            !jsonschema::validator_for(&out).unwrap().is_valid(&bad),
            "{d}: {out}"
        );
    }
}

/// Two `allOf` parts' `not`s both hold after the merge (the later one was dropped without a
/// word): one `not` of either, in the JSON Schema dialect and in the tags of the others.
#[test]
fn merged_nots_both_hold() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer",
        "allOf": [{"not": {"const": 1}}, {"not": {"const": 2}}]}}});
    holds(&schema, &[json!({"n": 3})]);
    let out = to_dialect(&schema, Dialect::JsonSchema).unwrap();
    let theirs = jsonschema::validator_for(&out).unwrap();
    for bad in [json!({"n": 1}), json!({"n": 2})] {
        assert!(!theirs.is_valid(&bad), "{out} accepts {bad}");
    }
    let tagged = to_dialect(&schema, Dialect::Llguidance)
        .unwrap()
        .to_string();
    assert!(tagged.contains("\\\"const\\\":2"), "{tagged}");
}

/// Two `allOf` parts' patterns both hold after the merge (the later one was dropped without a
/// word): one pattern of two lookaheads, kept by the JSON Schema dialect and moved into the
/// description (reported) where the engine cannot compile a lookaround.
#[test]
fn merged_patterns_both_hold() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string",
        "allOf": [{"pattern": "^a"}, {"pattern": "z$"}]}}, "required": ["s"]});
    holds(&schema, &[json!({"s": "abz"})]);
    let out = to_dialect(&schema, Dialect::JsonSchema).unwrap();
    let theirs = jsonschema::validator_for(&out).unwrap();
    assert!(theirs.is_valid(&json!({"s": "abz"})), "{out}");
    for bad in [json!({"s": "ab"}), json!({"s": "bz"})] {
        assert!(!theirs.is_valid(&bad), "{out} accepts {bad}");
    }
    let c = to_dialect_with(&schema, Dialect::Llguidance, &DialectOptions::new()).unwrap();
    assert!(
        c.changes.iter().any(|x| matches!(&x.kind, ChangeKind::MovedToDescription { keyword } if keyword == "pattern")),
        "{:?}",
        c.changes
    );
}
