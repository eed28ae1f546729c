//! Streaming: seed 004's planning agent answers over OpenAI Chat Completions' server-sent
//! events. The raw HTTP body (a canned one, `tests/fixtures/providers/streams/raw/
//! openai_chat_planning.sse`) is fed as the network delivers it, cut anywhere; the plan is
//! shown while it grows, each finished step is acted on as soon as it closes, and the end
//! gives the finish, the usage and the reasoning kept apart from the answer. A second reply is
//! stopped at its first violation, before the model has finished writing it.
//!
//! With `reqwest` the loop is `while let Some(chunk) = resp.chunk().await? {
//! stream.push_body(&chunk)?; }`.
//!
//! Run: `cargo run --example stream`

use schema_core::provider::Finish;
use schema_core::stream::provider::{Api, EventStream};
use schema_core::AgentSchema;
use schema_suite::seed004::{PlanStep, UniversalResponse, UniversalResponsePartial};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Cuts `text` into chunks of about `n` bytes.
fn chunks(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let mut j = (i + n).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        out.push(&text[i..j]);
        i = j;
    }
    out
}

/// One line for the plan as it stands.
fn show(p: &UniversalResponsePartial) -> String {
    match p {
        UniversalResponsePartial::Undecided(_) => "(agent not known yet)".into(),
        UniversalResponsePartial::Planning {
            status,
            message,
            planning_data,
        } => {
            let steps = planning_data.steps.as_ref().map_or(0, Vec::len);
            format!(
                "status: {:?} | message: {:?} | summary: {:?} | steps so far: {steps}",
                status.get(),
                message.as_deref().unwrap_or(""),
                planning_data.summary.as_deref().unwrap_or(""),
            )
        }
        _ => "(another agent)".into(),
    }
}

fn main() {
    let body = fixture("providers/streams/raw/openai_chat_planning.sse");
    println!(
        "=== a planning reply streamed as server-sent events, {} bytes of body in 700-byte network chunks",
        body.len()
    );
    let mut stream = EventStream::<UniversalResponse>::new(Api::OpenAiChat);
    stream.text = UniversalResponse::stream().watch("/planning_data/steps");
    // The last snapshot shown, kept (partials are `Clone` and `PartialEq`).
    let mut last_shown = UniversalResponsePartial::default();
    for chunk in body.chunks(700) {
        stream.push_body(chunk).expect("a valid reply");
        let partial = stream.text.partial();
        if *partial != last_shown {
            let line = show(partial);
            if line != show(&last_shown) {
                println!("{line}");
            }
            last_shown = partial.clone();
        }
        for step in stream.text.items::<PlanStep>("/planning_data/steps") {
            let step = step.expect("a valid step");
            println!(
                "  -> step {} finished: {} ({} min)",
                step.step_number,
                step.action,
                step.estimated_minutes.unwrap_or(0)
            );
        }
    }
    let end = stream.finish();
    let plan = end.value.expect("the whole reply is valid");
    let reply = end.reply;
    assert_eq!(reply.finish, Finish::Stop);
    assert_eq!(
        plan,
        UniversalResponse::from_llm(reply.text.as_deref().unwrap_or("")).unwrap()
    );
    println!(
        "finished ({:?}, {} tokens); reasoning kept apart: {:?}",
        reply.finish,
        reply.usage.total_tokens.unwrap_or(0),
        reply.reasoning.as_deref().unwrap_or("")
    );
    println!("{plan:?}\n");

    let bad = r#"{"response_type": "planning", "status": "finished", "message": "Created a plan", "planning_data": {"summary": "A long plan the model would keep writing for a while ..."}}"#;
    println!(
        "=== a reply with an invalid status, {} bytes in 8-byte chunks",
        bad.len()
    );
    let mut stream = UniversalResponse::stream();
    let mut read = 0;
    for chunk in chunks(bad, 8) {
        match stream.push(chunk) {
            Ok(_) => read += chunk.len(),
            Err(e) => {
                println!(
                    "stopped after {} of {} bytes: {e}",
                    read + chunk.len(),
                    bad.len()
                );
                println!("feedback for a retry:\n{}", e.feedback());
                return;
            }
        }
    }
    unreachable!("the invalid status stops the stream");
}
