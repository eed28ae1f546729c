//! Streaming: seed 004's planning agent answers in chunks; the plan is shown while it grows,
//! each finished step is acted on as soon as it closes, and a second reply is stopped at its
//! first violation, before the model has finished writing it.
//!
//! Run: `cargo run --example stream`

use schema_core::AgentSchema;
use schema_suite::seed004::{PlanStep, UniversalResponse, UniversalResponsePartial};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Cuts `text` into chunks of about `n` bytes, as a provider's stream would deliver it.
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
    let reply = format!(
        "<think>The user wants an auth plan. Five steps.</think>\nHere is the plan:\n```json\n{}\n```",
        fixture("seed004_response_planning.json")
    );
    println!(
        "=== a planning reply, {} bytes in 48-byte chunks",
        reply.len()
    );
    let mut stream = UniversalResponse::stream().watch("/planning_data/steps");
    for chunk in chunks(&reply, 48) {
        let update = stream.push(chunk).expect("a valid reply");
        if update.changed() {
            println!("{}", show(update.partial()));
        }
        for step in stream.items::<PlanStep>("/planning_data/steps") {
            let step = step.expect("a valid step");
            println!(
                "  -> step {} finished: {} ({} min)",
                step.step_number,
                step.action,
                step.estimated_minutes.unwrap_or(0)
            );
        }
    }
    let plan = stream.finish().expect("the whole reply is valid");
    assert_eq!(plan, UniversalResponse::from_llm(&reply).unwrap());
    println!("finished: {plan:?}\n");

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
