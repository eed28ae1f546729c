//! Token counts (o200k_base) of every seed schema: minified JSON Schema, pretty-printed JSON
//! Schema, our TypeScript text with every description in full, and with descriptions cut to 50
//! characters (seed 003's convenience default).
//!
//! `cargo run --release --example token_savings` prints the table and the totals, and (with
//! `--strict`) exits with status 1 if a target on the whole corpus is missed: at least 50% fewer tokens than
//! minified JSON with full descriptions, 70% fewer than pretty-printed JSON, 60% fewer than
//! minified JSON with descriptions cut to 50 characters.
//!
//! It also prints a lower bound that no rendering keeping the seed's property names, types and
//! descriptions can beat: the tokens of our text with no comments at all (names, types and
//! punctuation only) plus the tokens of every description on its own (no comment delimiters, no
//! constraint notes). On the seed corpus the descriptions alone are about a third of the
//! minified JSON, so that bound shows how far the targets are reachable at all.

use schema_core::convert::{to_typescript, TsOptions};
use serde_json::Value;
use std::process::ExitCode;

/// Every schema of seeds 000 and 004, as extracted into `tests/fixtures/`.
const SEEDS: &[(&str, &str)] = &[
    (
        "000 §1 language",
        include_str!("../../tests/fixtures/seed000_1_language_schema.json"),
    ),
    (
        "000 §2 question evaluate",
        include_str!("../../tests/fixtures/seed000_2_question_evaluate_schema.json"),
    ),
    (
        "000 §3 code generator",
        include_str!("../../tests/fixtures/seed000_3_code_generator_schema.json"),
    ),
    (
        "000 §4 error analysis",
        include_str!("../../tests/fixtures/seed000_4_error_analysis_schema.json"),
    ),
    (
        "000 §5 research plan",
        include_str!("../../tests/fixtures/seed000_5_research_plan_schema.json"),
    ),
    (
        "000 §6 serp cluster",
        include_str!("../../tests/fixtures/seed000_6_serp_cluster_schema.json"),
    ),
    (
        "000 §7 query rewriter",
        include_str!("../../tests/fixtures/seed000_7_query_rewriter_schema.json"),
    ),
    (
        "000 §8.1 definitive",
        include_str!("../../tests/fixtures/seed000_8_1_definitive_evaluator.json"),
    ),
    (
        "000 §8.2 freshness",
        include_str!("../../tests/fixtures/seed000_8_2_freshness_evaluator.json"),
    ),
    (
        "000 §8.3 plurality",
        include_str!("../../tests/fixtures/seed000_8_3_plurality_evaluator.json"),
    ),
    (
        "000 §8.4 attribution",
        include_str!("../../tests/fixtures/seed000_8_4_attribution_evaluator.json"),
    ),
    (
        "000 §8.5 completeness",
        include_str!("../../tests/fixtures/seed000_8_5_completeness_evaluator.json"),
    ),
    (
        "000 §8.6 strict",
        include_str!("../../tests/fixtures/seed000_8_6_strict_evaluator.json"),
    ),
    (
        "000 §9 agent",
        include_str!("../../tests/fixtures/seed000_9_agent_schema.json"),
    ),
    (
        "004 universal response",
        include_str!("../../tests/fixtures/seed004_universal_schema.json"),
    ),
];

/// Every `description` string of a schema (not a property that happens to be called so).
fn descriptions<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                match (k.as_str(), c) {
                    ("description", Value::String(d)) => out.push(d),
                    ("properties", Value::Object(props)) => {
                        props.values().for_each(|p| descriptions(p, out))
                    }
                    _ => descriptions(c, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|c| descriptions(c, out)),
        _ => {}
    }
}

fn saving(ours: usize, theirs: usize) -> f64 {
    100.0 * (1.0 - ours as f64 / theirs as f64)
}

fn main() -> ExitCode {
    let bpe = match tiktoken_rs::o200k_base() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("o200k_base: {e}");
            return ExitCode::FAILURE;
        }
    };
    let count = |s: &str| bpe.encode_with_special_tokens(s).len();
    let full = TsOptions {
        max_description_len: usize::MAX,
        ..TsOptions::default()
    };
    let brief = TsOptions::brief();
    let bare = TsOptions {
        include_descriptions: false,
        include_constraints: false,
        ..TsOptions::default()
    };
    let verbose = std::env::args().any(|a| a == "--show");

    println!(
        "{:<26} {:>9} {:>9} {:>9} {:>9}",
        "schema", "minified", "pretty", "ts full", "ts 50"
    );
    let mut totals = [0usize; 4];
    // bare text, descriptions in full, descriptions cut to 50 characters
    let mut bound = [0usize; 3];
    for (name, text) in SEEDS {
        let schema: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (ts_full, ts_brief) = match (
            to_typescript(&schema, &full),
            to_typescript(&schema, &brief),
        ) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut ds = Vec::new();
        descriptions(&schema, &mut ds);
        bound[0] += to_typescript(&schema, &bare)
            .map(|t| count(&t))
            .unwrap_or(0);
        for d in ds {
            bound[1] += count(&format!(" {d}"));
            let cut: String = d.chars().take(50).collect();
            bound[2] += count(&format!(" {cut}"));
        }
        let minified = serde_json::to_string(&schema).unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&schema).unwrap_or_default();
        let row = [
            count(&minified),
            count(&pretty),
            count(&ts_full),
            count(&ts_brief),
        ];
        for (t, r) in totals.iter_mut().zip(row) {
            *t += r;
        }
        println!(
            "{:<26} {:>9} {:>9} {:>9} {:>9}",
            name, row[0], row[1], row[2], row[3]
        );
        if verbose {
            println!("  {ts_full}\n  {ts_brief}");
        }
    }
    println!(
        "{:<26} {:>9} {:>9} {:>9} {:>9}",
        "TOTAL", totals[0], totals[1], totals[2], totals[3]
    );

    let (floor_full, floor_brief) = (bound[0] + bound[1], bound[0] + bound[2]);
    println!(
        "\nlower bound: bare TypeScript {} tokens + descriptions alone {} (cut to 50: {})",
        bound[0], bound[1], bound[2]
    );
    println!(
        "  full: {floor_full} tokens = {:.1}% fewer than minified, {:.1}% fewer than pretty; \
         cut to 50: {floor_brief} = {:.1}% fewer than minified",
        saving(floor_full, totals[0]),
        saving(floor_full, totals[1]),
        saving(floor_brief, totals[0])
    );
    let targets = [
        (
            "ts full vs minified JSON",
            saving(totals[2], totals[0]),
            50.0,
        ),
        ("ts full vs pretty JSON", saving(totals[2], totals[1]), 70.0),
        ("ts 50 vs minified JSON", saving(totals[3], totals[0]), 60.0),
    ];
    let mut ok = true;
    println!();
    for (what, got, want) in targets {
        let pass = got >= want;
        ok &= pass;
        println!(
            "{what:<26} {got:>5.1}% fewer tokens (target >= {want:.0}%): {}",
            if pass { "ok" } else { "MISSED" }
        );
    }
    // The targets are reported, not enforced, unless `--strict` is passed: with every
    // description kept verbatim, the lower bound above shows the first two cannot be met on this
    // corpus, and CI runs every example.
    if ok || !std::env::args().any(|a| a == "--strict") {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
