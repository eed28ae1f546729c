//! The request bodies that ask each model server for structured output and offer tools, built
//! from derived types, and a retry loop over canned response bodies. No network: the bodies are
//! printed, and the model's responses are canned.
//!
//! The library writes the provider parts (`output_format`, `tool_definitions`) and reads the
//! response envelopes (`Answer::from_response`, `tool_calls_from_response`); what is left here is
//! the conversation: how each API spells its messages.
//!
//! Run: `cargo run --example request_body`

use schema_core::convert::DialectOptions;
use schema_core::provider::{format_part, merge_into, output_format, Provider};
use schema_core::retry::{retry, Answer, RetryOptions};
use schema_core::tools::check_request;
use schema_core::AgentSchema;
use schema_suite::seed000::ErrorAnalysis;
use schema_suite::seed004::UniversalResponse;
use schema_suite::tools::AgentTool;
use serde_json::{json, Value};

/// The conversation so far as `provider` spells it, with the system prompt.
pub fn conversation_body(provider: Provider, system: &str, turns: &[(bool, String)]) -> Value {
    let role = |user: bool, model: &'static str| if user { "user" } else { model };
    match provider {
        Provider::Anthropic => json!({
            "model": "claude-sonnet-4-5", "max_tokens": 1024, "system": system,
            "messages": turns.iter().map(|(u, t)| json!({"role": role(*u, "assistant"), "content": t})).collect::<Vec<_>>()
        }),
        Provider::Gemini => json!({
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": turns.iter().map(|(u, t)| json!({"role": role(*u, "model"), "parts": [{"text": t}]})).collect::<Vec<_>>()
        }),
        Provider::OpenAiResponses => json!({
            "model": "gpt-4.1", "instructions": system,
            "input": turns.iter().map(|(u, t)| json!({"role": role(*u, "assistant"), "content": t})).collect::<Vec<_>>()
        }),
        _ => {
            let mut messages = vec![json!({"role": "system", "content": system})];
            messages.extend(
                turns
                    .iter()
                    .map(|(u, t)| json!({"role": role(*u, "assistant"), "content": t})),
            );
            let model = match provider {
                Provider::LmStudio => "qwen2.5-7b-instruct",
                Provider::Ollama => "llama3.2",
                _ => "gpt-4.1",
            };
            json!({"model": model, "messages": messages})
        }
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

const TASK: &str = "You review a research agent's failed attempt and say what went wrong.";
const USER: &str = "Question: which Rust crate has the most downloads among JSON Schema generators?\nSteps: searched once, answered \"schemars\" from a 400-day-old page.";

/// A canned OpenAI Chat response body holding `text`.
fn chat_response(text: &str, finish: &str) -> Value {
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text, "refusal": null}, "finish_reason": finish}],
           "usage": {"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180}})
}

/// Runs the example.
pub fn main() {
    let system = format!(
        "{TASK}\nReply with one JSON value of this TypeScript type:\n{}",
        ErrorAnalysis::typescript()
    );
    let mut turns = vec![(true, USER.to_string())];

    println!("=== 1. ErrorAnalysis (seed 000 §4) for every provider\n");
    for p in Provider::ALL {
        let mut body = conversation_body(p, &system, &turns);
        match output_format::<ErrorAnalysis>(p) {
            Ok(part) => merge_into(&mut body, part),
            Err(e) => println!("{p}: cannot express the type: {e}"),
        }
        println!("--- {p}\n{}\n", pretty(&body));
    }

    println!("=== 2. Retry over response bodies: a cut reply, an invalid one, a valid one\n");
    let responses = [
        // Cut by max_tokens: braces close, but the provider says the reply is incomplete.
        chat_response(
            r#"{"recap": "I searched once.", "blame": "Stale page.", "improvement": "Check"}"#,
            "length",
        ),
        // `blame` is missing.
        chat_response(
            r#"{"recap": "I searched once and answered.", "improvement": "Check the date."}"#,
            "stop",
        ),
        chat_response(
            r#"{"recap": "I searched once and answered from the first page.", "blame": "Answering from a stale page.", "improvement": "Open crates.io and quote today's number."}"#,
            "stop",
        ),
    ];
    let mut next = 0;
    let result = retry::<ErrorAnalysis, std::convert::Infallible, _>(
        &RetryOptions::new().max_attempts(4),
        |previous| {
            if let Some(p) = previous {
                // The model's own reply and the feedback become the next two turns.
                turns.push((false, p.reply.clone()));
                turns.push((true, p.feedback.clone()));
                println!(
                    "attempt {} failed: {}\nfeedback: {}\n",
                    p.number, p.error, p.feedback
                );
            }
            let mut body = conversation_body(Provider::OpenAiChat, &system, &turns);
            merge_into(
                &mut body,
                output_format::<ErrorAnalysis>(Provider::OpenAiChat).unwrap(),
            );
            // Here the application posts `body`; the canned response stands for the answer.
            let response = &responses[next.min(responses.len() - 1)];
            next += 1;
            Ok(Answer::from_response(Provider::OpenAiChat, response))
        },
    );
    match result {
        Ok(done) => println!(
            "OK after {} responses: blame = {:?}\n",
            done.attempts, done.value.blame
        ),
        Err(e) => println!("gave up: {e}\n"),
    }

    println!("=== 3. Tools from a #[schema(tools)] enum with the response format, per provider\n");
    for p in [Provider::OpenAiChat, Provider::Anthropic, Provider::Gemini] {
        let mut body = conversation_body(
            p,
            "You are a coding agent.",
            &[(true, "Fix the failing test.".into())],
        );
        let tools = AgentTool::tool_definitions(p).expect("every provider takes these tools");
        merge_into(&mut body, json!({ "tools": tools }));
        merge_into(&mut body, output_format::<ErrorAnalysis>(p).unwrap());
        // The per-request limits, counted over the tools and the response format together.
        if let Err(e) = check_request(p, &body) {
            println!("--- {p}: over a per-request limit: {e}");
        }
        println!(
            "--- {p}: {} bytes, tools: {}",
            body.to_string().len(),
            body["tools"].to_string().len()
        );
    }
    let call = json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "run_command",
                                   "input": {"command": "cargo test -q"}}], "stop_reason": "tool_use"});
    for (id, tool) in AgentTool::tool_calls_from_response(Provider::Anthropic, &call).unwrap() {
        println!("Anthropic asked for {id}: {tool:?}\n");
    }

    println!("=== 4. UniversalResponse (seed 004): a free-form map under strict dialects\n");
    for p in Provider::ALL {
        let part = output_format::<UniversalResponse>(p).or_else(|e| {
            println!("--- {p}: {e}");
            let out = UniversalResponse::json_schema_report(
                p.dialect(),
                &DialectOptions::default().close_maps(true),
            )?;
            println!("    with close_maps(true): {} changes", out.changes.len());
            Ok::<_, schema_core::convert::ConvertError>(format_part(
                p,
                "UniversalResponse",
                out.schema,
            ))
        });
        match part {
            Ok(part) => println!("--- {p}: {} bytes of request part", part.to_string().len()),
            Err(e) => println!("    still cannot express it: {e}"),
        }
    }
}
