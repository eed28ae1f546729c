//! Token counts (o200k_base) of our TypeScript text against the JSON Schema it comes from and
//! against a peer, on two corpora: the 15 seed schemas (`tests/fixtures/`) and real MCP tool
//! schemas (the shared corpus of about 390 tools named by `MCP_CORPUS`, else the 11 copied into
//! `tests/fixtures/mcp/corpus/`).
//!
//! Columns: minified JSON Schema, pretty-printed JSON Schema (seed 003 compares against that), our
//! text with the default options (nothing cut), our text with descriptions capped at 300 characters
//! (the default before issue 12: what the no-cut default costs) and at 50 (seed 003's convenience
//! default, `TsOptions::brief()`), and the peer: the npm package `json-schema-to-typescript`, run
//! in the same run by `crosscheck/peer/json2ts.cjs` when `JSON2TS_NODE_PATH` names a
//! `node_modules` folder holding it (`npm install --prefix DIR json-schema-to-typescript`, then
//! `JSON2TS_NODE_PATH=DIR/node_modules`). The peer's options are its defaults without the banner
//! comment; the peer comparison counts only schemas the peer converts.
//!
//! ```text
//! MCP_CORPUS=../shared/mcp-corpus JSON2TS_NODE_PATH=/tmp/peer/node_modules \
//!     cargo run --release -p schema-crosscheck --example token_savings [-- --show] [-- --strict]
//! ```
//!
//! Targets (issue 12), checked on every corpus and printed: the default text at least 25% below
//! the peer's tokens and at least 55% below pretty JSON. `--strict` exits with status 1 when one
//! is missed (CI runs the example without `--strict`, and without the peer). `--show` prints
//! every text.

use schema_core::convert::{to_typescript, TsOptions};
use serde_json::Value;
use std::process::{Command, ExitCode, Stdio};

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

/// One schema of a corpus: `(group, name, schema)`.
type Item = (String, String, Value);

/// The MCP schemas: `(group, name, schema)`, the group being the file name's source prefix
/// (`github-mcp-server`, `bfcl-...`).
fn mcp_corpus() -> Result<(String, Vec<Item>), String> {
    let (dir, label) = match std::env::var_os("MCP_CORPUS") {
        Some(d) => {
            let d = std::path::PathBuf::from(d);
            let label = format!("MCP corpus ({})", d.display());
            (d, label)
        }
        None => (
            std::path::PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../tests/fixtures/mcp/corpus"
            )),
            "MCP sample (tests/fixtures/mcp/corpus; set MCP_CORPUS for the whole corpus)".into(),
        ),
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;
        let schema = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        let group = name.split("__").next().unwrap_or("").to_string();
        let group = if group.starts_with("bfcl") {
            "bfcl".to_string()
        } else {
            group
        };
        out.push((group, name, schema));
    }
    if out.is_empty() {
        return Err(format!("{}: no .json schema", dir.display()));
    }
    Ok((label, out))
}

