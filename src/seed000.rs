//! Seed 000: the deep-research agent's schemas (`schemas.ts`), §1 to §9.

use schema_core::AgentSchema;
use serde::{Deserialize, Serialize};

/// §1 `getLanguageSchema()`: the language code and style of the input text.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Language {
    /// ISO 639-1 language code
    #[schema(max_length = 10)]
    pub lang_code: String,
    /// [vibe & tone] in [what language], such as formal english, informal chinese, technical german, humor english, slang, genZ, emojis etc.
    #[schema(max_length = 100)]
    pub lang_style: String,
}

/// §2 `getQuestionEvaluateSchema()`: which checks a question needs.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct QuestionEvaluate {
    /// A very concise explain of why those checks are needed
    #[schema(max_length = 500)]
    pub think: String,
    pub needs_definitive: bool,
    pub needs_freshness: bool,
    pub needs_plurality: bool,
    pub needs_completeness: bool,
}

/// §3 `getCodeGeneratorSchema()`: JavaScript code that solves the problem.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CodeGenerator {
    /// Short explain or comments on the thought process behind the code
    #[schema(max_length = 200)]
    pub think: String,
    /// The JavaScript code that solves the problem and always use 'return' statement to return
    /// the result. Focus on solving the core problem; No need for error handling or try-catch
    /// blocks or code comments. No need to declare variables that are already available,
    /// especially big long strings or arrays.
    pub code: String,
}

/// §4 `getErrorAnalysisSchema()`: why an answer was rejected and what to improve.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ErrorAnalysis {
    /// Recap of the actions taken and the steps conducted in first person narrative
    #[schema(max_length = 500)]
    pub recap: String,
    /// Which action or the step was the root cause of the answer rejection
    #[schema(max_length = 500)]
    pub blame: String,
    /// Suggested key improvement for the next iteration, do not use bullet points, be concise and hot-take vibe
    #[schema(max_length = 500)]
    pub improvement: String,
}

/// §5 `getResearchPlanSchema(teamSize)` with the seed's team size of 3.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ResearchPlan {
    /// Explain your decomposition strategy and how you ensured orthogonality between subproblems
    #[schema(max_length = 300)]
    pub think: String,
    /// Array of exactly N orthogonal research plans, each focusing on a different fundamental dimension of the main topic
    #[schema(min_items = 3, max_items = 3)]
    #[schema(items(
        description = "Complete research plan containing: title, scope, key questions, methodology",
        max_length = 500
    ))]
    pub subproblems: Vec<String>,
}

/// §6 `getSerpClusterSchema()`: search results grouped into clusters.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SerpCluster {
    /// Short explain of why you group the search results like this
    #[schema(max_length = 500)]
    pub think: String,
    /// The optimal clustering of search engine results, orthogonal to each other. Maximum 5 clusters allowed
    #[schema(max_items = 5)]
    pub clusters: Vec<Cluster>,
}

/// One cluster of §6.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Cluster {
    /// Summary and list key numbers, data, soundbites, and insights that worth to be highlighted. End with an actionable advice such as "Visit these URLs if you want to understand [what...]". Do not use "This cluster..."
    #[schema(max_length = 200)]
    pub insight: String,
    /// What concrete and specific question this cluster answers. Should not be general question like "where can I find [what...]"
    #[schema(max_length = 100)]
    pub question: String,
    #[schema(items(description = "URLs in this cluster", max_length = 100))]
    pub urls: Vec<String>,
}

/// §7 `getQueryRewriterSchema()`: rewritten search queries.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct QueryRewriter {
    /// Explain why you choose those search queries
    #[schema(max_length = 500)]
    pub think: String,
    /// Array of search keywords queries, orthogonal to each other. Maximum 5 queries allowed
    #[schema(max_items = 5)]
    pub queries: Vec<SearchQuery>,
}

/// Time-based search filter of §7.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tbs {
    #[serde(rename = "qdr:h")]
    Hour,
    #[serde(rename = "qdr:d")]
    Day,
    #[serde(rename = "qdr:w")]
    Week,
    #[serde(rename = "qdr:m")]
    Month,
    #[serde(rename = "qdr:y")]
    Year,
}

/// One query of §7.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SearchQuery {
    /// time-based search filter, must use this field if the search request asks for latest info. qdr:h for past hour, qdr:d for past 24 hours, qdr:w for past week, qdr:m for past month, qdr:y for past year. Choose exactly one.
    pub tbs: Tbs,
    /// defines from where you want the search to originate. It is recommended to specify location at the city level in order to simulate a real user's search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// keyword-based search query, 2-3 words preferred, total length < 30 characters
    #[schema(max_length = 50)]
    pub q: String,
}

