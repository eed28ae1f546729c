//! The official JSON Schema Test Suite, run against our validator and the `jsonschema` crate in
//! the same run. Reads the suite from `JSON_SCHEMA_TEST_SUITE` (`.ci/run` points it at
//! `../shared/json-schema-test-suite`); without the variable the test prints a notice and passes.
//!
//! Every test of drafts 2020-12, 2019-09, 7 and 4 must pass (`remotes/` registered as
//! `http://localhost:1234/...`), `optional/format` with format assertion on, the other
//! `optional/` files with the defaults, except the named allow-list below.

use schema_core::validate::{Draft, Validator};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Suite tests we may fail, each with its reason. An entry matches every test whose id
/// (`draft/file: case / test`) contains it, in every draft.
const ALLOWED: &[(&str, &str)] = &[
    (
        "optional/format/idn-hostname.json",
        "IDNA 2008 (RFC 5890-5893) needs Unicode property tables (scripts, joining types, bidi \
         classes, combining marks); idn-hostname checks label syntax only",
    ),
    (
        "optional/format/hostname.json: validation of A-label (punycode) host names",
        "A-labels are Punycode-decoded and checked for syntax; the IDNA 2008 per-character and \
         contextual rules need the same Unicode tables as idn-hostname",
    ),
    (
        "draft7/optional/content.json",
        "contentEncoding/contentMediaType are annotations (draft 7 lets implementations choose; \
         2019-09 and later make them annotation-only)",
    ),
];

struct Remotes(Arc<HashMap<String, Value>>);

impl jsonschema::Retrieve for Remotes {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = uri.as_str().split('#').next().unwrap_or("").to_string();
        self.0
            .get(&key)
            .cloned()
            .ok_or_else(|| format!("no remote {key}").into())
    }
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

fn remotes(root: &Path) -> HashMap<String, Value> {
    let base = root.join("remotes");
    let mut files = Vec::new();
    json_files(&base, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            (
                format!("http://localhost:1234/{rel}"),
                serde_json::from_str(&text).unwrap(),
            )
        })
        .collect()
}

#[derive(Default)]
struct Count {
    total: usize,
    ours: usize,
    crate_: usize,
}

#[test]
fn json_schema_test_suite() {
    let Ok(root) = std::env::var("JSON_SCHEMA_TEST_SUITE") else {
        println!("JSON_SCHEMA_TEST_SUITE is not set: the official test suite is skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(root);
    assert!(
        root.join("tests").is_dir(),
        "JSON_SCHEMA_TEST_SUITE={} has no tests/ directory",
        root.display()
    );
    let remotes = Arc::new(remotes(&root));
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut allowed_hit = 0;
    for (dir, draft, theirs) in [
        (
            "draft2020-12",
            Draft::Draft2020_12,
            jsonschema::Draft::Draft202012,
        ),
        (
            "draft2019-09",
            Draft::Draft2019_09,
            jsonschema::Draft::Draft201909,
        ),
        ("draft7", Draft::Draft7, jsonschema::Draft::Draft7),
        ("draft4", Draft::Draft4, jsonschema::Draft::Draft4),
    ] {
        let mut files = Vec::new();
        json_files(&root.join("tests").join(dir), &mut files);
        for file in files {
            let rel = file
                .strip_prefix(root.join("tests").join(dir))
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let group = if rel.starts_with("optional/format/") {
                "optional/format"
            } else if rel.starts_with("optional/") {
                "optional"
            } else {
                "required"
            };
            let assert_formats = group == "optional/format";
            let cases: Vec<Value> =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let count = counts.entry(format!("{dir} {group}")).or_default();
            for case in &cases {
                let schema = &case["schema"];
                let mut builder = Validator::builder()
                    .default_draft(draft)
                    .assert_formats(assert_formats);
                for (uri, doc) in remotes.iter() {
                    builder = builder.with_document(uri.clone(), doc.clone());
                }
                let ours = builder.build(schema);
                let crate_v = jsonschema::options()
                    .with_draft(theirs)
                    .should_validate_formats(assert_formats)
                    .with_retriever(Remotes(remotes.clone()))
                    .build(schema)
                    .ok();
                for test in case["tests"].as_array().unwrap() {
                    let data = &test["data"];
                    let valid = test["valid"].as_bool().unwrap();
                    let id = format!(
                        "{dir}/{rel}: {} / {}",
                        case["description"].as_str().unwrap_or(""),
                        test["description"].as_str().unwrap_or("")
                    );
                    count.total += 1;
                    if crate_v.as_ref().is_some_and(|v| v.is_valid(data) == valid) {
                        count.crate_ += 1;
                    }
                    let outcome = match &ours {
                        Ok(v) => {
                            let quick = v.is_valid(data);
                            let full = v.validate(data).is_ok();
                            if quick != full {
                                Err(format!("is_valid {quick} but validate {full}"))
                            } else if quick != valid {
                                Err(format!("expected valid={valid}"))
                            } else {
                                Ok(())
                            }
                        }
                        Err(e) => Err(format!("schema not compiled: {e}")),
                    };
                    match outcome {
                        Ok(()) => count.ours += 1,
                        Err(why) => {
                            if ALLOWED.iter().any(|(k, _)| id.contains(k)) {
                                allowed_hit += 1;
                            } else {
                                failures.push(format!("{id}: {why}"));
                            }
                        }
                    }
                }
            }
        }
    }
    println!("| suite | tests | ours | jsonschema crate |");
    println!("|---|---|---|---|");
    for (name, c) in &counts {
        println!(
            "| {name} | {} | {} ({:.1}%) | {} ({:.1}%) |",
            c.total,
            c.ours,
            100.0 * c.ours as f64 / c.total as f64,
            c.crate_,
            100.0 * c.crate_ as f64 / c.total as f64
        );
    }
    println!("allow-listed failures: {allowed_hit}");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} suite tests failed", failures.len());
}