/// The peer's text of each schema (`None` where it failed), or why the peer did not run.
fn peer(schemas: &[&Value]) -> Result<Vec<Option<String>>, String> {
    let Some(modules) = std::env::var_os("JSON2TS_NODE_PATH") else {
        return Err(
            "peer not measured: set JSON2TS_NODE_PATH to a node_modules folder \
                    holding json-schema-to-typescript"
                .into(),
        );
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/peer/json2ts.cjs");
    let mut child = Command::new("node")
        .arg(script)
        .env("NODE_PATH", modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("node: {e}"))?;
    let input = serde_json::to_vec(schemas).map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write as _;
        stdin.write_all(&input).map_err(|e| format!("node: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "node {script} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let texts: Vec<Value> =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("peer output: {e}"))?;
    if texts.len() != schemas.len() {
        return Err(format!(
            "peer gave {} texts for {} schemas",
            texts.len(),
            schemas.len()
        ));
    }
    Ok(texts
        .into_iter()
        .map(|t| t.as_str().map(str::to_string))
        .collect())
}

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

/// Token counts of one schema.
#[derive(Default, Clone, Copy)]
struct Row {
    minified: usize,
    pretty: usize,
    ours: usize,
    cap300: usize,
    cap50: usize,
    /// The peer's tokens and ours on the same schema (zero when the peer failed or did not run).
    peer: usize,
    ours_vs_peer: usize,
    schemas: usize,
    peer_schemas: usize,
    /// Every description on its own (with a leading space, as in running text).
    descriptions: usize,
}

impl Row {
    fn add(&mut self, r: &Row) {
        self.minified += r.minified;
        self.pretty += r.pretty;
        self.ours += r.ours;
        self.cap300 += r.cap300;
        self.cap50 += r.cap50;
        self.peer += r.peer;
        self.ours_vs_peer += r.ours_vs_peer;
        self.schemas += r.schemas;
        self.peer_schemas += r.peer_schemas;
        self.descriptions += r.descriptions;
    }

    fn print(&self, name: &str) {
        let peer = if self.peer_schemas > 0 {
            self.peer.to_string()
        } else {
            "-".into()
        };
        println!(
            "{name:<34} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
            self.minified, self.pretty, self.ours, self.cap300, self.cap50, peer
        );
    }
}

fn header() {
    println!(
        "{:<34} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "schema", "minified", "pretty", "ours", "cap 300", "cap 50", "peer"
    );
}

/// Measures one corpus, prints its table and returns `(per-group totals, total)`.
fn measure(
    title: &str,
    items: &[Item],
    per_schema: bool,
    show: bool,
) -> Result<Vec<(String, Row)>, String> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let count = |s: &str| bpe.encode_with_special_tokens(s).len();
    let cap = |n: usize| TsOptions {
        max_description_len: Some(n),
        ..TsOptions::default()
    };
    let (opts, opts300, opts50) = (TsOptions::default(), cap(300), TsOptions::brief());
    let schemas: Vec<&Value> = items.iter().map(|(_, _, s)| s).collect();
    let peer_texts = match peer(&schemas) {
        Ok(t) => t,
        Err(why) => {
            println!("({why})");
            vec![None; items.len()]
        }
    };
    println!("\n== {title}");
    header();
    let mut groups: Vec<(String, Row)> = Vec::new();
    let mut failed = 0;
    for ((group, name, schema), peer_text) in items.iter().zip(&peer_texts) {
        let text = |o: &TsOptions| to_typescript(schema, o).map_err(|e| format!("{name}: {e}"));
        let ours = text(&opts)?;
        let mut row = Row {
            minified: count(&serde_json::to_string(schema).unwrap_or_default()),
            pretty: count(&serde_json::to_string_pretty(schema).unwrap_or_default()),
            ours: count(&ours),
            cap300: count(&text(&opts300)?),
            cap50: count(&text(&opts50)?),
            schemas: 1,
            ..Row::default()
        };
        let mut ds = Vec::new();
        descriptions(schema, &mut ds);
        row.descriptions = ds.iter().map(|d| count(&format!(" {d}"))).sum();
        match peer_text {
            Some(p) => {
                row.peer = count(p);
                row.ours_vs_peer = row.ours;
                row.peer_schemas = 1;
            }
            None => failed += 1,
        }
        if per_schema {
            row.print(name);
        }
        if show {
            println!("  {ours}");
            if let Some(p) = peer_text {
                println!("  peer: {}", p.replace('\n', "\n  "));
            }
        }
        match groups.iter_mut().find(|(g, _)| g == group) {
            Some((_, total)) => total.add(&row),
            None => groups.push((group.clone(), row)),
        }
    }
    let mut total = Row::default();
    for (g, row) in &groups {
        if groups.len() > 1 {
            row.print(&format!("{g} ({} schemas)", row.schemas));
        }
        total.add(row);
    }
    total.print(&format!("TOTAL ({} schemas)", total.schemas));
    if failed > 0 && total.peer_schemas > 0 {
        println!("(the peer failed on {failed} schemas; the peer comparison leaves them out)");
    }
    if groups.len() > 1 {
        groups.push(("all".into(), total));
    } else {
        groups = vec![("all".into(), total)];
    }
    Ok(groups)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let show = args.iter().any(|a| a == "--show");
    let strict = args.iter().any(|a| a == "--strict");
    let seeds: Vec<Item> = SEEDS
        .iter()
        .filter_map(|(name, text)| {
            serde_json::from_str(text)
                .ok()
                .map(|v| ("seed".to_string(), (*name).to_string(), v))
        })
        .collect();
    if seeds.len() != SEEDS.len() {
        eprintln!("a seed fixture is not JSON");
        return ExitCode::FAILURE;
    }
    let mut results = Vec::new();
    match measure("seed schemas (15)", &seeds, true, show) {
        Ok(r) => results.push(("seed".to_string(), r)),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    match mcp_corpus().and_then(|(label, items)| {
        let small = items.len() <= 20;
        measure(&label, &items, small, show)
    }) {
        Ok(r) => results.push(("mcp".to_string(), r)),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }

    println!("\nsavings of the default text (nothing cut):");
    let mut ok = true;
    for (corpus, groups) in &results {
        for (group, r) in groups {
            let label = if group == "all" {
                corpus.clone()
            } else {
                format!("{corpus} / {group}")
            };
            let vs_pretty = saving(r.ours, r.pretty);
            let vs_min = saving(r.ours, r.minified);
            let cost = 100.0 * (r.ours as f64 / r.cap300 as f64 - 1.0);
            print!(
                "  {label:<22} {vs_min:>5.1}% below minified, {vs_pretty:>5.1}% below pretty \
                 (target 55%), "
            );
            let mut pass = vs_pretty >= 55.0;
            if r.peer_schemas > 0 {
                let vs_peer = saving(r.ours_vs_peer, r.peer);
                print!("{vs_peer:>5.1}% below the peer (target 25%), ");
                pass &= vs_peer >= 25.0;
            }
            println!(
                "no-cut cost {cost:+.1}% vs cap 300; cap 50 {:.1}% below minified: {}",
                saving(r.cap50, r.minified),
                if pass { "ok" } else { "MISSED" }
            );
            println!(
                "  {:<22} (the descriptions alone are {} tokens: {:.1}% of ours, {:.1}% of pretty)",
                "",
                r.descriptions,
                100.0 * r.descriptions as f64 / r.ours as f64,
                100.0 * r.descriptions as f64 / r.pretty as f64
            );
            ok &= pass;
        }
    }
    if ok || !strict {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
