//! The main job, as a short story: seed 004's universal agent response as a Rust enum, what each
//! model server's dialect had to change in its schema, the TypeScript text for the prompt, and
//! what happens to good and bad model replies.
//!
//! Run: `cargo run --example universal_response` (add `-- --full` to print every schema in full).

use schema_core::convert::{Change, DialectOptions};
use schema_core::{AgentSchema, Dialect, ParseError};
use schema_suite::seed004::UniversalResponse;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn main() {
    let full = std::env::args().any(|a| a == "--full");

    println!(
        "1. The type: `UniversalResponse` (src/seed004.rs), an enum tagged by `response_type`"
    );
    println!("   with 7 variants, each carrying its own optional `*_data` section.\n");

    println!("2. What each dialect changed (the schema is computed once per dialect, then free):");
    // `custom_fields` is a free-form map, which strict dialects cannot express: by default that is
    // an error naming the field; `close_maps` closes the map instead and reports it.
    let close_maps = DialectOptions::default().close_maps(true);
    for d in [
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LmStudio,
    ] {
        let (note, report) = match UniversalResponse::try_json_schema(d) {
            Ok(_) => (
                "",
                UniversalResponse::json_schema_report(d, &DialectOptions::default()),
            ),
            Err(e) => {
                println!("   {d}: as written, refused: {e}");
                (
                    "with close_maps: ",
                    UniversalResponse::json_schema_report(d, &close_maps),
                )
            }
        };
        match report {
            Ok(out) => {
                println!("   {d}: {note}{}", summary(&out.changes));
                if full {
                    let text = serde_json::to_string_pretty(&out.schema).expect("serializes");
                    println!("{text}\n");
                }
            }
            Err(e) => println!("   {d}: {note}cannot express it: {e}"),
        }
    }
    if !full {
        println!("   (`--full` prints each schema)");
    }

    println!("\n3. The TypeScript text for the prompt:");
    println!("{}\n", UniversalResponse::typescript());

    println!("4. Model replies through `UniversalResponse::from_llm`:");
    let planning = fixture("seed004_response_planning.json");
    let replies = [
        ("planning reply, raw JSON", planning.clone()),
        (
            "answer reply in a ```json fence",
            format!("```json\n{}\n```", fixture("seed004_response_answer.json")),
        ),
        (
            "clarity reply after prose",
            format!(
                "Sure! Here it is:\n\n{}",
                fixture("seed004_response_clarity.json")
            ),
        ),
        (
            "wrong types, a bad enum value, an extra property",
            r#"{"response_type": "planning", "status": "done", "message": "Plan",
                "planning_data": {"steps": [{"step_number": "1", "action": "Create table"}]},
                "priority": "high"}"#
                .to_string(),
        ),
        (
            "cut off by the token limit",
            planning[..planning.len() / 2].to_string(),
        ),
        (
            "a refusal",
            "I'm sorry, but I can't help with that request.".to_string(),
        ),
    ];
    for (label, reply) in &replies {
        match UniversalResponse::from_llm(reply) {
            Ok(value) => println!("   OK    {label}: UniversalResponse::{}", variant(&value)),
            Err(e) => {
                println!("   ERROR {label}: {}", kind(&e));
                for line in e.feedback().lines() {
                    println!("         | {line}");
                }
            }
        }
    }
}

/// The changes of one conversion, counted by kind: "12x made nullable; ...".
fn summary(changes: &[Change]) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for c in changes {
        let k = c.kind.to_string();
        match kinds.iter_mut().find(|(x, _)| *x == k) {
            Some((_, n)) => *n += 1,
            None => kinds.push((k, 1)),
        }
    }
    if kinds.is_empty() {
        return "no change needed".into();
    }
    let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n}x {k}")).collect();
    format!("{} changes: {}", changes.len(), parts.join("; "))
}

/// The variant's name, from its `Debug` text.
fn variant(v: &UniversalResponse) -> String {
    let debug = format!("{v:?}");
    debug
        .split([' ', '(', '{'])
        .next()
        .unwrap_or_default()
        .to_string()
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
