//! Provider streams (recorded in the shapes of the providers' API references,
//! `tests/fixtures/providers/streams/`) fed through `schema_core::stream::provider`: the text and
//! each tool call's arguments reach the right stream, by index, and read as `from_llm` reads the
//! concatenated text.

use schema_core::stream::provider::{deltas, Api, Channel, EventStream};
use schema_core::{AgentSchema, ParseError};
use schema_suite::seed000::Language;
use serde_json::Value;

fn events(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/fixtures/providers/streams/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("one JSON event per line"))
        .collect()
}

fn feed(api: Api, name: &str) -> EventStream<Language> {
    let mut s = EventStream::<Language>::new(api);
    for e in events(name) {
        s.push_event(&e)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
    }
    s
}

fn lang(code: &str, style: &str) -> Language {
    Language {
        lang_code: code.into(),
        lang_style: style.into(),
    }
}

/// The text channel's concatenation, as a caller without the helper would build it.
fn text_of(api: Api, name: &str) -> String {
    events(name)
        .iter()
        .flat_map(|e| deltas(api, e))
        .filter(|d| d.channel == Channel::Text)
        .map(|d| d.text)
        .collect()
}

#[test]
fn text_streams_read_as_from_llm() {
    for (api, name, want) in [
        (
            Api::OpenAiChat,
            "openai_chat_text.jsonl",
            lang("fr", "formal Parisian French"),
        ),
        (
            Api::OpenAiResponses,
            "openai_responses_text.jsonl",
            lang("ja", "polite です form"),
        ),
        (
            Api::Anthropic,
            "anthropic_text.jsonl",
            lang("pt", "Brazilian, informal"),
        ),
        (Api::Gemini, "gemini_text.jsonl", lang("nl", "Flemish")),
    ] {
        let s = feed(api, name);
        assert!(s.text.is_complete(), "{name}");
        assert_eq!(
            s.text.partial().lang_code.as_deref(),
            Some(&*want.lang_code)
        );
        let whole = text_of(api, name);
        assert_eq!(s.text.text(), whole);
        let end = s.finish();
        let (text, tools) = (end.value, end.tools);
        assert_eq!(text, Language::from_llm(&whole), "{name}");
        assert_eq!(text.unwrap(), want, "{name}");
        assert!(tools.is_empty(), "{name}");
    }
}

#[test]
fn tool_calls_stream_by_index() {
    for (api, name, want) in [
        (
            Api::OpenAiChat,
            "openai_chat_tools.jsonl",
            vec![(0, lang("en", "casual")), (1, lang("de", "technical"))],
        ),
        (
            Api::OpenAiResponses,
            "openai_responses_tools.jsonl",
            vec![(0, lang("es", "Rioplatense"))],
        ),
        (
            Api::Anthropic,
            "anthropic_tools.jsonl",
            vec![(1, lang("it", "Tuscan"))],
        ),
        (
            Api::Gemini,
            "gemini_tools.jsonl",
            vec![(0, lang("sv", "plain")), (1, lang("fi", "plain"))],
        ),
    ] {
        let s = feed(api, name);
        assert_eq!(s.tools().len(), want.len(), "{name}");
        for (index, _) in &want {
            let call = s.tool(*index).expect("the call");
            assert_eq!(call.name.as_deref(), Some("detect_language"), "{name}");
            assert!(call.stream.is_complete(), "{name}");
        }
        let end = s.finish();
        let (text, tools) = (end.value, end.tools);
        let got: Vec<(usize, Language)> = tools
            .into_iter()
            .map(|t| (t.index, t.value.unwrap_or_else(|e| panic!("{name}: {e}"))))
            .collect();
        assert_eq!(got, want, "{name}");
        // Only Anthropic's tool stream has a text block, and it holds no JSON.
        match api {
            Api::Anthropic => assert!(matches!(text, Err(ParseError::NoJson { .. }))),
            _ => assert!(text.is_err()),
        }
    }
}

#[test]
fn a_tool_call_is_stopped_at_its_first_violation() {
    let mut s = EventStream::<Language>::new(Api::Anthropic);
    let start = serde_json::json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "detect_language", "input": {}}});
    s.push_event(&start).unwrap();
    let delta = |t: &str| {
        serde_json::json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": t}})
    };
    // A property the schema does not have: certain at its value's first byte (a `null` would
    // read as absent). The call's error is the call's: the push itself goes on.
    s.push_event(&delta("{\"langCode\": \"en\", \"dialect\""))
        .unwrap();
    assert!(s.tool(0).and_then(|c| c.error()).is_none());
    s.push_event(&delta(": 1")).unwrap();
    let e = s.tool(0).and_then(|c| c.error()).expect("the call's error");
    assert_eq!(e.validation_errors().unwrap().paths(), ["/dialect"]);
    s.push_event(&delta("}")).unwrap();
    assert_eq!(
        s.tool(0).unwrap().arguments(),
        "{\"langCode\": \"en\", \"dialect\": 1}"
    );
}

/// Ollama's native `/api/chat` stream: one object a line with `message.content`; the provider
/// names map onto the event forms.
#[test]
fn ollama_native_lines_and_provider_names() {
    use schema_core::provider::Provider;
    assert_eq!(Api::from(Provider::Ollama), Api::Ollama);
    assert_eq!(Api::from(Provider::LmStudio), Api::OpenAiChat);
    assert_eq!(Api::from(Provider::OpenAiResponses), Api::OpenAiResponses);
    assert_eq!(Api::from(Provider::Gemini), Api::Gemini);
    let mut s = EventStream::<Language>::new(Provider::Ollama.into());
    for piece in [r#"{"langCode": "d"#, r#"e", "langStyle": "formal"}"#, ""] {
        let line = serde_json::json!({"model": "qwen3", "message": {"role": "assistant", "content": piece}, "done": piece.is_empty()});
        s.push_event(&line).unwrap();
    }
    let lang = s.finish().value.unwrap();
    assert_eq!(
        (lang.lang_code.as_str(), lang.lang_style.as_str()),
        ("de", "formal")
    );
}
