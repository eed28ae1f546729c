//! A differential fuzz of the conversion: random schemas (types, objects, arrays, tuples,
//! unions, `allOf`s, `$ref`s to four definitions with keywords beside them, type arrays,
//! `nullable`, enums with and without `null`, constraints, annotations), converted through the
//! model ([`to_dialect_with`]) and by the walk over the input ([`walk_input`], the reference
//! the conversion through the model is held to), in every dialect but `JsonSchema` and two
//! option sets.
//!
//! `random_schemas_convert_without_panic` (always run, 1,000 schemas) holds that no input makes
//! either path panic and that the conversion through the model never gives an internal error.
//! `differential_fuzz` (`#[ignore]`: `FUZZ_SCHEMAS=3000 cargo test -p schema-core --lib
//! --release differential_fuzz -- --ignored --nocapture`) prints how the two paths compare,
//! class by class, with the smallest input of each class. The walk merges nothing itself on a
//! lowered document (see `crate::convert`'s module docs): a schema the lowering left it to
//! merge is an internal error, which both tests fail on.

use crate::convert::dialect::walk_input;
use crate::convert::{to_dialect_with, ConvertError, Converted, DialectOptions};
use crate::Dialect;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Whether an event of probability `p` (in hundredths) happens.
    fn chance(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }

    fn upto(&mut self, n: u64) -> u64 {
        self.next() % (n + 1)
    }
}

const TYPES: [&str; 7] = [
    "string", "integer", "number", "boolean", "object", "array", "null",
];

/// Values of the type `t`, for an enum.
fn values_of(t: &str) -> Vec<Value> {
    match t {
        "string" => vec![json!("a"), json!("b"), json!("c")],
        "integer" => vec![json!(1), json!(2), json!(3)],
        "number" => vec![json!(1), json!(2.5)],
        "boolean" => vec![json!(true), json!(false)],
        _ => vec![Value::Null],
    }
}

fn constraints(r: &mut Rng, t: &str, s: &mut Map<String, Value>) {
    match t {
        "string" => {
            if r.chance(30) {
                s.insert("maxLength".into(), json!(1 + r.upto(19)));
            }
            if r.chance(15) {
                s.insert("pattern".into(), json!("^[a-z]+$"));
            }
            if r.chance(15) {
                s.insert(
                    "format".into(),
                    json!(r.pick(&["date-time", "email", "uuid"])),
                );
            }
        }
        "integer" | "number" => {
            if r.chance(30) {
                s.insert("minimum".into(), json!(r.upto(10) as i64 - 5));
            }
            if r.chance(20) {
                s.insert("maximum".into(), json!(6 + r.upto(90)));
            }
        }
        "array" if r.chance(20) => {
            s.insert("minItems".into(), json!(1));
        }
        _ => {}
    }
}

fn schema(r: &mut Rng, depth: u32) -> Value {
    let mut s = Map::new();
    let roll = r.upto(99);
    if depth > 3 || roll < 25 {
        let t = *r.pick(&TYPES[..4]);
        s.insert("type".into(), json!(t));
        constraints(r, t, &mut s);
        if r.chance(15) {
            let mut vals = values_of(t);
            vals.truncate(1 + r.upto(vals.len() as u64 - 1) as usize);
            if r.chance(20) {
                vals.push(Value::Null);
            }
            s.insert("enum".into(), Value::Array(vals));
        }
    } else if roll < 40 {
        s.insert("type".into(), json!("object"));
        let mut props = Map::new();
        for i in 0..r.upto(4) {
            props.insert(
                format!("{}{i}", r.pick(&["p", "q", "x"])),
                schema(r, depth + 1),
            );
        }
        let names: Vec<Value> = props
            .keys()
            .filter(|_| r.chance(60))
            .map(|k| json!(k))
            .collect();
        s.insert("properties".into(), Value::Object(props));
        s.insert("required".into(), Value::Array(names));
        if r.chance(30) {
            s.insert("additionalProperties".into(), json!(false));
        }
    } else if roll < 50 {
        s.insert("type".into(), json!("array"));
        if r.chance(20) {
            s.insert("prefixItems".into(), json!([schema(r, depth + 1)]));
        }
        s.insert("items".into(), schema(r, depth + 1));
        constraints(r, "array", &mut s);
    } else if roll < 60 {
        let key = *r.pick(&["anyOf", "oneOf"]);
        let branches: Vec<Value> = (0..=r.upto(2)).map(|_| schema(r, depth + 1)).collect();
        s.insert(key.into(), Value::Array(branches));
    } else if roll < 70 {
        let parts: Vec<Value> = (0..=r.upto(2)).map(|_| schema(r, depth + 1)).collect();
        s.insert("allOf".into(), Value::Array(parts));
    } else if roll < 85 {
        s.insert(
            "$ref".into(),
            json!(format!("#/$defs/{}", r.pick(&["A", "B", "C", "D"]))),
        );
    } else if roll < 92 {
        let n = 1 + r.upto(2) as usize;
        let types: Vec<&str> = (0..n).map(|_| *r.pick(&TYPES)).collect();
        for t in &types {
            constraints(r, t, &mut s);
        }
        s.insert("type".into(), json!(types));
    } else {
        s.insert(
            "const".into(),
            r.pick(&[json!("k"), json!(3), json!(true)]).clone(),
        );
    }
    if r.chance(15) {
        s.insert("nullable".into(), json!(r.chance(70)));
    }
    if r.chance(25) {
        s.insert("description".into(), json!(format!("d{}", r.upto(9))));
    }
    if s.contains_key("$ref") && r.chance(40) {
        let (k, v) = r
            .pick(&[
                ("type", json!("string")),
                ("required", json!(["p0"])),
                ("maxLength", json!(3)),
                ("minimum", json!(0)),
                ("enum", json!(["a", "b"])),
                ("items", json!({"type": "string"})),
            ])
            .clone();
        s.insert(k.into(), v);
    }
    Value::Object(s)
}

