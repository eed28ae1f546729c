//! Issue 14's shapes against engines we did not write. For each of the types below (every serde
//! enum representation, tuples, keyed maps, generics, recursion, `std` and feature-gated foreign
//! types):
//! - serde round trip: `serde_json::to_string` of each value, then `from_json`, gives it back;
//! - `validate` agrees with the `jsonschema` crate (formats checked) on the `Dialect::JsonSchema`
//!   output, for the values and for mutations of them;
//! - every dialect renders, or fails with an error that points at the offending schema location;
//! - the OpenAI and LM Studio outputs compile in llguidance and accept the serde serialization
//!   (under OpenAI with absent properties written as `null`, as a model under strict mode does).

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, InferenceCapabilities, TokEnv};
use llguidance::{Matcher, ParserFactory};
use schema_core::{AgentSchema, Dialect};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

fn env() -> TokEnv {
    ApproximateTokEnv::single_byte_env()
}

fn grammar_accepts(schema: &Value, text: &str) -> Result<bool, String> {
    let env = env();
    let factory = ParserFactory::new(&env, InferenceCapabilities::default(), &[])
        .map_err(|e| e.to_string())?;
    let mut m =
        Matcher::new(factory.create_parser(TopLevelGrammar::from_json_schema(schema.clone())));
    if let Some(e) = m.get_error() {
        return Err(e);
    }
    let tokens = env.tokenize_bytes(text.as_bytes());
    match m.validate_tokens(&tokens) {
        Ok(n) if n == tokens.len() => {}
        _ => return Ok(false),
    }
    if m.consume_tokens(&tokens).is_err() {
        return Ok(false);
    }
    Ok(m.is_accepting().unwrap_or(false))
}

/// A value as a model under OpenAI strict writes it: every property present, `null` for absent.
fn fill_nulls(value: &Value, schema: &Value) -> Value {
    fill(value, schema, schema)
}

fn fill(value: &Value, schema: &Value, root: &Value) -> Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let target = match r.strip_prefix("#/$defs/") {
            Some(name) => &root["$defs"][name],
            None => root,
        };
        return fill(value, target, root);
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        if value.is_null() {
            return Value::Null;
        }
        let kind = |b: &Value| -> Option<String> {
            let b = match b.get("$ref").and_then(Value::as_str) {
                Some(r) => match r.strip_prefix("#/$defs/") {
                    Some(name) => &root["$defs"][name],
                    None => root,
                },
                None => b,
            };
            b.get("type").and_then(Value::as_str).map(str::to_string)
        };
        let json_type = match value {
            Value::Object(_) => "object",
            Value::Array(_) => "array",
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::Null => "null",
        };
        let fits: Vec<&Value> = branches
            .iter()
            .filter(|b| match kind(b).as_deref() {
                Some("integer") => json_type == "number",
                Some(t) => t == json_type,
                None => true,
            })
            .collect();
        for b in &fits {
            let filled = fill(value, b, root);
            let mut with_defs = (*b).clone();
            if let (Value::Object(m), Some(defs)) = (&mut with_defs, root.get("$defs")) {
                m.insert("$defs".into(), defs.clone());
            }
            if fits.len() == 1
                || (!with_defs.to_string().contains("\"$ref\":\"#\"")
                    && jsonschema::is_valid(&with_defs, &filled))
            {
                return filled;
            }
        }
        return value.clone();
    }
    match value {
        Value::Object(m) if schema.get("properties").is_some() => {
            let mut out = Map::new();
            for (name, ps) in schema["properties"].as_object().unwrap() {
                let v = m
                    .get(name)
                    .map(|v| fill(v, ps, root))
                    .unwrap_or(Value::Null);
                out.insert(name.clone(), v);
            }
            Value::Object(out)
        }
        Value::Object(m) => match schema.get("additionalProperties") {
            Some(s @ Value::Object(_)) => Value::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), fill(v, s, root)))
                    .collect(),
            ),
            _ => value.clone(),
        },
        Value::Array(a) => Value::Array(
            a.iter()
                .enumerate()
                .map(
                    |(i, x)| match schema.get("prefixItems").and_then(|p| p.get(i)) {
                        Some(s) => fill(x, s, root),
                        None => fill(x, schema.get("items").unwrap_or(&json!({})), root),
                    },
                )
                .collect(),
        ),
        v => v.clone(),
    }
}

