//! The README's typed call with retries and feedback written with `async-openai`'s own client
//! and request types, against the local OpenAI-compatible server of `common` replaying the
//! recorded bodies of `tests/recorded/` (no network): this library writes the strict response
//! format and reads each response, `retry_async` sends its feedback back; the lines the user
//! writes are counted.

// The stream helpers of `common` serve `rig_flow.rs` only.
#[allow(dead_code)]
mod common;

use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestMessage,
    ChatCompletionRequestUserMessage, CreateChatCompletionRequestArgs, ResponseFormat,
};
use async_openai::Client;
use common::{bounded, CityD as City, Reply, Server};
use schema_core::provider::{output_format, Provider};
use schema_core::retry::{retry_async, Answer, RetryError, RetryOptions};

const VALID: &str = include_str!("recorded/answer_valid.json");
const INVALID: &str = include_str!("recorded/answer_invalid.json");
const REFUSED: &str = r#"{"id":"chatcmpl-r","object":"chat.completion","created":1764300002,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#;

// flow:async-openai:begin
async fn city_with_async_openai(
    client: &Client<OpenAIConfig>,
) -> Result<City, RetryError<OpenAIError>> {
    let mut format = output_format::<City>(Provider::OpenAiChat).expect("OpenAI takes City");
    let format: ResponseFormat =
        serde_json::from_value(format["response_format"].take()).expect("a response format");
    let mut messages: Vec<ChatCompletionRequestMessage> =
        vec![ChatCompletionRequestUserMessage::from("Describe Lyon.").into()];
    let options = RetryOptions::new().max_attempts(3);
    let retried = retry_async::<City, _, _, _, _>(&options, |previous| {
        if let Some(p) = previous {
            messages.push(ChatCompletionRequestAssistantMessage::from(p.reply).into());
            messages.push(ChatCompletionRequestUserMessage::from(p.feedback).into());
        }
        let request = CreateChatCompletionRequestArgs::default()
            .model("gpt-4o-mini")
            .messages(messages.clone())
            .response_format(format.clone())
            .build();
        async move {
            let response = client.chat().create(request?).await?;
            let body = serde_json::to_value(response).unwrap_or_default();
            Ok(Answer::from_response(Provider::OpenAiChat, &body))
        }
    })
    .await?;
    Ok(retried.value)
}
// flow:async-openai:end

fn client(server: &Server) -> Client<OpenAIConfig> {
    Client::with_config(
        OpenAIConfig::new()
            .with_api_base(server.base_url.clone())
            .with_api_key("sk-test"),
    )
}

#[tokio::test]
async fn async_openai_typed_call_with_retries() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(INVALID), Reply::Json(VALID)]).await;
        let city = city_with_async_openai(&client(&server)).await.unwrap();
        assert_eq!(city.city, "Lyon");
        assert_eq!(city.population, 522_250);
        assert_eq!(city.landmarks, ["Fourvière", "Vieux Lyon"]);
        let requests = server.requests();
        assert_eq!(requests.len(), 2, "one retry");
        // async-openai sent this library's strict schema as it wrote it.
        let format = &requests[0]["response_format"];
        assert_eq!(format["type"], "json_schema");
        assert_eq!(format["json_schema"]["strict"], true);
        assert_eq!(
            format["json_schema"]["schema"],
            *<City as schema_core::AgentSchema>::json_schema(schema_core::Dialect::OpenAi)
        );
        // The retry holds the rejected reply and the feedback: every error with its path (the
        // brace in the reasoning block did not hide the JSON).
        let messages = requests[1]["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert_eq!(messages[1]["role"], "assistant");
        assert!(messages[1]["content"]
            .as_str()
            .is_some_and(|c| c.contains("about 522k")));
        let feedback = messages[2]["content"].to_string();
        assert!(
            feedback.contains("/population") && feedback.contains("/landmarks"),
            "{feedback}"
        );
        assert!(!feedback.contains("contained no JSON"), "{feedback}");
        println!(
            "async-openai typed call with retries and feedback: {} lines",
            common::lines_between(include_str!("async_openai_flow.rs"), "async-openai")
        );
    })
    .await;
}

#[tokio::test]
async fn async_openai_refusal_is_an_error_not_a_retry() {
    bounded(async {
        let server = Server::start(vec![Reply::Json(REFUSED), Reply::Json(VALID)]).await;
        let error = city_with_async_openai(&client(&server))
            .await
            .expect_err("a refusal is returned at once");
        let attempts = error.attempts();
        assert_eq!(attempts.len(), 1, "{error}");
        assert!(
            matches!(attempts[0], schema_core::ParseError::Refusal { .. }),
            "{:?}",
            attempts[0]
        );
        assert_eq!(server.requests().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn async_openai_gives_up_after_three_bad_replies() {
    bounded(async {
        let server = Server::start(vec![
            Reply::Json(INVALID),
            Reply::Json(INVALID),
            Reply::Json(INVALID),
        ])
        .await;
        let error = city_with_async_openai(&client(&server))
            .await
            .expect_err("three bad replies");
        assert_eq!(error.attempts().len(), 3, "{error}");
        assert_eq!(server.requests().len(), 3);
        // The third request carries both rejected replies and both feedback texts.
        assert_eq!(
            server.requests()[2]["messages"].as_array().unwrap().len(),
            5
        );
    })
    .await;
}

/// The README's async-openai lines are lines of the tested flow, and its count is the flow's.
#[test]
fn readme_shows_the_tested_flow_and_its_count() {
    let readme = include_str!("../../README.md");
    let flow = include_str!("async_openai_flow.rs");
    let count = common::lines_between(flow, "async-openai");
    assert!(
        readme.contains(&format!("async-openai 0.43 with `retry_async` {count}")),
        "the README's count is not {count}"
    );
    let block = readme
        .split("```rust,ignore\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.contains("CreateChatCompletionRequestArgs"))
        .expect("the README's async-openai block");
    let shown: Vec<&str> = block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    assert!(shown.len() >= 10, "{block}");
    let section = flow
        .split("// flow:async-openai:begin\n")
        .nth(1)
        .and_then(|rest| rest.split("// flow:async-openai:end").next())
        .expect("the flow's markers");
    let tested: Vec<&str> = section.lines().map(str::trim).collect();
    for line in shown {
        assert!(tested.contains(&line), "not in the tested flow: {line}");
    }
}
