//! Seed 000's dynamic schemas: the agent schema for every subset of actions, the research plan
//! for each team size, and each evaluator picked alone.

use schema_core::view::View;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const ACTIONS: [&str; 5] = ["search", "coding", "answer", "reflect", "visit"];

fn reply_for(action: &str) -> Value {
    let payload = match action {
        "search" => json!({"searchRequests": ["rust json schema"]}),
        "coding" => json!({"codingIssue": "sum the list"}),
        "answer" => json!({"answer": "42"}),
        "reflect" => json!({"questionsToAnswer": ["why?"]}),
        _ => json!({"URLTargets": [1.5, 2.5]}),
    };
    json!({"think": "because", "action": action, action: payload})
}

#[test]
fn agent_schema_for_every_subset_of_actions() {
    for mask in 1u32..32 {
        let allowed: Vec<&str> = ACTIONS
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, a)| *a)
            .collect();
        let view = View::<AgentStep>::new()
            .keep_variants("", &allowed)
            .unwrap_or_else(|e| panic!("{allowed:?}: {e}"));
        let schema = view.json_schema(Dialect::JsonSchema).unwrap();
        // the action enum lists exactly the allowed actions, in declaration order
        assert_eq!(
            schema["properties"]["action"]["enum"],
            json!(allowed),
            "{allowed:?}"
        );
        // exactly the allowed payloads are properties
        let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let mut expected = vec!["think", "action"];
        expected.extend(&allowed);
        assert_eq!(props, expected, "{allowed:?}");
        // the oneOf clauses name exactly the allowed payloads
        let clauses: Vec<Value> = allowed.iter().map(|a| json!({"required": [a]})).collect();
        assert_eq!(schema["oneOf"], json!(clauses), "{allowed:?}");
        // every dialect still renders, and the TypeScript text names only allowed actions
        let ts = view.typescript().unwrap();
        for a in ACTIONS {
            assert_eq!(
                ts.contains(&format!("\"{a}\"")),
                allowed.contains(&a),
                "{allowed:?}: {ts}"
            );
        }
        for d in [Dialect::OpenAi, Dialect::LmStudio, Dialect::Gemini] {
            view.json_schema(d)
                .unwrap_or_else(|e| panic!("{allowed:?} {d}: {e}"));
        }
        // replies: allowed actions parse, forbidden ones are rejected at /action
        for a in ACTIONS {
            let reply = reply_for(a);
            let text = reply.to_string();
            assert!(
                AgentStep::from_json(&text).is_ok(),
                "the full type accepts {a}"
            );
            let parsed = view.from_json(&text);
            if allowed.contains(&a) {
                let step = parsed.unwrap_or_else(|e| panic!("{allowed:?} {a}: {e}"));
                assert_eq!(serde_json::to_value(&step).unwrap(), reply);
            } else {
                let err = parsed.unwrap_err();
                let errors = err.validation_errors().expect("a validation error");
                assert_eq!(errors.paths(), ["/action"], "{allowed:?} {a}: {err}");
                assert!(view.validate(&reply).is_err());
            }
        }
    }
}

#[test]
fn no_action_at_all_is_an_error() {
    let e = View::<AgentStep>::new().keep_variants("", &[]).unwrap_err();
    assert_eq!(e.path, "");
    let e = View::<AgentStep>::new()
        .keep_variants("", &["dance"])
        .unwrap_err();
    assert!(e.reason.contains("dance"), "{e}");
}

#[test]
fn the_current_question_goes_into_a_description() {
    let q = "Who wrote serde?";
    let view = View::<AgentStep>::new()
        .describe("answer/answer", &format!("Answer the question: {q}"))
        .unwrap();
    let schema = view.json_schema(Dialect::JsonSchema).unwrap();
    assert_eq!(
        schema["properties"]["answer"]["properties"]["answer"]["description"],
        format!("Answer the question: {q}")
    );
    assert!(view.typescript().unwrap().contains(q));
    let e = View::<AgentStep>::new()
        .describe("answer/nope", "x")
        .unwrap_err();
    assert_eq!(e.path, "answer/nope");
}

#[test]
fn research_plan_for_team_sizes_one_to_five() {
    for team in 1u64..=5 {
        let view = View::<TeamResearchPlan>::new()
            .items("subproblems", Some(team), Some(team))
            .unwrap();
        let schema = view.json_schema(Dialect::JsonSchema).unwrap();
        assert_eq!(schema["properties"]["subproblems"]["minItems"], team);
        assert_eq!(schema["properties"]["subproblems"]["maxItems"], team);
        for n in 0..=6u64 {
            let subs: Vec<String> = (0..n).map(|i| format!("plan {i}")).collect();
            let reply = json!({"think": "split by dimension", "subproblems": subs}).to_string();
            let parsed = view.from_json(&reply);
            assert_eq!(parsed.is_ok(), n == team, "team {team}, {n} subproblems");
            if n != team {
                let err = parsed.unwrap_err();
                assert_eq!(err.validation_errors().unwrap().paths(), ["/subproblems"]);
            }
        }
    }
    // With team size 3 the view is seed 000 §5 exactly.
    let three = View::<TeamResearchPlan>::new()
        .items("subproblems", Some(3), Some(3))
        .unwrap();
    assert_eq!(
        three.json_schema(Dialect::JsonSchema).unwrap(),
        fixture("seed000_5_research_plan_schema.json")
    );
}

