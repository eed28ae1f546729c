//! The invariant between a dialect's schema and the parser: for every derived type and every
//! dialect, every instance the dialect's schema accepts either parses into the type, or is
//! rejected with `ParseError::Invalid` whose errors carry JSON paths into the instance and a
//! feedback text. Never a pathless `Deserialize` error, never a panic.
//!
//! Instances are generated FROM THE DIALECT'S SCHEMA (not the type's), by a generator of our
//! own, and each is checked against the `jsonschema` crate before it counts: only instances
//! the dialect's schema accepts are used. The generator writes `null` into nullable slots (one
//! instance per pair with every nullable slot null), picks a strict dialect's one-object tag
//! and its payload properties independently (so mismatched tag/payload instances occur), and
//! goes past bounds a dialect only states in a description (`@maxLength 500`).

use schema_core::{AgentSchema, Dialect, ParseError};
use schema_suite::seed000::*;
use schema_suite::seed002::*;
use schema_suite::seed004::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

struct Gen<'a> {
    root: &'a Value,
    rng: Rng,
    /// Percent chance of writing `null` where the schema allows it.
    null_percent: u64,
}

fn is_null_schema(s: &Value) -> bool {
    s.get("type") == Some(&json!("null"))
}

impl Gen<'_> {
    fn value(&mut self, s: &Value, depth: usize) -> Value {
        let root = self.root;
        let s = match s.get("$ref").and_then(Value::as_str) {
            Some("#") => root,
            Some(r) => root.pointer(r.trim_start_matches('#')).expect("local $ref"),
            None => s,
        };
        let nullable = s.get("nullable") == Some(&json!(true))
            || s.get("type")
                .and_then(Value::as_array)
                .is_some_and(|t| t.contains(&json!("null")));
        if nullable && self.rng.chance(self.null_percent) {
            return Value::Null;
        }
        if let Some(c) = s.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(e)) = s.get("enum") {
            return self.rng.pick(e).clone();
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = s.get(key) {
                if let Some(null) = branches.iter().position(is_null_schema) {
                    if self.rng.chance(self.null_percent) {
                        return Value::Null;
                    }
                    let others: Vec<&Value> = branches
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != null)
                        .map(|(_, b)| b)
                        .collect();
                    let b = (*self.rng.pick(&others)).clone();
                    return self.value(&merge(s, &b), depth + 1);
                }
                let k = self.rng.below(branches.len() as u64) as usize;
                return self.value(&merge_clause(s, branches, k), depth + 1);
            }
        }
        let ty = match s.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => {
                let ts: Vec<&Value> = ts.iter().filter(|t| **t != json!("null")).collect();
                self.rng.pick(&ts).as_str().unwrap_or("string").to_string()
            }
            _ if s.get("properties").is_some() => "object".into(),
            _ => "any".into(),
        };
        let num = |k: &str| s.get(k).and_then(Value::as_f64);
        match ty.as_str() {
            "object" => {
                let mut out = Map::new();
                let required: Vec<&str> = s
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let omit = s.get("x-omit").and_then(Value::as_array);
                if let Some(Value::Object(props)) = s.get("properties") {
                    for (k, p) in props {
                        if omit.is_some_and(|o| o.contains(&json!(k))) {
                            continue;
                        }
                        if required.contains(&k.as_str()) || (depth < 5 && self.rng.chance(60)) {
                            out.insert(k.clone(), self.value(p, depth + 1));
                        }
                    }
                }
                let additional = s.get("additionalProperties");
                let open = additional.is_none_or(|a| a != &json!(false));
                if open && depth < 5 && self.rng.chance(30) {
                    let v = match additional.filter(|a| a.is_object()) {
                        Some(a) => self.value(a, depth + 1),
                        None => json!("extra"),
                    };
                    out.insert("extra_key".into(), v);
                }
                Value::Object(out)
            }
            "array" => {
                let min = num("minItems").unwrap_or(0.0) as u64;
                let max = num("maxItems").unwrap_or(3.0).min(3.0).max(min as f64) as u64;
                let n = if depth > 6 {
                    min
                } else {
                    min + self.rng.below(max - min + 1)
                };
                let items = s.get("items").cloned().unwrap_or(json!({}));
                Value::Array((0..n).map(|_| self.value(&items, depth + 1)).collect())
            }
            "string" => {
                if s.get("pattern").is_some() || s.get("format").is_some() {
                    let candidates = [
                        "https://example.com/a",
                        "exa",
                        "exa, grok",
                        "u12",
                        "2025-01-31",
                        "a@b.co",
                    ];
                    return json!(self.rng.pick(&candidates));
                }
                let min = num("minLength").unwrap_or(0.0) as u64;
                // Past a bound the dialect only writes in a description, now and then.
                let max = num("maxLength").unwrap_or(if self.rng.chance(10) { 40.0 } else { 8.0 });
                let max = max.min(40.0).max(min as f64) as u64;
                let n = min + self.rng.below(max - min + 1);
                let text: String = (0..n)
                    .map(|i| {
                        if i % 4 == 3 {
                            'é'
                        } else {
                            (b'a' + self.rng.below(26) as u8) as char
                        }
                    })
                    .collect();
                json!(text)
            }
            "integer" => {
                let lo = num("minimum").unwrap_or(-20.0).max(-1e6) as i64;
                let hi = num("maximum").unwrap_or(120.0).min(1e6) as i64;
                let hi = hi.max(lo);
                json!(lo + self.rng.below((hi - lo + 1) as u64) as i64)
            }
            "number" => {
                let lo = num("minimum").unwrap_or(-20.0).max(-1e6);
                let v = lo + (self.rng.below(800) as f64) / 8.0;
                match num("maximum") {
                    Some(hi) if v > hi => json!(hi),
                    _ => json!(v),
                }
            }
            "boolean" => json!(self.rng.chance(50)),
            "null" => Value::Null,
            _ => self
                .rng
                .pick(&[json!(1), json!("two"), json!(null), json!({"k": [1]})])
                .clone(),
        }
    }
}

