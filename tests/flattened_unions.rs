//! A struct with a flattened internally tagged enum (seed 000's `AgentStep`) in the dialects that
//! keep unions (llama.cpp, LM Studio and the engines): an `anyOf` of one closed object per
//! variant, the struct's fields in each, unless the enum asks for `#[schema(one_object)]`. The
//! schema sent, the validator and `from_json` accept the same replies, and those are what serde
//! accepts (objects are closed: a key no variant has is rejected, where serde would ignore it).

use schema_core::validate::Validator;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::AgentStep;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

/// The dialects whose schemas keep unions.
const KEEP_UNIONS: [Dialect; 6] = [
    Dialect::LmStudio,
    Dialect::LlamaCpp,
    Dialect::Ollama,
    Dialect::Llguidance,
    Dialect::Xgrammar,
    Dialect::Vllm,
];

/// Replies without a key unknown to every variant: serde, `from_json` and the schema of every
/// union-keeping dialect agree on each (`expect`: whether it is accepted).
fn agree<T: AgentSchema + DeserializeOwned>(cases: &[(Value, bool)]) {
    let validators: Vec<(Dialect, Validator)> = KEEP_UNIONS
        .iter()
        .map(|d| (*d, Validator::new(T::json_schema(*d)).unwrap()))
        .collect();
    for (value, expect) in cases {
        let text = value.to_string();
        let serde_ok = serde_json::from_str::<T>(&text).is_ok();
        assert_eq!(serde_ok, *expect, "serde on {text}");
        let ours = T::from_json(&text);
        assert_eq!(
            ours.is_ok(),
            *expect,
            "from_json on {text}: {:?}",
            ours.err()
        );
        for (d, v) in &validators {
            assert_eq!(v.is_valid(value), *expect, "{d:?} schema on {text}");
        }
    }
}

#[test]
fn agent_step_replies_agree() {
    let think = "Need facts first.";
    let mut cases = vec![
        (
            json!({"think": think, "action": "search", "search": {"searchRequests": ["rust serde flatten"]}}),
            true,
        ),
        (
            json!({"think": think, "action": "coding", "coding": {"codingIssue": "sum a list"}}),
            true,
        ),
        (
            json!({"think": think, "action": "answer", "answer": {"answer": "42"}}),
            true,
        ),
        (
            json!({"think": think, "action": "reflect", "reflect": {"questionsToAnswer": ["why?"]}}),
            true,
        ),
        (
            json!({"think": think, "action": "visit", "visit": {"URLTargets": [1, 2]}}),
            true,
        ),
        // the tag and the payload of different variants
        (
            json!({"think": think, "action": "search", "reflect": {"questionsToAnswer": ["why?"]}}),
            false,
        ),
        // no payload, no tag, an unknown tag, no `think`, `think` null
        (json!({"think": think, "action": "search"}), false),
        (
            json!({"think": think, "search": {"searchRequests": ["q"]}}),
            false,
        ),
        (
            json!({"think": think, "action": "fly", "search": {"searchRequests": ["q"]}}),
            false,
        ),
        (
            json!({"action": "search", "search": {"searchRequests": ["q"]}}),
            false,
        ),
        (
            json!({"think": null, "action": "search", "search": {"searchRequests": ["q"]}}),
            false,
        ),
    ];
    // The same with the fields in another order.
    let reordered: Vec<(Value, bool)> = cases
        .iter()
        .map(|(v, ok)| {
            let mut m: Vec<(String, Value)> = v.as_object().unwrap().clone().into_iter().collect();
            m.reverse();
            (Value::Object(m.into_iter().collect()), *ok)
        })
        .collect();
    cases.extend(reordered);
    agree::<AgentStep>(&cases);
}

