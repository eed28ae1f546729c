//! Derived types whose schema the strict dialects reshape: the schema each dialect gets, and a
//! reply in that shape read back by `from_json` into the type.

use schema_core::convert::DialectOptions;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed004::UniversalResponse;
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;

/// One step of a plan.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Step {
    action: String,
    minutes: Option<u32>,
}

/// A colour.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Green,
}

/// Counts per word.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Counts {
    words: BTreeMap<String, u32>,
}

#[test]
fn non_object_roots_are_wrapped_for_openai_and_anthropic_and_read_back() {
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let s = <Vec<Step>>::json_schema(d);
        assert_eq!(s["type"], "object", "{d}: {s}");
        assert_eq!(s["properties"]["value"]["type"], "array", "{d}: {s}");
        let c = Colour::json_schema(d);
        assert_eq!(
            c["properties"]["value"]["enum"],
            json!(["red", "green"]),
            "{d}: {c}"
        );
    }
    for d in [
        Dialect::Gemini,
        Dialect::LmStudio,
        Dialect::LlamaCpp,
        Dialect::Ollama,
    ] {
        assert_eq!(<Vec<Step>>::json_schema(d)["type"], "array", "{d}");
    }
    let reply =
        r#"{"value": [{"action": "read", "minutes": null}, {"action": "write", "minutes": 5}]}"#;
    let steps = <Vec<Step>>::from_json(reply).unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1].minutes, Some(5));
    assert_eq!(
        Colour::from_json(r#"{"value": "green"}"#).unwrap(),
        Colour::Green
    );
    // not the wrapper, and not valid: still an error
    assert!(Colour::from_json(r#"{"value": "blue"}"#).is_err());
    assert!(Colour::from_json(r#"{"other": "green"}"#).is_err());
}

#[test]
fn derived_maps_are_entries_by_default_in_strict_dialects() {
    let s = Counts::json_schema(Dialect::OpenAi);
    assert_eq!(s["properties"]["words"]["type"], "array", "{s}");
    let c = Counts::from_json(r#"{"words": [{"key": "a", "value": 2}]}"#).unwrap();
    assert_eq!(c.words["a"], 2);
    // off: the error names the map
    let off = DialectOptions::default().map_entries(false);
    assert!(Counts::json_schema_report(Dialect::OpenAi, &off).is_err());
}

#[test]
fn universal_response_has_an_anthropic_form() {
    let c = UniversalResponse::json_schema_report(Dialect::Anthropic, &DialectOptions::default())
        .unwrap();
    let made = (c.changes.iter())
        .filter(|ch| ch.kind == schema_core::convert::ChangeKind::MadeNullable)
        .count();
    assert!(made > 0, "{:?}", c.changes);
    assert!(UniversalResponse::try_json_schema(Dialect::Anthropic).is_ok());
}
