use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type")]
enum Shape {
    Circle { radius: f64 },
    Line(f64, f64),
}

fn main() {}
