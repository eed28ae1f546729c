//! From raw model reply to typed value: the seed replies in every wrapping, strict-dialect nulls,
//! truncation, lenient repairs, refusals, limits, and no panic on arbitrary input.

use proptest::prelude::*;
use schema_core::{AgentSchema, ParseError, ParseOptions};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

const REPLIES: [&str; 7] = [
    "planning",
    "answer",
    "verification",
    "clarity",
    "research",
    "custom",
    "error",
];

fn replies() -> Vec<(String, String)> {
    REPLIES
        .iter()
        .map(|r| {
            (
                r.to_string(),
                fixture(&format!("seed004_response_{r}.json")),
            )
        })
        .collect()
}

#[test]
fn seed_replies_in_every_wrapping() {
    for (name, text) in replies() {
        let expected: UniversalResponse = serde_json::from_str(&text).unwrap();
        let wrappings = [
            text.clone(),
            format!("  \n{text}\n"),
            format!("```json\n{text}\n```"),
            format!("Here is the response:\n```\n{text}\n```\nDone."),
            format!("Sure! I analysed the request {{briefly}}.\n\n{text}\n\nLet me know."),
        ];
        for w in wrappings {
            let got =
                UniversalResponse::from_llm(&w).unwrap_or_else(|e| panic!("{name}: {e}\n{w}"));
            assert_eq!(got, expected, "{name}");
        }
        assert_eq!(UniversalResponse::from_json(&text).unwrap(), expected);
    }
}

/// Under OpenAI strict every property is required and nullable, so a model writes `null` for
/// the sections it does not fill; those replies parse to the same value.
#[test]
fn strict_dialect_nulls_read_as_absent() {
    let sections = [
        "planning_data",
        "answer_data",
        "verification_data",
        "clarity_data",
        "research_data",
        "custom_fields",
        "error_details",
    ];
    for (name, text) in replies() {
        let mut v: Value = serde_json::from_str(&text).unwrap();
        for s in sections {
            if v.get(s).is_none() {
                v[s] = Value::Null;
            }
        }
        let expected: UniversalResponse = serde_json::from_str(&text).unwrap();
        let got =
            UniversalResponse::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, expected, "{name}");
        // validate follows the Dialect::JsonSchema output, where null is not absent
        assert!(UniversalResponse::validate(&v).is_err(), "{name}");
    }
    // a nested optional written as null
    let step = json!({"tbs": "qdr:d", "location": null, "q": "rust"}).to_string();
    assert_eq!(SearchQuery::from_json(&step).unwrap().location, None);
    // but null is not accepted for a required property
    let bad = json!({"response_type": "answer", "status": "success", "message": null}).to_string();
    let e = UniversalResponse::from_json(&bad).unwrap_err();
    assert_eq!(e.validation_errors().unwrap().paths(), ["/message"]);
}

