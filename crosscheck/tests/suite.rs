//! The official JSON Schema Test Suite, run against our validator and the `jsonschema` crate in
//! the same run. Reads the suite from `JSON_SCHEMA_TEST_SUITE` (`.ci/run` points it at
//! `../shared/json-schema-test-suite`); without the variable the test prints a notice and passes.
//!
//! Every test of drafts 2020-12, 2019-09, 7 and 4 must pass (`remotes/` registered as
//! `http://localhost:1234/...`), `optional/format` with format assertion on, the other
//! `optional/` files with the defaults, except the named allow-list below.

use schema_core::validate::{Draft, Validator};
use serde_json::{json, Value};
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

/// Instances derived from a suite test's data: the data, small edits of it (a property removed
/// or nulled, an item dropped or added, a number moved, a string changed), and one value of
/// each type. Deterministic, a few dozen per test.
fn generated(data: &Value) -> Vec<Value> {
    let mut out = vec![
        data.clone(),
        json!(null),
        json!(true),
        json!(0),
        json!(-1.5),
        json!(""),
        json!([]),
        json!({}),
    ];
    match data {
        Value::Object(m) => {
            for k in m.keys().take(8) {
                let mut a = m.clone();
                a.shift_remove(k);
                out.push(Value::Object(a));
                let mut b = m.clone();
                b.insert(k.clone(), Value::Null);
                out.push(Value::Object(b));
                let mut c = m.clone();
                c.insert(k.clone(), json!([m[k].clone()]));
                out.push(Value::Object(c));
            }
            let mut d = m.clone();
            d.insert("zz-extra".into(), json!(1));
            out.push(Value::Object(d));
        }
        Value::Array(a) => {
            let mut x = a.clone();
            x.pop();
            out.push(Value::Array(x));
            let mut y = a.clone();
            y.push(json!(null));
            out.push(Value::Array(y));
            if let Some(first) = a.first() {
                let mut z = a.clone();
                z.push(first.clone());
                out.push(Value::Array(z));
            }
            for (i, item) in a.iter().enumerate().take(4) {
                let mut w = a.clone();
                w[i] = json!({"wrapped": item.clone()});
                out.push(Value::Array(w));
            }
        }
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                for g in [f + 1.0, f - 1.0, f * 0.5, f * 3.0, -f] {
                    out.push(json!(g));
                }
            }
            if let Some(i) = n.as_i64() {
                out.push(json!(i.saturating_add(1)));
            }
        }
        Value::String(t) => {
            out.push(json!(format!("{t}x")));
            out.push(json!(t.chars().skip(1).collect::<String>()));
            out.push(json!(t.to_uppercase()));
        }
        _ => {}
    }
    out
}

/// Whether `pattern` matches `text` with fancy-regex (Rust `regex` syntax plus lookaround and
/// backreferences), the alternative engine the issue asked to compare.
fn fancy_matches(pattern: &str, text: &str) -> Option<bool> {
    fancy_regex::Regex::new(pattern).ok()?.is_match(text).ok()
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
    // Differential: our verdict against the crate's on generated instances of every suite
    // schema both compile (format assertion as in the file's group).
    let (mut diff_total, mut diff_disagree) = (0usize, Vec::new());
    // `pattern` engines on the suite's ECMA-262 regex tests: (tests, regress, fancy-regex).
    let mut regex_cmp = (0usize, 0usize, 0usize);
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
                let is_regex_file =
                    rel.contains("ecmascript-regex") || rel.contains("non-bmp-regex");
                if let (Ok(ours), Some(theirs)) = (&ours, &crate_v) {
                    if !is_regex_file && !rel.contains("format") {
                        for test in case["tests"].as_array().unwrap() {
                            for inst in generated(&test["data"]) {
                                diff_total += 1;
                                let (a, b) = (ours.is_valid(&inst), theirs.is_valid(&inst));
                                let id = format!("{dir}/{rel}: ");
                                if a != b && !ALLOWED.iter().any(|(k, _)| id.contains(k)) {
                                    diff_disagree.push(format!(
                                        "{dir}/{rel}: {}: {inst}: ours {a}, crate {b}",
                                        case["description"].as_str().unwrap_or("")
                                    ));
                                }
                            }
                        }
                    }
                }
                let plain_pattern = schema.get("pattern").and_then(Value::as_str);
                for test in case["tests"].as_array().unwrap() {
                    let data = &test["data"];
                    let valid = test["valid"].as_bool().unwrap();
                    if let (true, Some(p)) = (is_regex_file && dir == "draft2020-12", plain_pattern)
                    {
                        if let Some(text) = data.as_str() {
                            regex_cmp.0 += 1;
                            if ours.as_ref().is_ok_and(|v| v.is_valid(data) == valid) {
                                regex_cmp.1 += 1;
                            }
                            if fancy_matches(p, text) == Some(valid) {
                                regex_cmp.2 += 1;
                            }
                        }
                    }
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
    println!(
        "pattern engines on the ECMA-262 regex tests (draft2020-12, string instances): {} tests, \
         regress {} pass, fancy-regex {} pass",
        regex_cmp.0, regex_cmp.1, regex_cmp.2
    );
    println!(
        "differential vs the jsonschema crate on generated instances of suite schemas: {} \
         instances, {} disagreements",
        diff_total,
        diff_disagree.len()
    );
    for d in diff_disagree.iter().take(40) {
        println!("DIFF {d}");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} suite tests failed", failures.len());
    assert!(
        diff_disagree.is_empty(),
        "{} disagreements with the jsonschema crate",
        diff_disagree.len()
    );
}
