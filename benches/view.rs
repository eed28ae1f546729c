//! Narrowing per request (issue: under 20 µs for narrowing + OpenAI rendering of the agent schema).
//!
//! Run with `cargo bench --bench view`.

use criterion::Criterion;
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
        b.iter(|| black_box(convert::to_dialect(black_box(&agent), Dialect::OpenAi).unwrap()))
    });
    g.bench_function("agent/typescript", |b| {
        b.iter(|| black_box(convert::to_typescript(black_box(&agent), &ts).unwrap()))
    });
    g.bench_function("universal/openai", |b| {
        b.iter(|| {
            black_box(
                convert::to_dialect_with(black_box(&universal), Dialect::OpenAi, &close).unwrap(),
            )
        })
    });
    g.bench_function("universal/typescript", |b| {
        b.iter(|| black_box(convert::to_typescript(black_box(&universal), &ts).unwrap()))
    });
    g.finish();
    c.final_summary();
}
