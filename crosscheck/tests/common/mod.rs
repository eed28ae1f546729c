//! Shared by the cross-check tests: a deterministic generator of instances of a JSON Schema
//! (used by `differential.rs`, `llguidance.rs` and the other cross-checks).

#![allow(dead_code)]

use serde_json::{json, Map, Value};

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
