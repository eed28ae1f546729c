//! JSONSchemaBench (`$JSONSCHEMABENCH/maskbench/data/*.json`) through the converter's rewrites:
//! per dialect, how many schemas convert and the refusals left by class (`rewrite_rates`), and
//! the round trip of every labelled valid instance (`readback_round_trip`): written in the
//! dialect's shape, accepted by the dialect's schema, read back to itself. Both are ignored
//! by default (minutes in a debug build); skipped with a notice when the variable is unset.

use schema_core::convert::{to_dialect, to_dialect_report};
use schema_core::Dialect;
use serde_json::Value;
use std::collections::BTreeMap;

const DIALECTS: [Dialect; 7] = [
    Dialect::OpenAi,
    Dialect::Anthropic,
    Dialect::Gemini,
    Dialect::LmStudio,
    Dialect::LlamaCpp,
    Dialect::Ollama,
    Dialect::Llguidance,
];

fn corpus() -> Option<Vec<(String, Value)>> {
    let Ok(root) = std::env::var("JSONSCHEMABENCH") else {
        eprintln!("JSONSCHEMABENCH unset: corpus test skipped");
        return None;
    };
    let dir = std::path::Path::new(&root).join("maskbench/data");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    Some(
        names
            .into_iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                let v: Value = serde_json::from_str(&text).ok()?;
                Some((p.file_name()?.to_string_lossy().into_owned(), v))
            })
            .collect(),
    )
}

/// A refusal's class: its kind and the first words of its message.
fn class(e: &schema_core::convert::ConvertError) -> String {
    let text = e.to_string();
    let msg = text.split_once(": ").map_or(text.as_str(), |(_, m)| m);
    msg.split_whitespace().take(7).collect::<Vec<_>>().join(" ")
}

#[test]
#[ignore = "reads JSONSchemaBench; run with --ignored"]
fn rewrite_rates() {
    let Some(corpus) = corpus() else { return };
    let only = std::env::var("DIALECTS").unwrap_or_default();
    for d in DIALECTS {
        if !only.is_empty() && !only.split(',').any(|o| o == d.to_string()) {
            continue;
        }
        let mut ok = 0usize;
        let mut classes: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for (name, file) in &corpus {
            match to_dialect(&file["schema"], d) {
                Ok(_) => ok += 1,
                Err(e) => {
                    let c = classes
                        .entry(class(&e))
                        .or_insert((0, format!("{name} {}", e.pointer)));
                    c.0 += 1;
                }
            }
        }
        println!(
            "{d}: {ok}/{} converted ({:.1}%)",
            corpus.len(),
            100.0 * ok as f64 / corpus.len() as f64
        );
        let mut by: Vec<_> = classes.into_iter().collect();
        by.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
        for (c, (n, first)) in by.iter().take(14) {
            println!("    {n:6} {c}  (e.g. {first})");
        }
    }
}

/// Whether `back` is `value` but for `null`s of object properties left out (an optional
/// property that takes `null`, made required under OpenAI: its `null` and its absence are
/// one reply) or added where the value had none.
fn same_but_nulls(back: &Value, value: &Value) -> bool {
    match (back, value) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, x)| match b.get(k) {
                Some(y) => same_but_nulls(x, y),
                None => x.is_null(),
            }) && b.iter().all(|(k, y)| a.contains_key(k) || y.is_null())
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_but_nulls(x, y))
        }
        (a, b) => a == b,
    }
}

/// The round-trip oracle: every labelled valid instance, written in the dialect's shape
/// (`ReadBack::forward`), is accepted by the dialect's schema (the `jsonschema` crate) and
/// reads back to itself. `SAMPLE=n` takes every n-th file (debug builds are slow).
#[test]
#[ignore = "reads JSONSchemaBench; run with --ignored"]
fn readback_round_trip() {
    let Some(corpus) = corpus() else { return };
    let step: usize = std::env::var("SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for d in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini] {
        let (mut instances, mut accepted, mut same, mut rejected, mut changed) = (0, 0, 0, 0, 0);
        let mut first_rejected = None;
        let mut first_changed = None;
        for (name, file) in corpus.iter().step_by(step.max(1)) {
            let Ok(c) = to_dialect_report(&file["schema"], d) else {
                continue;
            };
            let Ok(check) = jsonschema::validator_for(&c.schema) else {
                continue;
            };
            let tests = file["tests"].as_array().map_or(&[][..], Vec::as_slice);
            for t in tests.iter().filter(|t| t["valid"] == true) {
                instances += 1;
                let Ok(shaped) = c.plan.forward(&t["data"]) else {
                    changed += 1;
                    continue;
                };
                if check.is_valid(&shaped) {
                    accepted += 1;
                } else {
                    rejected += 1;
                    first_rejected.get_or_insert_with(|| name.clone());
                }
                match c.read_back(&shaped) {
                    Ok(back) if same_but_nulls(&back, &t["data"]) => same += 1,
                    _ => {
                        changed += 1;
                        first_changed.get_or_insert_with(|| name.clone());
                    }
                }
            }
        }
        println!(
            "{d}: {instances} valid instances of converted schemas: {accepted} accepted in the dialect's shape, {rejected} rejected (e.g. {first_rejected:?}); {same} read back to themselves, {changed} not (e.g. {first_changed:?})"
        );
        assert!(
            changed * 200 <= instances,
            "{d}: {changed} of {instances} instances do not read back to themselves"
        );
    }
}
