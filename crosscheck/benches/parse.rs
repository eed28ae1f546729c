//! Parsing speed, as ratios measured in the same run (criterion does the timing):
//! - `from_json` vs `serde_json::from_str::<T>` (target: at most 1.3x);
//! - `from_json` vs the `jsonschema` pipeline (text -> Value -> compiled validator -> from_value;
//!   target: at least 1.5x faster on the seed replies, 2.5x on a ~100-180 KB payload);
//! - invalid input with every error collected vs `serde_json::from_str::<Value>` (target: at most 3x).
//!
//! Payloads: the 7 seed 004 replies, a 180 KB research reply, a 100 KB planning reply, seed 000's
//! two smallest replies (`Language`, `QuestionEvaluate`: the fixed cost per call dominates) and a
//! recursive outline (a `{title, children}` tree of 2,801 nodes, about 177 KB) and a list of 100
//! externally tagged enums (serde's default representation: unit variants as strings, the others
//! as `{"Variant": payload}`).
//!
//! Run with `cargo bench --bench parse`; the ratios are printed at the end, twice: from criterion's
//! means, and measured interleaved (every contender timed back to back in each of 301 rounds,
//! medians of the per-round ratios), which machine-load drift between criterion's separate
//! measurement windows does not skew. `PARSE_INTERLEAVED=<payload|all>` runs only the interleaved
//! measurement (a few seconds, no criterion).
//!
//! For instruction counts, `PARSE_ONLY=<payload>:<serde|from_json|jsonschema>:<n>` builds only
//! that payload, runs one contender `n` times and exits, for `valgrind --tool=callgrind`: the
//! difference between a run with `n` and one with `0` is the cost of `n` parses (use `n` large
//! enough that the set-up's jitter of about 8 K instructions is small per parse: 10,000 for the
//! seed 000 types, 200 for the enums). Last counts, `from_json` against serde: `language` 1,720 /
//! 1,451, `question_evaluate` 2,822 / 2,369, `seed_replies` 168.7 K / 151.5 K, `external_enums`
//! 115.4 K / 91.7 K (of which the allocator 18.4 K each), `outline` 4.61 M / 3.89 M,
//! `large_payload` 4.10 M / 3.69 M, `planning_payload` 4.10 M / 3.70 M.

use criterion::Criterion;
use schema_core::AgentSchema;
use schema_suite::seed000::{Language, QuestionEvaluate};
use schema_suite::seed004::UniversalResponse;
use serde::de::DeserializeOwned;
use serde::Deserialize;
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
            "{}/../tests/fixtures/seed004_response_{n}.json",
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

