//! schema-rig through rig's own OpenAI client (chat completions) against a local
//! OpenAI-compatible server on 127.0.0.1 that replays recorded bodies (`tests/recorded/`,
//! in the format OpenAI's API returns; no network): a strict structured output, a reply
//! mended by one feedback retry, two typed tool calls, a tool call refused with paths, a stream
//! of partial values, a stream of typed tool calls; and the user code of that flow against the same flow in plain rig, lines
//! counted.

mod common;

use common::{bounded, stream_chunks, tool_call_chunks, CityD, Reply, Server};
use futures::StreamExt;
use rig_agent::agent::OutputMode;
use rig_agent::{Agent, AgentBuilder};
use rig_core::providers::openai::OpenAIConfig;
use schema_core::provider::Provider;
use schema_core::{AgentSchema, Schemars};
use schema_rig::{Checked, ToolCheck, Typed};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

const VALID: &str = include_str!("recorded/answer_valid.json");
const INVALID: &str = include_str!("recorded/answer_invalid.json");
const TOOL_CALLS: &str = include_str!("recorded/tool_calls.json");
const AFTER_TOOLS: &str = include_str!("recorded/after_tools.json");
const TOOL_CALL_BAD: &str = include_str!("recorded/tool_call_bad.json");

/// A city, as the model describes it.
#[derive(schemars::JsonSchema, Deserialize, Debug, PartialEq)]
struct City {
    city: String,
    #[schemars(range(min = 0))]
    population: u64,
    country: Option<String>,
    #[schemars(length(max = 3))]
    landmarks: Vec<String>,
}

fn lyon() -> City {
    City {
        city: "Lyon".into(),
        population: 522_250,
        country: None,
        landmarks: vec!["Fourvière".into(), "Vieux Lyon".into()],
    }
}

/// The tools of the agent: each variant one tool.
#[derive(AgentSchema, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "tool", rename_all = "snake_case")]
#[schema(tools)]
enum Tool {
    /// Weather forecast for a city
    Weather {
        city: String,
        days: Option<u8>,
        #[serde(default)]
        fields: Vec<String>,
    },
    /// Convert an amount between currencies
    Convert {
        amount: f64,
        from: String,
        to: String,
    },
}

/// The input schema of a tool defined outside this library (an MCP server's, say): `tail` is
/// optional and not nullable, so a strict-mode `null` there breaks it.
fn read_file_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path"},
            "tail": {"type": "integer", "minimum": 1}
        },
        "required": ["path"]
    })
}

fn model(server: &Server) -> rig_core::Model<rig_core::providers::openai::wire::Chat> {
    OpenAIConfig::new("sk-test")
        .with_base_url(server.base_url.clone())
        .client()
        .chat("gpt-4o-mini")
}

// flow:schema-rig:begin
async fn city_with_schema_rig(
    model: impl Into<rig_core::DynModel<rig_core::operation::Completion>>,
) -> Result<City, schema_rig::Error> {
    let schema =
        schema_rig::output_schema::<City>(Provider::OpenAiChat).expect("OpenAI takes City");
    let agent = AgentBuilder::new(model)
        .output_schema_raw(schema)
        .output_mode(OutputMode::Native)
        .add_hook(Checked::<City>::new().max_retries(2))
        .default_max_turns(3)
        .build();
    schema_rig::prompt_typed::<City>(agent.prompt("Describe Lyon.")).await
}
// flow:schema-rig:end