/// A branch of `anyOf`/`oneOf` with the keywords of the schema around it (the type a
/// documented enum states beside its `oneOf` of consts, say).
fn merge(outer: &Value, branch: &Value) -> Value {
    let mut m = branch.as_object().cloned().unwrap_or_default();
    if let Some(o) = outer.as_object() {
        for (k, v) in o {
            if !matches!(k.as_str(), "anyOf" | "oneOf" | "description") && !m.contains_key(k) {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(m)
}

/// Branch `k` of a union: a branch that only lists `required` properties (a flattened union's
/// clause, `oneOf: [{"required": ["search"]}, ...]`) adds them to the object's own and leaves
/// out the properties the other clauses require, so exactly one clause holds.
fn merge_clause(outer: &Value, branches: &[Value], k: usize) -> Value {
    let branch = &branches[k];
    let clause_only = branch
        .as_object()
        .is_some_and(|b| b.keys().all(|key| key == "required"));
    if !clause_only {
        return merge(outer, branch);
    }
    let mut m = outer.as_object().cloned().unwrap_or_default();
    m.remove("oneOf");
    m.remove("anyOf");
    let mut required = m.get("required").cloned().unwrap_or(json!([]));
    let mine = branch["required"].as_array().cloned().unwrap_or_default();
    if let Some(r) = required.as_array_mut() {
        r.extend(mine.iter().cloned());
    }
    m.insert("required".into(), required);
    let omit: Vec<Value> = branches
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .flat_map(|(_, b)| b["required"].as_array().cloned().unwrap_or_default())
        .filter(|name| !mine.contains(name))
        .collect();
    m.insert("x-omit".into(), Value::Array(omit));
    Value::Object(m)
}

/// Whether the error's path leads into `instance` (for a missing property: its parent does).
fn path_ok(instance: &Value, path: &str, keyword: &str) -> bool {
    if instance.pointer(path).is_some() {
        return true;
    }
    keyword == "required" && {
        let parent = &path[..path.rfind('/').unwrap_or(0)];
        instance.pointer(parent).is_some_and(Value::is_object)
    }
}

#[derive(Default)]
struct Tally {
    instances: usize,
    parsed: usize,
    invalid: usize,
    rejected_by_dialect: usize,
    all_null: usize,
    mismatched_tag: usize,
}

fn check<T: AgentSchema + DeserializeOwned>(name: &str, per_dialect: usize, tally: &mut Tally) {
    for (d, dialect) in Dialect::STANDARD_AND_PROVIDERS.into_iter().enumerate() {
        let Ok(schema) = T::try_json_schema(dialect) else {
            continue; // refused by the converter (a map under a strict dialect): no schema to obey
        };
        let validator = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{name} {dialect:?}: jsonschema cannot compile: {e}"));
        let seed = 0x9E37_79B9_7F4A_7C15 ^ (name.len() as u64 * 7919 + d as u64 + 1);
        let mut g = Gen {
            root: schema,
            rng: Rng(seed),
            null_percent: 30,
        };
        let mut accepted = 0;
        let mut tries = 0;
        while accepted < per_dialect && tries < per_dialect * 20 {
            tries += 1;
            // The first instance writes null in every nullable slot.
            g.null_percent = if accepted == 0 { 100 } else { 30 };
            let instance = g.value(schema, 0);
            if !validator.is_valid(&instance) {
                tally.rejected_by_dialect += 1;
                continue;
            }
            accepted += 1;
            tally.instances += 1;
            if g.null_percent == 100 {
                tally.all_null += 1;
            }
            let text = serde_json::to_string(&instance).unwrap();
            let outcome = std::panic::catch_unwind(|| T::from_json(&text))
                .unwrap_or_else(|_| panic!("{name} {dialect:?}: from_json panicked on {text}"));
            match &outcome {
                Ok(_) => tally.parsed += 1,
                Err(err @ ParseError::Invalid { errors, .. }) => {
                    tally.invalid += 1;
                    assert!(!errors.is_empty(), "{name} {dialect:?}: no errors for {text}");
                    for e in errors {
                        assert!(
                            path_ok(&instance, &e.path, e.keyword),
                            "{name} {dialect:?}: error path {:?} ({e}) is not in {text}",
                            e.path
                        );
                        if e.expected.contains("needed when") {
                            tally.mismatched_tag += 1;
                        }
                    }
                    let feedback = err.feedback();
                    assert!(feedback.contains("- "), "{name} {dialect:?}: {feedback}");
                }
                Err(other) => panic!(
                    "{name} {dialect:?}: the dialect's schema accepts {text} but parsing gave {other:?}"
                ),
            }
            // The same through the model-text layer, fenced.
            if accepted % 8 == 0 {
                let fenced = format!("Here it is:\n```json\n{text}\n```");
                let again = T::from_llm(&fenced);
                assert_eq!(
                    again.is_ok(),
                    outcome.is_ok(),
                    "{name} {dialect:?}: from_llm and from_json disagree on {text}"
                );
            }
        }
        assert!(
            accepted >= per_dialect / 2,
            "{name} {dialect:?}: only {accepted} of {tries} generated instances were valid"
        );
    }
}

// Test types beside the seed ones: the shapes the seeds lack (defaults at field and container
// level, a flattened and a one-object union with defaulted payload fields, recursion,
// newtypes, maps, integer widths, fixed-size arrays).

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Job {
    name: String,
    #[serde(default)]
    notes: Vec<String>,
    #[serde(default)]
    max_retries: u32,
    label: Option<String>,
}

#[derive(AgentSchema, Deserialize, Debug, Default)]
#[serde(default)]
#[allow(dead_code)]
struct Settings {
    notes: Vec<String>,
    #[schema(maximum = 9)]
    depth: u8,
    jobs: Vec<Job>,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(dead_code)]
enum Invoice {
    Paid {
        paid_on: String,
    },
    Due {
        due: String,
        #[serde(default)]
        reminders: u32,
        note: Option<String>,
    },
    Void {},
}

#[derive(AgentSchema, Deserialize, Debug)]
#[serde(tag = "kind")]
#[schema(one_object)]
#[allow(dead_code)]
enum Payment {
    Card {
        #[schema(min_length = 4, max_length = 4)]
        last4: String,
        #[serde(default)]
        saved: bool,
    },
    Transfer {
        iban: String,
        #[serde(default)]
        refs: Vec<String>,
    },
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Step {
    think: String,
    #[serde(flatten)]
    invoice: Invoice,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Comment {
    text: String,
    replies: Vec<Comment>,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[schema(pattern = "^u[0-9]+$", max_length = 12)]
#[allow(dead_code)]
struct UserId(String);

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Review {
    author: UserId,
    #[schema(minimum = 0, maximum = 10)]
    score: u8,
    thread: Option<Comment>,
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Widths {
    a: u8,
    b: i16,
    c: u32,
    d: i64,
    f: f32,
    h: bool,
    pos: [f64; 2],
}

#[derive(AgentSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Maps {
    counts: HashMap<String, u32>,
    labels: BTreeMap<String, String>,
    extra: Value,
}

#[test]
fn every_instance_a_dialect_accepts_parses_or_is_invalid_with_paths() {
    let per = 100;
    let mut t = Tally::default();
    macro_rules! all {
        ($($ty:ty),* $(,)?) => {{ let mut n = 0; $( check::<$ty>(stringify!($ty), per, &mut t); n += 1; )* n }};
    }
    let types = schema_suite::with_seed_types!(all)
        + all!(Job, Settings, Invoice, Payment, Step, Comment, Review, Widths, Maps);
    println!(
        "{types} types: {} instances accepted by their dialect's schema ({} generated ones rejected by it): {} parsed, {} Invalid with paths ({} errors naming the tag's needs); {} with every nullable slot null",
        t.instances, t.rejected_by_dialect, t.parsed, t.invalid, t.mismatched_tag, t.all_null
    );
    assert!(t.instances >= 20_000, "only {} instances", t.instances);
    assert!(
        t.invalid > 500,
        "the generator should reach past the precise schema"
    );
    assert!(
        t.mismatched_tag > 0,
        "mismatched one-object tag/payload instances were generated"
    );
}
