use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type", content = "data")]
enum Value {
    Text { text: String },
    Number { number: f64 },
}

fn main() {}
