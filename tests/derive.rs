//! What the derive renders beyond the seed types: recursion, newtypes, documented enums,
//! integer widths, maps, serde attributes, flatten, generics, open objects, literals.

use schema_core::{AgentSchema, Dialect};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A comment tree: recursive through `Vec<Self>`.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
struct Comment {
    text: String,
    replies: Vec<Comment>,
}

#[test]
fn recursion_to_the_root_is_a_ref_to_the_root() {
    let s = Comment::json_schema(Dialect::JsonSchema);
    assert_eq!(
        s["properties"]["replies"],
        json!({"type": "array", "items": {"$ref": "#"}})
    );
    let ok =
        json!({"text": "a", "replies": [{"text": "b", "replies": [{"text": "c", "replies": []}]}]});
    assert!(Comment::validate(&ok).is_ok());
    let bad =
        json!({"text": "a", "replies": [{"text": "b", "replies": [{"text": 3, "replies": []}]}]});
    assert_eq!(
        Comment::validate(&bad).unwrap_err().paths(),
        ["/replies/0/replies/0/text"]
    );
    let parsed = Comment::from_json(&ok.to_string()).unwrap();
    assert_eq!(parsed.replies[0].replies[0].text, "c");
    // Anthropic allows no recursion: the type written out three levels deep (then any value,
    // which the validator checks), no `$ref`
    let a = Comment::try_json_schema(Dialect::Anthropic).unwrap();
    assert!(!a.to_string().contains("$ref"), "{a}");
    let l3 = &a["properties"]["replies"]["items"]["properties"]["replies"]["items"];
    assert_eq!(l3["properties"]["text"]["type"], "string", "{a}");
    assert!(Comment::try_json_schema(Dialect::OpenAi).is_ok());
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Thread {
    title: String,
    root: Comment,
    pinned: Option<Comment>,
}

#[test]
fn nested_recursion_goes_through_defs() {
    let s = Thread::json_schema(Dialect::JsonSchema);
    assert_eq!(s["properties"]["root"], json!({"$ref": "#/$defs/Comment"}));
    assert_eq!(
        s["properties"]["pinned"],
        json!({"$ref": "#/$defs/Comment"})
    );
    assert_eq!(
        s["$defs"]["Comment"]["properties"]["replies"]["items"],
        json!({"$ref": "#/$defs/Comment"})
    );
    assert_eq!(s["required"], json!(["title", "root"]));
}

/// A user id.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[schema(pattern = "^u[0-9]+$", max_length = 12)]
struct UserId(String);

#[derive(AgentSchema, Serialize, Deserialize)]
#[serde(transparent)]
struct Score {
    #[schema(minimum = 0, maximum = 10)]
    value: u8,
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Review {
    /// Who wrote it
    author: UserId,
    score: Score,
}

#[test]
fn newtypes_are_transparent_with_their_constraints() {
    let s = Review::json_schema(Dialect::JsonSchema);
    assert_eq!(
        s["properties"]["author"],
        json!({"type": "string", "pattern": "^u[0-9]+$", "maxLength": 12, "description": "Who wrote it"})
    );
    assert_eq!(
        s["properties"]["score"],
        json!({"type": "integer", "minimum": 0, "maximum": 10})
    );
    assert!(Review::validate(&json!({"author": "u12", "score": 7})).is_ok());
    let e = Review::validate(&json!({"author": "x12", "score": 11})).unwrap_err();
    assert_eq!(e.paths(), ["/author", "/score"]);
}

/// How sure the model is.
#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Confidence {
    /// Checked against two sources
    High,
    /// One source
    Medium,
    LowOrNone,
}

#[test]
fn variant_docs_are_never_lost() {
    let s = Confidence::json_schema(Dialect::JsonSchema);
    assert_eq!(
        *s,
        json!({"type": "string", "oneOf": [
            {"const": "high", "description": "Checked against two sources"},
            {"const": "medium", "description": "One source"},
            {"const": "low_or_none"}
        ]})
    );
    let ts = Confidence::typescript();
    assert!(
        ts.contains("Checked against two sources") && ts.contains("One source"),
        "{ts}"
    );
    assert!(Confidence::validate(&json!("low_or_none")).is_ok());
    assert!(Confidence::validate(&json!("LowOrNone")).is_err());
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Widths {
    a: u8,
    b: i16,
    c: u32,
    d: i64,
    e: u64,
    f: f32,
    g: char,
    h: bool,
}

#[test]
fn integer_widths_carry_their_range() {
    let s = Widths::json_schema(Dialect::JsonSchema);
    let p = &s["properties"];
    assert_eq!(
        p["a"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        p["b"],
        json!({"type": "integer", "minimum": -32768, "maximum": 32767})
    );
    assert_eq!(
        p["c"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64})
    );
    assert_eq!(p["d"], json!({"type": "integer"}));
    assert_eq!(p["e"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(p["f"], json!({"type": "number"}));
    assert_eq!(
        p["g"],
        json!({"type": "string", "minLength": 1, "maxLength": 1})
    );
    assert_eq!(p["h"], json!({"type": "boolean"}));
    // no non-standard `format` anywhere
    assert!(!s.to_string().contains("format"));
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Maps {
    counts: HashMap<String, u32>,
    labels: BTreeMap<String, String>,
    extra: serde_json::Value,
    tags: HashSet<String>,
}

#[test]
fn maps_are_the_one_open_object() {
    let s = Maps::json_schema(Dialect::JsonSchema);
    assert_eq!(
        s["properties"]["counts"],
        json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4294967295u64}})
    );
    assert_eq!(s["properties"]["extra"], json!({}));
    assert_eq!(s["properties"]["tags"]["uniqueItems"], true);
    assert_eq!(s["additionalProperties"], false);
    // OpenAI strict cannot express a map: written as `{key, value}` entries; a value of any
    // type (`extra`) stays an error naming the field (JSON text is for run-time schemas)
    let e = Maps::try_json_schema(Dialect::OpenAi).unwrap_err();
    assert!(e.pointer.contains("extra"), "{e}");
    let dup = json!({"counts": {}, "labels": {}, "extra": null, "tags": ["a", "a"]});
    assert_eq!(Maps::validate(&dup).unwrap_err().paths(), ["/tags/1"]);
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct SerdeAttrs {
    #[serde(rename = "id")]
    identifier: String,
    kept_name: bool,
    #[serde(skip)]
    cache: Option<String>,
    #[serde(default)]
    retries: u32,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(AgentSchema, Serialize, Deserialize, Debug, PartialEq, Default)]
struct Meta {
    source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[test]
fn serde_attributes_shape_the_schema() {
    let s = SerdeAttrs::json_schema(Dialect::JsonSchema);
    let props: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
    assert_eq!(props, ["id", "KEPT_NAME", "RETRIES", "source", "note"]);
    assert_eq!(s["required"], json!(["id", "KEPT_NAME", "source"]));
    let text = r#"{"id": "x", "KEPT_NAME": true, "source": "web"}"#;
    let v = SerdeAttrs::from_json(text).unwrap();
    assert_eq!((v.retries, v.meta.source.as_str()), (0, "web"));
    assert!(SerdeAttrs::from_json(
        r#"{"id": "x", "KEPT_NAME": true, "source": "web", "cache": "c"}"#
    )
    .is_err());
}

#[derive(AgentSchema, Serialize, Deserialize)]
struct Page<T> {
    items: Vec<T>,
    #[schema(minimum = 1)]
    page: u32,
}

#[test]
fn generic_types() {
    let s = Page::<Confidence>::json_schema(Dialect::JsonSchema);
    assert_eq!(
        s["properties"]["items"]["items"]["oneOf"][0]["const"],
        "high"
    );
    assert_eq!(
        s["properties"]["page"],
        json!({"type": "integer", "minimum": 1, "maximum": 4294967295u64})
    );
    let t = Page::<String>::json_schema(Dialect::JsonSchema);
    assert_eq!(t["properties"]["items"]["items"], json!({"type": "string"}));
    // Each instantiation has its own schema, validator and parse plan (a `static` in the generic
    // impl would share them).
    let text = r#"{"items": ["x"], "page": 1}"#;
    assert!(Page::<String>::from_json(text).is_ok());
    assert!(Page::<Confidence>::from_json(text).is_err());
    assert!(Page::<String>::from_json(r#"{"items": ["high"], "page": 1}"#).is_ok());
    assert!(Page::<Confidence>::from_json(r#"{"items": ["high"], "page": 1}"#).is_ok());
    assert!(Page::<Confidence>::validate(&json!({"items": ["x"], "page": 1})).is_err());
    assert!(!std::ptr::eq(
        Page::<String>::type_cache(),
        Page::<Confidence>::type_cache()
    ));
}

#[derive(AgentSchema, Serialize, Deserialize)]
#[schema(title = "Lookup", description = "A lookup request")]
struct Lookup {
    #[schema(const = "lookup")]
    kind: String,
    #[schema(example = "rust serde", example = "json schema", min_length = 1)]
    query: String,
    #[schema(format = "uri", title = "Source")]
    source: Option<String>,
    #[schema(exclusive_minimum = 0, multiple_of = 0.5)]
    weight: f64,
    #[schema(min_items = 1, unique_items, items(format = "email"))]
    notify: Vec<String>,
}

#[test]
fn every_keyword_renders() {
    let s = Lookup::json_schema(Dialect::JsonSchema);
    assert_eq!(s["title"], "Lookup");
    assert_eq!(s["description"], "A lookup request");
    let p = &s["properties"];
    assert_eq!(p["kind"], json!({"type": "string", "const": "lookup"}));
    assert_eq!(
        p["query"],
        json!({"type": "string", "minLength": 1, "examples": ["rust serde", "json schema"]})
    );
    assert_eq!(
        p["source"],
        json!({"type": "string", "title": "Source", "format": "uri"})
    );
    assert_eq!(
        p["weight"],
        json!({"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5})
    );
    assert_eq!(
        p["notify"],
        json!({"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 1, "uniqueItems": true})
    );
    let bad = json!({"kind": "find", "query": "", "source": "not a uri", "weight": 0.3, "notify": ["a@b.co", "nope"]});
    assert_eq!(
        Lookup::validate(&bad).unwrap_err().paths(),
        ["/kind", "/query", "/source", "/weight", "/notify/1"]
    );
}

#[derive(AgentSchema, Serialize, Deserialize)]
#[schema(open)]
struct Loose {
    name: String,
}

#[test]
fn open_objects_accept_unknown_properties() {
    let s = Loose::json_schema(Dialect::JsonSchema);
    assert!(s.get("additionalProperties").is_none());
    assert!(Loose::validate(&json!({"name": "a", "other": 1})).is_ok());
    // strict dialects close it anyway, and say so
    let openai = Loose::json_schema(Dialect::OpenAi);
    assert_eq!(openai["additionalProperties"], false);
}

#[test]
fn repeated_calls_are_cheap_and_equal() {
    let a = Comment::json_schema(Dialect::OpenAi);
    let b = Comment::json_schema(Dialect::OpenAi);
    assert_eq!(a, b);
    // The same cached value, not a copy.
    assert!(std::ptr::eq(a, b));
    assert!(std::ptr::eq(Comment::type_cache(), Comment::type_cache()));
}

/// `[T; N]` is an array of exactly `N` items, in the schema and in the validator.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Fixed {
    /// position
    pos: [f64; 3],
    pair: Option<[String; 2]>,
    grid: Vec<[u8; 2]>,
}

#[test]
fn fixed_size_arrays_have_exact_item_counts() {
    let s = Fixed::json_schema(Dialect::JsonSchema);
    assert_eq!(
        s["properties"]["pos"],
        json!({"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3, "description": "position"})
    );
    assert_eq!(s["properties"]["grid"]["items"]["minItems"], 2);
    assert_eq!(s["properties"]["grid"]["items"]["maxItems"], 2);
    assert_eq!(s["required"], json!(["pos", "grid"]));
    let ok =
        Fixed::from_json(r#"{"pos": [1, 2, 3], "pair": ["a", "b"], "grid": [[1, 2]]}"#).unwrap();
    assert_eq!(ok.pos, [1.0, 2.0, 3.0]);
    let e = Fixed::from_json(r#"{"pos": [1, 2], "grid": [[1, 2, 3]]}"#).unwrap_err();
    let paths: Vec<String> = e
        .validation_errors()
        .unwrap()
        .iter()
        .map(|e| e.path.clone())
        .collect();
    assert_eq!(paths, ["/pos", "/grid/0"]);
    assert!(Fixed::typescript().contains("pos: number[] /* position; 3 items */"));
}
