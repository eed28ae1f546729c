//! The extractor's answers to the replies the issue lists, each kept as it was seen failing:
//! a fence inside a JSON string, a broken first candidate followed by a valid fragment, members
//! after a premature `}`, complete replies misread as truncated, reasoning preambles, the
//! lenient repairs, and `extract_json` agreeing with `from_llm`.

use schema_core::llm::{extract_json, ExtractError, ExtractOptions, RepairKind, Source};
use schema_core::{AgentSchema, ParseError};
use serde::Deserialize;
use serde_json::{json, Value};

fn strict() -> ExtractOptions {
    ExtractOptions::default()
}

fn lenient() -> ExtractOptions {
    ExtractOptions {
        lenient: true,
        ..ExtractOptions::default()
    }
}

fn value_of(text: &str, opts: &ExtractOptions) -> Value {
    let x = extract_json(text, opts).unwrap_or_else(|e| panic!("{e}: {text}"));
    serde_json::from_str(&x.json).unwrap()
}

fn kinds(text: &str, opts: &ExtractOptions) -> Vec<RepairKind> {
    let x = extract_json(text, opts).unwrap_or_else(|e| panic!("{e}: {text}"));
    x.repairs.into_iter().map(|r| r.kind).collect()
}

fn is_syntax(r: Result<impl std::fmt::Debug, ExtractError>) -> bool {
    matches!(r, Err(ExtractError::Syntax { .. }))
}

#[test]
fn a_fence_inside_a_json_string_does_not_close_the_block() {
    let text = "```\n{\"code\": \"see ``` below\", \"lang\": \"md\"}\n```";
    let x = extract_json(text, &strict()).unwrap();
    assert_eq!(x.source, Source::Fenced);
    assert_eq!(
        serde_json::from_str::<Value>(&x.json).unwrap(),
        json!({"code": "see ``` below", "lang": "md"})
    );
    let text = "Here:\n```json\n{\"code\": \"```rust\\nfn main() {}\\n```\"}\n```\nDone.";
    assert_eq!(
        value_of(text, &strict()),
        json!({"code": "```rust\nfn main() {}\n```"})
    );
}

#[test]
fn a_broken_first_candidate_is_the_answer_not_a_later_fragment() {
    // It gave the inner `{"key":"value"}`, in strict mode too.
    let text = r#"[{"key":"value"}},{"key":"value"}]"#;
    assert!(is_syntax(extract_json(text, &strict())));
    // Lenient: the stray `}` is dropped and reported.
    assert_eq!(
        value_of(text, &lenient()),
        json!([{"key": "value"}, {"key": "value"}])
    );
    assert!(matches!(
        kinds(text, &lenient())[..],
        [RepairKind::MismatchedBracket { found: '}', .. }]
    ));
    // A fenced broken answer followed by an example in prose gave the example.
    let text =
        "```json\n{\"name\": \"x\", \"n\": 1,, }\n```\nFor example: {\"name\": \"y\", \"n\": 2}";
    assert!(is_syntax(extract_json(text, &strict())));
    // The same in prose.
    let text = "Result: {\"a\": tru} and an example {\"a\": false}";
    assert!(is_syntax(extract_json(text, &strict())));
}

