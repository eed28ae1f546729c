//! JSONSchemaBench (github.com/guidance-ai/jsonschemabench), read in place from the path in
//! `JSONSCHEMABENCH`: every schema of `maskbench/data/` (11,305 files, each `{schema, tests: [{data,
//! valid}]}`) converted into every dialect. Without the variable the test prints a notice and
//! passes; with it set and the data missing it fails.
//!
//! Per dialect it counts what converts, what is refused (by class: the error kind and the rule's
//! words), panics and internal errors ("please report"); for the engine dialects and OpenAI and
//! Anthropic, the outputs llguidance calls unsatisfiable or cannot compile; and, where the dialect
//! keeps every value the input accepts (no property made required, no object closed), whether
//! the output accepts each labelled valid instance the `jsonschema` crate also accepts under the
//! input. It prints a table and asserts no panic, no internal error, no unsatisfiable output and
//! no valid instance rejected.
//!
//! `JSONSCHEMABENCH_FILTER=<substring>` limits the run to the files whose name contains it;
//! `JSONSCHEMABENCH_DIALECTS=openai,anthropic` to the dialects named (by `Dialect::name`).
//! `JSONSCHEMABENCH_ALL=1` prints every refusal and llguidance failure, one line each, for
//! classifying them.

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities};
use llguidance::ParserFactory;
use schema_core::convert::{to_dialect, ConvertError, ConvertErrorKind};
use schema_core::Dialect;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

mod common;
use common::LLGUIDANCE_COMPILED as COMPILED;

#[derive(Default)]
struct Counts {
    converted: usize,
    refused: usize,
    panics: Vec<String>,
    internal: Vec<String>,
    classes: BTreeMap<String, (usize, String)>,
    unsatisfiable: Vec<String>,
    compile_failed: BTreeMap<String, (usize, String)>,
    compiled: usize,
    instances: usize,
    rejected: Vec<String>,
}

/// The class of a refusal: the kind, and for messages the rule's words without the particular
/// names, numbers and pointers.
fn class(e: &ConvertError) -> String {
    let words = |m: &str| {
        let m = m.split([':', '(', '`', '"']).next().unwrap_or(m).trim();
        m.chars()
            .filter(|c| !c.is_ascii_digit())
            .take(70)
            .collect::<String>()
    };
    match &e.kind {
        ConvertErrorKind::UnresolvableRef(_) => "unresolvable $ref".into(),
        ConvertErrorKind::RefCycle(_) => "$ref cycle".into(),
        ConvertErrorKind::RecursionNotAllowed(_) => "recursion".into(),
        ConvertErrorKind::Malformed(m) => format!("malformed: {}", words(m)),
        ConvertErrorKind::RootNotObject => "root not an object".into(),
        ConvertErrorKind::Unsupported(m) => format!("unsupported: {}", words(m)),
        ConvertErrorKind::LimitExceeded { limit, .. } => format!("limit: {limit}"),
        ConvertErrorKind::TooDeep(_) => "too deep".into(),
        _ => format!("{:?}", e.kind),
    }
}

/// llguidance's verdict on `schema`: `Ok` when it compiles, else its error.
fn llguidance(factory: &ParserFactory, schema: &Value) -> Result<(), String> {
    let grammar = TopLevelGrammar::from_json_schema(schema.clone());
    match catch_unwind(AssertUnwindSafe(|| factory.create_parser(grammar))) {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("llguidance panicked".into()),
    }
}

fn files(dir: &std::path::Path) -> Vec<PathBuf> {
    let filter = std::env::var("JSONSCHEMABENCH_FILTER").unwrap_or_default();
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| {
            panic!(
                "JSONSCHEMABENCH is set but {} is unreadable: {e}",
                dir.display()
            )
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(&filter))
        .collect();
    out.sort();
    out
}

