//! The exact request bodies that ask each model server for structured output, built from one
//! derived type, and the follow-up request a retry sends with the `feedback()` text. No network:
//! the bodies are printed, and the model's replies are canned.
//!
//! - OpenAI Chat Completions: `response_format: {type: "json_schema", json_schema: {name, strict:
//!   true, schema}}`.
//! - Anthropic Messages: `output_config: {format: {type: "json_schema", schema}}` (the structured
//!   outputs request shape; the older beta `output_format` parameter was moved there).
//! - Gemini `generateContent`: `generationConfig: {responseMimeType: "application/json",
//!   responseJsonSchema}`.
//! - LM Studio (OpenAI-compatible `/v1/chat/completions`): `response_format` with `json_schema`.
//!
//! Seed 000's `ErrorAnalysis` goes through every dialect as is. Seed 004's `UniversalResponse`
//! has a free-form map (`custom_fields`), which OpenAI strict mode and Anthropic cannot express:
//! `try_json_schema` says so, and `json_schema_report` with `close_maps(true)` gives a schema
//! those servers accept (the map becomes a closed empty object, noted in its description).
//!
//! Run: `cargo run --example request_body`

use schema_core::convert::DialectOptions;
use schema_core::retry::{retry, RetryOptions};
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::ErrorAnalysis;
use schema_suite::seed004::UniversalResponse;
use serde_json::{json, Value};

/// The servers this example builds requests for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI Chat Completions.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `generateContent`.
    Gemini,
    /// LM Studio's OpenAI-compatible endpoint.
    LmStudio,
}

impl Provider {
    /// Every provider, in print order.
    pub const ALL: [Provider; 4] = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::LmStudio,
    ];

    /// The schema dialect the provider takes.
    pub fn dialect(self) -> Dialect {
        match self {
            Provider::OpenAi => Dialect::OpenAi,
            Provider::Anthropic => Dialect::Anthropic,
            Provider::Gemini => Dialect::Gemini,
            Provider::LmStudio => Dialect::LmStudio,
        }
    }

    /// The endpoint the body is posted to.
    pub fn endpoint(self) -> &'static str {
        match self {
            Provider::OpenAi => "POST https://api.openai.com/v1/chat/completions",
            Provider::Anthropic => "POST https://api.anthropic.com/v1/messages",
            Provider::Gemini => "POST https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
            Provider::LmStudio => "POST http://localhost:1234/v1/chat/completions",
        }
    }
}

/// Who wrote a message of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The application.
    User,
    /// The model.
    Assistant,
}

/// The request body for `provider`: the system prompt, the conversation so far, and the schema
/// (already in the provider's dialect) under the name `name`.
pub fn request_body(
    provider: Provider,
    name: &str,
    schema: &Value,
    system: &str,
    conversation: &[(Role, String)],
) -> Value {
    let chat_messages = || {
        let mut messages = vec![json!({"role": "system", "content": system})];
        for (role, text) in conversation {
            let role = match role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            messages.push(json!({"role": role, "content": text}));
        }
        messages
    };
    match provider {
        Provider::OpenAi => json!({
            "model": "gpt-4o-2024-08-06",
            "messages": chat_messages(),
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": true, "schema": schema}
            }
        }),
        Provider::Anthropic => {
            let messages: Vec<Value> = conversation
                .iter()
                .map(|(role, text)| {
                    let role = match role {
                        Role::User => "user",
                        Role::Assistant => "assistant",
                    };
                    json!({"role": role, "content": text})
                })
                .collect();
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 1024,
                "system": system,
                "messages": messages,
                "output_config": {"format": {"type": "json_schema", "schema": schema}}
            })
        }
        Provider::Gemini => {
            let contents: Vec<Value> = conversation
                .iter()
                .map(|(role, text)| {
                    let role = match role {
                        Role::User => "user",
                        Role::Assistant => "model",
                    };
                    json!({"role": role, "parts": [{"text": text}]})
                })
                .collect();
            json!({
                "systemInstruction": {"parts": [{"text": system}]},
                "contents": contents,
                "generationConfig": {
                    "responseMimeType": "application/json",
                    "responseJsonSchema": schema
                }
            })
        }
        Provider::LmStudio => json!({
            "model": "qwen2.5-7b-instruct",
            "messages": chat_messages(),
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": true, "schema": schema}
            },
            "temperature": 0
        }),
    }
}