// flow:plain-rig:begin
async fn city_with_plain_rig(
    model: impl Into<rig_core::DynModel<rig_core::operation::Completion>>,
) -> Result<City, String> {
    let agent = AgentBuilder::new(model)
        .output_schema::<City>()
        .output_mode(OutputMode::Native)
        .build();
    let mut prompt = "Describe Lyon.".to_string();
    for _ in 0..3 {
        let reply = agent
            .prompt(prompt.as_str())
            .await
            .map_err(|e| e.to_string())?
            .output();
        let start = reply.find(['{', '[']).unwrap_or(0);
        let end = reply.rfind(['}', ']']).map_or(reply.len(), |i| i + 1);
        match serde_json::from_str::<City>(reply.get(start..end).unwrap_or("")) {
            Ok(city) if city.landmarks.len() <= 3 => return Ok(city),
            Ok(_) => {
                prompt =
                    format!("Describe Lyon. Your last reply had more than 3 landmarks: {reply}")
            }
            Err(e) => prompt = format!("Describe Lyon. Your last reply was invalid ({e}): {reply}"),
        }
    }
    Err("no valid reply in 3 attempts".into())
}
// flow:plain-rig:end

use schema_core::provider::{merge_into, output_format};
use schema_core::retry::{retry_async, Answer, RetryError, RetryOptions};

// flow:reqwest:begin
async fn city_with_reqwest(base_url: &str) -> Result<CityD, RetryError<reqwest::Error>> {
    let http = reqwest::Client::new();
    let mut messages = vec![json!({"role": "user", "content": "Describe Lyon."})];
    let options = RetryOptions::new().max_attempts(3);
    let retried = retry_async::<CityD, _, _, _, _>(&options, |previous| {
        if let Some(p) = previous {
            messages.push(json!({"role": "assistant", "content": p.reply}));
            messages.push(json!({"role": "user", "content": p.feedback}));
        }
        let mut body = json!({"model": "gpt-4o-mini", "messages": messages});
        merge_into(
            &mut body,
            output_format::<CityD>(Provider::OpenAiChat).expect("OpenAI takes CityD"),
        );
        let request = http
            .post(format!("{base_url}/chat/completions"))
            .bearer_auth("sk-test")
            .json(&body);
        async move {
            let body: Value = request.send().await?.json().await?;
            Ok(Answer::from_response(Provider::OpenAiChat, &body))
        }
    })
    .await?;
    Ok(retried.value)
}
// flow:reqwest:end

#[tokio::test]
async fn plain_reqwest_typed_call_with_retries() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(INVALID), Reply::Json(VALID)]).await;
        let city = city_with_reqwest(&server.base_url).await.unwrap();
        assert_eq!(city.landmarks, lyon().landmarks);
        let requests = server.requests();
        assert_eq!(
            requests[0]["response_format"]["json_schema"]["strict"],
            true
        );
        let retry = requests[1]["messages"].to_string();
        assert!(
            retry.contains("/population") && retry.contains("/landmarks"),
            "{retry}"
        );
        println!(
            "plain reqwest typed call with retries and feedback: {} lines",
            lines_between("reqwest")
        );
    })
    .await;
}

fn lines_between(tag: &str) -> usize {
    common::lines_between(include_str!("rig_flow.rs"), tag)
}

#[tokio::test]
async fn strict_structured_output() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(VALID)]).await;
        let city = city_with_schema_rig(model(&server)).await.unwrap();
        assert_eq!(city, lyon());
        // rig sent this library's strict schema as the response format.
        let requests = server.requests();
        assert_eq!(requests.len(), 1);
        let format = &requests[0]["response_format"];
        assert_eq!(format["type"], "json_schema", "{}", requests[0]);
        let sent = &format["json_schema"]["schema"];
        let ours = Schemars::<City>::json_schema(schema_core::Dialect::OpenAi).unwrap();
        assert_eq!(
            sent["required"],
            json!(["city", "population", "country", "landmarks"])
        );
        assert_eq!(
            sent["properties"], ours["properties"],
            "rig changed the schema"
        );
        assert_eq!(sent["additionalProperties"], false);
        // The constraint OpenAI does not take is a tag the model reads (and the validator
        // enforces); schemars' `format: "uint64"` is gone.
        assert!(
            sent["properties"]["landmarks"]["description"]
                .as_str()
                .is_some_and(|d| d.contains("@maxItems 3"))
                || sent["properties"]["landmarks"]["maxItems"] == 3
        );
        assert!(sent["properties"]["population"].get("format").is_none());
    })
    .await;
}

