//! The fast path against the slow path: `from_json` (one pass over the text, checking the schema
//! on the way, falling back to the slow path on any doubt) must give exactly what the slow path
//! alone gives (the text parsed into a `Value`, validated with every error collected, then
//! deserialized): the same value, or the same error with the same paths.
//!
//! Instances are generated from each type's schema (`common::generate`), mutated as in
//! `differential.rs`, and written out with the liberties JSON allows and the fast path must
//! follow: members in any order, escaped keys, duplicated members, whitespace. The share of
//! valid instances the fast path takes is printed (and must not be zero where a type has a
//! plan), so a fast path that gave up on everything would not pass unnoticed.

use schema_core::__private::{fast_path_only, slow_path_only};
use schema_core::AgentSchema;
use schema_suite::seed000::*;
use schema_suite::seed004::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

mod common;
use common::{generate, mutate, Rng};

/// JSON text for `v`, written with random liberties: member order, escaped keys, a duplicated
/// member, whitespace.
fn write(v: &Value, rng: &mut Rng, out: &mut String) {
    let space = |rng: &mut Rng, out: &mut String| {
        if rng.chance(10) {
            out.push_str([" ", "\n  ", "\t"][rng.below(3) as usize]);
        }
    };
    match v {
        Value::Object(m) => {
            let mut members: Vec<(&String, &Value)> = m.iter().collect();
            if rng.chance(20) {
                for i in (1..members.len()).rev() {
                    members.swap(i, rng.below(i as u64 + 1) as usize);
                }
            }
            if !members.is_empty() && rng.chance(3) {
                let dup = members[rng.below(members.len() as u64) as usize];
                members.push(dup);
            }
            out.push('{');
            for (i, (k, x)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                if rng.chance(5) && !k.is_empty() {
                    // The first character as a \u escape: the key is no longer borrowed.
                    let mut chars = k.chars();
                    let first = chars.next().unwrap_or('a');
                    let mut units = [0u16; 2];
                    out.push('"');
                    for u in first.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                    let rest = serde_json::to_string(chars.as_str()).unwrap();
                    out.push_str(&rest[1..]);
                } else {
                    out.push_str(&serde_json::to_string(k).unwrap());
                }
                space(rng, out);
                out.push(':');
                space(rng, out);
                write(x, rng, out);
            }
            space(rng, out);
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                write(x, rng, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Runs `rounds` instances of `T`; returns (valid instances, of which the fast path took).
fn run<T: AgentSchema + serde::de::DeserializeOwned + PartialEq + Debug>(
    name: &str,
    seed: u64,
    rounds: usize,
) -> (usize, usize) {
    let schema = T::validation_schema();
    let mut rng = Rng(seed);
    let (mut valid, mut fast) = (0, 0);
    for round in 0..rounds {
        let mut v = generate(schema, schema, &mut rng, 0);
        if round % 3 != 0 {
            for _ in 0..=rng.below(2) {
                mutate(&mut v, &mut rng);
            }
        }
        let mut text = String::new();
        write(&v, &mut rng, &mut text);
        let slow = slow_path_only::<T>(&text);
        let taken = fast_path_only::<T>(&text);
        match (&slow, &taken) {
            (Ok(s), Some(f)) => assert_eq!(s, f, "{name} round {round}: {text}"),
            (Err(e), Some(f)) => {
                panic!("{name} round {round}: the fast path took {f:?}, the slow path says {e}: {text}")
            }
            _ => {}
        }
        let full = T::from_json(&text);
        match (&slow, &full) {
            (Ok(s), Ok(f)) => assert_eq!(s, f, "{name} round {round}: {text}"),
            (Err(s), Err(f)) => {
                assert_eq!(s.to_string(), f.to_string(), "{name} round {round}: {text}");
                assert_eq!(
                    s.validation_errors().map(|e| e.paths()),
                    f.validation_errors().map(|e| e.paths()),
                    "{name} round {round}: {text}"
                );
            }
            _ => panic!("{name} round {round}: slow {slow:?}, from_json {full:?}: {text}"),
        }
        if slow.is_ok() {
            valid += 1;
            fast += usize::from(taken.is_some());
        }
    }
    println!("{name}: {valid} valid of {rounds}, the fast path took {fast}");
    assert!(valid > 0, "{name}: no valid instance generated");
    (valid, fast)
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Settings {
    /// A renamed field
    #[schema(min_length = 2, max_length = 60)]
    user_name: String,
    #[schema(pattern = "^[a-z]+$")]
    nick: Option<String>,
    #[schema(minimum = 0, maximum = 10)]
    level: u8,
    ratio: Option<f64>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    retries: u32,
    limits: BTreeMap<String, u32>,
    extra: HashMap<String, Value>,
    #[schema(max_items = 3)]
    history: Vec<Option<Level>>,
    status: Status,
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle {
        #[schema(minimum = 0)]
        radius: f64,
        label: Option<String>,
    },
    Square {
        side: u32,
        label: Option<String>,
    },
    Point,
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Drawing {
    shapes: Vec<Shape>,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Meta {
    title: String,
    #[serde(default)]
    layers: Vec<u8>,
}

/// serde's default representation: unit variants as strings, the others as
/// `{"Variant": payload}`.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
enum Step {
    Stop,
    /// A described unit variant (its own `const` branch)
    Wait,
    Say(#[schema(max_length = 20)] String),
    Move(i32, i32),
    Search {
        query: String,
        #[schema(max_items = 3)]
        sites: Vec<String>,
        limit: Option<u8>,
    },
    Nested(Option<Box<Step>>),
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Point(f64, f64);

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    Text(String),
    Pair { a: u32, b: Option<String> },
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Program {
    steps: Vec<Step>,
    fallback: Option<Step>,
    at: Point,
    span: (u32, String),
    adjacent: Vec<Adjacent>,
}

/// More properties than the fast path's 64-bit masks hold.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Wide {
    f0: u8,
    f1: u8,
    f2: u8,
    f3: u8,
    f4: u8,
    f5: u8,
    f6: u8,
    f7: u8,
    f8: u8,
    f9: u8,
    f10: u8,
    f11: u8,
    f12: u8,
    f13: u8,
    f14: u8,
    f15: u8,
    f16: u8,
    f17: u8,
    f18: u8,
    f19: u8,
    f20: u8,
    f21: u8,
    f22: u8,
    f23: u8,
    f24: u8,
    f25: u8,
    f26: u8,
    f27: u8,
    f28: u8,
    f29: u8,
    f30: u8,
    f31: u8,
    f32: u8,
    f33: u8,
    f34: u8,
    f35: u8,
    f36: u8,
    f37: u8,
    f38: u8,
    f39: u8,
    f40: u8,
    f41: u8,
    f42: u8,
    f43: u8,
    f44: u8,
    f45: u8,
    f46: u8,
    f47: u8,
    f48: u8,
    f49: u8,
    f50: u8,
    f51: u8,
    f52: u8,
    f53: u8,
    f54: u8,
    f55: u8,
    f56: u8,
    f57: u8,
    f58: u8,
    f59: u8,
    f60: u8,
    f61: u8,
    f62: u8,
    f63: u8,
    f64: u8,
    f65: u8,
    f66: u8,
    f67: u8,
    f68: u8,
    f69: u8,
    #[serde(default)]
    tail: Option<String>,
}

#[test]
fn the_fast_path_gives_what_the_slow_path_gives() {
    let rounds = 600;
    let mut results = Vec::new();
    results.push(("Language", run::<Language>("Language", 1, rounds)));
    results.push((
        "QuestionEvaluate",
        run::<QuestionEvaluate>("QuestionEvaluate", 2, rounds),
    ));
    results.push((
        "CodeGenerator",
        run::<CodeGenerator>("CodeGenerator", 3, rounds),
    ));
    results.push((
        "ErrorAnalysis",
        run::<ErrorAnalysis>("ErrorAnalysis", 4, rounds),
    ));
    results.push((
        "ResearchPlan",
        run::<ResearchPlan>("ResearchPlan", 5, rounds),
    ));
    results.push(("SerpCluster", run::<SerpCluster>("SerpCluster", 6, rounds)));
    results.push((
        "QueryRewriter",
        run::<QueryRewriter>("QueryRewriter", 7, rounds),
    ));
    results.push(("Evaluation", run::<Evaluation>("Evaluation", 8, rounds)));
    results.push(("AgentStep", run::<AgentStep>("AgentStep", 9, rounds)));
    results.push((
        "UniversalResponse",
        run::<UniversalResponse>("UniversalResponse", 10, rounds),
    ));
    results.push(("Settings", run::<Settings>("Settings", 11, rounds)));
    results.push(("Drawing", run::<Drawing>("Drawing", 12, rounds)));
    results.push(("Wide", run::<Wide>("Wide", 13, rounds)));
    results.push(("Step", run::<Step>("Step", 14, rounds)));
    results.push(("Program", run::<Program>("Program", 15, rounds)));
    // Every type here but the flattened `Drawing` has a plan: the fast path must take a fair
    // share of the valid instances (the rest have a liberty it leaves to the slow path, such
    // as a duplicated member or a null for a defaulted field).
    for (name, (valid, fast)) in results {
        if name != "Drawing" {
            assert!(
                fast * 4 >= valid,
                "{name}: the fast path took {fast} of {valid}"
            );
        }
    }
}
