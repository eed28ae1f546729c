//! Differential test: our validator against the `jsonschema` crate (which passes the official
//! JSON-Schema test suite), on valid instances generated from each seed type's schema and on
//! mutations of them. Both must agree on every instance, and whatever `validate` accepts must
//! parse into the Rust type.

use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;

mod common;
use common::{generate, mutate, Rng};

fn run<T: AgentSchema + serde::de::DeserializeOwned>(
    name: &str,
    seed: u64,
    rounds: usize,
) -> (usize, usize) {
    let schema = T::validation_schema();
    let theirs = jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut rng = Rng(seed);
    let (mut valid, mut invalid) = (0, 0);
    for round in 0..rounds {
        let mut v = generate(schema, schema, &mut rng, 0);
        if round % 4 != 0 {
            for _ in 0..=rng.below(2) {
                mutate(&mut v, &mut rng);
            }
        }
        // The one-pass typed path and the Value path must agree on every instance too.
        let text = v.to_string();
        assert_eq!(
            T::from_json(&text).is_ok(),
            T::from_value(v.clone()).is_ok(),
            "{name} round {round}: from_json and from_value disagree on {text}"
        );
        let ours = T::validate(&v);
        let expected = theirs.is_valid(&v);
        assert_eq!(
            ours.is_ok(),
            expected,
            "{name} round {round}: ours {ours:?}, jsonschema {expected}, instance {v}"
        );
        if ours.is_ok() {
            valid += 1;
            if let Err(e) = T::from_value(v.clone()) {
                panic!("{name} round {round}: validate accepted but parsing failed: {e}; {v}");
            }
        } else {
            invalid += 1;
        }
    }
    (valid, invalid)
}

#[test]
fn validate_agrees_with_jsonschema() {
    let rounds = 1_100;
    let mut totals = (0, 0);
    let mut add = |r: (usize, usize)| {
        totals.0 += r.0;
        totals.1 += r.1;
    };
    add(run::<Language>("Language", 1, rounds));
    add(run::<QuestionEvaluate>("QuestionEvaluate", 2, rounds));
    add(run::<CodeGenerator>("CodeGenerator", 3, rounds));
    add(run::<ErrorAnalysis>("ErrorAnalysis", 4, rounds));
    add(run::<ResearchPlan>("ResearchPlan", 5, rounds));
    add(run::<SerpCluster>("SerpCluster", 6, rounds));
    add(run::<QueryRewriter>("QueryRewriter", 7, rounds));
    add(run::<Evaluation>("Evaluation", 8, rounds));
    add(run::<AgentStep>("AgentStep", 9, rounds));
    add(run::<UniversalResponse>("UniversalResponse", 10, rounds));
    println!("instances: {} valid, {} invalid", totals.0, totals.1);
    assert!(totals.0 + totals.1 >= 10_000);
    // Both sides must be exercised, or the agreement says little.
    assert!(totals.0 >= 2_000 && totals.1 >= 2_000, "{totals:?}");
}

/// For types without a one-object enum the precise schema is the published one.
#[test]
fn validation_schema_is_the_published_schema() {
    assert_eq!(
        Language::validation_schema(),
        Language::json_schema(Dialect::JsonSchema)
    );
    assert_eq!(
        SerpCluster::validation_schema(),
        SerpCluster::json_schema(Dialect::JsonSchema)
    );
    assert_eq!(
        Evaluation::validation_schema(),
        Evaluation::json_schema(Dialect::JsonSchema)
    );
    assert_ne!(
        UniversalResponse::validation_schema(),
        UniversalResponse::json_schema(Dialect::JsonSchema)
    );
}
