//! Provider streams read from raw HTTP bodies (`tests/fixtures/providers/streams/raw/`, written
//! from each provider's streaming reference): every fixture's expected reading (text,
//! reasoning, refusal, finish, usage, tool calls with ids, the typed values and errors) is
//! written here by hand, and the body read event by event and through `push_body` cut at
//! random places (down to one byte) must give it.

use schema_core::provider::{Finish, ProviderError, Usage};
use schema_core::stream::provider::{Api, EventStream, Finished};
use schema_core::{AgentSchema, ParseError};
use serde::Deserialize;
use serde_json::Value;

/// The answer the text carries.
#[derive(AgentSchema, Deserialize, Debug, PartialEq, Clone)]
struct Triage {
    category: String,
    urgent: bool,
}

/// The tools the replies call (the tool's name is the tag).
#[derive(AgentSchema, Deserialize, Debug, PartialEq, Clone)]
#[schema(tools)]
#[serde(tag = "tool")]
enum SupportTool {
    /// Finds a customer by email.
    #[serde(rename = "lookup_customer")]
    LookupCustomer { email: String },
    /// Opens a ticket.
    #[serde(rename = "create_ticket")]
    CreateTicket { title: String, priority: u8 },
}

fn raw(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/providers/streams/raw/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The events of a body, split by this test's own reading of the formats: each `data:` line of
/// server-sent events (one line per event in every fixture), each line of NDJSON; a line that
/// is not whole JSON (the cut end of a body) is left out.
fn events(body: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(body)
        .lines()
        .filter_map(|l| {
            let l = l.trim_end_matches('\r');
            let json = l
                .strip_prefix("data:")
                .map(str::trim_start)
                .or_else(|| l.starts_with('{').then_some(l))?;
            serde_json::from_str(json).ok()
        })
        .collect()
}

type End = Finished<Triage, SupportTool>;

fn by_events(api: Api, body: &[u8]) -> End {
    let mut s = EventStream::<Triage, SupportTool>::new(api);
    for e in events(body) {
        // Errors (the text's, an error event) are in the end's reading too.
        let _ = s.push_event(&e);
    }
    s.finish()
}

fn by_body(api: Api, body: &[u8], cuts: &[usize]) -> End {
    let mut s = EventStream::<Triage, SupportTool>::new(api);
    let mut at = 0;
    for &n in cuts.iter().cycle() {
        if at >= body.len() {
            break;
        }
        let end = (at + n).min(body.len());
        let _ = s.push_body(&body[at..end]);
        at = end;
    }
    s.finish()
}

/// Chunk sizes from a seeded xorshift: `count` sizes in `1..=max`.
fn random_cuts(seed: u64, max: usize, count: usize) -> Vec<usize> {
    let mut x = seed.max(1);
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            1 + (x % max as u64) as usize
        })
        .collect()
}

