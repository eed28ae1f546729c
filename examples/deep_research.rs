//! Seed 000, the deep-research agent: its schemas as Rust types (`schema_suite::seed000`), then a
//! few steps of its agent loop with the schemas narrowed per step as the seed's `getAgentSchema`,
//! `getResearchPlanSchema(teamSize)` and `getEvaluatorSchema(evalType)` build them.
//!
//! Part 1 prints each type's OpenAI strict schema (one line; `--pretty` to indent) and TypeScript
//! text. Part 2 simulates the loop on canned model replies: the allowed actions change from step
//! to step, the current question goes into the answer's description, the evaluators are picked by
//! type, the research plan's size comes from a variable, and a reply that uses a forbidden action
//! is rejected with an error and the feedback text for the retry.
//!
//! Run: `cargo run --example deep_research [-- --pretty]`

use schema_core::view::View;
use schema_core::{AgentSchema, Dialect, ParseError};
use schema_suite::seed000::*;
use serde_json::Value;

fn print_json(value: &Value, pretty: bool) {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    println!("{}", text.unwrap_or_default());
}

/// Part 1: one seed type's OpenAI schema and TypeScript text.
fn show_type<T: AgentSchema>(title: &str, pretty: bool) {
    println!("--- {title}");
    println!("OpenAI schema:");
    match T::try_json_schema(Dialect::OpenAi) {
        Ok(schema) => print_json(schema, pretty),
        Err(e) => println!("cannot express: {e}"),
    }
    println!("TypeScript:\n{}\n", T::typescript());
}

/// Which actions the agent may take at a step: the seed's `allow*` flags.
#[derive(Debug, Clone, Copy)]
pub struct Allowed {
    /// `allowSearch`
    pub search: bool,
    /// `allowCoding`
    pub coding: bool,
    /// `allowAnswer`
    pub answer: bool,
    /// `allowReflect`
    pub reflect: bool,
    /// `allowRead` (the `visit` action)
    pub read: bool,
}

impl Allowed {
    /// The tags of the allowed actions, in the enum's order.
    pub fn tags(&self) -> Vec<&'static str> {
        [
            (self.search, "search"),
            (self.coding, "coding"),
            (self.answer, "answer"),
            (self.reflect, "reflect"),
            (self.read, "visit"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, tag)| tag)
        .collect()
    }
}

