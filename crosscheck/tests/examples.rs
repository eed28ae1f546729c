//! The examples' core logic, checked: each example file is included as a module, its helpers are
//! tested on the canned inputs, and each whole example runs without panicking.

#[allow(dead_code)]
#[path = "../../examples/deep_research.rs"]
mod deep_research;
#[allow(dead_code)]
#[path = "../examples/mcp_compress.rs"]
mod mcp_compress;
#[allow(dead_code)]
#[path = "../../examples/request_body.rs"]
mod request_body;
#[allow(dead_code)]
#[path = "../../examples/search_results.rs"]
mod search_results;
#[allow(dead_code)]
#[path = "../../examples/tools.rs"]
mod tools_example;

use schema_core::convert::{to_typescript, TsOptions};
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::{AgentAction, ErrorAnalysis};
use schema_suite::seed002::{GrokReply, SearchOutput, HTTP_URL_PATTERN};
use serde_json::{json, Value};
use std::process::ExitCode;

#[test]
fn every_example_runs_on_its_canned_inputs() {
    deep_research::run(false);
    search_results::main();
    request_body::main();
    tools_example::main();
    assert_eq!(mcp_compress::run(&[]), ExitCode::SUCCESS);
    assert_eq!(
        mcp_compress::run(&["--brief".to_string()]),
        ExitCode::SUCCESS
    );
    // A file argument: a bare schema, and a file that does not exist.
    let dir = std::env::temp_dir().join(format!("mcp_compress_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("schema.json");
    std::fs::write(
        &file,
        r#"{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}"#,
    )
    .unwrap();
    assert_eq!(
        mcp_compress::run(&[file.to_string_lossy().into_owned()]),
        ExitCode::SUCCESS
    );
    assert_eq!(
        mcp_compress::run(&[dir.join("missing.json").to_string_lossy().into_owned()]),
        ExitCode::FAILURE
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---- deep_research

const ALL_BUT_CODING: deep_research::Allowed = deep_research::Allowed {
    search: true,
    coding: false,
    answer: true,
    reflect: true,
    read: true,
};

#[test]
fn agent_schema_follows_the_allow_flags_and_carries_the_question() {
    let q = "Who maintains serde?";
    let view = deep_research::agent_schema(ALL_BUT_CODING, q).unwrap();
    let schema = view.json_schema(Dialect::JsonSchema).unwrap();
    assert_eq!(
        schema["properties"]["action"]["enum"],
        json!(["search", "answer", "reflect", "visit"])
    );
    let desc = schema["properties"]["answer"]["properties"]["answer"]["description"]
        .as_str()
        .unwrap();
    assert!(desc.contains(q), "{desc}");
    assert!(view.typescript().unwrap().contains(q));

    // After a failed answer: answering is forbidden, so the question has nowhere to go.
    let no_answer = deep_research::Allowed {
        answer: false,
        ..ALL_BUT_CODING
    };
    let view = deep_research::agent_schema(no_answer, q).unwrap();
    let ts = view.typescript().unwrap();
    assert!(!ts.contains("\"answer\""), "{ts}");
    let reply = r#"{"think": "sure", "action": "answer", "answer": {"answer": "dtolnay"}}"#;
    let err = view.from_llm(reply).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/action"]);
    assert!(err
        .feedback()
        .contains("\"search\", \"reflect\", \"visit\""));
    let ok = view
        .from_llm(r#"{"think": "t", "action": "visit", "visit": {"URLTargets": [2]}}"#)
        .unwrap();
    assert!(matches!(ok.action, AgentAction::Visit { .. }));

    // No action at all cannot be narrowed to.
    let none = deep_research::Allowed {
        search: false,
        coding: false,
        answer: false,
        reflect: false,
        read: false,
    };
    assert!(deep_research::agent_schema(none, q).is_err());
}

#[test]
fn research_plan_size_and_evaluator_type_come_from_variables() {
    for team in 1..=4u64 {
        let view = deep_research::research_plan_schema(team).unwrap();
        for n in [team - 1, team, team + 1] {
            let subs: Vec<String> = (0..n).map(|i| format!("plan {i}")).collect();
            let reply = json!({"think": "t", "subproblems": subs}).to_string();
            assert_eq!(view.from_llm(&reply).is_ok(), n == team, "team {team}, {n}");
        }
    }
    let view = deep_research::evaluator_schema("freshness").unwrap();
    let fresh = r#"{"type": "freshness", "think": "old", "freshness_analysis": {"days_ago": 400, "max_age_days": 30}, "pass": false}"#;
    assert!(view.from_llm(fresh).is_ok());
    let definitive = r#"{"type": "definitive", "think": "ok", "pass": true}"#;
    let err = view.from_llm(definitive).unwrap_err();
    assert!(err.validation_errors().is_some(), "{err}");
    assert!(deep_research::evaluator_schema("vibes").is_err());
}

// ---- mcp_compress

fn sample_tools() -> Vec<mcp_compress::Tool> {
    mcp_compress::load_tools(mcp_compress::SAMPLE_TOOLS).unwrap()
}

#[test]
fn the_sample_holds_five_tools_that_all_compress() {
    let tools = sample_tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "create_issue",
            "web_search",
            "query_database",
            "create_event"
        ]
    );
    for t in &tools {
        let ts = to_typescript(&t.input_schema, &TsOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        assert!(ts.starts_with('{') && ts.ends_with('}'), "{}: {ts}", t.name);
    }
    // seed 003 §2.2: the read_file example.
    assert_eq!(
        mcp_compress::compress(&tools[0].input_schema, &TsOptions::default()),
        "{path: string /* Path of the file to read */; tail?: number /* If provided, returns only the last N lines of the file; int >=1 */; head?: number /* If provided, returns only the first N lines of the file; int >=1 */}"
    );
    // $defs are resolved: the Condition and OrderBy definitions appear inline.
    let db = mcp_compress::compress(&tools[3].input_schema, &TsOptions::default());
    assert!(
        db.contains(r#"op: ["=","!=","<","<=",">",">=","like","in"][number]"#),
        "{db}"
    );
    assert!(db.contains(r#"direction?: "asc"|"desc""#), "{db}");
    assert!(!db.contains("$ref"), "{db}");
}

#[test]
fn load_tools_reads_every_input_form() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let bare = mcp_compress::load_tools(&schema.to_string()).unwrap();
    assert_eq!((bare.len(), bare[0].name.as_str()), (1, "schema"));
    assert_eq!(bare[0].input_schema, schema);
    let one = json!({"name": "t", "input_schema": schema});
    assert_eq!(
        mcp_compress::load_tools(&one.to_string()).unwrap()[0].name,
        "t"
    );
    let rpc = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "u", "inputSchema": schema}]}});
    assert_eq!(
        mcp_compress::load_tools(&rpc.to_string()).unwrap()[0].name,
        "u"
    );
    assert!(mcp_compress::load_tools("not json").is_err());
    assert!(mcp_compress::load_tools("[1, 2]").is_err());
}

#[test]
fn exec_returns_the_error_with_the_compressed_schema() {
    let tools = sample_tools();
    let opts = TsOptions::default();
    let mut failures = 0;
    for (name, args) in mcp_compress::sample_calls() {
        let tool = tools.iter().find(|t| t.name == name).expect(name);
        let out = mcp_compress::exec(tool, &args, &opts);
        if out.get("ok") == Some(&Value::Bool(true)) {
            assert_eq!(out["arguments"], args);
            continue;
        }
        failures += 1;
        let error = out["error"].as_str().expect("an error text");
        assert!(
            error.starts_with(&format!("invalid arguments for {name}: /")),
            "{error}"
        );
        assert_eq!(
            out["tool_schema"],
            to_typescript(&tool.input_schema, &opts).unwrap()
        );
    }
    assert_eq!(failures, 5, "every sample call but the first is invalid");

    // The exact errors of one call.
    let out = mcp_compress::exec(
        &tools[0],
        &json!({"file": "/x", "tail": 0}),
        &TsOptions::brief(),
    );
    let error = out["error"].as_str().unwrap();
    for needle in [
        "/file: ",
        "/tail: expected a number >= 1, found 0",
        "/path: ",
    ] {
        assert!(error.contains(needle), "{needle} in {error}");
    }
}

#[test]
fn typescript_costs_fewer_tokens_than_the_json_schema() {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let count = |s: &str| bpe.encode_with_special_tokens(s).len();
    let (mut ts_total, mut pretty_total) = (0, 0);
    for t in sample_tools() {
        let ts = count(&mcp_compress::compress(
            &t.input_schema,
            &TsOptions::default(),
        ));
        let minified = count(&t.input_schema.to_string());
        let pretty = count(&serde_json::to_string_pretty(&t.input_schema).unwrap());
        assert!(ts < minified, "{}: {ts} >= {minified}", t.name);
        ts_total += ts;
        pretty_total += pretty;
    }
    // seed 003's target (>= 60%), measured against pretty-printed JSON as in its §2.2.
    let saving = mcp_compress::saving(ts_total, pretty_total);
    assert!(saving >= 60.0, "{saving:.1}%");
}

// ---- request_body

#[test]
fn request_bodies_have_each_providers_shape() {
    use request_body::conversation_body;
    use schema_core::provider::{merge_into, output_format, Provider};
    let conv = vec![
        (true, "q".to_string()),
        (false, "{}".to_string()),
        (true, "fix it".to_string()),
    ];
    for p in Provider::ALL {
        let schema = ErrorAnalysis::json_schema(p.dialect());
        let mut b = conversation_body(p, "sys", &conv);
        merge_into(&mut b, output_format::<ErrorAnalysis>(p).unwrap());
        match p {
            Provider::OpenAiChat | Provider::LmStudio | Provider::Ollama => {
                if p == Provider::Ollama {
                    assert_eq!(b["format"], *schema);
                } else {
                    let rf = &b["response_format"];
                    assert_eq!(rf["type"], "json_schema");
                    assert_eq!(rf["json_schema"]["name"], "ErrorAnalysis");
                    assert_eq!(rf["json_schema"]["strict"], true);
                    assert_eq!(rf["json_schema"]["schema"], *schema);
                }
                let roles: Vec<&str> = b["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["role"].as_str().unwrap())
                    .collect();
                assert_eq!(roles, ["system", "user", "assistant", "user"]);
            }
            Provider::OpenAiResponses => {
                let f = &b["text"]["format"];
                assert_eq!(f["strict"], true);
                assert_eq!(f["schema"], *schema);
                assert_eq!(b["instructions"], "sys");
                assert_eq!(b["input"][1]["role"], "assistant");
            }
            Provider::Anthropic => {
                assert_eq!(
                    b["output_config"],
                    json!({"format": {"type": "json_schema", "schema": schema}})
                );
                assert_eq!(b["system"], "sys");
                assert_eq!(b["messages"][1]["role"], "assistant");
                assert!(b["max_tokens"].as_u64().is_some());
            }
            Provider::Gemini => {
                assert_eq!(
                    b["generationConfig"]["responseMimeType"],
                    "application/json"
                );
                assert_eq!(b["generationConfig"]["responseJsonSchema"], *schema);
                assert_eq!(b["contents"][1]["role"], "model");
                assert_eq!(b["contents"][2]["parts"][0]["text"], "fix it");
            }
            other => panic!("untested provider {other}"),
        }
    }
}

// ---- tools (seed 003's exec)

#[test]
fn exec_answers_bad_calls_and_dispatches_good_ones() {
    let tools = tools_example::fixture_tools();
    let bad = tools_example::exec(&tools, "web_search", r#"{"query": "", "count": 50}"#);
    assert!(bad["error"]
        .as_str()
        .unwrap()
        .contains("/count: expected a number <= 20"));
    assert_eq!(
        bad["tool_schema"],
        json!(tools.inspect("web_search").unwrap())
    );
    let good = tools_example::exec(
        &tools,
        "web_search",
        r#"{"query": "rust", "count": 2, "freshness": null}"#,
    );
    assert_eq!(
        good,
        json!({"results": ["2 result(s) for \"rust\" (any time)"]})
    );
    let unknown = tools_example::exec(&tools, "rm_rf", "{}");
    assert!(unknown.get("tool_schema").is_none());
    assert!(unknown["error"]
        .as_str()
        .unwrap()
        .contains("no tool named `rm_rf`"));
}

// ---- search_results / seed002

#[test]
fn urls_are_restricted_to_http_and_https() {
    let schema = GrokReply::json_schema(Dialect::JsonSchema);
    let url = &schema["properties"]["results"]["items"]["properties"]["url"];
    assert_eq!(url["format"], "uri");
    assert_eq!(url["pattern"], HTTP_URL_PATTERN);

    let good = GrokReply::from_llm(search_results::GOOD_REPLY).unwrap();
    assert_eq!(good.results.len(), 3);
    assert_eq!(good.results[2].published_date, "", "defaulted");

    let err = GrokReply::from_llm(search_results::FTP_REPLY).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/results/0/url"]);
    let err = GrokReply::from_llm(search_results::NO_HOST_REPLY).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/results/0/url"]);
    // Not a uri at all, though it starts like one.
    let reply = r#"{"results": [{"title": "t", "url": "https://exa mple.com", "snippet": "s"}]}"#;
    assert!(GrokReply::from_llm(reply).is_err());
}

#[test]
fn search_output_reads_the_scripts_json() {
    let out = SearchOutput::from_json(search_results::SEARCH_OUTPUT).unwrap();
    assert!(out.check_count().is_ok());
    assert_eq!(out.results[0].source, "exa, tavily, grok");
    // `intent: null` (no --intent) is accepted.
    let no_intent =
        r#"{"mode": "fast", "intent": null, "queries": ["q"], "count": 0, "results": []}"#;
    let out = SearchOutput::from_json(no_intent).unwrap();
    assert_eq!(out.intent, None);
    let mut wrong = out.clone();
    wrong.count = 3;
    assert!(wrong.check_count().is_err());

    let err = SearchOutput::from_json(search_results::BAD_SEARCH_OUTPUT).unwrap_err();
    assert_eq!(
        err.validation_errors().unwrap().paths(),
        [
            "/mode",
            "/queries",
            "/results/0/url",
            "/results/0/source",
            "/results/0/score"
        ]
    );
}