/// The `i`th random document: a root (mostly an object with two properties) and four
/// definitions that may refer to each other (and themselves).
fn document(r: &mut Rng) -> Value {
    let defs: Map<String, Value> = ["A", "B", "C", "D"]
        .iter()
        .map(|n| (n.to_string(), schema(r, 1)))
        .collect();
    let mut root = schema(r, 0);
    if r.chance(80) {
        root = json!({"type": "object", "properties": {"a": root, "b": schema(r, 1)},
                      "required": ["a"]});
    }
    if let Value::Object(m) = &mut root {
        m.insert("$defs".into(), Value::Object(defs));
    }
    root
}

/// How the conversion through the model compares with the walk over the input.
fn class(
    model: &Result<Converted, ConvertError>,
    walk: &Result<Converted, ConvertError>,
) -> String {
    match (model, walk) {
        (Ok(a), Ok(b)) if a.schema == b.schema => "same".into(),
        (Ok(_), Ok(_)) => "schema differs".into(),
        (Err(a), Err(b)) if a == b => "same error".into(),
        (Err(_), Err(_)) => "another error".into(),
        (Ok(_), Err(e)) => format!("model accepts, walk rejects: {:?}", e.kind),
        (Err(e), Ok(_)) => format!("model rejects, walk accepts: {:?}", e.kind),
    }
}

/// Converts `n` random documents both ways; the count of each class and its smallest input.
fn run(n: usize, seed: u64) -> BTreeMap<String, (usize, Value)> {
    let mut r = Rng(seed);
    let mut out: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    for _ in 0..n {
        let doc = document(&mut r);
        for d in Dialect::EVERY
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema)
        {
            for keep in [false, true] {
                let o = DialectOptions::new().keep_defs(keep);
                let model = to_dialect_with(&doc, d, &o);
                if let Err(e) = &model {
                    assert!(!e.to_string().contains("internal:"), "{d} {doc}: {e}");
                }
                let walk = walk_input(&doc, d, &o, true);
                let c: String = class(&model, &walk).chars().take(100).collect();
                let e = out.entry(c).or_insert((0, doc.clone()));
                e.0 += 1;
                if doc.to_string().len() < e.1.to_string().len() {
                    e.1 = doc.clone();
                }
            }
        }
    }
    out
}

/// No random input makes either path panic, and the conversion through the model never
/// reports an internal error (what the lowering should have written and did not).
#[test]
fn random_schemas_convert_without_panic() {
    let classes = run(1000, 0x9e37_79b9_7f4a_7c15);
    let total: usize = classes.values().map(|(n, _)| n).sum();
    assert_eq!(total, 1000 * 9 * 2);
    // (the generator makes inputs both paths accept alike: it is not all errors)
    assert!(
        classes.get("same").is_some_and(|(n, _)| *n > total / 4),
        "{classes:?}"
    );
}

/// The comparison, class by class (see the module docs).
#[test]
#[ignore]
fn differential_fuzz() {
    let n = std::env::var("FUZZ_SCHEMAS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    for (class, (count, smallest)) in run(n, 0x2545_f491_4f6c_dd1d) {
        eprintln!("{count:7} {class}\n        {smallest}");
    }
}