/// The system prompt: the task and the expected type as TypeScript text (useful even with
/// server-side enforcement, and the only guide for servers without it).
pub fn system_prompt(task: &str, typescript: &str) -> String {
    format!("{task}\nReply with one JSON value of this TypeScript type:\n{typescript}")
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

const TASK: &str = "You review a research agent's failed attempt and say what went wrong.";
const USER: &str = "Question: which Rust crate has the most downloads among JSON Schema generators?\nSteps: searched once, answered \"schemars\" from a 400-day-old page.\nThe answer was rejected by the freshness evaluator.";

/// Runs the example.
pub fn main() {
    let ts = ErrorAnalysis::typescript();
    let system = system_prompt(TASK, &ts);
    let mut conversation = vec![(Role::User, USER.to_string())];

    println!("=== 1. First request for ErrorAnalysis (seed 000 §4)\n");
    let mut schemas = Vec::new();
    for p in Provider::ALL {
        match ErrorAnalysis::try_json_schema(p.dialect()) {
            Ok(schema) => {
                println!("--- {:?}: {}", p, p.endpoint());
                println!(
                    "{}\n",
                    pretty(&request_body(
                        p,
                        "error_analysis",
                        schema,
                        &system,
                        &conversation
                    ))
                );
                schemas.push((p, schema));
            }
            Err(e) => println!("--- {p:?}: cannot express the type: {e}\n"),
        }
    }

    println!(
        "=== 2. The retry loop: an invalid first reply, the feedback, the follow-up request\n"
    );
    let replies = [
        // `blame` is missing and `improvement` is too long.
        format!(
            "Here is my analysis:\n{{\"recap\": \"I searched once and answered.\", \"improvement\": \"{}\"}}",
            "Check the date. ".repeat(40)
        ),
        r#"{"recap": "I searched once and answered from the first page.", "blame": "Answering from a stale page.", "improvement": "Open crates.io and quote today's number."}"#.to_string(),
    ];
    let mut next = 0;
    let result = retry::<ErrorAnalysis, std::convert::Infallible>(
        &RetryOptions::default().max_attempts(3),
        |feedback| {
            if let Some(feedback) = feedback {
                // The previous reply and the feedback become the next two messages.
                conversation.push((Role::Assistant, replies[next - 1].clone()));
                conversation.push((Role::User, feedback.to_string()));
                println!("feedback sent back:\n{feedback}\n");
                for (p, schema) in &schemas {
                    let body = request_body(*p, "error_analysis", schema, &system, &conversation);
                    let tail = match p {
                        Provider::Gemini => body["contents"].clone(),
                        Provider::Anthropic => body["messages"].clone(),
                        _ => body["messages"]
                            .as_array()
                            .map(|m| Value::Array(m[1..].to_vec()))
                            .unwrap_or_default(),
                    };
                    println!(
                        "--- {p:?} follow-up: the same body, with these messages{}\n{}\n",
                        if matches!(p, Provider::OpenAi | Provider::LmStudio) {
                            " (after the system message)"
                        } else {
                            ""
                        },
                        pretty(&tail)
                    );
                }
            }
            let reply = replies[next.min(replies.len() - 1)].clone();
            next += 1;
            println!("model reply #{next}: {reply}\n");
            Ok(reply)
        },
    );
    match result {
        Ok(done) => println!(
            "OK after {} replies: blame = {:?}\n",
            done.attempts, done.value.blame
        ),
        Err(e) => println!("gave up: {e}\n"),
    }

    println!("=== 3. UniversalResponse (seed 004): a free-form map under strict dialects\n");
    let ur_ts = UniversalResponse::typescript();
    let ur_system = system_prompt("You are a helpful agent.", &ur_ts);
    let ur_conversation = vec![(
        Role::User,
        "Plan the migration of our users table.".to_string(),
    )];
    for p in Provider::ALL {
        let d = p.dialect();
        let schema = match UniversalResponse::try_json_schema(d).cloned() {
            Ok(s) => s,
            Err(e) => {
                println!("--- {p:?}: {e}");
                match UniversalResponse::json_schema_report(
                    d,
                    &DialectOptions::default().close_maps(true),
                ) {
                    Ok(out) => {
                        println!(
                            "with close_maps(true), {} changes; the map ones:",
                            out.changes.len()
                        );
                        for c in out.changes.iter().filter(|c| {
                            c.to_string().contains("map") || c.pointer.contains("custom_fields")
                        }) {
                            println!("  {c}");
                        }
                        out.schema
                    }
                    Err(e) => {
                        println!("still cannot express it: {e}\n");
                        continue;
                    }
                }
            }
        };
        let body = request_body(
            p,
            "universal_response",
            &schema,
            &ur_system,
            &ur_conversation,
        );
        let text = body.to_string();
        println!(
            "--- {:?}: {} ({} bytes of JSON, schema minified below)\n{}\n",
            p,
            p.endpoint(),
            text.len(),
            schema
        );
    }
}
