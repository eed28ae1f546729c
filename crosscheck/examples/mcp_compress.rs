//! Seed 003: compress MCP tool schemas into TypeScript text, and return that text with the error
//! when a tool call's arguments are invalid (the seed's `exec` tool).
//!
//! Reads any JSON Schema at run time: a file given as the argument (an MCP `tools/list` result
//! `{"tools": [...]}`, one tool `{name, inputSchema}`, or a bare schema), else a built-in sample of
//! five realistic MCP tools (`tests/fixtures/mcp/tools.json`). For each tool it prints the
//! TypeScript text and the token counts (o200k_base) of the minified JSON Schema, the
//! pretty-printed one and the text. Then it simulates `exec`: arguments are checked with
//! `Validator::new(&input_schema)`, and a failure returns
//! `{"error": "...", "tool_schema": "<TypeScript text>"}`.
//!
//! Run: `cargo run --example mcp_compress [-- FILE] [-- --brief]` (`--brief` cuts descriptions to
//! 50 characters, seed 003's convenience-function default).

use schema_core::convert::{to_typescript, TsOptions};
use schema_core::validate::Validator;
use serde_json::{json, Value};
use std::process::ExitCode;

/// The built-in sample: an MCP `tools/list` result.
pub const SAMPLE_TOOLS: &str = include_str!("../../tests/fixtures/mcp/tools.json");

/// One MCP tool: its name, description and `inputSchema`.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The tool name.
    pub name: String,
    /// The tool's description, if any.
    pub description: Option<String>,
    /// The JSON Schema of the tool's arguments.
    pub input_schema: Value,
}

/// The tools in `text`: an MCP `tools/list` result (bare or inside a JSON-RPC `result`), an array
/// of tools, one tool, or a bare JSON Schema (named `schema`).
pub fn load_tools(text: &str) -> Result<Vec<Tool>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let list = value
        .get("result")
        .and_then(|r| r.get("tools"))
        .or_else(|| value.get("tools"))
        .unwrap_or(&value);
    let items: Vec<&Value> = match list {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let mut tools = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let schema = item.get("inputSchema").or_else(|| item.get("input_schema"));
        let tool = match schema {
            Some(schema) => Tool {
                name: item
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("tool_{i}"), str::to_string),
                description: item
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                input_schema: schema.clone(),
            },
            None if item.is_object() || item.is_boolean() => Tool {
                name: "schema".into(),
                description: None,
                input_schema: item.clone(),
            },
            None => return Err(format!("item {i} is neither a tool nor a schema")),
        };
        tools.push(tool);
    }
    Ok(tools)
}

/// Seed 003's `_maybe_compress_schema`: the TypeScript text of a schema, or the minified JSON
/// when it cannot be converted (so the model always gets the schema in some form).
pub fn compress(schema: &Value, options: &TsOptions) -> String {
    to_typescript(schema, options).unwrap_or_else(|_| schema.to_string())
}

/// Seed 003's `exec`: validates `arguments` against the tool's `inputSchema`. On success the
/// tool would run (here: `{"ok": true, ...}`); on failure the result carries the errors and the
/// compressed schema, so the model can fix its call without another `inspect`.
pub fn exec(tool: &Tool, arguments: &Value, options: &TsOptions) -> Value {
    let validator = match Validator::new(&tool.input_schema) {
        Ok(v) => v,
        Err(e) => {
            return json!({
                "error": format!("the input schema of {} cannot be used: {e}", tool.name),
            })
        }
    };
    match validator.validate(arguments) {
        Ok(()) => json!({"ok": true, "tool": tool.name, "arguments": arguments}),
        Err(errors) => {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            json!({
                "error": format!("invalid arguments for {}: {}", tool.name, list.join("; ")),
                "tool_schema": compress(&tool.input_schema, options),
            })
        }
    }
}

/// Canned calls for the built-in tools: (tool name, arguments).
pub fn sample_calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "read_file",
            json!({"path": "/srv/app/config.toml", "tail": 20}),
        ),
        (
            "read_file",
            json!({"file": "/srv/app/config.toml", "tail": 0}),
        ),
        (
            "create_issue",
            json!({"owner": "octo", "repo": "demo", "title": "", "assignees": ["bad name!"], "milestone": "v2"}),
        ),
        (
            "web_search",
            json!({"query": "rust json schema", "freshness": "last week", "count": 50}),
        ),
        (
            "query_database",
            json!({"table": "events", "columns": ["id"], "where": [{"column": "kind", "op": "~", "value": {"x": 1}}], "order_by": {"column": "ts", "direction": "down"}}),
        ),
        (
            "create_event",
            json!({"summary": "Review", "start": {"dateTime": "2026-11-23T10:00:00Z"}, "end": {"dateTime": "tomorrow"},
                   "attendees": [{"email": "not-an-email"}], "reminders": {"overrides": [{"method": "sms", "minutes": 10}]}}),
        ),
    ]
}

