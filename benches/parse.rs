//! Parsing speed, as ratios measured in the same run (criterion does the timing):
//! - `from_json` vs `serde_json::from_str::<T>` (target: at most 1.3x);
//! - `from_json` vs the `jsonschema` pipeline (text -> Value -> compiled validator -> from_value;
//!   target: at least 1.5x faster on the seed replies, 2.5x on a ~180 KB payload);
//! - invalid input with every error collected vs `serde_json::from_str::<Value>` (target: at most 3x).
//!
//! Run with `cargo bench --bench parse`; the ratios are printed at the end.

use criterion::Criterion;
use schema_core::AgentSchema;
use schema_suite::seed004::UniversalResponse;
use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Duration;

fn seed_replies() -> Vec<String> {
    [
        "planning",
        "answer",
        "verification",
        "clarity",
        "research",
        "custom",
        "error",
    ]
    .iter()
    .map(|n| {
        let path = format!(
            "{}/tests/fixtures/seed004_response_{n}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).expect("fixture")
    })
    .collect()
}

const LEVELS: [&str; 3] = ["high", "medium", "low"];

/// A research reply of about 180 KB (the size the issue measured at): many findings and sources.
fn large_reply() -> String {
    let findings: Vec<Value> = (0..650)
        .map(|i| {
            json!({
                "topic": format!("Finding number {i} about database migrations"),
                "description": format!("Migration file {i} defines the users table with an index on email; it runs after the seed scripts and is reversible."),
                "source_file": format!("database/migrations/{i:04}_create_users.js"),
                "relevance": LEVELS[i % 3],
            })
        })
        .collect();
    let sources: Vec<String> = (0..300)
        .map(|i| format!("src/module_{i}/index.ts"))
        .collect();
    json!({
        "response_type": "research",
        "status": "success",
        "message": "Found many migration locations",
        "research_data": {"findings": findings, "sources": sources},
    })
    .to_string()
}

/// The planning reply with several mistakes (wrong types, an unknown property, a bad enum).
fn invalid_reply() -> String {
    let mut v: Value = serde_json::from_str(&seed_replies()[0]).unwrap();
    v["status"] = json!("done");
    v["planning_data"]["steps"][0]["step_number"] = json!("1");
    v["planning_data"]["steps"][3]["action"] = json!(4);
    v["extra"] = json!(true);
    v.to_string()
}

fn bench(c: &mut Criterion, name: &str, inputs: &[String]) {
    let schema = UniversalResponse::validation_schema();
    let compiled = jsonschema::validator_for(&schema).expect("schema compiles");
    let mut g = c.benchmark_group(name);
    g.bench_function("serde", |b| {
        b.iter(|| {
            for t in inputs {
                black_box(serde_json::from_str::<UniversalResponse>(black_box(t)).unwrap());
            }
        })
    });
    g.bench_function("from_json", |b| {
        b.iter(|| {
            for t in inputs {
                black_box(UniversalResponse::from_json(black_box(t)).unwrap());
            }
        })
    });
    g.bench_function("jsonschema", |b| {
        b.iter(|| {
            for t in inputs {
                let v: Value = serde_json::from_str(black_box(t)).unwrap();
                assert!(compiled.is_valid(&v));
                black_box(serde_json::from_value::<UniversalResponse>(v).unwrap());
            }
        })
    });
    g.finish();
}

fn bench_invalid(c: &mut Criterion, input: &str) {
    let mut g = c.benchmark_group("invalid");
    g.bench_function("value", |b| {
        b.iter(|| black_box(serde_json::from_str::<Value>(black_box(input)).unwrap()))
    });
    g.bench_function("from_json", |b| {
        b.iter(|| {
            let e = UniversalResponse::from_json(black_box(input)).unwrap_err();
            black_box(e.validation_errors().map(|e| e.len()));
        })
    });
    g.finish();
}

/// The mean time of one benchmark, read back from criterion's output.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR")
        .unwrap_or_else(|_| format!("{}/target", env!("CARGO_MANIFEST_DIR")));
    let path = format!("{dir}/criterion/{group}/{function}/new/estimates.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn main() {
    let replies = seed_replies();
    let large = vec![large_reply()];
    let invalid = invalid_reply();
    // The inputs must behave as the benchmark assumes.
    for t in replies.iter().chain(&large) {
        UniversalResponse::from_json(t).expect("valid input");
    }
    let errors = UniversalResponse::from_json(&invalid).unwrap_err();
    let n_errors = errors.validation_errors().map(|e| e.len()).unwrap_or(0);
    assert!(n_errors >= 4, "{errors}");

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench(&mut c, "seed_replies", &replies);
    bench(&mut c, "large_payload", &large);
    bench_invalid(&mut c, &invalid);
    c.final_summary();

    println!("\nratios (same run; lower is better for us)");
    println!(
        "payload: {} bytes; invalid reply: {} errors collected",
        large[0].len(),
        n_errors
    );
    for group in ["seed_replies", "large_payload"] {
        if let (Some(serde), Some(ours), Some(js)) = (
            mean_ns(group, "serde"),
            mean_ns(group, "from_json"),
            mean_ns(group, "jsonschema"),
        ) {
            println!(
                "{group:>14}: from_json / serde = {:.2}x (target <= 1.3x); jsonschema pipeline / from_json = {:.2}x (target >= {}x); jsonschema pipeline / serde = {:.2}x",
                ours / serde,
                js / ours,
                if group == "seed_replies" { "1.5" } else { "2.5" },
                js / serde
            );
        }
    }
    if let (Some(value), Some(ours)) =
        (mean_ns("invalid", "value"), mean_ns("invalid", "from_json"))
    {
        println!(
            "       invalid: from_json (all errors) / from_str::<Value> = {:.2}x (target <= 3x)",
            ours / value
        );
    }
}