/// A planning reply of about 100 KB: many small objects with numbers (another shape than the
/// string-heavy research reply).
fn planning_reply() -> String {
    let steps: Vec<Value> = (0..850)
        .map(|i| {
            json!({
                "step_number": i + 1,
                "action": format!("Run migration {i}"),
                "details": format!("Apply step {i} and check the logs"),
                "estimated_minutes": (i % 50) + 1,
            })
        })
        .collect();
    json!({
        "response_type": "planning",
        "status": "success",
        "message": "Plan ready",
        "planning_data": {"summary": "A long plan", "steps": steps, "dependencies": ["db", "cache"]},
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

/// A recursive outline: a section title and its subsections.
#[derive(AgentSchema, Deserialize)]
#[allow(dead_code)] // only parsed
struct Outline {
    /// The section title
    #[schema(max_length = 120)]
    title: String,
    /// The subsections, in order
    #[schema(max_items = 8)]
    children: Vec<Outline>,
}

/// An outline of 2,801 nodes (seven children per node, four levels below the root), ~177 KB.
fn outline_reply() -> String {
    fn node(path: &str, depth: usize) -> Value {
        let children: Vec<Value> = if depth == 4 {
            Vec::new()
        } else {
            (1..=7)
                .map(|i| node(&format!("{path}.{i}"), depth + 1))
                .collect()
        };
        json!({"title": format!("Section {path}: users-table migration"), "children": children})
    }
    node("1", 0).to_string()
}

/// serde's default enum representation, with every kind of variant.
#[derive(AgentSchema, Deserialize)]
#[allow(dead_code)] // only parsed
enum Step {
    Stop,
    Say(String),
    Move(i32, i32),
    Search { query: String, limit: Option<u8> },
}

/// A list of 100 externally tagged enums, a quarter of each variant.
fn steps_reply() -> String {
    let items: Vec<Value> = (0..100)
        .map(|i| match i % 4 {
            0 => json!("Stop"),
            1 => json!({"Say": format!("message {i}")}),
            2 => json!({"Move": [i, -i]}),
            _ => json!({"Search": {"query": format!("query {i}"), "limit": i % 7}}),
        })
        .collect();
    Value::Array(items).to_string()
}

/// One payload and the three ways of parsing it, each over every input.
struct Case {
    name: &'static str,
    serde: Box<dyn Fn()>,
    ours: Box<dyn Fn()>,
    js: Box<dyn Fn()>,
}

fn case<T: AgentSchema + DeserializeOwned + 'static>(
    name: &'static str,
    inputs: Vec<String>,
) -> Case {
    for t in &inputs {
        if let Err(e) = T::from_json(t) {
            panic!("{name}: the input must be valid: {e}");
        }
    }
    let compiled = jsonschema::validator_for(T::validation_schema()).expect("schema compiles");
    let (a, b, c) = (inputs.clone(), inputs.clone(), inputs);
    Case {
        name,
        serde: Box::new(move || {
            for t in &a {
                black_box(serde_json::from_str::<T>(black_box(t)).unwrap());
            }
        }),
        ours: Box::new(move || {
            for t in &b {
                black_box(T::from_json(black_box(t)).unwrap());
            }
        }),
        js: Box::new(move || {
            for t in &c {
                let v: Value = serde_json::from_str(black_box(t)).unwrap();
                assert!(compiled.is_valid(&v));
                black_box(serde_json::from_value::<T>(v).unwrap());
            }
        }),
    }
}

fn bench(c: &mut Criterion, case: &Case) {
    let mut g = c.benchmark_group(case.name);
    g.bench_function("serde", |b| b.iter(|| (case.serde)()));
    g.bench_function("from_json", |b| b.iter(|| (case.ours)()));
    g.bench_function("jsonschema", |b| b.iter(|| (case.js)()));
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
        .unwrap_or_else(|_| format!("{}/../target", env!("CARGO_MANIFEST_DIR")));
    let path = format!("{dir}/criterion/{group}/{function}/new/estimates.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

/// Every payload's case, or only the one named (so that a `PARSE_ONLY` run does no other set-up,
/// whose heap traffic would shift the counts).
fn cases(only: Option<&str>) -> Vec<Case> {
    type Build = fn() -> Case;
    let all: [(&str, Build); 7] = [
        ("seed_replies", || {
            case::<UniversalResponse>("seed_replies", seed_replies())
        }),
        ("large_payload", || {
            case::<UniversalResponse>("large_payload", vec![large_reply()])
        }),
        ("planning_payload", || {
            case::<UniversalResponse>("planning_payload", vec![planning_reply()])
        }),
        ("language", || {
            case::<Language>(
                "language",
                vec![r#"{"langCode": "en", "langStyle": "formal english"}"#.to_string()],
            )
        }),
        ("question_evaluate", || {
            case::<QuestionEvaluate>(
                "question_evaluate",
                vec![r#"{"think": "The question asks for the latest release of a library, so the answer must be current and definitive.", "needsDefinitive": true, "needsFreshness": true, "needsPlurality": false, "needsCompleteness": false}"#.to_string()],
            )
        }),
        ("outline", || {
            case::<Outline>("outline", vec![outline_reply()])
        }),
        ("external_enums", || {
            case::<Vec<Step>>("external_enums", vec![steps_reply()])
        }),
    ];
    all.iter()
        .filter(|(name, _)| only.is_none_or(|o| o == *name))
        .map(|(_, build)| build())
        .collect()
}

fn main() {
    if let Ok(only) = std::env::var("PARSE_ONLY") {
        let parts: Vec<&str> = only.split(':').collect();
        let [name, who, n] = parts[..] else {
            panic!("PARSE_ONLY=<payload>:<serde|from_json|jsonschema>:<n>")
        };
        let cases = cases(Some(name));
        let case = cases.first().expect("payload");
        let f = match who {
            "serde" => &case.serde,
            "from_json" => &case.ours,
            "jsonschema" => &case.js,
            other => panic!("unknown contender {other}"),
        };
        for _ in 0..n.parse::<u32>().expect("count") {
            f();
        }
        return;
    }
    if let Ok(only) = std::env::var("PARSE_INTERLEAVED") {
        // The interleaved ratios alone (a few seconds), for every payload or the one named.
        let cases = cases((only != "all").then_some(only.as_str()));
        assert!(!cases.is_empty(), "PARSE_INTERLEAVED=<payload|all>");
        interleaved(&cases, None);
        return;
    }

    let sizes = format!(
        "payloads: research {} bytes, planning {} bytes, outline {} bytes",
        large_reply().len(),
        planning_reply().len(),
        outline_reply().len()
    );
    let invalid = invalid_reply();
    let cases = cases(None);
    let errors = UniversalResponse::from_json(&invalid).unwrap_err();
    let n_errors = errors.validation_errors().map(|e| e.len()).unwrap_or(0);
    assert!(n_errors >= 4, "{errors}");

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    for case in &cases {
        bench(&mut c, case);
    }
    bench_invalid(&mut c, &invalid);
    c.final_summary();

    println!("\nratios (same run; lower is better for us)");
    println!("{sizes}; invalid reply: {n_errors} errors collected");
    for case in &cases {
        let group = case.name;
        if let (Some(serde), Some(ours), Some(js)) = (
            mean_ns(group, "serde"),
            mean_ns(group, "from_json"),
            mean_ns(group, "jsonschema"),
        ) {
            println!(
                "{group:>17}: from_json / serde = {:.2}x (target <= 1.3x); jsonschema pipeline / from_json = {:.2}x; jsonschema pipeline / serde = {:.2}x",
                ours / serde,
                js / ours,
                js / serde
            );
        }
    }
    if let (Some(value), Some(ours)) =
        (mean_ns("invalid", "value"), mean_ns("invalid", "from_json"))
    {
        println!(
            "          invalid: from_json (all errors) / from_str::<Value> = {:.2}x (target <= 3x)",
            ours / value
        );
    }

    interleaved(&cases, Some(&invalid));
}

/// The same ratios measured interleaved: each round times every contender once, back to back,
/// and the median over rounds is kept. On a noisy machine criterion's separate measurement
/// windows drift apart; here drift hits all contenders alike.
fn interleaved(cases: &[Case], invalid: Option<&str>) {
    // Times `f` over enough repetitions to take about a millisecond.
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        let mut n = 0u32;
        while start.elapsed() < Duration::from_millis(1) || n < 3 {
            f();
            n += 1;
        }
        start.elapsed().as_nanos() as f64 / f64::from(n)
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    const ROUNDS: usize = 301;
    println!("\ninterleaved ({ROUNDS} rounds, medians of per-round ratios)");
    for case in cases {
        let group = case.name;
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let s = time(&*case.serde);
            let o = time(&*case.ours);
            let j = time(&*case.js);
            a.push(o / s);
            b.push(j / o);
            c.push(j / s);
        }
        println!(
            "{group:>17}: from_json / serde = {:.2}x; jsonschema pipeline / from_json = {:.2}x; jsonschema pipeline / serde = {:.2}x",
            median(a),
            median(b),
            median(c)
        );
    }
    let Some(invalid) = invalid else { return };
    let mut r = Vec::new();
    for _ in 0..ROUNDS {
        let v = time(&|| {
            black_box(serde_json::from_str::<Value>(black_box(invalid)).unwrap());
        });
        let o = time(&|| {
            let e = UniversalResponse::from_json(black_box(invalid)).unwrap_err();
            black_box(e.validation_errors().map(|e| e.len()));
        });
        r.push(o / v);
    }
    println!(
        "          invalid: from_json (all errors) / from_str::<Value> = {:.2}x",
        median(r)
    );
}
