//! The loss checker of issue 12: for the TypeScript text (default options) of every schema the
//! project keeps — the seed schemas of `tests/fixtures/`, the converter corpus
//! `tests/fixtures/convert/`, the MCP tools of `tests/fixtures/mcp/` — and of every schema of the
//! shared MCP corpus (`MCP_CORPUS`, about 390 real tools), every property name, required marker,
//! enum and const value, description (whole), default, bound, pattern and format appears in the
//! text.
//!
//! The checker walks the JSON Schema itself (it shares no code with the converter) and looks for
//! each item in the text in the form the converter documents:
//! - a property `name` as `name: ` when required, `name?: ` or `name: ` otherwise (names that are
//!   not identifiers quoted as JSON strings); an optional property that can only be absent
//!   (`{"not": {}}`, `false`) as its name beside `must be absent`; a required name without a
//!   property schema as `name: unknown`; the names of `required`-only clauses of `oneOf`/`anyOf`;
//! - an enum or const value as its JSON text (scalars; object and array values by their scalars);
//! - a description whole, its whitespace runs as one space and `*/` written `*\/`;
//! - a default as `default <JSON text>`;
//! - `minimum a` as `>=a` or `a-` (the start of a range), `maximum b` as `<=b` or `-b`,
//!   `exclusiveMinimum a` as `>a`, `exclusiveMaximum b` as `<b`; a length, item or key count `n` as
//!   `n char(s)`/`n item(s)`/`n key(s)` or `n-`; `multipleOf n` as `multiple of n`;
//! - a pattern as `/pattern/`, a format as `format f`.
//!
//! What the converter leaves out on purpose, as noise, is not required: an integer bound equal to
//! the limit of a 32- or 64-bit integer type or of JavaScript's exact range (listed here again),
//! a minimum count of 0, `format` `float`/`double` on a number and `int32`/`int64` on an
//! integer, and the description of a property that can only be absent.

use schema_core::convert::{to_typescript, TsOptions};
use serde_json::Value;
use std::collections::HashSet;

/// What one schema's text misses.
fn losses(schema: &Value, text: &str) -> Vec<String> {
    let mut c = Checker {
        root: schema,
        text,
        missing: Vec::new(),
        seen: HashSet::new(),
    };
    c.walk(schema, "#");
    c.missing
}

struct Checker<'a> {
    root: &'a Value,
    text: &'a str,
    missing: Vec<String>,
    /// `$ref`s already followed (recursive schemas are walked once).
    seen: HashSet<String>,
}

const WIDTH_LIMITS: [f64; 10] = [
    -2_147_483_648.0,
    2_147_483_647.0,
    4_294_967_295.0,
    -9_223_372_036_854_775_808.0,
    9_223_372_036_854_775_807.0,
    18_446_744_073_709_551_615.0,
    -9_007_199_254_740_992.0,
    -9_007_199_254_740_991.0,
    9_007_199_254_740_991.0,
    9_007_199_254_740_992.0,
];

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn key(name: &str) -> String {
    if is_ident(name) {
        name.to_string()
    } else {
        Value::String(name.to_string()).to_string()
    }
}

/// `{"not": {}}` or `false`: no value.
fn nothing(s: &Value) -> bool {
    match s {
        Value::Bool(b) => !b,
        Value::Object(m) => m.get("not").is_some_and(|n| {
            *n == Value::Bool(true) || n.as_object().is_some_and(|o| o.is_empty())
        }),
        _ => false,
    }
}

fn type_is(m: &serde_json::Map<String, Value>, t: &str) -> bool {
    match m.get("type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(a)) => a.iter().any(|x| x == t),
        _ => false,
    }
}

