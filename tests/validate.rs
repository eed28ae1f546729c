//! `validate`: the seed replies accepted, broken replies rejected with the exact error paths.

use schema_core::AgentSchema;
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
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

#[test]
fn seed004_replies_are_valid() {
    for r in REPLIES {
        let v = fixture(&format!("seed004_response_{r}.json"));
        if let Err(e) = UniversalResponse::validate(&v) {
            panic!("{r}: {e}");
        }
    }
}

/// The seed's own negative case: `response_type: "invalid_type"`.
#[test]
fn seed004_invalid_response_type() {
    let v = json!({"response_type": "invalid_type", "status": "success", "message": "Test"});
    let e = UniversalResponse::validate(&v).unwrap_err();
    assert_eq!(e.paths(), ["/response_type"]);
    assert_eq!(
        e.errors()[0].expected,
        r#"one of "planning", "answer", "verification", "clarity", "research", "custom", "error""#
    );
    assert_eq!(e.errors()[0].found, r#""invalid_type""#);
}

fn planning() -> Value {
    fixture("seed004_response_planning.json")
}

/// Applies `edit` to the planning reply and returns the error paths.
fn paths_after(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut v = planning();
    edit(&mut v);
    match UniversalResponse::validate(&v) {
        Ok(()) => Vec::new(),
        Err(e) => e.paths().into_iter().map(String::from).collect(),
    }
}

#[test]
fn broken_replies_table() {
    // wrong type
    assert_eq!(
        paths_after(|v| v["planning_data"]["steps"][0]["step_number"] = json!("1")),
        ["/planning_data/steps/0/step_number"]
    );
    // missing field
    assert_eq!(
        paths_after(|v| {
            v["planning_data"]["steps"][2]
                .as_object_mut()
                .unwrap()
                .remove("action");
        }),
        ["/planning_data/steps/2/action"]
    );
    assert_eq!(
        paths_after(|v| {
            v.as_object_mut().unwrap().remove("message");
        }),
        ["/message"]
    );
    // extra property at the top (closed) and in an open nested object (allowed by the seed)
    assert_eq!(paths_after(|v| v["extra"] = json!(1)), ["/extra"]);
    assert!(paths_after(|v| v["planning_data"]["extra"] = json!(1)).is_empty());
    // enum miss
    assert_eq!(paths_after(|v| v["status"] = json!("done")), ["/status"]);
    // wrong variant payload: a planning reply carrying answer_data
    assert_eq!(
        paths_after(|v| v["answer_data"] = json!({"confidence": "high"})),
        ["/answer_data"]
    );
    // several errors at once, in document order
    assert_eq!(
        paths_after(|v| {
            v["status"] = json!(1);
            v["planning_data"]["steps"][1]["estimated_minutes"] = json!(1.5);
            v["planning_data"]["dependencies"] = json!("database");
        }),
        [
            "/status",
            "/planning_data/steps/1/estimated_minutes",
            "/planning_data/dependencies"
        ]
    );
}

#[test]
fn clarity_scores_are_bounded() {
    let mut v = fixture("seed004_response_clarity.json");
    v["clarity_data"]["total_score"] = json!(101);
    v["clarity_data"]["clarity_score"] = json!(-1);
    let e = UniversalResponse::validate(&v).unwrap_err();
    assert_eq!(
        e.paths(),
        ["/clarity_data/clarity_score", "/clarity_data/total_score"]
    );
    assert_eq!(
        e.errors()[1].to_string(),
        "/clarity_data/total_score: expected a number <= 100, found 101"
    );
}

#[test]
fn string_too_long_and_too_many_items() {
    let v = json!({
        "think": "é".repeat(301),
        "subproblems": ["a", "b", "c", "d"],
    });
    let e = ResearchPlan::validate(&v).unwrap_err();
    assert_eq!(e.paths(), ["/think", "/subproblems"]);
    // lengths are counted in characters, not bytes: 300 two-byte characters fit
    let ok = json!({"think": "é".repeat(300), "subproblems": ["a", "b", "c"]});
    assert!(ResearchPlan::validate(&ok).is_ok());
    let e =
        ResearchPlan::validate(&json!({"think": "", "subproblems": ["a", "b", "x".repeat(501)]}))
            .unwrap_err();
    assert_eq!(e.paths(), ["/subproblems/2"]);
}

#[test]
fn agent_step_checks_the_precise_action() {
    let ok =
        json!({"think": "t", "action": "search", "search": {"searchRequests": ["rust serde"]}});
    assert!(AgentStep::validate(&ok).is_ok());
    // the schema shown to the model allows any payload beside any action; the type does not
    let wrong = json!({"think": "t", "action": "coding", "search": {"searchRequests": ["x"]}});
    let e = AgentStep::validate(&wrong).unwrap_err();
    assert_eq!(e.paths(), ["/search", "/coding"]);
    let bad_query = json!({"think": "t", "action": "search", "search": {"searchRequests": [""]}});
    assert_eq!(
        AgentStep::validate(&bad_query).unwrap_err().paths(),
        ["/search/searchRequests/0"]
    );
    let unknown = json!({"think": "t", "action": "sleep"});
    assert_eq!(
        AgentStep::validate(&unknown).unwrap_err().paths(),
        ["/action"]
    );
}

#[test]
fn null_is_not_absent_for_validate() {
    // Dialect::JsonSchema renders Option fields as absent-or-T, and validate agrees.
    let v = json!({"tbs": "qdr:h", "q": "rust", "location": null});
    assert_eq!(
        SearchQuery::validate(&v).unwrap_err().paths(),
        ["/location"]
    );
}

#[test]
fn evaluation_variants() {
    let v = json!({"type": "freshness", "think": "x", "freshness_analysis": {"days_ago": -1}, "pass": true});
    let e = Evaluation::validate(&v).unwrap_err();
    assert_eq!(e.paths(), ["/freshness_analysis/days_ago"]);
    let missing_tag = json!({"think": "x", "pass": true});
    assert_eq!(
        Evaluation::validate(&missing_tag).unwrap_err().paths(),
        ["/type"]
    );
}
