//! Recorded response bodies of every provider (tests/fixtures/providers/, written from the API
//! references) read by `read_response`, `from_response` and the tool-call readers.

use schema_core::provider::{
    output_format, read_response, Finish, Provider, ProviderError, Reply, ToolCall,
};
use schema_core::tools::ToolSet;
use schema_core::{AgentSchema, ParseError};
use schema_suite::tools::{AgentTool, Encoding, SearchArgs};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Verdict {
    pass: bool,
    reason: String,
}

fn fixture(path: &str) -> Value {
    let full = format!(
        "{}/tests/fixtures/providers/{path}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn reply(p: Provider, path: &str) -> Reply {
    read_response(p, &fixture(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const PLAIN: &[(Provider, &str)] = &[
    (Provider::OpenAiChat, "openai_chat/plain"),
    (Provider::OpenAiResponses, "openai_responses/plain"),
    (Provider::Anthropic, "anthropic/plain"),
    (Provider::Gemini, "gemini/plain"),
    (Provider::LmStudio, "lmstudio/plain"),
    (Provider::Ollama, "ollama/plain"),
];

#[test]
fn plain_replies_parse_for_every_provider() {
    for &(p, path) in PLAIN {
        let r = reply(p, path);
        assert_eq!(r.finish, Finish::Stop, "{path}");
        assert_eq!(r.refusal, None, "{path}");
        assert!(r.tool_calls.is_empty(), "{path}");
        assert_eq!(
            r.text.as_deref(),
            Some(r#"{"pass": true, "reason": "The answer cites two sources."}"#),
            "{path}: thought parts and reasoning items are not text"
        );
        assert_eq!(r.usage.input_tokens, Some(81), "{path}");
        assert_eq!(r.usage.output_tokens, Some(19), "{path}");
        assert_eq!(r.usage.total_tokens, Some(100), "{path}");
        let v = Verdict::from_response(p, &fixture(path)).unwrap();
        assert_eq!(
            v,
            Verdict {
                pass: true,
                reason: "The answer cites two sources.".into()
            }
        );
    }
}

#[test]
fn cut_replies_are_truncated_even_when_braces_close() {
    for (p, path) in [
        (Provider::OpenAiChat, "openai_chat/length"),
        (Provider::OpenAiResponses, "openai_responses/length"),
        (Provider::Anthropic, "anthropic/max_tokens"),
        (Provider::Gemini, "gemini/max_tokens"),
        (Provider::LmStudio, "lmstudio/length"),
        (Provider::Ollama, "ollama/length"),
    ] {
        let body = fixture(path);
        let r = reply(p, path);
        assert_eq!(r.finish, Finish::Length, "{path}");
        // The text alone would parse: only the finish reason tells it was cut.
        assert!(Verdict::from_llm(r.text.as_deref().unwrap()).is_ok());
        match Verdict::from_response(p, &body) {
            Err(ParseError::Truncated { offset, expected }) => {
                assert_eq!(offset, r.text.as_deref().unwrap().len());
                assert!(expected.contains("token limit"), "{expected}");
            }
            other => panic!("{path}: {other:?}"),
        }
    }
}

#[test]
fn refusals_carry_the_provider_text() {
    for (p, path, text) in [
        (
            Provider::OpenAiChat,
            "openai_chat/refusal",
            "I'm sorry, I can't assist with that request.",
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/refusal",
            "I'm sorry, I can't assist with that request.",
        ),
        (
            Provider::Anthropic,
            "anthropic/refusal",
            "I can't help with that request.",
        ),
    ] {
        let r = reply(p, path);
        assert_eq!(r.finish, Finish::Refusal, "{path}");
        // Anthropic's body carries no `stop_details` here: no refusal text is made up; the
        // error shows the reply's text.
        let field = (p != Provider::Anthropic).then_some(text);
        assert_eq!(r.refusal.as_deref(), field, "{path}");
        assert_eq!(
            Verdict::from_response(p, &fixture(path)),
            Err(ParseError::Refusal { text: text.into() }),
            "{path}"
        );
    }
}

/// Anthropic's `stop_details.explanation` is the refusal text; the refusal reaches
/// `from_response` with it.
#[test]
fn anthropic_refusal_explanation_is_the_refusal_text() {
    let path = "anthropic/refusal_explained";
    let r = reply(Provider::Anthropic, path);
    assert_eq!(r.finish, Finish::Refusal);
    assert_eq!(r.raw_finish.as_deref(), Some("refusal"));
    let text = "This request asks for working malware.";
    assert_eq!(r.refusal.as_deref(), Some(text));
    assert_eq!(r.text, None);
    assert_eq!(
        Verdict::from_response(Provider::Anthropic, &fixture(path)),
        Err(ParseError::Refusal { text: text.into() })
    );
}

/// Reasoning goes to `Reply::reasoning`, never into `Reply::text`: a `<think>` block in an
/// LM Studio / llama.cpp `content`, `reasoning_content`, Anthropic thinking blocks, Gemini
/// thought parts, Ollama's `thinking`, Responses reasoning items.
#[test]
fn reasoning_is_kept_apart_from_the_text() {
    let answer = r#"{\"pass\": true, \"reason\": \"ok\"}"#;
    let cases = [
        (
            Provider::LmStudio,
            format!(
                r#"{{"choices": [{{"message": {{"role": "assistant", "content": "<think>Is it? Yes.</think>\n\n{answer}"}}, "finish_reason": "stop"}}]}}"#
            ),
        ),
        (
            Provider::OpenAiChat,
            format!(
                r#"{{"choices": [{{"message": {{"role": "assistant", "content": "{answer}", "reasoning_content": "Is it? Yes."}}, "finish_reason": "stop"}}]}}"#
            ),
        ),
        (
            Provider::Anthropic,
            format!(
                r#"{{"content": [{{"type": "thinking", "thinking": "Is it? Yes.", "signature": "EqQB"}}, {{"type": "text", "text": "{answer}"}}], "stop_reason": "end_turn"}}"#
            ),
        ),
        (
            Provider::Gemini,
            format!(
                r#"{{"candidates": [{{"content": {{"parts": [{{"text": "Is it? Yes.", "thought": true}}, {{"text": "{answer}"}}], "role": "model"}}, "finishReason": "STOP"}}]}}"#
            ),
        ),
        (
            Provider::Ollama,
            format!(
                r#"{{"message": {{"role": "assistant", "content": "{answer}", "thinking": "Is it? Yes."}}, "done": true, "done_reason": "stop"}}"#
            ),
        ),
        (
            Provider::OpenAiResponses,
            format!(
                r#"{{"status": "completed", "output": [{{"type": "reasoning", "id": "rs_1", "summary": [{{"type": "summary_text", "text": "Is it? Yes."}}]}}, {{"type": "message", "content": [{{"type": "output_text", "text": "{answer}"}}]}}]}}"#
            ),
        ),
    ];
    for (p, body) in cases {
        let body: Value = serde_json::from_str(&body).unwrap();
        let r = read_response(p, &body).unwrap();
        assert_eq!(
            r.text.as_deref(),
            Some("{\"pass\": true, \"reason\": \"ok\"}"),
            "{p}"
        );
        assert_eq!(r.reasoning.as_deref(), Some("Is it? Yes."), "{p}");
        assert!(Verdict::from_response(p, &body).unwrap().pass, "{p}");
    }
}

#[test]
fn content_filter_stops_are_provider_errors() {
    for (p, path, reason) in [
        (
            Provider::OpenAiChat,
            "openai_chat/content_filter",
            "content_filter",
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/content_filter",
            "content_filter",
        ),
        (Provider::Gemini, "gemini/safety", "SAFETY"),
        (Provider::Gemini, "gemini/prompt_blocked", "SAFETY"),
    ] {
        let r = reply(p, path);
        assert_eq!(r.finish, Finish::ContentFilter, "{path}");
        match Verdict::from_response(p, &fixture(path)) {
            Err(ParseError::Provider(ProviderError::ContentFilter {
                provider,
                reason: got,
            })) => {
                assert_eq!((provider, got.as_str()), (p, reason), "{path}");
            }
            other => panic!("{path}: {other:?}"),
        }
    }
}

#[test]
fn error_bodies_keep_the_provider_message() {
    for (p, path, kind, message_start) in [
        (
            Provider::OpenAiChat,
            "openai_chat/error",
            Some("invalid_request_error"),
            "Invalid schema for response_format 'Verdict'",
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/error",
            Some("invalid_request_error"),
            "Invalid value: 'json_schem'",
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/failed",
            None,
            "The model failed to generate a response.",
        ),
        (
            Provider::Anthropic,
            "anthropic/error",
            Some("overloaded_error"),
            "Overloaded",
        ),
        (
            Provider::Gemini,
            "gemini/error",
            Some("INVALID_ARGUMENT"),
            "Invalid JSON payload received.",
        ),
        (
            Provider::LmStudio,
            "lmstudio/error",
            None,
            "Model \"qwen3-8b\" not found.",
        ),
        (
            Provider::Ollama,
            "ollama/error",
            None,
            "model 'llama9' not found",
        ),
    ] {
        let err = read_response(p, &fixture(path)).unwrap_err();
        let ProviderError::Api {
            provider,
            kind: got_kind,
            message,
            ..
        } = &err
        else {
            panic!("{path}: {err:?}")
        };
        assert_eq!(*provider, p);
        assert_eq!(got_kind.as_deref(), kind, "{path}");
        assert!(message.starts_with(message_start), "{path}: {message}");
        assert_eq!(
            Verdict::from_response(p, &fixture(path)),
            Err(ParseError::Provider(err.clone()))
        );
        assert!(err.to_string().contains(message_start));
    }
    let gemini = read_response(Provider::Gemini, &fixture("gemini/error")).unwrap_err();
    assert!(matches!(gemini, ProviderError::Api { code: Some(c), .. } if c == "400"));
}

#[test]
fn one_tool_call_per_provider() {
    let read = |path: &str, encoding| AgentTool::ReadFile {
        path: path.into(),
        encoding,
    };
    for (p, fixture_path, id, want) in [
        (
            Provider::OpenAiChat,
            "openai_chat/tool_call",
            "call_Vx1",
            read("src/main.rs", None),
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/tool_call",
            "call_Ab1",
            read("README.md", Some(Encoding::Utf8)),
        ),
        (
            Provider::Anthropic,
            "anthropic/tool_use",
            "toolu_01A09q90qw90lq917835lq9",
            read("Cargo.toml", None),
        ),
        (
            Provider::Gemini,
            "gemini/function_call",
            "call_0",
            read("src/lib.rs", None),
        ),
        (
            Provider::LmStudio,
            "lmstudio/tool_call",
            "365174485",
            read("README.md", None),
        ),
        (
            Provider::Ollama,
            "ollama/tool_call",
            "call_0",
            read("go.mod", None),
        ),
    ] {
        let body = fixture(fixture_path);
        let r = reply(p, fixture_path);
        assert_eq!(r.finish, Finish::ToolCalls, "{fixture_path}");
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.tool_calls[0].name, "read_file");
        let calls = AgentTool::tool_calls_from_response(p, &body).unwrap();
        assert_eq!(calls, vec![(id.to_string(), want)], "{fixture_path}");
        // A reply that is only a tool call holds no structured text.
        assert!(matches!(
            Verdict::from_response(p, &body),
            Err(ParseError::NoJson { .. })
        ));
    }
    // Anthropic's text beside the call is kept.
    assert_eq!(
        reply(Provider::Anthropic, "anthropic/tool_use")
            .text
            .as_deref(),
        Some("I'll read the file.")
    );
}

#[test]
fn several_tool_calls_per_provider() {
    let search = |q: &str, limit| {
        AgentTool::WebSearch(SearchArgs {
            query: q.into(),
            limit,
        })
    };
    type Case<'a> = (Provider, &'a str, Vec<(&'a str, AgentTool)>);
    let cases: Vec<Case> = vec![
        (
            Provider::OpenAiChat,
            "openai_chat/tool_calls",
            vec![
                ("call_Vx1", search("rust json schema", Some(5))),
                (
                    "call_Vx2",
                    AgentTool::RunCommand {
                        command: "cargo test".into(),
                        timeout_secs: None,
                    },
                ),
            ],
        ),
        (
            Provider::OpenAiResponses,
            "openai_responses/tool_calls",
            vec![
                ("call_Ab1", search("rust json schema", None)),
                (
                    "call_Ab2",
                    AgentTool::Answer {
                        text: "Done.".into(),
                        sources: vec!["https://example.com".into()],
                    },
                ),
            ],
        ),
        (
            Provider::Anthropic,
            "anthropic/tool_uses",
            vec![
                (
                    "toolu_01A",
                    AgentTool::WriteFile {
                        path: "notes.md".into(),
                        content: "# Notes".into(),
                    },
                ),
                (
                    "toolu_01B",
                    AgentTool::RunCommand {
                        command: "ls".into(),
                        timeout_secs: Some(10),
                    },
                ),
            ],
        ),
        (
            Provider::Gemini,
            "gemini/function_calls",
            vec![
                ("fc-1", search("gemini function calling", None)),
                (
                    "fc-2",
                    AgentTool::Answer {
                        text: "Done.".into(),
                        sources: vec![],
                    },
                ),
            ],
        ),
        (
            Provider::Ollama,
            "ollama/tool_calls",
            vec![
                ("call_0", search("ollama tools", Some(3))),
                (
                    "call_1",
                    AgentTool::RunCommand {
                        command: "ollama ps".into(),
                        timeout_secs: None,
                    },
                ),
            ],
        ),
    ];
    for (p, path, want) in cases {
        let got = AgentTool::tool_calls_from_response(p, &fixture(path)).unwrap();
        let want: Vec<(String, AgentTool)> =
            want.into_iter().map(|(i, t)| (i.to_string(), t)).collect();
        assert_eq!(got, want, "{path}");
    }
}

#[test]
fn tool_calls_are_validated_with_paths() {
    let err = AgentTool::from_tool_call("web_search", r#"{"query": "", "limit": 30}"#).unwrap_err();
    assert_eq!(
        err.validation_errors().unwrap().paths(),
        ["/query", "/limit"]
    );
    // The offending value shown is the model's own arguments, without the tag.
    assert_eq!(err.value(), Some(&json!({"query": "", "limit": 30})));
    assert!(err
        .feedback()
        .contains("/limit: expected a number <= 20, found 30"));

    match AgentTool::from_tool_call("delete_everything", "{}") {
        Err(ParseError::UnknownTool { name, known }) => {
            assert_eq!(name, "delete_everything");
            assert_eq!(
                known,
                [
                    "web_search",
                    "read_file",
                    "write_file",
                    "run_command",
                    "final_answer"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        AgentTool::from_tool_call("read_file", r#"{"path": "a"#),
        Err(ParseError::Truncated { .. })
    ));
    let not_object = AgentTool::from_tool_call("read_file", "[1]").unwrap_err();
    assert_eq!(not_object.validation_errors().unwrap().paths(), [""]);
    // A tag written by the model is ignored, never trusted over the call's name.
    assert_eq!(
        AgentTool::from_tool_call("read_file", r#"{"tool": "run_command", "path": "x"}"#).unwrap(),
        AgentTool::ReadFile {
            path: "x".into(),
            encoding: None
        }
    );
    // A bad call inside a response is the same error.
    let body = json!({"choices": [{"message": {"content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "run_command", "arguments": "{\"command\": 5}"}}
    ]}, "finish_reason": "tool_calls"}]});
    let err = AgentTool::tool_calls_from_response(Provider::OpenAiChat, &body).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/command"]);
}

#[test]
fn tool_definitions_per_provider() {
    let chat = AgentTool::tool_definitions(Provider::OpenAiChat).unwrap();
    assert_eq!(chat.as_array().unwrap().len(), 5);
    assert_eq!(chat[0]["type"], "function");
    assert_eq!(chat[0]["function"]["name"], "web_search");
    assert_eq!(
        chat[0]["function"]["description"],
        "Search the web and return the top results"
    );
    assert_eq!(chat[0]["function"]["strict"], true);
    assert_eq!(
        chat[0]["function"]["parameters"]["required"],
        json!(["query", "limit"])
    );
    // The tag is the tool's name, never a parameter.
    for t in chat.as_array().unwrap() {
        assert!(t["function"]["parameters"]["properties"]
            .get("tool")
            .is_none());
    }
    let responses = AgentTool::tool_definitions(Provider::OpenAiResponses).unwrap();
    assert_eq!(responses[4]["name"], "final_answer");
    assert_eq!(responses[4]["strict"], true);
    assert_eq!(
        responses[4]["parameters"],
        chat[4]["function"]["parameters"]
    );
    let anthropic = AgentTool::tool_definitions(Provider::Anthropic).unwrap();
    assert_eq!(anthropic[1]["name"], "read_file");
    assert_eq!(anthropic[1]["strict"], true);
    assert_eq!(anthropic[1]["input_schema"]["required"], json!(["path"]));
    let gemini = AgentTool::tool_definitions(Provider::Gemini).unwrap();
    let decls = gemini[0]["functionDeclarations"].as_array().unwrap();
    assert_eq!(decls.len(), 5);
    assert_eq!(decls[3]["name"], "run_command");
    assert!(decls[3]["parametersJsonSchema"].is_object());
    let ollama = AgentTool::tool_definitions(Provider::Ollama).unwrap();
    assert!(ollama[0]["function"].get("strict").is_none());
    let mcp = AgentTool::mcp_tools().unwrap();
    assert_eq!(mcp[2]["name"], "write_file");
    assert_eq!(
        mcp[2]["inputSchema"]["required"],
        json!(["path", "content"])
    );
    // The derived tools read back as a run-time tool set that checks calls the same way.
    let set = ToolSet::from_mcp_list(&json!({ "tools": mcp })).unwrap();
    assert!(set
        .check_call("write_file", &json!({"path": "a", "content": "b"}))
        .is_ok());
    assert_eq!(
        set.definitions(Provider::Anthropic).tools,
        AgentTool::tool_definitions(Provider::Anthropic).unwrap()
    );
}

#[test]
fn output_format_per_provider() {
    let schema = |p: Provider| Verdict::json_schema(p.dialect());
    assert_eq!(
        output_format::<Verdict>(Provider::OpenAiChat).unwrap(),
        json!({"response_format": {"type": "json_schema", "json_schema": {
            "name": "Verdict", "strict": true, "schema": schema(Provider::OpenAiChat)}}})
    );
    assert_eq!(
        output_format::<Verdict>(Provider::OpenAiResponses).unwrap(),
        json!({"text": {"format": {"type": "json_schema", "name": "Verdict", "strict": true,
            "schema": schema(Provider::OpenAiResponses)}}})
    );
    assert_eq!(
        output_format::<Verdict>(Provider::Anthropic).unwrap(),
        json!({"output_config": {"format": {"type": "json_schema", "schema": schema(Provider::Anthropic)}}})
    );
    assert_eq!(
        output_format::<Verdict>(Provider::Gemini).unwrap(),
        json!({"generationConfig": {"responseMimeType": "application/json",
            "responseJsonSchema": schema(Provider::Gemini)}})
    );
    assert_eq!(
        output_format::<Verdict>(Provider::LmStudio).unwrap(),
        json!({"response_format": {"type": "json_schema", "json_schema": {
            "name": "Verdict", "strict": true, "schema": schema(Provider::LmStudio)}}})
    );
    assert_eq!(
        output_format::<Verdict>(Provider::Ollama).unwrap(),
        json!({"format": schema(Provider::Ollama)})
    );
}

#[test]
fn schema_names_are_sanitised() {
    #[derive(AgentSchema)]
    #[schema(name = "Résumé review / v2")]
    #[allow(dead_code)]
    struct Review {
        ok: bool,
    }
    let part = output_format::<Review>(Provider::OpenAiChat).unwrap();
    assert_eq!(
        part["response_format"]["json_schema"]["name"],
        "R_sum__review___v2"
    );
    assert_eq!(Review::schema_name(), "Résumé review / v2");
    let long = "x".repeat(100);
    assert_eq!(schema_core::provider::sanitize_name(&long).len(), 64);
    assert_eq!(schema_core::provider::sanitize_name(""), "response");
}

#[test]
fn malformed_bodies_are_errors_not_panics() {
    for p in Provider::ALL {
        for body in [
            json!(null),
            json!([]),
            json!({}),
            json!({"choices": []}),
            json!({"choices": [{"message": {"tool_calls": [{"function": {}}]}}]}),
            json!({"output": 3, "content": "x", "candidates": [], "message": 1}),
            json!({"error": null}),
        ] {
            match read_response(p, &body) {
                Ok(r) => assert!(r.text.is_none() && r.tool_calls.is_empty(), "{p} {body}"),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
            assert!(Verdict::from_response(p, &body).is_err(), "{p} {body}");
        }
    }
}

#[test]
fn tool_call_struct_is_plain_data() {
    let r = reply(Provider::Anthropic, "anthropic/tool_uses");
    assert_eq!(
        r.tool_calls[1],
        ToolCall {
            id: "toolu_01B".into(),
            name: "run_command".into(),
            arguments: r#"{"command":"ls","timeout_secs":10}"#.into(),
        }
    );
}

fn mcp_fixture() -> ToolSet {
    let path = format!(
        "{}/tests/fixtures/mcp/tools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let list: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    ToolSet::from_mcp_list(&list).unwrap()
}

#[test]
fn tool_set_answers_a_bad_call_like_seed_003_exec() {
    let set = mcp_fixture();
    assert_eq!(
        set.names(),
        [
            "read_file",
            "create_issue",
            "web_search",
            "query_database",
            "create_event"
        ]
    );
    let ts = set.inspect("web_search").unwrap();
    assert!(ts.starts_with("{query: string"), "{ts}");
    let err = set
        .check_call(
            "web_search",
            &json!({"query": "", "count": 50, "safesearch": "none"}),
        )
        .unwrap_err();
    let paths: Vec<&str> = match &err.kind {
        schema_core::tools::ToolCallErrorKind::Invalid(e) => e.paths(),
        other => panic!("{other:?}"),
    };
    assert_eq!(paths, ["/query", "/count", "/safesearch"]);
    let answer = err.feedback();
    let error = answer["error"].as_str().unwrap();
    for line in [
        "/query: expected at least 1 character",
        "/count: expected a number <= 20, found 50",
        "/safesearch: ",
    ] {
        assert!(error.contains(line), "{error}");
    }
    assert_eq!(answer["tool_schema"], json!(ts));
    assert_eq!(answer.as_object().unwrap().len(), 2);

    // An unknown tool lists the known ones; no schema to show.
    let unknown = set.check_call("delete_repo", &json!({})).unwrap_err();
    assert!(unknown.feedback()["error"]
        .as_str()
        .unwrap()
        .contains("read_file, create_issue, web_search, query_database, create_event"));
    assert!(unknown.feedback().get("tool_schema").is_none());

    // OpenAI strict writes null for an optional parameter: read as absent, and left out of
    // the arguments passed on.
    let args = set
        .check_call_text(
            "web_search",
            r#"{"query": "rust", "count": null, "freshness": null}"#,
        )
        .unwrap();
    assert_eq!(args, json!({"query": "rust"}));
    // A null where a value is required is still an error.
    assert!(set
        .check_call_text("web_search", r#"{"query": null}"#)
        .is_err());
    assert!(set.check_call_text("web_search", "{not json").is_err());
}

#[test]
fn tool_set_definitions_report_each_conversion() {
    let set = mcp_fixture();
    let defs = set.definitions(Provider::OpenAiChat);
    assert_eq!(defs.reports.len(), 5);
    assert!(defs.left_out.is_empty());
    // OpenAI strict: optional `tail` made nullable, reported.
    let read = &defs.reports[0];
    assert_eq!(read.name, "read_file");
    assert!(read.changes.iter().any(|c| c.pointer == "/properties/tail"
        && c.kind == schema_core::convert::ChangeKind::MadeNullable));
    assert_eq!(defs.tools[0]["function"]["strict"], true);
    assert_eq!(
        defs.tools[0]["function"]["parameters"]["required"],
        json!(["path", "tail", "head"])
    );
    // A map parameter under OpenAI strict: sent as `{key, value}` entries, reported, and a
    // call written that way read back into the map.
    let mut with_map = mcp_fixture();
    with_map.add(
        "set_labels",
        Some("Set labels"),
        json!({"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}),
    );
    let defs = with_map.definitions(Provider::OpenAiChat);
    assert_eq!(defs.reports.len(), 6);
    assert!(defs.left_out.is_empty());
    assert!(defs.reports[5]
        .changes
        .iter()
        .any(|c| c.pointer == "/properties/labels"
            && c.kind == schema_core::convert::ChangeKind::MapAsEntries));
    let call = r#"{"labels": [{"key": "env", "value": "prod"}]}"#;
    assert_eq!(
        with_map.check_call_text("set_labels", call).unwrap(),
        json!({"labels": {"env": "prod"}})
    );
    // one it still cannot send (a `false` schema) is left out, by name, never broken
    let mut with_false = mcp_fixture();
    with_false.add(
        "never",
        Some("Never"),
        json!({"type": "object", "properties": {"x": false}, "required": ["x"]}),
    );
    let defs = with_false.definitions(Provider::OpenAiChat);
    assert_eq!(defs.left_out.len(), 1);
    assert_eq!(defs.left_out[0].0, "never");
    assert_eq!(defs.left_out[0].1.pointer, "/tools/never/properties/x");
    assert_eq!(with_map.definitions(Provider::Gemini).left_out.len(), 0);
    // A name a provider does not take is left out for it only.
    let mut dotted = ToolSet::default();
    dotted.add(
        "fs.read",
        None::<String>,
        json!({"type": "object", "properties": {}}),
    );
    assert_eq!(dotted.definitions(Provider::Anthropic).left_out.len(), 1);
    assert_eq!(dotted.definitions(Provider::Gemini).left_out.len(), 0);
    assert!(ToolSet::from_mcp_list(&json!({"nothing": []})).is_err());
    assert!(ToolSet::from_mcp_list(&json!({"tools": [{"description": "no name"}]})).is_err());
    let rpc = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}]}});
    assert_eq!(ToolSet::from_mcp_list(&rpc).unwrap().names(), ["a"]);
}

#[test]
fn retry_reads_response_bodies_and_refusals() {
    use schema_core::retry::{retry, Answer, RetryError, RetryOptions};
    let bodies = [
        fixture("anthropic/max_tokens"),
        json!({"content": [{"type": "text", "text": "{\"pass\": true}"}], "stop_reason": "end_turn"}),
        fixture("anthropic/plain"),
    ];
    let mut seen = Vec::new();
    let mut i = 0;
    let got = retry::<Verdict, std::convert::Infallible, _>(&RetryOptions::new(), |prev| {
        if let Some(p) = prev {
            seen.push((p.number, p.reply.clone(), p.error.clone()));
        }
        i += 1;
        Ok(Answer::from_response(Provider::Anthropic, &bodies[i - 1]))
    })
    .unwrap();
    assert_eq!(got.attempts, 3);
    assert!(got.value.pass);
    assert_eq!(seen.len(), 2);
    assert!(matches!(seen[0].2, ParseError::Truncated { .. }));
    // The model's own (cut) reply is there to put back into the conversation.
    assert!(seen[0].1.starts_with("{\"pass\": true"));
    assert_eq!(seen[1].1, "{\"pass\": true}");
    assert_eq!(seen[1].2.validation_errors().unwrap().paths(), ["/reason"]);

    // A per-attempt refusal text stops the loop (refusals are not retried by default)...
    let out = retry::<Verdict, std::convert::Infallible, _>(&RetryOptions::new(), |_| {
        Ok(Answer::new("{}").refusal(Some("I can't do that.".into())))
    });
    match out {
        Err(RetryError::Parse { attempts }) => assert_eq!(
            attempts,
            [ParseError::Refusal {
                text: "I can't do that.".into()
            }]
        ),
        other => panic!("{other:?}"),
    }
    // ...unless asked to.
    let mut n = 0;
    let out = retry::<Verdict, std::convert::Infallible, _>(
        &RetryOptions::new().retry_refusals(true).max_attempts(2),
        |_| {
            n += 1;
            Ok(if n == 1 {
                Answer::from_response(Provider::OpenAiChat, &fixture("openai_chat/refusal"))
            } else {
                Answer::from_response(Provider::OpenAiChat, &fixture("openai_chat/plain"))
            })
        },
    );
    assert_eq!(out.unwrap().attempts, 2);
}

#[test]
fn whole_requests_are_counted_across_tools_and_output_format() {
    use schema_core::provider::merge_into;
    use schema_core::tools::check_request;
    use schema_suite::seed004::PlanningData;
    // AgentTool's 3 optional parameters fit; adding a response format with 22 more does not.
    #[derive(AgentSchema, Deserialize)]
    #[allow(dead_code)]
    struct Wide {
        a: Option<u8>,
        b: Option<u8>,
        c: Option<u8>,
        d: Option<u8>,
        e: Option<u8>,
        f: Option<u8>,
        g: Option<u8>,
        h: Option<u8>,
        i: Option<u8>,
        j: Option<u8>,
        k: Option<u8>,
        l: Option<u8>,
        m: Option<u8>,
        n: Option<u8>,
        o: Option<u8>,
        p: Option<u8>,
        q: Option<u8>,
        r: Option<u8>,
        s: Option<u8>,
        t: Option<u8>,
        u: Option<u8>,
        v: Option<u8>,
    }
    let p = Provider::Anthropic;
    let mut body = json!({"model": "claude-sonnet-4-5", "messages": []});
    merge_into(
        &mut body,
        json!({"tools": AgentTool::tool_definitions(p).unwrap()}),
    );
    assert_eq!(check_request(p, &body), Ok(()));
    merge_into(&mut body, output_format::<PlanningData>(p).unwrap());
    assert_eq!(check_request(p, &body), Ok(()));
    // Replaced, not merged: one response format per request.
    body["output_config"] = output_format::<Wide>(p).unwrap()["output_config"].take();
    let err = check_request(p, &body).unwrap_err();
    assert_eq!(err.pointer, "/output_config/format/schema");
    assert!(
        err.to_string()
            .contains("optional parameters, per request is 25"),
        "{err}"
    );
    // Every provider's own tools array reads back.
    for p in Provider::ALL {
        let body = json!({"tools": AgentTool::tool_definitions(p).unwrap()});
        assert_eq!(check_request(p, &body), Ok(()), "{p}");
    }
}
