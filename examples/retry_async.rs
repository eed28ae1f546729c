//! The async retry loop, as a tokio + reqwest app writes it, against an OpenAI-compatible
//! server (a canned one on 127.0.0.1 here; `block_on` stands in for `#[tokio::main]` and the
//! canned `post` for reqwest). The model's first reply breaks the schema; the errors go back
//! as the next user message; the second reply is valid.
//!
//! Run: `cargo run --example retry_async`

use schema_core::provider::{merge_into, output_format, Provider};
use schema_core::retry::{retry_async, Answer, Retried, RetryOptions};
use schema_core::AgentSchema;
use schema_suite::canned::{block_on, chat_response, post, Server};
use serde_json::{json, Value};

/// How a support ticket is routed.
#[derive(AgentSchema, serde::Deserialize, Debug)]
struct Triage {
    /// 1 (lowest) to 5 (highest).
    #[schema(minimum = 1, maximum = 5)]
    priority: u8,
    /// One line for the queue.
    summary: String,
}

/// The HTTP call. With reqwest:
/// `client.post(url).json(&body).send().await?.json::<Value>().await`.
async fn send(url: &str, body: &Value) -> Result<Value, Box<dyn std::error::Error>> {
    Ok(serde_json::from_str(&post(url, &body.to_string())?)?)
}

async fn triage(url: &str, ticket: &str) -> Result<Retried<Triage>, Box<dyn std::error::Error>> {
    let mut messages = vec![
        json!({"role": "system", "content": "Triage the ticket."}),
        json!({"role": "user", "content": ticket}),
    ];
    let got: Retried<Triage> = retry_async(&RetryOptions::new().max_attempts(3), |previous| {
        // The previous attempt's reply and its feedback join the history...
        if let Some(p) = previous {
            messages.push(json!({"role": "assistant", "content": p.reply}));
            messages.push(json!({"role": "user", "content": p.feedback}));
        }
        // ...and the request body is built here, so that the future owns it.
        let mut body = json!({"model": "gpt-4.1-mini", "messages": messages});
        merge_into(
            &mut body,
            output_format::<Triage>(Provider::OpenAiChat).unwrap(),
        );
        async move {
            let response = send(url, &body).await?;
            Ok::<_, Box<dyn std::error::Error>>(Answer::from_response(
                Provider::OpenAiChat,
                &response,
            ))
        }
    })
    .await?;
    Ok(got)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::start(vec![
        chat_response(r#"{"priority": 9, "summary": "Card charged twice"}"#),
        chat_response(r#"{"priority": 4, "summary": "Card charged twice"}"#),
    ])?;
    let got = block_on(triage(&server.url, "I was charged twice for one order."))?;
    println!(
        "priority {} ({}) after {} attempt(s); first error: {}",
        got.value.priority, got.value.summary, got.attempts, got.errors[0]
    );
    assert_eq!((got.value.priority, got.attempts), (4, 2));
    let requests = server.requests();
    assert!(requests[1].contains("/priority: expected a number <= 5, found 9"));
    Ok(())
}
