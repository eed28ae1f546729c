//! `Schemars<T>` (schema-core's `schemars` feature) on types written with schemars' and serde's
//! own attributes only, in every dialect, held by oracles we did not write:
//! - every dialect renders, or fails with an error whose pointer names a place of schemars'
//!   schema;
//! - the agreement property: random instances of each dialect's schema (valid for it by the
//!   `jsonschema` crate) parse into the type, or fail with paths that name places of the
//!   instance; a parsed value, written again by serde, is valid for schemars' schema (the
//!   `jsonschema` crate) and parses back to itself; mutations of them likewise;
//! - no provider dialect keeps a `format` schemars writes for numbers (`int32`, `double`, ...).

mod common;

use common::{generate, mutate, Rng};
use proptest::prelude::*;
use schema_core::{Dialect, ParseError, Schemars};
use schemars::JsonSchema;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

/// A person, as a model describes them.
#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Person {
    /// Full name
    name: String,
    age: Option<u8>,
    email: Option<String>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    first_name: String,
    #[serde(rename = "surname")]
    last_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    middle_name: Option<String>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Defaults {
    title: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    count: u32,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Counts {
    counts: HashMap<String, u32>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Inventory {
    owner: String,
    items: BTreeMap<String, Item>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Item {
    #[schemars(length(min = 1, max = 20))]
    label: String,
    #[schemars(range(min = 0, max = 1000))]
    quantity: u32,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct WithTuple {
    pair: (u8, String),
    flag: bool,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Point(i32, i32);

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Segment {
    from: Point,
    to: Point,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
enum External {
    Stop,
    Go(u8),
    Turn { degrees: i16, left: bool },
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct HoldsExternal {
    command: External,
}

/// An action of the agent.
#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Action {
    /// Search the web.
    Search {
        query: String,
        limit: Option<u8>,
    },
    /// Answer the user.
    Answer {
        text: String,
    },
    Wait,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Text(String),
    Number(i64),
    Pair { a: bool, b: bool },
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct HoldsAdjacent {
    value: Adjacent,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Flag(bool),
    Word(String),
    Shape { sides: u8 },
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct HoldsUntagged {
    value: Untagged,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Priority {
    Low,
    Medium,
    High,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Ticket {
    #[schemars(length(min = 3, max = 80))]
    summary: String,
    priority: Priority,
    #[schemars(regex(pattern = r"^[A-Z]{2,5}-[0-9]+$"))]
    key: String,
    #[schemars(range(min = 1, max = 5))]
    severity: u8,
    #[schemars(length(max = 3))]
    labels: Vec<Priority>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Meta {
    created_by: String,
    revision: u32,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Flattened {
    id: String,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u16,
    b: Option<bool>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Numbers {
    small: i8,
    index: u16,
    big: i64,
    ratio: f64,
    weight: f32,
    letter: char,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[schemars(description = "A review written by a model")]
struct Review {
    #[schemars(description = "Score from 1 to 10", range(min = 1, max = 10))]
    score: u8,
    #[schemars(title = "Verdict", description = "One sentence")]
    verdict: String,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(transparent)]
struct UserId(String);

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Message {
    from: UserId,
    to: Vec<UserId>,
    #[serde(skip)]
    cached: bool,
    body: Box<Body>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Body {
    text: String,
    attachments: Option<Vec<Option<u8>>>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Plan {
    think: String,
    steps: Vec<Step>,
    action: Action,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Step {
    #[schemars(range(min = 1))]
    number: u32,
    detail: Option<String>,
}

#[derive(JsonSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Kebab {
    dry_run: bool,
    max_retries: Option<u8>,
    #[serde(alias = "old-name")]
    new_name: String,
}

/// Calls `$f::<T>(args)` for every type above, with its name.
macro_rules! every_type {
    ($f:ident ( $($arg:expr),* )) => {{
        $f::<Person>("Person", $($arg),*);
        $f::<Renamed>("Renamed", $($arg),*);
        $f::<Defaults>("Defaults", $($arg),*);
        $f::<Counts>("Counts", $($arg),*);
        $f::<Inventory>("Inventory", $($arg),*);
        $f::<WithTuple>("WithTuple", $($arg),*);
        $f::<Segment>("Segment", $($arg),*);
        $f::<HoldsExternal>("HoldsExternal", $($arg),*);
        $f::<Action>("Action", $($arg),*);
        $f::<HoldsAdjacent>("HoldsAdjacent", $($arg),*);
        $f::<HoldsUntagged>("HoldsUntagged", $($arg),*);
        $f::<Ticket>("Ticket", $($arg),*);
        $f::<Tree>("Tree", $($arg),*);
        $f::<Flattened>("Flattened", $($arg),*);
        $f::<Strict>("Strict", $($arg),*);
        $f::<Numbers>("Numbers", $($arg),*);
        $f::<Review>("Review", $($arg),*);
        $f::<Message>("Message", $($arg),*);
        $f::<Plan>("Plan", $($arg),*);
        $f::<Kebab>("Kebab", $($arg),*);
        $f::<External>("External", $($arg),*);
        $f::<Adjacent>("Adjacent", $($arg),*);
    }};
}

const TYPES: usize = 22;

/// The `jsonschema` crate's validator of `schema`, cached per schema text.
fn theirs(schema: &Value) -> std::sync::Arc<jsonschema::Validator> {
    use std::sync::{Arc, Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let key = schema.to_string();
    let mut map = CACHE.get_or_init(Default::default).lock().unwrap();
    map.entry(key)
        .or_insert_with(|| {
            Arc::new(
                jsonschema::validator_for(schema)
                    .unwrap_or_else(|e| panic!("jsonschema rejects {schema}: {e}")),
            )
        })
        .clone()
}

fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

/// One instance `x` (written for some dialect's schema) through `from_value`, held to the
/// oracles. `Err` names the disagreement.
fn agree<T>(name: &str, x: &Value) -> Result<&'static str, String>
where
    T: JsonSchema + DeserializeOwned + Serialize + PartialEq + Debug + 'static,
{
    let source = theirs(Schemars::<T>::source_schema());
    match Schemars::<T>::from_value(x.clone()) {
        Ok(t) => {
            let again = serde_json::to_value(&t).map_err(|e| e.to_string())?;
            if !source.is_valid(&again) {
                return Err(format!(
                    "{name}: {x} parsed, but serde writes {again}, which schemars' schema rejects"
                ));
            }
            match Schemars::<T>::from_value(again.clone()) {
                Ok(back) if back == t => Ok("parsed"),
                other => Err(format!(
                    "{name}: {again} (serde's writing of {x}) reads back as {other:?}"
                )),
            }
        }
        Err(ParseError::Invalid { errors, .. }) => {
            if errors.is_empty() {
                return Err(format!("{name}: {x}: Invalid without an error"));
            }
            for e in errors.iter() {
                // A missing property is named by its own path, below a place the value has.
                let at = match e.keyword {
                    "required" => e.path.rsplit_once('/').map_or("", |(parent, _)| parent),
                    _ => e.path.as_str(),
                };
                if x.pointer(at).is_none() {
                    return Err(format!(
                        "{name}: {x}: error {e} names a place not in the value"
                    ));
                }
            }
            let mut absent = x.clone();
            strip_nulls(&mut absent);
            if source.is_valid(x) || source.is_valid(&absent) {
                return Err(format!(
                    "{name}: {x} refused ({errors}), but the jsonschema crate accepts it"
                ));
            }
            Ok("refused with paths")
        }
        Err(e) => Err(format!("{name}: {x}: {e:?}")),
    }
}

#[derive(Default)]
struct Tally {
    parsed: usize,
    refused: usize,
    skipped: usize,
    failures: Vec<String>,
}

fn instances<T>(name: &str, seed: u64, tally: &mut Tally)
where
    T: JsonSchema + DeserializeOwned + Serialize + PartialEq + Debug + 'static,
{
    // The shared generator fills every required array of a recursive type without a depth
    // bound; `Tree` is held by its serde values instead.
    if name == "Tree" {
        return;
    }
    let mut rng = Rng(seed | 1);
    for d in Dialect::EVERY {
        let Ok(schema) = Schemars::<T>::json_schema(d) else {
            continue;
        };
        let dialect = theirs(schema);
        for _ in 0..3 {
            let mut x = generate(schema, schema, &mut rng, 0);
            if rng.chance(40) {
                mutate(&mut x, &mut rng);
            } else if !dialect.is_valid(&x) {
                // The generator's instance misses the dialect's schema (a pattern, say).
                tally.skipped += 1;
                continue;
            }
            match agree::<T>(name, &x) {
                Ok("parsed") => tally.parsed += 1,
                Ok(_) => tally.refused += 1,
                Err(e) => tally.failures.push(format!("{d}: {e}")),
            }
        }
    }
}

/// The counts over fixed seeds: how many instances parsed, were refused with paths, or were
/// skipped (the generator missed the dialect's schema).
#[test]
fn agreement_counts() {
    let mut tally = Tally::default();
    for seed in 1..=40u64 {
        every_type!(instances(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            &mut tally
        ));
    }
    println!(
        "parsed {}, refused with paths {}, skipped {}",
        tally.parsed, tally.refused, tally.skipped
    );
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    assert!(
        tally.parsed > 1000 && tally.refused > 300,
        "{} {}",
        tally.parsed,
        tally.refused
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// The agreement property over every type and dialect.
    #[test]
    fn instances_of_every_dialect_parse_or_fail_with_paths(seed in any::<u64>()) {
        let mut tally = Tally::default();
        every_type!(instances(seed, &mut tally));
        prop_assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
        prop_assert!(tally.parsed > 0);
    }
}

/// Serde's own values of each type (the values the type really produces) in the shape a model
/// writes under each strict dialect that takes the type: parsed back to themselves.
#[test]
fn serde_values_parse_in_every_dialect_shape() {
    fn check<T>(name: &str, values: &[T])
    where
        T: JsonSchema + DeserializeOwned + Serialize + PartialEq + Debug + 'static,
    {
        for v in values {
            let written = serde_json::to_value(v).unwrap();
            assert!(
                Schemars::<T>::validate(&written).is_ok(),
                "{name}: {written}: {:?}",
                Schemars::<T>::validate(&written)
            );
            let back = Schemars::<T>::from_json(&written.to_string()).unwrap();
            assert_eq!(&back, v, "{name}");
            // OpenAI strict: every optional property written as `null`.
            if let Ok(schema) = Schemars::<T>::json_schema(Dialect::OpenAi) {
                let strict = with_nulls(schema, schema, &written);
                assert!(
                    theirs(schema).is_valid(&strict),
                    "{name}: {strict} is not valid for its OpenAI schema {schema}"
                );
                let back = Schemars::<T>::from_value(strict.clone())
                    .unwrap_or_else(|e| panic!("{name}: {strict}: {e}"));
                assert_eq!(&back, v, "{name}");
            }
        }
    }
    check(
        "Person",
        &[
            Person {
                name: "Ada".into(),
                age: None,
                email: Some("ada@example.com".into()),
            },
            Person {
                name: "Bo".into(),
                age: Some(7),
                email: None,
            },
        ],
    );
    check(
        "Defaults",
        &[Defaults {
            title: "t".into(),
            tags: vec![],
            count: 0,
        }],
    );
    check(
        "Action",
        &[
            Action::Search {
                query: "rust".into(),
                limit: None,
            },
            Action::Answer { text: "hi".into() },
            Action::Wait,
        ],
    );
    check(
        "Plan",
        &[Plan {
            think: "first".into(),
            steps: vec![Step {
                number: 1,
                detail: None,
            }],
            action: Action::Wait,
        }],
    );
    check(
        "Kebab",
        &[Kebab {
            dry_run: true,
            max_retries: None,
            new_name: "x".into(),
        }],
    );
    check(
        "Message",
        &[Message {
            from: UserId("a".into()),
            to: vec![UserId("b".into())],
            cached: false,
            body: Box::new(Body {
                text: "hello".into(),
                attachments: Some(vec![Some(1), None]),
            }),
        }],
    );
}

/// `written` with every property of `schema` that it lacks written as `null` (what a model
/// writes for an absent optional property under OpenAI strict).
fn with_nulls(root: &Value, schema: &Value, written: &Value) -> Value {
    let schema = common::resolve(root, schema);
    match written {
        Value::Object(m) => {
            let mut out = serde_json::Map::new();
            let branch = schema
                .get("anyOf")
                .and_then(Value::as_array)
                .and_then(|bs| {
                    bs.iter().map(|b| common::resolve(root, b)).find(|b| {
                        b.get("properties")
                            .and_then(Value::as_object)
                            .is_some_and(|p| {
                                m.keys().all(|k| p.contains_key(k))
                                    && p.iter().all(|(k, s)| {
                                        match s.get("const").or(s.get("enum")) {
                                            Some(c) if c.is_string() => m.get(k) == Some(c),
                                            Some(Value::Array(e)) if e.len() == 1 => {
                                                m.get(k) == Some(&e[0])
                                            }
                                            _ => true,
                                        }
                                    })
                            })
                    })
                })
                .unwrap_or(schema);
            let props = branch.get("properties").and_then(Value::as_object);
            if let Some(props) = props {
                for (k, s) in props {
                    match m.get(k) {
                        Some(v) => out.insert(k.clone(), with_nulls(root, s, v)),
                        None => out.insert(k.clone(), Value::Null),
                    };
                }
            }
            for (k, v) in m {
                out.entry(k.clone()).or_insert_with(|| v.clone());
            }
            Value::Object(out)
        }
        Value::Array(a) => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array(a.iter().map(|x| with_nulls(root, &items, x)).collect())
        }
        other => other.clone(),
    }
}

/// Every dialect renders each type, or names a place of schemars' schema; the table of which
/// type each dialect refuses is printed, and the expected refusals are held.
#[test]
fn every_dialect_renders_or_names_the_place() {
    let mut refused = Vec::new();
    let mut count = 0;
    fn one<T: JsonSchema + 'static>(name: &str, refused: &mut Vec<String>, count: &mut usize) {
        *count += 1;
        let source = Schemars::<T>::source_schema();
        assert!(Schemars::<T>::typescript().is_ok(), "{name}");
        for d in Dialect::EVERY {
            match Schemars::<T>::json_schema_report(d) {
                Ok(c) => {
                    if d != Dialect::JsonSchema {
                        assert!(
                            !c.schema.to_string().contains("\"format\":\"int")
                                && !c.schema.to_string().contains("\"format\":\"uint")
                                && !c.schema.to_string().contains("\"format\":\"double\"")
                                && !c.schema.to_string().contains("\"format\":\"float\""),
                            "{name} {d}: a number format reaches the provider: {}",
                            c.schema
                        );
                    }
                }
                Err(e) => {
                    assert_ne!(d, Dialect::JsonSchema, "{name}: {e}");
                    assert!(
                        source.pointer(&e.pointer).is_some(),
                        "{name} {d}: {e} names {:?}, not a place of {source}",
                        e.pointer
                    );
                    refused.push(format!("{name} {d}: {e}"));
                }
            }
        }
    }
    every_type!(one(&mut refused, &mut count));
    assert_eq!(count, TYPES);
    println!(
        "{} of {} type x dialect pairs refused:",
        refused.len(),
        TYPES * 10
    );
    for r in &refused {
        println!("  {r}");
    }
    let has = |s: &str| refused.iter().any(|r| r.starts_with(s));
    // Maps and tuples under OpenAI strict and recursion under Anthropic are rewritten
    // (entries, positional objects, unrolled levels), not refused.
    assert!(!has("Counts openai"));
    assert!(!has("Inventory openai"));
    assert!(!has("Tree anthropic"));
    assert!(!has("Person"));
    assert!(!has("Plan"));
}

#[test]
fn strict_nulls_read_back_to_absent_and_defaults_apply() {
    let d =
        Schemars::<Defaults>::from_json(r#"{"title": "x", "tags": null, "count": null}"#).unwrap();
    assert_eq!(
        d,
        Defaults {
            title: "x".into(),
            tags: vec![],
            count: 0
        }
    );
    // `validate` is exact: the source schema has no `null` there.
    assert!(Schemars::<Defaults>::validate(&json!({"title": "x", "tags": null})).is_err());
    // The root union of OpenAI strict: one object, the other variants' properties null.
    let schema = Schemars::<Action>::json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(schema["type"], "object", "{schema}");
    let a = Schemars::<Action>::from_json(
        r#"{"type": "answer", "query": null, "limit": null, "text": "hi"}"#,
    )
    .unwrap();
    assert_eq!(a, Action::Answer { text: "hi".into() });
}

#[test]
fn errors_carry_paths_and_feedback() {
    let err = Schemars::<Ticket>::from_llm(
        "```json\n{\"summary\": \"ok\", \"priority\": \"URGENT\", \"key\": \"abc\", \"severity\": 9, \"labels\": []}\n```",
    )
    .unwrap_err();
    let mut paths = err.validation_errors().unwrap().paths();
    paths.sort();
    assert_eq!(paths, ["/key", "/priority", "/severity", "/summary"]);
    let feedback = err.feedback();
    for p in &paths {
        assert!(feedback.contains(p), "{feedback}");
    }
}

#[test]
fn doc_comments_schemars_keeps() {
    // One paragraph: a description, in every dialect and in the TypeScript text.
    let ts = Schemars::<Person>::typescript().unwrap();
    assert!(ts.contains("Full name"), "{ts}");
    let openai = Schemars::<Person>::json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(openai["properties"]["name"]["description"], "Full name");
    let review = Schemars::<Review>::json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(
        review["properties"]["verdict"]["description"],
        "One sentence"
    );
    // A comment of two paragraphs stays whole (schemars 1.x), and the root's `title` (the
    // type's name) is kept: every dialect takes it.
    for d in Dialect::EVERY {
        let s = Schemars::<TwoParagraphs>::json_schema(d).unwrap();
        assert_eq!(
            s["description"],
            "The summary line.\n\nMore detail about the type."
        );
        assert_eq!(s["title"], "TwoParagraphs");
        assert!(s["properties"]["a"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Field summary.\n\nField detail."));
    }
    // schemars' number formats stay out of the prompt text; the range stays.
    let ts = Schemars::<TwoParagraphs>::typescript().unwrap();
    assert!(!ts.contains("uint8") && ts.contains("0-255"), "{ts}");
}

/// The summary line.
///
/// More detail about the type.
#[derive(JsonSchema)]
#[allow(dead_code)] // only its schema is read
struct TwoParagraphs {
    /// Field summary.
    ///
    /// Field detail.
    a: u8,
}

#[test]
fn streams_a_value_shaped_partial() {
    let text = r#"<think>{not json}</think>{"think": "go", "steps": [{"number": 1, "detail": "a"}], "action": {"type": "wait"}}"#;
    let mut s = Schemars::<Plan>::stream();
    let mut seen = Vec::new();
    for chunk in text.as_bytes().chunks(7) {
        s.push(std::str::from_utf8(chunk).unwrap()).unwrap();
        if let Some(p) = s.partial() {
            if seen.last() != Some(&p) {
                seen.push(p);
            }
        }
    }
    assert!(seen.len() > 3, "{seen:?}");
    // A snapshot never shrinks: each is a prefix of the next in its string values.
    assert_eq!(seen.last().unwrap()["action"]["type"], "wait");
    let plan = s.finish().unwrap();
    assert_eq!(plan.steps[0].number, 1);
    // A value out of range stops the stream at its path.
    let mut s = Schemars::<Plan>::stream();
    let err = s
        .push(r#"{"think": "x", "steps": [{"number": 0"#)
        .and_then(|_| s.push(","))
        .unwrap_err();
    assert_eq!(
        err.validation_errors().unwrap().paths(),
        ["/steps/0/number"]
    );
}

#[test]
fn a_strict_dialect_reply_reads_back_into_the_source_shape() {
    // The OpenAI form of a map is a list of entries; a reply written that way reads back
    // into the map serde expects.
    let schema = Schemars::<Counts>::json_schema(Dialect::OpenAi).unwrap();
    let entries = &schema["properties"]["counts"];
    assert!(
        entries.to_string().contains("\"key\""),
        "the map is written as entries: {entries}"
    );
    let c = Schemars::<Counts>::from_json(
        r#"{"counts": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]}"#,
    )
    .unwrap();
    assert_eq!(c.counts.get("a"), Some(&1));
    assert_eq!(c.counts.get("b"), Some(&2));
    // The source's own shape still reads.
    let c = Schemars::<Counts>::from_json(r#"{"counts": {"a": 3}}"#).unwrap();
    assert_eq!(c.counts.get("a"), Some(&3));
    // A key written twice in the entries is no map: an error, not a silent choice.
    assert!(Schemars::<Counts>::from_json(
        r#"{"counts": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}"#
    )
    .is_err());
}
