//! json_repair's own test inputs (294, MIT licensed) against our extractor, with OUR expected
//! outcome for each, with json_repair's default mode read as our lenient mode with the
//! truncation repair (`tests/fixtures/llm_reply_expectations.tsv`: the peer's value, our own
//! value, or an error kind, and the reason for every deliberate difference: we do not invent
//! values, guess where unquoted text ends, or guess which quote ends a string).
//!
//! The inputs are read from `LLM_REPLY_CASES` (`.ci/run` sets it to `../shared/llm-reply-cases`);
//! without it the test prints a notice and passes.

use schema_core::llm::{extract_json, ExtractError, ExtractOptions};
use serde_json::Value;
use std::collections::HashMap;

const EXPECTATIONS: &str = include_str!("fixtures/llm_reply_expectations.tsv");

fn outcome(input: &str, strict: bool) -> Result<Value, &'static str> {
    // json_repair's default mode repairs everything, a cut reply included: our closest
    // configuration is lenient mode with the truncation repair; its strict mode is our default.
    let opts = ExtractOptions {
        lenient: !strict,
        repair_truncated: !strict,
        ..ExtractOptions::default()
    };
    match extract_json(input, &opts) {
        Ok(x) => Ok(serde_json::from_str(&x.json).expect("the extractor returned valid JSON")),
        Err(ExtractError::Syntax { .. }) => Err("Syntax"),
        Err(ExtractError::Truncated { .. }) => Err("Truncated"),
        Err(ExtractError::NoJson) => Err("NoJson"),
        Err(ExtractError::Refusal { .. }) => Err("Refusal"),
        Err(ExtractError::TooDeep { .. }) => Err("TooDeep"),
        Err(ExtractError::TooLarge { .. }) => Err("TooLarge"),
    }
}

#[test]
fn json_repair_inputs_give_our_expected_outcomes() {
    let Some(dir) = std::env::var_os("LLM_REPLY_CASES") else {
        println!("LLM_REPLY_CASES is not set: json_repair's cases skipped");
        return;
    };
    let path = std::path::Path::new(&dir).join("json_repair_cases.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("LLM_REPLY_CASES is set but {}: {e}", path.display()));
    let expectations: HashMap<&str, (&str, &str)> = EXPECTATIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let id = f.next().unwrap();
            (id, (f.next().unwrap_or(""), f.next().unwrap_or("")))
        })
        .collect();
    let mut failures = Vec::new();
    let mut counted = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap();
        let input = case["input"].as_str().unwrap();
        let strict = case["mode"] == "strict";
        let Some(&(want, reason)) = expectations.get(id) else {
            failures.push(format!("{id}: no expectation written"));
            continue;
        };
        counted += 1;
        let got = outcome(input, strict);
        let ok = match want {
            "peer" => got.as_ref().ok() == Some(&case["expected"]),
            "Syntax" | "Truncated" | "NoJson" | "TooDeep" => got == Err(want),
            json => got.as_ref().ok() == Some(&serde_json::from_str::<Value>(json).unwrap()),
        };
        if !ok {
            let input: String = input.chars().take(100).collect();
            let got: String = format!("{got:?}").chars().take(200).collect();
            failures.push(format!("{id} {input:?}: want {want} ({reason}), got {got}"));
        }
    }
    assert_eq!(counted, 294, "every case has an expectation");
    assert!(
        failures.is_empty(),
        "{} of 294 differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The same 294 inputs streamed as `serde_json::Value` in 1-, 3-, 16- and 64-byte chunks (split
/// inside characters too, through `push_bytes`): `finish` gives exactly `from_llm`'s result for
/// the whole text, value or error, and an error `push` returns early is the one `from_llm`
/// gives (the stream's contract, on messy replies written by others rather than generated ones).
#[test]
fn json_repair_inputs_stream_as_from_llm_reads_them() {
    use schema_core::AgentSchema;
    let Some(dir) = std::env::var_os("LLM_REPLY_CASES") else {
        println!("LLM_REPLY_CASES is not set: json_repair's cases skipped");
        return;
    };
    let path = std::path::Path::new(&dir).join("json_repair_cases.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("LLM_REPLY_CASES is set but {}: {e}", path.display()));
    let mut failures = Vec::new();
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap();
        let input = case["input"].as_str().unwrap();
        let whole = Value::from_llm(input);
        for size in [1, 3, 16, 64] {
            let mut stream = Value::stream();
            let mut early = None;
            for chunk in input.as_bytes().chunks(size) {
                if let Err(e) = stream.push_bytes(chunk) {
                    early = Some(e);
                    break;
                }
            }
            let got = match early {
                Some(e) => Err(e),
                None => stream.finish(),
            };
            if got != whole {
                let input: String = input.chars().take(80).collect();
                let got: String = format!("{got:?}").chars().take(160).collect();
                let want: String = format!("{whole:?}").chars().take(160).collect();
                failures.push(format!(
                    "{id} ({size}-byte) {input:?}: stream {got}, from_llm {want}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
