//! `null` where a strict dialect lets a model write it: a defaulted field reads it as its default,
//! exactly as an `Option` reads it as `None`; a mismatched tag and payload in the one-object form
//! is `Invalid` with a path and feedback naming what the tag needs.

use schema_core::{AgentSchema, Dialect, ParseError};
use serde::Deserialize;
use serde_json::json;

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Job {
    name: String,
    #[serde(default)]
    notes: Vec<String>,
    #[serde(default)]
    max_retries: u32,
    label: Option<String>,
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq, Default)]
#[serde(default)]
struct Settings {
    notes: Vec<String>,
    depth: u8,
    jobs: Vec<Job>,
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Invoice {
    Paid {
        paid_on: String,
    },
    Due {
        due: String,
        #[serde(default)]
        reminders: u32,
    },
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Step {
    think: String,
    #[serde(flatten)]
    invoice: Invoice,
    #[serde(default)]
    tags: Vec<String>,
}

#[test]
fn the_issue_case_strict_schema_and_parser_agree() {
    // The OpenAI schema makes both fields required and nullable ...
    let s = Job::json_schema(Dialect::OpenAi);
    assert_eq!(
        s["required"],
        json!(["name", "notes", "max_retries", "label"])
    );
    assert_eq!(
        s["properties"]["notes"]["anyOf"][1],
        json!({"type": "null"})
    );
    // ... so a constrained model writes null there; it was a pathless Deserialize error
    // ("invalid type: null, expected a sequence").
    let text = r#"{"name": "a", "notes": null, "max_retries": null, "label": null}"#;
    let job = Job::from_json(text).unwrap();
    assert_eq!(
        job,
        Job {
            name: "a".into(),
            notes: vec![],
            max_retries: 0,
            label: None
        }
    );
    assert_eq!(
        Job::from_llm(&format!("```json\n{text}\n```")).unwrap(),
        job
    );
    assert_eq!(
        Job::from_value(serde_json::from_str(text).unwrap()).unwrap(),
        job
    );
}

#[test]
fn container_level_default_nested_and_in_arrays() {
    let text = r#"{"notes": null, "depth": null, "jobs": [{"name": "x", "notes": null, "max_retries": 3, "label": null}]}"#;
    let s = Settings::from_json(text).unwrap();
    assert_eq!(s.depth, 0);
    assert_eq!(s.jobs[0].max_retries, 3);
    assert!(s.jobs[0].notes.is_empty());
}

#[test]
fn defaulted_fields_of_a_variant_and_of_a_flattened_enum() {
    let text = r#"{"type": "due", "paid_on": null, "due": "2025-01-01", "reminders": null}"#;
    assert_eq!(
        Invoice::from_json(text).unwrap(),
        Invoice::Due {
            due: "2025-01-01".into(),
            reminders: 0
        }
    );
    let text = r#"{"think": "t", "type": "due", "paid_on": null, "due": "d", "reminders": null, "tags": null}"#;
    let step = Step::from_json(text).unwrap();
    assert_eq!(step.tags, Vec::<String>::new());
}

#[test]
fn mismatched_tag_and_payload_is_invalid_with_a_path_and_names_the_needed_property() {
    // What a model writes under OpenAI strict when the schema does not say which payload
    // belongs to which tag.
    let err =
        Invoice::from_json(r#"{"type": "paid", "paid_on": null, "due": null, "reminders": null}"#)
            .unwrap_err();
    let ParseError::Invalid { errors, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(errors.paths(), ["/paid_on"]);
    let feedback = err.feedback();
    assert!(
        feedback
            .contains(r#"/paid_on: expected string (needed when "type" is "paid"), found null"#),
        "{feedback}"
    );
    // The property missing altogether is named the same way.
    let err = Invoice::from_json(r#"{"type": "paid"}"#).unwrap_err();
    assert!(
        err.feedback().contains(r#"needed when "type" is "paid""#),
        "{}",
        err.feedback()
    );
    assert_eq!(err.validation_errors().unwrap().paths(), ["/paid_on"]);
}

#[test]
fn null_where_nothing_reads_it_is_still_invalid() {
    let err = Job::from_json(r#"{"name": null}"#).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/name"]);
}