#[test]
fn truncated_replies_are_reported_not_completed() {
    let text = fixture("seed004_response_research.json");
    for cut in [40, text.len() / 3, text.len() / 2, text.len() - 3] {
        let part = &text[..cut];
        match UniversalResponse::from_llm(part) {
            Err(ParseError::Truncated { .. }) => {}
            other => panic!("cut at {cut}: {other:?}"),
        }
        // opting in closes it, and says so
        let opts = ParseOptions::default().repair_truncated(true);
        match UniversalResponse::from_llm_with(part, &opts) {
            Ok(parsed) => assert!(!parsed.repairs.is_empty(), "cut at {cut}"),
            // a closed fragment may still miss required fields: then it is a validation error
            Err(ParseError::Invalid { .. }) => {}
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
}

#[test]
fn lenient_repairs_are_opt_in_and_reported() {
    let sloppy = "{'think': 'short', 'needsDefinitive': True, needsFreshness: False, \
                  'needsPlurality': False, 'needsCompleteness': True,}";
    assert!(matches!(
        QuestionEvaluate::from_llm(sloppy),
        Err(ParseError::Syntax { .. })
    ));
    let parsed =
        QuestionEvaluate::from_llm_with(sloppy, &ParseOptions::default().lenient(true)).unwrap();
    assert!(parsed.value.needs_definitive && !parsed.value.needs_freshness);
    assert!(parsed.repairs.len() >= 4, "{:?}", parsed.repairs);
}

#[test]
fn refusals_and_missing_json() {
    let e = Language::from_llm("I'm sorry, but I can't assist with that.").unwrap_err();
    assert!(matches!(e, ParseError::Refusal { .. }), "{e:?}");
    assert!(!e.is_retryable());
    let opts = ParseOptions::default().refusal(Some("I can't help with that.".into()));
    assert!(matches!(
        Language::from_llm_with(r#"{"langCode": "en", "langStyle": "x"}"#, &opts),
        Err(ParseError::Refusal { .. })
    ));
    let e = Language::from_llm("The language is English.").unwrap_err();
    assert!(matches!(e, ParseError::NoJson { .. }), "{e:?}");
    assert!(e.is_retryable());
    assert!(e.feedback().contains("no JSON"));
}

#[test]
fn errors_keep_the_value_and_give_feedback() {
    let text = r#"{"langCode": "english-united-kingdom", "langStyle": 5}"#;
    let e = Language::from_json(text).unwrap_err();
    assert_eq!(
        e.value(),
        Some(&serde_json::from_str::<Value>(text).unwrap())
    );
    let feedback = e.feedback();
    assert!(
        feedback.contains("/langCode: expected at most 10 characters, found 22 characters"),
        "{feedback}"
    );
    assert!(
        feedback.contains("/langStyle: expected string, found 5"),
        "{feedback}"
    );
    let with_type = e.feedback_with_type(&Language::typescript());
    assert!(with_type.contains("langCode"));
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn limits() {
    let huge = format!("{{\"langCode\": \"{}\"}}", "x".repeat(9 << 20));
    assert!(matches!(
        Language::from_json(&huge),
        Err(ParseError::TooLarge { .. })
    ));
    assert!(matches!(
        Language::from_llm(&huge),
        Err(ParseError::TooLarge { .. })
    ));
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    assert!(matches!(
        Language::from_json(&deep),
        Err(ParseError::TooDeep { .. })
    ));
    assert!(matches!(
        Language::from_llm(&deep),
        Err(ParseError::TooDeep { .. })
    ));
    let open = "{\"a\":".repeat(10_000);
    assert!(Language::from_llm(&open).is_err());
    // many errors are capped, and the cap is reported
    let many: Value = json!({"think": "t", "clusters": (0..200).map(|_| json!({"insight": 1, "question": 2, "urls": 3})).collect::<Vec<_>>()});
    let e = SerpCluster::validate(&many).unwrap_err();
    assert!(e.truncated() && e.len() == schema_core::validate::DEFAULT_MAX_ERRORS);
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z_:. ]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("response_type".to_string()),
                        Just("status".to_string()),
                        Just("message".to_string()),
                        Just("planning_data".to_string()),
                        Just("think".to_string()),
                        Just("action".to_string()),
                        "[a-z_]{1,8}"
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = UniversalResponse::from_llm(&s);
        let _ = AgentStep::from_llm(&s);
        let _ = UniversalResponse::from_json(&s);
    }

    #[test]
    fn arbitrary_json_never_panics_and_paths_agree(v in arb_json()) {
        let text = v.to_string();
        let slow = UniversalResponse::from_value(v.clone());
        let fast = UniversalResponse::from_json(&text);
        prop_assert_eq!(slow.is_ok(), fast.is_ok());
        let _ = UniversalResponse::validate(&v);
        let _ = AgentStep::validate(&v);
        let a = AgentStep::from_json(&text);
        let b = AgentStep::from_value(v.clone());
        prop_assert_eq!(a.is_ok(), b.is_ok());
        let _ = Evaluation::from_llm(&format!("Result: ```json\n{text}\n```"));
    }
}

#[test]
fn retry_feeds_errors_back_and_stops() {
    use schema_core::retry::{retry, RetryError, RetryOptions};
    // every reply bad: three attempts, each error kept, feedback passed back each time
    let mut seen: Vec<Option<String>> = Vec::new();
    let out = retry::<Language, std::convert::Infallible, _>(&RetryOptions::default(), |fb| {
        seen.push(fb.map(|a| a.feedback.clone()));
        Ok(r#"{"langCode": "far-too-long-code", "langStyle": "x"}"#.to_string())
    });
    match out {
        Err(RetryError::Parse { attempts }) => assert_eq!(attempts.len(), 3),
        other => panic!("{other:?}"),
    }
    assert_eq!(seen.len(), 3);
    assert!(seen[0].is_none());
    assert!(seen[1]
        .as_deref()
        .unwrap()
        .contains("/langCode: expected at most 10 characters"));
    // a refusal stops at once
    let mut calls = 0;
    let out = retry::<Language, std::convert::Infallible, _>(&RetryOptions::default(), |_| {
        calls += 1;
        Ok("I'm sorry, but I cannot help with that.".to_string())
    });
    assert!(matches!(out, Err(RetryError::Parse { .. })));
    assert_eq!(calls, 1);
    // the caller's error ends the loop with the earlier attempts
    let out = retry::<Language, &str, _>(&RetryOptions::default().max_attempts(5), |fb| match fb {
        None => Ok("no json here".to_string()),
        Some(_) => Err("network down"),
    });
    match out {
        Err(RetryError::Ask { error, attempts }) => {
            assert_eq!(error, "network down");
            assert_eq!(attempts.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    // the type can be appended to the feedback
    let mut last = String::new();
    let _ = retry::<Language, std::convert::Infallible, _>(
        &RetryOptions::default().max_attempts(2).include_type(true),
        |fb| {
            if let Some(f) = fb {
                last = f.feedback.clone();
            }
            Ok("{}".to_string())
        },
    );
    assert!(
        last.contains("langCode") && last.contains("TypeScript"),
        "{last}"
    );
}
