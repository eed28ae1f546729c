//! The validator on JSONSchemaBench's MaskBench (11,305 real schemas from public collections,
//! each with labelled valid and invalid instances; `jsonschemabench.rs` holds the conversion),
//! run through our validator and the `jsonschema` crate: how many
//! schemas each compiles, and how often each agrees with the labels on the instances of the
//! schemas it compiles.
//!
//! Reads `$JSONSCHEMABENCH/maskbench/data/*.json` (each `{description, meta, schema, tests:
//! [{data, valid, description}]}`); without the variable the test prints a notice and passes,
//! with it set and the data missing it fails.
//!
//! What it holds: every schema the `jsonschema` crate compiles, ours compiles too, except those
//! whose reason the validator's docs name (listed in [`REFUSED`]), and our verdicts agree with
//! the labels at least as often as the `jsonschema` crate's do.

use schema_core::validate::Validator;
use serde_json::Value;
use std::path::PathBuf;

/// Schemas the `jsonschema` crate compiles and ours refuses on purpose: (file name, reason the
/// validator's docs give).
const REFUSED: &[(&str, &str)] = &[];

#[derive(Default, Debug)]
struct Tally {
    compiled: usize,
    instances: usize,
    agree: usize,
}

#[test]
fn maskbench_compiles_and_agrees_with_labels() {
    let Some(root) = std::env::var_os("JSONSCHEMABENCH") else {
        println!("JSONSCHEMABENCH is not set: skipping the JSONSchemaBench MaskBench run");
        return;
    };
    let dir = PathBuf::from(root).join("maskbench/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "JSONSCHEMABENCH is set but {} is unreadable: {e}",
                dir.display()
            )
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no schema under {}", dir.display());

    let (mut ours, mut theirs) = (Tally::default(), Tally::default());
    let mut refused_by_us: Vec<String> = Vec::new();
    let mut refused_by_them = 0usize;
    let mut unexplained: Vec<String> = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let schema = &doc["schema"];
        let tests = doc["tests"].as_array().cloned().unwrap_or_default();
        let our = Validator::new(schema);
        let their = jsonschema::validator_for(schema);
        if let Ok(v) = &our {
            ours.compiled += 1;
            for t in &tests {
                ours.instances += 1;
                if v.is_valid(&t["data"]) == t["valid"].as_bool().unwrap_or(false) {
                    ours.agree += 1;
                }
            }
        }
        if let Ok(v) = &their {
            theirs.compiled += 1;
            for t in &tests {
                theirs.instances += 1;
                if v.is_valid(&t["data"]) == t["valid"].as_bool().unwrap_or(false) {
                    theirs.agree += 1;
                }
            }
        } else {
            refused_by_them += 1;
        }
        if let Err(e) = &our {
            refused_by_us.push(format!("{name}: {e}"));
            if their.is_ok() && !REFUSED.iter().any(|(f, _)| *f == name) {
                unexplained.push(format!("{name}: {e}"));
            }
        }
    }
    println!(
        "MaskBench: {} schemas; ours compiles {} ({} refused), jsonschema compiles {} ({} refused)",
        files.len(),
        ours.compiled,
        refused_by_us.len(),
        theirs.compiled,
        refused_by_them
    );
    println!(
        "agreement with the labels: ours {}/{} instances, jsonschema {}/{}",
        ours.agree, ours.instances, theirs.agree, theirs.instances
    );
    for r in &refused_by_us {
        println!("  refused by us: {r}");
    }
    assert!(
        unexplained.is_empty(),
        "{} schemas the jsonschema crate compiles and ours refuses without a documented reason:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
