//! The seed types, written as natural Rust, shared by the examples, tests and benchmarks.
//!
//! Each type here reproduces one schema of the specification seeds (`tests/fixtures/`).

pub mod canned;
pub mod seed000;
pub mod seed002;
pub mod seed004;
pub mod tools;

use schema_core::{AgentSchema, Dialect};
use seed000::*;
use seed002::*;
use seed004::*;

/// Calls the macro `$mac` with every seed type, by its bare name (seed 000's types, then seed
/// 002's, then seed 004's): `with_seed_types!(each)` expands to `each!(Language,
/// QuestionEvaluate, ...)`. The names resolve where the macro is called, so the caller imports
/// the seed modules (`use schema_suite::{seed000::*, seed002::*, seed004::*};`). The one list of
/// the seed types that the tests, examples and benches go over.
#[macro_export]
macro_rules! with_seed_types {
    ($mac:ident) => {
        $mac!(
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
    };
}

/// Every seed type's full schema (`Dialect::JsonSchema`, what `T::json_schema` returns), named
/// by its type, in [`with_seed_types`]'s order.
pub fn seed_schemas() -> Vec<(&'static str, &'static serde_json::Value)> {
    macro_rules! schemas {
        ($($t:ty),* $(,)?) => {
            vec![$((stringify!($t), <$t>::json_schema(Dialect::JsonSchema))),*]
        };
    }
    with_seed_types!(schemas)
}

/// The `.json` files directly in `dir`, sorted by path, each parsed: the fixture and corpus
/// reader the tests and examples share. Panics naming the directory or file it cannot read or
/// parse (a test's missing or broken fixture).
pub fn json_files(
    dir: impl AsRef<std::path::Path>,
) -> Vec<(std::path::PathBuf, serde_json::Value)> {
    let dir = dir.as_ref();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, v)
        })
        .collect()
}

/// A file's name without its directory, as text.
pub fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// A file's name without its directory and extension, as text.
pub fn file_stem(p: &std::path::Path) -> String {
    p.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The README's Rust code, compiled and run as doctests of this package.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