#[test]
fn every_schema_converts_or_is_refused_by_a_rule() {
    let Some(root) = std::env::var_os("JSONSCHEMABENCH") else {
        println!("skipped: set JSONSCHEMABENCH (a checkout of guidance-ai/jsonschemabench) to convert its 11,305 schemas");
        return;
    };
    let dir = PathBuf::from(root).join("maskbench/data");
    let files = files(&dir);
    assert!(!files.is_empty(), "no schema in {}", dir.display());

    let env = ApproximateTokEnv::single_byte_env();
    let mut factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[]).unwrap();
    factory.quiet();
    // The panics this test catches print nothing: it lists them itself.
    std::panic::set_hook(Box::new(|_| {}));

    let dialects: Vec<Dialect> = match std::env::var("JSONSCHEMABENCH_DIALECTS") {
        Ok(list) => list
            .split(',')
            .map(|n| n.trim().parse().unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect(),
        Err(_) => Dialect::EVERY.to_vec(),
    };
    let mut counts: Vec<Counts> = dialects.iter().map(|_| Counts::default()).collect();
    let all = std::env::var_os("JSONSCHEMABENCH_ALL").is_some();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let schema = &file["schema"];
        // The labelled valid instances the jsonschema crate also accepts under the input.
        let valid: Vec<&Value> = match jsonschema::validator_for(schema) {
            Ok(v) => file["tests"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["valid"] == Value::Bool(true) && v.is_valid(&t["data"]))
                .map(|t| &t["data"])
                .collect(),
            Err(_) => Vec::new(),
        };
        // llguidance's verdict per distinct output text: dialects often agree.
        let mut verdicts: HashMap<String, Result<(), String>> = HashMap::new();
        for (d, c) in dialects.iter().zip(counts.iter_mut()) {
            let out = match catch_unwind(AssertUnwindSafe(|| to_dialect(schema, *d))) {
                Err(p) => {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    c.panics.push(format!("{name}: {msg}"));
                    continue;
                }
                Ok(Err(e)) => {
                    c.refused += 1;
                    if all {
                        println!("REFUSED\t{}\t{name}\t{e}", d.name());
                    }
                    if e.to_string().contains("please report") {
                        c.internal.push(format!("{name}: {e}"));
                    }
                    let entry = c.classes.entry(class(&e)).or_insert((0, String::new()));
                    if entry.0 == 0 {
                        entry.1 = format!("{name}: {e}");
                    }
                    entry.0 += 1;
                    continue;
                }
                Ok(Ok(out)) => out,
            };
            c.converted += 1;
            if COMPILED.contains(d) {
                let key = out.to_string();
                let verdict = verdicts
                    .entry(key)
                    .or_insert_with(|| llguidance(&factory, &out));
                match verdict {
                    Ok(()) => c.compiled += 1,
                    Err(e) if e.contains("Unsatisfiable") || e.contains("unsatisfiable") => {
                        c.unsatisfiable.push(format!("{name}: {e}"))
                    }
                    Err(e) => {
                        if all {
                            println!("LLGFAIL\t{}\t{name}\t{e}", d.name());
                        }
                        let words: String = e.chars().take_while(|c| *c != ':').take(60).collect();
                        let entry = c.compile_failed.entry(words).or_insert((0, String::new()));
                        if entry.0 == 0 {
                            entry.1 =
                                format!("{name}: {}", e.chars().take(200).collect::<String>());
                        }
                        entry.0 += 1;
                    }
                }
            }
            let rules = d.rules();
            if valid.is_empty() || rules.all_required || rules.closed_objects {
                continue;
            }
            let Ok(theirs) = jsonschema::validator_for(&out) else {
                continue;
            };
            for v in &valid {
                c.instances += 1;
                if !theirs.is_valid(v) {
                    c.rejected.push(format!("{name}: {v}"));
                }
            }
        }
    }
    let _ = std::panic::take_hook();

    let n = files.len();
    println!("{n} schemas of {}", dir.display());
    println!(
        "{:<11} {:>9} {:>7} {:>7} {:>6} {:>8} {:>6} {:>8} {:>9} {:>8}",
        "dialect",
        "converted",
        "%",
        "refused",
        "panics",
        "internal",
        "unsat",
        "llg-fail",
        "instances",
        "rejected"
    );
    for (d, c) in dialects.iter().zip(&counts) {
        let compiled = COMPILED.contains(d);
        println!(
            "{:<11} {:>9} {:>6.1}% {:>7} {:>6} {:>8} {:>6} {:>8} {:>9} {:>8}",
            d.name(),
            c.converted,
            100.0 * c.converted as f64 / n as f64,
            c.refused,
            c.panics.len(),
            c.internal.len(),
            if compiled {
                c.unsatisfiable.len().to_string()
            } else {
                "-".into()
            },
            if compiled {
                c.compile_failed
                    .values()
                    .map(|v| v.0)
                    .sum::<usize>()
                    .to_string()
            } else {
                "-".into()
            },
            c.instances,
            c.rejected.len(),
        );
    }
    for (d, c) in dialects.iter().zip(&counts) {
        println!("\n{}: refused by class", d.name());
        let mut classes: Vec<_> = c.classes.iter().collect();
        classes.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
        for (class, (k, example)) in classes {
            println!("  {k:>6}  {class}  (e.g. {example})");
        }
        if !c.compile_failed.is_empty() {
            println!("  llguidance cannot compile:");
            for (class, (k, example)) in &c.compile_failed {
                println!("  {k:>6}  {class}  (e.g. {example})");
            }
        }
        for (what, list) in [
            ("panic", &c.panics),
            ("internal error", &c.internal),
            ("unsatisfiable", &c.unsatisfiable),
            ("valid instance rejected", &c.rejected),
        ] {
            for line in list.iter().take(5) {
                println!("  {what}: {}", line.chars().take(300).collect::<String>());
            }
        }
    }
    let total = |f: fn(&Counts) -> usize| counts.iter().map(f).sum::<usize>();
    assert_eq!(total(|c| c.panics.len()), 0, "panics");
    assert_eq!(total(|c| c.internal.len()), 0, "internal errors");
    assert_eq!(total(|c| c.unsatisfiable.len()), 0, "unsatisfiable outputs");
    assert_eq!(total(|c| c.rejected.len()), 0, "valid instances rejected");
}