impl Checker<'_> {
    fn need(&mut self, what: &str, any_of: &[String]) {
        if !any_of.iter().any(|f| self.text.contains(f.as_str())) {
            self.missing.push(format!("{what}: none of {any_of:?}"));
        }
    }

    fn walk(&mut self, s: &Value, at: &str) {
        let Value::Object(m) = s else { return };
        if let Some(Value::String(r)) = m.get("$ref") {
            if self.seen.insert(r.clone()) {
                if let Some(target) = resolve(self.root, r) {
                    self.walk(target, r);
                }
            }
        }
        if let Some(Value::String(d)) = m.get("description") {
            let whole = d.split_whitespace().collect::<Vec<_>>().join(" ");
            self.need(
                &format!("{at}: description"),
                &[whole.replace("*/", "*\\/")],
            );
        }
        for k in ["enum", "const"] {
            if let Some(v) = m.get(k) {
                let mut scalars = Vec::new();
                scalar_leaves(v, k == "enum", &mut scalars);
                for lit in scalars {
                    self.need(&format!("{at}: {k} value"), &[lit]);
                }
            }
        }
        if let Some(d) = m.get("default") {
            self.need(&format!("{at}: default"), &[format!("default {d}")]);
        }
        self.bounds(m, at);
        if let Some(Value::String(p)) = m.get("pattern") {
            self.need(
                &format!("{at}: pattern"),
                &[format!("/{}/", p.replace("*/", "*\\/"))],
            );
        }
        if let Some(Value::String(f)) = m.get("format") {
            let noise = (matches!(f.as_str(), "float" | "double") && type_is(m, "number"))
                || (matches!(f.as_str(), "int32" | "int64") && type_is(m, "integer"));
            if !noise {
                self.need(&format!("{at}: format"), &[format!("format {f}")]);
            }
        }
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let props = m.get("properties").and_then(Value::as_object);
        if let Some(props) = props {
            for (name, sub) in props {
                let k = key(name);
                let here = format!("{at}/properties/{name}");
                if required.contains(&name.as_str()) {
                    self.need(&format!("{here}: required name"), &[format!("{k}: ")]);
                } else if nothing(sub) {
                    if !(self.text.contains(&k) && self.text.contains("must be absent")) {
                        self.missing
                            .push(format!("{here}: absent property not noted"));
                    }
                    continue;
                } else {
                    self.need(
                        &format!("{here}: optional name"),
                        &[format!("{k}?: "), format!("{k}: ")],
                    );
                }
                self.walk(sub, &here);
            }
        }
        for name in &required {
            if props.is_none_or(|p| !p.contains_key(*name)) {
                let k = key(name);
                // a `required`-only clause of a oneOf/anyOf is a note naming it; elsewhere a
                // required name without a schema is `name: unknown`
                self.need(
                    &format!("{at}: required {name}"),
                    &[format!("{k}: "), format!(" {name}"), format!("+{name}")],
                );
            }
        }
        for k in ["items", "additionalProperties", "not", "additionalItems"] {
            if let Some(sub) = m.get(k) {
                match sub {
                    Value::Array(list) => {
                        for (i, x) in list.iter().enumerate() {
                            self.walk(x, &format!("{at}/{k}/{i}"));
                        }
                    }
                    other => self.walk(other, &format!("{at}/{k}")),
                }
            }
        }
        for k in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if let Some(Value::Array(list)) = m.get(k) {
                for (i, x) in list.iter().enumerate() {
                    self.walk(x, &format!("{at}/{k}/{i}"));
                }
            }
        }
        if let Some(Value::Object(pp)) = m.get("patternProperties") {
            for (re, x) in pp {
                self.need(&format!("{at}: key pattern"), &[format!("/{re}/")]);
                self.walk(x, &format!("{at}/patternProperties/{re}"));
            }
        }
    }

    fn bounds(&mut self, m: &serde_json::Map<String, Value>, at: &str) {
        let int = type_is(m, "integer");
        let num = |k: &str| {
            m.get(k)
                .and_then(Value::as_f64)
                .map(|f| (f, m[k].to_string()))
        };
        let noise = |f: f64| int && WIDTH_LIMITS.contains(&f);
        if let Some((f, n)) = num("minimum") {
            if !noise(f) && m.get("exclusiveMinimum") != Some(&Value::Bool(true)) {
                self.need(
                    &format!("{at}: minimum"),
                    &[format!(">={n}"), format!("{n}-")],
                );
            }
        }
        if let Some((f, n)) = num("maximum") {
            if !noise(f) && m.get("exclusiveMaximum") != Some(&Value::Bool(true)) {
                self.need(
                    &format!("{at}: maximum"),
                    &[format!("<={n}"), format!("-{n}")],
                );
            }
        }
        // draft 4: a boolean exclusiveMinimum makes `minimum` exclusive
        for (k, draft4, sign) in [
            ("exclusiveMinimum", "minimum", ">"),
            ("exclusiveMaximum", "maximum", "<"),
        ] {
            let v = match m.get(k) {
                Some(Value::Bool(true)) => num(draft4),
                Some(Value::Number(_)) => num(k),
                _ => None,
            };
            if let Some((f, n)) = v {
                if !noise(f) {
                    self.need(&format!("{at}: {k}"), &[format!("{sign}{n}")]);
                }
            }
        }
        for (min, max, unit) in [
            ("minLength", "maxLength", "char"),
            ("minItems", "maxItems", "item"),
            ("minProperties", "maxProperties", "key"),
        ] {
            for k in [min, max] {
                if let Some(n) = m.get(k).and_then(Value::as_u64) {
                    if n == 0 && k == min {
                        continue;
                    }
                    self.need(
                        &format!("{at}: {k}"),
                        &[format!("{n} {unit}"), format!("{n}-")],
                    );
                }
            }
        }
        if let Some(n) = m.get("multipleOf") {
            self.need(&format!("{at}: multipleOf"), &[format!("multiple of {n}")]);
        }
    }
}