/// Mutations of a valid value: wrong types, a missing and an extra property, an item more or
/// less, each at the root and one level down.
fn mutations(v: &Value) -> Vec<Value> {
    fn local(v: &Value) -> Vec<Value> {
        let mut out = vec![json!(12345), json!("wrong"), json!(null), json!([true])];
        match v {
            Value::Object(m) => {
                if let Some(k) = m.keys().next() {
                    let mut x = m.clone();
                    x.remove(k);
                    out.push(Value::Object(x));
                }
                let mut x = m.clone();
                x.insert("zz_extra".into(), json!(1));
                out.push(Value::Object(x));
            }
            Value::Array(a) => {
                let mut x = a.clone();
                x.pop();
                out.push(Value::Array(x));
                let mut x = a.clone();
                x.push(a.first().cloned().unwrap_or(json!(0)));
                out.push(Value::Array(x));
            }
            Value::String(s) => out.push(json!(format!("{s}!x"))),
            Value::Number(n) => {
                out.push(json!(n.as_f64().unwrap_or(0.0) + 0.5));
                out.push(json!(-1));
                out.push(json!(0));
            }
            _ => {}
        }
        out
    }
    let mut out = local(v);
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                for c in local(child) {
                    let mut x = m.clone();
                    x.insert(k.clone(), c);
                    out.push(Value::Object(x));
                }
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                for c in local(child) {
                    let mut x = a.clone();
                    x[i] = c;
                    out.push(Value::Array(x));
                }
            }
        }
        _ => {}
    }
    out
}

#[derive(Default)]
struct Tally {
    types: usize,
    values: usize,
    mutated: usize,
    mutated_invalid: usize,
    grammars: usize,
    dialect_errors: usize,
}

fn check<T: AgentSchema + Serialize + DeserializeOwned>(tally: &mut Tally, values: &[T]) {
    let name = std::any::type_name::<T>();
    tally.types += 1;
    let full = T::json_schema(Dialect::JsonSchema);
    let theirs = jsonschema::options()
        .should_validate_formats(true)
        .build(full)
        .unwrap_or_else(|e| panic!("{name}: jsonschema refuses our schema: {e}\n{full:#}"));
    let mut schemas = Vec::new();
    for d in [
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::LmStudio,
    ] {
        match T::try_json_schema(d) {
            Ok(s) => schemas.push((d, s)),
            Err(e) => {
                tally.dialect_errors += 1;
                assert!(
                    e.pointer.starts_with('/') || e.pointer.is_empty(),
                    "{name} ({d}): {e}"
                );
                assert!(!e.to_string().is_empty());
            }
        }
    }
    for value in values {
        tally.values += 1;
        let text = serde_json::to_string(value).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        // Round trip.
        let back: T = T::from_json(&text).unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"));
        assert_eq!(serde_json::to_value(&back).unwrap(), json, "{name}");
        // The jsonschema crate agrees on the value.
        assert!(theirs.is_valid(&json), "{name}: jsonschema rejects {text}");
        assert_eq!(T::validate(&json), Ok(()), "{name}: {text}");
        // Grammars.
        for (d, schema) in &schemas {
            if !matches!(d, Dialect::OpenAi | Dialect::LmStudio) {
                continue;
            }
            let written = if *d == Dialect::OpenAi {
                fill_nulls(&json, schema)
            } else {
                json.clone()
            };
            let ok = grammar_accepts(schema, &written.to_string())
                .unwrap_or_else(|e| panic!("{name} ({d}): llguidance: {e}\n{schema:#}"));
            assert!(
                ok,
                "{name} ({d}): the grammar rejects {written}\n{schema:#}"
            );
            tally.grammars += 1;
        }
        // Mutations: both validators agree, and serde reads whatever we accept.
        for m in mutations(&json) {
            tally.mutated += 1;
            let ours = T::validate(&m).is_ok();
            assert_eq!(ours, theirs.is_valid(&m), "{name}: disagree on {m}");
            if ours {
                assert!(
                    serde_json::from_value::<T>(m.clone()).is_ok(),
                    "{name}: valid for us, refused by serde: {m}"
                );
            } else {
                tally.mutated_invalid += 1;
                // `from_json` differs from `validate` only in reading `null` as absent.
                if T::from_json(&m.to_string()).is_ok() {
                    assert!(m.to_string().contains("null"), "{name}: {m}");
                }
            }
        }
    }
}

