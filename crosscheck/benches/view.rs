//! Narrowing per request (issue: under 20 µs for narrowing + OpenAI rendering of the agent schema).
//!
//! Run with `cargo bench --bench view`. `narrow+openai` renders from the type's cached OpenAI
//! schema (the view's fast path); `narrow+openai(converted)` converts the narrowed JSON Schema,
//! the reference the fast path is tested against (`tests/view_render.rs`).

use criterion::Criterion;
use schema_core::__private::{view_json_schema_converted, view_renders_fast};
use schema_core::convert::{self, DialectOptions, TsOptions};
use schema_core::view::View;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::AgentStep;
use schema_suite::seed004::UniversalResponse;
use std::hint::black_box;
use std::time::Duration;

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    // The benchmarked view must take the fast path, or this measures something else.
    assert!(view_renders_fast(
        &View::<AgentStep>::new()
            .keep_variants("", &["search", "reflect", "answer"])
            .unwrap(),
        Dialect::OpenAi
    ));
    let mut g = c.benchmark_group("view");
    g.bench_function("narrow", |b| {
        b.iter(|| {
            black_box(
                View::<AgentStep>::new()
                    .keep_variants("", black_box(&["search", "reflect", "answer"]))
                    .unwrap(),
            )
        })
    });
    g.bench_function("narrow+openai", |b| {
        b.iter(|| {
            let v = View::<AgentStep>::new()
                .keep_variants("", black_box(&["search", "reflect", "answer"]))
                .unwrap();
            black_box(v.json_schema(Dialect::OpenAi).unwrap())
        })
    });
    // Seed 000's step: the allowed actions, and the current question in a description.
    g.bench_function("narrow+describe+openai", |b| {
        b.iter(|| {
            let v = View::<AgentStep>::new()
                .keep_variants("", black_box(&["search", "reflect", "answer"]))
                .unwrap()
                .describe("think", black_box("Question: what changed in Rust 1.95?"))
                .unwrap();
            black_box(v.json_schema(Dialect::OpenAi).unwrap())
        })
    });
    // The same narrowing rendered by converting the narrowed JSON Schema (no fast path).
    g.bench_function("narrow+openai(converted)", |b| {
        b.iter(|| {
            let v = View::<AgentStep>::new()
                .keep_variants("", black_box(&["search", "reflect", "answer"]))
                .unwrap();
            black_box(view_json_schema_converted(&v, Dialect::OpenAi).unwrap())
        })
    });
    g.bench_function("narrow+typescript", |b| {
        b.iter(|| {
            let v = View::<AgentStep>::new()
                .keep_variants("", black_box(&["search", "reflect", "answer"]))
                .unwrap();
            black_box(v.typescript().unwrap())
        })
    });
    g.finish();

    // The converters alone, on the full schemas of seed 000 and seed 004.
    let agent = AgentStep::json_schema(Dialect::JsonSchema);
    let universal = UniversalResponse::json_schema(Dialect::JsonSchema);
    let close = DialectOptions::new().close_maps(true);
    let ts = TsOptions::default();
    let mut g = c.benchmark_group("convert");
    g.bench_function("agent/openai", |b| {
        b.iter(|| black_box(convert::to_dialect(black_box(agent), Dialect::OpenAi).unwrap()))
    });
    g.bench_function("agent/typescript", |b| {
        b.iter(|| black_box(convert::to_typescript(black_box(agent), &ts).unwrap()))
    });
    g.bench_function("universal/openai", |b| {
        b.iter(|| {
            black_box(
                convert::to_dialect_with(black_box(universal), Dialect::OpenAi, &close).unwrap(),
            )
        })
    });
    g.bench_function("universal/typescript", |b| {
        b.iter(|| black_box(convert::to_typescript(black_box(universal), &ts).unwrap()))
    });
    g.finish();
    c.final_summary();

    println!("\nper request (same run; target: narrowing + OpenAI rendering under 20 µs)");
    for f in [
        "narrow",
        "narrow+openai",
        "narrow+describe+openai",
        "narrow+openai(converted)",
        "narrow+typescript",
    ] {
        if let Some(ns) = mean_ns("view", f) {
            println!("{f:>26}: {:.1} µs", ns / 1000.0);
        }
    }
}

/// The mean time of one benchmark, read back from criterion's output.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR")
        .unwrap_or_else(|_| format!("{}/../target", env!("CARGO_MANIFEST_DIR")));
    let path = format!("{dir}/criterion/{group}/{function}/new/estimates.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}
