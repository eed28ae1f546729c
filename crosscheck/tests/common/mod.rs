//! Shared by the cross-check tests: a deterministic generator of instances of a JSON Schema
//! (used by `differential.rs`, `llguidance.rs` and the other cross-checks).

#![allow(dead_code)]

use schema_core::Dialect;
use serde_json::{json, Map, Value};

/// The dialects whose outputs llguidance must compile: the engines that run it or xgrammar,
/// and the two strict provider dialects.
pub const LLGUIDANCE_COMPILED: [Dialect; 6] = [
    Dialect::OpenAi,
    Dialect::Anthropic,
    Dialect::Llguidance,
    Dialect::Xgrammar,
    Dialect::LlamaCpp,
    Dialect::Vllm,
];

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

pub fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some("#") => root,
        Some(r) => root.pointer(r.trim_start_matches('#')).expect("local ref"),
        None => s,
    }
}

/// A random instance that the schema accepts.
pub fn generate(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    let s = resolve(root, s);
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        return e[rng.below(e.len() as u64) as usize].clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = s.get(key) {
            if s.get("type").is_none() {
                let b = &branches[rng.below(branches.len() as u64) as usize];
                return generate(root, b, rng, depth + 1);
            }
            if let Some(c) = branches[rng.below(branches.len() as u64) as usize].get("const") {
                return c.clone();
            }
        }
    }
    let num = |s: &Value, k: &str| s.get(k).and_then(Value::as_f64);
    match s.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut out = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = s.get("properties") {
                for (k, p) in props {
                    if required.contains(&k.as_str()) || (depth < 4 && rng.chance(50)) {
                        out.insert(k.clone(), generate(root, p, rng, depth + 1));
                    }
                }
            }
            if let Some(add) = s
                .get("additionalProperties")
                .filter(|a| a.is_object() || **a == json!(true))
            {
                for i in 0..rng.below(3) {
                    let v = if add.is_object() {
                        generate(root, add, rng, depth + 1)
                    } else {
                        json!(i)
                    };
                    out.insert(format!("key{i}"), v);
                }
            }
            Value::Object(out)
        }
        Some("array") => {
            if let Some(Value::Array(prefix)) = s.get("prefixItems") {
                // A tuple: one item per position.
                return Value::Array(
                    prefix
                        .iter()
                        .map(|p| generate(root, p, rng, depth + 1))
                        .collect(),
                );
            }
            let min = num(s, "minItems").unwrap_or(0.0) as u64;
            let max = num(s, "maxItems").unwrap_or(4.0).min(4.0).max(min as f64) as u64;
            let n = min + rng.below(max - min + 1);
            let items = s.get("items").cloned().unwrap_or(json!({}));
            Value::Array(
                (0..n)
                    .map(|_| generate(root, &items, rng, depth + 1))
                    .collect(),
            )
        }
        Some("string") => {
            let min = num(s, "minLength").unwrap_or(0.0) as u64;
            let max = num(s, "maxLength")
                .unwrap_or(12.0)
                .min(12.0)
                .max(min as f64) as u64;
            let n = min + rng.below(max - min + 1);
            Value::String(
                (0..n)
                    .map(|i| {
                        if i % 3 == 2 {
                            'é'
                        } else {
                            (b'a' + rng.below(26) as u8) as char
                        }
                    })
                    .collect(),
            )
        }
        Some("integer") => {
            let lo = num(s, "minimum").unwrap_or(-50.0) as i64;
            let hi = num(s, "maximum").unwrap_or(50.0).min(1000.0) as i64;
            json!(lo + rng.below((hi - lo + 1) as u64) as i64)
        }
        Some("number") => {
            let lo = num(s, "minimum").unwrap_or(-50.0);
            json!(lo + (rng.below(1000) as f64) / 8.0)
        }
        Some("boolean") => json!(rng.chance(50)),
        _ => json!({"any": [1, "two", null]}),
    }
}

/// One random mutation of `v` at a random place: a value of another type, a member removed,
/// added or set to null, a string made long or emptied, a number out of usual ranges, an array
/// grown or emptied. The place is a JSON pointer with `~` and `/` escaped.
pub fn mutate(v: &mut Value, rng: &mut Rng) {
    fn places(v: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match v {
            Value::Object(m) => m.iter().for_each(|(k, c)| {
                places(
                    c,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                )
            }),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, c)| places(c, format!("{at}/{i}"), out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    places(v, String::new(), &mut all);
    let at = all[rng.below(all.len() as u64) as usize].clone();
    let Some(target) = v.pointer_mut(&at) else {
        return;
    };
    match rng.below(8) {
        0 => {
            let others = [
                json!("text"),
                json!(3),
                json!(-2),
                json!(1.5),
                json!(true),
                json!(null),
                json!([]),
                json!({}),
            ];
            *target = others[rng.below(others.len() as u64) as usize].clone();
        }
        1 => {
            if let Value::Object(m) = target {
                if let Some(k) = m
                    .keys()
                    .nth(rng.below(m.len().max(1) as u64) as usize)
                    .cloned()
                {
                    m.shift_remove(&k);
                }
            }
        }
        2 => {
            if let Value::Object(m) = target {
                m.insert(
                    "unexpected".into(),
                    if rng.chance(50) {
                        json!(null)
                    } else {
                        json!("x")
                    },
                );
            }
        }
        3 => {
            if let Value::String(s) = target {
                *s = s.repeat(40) + "padding-to-make-it-long";
            }
        }
        4 => {
            if let Value::Number(_) = target {
                let options = [
                    json!(-1),
                    json!(1_000_000_000),
                    json!(1.5),
                    json!(0),
                    json!(101),
                    json!(2.0),
                ];
                *target = options[rng.below(options.len() as u64) as usize].clone();
            }
        }
        5 => {
            if let Value::Array(a) = target {
                if a.is_empty() {
                    a.push(json!("x"));
                } else {
                    let first = a[0].clone();
                    a.extend(std::iter::repeat_n(first, 6));
                }
            }
        }
        6 => {
            // A member set to null (read as absent where the schema allows it).
            if let Value::Object(m) = target {
                if let Some(k) = m
                    .keys()
                    .nth(rng.below(m.len().max(1) as u64) as usize)
                    .cloned()
                {
                    m.insert(k, Value::Null);
                }
            }
        }
        _ => {
            if let Value::Array(a) = target {
                a.clear();
            } else if let Value::String(s) = target {
                s.clear();
            }
        }
    }
}