#[tokio::test]
async fn reply_mended_by_one_feedback_retry() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(INVALID), Reply::Json(VALID)]).await;
        let city = city_with_schema_rig(model(&server)).await.unwrap();
        assert_eq!(city, lyon());
        let requests = server.requests();
        assert_eq!(requests.len(), 2, "one retry");
        // The retry carries this library's feedback: every error with its path.
        let retry = requests[1]["messages"].to_string();
        assert!(retry.contains("/population"), "{retry}");
        assert!(retry.contains("/landmarks"), "{retry}");
        // The brace inside the reasoning block did not confuse the reader: the errors are the
        // JSON's, not "no JSON".
        assert!(!retry.contains("contained no JSON"), "{retry}");

        // Plain rig on the same recorded bodies: its first parse fails without a path, and its
        // retry loop is the user's to write.
        let server = Server::start(vec![Reply::Json(INVALID), Reply::Json(VALID)]).await;
        let plain = city_with_plain_rig(model(&server)).await;
        assert_eq!(plain.unwrap(), lyon());
        let retry = server.requests()[1]["messages"].to_string();
        assert!(!retry.contains("/population"), "{retry}");

        let ours = lines_between("schema-rig");
        let theirs = lines_between("plain-rig");
        println!("typed call with retries and feedback: schema-rig {ours} lines, plain rig {theirs} lines");
        assert!(ours < theirs);
    })
    .await;
}

#[tokio::test]
async fn two_typed_tool_calls() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(TOOL_CALLS), Reply::Json(AFTER_TOOLS)]).await;
        let calls: Arc<Mutex<Vec<Tool>>> = Arc::default();
        let seen = Arc::clone(&calls);
        let tools = schema_rig::typed_tools::<Tool, _, _>(Provider::OpenAiChat, move |call| {
            seen.lock().unwrap().push(call.clone());
            async move {
                Ok(match call {
                    Tool::Weather { city, .. } => json!({"city": city, "celsius": 18}),
                    Tool::Convert { amount, .. } => json!({"usd": amount * 1.08}),
                })
            }
        })
        .unwrap();
        let agent: Agent = AgentBuilder::new(model(&server))
            .dynamic_tools(tools)
            .default_max_turns(4)
            .build();
        let response = agent
            .prompt("Weather in Paris, and 12.5 EUR in USD?")
            .await
            .unwrap();
        assert!(response.output().contains("13.50 USD"));
        // The handler saw typed calls: the strict-mode `null`s read back to absent (`days`
        // None, `fields` its default; plain serde refuses `null` for a `Vec`).
        let calls = calls.lock().unwrap().clone();
        assert_eq!(
            calls,
            [
                Tool::Weather {
                    city: "Paris".into(),
                    days: None,
                    fields: vec![]
                },
                Tool::Convert {
                    amount: 12.5,
                    from: "EUR".into(),
                    to: "USD".into()
                }
            ]
        );
        assert!(serde_json::from_str::<Vec<String>>("null").is_err());
        let requests = server.requests();
        // The tool definitions rig sent are this library's strict schemas.
        let tools = &requests[0]["tools"];
        let weather = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["function"]["name"] == "weather")
            .unwrap();
        assert_eq!(
            weather["function"]["parameters"]["required"],
            json!(["city", "days", "fields"])
        );
        assert_eq!(
            weather["function"]["description"],
            "Weather forecast for a city"
        );
        // Both results went back to the model.
        let second = requests[1]["messages"].to_string();
        assert!(
            second.contains("call_w1") && second.contains("call_c1"),
            "{second}"
        );
        assert!(second.contains("celsius"), "{second}");
    })
    .await;
}

