//! The main job: seed 004's universal agent response as a Rust enum.
//!
//! Prints its schema for LM Studio and OpenAI and its TypeScript text, then parses model replies:
//! the seed's good ones (raw, fenced, wrapped in prose) and bad ones, printing the typed value or
//! the errors and the feedback text a retry would send.
//!
//! Run: `cargo run --example universal_response`

use schema_core::convert::DialectOptions;
use schema_core::{AgentSchema, Dialect, ParseError};
use schema_suite::seed004::UniversalResponse;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn show(label: &str, reply: &str) {
    println!("--- {label}");
    match UniversalResponse::from_llm(reply) {
        Ok(value) => println!("OK: {value:?}"),
        Err(e) => {
            println!("ERROR ({}): {e}", kind(&e));
            println!("feedback for the retry:\n{}", e.feedback());
        }
    }
    println!();
}

fn kind(e: &ParseError) -> &'static str {
    match e {
        ParseError::NoJson { .. } => "no JSON",
        ParseError::Refusal { .. } => "refusal",
        ParseError::Truncated { .. } => "truncated",
        ParseError::Syntax { .. } => "syntax",
        ParseError::Invalid { .. } => "invalid",
        _ => "other",
    }
}

fn main() {
    println!("=== JSON Schema for LM Studio (server-level structured output)");
    let lm = UniversalResponse::json_schema(Dialect::LmStudio);
    println!(
        "{}\n",
        serde_json::to_string_pretty(&lm).expect("serializes")
    );

    println!("=== JSON Schema for OpenAI (response_format json_schema, strict: true)");
    // `custom_fields` is a free-form map, which OpenAI strict mode cannot express: by default that
    // is an error naming the field; `close_maps` closes it instead and says so in the changes.
    if let Err(e) = UniversalResponse::try_json_schema(Dialect::OpenAi) {
        println!("(default conversion refuses: {e})");
    }
    let options = DialectOptions::default().close_maps(true);
    match UniversalResponse::json_schema_report(Dialect::OpenAi, &options) {
        Ok(converted) => {
            let text = serde_json::to_string_pretty(&converted.schema).expect("serializes");
            println!("{text}");
            println!("changes made for OpenAI ({}):", converted.changes.len());
            for change in converted.changes.iter().take(12) {
                println!("  {change}");
            }
            if converted.changes.len() > 12 {
                println!("  ... and {} more", converted.changes.len() - 12);
            }
            println!();
        }
        Err(e) => println!("OpenAI conversion failed: {e}\n"),
    }

    println!("=== TypeScript text for the prompt");
    println!("{}\n", UniversalResponse::typescript());

    println!("=== Parsing model replies");
    let planning = fixture("seed004_response_planning.json");
    show("planning reply, raw JSON", &planning);
    show(
        "answer reply in a ```json fence",
        &format!("```json\n{}\n```", fixture("seed004_response_answer.json")),
    );
    show(
        "clarity reply after prose",
        &format!(
            "Sure! Here is my evaluation of the reply:\n\n{}\n\nLet me know if you need more.",
            fixture("seed004_response_clarity.json")
        ),
    );
    show(
        "the seed's invalid response_type",
        r#"{"response_type": "invalid_type", "status": "success", "message": "Test"}"#,
    );
    show(
        "wrong types, a bad enum value and an extra property",
        r#"{"response_type": "planning", "status": "done", "message": "Plan",
            "planning_data": {"steps": [{"step_number": "1", "action": "Create table"}]},
            "priority": "high"}"#,
    );
    show(
        "a reply cut off by the token limit",
        &planning[..planning.len() / 2],
    );
    show(
        "a refusal",
        "I'm sorry, but I can't help with that request.",
    );
    show(
        "no JSON at all",
        "The plan has five steps; first create the user table.",
    );
}
