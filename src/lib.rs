//! The seed types, written as natural Rust, shared by the examples, tests and benchmarks.
//!
//! Each type here reproduces one schema of the specification seeds (`tests/fixtures/`).

pub mod seed000;
pub mod seed002;
pub mod seed004;
pub mod tools;

use schema_core::{AgentSchema, Dialect};
use seed000::*;
use seed002::*;
use seed004::*;

/// Lists every seed type once, for the tests that go over all of them.
macro_rules! seed_types {
    ($($t:ty),* $(,)?) => {
        vec![$((stringify!($t), <$t>::json_schema(Dialect::JsonSchema))),*]
    };
}

/// Every seed type's full schema (`Dialect::JsonSchema`, what `T::json_schema` returns), named
/// by its type: seed 000's types, then seed 002's, then seed 004's.
pub fn seed_schemas() -> Vec<(&'static str, &'static serde_json::Value)> {
    seed_types!(
        Language,
        QuestionEvaluate,
        CodeGenerator,
        ErrorAnalysis,
        ResearchPlan,
        SerpCluster,
        Cluster,
        QueryRewriter,
        Tbs,
        SearchQuery,
        Evaluation,
        FreshnessAnalysis,
        PluralityAnalysis,
        CompletenessAnalysis,
        AgentStep,
        AgentAction,
        SearchAction,
        CodingAction,
        AnswerAction,
        ReflectAction,
        VisitAction,
        TeamResearchPlan,
        UniversalResponse,
        Status,
        PlanningData,
        PlanStep,
        VerificationData,
        Check,
        ClarityData,
        ResearchData,
        Level,
        Finding,
        AnswerData,
        ErrorDetails,
        Mode,
        Intent,
        Freshness,
        GrokResult,
        GrokReply,
        SearchResult,
        SearchOutput,
    )
}