/// §8 `getEvaluatorSchema(evalType)`: the six evaluators, one variant each, tagged by `type`.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Evaluation {
    Definitive {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        /// If the answer passes the test defined by the evaluator
        pass: bool,
    },
    Freshness {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        freshness_analysis: FreshnessAnalysis,
        /// If "days_ago" <= "max_age_days" then pass!
        pass: bool,
    },
    Plurality {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        plurality_analysis: PluralityAnalysis,
        /// If count_provided >= count_expected then pass!
        pass: bool,
    },
    Attribution {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        /// Exact relevant quote and evidence from the source that strongly support the answer and justify this question-answer pair
        #[serde(
            rename = "exactQuote",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        #[schema(max_length = 200)]
        exact_quote: Option<String>,
        /// If the answer passes the test defined by the evaluator
        pass: bool,
    },
    Completeness {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        completeness_analysis: CompletenessAnalysis,
        /// If the answer passes the test defined by the evaluator
        pass: bool,
    },
    Strict {
        /// Explanation the thought process why the answer does not pass the evaluation
        #[schema(max_length = 500)]
        think: String,
        /// Explain how a perfect answer should look like and what are needed to improve the current answer. Starts with "For the best answer, you must..."
        #[schema(max_length = 1000)]
        improvement_plan: String,
        /// If the answer passes the test defined by the evaluator
        pass: bool,
    },
}

/// §8.2 the freshness analysis.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FreshnessAnalysis {
    /// datetime of the **answer** and relative to current date
    #[schema(minimum = 0)]
    pub days_ago: f64,
    /// Maximum allowed age in days for this kind of question-answer type before it is considered outdated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age_days: Option<f64>,
}

/// §8.3 the plurality analysis.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PluralityAnalysis {
    /// Minimum required number of items from the **question**
    pub minimum_count_required: f64,
    /// Number of items provided in **answer**
    pub actual_count_provided: f64,
}

/// §8.5 the completeness analysis.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CompletenessAnalysis {
    /// Comma-separated list of all aspects or dimensions that the question explicitly asks for
    #[schema(max_length = 100)]
    pub aspects_expected: String,
    /// Comma-separated list of all aspects or dimensions that were actually addressed in the answer
    #[schema(max_length = 100)]
    pub aspects_provided: String,
}

/// §9 `getAgentSchema(...)`: one step of the agent loop, the reasoning then exactly one action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AgentStep {
    /// Concisely explain your reasoning process
    #[schema(max_length = 500)]
    pub think: String,
    /// Choose exactly one best action from the available actions
    #[serde(flatten)]
    pub action: AgentAction,
}

/// The actions of §9, tagged by `action`, each with its payload under its own name.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum AgentAction {
    Search { search: SearchAction },
    Coding { coding: CodingAction },
    Answer { answer: AnswerAction },
    Reflect { reflect: ReflectAction },
    Visit { visit: VisitAction },
}

/// Payload of the `search` action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchAction {
    /// Required when action='search'. Always prefer a single search query, only add another search query if the original question covers multiple aspects or elements and one search request is definitely not enough
    #[schema(max_items = 5)]
    #[schema(items(
        min_length = 1,
        max_length = 30,
        description = "A Google search query. Based on the deep intention behind the original question and the expected answer format"
    ))]
    pub search_requests: Vec<String>,
}

/// Payload of the `coding` action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CodingAction {
    /// Required when action='coding'. Describe what issue to solve with coding, format like a github issue ticket. Specify the input value when it is short.
    #[schema(max_length = 500)]
    pub coding_issue: String,
}

/// Payload of the `answer` action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AnswerAction {
    /// Required when action='answer'. Use all your knowledge you have collected, cover multiple aspects if needed. Must be definitive, no ambiguity, no uncertainty, no disclaimers.
    pub answer: String,
}

/// Payload of the `reflect` action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReflectAction {
    /// Required when action='reflect'. Reflection and planing, generate a list of most important questions to fill the knowledge gaps
    #[schema(max_items = 2)]
    #[schema(items(
        description = "Ensure each reflection question cuts to core emotional truths while staying anchored to original question"
    ))]
    pub questions_to_answer: Vec<String>,
}

/// Payload of the `visit` action.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct VisitAction {
    /// Required when action='visit'. Must be the index of the URL in from the original list of URLs. Maximum 5 URLs allowed
    #[serde(rename = "URLTargets")]
    #[schema(max_items = 5)]
    pub url_targets: Vec<f64>,
}

/// §5 as the agent builds it at run time: the number of subproblems is the team size, set per
/// request with [`schema_core::view::View::items`].
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TeamResearchPlan {
    /// Explain your decomposition strategy and how you ensured orthogonality between subproblems
    #[schema(max_length = 300)]
    pub think: String,
    /// Array of exactly N orthogonal research plans, each focusing on a different fundamental dimension of the main topic
    #[schema(items(
        description = "Complete research plan containing: title, scope, key questions, methodology",
        max_length = 500
    ))]
    pub subproblems: Vec<String>,
}
