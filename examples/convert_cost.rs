//! The cost of `to_dialect` over the MCP corpus, for instruction counts under callgrind: every
//! corpus schema converted into the 5 provider dialects (`Dialect::STANDARD_AND_PROVIDERS`),
//! `ROUNDS` times (default 1).
//!
//! Run (`load` converts nothing: its count is the loading, to subtract):
//!
//! ```text
//! cargo build --release --example convert_cost
//! MCP_CORPUS=/work/shared/mcp-corpus valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!     target/release/examples/convert_cost [load|with]
//! ```
//!
//! `with` converts with the report (`to_dialect_with`, default options) instead.

use schema_core::convert::{to_dialect, to_dialect_with, DialectOptions};
use schema_core::Dialect;
use serde_json::Value;

fn main() {
    let Ok(dir) = std::env::var("MCP_CORPUS") else {
        eprintln!("MCP_CORPUS not set: nothing to convert");
        return;
    };
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("MCP_CORPUS is a directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let schemas: Vec<Value> = paths
        .iter()
        .filter_map(|p| serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok())
        .collect();
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let options = DialectOptions::default();
    let mut ok = 0usize;
    for _ in 0..rounds {
        for s in &schemas {
            for d in Dialect::STANDARD_AND_PROVIDERS {
                let done = match mode.as_str() {
                    "load" => continue,
                    "with" => to_dialect_with(s, d, &options).is_ok(),
                    _ => to_dialect(s, d).is_ok(),
                };
                ok += usize::from(done);
            }
        }
    }
    println!(
        "{} schemas, {ok} conversions accepted ({mode})",
        schemas.len()
    );
}