/// The seed's `getAgentSchema(allowReflect, allowRead, allowAnswer, allowSearch, allowCoding,
/// currentQuestion)` as a view of [`AgentStep`].
pub fn agent_schema(allowed: Allowed, question: &str) -> Result<View<AgentStep>, String> {
    let mut view = View::<AgentStep>::new()
        .keep_variants("", &allowed.tags())
        .map_err(|e| e.to_string())?;
    if allowed.answer {
        view = view
            .describe(
                "answer/answer",
                &format!(
                    "Required when action='answer'. The final answer to \"{question}\". Use all your knowledge you have collected, cover multiple aspects if needed. Must be definitive, no ambiguity, no uncertainty, no disclaimers."
                ),
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(view)
}

/// The seed's `getResearchPlanSchema(teamSize)`: exactly `team_size` subproblems.
pub fn research_plan_schema(team_size: u64) -> Result<View<TeamResearchPlan>, String> {
    View::<TeamResearchPlan>::new()
        .items("subproblems", Some(team_size), Some(team_size))
        .map_err(|e| e.to_string())
}

/// The seed's `getEvaluatorSchema(evalType)`: one evaluator of [`Evaluation`].
pub fn evaluator_schema(eval_type: &str) -> Result<View<Evaluation>, String> {
    View::<Evaluation>::new()
        .variant(eval_type)
        .map_err(|e| e.to_string())
}

fn describe_action(step: &AgentStep) -> String {
    match &step.action {
        AgentAction::Search { search } => format!("search {:?}", search.search_requests),
        AgentAction::Coding { coding } => format!("coding: {}", coding.coding_issue),
        AgentAction::Answer { answer } => format!("answer: {}", answer.answer),
        AgentAction::Reflect { reflect } => format!("reflect {:?}", reflect.questions_to_answer),
        AgentAction::Visit { visit } => format!("visit URLs {:?}", visit.url_targets),
    }
}

fn print_error(e: &ParseError) {
    println!("REJECTED: {e}");
    println!("feedback for the retry:\n{}", e.feedback());
}

/// One agent step: print the narrowed TypeScript text, then parse the replies in turn (the
/// first attempt, then the retries after feedback) until one is valid.
fn agent_step(n: usize, allowed: Allowed, question: &str, replies: &[&str]) -> Option<AgentStep> {
    println!("--- step {n}: allowed actions {:?}", allowed.tags());
    let view = match agent_schema(allowed, question) {
        Ok(v) => v,
        Err(e) => {
            println!("cannot narrow: {e}");
            return None;
        }
    };
    match view.typescript() {
        Ok(ts) => println!("TypeScript for the prompt:\n{ts}"),
        Err(e) => println!("no TypeScript: {e}"),
    }
    match view.json_schema(Dialect::OpenAi) {
        Ok(s) => println!(
            "OpenAI schema: action enum {}, {} properties",
            s["properties"]["action"]["enum"],
            s["properties"].as_object().map_or(0, |p| p.len())
        ),
        Err(e) => println!("OpenAI schema: cannot express: {e}"),
    }
    for (attempt, reply) in replies.iter().enumerate() {
        if attempt == 0 {
            println!("model reply: {reply}");
        } else {
            println!("model reply after the feedback: {reply}");
        }
        match view.from_llm(reply) {
            Ok(step) => {
                println!("OK: {}\n", describe_action(&step));
                return Some(step);
            }
            Err(e) => print_error(&e),
        }
    }
    println!();
    None
}

const QUESTION: &str = "Which Rust crate has the most downloads among JSON Schema generators?";

fn main() {
    run(std::env::args().any(|a| a == "--pretty"));
}

/// The whole example; `pretty` indents the JSON schemas.
pub fn run(pretty: bool) {
    println!("=== Part 1: the seed 000 schemas (OpenAI strict) and their TypeScript text\n");
    show_type::<Language>("§1 Language", pretty);
    show_type::<QuestionEvaluate>("§2 QuestionEvaluate", pretty);
    show_type::<CodeGenerator>("§3 CodeGenerator", pretty);
    show_type::<ErrorAnalysis>("§4 ErrorAnalysis", pretty);
    show_type::<ResearchPlan>("§5 ResearchPlan (team size 3)", pretty);
    show_type::<SerpCluster>("§6 SerpCluster", pretty);
    show_type::<QueryRewriter>("§7 QueryRewriter", pretty);
    show_type::<Evaluation>("§8 Evaluation (all six evaluators)", pretty);
    show_type::<AgentStep>("§9 AgentStep (every action)", pretty);

    println!("=== Part 2: the agent loop, schemas narrowed per step\n");
    println!("question: {QUESTION}\n");

    println!("--- which checks the question needs (QuestionEvaluate)");
    let checks = QuestionEvaluate::from_llm(
        r#"```json
{"think": "Asks for the single most downloaded crate: needs a definitive, current answer.",
 "needsDefinitive": true, "needsFreshness": true, "needsPlurality": false, "needsCompleteness": false}
```"#,
    );
    let eval_types: Vec<&str> = match &checks {
        Ok(c) => {
            println!("OK: {c:?}\n");
            [
                (c.needs_definitive, "definitive"),
                (c.needs_freshness, "freshness"),
                (c.needs_plurality, "plurality"),
                (c.needs_completeness, "completeness"),
            ]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, t)| t)
            .collect()
        }
        Err(e) => {
            print_error(e);
            vec!["definitive"]
        }
    };

    let team_size: u64 = 2;
    println!("--- research plan for a team of {team_size} (getResearchPlanSchema(teamSize))");
    match research_plan_schema(team_size) {
        Ok(view) => {
            if let Ok(ts) = view.typescript() {
                println!("TypeScript:\n{ts}");
            }
            for reply in [
                r#"{"think": "Split by data source.", "subproblems": ["crates.io download counts of schemars, jsonschema, typify", "GitHub dependents of the same crates", "Which LLM SDKs depend on them"]}"#,
                r#"{"think": "Split by data source.", "subproblems": ["crates.io download counts of schemars, jsonschema, typify", "Reverse dependencies of those crates among LLM SDKs"]}"#,
            ] {
                println!("model reply: {reply}");
                match view.from_llm(reply) {
                    Ok(plan) => println!("OK: {} subproblems\n", plan.subproblems.len()),
                    Err(e) => {
                        print_error(&e);
                        println!();
                    }
                }
            }
        }
        Err(e) => println!("cannot narrow: {e}\n"),
    }

    // Step 1: no URLs yet, so no visit; coding is off for this question.
    let mut allowed = Allowed {
        search: true,
        coding: false,
        answer: true,
        reflect: true,
        read: false,
    };
    agent_step(
        1,
        allowed,
        QUESTION,
        &[r#"I'll start with a search.
{"think": "I need current download numbers.", "action": "search", "search": {"searchRequests": ["schemars downloads", "json schema crate rust"]}}"#],
    );

    // Step 2: search results gave URLs, so visit is allowed.
    allowed.read = true;
    let answered = agent_step(
        2,
        allowed,
        QUESTION,
        &[
            r#"{"think": "The crates.io page lists schemars far ahead.", "action": "answer", "answer": {"answer": "schemars, with about 100 million downloads."}}"#,
        ],
    );

    if answered.is_some() {
        println!("--- evaluating the answer with {eval_types:?} (getEvaluatorSchema(evalType))");
        let canned = |t: &str| match t {
            "definitive" => {
                r#"{"type": "definitive", "think": "States one crate and a number without hedging.", "pass": true}"#
            }
            "freshness" => {
                r#"{"type": "freshness", "think": "The figure comes from a page crawled 400 days ago.", "freshness_analysis": {"days_ago": 400, "max_age_days": 30}, "pass": false}"#
            }
            _ => {
                r#"{"type": "strict", "think": "n/a", "improvement_plan": "For the best answer, you must ...", "pass": true}"#
            }
        };
        let mut passed = true;
        for t in &eval_types {
            match evaluator_schema(t) {
                Ok(view) => {
                    if let Ok(ts) = view.typescript() {
                        println!("{t} evaluator TypeScript:\n{ts}");
                    }
                    match view.from_llm(canned(t)) {
                        Ok(v) => {
                            let pass = match &v {
                                Evaluation::Definitive { pass, .. }
                                | Evaluation::Freshness { pass, .. }
                                | Evaluation::Plurality { pass, .. }
                                | Evaluation::Attribution { pass, .. }
                                | Evaluation::Completeness { pass, .. }
                                | Evaluation::Strict { pass, .. } => *pass,
                            };
                            println!("OK: {t} pass = {pass}\n");
                            passed &= pass;
                        }
                        Err(e) => {
                            print_error(&e);
                            println!();
                        }
                    }
                }
                Err(e) => println!("cannot narrow: {e}\n"),
            }
        }
        // An evaluator reply of the wrong type is rejected by the one-evaluator view.
        if let Ok(view) = evaluator_schema("definitive") {
            println!("--- a freshness verdict where the definitive evaluator was asked for");
            if let Err(e) = view.from_llm(canned("freshness")) {
                print_error(&e);
            }
            println!();
        }

        if !passed {
            println!("--- the answer failed: error analysis (ErrorAnalysis)");
            match ErrorAnalysis::from_llm(
                r#"{"recap": "I searched once and answered from the first page I saw.", "blame": "Answering from a stale page without checking its date.", "improvement": "Open crates.io itself and quote today's number."}"#,
            ) {
                Ok(a) => println!("OK: improvement = {}\n", a.improvement),
                Err(e) => print_error(&e),
            }
            // Step 3: after a failed answer the seed disallows answering for a step.
            allowed.answer = false;
            agent_step(
                3,
                allowed,
                QUESTION,
                &[
                    r#"{"think": "I am confident anyway.", "action": "answer", "answer": {"answer": "schemars."}}"#,
                    r#"{"think": "Open the crates.io pages found earlier.", "action": "visit", "visit": {"URLTargets": [1, 3]}}"#,
                ],
            );
        }
    }
}
