//! The blocking retry loop against an OpenAI-compatible server (a canned one on 127.0.0.1
//! here): the model's first reply breaks the schema, the errors go back as the next user
//! message, the second reply is valid.
//!
//! Run: `cargo run --example retry`

use schema_core::provider::{merge_into, output_format, Provider};
use schema_core::retry::{retry, Answer, Retried, RetryOptions};
use schema_core::AgentSchema;
use schema_suite::canned::{chat_response, post, Server};
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::start(vec![
        chat_response(r#"{"priority": 9, "summary": "Card charged twice"}"#),
        chat_response(r#"{"priority": 4, "summary": "Card charged twice"}"#),
    ])?;

    let mut messages = vec![
        json!({"role": "system", "content": "Triage the ticket."}),
        json!({"role": "user", "content": "I was charged twice for one order."}),
    ];
    let got: Retried<Triage> = retry(&RetryOptions::new().max_attempts(3), |previous| {
        // The previous attempt's reply and its feedback join the history.
        if let Some(p) = previous {
            messages.push(json!({"role": "assistant", "content": p.reply}));
            messages.push(json!({"role": "user", "content": p.feedback}));
        }
        let mut body = json!({"model": "gpt-4.1-mini", "messages": messages});
        merge_into(
            &mut body,
            output_format::<Triage>(Provider::OpenAiChat).unwrap(),
        );
        // With reqwest: `client.post(url).json(&body).send()?.json::<Value>()?`.
        let response: Value = serde_json::from_str(&post(&server.url, &body.to_string())?)?;
        Ok::<_, Box<dyn std::error::Error>>(Answer::from_response(Provider::OpenAiChat, &response))
    })?;

    println!(
        "priority {} ({}) after {} attempt(s); first error: {}",
        got.value.priority, got.value.summary, got.attempts, got.errors[0]
    );
    assert_eq!((got.value.priority, got.attempts), (4, 2));
    // The second request carried the first reply and the feedback.
    let requests = server.requests();
    assert!(requests[1].contains("/priority: expected a number <= 5, found 9"));
    Ok(())
}
