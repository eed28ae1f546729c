//! Seed 003's flow with an MCP server's tools: `tools/list` in, tool definitions for two
//! providers out, a model's bad call answered with the error and the tool's compressed schema
//! (`exec`), a good call checked and dispatched to a typed handler. No network: the tool list is
//! `tests/fixtures/mcp/tools.json` and the model's calls are canned provider responses.
//!
//! Run: `cargo run --example tools`

use schema_core::provider::{read_response, Provider};
use schema_core::tools::ToolSet;
use serde::Deserialize;
use serde_json::{json, Value};

/// The arguments of the MCP server's `web_search` tool, as the handler wants them.
#[derive(Deserialize, Debug)]
pub struct WebSearch {
    /// The query.
    pub query: String,
    /// How many results (the server's default is 10).
    pub count: Option<u8>,
    /// `pd`, `pw`, `pm` or `py`.
    pub freshness: Option<String>,
}

/// The typed handler of `web_search`.
pub fn web_search(args: WebSearch) -> Value {
    json!({"results": [format!("{} result(s) for {:?} ({})", args.count.unwrap_or(10), args.query,
        args.freshness.as_deref().unwrap_or("any time"))]})
}

/// seed 003's `exec`: check the call, answer a bad one with the error and the compressed schema,
/// dispatch a good one to its handler.
pub fn exec(tools: &ToolSet, name: &str, arguments: &str) -> Value {
    let args = match tools.check_call_text(name, arguments) {
        Ok(args) => args,
        Err(e) => return e.feedback(),
    };
    match name {
        "web_search" => match serde_json::from_value::<WebSearch>(args) {
            Ok(a) => web_search(a),
            Err(e) => json!({"error": e.to_string()}),
        },
        other => json!({"error": format!("`{other}` is listed but not served by this example")}),
    }
}

/// The MCP `tools/list` result of `tests/fixtures/mcp/tools.json`.
pub fn fixture_tools() -> ToolSet {
    // From the root package, or from `crosscheck/` (whose tests include this file).
    let root = env!("CARGO_MANIFEST_DIR");
    let path = ["", "/.."]
        .iter()
        .map(|up| format!("{root}{up}/tests/fixtures/mcp/tools.json"))
        .find(|p| std::path::Path::new(p).exists())
        .expect("tests/fixtures/mcp/tools.json");
    let list: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    ToolSet::from_mcp_list(&list).expect("a tools/list result")
}

/// Runs the example.
pub fn main() {
    let tools = fixture_tools();
    println!("=== tools/list: {}\n", tools.names().join(", "));

    for p in [Provider::OpenAiChat, Provider::Anthropic] {
        let defs = tools.definitions(p);
        println!(
            "--- {p}: {} tools sent ({} bytes), {} left out",
            defs.reports.len(),
            defs.tools.to_string().len(),
            defs.left_out.len()
        );
        for r in &defs.reports {
            println!("  {}: {} change(s)", r.name, r.changes.len());
        }
        for (name, why) in &defs.left_out {
            println!("  left out {name}: {why}");
        }
    }

    println!(
        "\n=== inspect(\"web_search\")\n{}\n",
        tools.inspect("web_search").unwrap_or_default()
    );

    // The model's first call: an empty query and a count over the maximum.
    let bad = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "web_search",
         "arguments": "{\"query\": \"\", \"count\": 50, \"freshness\": null}"}}]},
        "finish_reason": "tool_calls"}]});
    // After reading the answer, the model calls again, correctly.
    let good = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_2", "type": "function", "function": {"name": "web_search",
         "arguments": "{\"query\": \"rust json schema\", \"count\": 5, \"freshness\": \"pm\", \"result_filter\": null}"}}]},
        "finish_reason": "tool_calls"}]});
    for body in [bad, good] {
        let reply = read_response(Provider::OpenAiChat, &body).expect("a chat response");
        for call in reply.tool_calls {
            let answer = exec(&tools, &call.name, &call.arguments);
            println!(
                "{}({}) ->\n{}\n",
                call.name,
                call.arguments,
                serde_json::to_string_pretty(&answer).unwrap_or_default()
            );
        }
    }
}
