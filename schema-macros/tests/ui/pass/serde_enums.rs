//! Every serde enum representation, tuples and unit structs derive.
use schema_core::{model::Type, AgentSchema, Dialect};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(AgentSchema, Deserialize)]
enum External {
    Empty,
    Text { text: String },
    Number(f64),
    Pair(f64, f64),
}

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type", content = "data")]
enum Adjacent {
    Text { text: String },
    Number(f64),
    Nothing,
}

#[derive(AgentSchema, Deserialize)]
#[serde(untagged)]
enum Untagged {
    Number(f64),
    Text(String),
}

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type")]
enum Internal {
    Circle { radius: f64 },
    #[serde(untagged)]
    Other(String),
}

#[derive(AgentSchema, Deserialize)]
struct Point(f64, f64);

#[derive(AgentSchema, Deserialize)]
struct Nothing;

#[derive(AgentSchema, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
enum Color {
    Red,
    Green,
}

fn custom() -> &'static Type {
    <String as AgentSchema>::schema_type()
}

struct Foreign;

#[derive(AgentSchema)]
struct Row {
    #[schema(with = "String")]
    foreign: Foreign,
    #[schema(schema_with = "custom")]
    custom: Foreign,
    by_color: BTreeMap<Color, u32>,
    by_number: BTreeMap<u16, String>,
    span: (u32, u32),
}

fn main() {
    let _ = External::json_schema(Dialect::JsonSchema);
    let _ = Adjacent::json_schema(Dialect::JsonSchema);
    let _ = Untagged::json_schema(Dialect::JsonSchema);
    let _ = Internal::json_schema(Dialect::JsonSchema);
    let _ = Point::json_schema(Dialect::JsonSchema);
    let _ = Nothing::json_schema(Dialect::JsonSchema);
    let _ = Row::json_schema(Dialect::JsonSchema);
}
