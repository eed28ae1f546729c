//! JSONSchemaBench (`$JSONSCHEMABENCH/maskbench/data/*.json`) through the converter's rewrites:
//! per dialect, how many schemas convert and the refusals left by class (`rewrite_rates`), and
//! the round trip of every labelled valid instance (`readback_round_trip`): written in the
//! dialect's shape, accepted by the dialect's schema, read back to itself.
//! Skipped with a notice when the variable is unset.

use schema_core::convert::to_dialect;
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
        by.sort_by(|a, b| b.1 .0.cmp(&a.1 .0));
        for (c, (n, first)) in by.iter().take(14) {
            println!("    {n:6} {c}  (e.g. {first})");
        }
    }
}