/// The text's value, as the test expects it.
#[derive(Debug)]
enum Value_ {
    Ok(Triage),
    Truncated,
    Refusal(&'static str),
    Provider(&'static str),
}

/// One fixture's expected reading.
struct Want {
    file: &'static str,
    api: Api,
    text: Option<&'static str>,
    reasoning: Option<&'static str>,
    refusal: Option<&'static str>,
    finish: Finish,
    raw_finish: Option<&'static str>,
    usage: [Option<u64>; 3],
    /// Each call: id, name, arguments text, and its value (or the path of its error).
    calls: Vec<(
        &'static str,
        &'static str,
        &'static str,
        Result<SupportTool, &'static str>,
    )>,
    value: Value_,
}

fn triage(category: &str, urgent: bool) -> Triage {
    Triage {
        category: category.into(),
        urgent,
    }
}

fn lookup(email: &str) -> SupportTool {
    SupportTool::LookupCustomer {
        email: email.into(),
    }
}

fn wants() -> Vec<Want> {
    vec![
        Want {
            file: "openai_chat_text_tools.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::ToolCalls,
            raw_finish: Some("tool_calls"),
            usage: [Some(120), Some(41), Some(161)],
            calls: vec![
                (
                    "call_lk1",
                    "lookup_customer",
                    r#"{"email": "ann@example.com"}"#,
                    Ok(lookup("ann@example.com")),
                ),
                (
                    "call_tk2",
                    "create_ticket",
                    r#"{"title": "Refund", "priority": "high"}"#,
                    Err("/priority"),
                ),
            ],
            value: Value_::Ok(triage("billing", true)),
        },
        Want {
            file: "openai_chat_length.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "billing", "urgent": false}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Length,
            raw_finish: Some("length"),
            usage: [None; 3],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "openai_chat_refusal.sse",
            api: Api::OpenAiChat,
            text: None,
            reasoning: None,
            refusal: Some("I'm sorry, I can't assist with that."),
            finish: Finish::Refusal,
            raw_finish: Some("stop"),
            usage: [None; 3],
            calls: vec![],
            value: Value_::Refusal("I'm sorry, I can't assist with that."),
        },
        Want {
            file: "openai_chat_error.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Provider(
                "The server had an error while processing your request. Sorry about that!",
            ),
        },
        Want {
            file: "openai_chat_cut.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "llamacpp_think.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "account", "urgent": true}"#),
            reasoning: Some("The customer cannot log in."),
            refusal: None,
            finish: Finish::Stop,
            raw_finish: Some("stop"),
            usage: [Some(50), Some(30), Some(80)],
            calls: vec![],
            value: Value_::Ok(triage("account", true)),
        },
        Want {
            file: "llamacpp_reasoning.sse",
            api: Api::OpenAiChat,
            text: Some(r#"{"category": "shipping", "urgent": false}"#),
            reasoning: Some("The order never arrived."),
            refusal: None,
            finish: Finish::Stop,
            raw_finish: Some("stop"),
            usage: [Some(48), Some(22), Some(70)],
            calls: vec![],
            value: Value_::Ok(triage("shipping", false)),
        },
        Want {
            file: "openai_responses_tools.sse",
            api: Api::OpenAiResponses,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: Some("Billing issue; look the customer up."),
            refusal: None,
            finish: Finish::ToolCalls,
            raw_finish: Some("completed"),
            usage: [Some(210), Some(64), Some(274)],
            calls: vec![
                (
                    "call_r1",
                    "lookup_customer",
                    r#"{"email": "bo@example.com"}"#,
                    Ok(lookup("bo@example.com")),
                ),
                (
                    "call_r2",
                    "create_ticket",
                    r#"{"title": "Double charge", "priority": -1}"#,
                    Err("/priority"),
                ),
            ],
            value: Value_::Ok(triage("billing", true)),
        },
        Want {
            file: "openai_responses_incomplete.sse",
            api: Api::OpenAiResponses,
            text: Some(r#"{"category": "other", "urgent": false}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Length,
            raw_finish: Some("max_output_tokens"),
            usage: [Some(30), Some(16), Some(46)],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "openai_responses_refusal.sse",
            api: Api::OpenAiResponses,
            text: None,
            reasoning: None,
            refusal: Some("I'm sorry, I can't assist with that request."),
            finish: Finish::Refusal,
            raw_finish: Some("completed"),
            usage: [Some(25), Some(11), Some(36)],
            calls: vec![],
            value: Value_::Refusal("I'm sorry, I can't assist with that request."),
        },
        Want {
            file: "openai_responses_error.sse",
            api: Api::OpenAiResponses,
            text: Some(r#"{"category": "bil"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Provider("The server had an error while processing your request."),
        },
        Want {
            file: "anthropic_tools.sse",
            api: Api::Anthropic,
            text: Some(r#"{"category": "billing", "urgent": false}"#),
            reasoning: Some("A billing complaint. Look up, then ticket."),
            refusal: None,
            finish: Finish::ToolCalls,
            raw_finish: Some("tool_use"),
            usage: [Some(472), Some(89), Some(561)],
            calls: vec![
                (
                    "toolu_01T1",
                    "lookup_customer",
                    r#"{"email": "cy@example.com"}"#,
                    Ok(lookup("cy@example.com")),
                ),
                (
                    "toolu_01T2",
                    "create_ticket",
                    r#"{"title": "Card declined"}"#,
                    Err("/priority"),
                ),
            ],
            value: Value_::Ok(triage("billing", false)),
        },
        Want {
            file: "anthropic_max_tokens.sse",
            api: Api::Anthropic,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Length,
            raw_finish: Some("max_tokens"),
            usage: [Some(25), Some(16), Some(41)],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "anthropic_refusal.sse",
            api: Api::Anthropic,
            text: None,
            reasoning: None,
            refusal: Some("This request asks for working malware."),
            finish: Finish::Refusal,
            raw_finish: Some("refusal"),
            usage: [Some(40), Some(1), Some(41)],
            calls: vec![],
            value: Value_::Refusal("This request asks for working malware."),
        },
        Want {
            file: "anthropic_overloaded.sse",
            api: Api::Anthropic,
            text: Some(r#"{"category": "bill"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [Some(25), Some(1), Some(26)],
            calls: vec![],
            value: Value_::Provider("Overloaded"),
        },
        Want {
            file: "gemini_calls.sse",
            api: Api::Gemini,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: Some("The user was charged twice."),
            refusal: None,
            finish: Finish::ToolCalls,
            raw_finish: Some("STOP"),
            usage: [Some(61), Some(37), Some(98)],
            calls: vec![
                (
                    "call_0",
                    "lookup_customer",
                    r#"{"email":"di@example.com"}"#,
                    Ok(lookup("di@example.com")),
                ),
                (
                    "call_1",
                    "create_ticket",
                    r#"{"title":"Refund","priority":"urgent"}"#,
                    Err("/priority"),
                ),
            ],
            value: Value_::Ok(triage("billing", true)),
        },
        Want {
            file: "gemini_max_tokens.sse",
            api: Api::Gemini,
            text: Some(r#"{"category": "other", "urgent": false}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Length,
            raw_finish: Some("MAX_TOKENS"),
            usage: [Some(20), Some(12), Some(32)],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "gemini_error.sse",
            api: Api::Gemini,
            text: Some(r#"{"category": "#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Provider("The model is overloaded. Please try again later."),
        },
        Want {
            file: "ollama_tools.ndjson",
            api: Api::Ollama,
            text: Some(r#"{"category": "account", "urgent": false}"#),
            reasoning: Some("Needs a lookup and a ticket."),
            refusal: None,
            finish: Finish::ToolCalls,
            raw_finish: Some("stop"),
            usage: [Some(26), Some(44), Some(70)],
            calls: vec![
                (
                    "call_0",
                    "lookup_customer",
                    r#"{"email":"ed@example.com"}"#,
                    Ok(lookup("ed@example.com")),
                ),
                (
                    "call_1",
                    "create_ticket",
                    r#"{"title":"Locked out","priority":300}"#,
                    Err("/priority"),
                ),
            ],
            value: Value_::Ok(triage("account", false)),
        },
        Want {
            file: "ollama_length.ndjson",
            api: Api::Ollama,
            text: Some(r#"{"category": "billing", "urgent": true}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Length,
            raw_finish: Some("length"),
            usage: [Some(31), Some(16), Some(47)],
            calls: vec![],
            value: Value_::Truncated,
        },
        Want {
            file: "ollama_error.ndjson",
            api: Api::Ollama,
            text: Some(r#"{"category": "#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Provider(
                "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details",
            ),
        },
        Want {
            file: "ollama_cut.ndjson",
            api: Api::Ollama,
            text: Some(r#"{"category": "account", "urgent": true}"#),
            reasoning: None,
            refusal: None,
            finish: Finish::Cut,
            raw_finish: None,
            usage: [None; 3],
            calls: vec![],
            value: Value_::Truncated,
        },
    ]
}

fn check(w: &Want, end: &End, how: &str) {
    let at = format!("{} ({how})", w.file);
    let r = &end.reply;
    assert_eq!(r.text.as_deref(), w.text, "{at}: text");
    assert_eq!(r.reasoning.as_deref(), w.reasoning, "{at}: reasoning");
    assert_eq!(r.refusal.as_deref(), w.refusal, "{at}: refusal");
    assert_eq!(r.finish, w.finish, "{at}: finish");
    assert_eq!(r.raw_finish.as_deref(), w.raw_finish, "{at}: raw finish");
    let [input_tokens, output_tokens, total_tokens] = w.usage;
    assert_eq!(
        r.usage,
        Usage {
            input_tokens,
            output_tokens,
            total_tokens
        },
        "{at}: usage"
    );
    let calls: Vec<(&str, &str, &str)> = r
        .tool_calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect();
    let want: Vec<(&str, &str, &str)> = w.calls.iter().map(|c| (c.0, c.1, c.2)).collect();
    assert_eq!(calls, want, "{at}: calls");
    assert_eq!(end.tools.len(), w.calls.len(), "{at}");
    for (got, want) in end.tools.iter().zip(&w.calls) {
        assert_eq!(
            (got.id.as_str(), got.name.as_str()),
            (want.0, want.1),
            "{at}"
        );
        match (&got.value, &want.3) {
            (Ok(v), Ok(w)) => assert_eq!(v, w, "{at}"),
            (Err(e), Err(path)) => {
                let paths = e
                    .validation_errors()
                    .unwrap_or_else(|| panic!("{at}: {e}"))
                    .paths();
                assert_eq!(paths, [*path], "{at}: {e}");
            }
            (got, want) => panic!("{at}: {} got {got:?}, want {want:?}", want_id(want)),
        }
    }
    match (&end.value, &w.value) {
        (Ok(v), Value_::Ok(t)) => assert_eq!(v, t, "{at}"),
        (Err(ParseError::Truncated { .. }), Value_::Truncated) => {}
        (Err(ParseError::Refusal { text }), Value_::Refusal(t)) => assert_eq!(text, t, "{at}"),
        (Err(ParseError::Provider(ProviderError::Api { message, .. })), Value_::Provider(m)) => {
            assert_eq!(message, m, "{at}")
        }
        (got, want) => panic!("{at}: value {got:?}, want {want:?}"),
    }
}

fn want_id<T: std::fmt::Debug>(w: &T) -> String {
    format!("{w:?}")
}

#[test]
fn every_fixture_reads_as_written_event_by_event() {
    for w in wants() {
        let end = by_events(w.api, &raw(w.file));
        check(&w, &end, "events");
    }
}

#[test]
fn every_fixture_reads_the_same_from_the_body_cut_anywhere() {
    for w in wants() {
        let body = raw(w.file);
        check(&w, &by_body(w.api, &body, &[body.len()]), "whole body");
        check(&w, &by_body(w.api, &body, &[1]), "1-byte chunks");
        for (seed, max) in [(1, 3), (7, 17), (42, 64), (99, 500)] {
            let cuts = random_cuts(seed, max, 64);
            check(
                &w,
                &by_body(w.api, &body, &cuts),
                &format!("cuts {seed}/{max}"),
            );
        }
    }
}

/// The body with every line ended by `end` (the fixtures' own `\r\n` and `\n` both replaced).
fn with_line_ends(body: &[u8], end: &str) -> Vec<u8> {
    String::from_utf8(body.to_vec())
        .unwrap()
        .replace("\r\n", "\n")
        .replace('\n', end)
        .into_bytes()
}

/// Server-sent events end a line with `\r\n`, `\n` or a lone `\r` (the SSE spec; newline-
/// delimited JSON with `\n` or `\r\n`): every fixture, its lines ended each way, reads as
/// written cut at every byte: one byte at a time, and in two at each byte (so a chunk ends
/// between a `\r` and its `\n`, and the rest is read in one piece), and in pieces that each
/// end at a `\r`.
#[test]
fn every_line_end_reads_alike_cut_at_every_byte() {
    for w in wants() {
        let ends: &[&str] = if w.api == Api::Ollama {
            &["\n", "\r\n"]
        } else {
            &["\n", "\r\n", "\r"]
        };
        for end in ends {
            let body = with_line_ends(&raw(w.file), end);
            let how = |what: &str| format!("{what}, lines ended by {end:?}");
            check(&w, &by_body(w.api, &body, &[body.len()]), &how("whole"));
            check(&w, &by_body(w.api, &body, &[1]), &how("1-byte chunks"));
            for k in 1..body.len() {
                let end = by_body(w.api, &body, &[k, body.len()]);
                check(&w, &end, &how(&format!("cut at byte {k}")));
            }
            let mut at_cr = Vec::new();
            let mut from = 0;
            for (k, &b) in body.iter().enumerate() {
                if b == b'\r' {
                    at_cr.push(k + 1 - from);
                    from = k + 1;
                }
            }
            at_cr.push(body.len() - from);
            check(
                &w,
                &by_body(w.api, &body, &at_cr),
                &how("chunks ending at each \\r"),
            );
        }
    }
}

/// A tool call with invalid arguments is that call's error, with its id and path, found while
/// it streams: the text and the other call go on, and no push fails.
#[test]
fn an_invalid_call_is_its_own_error_while_streaming() {
    for (api, file, id) in [
        (Api::OpenAiChat, "openai_chat_text_tools.sse", "call_tk2"),
        (
            Api::OpenAiResponses,
            "openai_responses_tools.sse",
            "call_r2",
        ),
        (Api::Anthropic, "anthropic_tools.sse", "toolu_01T2"),
        (Api::Gemini, "gemini_calls.sse", ""),
        (Api::Ollama, "ollama_tools.ndjson", ""),
    ] {
        let mut s = EventStream::<Triage, SupportTool>::new(api);
        for chunk in raw(file).chunks(5) {
            s.push_body(chunk).unwrap_or_else(|e| panic!("{file}: {e}"));
        }
        assert!(s.text.is_complete(), "{file}");
        let [good, bad] = s.tools() else {
            panic!("{file}: {:?}", s.tools())
        };
        assert_eq!(good.error(), None, "{file}");
        assert!(good.stream.is_complete(), "{file}");
        assert_eq!(bad.name.as_deref(), Some("create_ticket"), "{file}");
        assert_eq!(bad.id.as_deref().unwrap_or(""), id, "{file}");
        // Found while streaming (a missing property at the object's close).
        let e = bad.error().unwrap_or_else(|| panic!("{file}"));
        assert_eq!(
            e.validation_errors().unwrap().paths(),
            ["/priority"],
            "{file}"
        );
        // The valid call's partial is typed: the variant the name tagged.
        match good.stream.partial() {
            SupportToolPartial::LookupCustomer { email } => {
                assert!(
                    email
                        .as_deref()
                        .is_some_and(|e| e.ends_with("@example.com")),
                    "{file}"
                )
            }
            other => panic!(
                "{file}: {:?}",
                schema_core::stream::PartialValue::to_json(other)
            ),
        }
    }
}

/// An unknown tool name is that call's error, listing the tools there are.
#[test]
fn an_unknown_tool_is_its_own_error() {
    let mut s = EventStream::<Triage, SupportTool>::new(Api::OpenAiChat);
    let event = serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "c1", "type": "function", "function": {"name": "delete_everything", "arguments": "{}"}},
        {"index": 1, "id": "c2", "type": "function", "function": {"name": "lookup_customer", "arguments": "{\"email\": \"x@y.z\"}"}}
    ]}, "finish_reason": "tool_calls"}]});
    assert!(s.push_event(&event).unwrap());
    assert!(
        matches!(s.tool(0).unwrap().error(), Some(ParseError::UnknownTool { name, .. }) if name == "delete_everything")
    );
    let end = s.finish();
    assert!(matches!(
        end.tools[0].value,
        Err(ParseError::UnknownTool { .. })
    ));
    assert_eq!(end.tools[1].value.as_ref().unwrap(), &lookup("x@y.z"));
    assert!(matches!(end.value, Err(ParseError::NoJson { .. })));
}

/// A stream and the same reply as a whole response body (`raw/whole/`, written from the same
/// references) read alike: the stream's `Reply` is `read_response`'s (the arguments compared as
/// JSON: a stream sends them as the model wrote them, a whole body as an object), its value is
/// `from_response`'s (a cut by the token limit is `Truncated` in both, though the JSON closed),
/// and its tool values are `tool_calls_from_response`'s, call by call.
#[test]
fn a_stream_reads_as_its_whole_response() {
    use schema_core::provider::read_response;
    for (api, file) in [
        (Api::OpenAiChat, "openai_chat_text_tools"),
        (Api::OpenAiChat, "openai_chat_length"),
        (Api::OpenAiChat, "llamacpp_think"),
        (Api::OpenAiChat, "llamacpp_reasoning"),
        (Api::OpenAiResponses, "openai_responses_tools"),
        (Api::Anthropic, "anthropic_tools"),
        (Api::Anthropic, "anthropic_max_tokens"),
        (Api::Anthropic, "anthropic_refusal"),
        (Api::Gemini, "gemini_calls"),
        (Api::Gemini, "gemini_max_tokens"),
        (Api::Ollama, "ollama_tools"),
        (Api::Ollama, "ollama_length"),
    ] {
        let ext = if api == Api::Ollama { "ndjson" } else { "sse" };
        let end = by_body(api, &raw(&format!("{file}.{ext}")), &[7, 1, 300]);
        let whole: Value = serde_json::from_slice(&raw(&format!("whole/{file}.json"))).unwrap();
        let p = api.provider();
        let mut want = read_response(p, &whole).unwrap();
        let mut got = end.reply.clone();
        let args = |r: &mut schema_core::provider::Reply| -> Vec<Value> {
            r.tool_calls
                .iter_mut()
                .map(|c| serde_json::from_str(&std::mem::take(&mut c.arguments)).unwrap())
                .collect()
        };
        assert_eq!(args(&mut got), args(&mut want), "{file}");
        assert_eq!(got, want, "{file}");
        assert_eq!(end.value, Triage::from_response(p, &whole), "{file}");
        let streamed: Vec<Result<SupportTool, ParseError>> =
            end.tools.into_iter().map(|t| t.value).collect();
        let whole_calls: Vec<Result<SupportTool, ParseError>> = read_response(p, &whole)
            .unwrap()
            .tool_calls
            .iter()
            .map(|c| SupportTool::from_tool_call(&c.name, &c.arguments))
            .collect();
        if want.finish == Finish::ToolCalls {
            assert_eq!(streamed.len(), 2, "{file}");
            assert_eq!(
                streamed.iter().map(|r| r.as_ref().ok()).collect::<Vec<_>>(),
                whole_calls
                    .iter()
                    .map(|r| r.as_ref().ok())
                    .collect::<Vec<_>>(),
                "{file}"
            );
            let paths = |rs: &[Result<SupportTool, ParseError>]| -> Vec<Vec<String>> {
                rs.iter()
                    .filter_map(|r| r.as_ref().err())
                    .map(|e| {
                        e.validation_errors()
                            .unwrap()
                            .paths()
                            .iter()
                            .map(|p| p.to_string())
                            .collect()
                    })
                    .collect()
            };
            assert_eq!(paths(&streamed), paths(&whole_calls), "{file}");
        }
    }
}

/// Bad bodies are errors that end the stream, never panics: an event that is not JSON, bytes
/// that are not UTF-8, a line that never ends; comment, `event:` and unknown lines are skipped.
#[test]
fn bad_bodies_are_errors() {
    let malformed = |r: Result<bool, ParseError>| {
        matches!(
            r,
            Err(ParseError::Provider(ProviderError::Malformed { .. }))
        )
    };
    let mut s = EventStream::<Triage>::new(Api::OpenAiChat);
    assert!(malformed(s.push_body(b"data: {oops}\n\n")));
    // The stream is over: the next push gives the same error.
    assert!(malformed(s.push_body(b"data: {}\n\n")));

    let mut s = EventStream::<Triage>::new(Api::Ollama);
    assert!(malformed(
        s.push_body(b"{\"message\": {\"content\": \"\xff\"}}\n")
    ));

    let mut s = EventStream::<Triage>::new(Api::Anthropic);
    let long = vec![b'x'; schema_core::DEFAULT_MAX_LEN + 1];
    assert!(malformed(s.push_body(&long)));

    let mut s = EventStream::<Triage>::new(Api::Anthropic);
    let body =
        b": keep-alive\nevent: ping\nid: 7\nretry: 100\nnonsense\ndata: {\"type\": \"ping\"}\n\n";
    assert_eq!(s.push_body(body), Ok(false));
    assert!(matches!(
        s.finish().value,
        Err(ParseError::Truncated { .. })
    ));
}

/// A line of newline-delimited JSON that is not an object ends the stream as a malformed body;
/// blank space before an object, or on a line of its own, is read as JSON reads it.
#[test]
fn ndjson_lines_that_are_not_objects_are_malformed() {
    let malformed = |r: Result<bool, ParseError>| {
        matches!(
            r,
            Err(ParseError::Provider(ProviderError::Malformed { .. }))
        )
    };
    for line in [&b"[1]\n"[..], b"oops\n", b"data: {}\n", b" 7\n"] {
        let mut s = EventStream::<Triage>::new(Api::Ollama);
        assert!(
            malformed(s.push_body(line)),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    let text = br#"{"message": {"content": "{\"urgent\": true"}}"#;
    let mut spaced = b"  \n \t".to_vec();
    spaced.extend_from_slice(text);
    spaced.push(b'\n');
    for body in [&text[..], &spaced[..]] {
        let mut s = EventStream::<Triage>::new(Api::Ollama);
        let mut body = body.to_vec();
        if body.last() != Some(&b'\n') {
            body.push(b'\n');
        }
        let pushed = s.push_body(&body);
        assert!(
            pushed.is_ok(),
            "{pushed:?} {}",
            String::from_utf8_lossy(&body)
        );
        assert_eq!(s.reply().text.as_deref(), Some(r#"{"urgent": true"#));
    }
}

/// Each event's JSON text in a body (the `data:` lines, the NDJSON lines), as written.
fn raw_events(body: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(body)
        .lines()
        .filter_map(|l| {
            let l = l.trim_end_matches('\r');
            let json = l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:"));
            json.or_else(|| l.starts_with('{').then_some(l))
                .filter(|j| j.starts_with('{'))
                .map(str::to_string)
        })
        .collect()
}

/// One event read two ways: through `push_body` (whole, and byte by byte) and as a parsed
/// `Value` through `push_event` (or, when `serde_json` cannot parse it, as a malformed body).
/// The push's answer and everything the stream holds after it must be the same.
///
/// With `before`, both streams read that event first (the byte reader then remembers the runs
/// of members it passed over in it, and steps over them where `json` repeats them).
fn same_reading(api: Api, before: Option<&[u8]>, json: &[u8], at: &str) {
    if api == Api::Ollama && !json.trim_ascii_start().starts_with(b"{") {
        // Not an object: a malformed body (`ndjson_lines_that_are_not_objects_are_malformed`).
        return;
    }
    let frame = |json: &[u8]| -> Vec<u8> {
        if api == Api::Ollama {
            [json, b"\n"].concat()
        } else {
            [b"data: ", json, b"\n\n"].concat()
        }
    };
    let body = frame(json);
    let mut by_value = EventStream::<Triage, SupportTool>::new(api);
    let first = before.map(|b| (serde_json::from_slice::<Value>(b), frame(b)));
    let first = match first {
        Some((Ok(v), framed)) => {
            let _ = by_value.push_event(&v);
            Some(framed)
        }
        // Not JSON (the cut end of a fixture): nothing to read first.
        Some((Err(_), _)) => return,
        None => None,
    };
    if by_value.error().is_some() {
        // The first event ended the stream (an error event): nothing after it is read.
        return;
    }
    let want = match serde_json::from_slice::<Value>(json) {
        Ok(v) => format!("{:?}", by_value.push_event(&v)),
        Err(_) => "malformed".to_string(),
    };
    let state = |s: &EventStream<Triage, SupportTool>| {
        let calls: Vec<_> = s
            .tools()
            .iter()
            .map(|t| {
                (
                    t.index,
                    t.id.clone(),
                    t.name.clone(),
                    t.arguments().to_string(),
                )
            })
            .collect();
        (s.reply(), calls, format!("{:?}", s.error()))
    };
    let chunks: &[usize] = if first.is_some() {
        &[usize::MAX]
    } else {
        &[usize::MAX, 1]
    };
    for &chunk in chunks {
        let mut s = EventStream::<Triage, SupportTool>::new(api);
        if let Some(first) = &first {
            let _ = s.push_body(first);
        }
        let mut got = Vec::new();
        for piece in body.chunks(chunk) {
            got.push(s.push_body(piece));
        }
        let got = match got.iter().find(|r| r.is_err()) {
            Some(Err(ParseError::Provider(ProviderError::Malformed { .. }))) => "malformed".into(),
            Some(e) => format!("{e:?}"),
            None => format!(
                "{:?}",
                Ok::<bool, ParseError>(got.iter().any(|r| r == &Ok(true)))
            ),
        };
        assert_eq!(got, want, "{at} ({chunk}-byte chunks)");
        if want != "malformed" {
            assert_eq!(state(&s), state(&by_value), "{at} ({chunk}-byte chunks)");
        }
    }
}

/// `push_body` reads the events it knows without a `Value` (`stream/provider/scan.rs`): on
/// every fixture's events, each with every byte deleted or replaced by one that changes its
/// JSON, it must read exactly what `push_event` of the parsed `Value` reads, and reject what
/// `serde_json` rejects.
#[test]
fn every_event_and_its_mutations_read_as_its_parsed_value() {
    let mut seen = std::collections::HashSet::new();
    for w in wants() {
        for json in raw_events(&raw(w.file)) {
            if !seen.insert((w.file, json.clone())) {
                continue;
            }
            let json = json.into_bytes();
            let at = format!("{}: {}", w.file, String::from_utf8_lossy(&json));
            same_reading(w.api, None, &json, &at);
            same_reading(w.api, Some(&json), &json, &format!("{at}, twice"));
            for k in 0..json.len() {
                let mut cut = json.clone();
                cut.remove(k);
                for before in [None, Some(&json[..])] {
                    let at = format!("{} byte {k} deleted, after: {}", w.file, before.is_some());
                    same_reading(w.api, before, &cut, &at);
                }
                for b in [b'"', b'\\', b'0', b'}', b'x', 0xff] {
                    if json[k] != b {
                        let mut changed = json.clone();
                        changed[k] = b;
                        for before in [None, Some(&json[..])] {
                            let at = format!(
                                "{} byte {k} -> {b:#x}, after: {}",
                                w.file,
                                before.is_some()
                            );
                            same_reading(w.api, before, &changed, &at);
                        }
                    }
                }
            }
        }
    }
}

/// Events of the shapes the byte reader must leave to the full reading or read with care:
/// keys written twice, escaped keys, `\u` escapes and surrogates, numbers of other forms,
/// nulls where a value is read, deep nesting.
#[test]
fn edge_events_read_as_their_parsed_value() {
    let chat = [
        r#"{"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]}"#,
        r#"{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}"#,
        r#"{"choices":[{"delta":{"content":"a"},"delta":{"role":"assistant"}}]}"#,
        r#"{"choices":[{"delta":{"content":"a"}}],"choices":[]}"#,
        r#"{"choices":[{"delta":{"con\u0074ent":"a"}}]}"#,
        r#"{"choices":[{"delta":{"content":"\ud83d\ude00 \u00e9\n\t\"\\\/\b\f\r"}}]}"#,
        r#"{"choices":[{"delta":{"content":"\ud83d"}}]}"#,
        r#"{"choices":[{"delta":{"content":"\ude00"}}]}"#,
        r#"{"choices":[{"delta":{"content":"\ud83d\u0041"}}]}"#,
        r#"{"choices":[{"delta":{"content":"\u00"}}]}"#,
        r#"{"choices":[{"delta":{"content":"é"}}]}"#,
        r#"{"choices":[{"delta":{"content":null},"finish_reason":null}],"usage":null}"#,
        r#"{"choices":[{"delta":{"content":""},"finish_reason":"length"}]}"#,
        r#"{"choices":[{"delta":{"content":7}}]}"#,
        r#"{"choices":[{"delta":null}]}"#,
        r#"{"choices":null}"#,
        r#"{"choices":[]}"#,
        r#"{"choices":[{"delta":{"refusal":"no"}}]}"#,
        r#"{"choices":[{"delta":{"reasoning_content":"think","content":"x"}}]}"#,
        r#"{"choices":[{"delta":{"reasoning":null,"reasoning_content":null,"content":"x"}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"c","function":{"name":"lookup_customer","arguments":"{\"em"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":1.0,"function":{"arguments":"x"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":-0,"function":{"arguments":"x"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":1e0,"function":{"arguments":"x"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":18446744073709551616,"function":{"arguments":"x"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"a"}},{"index":2,"function":{"arguments":"b"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":null,"content":"x"}}]}"#,
        r#"{"choices":[{"delta":{"content":"x"}}],"error":null}"#,
        r#"{"choices":[{"delta":{"content":"x"}}],"error":{"message":"boom"}}"#,
        r#"{"choices":[{"delta":{"content":"x"}}],"created":01}"#,
        r#"{"choices":[{"delta":{"content":"x"}}],"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
        r#"{"choices":[{"delta":{"content":"x"}}] , "a" : -1.5e+3 , "b":true,"c":false}  "#,
        r#"{"choices":[{"delta":{"content":"x"}}]}{}"#,
        r#"{"choices":[{"delta":{"content":"x"}}],}"#,
        r#"{"message":{"content":"x","thinking":"t"},"done":false}"#,
        r#"{"message":{"content":""},"done":true,"done_reason":"stop"}"#,
        r#"{"message":{"content":"x"},"message":{"content":"y"}}"#,
        r#"{"message":{"content":"x"},"choices":[{"delta":{"content":"y"}}]}"#,
        r#"{"message":{"tool_calls":[{"function":{"name":"lookup_customer","arguments":{}}}]}}"#,
    ];
    let responses = [
        r#"{"type":"response.output_text.delta","delta":"a","delta":"b"}"#,
        r#"{"type":"response.output_text.delta"}"#,
        r#"{"type":"response.output_text.delta","delta":null}"#,
        r#"{"type":"response.refusal.delta","delta":"no"}"#,
        r#"{"type":"response.reasoning_summary_text.delta","delta":"hm"}"#,
        r#"{"type":"response.function_call_arguments.delta","output_index":3,"delta":"{"}"#,
        r#"{"type":"response.function_call_arguments.delta","delta":"{"}"#,
        r#"{"type":"response.output_text.done","text":"whole"}"#,
        r#"{"type":"resp\u006fnse.output_text.delta","delta":"a"}"#,
        r#"{"type":"error","message":"boom","code":"x"}"#,
        r#"{"delta":"a"}"#,
    ];
    let anthropic = [
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"delta":{"type":"text_delta"}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"t"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":"text"}"#,
        r#"{"type":"ping"}"#,
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        r#"{"type":"content_block_delta","error":null,"delta":{"type":"text_delta","text":"a"}}"#,
    ];
    let gemini = [
        r#"{"candidates":[{"content":{"parts":[{"text":"a"},{"text":"t","thought":true},{"text":"b"}]}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a"},{"text":"b"},{"text":"c"},{"text":"d"},{"text":"e"}]}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":4}}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}],"usageMetadata":{"promptTokenCount":3,"totalTokenCount":9,"promptTokensDetails":[{"modality":"TEXT","tokenCount":3}]}}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}],"usageMetadata":null}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a"}],"parts":[]}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"lookup_customer","args":{"email":"a@b.c"}}}]}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"a","thought":"yes"}]}}]}"#,
        r#"{"candidates":[],"promptFeedback":{"blockReason":"SAFETY"}}"#,
        r#"{"candidates":[{"content":null}]}"#,
        r#"{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}"#,
    ];
    for (api, events) in [
        (Api::OpenAiChat, &chat[..]),
        (Api::Ollama, &chat[..]),
        (Api::OpenAiResponses, &responses[..]),
        (Api::Anthropic, &anthropic[..]),
        (Api::Gemini, &gemini[..]),
    ] {
        for e in events {
            same_reading(api, None, e.as_bytes(), &format!("{api:?}: {e}"));
        }
    }
}
