//! Seed 004: the universal agent response shared by every agent (one server-level schema).

use schema_core::AgentSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The universal response: which agent answers decides which payload is filled. Rendered in the
/// one-object form because LM Studio sets one schema for the whole server.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "response_type", rename_all = "lowercase")]
#[schema(one_object, tag_description = "Which agent is responding")]
pub enum UniversalResponse {
    Planning {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        planning_data: Option<PlanningData>,
    },
    Answer {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer_data: Option<AnswerData>,
    },
    Verification {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        verification_data: Option<VerificationData>,
    },
    Clarity {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clarity_data: Option<ClarityData>,
    },
    Research {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        research_data: Option<ResearchData>,
    },
    Custom {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        /// Flexible object for custom agent responses
        #[serde(default, skip_serializing_if = "Option::is_none")]
        custom_fields: Option<Map<String, Value>>,
    },
    Error {
        /// Overall status of the response
        status: Status,
        /// Primary response text (answer, explanation, summary, etc.)
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_details: Option<ErrorDetails>,
    },
}

/// Overall status of a response.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    #[serde(rename = "success")]
    Success,
    #[serde(rename = "needs_clarification")]
    NeedsClarification,
    #[serde(rename = "error")]
    Error,
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail,
    #[serde(rename = "PARTIAL")]
    Partial,
}

/// Planning-specific data.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct PlanningData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<PlanStep>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
}

/// One step of a plan.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct PlanStep {
    pub step_number: i64,
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_minutes: Option<i64>,
}

/// Verification-specific data.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct VerificationData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<Check>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<String>>,
}

/// One acceptance check.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct Check {
    pub criterion: String,
    pub passed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Clarity-specific data: scores from 0 to 100.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct ClarityData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 100)]
    pub completeness_score: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 100)]
    pub clarity_score: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 100)]
    pub accuracy_score: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 100)]
    pub total_score: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up_questions: Option<Vec<String>>,
}

/// Research-specific data.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct ResearchData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<Finding>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<String>>,
}

/// Relevance of a finding, or confidence of an answer.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    High,
    Medium,
    Low,
}

/// One research finding.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct Finding {
    pub topic: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<Level>,
}

/// Answer-specific data.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct AnswerData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up_needed: Option<bool>,
}

/// Error details.
#[derive(AgentSchema, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[schema(open)]
pub struct ErrorDetails {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_action: Option<String>,
}
