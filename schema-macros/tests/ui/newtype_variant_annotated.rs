use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
struct Search {
    query: String,
}

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "action")]
enum Action {
    Search(#[schema(description = "what to search")] Search),
}

fn main() {}
