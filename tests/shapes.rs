//! The shapes serde writes: every serde enum representation, tuples, unit structs, keyed maps and the
//! standard library's foreign types, each rendered, validated and parsed as serde reads it.
//!
//! The cross-checks against schemars, the jsonschema crate and llguidance live in
//! `crosscheck/tests/shapes.rs`.

use schema_core::{AgentSchema, Dialect};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Payload {
    a: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<String>,
}

/// serde's default representation.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
enum External {
    Unit,
    Other,
    New(Payload),
    Str(String),
    Tup(i32, String),
    Named { x: f64 },
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    New(Payload),
    Str(String),
    Tup(i32, String),
    Named { x: f64 },
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(untagged)]
enum Untagged {
    Num(f64),
    Text(String),
    Obj { k: bool, n: u8 },
    Nothing,
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind")]
enum InternalWithFallback {
    Circle {
        radius: f64,
    },
    #[serde(untagged)]
    Other(String),
}

#[derive(
    AgentSchema, Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Clone,
)]
enum Color {
    Red,
    Green,
}

#[derive(
    AgentSchema, Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Clone,
)]
struct Sku(String);

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Point(f64, f64);

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Marker;

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Everything {
    ext: External,
    adj: Adjacent,
    unt: Untagged,
    int: InternalWithFallback,
    by_color: BTreeMap<Color, u8>,
    by_id: BTreeMap<u32, String>,
    by_sku: HashMap<Sku, bool>,
    by_char: BTreeMap<char, i64>,
    point: Point,
    pair: (bool, String),
    marker: Marker,
    nothing: (),
}

fn everything(ext: External, adj: Adjacent, unt: Untagged) -> Everything {
    Everything {
        ext,
        adj,
        unt,
        int: InternalWithFallback::Circle { radius: 2.5 },
        by_color: [(Color::Red, 3)].into(),
        by_id: [(7, "seven".into()), (0, "zero".into())].into(),
        by_sku: [(Sku("A-1".into()), true)].into(),
        by_char: [('x', -4)].into(),
        point: Point(1.5, -2.0),
        pair: (true, "y".into()),
        marker: Marker,
        nothing: (),
    }
}

/// serde's JSON of `value` validates, and `from_json` reads it back to the same value.
fn round_trip<T: AgentSchema + Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    let text = serde_json::to_string(value).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(T::validate(&json), Ok(()), "{text}");
    assert_eq!(&T::from_json(&text).unwrap(), value, "{text}");
}

/// `validate` and serde agree: when the value validates, serde reads it; when serde cannot read
/// it, neither `validate` nor `from_json` accepts it.
fn agree<T: AgentSchema + DeserializeOwned + Debug>(value: Value) -> bool {
    let ours = T::validate(&value).is_ok();
    let serde_ok = serde_json::from_value::<T>(value.clone()).is_ok();
    if ours {
        assert!(serde_ok, "validate accepts what serde rejects: {value}");
    }
    let parsed = T::from_json(&value.to_string()).is_ok();
    assert_eq!(parsed, ours, "from_json and validate disagree on {value}");
    ours
}

#[test]
fn externally_tagged_schema_is_serde_wire_format() {
    let schema = External::json_schema(Dialect::JsonSchema);
    let int = json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647});
    let payload = json!({
        "type": "object",
        "properties": {"a": int, "b": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": false
    });
    let wrapped = |name: &str, content: Value| {
        json!({
            "type": "object",
            "properties": {name: content},
            "required": [name],
            "additionalProperties": false
        })
    };
    let expected = json!({"anyOf": [
        {"type": "string", "enum": ["Unit", "Other"]},
        wrapped("New", payload),
        wrapped("Str", json!({"type": "string"})),
        wrapped("Tup", json!({
            "type": "array",
            "prefixItems": [int, {"type": "string"}],
            "items": false,
            "minItems": 2,
            "maxItems": 2
        })),
        wrapped("Named", json!({
            "type": "object",
            "properties": {"x": {"type": "number"}},
            "required": ["x"],
            "additionalProperties": false
        })),
    ]});
    assert_eq!(*schema, expected);
}