#[tokio::test]
async fn tool_call_with_bad_arguments_is_refused_with_paths() {
    bounded(async {
        let server =
            Server::start(vec![Reply::Json(TOOL_CALL_BAD), Reply::Json(AFTER_TOOLS)]).await;
        let ran: Arc<Mutex<Vec<Value>>> = Arc::default();
        let seen = Arc::clone(&ran);
        let set = schema_core::tools::ToolSet::new([(
            "read_file",
            Some("Read a file"),
            read_file_schema(),
        )]);
        // The strict parameters OpenAI gets: `tail` required and nullable.
        let parameters =
            set.definitions(Provider::OpenAiChat).tools[0]["function"]["parameters"].clone();
        assert_eq!(parameters["required"], json!(["path", "tail"]));
        let read_file = rig_core::tool::DynamicTool::new(
            rig_core::message::ToolName::new("read_file").unwrap(),
            "Read a file",
            parameters,
            move |args| {
                seen.lock().unwrap().push(args);
                Box::pin(async { Ok(rig_core::tool::ToolOutput::text("line 1")) })
            },
        );
        let check = ToolCheck::new(set);
        let agent = AgentBuilder::new(model(&server))
            .add_hook(check)
            .dynamic_tool(read_file)
            .default_max_turns(4)
            .build();
        agent.prompt("Read notes.txt").await.unwrap();
        // The good call ran, its `null` read back to absent; the bad one never reached the tool.
        assert_eq!(*ran.lock().unwrap(), [json!({"path": "notes.txt"})]);
        // The model read the feedback of the bad call: every error with its path.
        let second = server.requests()[1]["messages"].to_string();
        assert!(
            second.contains("/path") && second.contains("/tail"),
            "{second}"
        );
    })
    .await;
}

