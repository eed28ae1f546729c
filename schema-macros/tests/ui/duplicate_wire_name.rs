use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Fast,
    FAST,
}

#[derive(AgentSchema, Deserialize)]
struct Pair {
    #[serde(rename = "id")]
    first: String,
    id: String,
}

fn main() {}