/// Token counts of one tool's schema: minified JSON, pretty JSON, TypeScript text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Minified JSON Schema.
    pub minified: usize,
    /// Pretty-printed JSON Schema.
    pub pretty: usize,
    /// TypeScript text.
    pub typescript: usize,
}

/// Percentage of tokens saved by `ours` over `theirs`.
pub fn saving(ours: usize, theirs: usize) -> f64 {
    if theirs == 0 {
        0.0
    } else {
        100.0 * (1.0 - ours as f64 / theirs as f64)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    run(&args)
}

/// The whole example: `args` are the command-line arguments after the program name.
pub fn run(args: &[String]) -> ExitCode {
    let options = if args.iter().any(|a| a == "--brief") {
        TsOptions::brief()
    } else {
        TsOptions::default()
    };
    let file = args.iter().find(|a| !a.starts_with("--"));
    let (source, text) = match file {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => (path.to_string(), t),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => (
            "built-in sample (tests/fixtures/mcp/tools.json)".to_string(),
            SAMPLE_TOOLS.to_string(),
        ),
    };
    let tools = match load_tools(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{source}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Loaded once per process (the test suite runs this function several times).
    let bpe = tiktoken_rs::o200k_base_singleton();
    let count = |s: &str| bpe.encode_with_special_tokens(s).len();

    println!("=== Tool schemas from {source}");
    match options.max_description_len {
        Some(n) => println!("(descriptions cut to {n} characters)\n"),
        None => println!("(descriptions whole)\n"),
    }
    let mut rows = Vec::new();
    for tool in &tools {
        println!("--- {}", tool.name);
        if let Some(d) = &tool.description {
            println!("{d}");
        }
        match to_typescript(&tool.input_schema, &options) {
            Ok(ts) => {
                let c = Counts {
                    minified: count(&tool.input_schema.to_string()),
                    pretty: count(
                        &serde_json::to_string_pretty(&tool.input_schema).unwrap_or_default(),
                    ),
                    typescript: count(&ts),
                };
                println!("{ts}");
                println!(
                    "tokens: JSON {} minified / {} pretty -> TypeScript {} ({:.0}% / {:.0}% fewer)\n",
                    c.minified,
                    c.pretty,
                    c.typescript,
                    saving(c.typescript, c.minified),
                    saving(c.typescript, c.pretty)
                );
                rows.push((tool.name.clone(), c));
            }
            Err(e) => println!("cannot convert: {e}\n"),
        }
    }

    println!("=== Token savings (o200k_base)");
    println!(
        "{:<20} {:>9} {:>9} {:>11} {:>9}",
        "tool", "minified", "pretty", "typescript", "saving"
    );
    let mut total = Counts::default();
    for (name, c) in &rows {
        println!(
            "{:<20} {:>9} {:>9} {:>11} {:>8.0}%",
            name,
            c.minified,
            c.pretty,
            c.typescript,
            saving(c.typescript, c.minified)
        );
        total.minified += c.minified;
        total.pretty += c.pretty;
        total.typescript += c.typescript;
    }
    println!(
        "{:<20} {:>9} {:>9} {:>11} {:>8.0}%  ({:.0}% fewer than pretty JSON; seed 003 target: >= 60%)\n",
        "total",
        total.minified,
        total.pretty,
        total.typescript,
        saving(total.typescript, total.minified),
        saving(total.typescript, total.pretty)
    );

    println!("=== exec: tool calls checked against inputSchema");
    let calls: Vec<(String, Value)> = if file.is_some() {
        // For any file: an empty call, which fails wherever a property is required.
        tools.iter().map(|t| (t.name.clone(), json!({}))).collect()
    } else {
        sample_calls()
            .into_iter()
            .map(|(n, a)| (n.to_string(), a))
            .collect()
    };
    for (name, arguments) in calls {
        let Some(tool) = tools.iter().find(|t| t.name == name) else {
            println!("--- {name}: no such tool\n");
            continue;
        };
        println!("--- {name}({arguments})");
        let result = exec(tool, &arguments, &options);
        println!(
            "{}\n",
            serde_json::to_string_pretty(&result).unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}
