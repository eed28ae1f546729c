//! OpenAI's plans over its limits (10 levels of nesting, 1000 enum values) and its `enum` of
//! arrays as JSON texts, held by oracles we did not write: llguidance compiles the output and
//! accepts the instance written forward exactly when the `jsonschema` crate accepts the instance
//! under the input (but where a constraint moved into a description or a part goes without a
//! grammar: the validator enforces those), and the read-back returns the instance.

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities, TokEnv};
use llguidance::{Matcher, ParserFactory};
use schema_core::convert::{to_dialect_report, ChangeKind, Converted};
use schema_core::Dialect;
use serde_json::{json, Value};

fn env() -> TokEnv {
    ApproximateTokEnv::single_byte_env()
}

/// Whether llguidance's grammar of `schema` (which must compile) accepts exactly `text`.
fn grammar_accepts(schema: &Value, text: &str) -> bool {
    let env = env();
    let mut factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[]).unwrap();
    factory.quiet();
    let mut m =
        Matcher::new(factory.create_parser(TopLevelGrammar::from_json_schema(schema.clone())));
    if let Some(e) = m.get_error() {
        panic!("{schema} does not compile: {e}");
    }
    let tokens = env.tokenize_bytes(text.as_bytes());
    match m.validate_tokens(&tokens) {
        Ok(n) if n == tokens.len() => {}
        _ => return false,
    }
    m.consume_tokens(&tokens).is_ok() && m.is_accepting().unwrap_or(false)
}

/// Converts `schema` for OpenAI; each of `values` written forward is accepted by llguidance
/// exactly when the `jsonschema` crate accepts it under the input (`exact`; else: at least
/// when), and a value accepted reads back to itself.
fn round_trips(schema: &Value, values: &[Value], exact: bool) -> Converted {
    let c = to_dialect_report(schema, Dialect::OpenAi).unwrap_or_else(|e| panic!("{e}"));
    let input = jsonschema::validator_for(schema).unwrap();
    for v in values {
        let valid = input.is_valid(v);
        let Ok(fwd) = c.plan.forward(v) else {
            assert!(!valid, "{v} is valid but has no form in the output");
            continue;
        };
        let accepted = grammar_accepts(&c.schema, &fwd.to_string());
        if exact {
            assert_eq!(accepted, valid, "{v} written as {fwd}");
        } else {
            assert!(accepted || !valid, "{v} written as {fwd} is refused");
        }
        if accepted {
            assert_eq!(&c.read_back(&fwd).unwrap(), v);
        }
    }
    c
}

/// `levels` objects nested through the property `n`, the deepest with the integer `leaf`.
fn nested(levels: usize) -> Value {
    let mut s = json!({"type": "object", "properties": {"leaf": {"type": "integer"}}, "required": ["leaf"], "additionalProperties": false});
    for _ in 1..levels {
        s = json!({"type": "object", "properties": {"n": s}, "required": ["n"], "additionalProperties": false});
    }
    s
}

fn nested_value(levels: usize, leaf: Value) -> Value {
    let mut v = json!({ "leaf": leaf });
    for _ in 1..levels {
        v = json!({ "n": v });
    }
    v
}

#[test]
fn below_the_nesting_limit_json_text_compiles_and_reads_back() {
    let schema = nested(13);
    let values = [
        nested_value(13, json!(1)),
        nested_value(13, json!("one")),
        nested_value(12, json!(1)),
    ];
    let c = round_trips(&schema, &values, false);
    let cut: Vec<_> = (c.changes.iter())
        .filter(|ch| ch.kind == ChangeKind::WithoutGrammar)
        .collect();
    assert_eq!(cut.len(), 1, "{:?}", c.changes);
    // the levels above keep their grammar: a wrong shape there is refused
    let fwd = c.plan.forward(&values[0]).unwrap();
    let mut bad = fwd.clone();
    bad["n"] = json!("text");
    assert!(!grammar_accepts(&c.schema, &bad.to_string()));
}

#[test]
fn over_the_enum_limit_the_output_compiles_and_reads_back() {
    let names = |n: usize| -> Vec<Value> { (0..n).map(|i| json!(format!("v{i}"))).collect() };
    let schema = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/big"},
        "b": {"$ref": "#/$defs/big"},
        "c": {"type": "string", "enum": names(300)}
    }, "required": ["a", "b", "c"], "additionalProperties": false,
    "$defs": {"big": {"type": "string", "enum": names(450)}}});
    // (the moved enum is the validator's: its values are not checked by the grammar)
    let values = [
        json!({"a": "v1", "b": "v449", "c": "v299"}),
        json!({"a": "v1", "b": "v1", "c": "v300"}),
    ];
    let c = round_trips(&schema, &values, true);
    assert!(c.changes.iter().any(|ch| ch.pointer == "/$defs/big"
        && matches!(&ch.kind, ChangeKind::MovedToDescription { keyword } if keyword == "enum")));
}

#[test]
fn an_enum_of_arrays_is_exact_as_json_texts() {
    for schema in [
        json!({"type": "object", "properties": {"p": {"enum": [[1, 2], [3], "x", {"k": [true]}]}}, "required": ["p"], "additionalProperties": false}),
        json!({"allOf": [{"enum": [[1], [1, 2, 3], []]}, {"maxItems": 2}]}),
        json!({"const": [null, 1.5]}),
    ] {
        let values = [
            json!({"p": [1, 2]}),
            json!({"p": [2, 1]}),
            json!({"p": {"k": [true]}}),
            json!({"p": "x"}),
            json!([1]),
            json!([]),
            json!([1, 2, 3]),
            json!([null, 1.5]),
            json!([null]),
        ];
        round_trips(&schema, &values, true);
    }
}
