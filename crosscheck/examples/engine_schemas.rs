//! The Rust half of `scripts/engines-compile.sh` (opt-in, not run in CI): writes every schema
//! this crate emits for `Dialect::Xgrammar` and `Dialect::LlamaCpp` as JSON Lines, each with
//! instances that the schema accepts (checked by our validator), for the Python engines to
//! compile and match:
//! - every derived seed type, with serde's serialization of values generated from its precise
//!   schema (`null` members dropped where the schema leaves optional members out);
//! - every schema of `tests/fixtures/convert/` and, when `MCP_CORPUS` is set, of the shared MCP
//!   corpus, converted, with instances generated from the converted schema (none for a schema
//!   with a `$ref`: the shared generator may not end on those).
//!
//! Run: `cargo run -p schema-crosscheck --example engine_schemas -- OUT.jsonl`; without an
//! argument it prints its usage and writes nothing.

#[path = "../tests/common/mod.rs"]
mod common;

use schema_core::validate::Validator;
use schema_core::{AgentSchema, Dialect};
use schema_suite::seed000::*;
use schema_suite::seed002::*;
use schema_suite::seed004::*;
use serde_json::{json, Value};
use std::io::Write;

const DIALECTS: [Dialect; 2] = [Dialect::Xgrammar, Dialect::LlamaCpp];
const ROUNDS: usize = 20;

/// One line: where the schema comes from, the schema (or our conversion error), instances it
/// accepts and, as a control, the same instances without a required root property (which it
/// rejects).
fn line(
    source: &str,
    name: &str,
    d: Dialect,
    schema: Result<Value, String>,
    instances: Vec<Value>,
) -> Value {
    let schema = match schema {
        Ok(s) => s,
        Err(e) => return json!({"source": source, "name": name, "dialect": d.name(), "error": e}),
    };
    let check = Validator::new(&schema).ok();
    let mut invalid = Vec::new();
    for v in &instances {
        let (Value::Object(m), Some(check)) = (v, &check) else {
            continue;
        };
        let without = |k: &String| {
            let mut w = m.clone();
            w.remove(k);
            Value::Object(w)
        };
        let Some(text) = m
            .keys()
            .map(without)
            .find(|w| !check.is_valid(w))
            .map(|w| w.to_string())
        else {
            continue;
        };
        if !invalid.contains(&text) {
            invalid.push(text);
        }
    }
    let instances: Vec<String> = instances.iter().map(Value::to_string).collect();
    json!({"source": source, "name": name, "dialect": d.name(), "schema": schema,
           "instances": instances, "invalid": invalid})
}

fn drop_null_members(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_null_members);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_null_members),
        _ => {}
    }
}

/// A derived type's schema in `d` and serde's serialization of generated values it accepts.
fn derived<T>(name: &str, d: Dialect) -> Value
where
    T: AgentSchema + serde::Serialize + serde::de::DeserializeOwned,
{
    let schema = match T::try_json_schema(d) {
        Ok(s) => s.clone(),
        Err(e) => return line("derived", name, d, Err(e.to_string()), Vec::new()),
    };
    let check = Validator::new(&schema).expect("our validator compiles our schema");
    let precise = T::validation_schema();
    let mut rng = common::Rng(0x5eed ^ name.len() as u64);
    let mut instances = Vec::new();
    for _ in 0..ROUNDS * 3 {
        if instances.len() == ROUNDS {
            break;
        }
        let v = common::generate(precise, precise, &mut rng, 0);
        let Ok(value) = T::from_value(v) else {
            continue;
        };
        let serialized = serde_json::to_value(&value).expect("serializes");
        let mut without_nulls = serialized.clone();
        drop_null_members(&mut without_nulls);
        if let Some(ok) = [serialized, without_nulls]
            .into_iter()
            .find(|v| check.is_valid(v))
        {
            instances.push(ok);
        }
    }
    line("derived", name, d, Ok(schema), instances)
}

/// A corpus schema converted to `d`, with instances generated from the converted schema.
fn converted(source: &str, name: &str, input: &Value, d: Dialect) -> Value {
    let schema = match schema_core::convert::to_dialect(input, d) {
        Ok(s) => s,
        Err(e) => return line(source, name, d, Err(e.to_string()), Vec::new()),
    };
    let mut instances = Vec::new();
    // The shared generator follows required references without end on some recursive
    // schemas: those go without instances (compiled only).
    let has_ref = schema.to_string().contains("\"$ref\"");
    if let (false, Ok(check)) = (has_ref, Validator::new(&schema)) {
        let mut rng = common::Rng(0xc0ffee ^ name.len() as u64);
        for _ in 0..ROUNDS {
            let v = common::generate(&schema, &schema, &mut rng, 0);
            if check.is_valid(&v) {
                instances.push(v);
            }
        }
    }
    line(source, name, d, Ok(schema), instances)
}

/// The `.json` files of `dir`, sorted, each as (file name, value or its `key`).
fn json_files(dir: &str, key: &str) -> Vec<(String, Value)> {
    schema_suite::json_files(dir)
        .into_iter()
        .map(|(p, v)| {
            let v = if key.is_empty() { v } else { v[key].clone() };
            (schema_suite::file_name(&p), v)
        })
        .collect()
}

macro_rules! each_type {
    ($out:expr, $d:expr; $($t:ty),* $(,)?) => {
        $( $out.push(derived::<$t>(stringify!($t), $d)); )*
    };
}

fn main() {
    // Deep generated values and schemas: a larger stack than the main thread's in debug builds.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .expect("spawn");
    if worker.join().is_err() {
        std::process::exit(1);
    }
}

fn run() {
    let Some(path) = std::env::args().nth(1) else {
        // Without arguments (as CI runs every example) it only says what it would do.
        println!("usage: engine_schemas OUT.jsonl (see scripts/engines-compile.sh)");
        return;
    };
    let mut lines = Vec::new();
    for d in DIALECTS {
        each_type!(lines, d; Language, QuestionEvaluate, CodeGenerator, ErrorAnalysis, ResearchPlan,
            SerpCluster, Cluster, QueryRewriter, Tbs, SearchQuery, Evaluation, FreshnessAnalysis,
            PluralityAnalysis, CompletenessAnalysis, AgentStep, AgentAction, SearchAction,
            CodingAction, AnswerAction, ReflectAction, VisitAction, TeamResearchPlan,
            UniversalResponse, Status, PlanningData, PlanStep, VerificationData, Check,
            ClarityData, ResearchData, Level, Finding, AnswerData, ErrorDetails, Mode, Intent,
            Freshness, GrokResult, GrokReply, SearchResult, SearchOutput);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/convert");
        for (name, schema) in json_files(dir, "schema") {
            lines.push(converted("convert", &name, &schema, d));
        }
        if let Ok(mcp) = std::env::var("MCP_CORPUS") {
            for (name, schema) in json_files(&mcp, "") {
                lines.push(converted("mcp", &name, &schema, d));
            }
        }
    }
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    );
    for l in &lines {
        writeln!(out, "{l}").expect("write");
    }
    out.flush().expect("write");
    let errors = lines.iter().filter(|l| l.get("error").is_some()).count();
    println!(
        "{} schemas written to {path} ({errors} not emitted: our conversion refused them)",
        lines.len()
    );
}
