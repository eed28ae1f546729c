//! The stream's early stop against the collecting checker: for each rule the two once wrote
//! separately, the error the stream stops with names the keyword and the expectation that
//! `Validator::validate` reports for the finished value at the same place.

use super::early::Checker;
use super::Stream;
use crate::validate::Validator;
use crate::ParseError;
use serde_json::{json, Value};
use std::sync::Arc;

/// The first error the stream stops with, fed `text` a character at a time, checked against
/// `schema`.
fn early_error(schema: &Value, text: &str) -> (String, &'static str, String) {
    let validator = Arc::new(Validator::new(schema).unwrap());
    let mut s = Stream::<Value>::new();
    s.checker = Some(Checker::new(validator));
    for c in text.chars() {
        let mut buf = [0; 4];
        if let Err(e) = s.push(c.encode_utf8(&mut buf)) {
            let ParseError::Invalid { errors, .. } = e else {
                panic!("{text}: {e}");
            };
            let e = &errors.errors()[0];
            return (e.path.clone(), e.keyword, e.expected.clone());
        }
    }
    panic!("{text}: the stream did not stop early");
}

/// The checker's error at `path` for the finished value `finished`.
fn checker_error(schema: &Value, finished: &str, path: &str) -> (String, &'static str, String) {
    let validator = Validator::new(schema).unwrap();
    let errors = validator
        .validate(&serde_json::from_str(finished).unwrap())
        .unwrap_err();
    let e = errors
        .iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("{finished}: no error at {path:?}: {errors}"));
    (e.path.clone(), e.keyword, e.expected.clone())
}

#[test]
fn the_early_stop_words_each_rule_as_the_checker_does() {
    let many: serde_json::Map<String, Value> = (0..14)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let tagged = json!({"anyOf": [
        {"type": "object", "properties": {"t": {"const": "a"}, "x": {"type": "integer"}},
         "required": ["t"], "additionalProperties": false},
        {"type": "object", "properties": {"t": {"const": "b"}, "y": {"type": "string"}},
         "required": ["t"], "additionalProperties": false}
    ]});
    let thirteen: Vec<String> = (0..13).map(|i| format!("v{i}")).collect();
    // (schema, the text the stream stops in, the finished value, the path of the error)
    let cases = [
        // `required`: the stream said only "required property".
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            "{}",
            "{}",
            "/a",
        ),
        // A tagged union's missing tag: the stream did not list the tags.
        (tagged.clone(), r#"{"x": 1}"#, r#"{"x": 1}"#, "/t"),
        // An unknown tag: the stream listed the tags unquoted.
        (tagged, r#"{"t": "c"}"#, r#"{"t": "c"}"#, "/t"),
        // `additionalProperties: false` with more than 12 properties: the stream listed all.
        (
            json!({"type": "object", "properties": many, "additionalProperties": false}),
            r#"{"zz": 1}"#,
            r#"{"zz": 1}"#,
            "/zz",
        ),
        // ... and with none: the stream wrote "(allowed: )".
        (
            json!({"type": "object", "additionalProperties": false}),
            r#"{"zz": 1}"#,
            r#"{"zz": 1}"#,
            "/zz",
        ),
        // A string `const`: the stream wrote `one of "abc"`.
        (
            json!({"type": "object", "properties": {"k": {"const": "abc"}}}),
            r#"{"k": "abz"#,
            r#"{"k": "abz"}"#,
            "/k",
        ),
        // An `enum` of more than 12 values: the stream listed all.
        (
            json!({"type": "object", "properties": {"k": {"enum": thirteen}}}),
            r#"{"k": "x"#,
            r#"{"k": "x"}"#,
            "/k",
        ),
        // `maxItems` while the array arrives; `minItems` at its end (the same words before).
        (
            json!({"type": "array", "maxItems": 2}),
            "[1, 2, 3",
            "[1, 2, 3]",
            "",
        ),
        (json!({"type": "array", "minItems": 2}), "[1]", "[1]", ""),
        (json!({"type": "object"}), "[", "[]", ""),
    ];
    for (schema, text, finished, path) in cases {
        // Inside an object, so that a value's end is not the reply's (where the stream waits
        // for `finish`).
        let schema = json!({"type": "object", "properties": {"o": schema}});
        let early = early_error(&schema, &format!(r#"{{"o": {text}"#));
        let finished = format!(r#"{{"o": {finished}}}"#);
        let full = checker_error(&schema, &finished, &format!("/o{path}"));
        assert_eq!(early, full, "{schema}\n{text}");
    }
}