/// The JSON texts of the scalars of a value (an enum's members when `members`).
fn scalar_leaves(v: &Value, members: bool, out: &mut Vec<String>) {
    match v {
        Value::Array(a) if members => a.iter().for_each(|x| scalar_leaves(x, false, out)),
        Value::Array(a) => a.iter().for_each(|x| scalar_leaves(x, false, out)),
        Value::Object(o) => o.values().for_each(|x| scalar_leaves(x, false, out)),
        scalar => out.push(scalar.to_string()),
    }
}

/// A local `$ref` (`#`, `#/$defs/A`, `#/definitions/A`).
fn resolve<'v>(root: &'v Value, r: &str) -> Option<&'v Value> {
    let p = r.strip_prefix('#')?;
    if p.is_empty() {
        return Some(root);
    }
    root.pointer(p)
}

/// Checks every schema, returns how many were checked, panics with every loss.
fn check_all(schemas: &[(String, Value)]) -> usize {
    let mut report = Vec::new();
    for (name, schema) in schemas {
        let text = match to_typescript(schema, &TsOptions::default()) {
            Ok(t) => t,
            Err(e) => {
                report.push(format!("{name}: no text: {e}"));
                continue;
            }
        };
        for loss in losses(schema, &text) {
            report.push(format!("{name}: {loss}\n  text: {text}"));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    schemas.len()
}

fn dir(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

fn json_files(d: &std::path::Path) -> Vec<(String, Value)> {
    schema_suite::json_files(d)
        .into_iter()
        .map(|(p, v)| (schema_suite::file_name(&p), v))
        .collect()
}

#[test]
fn seed_schemas_lose_nothing() {
    let schemas: Vec<(String, Value)> = json_files(&dir("tests/fixtures"))
        .into_iter()
        // seed004_response_*.json are sample replies, not schemas
        .filter(|(n, _)| !n.starts_with("seed004_response_"))
        .collect();
    assert_eq!(check_all(&schemas), 15);
}

#[test]
fn converter_corpus_loses_nothing() {
    let schemas: Vec<(String, Value)> = json_files(&dir("tests/fixtures/convert"))
        .into_iter()
        .map(|(n, v)| (n, v["schema"].clone()))
        .collect();
    assert_eq!(check_all(&schemas), 28);
}

#[test]
fn kept_mcp_tools_lose_nothing() {
    let tools = json_files(&dir("tests/fixtures/mcp"));
    let mut schemas: Vec<(String, Value)> = tools
        .iter()
        .flat_map(|(_, v)| v["tools"].as_array().cloned().unwrap_or_default())
        .map(|t| {
            (
                t["name"].as_str().unwrap_or("?").to_string(),
                t["inputSchema"].clone(),
            )
        })
        .collect();
    assert_eq!(schemas.len(), 5);
    schemas.extend(json_files(&dir("tests/fixtures/mcp/corpus")));
    assert_eq!(check_all(&schemas), 16);
}

#[test]
fn shared_mcp_corpus_loses_nothing() {
    let Some(d) = std::env::var_os("MCP_CORPUS") else {
        println!("skipped: set MCP_CORPUS (e.g. ../shared/mcp-corpus) to check every MCP schema");
        return;
    };
    let schemas = json_files(std::path::Path::new(&d));
    assert!(schemas.len() >= 300, "{} schemas in {d:?}", schemas.len());
    println!("{} MCP schemas, nothing lost", check_all(&schemas));
}

/// The checker finds what a cut or a dropped default loses (it is not a test that cannot fail).
#[test]
fn the_checker_sees_losses() {
    let schema = serde_json::json!({"type": "object", "properties": {
        "a": {"type": "string", "description": "a long description that a cap cuts short", "default": "some long default value"},
        "b": {"type": "integer", "minimum": 3, "maximum": 9},
        "c": {"enum": ["x", "y"]}
    }, "required": ["a"]});
    let whole = to_typescript(&schema, &TsOptions::default()).unwrap();
    assert!(losses(&schema, &whole).is_empty());
    let cut = to_typescript(
        &schema,
        &TsOptions {
            max_description_len: Some(10),
            ..TsOptions::default()
        },
    )
    .unwrap();
    let found = losses(&schema, &cut);
    assert_eq!(found.len(), 2, "{found:?}");
    let bare = to_typescript(
        &schema,
        &TsOptions {
            include_constraints: false,
            include_descriptions: false,
            ..TsOptions::default()
        },
    )
    .unwrap();
    // description, default, minimum, maximum
    assert_eq!(losses(&schema, &bare).len(), 4, "{bare}");
    // a text that drops a property, its required marker or an enum value
    let edited = whole
        .replace("a: ", "a?: ")
        .replace("\"y\"", "\"z\"")
        .replace("b?: ", "");
    assert_eq!(losses(&schema, &edited).len(), 3, "{edited}");
}
