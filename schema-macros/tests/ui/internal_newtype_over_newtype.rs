use schema_core::AgentSchema;
use serde::Deserialize;
use std::collections::HashMap;

/// A newtype of a string: serde writes it as a string, not an object.
#[derive(AgentSchema, Deserialize)]
struct Id(String);

#[derive(AgentSchema, Deserialize)]
struct Point {
    x: i32,
    y: i32,
}

/// A newtype of a struct: an object, accepted.
#[derive(AgentSchema, Deserialize)]
struct Wrapped(Point);

#[derive(AgentSchema, Deserialize)]
struct Pair(i32, i32);

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "kind")]
enum Event {
    Move(Point),
    Wrapped(Wrapped),
    Labels(HashMap<String, String>),
    Boxed(Box<Option<Point>>),
    Key(Id),
    Drag(Pair),
    ByNumber(HashMap<u32, String>),
}

fn main() {}
