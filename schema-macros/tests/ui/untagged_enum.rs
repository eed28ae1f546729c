use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(untagged)]
enum Value {
    Text { text: String },
    Number { number: f64 },
}

fn main() {}
