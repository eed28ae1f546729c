use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "kind")]
enum Event {
    Click { x: i32, y: i32 },
    Key(String),
    Scroll(Vec<f64>),
}

fn main() {}
