use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(transparent)]
struct Id {
    value: String,
    other: String,
}

fn main() {}
