//! The Rust half of `scripts/e2e-llama.sh` (opt-in, not run in CI): writes every seed type's
//! `Dialect::LlamaCpp` schema and TypeScript prompt text into a directory, and later reads the
//! replies a real llama.cpp server wrote there with `from_llm`, printing valid/total and each
//! failure.
//!
//! Run: `cargo run --example llama_e2e -- schemas DIR` then `... -- check DIR`. Without
//! arguments it lists the types and exits. `schemas DIR --one-object` writes instead each type's
//! `Dialect::JsonSchema` schema converted to `Dialect::LlamaCpp`, in which a flattened tagged
//! enum (`AgentStep`'s action) is one object, as llama.cpp got it before flattened enums were
//! kept as alternatives there: the before/after comparison.

use schema_core::{convert, AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde_json::json;
use std::path::Path;

/// One seed type: its name, its schema and prompt text, and a function that parses a reply.
struct Case {
    name: &'static str,
    schema: fn() -> serde_json::Value,
    one_object: fn() -> serde_json::Value,
    prompt: fn() -> String,
    parse: fn(&str) -> Result<(), String>,
}

macro_rules! cases {
    ($($t:ty),* $(,)?) => {
        vec![$(Case {
            name: stringify!($t),
            schema: || <$t>::json_schema(Dialect::LlamaCpp).clone(),
            one_object: || {
                convert::to_dialect(<$t>::json_schema(Dialect::JsonSchema), Dialect::LlamaCpp)
                    .expect("converts")
            },
            prompt: <$t>::typescript,
            parse: |text| <$t>::from_llm(text).map(|_| ()).map_err(|e| e.to_string()),
        }),*]
    };
}

fn cases() -> Vec<Case> {
    cases!(
        Language,
        QuestionEvaluate,
        CodeGenerator,
        ErrorAnalysis,
        ResearchPlan,
        SerpCluster,
        QueryRewriter,
        Evaluation,
        FreshnessAnalysis,
        PluralityAnalysis,
        CompletenessAnalysis,
        AgentStep,
        UniversalResponse
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("schemas"), Some(dir)) => {
            let one_object = args.get(2).is_some_and(|a| a == "--one-object");
            std::fs::create_dir_all(dir).expect("create the directory");
            for c in cases() {
                let file = Path::new(dir).join(format!("{}.json", c.name));
                let schema = if one_object {
                    (c.one_object)()
                } else {
                    (c.schema)()
                };
                let body = json!({"name": c.name, "schema": schema, "prompt": (c.prompt)()});
                std::fs::write(&file, serde_json::to_string_pretty(&body).unwrap())
                    .expect("write the schema");
            }
            println!("{} schemas written to {dir}", cases().len());
        }
        (Some("check"), Some(dir)) => {
            let (mut valid, mut total) = (0, 0);
            for c in cases() {
                let file = Path::new(dir).join(format!("{}.reply.txt", c.name));
                let Ok(text) = std::fs::read_to_string(&file) else {
                    println!("{}: no reply", c.name);
                    continue;
                };
                total += 1;
                match (c.parse)(&text) {
                    Ok(()) => valid += 1,
                    Err(e) => println!("{}: {e}", c.name),
                }
            }
            println!("valid: {valid}/{total}");
        }
        _ => {
            println!("usage: llama_e2e schemas DIR [--one-object] | check DIR; the types:");
            for c in cases() {
                println!("  {}", c.name);
            }
        }
    }
}