#[test]
fn adjacently_tagged_schema_is_serde_wire_format() {
    let schema = Adjacent::json_schema(Dialect::JsonSchema);
    let branches = schema["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 5);
    assert_eq!(
        branches[0],
        json!({
            "type": "object",
            "properties": {"t": {"type": "string", "const": "Unit"}},
            "required": ["t"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        branches[2],
        json!({
            "type": "object",
            "properties": {"t": {"type": "string", "const": "Str"}, "c": {"type": "string"}},
            "required": ["t", "c"],
            "additionalProperties": false
        })
    );
}

#[test]
fn untagged_and_tuple_and_unit_schemas() {
    let schema = Untagged::json_schema(Dialect::JsonSchema);
    assert_eq!(schema["anyOf"][0], json!({"type": "number"}));
    assert_eq!(schema["anyOf"][1], json!({"type": "string"}));
    assert_eq!(schema["anyOf"][3], json!({"type": "null"}));
    assert_eq!(
        *Point::json_schema(Dialect::JsonSchema),
        json!({
            "type": "array",
            "prefixItems": [{"type": "number"}, {"type": "number"}],
            "items": false,
            "minItems": 2,
            "maxItems": 2
        })
    );
    assert_eq!(
        *Marker::json_schema(Dialect::JsonSchema),
        json!({"type": "null"})
    );
    assert_eq!(
        *<()>::json_schema(Dialect::JsonSchema),
        json!({"type": "null"})
    );
}

#[test]
fn keyed_map_schemas() {
    let schema = Everything::json_schema(Dialect::JsonSchema);
    let p = &schema["properties"];
    let byte = json!({"type": "integer", "minimum": 0, "maximum": 255});
    assert_eq!(
        p["by_color"],
        json!({
            "type": "object",
            "properties": {"Red": byte, "Green": byte},
            "additionalProperties": false
        })
    );
    assert_eq!(
        p["by_id"]["propertyNames"],
        json!({"pattern": "^(0|[1-9][0-9]*)$"})
    );
    assert_eq!(
        p["by_char"]["propertyNames"],
        json!({"minLength": 1, "maxLength": 1})
    );
    assert_eq!(
        p["by_sku"],
        json!({"type": "object", "additionalProperties": {"type": "boolean"}})
    );
}

#[test]
fn every_representation_round_trips() {
    let exts = [
        External::Unit,
        External::Other,
        External::New(Payload { a: 1, b: None }),
        External::New(Payload {
            a: -3,
            b: Some("b".into()),
        }),
        External::Str("s".into()),
        External::Tup(4, "t".into()),
        External::Named { x: 0.5 },
    ];
    let adjs = [
        Adjacent::Unit,
        Adjacent::New(Payload { a: 2, b: None }),
        Adjacent::Str("s".into()),
        Adjacent::Tup(-1, String::new()),
        Adjacent::Named { x: 1e3 },
    ];
    let unts = [
        Untagged::Num(1.25),
        Untagged::Text("hi".into()),
        Untagged::Obj { k: false, n: 9 },
        Untagged::Nothing,
    ];
    for (i, e) in exts.iter().enumerate() {
        round_trip(e);
        round_trip(&everything(
            e.clone(),
            adjs[i % adjs.len()].clone(),
            unts[i % unts.len()].clone(),
        ));
    }
    for a in &adjs {
        round_trip(a);
    }
    for u in &unts {
        round_trip(u);
    }
    round_trip(&InternalWithFallback::Circle { radius: 1.0 });
    round_trip(&InternalWithFallback::Other("free text".into()));
    round_trip(&Point(0.0, 3.5));
    round_trip(&Marker);
}

#[test]
fn mutated_instances_are_rejected_as_serde_rejects_them() {
    // Externally tagged: one key only, a known name, the right content.
    assert!(agree::<External>(json!("Unit")));
    assert!(agree::<External>(json!({"Str": "x"})));
    assert!(!agree::<External>(json!("New")));
    assert!(!agree::<External>(json!("Gamma")));
    assert!(!agree::<External>(json!({"Str": 1})));
    assert!(!agree::<External>(json!({"Str": "x", "Named": {"x": 1}})));
    assert!(!agree::<External>(json!({"Tup": [1]})));
    assert!(!agree::<External>(json!({"Tup": [1, "a", 2]})));
    assert!(!agree::<External>(json!({"Named": {}})));
    assert!(!agree::<External>(json!({})));
    // Adjacently tagged.
    assert!(agree::<Adjacent>(json!({"t": "Unit"})));
    assert!(agree::<Adjacent>(json!({"c": "x", "t": "Str"})));
    assert!(!agree::<Adjacent>(json!({"t": "Str"})));
    assert!(!agree::<Adjacent>(json!({"t": "Str", "c": 3})));
    assert!(!agree::<Adjacent>(json!({"t": "Nope", "c": 3})));
    assert!(!agree::<Adjacent>(json!({"c": {"x": 1.0}})));
    // Untagged.
    assert!(agree::<Untagged>(json!(null)));
    assert!(agree::<Untagged>(json!({"k": true, "n": 1})));
    assert!(!agree::<Untagged>(json!(true)));
    assert!(!agree::<Untagged>(json!({"k": true, "n": 300})));
    assert!(!agree::<Untagged>(json!([1])));
    // Internally tagged with an untagged fallback.
    assert!(agree::<InternalWithFallback>(
        json!({"kind": "Circle", "radius": 1})
    ));
    assert!(agree::<InternalWithFallback>(json!("anything")));
    assert!(!agree::<InternalWithFallback>(json!({"kind": "Square"})));
    // Tuples and unit structs.
    assert!(agree::<Point>(json!([1, 2])));
    assert!(!agree::<Point>(json!([1])));
    assert!(!agree::<Point>(json!([1, 2, 3])));
    assert!(!agree::<Point>(json!({"0": 1, "1": 2})));
    assert!(agree::<Marker>(json!(null)));
    assert!(!agree::<Marker>(json!({})));
    // Keys.
    assert!(agree::<BTreeMap<Color, u8>>(json!({"Red": 1})));
    assert!(!agree::<BTreeMap<Color, u8>>(json!({"Blue": 1})));
    assert!(agree::<BTreeMap<u32, u8>>(json!({"0": 1, "42": 2})));
    assert!(!agree::<BTreeMap<u32, u8>>(json!({"x": 1})));
    assert!(!agree::<BTreeMap<u32, u8>>(json!({"-1": 1})));
    assert!(agree::<BTreeMap<i32, u8>>(json!({"-1": 1})));
    assert!(agree::<BTreeMap<char, u8>>(json!({"é": 1})));
    assert!(!agree::<BTreeMap<char, u8>>(json!({"ab": 1})));
}

#[test]
fn untagged_errors_name_the_closest_branch() {
    let err = Untagged::validate(&json!({"k": true, "n": 300})).unwrap_err();
    assert_eq!(err.paths(), ["/n"], "{err:?}");
    let err = External::validate(&json!({"Tup": [1, 2]})).unwrap_err();
    assert_eq!(err.paths(), ["/Tup/1"], "{err:?}");
}

#[test]
fn strict_dialects_render_or_name_the_field() {
    // Tuples: OpenAI and Anthropic take them as objects `{_0, _1, ...}` (off: an error naming
    // where); Gemini and LM Studio keep them.
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let off = schema_core::convert::DialectOptions::new().tuple_objects(false);
        let err = Everything::json_schema_report(d, &off).unwrap_err();
        assert!(err.pointer.contains("/properties/"), "{d}: {err}");
        if let Ok(s) = Everything::try_json_schema(d) {
            assert!(s.to_string().contains("\"_0\""), "{d}: {s}");
        }
    }
    for d in [Dialect::Gemini, Dialect::LmStudio] {
        let s = Everything::try_json_schema(d).unwrap();
        assert!(s["properties"]["point"]["prefixItems"].is_array(), "{d}");
    }
    // Nested unions stay `anyOf` under OpenAI strict (the root is an object).
    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    struct Holder {
        unt: Untagged,
        int: InternalWithFallback,
        by_color: BTreeMap<Color, u8>,
    }
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let s = Holder::json_schema(d);
        assert!(s["properties"]["unt"]["anyOf"].is_array(), "{d}");
        assert!(s["properties"]["int"]["anyOf"].is_array(), "{d}");
        assert_eq!(
            s["properties"]["by_color"]["additionalProperties"], false,
            "{d}"
        );
    }
    // What a model writes under OpenAI strict (every property present) reads back.
    let reply = r#"{"unt": null, "int": {"kind": "Circle", "radius": 1}, "by_color": {"Red": 1, "Green": 2}}"#;
    let held = Holder::from_json(reply).unwrap();
    assert_eq!(
        held.by_color,
        BTreeMap::from([(Color::Red, 1), (Color::Green, 2)])
    );
    assert_eq!(held.unt, Untagged::Nothing);
    // An externally tagged enum at the root: wrapped in `{"value": ...}`, its tuple variant
    // an object `{_0, _1}`; a reply in that shape reads back.
    let s = External::try_json_schema(Dialect::OpenAi).unwrap();
    assert_eq!(s["required"], json!(["value"]), "{s}");
    let tup = External::from_json(r#"{"value": {"Tup": {"_0": 1, "_1": "x"}}}"#).unwrap();
    assert_eq!(tup, External::Tup(1, "x".into()));
}

#[test]
fn standard_foreign_types() {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    use std::num::{NonZeroI32, NonZeroU8};
    use std::time::Duration;

    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    struct Host {
        v4: Ipv4Addr,
        v6: Ipv6Addr,
        any: IpAddr,
        path: std::path::PathBuf,
        small: NonZeroU8,
        signed: NonZeroI32,
        timeout: Duration,
    }
    let schema = Host::json_schema(Dialect::JsonSchema);
    let p = &schema["properties"];
    assert_eq!(p["v4"], json!({"type": "string", "format": "ipv4"}));
    assert_eq!(p["v6"], json!({"type": "string", "format": "ipv6"}));
    assert_eq!(
        p["any"],
        json!({"anyOf": [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}]})
    );
    assert_eq!(
        p["small"],
        json!({"type": "integer", "minimum": 1, "maximum": 255})
    );
    assert_eq!(
        p["timeout"]["properties"],
        json!({
            "secs": {"type": "integer", "minimum": 0},
            "nanos": {"type": "integer", "minimum": 0, "maximum": 4294967295u32}
        })
    );
    let host = Host {
        v4: Ipv4Addr::new(10, 0, 0, 1),
        v6: Ipv6Addr::LOCALHOST,
        any: IpAddr::V6(Ipv6Addr::UNSPECIFIED),
        path: "/tmp/x".into(),
        small: NonZeroU8::new(3).unwrap(),
        signed: NonZeroI32::new(-5).unwrap(),
        timeout: Duration::new(3, 500),
    };
    round_trip(&host);
    let good = serde_json::to_value(&host).unwrap();
    let mutate = |k: &str, v: Value| {
        let mut m = good.clone();
        m[k] = v;
        m
    };
    assert!(agree::<Host>(good.clone()));
    assert!(!agree::<Host>(mutate("v4", json!("10.0.0.256"))));
    assert!(!agree::<Host>(mutate("v6", json!("10.0.0.1"))));
    assert!(!agree::<Host>(mutate("any", json!("not an ip"))));
    assert!(!agree::<Host>(mutate("small", json!(0))));
    assert!(!agree::<Host>(mutate("signed", json!(0))));
    assert!(!agree::<Host>(mutate("timeout", json!({"secs": 1}))));
}

#[test]
fn typescript_of_the_new_shapes() {
    let ts = Everything::typescript();
    assert!(ts.contains("point: [number, number];"), "{ts}");
    assert!(ts.contains("pair: [boolean, string];"), "{ts}");
    assert!(ts.contains("marker: null;"), "{ts}");
    assert!(
        ts.contains(r#"adj: {t: "Unit"}|{t: "New"; c: {a: number"#),
        "{ts}"
    );
    assert!(ts.contains("by_color: {Red?: number"), "{ts}");
    assert!(
        ts.contains(r#"ext: "Unit"|"Other"|{New: {a: number"#),
        "{ts}"
    );
}

#[test]
fn flattened_externally_tagged_enum() {
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    enum Target {
        Path(String),
        Range { from: u32, to: u32 },
    }
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    struct Edit {
        note: String,
        #[serde(flatten)]
        target: Target,
    }
    for e in [
        Edit {
            note: "a".into(),
            target: Target::Path("/x".into()),
        },
        Edit {
            note: "b".into(),
            target: Target::Range { from: 1, to: 2 },
        },
    ] {
        round_trip(&e);
    }
    assert!(agree::<Edit>(json!({"note": "n", "Path": "p"})));
    assert!(!agree::<Edit>(json!({"note": "n"})));
    assert!(!agree::<Edit>(json!({"note": "n", "Path": 1})));
    // Both variants' keys: accepted by both (the objects are open, as serde's flatten reads).
    agree::<Edit>(json!({"note": "n", "Path": "p", "Range": {"from": 1, "to": 2}}));
}

// ---- Internally tagged newtype variants over a user's types, entries, tuple objects. ----

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Spot {
    x: i32,
    y: i32,
}

/// A newtype of a struct: serde writes it as the struct's object.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct WrappedSpot(Spot);

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "kind")]
enum Moves {
    Go(Spot),
    Wrapped(WrappedSpot),
    Labels(BTreeMap<String, String>),
    Counts(BTreeMap<char, u8>),
    Boxed(Box<Spot>),
    Stop,
}

#[test]
fn internally_tagged_newtype_over_objects_renders_and_round_trips() {
    let values = [
        Moves::Go(Spot { x: 1, y: 2 }),
        Moves::Wrapped(WrappedSpot(Spot { x: -1, y: 0 })),
        Moves::Labels([("a".into(), "b".into())].into()),
        Moves::Counts([('c', 4)].into()),
        Moves::Boxed(Box::new(Spot { x: 5, y: 6 })),
        Moves::Stop,
    ];
    for v in &values {
        round_trip(v);
    }
    // The `char` keys of a flattened map keep their length; the tag is not a key.
    assert!(!agree::<Moves>(json!({"kind": "Counts", "xy": 1})));
    assert!(agree::<Moves>(json!({"kind": "Counts", "x": 1, "y": 2})));
    for d in Dialect::EVERY {
        // Renders or fails with an error; never panics.
        let _ = Moves::try_json_schema(d);
    }
    assert!(Moves::try_json_schema(Dialect::JsonSchema).is_ok());
    const { assert!(<WrappedSpot as AgentSchema>::IS_OBJECT) };
    const { assert!(!<Sku as AgentSchema>::IS_OBJECT) };
    const { assert!(!<Point as AgentSchema>::IS_OBJECT) };
    const { assert!(<Moves as AgentSchema>::IS_OBJECT) };
    const { assert!(!<Adjacent as AgentSchema>::IS_OBJECT) };
    const { assert!(!<External as AgentSchema>::IS_OBJECT) };
    // serde cannot read integer keys from the content it buffers for a tagged enum.
    const { assert!(!<BTreeMap<u8, u8> as AgentSchema>::IS_OBJECT) };
    const { assert!(<HashMap<Sku, u8> as AgentSchema>::IS_OBJECT) };
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Inventory {
    /// Stock per item name.
    #[schema(entries)]
    stock: HashMap<String, u32>,
    #[schema(entries)]
    by_id: BTreeMap<u16, Spot>,
    #[schema(entries)]
    by_color: BTreeMap<Color, bool>,
    #[schema(entries)]
    tags: Option<BTreeMap<Sku, String>>,
    plain: BTreeMap<Color, u8>,
}

fn inventory() -> Inventory {
    Inventory {
        stock: [("bolt".into(), 3), ("nut".into(), 0)].into(),
        by_id: [(7, Spot { x: 1, y: 1 })].into(),
        by_color: [(Color::Green, true)].into(),
        tags: Some([(Sku("A-1".into()), "first".into())].into()),
        plain: [(Color::Red, 1)].into(),
    }
}

/// `value`'s serde JSON with every map in `fields` written as entries.
fn as_entries(value: &Value, fields: &[&str]) -> Value {
    let mut v = value.clone();
    for f in fields {
        if let Some(Value::Object(m)) = v.get(*f) {
            let list: Vec<Value> = m
                .iter()
                .map(|(k, x)| json!({"key": k, "value": x}))
                .collect();
            v[*f] = Value::Array(list);
        }
    }
    v
}

#[test]
fn entries_render_in_strict_dialects_only() {
    // `Dialect::JsonSchema` keeps serde's map form.
    let full = Inventory::json_schema(Dialect::JsonSchema);
    assert_eq!(
        full["properties"]["stock"]["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32})
    );
    for d in [Dialect::Gemini, Dialect::LmStudio, Dialect::Llguidance] {
        let s = Inventory::json_schema(d);
        assert_eq!(s["properties"]["stock"]["type"], "object", "{d}");
    }
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let s = Inventory::json_schema(d);
        let p = &s["properties"];
        assert_eq!(p["stock"]["type"], "array", "{d}");
        assert_eq!(p["stock"]["description"], "Stock per item name.", "{d}");
        let entry = &p["stock"]["items"];
        assert_eq!(entry["required"], json!(["key", "value"]), "{d}");
        assert_eq!(entry["additionalProperties"], false, "{d}");
        assert_eq!(entry["properties"]["key"]["type"], "string", "{d}");
        // Integer keys keep their pattern, enum keys their names.
        assert_eq!(
            p["by_id"]["items"]["properties"]["key"]["pattern"], "^(0|[1-9][0-9]*)$",
            "{d}"
        );
        assert_eq!(
            p["by_color"]["items"]["properties"]["key"]["enum"],
            json!(["Red", "Green"]),
            "{d}"
        );
        // An unmarked enum-keyed map stays a closed object.
        assert_eq!(p["plain"]["type"], "object", "{d}");
    }
}

#[test]
fn entries_read_back_into_the_map() {
    let value = inventory();
    let serde_form = serde_json::to_value(&value).unwrap();
    let anthropic = as_entries(&serde_form, &["stock", "by_id", "by_color", "tags"]);
    // OpenAI strict makes the absent keys of an enum-keyed map required and nullable.
    let mut written = anthropic.clone();
    written["plain"]["Green"] = Value::Null;
    // What the model writes is exactly what the dialect's schema accepts ...
    for (d, w) in [
        (Dialect::OpenAi, &written),
        (Dialect::Anthropic, &anthropic),
    ] {
        let v = schema_core::validate::Validator::new(Inventory::json_schema(d)).unwrap();
        assert_eq!(v.validate(w), Ok(()), "{d}");
        assert!(v.validate(&serde_form).is_err(), "{d}");
    }
    // ... and reads back into the same value, as serde's own form does.
    assert_eq!(Inventory::from_json(&written.to_string()).unwrap(), value);
    assert_eq!(
        Inventory::from_llm(&format!("Here:\n```json\n{written}\n```")).unwrap(),
        value
    );
    round_trip(&value);
    // A key written twice is an error naming the entry.
    let mut twice = written.clone();
    twice["stock"]
        .as_array_mut()
        .unwrap()
        .push(json!({"key": "bolt", "value": 9}));
    let err = Inventory::from_json(&twice.to_string()).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/stock/2/key"]);
    // A key outside the key type is the validator's error, on the map.
    let mut bad_key = written.clone();
    bad_key["by_id"] = json!([{"key": "x", "value": {"x": 1, "y": 2}}]);
    let err = Inventory::from_json(&bad_key.to_string()).unwrap_err();
    assert!(
        err.validation_errors().unwrap().paths()[0].starts_with("/by_id"),
        "{err}"
    );
    // A value outside the value type: the error is under the key.
    let mut bad_value = written.clone();
    bad_value["stock"] = json!([{"key": "bolt", "value": -1}]);
    let err = Inventory::from_json(&bad_value.to_string()).unwrap_err();
    // The path names the entry as the model wrote it, and the value is what it wrote.
    assert_eq!(err.validation_errors().unwrap().paths(), ["/stock/0/value"]);
    assert_eq!(err.value(), Some(&bad_value));
}

#[test]
fn map_entries_option_and_typescript() {
    use schema_core::convert::{DialectOptions, TsOptions};
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    struct Free {
        custom_fields: HashMap<String, String>,
        keyed: BTreeMap<Color, u8>,
    }
    let off = DialectOptions::new().map_entries(false);
    assert!(Free::json_schema_report(Dialect::OpenAi, &off).is_err());
    assert!(Free::try_json_schema(Dialect::OpenAi).is_ok());
    let opts = DialectOptions::new().map_entries(true);
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let out = Free::json_schema_report(d, &opts).unwrap().schema;
        assert_eq!(out["properties"]["custom_fields"]["type"], "array", "{d}");
        assert_eq!(out["properties"]["keyed"]["type"], "object", "{d}");
    }
    // Other dialects express maps: the option changes nothing there.
    assert_eq!(
        Free::json_schema_report(Dialect::Gemini, &opts)
            .unwrap()
            .schema,
        *Free::json_schema(Dialect::Gemini)
    );
    let reply =
        r#"{"custom_fields": [{"key": "po", "value": "77"}], "keyed": {"Red": 1, "Green": null}}"#;
    let free = Free::from_json(reply).unwrap();
    assert_eq!(free.custom_fields["po"], "77");
    assert_eq!(free.keyed, BTreeMap::from([(Color::Red, 1)]));

    let ts = Inventory::typescript_for(Dialect::OpenAi, &TsOptions::default()).unwrap();
    assert!(
        ts.contains("stock: /* Stock per item name. */ {key: string /* Each key at most once. */; value: number"),
        "{ts}"
    );
    let ts = Inventory::typescript_for(Dialect::JsonSchema, &TsOptions::default()).unwrap();
    assert!(!ts.contains("key: string"), "{ts}");
}

#[test]
fn tuple_objects_option() {
    use schema_core::convert::DialectOptions;
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    enum Shape {
        Line(Point, Point),
        Dot(Point),
    }
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    struct Drawing {
        origin: Point,
        pair: (bool, String),
        shapes: Vec<Shape>,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<(u8, u8)>,
    }
    // With the option off: an error naming the field (on by default).
    let off = DialectOptions::new().tuple_objects(false);
    let err = Drawing::json_schema_report(Dialect::OpenAi, &off).unwrap_err();
    assert!(err.pointer.contains("/properties/origin"), "{err}");
    let opts = DialectOptions::new().tuple_objects(true);
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let s = Drawing::json_schema_report(d, &opts).unwrap().schema;
        assert_eq!(
            s["properties"]["origin"]["required"],
            json!(["_0", "_1"]),
            "{d}"
        );
        assert_eq!(
            s["properties"]["pair"]["properties"]["_1"]["type"], "string",
            "{d}"
        );
    }
    // Gemini keeps `prefixItems`.
    let g = Drawing::json_schema_report(Dialect::Gemini, &opts)
        .unwrap()
        .schema;
    assert!(g["properties"]["origin"]["prefixItems"].is_array());
    let value = Drawing {
        origin: Point(0.5, 1.0),
        pair: (true, "p".into()),
        shapes: vec![
            Shape::Line(Point(0.0, 0.0), Point(1.0, 2.0)),
            Shape::Dot(Point(3.0, 4.0)),
        ],
        maybe: None,
    };
    let written = json!({
        "origin": {"_0": 0.5, "_1": 1.0},
        "pair": {"_0": true, "_1": "p"},
        "shapes": [
            {"Line": {"_0": {"_0": 0.0, "_1": 0.0}, "_1": {"_0": 1.0, "_1": 2.0}}},
            {"Dot": {"_0": 3.0, "_1": 4.0}},
        ],
        "maybe": null,
    });
    let openai = Drawing::json_schema_report(Dialect::OpenAi, &opts)
        .unwrap()
        .schema;
    let v = schema_core::validate::Validator::new(&openai).unwrap();
    assert_eq!(v.validate(&written), Ok(()));
    assert_eq!(Drawing::from_json(&written.to_string()).unwrap(), value);
    round_trip(&value);
    // A missing position is the validator's error.
    let mut short = written.clone();
    short["pair"] = json!({"_0": true});
    assert!(Drawing::from_json(&short.to_string()).is_err());
    // An item of the wrong type: the path names the position as written.
    let mut wrong = written.clone();
    wrong["pair"]["_1"] = json!(3);
    let err = Drawing::from_json(&wrong.to_string()).unwrap_err();
    assert_eq!(err.validation_errors().unwrap().paths(), ["/pair/_1"]);
}

#[test]
fn entries_in_tool_sets() {
    use schema_core::provider::Provider;
    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    #[serde(tag = "tool", rename_all = "snake_case")]
    #[schema(tools)]
    enum Tool {
        /// Set headers.
        SetHeaders {
            #[schema(entries)]
            headers: BTreeMap<String, String>,
        },
    }
    let openai = Tool::tool_definitions(Provider::OpenAiChat).unwrap();
    let params = &openai[0]["function"]["parameters"];
    assert_eq!(
        params["properties"]["headers"]["type"], "array",
        "{params:#}"
    );
    let anthropic = Tool::tool_definitions(Provider::Anthropic).unwrap();
    assert_eq!(
        anthropic[0]["input_schema"]["properties"]["headers"]["type"],
        "array"
    );
    // MCP takes full JSON Schema: serde's map form.
    let mcp = Tool::mcp_tools().unwrap();
    assert_eq!(
        mcp[0]["inputSchema"]["properties"]["headers"]["type"],
        "object"
    );
    let call = Tool::from_tool_call(
        "set_headers",
        r#"{"headers": [{"key": "accept", "value": "json"}]}"#,
    )
    .unwrap();
    assert_eq!(
        call,
        Tool::SetHeaders {
            headers: BTreeMap::from([("accept".into(), "json".into())])
        }
    );
}

#[test]
fn entries_and_positional_objects_stream() {
    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    struct Stock {
        #[schema(entries)]
        counts: HashMap<String, u32>,
        pair: (u8, bool),
    }
    let text = r#"{"counts": [{"key": "a", "value": 1}], "pair": {"_0": 1, "_1": true}}"#;
    let mut s = Stock::stream();
    for c in text.as_bytes().chunks(5) {
        s.push(std::str::from_utf8(c).unwrap()).unwrap();
    }
    let done = s.finish().unwrap();
    assert_eq!(done.counts, HashMap::from([("a".to_string(), 1)]));
    assert_eq!(done.pair, (1, true));
    // A value the entries cannot be is still stopped at its first byte.
    let mut s = Stock::stream();
    assert!(s.push(r#"{"counts": "#).is_ok());
    assert!(s.push(r#""x""#).is_err());
}

#[test]
fn generic_internally_tagged_newtype_checks_per_instantiation() {
    #[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(tag = "kind")]
    enum Envelope<T> {
        Body(T),
        Empty,
    }
    // `Envelope<Sku>` would not build: its content is not an object (a const assertion).
    round_trip(&Envelope::Body(Spot { x: 1, y: 2 }));
    round_trip(&Envelope::<Spot>::Empty);
    assert!(Envelope::<Spot>::try_json_schema(Dialect::OpenAi).is_ok());
}