#[test]
fn several_payloads_are_rejected() {
    // What the one-object form let llama.cpp's grammar produce (issue 13): serde reads it (the
    // other payload is an unknown key to the `search` variant); the schema and `from_json` do not.
    let text = r#"{"think": "t", "action": "search", "search": {"searchRequests": ["q"]},
                   "reflect": {"questionsToAnswer": ["why?"]}}"#;
    assert!(serde_json::from_str::<AgentStep>(text).is_ok());
    assert!(AgentStep::from_json(text).is_err());
    let value: Value = serde_json::from_str(text).unwrap();
    for d in KEEP_UNIONS {
        let v = Validator::new(AgentStep::json_schema(d)).unwrap();
        assert!(!v.is_valid(&value), "{d:?}");
    }
    // The one-object form still describes it as one object elsewhere.
    for d in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini] {
        let s = AgentStep::json_schema(d);
        assert!(s.get("anyOf").is_none(), "{d:?}");
        assert_eq!(s["type"], "object", "{d:?}");
    }
}

/// Flattened beside an optional field and a required one, with documented variants.
#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Move {
    /// Who moves.
    player: String,
    note: Option<String>,
    /// How the move is made.
    #[serde(flatten)]
    kind: Kind,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(dead_code)]
enum Kind {
    /// A step to a square.
    Step { to: String },
    /// A jump over squares.
    Jump { over: Vec<String>, to: String },
    /// No move.
    Pass,
}

/// The same enum, asking for the one-object form.
#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[schema(one_object)]
#[allow(dead_code)]
enum OneKind {
    Step { to: String },
    Pass,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct OneMove {
    player: String,
    #[serde(flatten)]
    kind: OneKind,
}

/// Moves nested in a list.
#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Game {
    moves: Vec<Move>,
}

#[test]
fn flattened_enum_with_optional_field_and_unit_variant() {
    for d in KEEP_UNIONS {
        let s = Move::json_schema(d);
        let branches = s["anyOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{d:?}: {s}"));
        assert_eq!(branches.len(), 3, "{d:?}");
        for (b, tag) in branches.iter().zip(["step", "jump", "pass"]) {
            assert_eq!(b["properties"]["kind"]["const"], tag, "{d:?}");
            assert_eq!(b["additionalProperties"], false, "{d:?}");
        }
        // the variant's description names the alternative
        assert_eq!(branches[1]["description"], "A jump over squares.", "{d:?}");
        // the struct's own description stays on the union
        assert_eq!(
            s["description"],
            Move::json_schema(Dialect::JsonSchema)["description"]
        );
        // nested: the list's items are the same alternatives
        let items = &Game::json_schema(d)["properties"]["moves"]["items"];
        assert_eq!(items["anyOf"].as_array().map(Vec::len), Some(3), "{d:?}");
        // `one_object` keeps the one object
        let one = OneMove::json_schema(d);
        assert!(one.get("anyOf").is_none(), "{d:?}: {one}");
        assert_eq!(
            one["properties"]["kind"]["enum"],
            json!(["step", "pass"]),
            "{d:?}"
        );
    }
    agree::<Move>(&[
        (json!({"player": "a", "kind": "step", "to": "e4"}), true),
        (
            json!({"player": "a", "note": "bold", "kind": "step", "to": "e4"}),
            true,
        ),
        (
            json!({"player": "a", "kind": "jump", "over": ["e5"], "to": "e6"}),
            true,
        ),
        (json!({"player": "a", "kind": "pass"}), true),
        (json!({"player": "a", "note": "x", "kind": "pass"}), true),
        (json!({"player": "a", "kind": "jump", "to": "e6"}), false),
        (json!({"player": "a", "kind": "step"}), false),
        (json!({"kind": "pass"}), false),
        (json!({"player": "a"}), false),
    ]);
    // a key of another variant: serde ignores it, the schemas and `from_json` reject it
    let text = r#"{"player": "a", "kind": "step", "to": "e4", "over": ["e5"]}"#;
    assert!(serde_json::from_str::<Move>(text).is_ok());
    assert!(Move::from_json(text).is_err());
}