#[test]
fn narrowing_never_widens() {
    // ResearchPlan fixes 3..=3 at compile time.
    let e = View::<ResearchPlan>::new()
        .items("subproblems", Some(1), Some(5))
        .unwrap_err();
    assert!(e.reason.contains("widen"), "{e}");
    let e = View::<Language>::new()
        .length("langCode", None, Some(20))
        .unwrap_err();
    assert!(e.reason.contains("widen"), "{e}");
    assert!(View::<Language>::new()
        .length("langCode", Some(2), Some(2))
        .is_ok());
    let e = View::<Language>::new()
        .length("langCode", Some(5), Some(2))
        .unwrap_err();
    assert!(e.reason.contains("no value fits"), "{e}");
    let e = View::<Language>::new()
        .items("langCode", None, Some(2))
        .unwrap_err();
    assert!(e.reason.contains("not a array"), "{e}");
    let e = View::<Language>::new()
        .length("missing", None, Some(2))
        .unwrap_err();
    assert_eq!(e.path, "missing");
}

#[test]
fn string_enum_values_and_numeric_bounds() {
    let view = View::<QueryRewriter>::new()
        .keep_values("queries/tbs", &["qdr:d", "qdr:w"])
        .unwrap();
    let schema = view.json_schema(Dialect::JsonSchema).unwrap();
    assert_eq!(
        schema["properties"]["queries"]["items"]["properties"]["tbs"]["enum"],
        json!(["qdr:d", "qdr:w"])
    );
    let reply = json!({"think": "t", "queries": [{"tbs": "qdr:h", "q": "news"}]}).to_string();
    assert!(QueryRewriter::from_json(&reply).is_ok());
    let err = view.from_json(&reply).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/queries/0/tbs"]);
    assert!(View::<QueryRewriter>::new()
        .keep_values("queries/tbs", &[])
        .is_err());
    assert!(View::<QueryRewriter>::new()
        .keep_values("queries/tbs", &["qdr:x"])
        .is_err());

    let view = View::<Evaluation>::new()
        .range("freshness_analysis/max_age_days", Some(0.0), Some(365.0))
        .unwrap();
    let bad = json!({"type": "freshness", "think": "t", "freshness_analysis": {"days_ago": 3, "max_age_days": 400}, "pass": true});
    assert_eq!(
        view.validate(&bad).unwrap_err().paths(),
        ["/freshness_analysis/max_age_days"]
    );
}

#[test]
fn each_evaluator_alone_is_its_seed_schema() {
    let files = [
        ("definitive", "seed000_8_1_definitive_evaluator.json"),
        ("freshness", "seed000_8_2_freshness_evaluator.json"),
        ("plurality", "seed000_8_3_plurality_evaluator.json"),
        ("attribution", "seed000_8_4_attribution_evaluator.json"),
        ("completeness", "seed000_8_5_completeness_evaluator.json"),
        ("strict", "seed000_8_6_strict_evaluator.json"),
    ];
    for (tag, file) in files {
        let view = View::<Evaluation>::new().variant(tag).unwrap();
        assert_eq!(
            view.json_schema(Dialect::JsonSchema).unwrap(),
            fixture(file),
            "{tag}"
        );
        // a reply of another evaluator is rejected by this view
        let other = json!({"type": if tag == "strict" { "definitive" } else { "strict" }, "think": "t", "pass": true, "improvement_plan": "p"});
        assert!(view.validate(&other).is_err(), "{tag}");
    }
    assert!(View::<Evaluation>::new().variant("vibes").is_err());
}

#[test]
fn narrowings_chain_and_never_widen_each_other() {
    let two = View::<AgentStep>::new()
        .keep_variants("", &["search", "answer"])
        .unwrap();
    // coding was already removed: keeping only it leaves nothing
    assert!(two.clone().keep_variants("", &["coding"]).is_err());
    let one = two.keep_variants("", &["answer"]).unwrap();
    let schema = one.json_schema(Dialect::JsonSchema).unwrap();
    assert_eq!(schema["properties"]["action"]["enum"], json!(["answer"]));
    assert!(one.from_json(&reply_for("answer").to_string()).is_ok());
    let e = one.from_json(&reply_for("search").to_string()).unwrap_err();
    assert_eq!(e.validation_errors().unwrap().paths(), ["/action"]);
    // bounds tighten step by step, and a later step cannot undo an earlier one
    let plan = View::<TeamResearchPlan>::new()
        .items("subproblems", Some(2), Some(5))
        .unwrap()
        .items("subproblems", Some(3), Some(4))
        .unwrap();
    assert!(plan.clone().items("subproblems", Some(1), None).is_err());
    let ok = json!({"think": "t", "subproblems": ["a", "b", "c"]}).to_string();
    let bad = json!({"think": "t", "subproblems": ["a", "b"]}).to_string();
    assert!(plan.from_json(&ok).is_ok() && plan.from_json(&bad).is_err());
}