// ---- the types ----

#[derive(AgentSchema, Serialize, Deserialize, Clone)]
struct Payload {
    a: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<String>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
enum External {
    Unit,
    New(Payload),
    Str(String),
    Tup(i32, String),
    Named { x: f64 },
}

#[derive(AgentSchema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Adjacent {
    Unit,
    NewType(Payload),
    Num(u8),
    Named { x: bool },
}

#[derive(AgentSchema, Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    Num(f64),
    Text(String),
    Obj { k: bool },
}

#[derive(AgentSchema, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Internal {
    Circle {
        radius: f64,
    },
    Square(Payload),
    #[serde(untagged)]
    Other(Vec<String>),
}

#[derive(AgentSchema, Serialize, Deserialize)]
enum ExternalWithUntagged {
    Known {
        id: u32,
    },
    #[serde(untagged)]
    Fallback(String),
}

#[derive(AgentSchema, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, Clone)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(AgentSchema, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, Clone)]
struct Sku(String);

#[derive(AgentSchema, Serialize, Deserialize)]
struct Point(f64, f64);

#[derive(AgentSchema, Serialize, Deserialize)]
struct Labeled(String, Point, Option<Color>);

#[derive(AgentSchema, Serialize, Deserialize)]
struct Marker;

#[derive(AgentSchema, Serialize, Deserialize)]
struct Page<T> {
    items: Vec<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Tree {
    label: String,
    children: Vec<Tree>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<Box<Tree>>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Maybe {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<Option<i32>>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Nested {
    rows: Vec<BTreeMap<String, External>>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Keys {
    by_color: BTreeMap<Color, Payload>,
    by_id: BTreeMap<u64, bool>,
    by_neg: BTreeMap<i16, u8>,
    by_char: BTreeMap<char, String>,
    by_sku: HashMap<Sku, u32>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Collections {
    queue: VecDeque<u8>,
    set: BTreeSet<String>,
    fixed: [u16; 3],
    pairs: Vec<(String, i64)>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Std {
    v4: std::net::Ipv4Addr,
    v6: std::net::Ipv6Addr,
    ip: std::net::IpAddr,
    path: std::path::PathBuf,
    count: std::num::NonZeroU32,
    delta: std::num::NonZeroI64,
    timeout: std::time::Duration,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Chrono {
    at: chrono::DateTime<chrono::Utc>,
    local: chrono::DateTime<chrono::FixedOffset>,
    day: chrono::NaiveDate,
    clock: chrono::NaiveTime,
    naive: chrono::NaiveDateTime,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Time {
    day: time::Date,
    clock: time::Time,
    naive: time::PrimitiveDateTime,
    at: time::OffsetDateTime,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Jiff {
    at: jiff::Timestamp,
    day: jiff::civil::Date,
    clock: jiff::civil::Time,
    naive: jiff::civil::DateTime,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Ids {
    id: uuid::Uuid,
    home: url::Url,
    price: rust_decimal::Decimal,
}

/// A type without an impl, given a schema by `with` / `schema_with`.
#[derive(Serialize, Deserialize)]
struct Foreign(String);

fn foreign_schema() -> &'static schema_core::model::Type {
    <String as AgentSchema>::schema_type()
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Escapes {
    #[schema(with = "String")]
    a: Foreign,
    #[schema(schema_with = "foreign_schema")]
    b: Foreign,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Invoice {
    number: Sku,
    lines: Vec<Line>,
    status: External,
    totals: BTreeMap<Color, (u32, String)>,
    ext: Option<Untagged>,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Line {
    what: String,
    qty: std::num::NonZeroU16,
    price: rust_decimal::Decimal,
}

fn payload(a: i32) -> Payload {
    Payload {
        a,
        b: (a % 2 == 0).then(|| format!("b{a}")),
    }
}

#[test]
fn shapes_agree_with_serde_jsonschema_and_llguidance() {
    use std::str::FromStr;
    let mut t = Tally::default();
    check(&mut t, &[payload(1), payload(2)]);
    check(
        &mut t,
        &[
            External::Unit,
            External::New(payload(2)),
            External::Str("s".into()),
            External::Tup(-3, "t".into()),
            External::Named { x: 1.5 },
        ],
    );
    check(
        &mut t,
        &[
            Adjacent::Unit,
            Adjacent::NewType(payload(4)),
            Adjacent::Num(7),
            Adjacent::Named { x: true },
        ],
    );
    check(
        &mut t,
        &[
            Untagged::Num(2.5),
            Untagged::Text("x".into()),
            Untagged::Obj { k: false },
        ],
    );
    check(
        &mut t,
        &[
            Internal::Circle { radius: 2.0 },
            Internal::Square(payload(3)),
            Internal::Other(vec!["a".into()]),
        ],
    );
    check(
        &mut t,
        &[
            ExternalWithUntagged::Known { id: 4 },
            ExternalWithUntagged::Fallback("f".into()),
        ],
    );
    check(&mut t, &[Color::Red, Color::Blue]);
    check(&mut t, &[Sku("A-1".into())]);
    check(&mut t, &[Point(1.0, -2.0)]);
    check(
        &mut t,
        &[
            Labeled("p".into(), Point(0.0, 0.5), Some(Color::Green)),
            Labeled("q".into(), Point(3.0, 4.0), None),
        ],
    );
    check(&mut t, &[Marker]);
    check(
        &mut t,
        &[Page {
            items: vec![payload(1), payload(2)],
            next: Some("n".into()),
        }],
    );
    check(
        &mut t,
        &[Page::<String> {
            items: vec!["x".into()],
            next: None,
        }],
    );
    check(
        &mut t,
        &[Page::<External> {
            items: vec![External::Unit, External::Str("e".into())],
            next: None,
        }],
    );
    check(
        &mut t,
        &[Tree {
            label: "root".into(),
            children: vec![Tree {
                label: "leaf".into(),
                children: vec![],
                first: None,
            }],
            first: Some(Box::new(Tree {
                label: "boxed".into(),
                children: vec![],
                first: None,
            })),
        }],
    );
    check(
        &mut t,
        &[
            Maybe { value: None },
            Maybe {
                value: Some(Some(3)),
            },
        ],
    );
    check(
        &mut t,
        &[Nested {
            rows: vec![
                BTreeMap::from([("a".to_string(), External::Unit)]),
                BTreeMap::from([("b".to_string(), External::Tup(1, "x".into()))]),
            ],
        }],
    );
    check(
        &mut t,
        &[Keys {
            by_color: BTreeMap::from([(Color::Red, payload(1)), (Color::Blue, payload(2))]),
            by_id: BTreeMap::from([(0, true), (42, false)]),
            by_neg: BTreeMap::from([(-5, 1), (5, 2)]),
            by_char: BTreeMap::from([('x', "ex".into())]),
            by_sku: HashMap::from([(Sku("S".into()), 1)]),
        }],
    );
    check(
        &mut t,
        &[Collections {
            queue: VecDeque::from([1, 2]),
            set: BTreeSet::from(["a".to_string(), "b".to_string()]),
            fixed: [1, 2, 3],
            pairs: vec![("k".into(), -1)],
        }],
    );
    check(
        &mut t,
        &[Std {
            v4: "192.168.0.1".parse().unwrap(),
            v6: "::1".parse().unwrap(),
            ip: "10.1.2.3".parse().unwrap(),
            path: "/etc/hosts".into(),
            count: std::num::NonZeroU32::new(9).unwrap(),
            delta: std::num::NonZeroI64::new(-9).unwrap(),
            timeout: std::time::Duration::new(5, 250_000_000),
        }],
    );
    let at = chrono::DateTime::parse_from_rfc3339("2024-02-29T12:30:45.25+02:00").unwrap();
    check(
        &mut t,
        &[Chrono {
            at: at.with_timezone(&chrono::Utc),
            local: at,
            day: at.date_naive(),
            clock: at.time(),
            naive: at.naive_local(),
        }],
    );
    let odt = time::OffsetDateTime::from_unix_timestamp(1_709_209_845).unwrap();
    check(
        &mut t,
        &[Time {
            day: odt.date(),
            clock: odt.time(),
            naive: time::PrimitiveDateTime::new(odt.date(), odt.time()),
            at: odt,
        }],
    );
    let ts = jiff::Timestamp::from_second(1_709_209_845).unwrap();
    let dt = ts.to_zoned(jiff::tz::TimeZone::UTC).datetime();
    check(
        &mut t,
        &[Jiff {
            at: ts,
            day: dt.date(),
            clock: dt.time(),
            naive: dt,
        }],
    );
    check(
        &mut t,
        &[Ids {
            id: uuid::Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0),
            home: url::Url::parse("https://example.com/a?b=c").unwrap(),
            price: rust_decimal::Decimal::from_str("12.30").unwrap(),
        }],
    );
    check(
        &mut t,
        &[Escapes {
            a: Foreign("a".into()),
            b: Foreign("b".into()),
        }],
    );
    check(
        &mut t,
        &[Invoice {
            number: Sku("INV-1".into()),
            lines: vec![Line {
                what: "widget".into(),
                qty: std::num::NonZeroU16::new(2).unwrap(),
                price: rust_decimal::Decimal::from_str("-0.5").unwrap(),
            }],
            status: External::Named { x: 0.0 },
            totals: BTreeMap::from([(Color::Green, (3, "x".into()))]),
            ext: Some(Untagged::Obj { k: true }),
        }],
    );
    // Plain std types.
    check(&mut t, &[(1u8, "a".to_string(), true)]);
    check(&mut t, &[()]);
    check(&mut t, &[Some(Point(1.0, 2.0)), None]);
    check(&mut t, &[vec![Color::Red], vec![]]);
    check(&mut t, &[BTreeMap::from([(1u32, Marker)])]);
    check(&mut t, &[[(1i8, 2i8); 2]]);
    check(&mut t, &[std::time::Duration::from_millis(1500)]);
    check(&mut t, &[std::num::NonZeroI8::new(-1).unwrap()]);
    check(&mut t, &[uuid::Uuid::nil()]);
    check(
        &mut t,
        &[chrono::NaiveDate::from_ymd_opt(2024, 1, 31).unwrap()],
    );
    check(&mut t, &[rust_decimal::Decimal::new(31415, 4)]);
    check(
        &mut t,
        &[HashMap::from([(Sku("k".into()), vec![Color::Blue])])],
    );
    check(&mut t, &[vec![(Point(1.0, 1.0), Marker)]]);
    check(
        &mut t,
        &[BTreeMap::from([(Color::Red, Untagged::Num(1.0))])],
    );
    eprintln!(
        "shapes: {} types, {} values, {} mutations ({} invalid), {} grammar acceptances, {} dialect errors",
        t.types, t.values, t.mutated, t.mutated_invalid, t.grammars, t.dialect_errors
    );
    assert!(t.types >= 40, "{} types", t.types);
}
