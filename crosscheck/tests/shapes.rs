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
            // (with the read-back plan: its forward side writes a value in the dialect's
            // shape, a wrapped root, a tuple as `{_0, _1}`, a map as entries)
            Ok(s) => {
                let plan = T::json_schema_report(d, &schema_core::convert::DialectOptions::new())
                    .map(|c| c.plan)
                    .unwrap_or_default();
                schemas.push((d, s, plan))
            }
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
        for (d, schema, plan) in &schemas {
            if !matches!(d, Dialect::OpenAi | Dialect::LmStudio) {
                continue;
            }
            let shaped = plan.forward(&json).unwrap_or_else(|_| json.clone());
            let written = if *d == Dialect::OpenAi {
                fill_nulls(&shaped, schema)
            } else {
                shaped
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

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize, Clone)]
struct Payload {
    a: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<String>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
enum External {
    Unit,
    New(Payload),
    Str(String),
    Tup(i32, String),
    Named { x: f64 },
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Adjacent {
    Unit,
    NewType(Payload),
    Num(u8),
    Named { x: bool },
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    Num(f64),
    Text(String),
    Obj { k: bool },
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Internal {
    Circle {
        radius: f64,
    },
    Square(Payload),
    #[serde(untagged)]
    Other(Vec<String>),
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
enum ExternalWithUntagged {
    Known {
        id: u32,
    },
    #[serde(untagged)]
    Fallback(String),
}

#[derive(
    AgentSchema,
    schemars::JsonSchema,
    Serialize,
    Deserialize,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Clone,
    Debug,
)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(
    AgentSchema,
    schemars::JsonSchema,
    Serialize,
    Deserialize,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Clone,
)]
struct Sku(String);

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Point(f64, f64);

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Labeled(String, Point, Option<Color>);

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Marker;

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Page<T> {
    items: Vec<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Tree {
    label: String,
    children: Vec<Tree>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<Box<Tree>>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Maybe {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<Option<i32>>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Nested {
    rows: Vec<BTreeMap<String, External>>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Keys {
    by_color: BTreeMap<Color, Payload>,
    by_id: BTreeMap<u64, bool>,
    by_neg: BTreeMap<i16, u8>,
    by_char: BTreeMap<char, String>,
    by_sku: HashMap<Sku, u32>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Collections {
    queue: VecDeque<u8>,
    set: BTreeSet<String>,
    fixed: [u16; 3],
    pairs: Vec<(String, i64)>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Std {
    v4: std::net::Ipv4Addr,
    v6: std::net::Ipv6Addr,
    ip: std::net::IpAddr,
    path: std::path::PathBuf,
    count: std::num::NonZeroU32,
    delta: std::num::NonZeroI64,
    timeout: std::time::Duration,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
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

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Jiff {
    at: jiff::Timestamp,
    day: jiff::civil::Date,
    clock: jiff::civil::Time,
    naive: jiff::civil::DateTime,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
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

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Escapes {
    #[schema(with = "String")]
    #[schemars(with = "String")]
    a: Foreign,
    #[schema(schema_with = "foreign_schema")]
    #[schemars(with = "String")]
    b: Foreign,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
struct Invoice {
    number: Sku,
    lines: Vec<Line>,
    status: External,
    totals: BTreeMap<Color, (u32, String)>,
    ext: Option<Untagged>,
}

#[derive(AgentSchema, schemars::JsonSchema, Serialize, Deserialize)]
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

// ---- The schemars 1.x comparison ----
//
// Our `Dialect::JsonSchema` output and schemars' for the same type, compared as values after
// both are brought to one form. The form-only steps (changing no instance's validity):
// - every `$ref` inlined; a reference back into a type being expanded (recursion) becomes
//   `{"$ref": "#recursive"}` (schemars names the root in `$defs`, we refer to it as `#`);
// - annotation-only keywords removed: `title`, `description`, `examples`, `default`, `$schema`,
//   `$comment`, `deprecated`, `readOnly`, `writeOnly`;
// - a type array (`["integer", "null"]`) written as `anyOf` of one type each.
//
// The deliberate differences, each normalised by one step below (also listed in schema-core's
// crate docs, "Migrating from schemars"):
// 1. `oneOf` is written `anyOf`: strict dialects accept only `anyOf`, and serde's variants are
//    disjoint, so both accept the same instances.
// 2. Objects are closed (`additionalProperties: false`): serde ignores unknown fields, but a
//    model must not write them. schemars closes only the one-property object of an externally
//    tagged variant. (`additionalProperties: false` removed on both sides.)
// 3. An `Option` field is absent, not `null`: schemars lets it be `null` too (serde reads both);
//    strict dialects make models write `null` and `from_json` reads it as absent. (`null`
//    removed from schemars' optional properties.)
// 4. schemars' non-standard numeric formats (`int32`, `uint8`, `double`, ...) are not written:
//    they are unknown to every validator and provider. (Removed from schemars' side.)
// 5. Integer bounds: we state the range of the Rust integer type when it is narrower than
//    JSON's exact range (2^53), as schemars does for the small types; for `u32`/`i32`/`u16` ...
//    we state both bounds where schemars relies on its format. (Bounds compared after step 4
//    only where schemars states them; see `integer_bounds`.)
// 6. A map with unit-enum keys is a closed object with one optional property per variant
//    (every strict dialect accepts it); schemars writes `propertyNames` with the enum. A map
//    with integer keys has a `pattern` on `propertyNames` (schemars: none or a format).
// 7. `char` keys, `NonZero*`, `IpAddr`, `Decimal`, `Duration`: see `known_differences`.
fn normalize(schema: &Value, schemars: bool) -> Value {
    let mut stack: Vec<String> = Vec::new();
    let root_alias = root_alias(schema);
    let inlined = inline(schema, schema, &mut stack, root_alias.as_deref(), 0);
    clean(&inlined, schemars, false)
}

/// The `$defs` entry schemars uses for the root type (a recursive root), if any.
fn root_alias(schema: &Value) -> Option<String> {
    let defs = schema.get("$defs")?.as_object()?;
    let mut body = schema.as_object()?.clone();
    for k in ["$defs", "$schema", "title", "description"] {
        body.remove(k);
    }
    defs.iter().find_map(|(name, def)| {
        let mut d = def.as_object()?.clone();
        d.remove("title");
        d.remove("description");
        (d == body).then(|| format!("#/$defs/{name}"))
    })
}

fn inline(
    v: &Value,
    root: &Value,
    stack: &mut Vec<String>,
    alias: Option<&str>,
    depth: usize,
) -> Value {
    assert!(depth < 64, "runaway inlining");
    match v {
        Value::Object(o) => {
            if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                if r == "#" || Some(r) == alias || stack.iter().any(|s| s == r) {
                    return json!({"$ref": "#recursive"});
                }
                let target = match r.strip_prefix("#/$defs/") {
                    Some(name) => &root["$defs"][name],
                    None => panic!("unexpected $ref {r}"),
                };
                stack.push(r.to_string());
                let mut out = inline(target, root, stack, alias, depth + 1);
                stack.pop();
                // Keywords beside the `$ref` stay: schemars writes an internally tagged newtype
                // variant as the content's `$ref` plus the tag's `properties` and `required`.
                if let Value::Object(m) = &mut out {
                    for (k, x) in o.iter().filter(|(k, _)| *k != "$ref") {
                        let x = inline(x, root, stack, alias, depth + 1);
                        match (m.get_mut(k), x) {
                            (Some(Value::Object(a)), Value::Object(b)) => a.extend(b),
                            (Some(Value::Array(a)), Value::Array(b)) => a.extend(b),
                            (_, x) => {
                                m.insert(k.clone(), x);
                            }
                        }
                    }
                }
                return out;
            }
            Value::Object(
                o.iter()
                    .filter(|(k, _)| *k != "$defs")
                    .map(|(k, x)| (k.clone(), inline(x, root, stack, alias, depth + 1)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| inline(x, root, stack, alias, depth + 1))
                .collect(),
        ),
        other => other.clone(),
    }
}

const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$schema",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

const SCHEMARS_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "int128", "int", "uint8", "uint16", "uint32", "uint64",
    "uint128", "uint", "float", "double",
];

/// One schema brought to the common form; `optional`: the schema of a property that may be
/// absent.
fn clean(v: &Value, schemars: bool, optional: bool) -> Value {
    let Value::Object(o) = v else {
        return v.clone();
    };
    let mut m = Map::new();
    for (k, x) in o {
        if ANNOTATIONS.contains(&k.as_str()) {
            continue;
        }
        match (k.as_str(), x) {
            // Difference 2.
            ("additionalProperties", Value::Bool(false)) => {}
            // Difference 5: the 32-bit ranges schemars leaves to its `int32`/`uint32` format.
            ("minimum" | "maximum", Value::Number(n))
                if !schemars
                    && o.get("type") == Some(&json!("integer"))
                    && [i32::MIN as i64, i32::MAX as i64, u32::MAX as i64]
                        .contains(&n.as_i64().unwrap_or(0)) => {}
            // Form only: `items: false` beside `prefixItems` and `maxItems` of the same length
            // (schemars leaves it to `maxItems`).
            ("items", Value::Bool(false)) if o.contains_key("prefixItems") => {}
            // Difference 6: which strings are keys (ours `propertyNames`, schemars
            // `patternProperties` for integer keys).
            ("propertyNames", _) if !schemars => {}
            ("patternProperties", Value::Object(pp)) if schemars && pp.len() == 1 => {
                if let Some((_, value)) = pp.iter().next() {
                    m.insert("additionalProperties".into(), clean(value, schemars, false));
                }
            }
            // Form only: `required` is a set.
            ("required", Value::Array(r)) => {
                let mut names: Vec<&str> = r.iter().filter_map(Value::as_str).collect();
                names.sort_unstable();
                m.insert(k.clone(), json!(names));
            }
            // Difference 4.
            ("format", Value::String(f)) if schemars && SCHEMARS_FORMATS.contains(&f.as_str()) => {}
            // Difference 1.
            ("oneOf", Value::Array(a)) => {
                m.insert("anyOf".into(), clean_all(a, schemars));
            }
            ("properties", Value::Object(props)) => {
                let required: Vec<&str> = o
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let props = props
                    .iter()
                    .map(|(name, p)| {
                        let optional = !required.contains(&name.as_str());
                        (name.clone(), clean(p, schemars, optional))
                    })
                    .collect();
                m.insert(k.clone(), Value::Object(props));
            }
            (_, Value::Array(a)) if k != "required" && k != "enum" && k != "type" => {
                m.insert(k.clone(), clean_all(a, schemars));
            }
            (_, Value::Object(_)) => {
                m.insert(k.clone(), clean(x, schemars, false));
            }
            _ => {
                m.insert(k.clone(), x.clone());
            }
        }
    }
    // A type array as `anyOf` of one type each.
    if let Some(Value::Array(types)) = m.get("type").cloned() {
        m.remove("type");
        let rest = Value::Object(m.clone());
        let branches: Vec<Value> = types
            .iter()
            .map(|t| {
                if t == "null" {
                    json!({"type": "null"})
                } else {
                    let mut b = rest.as_object().cloned().unwrap_or_default();
                    b.insert("type".into(), t.clone());
                    Value::Object(b)
                }
            })
            .collect();
        m = Map::new();
        m.insert("anyOf".into(), Value::Array(branches));
    }
    // Difference 3: an optional property of schemars' may also be `null` (and so may ours when
    // the `Option` is nested: `Option<Option<T>>`).
    if optional {
        if let Some(Value::Array(branches)) = m.get("anyOf") {
            let rest: Vec<Value> = branches
                .iter()
                .filter(|b| **b != json!({"type": "null"}))
                .cloned()
                .collect();
            if rest.len() == 1 && m.len() == 1 {
                return rest.into_iter().next().unwrap_or_default();
            }
        }
    }
    // An `anyOf` of one branch is that branch.
    if m.len() == 1 {
        if let Some(Value::Array(b)) = m.get("anyOf") {
            if b.len() == 1 {
                return b[0].clone();
            }
        }
    }
    Value::Object(m)
}

fn clean_all(a: &[Value], schemars: bool) -> Value {
    Value::Array(a.iter().map(|x| clean(x, schemars, false)).collect())
}

/// Difference 7: subschemas where we differ from schemars on purpose, each replaced on both
/// sides by its name: (name, ours, schemars', why).
fn known_differences() -> Vec<(&'static str, Value, Value, &'static str)> {
    let chrono_time =
        json!({"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\\.[0-9]{1,9})?$"});
    let chrono_naive = json!({"type": "string", "pattern": "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\\.[0-9]{1,9})?$"});
    let jiff_time = json!({"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9](:[0-6][0-9](\\.[0-9]{1,9})?)?$"});
    let jiff_naive = json!({"type": "string", "pattern": "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9](:[0-6][0-9](\\.[0-9]{1,9})?)?$"});
    let partial_time = json!({"type": "string", "format": "partial-time"});
    let partial_date_time = json!({"type": "string", "format": "partial-date-time"});
    let decimal_pattern = "^-?\\d+(\\.\\d+)?([eE]\\d+)?$";
    vec![
        (
            "IpAddr",
            json!({"anyOf": [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}]}),
            json!({"type": "string", "format": "ip"}),
            "`ip` is not a JSON Schema 2020-12 format: validators and providers ignore it",
        ),
        (
            "NonZeroI*",
            json!({"anyOf": [{"type": "integer", "maximum": -1}, {"type": "integer", "minimum": 1}]}),
            json!({"type": "integer", "not": {"const": 0}}),
            "the same integers; no strict dialect accepts `not`",
        ),
        (
            "a time of day (chrono NaiveTime)",
            chrono_time,
            partial_time.clone(),
            "`partial-time` is not a 2020-12 format (validators ignore it); a pattern is checked",
        ),
        (
            "a time of day (jiff civil::Time)",
            jiff_time,
            partial_time,
            "as NaiveTime; jiff also reads `HH:MM`",
        ),
        (
            "a date-time without offset (chrono NaiveDateTime)",
            chrono_naive,
            partial_date_time.clone(),
            "`partial-date-time` is not a 2020-12 format; a pattern is checked",
        ),
        (
            "a date-time without offset (jiff civil::DateTime)",
            jiff_naive,
            partial_date_time,
            "as NaiveDateTime",
        ),
        (
            "Decimal",
            json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}),
            json!({"anyOf": [
                {"type": "string", "pattern": decimal_pattern},
                {"type": "number", "pattern": decimal_pattern},
            ]}),
            "a string only: a model writing a number rounds it as a float (see the attribute reference)",
        ),
    ]
}

/// Replaces every subschema equal to a known difference (on `side` 0: ours, 1: schemars') by
/// its name.
fn substitute(v: &mut Value, table: &[(&'static str, Value, Value, &'static str)], schemars: bool) {
    if let Some((name, ..)) = table
        .iter()
        .find(|(_, ours, theirs, _)| v == if schemars { theirs } else { ours })
    {
        // The two crates' own forms differ; schemars writes one form for both.
        let name = name.split(" (").next().unwrap_or(name);
        *v = json!({ "difference": name });
        return;
    }
    match v {
        Value::Object(o) => o.values_mut().for_each(|x| substitute(x, table, schemars)),
        Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, table, schemars)),
        _ => {}
    }
}

/// Our output and schemars' for `T`, normalised.
fn both<T: AgentSchema + schemars::JsonSchema>() -> (Value, Value) {
    let ours = <T as AgentSchema>::json_schema(Dialect::JsonSchema);
    let theirs = schemars::schema_for!(T);
    let table = known_differences();
    let mut ours = normalize(ours, false);
    let mut theirs = normalize(&serde_json::to_value(&theirs).unwrap(), true);
    substitute(&mut ours, &table, false);
    substitute(&mut theirs, &table, true);
    (ours, theirs)
}

/// Compares, printing both on a difference; returns whether equal.
fn same<T: AgentSchema + schemars::JsonSchema>(differ: &mut Vec<String>) {
    let (ours, theirs) = both::<T>();
    if ours != theirs {
        differ.push(format!(
            "{}\n  ours:     {ours}\n  schemars: {theirs}",
            std::any::type_name::<T>()
        ));
    }
}

#[test]
fn json_schema_output_equals_schemars() {
    let mut differ = Vec::new();
    same::<Payload>(&mut differ);
    same::<External>(&mut differ);
    same::<Adjacent>(&mut differ);
    same::<Untagged>(&mut differ);
    same::<Internal>(&mut differ);
    same::<ExternalWithUntagged>(&mut differ);
    same::<Color>(&mut differ);
    same::<Sku>(&mut differ);
    same::<Point>(&mut differ);
    same::<Labeled>(&mut differ);
    same::<Marker>(&mut differ);
    same::<Page<Payload>>(&mut differ);
    same::<Page<String>>(&mut differ);
    same::<Page<External>>(&mut differ);
    same::<Tree>(&mut differ);
    same::<Maybe>(&mut differ);
    same::<Nested>(&mut differ);
    same::<Keys>(&mut differ);
    same::<Collections>(&mut differ);
    same::<Std>(&mut differ);
    same::<Chrono>(&mut differ);
    same::<Jiff>(&mut differ);
    same::<Ids>(&mut differ);
    same::<Escapes>(&mut differ);
    same::<Invoice>(&mut differ);
    same::<Line>(&mut differ);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

// ---- Maps as entries and tuples as positional objects (OpenAI strict, Anthropic) ----

#[derive(AgentSchema, Serialize, Deserialize, PartialEq, Debug)]
struct Stock {
    #[schema(entries)]
    counts: HashMap<String, u32>,
    #[schema(entries)]
    by_id: BTreeMap<u16, Color>,
    at: (u8, String),
    #[schema(items(entries))]
    pages: Vec<BTreeMap<String, bool>>,
}

/// What a model writes under OpenAI strict for `Stock` (entries, positional objects).
fn stock_written() -> (Stock, Value) {
    let value = Stock {
        counts: HashMap::from([("bolt".to_string(), 3)]),
        by_id: BTreeMap::from([(7, Color::Blue), (0, Color::Red)]),
        at: (2, "shelf".into()),
        pages: vec![BTreeMap::from([("x".to_string(), true)]), BTreeMap::new()],
    };
    let written = json!({
        "counts": [{"key": "bolt", "value": 3}],
        "by_id": [{"key": "0", "value": "red"}, {"key": "7", "value": "blue"}],
        "at": {"_0": 2, "_1": "shelf"},
        "pages": [[{"key": "x", "value": true}], []],
    });
    (value, written)
}

#[test]
fn entries_and_tuple_objects_compile_in_llguidance_and_read_back() {
    let (value, written) = stock_written();
    let opts = schema_core::convert::DialectOptions::new().tuple_objects(true);
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let schema = Stock::json_schema_report(d, &opts).unwrap().schema;
        // The jsonschema crate and llguidance accept exactly what the model writes ...
        let theirs = jsonschema::validator_for(&schema).unwrap();
        assert!(theirs.is_valid(&written), "{d}: {schema:#}");
        assert!(
            !theirs.is_valid(&serde_json::to_value(&value).unwrap()),
            "{d}"
        );
        assert!(
            grammar_accepts(&schema, &written.to_string()).unwrap(),
            "{d}: {schema:#}"
        );
        // ... and not a value with a wrong key type.
        let mut bad = written.clone();
        bad["by_id"][0]["key"] = json!("zero");
        assert!(!theirs.is_valid(&bad), "{d}");
        assert!(!grammar_accepts(&schema, &bad.to_string()).unwrap(), "{d}");
    }
    // Read back into the map and the tuple, and equal to serde's own form read.
    assert_eq!(Stock::from_json(&written.to_string()).unwrap(), value);
    let serde_form = serde_json::to_string(&value).unwrap();
    assert_eq!(Stock::from_json(&serde_form).unwrap(), value);
}
