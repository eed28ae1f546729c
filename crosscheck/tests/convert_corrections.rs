//! The wrong outputs of the converter found on JSONSchemaBench, each held by its input and by
//! oracles we did not write: llguidance compiles the output (and accepts the values the input
//! accepts), the `jsonschema` crate accepts under the output what it accepts under the input.

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities, TokEnv};
use llguidance::{Matcher, ParserFactory};
use schema_core::convert::{
    to_dialect, to_dialect_with, to_typescript, ChangeKind, DialectOptions, TsOptions,
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