#[test]
fn members_after_a_premature_close_are_never_lost() {
    for text in [
        r#"{"key": "value"}, "key2": "value2"}"#,
        r#"{"key1": "value1"}, "key2": "value2", "key3": "value3"}"#,
    ] {
        let err = extract_json(text, &strict()).unwrap_err();
        assert!(
            matches!(
                &err,
                ExtractError::Syntax {
                    line: 1,
                    column: 16 | 18,
                    ..
                }
            ),
            "{err:?}"
        );
        let v = value_of(text, &lenient());
        assert_eq!(
            v.as_object().unwrap().len(),
            if text.contains("key3") { 3 } else { 2 }
        );
        assert!(matches!(
            kinds(text, &lenient())[..],
            [RepairKind::PrematureClose { found: '}' }]
        ));
    }
    // Cut after the premature close: the members are still not dropped (an error, not the
    // first object).
    let text = r#"{"key": "value"}, "key2": "val"#;
    assert!(is_syntax(extract_json(text, &strict())));
    assert!(is_syntax(extract_json(text, &lenient())));
    // Prose after a complete value is not a continuation.
    assert_eq!(
        value_of(r#"{"a": 1}, then I stopped."#, &strict()),
        json!({"a": 1})
    );
}

#[test]
fn complete_replies_are_not_called_truncated() {
    for text in [
        r#"{"key": "value}"#,
        r#"{"key": ["value]}"#,
        r#"{"lorem_ipsum": "sic tamet, quick brown fox. }"#,
        "{\"key\": \"value}```",
        r#"{"a": "first, b: 1}"#,
        r#"{\"key\": \"value\"}"#,
    ] {
        for opts in [strict(), lenient()] {
            let r = extract_json(text, &opts);
            assert!(is_syntax(r.clone()), "{text}: {r:?}");
        }
    }
    // A mismatched bracket: a syntax error (a reported repair in lenient mode).
    assert!(is_syntax(extract_json(r#"{"a": [1, 2}"#, &strict())));
    let err = extract_json(r#"{\"key\": \"value\"}"#, &strict()).unwrap_err();
    assert!(err.to_string().contains("escaped"), "{err}");
    // A real cut is still truncated.
    assert!(matches!(
        extract_json(r#"{"key": "val"#, &strict()),
        Err(ExtractError::Truncated { .. })
    ));
    // The lenient scanner no longer reads the `//` of a URL in stray text as a comment.
    let r = extract_json(
        r#"{ "content": "[LINK]("https://google.com")" }"#,
        &lenient(),
    );
    assert!(is_syntax(r.clone()), "{r:?}");
}

#[test]
fn reasoning_blocks_are_skipped_and_reported() {
    let text = "<think>\nThe user wants {name} filled; maybe {\"a\": 0}?\n</think>\n\n{\"a\": 1}";
    let x = extract_json(text, &strict()).unwrap();
    assert_eq!(x.json, "{\"a\": 1}");
    assert_eq!(x.source, Source::Whole);
    assert_eq!(&text[x.reasoning.clone().unwrap()][..7], "<think>");
    let text = "<reasoning>[draft]</reasoning>```json\n[1, \"x\"]\n```";
    assert_eq!(value_of(text, &strict()), json!([1, "x"]));
    let text = "<|channel|>analysis<|message|>Need {x}.<|end|><|start|>assistant<|channel|>final<|message|>{\"ok\": true}";
    assert_eq!(value_of(text, &strict()), json!({"ok": true}));
    // Cut while reasoning: nothing to answer with yet.
    assert!(matches!(
        extract_json("<think>Let me see {", &strict()),
        Err(ExtractError::Truncated { .. })
    ));

    #[derive(AgentSchema, Deserialize, Debug)]
    struct A {
        a: u8,
    }
    let parsed = A::from_llm_with(
        "<think>{\"a\": 300}</think>{\"a\": 3}",
        &schema_core::ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(parsed.value.a, 3);
    assert_eq!(parsed.reasoning, Some(0..25));
}

#[test]
fn lenient_repairs_are_made_and_reported() {
    let cases: [(&str, Value, RepairKind); 8] = [
        (
            r#"{"number": 1,"reason": "According...""ans": "YES"}"#,
            json!({"number": 1, "reason": "According...", "ans": "YES"}),
            RepairKind::MissingComma,
        ),
        (
            r#"{"key": ["value" "value1" "value2"]}"#,
            json!({"key": ["value", "value1", "value2"]}),
            RepairKind::MissingComma,
        ),
        (
            r#"{"key": "valu\'e"}"#,
            json!({"key": "valu'e"}),
            RepairKind::EscapedQuote,
        ),
        (
            "{\u{201c}slanted_delimiter\u{201d}: \"value\"}",
            json!({"slanted_delimiter": "value"}),
            RepairKind::CurlyQuotes,
        ),
        (
            "{ \"key\": { \"key2\": \"value2\" # comment\n }, \"key3\": \"value3\" }",
            json!({"key": {"key2": "value2"}, "key3": "value3"}),
            RepairKind::Comment,
        ),
        (
            r#"{"key": TRUE, "key2": FALSE, "key3": Null}"#,
            json!({"key": true, "key2": false, "key3": null}),
            RepairKind::PythonLiteral {
                from: "TRUE",
                to: "true",
            },
        ),
        (
            r#"{"key1": ["value1", "value2"}, "key2": ["value3", "value4"]}"#,
            json!({"key1": ["value1", "value2"], "key2": ["value3", "value4"]}),
            RepairKind::MismatchedBracket {
                found: '}',
                written: "]".into(),
            },
        ),
        (
            r#"{"array":[{"key": "value"], "key2": "value2"}"#,
            json!({"array": [{"key": "value"}], "key2": "value2"}),
            RepairKind::MismatchedBracket {
                found: ']',
                written: "}]".into(),
            },
        ),
    ];
    for (text, want, kind) in cases {
        assert!(is_syntax(extract_json(text, &strict())), "{text}");
        assert_eq!(value_of(text, &lenient()), want, "{text}");
        assert!(kinds(text, &lenient()).contains(&kind), "{text}");
    }
}

#[test]
fn extract_json_and_from_llm_accept_the_same_texts() {
    #[derive(AgentSchema, Deserialize, Debug)]
    #[allow(dead_code)]
    struct S {
        s: String,
    }
    #[derive(AgentSchema, Deserialize, Debug)]
    #[allow(dead_code)]
    struct N {
        n: f64,
    }
    for text in [r#"{"s": "\ud800"}"#, r#"Here: {"s": "\ud800"}"#] {
        assert!(is_syntax(extract_json(text, &strict())), "{text}");
        assert!(matches!(S::from_llm(text), Err(ParseError::Syntax { .. })));
    }
    for text in [r#"{"n": 1e400}"#, r#"Here: {"n": 1e400}"#] {
        assert!(is_syntax(extract_json(text, &strict())), "{text}");
        assert!(matches!(N::from_llm(text), Err(ParseError::Syntax { .. })));
    }
}
