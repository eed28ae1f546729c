use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "type")]
enum Value {
    Text { text: String },
    #[serde(untagged)]
    Other { raw: String },
}

fn main() {}