#[tokio::test]
async fn stream_of_partial_values() {
    bounded(async {
        let text = r#"{"city":"Lyon","population":522250,"country":null,"landmarks":["Fourvière","Vieux Lyon"]}"#;
        let server = Server::start(vec![Reply::Sse(stream_chunks(text, 9))]).await;
        let schema = schema_rig::output_schema::<City>(Provider::OpenAiChat).unwrap();
        let agent = AgentBuilder::new(model(&server))
            .output_schema_raw(schema)
            .output_mode(OutputMode::Native)
            .build();
        let stream = schema_rig::typed_stream::<City>(agent.prompt("Describe Lyon.").stream());
        let items: Vec<_> = stream.collect().await;
        let mut partials = Vec::new();
        let mut done = None;
        for item in items {
            match item.unwrap() {
                Typed::Partial(v) => partials.push(v),
                Typed::Done(city) => done = Some(city),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(done, Some(lyon()));
        assert!(partials.len() >= 5, "{partials:?}");
        // The city's name grew before the population appeared, and the landmarks came one by one.
        assert!(partials
            .iter()
            .any(|p| p.get("city").is_some() && p.get("population").is_none()));
        assert!(partials.iter().any(|p| p["landmarks"].as_array().is_some_and(|a| a.len() == 1)));
        assert_eq!(partials.last().unwrap()["landmarks"][1], "Vieux Lyon");
        // The request asked for a stream, with this library's schema.
        let request = &server.requests()[0];
        assert_eq!(request["stream"], true);
        assert_eq!(request["response_format"]["json_schema"]["schema"]["additionalProperties"], false);
    })
    .await;
}

#[tokio::test]
async fn streamed_reply_mended_by_a_retry_starts_over() {
    bounded(async {
        let bad = r#"{"city":"Lyon","population":"many","country":null,"landmarks":[]}"#;
        let good = r#"{"city":"Lyon","population":522250,"country":null,"landmarks":["Fourvière","Vieux Lyon"]}"#;
        let server = Server::start(vec![
            Reply::Sse(stream_chunks(bad, 16)),
            Reply::Sse(stream_chunks(good, 16)),
        ])
        .await;
        let agent = AgentBuilder::new(model(&server))
            .output_schema_raw(schema_rig::output_schema::<City>(Provider::OpenAiChat).unwrap())
            .output_mode(OutputMode::Native)
            .add_hook(Checked::<City>::new())
            .default_max_turns(3)
            .build();
        // The typed stream reports the first byte of the bad value (`"many"` cannot be an
        // integer), then the hook's retry, then the mended reply.
        let items: Vec<_> = schema_rig::typed_stream::<City>(agent.prompt("Describe Lyon.").stream())
            .collect()
            .await;
        let error = items
            .iter()
            .position(|i| matches!(i, Err(schema_rig::Error::Parse(e)) if e.validation_errors().is_some_and(|v| v.paths() == ["/population"])))
            .expect("the early error");
        let restart = items
            .iter()
            .position(|i| matches!(i, Ok(Typed::Restarted)))
            .expect("the restart");
        assert!(error < restart, "{items:?}");
        assert!(items[restart + 1..]
            .iter()
            .any(|i| matches!(i, Ok(Typed::Partial(p)) if p["city"] == "Lyon")));
        assert!(matches!(items.last(), Some(Ok(Typed::Done(c))) if *c == lyon()), "{items:?}");
        let retry = server.requests()[1]["messages"].to_string();
        assert!(retry.contains("/population"), "{retry}");
    })
    .await;
}

#[tokio::test]
async fn stream_of_typed_tool_calls_then_the_typed_reply() {
    bounded(async {
        let city = r#"{"city":"Lyon","population":522250,"country":null,"landmarks":["Fourvière","Vieux Lyon"]}"#;
        let server = Server::start(vec![
            Reply::Sse(tool_call_chunks(
                &[
                    ("call_w1", "weather", r#"{"city":"Paris","days":null,"fields":null}"#),
                    ("call_c1", "convert", r#"{"amount":12.5,"from":"EUR","to":"USD"}"#),
                    ("call_c2", "convert", r#"{"amount":"twelve","from":"EUR"}"#),
                ],
                7,
            )),
            Reply::Sse(stream_chunks(city, 9)),
        ])
        .await;
        let ran: Arc<Mutex<Vec<Tool>>> = Arc::default();
        let seen = Arc::clone(&ran);
        let tools = schema_rig::typed_tools::<Tool, _, _>(Provider::OpenAiChat, move |call| {
            seen.lock().unwrap().push(call);
            async { Ok(json!({"ok": true})) }
        })
        .unwrap();
        let agent = city_agent_with_tools(&server, tools);
        let mut stream = std::pin::pin!(schema_rig::typed_stream_with_tools::<City, Tool>(
            agent.prompt("Plan my trip.").stream()
        ));
        let mut calls = Vec::new();
        let mut errors = Vec::new();
        let mut partials = 0;
        let mut done = None;
        while let Some(item) = stream.next().await {
            match item {
                Ok(Typed::ToolCall { id, call }) => {
                    // Each call comes as its arguments end: before rig runs any tool, and
                    // before the reply's first partial.
                    assert!(ran.lock().unwrap().is_empty(), "{id}");
                    assert_eq!(partials, 0, "{id}");
                    calls.push((id, call));
                }
                Ok(Typed::Partial(_)) => partials += 1,
                Ok(Typed::Done(city)) => done = Some(city),
                Err(schema_rig::Error::Parse(e)) => errors.push(e),
                other => panic!("{other:?}"),
            }
        }
        // The strict-mode `null`s read back to absent: `days` None, `fields` its default.
        let weather = Tool::Weather {
            city: "Paris".into(),
            days: None,
            fields: vec![],
        };
        let convert = Tool::Convert {
            amount: 12.5,
            from: "EUR".into(),
            to: "USD".into(),
        };
        assert_eq!(
            calls,
            [
                ("call_w1".to_string(), weather.clone()),
                ("call_c1".to_string(), convert.clone())
            ]
        );
        // The third call's arguments are no `Convert`: its error, with every path, and the
        // stream went on.
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(
            errors[0].validation_errors().map(|v| v.paths()),
            Some(vec!["/amount", "/to"])
        );
        assert!(partials >= 5);
        assert_eq!(done, Some(lyon()));
        // rig ran the two good calls; the bad one never reached the handler.
        assert_eq!(*ran.lock().unwrap(), [weather, convert]);
        let second = server.requests()[1]["messages"].to_string();
        assert!(second.contains("call_c2") && second.contains("amount"), "{second}");
    })
    .await;
}

/// The agent of [`text_before_tool_calls_is_not_the_reply`] on a fresh server: a turn writing
/// JSON-looking text, then calling a tool; then the reply.
async fn text_then_tool_then_reply() -> (Server, Agent) {
    let city = r#"{"city":"Lyon","population":522250,"country":null,"landmarks":["Fourvière","Vieux Lyon"]}"#;
    let mut first = stream_chunks(r#"Checking {"city":"Paris"} first: "#, 8);
    first.pop(); // its `stop`: the turn goes on with a tool call
    first.extend(tool_call_chunks(
        &[(
            "call_w1",
            "weather",
            r#"{"city":"Paris","days":null,"fields":null}"#,
        )],
        7,
    ));
    let server = Server::start(vec![Reply::Sse(first), Reply::Sse(stream_chunks(city, 9))]).await;
    let tools = schema_rig::typed_tools::<Tool, _, _>(Provider::OpenAiChat, |_call| async {
        Ok(json!({"celsius": 18}))
    })
    .unwrap();
    let agent = city_agent_with_tools(&server, tools);
    (server, agent)
}

/// An agent with `tools` whose reply is a `City` (this library's strict schema, native mode).
fn city_agent_with_tools(server: &Server, tools: Vec<rig_core::tool::DynamicTool>) -> Agent {
    AgentBuilder::new(model(server))
        .dynamic_tools(tools)
        .output_schema_raw(schema_rig::output_schema::<City>(Provider::OpenAiChat).unwrap())
        .output_mode(OutputMode::Native)
        .default_max_turns(3)
        .build()
}

#[tokio::test]
async fn text_before_tool_calls_is_not_the_reply() {
    bounded(async {
        let (_server, agent) = text_then_tool_then_reply().await;
        let items: Vec<_> = schema_rig::typed_stream_with_tools::<City, Tool>(
            agent.prompt("Plan my trip.").stream(),
        )
        .collect()
        .await;
        let items: Vec<_> = items.into_iter().map(Result::unwrap).collect();
        // The text of the tool-calling turn showed a partial; the turn's end starts it over.
        assert!(matches!(&items[1], Typed::Partial(p) if p["city"] == "Paris"), "{items:?}");
        let call = items
            .iter()
            .position(|i| matches!(i, Typed::ToolCall { .. }))
            .expect("the call");
        assert_eq!(items[call + 1], Typed::Restarted, "{items:?}");
        let after = &items[call + 2..];
        assert!(after
            .iter()
            .any(|i| matches!(i, Typed::Partial(p) if p["landmarks"].as_array().is_some_and(|a| a.len() == 2))));
        assert!(!after
            .iter()
            .any(|i| matches!(i, Typed::Partial(p) if p["city"] == "Paris")));
        assert_eq!(items.last(), Some(&Typed::Done(lyon())));

        // The same without tool items.
        let (_server, agent) = text_then_tool_then_reply().await;
        let items: Vec<_> = schema_rig::typed_stream::<City>(agent.prompt("Plan my trip.").stream())
            .collect()
            .await;
        let restart = items
            .iter()
            .position(|i| matches!(i, Ok(Typed::Restarted)))
            .expect("the restart");
        assert!(items[restart + 1..]
            .iter()
            .all(|i| !matches!(i, Ok(Typed::Partial(p)) if p["city"] == "Paris")));
        assert!(matches!(items.last(), Some(Ok(Typed::Done(c))) if *c == lyon()), "{items:?}");
    })
    .await;
}
